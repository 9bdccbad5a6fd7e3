"""Peppa: the end of the match, driven by real scripted deals.

Rules: ../shared/RULES.md 1.1 "End of game", P9 (strictly exceeds; end_inclusive), P10 (two
highest lose, two lowest win, even over the limit), P11 and section 6 (boundary ties:
play_on / shared_loss / shared_win), and forfeits ranking last.

Deal results used below (by play position, p0 = the dealer's right; worked out in
peppa_deals.py): BASE Torino (17, 11, 1, 7), Standard (95, 100, 5, 65); TIE Torino
(13, 11, 1, 11), Standard (60, 100, 5, 100); ALL_SUITS is a cappotto by p0: Torino
(0, 36, 36, 36), Standard (0, 265, 265, 265). With first_dealer=1 and the default rotation
(dealer+1 each deal), the leader (p0) of deal n is seat n-1 mod 4.
"""

from __future__ import annotations

import pytest

from cardcli.cards import french_52
from cardcli.errors import IllegalMoveError

from peppa_deals import ALL_SUITS, BASE, TIE, deal, deal_points, new_match, play_deal


def assert_over(m, winners, losers):
    assert m.is_over() and not m.needs_deal()
    assert m.decisions() == ()
    out = m.outcome()
    assert (out.winners, out.losers) == (winners, losers)
    assert out.scores == tuple(m.totals)
    assert out.lower_is_better
    assert out.forfeits == () and out.draws == ()
    return out


def assert_not_over(m):
    assert not m.is_over() and m.needs_deal()
    with pytest.raises(IllegalMoveError):
        m.outcome()


def test_torino_default_threshold_is_strict():
    m = new_match()  # Torino defaults: pass right, end when a total exceeds 100
    play_deal(m, ALL_SUITS, "right")  # leader 0 cappotto: (0, 36, 36, 36)
    play_deal(m, ALL_SUITS, "right")  # leader 1 cappotto: +(36, 0, 36, 36) = (36, 36, 72, 72)
    t = play_deal(m, BASE, "right")  # leader 2: seat2 17, seat3 11, seat0 1, seat1 7
    assert deal_points(t.events) == (1, 7, 17, 11)
    assert tuple(m.totals) == (37, 43, 89, 83)
    assert_not_over(m)
    t = play_deal(m, BASE, "right")  # leader 3: seat3 17, seat0 11, seat1 1, seat2 7
    assert deal_points(t.events) == (11, 1, 7, 17)
    # seat 3 is at exactly 100: that does not exceed 100, the match goes on
    assert tuple(m.totals) == (48, 44, 96, 100)
    assert_not_over(m)
    t = play_deal(m, BASE, "right")  # leader 0: (17, 11, 1, 7)
    assert tuple(m.totals) == (65, 55, 97, 107)
    # 107 > 100: seat 3 loses, and so does the next highest, seat 2, although under 100;
    # the two lowest (65, 55) win
    assert_over(m, winners=(0, 1), losers=(2, 3))
    with pytest.raises(IllegalMoveError):
        m.deal(french_52())  # no deal after the end


def test_torino_end_inclusive_stops_at_exactly_100():
    m = new_match(end_inclusive=True)
    for layout in (ALL_SUITS, ALL_SUITS, BASE):
        play_deal(m, layout, "right")
        assert_not_over(m)
    play_deal(m, BASE, "right")
    assert tuple(m.totals) == (48, 44, 96, 100)  # same deals as above: 100 reaches 100
    assert_over(m, winners=(0, 1), losers=(2, 3))


@pytest.mark.parametrize(
    "given, over",
    [
        ({"end_threshold": "16"}, True),  # 17 > 16
        ({"end_threshold": "17"}, False),  # 17 does not exceed 17
        ({"end_threshold": "17", "end_inclusive": "true"}, True),  # 17 reaches 17
        ({"end_threshold": "18", "end_inclusive": "true"}, False),
    ],
)
def test_end_threshold_option(given, over):
    m = new_match(**given)
    play_deal(m, BASE, "right")
    assert tuple(m.totals) == (17, 11, 1, 7)
    if over:
        # two highest (17, 11) lose, two lowest (1, 7) win
        assert_over(m, winners=(2, 3), losers=(0, 1))
    else:
        assert_not_over(m)


def test_a_seat_over_the_limit_can_still_win():
    m = new_match(end_threshold="5")
    play_deal(m, BASE, "right")
    # 17, 11 and 7 all exceed 5; only the two highest lose, seat 3 (7) wins with seat 2 (1)
    assert_over(m, winners=(2, 3), losers=(0, 1))


def test_standard_ends_over_1000():
    m = new_match("standard")  # passes left, right, across, left, right...
    play_deal(m, ALL_SUITS, "left")  # leader 0 cappotto: (0, 265, 265, 265)
    play_deal(m, ALL_SUITS, "right")  # leader 1: (265, 265, 530, 530)
    play_deal(m, ALL_SUITS, "across")  # leader 2: (530, 530, 530, 795)
    assert tuple(m.totals) == (530, 530, 530, 795)
    t = play_deal(m, BASE, "left")  # leader 3: seat3 95, seat0 100, seat1 5, seat2 65
    assert deal_points(t.events) == (100, 5, 65, 95)
    assert tuple(m.totals) == (630, 535, 595, 890)
    assert_not_over(m)
    play_deal(m, ALL_SUITS, "right")  # leader 0 cappotto: others +265
    assert tuple(m.totals) == (630, 800, 860, 1155)
    # 1155 > 1000: seats 3 (1155) and 2 (860) lose; 630 and 800 win
    assert_over(m, winners=(0, 1), losers=(2, 3))


def test_standard_exactly_the_threshold():
    # end_threshold 265 and one cappotto: (0, 265, 265, 265); nothing exceeds 265
    m = new_match("standard", end_threshold="265")
    play_deal(m, ALL_SUITS, "left")
    assert_not_over(m)
    # inclusive: the end is triggered, but 2nd and 3rd highest tie (265 = 265): play on
    m = new_match("standard", end_threshold="265", end_inclusive="true")
    play_deal(m, ALL_SUITS, "left")
    assert tuple(m.totals) == (0, 265, 265, 265)
    assert_not_over(m)
    # shared_loss: every seat at or above the 2nd highest (265) loses
    m = new_match("standard", end_threshold="265", end_inclusive="true",
                  boundary_tie="shared_loss")
    play_deal(m, ALL_SUITS, "left")
    assert_over(m, winners=(0,), losers=(1, 2, 3))


def test_tie_for_the_highest_is_not_a_boundary_tie():
    # Standard TIE: (60, 100, 5, 100); threshold 99. Ranked 100, 100, 60, 5: 2nd (100) and
    # 3rd (60) differ, so the two 100s lose and 60 and 5 win.
    m = new_match("standard", end_threshold="99")
    t = play_deal(m, TIE, "left")
    assert deal_points(t.events) == (60, 100, 5, 100)
    assert_over(m, winners=(0, 2), losers=(1, 3))


# -- boundary ties: Torino TIE gives (13, 11, 1, 11); with threshold 12, 13 > 12 ends the
#    match while the 2nd and 3rd highest are both 11.


def test_boundary_tie_play_on():
    m = new_match(end_threshold="12")
    t = play_deal(m, TIE, "right")
    assert deal_points(t.events) == (13, 11, 1, 11)
    assert_not_over(m)  # play_on: deal again
    t = play_deal(m, BASE, "right")  # leader 1: seat1 17, seat2 11, seat3 1, seat0 7
    assert deal_points(t.events) == (7, 17, 11, 1)
    # (20, 28, 12, 12): 2nd (20) and 3rd (12) differ now: seats 1 and 0 lose
    assert tuple(m.totals) == (20, 28, 12, 12)
    assert_over(m, winners=(2, 3), losers=(0, 1))


def test_boundary_tie_shared_loss():
    m = new_match(end_threshold="12", boundary_tie="shared_loss")
    play_deal(m, TIE, "right")
    # every seat at or above the 2nd highest (11) loses: 13, 11, 11; only seat 2 (1) wins
    assert_over(m, winners=(2,), losers=(0, 1, 3))


def test_boundary_tie_shared_win():
    m = new_match(end_threshold="12", boundary_tie="shared_win")
    play_deal(m, TIE, "right")
    # every seat at or below the 3rd highest (11) wins: 11, 1, 11; only seat 0 (13) loses
    assert_over(m, winners=(1, 2, 3), losers=(0,))


# -- forfeits ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "forfeits, winners, losers",
    [
        ((), (2, 3), (0, 1)),
        # seat 2 has the lowest total (1) but forfeited: it ranks last and loses; the other
        # losing place goes to the highest of the rest, seat 0 (17)
        ((2,), (1, 3), (0, 2)),
        # seat 0 forfeited and was losing anyway: the other loser is seat 1 (11)
        ((0,), (2, 3), (0, 1)),
        # two forfeits take both losing places: the two others win whatever their scores
        ((2, 3), (0, 1), (2, 3)),
    ],
)
def test_forfeits_rank_last(forfeits, winners, losers):
    m = new_match(end_threshold="16")
    play_deal(m, BASE, "right")  # (17, 11, 1, 7), over since 17 > 16
    out = m.outcome(frozenset(forfeits))
    assert (out.winners, out.losers, out.forfeits) == (winners, losers, forfeits)
    assert out.scores == (17, 11, 1, 7)
    assert out.standing(losers[0]) == "lose" and out.standing(winners[0]) == "win"


def test_the_end_is_only_checked_after_a_deal():
    m = new_match(end_threshold="1")
    t = deal(m, BASE.hands, "right")
    t.play(*BASE.tricks[:7])
    # trick 7 gave seat 0 the QS (13 > 1), but the deal goes on to its 13th trick
    assert not m.is_over() and m.decisions()[0].kind == "play"
    events = t.play(*BASE.tricks[7:])
    assert [e.kind for e in events][-2:] == ["score", "totals"]
    assert_over(m, winners=(2, 3), losers=(0, 1))
