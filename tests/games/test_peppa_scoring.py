"""Peppa: the two penalty tables and the cappotto rules, over fully scripted deals.

Rules: ../shared/RULES.md 1.1 (tables, cappotto), P7, P8 and section 6 (Torino cappotto =
all 14 penalty cards whatever the tricks; Standard all_tricks = all 13 tricks).
Every expected number is worked out by hand in peppa_deals.py next to the deal, or below.
"""

from __future__ import annotations

import pytest

from cardcli.cards import french_52
from cardcli.games.base import DealScore
from cardcli.plugins.peppa.rules import CARD_VALUES

from peppa_deals import (
    ALL_SUITS,
    BASE,
    BASE_STANDARD,
    BASE_TORINO,
    BASE_TRICK_POINTS_STANDARD,
    BASE_TRICK_POINTS_TORINO,
    BASE_WINNERS,
    SWEEP,
    SWEEP_NO_QUEEN,
    SWEEP_TRICK_POINTS_STANDARD,
    SWEEP_TRICK_POINTS_TORINO,
    SWEEP_WINNERS,
    deal_points,
    new_match,
    of_kind,
    play_deal,
    seat_points,
    taken,
)


def test_the_tables_card_by_card():
    torino = {"QS": 13, "AH": 5, "KH": 4, "QH": 3, "JH": 2}
    torino.update({f"{r}H": 1 for r in "23456789T"})
    standard = {"QS": 60, "AH": 50, "KH": 40, "QH": 30, "JH": 20}
    standard.update({f"{r}H": 10 for r in "789T"})
    standard.update({f"{r}H": 5 for r in "23456"})
    for name, table in (("torino", torino), ("standard", standard)):
        assert {c.text: v for c, v in CARD_VALUES[name].items() if v} == table
        assert set(CARD_VALUES[name]) == set(french_52())
    assert sum(torino.values()) == 36  # 13+5+4+3+2+9*1
    assert sum(standard.values()) == 265  # 60+50+40+30+20+4*10+5*5


def test_torino_table_over_a_scripted_deal():
    m = new_match()  # Torino, pass right
    t = play_deal(m, BASE, "right")
    assert taken(t.events) == list(zip(BASE_WINNERS, BASE_TRICK_POINTS_TORINO))
    # p0 = seat 0: QS 13 + (9H 8H 7H 5H) 4 = 17; seat 1: AH 5 + KH 4 + 2H + 3H = 11;
    # seat 2: 6H = 1; seat 3: QH 3 + JH 2 + TH + 4H = 7.  Total 36.
    assert BASE_TORINO == (17, 11, 1, 7)
    assert deal_points(t.events) == (17, 11, 1, 7)
    assert of_kind(t.events, "totals") == [("17", "11", "1", "7")]
    assert m.deal_scores == (DealScore(1, (17, 11, 1, 7), (17, 11, 1, 7), ()),)
    assert of_kind(t.events, "cappotto") == []


def test_standard_table_over_a_scripted_deal():
    m = new_match("standard")  # hand 1 passes left
    t = play_deal(m, BASE, "left")
    assert taken(t.events) == list(zip(BASE_WINNERS, BASE_TRICK_POINTS_STANDARD))
    # seat 0: QS 60 + (9H 10, 8H 10, 7H 10, 5H 5) 35 = 95; seat 1: AH 50 + KH 40 + 2H 5 +
    # 3H 5 = 100; seat 2: 6H = 5; seat 3: QH 30 + JH 20 + TH 10 + 4H 5 = 65.  Total 265.
    assert deal_points(t.events) == BASE_STANDARD == (95, 100, 5, 65)
    assert tuple(m.totals) == (95, 100, 5, 65)


@pytest.mark.parametrize(
    "variant, per_trick",
    [(None, SWEEP_TRICK_POINTS_TORINO), ("standard", SWEEP_TRICK_POINTS_STANDARD)],
)
def test_each_penalty_card_in_its_own_trick(variant, per_trick):
    # SWEEP puts (almost) one penalty card in each trick, so every trick's points read the
    # table: see SWEEP_TRICK_POINTS_* in peppa_deals.py.
    m = new_match(variant)
    t = play_deal(m, SWEEP, "right" if variant is None else "left")
    assert taken(t.events) == list(zip(SWEEP_WINNERS, per_trick))
    assert sum(per_trick) == (36 if variant is None else 265)


def test_totals_add_up_over_deals():
    m = new_match(pass_cycle="hold")
    play_deal(m, BASE)  # dealer 1, leader 0: (17, 11, 1, 7)
    t = play_deal(m, BASE)  # dealer 2, leader 1: positions are seats 1, 2, 3, 0
    # seat 1 gets p0's 17, seat 2 p1's 11, seat 3 p2's 1, seat 0 p3's 7
    assert seat_points(BASE_TORINO, t) == (7, 17, 11, 1)
    assert deal_points(t.events) == (7, 17, 11, 1)
    assert tuple(m.totals) == (17 + 7, 11 + 17, 1 + 11, 7 + 1)
    assert [s.totals for s in m.deal_scores] == [(17, 11, 1, 7), (24, 28, 12, 8)]
    assert [s.number for s in m.deal_scores] == [1, 2]


# -- cappotto --------------------------------------------------------------------------------


def test_torino_cappotto_with_every_trick():
    m = new_match()
    t = play_deal(m, ALL_SUITS, "right")
    assert [w for w, _ in taken(t.events)] == [0] * 13
    # seat 0 took all 13 hearts and QS: 0 for it, 36 to each other seat
    assert deal_points(t.events) == (0, 36, 36, 36)
    assert of_kind(t.events, "cappotto") == [("0",)]
    assert m.deal_scores[0].notes == ("cappotto 0",)
    assert tuple(m.totals) == (0, 36, 36, 36)


def test_torino_cappotto_without_every_trick():
    # SWEEP: seat 0 takes every penalty card in 12 tricks, seat 1 takes the 13th (0 points).
    # Torino's cappotto counts cards, not tricks: still 0 / 36 / 36 / 36.
    m = new_match()
    t = play_deal(m, SWEEP, "right")
    assert [w for w, _ in taken(t.events)] == SWEEP_WINNERS
    assert deal_points(t.events) == (0, 36, 36, 36)
    assert of_kind(t.events, "cappotto") == [("0",)]


def test_torino_all_hearts_without_the_queen_is_no_cappotto():
    # SWEEP_NO_QUEEN: seat 0 takes the 13 hearts (5+4+3+2+9 = 23), seat 1 takes QS (13)
    m = new_match()
    t = play_deal(m, SWEEP_NO_QUEEN, "right")
    assert deal_points(t.events) == (23, 13, 0, 0)
    assert of_kind(t.events, "cappotto") == []


def test_torino_cappotto_of_another_seat():
    # second deal: dealer 2, leader 1, so ALL_SUITS' p0 (the sweeper) is seat 1
    m = new_match(pass_cycle="hold")
    play_deal(m, BASE)  # (17, 11, 1, 7)
    t = play_deal(m, ALL_SUITS)
    assert deal_points(t.events) == (36, 0, 36, 36)
    assert of_kind(t.events, "cappotto") == [("1",)]
    assert tuple(m.totals) == (17 + 36, 11, 1 + 36, 7 + 36)


def test_torino_cappotto_ccw():
    # ccw, dealer 1: leader 0, then 3, 2, 1; ALL_SUITS p0 = seat 0 still sweeps
    m = new_match(play_direction="ccw")
    t = play_deal(m, ALL_SUITS, "right")
    assert deal_points(t.events) == (0, 36, 36, 36)


def test_standard_cappotto_all_tricks():
    m = new_match("standard")
    t = play_deal(m, ALL_SUITS, "left")
    # seat 0 won all 13 tricks: 0 for it, 265 to each other seat
    assert deal_points(t.events) == (0, 265, 265, 265)
    assert of_kind(t.events, "cappotto") == [("0",)]
    assert m.deal_scores[0] == DealScore(1, (0, 265, 265, 265), (0, 265, 265, 265), ("cappotto 0",))


def test_standard_all_penalty_cards_but_not_all_tricks_is_no_cappotto():
    # SWEEP: seat 0 takes all 14 penalty cards but seat 1 wins trick 13: under the default
    # all_tricks rule there is no cappotto, and seat 0 simply scores the whole 265.
    m = new_match("standard")
    t = play_deal(m, SWEEP, "left")
    assert deal_points(t.events) == (265, 0, 0, 0)
    assert of_kind(t.events, "cappotto") == []
    assert m.deal_scores[0].notes == ()


def test_standard_with_cappotto_all_penalty_cards():
    m = new_match("standard", cappotto="all_penalty_cards")
    t = play_deal(m, SWEEP, "left")
    assert deal_points(t.events) == (0, 265, 265, 265)
    assert of_kind(t.events, "cappotto") == [("0",)]
    # the second deal (pass right): all 13 tricks also means all penalty cards
    t = play_deal(m, ALL_SUITS, "right")  # dealer 2, leader 1: the sweeper is seat 1
    assert deal_points(t.events) == (265, 0, 265, 265)
    assert tuple(m.totals) == (265, 265, 530, 530)


def test_standard_all_hearts_without_the_queen():
    # seat 0: all hearts 50+40+30+20+4*10+5*5 = 205; seat 1: QS 60
    m = new_match("standard", cappotto="all_penalty_cards")
    t = play_deal(m, SWEEP_NO_QUEEN, "left")
    assert deal_points(t.events) == (205, 60, 0, 0)
    assert of_kind(t.events, "cappotto") == []


def test_torino_with_cappotto_all_tricks():
    m = new_match(cappotto="all_tricks", pass_cycle="hold")
    t = play_deal(m, SWEEP)  # 12 tricks only: no cappotto, seat 0 scores 36
    assert deal_points(t.events) == (36, 0, 0, 0)
    t = play_deal(m, ALL_SUITS)  # dealer 2, leader 1: seat 1 wins all 13 tricks
    assert deal_points(t.events) == (36, 0, 36, 36)
    assert of_kind(t.events, "cappotto") == [("1",)]


# -- the international table (outside the seeds) ---------------------------------------------


def test_the_international_table_counts_each_heart_one_and_the_queen_thirteen():
    table = {c.text: v for c, v in CARD_VALUES["international"].items() if v}
    assert table == {"QS": 13, **{f"{r}H": 1 for r in "23456789TJQKA"}}
    m = new_match(card_values="international")
    t = play_deal(m, BASE, "right")
    # seat 0: QS 13 + 9H 8H 7H 5H = 17; seat 1: AH KH 2H 3H = 4; seat 2: 6H = 1;
    # seat 3: QH JH TH 4H = 4.  Total 26.
    assert deal_points(t.events) == (17, 4, 1, 4)


def test_shooting_the_moon_under_the_international_table_gives_the_others_26():
    m = new_match(card_values="international")
    t = play_deal(m, ALL_SUITS, "right")
    assert deal_points(t.events) == (0, 26, 26, 26)
    assert of_kind(t.events, "cappotto") == [("0",)]
    m = new_match(card_values="international")
    t = play_deal(m, SWEEP_NO_QUEEN, "right")  # every heart without the queen: no moon
    assert deal_points(t.events) == (13, 13, 0, 0)
