"""Whole Peppa playouts in one loop over a compact state, for search.

A search asks one question of a playout: how does this deal (or this match) end from here?
Through the engine's integer actions (:meth:`PeppaMatch.legal_actions`,
:meth:`PeppaMatch.apply_action`) each move pays for a method call, a legality check, the
trick object's bookkeeping and a list of legal actions built only to pick one of them. None
of it is needed when the moves are made by the loop itself: here a playout unpacks a
:class:`CompactState` (hands and taken cards as 52-bit integers, small ints for the trick, the
turn, the scores) into local variables and plays every remaining trick in one function, with
the follow-suit rule as one ``&`` and a shift, a random card as one table look-up, and the
trick's winner as an integer comparison (cards of one suit are numbered in rank order).

Two policies: uniformly random legal moves, and the cheap penalty-game rule of thumb that
:class:`~cardcli.players.search.playouts.TrickPolicy` describes (``avoid``): lead the weakest
card, follow with the strongest card that still loses (else the strongest), and when void
throw the card carrying the most points, then the strongest; a random move with probability
``epsilon``. Passes are random under both, as :class:`TrickPolicy` makes them.

The rules are the engine's (:mod:`.rules`), not a second opinion on them: every option of
:class:`~cardcli.plugins.peppa.rules.PeppaOptions` is honoured, and an option this module does
not know (one added to the engine later) makes :func:`compact` refuse the match with
:class:`UnsupportedRules` rather than play a different game. tests/games/test_peppa_playout.py
checks, over thousands of seeded deals and option sets, that the engine fed the same moves
through its own API ends with the same scores.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Callable

import attrs

from ...errors import CardcliError
from .rules import (
    DEAL,
    HAND_SIZE,
    HEARTS,
    NUM_PLAYERS,
    OVER,
    PASS,
    FULL_DECK,
    PASS_OFFSETS,
    PLAY,
    QUEEN_BIT,
    TWO_OF_CLUBS_BIT,
    _POINTS,
    PeppaMatch,
    PeppaOptions,
)

PHASE_DEAL, PHASE_PASS, PHASE_PLAY, PHASE_OVER = 0, 1, 2, 3
"""The compact state's phases: a deal is due, the pass, the trick play, the match is over."""

RANDOM = "random"
GREEDY = "greedy"
POLICIES = (RANDOM, GREEDY)

BLOCK = 0x1FFF
"""One suit's 13 bits; a card's index is 13 * suit + rank (2 is 0, the ace 12)."""
HEART_SHIFT = 26
PENALTY_BITS = HEARTS | QUEEN_BIT
SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""Multiplying a rank's bit by this gives that rank in all four suits."""

_RANKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(HAND_SIZE) if block >> r & 1) for block in range(1 << HAND_SIZE)
)
"""The ranks present in each 13-bit suit block, lowest first: a random card of a suit is one
look-up and one index."""

_HEART_POINTS = {
    name: tuple(sum(points[HEART_SHIFT + r] for r in _RANKS[block]) for block in range(1 << HAND_SIZE))
    for name, points in _POINTS.items()
}
"""The points of every set of hearts under each table, by its 13-bit block."""
_QUEEN_POINTS = {name: points[QUEEN_BIT.bit_length() - 1] for name, points in _POINTS.items()}

_NEXT = {True: (1, 2, 3, 0), False: (3, 0, 1, 2)}
"""The next seat to play, clockwise (``True``) or counter-clockwise."""

SUPPORTED_OPTIONS = frozenset({
    "play_direction", "dealer_rotation", "first_dealer", "pass_cycle", "card_values", "cappotto",
    "end_threshold", "end_inclusive", "boundary_tie", "two_of_clubs_leads", "no_points_first_trick",
    "hearts_must_be_broken", "queen_breaks_hearts", "deal_order",
})
"""The options this loop plays. An option the engine gains later is refused until it is
taught here, so a playout never quietly plays a rule the engine does not."""


class UnsupportedRules(CardcliError):
    """The match uses a rule the compact playout does not play (an option it does not know,
    a value outside its choices, another number of players)."""


def _check_peppa_tables() -> None:
    """The greedy discard reads "most points, then strongest" as "Q♠, else the highest heart,
    else the highest card": true of every table (Q♠ worth most, hearts' points never falling
    with rank, nothing else scoring). Checked once, so a new table cannot silently break it."""
    for name, points in _POINTS.items():
        queen = _QUEEN_POINTS[name]
        hearts = points[HEART_SHIFT:HEART_SHIFT + HAND_SIZE]
        others = [p for i, p in enumerate(points) if not (1 << i) & PENALTY_BITS]
        if not (queen > max(hearts) and all(a <= b for a, b in zip(hearts, hearts[1:]))
                and min(hearts) > 0 and not any(others)):
            raise UnsupportedRules(f"the greedy playout's discard order does not fit the {name} table")


_check_peppa_tables()


@attrs.frozen
class CompactRules:
    """The options as the loop reads them: small values decided once per match."""

    clockwise: bool
    table: str
    """The penalty table's name (``torino``, ``standard``, ``international``)."""
    deal_total: int
    cappotto_all_tricks: bool
    two_of_clubs_leads: bool
    no_points_first_trick: bool
    hearts_must_be_broken: bool
    breaking: int
    """The cards that break hearts, as a mask."""
    pass_offsets: tuple[int, ...]
    """The pass cycle as seat offsets (0: hold)."""
    dealer_left: bool
    one_at_a_time: bool
    end_threshold: int
    end_inclusive: bool
    boundary_tie: str

    @classmethod
    def of(cls, options: PeppaOptions) -> "CompactRules":
        """The rules of ``options``; :class:`UnsupportedRules` for anything this loop does not
        play exactly as the engine does."""
        names = {f.name for f in attrs.fields(type(options))}
        unknown = sorted(names - SUPPORTED_OPTIONS)
        if unknown:
            raise UnsupportedRules(f"the compact Peppa playout does not play the option(s) {', '.join(unknown)}")
        checks = {
            "play_direction": ("cw", "ccw"),
            "dealer_rotation": ("left", "play_direction"),
            "card_values": tuple(_POINTS),
            "cappotto": ("all_penalty_cards", "all_tricks"),
            "boundary_tie": ("play_on", "shared_loss", "shared_win"),
            "deal_order": ("one_at_a_time", "thirteen_at_a_time"),
        }
        for name, allowed in checks.items():
            if getattr(options, name) not in allowed:
                raise UnsupportedRules(f"the compact Peppa playout does not play {name}={getattr(options, name)!r}")
        if not options.pass_cycle or any(d not in PASS_OFFSETS for d in options.pass_cycle):
            raise UnsupportedRules(f"the compact Peppa playout does not play pass_cycle={options.pass_cycle!r}")
        return cls(
            clockwise=options.play_direction == "cw",
            table=options.card_values,
            deal_total=sum(_POINTS[options.card_values]),
            cappotto_all_tricks=options.cappotto == "all_tricks",
            two_of_clubs_leads=bool(options.two_of_clubs_leads),
            no_points_first_trick=bool(options.no_points_first_trick),
            hearts_must_be_broken=bool(options.hearts_must_be_broken),
            breaking=HEARTS | QUEEN_BIT if options.queen_breaks_hearts else HEARTS,
            pass_offsets=tuple(PASS_OFFSETS[d] for d in options.pass_cycle),
            dealer_left=options.dealer_rotation == "left",
            one_at_a_time=options.deal_order == "one_at_a_time",
            end_threshold=int(options.end_threshold),
            end_inclusive=bool(options.end_inclusive),
            boundary_tie=options.boundary_tie,
        )


@attrs.frozen
class CompactState:
    """A Peppa match at one point, in integers: what a playout starts from.

    It is a value, so one state serves any number of playouts (a search draws a world, makes
    it compact once per iteration, and the loop works on local copies)."""

    rules: CompactRules
    phase: int
    """:data:`PHASE_DEAL`, :data:`PHASE_PASS`, :data:`PHASE_PLAY` or :data:`PHASE_OVER`."""
    hands: tuple[int, ...]
    """Each seat's cards (during the pass, before the exchange)."""
    passes: tuple[int, ...]
    """During the pass, the cards each seat set aside (-1: not passed yet); else all -1."""
    pass_offset: int
    """Where this deal's passes go, as a seat offset (0: no pass)."""
    taken: tuple[int, ...]
    tricks_won: tuple[int, ...]
    trick: tuple[int, ...]
    """The cards of the trick in progress, in play order."""
    turn: int
    """The seat to play; the deal's first leader during the pass."""
    number: int
    """Tricks finished in this deal."""
    hearts_broken: bool
    dealer: int
    deals: int
    """Deals started, as the engine's ``deal_number``."""
    totals: tuple[int, ...]


@functools.lru_cache(maxsize=64)
def _rules_of(options: PeppaOptions) -> CompactRules:
    """:meth:`CompactRules.of`, once per set of options: a search makes a state compact on
    every iteration."""
    return CompactRules.of(options)


def compact(match: PeppaMatch) -> CompactState:
    """The compact state of ``match`` wherever it stands: between deals, during the pass (with
    some passes made), or at any point of the trick play."""
    rules = _rules_of(match.options)
    if match.num_players != NUM_PLAYERS or len(match.hand_masks) != NUM_PLAYERS:
        raise UnsupportedRules("the compact Peppa playout plays four seats")
    empty = (0,) * NUM_PLAYERS
    unpassed = (-1,) * NUM_PLAYERS
    offset = PASS_OFFSETS[match.pass_direction]
    base = CompactState(
        rules=rules, phase=PHASE_DEAL, hands=empty, passes=unpassed, pass_offset=offset, taken=empty,
        tricks_won=empty, trick=(), turn=match.leader, number=0, hearts_broken=False,
        dealer=match.dealer, deals=match.deal_number, totals=tuple(match.totals),
    )
    if match.phase is PLAY:
        tricks = match.tricks
        return attrs.evolve(
            base, phase=PHASE_PLAY, hands=tuple(match.hand_masks), taken=tuple(tricks.taken),
            tricks_won=tuple(tricks.tricks_won), trick=tuple(card for _, card in tricks.trick),
            turn=tricks.turn, number=tricks.number, hearts_broken=match.hearts_broken,
        )
    if match.phase is PASS:
        passes = tuple(match.passes.get(s, -1) for s in range(NUM_PLAYERS))
        return attrs.evolve(base, phase=PHASE_PASS, hands=tuple(match.hand_masks), passes=passes)
    if match.phase is DEAL:
        return base
    if match.phase is OVER:
        return attrs.evolve(base, phase=PHASE_OVER)
    raise UnsupportedRules(f"no compact state for phase {match.phase}")  # pragma: no cover


Trace = list[tuple[Any, ...]]
"""What a playout did, when asked (for the consistency tests): ``("deal", deck)`` with the
52 card indices in dealing order, ``("pass", seat, mask)``, ``("play", seat, card, legal)``
with the mask of the cards the loop held legal."""


def moves_left(state: CompactState) -> int:
    """The moves a playout from ``state`` plays to the end of its deal (a pass is one move):
    what a search counts against a budget of moves."""
    if state.phase == PHASE_PLAY:
        return sum(hand.bit_count() for hand in state.hands)
    if state.phase == PHASE_PASS:
        return 52 + sum(1 for given in state.passes if given < 0)
    if state.phase == PHASE_DEAL:
        return 52 + (4 if state.rules.pass_offsets[state.deals % len(state.rules.pass_offsets)] else 0)
    return 0


def play_deal(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
              trace: Trace | None = None) -> tuple[int, ...]:
    """Play the deal in progress (or, between deals, a new random one) to its end and return
    each seat's points in it, cappotto applied: what a search's reward reads."""
    if state.phase == PHASE_OVER:
        raise UnsupportedRules("the match is over: there is no deal to play")
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, False, None)


def play_match(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
               trace: Trace | None = None, deal_limit: int | None = None) -> tuple[int, ...]:
    """Play to the end of the match, dealing each new deal at random from ``rng``, and return
    the final totals. ``deal_limit`` stops between deals once that many have started, as the
    referee's deal limit does (:meth:`PeppaMatch.adjudicate` then ranks these totals); a
    boundary tie played on could otherwise go on."""
    if state.phase == PHASE_OVER:
        return state.totals
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, True, deal_limit)


def _greedy_flag(policy: str) -> bool:
    if policy not in POLICIES:
        raise UnsupportedRules(f"unknown playout policy {policy!r}: one of {', '.join(POLICIES)}")
    return policy == GREEDY


def _nth(mask: int, j: int) -> int:
    """The ``j``-th card (from 0, in index order) of ``mask``."""
    shift = 0
    while True:
        block = mask >> shift & BLOCK
        ranks = _RANKS[block]
        if j < len(ranks):
            return shift + ranks[j]
        j -= len(ranks)
        shift += 13


def _weakest(mask: int, rand: Callable[[], float]) -> int:
    """The lowest-ranked card of ``mask``, a random one of a tie across suits."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & BLOCK
    tied = mask & (ranks & -ranks) * SPREAD
    if tied & (tied - 1):
        return _nth(tied, int(rand() * tied.bit_count()))
    return tied.bit_length() - 1


def _discard(mask: int) -> int:
    """The card carrying the most points, then the strongest, then the first in index order:
    Q♠, else the highest heart, else the highest card (see :func:`_check_peppa_tables`)."""
    if mask & QUEEN_BIT:
        return QUEEN_BIT.bit_length() - 1
    hearts = mask & HEARTS
    if hearts:
        return hearts.bit_length() - 1
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & BLOCK
    tied = mask & (1 << (ranks.bit_length() - 1)) * SPREAD
    return (tied & -tied).bit_length() - 1


_CARDS = range(52)
_SLOT_DIGITS = tuple(
    bytes(ord("1") if place < 52 and place // 13 == slot else ord("0") for place in range(256)) for slot in range(4)
)
"""For each seat in dealing order, the binary digit of each place in the deck: ``1`` for its
thirteen places. Translating the places of the cards (in card order) and reading the digits
from the last card to the first gives the seat's hand as a mask."""
_PASS_DIGITS = bytes(ord("1") if place < 52 and place % 13 < 3 else ord("0") for place in range(256))
"""The same for the first three places of each seat's block: the four random passes."""


def _deck_for(hands: list[int], leader: int, nxt: tuple[int, ...], one_at_a_time: bool) -> tuple[int, ...]:
    """A deck the engine deals into ``hands`` (in its ``deal_order``), for a trace."""
    order = [leader]
    for _ in range(3):
        order.append(nxt[order[-1]])
    held = [_cards_of(hands[seat]) for seat in order]
    if one_at_a_time:
        return tuple(held[slot][i] for i in range(13) for slot in range(4))
    return tuple(card for cards in held for card in cards)


def _cards_of(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(52) if mask >> i & 1)


def _run(state: CompactState, rng: random.Random, greedy: bool, epsilon: float, trace: Trace | None,
         whole_match: bool, deal_limit: int | None) -> tuple[int, ...]:
    """The playout: deals, passes, tricks and scoring, until the deal (or the match) ends."""
    rules = state.rules
    rand = rng.random
    nxt = _NEXT[rules.clockwise]
    ranks_of, nth = _RANKS, _nth
    two_clubs = rules.two_of_clubs_leads
    clean = rules.no_points_first_trick
    must_break = rules.hearts_must_be_broken
    breaking = rules.breaking
    heart_points = _HEART_POINTS[rules.table]
    queen_points = _QUEEN_POINTS[rules.table]
    deal_total = rules.deal_total
    offsets = rules.pass_offsets
    phase = state.phase
    dealer = state.dealer
    deals = state.deals
    totals = list(state.totals)
    hands = list(state.hands)
    passes = list(state.passes)
    offset = state.pass_offset
    taken = list(state.taken)
    won = list(state.tricks_won)
    trick = state.trick
    turn = state.turn
    number = state.number
    broken = state.hearts_broken
    drawn: int | None = None  # random passes drawn with the deal, when the loop dealt it
    while True:
        if phase == PHASE_DEAL:
            if whole_match and deal_limit is not None and deals >= deal_limit:
                return tuple(totals)
            if deals:
                dealer = (dealer + 1) % 4 if rules.dealer_left else nxt[dealer]
            deals += 1
            turn = (dealer - 1) % 4
            # a random permutation, read as each card's place in a shuffled deck: places 0-12
            # go to the leader, 13-25 to the next seat and so on (which cards go to which seat
            # is all a random deal decides), and the first three places of each seat's block
            # are its random pass; each set of cards is one C-level translate and int()
            keys = [rand() for _ in _CARDS]
            places = bytes(sorted(_CARDS, key=keys.__getitem__))
            seat = turn
            hands = [0, 0, 0, 0]
            for slot in range(3):
                hands[seat] = int(places.translate(_SLOT_DIGITS[slot])[::-1], 2)
                seat = nxt[seat]
            hands[seat] = FULL_DECK ^ hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
            drawn = int(places.translate(_PASS_DIGITS)[::-1], 2)
            if trace is not None:
                trace.append(("deal", _deck_for(hands, turn, nxt, rules.one_at_a_time)))
            offset = offsets[(deals - 1) % len(offsets)]
            passes = [-1, -1, -1, -1]
            taken = [0, 0, 0, 0]
            won = [0, 0, 0, 0]
            trick = ()
            number = 0
            broken = False
            phase = PHASE_PASS if offset else PHASE_PLAY
            if phase == PHASE_PLAY and two_clubs:
                turn = next(s for s in range(4) if hands[s] & TWO_OF_CLUBS_BIT)
        if phase == PHASE_PASS:
            for seat in range(4):
                if passes[seat] < 0:
                    if drawn is not None:
                        given = drawn & hands[seat]
                    else:
                        hand = hands[seat]
                        given = 0
                        for left in (13, 12, 11):
                            card = _nth(hand, int(rand() * left))
                            hand ^= 1 << card
                            given |= 1 << card
                    passes[seat] = given
                    if trace is not None:
                        trace.append(("pass", seat, given))
            for seat in range(4):
                hands[seat] &= ~passes[seat]
            for seat in range(4):
                hands[(seat + offset) % 4] |= passes[seat]
            passes = [-1, -1, -1, -1]
            if two_clubs:
                turn = next(s for s in range(4) if hands[s] & TWO_OF_CLUBS_BIT)
            phase = PHASE_PLAY
        # -- the tricks ---------------------------------------------------------------------------
        k = len(trick)
        shift = best = best_seat = trick_mask = seat = 0
        if k:
            seat = turn
            for _ in range(k):
                seat = nxt[seat + 2 & 3]  # the seat before: two steps on is two steps back
            lead = trick[0]
            shift = lead - lead % 13
            best, best_seat = lead, seat
            for card in trick:
                trick_mask |= 1 << card
                if shift <= card < shift + 13 and card > best:
                    best, best_seat = card, seat
                seat = nxt[seat]
            seat = nxt[seat + 2 & 3]  # the last seat that played
        while number < 13:
            first = number == 0
            clean_now = first and clean
            if k == 0:
                hand = hands[turn]
                if first and two_clubs:
                    legal = hand & TWO_OF_CLUBS_BIT
                else:
                    legal = hand
                    if must_break and not broken:
                        legal = hand & ~HEARTS or hand
                    if clean_now:
                        legal = legal & ~PENALTY_BITS or legal
                count = legal.bit_count()
                if count == 1:
                    card = legal.bit_length() - 1
                elif greedy and rand() >= epsilon:
                    card = _weakest(legal, rand)
                else:  # nth(legal, j), unrolled: a lead is a quarter of the moves
                    j = int(rand() * count)
                    ranks = ranks_of[legal & 0x1FFF]
                    if j < len(ranks):
                        card = ranks[j]
                    else:
                        j -= len(ranks)
                        ranks = ranks_of[legal >> 13 & 0x1FFF]
                        if j < len(ranks):
                            card = 13 + ranks[j]
                        else:
                            j -= len(ranks)
                            ranks = ranks_of[legal >> 26 & 0x1FFF]
                            card = 26 + ranks[j] if j < len(ranks) else 39 + ranks_of[legal >> 39][j - len(ranks)]
                if trace is not None:
                    trace.append(("play", turn, card, legal))
                hands[turn] = hand ^ 1 << card
                shift = card - card % 13
                best = card
                best_seat = seat = turn
                trick_mask = 1 << card
                k = 1
            while k < 4:
                seat = nxt[seat]
                hand = hands[seat]
                follow = hand >> shift & 0x1FFF
                if follow:
                    if clean_now:
                        follow = follow & ~(PENALTY_BITS >> shift) & BLOCK or follow
                    ranks = ranks_of[follow]
                    count = len(ranks)
                    if count == 1:
                        card = shift + ranks[0]
                    elif greedy and rand() >= epsilon:
                        below = follow & ((1 << (best - shift)) - 1)
                        card = shift + (below or follow).bit_length() - 1
                    else:
                        card = shift + ranks[int(rand() * count)]
                    if card > best:
                        best, best_seat = card, seat
                else:
                    legal = hand & ~PENALTY_BITS or hand if clean_now else hand
                    count = legal.bit_count()
                    if count == 1:
                        card = legal.bit_length() - 1
                    elif greedy and rand() >= epsilon:
                        card = _discard(legal)
                    else:
                        card = nth(legal, int(rand() * count))
                if trace is not None:
                    trace.append(("play", seat, card, follow << shift if follow else legal))
                hands[seat] = hand ^ 1 << card
                trick_mask |= 1 << card
                k += 1
            taken[best_seat] |= trick_mask
            won[best_seat] += 1
            if trick_mask & breaking:
                broken = True
            number += 1
            turn = best_seat
            k = 0
        # -- the score --------------------------------------------------------------------------------
        points = [
            heart_points[t >> HEART_SHIFT & BLOCK] + (queen_points if t & QUEEN_BIT else 0) for t in taken
        ]
        if rules.cappotto_all_tricks:
            hero = next((s for s in range(4) if won[s] == HAND_SIZE), None)
        else:
            hero = next((s for s in range(4) if taken[s] & PENALTY_BITS == PENALTY_BITS), None)
        if hero is not None:
            points = [0 if s == hero else deal_total for s in range(4)]
        totals = [t + p for t, p in zip(totals, points)]
        if not whole_match:
            return tuple(points)
        top = max(totals)
        if (top >= rules.end_threshold if rules.end_inclusive else top > rules.end_threshold):
            ranked = sorted(totals, reverse=True)
            if ranked[1] != ranked[2] or rules.boundary_tie != "play_on":
                return tuple(totals)
        phase = PHASE_DEAL
        trick = ()
