"""Pepper: the deal layout for 2, 3 and 4 players, the dead hand, the dealer's rotation.

Rules: ../shared/RULES.md 4.1 "Deck and deal" (24 cards, one at a time clockwise, the deal
passes clockwise), R12 (one at a time from the dealer's left through 3 positions; with 2
players non-dealer, dealer, dead hand, which is never revealed), section 6 (after a played
deal the deal passes to the left, dealer+1).

The canonical deck ``french_24()`` is, by index:
   0 9C   1 TC   2 JC   3 QC   4 KC   5 AC   6 9D   7 TD   8 JD   9 QD  10 KD  11 AD
  12 9H  13 TH  14 JH  15 QH  16 KH  17 AH  18 9S  19 TS  20 JS  21 QS  22 KS  23 AS
"""

from __future__ import annotations

import pytest
from pepper_deals import (
    SPLIT2,
    SPLIT3,
    SPLIT4,
    auction,
    cardset,
    deal,
    new_match,
    of_kind,
    play,
    play_deal,
    seat_hands,
)

from cardcli.cards import card, cards, french_24, french_52
from cardcli.errors import IllegalMoveError
from cardcli.games.base import Event

DECK = french_24()


def test_the_deck_is_nine_to_ace():
    assert len(DECK) == 24
    assert " ".join(c.text for c in DECK[:6]) == "9C TC JC QC KC AC"
    assert " ".join(c.text for c in DECK[18:]) == "9S TS JS QS KS AS"


def hands_of(m):
    return [frozenset(h) for h in m.hands]


def all_pass(m):
    """Every seat passes (the default all_pass option throws the hand in)."""
    events = []
    while m.decisions():
        (d,) = m.decisions()
        events += m.apply(d.seat, "pass")
    assert of_kind(events, "allpass") == [()]
    return events


# -- one at a time ------------------------------------------------------------------------------


def test_four_players_one_at_a_time():
    m = new_match(4, first_dealer=3, deal_order="one_at_a_time")
    events = m.deal(DECK)
    # dealer 3: card k goes to seat k mod 4 (positions 0, 1, 2, 3 = seats 0, 1, 2, 3)
    #   seat 0: cards 0 4 8 12 16 20, seat 1: 1 5 9 13 17 21, ...
    assert hands_of(m) == [
        cardset("9C KC JD 9H KH JS"),
        cardset("TC AC QD TH AH QS"),
        cardset("JC 9D KD JH 9S KS"),
        cardset("QC TD AD QH TS AS"),
    ]
    assert m.dead == []
    assert events[0] == Event("deal", ("1", "3"))
    # each seat is told its own hand only
    hand_events = [e for e in events if e.kind == "hand"]
    assert [e.audience for e in hand_events] == [frozenset({s}) for s in range(4)]
    assert [cardset(e.args) for e in hand_events] == hands_of(m)
    all_pass(m)
    # next dealer is seat 0: positions 0..3 are seats 1, 2, 3, 0
    m.deal(DECK)
    assert m.dealer == 0
    assert hands_of(m) == [
        cardset("QC TD AD QH TS AS"),
        cardset("9C KC JD 9H KH JS"),
        cardset("TC AC QD TH AH QS"),
        cardset("JC 9D KD JH 9S KS"),
    ]


def test_three_players_one_at_a_time():
    m = new_match(3, first_dealer=2, deal_order="one_at_a_time")
    m.deal(DECK)
    # dealer 2: card k goes to seat k mod 3; 8 cards each
    assert hands_of(m) == [
        cardset("9C QC 9D QD 9H QH 9S QS"),  # 0 3 6 9 12 15 18 21
        cardset("TC KC TD KD TH KH TS KS"),  # 1 4 7 ...
        cardset("JC AC JD AD JH AH JS AS"),  # 2 5 8 ...
    ]
    assert m.dead == []
    all_pass(m)
    m.deal(DECK)  # dealer 0: positions are seats 1, 2, 0
    assert m.dealer == 0
    assert hands_of(m) == [
        cardset("JC AC JD AD JH AH JS AS"),
        cardset("9C QC 9D QD 9H QH 9S QS"),
        cardset("TC KC TD KD TH KH TS KS"),
    ]


def test_two_players_one_at_a_time_with_a_dead_hand():
    m = new_match(2, first_dealer=1, deal_order="one_at_a_time")
    m.deal(DECK)
    # R12: positions non-dealer (seat 0), dealer (seat 1), dead hand; card k to position k mod 3
    assert hands_of(m) == [cardset("9C QC 9D QD 9H QH 9S QS"), cardset("TC KC TD KD TH KH TS KS")]
    assert frozenset(m.dead) == cardset("JC AC JD AD JH AH JS AS")
    all_pass(m)
    m.deal(DECK)  # dealer 0: the non-dealer is seat 1
    assert m.dealer == 0
    assert hands_of(m) == [cardset("TC KC TD KD TH KH TS KS"), cardset("9C QC 9D QD 9H QH 9S QS")]
    assert frozenset(m.dead) == cardset("JC AC JD AD JH AH JS AS")


# -- a hand at a time (the scripting order) -----------------------------------------------------


def test_hand_at_a_time_layouts():
    m = new_match(4, first_dealer=1)
    m.deal(DECK)
    # dealer 1: six cards each to seats 2, 3, 0, 1
    assert hands_of(m) == [
        cardset("9H TH JH QH KH AH"),
        cardset("9S TS JS QS KS AS"),
        cardset("9C TC JC QC KC AC"),
        cardset("9D TD JD QD KD AD"),
    ]
    m = new_match(3, first_dealer=0)
    m.deal(DECK)
    # dealer 0: eight cards each to seats 1, 2, 0
    assert hands_of(m) == [
        cardset("KH AH 9S TS JS QS KS AS"),
        cardset("9C TC JC QC KC AC 9D TD"),
        cardset("JD QD KD AD 9H TH JH QH"),
    ]
    m = new_match(2, first_dealer=0)
    m.deal(DECK)
    # dealer 0: seat 1 (non-dealer), seat 0 (dealer), then the dead hand
    assert hands_of(m) == [cardset("JD QD KD AD 9H TH JH QH"), cardset("9C TC JC QC KC AC 9D TD")]
    assert frozenset(m.dead) == cardset("KH AH 9S TS JS QS KS AS")


# -- the dealer moves clockwise -----------------------------------------------------------------


@pytest.mark.parametrize(
    "layout, first_dealer, dealers",
    [
        (SPLIT4, 3, [3, 0, 1, 2, 3]),
        (SPLIT3, 2, [2, 0, 1, 2]),
        (SPLIT2, 1, [1, 0, 1, 0]),
    ],
)
def test_the_deal_passes_clockwise_after_played_deals(layout, first_dealer, dealers):
    # Each deal: the dealer's left (dealer+1) declares "1" and plays the layout; the deal
    # helper builds the deck for the dealer listed here, so a wrong dealer means wrong hands.
    # SPLIT4 gives +4/+2, SPLIT3 +4/+2/+2, SPLIT2 +4/+4 a deal: nobody reaches 30.
    n = layout.n
    m = new_match(n, first_dealer=first_dealer)
    for number, dealer in enumerate(dealers, start=1):
        first = (dealer + 1) % n
        events = play_deal(m, layout, dealer, first, "1")
        assert of_kind(events, "deal") == [(str(number), str(dealer))]
        assert of_kind(events, "bid")[0] == (str(first), "1")
        assert m.deal_number == number
    assert not m.is_over()


def test_all_pass_passes_the_deal_too():
    # default all_pass=redeal_next_dealer (R5): thrown in, the next dealer clockwise deals
    m = new_match(4, first_dealer=2)
    deal(m, 2, seat_hands(SPLIT4, 3))
    all_pass(m)
    deal(m, 3, seat_hands(SPLIT4, 0))
    assert m.deal_number == 2


# -- the dead hand ------------------------------------------------------------------------------


def test_the_dead_hand_is_never_told():
    m = new_match(2, first_dealer=1)
    events = play_deal(m, SPLIT2, 1, 0, "4")
    dead = {c.text for c in cards(SPLIT2.dead)}
    assert frozenset(m.dead) == cardset(SPLIT2.dead)
    # no event, public or private, names a dead card
    for e in events:
        assert not dead & set(e.args), e
    # exactly two hands were told, each to its own seat
    assert [(e.audience, cardset(e.args)) for e in events if e.kind == "hand"] == [
        (frozenset({0}), cardset(SPLIT2.hands[0])),
        (frozenset({1}), cardset(SPLIT2.hands[1])),
    ]
    # 16 cards were played: the two hands
    played = {a[1] for a in of_kind(events, "play")}
    assert played == {c.text for h in SPLIT2.hands for c in cards(h)}


def test_a_dead_card_cannot_be_played():
    m = new_match(2, first_dealer=1)
    deal(m, 1, seat_hands(SPLIT2, 0), SPLIT2.dead)
    auction(m, 0, "1")
    m.apply(0, "H")
    (d,) = m.decisions()
    assert d.kind == "play" and d.seat == 0
    assert not set(d.moves) & {c.text for c in cards(SPLIT2.dead)}
    for text in ("TH", "JS"):  # dead cards
        with pytest.raises(IllegalMoveError):
            m.apply(0, text)
    assert m.decisions() == (d,)
    play(m, *SPLIT2.tricks)
    assert m.needs_deal()


# -- refusals -----------------------------------------------------------------------------------


def test_bad_decks_and_untimely_deals_are_refused():
    m = new_match(4)
    with pytest.raises(IllegalMoveError):
        m.deal(DECK[:23])
    with pytest.raises(IllegalMoveError):
        m.deal(DECK[:23] + (card("9C"),))  # 9C twice, AS missing
    with pytest.raises(IllegalMoveError):
        m.deal(french_52()[:24])
    assert m.needs_deal() and m.deal_number == 0
    m.deal(DECK)
    with pytest.raises(IllegalMoveError):
        m.deal(DECK)
    assert m.deal_number == 1
