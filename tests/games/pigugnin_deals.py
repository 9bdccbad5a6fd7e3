"""Scripted Il Pigugnìn deals for the hand-checked tests.

A deal is written by *play position*: position 0 is the player after the dealer (the first
leader), position 1 the next one in the direction of play, and so on; the dealer is always the
last position (3 with four players, 4 with five). Each trick is one line::

    "3C 2C AC KC > 0 = 6"

the card played by each *position* (p0 p1 p2 p3 [p4], whoever leads), then ``> winner`` (a
position) and ``= points`` (what the winner takes, the last trick's 3 included). The trick's
leader is the previous trick's winner (``Layout.leader`` for the first trick), and the cards are
applied in play order from it, each for the seat that holds it. So a wrong leader, a wrong turn
order or a wrong trick winner makes the engine refuse a move, and every ``taken`` event is
compared with the winner and points written by hand here.

A position's hand is the cards of its column; the deck is built so that the engine's deal (one
card at a time from the first leader in the direction of play, RULES.md G1) gives exactly
those hands, and that is checked after the deal.

Rank for the trick, strongest first: 3 2 A K Q J 7 6 5 4 (RULES.md 3.1). Points: A 3; 3, 2, K,
Q, J 1 each; 7 6 5 4 nothing; 3 for the last trick (35 a deal).

The four-player deals below share one skeleton: tricks 1-8 are "full" tricks where everybody
follows suit (two tricks per suit: everyone holds two cards of each suit for them), and every
position also keeps a pair of one suit of its own for tricks 9 and 10 (p0 clubs, p1 diamonds,
p2 hearts, p3 spades unless said otherwise). Whoever wins trick 8 leads its own pair in trick 9;
the others are void in that suit and throw their pairs, so the trick-8 winner takes tricks 9
and 10 (the last trick's 3 and whatever the pairs are worth). The five-player deals are eight
full tricks, two per suit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from cardcli.cards import Card, card, cards, french_40
from cardcli.games import options as opt
from cardcli.games.base import Event
from cardcli.plugins.pigugnin.rules import PigugninMatch, PigugninOptions

PIGUGNIN = card("JS")


def new_match(num_players: int = 4, first_dealer: int = 1, **given) -> PigugninMatch:
    """A match with the given options (``lose_at=3`` ...) on top of the RULES.md defaults.

    With four players, counter-clockwise play and ``first_dealer=1`` the first leader is seat 0,
    and positions p0 p1 p2 p3 are seats 0 3 2 1."""
    options = opt.build(PigugninOptions, {}, {k: str(v) for k, v in given.items()})
    return PigugninMatch(options, num_players, first_dealer)


def play_order(first: int, num_players: int, clockwise: bool) -> list[int]:
    """Seats in play order from ``first``; seats are numbered clockwise (RULES.md 0)."""
    step = 1 if clockwise else -1
    return [(first + k * step) % num_players for k in range(num_players)]


@dataclass(frozen=True)
class Trick:
    cards: tuple[Card, ...]  # by position
    winner: int  # position
    points: int


@dataclass(frozen=True)
class Layout:
    """A deal by position: scripted ``tricks`` (hands = their columns), or only ``hands``."""

    tricks: tuple[str, ...] = ()
    hands: tuple[str, ...] = ()
    leader: int = 0
    """Position that leads the first trick (only moved by ``first_hand_leader=seven_of_coins``)."""

    @property
    def parsed(self) -> list[Trick]:
        result = []
        for line in self.tricks:
            played, rest = line.split(">")
            winner, points = rest.split("=")
            result.append(Trick(cards(played), int(winner), int(points)))
        return result

    @property
    def num_players(self) -> int:
        return len(self.hands) if self.hands else len(self.parsed[0].cards)

    def position_hands(self) -> list[tuple[Card, ...]]:
        if self.hands:
            return [cards(h) for h in self.hands]
        tricks = self.parsed
        return [tuple(t.cards[p] for t in tricks) for p in range(self.num_players)]

    def pigugnin_position(self) -> int:
        """The position that takes J♠: the winner of the trick it is played to."""
        return next(t.winner for t in self.parsed if PIGUGNIN in t.cards)


@dataclass
class Table:
    """A deal in progress: the seat of each position, and the events seen so far."""

    match: PigugninMatch
    layout: Layout
    dealer: int
    order: list[int]
    """``order[position]`` is the seat."""
    events: list[Event] = field(default_factory=list)
    played: int = 0
    """Scripted tricks completed so far."""
    in_trick: int = 0
    """Cards played in the trick in progress."""

    def seat(self, position: int) -> int:
        return self.order[position]

    def by_seat(self, by_position: Sequence[int]) -> tuple[int, ...]:
        """Values listed by position, rearranged by seat."""
        values = [0] * len(self.order)
        for pos, v in enumerate(by_position):
            values[self.order[pos]] = v
        return tuple(values)

    def next_card(self) -> tuple[int, str]:
        """The seat and the card of the next scripted play."""
        tricks = self.layout.parsed
        leader = self.layout.leader if self.played == 0 else tricks[self.played - 1].winner
        pos = (leader + self.in_trick) % len(self.order)
        return self.seat(pos), tricks[self.played].cards[pos].text

    def play_card(self) -> list[Event]:
        """Play the next scripted card; at the end of a trick check its winner and points."""
        seat, text = self.next_card()
        got = self.match.apply(seat, text)
        self.in_trick += 1
        if self.in_trick == len(self.order):
            trick = self.layout.parsed[self.played]
            (taken,) = [e.args for e in got if e.kind == "taken"]
            self.played += 1
            self.in_trick = 0
            assert taken == (str(self.played), str(self.seat(trick.winner)), str(trick.points)), taken
        self.events += got
        return got

    def play(self, count: int | None = None) -> list[Event]:
        """Play to the end of the next ``count`` scripted tricks (all that are left by default);
        a trick already begun counts as one."""
        end = len(self.layout.parsed) if count is None else self.played + count
        got: list[Event] = []
        while self.played < end:
            got += self.play_card()
        return got


class Run:
    """Deals scripted layouts one after the other into one match.

    The dealer of each deal is worked out here, independently of the engine: the first one is
    the match's first dealer, then whoever took J♠ in the deal before (seed: «nel corso delle
    smazzate questo ruolo spetta al giocatore che ... ha ottenuto il Pigugnìn»)."""

    def __init__(self, match: PigugninMatch):
        self.match = match
        self.next_dealer: int | None = match.dealer
        self.tables: list[Table] = []

    def deal(self, layout: Layout) -> Table:
        m = self.match
        n = m.num_players
        assert layout.num_players == n
        assert self.next_dealer is not None, "the dealer after an unscripted deal is unknown"
        cw = m.options.direction == "cw"
        dealer = self.next_dealer
        order = play_order((dealer + 1) % n if cw else (dealer - 1) % n, n, cw)
        hands = layout.position_hands()
        assert all(len(h) == 40 // n for h in hands)
        assert sorted(c.sort_key for h in hands for c in h) == sorted(c.sort_key for c in french_40())
        # one card at a time from the first leader: card k goes to position k mod n
        deck = [hands[k % n][k // n] for k in range(40)]
        events = m.deal(deck)
        assert m.dealer == dealer
        dealt = m.deal_facts()["hands"]
        for pos in range(n):
            assert sorted(dealt[order[pos]]) == sorted(c.text for c in hands[pos]), pos
        table = Table(m, layout, dealer, order, list(events))
        self.tables.append(table)
        self.next_dealer = order[layout.pigugnin_position()] if layout.tricks else None
        return table

    def play(self, layout: Layout) -> Table:
        """Deal ``layout`` and play all its tricks; the deal must be over afterwards."""
        table = self.deal(layout)
        table.play()
        assert table.played == 40 // self.match.num_players
        assert self.match.needs_deal() or self.match.is_over()
        return table


def finish_deal(m: PigugninMatch) -> list[Event]:
    """Play the rest of the current deal with the first legal move of every decision."""
    got: list[Event] = []
    while not m.needs_deal() and not m.is_over():
        for d in m.decisions():
            got += m.apply(d.seat, d.moves[0])
    return got


def of_kind(events: Iterable[Event], kind: str) -> list[tuple[str, ...]]:
    return [e.args for e in events if e.kind == kind]


def ints(args: Sequence[str]) -> tuple[int, ...]:
    return tuple(int(a) for a in args)


def deal_points(events: Iterable[Event]) -> tuple[int, ...]:
    """The card points of the deal by seat, from its ``points`` event."""
    (points,) = of_kind(events, "points")
    return ints(points)


def deal_busche(events: Iterable[Event]) -> tuple[int, ...]:
    """The busche of the deal by seat, from its ``score`` event."""
    (score,) = of_kind(events, "score")
    return ints(score[1:])


def buscas(events: Iterable[Event]) -> list[tuple[int, str, int]]:
    """Every ``busca <seat> <reason> <count>`` event, in order."""
    return [(int(s), why, int(n)) for s, why, n in of_kind(events, "busca")]


# == four players ===============================================================================
#
# Trick points are written next to each trick: A 3, and 1 for each 3, 2, K, Q, J.

TWELVE = Layout(
    (
        # p0   p1   p2   p3
        "3C 2C AC KC > 0 = 6",  # 1: p0 leads 3C and wins; 1+1+3+1
        "3D KD 2D AD > 0 = 6",  # 2: p0's 3D; 1+1+1+3
        "7C JC 6C QC > 3 = 2",  # 3: p0 leads 7C, p3's QC is best; Q 1 + J 1
        "6D 7D JD QD > 3 = 2",  # 4: p3 leads QD and wins; Q 1 + J 1
        "AH 2H 3H 7H > 2 = 5",  # 5: p3 leads 7H, p2's 3H wins; A 3 + 2 1 + 3 1
        "QH JH KH 6H > 2 = 3",  # 6: p2 leads KH and wins; Q+J+K
        "AS 3S 7S 6S > 1 = 4",  # 7: p2 leads 7S, p1's 3S wins; A 3 + 3 1
        "KS 2S QS JS > 1 = 4",  # 8: p1 leads 2S and wins, with J♠; K+2+Q+J
        "5C 5D 5H 5S > 1 = 0",  # 9: p1 leads its 5D; the others are void in diamonds
        "4C 4D 4H 4S > 1 = 3",  # 10: p1 again; nothing but the last trick's 3
    )
)
# p0 6+6 = 12; p1 4+4+0+3 = 11; p2 5+3 = 8; p3 2+2 = 4.  12+11+8+4 = 35.
TWELVE_POINTS = (12, 11, 8, 4)
# 12 pays 1 (12-14), 11 nothing; no equal scores; p1 took J♠: +1.
TWELVE_BUSCHE = (1, 1, 0, 0)

FIFTEEN = Layout(
    (
        # the spade pair QS JS is p3's (not 5S 4S); 7S 6S 5S 4S make a trick worth nothing
        "3D 2D AD KD > 0 = 6",  # 1: p0's 3D; 1+1+3+1
        "3H AH 2H 7H > 0 = 5",  # 2: p0's 3H; 1+3+1
        "QC JC 7C 6C > 0 = 2",  # 3: p0's QC; Q+J
        "QD JD 7D 6D > 0 = 2",  # 4: p0's QD; Q+J
        "2C AC 3C KC > 2 = 6",  # 5: p0 leads 2C, p2's 3C wins; 1+3+1+1
        "6S 5S 4S 7S > 3 = 0",  # 6: p2 leads 4S, p3's 7S wins; nothing
        "6H KH QH JH > 1 = 3",  # 7: p3 leads JH, p1's KH wins; K+Q+J
        "2S 3S AS KS > 1 = 6",  # 8: p1 leads 3S and wins; 1+1+3+1
        "5C 5D 5H JS > 1 = 1",  # 9: p1 leads 5D, p3 throws J♠ on it: 1
        "4C 4D 4H QS > 1 = 4",  # 10: Q♠ 1 + last 3
    )
)
# p0 6+5+2+2 = 15; p1 3+6+1+4 = 14; p2 6; p3 0 (with a trick).  15+14+6+0 = 35.
FIFTEEN_POINTS = (15, 14, 6, 0)
# 15 pays 2 (15-17), 14 pays 1 (12-14); p1 took J♠: +1.
FIFTEEN_BUSCHE = (2, 2, 0, 0)

HIGH = Layout(
    (
        "3H AH 7H 6H > 0 = 4",  # 1: p0's 3H; 1+3
        "2C 3C AC KC > 1 = 6",  # 2: p0 leads 2C, p1's 3C wins; 1+1+3+1
        "JC QC 7C 6C > 1 = 2",  # 3: p1's QC; J+Q
        "JD QD 7D 6D > 1 = 2",  # 4: p1's QD; J+Q
        "2D AD KD 3D > 3 = 6",  # 5: p1 leads AD, p3's 3D wins; 1+3+1+1
        "AS 7S 3S 6S > 2 = 4",  # 6: p3 leads 6S, p2's 3S wins; 3+1
        "QS KS 2S JS > 2 = 4",  # 7: p2 leads 2S and wins, with J♠; Q+K+2+J
        "2H KH QH JH > 0 = 4",  # 8: p2 leads QH, p0's 2H wins; 2+K+Q+J
        "5C 5D 5H 5S > 0 = 0",  # 9: p0 leads its 5C
        "4C 4D 4H 4S > 0 = 3",  # 10: last trick
    )
)
# p0 4+4+0+3 = 11; p1 6+2+2 = 10; p2 4+4 = 8; p3 6.  11+10+8+6 = 35.
HIGH_POINTS = (11, 10, 8, 6)
# Nobody reaches 12: the highest (p0, 11) pays 1; p2 took J♠: +1.
HIGH_BUSCHE = (1, 0, 1, 0)

HIGH_TIE = Layout(
    (
        "2C 3C AC KC > 1 = 6",  # 1: p0 leads 2C, p1's 3C wins; 1+1+3+1
        "AD 3D 2D 7D > 1 = 5",  # 2: p1's 3D; 3+1+1
        "JC 7C 6C QC > 3 = 2",  # 3: p1 leads 7C, p3's QC wins; J+Q
        "JH 7H 6H QH > 3 = 2",  # 4: p3's QH; J+Q
        "KH AH 3H 2H > 2 = 6",  # 5: p3 leads 2H, p2's 3H wins; 1+3+1+1
        "QD JD KD 6D > 2 = 3",  # 6: p2's KD; Q+J+K
        "3S AS 7S 6S > 0 = 4",  # 7: p2 leads 7S, p0's 3S wins; 1+3
        "2S KS QS JS > 0 = 4",  # 8: p0's 2S, with J♠; 2+K+Q+J
        "5C 5D 5H 5S > 0 = 0",  # 9
        "4C 4D 4H 4S > 0 = 3",  # 10: last trick
    )
)
# p0 4+4+0+3 = 11; p1 6+5 = 11; p2 6+3 = 9; p3 2+2 = 4.  11+11+9+4 = 35.
HIGH_TIE_POINTS = (11, 11, 9, 4)
# Nobody reaches 12: p0 and p1 share the highest, 1 each (G6); two equal scores, 1 more each
# (G7); p0 took J♠: +1.  p0 1+1+1 = 3, p1 1+1 = 2.
HIGH_TIE_BUSCHE = (3, 2, 0, 0)

THREE_TIE = Layout(
    (
        "KC QC JC 6C > 0 = 3",  # 1: p0's KC; K+Q+J
        "KD QD JD 6D > 0 = 3",  # 2: p0's KD; K+Q+J
        "2C 3C AC 7C > 1 = 5",  # 3: p0 leads 2C, p1's 3C wins; 1+1+3
        "2D AD 3D 7D > 2 = 5",  # 4: p1 leads AD, p2's 3D wins; 1+3+1
        "QH JH 6H KH > 3 = 3",  # 5: p2 leads 6H, p3's KH wins; Q+J+K
        "7S 6S JS QS > 3 = 2",  # 6: p3's QS beats J♠; J+Q
        "3H 2H AH 7H > 0 = 5",  # 7: p3 leads 7H, p0's 3H wins; 1+1+3
        "3S 2S AS KS > 0 = 6",  # 8: p0's 3S; 1+1+3+1
        "5C 5D 5H 5S > 0 = 0",  # 9
        "4C 4D 4H 4S > 0 = 3",  # 10: last trick
    )
)
# p0 3+3+5+6+0+3 = 20; p1 5; p2 5; p3 3+2 = 5.  20+5+5+5 = 35.
THREE_TIE_POINTS = (20, 5, 5, 5)
# 20 pays 3 (18-20); three equal scores of 5: 2 each (tie_scope=all); p3 took J♠: +1.
THREE_TIE_BUSCHE = (3, 2, 2, 3)
# paying_only / highest_only: the 5s pay nothing, so their tie is not charged.
THREE_TIE_BUSCHE_PAYING = (3, 0, 0, 1)

ZERO_TIE = Layout(
    (
        # pairs: p0 5C 4C, p1 5D 4D, p2 JH QH, p3 JS QS
        "3C 2C AC KC > 0 = 6",  # 1: p0's 3C; 1+1+3+1
        "3D 2D AD KD > 0 = 6",  # 2: p0's 3D
        "3H 2H AH KH > 0 = 6",  # 3: p0's 3H
        "QD JD 7D 6D > 0 = 2",  # 4: p0's QD; Q+J
        "6H 5H 7H 4H > 2 = 0",  # 5: p0 leads 6H, p2's 7H wins nothing
        "6S 5S 4S 7S > 3 = 0",  # 6: p2 leads 4S, p3's 7S wins nothing
        "JC QC 7C 6C > 1 = 2",  # 7: p3 leads 6C, p1's QC wins; J+Q
        "2S 3S AS KS > 1 = 6",  # 8: p1's 3S; 1+1+3+1
        "5C 5D JH JS > 1 = 2",  # 9: p1 leads 5D; J♥ and J♠ are thrown on it: 1+1
        "4C 4D QH QS > 1 = 5",  # 10: Q♥ 1 + Q♠ 1 + last 3
    )
)
# p0 6+6+6+2 = 20; p1 2+6+2+5 = 15; p2 0; p3 0 (one trick each).  20+15 = 35.
ZERO_TIE_POINTS = (20, 15, 0, 0)
# 20 pays 3, 15 pays 2; p1 took J♠: +1; p2 and p3 tie at 0: 1 each with tie_scope=all.
ZERO_TIE_BUSCHE = (3, 3, 1, 1)
ZERO_TIE_BUSCHE_NONZERO = (3, 3, 0, 0)

PAIRS = Layout(
    (
        "3H 2H AH KH > 0 = 6",  # 1: p0's 3H; 1+1+3+1
        "QH JH 7H 6H > 0 = 2",  # 2: p0's QH; Q+J
        "QS JS 7S 6S > 0 = 2",  # 3: p0's QS takes J♠; Q+J
        "KC QC JC 6C > 0 = 3",  # 4: p0's KC; K+Q+J
        "2C AC 3C 7C > 2 = 5",  # 5: p0 leads 2C, p2's 3C wins; 1+3+1
        "2D AD 7D 3D > 3 = 5",  # 6: p2 leads 7D, p3's 3D wins; 1+3+1
        "QD KD JD 6D > 1 = 3",  # 7: p3 leads 6D, p1's KD wins; Q+K+J
        "2S 3S AS KS > 1 = 6",  # 8: p1's 3S; 1+1+3+1
        "5C 5D 5H 5S > 1 = 0",  # 9
        "4C 4D 4H 4S > 1 = 3",  # 10: last trick
    )
)
# p0 6+2+2+3 = 13; p1 3+6+0+3 = 12; p2 5; p3 5.  13+12+5+5 = 35.
PAIRS_POINTS = (13, 12, 5, 5)
# 13 and 12 pay 1 each; p2 and p3 tie at 5: 1 each (tie_scope=all); p0 took J♠: +1.
PAIRS_BUSCHE = (2, 1, 1, 1)
PAIRS_BUSCHE_PAYING = (2, 1, 0, 0)

SOLE = Layout(
    (
        "6C AC 3C 7C > 2 = 4",  # 1: p0 leads 6C, p2's 3C wins; 3+1
        "KC QC JC 2C > 3 = 4",  # 2: p2 leads JC, p3's 2C wins; K+Q+J+2
        "2D 3D AD 7D > 1 = 5",  # 3: p3 leads 7D, p1's 3D wins; 1+1+3
        "JH QH 7H 6H > 1 = 2",  # 4: p1's QH; J+Q
        "KD QD JD 6D > 0 = 3",  # 5: p1 leads QD, p0's KD wins; K+Q+J
        "3H 2H AH KH > 0 = 6",  # 6: p0's 3H; 1+1+3+1
        "3S 2S AS KS > 0 = 6",  # 7: p0's 3S
        "QS JS 7S 6S > 0 = 2",  # 8: p0's QS takes J♠; Q+J
        "5C 5D 5H 5S > 0 = 0",  # 9
        "4C 4D 4H 4S > 0 = 3",  # 10: last trick
    )
)
# p0 3+6+6+2+0+3 = 20; p1 5+2 = 7; p2 4; p3 4.  20+7+4+4 = 35.
SOLE_POINTS = (20, 7, 4, 4)
# 20 pays 3 and p0 took J♠: 4; p2 and p3 tie at 4: 1 each.
SOLE_BUSCHE = (4, 0, 1, 1)

TWENTY_FOUR = Layout(
    (
        # pairs: p0 5C 4C, p1 5D 4D, p2 5H 4H, p3 QS JS; 7S 6S 5S 4S make a trick worth nothing
        "3H 2H AH KH > 0 = 6",  # 1: p0's 3H; 1+1+3+1
        "QH JH 7H 6H > 0 = 2",  # 2: p0's QH; Q+J
        "QC JC 7C 6C > 0 = 2",  # 3: p0's QC; Q+J
        "KD QD JD 6D > 0 = 3",  # 4: p0's KD; K+Q+J
        "2C 3C AC KC > 1 = 6",  # 5: p0 leads 2C, p1's 3C wins; 1+1+3+1
        "2D AD 3D 7D > 2 = 5",  # 6: p1 leads AD, p2's 3D wins; 1+3+1
        "6S 5S 4S 7S > 3 = 0",  # 7: p2 leads 4S, p3's 7S wins nothing
        "3S 2S AS KS > 0 = 6",  # 8: p3 leads KS, p0's 3S wins; 1+1+3+1
        "5C 5D 5H JS > 0 = 1",  # 9: p0 leads 5C, p3 throws J♠
        "4C 4D 4H QS > 0 = 4",  # 10: Q♠ 1 + last 3
    )
)
# p0 6+2+2+3+6+1+4 = 24; p1 6; p2 5; p3 0.  24+6+5 = 35.
TWENTY_FOUR_POINTS = (24, 6, 5, 0)
# 24 pays 5 (not 4: the step of three ends at 23), and J♠: 6.
TWENTY_FOUR_BUSCHE = (6, 0, 0, 0)

TWENTY_FIVE = Layout(
    # TWENTY_FOUR with the diamonds split 4/4 instead of 3/5: p0's trick 4 is worth one more
    # and p2's trick 6 one less
    TWENTY_FOUR.tricks[:3]
    + ("2D KD QD JD > 0 = 4",)  # 4: p0's 2D; 2+K+Q+J
    + TWENTY_FOUR.tricks[4:5]
    + ("6D AD 3D 7D > 2 = 4",)  # 6: p1 leads AD, p2's 3D wins; 3+1
    + TWENTY_FOUR.tricks[6:]
)
# p0 6+2+2+4+6+1+4 = 25; p1 6; p2 4; p3 0.  25+6+4 = 35.
TWENTY_FIVE_POINTS = (25, 6, 4, 0)
# 25 pays 6, and J♠: 7.
TWENTY_FIVE_BUSCHE = (7, 0, 0, 0)

TOP = Layout(
    (
        # pairs: p0 5S 4S, p1 JC QC, p2 JD QD, p3 JH QH
        "3C 2C AC KC > 0 = 6",  # 1: p0's 3C; 1+1+3+1
        "6C 7C 5C 4C > 1 = 0",  # 2: p0 leads 6C, p1's 7C wins nothing
        "6D 5D 7D 4D > 2 = 0",  # 3: p1 leads 5D, p2's 7D wins nothing
        "6H 5H 4H 7H > 3 = 0",  # 4: p2 leads 4H, p3's 7H wins nothing
        "3D 2D AD KD > 0 = 6",  # 5: p3 leads KD, p0's 3D wins; 1+1+3+1
        "3H 2H AH KH > 0 = 6",  # 6: p0's 3H
        "3S 2S AS KS > 0 = 6",  # 7: p0's 3S
        "QS JS 7S 6S > 0 = 2",  # 8: p0's QS takes J♠; Q+J
        "5S JC JD JH > 0 = 3",  # 9: p0 leads 5S, the others throw three jacks
        "4S QC QD QH > 0 = 6",  # 10: three queens + last 3
    )
)
# p0 6+6+6+6+2+3+6 = 35, everything; p1, p2, p3 0 with one trick each.
TOP_POINTS = (35, 0, 0, 0)
# 35 pays 35-19 = 16, and J♠ 1: 17; p1 p2 p3 tie at 0: 2 each (three equal scores).
TOP_BUSCHE = (17, 2, 2, 2)

ONE_TRICKLESS = Layout(
    (
        "3C 2C AC KC > 0 = 6",  # 1: p0's 3C
        "3D KD 2D AD > 0 = 6",  # 2: p0's 3D
        "7C QC 6C JC > 1 = 2",  # 3: p0 leads 7C, p1's QC wins
        "6D QD JD 7D > 1 = 2",  # 4: p1's QD
        "AH 2H 3H 7H > 2 = 5",  # 5: p1 leads 2H, p2's 3H wins
        "QH JH KH 6H > 2 = 3",  # 6: p2's KH
        "AS 3S 7S 6S > 1 = 4",  # 7: p2 leads 7S, p1's 3S wins
        "KS 2S QS JS > 1 = 4",  # 8: p1's 2S takes J♠
        "5C 5D 5H 5S > 1 = 0",  # 9
        "4C 4D 4H 4S > 1 = 3",  # 10
    )
)
# p3 takes no trick. The points, not counted: p0 12, p1 2+2+4+4+3 = 15, p2 8, p3 0.
# Only p3 pays: 2 for one trickless player; p1 took J♠: +1.
ONE_TRICKLESS_BUSCHE = (0, 1, 0, 2)

TWO_TRICKLESS = Layout(
    (
        "3C 2C AC KC > 0 = 6",  # 1: p0's 3C
        "3D KD 2D AD > 0 = 6",  # 2: p0's 3D
        "7C QC 6C JC > 1 = 2",  # 3: p0 leads 7C, p1's QC wins
        "6D QD JD 7D > 1 = 2",  # 4: p1's QD
        "AH 3H 2H 7H > 1 = 5",  # 5: p1's 3H
        "QH KH JH 6H > 1 = 3",  # 6: p1's KH
        "AS 3S 7S 6S > 1 = 4",  # 7: p1's 3S
        "KS 2S QS JS > 1 = 4",  # 8: p1's 2S takes J♠
        "5C 5D 5H 5S > 1 = 0",  # 9
        "4C 4D 4H 4S > 1 = 3",  # 10
    )
)
# p2 and p3 take no trick: 3 each; p1 took J♠: +1.
TWO_TRICKLESS_BUSCHE = (0, 1, 3, 3)

CAPPOTTO = Layout(
    (
        "3C AC KC QC > 0 = 6",  # p0 holds every 3 and 2 and leads them: it wins every trick
        "2C JC 7C 6C > 0 = 2",
        "3D AD KD QD > 0 = 6",
        "2D JD 7D 6D > 0 = 2",
        "3H AH KH QH > 0 = 6",
        "2H JH 7H 6H > 0 = 2",
        "3S AS KS QS > 0 = 6",
        "2S JS 7S 6S > 0 = 2",
        "5C 5D 5H 5S > 0 = 0",
        "4C 4D 4H 4S > 0 = 3",
    )
)
# Three trickless players: 4 each; p0 took J♠: 1.
CAPPOTTO_BUSCHE = (1, 4, 4, 4)

CAPPOTTO_BY_DEALER = Layout(
    (
        "QC KC AC 3C > 3 = 6",  # p0 leads QC, the dealer (p3) wins with 3C and leads the rest
        "6C 7C JC 2C > 3 = 2",
        "QD KD AD 3D > 3 = 6",
        "6D 7D JD 2D > 3 = 2",
        "QH KH AH 3H > 3 = 6",
        "6H 7H JH 2H > 3 = 2",
        "QS KS AS 3S > 3 = 6",
        "6S 7S JS 2S > 3 = 2",
        "5C 5D 5H 5S > 3 = 0",  # p3 leads its 5S
        "4C 4D 4H 4S > 3 = 3",
    )
)
CAPPOTTO_BY_DEALER_BUSCHE = (4, 4, 4, 1)

# Hands only, for the first-trick Pigugnìn restriction (G3). p3's only spade is J♠ and p3
# has no club; p0 holds the top cards.
RESTRICT = Layout(
    hands=(
        "3S 2S AS 3C 2C AC 3D 2D 3H 2H",
        "QS 6S 4S 7C 6C 5C 4C JD 7D 6D",
        "KS 7S 5S KC QC JC 5D 4D JH 7H",
        "JS AD KD QD AH KH QH 6H 5H 4H",
    )
)
# The same with J♠ and Q♠ swapped: p1 holds J♠ with two other spades.
RESTRICT_SWAPPED = Layout(
    hands=(
        RESTRICT.hands[0],
        "JS 6S 4S 7C 6C 5C 4C JD 7D 6D",
        RESTRICT.hands[2],
        "QS AD KD QD AH KH QH 6H 5H 4H",
    )
)


# == five players ===============================================================================

BASE5 = Layout(
    (
        # p0   p1   p2   p3   p4
        "3C 2C AC KC 7C > 0 = 6",  # 1: p0's 3C; 1+1+3+1
        "3D 2D AD KD 7D > 0 = 6",  # 2: p0's 3D
        "6C JC QC 5C 4C > 2 = 2",  # 3: p0 leads 6C, p2's QC wins; J+Q
        "KS QS 2S JS 4S > 2 = 4",  # 4: p2's 2S takes J♠; K+Q+2+J
        "QH JH 5H KH 4H > 3 = 3",  # 5: p2 leads 5H, p3's KH wins; Q+J+K
        "6D JD 5D 4D QD > 4 = 2",  # 6: p3 leads 4D, p4's QD wins; J+Q
        "AH 3H 2H 7H 6H > 1 = 5",  # 7: p4 leads 6H, p1's 3H wins; 3+1+1
        "AS 3S 7S 6S 5S > 1 = 7",  # 8: p1's 3S; 3+1 + last 3
    )
)
# p0 6+6 = 12; p1 5+7 = 12; p2 2+4 = 6; p3 3; p4 2.  12+12+6+3+2 = 35.
BASE5_POINTS = (12, 12, 6, 3, 2)
# 12 pays 1, twice; p0 and p1 are equal: 1 more each; p2 took J♠: +1.
BASE5_BUSCHE = (2, 2, 1, 0, 0)

FOUR_TIE5 = Layout(
    (
        "7D 3D AD 6D 5D > 1 = 4",  # 1: p0 leads 7D, p1's 3D wins; 1+3
        "KD 2D QD JD 4D > 1 = 4",  # 2: p1's 2D; K+2+Q+J
        "7H 6H 3H AH 5H > 2 = 4",  # 3: p1 leads 6H, p2's 3H wins; 1+3
        "KH QH 2H JH 4H > 2 = 4",  # 4: p2's 2H; K+Q+2+J
        "2S AS KS 3S QS > 3 = 7",  # 5: p2 leads KS, p3's 3S wins; 1+3+1+1+1
        "7S 6S 5S JS 4S > 3 = 1",  # 6: p3 leads J♠, the best spade left; J 1
        "QC JC 5C 4C KC > 4 = 3",  # 7: p3 leads 4C, p4's KC wins; Q+J+K
        "3C 2C AC 7C 6C > 0 = 8",  # 8: p4 leads 6C, p0's 3C wins; 1+1+3 + last 3
    )
)
# p0 8; p1 4+4 = 8; p2 4+4 = 8; p3 7+1 = 8; p4 3.  4*8+3 = 35.
FOUR_TIE5_POINTS = (8, 8, 8, 8, 3)
# Nobody reaches 12: the four 8s are the highest, 1 each; four equal scores, 3 more each;
# p3 took J♠: +1.
FOUR_TIE5_BUSCHE = (4, 4, 4, 5, 0)

FIVE_TIE5 = Layout(
    (
        "JC 7C 6C 5C 4C > 0 = 1",  # 1: p0's JC; J 1
        "JD 7D 6D 5D 4D > 0 = 1",  # 2
        "JH 7H 6H 5H 4H > 0 = 1",  # 3
        "3S AS 7S 6S 5S > 0 = 4",  # 4: p0's 3S; 1+3
        "2C 3C AC KC QC > 1 = 7",  # 5: p0 leads 2C, p1's 3C wins; 1+1+3+1+1
        "2D AD 3D KD QD > 2 = 7",  # 6: p1 leads AD, p2's 3D wins
        "2H AH KH 3H QH > 3 = 7",  # 7: p2 leads KH, p3's 3H wins
        "KS QS JS 4S 2S > 4 = 7",  # 8: p3 leads 4S, p4's 2S wins; K+Q+J+2 + last 3
    )
)
# Everybody 7: p0 1+1+1+4, p1 7, p2 7, p3 7, p4 4+3.
FIVE_TIE5_POINTS = (7, 7, 7, 7, 7)
# Nobody reaches 12: all five share the highest, 1 each; five equal scores: 4 more each;
# p4 took J♠: +1.
FIVE_TIE5_BUSCHE = (5, 5, 5, 5, 6)

THREE_TRICKLESS5 = Layout(
    (
        "JC 7C 6C 5C 4C > 0 = 1",
        "JD 7D 6D 5D 4D > 0 = 1",
        "JH 7H 6H 5H 4H > 0 = 1",
        "3S AS 7S 6S 5S > 0 = 4",
        "2C 3C AC KC QC > 1 = 7",  # p0 leads 2C, p1's 3C wins
        "2D 3D AD KD QD > 1 = 7",  # p1's 3D
        "2H 3H AH KH QH > 1 = 7",  # p1's 3H
        "KS 2S JS 4S QS > 1 = 7",  # p1's 2S takes J♠ and the last trick
    )
)
# p2, p3, p4 take no trick: 4 each; p1 took J♠: +1.
THREE_TRICKLESS5_BUSCHE = (0, 1, 4, 4, 4)

CAPPOTTO5 = Layout(
    (
        "3C AC KC QC JC > 0 = 7",  # p0 holds every 3 and 2 and leads them
        "2C 7C 6C 5C 4C > 0 = 1",
        "3D AD KD QD JD > 0 = 7",
        "2D 7D 6D 5D 4D > 0 = 1",
        "3H AH KH QH JH > 0 = 7",
        "2H 7H 6H 5H 4H > 0 = 1",
        "3S AS KS QS JS > 0 = 7",
        "2S 7S 6S 5S 4S > 0 = 4",
    )
)
# Four trickless players: 5 each; p0 took J♠: 1.
CAPPOTTO5_BUSCHE = (1, 5, 5, 5, 5)
