"""Seep: the deal layout and turn order for 4, 3 and 2 players, the bid, void deals and the
dealer rotation, on hand-built decks.

Rules: ../shared/RULES.md section 2 (S1, S2, S3, S5, S22, S27, S28) and section 6 "Precisions";
seed 002 (Preparazione 2-6). Seats are numbered clockwise and play is counter-clockwise
(next = seat-1); the bidder is the dealer's right, dealer-1. With first_dealer=1 the bidder
is seat 0 (see seep_deals.py).
"""

from __future__ import annotations

import pytest

from cardcli.cards import Card, french_52
from cardcli.errors import IllegalMoveError, InvalidMoveError, OptionError
from cardcli.games.base import DealScore, Decision, Event

from seep_deals import (
    QUIET_A_UNITS,
    TWO_FLOOR,
    TWO_HALF1,
    make_deck,
    moves,
    new_match,
    of_kind,
    play,
    quiet_a,
    quiet_a_deck,
    script_deck,
    start,
    texts,
    units,
)

REVERSED = tuple(reversed(french_52()))
"""AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH ... 3C 2C: REVERSED[i] is the i-th card
dealt. The first four (the bidder's) are AS KS QS JS, so a bid is possible."""


def sl(a: int, b: int) -> list[str]:
    """REVERSED[a:b] as texts in canonical order (how hands are kept)."""
    return texts(REVERSED[a:b])


def without(items, text: str) -> tuple[Card, ...]:
    return tuple(c for c in items if c.text != text)


def first_moves(m, count: int) -> list[int]:
    """Play the first legal move ``count`` times; the seats that were to play."""
    seats = []
    for _ in range(count):
        (d,) = m.decisions()
        seats.append(d.seat)
        m.apply(d.seat, d.moves[0])
    return seats


def snapshot(m):
    return (m.decisions(), [list(h) for h in m.hands], list(m.loose), dict(m.houses), m.phase)


# -- layout and turn order ----------------------------------------------------------------------


def test_four_player_layout_and_turn_order():
    m = new_match()  # first dealer seat 1: bidder seat 1-1 = 0, then seats 3, 2, 1 (ccw)
    events = m.deal(REVERSED)
    assert of_kind(events, "deal") == [("1", "1", "0")]  # deal 1, dealer 1, bidder 0
    # deck[0:4] bidder (seat 0), deck[4:8] floor, then 4 each to seats 3, 2, 1
    assert [texts(h) for h in m.hands] == [sl(0, 4), sl(16, 20), sl(12, 16), sl(8, 12)]
    assert texts(m.hands[0]) == ["JS", "QS", "KS", "AS"]  # canonical order: ace high
    # each seat sees its own four cards, nobody else's
    assert [(e.audience, e.args) for e in events if e.kind == "hand"] == [
        (frozenset({s}), tuple(texts(m.hands[s]))) for s in range(4)
    ]
    # the floor stays face down until the bid (S2: reveal_floor_before_bid=false)
    assert m.loose == [] and of_kind(events, "table") == []
    # the whole allocation: then packets of 4 from the bidder, ccw, two rounds:
    # [20:24] s0 [24:28] s3 [28:32] s2 [32:36] s1 [36:40] s0 [40:44] s3 [44:48] s2 [48:52] s1
    assert m.deal_facts() == {
        "hands": [
            texts(REVERSED[0:4] + REVERSED[20:24] + REVERSED[36:40]),
            texts(REVERSED[16:20] + REVERSED[32:36] + REVERSED[48:52]),
            texts(REVERSED[12:16] + REVERSED[28:32] + REVERSED[44:48]),
            texts(REVERSED[8:12] + REVERSED[24:28] + REVERSED[40:44]),
        ],
        "floor": sl(4, 8),
    }
    # AS is worth 1, KS 13, QS 12, JS 11: bids 11, 12, 13
    assert m.decisions() == (Decision(0, "bid", ("11", "12", "13")),)
    events = m.apply(0, "13")
    assert of_kind(events, "table") == [("7S", "8S", "9S", "TS")]
    # KS captures nothing on 7+8+9+10 (every pair is over 13) and no 13 can be built:
    # the only opening is to throw the bid card
    assert moves(m) == ["throw:KS"]
    events = play(m, ["throw:KS"])
    # the rest is dealt now: the bidder has 3 + 8 = 11, the others 4 + 8 = 12
    assert [len(h) for h in m.hands] == [11, 12, 12, 12]
    assert texts(m.hands[0]) == texts(without(REVERSED[0:4], "KS") + REVERSED[20:24] + REVERSED[36:40])
    assert texts(m.hands[3]) == texts(REVERSED[8:12] + REVERSED[24:28] + REVERSED[40:44])
    assert len(of_kind(events, "hand")) == 4
    # play continues from the bidder's right (seat 3, the dealer's partner); the dealer plays last
    assert first_moves(m, 9) == [3, 2, 1, 0, 3, 2, 1, 0, 3]


def test_three_player_layout_and_turn_order():
    m = new_match(n=3)  # dealer 1, bidder 0, play order 0, 2, 1
    events = m.deal(REVERSED)
    assert of_kind(events, "deal") == [("1", "1", "0")]
    # [0:4] seat 0, [4:8] floor, [8:12] seat 2, [12:16] seat 1
    assert [texts(h) for h in m.hands] == [sl(0, 4), sl(12, 16), sl(8, 12)]
    # then 12 more each (S28: 16 in all), three rounds of packets 0, 2, 1:
    # [16:20] s0 [20:24] s2 [24:28] s1 [28:32] s0 [32:36] s2 [36:40] s1 [40:44] s0 [44:48] s2 [48:52] s1
    s0 = REVERSED[0:4] + REVERSED[16:20] + REVERSED[28:32] + REVERSED[40:44]
    s1 = REVERSED[12:16] + REVERSED[24:28] + REVERSED[36:40] + REVERSED[48:52]
    s2 = REVERSED[8:12] + REVERSED[20:24] + REVERSED[32:36] + REVERSED[44:48]
    assert m.deal_facts()["hands"] == [texts(s0), texts(s1), texts(s2)]
    m.apply(0, "13")
    play(m, ["throw:KS"])
    assert [len(h) for h in m.hands] == [15, 16, 16]
    assert first_moves(m, 7) == [2, 1, 0, 2, 1, 0, 2]


def test_two_player_layout_and_turn_order():
    m = new_match(n=2)  # dealer 1, bidder 0
    m.deal(REVERSED)
    # [0:4] seat 0, [4:8] floor, [8:12] seat 1
    assert [texts(h) for h in m.hands] == [sl(0, 4), sl(8, 12)]
    # first half: 8 more each, [12:16] s0 [16:20] s1 [20:24] s0 [24:28] s1; second half (S27):
    # 12 more each, [28:32] s0 [32:36] s1 [36:40] s0 [40:44] s1 [44:48] s0 [48:52] s1
    s0 = REVERSED[0:4] + REVERSED[12:16] + REVERSED[20:24] + REVERSED[28:32] + REVERSED[36:40] + REVERSED[44:48]
    s1 = REVERSED[8:12] + REVERSED[16:20] + REVERSED[24:28] + REVERSED[32:36] + REVERSED[40:44] + REVERSED[48:52]
    assert m.deal_facts()["hands"] == [texts(s0), texts(s1)]
    m.apply(0, "13")
    play(m, ["throw:KS"])
    # only the first half is in the hands: 3 + 8 = 11 and 4 + 8 = 12
    assert [texts(h) for h in m.hands] == [
        texts(without(REVERSED[0:4], "KS") + REVERSED[12:16] + REVERSED[20:24]),
        texts(REVERSED[8:12] + REVERSED[16:20] + REVERSED[24:28]),
    ]
    assert first_moves(m, 5) == [1, 0, 1, 0, 1]


def test_two_player_second_half_same_floor_no_bid_no_leftover():
    # First half only: k0 take:QD:QC, then 11 units (seat 1 throws, seat 0 takes; the floor is
    # KC KD KH again after each), then k23 seat 1 throws 9S: floor KC KD KH 9S.
    tokens = ["take:QD:QC", *units(TWO_HALF1), "throw:9S"]
    assert len(tokens) == 24
    m = new_match(n=2)
    start(m, script_deck(2, TWO_FLOOR, "QD AD AS 2D", tokens), 12)
    play(m, tokens[:-1])
    assert [len(h) for h in m.hands] == [0, 1]
    events = play(m, tokens[-1:])
    # both hands were empty: the second half is dealt (12 each) onto the same floor; no new bid,
    # no leftover collection, no score (Precisions, 2 players)
    assert [len(h) for h in m.hands] == [12, 12]
    assert texts(m.loose) == ["KC", "KD", "KH", "9S"]
    assert [e.kind for e in events] == ["play", "table", "hand", "hand"]
    assert m.decisions()[0].seat == 0 and m.decisions()[0].kind == "play"
    assert m.deal_scores == ()


def test_deal_packet_option():
    # deal_packet=8: after the opening one packet of 8 each, from the bidder:
    # [20:28] s0 [28:36] s3 [36:44] s2 [44:52] s1
    m = new_match(deal_packet="8")
    m.deal(REVERSED)
    assert m.deal_facts()["hands"] == [
        texts(REVERSED[0:4] + REVERSED[20:28]),
        texts(REVERSED[16:20] + REVERSED[44:52]),
        texts(REVERSED[12:16] + REVERSED[36:44]),
        texts(REVERSED[8:12] + REVERSED[28:36]),
    ]
    with pytest.raises(OptionError):
        new_match(deal_packet="3")  # 8 cards cannot be dealt in threes


def test_two_players_without_halves():
    # two_player_halves=false: 20 more each at once, packets of 4 alternating from the bidder
    m = new_match(n=2, two_player_halves="false")
    m.deal(REVERSED)
    s0 = REVERSED[0:4] + sum((REVERSED[k : k + 4] for k in range(12, 52, 8)), ())
    s1 = REVERSED[8:12] + sum((REVERSED[k : k + 4] for k in range(16, 52, 8)), ())
    assert m.deal_facts()["hands"] == [texts(s0), texts(s1)]
    m.apply(0, "13")
    play(m, ["throw:KS"])
    assert [len(h) for h in m.hands] == [23, 24]


def test_deal_refuses_a_bad_deck_and_an_untimely_deal():
    m = new_match()
    with pytest.raises(IllegalMoveError):
        m.deal(REVERSED[:51])
    with pytest.raises(IllegalMoveError):
        m.deal(REVERSED[:51] + REVERSED[:1])
    m.deal(REVERSED)
    with pytest.raises(IllegalMoveError):
        m.deal(REVERSED)  # the bid is due


# -- the bid ------------------------------------------------------------------------------------

BID_FLOOR = "KC KD KS QC"


def test_bid_only_values_held_from_9_to_13():
    # bidder 9C JD KH 5S: 9, 11 and 13 are held; 5 is below 9; 10 and 12 are not held
    m = new_match()
    events = start(m, make_deck(4, BID_FLOOR, ["9C JD KH 5S"]), None)
    assert m.decisions() == (Decision(0, "bid", ("9", "11", "13")),)
    before = snapshot(m)
    for token, error in [
        ("10", IllegalMoveError), ("12", IllegalMoveError), ("5", IllegalMoveError),
        ("14", IllegalMoveError), ("09", IllegalMoveError), ("x", InvalidMoveError),
        ("", InvalidMoveError), ("take:KH:KC", InvalidMoveError),
    ]:
        with pytest.raises(error):
            m.apply(0, token)
        assert snapshot(m) == before
    with pytest.raises(IllegalMoveError):
        m.apply(3, "11")  # only the bidder bids
    assert snapshot(m) == before
    assert m.loose == []  # still face down
    events = m.apply(0, "11")
    assert [e.kind for e in events] == ["bid", "table"]
    assert of_kind(events, "bid") == [("0", "11")]
    assert texts(m.loose) == ["QC", "KC", "KD", "KS"]
    assert m.decisions()[0].kind == "play" and m.decisions()[0].seat == 0


def test_floor_feasibility_option():
    # S2 options: with the floor revealed before the bid and feasibility required, a bid must
    # allow a build or capture of its value. Floor KC KD KS QC: 9 (9C) and 11 (JD) capture
    # nothing and cannot be built (5S + a floor card is 17 or more); KH takes KC, KD, KS.
    deck = make_deck(4, BID_FLOOR, ["9C JD KH 5S"])
    m = new_match(reveal_floor_before_bid="true", bid_requires_floor_feasibility="true")
    events = m.deal(deck)
    assert of_kind(events, "table") == [("QC", "KC", "KD", "KS")]
    assert m.decisions() == (Decision(0, "bid", ("13",)),)
    m = new_match(reveal_floor_before_bid="true")
    m.deal(deck)
    assert m.decisions() == (Decision(0, "bid", ("9", "11", "13")),)


# -- void deals ---------------------------------------------------------------------------------


def test_void_deal_same_dealer_hand_shown_nothing_scored():
    # bidder 2C 3D 8H AS: no card from 9 to 13 (the ace is worth 1): the deal is void (S3)
    void = make_deck(4, BID_FLOOR, ["2C 3D 8H AS"])
    m = new_match()
    events = m.deal(void)
    assert of_kind(events, "void") == [("0", "2C", "3D", "8H", "AS")]  # shown to all
    assert [e.audience for e in events if e.kind == "void"] == [None]
    assert of_kind(events, "table") == []  # the floor is never turned up
    assert of_kind(events, "score") == [("1", "0", "0", "0", "0")]
    assert m.deal_scores == (DealScore(1, (0, 0, 0, 0), (0, 0, 0, 0), ("void",)),)
    assert m.side_totals == [0, 0]
    assert m.decisions() == () and m.needs_deal() and not m.is_over()
    # the same dealer deals again, however often
    events = m.deal(void)
    assert of_kind(events, "deal") == [("2", "1", "0")] and of_kind(events, "void")
    events = m.deal(quiet_a_deck([]))
    assert of_kind(events, "deal") == [("3", "1", "0")]
    assert m.decisions()[0].kind == "bid"


def test_void_deal_without_showing_the_hand():
    m = new_match(redeal_reveals_hand="false")
    events = m.deal(make_deck(4, BID_FLOOR, ["2C 3D 8H AS"]))
    assert of_kind(events, "void") == [("0",)]


def test_void_deal_keeps_the_dealer_with_pagat_rotation():
    m = new_match(dealer_rotation="pagat_score_based")
    m.deal(make_deck(4, BID_FLOOR, ["2C 3D 8H AS"]))
    events = m.deal(quiet_a_deck([]))
    assert of_kind(events, "deal") == [("2", "1", "0")]


# -- dealer rotation (S22) ----------------------------------------------------------------------
#
# QUIET_A (seep_deals.py) with side-B units b: side B (positions 1+3) scores sum(b), side A
# (positions 0+2) 100 - sum(b). With dealer 1 the positions 0 1 2 3 are seats 0 3 2 1, so side A
# is seats 0+2 and the dealer's side is B (seats 1+3).

B30 = ["J2", "T2", "92"]  # 11 + 10 + 9 = 30
B50 = ["J2", "T2", "92", "82", "72", "52"]  # 11 + 10 + 9 + 8 + 7 + 5 = 50


def play_quiet(m, b_units) -> list[Event]:
    events = start(m, quiet_a_deck(b_units), 12)
    return events + play(m, quiet_a(b_units))


def test_ccw_rotation_passes_the_deal_to_the_previous_bidder():
    m = new_match()
    play_quiet(m, B30)
    assert m.side_totals == [70, 30]
    events = m.deal(quiet_a_deck(B30))
    assert of_kind(events, "deal") == [("2", "0", "3")]  # dealer 1-1 = 0, bidder 3
    events = m.apply(3, "12") + play(m, quiet_a(B30))
    # now positions 0 1 2 3 are seats 3 2 1 0: side A of the script is seats 3+1
    assert of_kind(events, "score") == [("2", "30", "70", "30", "70")]
    assert m.side_totals == [100, 100]
    events = m.deal(quiet_a_deck(B30))
    assert of_kind(events, "deal") == [("3", "3", "2")]


def test_pagat_rotation_dealer_stays_while_not_ahead():
    m = new_match(dealer_rotation="pagat_score_based")
    play_quiet(m, B30)  # seats 0+2: 70, seats 1+3 (the dealer's side): 30, behind
    assert m.side_totals == [70, 30]
    # deal 2, same dealer 1 and bidder 0: every unit to side B (seats 1+3): 75; side A gets
    # only the leftover KS 13 + QS 12 = 25
    events = play_quiet(m, QUIET_A_UNITS)
    assert of_kind(events, "deal") == [("2", "1", "0")]
    assert of_kind(events, "score") == [("2", "25", "75", "25", "75")]
    assert m.side_totals == [95, 105]  # 70 + 25 and 30 + 75: the dealer's side is ahead now
    events = m.deal(quiet_a_deck(B30))
    assert of_kind(events, "deal") == [("3", "0", "3")]  # the deal passes to the right


def test_pagat_rotation_dealer_stays_when_level():
    m = new_match(dealer_rotation="pagat_score_based")
    play_quiet(m, B50)
    assert m.side_totals == [50, 50]
    events = m.deal(quiet_a_deck(B30))
    assert of_kind(events, "deal") == [("2", "1", "0")]
