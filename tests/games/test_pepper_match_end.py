"""Pepper: the end of the game, over sequences of real scripted deals.

Rules: ../shared/RULES.md 4.1 "Game end" (ends when somebody reaches 30; a single side at
>= 30 wins; several sides at >= 30 in the same hand: the highest total wins, ties -> all tied
sides win), R11 (checked after each hand's scoring; >= 30; pepper.target), the referee's
adjudication between deals (best total wins, ties share) and forfeits (docs/faults.md: a side
with a forfeited seat loses; the winners by the rules keep their win; if no winner is left
the best other total wins, ties share).

Deal kinds (pepper_deals.py), as (declaring side, other side) points:
  4 players  A = LEFT4 bid 1        (+3, +3)
             C = SPLIT4 bid 5       (-6, +2)   set
             E = SPLIT4_NT Big      (+12, 0)
             F = SPLIT4_NT Small    (+6, 0)
  3 players  S = SPLIT3 bid 4       (+4, +2, +2)
             E = SWEEP3 Big         (+16, 0, 0)
             F = SWEEP3 Small       (+8, 0, 0)
  2 players  S = SPLIT2 bid 4       (+4, +4)
             E = SWEEP2 Big         (+16, 0)
The deal passes to the left after each played deal: with first dealer d, deal k (from 0) is
dealt by d+k. Each step below names the declaring seat.
"""

from __future__ import annotations

import pytest
from pepper_deals import (
    LEFT4,
    SPLIT2,
    SPLIT3,
    SPLIT4,
    SPLIT4_NT,
    SWEEP2,
    SWEEP3,
    bids,
    deal,
    new_match,
    of_kind,
    play_deal,
    seat_hands,
)

from cardcli.cards import french_24
from cardcli.errors import IllegalMoveError

KINDS = {
    4: {"A": (LEFT4, "1"), "C": (SPLIT4, "5"), "E": (SPLIT4_NT, "big"), "F": (SPLIT4_NT, "small")},
    3: {"S": (SPLIT3, "4"), "E": (SWEEP3, "big"), "F": (SWEEP3, "small")},
    2: {"S": (SPLIT2, "4"), "E": (SWEEP2, "big")},
}


def run(n, steps, first_dealer=None, **options):
    """Play ``steps`` = [(kind, declaring seat, expected seat totals after the deal)].
    The match must go on after every deal but the last, and be over after the last."""
    first = n - 1 if first_dealer is None else first_dealer
    m = new_match(n, first_dealer=first, **options)
    for k, (kind, at, totals) in enumerate(steps):
        layout, contract = KINDS[n][kind]
        events = play_deal(m, layout, (first + k) % n, at, contract)
        assert m.seat_totals() == totals, (k, kind)
        assert of_kind(events, "totals") == [tuple(map(str, totals))]
        if k < len(steps) - 1:
            assert not m.is_over() and m.needs_deal(), (k, totals)
            with pytest.raises(IllegalMoveError):
                m.outcome()
    assert m.is_over() and not m.needs_deal()
    assert m.decisions() == ()
    return m


def result(m, forfeits=()):
    out = m.outcome(frozenset(forfeits))
    assert out.scores == m.seat_totals()
    assert out.draws == ()
    assert out.forfeits == tuple(sorted(forfeits))
    return out.winners, out.losers


# -- four players -------------------------------------------------------------------------------

# Both sides pass 30 in deal 8; the higher (32) wins over 30.
#   deal  dealer  kind  declarer (side)  side 0+2  side 1+3
#   1     3       A     0 (0)            3         3
#   2     0       C     1 (1)            3+2=5     3-6=-3
#   3     1       E     2 (0)            17        -3
#   4     2       E     0 (0)            29        -3
#   5     3       E     1 (1)            29        9
#   6     0       E     3 (1)            29        21
#   7     1       F     1 (1)            29        27
#   8     2       A     0 (0)            32        30
HIGHER4 = [
    ("A", 0, (3, 3, 3, 3)),
    ("C", 1, (5, -3, 5, -3)),
    ("E", 2, (17, -3, 17, -3)),
    ("E", 0, (29, -3, 29, -3)),
    ("E", 1, (29, 9, 29, 9)),
    ("E", 3, (29, 21, 29, 21)),
    ("F", 1, (29, 27, 29, 27)),
    ("A", 0, (32, 30, 32, 30)),
]

# Both sides reach exactly 30 in deal 6: a shared win.
#   A by 0: 3/3; E by 2: 15/3; E by 0: 27/3; E by 1: 27/15; E by 3: 27/27; A by 1: 30/30
TIE4 = [
    ("A", 0, (3, 3, 3, 3)),
    ("E", 2, (15, 3, 15, 3)),
    ("E", 0, (27, 3, 27, 3)),
    ("E", 1, (27, 15, 27, 15)),
    ("E", 3, (27, 27, 27, 27)),
    ("A", 1, (30, 30, 30, 30)),
]


def test_four_players_several_sides_over_30_the_higher_wins():
    m = run(4, HIGHER4)
    assert m.side_totals == [32, 30]
    assert result(m) == ((0, 2), (1, 3))


def test_four_players_equal_totals_over_30_share_the_win():
    m = run(4, TIE4)
    assert m.side_totals == [30, 30]
    assert result(m) == ((0, 1, 2, 3), ())


def test_four_players_a_single_side_reaching_30_wins():
    # E by 0: 12/0; E by 2: 24/0; F by 0: 30/0 (exactly 30 is enough)
    m = run(4, [("E", 0, (12, 0, 12, 0)), ("E", 2, (24, 0, 24, 0)), ("F", 0, (30, 0, 30, 0))])
    assert result(m) == ((0, 2), (1, 3))


def test_no_more_deals_after_the_end():
    m = run(4, [("E", 0, (12, 0, 12, 0)), ("E", 2, (24, 0, 24, 0)), ("F", 0, (30, 0, 30, 0))])
    with pytest.raises(IllegalMoveError):
        m.deal(french_24())
    with pytest.raises(IllegalMoveError):
        m.adjudicate()


# -- three players ------------------------------------------------------------------------------

# Seats 0 and 1 pass 30 in the same deal; 32 beats 30.
#   S by 0: (4,2,2); S by 0: (8,4,4); S by 1: (10,8,6); S by 1: (12,12,8);
#   E by 0: (28,12,8); E by 1: (28,28,8); S by 0: (32,30,10)
HIGHER3 = [
    ("S", 0, (4, 2, 2)),
    ("S", 0, (8, 4, 4)),
    ("S", 1, (10, 8, 6)),
    ("S", 1, (12, 12, 8)),
    ("E", 0, (28, 12, 8)),
    ("E", 1, (28, 28, 8)),
    ("S", 0, (32, 30, 10)),
]

# Seats 0 and 1 reach 30 together: both win, seat 2 loses.
#   S by 0: (4,2,2); E by 0: (20,2,2); E by 1: (20,18,2); F by 0: (28,18,2);
#   F by 1: (28,26,2); S by 1: (30,30,4)
TIE3 = [
    ("S", 0, (4, 2, 2)),
    ("E", 0, (20, 2, 2)),
    ("E", 1, (20, 18, 2)),
    ("F", 0, (28, 18, 2)),
    ("F", 1, (28, 26, 2)),
    ("S", 1, (30, 30, 4)),
]


def test_three_players_several_over_30_the_highest_wins():
    m = run(3, HIGHER3)
    # seat 1 reached 30 too, but seat 0 has more
    assert result(m) == ((0,), (1, 2))


def test_three_players_tied_over_30_share_the_win():
    m = run(3, TIE3)
    assert result(m) == ((0, 1), (2,))


def test_two_players_big_pepper_twice():
    # E by 0: (16, 0); S by 1: (20, 4); E by 0: (36, 4)
    m = run(2, [("E", 0, (16, 0)), ("S", 1, (20, 4)), ("E", 0, (36, 4))])
    assert result(m) == ((0,), (1,))


# -- the target option --------------------------------------------------------------------------


def test_target_option_ends_earlier():
    # target 12: Big Pepper made by seat 0 (12 / 0) ends the game at once
    m = run(4, [("E", 0, (12, 0, 12, 0))], target=12)
    assert result(m) == ((0, 2), (1, 3))
    # target 4: SPLIT4 bid 3 by seat 0 gives 4 / 2: side 0+2 reaches 4
    m = new_match(4, first_dealer=3, target=4)
    play_deal(m, SPLIT4, 3, 0, "3")
    assert m.is_over()
    assert result(m) == ((0, 2), (1, 3))


def test_target_option_not_reached():
    m = new_match(4, first_dealer=3, target=5)
    play_deal(m, SPLIT4, 3, 0, "3")  # 4 / 2
    assert not m.is_over() and m.needs_deal()
    play_deal(m, SPLIT4, 0, 1, "3")  # side 1+3 +4: 6; side 0+2 +2: 6, both over 5: tie
    assert m.side_totals == [6, 6]
    assert result(m) == ((0, 1, 2, 3), ())


def test_target_option_three_players_two_over_the_target():
    # target 3: SPLIT3 bid 4 by seat 0 gives (4, 2, 2): only seat 0 reaches 3
    m = new_match(3, first_dealer=2, target=3)
    play_deal(m, SPLIT3, 2, 0, "4")
    assert result(m) == ((0,), (1, 2))
    # target 2: seats 0, 1 and 2 all reach it; 4 is the highest
    m = new_match(3, first_dealer=2, target=2)
    play_deal(m, SPLIT3, 2, 0, "4")
    assert result(m) == ((0,), (1, 2))


def test_a_set_declarer_does_not_end_the_game():
    # target 2 with two players: SPLIT2 bid 5 by seat 0 is set: (-8, 4): seat 1 wins
    m = new_match(2, first_dealer=1, target=2)
    play_deal(m, SPLIT2, 1, 0, "5")
    assert result(m) == ((1,), (0,))


# -- adjudication between deals ------------------------------------------------------------------


def test_adjudicate_best_total_wins():
    m = new_match(3, first_dealer=2)
    play_deal(m, SPLIT3, 2, 0, "4")  # (4, 2, 2)
    m.adjudicate()
    assert m.is_over() and m.decisions() == ()
    assert result(m) == ((0,), (1, 2))


def test_adjudicate_ties_share():
    m = new_match(2, first_dealer=1)
    play_deal(m, SPLIT2, 1, 0, "4")  # (4, 4)
    m.adjudicate()
    assert result(m) == ((0, 1), ())
    m = new_match(3, first_dealer=2)
    play_deal(m, SPLIT3, 2, 0, "5")  # (-8, 2, 2)
    m.adjudicate()
    assert result(m) == ((1, 2), (0,))


def test_adjudicate_with_negative_totals_four_players():
    m = new_match(4, first_dealer=3)
    play_deal(m, SPLIT4, 3, 0, "big")  # (-12, 2, -12, 2)
    m.adjudicate()
    assert result(m) == ((1, 3), (0, 2))


def test_adjudicate_after_an_all_pass_and_before_any_deal():
    m = new_match(4, first_dealer=3)
    deal(m, 3, seat_hands(SPLIT4, 0))
    bids(m, "0:pass", "1:pass", "2:pass", "3:pass")
    m.adjudicate()
    assert result(m) == ((0, 1, 2, 3), ())
    m = new_match(3, first_dealer=0)
    m.adjudicate()
    assert result(m) == ((0, 1, 2), ())


def test_adjudicate_only_between_deals():
    m = new_match(4, first_dealer=3)
    deal(m, 3, seat_hands(SPLIT4, 0))
    with pytest.raises(IllegalMoveError):
        m.adjudicate()  # during the auction
    bids(m, "0:1", "1:pass", "2:pass", "3:pass")
    with pytest.raises(IllegalMoveError):
        m.adjudicate()  # trump to name
    m.apply(0, "H")
    m.apply(0, "JH")
    with pytest.raises(IllegalMoveError):
        m.adjudicate()  # during play
    assert not m.is_over()
    with pytest.raises(IllegalMoveError):
        m.outcome()


# -- forfeits -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "forfeits, winners, losers",
    [
        ((), (0, 2), (1, 3)),
        # a losing side's forfeit changes nothing for the winners
        ((1,), (0, 2), (1, 3)),
        ((3,), (0, 2), (1, 3)),
        ((1, 3), (0, 2), (1, 3)),
        # a winner forfeits: its partner loses with it; the best other side wins
        ((0,), (1, 3), (0, 2)),
        ((2,), (1, 3), (0, 2)),
        # both sides forfeit: nobody wins
        ((0, 1), (), (0, 1, 2, 3)),
    ],
)
def test_four_player_forfeits(forfeits, winners, losers):
    m = run(4, HIGHER4)  # 32 / 30
    assert result(m, forfeits) == (winners, losers)


@pytest.mark.parametrize(
    "forfeits, winners, losers",
    [
        ((), (0, 1, 2, 3), ()),
        # one side forfeits after a shared win: the other side keeps its win
        ((3,), (0, 2), (1, 3)),
        ((2,), (1, 3), (0, 2)),
    ],
)
def test_four_player_forfeits_after_a_tie(forfeits, winners, losers):
    m = run(4, TIE4)
    assert result(m, forfeits) == (winners, losers)


@pytest.mark.parametrize(
    "forfeits, winners, losers",
    [
        ((), (0,), (1, 2)),
        ((2,), (0,), (1, 2)),
        ((1,), (0,), (1, 2)),
        # the winner forfeits: the best other total (seat 1, 30) wins
        ((0,), (1,), (0, 2)),
        # seats 0 and 1 forfeit: seat 2 (10) is the only one left
        ((0, 1), (2,), (0, 1)),
        ((0, 1, 2), (), (0, 1, 2)),
    ],
)
def test_three_player_forfeits(forfeits, winners, losers):
    m = run(3, HIGHER3)  # (32, 30, 10)
    assert result(m, forfeits) == (winners, losers)


def test_three_player_forfeit_after_a_tie_and_after_adjudication():
    m = run(3, TIE3)  # (30, 30, 4)
    assert result(m, (1,)) == ((0,), (1, 2))
    assert result(m, (0, 1)) == ((2,), (0, 1))
    m = new_match(2, first_dealer=1)
    play_deal(m, SPLIT2, 1, 0, "4")  # (4, 4)
    m.adjudicate()
    assert result(m, (0,)) == ((1,), (0,))
