"""Pepper: the auction, the trump call and everybody passing.

Rules: ../shared/RULES.md 4.1 "Bidding" (from the dealer's left, clockwise; pass or bid
higher; 4 players 1..5 < Small < Big, 2-3 players 1..7 < Small < Big; partners may each raise
the team's bid; the auction ends when all but one have passed or on the highest bid; the
declarer names a suit or no-trump), R4 (pass is final; pass_is_final), R5 (all pass:
redeal_next_dealer / redeal_same_dealer / stick_dealer), R6 (the final high bidder declares
and leads), R7 (trump_must_be_held), R13 (2 players), R14 (auction=single_round), and
section 6 (partners: a partner who has not passed may still raise; stick_dealer: the dealer
may not pass only when nobody has bid and every other seat passed; trump_must_be_held: the
left bower counts, no-trump always allowed; after an all-pass the deal follows all_pass).
"""

from __future__ import annotations

import pytest
from pepper_deals import (
    LEFT4,
    SPLIT2,
    SPLIT3,
    SPLIT4,
    bids,
    deal,
    new_match,
    of_kind,
    play,
    seat_hands,
)

from cardcli.errors import IllegalMoveError, InvalidMoveError
from cardcli.games.base import DealScore

LADDER4 = ("1", "2", "3", "4", "5", "small", "big")
LADDER23 = ("1", "2", "3", "4", "5", "6", "7", "small", "big")


def dealt(n=4, dealer=None, **options):
    """A match whose first deal is dealt (SPLIT4/3/2 with the dealer's left at position 0)."""
    layout = {4: SPLIT4, 3: SPLIT3, 2: SPLIT2}[n]
    dealer = n - 1 if dealer is None else dealer
    m = new_match(n, first_dealer=dealer, **options)
    deal(m, dealer, seat_hands(layout, (dealer + 1) % n), layout.dead)
    return m


def turn(m):
    (d,) = m.decisions()
    return d.seat, d.kind, d.moves


# -- order and ladder ---------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_bidding_starts_at_the_dealers_left_and_goes_clockwise(dealer):
    m = dealt(4, dealer)
    seen = []
    while m.decisions():
        seat, kind, _ = turn(m)
        assert kind == "bid"
        seen.append(seat)
        m.apply(seat, "pass")
    assert seen == [(dealer + k) % 4 for k in (1, 2, 3, 4)]


def test_three_and_two_players_start_left_of_the_dealer():
    m = dealt(3, 1)
    assert turn(m) == (2, "bid", ("pass",) + LADDER23)
    m = dealt(2, 1)
    assert turn(m) == (0, "bid", ("pass",) + LADDER23)  # R13: the non-dealer
    m = dealt(2, 0)
    assert turn(m) == (1, "bid", ("pass",) + LADDER23)


def test_only_raises_are_offered():
    m = dealt(4, 3)
    assert turn(m) == (0, "bid", ("pass",) + LADDER4)
    bids(m, "0:2")
    assert turn(m) == (1, "bid", ("pass", "3", "4", "5", "small", "big"))
    bids(m, "1:5")
    assert turn(m) == (2, "bid", ("pass", "small", "big"))
    bids(m, "2:small")
    assert turn(m) == (3, "bid", ("pass", "big"))


@pytest.mark.parametrize("move, error", [
    ("2", IllegalMoveError),  # equal to the high bid
    ("1", IllegalMoveError),  # lower
    ("6", IllegalMoveError),  # no 6 with four players
    ("banana", InvalidMoveError),
    ("NT", IllegalMoveError),  # a trump call during the auction
])
def test_a_bid_that_is_not_a_raise_is_refused(move, error):
    m = dealt(4, 3)
    bids(m, "0:2")
    before = m.decisions()
    with pytest.raises(error):
        m.apply(1, move)
    assert m.decisions() == before
    with pytest.raises(IllegalMoveError):
        m.apply(2, "3")  # not seat 2's turn
    assert m.decisions() == before
    assert of_kind(bids(m, "1:3"), "bid") == [("1", "3")]


def test_seven_and_no_more_with_three_players():
    m = dealt(3, 2)
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        m.apply(0, "8")
    bids(m, "0:7")
    assert turn(m) == (1, "bid", ("pass", "small", "big"))


# -- the end of the auction ---------------------------------------------------------------------


def test_the_auction_ends_when_one_bidder_is_left():
    m = dealt(4, 3)
    events = bids(m, "0:pass", "1:1", "2:pass")
    assert turn(m)[0] == 3 and of_kind(events, "contract") == []
    events = bids(m, "3:pass")
    # 0, 2 and 3 have passed: seat 1 is the declarer
    assert of_kind(events, "contract") == [("1", "1")]
    assert turn(m) == (1, "trump", ("C", "D", "H", "S", "NT"))


def test_a_late_bid_after_three_passes_ends_the_auction():
    # pass_is_final: seats 0, 1 and 2 are out, so seat 3's bid is the last word
    m = dealt(4, 3)
    events = bids(m, "0:pass", "1:pass", "2:pass", "3:1")
    assert of_kind(events, "contract") == [("3", "1")]


def test_the_auction_goes_round_as_often_as_needed():
    m = dealt(4, 3)
    events = bids(m, "0:1", "1:2", "2:3", "3:4", "0:5", "1:small", "2:pass", "3:pass")
    assert of_kind(events, "contract") == []
    assert turn(m) == (0, "bid", ("pass", "big"))
    events += bids(m, "0:big")
    assert of_kind(events, "contract") == [("0", "big")]
    assert len(of_kind(events, "bid")) == 9


def test_a_pass_is_final():
    m = dealt(4, 3)
    bids(m, "0:pass", "1:1", "2:2", "3:pass")
    # seat 0 passed: the turn skips it, back to seat 1
    assert turn(m)[0] == 1
    with pytest.raises(IllegalMoveError):
        m.apply(0, "3")
    bids(m, "1:3")
    assert turn(m)[0] == 2  # 3 and 0 are out
    events = bids(m, "2:pass")
    assert of_kind(events, "contract") == [("1", "3")]


def test_pass_is_not_final_when_the_option_says_so():
    m = dealt(4, 3, pass_is_final=False)
    events = bids(m, "0:pass", "1:1", "2:pass", "3:pass")
    # seat 0 passed before seat 1's bid: it may now speak again
    assert of_kind(events, "contract") == []
    assert turn(m) == (0, "bid", ("pass", "2", "3", "4", "5", "small", "big"))
    events = bids(m, "0:2", "1:pass", "2:pass")
    assert of_kind(events, "contract") == []
    # seat 3 has not spoken since seat 0's 2: its pass ends the auction, seats 1, 2 and 3
    # having passed after the last bid
    events = bids(m, "3:pass")
    assert of_kind(events, "contract") == [("0", "2")]


def test_big_pepper_ends_the_auction_at_once():
    m = dealt(4, 3)
    events = bids(m, "0:pass", "1:big")
    assert of_kind(events, "contract") == [("1", "big")]
    assert turn(m)[:2] == (1, "trump")  # seats 2 and 3 never speak
    m = dealt(4, 3)
    events = bids(m, "0:small", "1:big")
    assert of_kind(events, "contract") == [("1", "big")]
    m = dealt(3, 2)
    events = bids(m, "0:big")
    assert of_kind(events, "contract") == [("0", "big")]


def test_small_pepper_can_be_raised_only_to_big():
    m = dealt(3, 2)
    bids(m, "0:small", "1:pass")
    assert turn(m) == (2, "bid", ("pass", "big"))
    events = bids(m, "2:pass")
    assert of_kind(events, "contract") == [("0", "small")]


def test_partners_raise_each_other():
    m = dealt(4, 3)
    events = bids(m, "0:1", "1:pass", "2:2", "3:pass")
    # both opponents passed, but partner 0 has not: the auction goes on (section 6)
    assert of_kind(events, "contract") == []
    assert turn(m) == (0, "bid", ("pass", "3", "4", "5", "small", "big"))
    bids(m, "0:3")
    assert turn(m)[0] == 2  # 1 and 3 are out
    bids(m, "2:4")
    assert turn(m)[0] == 0
    events = bids(m, "0:pass")
    # R6: the final high bidder, seat 2, declares, names trump and leads
    assert of_kind(events, "contract") == [("2", "4")]
    assert turn(m)[:2] == (2, "trump")
    events = m.apply(2, "C")
    assert of_kind(events, "trump") == [("2", "C")]
    assert of_kind(events, "trick") == [("1", "2")]
    assert turn(m)[:2] == (2, "play")


def test_two_players_end_after_one_pass_that_follows_a_bid():
    m = dealt(2, 1)
    events = bids(m, "0:3", "1:pass")
    assert of_kind(events, "contract") == [("0", "3")]
    m = dealt(2, 1)
    events = bids(m, "0:pass", "1:1")
    assert of_kind(events, "contract") == [("1", "1")]
    m = dealt(2, 1)
    events = bids(m, "0:1", "1:2", "0:5", "1:7", "0:pass")
    assert of_kind(events, "contract") == [("1", "7")]


def test_three_players_raise_until_one_is_left():
    m = dealt(3, 2)
    events = bids(m, "0:1", "1:3", "2:pass", "0:4", "1:pass")
    assert of_kind(events, "contract") == [("0", "4")]


# -- a single round -----------------------------------------------------------------------------


def test_single_round_each_speaks_once():
    m = dealt(4, 3, auction="single_round")
    events = bids(m, "0:1", "1:2", "2:pass")
    assert of_kind(events, "contract") == []
    assert turn(m) == (3, "bid", ("pass", "3", "4", "5", "small", "big"))
    events = bids(m, "3:pass")
    # everybody has spoken once: seat 1's 2 stands, seat 0 is not asked again
    assert of_kind(events, "contract") == [("1", "2")]
    assert turn(m)[:2] == (1, "trump")


def test_single_round_ends_on_big_pepper_and_on_all_passes():
    m = dealt(4, 3, auction="single_round")
    events = bids(m, "0:pass", "1:big")
    assert of_kind(events, "contract") == [("1", "big")]
    m = dealt(3, 2, auction="single_round")
    events = bids(m, "0:pass", "1:pass", "2:pass")
    assert of_kind(events, "allpass") == [()]
    assert m.needs_deal()


# -- everybody passes (R5) ----------------------------------------------------------------------


def test_all_pass_redeal_next_dealer_is_the_default():
    m = dealt(4, 1)
    events = bids(m, "2:pass", "3:pass", "0:pass", "1:pass")
    assert of_kind(events, "contract") == []
    assert of_kind(events, "allpass") == [()]
    # no score: zeros for the deal, totals unchanged
    assert of_kind(events, "score") == [("1", "0", "0", "0", "0")]
    assert of_kind(events, "totals") == [("0", "0", "0", "0")]
    assert m.deal_scores == (DealScore(1, (0, 0, 0, 0), (0, 0, 0, 0), ("all passed",)),)
    assert m.needs_deal() and not m.is_over() and m.decisions() == ()
    # the next dealer clockwise (seat 2) deals; seat 3 bids first
    deal(m, 2, seat_hands(SPLIT4, 3))
    assert turn(m)[0] == 3 and m.deal_number == 2


def test_all_pass_redeal_same_dealer():
    m = dealt(4, 1, all_pass="redeal_same_dealer")
    bids(m, "2:pass", "3:pass", "0:pass", "1:pass")
    deal(m, 1, seat_hands(SPLIT4, 2))  # the same dealer again
    assert turn(m)[0] == 2
    bids(m, "2:pass", "3:pass", "0:pass", "1:pass")
    deal(m, 1, seat_hands(SPLIT4, 2))
    assert m.deal_number == 3
    assert [s.points for s in m.deal_scores] == [(0, 0, 0, 0)] * 2
    # after a played deal the deal passes to the left all the same
    bids(m, "2:1", "3:pass", "0:pass", "1:pass")
    m.apply(2, "H")
    play(m, *SPLIT4.tricks)
    deal(m, 2, seat_hands(SPLIT4, 3))


def test_all_pass_redeal_next_dealer_with_two_players():
    m = dealt(2, 1)
    bids(m, "0:pass", "1:pass")
    deal(m, 0, seat_hands(SPLIT2, 1), SPLIT2.dead)
    assert turn(m)[0] == 1


def test_stick_the_dealer():
    m = dealt(4, 3, all_pass="stick_dealer")
    bids(m, "0:pass", "1:pass", "2:pass")
    # nobody bid and every other seat passed: the dealer may not pass
    assert turn(m) == (3, "bid", LADDER4)
    with pytest.raises(IllegalMoveError):
        m.apply(3, "pass")
    assert turn(m) == (3, "bid", LADDER4)
    events = bids(m, "3:1")
    assert of_kind(events, "contract") == [("3", "1")]
    assert of_kind(events, "allpass") == []


def test_stick_the_dealer_only_when_nobody_bid():
    m = dealt(4, 3, all_pass="stick_dealer")
    bids(m, "0:1", "1:pass", "2:pass")
    assert turn(m) == (3, "bid", ("pass", "2", "3", "4", "5", "small", "big"))
    events = bids(m, "3:pass")
    assert of_kind(events, "contract") == [("0", "1")]
    # the seats before the dealer may pass as usual
    m = dealt(4, 3, all_pass="stick_dealer")
    assert turn(m) == (0, "bid", ("pass",) + LADDER4)


@pytest.mark.parametrize("n, dealer, passes", [(3, 2, ["0:pass", "1:pass"]), (2, 1, ["0:pass"])])
def test_stick_the_dealer_with_fewer_players(n, dealer, passes):
    m = dealt(n, dealer, all_pass="stick_dealer")
    bids(m, *passes)
    assert turn(m) == (dealer, "bid", LADDER23)
    events = bids(m, f"{dealer}:small")
    assert of_kind(events, "contract") == [(str(dealer), "small")]


def test_stick_the_dealer_in_a_single_round():
    m = dealt(4, 3, all_pass="stick_dealer", auction="single_round")
    bids(m, "0:pass", "1:pass", "2:pass")
    assert turn(m) == (3, "bid", LADDER4)


# -- the trump call -----------------------------------------------------------------------------


def test_any_trump_or_no_trump_by_default():
    m = new_match(4, first_dealer=3)
    deal(m, 3, seat_hands(LEFT4, 0))
    bids(m, "0:1", "1:pass", "2:pass", "3:pass")
    # seat 0 holds no heart, yet hearts is allowed (R7 default: no restriction)
    assert turn(m) == (0, "trump", ("C", "D", "H", "S", "NT"))
    with pytest.raises(IllegalMoveError):
        m.apply(1, "C")  # only the declarer names trump
    with pytest.raises(InvalidMoveError):
        m.apply(0, "X")
    events = m.apply(0, "H")
    assert of_kind(events, "trump") == [("0", "H")]


def test_trump_must_be_held_counts_the_left_bower():
    m = new_match(4, first_dealer=3, trump_must_be_held=True)
    deal(m, 3, seat_hands(LEFT4, 0))
    bids(m, "0:1", "1:pass", "2:pass", "3:pass")
    # seat 0: AD KD AC KC QC JC. Diamonds and clubs are held; no heart and no spade, but JC
    # would be the left bower of spades, so spades is allowed; hearts is not; NT always.
    assert turn(m) == (0, "trump", ("C", "D", "S", "NT"))
    with pytest.raises(IllegalMoveError):
        m.apply(0, "H")
    assert turn(m) == (0, "trump", ("C", "D", "S", "NT"))
    events = m.apply(0, "S")
    assert of_kind(events, "trump") == [("0", "S")]


def test_trump_must_be_held_without_left_bowers():
    m = new_match(4, first_dealer=3, trump_must_be_held=True, left_bower_is_trump=False)
    deal(m, 3, seat_hands(LEFT4, 0))
    bids(m, "0:1", "1:pass", "2:pass", "3:pass")
    # JC is only a club now: spades is not held
    assert turn(m) == (0, "trump", ("C", "D", "NT"))
    with pytest.raises(IllegalMoveError):
        m.apply(0, "S")
    m.apply(0, "NT")
    assert turn(m)[:2] == (0, "play")


def test_trump_must_be_held_with_a_hand_of_one_suit():
    m = new_match(4, first_dealer=0, trump_must_be_held=True)
    hands = [
        "9H TH JH QH KH AH",
        "9C TC JC QC KC AC",  # seat 1 (the dealer's left): clubs only, JC is the left bower of S
        "9D TD JD QD KD AD",
        "9S TS JS QS KS AS",
    ]
    deal(m, 0, hands)
    bids(m, "1:big")
    assert turn(m) == (1, "trump", ("C", "S", "NT"))
