"""Il Pigugnìn: the end of the match, driven by real scripted deals.

Rules: ../shared/RULES.md 3.1 "Match", G10-G14 and section 6 "Precisions" (order of the checks
after a deal: cappotto, everybody at lose_at, new losers, the end; boundary_tie; no possible
winner; winner_tie). Forfeits: docs/rules/pigugnin.md 2.7 (a referee rule).

Busche of the deals used (by position, worked out in pigugnin_deals.py): TOP (17, 2, 2, 2),
CAPPOTTO (1, 4, 4, 4), CAPPOTTO_BY_DEALER (4, 4, 4, 1), THREE_TIE (3, 2, 2, 3), HIGH_TIE
(3, 2, 0, 0), ONE_TRICKLESS (0, 1, 0, 2), TWO_TRICKLESS (0, 1, 3, 3), PAIRS (2, 1, 1, 1), SOLE
(4, 0, 1, 1); five players BASE5 (2, 2, 1, 0, 0), FOUR_TIE5 (4, 4, 4, 5, 0), FIVE_TIE5
(5, 5, 5, 5, 6), CAPPOTTO5 (1, 5, 5, 5, 5).

Seats: the first dealer is seat 1, so in the first deal p0 p1 p2 p3 are seats 0 3 2 1 (five
players: p0..p4 = seats 0 4 3 2 1). Later deals are dealt by the J♠ taker; each test spells
out the seats of its deals.
"""

from __future__ import annotations

import pytest

from cardcli.cards import french_40
from cardcli.errors import IllegalMoveError

from pigugnin_deals import (
    BASE5,
    CAPPOTTO,
    CAPPOTTO5,
    CAPPOTTO_BY_DEALER,
    FIVE_TIE5,
    FOUR_TIE5,
    HIGH_TIE,
    ONE_TRICKLESS,
    PAIRS,
    SOLE,
    THREE_TIE,
    TOP,
    TWO_TRICKLESS,
    Run,
    deal_busche,
    new_match,
    of_kind,
)


def assert_over(m, winners, losers, draws=()):
    assert m.is_over() and not m.needs_deal()
    assert m.decisions() == ()
    out = m.outcome()
    assert (out.winners, out.losers, out.draws) == (winners, losers, draws)
    assert not out.annulled
    assert out.scores == tuple(m.totals)
    assert out.lower_is_better and out.forfeits == ()
    for s in winners:
        assert out.standing(s) == "win"
    for s in losers:
        assert out.standing(s) == "lose"
    for s in draws:
        assert out.standing(s) == "draw"
    return out


def assert_annulled(m):
    assert m.is_over() and not m.needs_deal()
    out = m.outcome()
    assert out.annulled
    assert (out.winners, out.losers, out.draws) == ((), (), ())
    assert out.scores == tuple(m.totals)
    assert {out.standing(s) for s in range(m.num_players)} == {"annulled"}
    return out


def assert_not_over(m):
    assert not m.is_over() and m.needs_deal()
    with pytest.raises(IllegalMoveError):
        m.outcome()


# -- cappotto (G10) ---------------------------------------------------------------------------


def test_cappotto_wins_the_match_even_over_ten():
    m = new_match()  # lose_at 10, sole_loser_at 20
    run = Run(m)
    run.play(TOP)  # p0 = seat 0 takes all 35 points and J♠
    assert m.totals == [17, 2, 2, 2]
    # seat 0 is out (17 >= 10) but alone and under 20: the match goes on
    assert m.out == [0]
    assert_not_over(m)
    t = run.play(CAPPOTTO_BY_DEALER)  # dealer seat 0 = p3, leader seat 3: p0..p3 = 3 2 1 0
    assert t.order == [3, 2, 1, 0]
    assert of_kind(t.events, "cappotto") == [("0",)]
    # the three others took nothing: 4 each; seat 0 took J♠: 1
    assert deal_busche(t.events) == (1, 4, 4, 4)
    assert m.totals == [18, 6, 6, 6]
    assert m.deal_scores[-1].notes[0] == "cappotto 0"
    # seat 0, at 18 busche, is the only winner; everybody else loses
    assert_over(m, winners=(0,), losers=(1, 2, 3))
    with pytest.raises(IllegalMoveError):
        m.deal(french_40())


def test_cappotto_ends_match_false_and_the_sole_loser_at_twenty():
    m = new_match(cappotto_ends_match="false")
    run = Run(m)
    run.play(TOP)
    t = run.play(CAPPOTTO_BY_DEALER)
    assert of_kind(t.events, "cappotto") == [("0",)]
    assert m.totals == [18, 6, 6, 6]
    assert m.out == [0]  # 18: out, under 20, alone
    assert_not_over(m)
    t = run.play(THREE_TIE)  # dealer seat 0 again (it took J♠): p0..p3 = seats 3 2 1 0
    # (3, 2, 2, 3) by position: seat 3 +3, seat 2 +2, seat 1 +2, seat 0 +3
    assert deal_busche(t.events) == (3, 2, 2, 3)
    assert m.totals == [21, 8, 8, 9]
    # seat 0 reaches 21 >= 20 while nobody else is at 10: it loses alone; of the other three,
    # the two with the fewest busche (8, 8) win and the 9 draws
    assert_over(m, winners=(1, 2), losers=(0,), draws=(3,))


def test_cappotto_comes_before_the_annulment():
    # every seat reaches lose_at=1 in this deal, but the cappotto is checked first
    m = new_match(lose_at=1)
    Run(m).play(CAPPOTTO)
    assert m.totals == [1, 4, 4, 4]
    assert_over(m, winners=(0,), losers=(1, 2, 3))


def test_cappotto_with_five_players():
    m = new_match(5)
    Run(m).play(CAPPOTTO5)
    assert m.totals == [1, 5, 5, 5, 5]  # the four others took nothing: 5 each
    assert_over(m, winners=(0,), losers=(1, 2, 3, 4))


# -- losers (G11, G12) --------------------------------------------------------------------------


def test_two_reach_lose_at_in_one_deal():
    m = new_match(lose_at=2)
    Run(m).play(HIGH_TIE)  # p0 = seat 0: 3, p1 = seat 3: 2
    assert m.totals == [3, 0, 0, 2]
    assert m.out == [0, 3]  # the higher total goes out first
    # the other two are tied at 0: two non-losers both win
    assert_over(m, winners=(1, 2), losers=(0, 3))


def test_two_cross_in_one_deal_for_one_place_the_higher_loses():
    m = new_match(lose_at=2)
    run = Run(m)
    run.play(ONE_TRICKLESS)  # p3 = seat 1 trickless: 2; p1 = seat 3 took J♠: 1
    assert m.totals == [0, 2, 0, 1]
    assert m.out == [1]
    assert_not_over(m)
    t = run.play(TWO_TRICKLESS)  # dealer seat 3: p0..p3 = seats 2 1 0 3
    # p2 = seat 0 and p3 = seat 3 took no trick: 3 each; p1 = seat 1 took J♠
    assert deal_busche(t.events) == (3, 1, 0, 3)
    assert m.totals == [3, 3, 0, 4]
    # seats 0 (3) and 3 (4) both reach 2; one losing place is left: the higher total, seat 3
    assert m.out == [1, 3]
    # seat 0 is past lose_at without a losing place: with seat 2 it is one of the two others,
    # who both win
    assert_over(m, winners=(0, 2), losers=(1, 3))


@pytest.mark.parametrize("boundary_tie", ["shared_loss", "annul"])
def test_tie_for_the_second_losing_place(boundary_tie):
    m = new_match(lose_at=2, boundary_tie=boundary_tie)
    run = Run(m)
    run.play(ONE_TRICKLESS)
    assert m.totals == [0, 2, 0, 1] and m.out == [1]
    t = run.play(PAIRS)  # dealer seat 3: p0..p3 = seats 2 1 0 3; (2, 1, 1, 1) by position
    assert deal_busche(t.events) == (1, 1, 2, 1)
    assert m.totals == [1, 3, 2, 2]
    # seats 2 and 3 reach 2 together, tied for the one losing place left; seat 0 is at 1, so
    # not everybody is at lose_at
    if boundary_tie == "shared_loss":
        assert_over(m, winners=(0,), losers=(1, 2, 3))
    else:
        assert_annulled(m)


@pytest.mark.parametrize("boundary_tie", ["shared_loss", "annul"])
def test_three_cross_in_one_deal_tied_for_the_second_place(boundary_tie):
    m = new_match(lose_at=1, boundary_tie=boundary_tie)
    Run(m).play(SOLE)  # (4, 0, 1, 1) by position: seats 0:4, 3:0, 2:1, 1:1
    assert m.totals == [4, 1, 1, 0]
    # seat 0 (4) takes the first place; seats 1 and 2 (1 each) tie for the second
    if boundary_tie == "shared_loss":
        assert_over(m, winners=(3,), losers=(0, 1, 2))
    else:
        assert_annulled(m)


def test_three_cross_in_one_deal_only_the_two_highest_lose():
    m = new_match(5, lose_at=1)
    Run(m).play(BASE5)  # (2, 2, 1, 0, 0) by position; p0..p4 = seats 0 4 3 2 1
    assert m.totals == [2, 0, 0, 1, 2]
    # seats 0, 4 (2 each) and 3 (1) reach 1: the two 2s lose; seat 3 is past lose_at but has
    # no losing place, and draws behind the two 0s
    assert m.out == [0, 4]
    assert_over(m, winners=(1, 2), losers=(0, 4), draws=(3,))


# -- five players: two win, two lose, one draws -----------------------------------------------------


def test_five_players_two_win_two_lose_one_draws():
    m = new_match(5, lose_at=2)
    Run(m).play(BASE5)
    assert m.totals == [2, 0, 0, 1, 2]
    assert_over(m, winners=(1, 2), losers=(0, 4), draws=(3,))


@pytest.mark.parametrize(
    "winner_tie, winners, draws",
    [
        # sorted non-losers 0, 4, 4, 4: the 2nd and 3rd lowest tie at 4
        ("draw", (1,), (0, 3, 4)),
        ("shared_win", (0, 1, 3, 4), ()),
    ],
)
def test_five_players_sole_loser(winner_tie, winners, draws):
    m = new_match(5, lose_at=5, sole_loser_at=5, winner_tie=winner_tie)
    Run(m).play(FOUR_TIE5)  # (4, 4, 4, 5, 0) by position; p0..p4 = seats 0 4 3 2 1
    assert m.totals == [4, 0, 5, 4, 4]
    assert_over(m, winners=winners, losers=(2,), draws=draws)


# -- winners and draws (G13, G14) --------------------------------------------------------------


@pytest.mark.parametrize(
    "winner_tie, winners, draws",
    [("draw", (3,), (1, 2)), ("shared_win", (1, 2, 3), ())],
)
def test_winner_tie(winner_tie, winners, draws):
    m = new_match(lose_at=4, sole_loser_at=4, winner_tie=winner_tie)
    Run(m).play(SOLE)  # seats 0:4, 3:0, 2:1, 1:1
    assert m.totals == [4, 1, 1, 0]
    # seat 0 is the sole loser (4 >= sole_loser_at); the others: 0, 1, 1, a tie for the
    # second winning place
    assert_over(m, winners=winners, losers=(0,), draws=draws)


def test_no_possible_winner_annuls_the_match():
    m = new_match(sole_loser_at=17)
    Run(m).play(TOP)
    assert m.totals == [17, 2, 2, 2]
    # seat 0 loses alone (17 >= 10 and >= 17); the three others are all equal: nobody can
    # win under winner_tie=draw, the seed's «tutti si pareggia»
    assert_annulled(m)


def test_no_possible_winner_with_shared_win():
    m = new_match(sole_loser_at=17, winner_tie="shared_win")
    Run(m).play(TOP)
    assert_over(m, winners=(1, 2, 3), losers=(0,))


# -- annulment: everybody at lose_at -------------------------------------------------------------


def test_everybody_at_lose_at_annuls_the_match():
    m = new_match(lose_at=1)
    Run(m).play(PAIRS)
    assert m.totals == [2, 1, 1, 1]  # every seat pays in PAIRS: nobody loses, it is annulled
    assert m.out == []
    assert_annulled(m)


def test_everybody_at_lose_at_with_five_players():
    m = new_match(5, lose_at=5)
    Run(m).play(FIVE_TIE5)
    assert m.totals == [5, 6, 5, 5, 5]
    assert_annulled(m)


def test_one_below_lose_at_is_not_an_annulment():
    m = new_match(5, lose_at=6)
    Run(m).play(FIVE_TIE5)
    # only seat 1 (p4, J♠) reaches 6: out alone, under 20
    assert m.out == [1]
    assert_not_over(m)


# -- forfeits (docs/rules/pigugnin.md 2.7) ---------------------------------------------------------


@pytest.mark.parametrize("forfeit", [0, 3])
def test_a_losing_seat_forfeits(forfeit):
    m = new_match(lose_at=2)
    Run(m).play(HIGH_TIE)  # losers 0 and 3, winners 1 and 2
    out = m.outcome(frozenset({forfeit}))
    assert (out.winners, out.losers, out.draws, out.forfeits) == ((1, 2), (0, 3), (), (forfeit,))
    assert out.scores == (3, 0, 0, 2)
    assert not out.annulled


def test_a_winning_seat_forfeits():
    m = new_match(lose_at=2)
    Run(m).play(HIGH_TIE)
    out = m.outcome(frozenset({1}))
    # seat 1 loses whatever its busche (0) with the losers of the match; the winners are
    # recomputed among the others: only seat 2 is left
    assert (out.winners, out.losers, out.forfeits) == ((2,), (0, 1, 3), (1,))
    assert out.standing(1) == "lose"
    assert out.scores == (3, 0, 0, 2)
    # without forfeits nothing changed
    assert (m.outcome().winners, m.outcome().losers) == ((1, 2), (0, 3))


def test_a_cappotto_stands_when_another_seat_forfeits():
    m = new_match()
    Run(m).play(CAPPOTTO)
    out = m.outcome(frozenset({2}))
    assert (out.winners, out.losers, out.forfeits) == ((0,), (1, 2, 3), (2,))


def test_an_annulled_match_gets_a_result_with_a_forfeit():
    m = new_match(lose_at=1)
    Run(m).play(PAIRS)
    assert m.outcome().annulled
    out = m.outcome(frozenset({1}))
    # seat 1 is the only loser; the others 0:2, 2:1, 3:1 -> the two 1s win, the 2 draws
    assert not out.annulled
    assert (out.winners, out.losers, out.draws, out.forfeits) == ((2, 3), (1,), (0,), (1,))
