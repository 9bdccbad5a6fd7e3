"""Scripted Peppa deals for the hand-checked tests.

Every deal here is written by *play position*: position 0 is the first leader (the dealer's
right, ``dealer-1``), position 1 the next seat in the direction of play, and so on. With the
default ``first_dealer=1`` of :func:`new_match` and clockwise play, the first leader is seat 0
and positions equal seats, which keeps the tests readable.

The hands of a layout are the hands *after* the pass. :func:`deal` works out what must have
been dealt for that: each seat passes three cards that belong to its target's final hand, so
``dealt[s] = final[s] - (cards s receives) + (cards s gives)``. The deck is then built for
``deal_order=thirteen_at_a_time`` (13 cards to each seat in play order from the leader), and
the deal is checked against :attr:`PeppaMatch.dealt_hands`.

When a deal is played out, every card token is applied for the seat that holds it in the
scripted hands, so a wrong turn order, a wrong leader or a wrong trick winner makes the engine
refuse the move and the test fail loudly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from cardcli.cards import SUITS, Card, cards
from cardcli.games import registry
from cardcli.games.base import Event

OFFSET = {"left": 1, "right": -1, "across": 2}
"""Where a seat's three cards go: seats are numbered clockwise, ``left(i) = i+1``."""


def canonical(items: Iterable[Card]) -> list[Card]:
    """Suits C < D < H < S, then rank 2 .. A (written here, not taken from the engine)."""
    return sorted(items, key=lambda c: (SUITS.index(c.suit), c.rank))


def token(items: Iterable[Card] | str) -> str:
    """The canonical pass token of three cards: ``2C+5D+QS``."""
    if isinstance(items, str):
        items = cards(items)
    return "+".join(c.text for c in canonical(items))


def new_match(variant: str | None = None, first_dealer: int = 1, seed: int = 0, **given):
    """A match built through the registry, as the CLI builds it.

    ``deal_order`` defaults to ``thirteen_at_a_time`` so a deck can script the hands exactly.
    """
    options = {"first_dealer": str(first_dealer), "deal_order": "thirteen_at_a_time"}
    options.update(given)
    return registry.resolve("peppa", variant, options, None, seed).new_match()


def clockwise(m) -> bool:
    return m.options.play_direction == "cw"


def play_order(leader: int, cw: bool) -> list[int]:
    step = 1 if cw else -1
    return [(leader + k * step) % 4 for k in range(4)]


def upcoming_dealer(m) -> int:
    """The dealer of the next deal, by RULES.md P2 (left = dealer+1, or one seat in play
    direction), computed here independently of the engine."""
    if m.deal_number == 0:
        return m.dealer
    if m.options.dealer_rotation == "left":
        return (m.dealer + 1) % 4
    return (m.dealer + (1 if clockwise(m) else -1)) % 4


@dataclass
class Layout:
    """A whole scripted deal: four post-pass hands by play position, and 13 tricks.

    Each trick is four card tokens in play order (its leader first)."""

    hands: tuple[str, str, str, str]
    tricks: tuple[str, ...] = ()


@dataclass
class Table:
    """A deal in progress: who holds what, and every event seen so far."""

    match: object
    dealer: int
    leader: int
    order: list[int]
    dealt: list[tuple[Card, ...]]
    hands: list[frozenset[Card]]
    passes: dict[int, str]
    events: list[Event] = field(default_factory=list)

    def owner(self, text: str) -> int:
        c = Card.parse(text)
        return next(s for s in range(4) if c in self.hands[s])

    def pass_all(self) -> list[Event]:
        got: list[Event] = []
        for seat in range(4):
            got += self.match.apply(seat, self.passes[seat])
        self.events += got
        return got

    def play(self, *tricks: str) -> list[Event]:
        """Apply card tokens in order, each for the seat that holds the card."""
        got: list[Event] = []
        for text in " ".join(tricks).split():
            got += self.match.apply(self.owner(text), text)
        self.events += got
        return got


def deal(
    m,
    hands: Sequence[str],
    pass_dir: str = "hold",
    passes: dict[int, str] | None = None,
    do_pass: bool = True,
) -> Table:
    """Deal so that after the pass the seat at play position p holds ``hands[p]``.

    ``pass_dir`` is the direction the test expects for this deal (checked against the
    engine's ``passing`` event). ``passes`` maps a seat to the three cards it passes (they must
    be in its target's final hand); by default each seat passes the three lowest cards of its
    target's final hand.
    """
    dealer = upcoming_dealer(m)
    leader = (dealer - 1) % 4
    order = play_order(leader, clockwise(m))
    final = [frozenset()] * 4
    for pos, text in enumerate(hands):
        final[order[pos]] = frozenset(cards(text))
    assert sorted(len(h) for h in final) == [13] * 4
    assert len(frozenset().union(*final)) == 52
    given: dict[int, frozenset[Card]] = {}
    if pass_dir != "hold":
        for seat in range(4):
            target = (seat + OFFSET[pass_dir]) % 4
            if passes and seat in passes:
                chosen = frozenset(cards(passes[seat]))
            else:
                chosen = frozenset(canonical(final[target])[:3])
            assert len(chosen) == 3 and chosen <= final[target], (seat, chosen)
            given[seat] = chosen
    dealt = [set(h) for h in final]
    for seat, chosen in given.items():
        target = (seat + OFFSET[pass_dir]) % 4
        dealt[target] -= chosen
        dealt[seat] |= chosen
    dealt_sorted = [tuple(canonical(h)) for h in dealt]
    deck = tuple(c for pos in range(4) for c in dealt_sorted[order[pos]])
    events = m.deal(deck)
    assert m.dealer == dealer
    assert tuple(m.dealt_hands) == tuple(dealt_sorted)
    assert [e.args for e in events if e.kind == "passing"] == [(pass_dir,)]
    table = Table(
        m, dealer, leader, order, dealt_sorted, final,
        {s: token(c) for s, c in given.items()}, list(events),
    )
    if do_pass and pass_dir != "hold":
        table.pass_all()
    if do_pass:
        assert [frozenset(h) for h in m.hands] == final
    return table


def play_deal(m, layout: Layout, pass_dir: str = "hold", passes=None) -> Table:
    """Deal ``layout``, pass, and play its 13 tricks; the deal must be over afterwards."""
    table = deal(m, layout.hands, pass_dir, passes)
    assert len(layout.tricks) == 13
    table.play(*layout.tricks)
    assert m.needs_deal() or m.is_over()
    return table


def finish_deal(m) -> list[Event]:
    """Play the rest of the current deal with the first legal move of every decision."""
    got: list[Event] = []
    deals = m.deal_number
    while not m.needs_deal() and not m.is_over():
        for d in m.decisions():
            got += m.apply(d.seat, d.moves[0])
    assert m.deal_number == deals
    return got


def of_kind(events: Iterable[Event], kind: str) -> list[tuple[str, ...]]:
    return [e.args for e in events if e.kind == kind]


def taken(events: Iterable[Event]) -> list[tuple[int, int]]:
    """(winner, points) of every trick, from the ``taken`` events."""
    return [(int(a[1]), int(a[2])) for a in of_kind(events, "taken")]


def deal_points(events: Iterable[Event]) -> tuple[int, ...]:
    (score,) = of_kind(events, "score")
    return tuple(int(x) for x in score[1:])


def seat_points(by_position: Sequence[int], table: Table) -> tuple[int, ...]:
    """Turn points listed by play position into points by seat for this deal's order."""
    points = [0] * 4
    for pos, p in enumerate(by_position):
        points[table.order[pos]] = p
    return tuple(points)


# -- the scripted deals ---------------------------------------------------------------------

BASE = Layout(
    # Every position holds three cards of each suit plus one "spare" (2C, 2D, 6H, 2S), so
    # everybody follows suit in tricks 1-12 and trick 13 holds the four spares.
    hands=(
        "2C 3C 6C QC 5D 6D QD 2H 9H JH 6S 9S QS",
        "4C 7C TC 2D 3D 7D 9D 7H TH AH 4S TS AS",
        "5C 8C JC 8D TD AD 4H 6H 8H KH 5S 7S KS",
        "9C KC AC 4D JD KD 3H 5H QH 2S 3S 8S JS",
    ),
    tricks=(
        "3C 4C 5C AC",  # 1: p0 leads, p3's AC wins
        "KC 6C 7C 8C",  # 2: p3 wins
        "9C QC TC JC",  # 3: p3 leads, p0's QC wins
        "2H AH KH 3H",  # 4: p0 leads, p1's AH wins: AH KH 2H 3H
        "3D AD 4D 5D",  # 5: p1 leads, p2's AD wins
        "4H QH JH TH",  # 6: p2 leads, p3's QH wins: QH JH TH 4H
        "3S QS 4S 5S",  # 7: p3 leads, p0's QS wins its own queen
        "6D 7D 8D KD",  # 8: p0 leads, p3's KD wins
        "5H 9H 7H 8H",  # 9: p3 leads, p0's 9H wins: 9H 8H 7H 5H
        "6S AS 7S 8S",  # 10: p0 leads, p1's AS wins
        "9D TD JD QD",  # 11: p1 leads, p0's QD wins
        "9S TS KS JS",  # 12: p0 leads, p2's KS wins
        "6H 2S 2C 2D",  # 13: p2 leads its spare 6H, the others are void: p2 wins 6H
    ),
)
BASE_WINNERS = [3, 3, 0, 1, 2, 3, 0, 3, 0, 1, 0, 2, 2]
# Torino, by trick: T4 AH5+KH4+2H1+3H1 = 11; T6 QH3+JH2+TH1+4H1 = 7; T7 QS 13;
# T9 9H+8H+7H+5H = 4; T13 6H = 1; the rest 0.  Sum 11+7+13+4+1 = 36.
BASE_TRICK_POINTS_TORINO = [0, 0, 0, 11, 0, 7, 13, 0, 4, 0, 0, 0, 1]
# By position: p0 13+4 = 17, p1 11, p2 1, p3 7.  17+11+1+7 = 36.
BASE_TORINO = (17, 11, 1, 7)
# Standard, by trick: T4 AH50+KH40+2H5+3H5 = 100; T6 QH30+JH20+TH10+4H5 = 65; T7 QS 60;
# T9 9H10+8H10+7H10+5H5 = 35; T13 6H 5.  Sum 100+65+60+35+5 = 265.
BASE_TRICK_POINTS_STANDARD = [0, 0, 0, 100, 0, 65, 60, 0, 35, 0, 0, 0, 5]
# By position: p0 60+35 = 95, p1 100, p2 5, p3 65.  95+100+5+65 = 265.
BASE_STANDARD = (95, 100, 5, 65)

TIE = Layout(
    # BASE with p0's 9H and p3's 5H swapped: trick 9 now goes to p3 (who leads 9H), and
    # trick 10 is led by p3 instead of p0 (p1's AS still wins it).
    hands=(
        "2C 3C 6C QC 5D 6D QD 2H 5H JH 6S 9S QS",
        BASE.hands[1],
        BASE.hands[2],
        "9C KC AC 4D JD KD 3H 9H QH 2S 3S 8S JS",
    ),
    tricks=BASE.tricks[:8] + ("9H 5H 7H 8H", "8S 6S AS 7S") + BASE.tricks[10:],
)
# Torino by position: p0 QS 13; p1 T4 11; p2 T13 1; p3 T6 7 + T9 (9H+8H+7H+5H) 4 = 11.
TIE_TORINO = (13, 11, 1, 11)
# Standard by position: p0 60; p1 100; p2 5; p3 65 + 35 = 100.
TIE_STANDARD = (60, 100, 5, 100)

SWEEP = Layout(
    # p0 leads its twelve clubs and wins them all; p1 must give its only club (2C) to the
    # first trick; p2 and p3 are void in clubs and throw one penalty card (or a spade) each
    # trick. Trick 13: p0's 2D loses to p1's AD. So p0 takes every penalty card in 12 tricks.
    hands=(
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D",
        "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2S",
        "2H 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ),
    tricks=(
        "3C 2C 3H 2H",
        "4C 3D 4H QS",
        "5C 4D 5H 4S",
        "6C 5D 6H 5S",
        "7C 6D 7H 6S",
        "8C 7D 8H 7S",
        "9C 8D 9H 8S",
        "TC 9D TH 9S",
        "JC TD JH TS",
        "QC JD QH JS",
        "KC QD KH KS",
        "AC KD AH AS",
        "2D AD 2S 3S",
    ),
)
SWEEP_WINNERS = [0] * 12 + [1]
# One penalty card isolated per trick (two in tricks 1 and 2), so these check the table:
# Torino: 3H+2H = 2, 4H+QS = 1+13 = 14, 5H..TH 1 each, JH 2, QH 3, KH 4, AH 5, last 0.
SWEEP_TRICK_POINTS_TORINO = [2, 14, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 0]  # sum 36
# Standard: 3H+2H = 5+5 = 10, 4H+QS = 5+60 = 65, 5H 5, 6H 5, 7H 10, 8H 10, 9H 10, TH 10,
# JH 20, QH 30, KH 40, AH 50, last 0.
SWEEP_TRICK_POINTS_STANDARD = [10, 65, 5, 5, 10, 10, 10, 10, 20, 30, 40, 50, 0]  # sum 265

SWEEP_NO_QUEEN = Layout(
    # SWEEP, but p3 keeps QS to the last trick (discarding 3S in trick 2): p1's AD takes it.
    hands=SWEEP.hands,
    tricks=(SWEEP.tricks[0], "4C 3D 4H 3S") + SWEEP.tricks[2:12] + ("2D AD 2S QS",),
)

ALL_SUITS = Layout(
    # p0 all clubs, p1 all diamonds, p2 all hearts, p3 all spades: p0 leads a club every
    # trick, the others are void, so p0 wins all 13 tricks and every penalty card.
    hands=(
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ),
    tricks=tuple(f"{r}C {r}D {r}H {r}S" for r in "23456789TJQKA"),
)
