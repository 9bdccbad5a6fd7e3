"""Whole Pepper playouts in one loop over a compact state, for search.

A search asks one question of a playout: how does this deal (or this match) end from here?
Through the engine's integer actions (:meth:`PepperMatch.legal_actions`,
:meth:`PepperMatch.apply_action`) every move pays for a method call, a legality check, a list
of legal actions and the trick object's bookkeeping. Here a playout unpacks a
:class:`CompactState` into local variables and plays the auction, the trump and every trick
in one function.

**Cards.** Until the trump is named a hand is a 24-bit integer in the engine's action order
(bit ``6 * suit + rank``, 9 low, ace high). Naming the trump renumbers the hands, three table
look-ups each, into a 32-bit *trick layout* of four 8-bit blocks, one per suit as the trump
makes them (the left bower moves to the trumps when the option says so): the plain suits in
printed order in blocks 0 to 2 (0 to 3 at no-trump), the trumps in block 3, each block's
cards in the order of their power. Then following suit is one shift and ``&``, a card beats
the best card so far if it follows and is higher, or is a trump and higher (the trump block
lies above every plain block), and the order of powers is the order of the bits. The tables
are built from the engine's own :func:`~.rules.suit_under` and :func:`~.rules.power_under`.

**Policies.** ``random`` bids, names the trump and plays uniformly at random among the legal
moves. ``greedy`` plays the rule policy of :mod:`.search`
(:class:`~.search.PepperRulePolicy`): the heuristic's bid and trump (:func:`greedy_bid`,
:func:`greedy_trump`, from its estimate of the tricks a hand takes, :func:`estimates`), and in
the tricks TrickPolicy's trick-taking rule of thumb: lead a card of the highest power (the
right bower, the left bower, then aces of any suit, a random one of a tie); when following,
take the trick with the cheapest card that beats it (a card of the led suit before a trump)
unless the partner is winning it; otherwise play the lowest card, a plain one before a trump
(the first in card order of a tie). Each of its moves is a random one with probability
``epsilon``.

The rules are the engine's (:mod:`.rules`): every option of
:class:`~cardcli.plugins.pepper.rules.PepperOptions` and 2, 3 or 4 players; an option this
module does not know (one added to the engine later) makes :func:`compact` refuse the match
with :class:`UnsupportedRules` rather than play a different game.
tests/games/test_pepper_playout.py checks, over thousands of seeded deals and option sets,
that the engine fed the same moves through its own API agrees on every legal set and score.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Sequence

import attrs

from ...cards import Card
from ...errors import CardcliError
from .rules import (
    BID,
    CARD_ACTIONS,
    DEAL,
    OVER,
    PLAY,
    TRUMP,
    TRUMPS,
    PepperMatch,
    PepperOptions,
    power_under,
    suit_under,
)

PHASE_DEAL, PHASE_BID, PHASE_TRUMP, PHASE_PLAY, PHASE_OVER = 0, 1, 2, 3, 4
"""The compact state's phases: a deal is due, the auction, the trump, the tricks, the end."""

RANDOM = "random"
GREEDY = "greedy"
POLICIES = (RANDOM, GREEDY)

NO_TRUMP = 4
"""The index of no-trump in :data:`~.rules.TRUMPS` (C, D, H, S, NT)."""
FULL = (1 << 24) - 1
"""All 24 cards in the action order."""

SUPPORTED_OPTIONS = frozenset({
    "first_dealer", "left_bower_is_trump", "pass_is_final", "auction", "all_pass", "trump_must_be_held",
    "target", "deal_order",
})
"""The options this loop plays. An option the engine gains later is refused until it is
taught here, so a playout never quietly plays a rule the engine does not."""

_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(b for b in range(8) if byte >> b & 1) for byte in range(256))
"""The bits set in each byte, lowest first: a random card of a block is one look-up."""

_ENGINE_OF_ACTION = CARD_ACTIONS.index_of
"""The engine's card index (52-card numbering) of each card in the action order."""
_ACTION_CARDS = tuple(Card.parse(t) for t in CARD_ACTIONS.texts)


class UnsupportedRules(CardcliError):
    """The match uses a rule the compact playout does not play (an option it does not know, a
    value outside its choices, a number of players it does not know)."""


@attrs.frozen
class Layout:
    """The trick layout under one trump (see the module's docstring), as tables."""

    to_trick: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    """For each byte of a 24-bit hand, the trick-layout bits of its 256 values."""
    engine: tuple[int, ...]
    """The engine's card index of each trick-layout bit (-1: no card)."""
    where: tuple[int, ...]
    """The trick-layout bit of each of the engine's 52 card indices (-1: not a Pepper card)."""
    trumps: int
    """The trump block's mask (0 at no-trump)."""
    floor: int
    """The lowest trump's bit, or 32 at no-trump: a card at or above it is a trump."""
    lead_order: tuple[int, ...]
    """The cards grouped by power, highest first (the greedy lead)."""
    low_order: tuple[int, ...]
    """The plain cards grouped by power, lowest first (the greedy discard)."""

    def of(self, hand: int) -> int:
        """A 24-bit hand in this layout."""
        table = self.to_trick
        return table[0][hand & 0xFF] | table[1][hand >> 8 & 0xFF] | table[2][hand >> 16]

    def engine_mask(self, mask: int) -> int:
        """The engine's 52-bit mask of a trick-layout mask (for traces)."""
        return sum(1 << self.engine[b] for b in range(32) if mask >> b & 1)


def _build_layout(trump: str | None, left_bower_is_trump: bool) -> Layout:
    """The trick layout under ``trump`` (a function of the module: mypyc cannot compile a
    closure in a method of an attrs class, setup.py)."""
    plain = [s for s in "CDHS" if s != trump]
    blocks = {s: k for k, s in enumerate(plain)}
    if trump is not None:
        blocks[trump] = 3
    where = [0] * 24
    engine = [-1] * 32
    for suit, block in blocks.items():
        members = [a for a, c in enumerate(_ACTION_CARDS) if suit_under(c, trump, left_bower_is_trump) == suit]
        members.sort(key=lambda a: power_under(_ACTION_CARDS[a], trump, left_bower_is_trump))
        for k, a in enumerate(members):
            where[a] = 8 * block + k
            engine[8 * block + k] = _ENGINE_OF_ACTION[a]
    to_trick = tuple(
        tuple(sum(1 << where[8 * b + i] for i in range(8) if value >> i & 1) for value in range(256))
        for b in range(3)
    )
    powers: dict[int, int] = {}
    plain_powers: dict[int, int] = {}
    trumps = 0xFF << 24 if trump is not None else 0
    for a, card in enumerate(_ACTION_CARDS):
        power = power_under(card, trump, left_bower_is_trump)
        powers[power] = powers.get(power, 0) | 1 << where[a]
        if not (1 << where[a]) & trumps:
            plain_powers[power] = plain_powers.get(power, 0) | 1 << where[a]
    back = [-1] * 52
    for b, e in enumerate(engine):
        if e >= 0:
            back[e] = b
    return Layout(
        to_trick=(to_trick[0], to_trick[1], to_trick[2]),
        engine=tuple(engine),
        where=tuple(back),
        trumps=trumps,
        floor=24 if trump is not None else 32,
        lead_order=tuple(powers[p] for p in sorted(powers, reverse=True)),
        low_order=tuple(plain_powers[p] for p in sorted(plain_powers)),
    )


@functools.lru_cache(maxsize=None)
def layouts(left_bower_is_trump: bool) -> tuple[Layout, ...]:
    """The layout under each of :data:`~.rules.TRUMPS`, built once."""
    return tuple(_build_layout(None if t == "NT" else t, left_bower_is_trump) for t in TRUMPS)


@functools.lru_cache(maxsize=None)
def _held_masks(left_bower_is_trump: bool) -> tuple[int, ...]:
    """For each suit, the 24-bit mask of the cards that are trumps under it
    (``trump_must_be_held``)."""
    return tuple(
        sum(1 << a for a, c in enumerate(_ACTION_CARDS) if suit_under(c, s, left_bower_is_trump) == s)
        for s in "CDHS"
    )


@functools.lru_cache(maxsize=None)
def _slot_digits(hand_size: int) -> tuple[bytes, ...]:
    """For each hand in dealing order, the binary digit of each place in the deck: ``1`` for
    its places. Translating the places of the cards (in card order) and reading the digits
    from the last card to the first gives that hand as a mask."""
    return tuple(
        bytes(ord("1") if place < 24 and place // hand_size == slot else ord("0") for place in range(256))
        for slot in range(24 // hand_size)
    )


@attrs.frozen
class CompactRules:
    """The options and the table as the loop reads them: small values decided once per match."""

    num_players: int
    hand_size: int
    levels: tuple[str, ...]
    """The bid tokens above pass, lowest first; a bid's level is its place here plus one."""
    numbers: int
    """How many of the levels are numbers (:func:`numbered`): the heuristic's bids."""
    left_bower_is_trump: bool
    pass_is_final: bool
    single_round: bool
    stick_dealer: bool
    redeal_same_dealer: bool
    trump_must_be_held: bool
    target: int
    one_at_a_time: bool
    next_seat: tuple[int, ...]
    """The seat after each seat, clockwise."""
    partner: tuple[int, ...] | None
    """Each seat's partner with 4 players."""
    layouts: tuple[Layout, ...]
    """:func:`layouts` of the left bower's option."""
    held: tuple[int, ...]
    """:func:`_held_masks` of the left bower's option."""
    digits: tuple[bytes, ...]
    """:func:`_slot_digits` of the hand size."""

    @classmethod
    def of(cls, options: PepperOptions, num_players: int, levels: tuple[str, ...]) -> "CompactRules":
        """The rules of ``options``; :class:`UnsupportedRules` for anything this loop does not
        play exactly as the engine does."""
        names = {f.name for f in attrs.fields(type(options))}
        unknown = sorted(names - SUPPORTED_OPTIONS)
        if unknown:
            raise UnsupportedRules(f"the compact Pepper playout does not play the option(s) {', '.join(unknown)}")
        checks = {
            "auction": ("multi_round", "single_round"),
            "all_pass": ("redeal_next_dealer", "redeal_same_dealer", "stick_dealer"),
            "deal_order": ("one_at_a_time", "hand_at_a_time"),
        }
        for name, allowed in checks.items():
            if getattr(options, name) not in allowed:
                raise UnsupportedRules(f"the compact Pepper playout does not play {name}={getattr(options, name)!r}")
        if num_players not in (2, 3, 4):
            raise UnsupportedRules(f"the compact Pepper playout plays 2, 3 or 4 seats, not {num_players}")
        left_bower = bool(options.left_bower_is_trump)
        return cls(
            num_players=num_players,
            hand_size=6 if num_players == 4 else 8,
            levels=levels,
            numbers=numbered(levels),
            left_bower_is_trump=bool(options.left_bower_is_trump),
            pass_is_final=bool(options.pass_is_final),
            single_round=options.auction == "single_round",
            stick_dealer=options.all_pass == "stick_dealer",
            redeal_same_dealer=options.all_pass == "redeal_same_dealer",
            trump_must_be_held=bool(options.trump_must_be_held),
            target=int(options.target),
            one_at_a_time=options.deal_order == "one_at_a_time",
            next_seat=tuple((s + 1) % num_players for s in range(num_players)),
            partner=tuple((s + 2) % 4 for s in range(4)) if num_players == 4 else None,
            layouts=layouts(left_bower),
            held=_held_masks(left_bower),
            digits=_slot_digits(6 if num_players == 4 else 8),
        )


@attrs.frozen
class CompactState:
    """A Pepper match at one point, in integers: what a playout starts from.

    It is a value, so one state serves any number of playouts (a search draws a world, makes
    it compact once per iteration, and the loop works on local copies)."""

    rules: CompactRules
    phase: int
    """:data:`PHASE_DEAL`, :data:`PHASE_BID`, :data:`PHASE_TRUMP`, :data:`PHASE_PLAY` or
    :data:`PHASE_OVER`."""
    hands: tuple[int, ...]
    """Each seat's cards: 24-bit in the action order, in the trick layout once trump is named."""
    dealer: int
    deals: int
    """Deals started, as the engine's ``deal_number``."""
    same_dealer: bool
    """The next deal keeps the dealer (everybody passed under ``redeal_same_dealer``)."""
    totals: tuple[int, ...]
    """Each side's total."""
    turn: int = 0
    """The seat to bid, or to play."""
    high: int = -1
    """The high bidder (-1: no bid yet)."""
    level: int = 0
    """The high bid's level (0: none)."""
    passed: int = 0
    """The seats that passed, as a mask (as the engine keeps them)."""
    spoken: int = 0
    """The seats that spoke, as a mask."""
    trump: int = -1
    """The trump's index in :data:`~.rules.TRUMPS` once named."""
    trick: tuple[int, ...] = ()
    """The cards of the trick in progress, in play order, in the trick layout."""
    number: int = 0
    """Tricks finished in this deal."""
    won: tuple[int, ...] = ()
    """Each seat's tricks in this deal."""


@functools.lru_cache(maxsize=64)
def _rules_of(options: PepperOptions, num_players: int, levels: tuple[str, ...]) -> CompactRules:
    """:meth:`CompactRules.of`, once per set of options: a search makes a state compact on
    every iteration."""
    return CompactRules.of(options, num_players, levels)


_RULES_BY_ID: dict[tuple[int, int], tuple[PepperOptions, CompactRules]] = {}
"""The rules of the options objects met, by identity: a match's clones share its options, so
an iteration of a search finds them without hashing every option (the options are kept, so
an identity is never reused while it is here)."""


def actions_mask(mask52: int) -> int:
    """The engine's 52-bit hand as a 24-bit mask in the action order."""
    return (mask52 >> 7 & 0x3F) | (mask52 >> 14 & 0xFC0) | (mask52 >> 21 & 0x3F000) | (mask52 >> 28 & 0xFC0000)


def compact(match: PepperMatch) -> CompactState:
    """The compact state of ``match`` wherever it stands: between deals, in the auction, at
    the trump, or at any point of the trick play. A search calls this once per iteration, so
    it builds the state in one call."""
    n = match.num_players
    known = _RULES_BY_ID.get((id(match.options), n))
    if known is not None and known[0] is match.options:
        rules = known[1]
    else:
        rules = _rules_of(match.options, n, match.levels)
        if len(_RULES_BY_ID) >= 64:  # a long-lived process meets many matches' options
            _RULES_BY_ID.clear()
        _RULES_BY_ID[(id(match.options), n)] = (match.options, rules)
    phase = match.phase
    totals = tuple(match.side_totals)
    if phase is DEAL or phase is OVER:
        return CompactState(rules, PHASE_DEAL if phase is DEAL else PHASE_OVER, (0,) * n, match.dealer,
                            match.deal_number, match._next_same_dealer, totals)
    if phase is PLAY:
        trump = TRUMPS.index(match.trump or "NT")
        layout = layouts(rules.left_bower_is_trump)[trump]
        t0, t1, t2 = layout.to_trick
        played = []
        for h in match.hand_masks:
            c = (h >> 7 & 0x3F) | (h >> 14 & 0xFC0) | (h >> 21 & 0x3F000) | (h >> 28 & 0xFC0000)  # actions_mask
            played.append(t0[c & 0xFF] | t1[c >> 8 & 0xFF] | t2[c >> 16])
        where = layout.where
        tricks = match.tricks
        return CompactState(
            rules, PHASE_PLAY, tuple(played), match.dealer, match.deal_number, False, totals,
            turn=tricks.turn, high=match.declarer, level=match.levels.index(match.contract) + 1, trump=trump,
            trick=tuple(where[card] for _, card in tricks.trick), number=tricks.number, won=tuple(tricks.tricks_won),
        )
    hands = tuple(actions_mask(h) for h in match.hand_masks)
    if phase is BID:
        high, level = (match.high[0], match.levels.index(match.high[1]) + 1) if match.high else (-1, 0)
        return CompactState(
            rules, PHASE_BID, hands, match.dealer, match.deal_number, False, totals, turn=match.turn, high=high,
            level=level, passed=sum(1 << s for s in match.passed), spoken=sum(1 << s for s in match.spoken),
        )
    level = match.levels.index(match.contract) + 1
    if phase is TRUMP:
        return CompactState(rules, PHASE_TRUMP, hands, match.dealer, match.deal_number, False, totals,
                            turn=match.declarer, high=match.declarer, level=level)
    raise UnsupportedRules(f"no compact state for phase {phase}")  # pragma: no cover


Trace = list[tuple[Any, ...]]
"""What a playout did, when asked (for the consistency tests): ``("deal", deck)`` with the
24 cards' engine indices in dealing order, ``("bid", seat, token, legal)`` and ``("trump",
seat, token, legal)`` with the tokens the loop held legal, ``("play", seat, card, legal)`` with
the engine's card index and the engine's mask of the cards the loop held legal."""


def moves_left(state: CompactState) -> int:
    """The moves a playout from ``state`` plays at least before its deal ends, exact from the
    trump on: during the auction, one bid of each seat yet to speak (the auction's length is
    the playout's to decide; :func:`finish_deal` counts the moves it did play)."""
    rules = state.rules
    n = rules.num_players
    if state.phase == PHASE_PLAY:
        return sum(hand.bit_count() for hand in state.hands)
    if state.phase == PHASE_TRUMP:
        return 1 + n * rules.hand_size
    if state.phase == PHASE_BID:
        return n - state.spoken.bit_count()
    if state.phase == PHASE_DEAL:
        return n
    return 0


def play_deal(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
              trace: Trace | None = None) -> tuple[int, ...]:
    """Play the deal in progress (or, between deals, a new random one) to its end and return
    each seat's points in it (all 0 when everybody passed): what a search's reward reads."""
    return finish_deal(state, rng, policy, epsilon, trace)[0]


def finish_deal(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
                trace: Trace | None = None) -> tuple[tuple[int, ...], int]:
    """:func:`play_deal`, and the number of moves it played (bids, the trump, the cards): what
    a search counts against a budget of moves."""
    if state.phase == PHASE_OVER:
        raise UnsupportedRules("the match is over: there is no deal to play")
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, False, None)


def play_match(state: CompactState, rng: random.Random, policy: str = RANDOM, epsilon: float = 0.1,
               trace: Trace | None = None, deal_limit: int | None = None) -> tuple[int, ...]:
    """Play to the end of the match, dealing each new deal at random from ``rng``, and return
    each seat's final total. ``deal_limit`` stops between deals once that many have started,
    as the referee's deal limit does (:meth:`PepperMatch.adjudicate` then ranks these
    totals): under random bids a match may go on for a very long time, every side losing
    its contracts in turn."""
    rules = state.rules
    if state.phase == PHASE_OVER:
        return _seat_totals(state.totals, rules.num_players)
    return _run(state, rng, _greedy_flag(policy), epsilon, trace, True, deal_limit)[0]


def _greedy_flag(policy: str) -> bool:
    if policy not in POLICIES:
        raise UnsupportedRules(f"unknown playout policy {policy!r}: one of {', '.join(POLICIES)}")
    return policy == GREEDY


def _seat_totals(side_totals: Any, n: int) -> tuple[int, ...]:
    if n == 4:
        return (side_totals[0], side_totals[1], side_totals[0], side_totals[1])
    return tuple(side_totals)


def _nth(mask: int, j: int) -> int:
    """The ``j``-th bit (from 0, lowest first) of ``mask``."""
    shift = 0
    while True:
        bits = _BITS[mask >> shift & 0xFF]
        if j < len(bits):
            return shift + bits[j]
        j -= len(bits)
        shift += 8


def _deck_for(hands: list[int], dealer: int, rules: CompactRules) -> tuple[int, ...]:
    """A deck the engine deals into ``hands`` (24-bit; the dead hand is the rest), for a trace."""
    n, size = rules.num_players, rules.hand_size
    held = [[a for a in range(24) if hands[(dealer + k) % n] >> a & 1] for k in range(1, n + 1)]
    if n == 2:
        rest = FULL ^ hands[0] ^ hands[1]
        held.append([a for a in range(24) if rest >> a & 1])
    slots = len(held)
    if rules.one_at_a_time:
        order = [held[k % slots][k // slots] for k in range(24)]
    else:
        order = [a for cards in held for a in cards]
    assert len(order) == 24 and all(len(h) == size for h in held)
    return tuple(_ENGINE_OF_ACTION[a] for a in order)


_SISTER = (3, 2, 1, 0)
"""The suit of the same colour as each suit (clubs and spades, diamonds and hearts), by index."""


def estimates(hand: int, left_bower: bool, partner: bool) -> tuple[float, ...]:
    """The tricks the heuristic expects ``hand`` (24-bit, action order) to take under each of
    :data:`~.rules.TRUMPS` (:meth:`~.heuristic.PepperHeuristic.estimate`, its sums in its
    order, so the greedy bids round as the heuristic's do)."""
    blocks = (hand & 63, hand >> 6 & 63, hand >> 12 & 63, hand >> 18 & 63)
    found = []
    for trump in range(5):
        tricks = 0.0
        for suit in range(4):
            block = blocks[suit]
            ace = block >> 5 & 1
            king = block >> 4 & 1
            if suit == trump:
                right = block >> 2 & 1
                left = blocks[_SISTER[suit]] >> 2 & 1 if left_bower else 0
                length = block.bit_count() + left
                tricks += right + (1.0 if right else 0.8) * left + 0.9 * ace
                tricks += (0.6 if length >= 3 else 0.3) * king + 0.5 * max(0, length - 3)
            elif trump == NO_TRUMP:
                tricks += ace + 0.6 * (king and ace)
            else:
                tricks += 0.8 * ace + 0.4 * (king and ace)
        found.append(tricks + (1.0 if partner else 0.0))
    return tuple(found)


def numbered(levels: Sequence[str]) -> int:
    """How many of the bid ``levels`` are numbers: the rest, above them, are the Peppers."""
    return sum(1 for token in levels if token.isdigit())


def greedy_bid(hand: int, level: int, numbers: int, stuck: bool, over_partner: bool, left_bower: bool,
               partnered: bool) -> int:
    """The heuristic's bid (:meth:`~.heuristic.PepperHeuristic.bid`) as a level, 0 to pass:
    pass over the partner's bid, else the lowest number the hand's best estimate reaches,
    else pass; a stuck dealer bids the lowest. ``level`` is the high bid's, ``numbers`` how
    many levels are numbers (the Peppers above them are never the rule's)."""
    if not stuck and over_partner:
        return 0
    if stuck or (level < numbers and level + 1 <= int(max(estimates(hand, left_bower, partnered)))):
        return level + 1
    return 0


def greedy_trump(hand: int, offered: Sequence[int], left_bower: bool) -> int:
    """The heuristic's trump (:meth:`~.heuristic.PepperHeuristic.trump_value`) among the
    ``offered`` indices of :data:`~.rules.TRUMPS`: the best estimate, no-trump half a trick
    behind, the first of a tie."""
    values = estimates(hand, left_bower, False)
    return max(offered, key=lambda t: values[t] - 0.5 if t == NO_TRUMP else values[t])


_CARDS = range(24)


def _run(state: CompactState, rng: random.Random, greedy: bool, epsilon: float, trace: Trace | None,
         whole_match: bool, deal_limit: int | None) -> tuple[tuple[int, ...], int]:
    """The playout: deals, auctions, trumps, tricks and scoring, until the deal (or the match)
    ends; the points (or the totals) and the moves played."""
    rules = state.rules
    rand = rng.random
    n = rules.num_players
    size = rules.hand_size
    levels = rules.levels
    top = len(levels)
    all_seats = (1 << n) - 1
    final_pass = rules.pass_is_final
    single = rules.single_round
    skip_passed = final_pass and not single
    stick = rules.stick_dealer
    penalty = 6 if n == 4 else 8
    nxt = rules.next_seat
    partner = rules.partner
    digits = rules.digits
    slots = n if n != 4 else 3  # the last hand of four is what the other three leave
    all_layouts = rules.layouts
    held_masks = rules.held
    left_bower = rules.left_bower_is_trump
    numbers = rules.numbers
    bits_of = _BITS
    nth = _nth
    phase = state.phase
    dealer = state.dealer
    deals = state.deals
    same_dealer = state.same_dealer
    totals = list(state.totals)
    hands = list(state.hands)
    turn = state.turn
    high = state.high
    level = state.level
    passed = state.passed
    spoken = state.spoken
    trump = state.trump
    trick = state.trick
    number = state.number
    won = list(state.won)
    moves = 0
    while True:
        if phase == PHASE_DEAL:
            if whole_match and deal_limit is not None and deals >= deal_limit:
                return _seat_totals(totals, n), moves
            if deals and not same_dealer:
                dealer = nxt[dealer]
            same_dealer = False
            deals += 1
            # a random permutation, read as each card's place in a shuffled deck: places 0 to
            # hand_size - 1 make the first hand, and so on (which cards go to which seat is
            # all a random deal decides); each hand is one C-level translate and int()
            keys = [rand() for _ in _CARDS]
            places = bytes(sorted(_CARDS, key=keys.__getitem__))
            hands = [0] * n
            seat = nxt[dealer]
            for slot in range(slots):
                hands[seat] = int(places.translate(digits[slot])[::-1], 2)
                seat = nxt[seat]
            if n == 4:
                hands[dealer] = FULL ^ hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
            if trace is not None:
                trace.append(("deal", _deck_for(hands, dealer, rules)))
            turn = nxt[dealer]
            high, level, passed, spoken = -1, 0, 0, 0
            phase = PHASE_BID
        if phase == PHASE_BID:
            while True:
                seat = turn
                stuck = stick and seat == dealer and level == 0 and passed.bit_count() == n - 1
                if greedy and rand() >= epsilon:
                    over_partner = partner is not None and high == partner[seat]
                    bid = greedy_bid(hands[seat], level, numbers, stuck, over_partner, left_bower, partner is not None)
                elif stuck:
                    bid = level + 1 + int(rand() * (top - level))
                else:
                    bid = int(rand() * (top - level + 1))
                    if bid:
                        bid += level
                if trace is not None:
                    legal = levels[level:] if stuck else ("pass", *levels[level:])
                    trace.append(("bid", seat, levels[bid - 1] if bid else "pass", legal))
                moves += 1
                spoken |= 1 << seat
                if bid:
                    high, level = seat, bid
                    if not final_pass:
                        passed = 0
                else:
                    passed |= 1 << seat
                if level == top:
                    break
                if single:
                    if spoken == all_seats:
                        break
                elif level == 0:
                    if passed == all_seats:
                        break
                elif passed | 1 << high == all_seats:
                    break
                turn = nxt[seat]
                if skip_passed:
                    while passed >> turn & 1:
                        turn = nxt[turn]
            if level == 0:  # thrown in: no score, and no end of the match
                same_dealer = rules.redeal_same_dealer
                phase = PHASE_DEAL
                if not whole_match:
                    return (0,) * n, moves
                continue
            phase = PHASE_TRUMP
        if phase == PHASE_TRUMP:
            if rules.trump_must_be_held:
                hand = hands[high]
                offered = [t for t in range(4) if hand & held_masks[t]]
                offered.append(NO_TRUMP)
            else:
                offered = [0, 1, 2, 3, 4]
            if greedy and rand() >= epsilon:
                trump = greedy_trump(hands[high], offered, left_bower)
            else:
                trump = offered[int(rand() * len(offered))]
            if trace is not None:
                trace.append(("trump", high, TRUMPS[trump], tuple(TRUMPS[t] for t in offered)))
            moves += 1
            layout = all_layouts[trump]
            hands = [layout.of(h) for h in hands]
            turn = high
            trick = ()
            number = 0
            won = [0] * n
            phase = PHASE_PLAY
        # -- the tricks ---------------------------------------------------------------------------
        layout = all_layouts[trump]
        trumps = layout.trumps
        floor = layout.floor
        lead_order = layout.lead_order
        low_order = layout.low_order
        k = len(trick)
        shift = best = best_seat = seat = 0
        if k:
            seat = (turn - k) % n  # the trick's leader
            lead = trick[0]
            shift = lead & 24
            best, best_seat = lead, seat
            for card in trick[1:]:
                seat = nxt[seat]
                if (card & 24) == shift or card >= floor:
                    if card > best:
                        best, best_seat = card, seat
        moves += sum(hand.bit_count() for hand in hands)
        while number < size:
            if k == 0:
                hand = hands[turn]
                count = hand.bit_count()
                if count == 1:
                    card = hand.bit_length() - 1
                elif greedy and rand() >= epsilon:
                    for group in lead_order:
                        tied = hand & group
                        if tied:
                            break
                    if tied & (tied - 1):
                        card = nth(tied, int(rand() * tied.bit_count()))
                    else:
                        card = tied.bit_length() - 1
                else:
                    card = nth(hand, int(rand() * count))
                if trace is not None:
                    trace.append(("play", turn, layout.engine[card], layout.engine_mask(hand)))
                hands[turn] = hand ^ 1 << card
                shift = card & 24
                best = card
                best_seat = seat = turn
                k = 1
            while k < n:
                seat = nxt[seat]
                hand = hands[seat]
                follow = hand >> shift & 0xFF
                if follow:
                    ranks = bits_of[follow]
                    count = len(ranks)
                    if count == 1:
                        card = shift + ranks[0]
                    elif greedy and rand() >= epsilon:
                        if partner is not None and partner[seat] == best_seat:
                            card = shift + ranks[0]
                        else:
                            winners = follow & -(2 << (best - shift))
                            card = shift + ((winners & -winners).bit_length() - 1 if winners else ranks[0])
                    else:
                        card = shift + ranks[int(rand() * count)]
                    if card > best:
                        best, best_seat = card, seat
                    if trace is not None:
                        trace.append(("play", seat, layout.engine[card], layout.engine_mask(follow << shift)))
                else:
                    count = hand.bit_count()
                    if count == 1:
                        card = hand.bit_length() - 1
                    elif greedy and rand() >= epsilon:
                        winners = 0 if partner is not None and partner[seat] == best_seat else hand & trumps & -(2 << best)
                        if winners:
                            card = (winners & -winners).bit_length() - 1
                        else:
                            plain = hand & ~trumps
                            if plain:
                                for group in low_order:
                                    tied = plain & group
                                    if tied:
                                        break
                                card = (tied & -tied).bit_length() - 1
                            else:
                                card = (hand & -hand).bit_length() - 1
                    else:
                        card = nth(hand, int(rand() * count))
                    if card >= floor and card > best:
                        best, best_seat = card, seat
                    if trace is not None:
                        trace.append(("play", seat, layout.engine[card], layout.engine_mask(hand)))
                hands[seat] = hand ^ 1 << card
                k += 1
            won[best_seat] += 1
            number += 1
            turn = best_seat
            k = 0
        # -- the score --------------------------------------------------------------------------------
        if n == 4:
            side_won = [won[0] + won[2], won[1] + won[3]]
            declaring = high & 1
        else:
            side_won = won
            declaring = high
        need = size if level >= top - 1 else level
        made = side_won[declaring] >= need
        side_points = list(side_won)
        if level == top:
            side_points[declaring] = 2 * penalty if made else -2 * penalty
        elif not made:
            side_points[declaring] = -penalty
        for i, p in enumerate(side_points):
            totals[i] += p
        if not whole_match:
            return _seat_totals(side_points, n), moves
        if max(totals) >= rules.target:
            return _seat_totals(totals, n), moves
        phase = PHASE_DEAL
        trick = ()
