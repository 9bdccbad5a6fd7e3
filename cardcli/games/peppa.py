"""Peppa (Italian Hearts): the Torino rules and the "Standard" variant.

The seed text is the specification and ``docs/rules/peppa.md`` explains every rule and option
with the seed sentence it follows. In short: four players, 13 cards each, three cards passed
simultaneously, follow suit without trumps, penalty points for hearts and the queen of spades,
and the match ends when someone's total exceeds the threshold: the two highest lose, the two
lowest win.

Seats are numbered clockwise, so seat ``i+1`` sits on seat ``i``'s left; the first leader sits
at the dealer's right (``dealer-1``) in both directions of play.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Sequence

import attrs

from ..cards import Card, french_52, sort_cards
from ..errors import IllegalMoveError, InvalidMoveError
from . import options as opt
from .base import (
    DealScore,
    Decision,
    Event,
    GameSpec,
    MatchBase,
    Outcome,
    Variant,
    first_dealer,
)
from .trick_text import TrickRenderer
from .tricks import TrickPlay, seat_order, step

NUM_PLAYERS = 4
HAND_SIZE = 13
PASS_SIZE = 3
QUEEN_OF_SPADES = Card.parse("QS")

_TORINO_HEARTS = {14: 5, 13: 4, 12: 3, 11: 2}
_STANDARD_HEARTS = {14: 50, 13: 40, 12: 30, 11: 20, 10: 10, 9: 10, 8: 10, 7: 10}


def _values(queen: int, hearts: dict[int, int], other_heart: int) -> dict[Card, int]:
    table = {c: 0 for c in french_52()}
    table[QUEEN_OF_SPADES] = queen
    for c in french_52():
        if c.suit == "H":
            table[c] = hearts.get(c.rank, other_heart)
    return table


CARD_VALUES: dict[str, dict[Card, int]] = {
    "torino": _values(13, _TORINO_HEARTS, 1),
    "standard": _values(60, _STANDARD_HEARTS, 5),
}
"""Penalty points per card under each table: 36 per deal (Torino), 265 (Standard)."""

PASS_OFFSETS = {"left": 1, "right": -1, "across": 2, "hold": 0}
SEATS_CHOICES = ("random", "0", "1", "2", "3")


@attrs.frozen
class PeppaOptions:
    """Every Peppa house rule. Defaults are Torino's; the Standard variant overrides four."""

    play_direction: str = opt.option(
        "cw",
        "direction of play: cw (clockwise, as the seed says) or ccw (the usual Italian way, dealer last)",
        choices=("cw", "ccw"),
    )
    dealer_rotation: str = opt.option(
        "left",
        "the next dealer: the seat on the dealer's left, or the next seat in the direction of play",
        choices=("left", "play_direction"),
    )
    first_dealer: str = opt.option(
        "random", "the first dealer: drawn from the seed, or a seat number", choices=SEATS_CHOICES
    )
    pass_cycle: tuple[str, ...] = opt.option(
        ("right",),
        "where the three cards go, hand by hand, repeating (hold = no pass)",
        choices=("left", "right", "across", "hold"),
    )
    card_values: str = opt.option(
        "torino",
        "penalty table: torino (Q♠ 13, A♥ 5 ... 36 a deal) or standard (Q♠ 60, A♥ 50 ... 265 a deal)",
        choices=("torino", "standard"),
    )
    cappotto: str = opt.option(
        "all_penalty_cards",
        "what makes a cappotto (0 to its taker, a full deal's points to each other player)",
        choices=("all_penalty_cards", "all_tricks"),
    )
    end_threshold: int = opt.option(
        100, "the match ends when a total exceeds this", minimum=1
    )
    end_inclusive: bool = opt.option(
        False, "end when a total reaches the threshold, not only when it exceeds it"
    )
    boundary_tie: str = opt.option(
        "play_on",
        "2nd and 3rd highest totals equal at the end: play_on deals again; shared_loss: every seat at or above the 2nd-highest total loses; shared_win: every seat at or below the 3rd-highest wins",
        choices=("play_on", "shared_loss", "shared_win"),
    )
    two_of_clubs_leads: bool = opt.option(
        False, "the holder of 2♣ after the pass leads it to the first trick"
    )
    no_points_first_trick: bool = opt.option(
        False, "no heart and no Q♠ in the first trick unless nothing else is legal"
    )
    hearts_must_be_broken: bool = opt.option(
        False, "no heart led before a heart was played, unless the leader holds only hearts"
    )
    queen_breaks_hearts: bool = opt.option(
        False, "with hearts_must_be_broken, a played Q♠ breaks hearts too"
    )
    deal_order: str = opt.option(
        "one_at_a_time",
        "how the shuffled deck is dealt: one card or 13 cards at a time, from the dealer's right in the direction of play",
        choices=("one_at_a_time", "thirteen_at_a_time"),
    )


VARIANTS = (
    Variant("torino", "Circolo della Peppa, Torino: pass right every hand, 36 a deal, end over 100"),
    Variant(
        "standard",
        "pass left, right, across; 265 a deal; cappotto = all 13 tricks; end over 1000",
        {
            "pass_cycle": ("left", "right", "across"),
            "card_values": "standard",
            "cappotto": "all_tricks",
            "end_threshold": 1000,
        },
    ),
)


class Phase:
    DEAL = "deal"
    PASS = "pass"
    PLAY = "play"
    OVER = "over"


def _cards_text(items: Sequence[Card]) -> tuple[str, ...]:
    return tuple(c.text for c in items)


def pass_token(items: Sequence[Card]) -> str:
    """The canonical token of a pass: its three cards in canonical order joined by ``+``."""
    return "+".join(c.text for c in sort_cards(items))


class PeppaMatch(MatchBase):
    """A whole Peppa match, deal after deal, until the end rule says who won and lost."""

    num_players = NUM_PLAYERS

    def __init__(self, options: PeppaOptions, num_players: int = NUM_PLAYERS, first_dealer: int = 0):
        super().__init__()
        if num_players != NUM_PLAYERS:
            raise ValueError("Peppa is played by four players")
        self.options = options
        self.values = CARD_VALUES[options.card_values]
        self.deal_total = sum(self.values.values())
        self.clockwise = options.play_direction == "cw"
        self.phase = Phase.DEAL
        self.dealer = first_dealer
        self.totals = [0] * NUM_PLAYERS
        self._dealt: tuple[tuple[Card, ...], ...] = ()
        self.hands: list[list[Card]] = [[] for _ in range(NUM_PLAYERS)]
        self.pass_direction = "hold"
        self.passes: dict[int, tuple[Card, ...]] = {}
        self.leader = 0
        self.tricks = TrickPlay(self.hands, 0, self.clockwise, self._trick_points)
        self.hearts_broken = False
        self._result: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    # -- the protocol every game offers -------------------------------------------------------

    @property
    def dealt_hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._dealt

    def deal_facts(self) -> dict[str, Any]:
        return {"hands": [list(_cards_text(h)) for h in self._dealt]}

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        if self.phase != Phase.DEAL:
            raise IllegalMoveError("no deal is due now")
        if len(deck) != 52 or set(deck) != set(french_52()):
            raise IllegalMoveError("a Peppa deal needs the 52 cards, each once")
        if self._deals_started:
            self.dealer = self._next_dealer()
        self._deals_started += 1
        leader = (self.dealer - 1) % NUM_PLAYERS
        order = seat_order(leader, NUM_PLAYERS, self.clockwise)
        hands: list[list[Card]] = [[] for _ in range(NUM_PLAYERS)]
        for k, c in enumerate(deck):
            slot = k % NUM_PLAYERS if self.options.deal_order == "one_at_a_time" else k // HAND_SIZE
            hands[order[slot]].append(c)
        self.hands = [sort_cards(h) for h in hands]
        self._dealt = tuple(tuple(h) for h in self.hands)
        self.leader = leader
        self.hearts_broken = False
        self.passes = {}
        cycle = self.options.pass_cycle
        self.pass_direction = cycle[(self._deals_started - 1) % len(cycle)]
        events = [Event("deal", (str(self._deals_started), str(self.dealer)))]
        events += [
            Event("hand", _cards_text(h), frozenset({s})) for s, h in enumerate(self.hands)
        ]
        events.append(Event("passing", (self.pass_direction,)))
        if self.pass_direction == "hold":
            events += self._start_play()
        else:
            self.phase = Phase.PASS
        return events

    def decisions(self) -> tuple[Decision, ...]:
        if self.phase == Phase.PASS:
            return tuple(
                Decision(s, "pass", self._pass_moves(s))
                for s in range(NUM_PLAYERS)
                if s not in self.passes
            )
        if self.phase == Phase.PLAY:
            turn = self.tricks.turn
            return (Decision(turn, "play", _cards_text(self.legal_plays(turn))),)
        return ()

    def acting(self) -> tuple[tuple[int, str], ...]:
        if self.phase == Phase.PASS:
            return tuple((s, "pass") for s in range(NUM_PLAYERS) if s not in self.passes)
        if self.phase == Phase.PLAY:
            return ((self.tricks.turn, "play"),)
        return ()

    def apply(self, seat: int, move: str) -> list[Event]:
        if self.phase == Phase.PASS:
            return self._apply_pass(seat, move)
        if self.phase == Phase.PLAY:
            return self._apply_play(seat, move)
        raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers = self._result
        if forfeits:
            winners, losers = self._with_forfeits(forfeits)
        return Outcome(
            scores=tuple(self.totals),
            winners=winners,
            losers=losers,
            forfeits=tuple(sorted(forfeits)),
            lower_is_better=True,
        )

    # -- rules --------------------------------------------------------------------------------

    def pass_target(self, seat: int) -> int:
        return (seat + PASS_OFFSETS[self.pass_direction]) % NUM_PLAYERS

    def legal_plays(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now, in canonical order."""
        cached = self.tricks.cached(seat)
        if cached is not None:
            return cached
        return self.tricks.remember(seat, self._legal_plays(seat))

    def _legal_plays(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        first_trick = self.tricks.number == 0
        allowed = self.tricks.follow(seat)
        if not self.tricks.trick:
            if first_trick and self.options.two_of_clubs_leads:
                return [c for c in hand if c.text == "2C"]
            if self.options.hearts_must_be_broken and not self.hearts_broken:
                allowed = [c for c in allowed if c.suit != "H"] or allowed
        if first_trick and self.options.no_points_first_trick:
            allowed = [c for c in allowed if c.suit != "H" and c != QUEEN_OF_SPADES] or allowed
        return allowed

    def _pass_moves(self, seat: int) -> tuple[str, ...]:
        texts = [c.text for c in self.hands[seat]]
        return tuple(map("+".join, combinations(texts, PASS_SIZE)))

    def _apply_pass(self, seat: int, move: str) -> list[Event]:
        if seat in self.passes or not 0 <= seat < NUM_PLAYERS:
            raise IllegalMoveError(f"seat {seat} has no pass to make")
        parts = move.split("+")
        chosen = tuple(Card.parse(p) for p in parts)
        if len(chosen) != PASS_SIZE or len(set(chosen)) != PASS_SIZE:
            raise InvalidMoveError(f"a pass is three different cards joined by '+': {move!r}")
        missing = [c.text for c in chosen if c not in self.hands[seat]]
        if missing:
            raise IllegalMoveError(f"cannot pass {' '.join(missing)}: not in hand")
        if pass_token(chosen) != move:
            raise IllegalMoveError(f"pass not in canonical order: write {pass_token(chosen)}")
        self.passes[seat] = tuple(sort_cards(chosen))
        target = self.pass_target(seat)
        events = [Event("passed", (str(target), *_cards_text(self.passes[seat])), frozenset({seat}))]
        if len(self.passes) < NUM_PLAYERS:
            return events
        for giver, given in self.passes.items():
            self.hands[giver] = [c for c in self.hands[giver] if c not in given]
        for giver, given in sorted(self.passes.items()):
            receiver = self.pass_target(giver)
            self.hands[receiver] = sort_cards(self.hands[receiver] + list(given))
            events.append(
                Event("received", (str(giver), *_cards_text(given)), frozenset({receiver}))
            )
        return events + self._start_play()

    def _start_play(self) -> list[Event]:
        self.phase = Phase.PLAY
        leader = self.leader
        if self.options.two_of_clubs_leads:
            leader = next(s for s, h in enumerate(self.hands) if Card.parse("2C") in h)
        self.tricks = TrickPlay(self.hands, leader, self.clockwise, self._trick_points)
        return self.tricks.start()

    def _trick_points(self, cards: Sequence[Card], last: bool) -> int:
        return sum(self.values[c] for c in cards)

    def _apply_play(self, seat: int, move: str) -> list[Event]:
        played = self.tricks.card_for(seat, move)
        if played not in self.legal_plays(seat):
            raise IllegalMoveError(f"{move} may not be played now: {self._why_not(seat)}")
        if played.suit == "H" or (played == QUEEN_OF_SPADES and self.options.queen_breaks_hearts):
            self.hearts_broken = True
        events = self.tricks.play(seat, played)
        return events + self._end_deal() if self.tricks.finished else events

    def _why_not(self, seat: int) -> str:
        led = self.tricks.led_suit
        first = self.tricks.number == 0
        if led is not None and any(c.suit == led for c in self.hands[seat]):
            return "must follow suit"
        if first and self.options.two_of_clubs_leads and led is None:
            return "the first trick is led with 2C"
        if first and self.options.no_points_first_trick:
            return "no points in the first trick"
        return "hearts are not broken"

    def _end_deal(self) -> list[Event]:
        points = [sum(self.values[c] for c in taken) for taken in self.tricks.taken]
        events: list[Event] = []
        notes: tuple[str, ...] = ()
        hero = self._cappotto_seat()
        if hero is not None:
            points = [0 if s == hero else self.deal_total for s in range(NUM_PLAYERS)]
            notes = (f"cappotto {hero}",)
            events.append(Event("cappotto", (str(hero),)))
        self.totals = [t + p for t, p in zip(self.totals, points)]
        self._scores.append(DealScore(self._deals_started, tuple(points), tuple(self.totals), notes))
        events.append(Event("score", (str(self._deals_started), *map(str, points))))
        events.append(Event("totals", tuple(map(str, self.totals))))
        self._result = self._match_result()
        self.phase = Phase.DEAL if self._result is None else Phase.OVER
        return events

    def _cappotto_seat(self) -> int | None:
        if self.options.cappotto == "all_tricks":
            return next((s for s, n in enumerate(self.tricks.tricks_won) if n == HAND_SIZE), None)
        penalty = {c for c, v in self.values.items() if v}
        return next((s for s, t in enumerate(self.tricks.taken) if penalty <= set(t)), None)

    def _match_result(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Winners and losers if the match is over after this deal, else None."""
        threshold = self.options.end_threshold
        if self.options.end_inclusive:
            ended = max(self.totals) >= threshold
        else:
            ended = max(self.totals) > threshold
        if not ended:
            return None
        return self._ranking(self.options.boundary_tie)

    def adjudicate(self) -> None:
        """End the match between deals (the referee's deal limit): the two highest totals lose
        as if the threshold had been passed; a tie at the boundary cannot be played on, so the
        tied seats share the loss unless the option says they share the win."""
        if self.phase != Phase.DEAL:
            raise IllegalMoveError("a match is adjudicated only between deals")
        tie = "shared_win" if self.options.boundary_tie == "shared_win" else "shared_loss"
        self._result = self._ranking(tie)
        self.phase = Phase.OVER

    def _ranking(self, tie: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Two highest totals lose, two lowest win; ``tie`` decides a tie at the boundary."""
        ranked = sorted(self.totals, reverse=True)
        second, third = ranked[1], ranked[2]
        seats = range(NUM_PLAYERS)
        if second != third:
            losers = tuple(s for s in seats if self.totals[s] >= second)
        elif tie == "play_on":
            return None
        elif tie == "shared_loss":
            losers = tuple(s for s in seats if self.totals[s] >= second)
        else:
            losers = tuple(s for s in seats if self.totals[s] > third)
        return tuple(s for s in seats if s not in losers), losers

    def _with_forfeits(self, forfeits: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A forfeited seat loses whatever its score; the rest of the two losing places go to
        the highest totals among the others, every seat tied for the last losing place losing."""
        others = [s for s in range(NUM_PLAYERS) if s not in forfeits]
        places = max(0, 2 - len(forfeits))
        losers = set(forfeits)
        if places and others:
            cut = sorted((self.totals[s] for s in others), reverse=True)[places - 1]
            losers |= {s for s in others if self.totals[s] >= cut}
        return tuple(s for s in range(NUM_PLAYERS) if s not in losers), tuple(sorted(losers))

    def _next_dealer(self) -> int:
        if self.options.dealer_rotation == "left":
            return (self.dealer + 1) % NUM_PLAYERS
        return step(self.dealer, NUM_PLAYERS, self.clockwise)



SUMMARY = """\
Peppa is Italian Hearts for four players, each for themselves, with a 52-card deck.
Each player gets 13 cards and passes three to another player; everybody passes at once
(Torino: always to the right; Standard: left, right, across in turn). The player at the
dealer's right leads any card; the others must follow suit if they can, otherwise play any
card. There are no trumps: the highest card of the led suit takes the trick, and its taker
leads next. Penalty points are taken with the cards: Torino counts Q♠ 13, A♥ 5, K♥ 4, Q♥ 3,
J♥ 2 and every other heart 1 (36 a deal); Standard counts Q♠ 60, A♥ 50, K♥ 40, Q♥ 30, J♥ 20,
10♥-7♥ 10, 6♥-2♥ 5 (265 a deal). Cappotto: a player who takes every penalty card (Torino) or
every trick (Standard) scores 0 and each other player scores a whole deal's points. When a
total exceeds 100 (Standard: 1000), the two highest totals lose and the two lowest win."""


SPEC = GameSpec(
    name="peppa",
    title="Peppa (Italian Hearts)",
    summary=SUMMARY,
    player_counts=(NUM_PLAYERS,),
    variants=VARIANTS,
    options_class=PeppaOptions,
    deck=french_52,
    new_match=PeppaMatch,
    first_dealer=first_dealer,
    decision_kinds=("pass", "play"),
    lower_is_better=True,
    play_order=lambda options: options.play_direction,
    renderer=TrickRenderer,
)
