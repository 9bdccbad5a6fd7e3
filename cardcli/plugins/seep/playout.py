"""Whole Seep playouts in one loop over a compact state, for search.

A search asks one question of a playout: how does this deal (or this match) end from here?
Through the engine's integer actions (:meth:`SeepMatch.legal_actions`,
:meth:`SeepMatch.apply_action`) every move pays for the whole canonical list of legal moves
(a tuple per throw, pairs for every capture and build), a checked action, the card lists of
the hands, the floor and the piles kept in canonical order, a :class:`House` with its cards
for every house, and a new deal of :class:`Card` lists and events. None of it is needed when
the loop makes the moves itself: here a playout unpacks a :class:`CompactState` (hands, the
floor, the houses' cards and the piles as 52-bit masks, small ints for the rest) into local
variables and plays to the end of the deal in one function.

What a move may be follows the engine's own move generator (:class:`~.moves.Turn`) step for
step, on the loop's masks (:class:`_Mover`): the houses, cementing, breaking, the retention
duty and every option that bears on them. It leaves out what a playout never reads: the
tokens' texts, the canonical order, the throws as a list (a card that can only be thrown,
most of a hand, is counted, never listed), and, under the ``card`` policy, the moves of every
card but the one drawn. The opening, once a deal, is the engine's own ``Turn``. So every
option of :class:`~.options.SeepOptions` is played, except a bid that must be feasible on a
floor turned up before it (``bid_requires_floor_feasibility`` with
``reveal_floor_before_bid``), which :func:`compact` refuses with :class:`UnsupportedRules`,
as it refuses an option this module does not know (one added to the engine later) rather
than play a different game.

Policies:

* ``random``: uniformly random among the legal moves (each bid, each opening move and each
  play as likely as the next), the search's own Seep playout;
* ``card``: a card of the hand at random, then one of its moves at random, as
  :meth:`SeepMatch.apply_random_card` plays (``playout=card``): uniform where that method is
  (the bid, the opening, the throw rule ``no_other_action``, a card that allows nothing);
* ``greedy``: the idea of :class:`~.heuristic.SeepHeuristic` without its look at what a move
  leaves exposed: the highest bid; the move that gains the most now, a capture worth its
  cards' points (a tenth more for each card, so the bigger of two pointless captures) plus
  the seep bonus when it empties the floor, a house worth half its cards' points and one
  more, a throw worth minus the thrown card's points and a twentieth of its value (the
  cheapest card goes); a random move with probability ``epsilon``.

tests/games/test_seep_playout.py checks, over thousands of seeded deals across the variants,
option sets and player counts, that the engine fed the same moves through its own API finds
the same legal moves at every turn and ends with the same scores.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Sequence

import attrs

from ...errors import CardcliError
from ...games.card_bits import DECK, INDEX, indices, mask_of
from ...games.sides import side_map, sides_for
from .effects import ALONE, CEMENTED, LOOSE, MADE, OWNERS, REMOVED, THROWS, VERB, Effect, Move
from .floor import VALUES, Bucket, floor_groups
from .moves import Turn
from .options import SeepOptions
from .position import Holding, Known
from .rules import BID, DEAL, OPEN, OVER, PLAY, SeepMatch, _rounds
from .scoring import Result, baazi_result

PHASE_DEAL, PHASE_BID, PHASE_OPEN, PHASE_PLAY, PHASE_OVER = 0, 1, 2, 3, 4
"""The compact state's phases: a deal is due, the bid, the opening play, the play, the match
is over."""

RANDOM = "random"
GREEDY = "greedy"
CARD = "card"
POLICIES = (RANDOM, GREEDY, CARD)

SUPPORTED_OPTIONS = frozenset({
    "first_dealer", "reveal_floor_before_bid", "bid_requires_floor_feasibility", "redeal_reveals_hand",
    "opening_allowed", "capture_must_be_maximal", "throw_rule", "owner_may_throw", "last_key_capture_only",
    "retention_scope", "opponent_cement_makes_coowner", "break_partner_house", "break_own_house", "cementing",
    "max_houses", "sweep", "sweep_first", "sweep_last", "min_deal_points", "min_includes_sweeps",
    "baazi_target", "dealer_rotation", "scoring", "majority_basis", "two_player_halves", "deal_packet",
})
"""The options this loop plays. An option the engine gains later is refused until it is
taught here, so a playout never quietly plays a rule the engine does not."""

_CHOICES = {
    "throw_rule": ("card_cannot_capture", "no_other_action"),
    "retention_scope": ("player", "team"),
    "dealer_rotation": ("ccw_each_hand", "pagat_score_based"),
    "scoring": ("standard100", "thirty", "casual_ten_two"),
    "majority_basis": ("spades", "cards"),
}
"""The values of the options with choices that this loop knows."""

_VALUE_BIT = tuple(1 << v for v in VALUES)
_SPADES = mask_of(c for c in DECK if c.suit == "S")
_THIRTY = {"TD": 12, "9S": 9, "2S": 1}


def _worth(scoring: str) -> tuple[int, ...]:
    """Each card's points under ``scoring``, by index: :func:`.scoring.card_worth`'s table."""
    found = []
    for card in DECK:
        if scoring == "thirty":
            found.append(_THIRTY.get(card.text, 1 if card.rank == 14 else 0))
        elif card.suit == "S":
            found.append(VALUES[INDEX[card]])
        elif card.rank == 14:
            found.append(1)
        else:
            found.append((6 if scoring == "standard100" else 2) if card.text == "TD" else 0)
    return tuple(found)


_WORTH = {scoring: _worth(scoring) for scoring in _CHOICES["scoring"]}


class UnsupportedRules(CardcliError):
    """The match uses a rule the compact playout does not play (an option it does not know,
    a value outside its choices, a bid that must be feasible on a floor shown before it)."""


@attrs.frozen
class CompactRules:
    """The options and seats as the loop reads them, decided once per match."""

    options: SeepOptions
    """The engine's options, which its move generator reads."""
    num_players: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    keepers: tuple[tuple[int, ...], ...]
    """Per seat, whose cards keep a house it owns (as the engine's ``_keepers``)."""
    seat_sides: tuple[tuple[int, ...], ...]
    """Each seat's side, as its seats."""
    rounds: tuple[int, ...]
    """Cards each player gets after the opening, round by round."""
    worth: tuple[int, ...]
    """Each card's points by index."""

    @classmethod
    def of(cls, options: SeepOptions, num_players: int) -> "CompactRules":
        """The rules of ``options``; :class:`UnsupportedRules` for anything this loop does not
        play exactly as the engine does."""
        names = {f.name for f in attrs.fields(type(options))}
        unknown = sorted(names - SUPPORTED_OPTIONS)
        if unknown:
            raise UnsupportedRules(f"the compact Seep playout does not play the option(s) {', '.join(unknown)}")
        for name, allowed in _CHOICES.items():
            if getattr(options, name) not in allowed:
                raise UnsupportedRules(f"the compact Seep playout does not play {name}={getattr(options, name)!r}")
        if options.reveal_floor_before_bid and options.bid_requires_floor_feasibility:
            raise UnsupportedRules("the compact Seep playout does not play bids that must be feasible on the floor")
        if num_players not in (2, 3, 4):
            raise UnsupportedRules(f"the compact Seep playout does not play {num_players} players")
        sides = sides_for(num_players)
        side_of = side_map(sides)
        team = options.retention_scope == "team"
        return cls(
            options=options,
            num_players=num_players,
            sides=tuple(tuple(side) for side in sides),
            side_of=tuple(side_of[s] for s in range(num_players)),
            keepers=tuple(tuple(sides[side_of[s]]) if team else (s,) for s in range(num_players)),
            seat_sides=tuple(tuple(sides[side_of[s]]) for s in range(num_players)),
            rounds=tuple(_rounds(options, num_players)),
            worth=_WORTH[options.scoring],
        )


CompactHouse = tuple[int, int, bool, frozenset[int]]
"""A house: its value, its cards (a mask), cemented, its owners."""


@attrs.frozen
class CompactState:
    """A Seep match at one point, in integers: what a playout starts from.

    It is a value, so one state serves any number of playouts (the loop works on local
    copies)."""

    rules: CompactRules
    phase: int
    """:data:`PHASE_DEAL`, :data:`PHASE_BID`, :data:`PHASE_OPEN`, :data:`PHASE_PLAY` or
    :data:`PHASE_OVER`."""
    hands: tuple[int, ...]
    floor: int
    """The loose cards on the floor (the floor dealt face down, during the bid)."""
    houses: tuple[CompactHouse, ...]
    later: tuple[tuple[int, ...], ...]
    """The rounds still to be dealt in this deal, each as every seat's cards."""
    piles: tuple[int, ...]
    """Each side's captured cards in this deal."""
    bonus: tuple[int, ...]
    """Each side's seep bonuses in this deal."""
    last_capturer: int
    """-1: nobody has captured in this deal."""
    bid: int
    bidder: int
    turn: int
    dealer: int
    deals: int
    """Deals started, as the engine's ``deal_number``."""
    same_dealer: bool
    """The last deal was void: the same dealer deals again."""
    totals: tuple[int, ...]
    """Each side's total."""
    under: frozenset[int]
    """Sides under the minimum while a tie for the best total is played off."""


@functools.lru_cache(maxsize=64)
def _rules_of(options: SeepOptions, num_players: int) -> CompactRules:
    """:meth:`CompactRules.of`, once per set of options: a search makes a state compact on
    every iteration."""
    return CompactRules.of(options, num_players)


def compact(match: SeepMatch) -> CompactState:
    """The compact state of ``match`` wherever it stands: between deals, at the bid, at the
    opening play or at any point of the play."""
    rules = _rules_of(match.options, match.num_players)
    n = match.num_players
    phase = match.phase
    if phase is PLAY or phase is OPEN:
        code = PHASE_PLAY if phase is PLAY else PHASE_OPEN
        floor = mask_of(match.loose)
    elif phase is BID:
        code = PHASE_BID
        floor = mask_of(match._floor_dealt)
    elif phase is DEAL:
        code, floor = PHASE_DEAL, 0
    elif phase is OVER:
        code, floor = PHASE_OVER, 0
    else:  # pragma: no cover
        raise UnsupportedRules(f"no compact state for phase {phase}")
    mid_deal = code in (PHASE_BID, PHASE_OPEN, PHASE_PLAY)
    return CompactState(
        rules=rules,
        phase=code,
        hands=tuple(mask_of(hand) for hand in match.hands) if mid_deal else (0,) * n,
        floor=floor,
        houses=tuple((v, mask_of(h.cards), h.cemented, h.owners) for v, h in sorted(match.houses.items()))
        if mid_deal else (),
        later=tuple(tuple(mask_of(packets[s]) for s in range(n)) for packets in match._later) if mid_deal else (),
        piles=tuple(mask_of(pile) for pile in match.piles) if mid_deal else (0,) * len(rules.sides),
        bonus=tuple(match.bonus) if mid_deal else (0,) * len(rules.sides),
        last_capturer=-1 if match.last_capturer is None else match.last_capturer,
        bid=match.bid,
        bidder=match.bidder,
        turn=match.turn,
        dealer=match.dealer,
        deals=match.deal_number,
        same_dealer=match._same_dealer,
        totals=tuple(match.side_totals),
        under=frozenset(match._under),
    )


Trace = list[tuple[Any, ...]]
"""What a playout did, when asked (for the consistency tests): ``("deal", deck)`` with the 52
card indices in dealing order, ``("bid", seat, value, bids)``, ``("play", seat, move, legal,
drawn)`` with the move (a :data:`~.effects.Move`), every move the loop held legal, and under
the ``card`` policy the moves it found for the card drawn (empty otherwise, and when the card
allows nothing)."""


def moves_left(state: CompactState) -> int:
    """The moves a playout from ``state`` plays to the end of its deal (the bid is one move):
    what a search counts against a budget of moves."""
    if state.phase in (PHASE_OPEN, PHASE_PLAY, PHASE_BID):
        cards = sum(hand.bit_count() for hand in state.hands)
        cards += sum(mask.bit_count() for packets in state.later for mask in packets)
        return cards + (state.phase == PHASE_BID)
    if state.phase == PHASE_DEAL:
        return 49
    return 0


def play_deal(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
              trace: Trace | None = None) -> tuple[int, ...]:
    """Play the deal in progress (or, between deals, a new random one) to its end and return
    each seat's points in it (its side's cards and seeps; all 0 for a void deal): what a
    search's reward reads."""
    if state.phase == PHASE_OVER:
        raise UnsupportedRules("the match is over: there is no deal to play")
    return _run(state, rng, _checked(policy), epsilon, trace, False, None)


def play_match(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
               trace: Trace | None = None, deal_limit: int | None = None) -> tuple[int, ...]:
    """Play to the end of the baazi, dealing each new deal at random from ``rng``, and return
    each seat's final total. ``deal_limit`` stops between deals once that many have started, as
    the referee's deal limit does."""
    if state.phase == PHASE_OVER:
        return _seat_totals(state.rules, state.totals)
    return _run(state, rng, _checked(policy), epsilon, trace, True, deal_limit)


def _checked(policy: str) -> str:
    if policy not in POLICIES:
        raise UnsupportedRules(f"unknown playout policy {policy!r}: one of {', '.join(POLICIES)}")
    return policy


def _seat_totals(rules: CompactRules, totals: Sequence[int]) -> tuple[int, ...]:
    return tuple(totals[side] for side in rules.side_of)


def _holding(mask: int) -> Holding:
    """A hand's :data:`Holding` from its mask (as :func:`.position.holding` reads a list)."""
    held = twice = 0
    cards = indices(mask)
    for card in cards:
        bit = _VALUE_BIT[card]
        twice |= held & bit
        held |= bit
    return cards, mask, held | 1, twice


def _points(rules: CompactRules, piles: Sequence[int], bonus: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each side's points in a deal and the sides under the minimum:
    :func:`.scoring.deal_points` on masks."""
    options = rules.options
    worth = rules.worth
    cards = []
    for pile in piles:
        total = 0
        while pile:
            low = pile & -pile
            total += worth[low.bit_length() - 1]
            pile ^= low
        cards.append(total)
    scoring = options.scoring
    if scoring in ("thirty", "casual_ten_two"):
        basis = options.majority_basis if scoring == "thirty" else "cards"
        counts = [(pile & _SPADES).bit_count() if basis == "spades" else pile.bit_count() for pile in piles]
        need = 7 if basis == "spades" else 27
        for i, count in enumerate(counts):
            if count >= need and all(count > other for j, other in enumerate(counts) if j != i):
                cards[i] += 4
    points = [p + b for p, b in zip(cards, bonus)]
    counted = points if options.min_includes_sweeps else cards
    return points, [i for i, p in enumerate(counted) if p < options.min_deal_points]


def _sweep(options: SeepOptions, card: int, opening: bool, last: bool) -> int:
    """:func:`.scoring.sweep_bonus` for a card index."""
    if options.scoring == "thirty":
        return 0 if last else VALUES[card]
    if last:
        return options.sweep_last
    return options.sweep_first if opening else options.sweep


def _greedy_score(move: Move, floor: int, houses: dict[int, list[Any]], worth: Sequence[int], sweep: int) -> float:
    """What the greedy policy makes of a move (the module's docstring says why)."""
    card, effect = move
    verb = effect[VERB]
    if verb == "throw":
        return -worth[card] - 0.05 * VALUES[card]
    taken = 1 << card | effect[LOOSE]
    for v in effect[REMOVED]:
        if v in houses:
            taken |= houses[v][0]
    points = 0
    count = taken.bit_count()
    while taken:
        low = taken & -taken
        points += worth[low.bit_length() - 1]
        taken ^= low
    if verb == "take":
        gain = points + 0.1 * count
        if not floor & ~effect[LOOSE] and all(v in effect[REMOVED] for v in houses):
            gain += sweep
        return gain
    return 0.5 * points + 1.0


class _Mover:
    """The captures, builds, cements and breaks of one seat in one position, as the engine's
    :class:`~.moves.Turn` finds them (the same rules, step for step: the retention duty of
    every house, what each kind of move needs), over the loop's masks and without the tokens'
    texts, the canonical order or a cache of effects by value that a playout never asks
    twice. The throws are the loop's own: it counts them and lists none.

    Made once per playout and pointed at each turn's position by :meth:`at` (every value) or
    :meth:`card_at` (one card's value, for the ``card`` policy)."""

    __slots__ = (
        "rules", "cementing", "maximal", "last_key", "player_scope", "coowner", "break_own", "break_partner",
        "max_houses", "seat", "side", "held", "twice", "houses", "floor", "groups_of",
        "unkept", "unkept_if_spent", "targets", "capture_values", "build_values", "cement_values",
        "break_values", "live", "_cementing",
    )

    def __init__(self, rules: CompactRules) -> None:
        options = rules.options
        self.rules = rules
        self.cementing = options.cementing
        self.maximal = options.capture_must_be_maximal
        self.last_key = options.last_key_capture_only
        self.player_scope = options.retention_scope == "player"
        self.coowner = options.opponent_cement_makes_coowner
        self.break_own = options.break_own_house
        self.break_partner = options.break_partner_house
        self.max_houses = options.max_houses
        self.groups_of: Sequence[Sequence[int]] | None = None

    def at(self, seat: int, held: list[int], hand: int, houses: dict[int, list[Any]], floor: int) -> None:
        """Read the position: ``held`` is every seat's values (bits), ``hand`` the mover's
        cards, ``houses`` each house as ``[cards, cemented, owners]``."""
        self.seat = seat
        self.side = self.rules.seat_sides[seat]
        self.held = held
        held_values = held[seat]
        # the house values held twice or more: the only values whose second card matters
        twice = self.twice = _twice(hand, held_values & _HOUSE_BITS) if held_values & _HOUSE_BITS else 0
        self.houses = houses
        self.floor = floor
        self.groups_of = None
        values = _floor_values(floor)
        mirrored = _MIRROR_7[values & 127] << 7 | _MIRROR_7[values >> 7]
        self.unkept = self.unkept_if_spent = 0
        if not houses:
            targets = held_values & _HOUSE_BITS
            self.targets = targets
            build = 0
            if targets:
                for target in _HOUSE_VALUES_OF[targets >> 9]:
                    build |= mirrored >> 13 - target & (1 << target) - 2
                build |= targets & values & twice
            self.capture_values = values
            self.build_values = build
            self.cement_values = self.break_values = 0
            self.live = values | build
            return
        self._unkept(houses)
        cementing = self.cementing
        house_bits = cement = raise_ = 0
        for target, house in houses.items():
            house_bits |= 1 << target
            if cementing:
                cement |= 1 << target | mirrored >> 13 - target & (1 << target) - 2
            if not house[1]:
                raise_ |= held_values >> target & ~1
        targets = held_values & ~house_bits & _HOUSE_BITS
        if self.max_houses and len(houses) >= self.max_houses:
            targets = 0
        self.targets = targets
        build = 0
        if targets:
            for target in _HOUSE_VALUES_OF[targets >> 9]:
                build |= mirrored >> 13 - target & (1 << target) - 2
            build |= targets & values & twice
        self.capture_values = values | house_bits
        self.build_values = build
        self.cement_values = cement
        self.break_values = raise_
        self.live = values | house_bits | build | cement | raise_

    def card_at(self, seat: int, held: list[int], hand: int, houses: dict[int, list[Any]], floor: int,
                v: int) -> bool:
        """Read the position for the moves of one card of value ``v`` alone (the ``card``
        policy): :meth:`at` with each kind's bits found for ``v`` only, which a few shifts
        tell, and whether a card of ``v`` may do more than be thrown."""
        self.seat = seat
        self.side = self.rules.seat_sides[seat]
        self.held = held
        held_values = held[seat]
        self.houses = houses
        self.floor = floor
        self.groups_of = None
        values = _floor_values(floor)
        bit = 1 << v
        # the house values held twice or more, which only the houses and a build of v itself read
        if houses or held_values & values & bit & _HOUSE_BITS:
            twice = self.twice = _twice(hand, held_values & _HOUSE_BITS)
        else:
            twice = self.twice = 0
        self.unkept = self.unkept_if_spent = 0
        house_bits = cement = raise_ = 0
        if houses:
            self._unkept(houses)
            cementing = self.cementing
            for target, house in houses.items():
                house_bits |= 1 << target
                if cementing and (target == v or target > v and values >> target - v & 1):
                    cement = bit
                if not house[1] and held_values >> target + v & 1:
                    raise_ = bit
        targets = held_values & ~house_bits & _HOUSE_BITS
        if houses and self.max_houses and len(houses) >= self.max_houses:
            targets = 0
        self.targets = targets
        build = 0
        if targets:
            for target in _HOUSE_VALUES_OF[targets >> 9]:
                if target > v and values >> target - v & 1:
                    build = bit
                    break
            build |= targets & values & twice & bit
        self.capture_values = values | house_bits
        self.build_values = build
        self.cement_values = cement
        self.break_values = raise_
        return bool((values | house_bits | build | cement | raise_) & bit)

    def _unkept(self, houses: dict[int, list[Any]]) -> None:
        """Forget the last turn's cementing owners, and mark the houses a move may not leave
        unkept (:meth:`_kept`; only under the ``last_key_capture_only`` option)."""
        self._cementing: dict[int, tuple[frozenset[int], bool, bool]] = {}
        if self.last_key:
            for target, house in houses.items():
                kept, kept_if_spent = self._kept(target, house[2])
                if not kept:
                    self.unkept |= 1 << target
                if not kept_if_spent:
                    self.unkept_if_spent |= 1 << target

    def groups(self) -> Sequence[Sequence[int]]:
        """Each value's groups of the floor's loose cards (:func:`.floor.floor_groups`), found
        when a move first needs them."""
        found = self.groups_of
        if found is None:
            floor = self.floor
            found = self.groups_of = _small_groups(floor) if floor.bit_count() <= 3 else floor_groups(indices(floor))
        return found

    def effects(self, v: int) -> list[Effect]:
        """The captures, builds, cements and breaks of a card of value ``v`` (the engine's
        ``Turn._of_value``), in no particular order."""
        bit = 1 << v
        found: list[Effect] = []
        unkept = self.unkept | self.unkept_if_spent & bit
        if self.capture_values & bit:
            house = v in self.houses
            if not (unkept & ~(bit if house else 0)):
                groups = (self.groups_of or self.groups())[v]
                if not groups:
                    found.append(_TAKE_HOUSE[v])
                elif house:
                    removed = _ONLY[v]
                    for taken in _packs(groups, self.maximal):
                        found.append(("take", taken, removed, 0, False, None, "", ""))
                elif len(groups) == 1 and self.maximal:
                    found.append(("take", groups[0], (), 0, False, None, "", ""))
                else:
                    for taken in _packs(groups, self.maximal):
                        if taken:
                            found.append(("take", taken, (), 0, False, None, "", ""))
        if self.build_values & bit and not unkept:
            targets = self.targets & -bit
            if not (self.twice & bit and self.cementing):
                targets &= ~bit
            if targets:
                self._builds(v, targets, found)
        if self.cement_values & bit:
            self._cements(v, unkept, found)
        if self.break_values & bit:
            self._breaks(v, unkept, found)
        return found

    def _builds(self, v: int, targets: int, found: list[Effect]) -> None:
        sums = self.groups()
        floor = self.floor
        cementing = self.cementing
        for target in _HOUSE_VALUES_OF[targets >> 9]:
            firsts: Sequence[int] = (0,) if target == v else sums[target - v]
            groups = sums[target]
            if not cementing or not groups:
                for first in firsts:
                    if first:
                        found.append(("build", first, (), target, target == v, None, "", ""))
                continue
            seen: set[int] = set()
            for first in firsts:
                rest = floor & ~first
                inside = [g for g in groups if not g & ~rest]
                for taken in _packs(inside, True):
                    used = first | taken
                    if not used or used in seen:
                        continue
                    seen.add(used)
                    found.append(("build", used, (), target, target == v or bool(taken), None, "", ""))

    def _cements(self, v: int, unkept: int, found: list[Effect]) -> None:
        groups = None
        for target in self.houses:
            if v == target:
                combos: Sequence[int] = (0,)
            elif target > v:
                if groups is None:
                    groups = self.groups()
                combos = groups[target - v]
                if not combos:
                    continue
            else:
                continue
            if unkept & ~(1 << target):
                continue
            owners, kept, kept_if_spent = self._cementing.get(target) or self._cemented_by_seat(target)
            if not (kept_if_spent if v == target else kept):
                continue
            removed = _ONLY[target]
            for combo in combos:
                found.append(("cement", combo, removed, target, True, owners, "", ""))

    def _cemented_by_seat(self, target: int) -> tuple[frozenset[int], bool, bool]:
        owners: frozenset[int] = self.houses[target][2]
        if self.last_key:
            kept, kept_if_spent = not self.unkept >> target & 1, not self.unkept_if_spent >> target & 1
        else:
            kept, kept_if_spent = self._kept(target, owners)
        if self.coowner and not owners.intersection(self.side):
            owners = owners | ALONE[self.seat]
            seat_kept, seat_kept_if_spent = self._kept(target, ALONE[self.seat])
            kept, kept_if_spent = kept and seat_kept, kept_if_spent and seat_kept_if_spent
        found = self._cementing[target] = (owners, kept, kept_if_spent)
        return found

    def _breaks(self, v: int, unkept: int, found: list[Effect]) -> None:
        seat = self.seat
        held = self.held[seat]
        houses = self.houses
        for old, house in houses.items():
            target = old + v
            owners: frozenset[int] = house[2]
            if house[1] or target > 13 or not held >> target & 1:
                continue
            if seat in owners:
                if not self.break_own:
                    continue
            elif not self.break_partner and owners.intersection(self.side):
                continue
            existing = houses.get(target)
            if existing is not None:
                merged = existing[2] | ALONE[seat]
                if (self.cementing and not unkept & ~(1 << old | 1 << target)
                        and self._kept(target, merged)[0]):
                    found.append(("break", 0, (old, target), target, True, merged, "", ""))
                continue
            if unkept & ~(1 << old):
                continue
            groups = self.groups()[target] if self.cementing else None
            alone = ALONE[seat]
            removed = _ONLY[old]
            for taken in _packs(groups, True) if groups else (0,):
                found.append(("break", taken, removed, target, bool(taken), alone, "", ""))

    def _kept(self, target: int, owners: frozenset[int]) -> tuple[bool, bool]:
        """The engine's ``Turn._kept``: whether every owner of a house of ``target`` keeps a
        key once the seat plays a card of another value, and once it spends one of
        ``target``."""
        bit = 1 << target
        seat = self.seat
        held = self.held
        kept = kept_if_spent = True
        if self.player_scope:
            for owner in owners:
                if not held[owner] & bit:
                    return False, False
                if owner == seat and not self.twice & bit:
                    kept_if_spent = False
            return kept, kept_if_spent
        keepers = self.rules.keepers
        for owner in owners:
            got = got_if_spent = False
            for keeper in keepers[owner]:
                if held[keeper] & bit:
                    got = True
                    if keeper != seat or self.twice & bit:
                        got_if_spent = True
                        break
            kept = kept and got
            kept_if_spent = kept_if_spent and got_if_spent
        return kept, kept_if_spent


def _packs(groups: Sequence[int], maximal: bool) -> list[int]:
    """The distinct sets of cards that disjoint ``groups`` make together, as masks
    (:func:`.floor.pack_groups` without the texts): with ``maximal``, only those that leave
    no group whole; otherwise every one, taking nothing included."""
    if len(groups) <= 1:
        if not groups:
            return [0]
        return [groups[0]] if maximal else [0, groups[0]]
    result: dict[int, None] = {}
    _extend(groups, maximal, 0, 0, result)
    return list(result)


def _extend(groups: Sequence[int], maximal: bool, start: int, used: int, result: dict[int, None]) -> None:
    if used not in result:
        if maximal:
            for group in groups:
                if not group & used:
                    break
            else:
                result[used] = None
        else:
            result[used] = None
    for k in range(start, len(groups)):
        group = groups[k]
        if not group & used:
            _extend(groups, maximal, k + 1, used | group, result)


_HOUSE_BITS = sum(1 << v for v in range(9, 14))
_HOUSE_VALUES_OF = tuple(tuple(9 + k for k in range(5) if bits >> k & 1) for bits in range(32))
_ONLY = tuple((v,) for v in range(14))
_TAKE_HOUSE: tuple[Effect, ...] = tuple(("take", 0, _ONLY[v], 0, False, None, "", "") for v in range(14))


def _run(state: CompactState, rng: random.Random, policy: str, epsilon: float, trace: Trace | None,
         whole_match: bool, deal_limit: int | None) -> tuple[int, ...]:
    """The playout: deals, bids, the opening and the play, and the scores, until the deal
    (or the match) ends."""
    rules = state.rules
    options = rules.options
    greedy = policy == GREEDY
    n = rules.num_players
    sides = rules.sides
    side_of = rules.side_of
    worth = rules.worth
    rand = rng.random
    no_other = options.throw_rule == "no_other_action"
    card_first = policy == CARD and not no_other
    owners_throw = options.owner_may_throw
    reveal = options.reveal_floor_before_bid
    packet = options.deal_packet
    value_cards = _VALUE_CARDS
    values_of = VALUES
    throws_of = THROWS
    mover = _Mover(rules)
    phase = state.phase
    hands = list(state.hands)
    floor = state.floor
    floor_dealt = floor if phase == PHASE_BID else 0
    houses: dict[int, list[Any]] = {v: [mask, cemented, owners] for v, mask, cemented, owners in state.houses}
    later = list(state.later)
    piles = list(state.piles)
    bonus = list(state.bonus)
    last_capturer = state.last_capturer
    bid = state.bid
    bidder = state.bidder
    turn = state.turn
    dealer = state.dealer
    deals = state.deals
    same_dealer = state.same_dealer
    totals = list(state.totals)
    under = set(state.under)
    held = [0] * n
    while True:
        if phase == PHASE_DEAL:
            if whole_match and deal_limit is not None and deals >= deal_limit:
                return _seat_totals(rules, totals)
            if deals and not same_dealer:
                previous = (dealer - 1) % n
                if options.dealer_rotation == "ccw_each_hand":
                    dealer = previous
                else:
                    mine = totals[side_of[dealer]]
                    ahead = all(mine > t for i, t in enumerate(totals) if i != side_of[dealer])
                    dealer = previous if ahead else dealer
            same_dealer = False
            deals += 1
            bidder = turn = (dealer - 1) % n
            keys = [rand() for _ in _CARDS]
            deck = sorted(_CARDS, key=keys.__getitem__)
            if trace is not None:
                trace.append(("deal", tuple(deck)))
            order = [(bidder - k) % n for k in range(n)]
            hands = [0] * n
            bits = [1 << card for card in deck]
            hands[bidder] = bits[0] | bits[1] | bits[2] | bits[3]
            floor_dealt = bits[4] | bits[5] | bits[6] | bits[7]
            at = 8
            for seat in order[1:]:
                hands[seat] = bits[at] | bits[at + 1] | bits[at + 2] | bits[at + 3]
                at += 4
            later = []
            for count in rules.rounds:
                packets = [0] * n
                for _ in range(count // packet):
                    for seat in order:
                        for bit in bits[at:at + packet]:
                            packets[seat] |= bit
                        at += packet
                later.append(tuple(packets))
            floor = floor_dealt if reveal else 0
            houses = {}
            piles = [0] * len(sides)
            bonus = [0] * len(sides)
            last_capturer = -1
            bid = 0
            phase = PHASE_BID
        if phase == PHASE_BID:
            mine = hands[bidder]
            bids = [v for v in range(9, 14) if mine & value_cards[v]]
            if not bids:  # a void deal: nothing scored, the same dealer deals again
                same_dealer = True
                phase = PHASE_DEAL
                if not whole_match:
                    return (0,) * n
                continue
            if greedy and rand() >= epsilon:
                bid = bids[-1]
            else:
                bid = bids[int(rand() * len(bids))]
            if trace is not None:
                trace.append(("bid", bidder, bid, tuple(bids)))
            if not reveal:
                floor = floor_dealt
            phase = PHASE_OPEN
            turn = bidder
        held = [_held(hand) for hand in hands]
        # -- the plays ------------------------------------------------------------------------
        while True:
            opening = phase == PHASE_OPEN
            seat = turn
            hand = hands[seat]
            legal: Sequence[Move] = ()
            move: Move | None = None
            its: list[Move] = []
            if opening:
                # once a deal, with no house on the floor: the engine's own opening rules
                known: Known = ([_holding(h) for h in hands], floor, indices(floor))
                listed = Turn(options, rules.keepers, rules.seat_sides[seat], known, {}, seat).opening_moves(bid)
                if greedy and rand() >= epsilon:
                    move = max(listed, key=lambda m: _greedy_score(m, floor, houses, worth, _sweep(
                        options, m[0], True, False)))
                else:
                    move = listed[int(rand() * len(listed))]
                legal = listed
            else:
                if card_first:
                    # a card of the hand at random, then one of its moves (SeepMatch.apply_random_card)
                    chosen = _nth(hand, int(rand() * hand.bit_count()))
                    v = values_of[chosen]
                    live_v = mover.card_at(seat, held, hand, houses, floor, v)
                    if live_v:
                        its = [(chosen, effect) for effect in mover.effects(v)]
                    if not (mover.unkept or (not owners_throw and houses
                                             and any(seat in h[2] for h in houses.values()))
                            or (mover.unkept_if_spent | mover.capture_values) >> v & 1):
                        its.append(throws_of[chosen])
                    if its:
                        move = its[int(rand() * len(its))]
                if move is None or trace is not None:
                    mover.at(seat, held, hand, houses, floor)
                    # the cards that may not be thrown, each judged on its own (-1: none may be)
                    if mover.unkept or (not owners_throw and houses and any(seat in h[2] for h in houses.values())):
                        throwable = 0
                    else:
                        barred = (mover.unkept_if_spent | (0 if no_other else mover.capture_values)) & held[seat]
                        throwable = hand
                        while barred:
                            low = barred & -barred
                            throwable &= ~value_cards[low.bit_length() - 1]
                            barred ^= low
                    # each live value's effects, with the cards of the value that make them
                    live = mover.live & held[seat]
                    found: list[tuple[list[Effect], int]] = []
                    count = 0
                    while live:
                        low = live & -live
                        live ^= low
                        v = low.bit_length() - 1
                        effects = mover.effects(v)
                        if effects:
                            cards = hand & value_cards[v]
                            found.append((effects, cards))
                            count += len(effects) * cards.bit_count()
                    if no_other and count:
                        throwable = 0
                    elif not count and not throwable:
                        throwable = hand
                    total = count + throwable.bit_count()
                    choose = move is None and greedy and total > 1 and rand() >= epsilon
                    if trace is not None or choose:
                        legal = [(card, effect) for effects, cards in found
                                 for card in indices(cards) for effect in effects]
                        legal += [throws_of[card] for card in indices(throwable)]
                        if choose:
                            last = not later and sum(h.bit_count() for h in hands) == 1
                            move = max(legal, key=lambda m: _greedy_score(m, floor, houses, worth, _sweep(
                                options, m[0], False, last)))
                        elif move is None:
                            move = legal[int(rand() * total)]
                    else:
                        pick = int(rand() * total)
                        if pick < count:
                            for effects, cards in found:
                                size = len(effects) * cards.bit_count()
                                if pick < size:
                                    which, pick = divmod(pick, len(effects))
                                    move = (_nth(cards, which), effects[pick])
                                    break
                                pick -= size
                        else:
                            move = throws_of[_nth(throwable, pick - count)]
            assert move is not None  # every branch above chose one
            if trace is not None:
                trace.append(("play", seat, move, tuple(legal), tuple(its)))
            # -- the move, on the masks (as SeepMatch._play) ---------------------------------------
            card, effect = move
            verb = effect[VERB]
            taken_loose = effect[LOOSE]
            hand ^= 1 << card
            hands[seat] = hand
            if not hand & value_cards[values_of[card]]:
                held[seat] &= ~(1 << values_of[card])
            if taken_loose:
                floor &= ~taken_loose
            taken_houses = 0
            removed = effect[REMOVED]
            made = effect[MADE]
            if removed or made:
                for v in removed:
                    if v in houses:
                        taken_houses |= houses.pop(v)[0]
                if made:
                    houses[made] = [1 << card | taken_loose | taken_houses, effect[CEMENTED],
                                    effect[OWNERS] or ALONE[seat]]
            emptied = not hand and not any(hands)
            if verb == "take":
                side = side_of[seat]
                piles[side] |= 1 << card | taken_loose | taken_houses
                last_capturer = seat
                if not floor and not houses:
                    bonus[side] += _sweep(options, card, opening, emptied and not opening and not later)
            elif verb == "throw":
                floor |= 1 << card
            turn = (seat - 1) % n
            if opening or emptied:
                if opening or later:
                    for s, cards in enumerate(later.pop(0)):
                        hands[s] |= cards
                    held = [_held(h) for h in hands]
                    phase = PHASE_PLAY
                    continue
                break
        # -- the deal's end (as SeepMatch._end_deal) ------------------------------------------------
        leftover = floor
        for house in houses.values():
            leftover |= house[0]
        if leftover and last_capturer >= 0:
            piles[side_of[last_capturer]] |= leftover
        floor = 0
        houses = {}
        side_points, fell = _points(rules, piles, bonus)
        for i, p in enumerate(side_points):
            totals[i] += p
        out = under | set(fell)
        result: Result | None = baazi_result(sides, totals, out, options.baazi_target)
        if result is None and out:
            under = out
        if not whole_match:
            return tuple(side_points[side_of[s]] for s in range(n))
        if result is not None:
            return _seat_totals(rules, totals)
        phase = PHASE_DEAL


_CARDS = range(52)


def _floor_values(floor: int) -> int:
    """The values (bits) some group of the loose cards of ``floor`` sums to: the first answer
    of :func:`.floor.floor_sums`, found on the mask without listing its cards."""
    reached = 1
    while floor:
        low = floor & -floor
        reached = (reached | reached << VALUES[low.bit_length() - 1]) & 0x3FFF
        floor ^= low
    return reached & ~1


_MIRROR_7 = tuple(sum(1 << 6 - k for k in range(7) if bits >> k & 1) for bits in range(128))
"""Seven bits in reverse order: the values of :func:`_floor_values` mirrored (bit ``13 - v``
for ``v``, the second answer of :func:`.floor.floor_sums`) are two look-ups."""


def _small_groups(floor: int) -> Sequence[Sequence[int]]:
    """:func:`.floor.floor_groups` of a floor (a mask) of at most three cards, in its order,
    without listing the cards or walking its subsets: four turns in five of a random
    playout meet such a floor, and for them the walk's setup costs more than the groups
    (with :func:`_floor_values`, random playouts about 3% faster)."""
    found: list[Bucket] = [()] * 14
    if floor.bit_count() == 3:
        _add_three(floor, found)
    elif floor:
        first = floor & -floor
        v = VALUES[first.bit_length() - 1]
        found[v] = [first]
        second = floor ^ first
        if second:
            w = VALUES[second.bit_length() - 1]
            if v + w <= 13:
                found[v + w] = [floor]
            found[w] = [first, second] if w == v else [second]
    return found


def _add_three(floor: int, found: list[Bucket]) -> None:
    """The groups of the three cards ``a < b < c`` of ``floor`` into ``found``, in the walk's
    order: ``a``, ``a+b``, ``a+b+c``, ``a+c``, ``b``, ``b+c``, ``c``."""
    ba = floor & -floor
    rest = floor ^ ba
    bb = rest & -rest
    bc = rest ^ bb
    va, vb, vc = VALUES[ba.bit_length() - 1], VALUES[bb.bit_length() - 1], VALUES[bc.bit_length() - 1]
    for group, total in ((ba, va), (ba | bb, va + vb), (floor, va + vb + vc), (ba | bc, va + vc),
                         (bb, vb), (bb | bc, vb + vc), (bc, vc)):
        if total <= 13:
            bucket = found[total]
            if bucket:
                bucket.append(group)
            else:
                found[total] = [group]


def _nth(mask: int, j: int) -> int:
    """The ``j``-th card (from 0, in index order) of ``mask``."""
    for _ in range(j):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _held(hand: int) -> int:
    """The capture values of a hand's cards, as bits."""
    found = 0
    for v in range(1, 14):
        if hand & _VALUE_CARDS[v]:
            found |= 1 << v
    return found


def _twice(hand: int, held: int) -> int:
    """The values of ``held`` (bits) that ``hand`` holds two cards of or more."""
    found = 0
    while held:
        low = held & -held
        held ^= low
        cards = hand & _VALUE_CARDS[low.bit_length() - 1]
        if cards & cards - 1:
            found |= low
    return found


_VALUE_CARDS = tuple(sum(1 << i for i, v in enumerate(VALUES) if v == value) for value in range(14))
"""The mask of the four cards of each capture value."""
