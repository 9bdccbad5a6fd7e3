"""Scripted Pepper deals for the hand-checked tests.

Rules: ../shared/RULES.md section 4 (R1..R14) and the Pepper part of section 6 "Precisions".

Seats, positions, the deck
--------------------------
Seats are numbered clockwise and Pepper is played clockwise, so ``left(i) = i+1``; with four
players the partners are seats 0+2 and 1+3. A :class:`Layout` is written by *position*:
position 0 is the declarer (who names trump and leads the first trick), position 1 the seat
on its left, and so on. :func:`seat_hands` puts position 0 at any seat ``at``, so one layout
serves for either side, and the trick scripts stay the same (each card is applied for the
seat that holds it).

:func:`new_match` defaults to ``deal_order=hand_at_a_time``: card ``k`` of the deck goes to
deal position ``k // hand_size`` (6 with 4 players, 8 otherwise), the positions being
``dealer+1, dealer+2, ..., dealer`` and, with 2 players, the dead hand last.
:func:`make_deck` writes the deck from the hands each seat must get, *for a dealer the test
names*, and :func:`deal` checks that the engine's dealer and hands are those: a wrong dealer
rotation gives wrong hands and the test fails loudly.

Card order used in the comments: trumps J (right bower) > J of the same colour (left bower)
> A K Q T 9; any other suit, and every suit at no-trump, A K Q J T 9.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardcli.cards import Card, cards, french_24
from cardcli.games import options as opt
from cardcli.games.base import Event
from cardcli.plugins.pepper.rules import PepperMatch, PepperOptions


def new_match(num_players: int = 4, first_dealer: int = 0, **given) -> PepperMatch:
    """A match built with ``options.build`` as the registry does; ``given`` are option texts."""
    raw = {"deal_order": "hand_at_a_time"}
    raw.update({k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in given.items()})
    return PepperMatch(opt.build(PepperOptions, {}, raw), num_players, first_dealer)


def hand_size(n: int) -> int:
    return 6 if n == 4 else 8


def cardset(text: str | Iterable[Card] | Iterable[str]) -> frozenset[Card]:
    """The cards named by a text, by texts (event args) or given as cards."""
    if isinstance(text, str):
        return frozenset(cards(text))
    return frozenset(Card.parse(c) if isinstance(c, str) else c for c in text)


def make_deck(
    m: PepperMatch, dealer: int, hands: Sequence[str], dead: str = ""
) -> tuple[Card, ...]:
    """The hand_at_a_time deck that gives seat ``s`` the cards ``hands[s]`` when ``dealer``
    deals: hands in the order dealer+1, dealer+2, ..., dealer, then the dead hand."""
    n = m.num_players
    order = [(dealer + k) % n for k in range(1, n + 1)]
    deck = [c for seat in order for c in cards(hands[seat])] + list(cards(dead))
    assert all(len(cards(h)) == hand_size(n) for h in hands)
    assert len(cards(dead)) == (8 if n == 2 else 0)
    assert len(deck) == 24 and set(deck) == set(french_24()), "a layout must use the 24 cards once"
    return tuple(deck)


def deal(m: PepperMatch, dealer: int, hands: Sequence[str], dead: str = "") -> list[Event]:
    """Deal so that seat ``s`` holds ``hands[s]``; the engine's dealer must be ``dealer``."""
    events = m.deal(make_deck(m, dealer, hands, dead))
    assert m.dealer == dealer
    assert [frozenset(h) for h in m.hands] == [cardset(h) for h in hands]
    assert frozenset(m.dead) == cardset(dead)
    assert events[0] == Event("deal", (str(m.deal_number), str(dealer)))
    return events


@dataclass(frozen=True)
class Layout:
    """A scripted deal by position (0 = the declarer, then clockwise), its trump and tricks.

    Each trick lists its cards in play order, the leader first; ``winners`` are positions."""

    hands: tuple[str, ...]
    trump: str
    tricks: tuple[str, ...]
    winners: tuple[int, ...]
    dead: str = ""

    @property
    def n(self) -> int:
        return len(self.hands)

    def tricks_by_position(self) -> list[int]:
        return [self.winners.count(p) for p in range(self.n)]


def seat_hands(layout: Layout, at: int) -> list[str]:
    """The layout's hands by seat, with position 0 at seat ``at`` (position p at at+p)."""
    n = layout.n
    by_seat = [""] * n
    for pos, hand in enumerate(layout.hands):
        by_seat[(at + pos) % n] = hand
    return by_seat


def of_kind(events: Iterable[Event], kind: str) -> list[tuple[str, ...]]:
    return [e.args for e in events if e.kind == kind]


def winners(events: Iterable[Event]) -> list[int]:
    """The winning seat of every trick, from the ``taken`` events."""
    return [int(a[1]) for a in of_kind(events, "taken")]


def deal_points(events: Iterable[Event]) -> tuple[int, ...]:
    (score,) = of_kind(events, "score")
    return tuple(int(x) for x in score[1:])


def bids(m: PepperMatch, *script: str) -> list[Event]:
    """Apply bids written ``"seat:token"``; the engine must agree that it is that seat's turn."""
    got: list[Event] = []
    for item in script:
        seat, token = item.split(":")
        got += m.apply(int(seat), token)
    return got


def auction(m: PepperMatch, declarer: int, contract: str) -> list[Event]:
    """Every seat passes but ``declarer``, who bids ``contract`` on its first turn."""
    got: list[Event] = []
    spoken = []
    while m.decisions() and m.decisions()[0].kind == "bid":
        (d,) = m.decisions()
        assert d.seat not in spoken, "with a final pass nobody speaks twice here"
        spoken.append(d.seat)
        got += m.apply(d.seat, contract if d.seat == declarer else "pass")
    first = (m.dealer + 1) % m.num_players
    assert spoken[0] == first, "the dealer's left bids first"
    assert of_kind(got, "contract") == [(str(declarer), contract)]
    return got


def play(m: PepperMatch, *tricks: str) -> list[Event]:
    """Apply card tokens in order, each for the seat that holds the card now."""
    got: list[Event] = []
    for text in " ".join(tricks).split():
        c = Card.parse(text)
        (owner,) = [s for s in range(m.num_players) if c in m.hands[s]]
        got += m.apply(owner, text)
    return got


def play_deal(
    m: PepperMatch, layout: Layout, dealer: int, at: int, contract: str, trump: str | None = None
) -> list[Event]:
    """Deal ``layout`` with position 0 at seat ``at``, let that seat win the auction with
    ``contract``, name ``trump`` (the layout's by default) and play the scripted tricks."""
    n = layout.n
    events = deal(m, dealer, seat_hands(layout, at), layout.dead)
    events += auction(m, at, contract)
    trump = trump or layout.trump
    assert m.decisions()[0].kind == "trump" and m.decisions()[0].seat == at
    events += m.apply(at, trump)
    assert of_kind(events, "trump") == [(str(at), trump)]
    assert of_kind(events, "trick")[0] == ("1", str(at)), "the declarer leads"
    events += play(m, *layout.tricks)
    assert winners(events) == [(at + p) % n for p in layout.winners]
    assert m.needs_deal() or m.is_over()
    return events


# -- four players: 6 cards each ---------------------------------------------------------------

SPLIT4 = Layout(
    # p0 holds both bowers of hearts; p1 the QH, p2 KH TH, p3 9H.
    hands=(
        "JH JD AH AC KC 9S",
        "QH 9C TC AS KS 9D",
        "KH TH QC AD KD QD",
        "9H JC JS QS TS TD",
    ),
    trump="H",
    tricks=(
        "JH QH TH 9H",  # 1: every other seat must give its trump; the right bower wins
        "JD 9D KH TD",  # 2: the left bower leads trump: p1 (no heart) may give 9D; it beats KH
        "AH 9C QD TS",  # 3: p0's AH, the last trump out
        "AC TC QC JC",  # 4: clubs: AC > QC > JC > TC (JC is no bower with hearts trump)
        "9S AS KD QS",  # 5: p1's AS wins; p2 is void in spades
        "KS AD JS KC",  # 6: p1 leads KS; p2's AD is off suit
    ),
    winners=(0, 0, 0, 0, 1, 1),
)
# Hearts trump: p0 4 tricks (its side p0+p2: 4), p1 2 (side p1+p3: 2).
# Bid 1..4 made: +4 / +2.  Bid 5 or Small Pepper set: -6 / +2.  Big Pepper set: -12 / +2.

SPLIT4_NT = Layout(
    hands=SPLIT4.hands,
    trump="NT",
    tricks=(
        "JH QH KH 9H",  # 1: at no-trump JH is a plain jack: K > Q > J > 9, p2's KH wins
        "AD TD JD 9D",  # 2: p2 leads; p0 must give its only diamond, the JD
        "KD JC 9S 9C",  # 3: p2's KD; the others are void in diamonds
        "QD JS KC TC",  # 4: p2's QD
        "TH QS AH KS",  # 5: p2 leads TH, p0's AH wins
        "AC AS QC TS",  # 6: p0's AC; AS is off suit
    ),
    winners=(2, 2, 2, 2, 0, 0),
)
# No-trump: p2 4 + p0 2 = all 6 tricks for the declaring side, 0 for p1+p3.
# Any bid made (Small Pepper +6), Big Pepper +12.

LEFT4 = Layout(
    # p0 (declarer) has no heart at all; p1 holds the JD (hearts' left bower) beside QD.
    hands=(
        "AD KD AC KC QC JC",
        "JD QD AS KS QS 9H",
        "TD 9D JH AH 9C TC",
        "KH QH TH JS TS 9S",
    ),
    trump="H",
    tricks=(
        "AD QD 9D 9S",  # 1: p1 must follow diamonds with QD: its JD is not a diamond
        "KD JD TD TS",  # 2: p1 has no diamond left, ruffs with the left bower and wins
        "9H AH KH JC",  # 3: p1 leads trump: p2 and p3 must give trumps, p0 (none) any card
        "JH QH QC AS",  # 4: p2's right bower
        "9C TH AC KS",  # 5: p3 (no club) ruffs with TH over p0's AC
        "JS KC QS TC",  # 6: spades, Q > J: p1
    ),
    winners=(0, 1, 2, 2, 3, 1),
)
# p0 1 + p2 2 = 3 for the declaring side; p1 2 + p3 1 = 3.  Bid 1 made: +3 / +3.

LEFT4_PLAIN = Layout(
    # LEFT4 with left_bower_is_trump=false: the JD is an ordinary diamond below the QD.
    hands=LEFT4.hands,
    trump="H",
    tricks=(
        "AD QD 9D 9S",  # 1: p1 may give JD or QD
        "KD JD TD TS",  # 2: p1 must now follow with the JD, which is no trump: KD wins
        "AC 9H 9C KH",  # 3: p1 (no club) ruffs with 9H, p3 over-ruffs with KH
        "QH JC AS JH",  # 4: p3 leads QH; p2's JH, still the right bower, wins
        "AH TH KC KS",  # 5: p2's AH
        "TC JS QC QS",  # 6: clubs led: p0's QC
    ),
    winners=(0, 0, 3, 2, 2, 0),
)
# p0 3 + p2 2 = 5 for the declaring side; p3 1.  Bid 1 made: +5 / +1.

# -- three players: 8 cards each --------------------------------------------------------------

SPLIT3 = Layout(
    # Spades trump: right bower JS, left bower JC.
    hands=(
        "JS JC AS KS 9C 9H TD 9D",
        "QS TS AC KC QC TC QD JD",
        "9S AH KH QH JH TH AD KD",
    ),
    trump="S",
    tricks=(
        "JS TS 9S",  # 1: p1 and p2 must give a trump
        "JC QS TH",  # 2: the left bower leads trump: p1 must give its last trump, QS
        "AS TC JH",  # 3: nobody else has a trump
        "KS QC QH",  # 4
        "9C AC KD",  # 5: p1 follows with AC; p2 has no club
        "KC KH 9H",  # 6: p1's KC; p2 and p0 have no club
        "QD AD TD",  # 7: p2 must follow with AD and wins
        "AH 9D JD",  # 8: p2's AH
    ),
    winners=(0, 0, 0, 0, 1, 1, 2, 2),
)
# p0 4, p1 2, p2 2.  Bid 1..4 made: +4 +2 +2.  Bid 5..7 or Small set: -8 +2 +2.
# Big Pepper set: -16 +2 +2.

SWEEP3 = Layout(
    hands=(
        "JS JC AS KS QS AD KD QD",
        "TS 9S AC KC QC TC 9C JD",
        "AH KH QH JH TH 9H TD 9D",
    ),
    trump="S",
    tricks=(
        "JS 9S 9D",  # 1: the right bower draws 9S
        "JC TS TD",  # 2: the left bower draws p1's last trump
        "AD JD 9H",  # 3: p1 must follow diamonds with JD (a plain jack: clubs is the bower)
        "KD 9C TH",  # 4
        "QD TC JH",  # 5
        "AS QC QH",  # 6
        "KS KC KH",  # 7
        "QS AC AH",  # 8: p0's last trump beats both aces
    ),
    winners=(0,) * 8,
)
# p0 takes all 8 tricks: Small Pepper +8, Big Pepper +16, the others 0.

# -- two players: 8 cards each and a dead hand of 8 -------------------------------------------

SPLIT2 = Layout(
    hands=(
        "JH AH KH AC KC 9S TS 9D",
        "JD QH AS KS QS AD KD 9C",
    ),
    dead="TH 9H JC QC TC JS QD TD",
    trump="H",
    tricks=(
        "JH QH",  # 1: p1 must give a trump (QH or its JD); the right bower wins
        "AH JD",  # 2: p1's left bower beats the ace of trumps
        "AS 9S",  # 3: p1 leads spades
        "KS TS",  # 4
        "QS KH",  # 5: p0 has no spade left and ruffs
        "AC 9C",  # 6
        "KC AD",  # 7: p1 has no club; AD is off suit
        "9D KD",  # 8: p1's KD
    ),
    winners=(0, 1, 1, 1, 0, 0, 0, 1),
)
# p0 4, p1 4.  Bid 1..4 made: +4 +4.  Bid 5..7 or Small set: -8 +4.  Big set: -16 +4.

SWEEP2 = Layout(
    hands=(
        "JH JD AH KH QH TH AC AS",
        "9H KC QC 9C KS QS KD QD",
    ),
    dead="JC TC JS TS 9S AD TD 9D",
    trump="H",
    tricks=(
        "JH 9H",  # 1: p1's only trump
        "JD KC",  # 2: the left bower leads; p1 has no trump and may give anything
        "AH QC",
        "KH 9C",
        "QH KS",
        "TH QS",
        "AC KD",  # 7: p1 has no club
        "AS QD",  # 8: p1 has no spade
    ),
    winners=(0,) * 8,
)
# p0 takes all 8 tricks: Small Pepper +8, Big Pepper +16, p1 0.
