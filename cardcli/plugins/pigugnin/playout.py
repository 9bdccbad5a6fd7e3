"""Whole Il Pigugnìn playouts in one loop over a compact state, for search.

A search asks one question of a playout: how does this deal (or this match) end from here?
Through the engine's integer actions (:meth:`PigugninMatch.legal_actions`,
:meth:`PigugninMatch.apply_action`) every card pays for a method call, a legality check, the
trick object's bookkeeping and a tuple of legal actions built only to pick one of them. The
loop here needs none of it: a playout unpacks a :class:`CompactState` into local variables and
plays every remaining trick in one function.

**The compact numbering.** The 40 cards are numbered ``10 * suit + rank`` with the suits in
the engine's order (clubs, diamonds, hearts, spades) and ``rank`` the card's *trick* rank from
0 (the 4) to 9 (the 3): 4 5 6 7 J Q K A 2 3. So a hand is a 40-bit integer, following suit is
one shift and ``& 0x3FF``, a random card of a suit is one look-up in a table of the 1,024 suit
blocks, and the best card of a trick is the highest number among the led suit's.

**Policies.** ``random``: uniformly random legal cards. ``greedy``: Il Pigugnìn's rule of thumb
(:class:`~cardcli.plugins.pigugnin.search.PigugninPolicy` plays it move by move): the penalty
games' rule of :class:`~cardcli.players.search.playouts.TrickPolicy` (lead the weakest card, a
random one of a tie across suits; follow with the strongest card that still loses the trick,
else the strongest; when void, throw the card carrying the most card points, then the
strongest: an ace, else the strongest card, the first suit of a tie), with the two things the
game's heuristic adds to it (:mod:`.heuristic`): the J♠ is thrown first when void, and a seat
that has no trick yet plays for one (:func:`lead_for_a_trick`, :func:`follow_for_a_trick`;
void, it throws its weakest card). With probability ``epsilon`` a random legal card instead.
The same rule, so a search gets the same playouts either way, only faster.

The rules are the engine's (:mod:`.rules`), not a second opinion on them: the card points, the
busche table, the no-trick table and the trick rank are read from it, every option of
:class:`~cardcli.plugins.pigugnin.rules.PigugninOptions` is played, and an option this module
does not know (one added to the engine later) makes :func:`compact` refuse the match with
:class:`UnsupportedRules` rather than play a different game. tests/games/test_pigugnin_playout.py
checks, over thousands of seeded deals and option sets with 4 and 5 players, that the engine
fed the same moves through its own API offers the same legal cards and ends with the same
busche.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Callable

import attrs

from ...errors import CardcliError
from ...games.card_bits import DECK, INDEX
from .rules import (
    CARD_POINTS,
    DEAL,
    LAST_TRICK,
    NO_TRICK_BUSCHE,
    OVER,
    PIGUGNIN,
    PLAY,
    POWER,
    SETTEBELLO,
    PigugninMatch,
    PigugninOptions,
    threshold_busche,
)
from ...games.tricks import step
from .heuristic import CHEAP_TRICK, LATE_TRICKS, PIGUGNIN_COST

PHASE_DEAL, PHASE_PLAY, PHASE_OVER = 0, 2, 3
"""The compact state's phases: a deal is due, the trick play, the match is over."""

RANDOM = "random"
GREEDY = "greedy"
POLICIES = (RANDOM, GREEDY)

CARDS = 40
BLOCK = 0x3FF
"""One suit's 10 bits, weakest (the 4) first."""
SPREAD = 1 | 1 << 10 | 1 << 20 | 1 << 30
"""Multiplying a rank's bit by this gives that rank in all four suits."""
FULL = (1 << CARDS) - 1

ENGINE_INDEX: tuple[int, ...] = tuple(
    INDEX[card]
    for suit in "CDHS"
    for card in sorted((c for c in DECK if c.suit == suit and c.rank in POWER), key=lambda c: POWER[c.rank])
)
"""The engine's card index (:data:`~cardcli.games.card_bits.DECK`) of each compact card."""
COMPACT_OF = {engine: c for c, engine in enumerate(ENGINE_INDEX)}
"""The compact card of each engine card index: the inverse of :data:`ENGINE_INDEX`."""

PIG = COMPACT_OF[INDEX[PIGUGNIN]]
PIG_BIT = 1 << PIG
SEVEN_BIT = 1 << COMPACT_OF[INDEX[SETTEBELLO]]

RANK_POINTS: tuple[int, ...] = tuple(CARD_POINTS[ENGINE_INDEX[r]] for r in range(10))
"""The card points of each trick rank (the same in every suit, as the engine's table says)."""
_BLOCK_POINTS: tuple[int, ...] = tuple(
    sum(RANK_POINTS[r] for r in range(10) if block >> r & 1) for block in range(1 << 10)
)
"""The card points of each 10-bit suit block: a seat's points are four look-ups."""
if any(CARD_POINTS[ENGINE_INDEX[10 * suit + r]] != RANK_POINTS[r] for suit in range(4) for r in range(10)):
    raise RuntimeError("Il Pigugnìn's card points now depend on the suit: the compact tables need them by card")

THRESHOLD: tuple[int, ...] = tuple(threshold_busche(p) for p in range(36))
"""The engine's busche for 0..35 points."""

_RANKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(10) if block >> r & 1) for block in range(1 << 10)
)
"""The ranks present in each 10-bit suit block, weakest first."""


def _discard_order() -> tuple[int, ...]:
    """The greedy discard's ranks, best first: most card points, then the strongest. Checked
    to be "the ace, then the strongest card" (what the loop does with two bit operations): a
    different table of points would need another discard."""
    order = tuple(sorted(range(10), key=lambda r: (RANK_POINTS[r], r), reverse=True))
    if order[1:] != tuple(sorted(order[1:], reverse=True)):
        raise RuntimeError("the greedy discard no longer fits Il Pigugnìn's card points")
    return order


ACE = _discard_order()[0]
ACE_RANKS = 1 << ACE

SUPPORTED_OPTIONS = frozenset({
    "direction", "first_dealer", "first_hand_leader", "first_trick_pigugnin_restriction", "tie_scope",
    "cappotto_ends_match", "lose_at", "sole_loser_at", "boundary_tie", "winner_tie",
})
"""The options this loop plays. An option the engine gains later is refused until it is
taught here, so a playout never quietly plays a rule the engine does not."""


class UnsupportedRules(CardcliError):
    """The match uses a rule the compact playout does not play (an option it does not know,
    a value outside its choices, another number of players)."""


@attrs.frozen
class CompactRules:
    """The options and the seat count as the loop reads them, decided once per match.
    (``first_dealer`` and ``winner_tie`` are played too: the first only places the first
    dealer, which the state carries, and the second only ranks the final totals.)"""

    num_players: int
    clockwise: bool
    seven_leads_first: bool
    restriction: bool
    """``first_trick_pigugnin_restriction``."""
    tie_scope: str
    cappotto_ends_match: bool
    lose_at: int
    sole_loser_at: int
    annul_boundary_tie: bool
    next_seat: tuple[int, ...]
    """The seat that plays after each seat."""
    prev_seat: tuple[int, ...]
    """The seat that plays before each seat."""

    @classmethod
    def of(cls, options: PigugninOptions, num_players: int) -> "CompactRules":
        """The rules of ``options`` for ``num_players``; :class:`UnsupportedRules` for anything
        this loop does not play exactly as the engine does."""
        names = {f.name for f in attrs.fields(type(options))}
        unknown = sorted(names - SUPPORTED_OPTIONS)
        if unknown:
            raise UnsupportedRules(f"the compact Pigugnìn playout does not play the option(s) {', '.join(unknown)}")
        if num_players not in (4, 5):
            raise UnsupportedRules(f"the compact Pigugnìn playout plays 4 or 5 seats, not {num_players}")
        checks = {
            "direction": ("ccw", "cw"),
            "first_hand_leader": ("after_dealer", "seven_of_coins"),
            "tie_scope": ("all", "nonzero", "paying_only", "highest_only"),
            "boundary_tie": ("shared_loss", "annul"),
            "winner_tie": ("draw", "shared_win"),
            "first_trick_pigugnin_restriction": (True, False),
            "cappotto_ends_match": (True, False),
        }
        for name, allowed in checks.items():
            if getattr(options, name) not in allowed:
                raise UnsupportedRules(f"the compact Pigugnìn playout does not play {name}={getattr(options, name)!r}")
        return cls(
            num_players=num_players,
            clockwise=options.direction == "cw",
            seven_leads_first=options.first_hand_leader == "seven_of_coins",
            restriction=bool(options.first_trick_pigugnin_restriction),
            tie_scope=options.tie_scope,
            cappotto_ends_match=bool(options.cappotto_ends_match),
            lose_at=int(options.lose_at),
            sole_loser_at=int(options.sole_loser_at),
            annul_boundary_tie=options.boundary_tie == "annul",
            next_seat=tuple(step(s, num_players, options.direction == "cw") for s in range(num_players)),
            prev_seat=tuple(step(s, num_players, options.direction != "cw") for s in range(num_players)),
        )


@attrs.frozen
class CompactState:
    """A Pigugnìn match at one point, in integers: what a playout starts from.

    It is a value, so one state serves any number of playouts (a search draws a world, makes
    it compact once per iteration, and the loop works on local copies)."""

    rules: CompactRules
    phase: int
    """:data:`PHASE_DEAL`, :data:`PHASE_PLAY` or :data:`PHASE_OVER`."""
    hands: tuple[int, ...]
    """Each seat's cards, compact numbering."""
    taken: tuple[int, ...]
    """The cards each seat has taken in this deal."""
    tricks_won: tuple[int, ...]
    trick: tuple[int, ...]
    """The cards of the trick in progress, in play order."""
    turn: int
    """The seat to play."""
    number: int
    """Tricks finished in this deal."""
    dealer: int
    """The dealer of the deal in progress, or, between deals, of the next one."""
    deals: int
    """Deals started, as the engine's ``deal_number``."""
    totals: tuple[int, ...]
    out: tuple[int, ...]
    """Seats out (at ``lose_at`` or more), in the order they went out."""


_LAST_RULES: list[tuple[PigugninOptions, int, CompactRules]] = []
"""The options last made compact, their seat count and their rules: a search makes a state
compact on every iteration, and its worlds share one options object (a match's clone keeps
it), so one identity check finds the rules again; anything else goes through the cache."""


@functools.lru_cache(maxsize=64)
def _cached_rules(options: PigugninOptions, num_players: int) -> CompactRules:
    return CompactRules.of(options, num_players)


def _rules_of(options: PigugninOptions, num_players: int) -> CompactRules:
    """:meth:`CompactRules.of`, once per set of options."""
    if _LAST_RULES:
        last, players, rules = _LAST_RULES[0]
        if last is options and players == num_players:
            return rules
    rules = _cached_rules(options, num_players)
    _LAST_RULES[:] = [(options, num_players, rules)]
    return rules


def _build_block_table() -> tuple[tuple[int, ...], ...]:
    """For each suit, each 13-bit block of engine cards as compact cards (the 8, 9 and 10,
    not dealt, dropped)."""
    tables = []
    for suit in range(4):
        shift = 13 * suit
        table = []
        for block in range(1 << 13):
            mask = 0
            for r in range(13):
                if block >> r & 1 and shift + r in COMPACT_OF:
                    mask |= 1 << COMPACT_OF[shift + r]
            table.append(mask)
        tables.append(tuple(table))
    return tuple(tables)


_FROM_ENGINE = _build_block_table()


def compact_mask(mask: int) -> int:
    """An engine mask (52-card bits) in the compact numbering."""
    c, d, h, s = _FROM_ENGINE
    return c[mask & 0x1FFF] | d[mask >> 13 & 0x1FFF] | h[mask >> 26 & 0x1FFF] | s[mask >> 39 & 0x1FFF]


def engine_mask(mask: int) -> int:
    """A compact mask in the engine's numbering: the inverse of :func:`compact_mask`."""
    found = 0
    while mask:
        low = mask & -mask
        found |= 1 << ENGINE_INDEX[low.bit_length() - 1]
        mask ^= low
    return found


def compact(match: PigugninMatch) -> CompactState:
    """The compact state of ``match`` wherever it stands: between deals, at any point of the
    trick play, or over."""
    n = match.num_players
    rules = _rules_of(match.options, n)
    hands = match.hand_masks
    if len(hands) != n:
        raise UnsupportedRules("the match's hands do not fit its seat count")  # pragma: no cover
    totals, out = tuple(match.totals), tuple(match.out)
    phase = match.phase
    if phase is PLAY:
        tricks = match.tricks
        c, d, h, s = _FROM_ENGINE
        return CompactState(
            rules=rules, phase=PHASE_PLAY,
            hands=tuple([c[m & 0x1FFF] | d[m >> 13 & 0x1FFF] | h[m >> 26 & 0x1FFF] | s[m >> 39 & 0x1FFF]
                         for m in hands]),
            taken=tuple([c[m & 0x1FFF] | d[m >> 13 & 0x1FFF] | h[m >> 26 & 0x1FFF] | s[m >> 39 & 0x1FFF]
                         for m in tricks.taken]),
            tricks_won=tuple(tricks.tricks_won), trick=tuple([COMPACT_OF[card] for _, card in tricks.trick]),
            turn=tricks.turn, number=tricks.number, dealer=match.dealer, deals=match.deal_number, totals=totals,
            out=out,
        )
    empty = (0,) * n
    if phase is DEAL or phase is OVER:
        return CompactState(
            rules=rules, phase=PHASE_DEAL if phase is DEAL else PHASE_OVER, hands=empty, taken=empty,
            tricks_won=empty, trick=(), turn=0, number=0,
            dealer=match.next_dealer if phase is DEAL and match.deal_number else match.dealer,
            deals=match.deal_number, totals=totals, out=out,
        )
    raise UnsupportedRules(f"no compact state for phase {phase}")  # pragma: no cover


Trace = list[tuple[Any, ...]]
"""What a playout did, when asked (for the consistency tests): ``("deal", deck)`` with the 40
engine card indices in the engine's dealing order, ``("play", seat, card, legal)`` with the
engine's index of the card and the mask (engine numbering) of the cards the loop held legal."""


def moves_left(state: CompactState) -> int:
    """The cards a playout from ``state`` plays to the end of its deal: what a search counts
    against a budget of moves."""
    if state.phase == PHASE_PLAY:
        return sum(hand.bit_count() for hand in state.hands)
    return CARDS if state.phase == PHASE_DEAL else 0


def play_deal(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
              trace: Trace | None = None) -> tuple[int, ...]:
    """Play the deal in progress (or, between deals, a new random one) to its end and return
    each seat's busche in it: what the engine's deal score, and so a search's reward, reads."""
    if state.phase == PHASE_OVER:
        raise UnsupportedRules("the match is over: there is no deal to play")
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, False, None)


def play_match(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
               trace: Trace | None = None, deal_limit: int | None = None) -> tuple[int, ...]:
    """Play to the end of the match, dealing each new deal at random from ``rng``, and return
    the final busche totals. ``deal_limit`` stops between deals once that many have started,
    as the referee's deal limit does (:meth:`PigugninMatch.adjudicate` then ranks these
    totals)."""
    if state.phase == PHASE_OVER:
        return state.totals
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, True, deal_limit)


def _greedy_flag(policy: str) -> bool:
    if policy not in POLICIES:
        raise UnsupportedRules(f"unknown playout policy {policy!r}: one of {', '.join(POLICIES)}")
    return policy == GREEDY


_AFFORDABLE: tuple[int, ...] = tuple(
    sum(1 << r for r in range(10) if RANK_POINTS[r] <= budget) for budget in range(CHEAP_TRICK + 1)
)
"""For each budget of points from 0 to :data:`CHEAP_TRICK`, the ranks (a 10-bit block) whose
card points fit in it."""
_BY_POINTS: tuple[int, ...] = tuple(
    sum(1 << r for r in range(10) if RANK_POINTS[r] == points) for points in sorted(set(RANK_POINTS))
)
"""The ranks (10-bit blocks) of each value in card points, the cheapest first."""


def lead_for_a_trick(legal: int, others: int, left: int) -> int:
    """The greedy lead of a seat that has no trick yet, or -1 for the usual weakest card:
    the cheapest card (fewest points, then weakest) that no card in ``others`` (the other
    hands) can beat, the J♠ aside; with ``left`` tricks or fewer to play, :data:`LATE_TRICKS`,
    the strongest card, another before the J♠."""
    found, key = -1, (99, 99)
    mine = legal & ~PIG_BIT
    for shift in (0, 10, 20, 30):
        block = mine >> shift & BLOCK
        if block:
            top = block.bit_length() - 1
            if top >= (others >> shift & BLOCK).bit_length() and (RANK_POINTS[top], top) < key:
                found, key = shift + top, (RANK_POINTS[top], top)
    if found >= 0 or left > LATE_TRICKS:
        return found
    ranks = (legal | legal >> 10 | legal >> 20 | legal >> 30) & BLOCK
    tied = legal & (1 << ranks.bit_length() - 1) * SPREAD
    if tied & ~PIG_BIT:
        tied &= ~PIG_BIT
    return (tied & -tied).bit_length() - 1


def points_of(mask: int) -> int:
    """The card points of the cards of ``mask``."""
    pb = _BLOCK_POINTS
    return pb[mask & 0x3FF] + pb[mask >> 10 & 0x3FF] + pb[mask >> 20 & 0x3FF] + pb[mask >> 30]


def follow_for_a_trick(follow: int, shift: int, best: int, trick_mask: int, last_trick: bool, late: bool,
                       last_seat: bool) -> int:
    """The greedy card of a seat with no trick yet that holds the led suit (``follow``, its
    cards of the suit as a 10-bit block; ``shift``, the suit's first card; ``best``, the card
    winning the trick so far; ``trick_mask``, the trick's cards). It wins when it can: in the
    last :data:`LATE_TRICKS` tricks with its strongest card whatever the cost; earlier only if
    the trick, its card, the last trick's points and the J♠'s busca (counted as
    :data:`PIGUGNIN_COST` points) come to :data:`CHEAP_TRICK` or less, with the strongest such
    card, or the cheapest when it plays last. Otherwise it plays the J♠ under a stronger spade,
    else its weakest card, keeping the strong ones for a trick later."""
    above = follow >> (best - shift + 1) << (best - shift + 1)
    if shift == 30:
        above &= ~(PIG_BIT >> 30)
    if above:
        if late:
            return shift + above.bit_length() - 1
        budget = CHEAP_TRICK - points_of(trick_mask) - (LAST_TRICK if last_trick else 0) - (
            PIGUGNIN_COST if trick_mask & PIG_BIT else 0)
        cheap = above & _AFFORDABLE[budget] if budget >= 0 else 0
        if cheap:
            if last_seat:
                for level in _BY_POINTS:
                    if cheap & level:
                        cheap &= level
                        return shift + (cheap & -cheap).bit_length() - 1
            return shift + cheap.bit_length() - 1
    if shift == 30 and follow & (PIG_BIT >> 30) and PIG < best:
        return PIG
    return shift + (follow & -follow).bit_length() - 1


def _nth(mask: int, j: int) -> int:
    """The ``j``-th card (from 0, in compact order) of ``mask``."""
    shift = 0
    while True:
        ranks = _RANKS[mask >> shift & BLOCK]
        if j < len(ranks):
            return shift + ranks[j]
        j -= len(ranks)
        shift += 10


def weakest(mask: int, rand: Callable[[], float]) -> int:
    """The weakest card of ``mask``, a random one of a tie across suits."""
    ranks = (mask | mask >> 10 | mask >> 20 | mask >> 30) & BLOCK
    tied = mask & (ranks & -ranks) * SPREAD
    if tied & (tied - 1):
        return _nth(tied, int(rand() * tied.bit_count()))
    return tied.bit_length() - 1


def discard(mask: int) -> int:
    """The card carrying the most points, then the strongest, the first suit of a tie: an ace,
    else the strongest card (see :func:`_discard_order`)."""
    ranks = (mask | mask >> 10 | mask >> 20 | mask >> 30) & BLOCK
    top = ACE if ranks & ACE_RANKS else ranks.bit_length() - 1
    tied = mask & (1 << top) * SPREAD
    return (tied & -tied).bit_length() - 1


_PLACES = range(CARDS)
_SLOT_DIGITS = {
    n: tuple(bytes(ord("1") if place < CARDS and place // (CARDS // n) == slot else ord("0") for place in range(256))
             for slot in range(n))
    for n in (4, 5)
}
"""For each seat count and each seat in dealing order, the binary digit of each place in a
shuffled deck: ``1`` for the seat's block of places. Translating the places of the cards (in
card order) and reading the digits from the last card to the first gives the seat's hand."""


def _deck_for(hands: list[int], leader: int, nxt: tuple[int, ...]) -> tuple[int, ...]:
    """A deck (engine indices) that the engine deals into ``hands``: one card at a time from
    the leader in the direction of play."""
    n = len(hands)
    order = [leader]
    for _ in range(n - 1):
        order.append(nxt[order[-1]])
    held = [[ENGINE_INDEX[c] for c in range(CARDS) if hands[seat] >> c & 1] for seat in order]
    return tuple(held[p % n][p // n] for p in range(CARDS))


def _busche(rules: CompactRules, taken: list[int], won: list[int], last: int) -> list[int]:
    """The deal's busche, as :meth:`PigugninMatch.deal_busche` charges them (once a deal, so
    its common cases are written for speed: no tie at all is one ``set``)."""
    n = rules.num_players
    if 0 in won:
        trickless = won.count(0)
        each = NO_TRICK_BUSCHE.get(trickless, trickless + 1)
        busche = [0 if w else each for w in won]
    else:
        points = [points_of(t) for t in taken]
        points[last] += LAST_TRICK
        busche = [THRESHOLD[p] for p in points]
        top = max(points)
        if not any(busche):
            busche = [1 if p == top else 0 for p in points]
        if len(set(points)) < n:
            scope = rules.tie_scope
            extra = [0] * n
            for s, p in enumerate(points):
                tied = points.count(p)
                # the members of a group share their points, hence whether they pay already
                if tied > 1 and (scope == "all" or (scope == "nonzero" and p > 0) or (
                        scope == "paying_only" and busche[s]) or (scope == "highest_only" and p == top)):
                    extra[s] = tied - 1
            busche = [b + e for b, e in zip(busche, extra)]
    for s in range(n):
        if taken[s] & PIG_BIT:
            busche[s] += 1
            break
    return busche


def _match_over(rules: CompactRules, totals: list[int], before: list[int], out: list[int],
                capper: int | None) -> bool:
    """Whether the match ends after a deal (adding the seats newly out to ``out``), as
    :meth:`PigugninMatch._match_result` decides it."""
    n = rules.num_players
    lose_at = rules.lose_at
    if capper is not None and rules.cappotto_ends_match:
        return True
    if min(totals) >= lose_at:
        return True
    newly = [s for s in range(n) if totals[s] >= lose_at and before[s] < lose_at and s not in out]
    newly.sort(key=lambda s: -totals[s])
    free = 2 - len(out)
    if len(newly) > free:
        cut = totals[newly[free - 1]]
        if totals[newly[free]] == cut:
            if rules.annul_boundary_tie:
                return True
            newly = [s for s in newly if totals[s] >= cut]
        else:
            newly = newly[:free]
    out += newly
    return len(out) >= 2 or bool(out and max(totals[s] for s in out) >= rules.sole_loser_at)


def _run(state: CompactState, rng: random.Random, greedy: bool, epsilon: float, trace: Trace | None,
         whole_match: bool, deal_limit: int | None) -> tuple[int, ...]:
    """The playout: deals, tricks and scoring, until the deal (or the match) ends."""
    rules = state.rules
    n = rules.num_players
    size = CARDS // n
    nxt, prv = rules.next_seat, rules.prev_seat
    digits = _SLOT_DIGITS[n]
    rand = rng.random
    ranks_of, nth = _RANKS, _nth
    restriction = rules.restriction
    phase = state.phase
    dealer = state.dealer
    deals = state.deals
    totals = list(state.totals)
    out = list(state.out)
    hands = list(state.hands)
    taken = list(state.taken)
    won = list(state.tricks_won)
    trick = state.trick
    turn = state.turn
    number = state.number
    while True:
        if phase == PHASE_DEAL:
            if whole_match and deal_limit is not None and deals >= deal_limit:
                return tuple(totals)
            deals += 1
            turn = nxt[dealer]
            # a random permutation, read as each card's place in a shuffled deck: the first
            # block of places goes to the leader, the next to the next seat and so on (which
            # cards go to which seat is all a random deal decides); each hand is one C-level
            # translate and int()
            keys = [rand() for _ in _PLACES]
            places = bytes(sorted(_PLACES, key=keys.__getitem__))
            seat = turn
            hands = [0] * n
            rest = FULL
            for slot in range(n - 1):
                hand = hands[seat] = int(places.translate(digits[slot])[::-1], 2)
                rest ^= hand
                seat = nxt[seat]
            hands[seat] = rest
            if trace is not None:
                trace.append(("deal", _deck_for(hands, turn, nxt)))
            if deals == 1 and rules.seven_leads_first:
                turn = next(s for s in range(n) if hands[s] & SEVEN_BIT)
            taken = [0] * n
            won = [0] * n
            trick = ()
            number = 0
            phase = PHASE_PLAY
        # -- the tricks -----------------------------------------------------------------------
        k = len(trick)
        shift = best = trick_mask = seat = 0
        best_seat = turn
        if k:
            seat = turn
            for _ in range(k):
                seat = prv[seat]
            lead = trick[0]
            shift = lead - lead % 10
            best, best_seat = lead, seat
            for card in trick:
                trick_mask |= 1 << card
                if shift <= card < shift + 10 and card > best:
                    best, best_seat = card, seat
                seat = nxt[seat]
            seat = prv[seat]  # the last seat that played
        while number < size:
            barred = restriction and number == 0
            if k == 0:
                hand = hands[turn]
                legal = hand & ~PIG_BIT or hand if barred else hand
                count = legal.bit_count() if barred else size - number
                if count == 1:
                    card = legal.bit_length() - 1
                elif greedy and rand() >= epsilon:
                    card = -1
                    if not won[turn]:
                        others = 0
                        for other in hands:
                            others |= other
                        card = lead_for_a_trick(legal, others ^ hand, size - number)
                    if card < 0:
                        card = weakest(legal, rand)
                else:  # nth(legal, j), unrolled: a lead is a quarter of the moves or more
                    j = int(rand() * count)
                    ranks = ranks_of[legal & 0x3FF]
                    if j < len(ranks):
                        card = ranks[j]
                    else:
                        j -= len(ranks)
                        ranks = ranks_of[legal >> 10 & 0x3FF]
                        if j < len(ranks):
                            card = 10 + ranks[j]
                        else:
                            j -= len(ranks)
                            ranks = ranks_of[legal >> 20 & 0x3FF]
                            card = 20 + ranks[j] if j < len(ranks) else 30 + ranks_of[legal >> 30][j - len(ranks)]
                if trace is not None:
                    trace.append(("play", turn, ENGINE_INDEX[card], engine_mask(legal)))
                hands[turn] = hand ^ 1 << card
                shift = card - card % 10
                best = card
                best_seat = seat = turn
                trick_mask = 1 << card
                k = 1
            while k < n:
                seat = nxt[seat]
                hand = hands[seat]
                follow = hand >> shift & 0x3FF
                if follow:
                    if barred:
                        follow = follow & ~(PIG_BIT >> shift) & BLOCK or follow
                    ranks = ranks_of[follow]
                    count = len(ranks)
                    if count == 1:
                        card = shift + ranks[0]
                    elif greedy and rand() >= epsilon:
                        if not won[seat]:
                            card = follow_for_a_trick(follow, shift, best, trick_mask, number == size - 1,
                                                      size - number <= LATE_TRICKS, k == n - 1)
                        else:
                            below = follow & ((1 << (best - shift)) - 1)
                            card = shift + (below or follow).bit_length() - 1
                    else:
                        card = shift + ranks[int(rand() * count)]
                    if card > best:
                        best, best_seat = card, seat
                else:
                    legal = hand & ~PIG_BIT or hand if barred else hand
                    if greedy and rand() >= epsilon:
                        card = PIG if legal & PIG_BIT else discard(legal) if won[seat] else weakest(legal, rand)
                    else:
                        count = legal.bit_count()
                        card = legal.bit_length() - 1 if count == 1 else nth(legal, int(rand() * count))
                if trace is not None:
                    trace.append(("play", seat, ENGINE_INDEX[card], engine_mask(follow << shift if follow else legal)))
                hands[seat] = hand ^ 1 << card
                trick_mask |= 1 << card
                k += 1
            taken[best_seat] |= trick_mask
            won[best_seat] += 1
            number += 1
            turn = best_seat
            k = 0
        # -- the score ------------------------------------------------------------------------
        busche = _busche(rules, taken, won, turn)
        if not whole_match:
            return tuple(busche)
        before = totals
        totals = [t + b for t, b in zip(totals, busche)]
        capper = turn if won[turn] == size else None
        if _match_over(rules, totals, before, out, capper):
            return tuple(totals)
        dealer = next(s for s in range(n) if taken[s] & PIG_BIT)
        phase = PHASE_DEAL
        trick = ()
