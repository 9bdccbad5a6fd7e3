"""Il Pigugnìn: the deal, the turn order and the trick play, and their options.

Rules: ../shared/RULES.md 3.1 "Deal" and "Play", G1 (direction), G2 (first_hand_leader), G3
(first_trick_pigugnin_restriction) and section 6 "Precisions" (the settebello is 7♦ and leads
only the first deal; J♠ may be played in the first trick only as the only legal card).
"""

from __future__ import annotations

import pytest

from cardcli.cards import card, french_40
from cardcli.errors import IllegalMoveError, InvalidMoveError
from cardcli.games.base import Decision, Event

from pigugnin_deals import (
    HIGH,
    RESTRICT,
    RESTRICT_SWAPPED,
    TWELVE,
    Layout,
    Run,
    buscas,
    deal_busche,
    deal_points,
    finish_deal,
    new_match,
    of_kind,
)


def hand(m, seat):
    return tuple(c.text for c in m.hands[seat])


# -- the deal ----------------------------------------------------------------------------------


def test_the_deal_one_card_at_a_time_from_the_leader():
    m = new_match()  # dealer seat 1, counter-clockwise: leader seat 0, then 3, 2, and 1
    assert m.needs_deal() and m.deal_number == 0
    events = m.deal(french_40())  # 2C..AC, 2D..AD, 2H..AH, 2S..AS (40 cards, no 8 9 10)
    assert events[0] == Event("deal", ("1", "1"))
    # card k goes to the k-th seat of 0, 3, 2, 1: seat 0 gets cards 0, 4, 8, ...
    assert m.deal_facts()["hands"] == [
        ["2C", "6C", "KC", "4D", "JD", "2H", "6H", "KH", "4S", "JS"],
        ["5C", "QC", "3D", "7D", "AD", "5H", "QH", "3S", "7S", "AS"],
        ["4C", "JC", "2D", "6D", "KD", "4H", "JH", "2S", "6S", "KS"],
        ["3C", "7C", "AC", "5D", "QD", "3H", "7H", "AH", "5S", "QS"],
    ]
    hands = [e for e in events if e.kind == "hand"]
    assert [e.audience for e in hands] == [frozenset({s}) for s in range(4)]
    assert hands[0].args == ("2C", "6C", "KC", "4D", "JD", "2H", "6H", "KH", "4S", "JS")
    assert events[-1] == Event("trick", ("1", "0"))
    assert m.deal_number == 1 and not m.needs_deal()
    assert m.decisions() == (Decision(0, "play", hand(m, 0)),)


def test_five_players_get_eight_cards_each():
    m = new_match(5)  # dealer seat 1: leader seat 0, then 4, 3, 2, 1
    m.deal(french_40())
    # 40 cards over 5 seats: seat 0 gets cards 0, 5, 10, ...: every 2 and 7
    assert m.deal_facts()["hands"] == [
        ["2C", "7C", "2D", "7D", "2H", "7H", "2S", "7S"],
        ["6C", "AC", "6D", "AD", "6H", "AH", "6S", "AS"],
        ["5C", "KC", "5D", "KD", "5H", "KH", "5S", "KS"],
        ["4C", "QC", "4D", "QD", "4H", "QH", "4S", "QS"],
        ["3C", "JC", "3D", "JD", "3H", "JH", "3S", "JS"],
    ]


@pytest.mark.parametrize(
    "deck",
    [
        french_40()[:-1],  # 39 cards
        french_40()[:-1] + (card("2C"),),  # 2C twice, no AS
        french_40()[:-1] + (card("8S"),),  # an 8 is not in the deck
    ],
)
def test_a_deal_needs_the_forty_cards(deck):
    m = new_match()
    with pytest.raises(IllegalMoveError):
        m.deal(deck)
    assert m.needs_deal() and m.deal_number == 0


def test_four_or_five_players():
    with pytest.raises(ValueError):
        new_match(3)
    with pytest.raises(ValueError):
        new_match(6)


# -- turn order, follow suit, refusals -------------------------------------------------------------


def test_counter_clockwise_turns_and_refused_moves_change_nothing():
    m = new_match()
    t = Run(m).deal(TWELVE)  # p0..p3 = seats 0 3 2 1
    # seat 3 (p1) may not play before the leader
    with pytest.raises(IllegalMoveError):
        m.apply(3, "2C")
    t.play_card()  # seat 0 leads 3C
    assert m.decisions() == (Decision(3, "play", ("2C", "JC")),)  # p1 must follow clubs
    before = [hand(m, s) for s in range(4)]
    with pytest.raises(IllegalMoveError):
        m.apply(1, "KC")  # seat 1 (p3) is not next: play goes 0, 3, 2, 1
    with pytest.raises(IllegalMoveError, match="follow suit"):
        m.apply(3, "5D")  # seat 3 holds clubs
    with pytest.raises(IllegalMoveError):
        m.apply(3, "AC")  # seat 2's card
    with pytest.raises(InvalidMoveError):
        m.apply(3, "2c")  # the canonical spelling is 2C
    with pytest.raises(InvalidMoveError):
        m.apply(3, "XX")
    assert [hand(m, s) for s in range(4)] == before
    assert m.decisions() == (Decision(3, "play", ("2C", "JC")),)
    events = t.play_card()  # seat 3 plays 2C
    assert events == [Event("play", ("3", "2C"))]
    assert m.decisions()[0].seat == 2
    t.play()
    assert m.needs_deal()


def test_trick_rank_three_beats_two_beats_ace():
    m = new_match()
    t = Run(m).deal(TWELVE)
    # trick 1: 3C (seat 0), 2C (seat 3), AC (seat 2), KC (seat 1): the three wins, and takes
    # A 3 + 3, 2, K 1 each = 6
    events = t.play(1)
    assert of_kind(events, "taken") == [("1", "0", "6")]
    assert of_kind(events, "trick") == [("2", "0")]


def test_the_end_of_a_deal_events():
    m = new_match()
    t = Run(m).deal(TWELVE)
    t.play(9)
    events = t.play()
    assert [e.kind for e in events] == [
        "play", "play", "play", "play", "taken", "points", "busca", "busca", "score", "totals"
    ]
    # trick 10 is p1's (seat 3): the last trick's 3 and no card points
    assert of_kind(events, "taken") == [("10", "3", "3")]
    assert of_kind(events, "score") == [("1", "1", "0", "0", "1")]
    assert of_kind(events, "totals") == [("1", "0", "0", "1")]
    assert m.needs_deal() and m.decisions() == ()
    with pytest.raises(IllegalMoveError):
        m.apply(3, "5D")


# -- direction (G1) ---------------------------------------------------------------------------


def test_clockwise():
    m = new_match(direction="cw", first_dealer=3)  # leader dealer+1 = 0, then 1, 2, 3
    run = Run(m)
    t = run.deal(TWELVE)
    assert t.order == [0, 1, 2, 3]
    assert of_kind(t.events, "trick") == [("1", "0")]
    t.play_card()  # seat 0 leads 3C
    assert m.decisions()[0].seat == 1
    with pytest.raises(IllegalMoveError):
        m.apply(3, "KC")  # seat 3 would be next counter-clockwise, not clockwise
    t.play()
    assert deal_points(t.events) == (12, 11, 8, 4)  # positions are seats now
    assert deal_busche(t.events) == (1, 1, 0, 0)
    assert m.next_dealer == 1  # seat 1 (p1) took J♠
    t = run.play(HIGH)  # dealer 1, leader 1+1 = seat 2: p0..p3 = seats 2 3 0 1
    assert t.order == [2, 3, 0, 1]
    assert of_kind(t.events, "deal") == [("2", "1")]
    assert of_kind(t.events, "trick")[0] == ("1", "2")
    # HIGH (11, 10, 8, 6) by position -> seats 0:8, 1:6, 2:11, 3:10; busche (1, 0, 1, 0):
    # p0 = seat 2 the highest, p2 = seat 0 J♠
    assert deal_points(t.events) == (8, 6, 11, 10)
    assert deal_busche(t.events) == (1, 0, 1, 0)
    assert m.totals == [2, 1, 1, 0]


# -- first_hand_leader (G2) -------------------------------------------------------------------


def test_the_settebello_leads_the_first_deal_only():
    m = new_match(first_hand_leader="seven_of_coins")
    run = Run(m)
    # TWELVE deals 7D to p1 = seat 3. The dealer (seat 1) and the deal are unchanged; seat 3
    # leads trick 1 with any card: 2C; then AC (seat 2), KC (seat 1), 3C (seat 0) wins.
    seven = Layout(TWELVE.tricks, leader=1)
    t = run.deal(seven)
    assert card("7D") in m.hands[3]
    assert of_kind(t.events, "deal") == [("1", "1")]
    assert of_kind(t.events, "trick") == [("1", "3")]
    with pytest.raises(IllegalMoveError):
        m.apply(0, "3C")  # the player after the dealer does not lead
    t.play()
    assert deal_points(t.events) == (12, 4, 8, 11)  # the same tricks, the same points
    # the second deal: dealer seat 3 (J♠), led by the player after it, seat 2, although 7D
    # goes to p2 = seat 0 in HIGH
    t = run.deal(HIGH)
    assert card("7D") in m.hands[0]
    assert of_kind(t.events, "trick") == [("1", "2")]
    assert m.decisions()[0].seat == 2
    t.play()
    assert m.totals == [2, 0, 1, 1]


def test_after_dealer_ignores_the_settebello():
    m = new_match()
    t = Run(m).deal(TWELVE)
    assert card("7D") in m.hands[3]
    assert of_kind(t.events, "trick") == [("1", "0")]


# -- first_trick_pigugnin_restriction (G3) ------------------------------------------------------
#
# RESTRICT by seat (p0..p3 = seats 0 3 2 1):
#   seat 0: 3S 2S AS 3C 2C AC 3D 2D 3H 2H
#   seat 3: QS 6S 4S 7C 6C 5C 4C JD 7D 6D
#   seat 2: KS 7S 5S KC QC JC 5D 4D JH 7H
#   seat 1: JS AD KD QD AH KH QH 6H 5H 4H   (J♠ is its only spade; no clubs)
# RESTRICT_SWAPPED swaps J♠ (now seat 3's, with 6S 4S) and Q♠ (now seat 1's only spade).


def test_restriction_allows_the_pigugnin_as_the_only_legal_card():
    m = new_match(first_trick_pigugnin_restriction="true")
    Run(m).deal(RESTRICT)
    m.apply(0, "3S")
    assert m.decisions() == (Decision(3, "play", ("4S", "6S", "QS")),)
    m.apply(3, "QS")
    m.apply(2, "KS")
    assert m.decisions() == (Decision(1, "play", ("JS",)),)
    events = m.apply(1, "JS")
    # 3S 1 + QS 1 + KS 1 + JS 1 = 4, to seat 0 with the 3
    assert of_kind(events, "taken") == [("1", "0", "4")]
    finish_deal(m)
    assert m.next_dealer == 0
    assert ("pigugnin", 1) in m.deal_busche()[1][0]


def test_restriction_forbids_throwing_the_pigugnin_on_trick_one():
    m = new_match(first_trick_pigugnin_restriction="true")
    Run(m).deal(RESTRICT)
    m.apply(0, "3C")
    m.apply(3, "4C")
    m.apply(2, "JC")
    # seat 1 has no club: any card but J♠
    legal = ("QD", "KD", "AD", "4H", "5H", "6H", "QH", "KH", "AH")
    assert m.decisions() == (Decision(1, "play", legal),)
    with pytest.raises(IllegalMoveError, match="J♠"):
        m.apply(1, "JS")
    assert len(m.hands[1]) == 10 and m.decisions() == (Decision(1, "play", legal),)
    m.apply(1, "4H")
    finish_deal(m)
    assert len(m.deal_scores) == 1  # the deal was played to its end


def test_without_the_restriction_the_pigugnin_may_be_thrown_on_trick_one():
    m = new_match()
    Run(m).deal(RESTRICT)
    m.apply(0, "3C")
    m.apply(3, "4C")
    m.apply(2, "JC")
    assert "JS" in m.decisions()[0].moves and len(m.decisions()[0].moves) == 10
    events = m.apply(1, "JS")
    assert of_kind(events, "taken") == [("1", "0", "3")]  # 3C 1 + JC 1 + JS 1


def test_restriction_forbids_following_with_the_pigugnin_while_holding_other_spades():
    m = new_match(first_trick_pigugnin_restriction="true")
    Run(m).deal(RESTRICT_SWAPPED)
    m.apply(0, "3S")
    assert m.decisions() == (Decision(3, "play", ("4S", "6S")),)
    with pytest.raises(IllegalMoveError):
        m.apply(3, "JS")
    m.apply(3, "6S")
    m.apply(2, "KS")
    m.apply(1, "QS")  # seat 1's only spade
    # trick 2: the restriction is over
    m.apply(0, "2S")
    assert m.decisions() == (Decision(3, "play", ("4S", "JS")),)
    m.apply(3, "JS")
    finish_deal(m)


def test_without_the_restriction_the_pigugnin_may_follow_on_trick_one():
    m = new_match()
    Run(m).deal(RESTRICT_SWAPPED)
    m.apply(0, "3S")
    assert m.decisions() == (Decision(3, "play", ("4S", "6S", "JS")),)
    m.apply(3, "JS")


def test_restriction_forbids_leading_the_pigugnin_on_trick_one():
    # RESTRICT with p0 and p3 swapped: the leader, seat 0, holds J♠ and nine other cards
    layout = Layout(hands=(RESTRICT.hands[3], RESTRICT.hands[1], RESTRICT.hands[2], RESTRICT.hands[0]))
    m = new_match(first_trick_pigugnin_restriction="true")
    Run(m).deal(layout)
    assert m.decisions() == (Decision(0, "play", ("QD", "KD", "AD", "4H", "5H", "6H", "QH", "KH", "AH")),)
    with pytest.raises(IllegalMoveError):
        m.apply(0, "JS")
    m = new_match()
    Run(m).deal(layout)
    assert "JS" in m.decisions()[0].moves
    m.apply(0, "JS")


def test_first_deal_events_name_the_busche_in_seat_order():
    m = new_match()
    t = Run(m).play(TWELVE)
    assert buscas(t.events) == [(0, "threshold", 1), (3, "pigugnin", 1)]
