"""Scripted Seep deals for the hand-checked tests.

Rules: ../shared/RULES.md section 2 (S1..S31) and the Seep part of section 6 "Precisions".

Positions and seats
-------------------
Everything here is written by *play position*: position 0 is the bidder (``dealer-1``),
position 1 plays next (``bidder-1``, counter-clockwise), and so on. With the default
``first_dealer=1`` of :func:`new_match` the bidder is seat 0, so with four players

    position 0 1 2 3  ->  seat 0 3 2 1      (sides: positions 0+2 = seats 0+2, 1+3 = seats 3+1)

and with two players positions are seats; with three, position 0 1 2 -> seat 0 2 1.

The deck
--------
``SeepMatch.deal`` reads a 52-card permutation as: the bidder's first 4 cards, the 4 floor
cards, 4 to each other position in order, then the rest in packets of 4 starting with the
bidder, position by position, round after round (4 players: 8 more each; 3 players: 12 more;
2 players: 8 more, and 12 more each for the second half). :func:`make_deck` writes exactly
that, from the cards each position must hold, and fills every slot a test leaves open with
the unused cards in canonical order (clubs, diamonds, hearts, spades; 2 .. A).

Scripts
-------
A script is the list of move tokens of a deal in play order: token ``k`` is played by position
``k % n`` (2 players: tokens 0-23 are the first half, 24-47 the second). :func:`script_deck`
builds the deck that gives every position the cards it plays, and :func:`play` applies each
token for the seat whose turn it is, so a wrong turn order or a wrong hand makes the engine
refuse the move and the test fail loudly.

The full "quiet" deals are made of *units*: a unit is a pair of cards of the same rank; its
first card is thrown onto a floor where it captures nothing and the next player takes it with
the second. The 4 kings (or a queen) lie on the floor all deal long, so no capture is a seep.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardcli.cards import SUITS, Card, cards
from cardcli.games import registry
from cardcli.games.base import Event

HALF = 24
"""Plays in the first half of a 2-player deal (12 each)."""


def canonical(items: Iterable[Card]) -> list[Card]:
    """Suits C < D < H < S, then rank 2 .. A (ace high in this order, as the engine lists)."""
    return sorted(items, key=lambda c: (SUITS.index(c.suit), c.rank))


def texts(s: str | Iterable[Card]) -> list[str]:
    """Card texts in canonical order."""
    items = cards(s) if isinstance(s, str) else s
    return [c.text for c in canonical(items)]


def new_match(n: int = 4, variant: str | None = None, first_dealer: int = 1, seed: int = 0, **given):
    """A Seep match built through the registry, as the CLI builds it."""
    options = {"first_dealer": str(first_dealer)}
    options.update(dict(given.items()))
    return registry.resolve("seep", variant, options, n, seed).new_match()


def seat_of(m, pos: int) -> int:
    """The seat at play position ``pos`` in the current deal."""
    return (m.bidder - pos) % m.num_players


def rounds(n: int) -> list[int]:
    """Cards each position gets after the opening, by round (RULES.md S5, S27, S28)."""
    return {4: [8], 3: [12], 2: [8, 12]}[n]


def make_deck(
    n: int,
    floor: str,
    hands: Sequence[str],
    second: Sequence[str] = (),
) -> tuple[Card, ...]:
    """The deck that deals ``floor`` and gives position ``p`` the cards ``hands[p]``.

    ``hands[p]`` lists the cards of the first (or only) round in deal order: its first 4 are
    the cards dealt before the bid, the rest come in the later packets. ``second`` does the
    same for the second half of a 2-player deal. Open slots are filled with the unused cards.
    """
    sizes = [4 + rounds(n)[0]] * n
    first = [list(cards(hands[p])) if p < len(hands) else [] for p in range(n)]
    later2 = [list(cards(second[p])) if p < len(second) else [] for p in range(n)]
    used = list(cards(floor)) + [c for h in first for c in h] + [c for h in later2 for c in h]
    assert len(used) == len(set(used)), "a card is given twice"
    assert len(cards(floor)) == 4
    for p in range(n):
        assert len(first[p]) <= sizes[p], (p, len(first[p]))
    spare = iter(canonical(set(_all()) - set(used)))
    for p in range(n):
        first[p] += [next(spare) for _ in range(sizes[p] - len(first[p]))]
    if n == 2:
        for p in range(n):
            later2[p] += [next(spare) for _ in range(12 - len(later2[p]))]
    deck = first[0][:4] + list(cards(floor)) + [c for p in range(1, n) for c in first[p][:4]]
    later = [first[p][4:] for p in range(n)]
    for packs in ([later] + ([later2] if n == 2 else [])):
        size = len(packs[0])
        for start in range(0, size, 4):
            for p in range(n):
                deck += packs[p][start : start + 4]
    assert len(deck) == 52 and set(deck) == set(_all())
    return tuple(deck)


def _all() -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in range(2, 15)]


def card_of(token: str) -> Card:
    """The hand card a move token plays."""
    verb, rest = token.split(":", 1)
    if verb in ("take", "throw"):
        text = rest.split(":")[0]
    else:  # build:V:C+..,.. / cement:V:C+.. / break:V:C[,..]
        text = rest.split(":", 1)[1].split(",")[0].split("+")[0]
    return Card.parse(text)


def script_deck(n: int, floor: str, bidder_first: str, tokens: Sequence[str]) -> tuple[Card, ...]:
    """The deck for a script: position ``k % n`` plays the card of token ``k``.

    ``bidder_first`` are the bidder's 4 cards before the bid (its opening card among them);
    every other position gets its played cards in play order. Unscripted slots are filled.
    """
    played: list[list[Card]] = [[] for _ in range(n)]
    played2: list[list[Card]] = [[] for _ in range(n)]
    for k, token in enumerate(tokens):
        (played2 if n == 2 and k >= HALF else played)[k % n].append(card_of(token))
    first = list(cards(bidder_first))
    assert len(first) == 4 and played[0] and played[0][0] in first
    assert set(first) <= set(played[0]) or len(tokens) < 4 * n
    played[0] = first + [c for c in played[0] if c not in first]
    hands = [" ".join(c.text for c in h) for h in played]
    second = [" ".join(c.text for c in h) for h in played2]
    return make_deck(n, floor, hands, second if n == 2 else ())


def play(m, tokens: Iterable[str]) -> list[Event]:
    """Apply tokens in order, each for the seat whose turn it is."""
    got: list[Event] = []
    for token in tokens:
        (d,) = m.decisions()
        assert d.kind == "play", d
        assert card_of(token) in m.hands[d.seat], (token, d.seat, texts(m.hands[d.seat]))
        got += m.apply(d.seat, token)
    return got


def start(m, deck: Sequence[Card], bid: int | None) -> list[Event]:
    """Deal ``deck`` and, when ``bid`` is given, make the bid."""
    events = m.deal(deck)
    if bid is not None:
        events += m.apply(m.bidder, str(bid))
    return events


def moves(m) -> list[str]:
    (d,) = m.decisions()
    return list(d.moves)


def of_verb(m, verb: str) -> list[str]:
    return [t for t in moves(m) if t.startswith(verb + ":")]


def of_kind(events: Iterable[Event], kind: str) -> list[tuple[str, ...]]:
    return [e.args for e in events if e.kind == kind]


def deal_points(events: Iterable[Event]) -> tuple[int, ...]:
    (score,) = of_kind(events, "score")
    return tuple(int(x) for x in score[1:])


# -- units ------------------------------------------------------------------------------------
#
# Unit "r1" is (rC thrown, rD takes), unit "r2" is (rH thrown, rS takes), for r in A 2 .. J.
# Points (standard 100): a unit scores the spade's value and 1 per ace and 6 for 10♦:
#   A1 = AC+AD = 2    A2 = AH+AS = 2    r1 = 0 (2..9, J)    T1 = TC+TD = 6
#   r2 = r♠ = r  (22 = 2, 32 = 3, ..., 92 = 9, T2 = 10, J2 = 11)

UNIT_POINTS = {"A1": 2, "A2": 2, "T1": 6, **{f"{r}1": 0 for r in "23456789J"}}
UNIT_POINTS.update({f"{r}2": v for v, r in enumerate("23456789TJ", start=2)})


def unit(name: str) -> list[str]:
    """The two tokens of a unit: throw its first card, take it with its second."""
    rank, kind = name[0], name[1]
    thrown, taker = (rank + "C", rank + "D") if kind == "1" else (rank + "H", rank + "S")
    return [f"throw:{thrown}", f"take:{taker}:{thrown}"]


def units(names: Iterable[str]) -> list[str]:
    return [t for name in names for t in unit(name)]


def unit_cards(names: Iterable[str]) -> list[Card]:
    return [card_of(t) for t in units(names)]


# -- QUIET_A: four kings on the floor all deal; the last capture is side A's (k44, pos0) ------
#
#   floor KC KD KH KS (no 13 card is ever in a hand: the kings can be neither captured nor
#   built on, so the floor is never swept)
#   k0  pos0  throw:QC           bid 12; nothing on the floor sums to 12
#   k1  pos1  take:QD:QC         side B (positions 1+3) takes QC QD = 0 points
#   k2..      b_units            thrown at even k, taken at odd k: side B
#   ..        throw:5C throw:7C take:QH:5C+7C      three plays: the taker is side A (even k),
#                                and from here the units are thrown at odd k, taken at even k
#   ..        the other units     side A
#   k45 k46 k47  throw:QS throw:5D throw:7D      nothing captures: pos0 (k44) took last
#   leftover: KC KD KH KS QS 5D 7D = KS 13 + QS 12 = 25 points, to side A
#
# Units available: all but 51 and 71 (5C 5D 7C 7D are used above): 20 units, 75 points.
# Side B scores sum(b_units); side A scores 75 - that + 25 = 100 - sum(b_units).

QUIET_A_UNITS = ["A1", "A2", "21", "22", "31", "32", "41", "42", "52", "61", "62", "72",
                 "81", "82", "91", "92", "T1", "T2", "J1", "J2"]
KINGS = "KC KD KH KS"


def quiet_a(b_units: Sequence[str]) -> list[str]:
    a_units = [u for u in QUIET_A_UNITS if u not in b_units]
    tokens = ["throw:QC", "take:QD:QC", *units(b_units),
              "throw:5C", "throw:7C", "take:QH:5C+7C", *units(a_units),
              "throw:QS", "throw:5D", "throw:7D"]
    assert len(tokens) == 48
    return tokens


def quiet_a_deck(b_units: Sequence[str], n: int = 4) -> tuple[Card, ...]:
    """The deck for ``quiet_a(b_units)``; with ``n=3`` the same script is dealt to 3 players
    (token k is then played by position k % 3; every move stays legal: a throw captures
    nothing and the taker holds the matching card whoever they are)."""
    tokens = quiet_a(b_units)
    bidder = [card_of(t) for t in tokens[0::n]]
    return script_deck(n, KINGS, " ".join(c.text for c in bidder[:4]), tokens)


# -- QUIET_B: the same, but the last capture is side B's -------------------------------------
#
#   k0 throw:QC, k1 take:QD:QC (side B)
#   k2 k3 k4   throw:5C throw:7C take:QH:5C+7C     side A takes (k4); units now go to side A
#   ..         a_units                              side A
#   ..         throw:2C throw:5D take:7D:2C+5D      side B takes (odd k); units go to side B
#   ..         the other units                      side B, the last one taken at k45 by pos1
#   k46 k47    throw:QS throw:2D                    leftover KC KD KH KS QS 2D = 25, to side B
#
# Units available: all but 21, 51, 71: 19 units, 75 points. Side A scores sum(a_units).

QUIET_B_UNITS = [u for u in QUIET_A_UNITS if u != "21"]


def quiet_b(a_units: Sequence[str]) -> list[str]:
    b_units = [u for u in QUIET_B_UNITS if u not in a_units]
    tokens = ["throw:QC", "take:QD:QC",
              "throw:5C", "throw:7C", "take:QH:5C+7C", *units(a_units),
              "throw:2C", "throw:5D", "take:7D:2C+5D", *units(b_units),
              "throw:QS", "throw:2D"]
    assert len(tokens) == 48
    return tokens


def quiet_b_deck(a_units: Sequence[str]) -> tuple[Card, ...]:
    tokens = quiet_b(a_units)
    bidder = [card_of(t) for t in tokens[0::4]]
    return script_deck(4, KINGS, " ".join(c.text for c in bidder[:4]), tokens)


# -- SEEPS: a seep on the first play, one in the middle and one on the last play -------------
#
#   floor KC KD QC AC
#   k0  pos0 (seat 0)  take:KS:QC+AC,KC,KD   bid 13; every 13 on the floor: QC+AC, KC, KD;
#                       the floor is empty: seep on the opening = 25          side A
#   k1  pos1  throw:5C;  k2 pos2 throw:7C;
#   k3  pos3 (seat 1)  take:QS:5C+7C         floor empty again: seep 50       side B
#   k4  pos0  throw:QD                       QD stays on the floor until the last play
#   k5..k16   SEEPS_SEG1 (6 units)           thrown at odd k, taken at even k: side A
#   k17 k18 k19  throw:6C throw:7D take:KH:6C+7D                              side B
#   k20..k31  SEEPS_SEG2 (6 units)           side B
#   k32 k33 k34  throw:AD throw:5D take:6D:5D+AD                              side A
#   k35..k46  SEEPS_SEG3 (6 units)           side A
#   k47 pos3 (seat 1)  take:QH:QD            the last play empties the floor: seep 0, side B

SEEPS_SEG1 = ["A2", "21", "22", "31", "32", "41"]
SEEPS_SEG2 = ["J2", "T2", "92", "82", "72", "62"]
SEEPS_SEG3 = ["42", "52", "81", "91", "T1", "J1"]
SEEPS = ["take:KS:QC+AC,KC,KD", "throw:5C", "throw:7C", "take:QS:5C+7C", "throw:QD",
         *units(SEEPS_SEG1), "throw:6C", "throw:7D", "take:KH:6C+7D", *units(SEEPS_SEG2),
         "throw:AD", "throw:5D", "take:6D:5D+AD", *units(SEEPS_SEG3), "take:QH:QD"]
SEEPS_FLOOR = "KC KD QC AC"


def seeps_deck() -> tuple[Card, ...]:
    assert len(SEEPS) == 48
    bidder = [card_of(t) for t in SEEPS[0::4]]
    return script_deck(4, SEEPS_FLOOR, " ".join(c.text for c in bidder[:4]), SEEPS)


# -- TWO: 2 players, a seep on the last play of the first half -------------------------------
#
#   floor KC KD KH QC
#   k0   seat 0  take:QD:QC          bid 12
#   k1..k22      TWO_HALF1 (11 units) seat 1 throws, seat 0 takes
#   k23  seat 1  take:KS:KC,KD,KH    the first half's last play empties the floor: seep 50
#   -- second half: 12 more cards each, the same (empty) floor, no bid --
#   k24  seat 0  throw:QH
#   k25..k46     TWO_HALF2 (11 units) seat 1 throws, seat 0 takes
#   k47  seat 1  take:QS:QH          the 48th play empties the floor: seep 0

TWO_HALF1 = ["A1", "A2", "21", "22", "31", "32", "41", "42", "51", "52", "61"]
TWO_HALF2 = ["62", "71", "72", "81", "82", "91", "92", "T1", "T2", "J1", "J2"]
TWO = ["take:QD:QC", *units(TWO_HALF1), "take:KS:KC,KD,KH",
       "throw:QH", *units(TWO_HALF2), "take:QS:QH"]
TWO_FLOOR = "KC KD KH QC"


def two_deck(tokens: Sequence[str] = TWO) -> tuple[Card, ...]:
    bidder = [card_of(t) for t in tokens[0:HALF:2]]
    return script_deck(2, TWO_FLOOR, " ".join(c.text for c in bidder[:4]), tokens)


# -- hand-built positions for the move tests -------------------------------------------------

HOUSE_FLOOR = "3D 2H 6C KS"
HOUSE_HANDS = (
    # pos0 (seat 0, bidder): bids 10 (TD is its only 9..13 card among the first four) and
    # opens build:10:5C+3D+2H, keeping TD; 4 aces/J for the break tests, no Q and no K.
    "5C TD 8S 4H 4C AD AH AS JC 2D 8H 3H",
    # pos1 (seat 3, opponent): one 10 (TS); AC 2C 3C with their keys JD QD KD; 6D matches 6C
    # and KD matches KS on the floor; 4S makes 10 with 6C.
    "AC 2C 3C 8C 6D 8D JD QD KD 9H 4S TS",
    # pos2 (seat 2, partner): one 10 (TC); no ace and no 4, so TC alone is its only cement;
    # 2S + its QC can raise a 10 to 12, its 3S has no K to raise to 13.
    "TC 2S 3S 5D 5H 5S 6H 6S 7C 7D 7H QC",
    # pos3 (seat 1, opponent): one 10 (TH) and 4D (4D + 6C = 10); no ace.
    "TH 4D 7S 9C 9D 9S JH JS QH QS KC KH",
)
"""After the opening ``build:10:5C+3D+2H`` the floor is 6C KS and an ordinary house of 10
(5C 3D 2H) owned by seat 0. Every card is placed by hand (12 + 12 + 12 + 12 + 4 = 52)."""


def house_deck() -> tuple[Card, ...]:
    return make_deck(4, HOUSE_FLOOR, HOUSE_HANDS)


def house_opened(**options):
    """A match at play 1 of the HOUSE deal (seat 3 to play)."""
    m = new_match(**options)
    start(m, house_deck(), 10)
    play(m, ["build:10:5C+3D+2H"])
    return m
