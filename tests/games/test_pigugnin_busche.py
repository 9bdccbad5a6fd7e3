"""Il Pigugnìn: points and busche of one deal, over fully scripted deals.

Rules: ../shared/RULES.md 3.1 (points, the busche table, highest pays 1, Pigugnìn, equal
scores, players without tricks), G4-G9, and section 6 "Precisions" (busca reasons and their
order, tie_scope). Every trick's points and winner are written by hand in pigugnin_deals.py and
checked against the engine's ``taken`` events while the deal is played.

Seats: with four players and first_dealer=1 the dealer is seat 1 and play goes
counter-clockwise, so positions p0 p1 p2 p3 are seats 0 3 2 1 and a vector by position
(a, b, c, d) is (a, d, c, b) by seat. With five players and first_dealer=1, p0..p4 are seats
0 4 3 2 1.
"""

from __future__ import annotations

import pytest

from cardcli.cards import french_40
from cardcli.games.base import DealScore
from cardcli.plugins.pigugnin.rules import card_points, threshold_busche

from pigugnin_deals import (
    BASE5,
    BASE5_BUSCHE,
    BASE5_POINTS,
    CAPPOTTO,
    CAPPOTTO5,
    FIFTEEN,
    FIFTEEN_BUSCHE,
    FIFTEEN_POINTS,
    FIVE_TIE5,
    FIVE_TIE5_BUSCHE,
    FOUR_TIE5,
    FOUR_TIE5_BUSCHE,
    FOUR_TIE5_POINTS,
    HIGH,
    HIGH_BUSCHE,
    HIGH_POINTS,
    HIGH_TIE,
    HIGH_TIE_BUSCHE,
    HIGH_TIE_POINTS,
    ONE_TRICKLESS,
    ONE_TRICKLESS_BUSCHE,
    PAIRS,
    PAIRS_BUSCHE,
    PAIRS_BUSCHE_PAYING,
    PAIRS_POINTS,
    THREE_TIE,
    THREE_TIE_BUSCHE,
    THREE_TIE_BUSCHE_PAYING,
    THREE_TIE_POINTS,
    THREE_TRICKLESS5,
    THREE_TRICKLESS5_BUSCHE,
    TOP,
    TOP_BUSCHE,
    TOP_POINTS,
    TWELVE,
    TWELVE_BUSCHE,
    TWELVE_POINTS,
    TWENTY_FIVE,
    TWENTY_FIVE_BUSCHE,
    TWENTY_FIVE_POINTS,
    TWENTY_FOUR,
    TWENTY_FOUR_BUSCHE,
    TWENTY_FOUR_POINTS,
    TWO_TRICKLESS,
    TWO_TRICKLESS_BUSCHE,
    ZERO_TIE,
    ZERO_TIE_BUSCHE,
    ZERO_TIE_BUSCHE_NONZERO,
    ZERO_TIE_POINTS,
    Run,
    buscas,
    deal_busche,
    deal_points,
    new_match,
    of_kind,
)


def play(layout, num_players=4, **options):
    """A fresh match (lose_at high enough that one deal never ends it) and one played deal."""
    options.setdefault("lose_at", 99)
    options.setdefault("sole_loser_at", 99)
    m = new_match(num_players, **options)
    return m, Run(m).play(layout)


# -- the tables -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "points, busche",
    [
        (0, 0),
        (11, 0),  # 11/12: below the table
        (12, 1),
        (14, 1),  # 14/15
        (15, 2),
        (17, 2),
        (18, 3),
        (20, 3),
        (21, 4),
        (23, 4),  # 23/24: the step of 3 ends at 23
        (24, 5),  # 24 pays 5, not 4 (G5)
        (25, 6),  # then one more a point
        (26, 7),
        (27, 8),
        (35, 16),  # 35 - 19
    ],
)
def test_threshold_busche(points, busche):
    assert threshold_busche(points) == busche


def test_card_points_make_35_with_the_last_trick():
    values = {c.text: card_points(c) for c in french_40()}
    assert {t: v for t, v in values.items() if v == 3} == {"AC": 3, "AD": 3, "AH": 3, "AS": 3}
    assert sorted(t for t, v in values.items() if v == 1) == sorted(
        f"{r}{s}" for s in "CDHS" for r in "23JQK"
    )
    # 4 aces * 3 + 20 cards * 1 = 32, and 3 for the last trick
    assert sum(values.values()) == 32


# -- thresholds, through real deals --------------------------------------------------------------


def test_twelve_pays_one_and_eleven_nothing():
    m, t = play(TWELVE)
    # by position (12, 11, 8, 4); by seat p0=0, p3=1, p2=2, p1=3
    assert t.by_seat(TWELVE_POINTS) == (12, 4, 8, 11)
    assert deal_points(t.events) == (12, 4, 8, 11)
    # 12 -> 1 (threshold), 11 -> 0; somebody reached 12 so nobody pays for being highest;
    # J♠ went to p1 (seat 3) in trick 8
    assert buscas(t.events) == [(0, "threshold", 1), (3, "pigugnin", 1)]
    assert deal_busche(t.events) == t.by_seat(TWELVE_BUSCHE) == (1, 0, 0, 1)
    points, charges = m.deal_busche()
    assert points == [12, 4, 8, 11]
    assert charges == {0: [("threshold", 1)], 1: [], 2: [], 3: [("pigugnin", 1)]}
    assert m.deal_scores == (DealScore(1, (1, 0, 0, 1), (1, 0, 0, 1), ("0: threshold 1", "3: pigugnin 1")),)
    assert m.totals == [1, 0, 0, 1]


def test_fifteen_pays_two_and_fourteen_one():
    m, t = play(FIFTEEN)
    assert deal_points(t.events) == t.by_seat(FIFTEEN_POINTS) == (15, 0, 6, 14)
    # seat 0 (p0): 15 -> 2; seat 3 (p1): 14 -> 1, and J♠, thrown on its trick 9, 1 more.
    # Seat 1 (p3) has 0 points with one trick: alone at 0, no tie.
    assert buscas(t.events) == [(0, "threshold", 2), (3, "threshold", 1), (3, "pigugnin", 1)]
    assert deal_busche(t.events) == t.by_seat(FIFTEEN_BUSCHE) == (2, 0, 0, 2)


@pytest.mark.parametrize(
    "layout, points, busche, threshold",
    [
        # seats: p0 = 0, p3 = 1, p2 = 2, p1 = 3
        (TWENTY_FOUR, TWENTY_FOUR_POINTS, TWENTY_FOUR_BUSCHE, 5),
        (TWENTY_FIVE, TWENTY_FIVE_POINTS, TWENTY_FIVE_BUSCHE, 6),
    ],
)
def test_twenty_four_pays_five_and_twenty_five_six(layout, points, busche, threshold):
    m, t = play(layout)
    assert deal_points(t.events) == t.by_seat(points)
    assert deal_points(t.events)[0] == points[0]
    # seat 0 pays its threshold and J♠ (thrown by p3 on p0's trick 9); nobody else pays
    assert buscas(t.events) == [(0, "threshold", threshold), (0, "pigugnin", 1)]
    assert deal_busche(t.events) == t.by_seat(busche) == (threshold + 1, 0, 0, 0)


def test_thirty_five_points():
    m, t = play(TOP)
    assert deal_points(t.events) == t.by_seat(TOP_POINTS) == (35, 0, 0, 0)
    # 35 - 19 = 16, J♠ 1; three players equal at 0 (each took a trick worth nothing): 2 each
    assert buscas(t.events) == [
        (0, "threshold", 16),
        (0, "pigugnin", 1),
        (1, "tie", 2),
        (2, "tie", 2),
        (3, "tie", 2),
    ]
    assert deal_busche(t.events) == t.by_seat(TOP_BUSCHE) == (17, 2, 2, 2)


# -- nobody at 12 ------------------------------------------------------------------------------


def test_nobody_at_twelve_the_highest_pays_one():
    m, t = play(HIGH)
    assert deal_points(t.events) == t.by_seat(HIGH_POINTS) == (11, 6, 8, 10)
    # highest 11 is seat 0 (p0); J♠ went to p2 = seat 2
    assert buscas(t.events) == [(0, "highest", 1), (2, "pigugnin", 1)]
    assert deal_busche(t.events) == t.by_seat(HIGH_BUSCHE) == (1, 0, 1, 0)


def test_nobody_at_twelve_tie_for_the_highest():
    m, t = play(HIGH_TIE)
    assert deal_points(t.events) == t.by_seat(HIGH_TIE_POINTS) == (11, 4, 9, 11)
    # seats 0 and 3 share the highest, 11: each pays 1 for it (G6) and 1 for the tie of two
    # (G7); seat 0 (p0) also took J♠. Reasons in the order of RULES.md section 6.
    assert buscas(t.events) == [
        (0, "highest", 1),
        (0, "tie", 1),
        (0, "pigugnin", 1),
        (3, "highest", 1),
        (3, "tie", 1),
    ]
    assert deal_busche(t.events) == t.by_seat(HIGH_TIE_BUSCHE) == (3, 0, 0, 2)
    assert m.deal_scores[0].notes == ("0: highest 1, tie 1, pigugnin 1", "3: highest 1, tie 1")


# -- equal scores --------------------------------------------------------------------------------


def test_two_equal_scores_at_twelve():
    m, t = play(BASE5, 5)
    # five players: p0..p4 = seats 0 4 3 2 1
    assert deal_points(t.events) == t.by_seat(BASE5_POINTS) == (12, 2, 3, 6, 12)
    # both 12s pay 1 and 1 more for being equal; J♠ went to p2 = seat 3
    assert buscas(t.events) == [
        (0, "threshold", 1),
        (0, "tie", 1),
        (3, "pigugnin", 1),
        (4, "threshold", 1),
        (4, "tie", 1),
    ]
    assert deal_busche(t.events) == t.by_seat(BASE5_BUSCHE) == (2, 0, 0, 1, 2)


def test_three_equal_scores():
    m, t = play(THREE_TIE)
    assert deal_points(t.events) == t.by_seat(THREE_TIE_POINTS) == (20, 5, 5, 5)
    # 20 pays 3; the three 5s pay 2 each; J♠ went to p3 = seat 1
    assert buscas(t.events) == [
        (0, "threshold", 3),
        (1, "tie", 2),
        (1, "pigugnin", 1),
        (2, "tie", 2),
        (3, "tie", 2),
    ]
    assert deal_busche(t.events) == t.by_seat(THREE_TIE_BUSCHE) == (3, 3, 2, 2)


def test_four_equal_scores_with_five_players():
    m, t = play(FOUR_TIE5, 5)
    assert deal_points(t.events) == t.by_seat(FOUR_TIE5_POINTS) == (8, 3, 8, 8, 8)
    # nobody at 12: the four 8s share the highest (1 each) and tie four ways (3 each);
    # p3 = seat 2 took J♠; the 3 (seat 1) pays nothing
    assert deal_busche(t.events) == t.by_seat(FOUR_TIE5_BUSCHE) == (4, 0, 5, 4, 4)
    assert [b for b in buscas(t.events) if b[0] == 2] == [(2, "highest", 1), (2, "tie", 3), (2, "pigugnin", 1)]


def test_five_equal_scores():
    m, t = play(FIVE_TIE5, 5)
    assert deal_points(t.events) == (7, 7, 7, 7, 7)
    # everybody highest (1) and a tie of five (4); p4 = seat 1 took J♠
    assert deal_busche(t.events) == t.by_seat(FIVE_TIE5_BUSCHE) == (5, 6, 5, 5, 5)


# -- tie_scope ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "layout, scope, busche",
    [
        # THREE_TIE (20, 5, 5, 5): the 5s are a nonzero group that pays nothing else
        (THREE_TIE, "all", THREE_TIE_BUSCHE),
        (THREE_TIE, "nonzero", THREE_TIE_BUSCHE),
        (THREE_TIE, "paying_only", THREE_TIE_BUSCHE_PAYING),
        (THREE_TIE, "highest_only", THREE_TIE_BUSCHE_PAYING),
        # ZERO_TIE (20, 15, 0, 0): a group at 0
        (ZERO_TIE, "all", ZERO_TIE_BUSCHE),
        (ZERO_TIE, "nonzero", ZERO_TIE_BUSCHE_NONZERO),
        (ZERO_TIE, "paying_only", ZERO_TIE_BUSCHE_NONZERO),
        (ZERO_TIE, "highest_only", ZERO_TIE_BUSCHE_NONZERO),
        # PAIRS (13, 12, 5, 5): 13 and 12 pay but are not equal; the 5s pay only for the tie
        (PAIRS, "all", PAIRS_BUSCHE),
        (PAIRS, "nonzero", PAIRS_BUSCHE),
        (PAIRS, "paying_only", PAIRS_BUSCHE_PAYING),
        (PAIRS, "highest_only", PAIRS_BUSCHE_PAYING),
        # HIGH_TIE (11, 11, 9, 4): the tied pair pays "highest", so it is a paying group and
        # the top group: every scope charges it
        (HIGH_TIE, "all", HIGH_TIE_BUSCHE),
        (HIGH_TIE, "nonzero", HIGH_TIE_BUSCHE),
        (HIGH_TIE, "paying_only", HIGH_TIE_BUSCHE),
        (HIGH_TIE, "highest_only", HIGH_TIE_BUSCHE),
    ],
)
def test_tie_scope(layout, scope, busche):
    m, t = play(layout, tie_scope=scope)
    assert deal_busche(t.events) == t.by_seat(busche)


def test_tie_scope_paying_only_ignores_the_pigugnin_busca():
    # THREE_TIE: seat 1 (p3) scores 5 like seats 2 and 3 and took J♠. Paying the J♠ busca does
    # not make it a "paying" player (RULES.md section 6), so the 5s are still not charged.
    m, t = play(THREE_TIE, tie_scope="paying_only")
    assert buscas(t.events) == [(0, "threshold", 3), (1, "pigugnin", 1)]


def test_zero_tie_by_seat():
    m, t = play(ZERO_TIE)
    assert deal_points(t.events) == t.by_seat(ZERO_TIE_POINTS) == (20, 0, 0, 15)
    # seats 1 and 2 (p3, p2) at 0 with a trick each: 1 each; J♠ p1 = seat 3
    assert deal_busche(t.events) == (3, 1, 1, 3)


def test_pairs_by_seat():
    m, t = play(PAIRS)
    assert deal_points(t.events) == t.by_seat(PAIRS_POINTS) == (13, 5, 5, 12)
    assert buscas(t.events) == [
        (0, "threshold", 1),
        (0, "pigugnin", 1),
        (1, "tie", 1),
        (2, "tie", 1),
        (3, "threshold", 1),
    ]


# -- players without tricks (G9) -----------------------------------------------------------------


def test_one_player_without_tricks():
    m, t = play(ONE_TRICKLESS)
    # p3 = seat 1 took nothing. No points are counted, although p1 (seat 3) took 15 and p0
    # (seat 0) 12: only the trickless player pays, 2; the J♠ taker (p1, seat 3) still pays 1.
    assert of_kind(t.events, "points") == []
    assert of_kind(t.events, "notricks") == [("1",)]
    assert buscas(t.events) == [(1, "no_trick", 2), (3, "pigugnin", 1)]
    assert deal_busche(t.events) == t.by_seat(ONE_TRICKLESS_BUSCHE) == (0, 2, 0, 1)
    points, charges = m.deal_busche()
    assert points is None
    assert charges == {0: [], 1: [("no_trick", 2)], 2: [], 3: [("pigugnin", 1)]}


def test_two_players_without_tricks():
    m, t = play(TWO_TRICKLESS)
    # p2 and p3 (seats 2 and 1) took nothing: 3 each; p1 (seat 3) took 15+ points and J♠: 1
    assert of_kind(t.events, "notricks") == [("1", "2")]
    assert buscas(t.events) == [(1, "no_trick", 3), (2, "no_trick", 3), (3, "pigugnin", 1)]
    assert deal_busche(t.events) == t.by_seat(TWO_TRICKLESS_BUSCHE) == (0, 3, 3, 1)


def test_three_players_without_tricks_is_a_cappotto():
    m, t = play(CAPPOTTO, cappotto_ends_match="false")
    assert of_kind(t.events, "notricks") == [("1", "2", "3")]
    assert of_kind(t.events, "cappotto") == [("0",)]
    assert deal_busche(t.events) == (1, 4, 4, 4)


def test_three_of_five_without_tricks():
    m, t = play(THREE_TRICKLESS5, 5)
    # p2 p3 p4 = seats 3 2 1: 4 each; p1 = seat 4 took J♠
    assert of_kind(t.events, "notricks") == [("1", "2", "3")]
    assert deal_busche(t.events) == t.by_seat(THREE_TRICKLESS5_BUSCHE) == (0, 4, 4, 4, 1)


def test_four_of_five_without_tricks():
    m, t = play(CAPPOTTO5, 5, cappotto_ends_match="false")
    assert of_kind(t.events, "notricks") == [("1", "2", "3", "4")]
    assert deal_busche(t.events) == (1, 5, 5, 5, 5)


# -- the Pigugnìn deals next ----------------------------------------------------------------------


def test_the_pigugnin_taker_deals_next_and_busche_add_up():
    m = new_match()
    run = Run(m)
    t1 = run.play(TWELVE)  # dealer 1; J♠ to p1 = seat 3
    assert of_kind(t1.events, "deal") == [("1", "1")]
    assert of_kind(t1.events, "trick")[0] == ("1", "0")
    assert m.totals == [1, 0, 0, 1]
    assert m.next_dealer == 3
    t2 = run.play(HIGH)  # dealer seat 3, leader seat 2: p0..p3 = seats 2 1 0 3
    assert t2.order == [2, 1, 0, 3]
    assert of_kind(t2.events, "deal") == [("2", "3")]
    assert of_kind(t2.events, "trick")[0] == ("1", "2")
    # HIGH by position (11, 10, 8, 6) -> seats 0:8, 1:10, 2:11, 3:6; busche (1, 0, 1, 0) by
    # position: p0 = seat 2 highest, p2 = seat 0 took J♠
    assert deal_points(t2.events) == (8, 10, 11, 6)
    assert deal_busche(t2.events) == (1, 0, 1, 0)
    assert m.totals == [2, 0, 1, 1]
    assert of_kind(t2.events, "totals") == [("2", "0", "1", "1")]
    assert [s.totals for s in m.deal_scores] == [(1, 0, 0, 1), (2, 0, 1, 1)]
    t3 = run.play(TWELVE)  # dealer seat 0 (took J♠), leader seat 3
    assert of_kind(t3.events, "deal") == [("3", "0")]
    assert t3.order == [3, 2, 1, 0]
    # TWELVE (1, 1, 0, 0) by position: p0 = seat 3, p1 = seat 2
    assert m.totals == [2, 0, 2, 2]
    assert not m.is_over() and m.needs_deal()
