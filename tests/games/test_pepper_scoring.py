"""Pepper: scoring a deal at 4, 3 and 2 players, over fully scripted deals.

Rules: ../shared/RULES.md 4.1 "Scoring per hand" (made: +1 per trick won; set: -6 with 4
players, -8 with 2-3, whatever the bid, Small Pepper included; Big Pepper made +12 / +16, set
-12 / -16; non-declarers always +1 per trick; negative totals allowed), R8 (made scores the
tricks, not the bid), R9 (3 players: each opponent scores its own tricks), R10 (failed Small
Pepper -6 / -8).

Trick counts by position, from pepper_deals.py:
  SPLIT4 (hearts)  p0 4, p1 2, p2 0, p3 0  -> declaring side 4, other side 2
  SPLIT4_NT        p0 2, p2 4              -> declaring side 6, other side 0
  SPLIT3 (spades)  p0 4, p1 2, p2 2
  SWEEP3 (spades)  p0 8
  SPLIT2 (hearts)  p0 4, p1 4
  SWEEP2 (hearts)  p0 8
Position 0 declares; ``at`` is its seat; the dealer is the seat before ``at`` (so the
declarer bids first) unless a test says otherwise.
"""

from __future__ import annotations

import pytest
from pepper_deals import (
    SPLIT2,
    SPLIT3,
    SPLIT4,
    SPLIT4_NT,
    SWEEP2,
    SWEEP3,
    deal_points,
    new_match,
    of_kind,
    play_deal,
)

from cardcli.games.base import DealScore


def score_one(layout, contract, at=0, dealer=None, trump=None, **options):
    n = layout.n
    dealer = (at - 1) % n if dealer is None else dealer
    m = new_match(n, first_dealer=dealer, **options)
    events = play_deal(m, layout, dealer, at, contract, trump)
    return m, events


CASES = [
    # -- four players: sides 0+2 and 1+3 --
    # SPLIT4, bid 1: 4 tricks >= 1, made: +4 for seats 0 and 2, +2 for 1 and 3
    (SPLIT4, "1", 0, "made", "4", (4, 2, 4, 2)),
    # bid 3: made, 4 tricks score 4, not the bid (R8)
    (SPLIT4, "3", 0, "made", "4", (4, 2, 4, 2)),
    # bid 4: made exactly
    (SPLIT4, "4", 0, "made", "4", (4, 2, 4, 2)),
    # bid 5: one short, set -6; the defenders keep +1 a trick
    (SPLIT4, "5", 0, "set", "4", (-6, 2, -6, 2)),
    # Small Pepper needs all 6: set, -6 like any bid (R10)
    (SPLIT4, "small", 0, "set", "4", (-6, 2, -6, 2)),
    # Big Pepper set: -12
    (SPLIT4, "big", 0, "set", "4", (-12, 2, -12, 2)),
    # the side of seats 1 and 3 declaring (position 0 at seat 1): bid 2 made, +4 / +2
    (SPLIT4, "2", 1, "made", "4", (2, 4, 2, 4)),
    (SPLIT4, "5", 3, "set", "4", (2, -6, 2, -6)),
    # SPLIT4_NT: the declaring side takes all 6 (seat 0 two, partner seat 2 four)
    (SPLIT4_NT, "2", 0, "made", "6", (6, 0, 6, 0)),
    (SPLIT4_NT, "small", 0, "made", "6", (6, 0, 6, 0)),
    (SPLIT4_NT, "big", 0, "made", "6", (12, 0, 12, 0)),
    (SPLIT4_NT, "big", 1, "made", "6", (0, 12, 0, 12)),
    # -- three players: each for himself --
    (SPLIT3, "4", 0, "made", "4", (4, 2, 2)),
    (SPLIT3, "5", 0, "set", "4", (-8, 2, 2)),
    (SPLIT3, "7", 0, "set", "4", (-8, 2, 2)),
    (SPLIT3, "small", 0, "set", "4", (-8, 2, 2)),
    (SPLIT3, "big", 0, "set", "4", (-16, 2, 2)),
    # position 0 at seat 1: seat 1 +4, seat 2 (p1) +2, seat 0 (p2) +2
    (SPLIT3, "3", 1, "made", "4", (2, 4, 2)),
    # position 0 at seat 2, set: seat 2 -8, seat 0 (p1) +2, seat 1 (p2) +2
    (SPLIT3, "6", 2, "set", "4", (2, 2, -8)),
    (SWEEP3, "7", 0, "made", "8", (8, 0, 0)),
    (SWEEP3, "small", 0, "made", "8", (8, 0, 0)),
    (SWEEP3, "big", 0, "made", "8", (16, 0, 0)),
    (SWEEP3, "big", 2, "made", "8", (0, 0, 16)),
    # -- two players --
    (SPLIT2, "4", 0, "made", "4", (4, 4)),
    (SPLIT2, "5", 0, "set", "4", (-8, 4)),
    (SPLIT2, "small", 0, "set", "4", (-8, 4)),
    (SPLIT2, "big", 0, "set", "4", (-16, 4)),
    (SPLIT2, "7", 1, "set", "4", (4, -8)),
    (SWEEP2, "1", 0, "made", "8", (8, 0)),
    (SWEEP2, "small", 0, "made", "8", (8, 0)),
    (SWEEP2, "big", 0, "made", "8", (16, 0)),
    (SWEEP2, "big", 1, "made", "8", (0, 16)),
]


@pytest.mark.parametrize("layout, contract, at, result, tricks, points", CASES)
def test_one_deal(layout, contract, at, result, tricks, points):
    m, events = score_one(layout, contract, at)
    assert of_kind(events, result) == [(str(at), contract, tricks)]
    assert of_kind(events, "set" if result == "made" else "made") == []
    assert deal_points(events) == points
    assert of_kind(events, "score") == [("1", *map(str, points))]
    assert of_kind(events, "totals") == [tuple(map(str, points))]
    assert m.deal_scores[0].number == 1
    assert (m.deal_scores[0].points, m.deal_scores[0].totals) == (points, points)
    assert m.seat_totals() == points
    assert not m.is_over() and m.needs_deal()


def test_partners_share_one_side_total():
    # SPLIT4_NT: seat 0 took 2 tricks and seat 2 took 4; their side has 6, listed for both
    m, events = score_one(SPLIT4_NT, "3")
    taken = [int(a[1]) for a in of_kind(events, "taken")]
    assert taken.count(0) == 2 and taken.count(2) == 4
    assert m.side_totals == [6, 0]
    assert m.seat_totals() == (6, 0, 6, 0)


def test_the_declarer_need_not_be_the_first_bidder():
    # dealer 3, seat 0 passes, seat 1 passes, seat 2 declares 3 with SPLIT4's position 0
    _, events = score_one(SPLIT4, "3", at=2, dealer=3)
    assert of_kind(events, "bid")[:2] == [("0", "pass"), ("1", "pass")]
    assert of_kind(events, "made") == [("2", "3", "4")]
    assert deal_points(events) == (4, 2, 4, 2)


def test_totals_add_up_and_may_go_negative():
    m = new_match(4, first_dealer=3)
    # deal 1, dealer 3: seat 0 declares Big Pepper on SPLIT4 and is set: -12 / +2
    e1 = play_deal(m, SPLIT4, 3, 0, "big")
    assert of_kind(e1, "totals") == [("-12", "2", "-12", "2")]
    # deal 2, dealer 0: seat 1 declares 3 on SPLIT4 and makes it: side 1+3 +4, side 0+2 +2
    e2 = play_deal(m, SPLIT4, 0, 1, "3")
    assert deal_points(e2) == (2, 4, 2, 4)
    assert of_kind(e2, "totals") == [("-10", "6", "-10", "6")]
    # deal 3, dealer 1: seat 2 declares 5 and is set: -6 / +2
    e3 = play_deal(m, SPLIT4, 1, 2, "5")
    assert deal_points(e3) == (-6, 2, -6, 2)
    assert m.side_totals == [-12 + 2 - 6, 2 + 4 + 2] == [-16, 8]
    assert m.deal_scores == (
        DealScore(1, (-12, 2, -12, 2), (-12, 2, -12, 2), m.deal_scores[0].notes),
        DealScore(2, (2, 4, 2, 4), (-10, 6, -10, 6), m.deal_scores[1].notes),
        DealScore(3, (-6, 2, -6, 2), (-16, 8, -16, 8), m.deal_scores[2].notes),
    )
    assert not m.is_over()


def test_three_players_totals_over_deals():
    m = new_match(3, first_dealer=2)
    play_deal(m, SPLIT3, 2, 0, "4")  # (4, 2, 2)
    play_deal(m, SPLIT3, 0, 1, "small")  # seat 1 set: -8; seat 2 (p1) 2, seat 0 (p2) 2
    play_deal(m, SWEEP3, 1, 2, "big")  # seat 2 +16
    assert [s.points for s in m.deal_scores] == [(4, 2, 2), (2, -8, 2), (0, 0, 16)]
    assert m.seat_totals() == (4 + 2 + 0, 2 - 8 + 0, 2 + 2 + 16) == (6, -6, 20)
    assert not m.is_over()


def test_two_players_totals_over_deals():
    m = new_match(2, first_dealer=1)
    play_deal(m, SPLIT2, 1, 0, "big")  # (-16, 4)
    play_deal(m, SWEEP2, 0, 1, "small")  # (0, 8)
    assert m.seat_totals() == (-16, 12)
    assert not m.is_over()
