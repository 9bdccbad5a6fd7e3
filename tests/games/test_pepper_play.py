"""Pepper: trick play with bowers, follow suit, no-trump, and the declarer's lead.

Rules: ../shared/RULES.md 4.1 "Ranking" (trumps J, J of the same colour, A K Q 10 9; other
suits and no-trump A K Q J 10 9) and "Play" (the high bidder leads; follow suit; the highest
trump or else the highest card of the led suit wins; the winner leads), R2 (the left bower is
a trump only: it must be played to a trump lead, counts as trump when leading, and does not
follow its printed suit), R3 (jacks plain at no-trump), section 6 (left_bower_is_trump=false:
that jack is an ordinary card of its printed suit).

The deals are in pepper_deals.py, each trick worked out there. Here every test deals with
position 0 (the declarer) at seat 0 (dealer 3, or 2 with three players, 1 with two).
"""

from __future__ import annotations

import pytest
from pepper_deals import (
    LEFT4,
    LEFT4_PLAIN,
    SPLIT2,
    SPLIT3,
    SPLIT4,
    SPLIT4_NT,
    SWEEP2,
    auction,
    cardset,
    deal,
    deal_points,
    new_match,
    of_kind,
    play,
    play_deal,
    seat_hands,
    winners,
)

from cardcli.errors import IllegalMoveError, InvalidMoveError


def start(layout, contract="1", trump=None, **options):
    """Deal ``layout`` with position 0 at seat 0, seat 0 wins the auction and names trump."""
    n = layout.n
    m = new_match(n, first_dealer=n - 1, **options)
    events = deal(m, n - 1, seat_hands(layout, 0), layout.dead)
    events += auction(m, 0, contract)
    events += m.apply(0, trump or layout.trump)
    return m, events


def may_play(m, seat):
    """The cards ``seat`` is offered now (it must be its turn)."""
    (d,) = m.decisions()
    assert (d.seat, d.kind) == (seat, "play")
    return cardset(d.moves)


def test_the_declarer_leads_and_play_goes_clockwise():
    m, events = start(SPLIT4)
    assert of_kind(events, "trick") == [("1", "0")]
    got = play(m, "JH", "QH", "TH", "9H")
    assert of_kind(got, "play") == [("0", "JH"), ("1", "QH"), ("2", "TH"), ("3", "9H")]
    assert of_kind(got, "taken") == [("1", "0", "0")]
    assert of_kind(got, "trick") == [("2", "0")]


def test_a_declarer_who_is_not_first_to_bid_leads():
    # dealer 3; seat 0 passes, seat 2 wins the auction with position 0 of SPLIT4 in hand
    m = new_match(4, first_dealer=3)
    deal(m, 3, seat_hands(SPLIT4, 2))
    events = auction(m, 2, "2")
    assert of_kind(events, "bid") == [("0", "pass"), ("1", "pass"), ("2", "2"), ("3", "pass")]
    events = m.apply(2, "H")
    assert of_kind(events, "trick") == [("1", "2")]
    events = play(m, *SPLIT4.tricks)
    assert winners(events) == [2, 2, 2, 2, 3, 3]


def test_trump_lead_must_be_followed_by_trumps():
    m, _ = start(SPLIT4)
    play(m, "JH")
    assert may_play(m, 1) == cardset("QH")  # seat 1's only trump
    play(m, "QH")
    assert may_play(m, 2) == cardset("KH TH")
    play(m, "TH")
    assert may_play(m, 3) == cardset("9H")


def test_the_left_bower_leads_as_a_trump():
    # SPLIT4, hearts: after trick 1, seat 0 leads JD, the left bower
    m, _ = start(SPLIT4)
    play(m, SPLIT4.tricks[0])
    play(m, "JD")
    # seat 1 has no heart: any card, its 9D included (JD led is no diamond lead)
    assert may_play(m, 1) == cardset("9C TC AS KS 9D")
    play(m, "9D")
    # seat 2 must give its last trump, not its diamonds
    assert may_play(m, 2) == cardset("KH")
    play(m, "KH")
    assert may_play(m, 3) == cardset("JC JS QS TS TD")
    events = play(m, "TD")
    assert winners(events) == [0]  # the left bower beats the king of trumps


def test_the_left_bower_does_not_follow_its_printed_suit():
    # LEFT4, hearts: seat 1 holds JD and QD
    m, _ = start(LEFT4)
    play(m, "AD")
    assert may_play(m, 1) == cardset("QD")  # the JD is no diamond
    play(m, "QD 9D 9S")
    play(m, "KD")
    # no diamond left: any card; the left bower ruffs the diamond lead
    assert may_play(m, 1) == cardset("JD AS KS QS 9H")
    events = play(m, "JD TD TS")
    assert winners(events) == [1]
    # seat 1 leads trump: seat 2 must give JH or AH, seat 0 (no trump: JC is a club with
    # hearts trump) anything
    play(m, "9H")
    assert may_play(m, 2) == cardset("JH AH")
    play(m, "AH")
    assert may_play(m, 3) == cardset("KH QH TH")
    play(m, "KH")
    assert may_play(m, 0) == cardset("AC KC QC JC")
    events = play(m, "JC")
    assert winners(events) == [2]


def test_left_bower_played_deal_scores():
    m, events = start(LEFT4)
    events += play(m, *LEFT4.tricks)
    # seat 0 1 (AD) + seat 2 2 (AH, JH) = 3; seat 1 2 (JD ruff, QS) + seat 3 1 (TH ruff) = 3
    assert winners(events) == [0, 1, 2, 2, 3, 1]
    assert of_kind(events, "made") == [("0", "1", "3")]
    assert deal_points(events) == (3, 3, 3, 3)


def test_the_right_bower_beats_the_left_bower():
    # SPLIT2 but seat 1 gives its left bower to the right bower: JH beats JD
    m, _ = start(SPLIT2)
    play(m, "JH")
    assert may_play(m, 1) == cardset("JD QH")
    events = play(m, "JD")
    assert winners(events) == [0]
    # then AH draws the QH: seat 0 wins again
    events = play(m, "AH QH")
    assert winners(events) == [0]


def test_the_left_bower_beats_the_ace_of_trumps():
    m, _ = start(SPLIT2)
    events = play(m, *SPLIT2.tricks[:2])
    assert winners(events) == [0, 1]


def test_left_bower_is_trump_false_makes_it_an_ordinary_jack():
    m, events = start(LEFT4_PLAIN, left_bower_is_trump=False)
    events += play(m, "AD")
    assert may_play(m, 1) == cardset("JD QD")  # JD is a diamond now
    events += play(m, "QD 9D 9S")
    events += play(m, "KD")
    assert may_play(m, 1) == cardset("JD")  # and must follow diamonds
    events += play(m, "JD TD TS")
    assert winners(events) == [0, 0]  # KD beats the plain JD
    events += play(m, "AC 9H 9C KH")  # seat 1 ruffs, seat 3 over-ruffs
    events += play(m, "QH")
    assert may_play(m, 0) == cardset("KC QC JC")  # no trump
    events += play(m, "JC AS")
    assert may_play(m, 2) == cardset("JH AH")
    events += play(m, "JH")
    events += play(m, *LEFT4_PLAIN.tricks[4:])
    # the right bower is still the highest trump (trick 4)
    assert winners(events) == [0, 0, 3, 2, 2, 0]
    # seat 0 3 + seat 2 2 = 5; seat 3 1
    assert of_kind(events, "made") == [("0", "1", "5")]
    assert deal_points(events) == (5, 1, 5, 1)


def test_left_bower_is_trump_false_in_two_players():
    # SPLIT2 hearts without the left bower: seat 1's JD is not a trump, so trick 1 must be
    # followed with the QH alone
    m, _ = start(SPLIT2, left_bower_is_trump=False)
    play(m, "JH")
    assert may_play(m, 1) == cardset("QH")


def test_no_trump_jacks_are_plain():
    m, events = start(SPLIT4_NT, "big")
    play(m, "JH")
    assert may_play(m, 1) == cardset("QH")
    events += play(m, "QH KH 9H")
    assert winners(events) == [2]  # K > Q > J > 9
    play(m, "AD TD")
    assert may_play(m, 0) == cardset("JD")  # the JD is a diamond at no-trump
    events += play(m, "JD 9D")
    events += play(m, *SPLIT4_NT.tricks[2:])
    assert winners(events) == [2, 2, 2, 2, 0, 0]
    assert of_kind(events, "made") == [("0", "big", "6")]


def test_no_trump_a_queen_beats_a_jack():
    # SPLIT2 at no-trump: JH led; seat 1 must follow with QH (its JD is only a diamond now),
    # and Q beats J
    m, _ = start(SPLIT2, "1", "NT")
    play(m, "JH")
    assert may_play(m, 1) == cardset("QH")
    assert winners(play(m, "QH")) == [1]


def test_no_trump_and_off_suit_cards_never_win():
    # SPLIT4_NT trick 6: AC led, AS off suit loses
    m, _ = start(SPLIT4_NT, "3")
    events = play(m, *SPLIT4_NT.tricks)
    assert winners(events)[-1] == 0


def test_three_player_bowers():
    # SPLIT3, spades: the right bower then the left bower (JC) draw the trumps
    m, _ = start(SPLIT3, "4")
    play(m, "JS")
    assert may_play(m, 1) == cardset("QS TS")
    assert winners(play(m, "TS 9S")) == [0]
    play(m, "JC")
    assert may_play(m, 1) == cardset("QS")
    play(m, "QS")
    assert may_play(m, 2) == cardset("AH KH QH JH TH AD KD")
    assert winners(play(m, "TH")) == [0]


def test_two_players_left_bower_lead_frees_a_player_without_trumps():
    # SWEEP2, hearts: after JH draws seat 1's only trump, seat 0 leads the JD
    m, _ = start(SWEEP2, "big")
    events = play(m, "JH 9H JD")
    assert may_play(m, 1) == cardset("KC QC 9C KS QS KD QD")
    events += play(m, "KD")
    assert winners(events) == [0, 0]


def test_follow_suit_is_enforced_and_refusals_change_nothing():
    m, _ = start(SPLIT4)
    play(m, "JH QH")
    before = m.decisions()
    with pytest.raises(IllegalMoveError):
        m.apply(2, "QC")  # seat 2 holds hearts
    with pytest.raises(IllegalMoveError):
        m.apply(2, "9H")  # not in seat 2's hand
    with pytest.raises(IllegalMoveError):
        m.apply(3, "9H")  # not seat 3's turn
    with pytest.raises(InvalidMoveError):
        m.apply(2, "ZZ")
    with pytest.raises(InvalidMoveError):
        m.apply(2, "10H")  # the ten is written TH
    with pytest.raises(InvalidMoveError):
        m.apply(2, "pass")  # not a card
    assert m.decisions() == before
    assert frozenset(m.hands[2]) == cardset("KH TH QC AD KD QD")


@pytest.mark.parametrize("layout", [SPLIT4, SPLIT4_NT, LEFT4, SPLIT3, SPLIT2, SWEEP2])
def test_every_scripted_deal_plays_through(layout):
    n = layout.n
    m = new_match(n, first_dealer=n - 1)
    events = play_deal(m, layout, n - 1, 0, "1")
    assert len(of_kind(events, "taken")) == len(layout.tricks) == (6 if n == 4 else 8)
    assert m.needs_deal() and m.decisions() == ()
    with pytest.raises(IllegalMoveError):
        m.apply(0, "pass")
