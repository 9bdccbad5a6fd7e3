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

What a move may be is not decided twice: the houses, cementing, breaking, the retention duty
and every option that bears on them are the engine's own move generator's
(:class:`~.moves.Turn`), asked only for the cards that can do more than be thrown (most of a
hand can only be thrown, and a throw is counted here, never listed); the throw rule, the
play itself, the seeps and the scores are played on the masks. So every option of
:class:`~.options.SeepOptions` is played, except a bid that must be feasible on a floor
turned up before it (``bid_requires_floor_feasibility`` with ``reveal_floor_before_bid``),
which :func:`compact` refuses with :class:`UnsupportedRules`, as it refuses an option this
module does not know (one added to the engine later) rather than play a different game.

Policies:

* ``random``: uniformly random among the legal moves (each bid, each opening move and each
  play as likely as the next), the search's own Seep playout;
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
from .effects import ALONE, CEMENTED, LOOSE, MADE, OWNERS, REMOVED, THROWS, VERB, House, Move
from .floor import VALUES
from .moves import Turn
from .options import SeepOptions
from .position import Holding, Known, known_after
from .rules import BID, DEAL, OPEN, OVER, PLAY, SeepMatch, _rounds
from .scoring import Result, baazi_result

PHASE_DEAL, PHASE_BID, PHASE_OPEN, PHASE_PLAY, PHASE_OVER = 0, 1, 2, 3, 4
"""The compact state's phases: a deal is due, the bid, the opening play, the play, the match
is over."""

RANDOM = "random"
GREEDY = "greedy"
POLICIES = (RANDOM, GREEDY)

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
_ACES = mask_of(c for c in DECK if c.rank == 14)
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
card indices in dealing order, ``("bid", seat, value, bids)``, ``("play", seat, move, legal)``
with the move (a :data:`~.effects.Move`) and every move the loop held legal."""


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
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, False, None)


def play_match(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
               trace: Trace | None = None, deal_limit: int | None = None) -> tuple[int, ...]:
    """Play to the end of the baazi, dealing each new deal at random from ``rng``, and return
    each seat's final total. ``deal_limit`` stops between deals once that many have started, as
    the referee's deal limit does."""
    if state.phase == PHASE_OVER:
        return _seat_totals(state.rules, state.totals)
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, True, deal_limit)


def _greedy_flag(policy: str) -> bool:
    if policy not in POLICIES:
        raise UnsupportedRules(f"unknown playout policy {policy!r}: one of {', '.join(POLICIES)}")
    return policy == GREEDY


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


def _known(hands: Sequence[int], floor: int) -> Known:
    return [_holding(hand) for hand in hands], floor, indices(floor)


def _houses(houses: dict[int, int], kinds: dict[int, tuple[bool, frozenset[int]]]) -> dict[int, House]:
    """The houses as the move generator reads them (it never reads their cards)."""
    return {v: House(v, (), kinds[v][0], kinds[v][1]) for v in houses}




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


def _greedy_score(move: Move, floor: int, houses: dict[int, int], worth: Sequence[int], sweep: int) -> float:
    """What the greedy policy makes of a move (the module's docstring says why)."""
    card, effect = move
    verb = effect[VERB]
    if verb == "throw":
        return -worth[card] - 0.05 * VALUES[card]
    taken = 1 << card | effect[LOOSE]
    for v in effect[REMOVED]:
        taken |= houses.get(v, 0)
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


def _run(state: CompactState, rng: random.Random, greedy: bool, epsilon: float, trace: Trace | None,
         whole_match: bool, deal_limit: int | None) -> tuple[int, ...]:
    """The playout: deals, bids, the opening and the play, and the scores, until the deal
    (or the match) ends."""
    rules = state.rules
    options = rules.options
    n = rules.num_players
    sides = rules.sides
    side_of = rules.side_of
    keepers = rules.keepers
    seat_sides = tuple(sides[side_of[s]] for s in range(n))
    worth = rules.worth
    rand = rng.random
    no_other = options.throw_rule == "no_other_action"
    owners_throw = options.owner_may_throw
    reveal = options.reveal_floor_before_bid
    packet = options.deal_packet
    value_bit = _VALUE_BIT
    values_of = VALUES
    throws_of = THROWS
    phase = state.phase
    hands = list(state.hands)
    floor = state.floor
    floor_dealt = floor if phase == PHASE_BID else 0
    houses = {v: mask for v, mask, _, _ in state.houses}
    kinds = {v: (cemented, owners) for v, _, cemented, owners in state.houses}
    house_objects = _houses(houses, kinds)
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
    known: Known | None = None
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
            keys = [rand() for _ in range(52)]
            deck = sorted(range(52), key=keys.__getitem__)
            if trace is not None:
                trace.append(("deal", tuple(deck)))
            order = [(bidder - k) % n for k in range(n)]
            hands = [0] * n
            for card in deck[:4]:
                hands[bidder] |= 1 << card
            floor_dealt = 0
            for card in deck[4:8]:
                floor_dealt |= 1 << card
            at = 8
            for seat in order[1:]:
                for card in deck[at:at + 4]:
                    hands[seat] |= 1 << card
                at += 4
            later = []
            for count in rules.rounds:
                packets = [0] * n
                for _ in range(count // packet):
                    for seat in order:
                        for card in deck[at:at + packet]:
                            packets[seat] |= 1 << card
                        at += packet
                later.append(tuple(packets))
            floor = floor_dealt if reveal else 0
            houses, kinds, house_objects = {}, {}, {}
            piles = [0] * len(sides)
            bonus = [0] * len(sides)
            last_capturer = -1
            bid = 0
            phase = PHASE_BID
        if phase == PHASE_BID:
            held = hands[bidder]
            bids = [v for v in range(9, 14) if held & _VALUE_CARDS[v]]
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
        known = _known(hands, floor)
        # -- the plays ------------------------------------------------------------------------
        while True:
            opening = phase == PHASE_OPEN
            seat = turn
            if known is None:
                known = _known(hands, floor)
            generator = Turn(options, keepers, seat_sides[seat], known, house_objects, seat)
            hand = generator.hand
            if opening:
                listed = generator.opening_moves(bid)
                if greedy and rand() >= epsilon:
                    move = max(listed, key=lambda m: _greedy_score(m, floor, houses, worth, _sweep(
                        options, m[0], True, False)))
                else:
                    move = listed[int(rand() * len(listed))]
                legal: Sequence[Move] = listed
            else:
                live = generator.live
                # the cards that may not be thrown, each judged on its own (-1: none may be)
                if generator.unkept or (not owners_throw and any(seat in k[1] for k in kinds.values())):
                    barred = -1
                else:
                    barred = generator.unkept_if_spent
                    if not no_other:
                        barred |= generator.capture_values
                actions: list[Move] = []
                throws: list[int] = []
                for card in hand:
                    bit = value_bit[card]
                    if not barred & bit:
                        throws.append(card)
                    if live & bit:
                        # the engine's own captures, builds, cements and breaks of the value
                        found = generator._value_moves(values_of[card])
                        for effects in found:
                            for effect in effects:
                                actions.append((card, effect))
                if no_other and actions:
                    throws = []
                elif not actions and not throws:
                    throws = list(hand)
                choose = greedy and len(actions) + len(throws) > 1 and rand() >= epsilon
                if trace is not None or choose:
                    legal = actions + [throws_of[card] for card in throws]
                    if choose:
                        last = not later and sum(h.bit_count() for h in hands) == 1
                        move = max(legal, key=lambda m: _greedy_score(m, floor, houses, worth, _sweep(
                            options, m[0], False, last)))
                    else:
                        move = legal[int(rand() * len(legal))]
                else:
                    pick = int(rand() * (len(actions) + len(throws)))
                    move = actions[pick] if pick < len(actions) else throws_of[throws[pick - len(actions)]]
                    legal = ()
            if trace is not None:
                trace.append(("play", seat, move, tuple(legal)))
            # -- the move, on the masks (as SeepMatch._play) ---------------------------------------
            card, effect = move
            verb = effect[VERB]
            taken_loose = effect[LOOSE]
            removed = effect[REMOVED]
            made = effect[MADE]
            hands[seat] ^= 1 << card
            if taken_loose:
                floor &= ~taken_loose
            taken_houses = 0
            if removed or made:
                for v in removed:
                    if v in houses:
                        taken_houses |= houses.pop(v)
                        del kinds[v]
                if made:
                    houses[made] = 1 << card | taken_loose | taken_houses
                    kinds[made] = (effect[CEMENTED], effect[OWNERS] or ALONE[seat])
                house_objects = _houses(houses, kinds)
            emptied = not any(hands)
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
                    phase = PHASE_PLAY
                    known = None
                    continue
                break
            known = known_after(generator.known, seat, card, taken_loose, verb == "throw")
        # -- the deal's end (as SeepMatch._end_deal) ------------------------------------------------
        leftover = floor
        for mask in houses.values():
            leftover |= mask
        if leftover and last_capturer >= 0:
            piles[side_of[last_capturer]] |= leftover
        floor = 0
        houses, kinds, house_objects = {}, {}, {}
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


_VALUE_CARDS = tuple(sum(1 << i for i, v in enumerate(VALUES) if v == value) for value in range(14))
"""The mask of the four cards of each capture value."""
