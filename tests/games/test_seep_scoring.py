"""Seep: whole scripted deals: the leftover floor, seep bonuses, the under-9 loss, the 50-50 deal,
the baazi target, the 2-player halves and the 30-point scoring.

Rules: ../shared/RULES.md section 2 (End of deal and scoring, Game, S17-S21, S27, S29) and
section 6 "Precisions"; seed 002 (Punteggio, Vittoria). The deals are explained in
seep_deals.py: QUIET_A, QUIET_B (four kings on the floor all deal), SEEPS and TWO. With
first_dealer=1 the positions 0 1 2 3 are seats 0 3 2 1: side A of a script (positions 0+2) is
seats 0+2, side B (positions 1+3) is seats 1+3; points are listed by seat (A, B, A, B).

Standard card points: each spade its capture value (A♠ 1 .. K♠ 13, 91 in all), the other aces
1 each, 10♦ 6: 100 a deal.
"""

from __future__ import annotations

from cardcli.games.base import DealScore

from seep_deals import (
    QUIET_A_UNITS,
    QUIET_B_UNITS,
    SEEPS,
    SEEPS_SEG1,
    SEEPS_SEG2,
    SEEPS_SEG3,
    TWO,
    TWO_HALF1,
    TWO_HALF2,
    UNIT_POINTS,
    deal_points,
    new_match,
    of_kind,
    play,
    quiet_a,
    quiet_a_deck,
    quiet_b,
    quiet_b_deck,
    seeps_deck,
    start,
    two_deck,
)

B30 = ["J2", "T2", "92"]  # J♠ 11 + 10♠ 10 + 9♠ 9 = 30
B50 = ["J2", "T2", "92", "82", "72", "52"]  # 11 + 10 + 9 + 8 + 7 + 5 = 50
B8 = ["82"]  # 8♠ = 8


def test_unit_points_table():
    # the table of seep_deals.py, by hand: the units of QUIET_A hold every card but the kings,
    # the queens and 5C 5D 7C 7D, worth 100 - K♠ 13 - Q♠ 12 = 75
    assert sum(UNIT_POINTS[u] for u in QUIET_A_UNITS) == 75
    assert sum(UNIT_POINTS[u] for u in QUIET_B_UNITS) == 75  # 21 (2C 2D) is worth 0
    assert [sum(UNIT_POINTS[u] for u in b) for b in (B30, B50, B8)] == [30, 50, 8]


def quiet_a_match(b_units, **options):
    m = new_match(**options)
    events = start(m, quiet_a_deck(b_units), 12)
    return m, events + play(m, quiet_a(b_units))


# -- the leftover floor (seed Svolgimento 8, S19) -----------------------------------------------


def test_leftover_goes_to_the_last_capturer_side_a():
    # QUIET_A: the last capture is position 0's (seat 0) at play 44; plays 45-47 are throws
    # (seat 3 QS, seat 2 5D, seat 1 7D). The floor left: KC KD KH KS QS 5D 7D = 13 + 12 = 25.
    m, events = quiet_a_match(B30)
    assert of_kind(events, "leftover") == [("0", "KC", "5D", "7D", "KD", "KH", "QS", "KS")]
    assert of_kind(events, "seep") == []  # collecting the leftover is not a seep
    # side B: 30; side A: the other units 75 - 30 = 45, plus the leftover 25 = 70
    assert deal_points(events) == (70, 30, 70, 30)
    assert of_kind(events, "totals") == [("70", "30", "70", "30")]
    assert m.side_totals == [70, 30]
    assert m.deal_scores == (DealScore(1, (70, 30, 70, 30), (70, 30, 70, 30), ()),)
    assert m.needs_deal() and not m.is_over()  # a lead of 40 < 100


def test_leftover_goes_to_the_last_capturer_side_b():
    # QUIET_B with side-A units ["J2"]: side A (seats 0+2) takes 5C 7C QH (0) and J♠ 11;
    # side B takes QC QD, 2C 5D 7D (0) and the other units, 75 - 11 = 64, the last at play 45
    # by position 1 (seat 3); then seat 2 throws QS and seat 1 throws 2D. The leftover
    # KC KD KH KS QS 2D = K♠ 13 + Q♠ 12 = 25 goes to seat 3's side.
    m = new_match()
    events = start(m, quiet_b_deck(["J2"]), 12) + play(m, quiet_b(["J2"]))
    assert of_kind(events, "leftover") == [("3", "KC", "2D", "KD", "KH", "QS", "KS")]
    assert deal_points(events) == (11, 89, 11, 89)  # 11; 64 + 25 = 89


# -- seep bonuses (S17, S18) --------------------------------------------------------------------


def test_seeps_first_middle_and_last_play():
    # SEEPS (seep_deals.py):
    #   play 0, seat 0: take:KS:QC+AC,KC,KD empties the floor on the opening: 25
    #   play 3, seat 1: take:QS:5C+7C empties it in the middle of the deal: 50
    #   play 47, seat 1: take:QH:QD empties it on the last play: 0
    m = new_match()
    events = start(m, seeps_deck(), None)
    assert m.decisions()[0].moves == ("12", "13")  # bidder KS QD + two small cards
    events += m.apply(0, "13")
    assert m.decisions()[0].moves[0] == "take:KS:QC+AC,KC,KD"
    events += play(m, SEEPS)
    assert of_kind(events, "seep") == [("0", "25"), ("1", "50"), ("1", "0")]
    assert of_kind(events, "leftover") == []  # the last play left nothing
    # Card points. Side A (seats 0+2): K♠ 13 + A♣ 1 (opening), segment 1: A2 2, 22 2, 32 3;
    #   triple AD+5D+6D: A♦ 1; segment 3: 42 4, 52 5, T1 6 (10♦) -> 13+1+2+2+3+1+4+5+6 = 37.
    # Side B (seats 1+3): Q♠ 12 (play 3), KH 6C 7D (0), segment 2: J♠ 11 10♠ 10 9♠ 9 8♠ 8 7♠ 7
    #   6♠ 6 = 51, QH QD (0) -> 63.   37 + 63 = 100.
    # With the seeps: side A 37 + 25 = 62, side B 63 + 50 + 0 = 113.
    assert sum(UNIT_POINTS[u] for u in SEEPS_SEG1 + SEEPS_SEG3) == 2 + 2 + 3 + 4 + 5 + 6
    assert sum(UNIT_POINTS[u] for u in SEEPS_SEG2) == 51
    assert deal_points(events) == (62, 113, 62, 113)
    assert m.side_totals == [62, 113]
    assert not m.is_over()  # lead 51


def test_seep_bonus_options():
    m = new_match(sweep="40", sweep_first="10", sweep_last="5")
    events = start(m, seeps_deck(), 13) + play(m, SEEPS)
    assert of_kind(events, "seep") == [("0", "10"), ("1", "40"), ("1", "5")]
    assert deal_points(events) == (37 + 10, 63 + 40 + 5, 37 + 10, 63 + 40 + 5)


# -- the under-9 loss (S20) and the 50-50 deal (S21) --------------------------------------------


def test_under_nine_loses_the_baazi():
    # QUIET_A with side B units 82 only: side B 8 (8♠), side A 92. The lead of 84 is short of
    # 100, but side B scored under 9: it loses at once.
    m, events = quiet_a_match(B8)
    assert deal_points(events) == (92, 8, 92, 8)
    assert m.deal_scores[-1].notes == ("under 9: 1+3",)
    assert m.is_over() and not m.needs_deal()
    out = m.outcome()
    assert (out.winners, out.losers, out.draws) == ((0, 2), (1, 3), ())
    assert out.scores == (92, 8, 92, 8)


def test_under_nine_loses_even_when_leading():
    # deal 1 (dealer 1): QUIET_A with every unit to side B: seats 1+3 75, seats 0+2 25
    m, events = quiet_a_match(QUIET_A_UNITS)
    assert deal_points(events) == (25, 75, 25, 75)
    # deal 2 (dealer 0, bidder 3): positions 0 1 2 3 are seats 3 2 1 0, so the script's side A
    # is seats 3+1. QUIET_B with side-A units 82: seats 1+3 score 8 (5C 7C QH 0 + 8♠ 8), seats
    # 0+2 score 75 - 8 + 25 = 92. Seats 1+3 led by 50 and lose the baazi.
    events = start(m, quiet_b_deck(B8), 12) + play(m, quiet_b(B8))
    assert of_kind(events, "deal") == [("2", "0", "3")]
    assert deal_points(events) == (92, 8, 92, 8)
    assert m.side_totals == [117, 83]
    assert m.is_over()
    out = m.outcome()
    assert (out.winners, out.losers) == ((0, 2), (1, 3))


def test_under_nine_options():
    m, _ = quiet_a_match(B8, min_deal_points="0")
    assert not m.is_over() and m.side_totals == [92, 8]
    m, _ = quiet_a_match(B8, min_deal_points="8")  # 8 is not under 8
    assert not m.is_over()
    m, _ = quiet_a_match(B30, min_deal_points="31")  # 30 is
    assert m.is_over() and m.outcome().losers == (1, 3)


def test_fifty_fifty_deal_does_not_change_the_lead():
    m, _ = quiet_a_match(B30)  # seats 0+2 70, seats 1+3 30: lead 40
    # deal 2 (dealer 0): side B of the script is seats 2+0: 50 (J♠ T♠ 9♠ 8♠ 7♠ 5♠ = 50),
    # side A seats 3+1: 75 - 50 + 25 = 50
    events = start(m, quiet_a_deck(B50), 12) + play(m, quiet_a(B50))
    assert deal_points(events) == (50, 50, 50, 50)
    assert m.side_totals == [120, 80]  # the lead is still 40
    assert m.needs_deal() and not m.is_over()


# -- the baazi target (S21) ---------------------------------------------------------------------


def test_baazi_target_option():
    # QUIET_A with B30: a lead of 70 - 30 = 40 after one deal
    m, _ = quiet_a_match(B30, baazi_target="40")
    assert m.is_over()
    out = m.outcome()
    assert (out.winners, out.losers, out.scores) == ((0, 2), (1, 3), (70, 30, 70, 30))
    m, _ = quiet_a_match(B30, baazi_target="41")
    assert not m.is_over()
    m, _ = quiet_a_match(B30)  # default 100
    assert not m.is_over()


def test_baazi_reached_over_several_deals():
    # three deals of 70-30 for seats 0+2 ... but the dealer turns: deal 2 has seats 3+1 as the
    # script's side A (70). Deals: (70, 30), (30, 70), (70, 30): lead 40, 0, 40.
    m, _ = quiet_a_match(B30, baazi_target="80")
    for _ in range(2):
        start(m, quiet_a_deck(B30), 12)
        play(m, quiet_a(B30))
    assert m.side_totals == [170, 130] and not m.is_over()
    # deal 4 (dealer 2, bidder 1: script side A = seats 1+3): QUIET_A with every unit to side B
    # = seats 0+2: 75; seats 1+3 25. Lead 40 + 50 = 90 >= 80
    start(m, quiet_a_deck(QUIET_A_UNITS), 12)
    events = play(m, quiet_a(QUIET_A_UNITS))
    assert of_kind(events, "score") == [("4", "75", "25", "75", "25")]
    assert m.side_totals == [245, 155] and m.is_over()
    assert m.outcome().winners == (0, 2)


# -- two players (S27, Precisions) --------------------------------------------------------------


def test_two_player_halves_and_the_seep_on_the_last_play_of_the_first_half():
    # TWO (seep_deals.py): seat 0 takes QD+QC, then every unit (seat 1 throws, seat 0 takes);
    # seat 1 sweeps KC KD KH with KS at play 23 (the last of the first half: 50) and QH with QS
    # at play 47 (the last of the deal: 0).
    m = new_match(n=2)
    events = start(m, two_deck(), None)
    assert m.decisions()[0].moves == ("12",)
    events += m.apply(0, "12")
    events += play(m, TWO[:24])
    assert of_kind(events, "seep") == [("1", "50")]
    # the second half: 12 cards each, the same floor (empty after the seep), no bid
    assert [len(h) for h in m.hands] == [12, 12] and m.loose == [] and m.houses == {}
    assert m.decisions()[0].seat == 0 and m.decisions()[0].kind == "play"
    assert of_kind(events, "bid") == [("0", "12")]
    events += play(m, TWO[24:])
    assert of_kind(events, "seep") == [("1", "50"), ("1", "0")]
    # seat 0: QD QC 0 + every unit = 75; seat 1: K♠ 13 + Q♠ 12 = 25, + 50 + 0 = 75
    assert sum(UNIT_POINTS[u] for u in TWO_HALF1 + TWO_HALF2) == 75
    assert of_kind(events, "score") == [("1", "75", "75")]
    assert m.deal_scores == (DealScore(1, (75, 75), (75, 75), ()),)
    assert not m.is_over()


# -- the 30-point version (S29, Precisions) ------------------------------------------------------
#
# Only 10♦ 12, 9♠ 9, 2♠ 1 and the four aces (1 each; A♠ once) score: 26, plus 4 for the majority
# (7 spades or more, or 27 cards or more); a seep is worth the sweeping card's value, 0 on the
# last play. The SEEPS deal:
#   side A (seats 0+2): KS KC KD QC AC | A2 21 22 31 32 41 | AD 5D 6D | 42 52 81 91 T1 J1
#       points: A♣ 1, A♥ A♠ 2, A♦ 1, 2♠ 1, 10♦ 12 = 17; spades K♠ A♠ 2♠ 3♠ 4♠ 5♠ = 6;
#       cards 5 + 12 units x 2 + 3 = 32
#   side B (seats 1+3): QS 5C 7C | 6C 7D KH | J2 T2 92 82 72 62 | QH QD
#       points: 9♠ 9; spades Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ = 7; cards 3 + 3 + 12 + 2 = 20
#   seeps: K♠ 13 (opening, side A), Q♠ 12 (side B), the last play 0


def test_thirty_points_majority_of_spades():
    m = new_match(variant="thirty")
    events = start(m, seeps_deck(), 13) + play(m, SEEPS)
    assert of_kind(events, "seep") == [("0", "13"), ("1", "12"), ("1", "0")]
    # side A 17 + 13 = 30; side B 9 + 4 (7 spades against 6) + 12 = 25
    assert deal_points(events) == (30, 25, 30, 25)
    assert not m.is_over()  # no under-9 rule in this variant; lead 5


def test_thirty_points_majority_of_cards():
    m = new_match(variant="thirty", majority_basis="cards")
    events = start(m, seeps_deck(), 13) + play(m, SEEPS)
    # side A 17 + 4 (32 cards against 20) + 13 = 34; side B 9 + 12 = 21
    assert deal_points(events) == (34, 21, 34, 21)


def test_thirty_points_quiet_deal():
    # QUIET_A with B30 in the 30-point version. Side B (seats 1+3): QC QD, J2 T2 92: 9♠ 9;
    # spades J♠ 10♠ 9♠ = 3; cards 2 + 6 = 8. Side A: the rest: A♣ A♦ A♥ A♠ 4, 2♠ 1, 10♦ 12 =
    # 17; spades 13 - 3 = 10 (the leftover K♠ Q♠ among them); cards 52 - 8 = 44. No seep.
    # Spades basis: A 17 + 4 = 21, B 9. Cards basis: the same.
    for basis in ("spades", "cards"):
        _m, events = quiet_a_match(B30, variant="thirty", majority_basis=basis)
        assert deal_points(events) == (21, 9, 21, 9)


def test_casual_ten_two_scoring():
    # scoring=casual_ten_two (S31): 10♦ = 2 instead of 6, and 4 for 27 cards or more.
    # QUIET_A with side-B units T1 J2: side B takes QC QD, TC TD, JH JS: 6 cards, 2 + 11 = 13;
    # side A the other 46 cards: standard 100 - (6 + 11) = 83, + 4 = 87.  13 + 87 = 100.
    _, events = quiet_a_match(["T1", "J2"], scoring="casual_ten_two")
    assert deal_points(events) == (87, 13, 87, 13)
    _, events = quiet_a_match(["T1", "J2"])
    assert deal_points(events) == (83, 17, 83, 17)


def test_under_nine_counts_seeps_by_default():
    # SEEPS: side A has 37 card points and a 25 seep, side B 63 and 50. With a minimum of 40,
    # side A is under it only when seeps do not count.
    m = new_match(min_deal_points="40")
    start(m, seeps_deck(), 13)
    play(m, SEEPS)
    assert not m.is_over()
    m = new_match(min_deal_points="40", min_includes_sweeps="false")
    start(m, seeps_deck(), 13)
    play(m, SEEPS)
    assert m.deal_scores[-1].points == (62, 113, 62, 113)  # the seeps still score
    assert m.deal_scores[-1].notes == ("under 40: 0+2",)
    assert m.is_over() and m.outcome().losers == (0, 2)


def test_minimum_is_checked_before_the_lead():
    # QUIET_A with B30: 70-30, a lead of 40 that reaches a target of 40; with a minimum of 80
    # both sides are under it, so nobody wins the baazi on the lead (Precisions: the under-9
    # loss is checked before the lead).
    m, _ = quiet_a_match(B30, baazi_target="40", min_deal_points="80")
    assert m.is_over()
    assert m.outcome().winners == ()


# -- three players (S28, Precisions) --------------------------------------------------------------
#
# QUIET_A with no side-B unit, dealt to 3 players: token k is played by position k % 3
# (positions 0 1 2 = seats 0 2 1 with dealer 1). Play 1: position 1 takes QC QD. The triple
# 5C 7C QH is taken at play 4 (position 1). Unit j of QUIET_A_UNITS is taken at play 6 + 2j,
# by position (6 + 2j) % 3 = 0, 2, 1, 0, 2, 1, ...:
#   position 0: j = 0 3 6 9 12 15 18: A1 2, 22 2, 41 0, 61 0, 81 0, 92 9, J1 0 = 13
#   position 2: j = 1 4 7 10 13 16 19: A2 2, 31 0, 42 4, 62 6, 82 8, T1 6, J2 11 = 37, and the
#               last capture (play 44 = 6 + 2*19): the leftover 25 -> 62
#   position 1: j = 2 5 8 11 14 17: 21 0, 32 3, 52 5, 72 7, 91 0, T2 10 = 25
# By seat: seat 0 13, seat 1 (position 2) 62, seat 2 (position 1) 25.  13 + 62 + 25 = 100.


def three_player_deal(**options):
    m = new_match(n=3, **options)
    events = start(m, quiet_a_deck([], n=3), 12) + play(m, quiet_a([]))
    return m, events


def test_three_players_score_alone():
    m, events = three_player_deal()
    assert of_kind(events, "leftover")[0][0] == "1"
    assert deal_points(events) == (13, 62, 25)
    assert m.side_totals == [13, 62, 25]
    assert not m.is_over()


def test_three_players_baazi_needs_a_lead_over_every_other_player():
    # seat 1 leads seat 0 by 49 and seat 2 by 37
    m, _ = three_player_deal(baazi_target="37")
    assert m.is_over()
    out = m.outcome()
    assert (out.winners, out.losers) == ((1,), (0, 2))
    m, _ = three_player_deal(baazi_target="38")
    assert not m.is_over()


def test_three_players_under_the_minimum():
    # a minimum of 14: seat 0 (13) loses; the highest total among the others (seat 1) wins
    m, _ = three_player_deal(min_deal_points="14")
    assert m.is_over()
    out = m.outcome()
    assert out.winners == (1,) and 0 in out.losers and 2 not in out.winners
