"""Seep: the opening, captures, houses (build, cement, break), throws and the move options, on
hand-built positions with worked-out legal move lists.

Rules: ../shared/RULES.md section 2 (S4, S6-S15, S24-S26, S30) and section 6 "Precisions";
seed 002 (Preparazione 5, Svolgimento 2-7). Capture values: A 1, 2-10, J 11, Q 12, K 13.
Moves are listed by verb (take, build, cement, break, throw), then by hand card in canonical
order (clubs, diamonds, hearts, spades; 2 .. A, the ace last), then by token. With
first_dealer=1 the bidder is seat 0 and play goes 0, 3, 2, 1 (positions 0, 1, 2, 3).
"""

from __future__ import annotations

import copy
import random

import pytest

from cardcli.cards import cards, french_52
from cardcli.errors import IllegalMoveError, InvalidMoveError
from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.seep.rules import House
from cardcli.plugins.seep.floor import all_sums, sum_groups

from seep_deals import (
    HOUSE_FLOOR,
    canonical,
    house_opened,
    make_deck,
    moves,
    new_match,
    of_kind,
    of_verb,
    play,
    start,
    texts,
)


def house(value: int, items: str, cemented: bool, owners) -> House:
    """A House as the engine keeps it: cards in canonical order."""
    return House(value, tuple(canonical(cards(items))), cemented, frozenset(owners))


def snapshot(m):
    return (m.decisions(), [list(h) for h in m.hands], list(m.loose), dict(m.houses), m.turn)


def refused(m, seat: int, token: str, error=IllegalMoveError) -> None:
    """``token`` is refused and nothing changes."""
    before = snapshot(m)
    with pytest.raises(error):
        m.apply(seat, token)
    assert snapshot(m) == before


def opening(bidder: str, floor: str, bid: int, **options):
    m = new_match(**options)
    start(m, make_deck(4, floor, [bidder]), bid)
    return m


# -- the opening (S4) ---------------------------------------------------------------------------


def test_opening_build_of_the_bid_value_or_throw_of_the_bid_card():
    # bidder 5C TD 8S 4H, bid 10; floor 3D 2H 6C KS (the seed's example: 5♣ on 3♦+2♥)
    # builds of 10, keeping TD: 5C + 3D+2H; 4H + 6C; 8S + 2H (none leaves a 10-group loose:
    #   6C+3D = 9, 3D+2H = 5, 6C+2H = 8); TD alone needs loose cards making 10: none.
    # capture with TD: no floor group makes 10 -> TD may be thrown (it captures nothing).
    # 8S, 4H, 5C may not be thrown: only the bid card is thrown at the opening.
    m = opening("5C TD 8S 4H", HOUSE_FLOOR, 10)
    assert moves(m) == ["build:10:5C+3D+2H", "build:10:4H+6C", "build:10:8S+2H", "throw:TD"]
    refused(m, 0, "throw:5C")
    refused(m, 0, "build:9:4H+3D+2H")  # 9 is not the bid (nor held)
    events = play(m, ["build:10:5C+3D+2H"])
    assert m.houses == {10: house(10, "5C 3D 2H", False, {0})}
    assert texts(m.loose) == ["6C", "KS"]
    assert of_kind(events, "table") == [("6C", "KS", "h10:o:0:5C+3D+2H")]
    assert m.decisions()[0].seat == 3


def test_opening_capture_with_the_bid_card():
    # bidder TS 4C 5D 9H (bids 9 and 10), bid 10; floor 3C 7D 6H KC (the seed: 10♠ takes 7♦+3♣)
    # capture with TS: the only 10-group is 3C+7D. Build of 10 with 4C + 6H, which must take in
    # the loose 3C+7D (Precisions: a new house takes every loose group of its value) and keeps
    # TS. 5D needs 5 and 9H needs 1 from the floor: no. TS alone onto 3C+7D would leave no 10.
    # TS captures, so it may not be thrown.
    m = opening("TS 4C 5D 9H", "7D 3C 6H KC", 10)
    assert moves(m) == ["take:TS:3C+7D", "build:10:4C+6H,3C+7D"]
    refused(m, 0, "throw:TS")
    events = play(m, ["take:TS:3C+7D"])
    assert texts(m.loose) == ["KC", "6H"] and m.houses == {}
    assert of_kind(events, "seep") == []


def test_opening_throw_only_when_the_bid_card_captures_nothing():
    # bidder QH QD 2C 3D, bid 12; floor KC KD KS 5H: no 12-group on the floor; 2C would need
    # 10 and 3D 9 from it: no build. Both queens may be thrown, nothing else.
    m = opening("QH QD 2C 3D", "KC KD KS 5H", 12)
    assert moves(m) == ["throw:QD", "throw:QH"]
    refused(m, 0, "throw:2C")


def test_opening_bid_card_onto_its_value_with_a_second_one_kept_is_a_cemented_build():
    # bidder TD TS 8S 4H, bid 10; floor 3D 7H 6C KS. 10-groups on the floor: 3D+7H only.
    #   take:TD / take:TS 3D+7H;
    #   TD (or TS) alone onto 3D+7H, the other ten kept: a cemented house (Precisions, S4 B);
    #   4H + 6C = 10, taking in 3D+7H: cemented too. 8S needs 2: no.
    m = opening("TD TS 8S 4H", "3D 7H 6C KS", 10)
    assert moves(m) == [
        "take:TD:3D+7H",
        "take:TS:3D+7H",
        "build:10:TD,3D+7H",
        "build:10:4H+6C,3D+7H",
        "build:10:TS,3D+7H",
    ]
    play(m, ["build:10:TD,3D+7H"])
    assert m.houses == {10: house(10, "TD 3D 7H", True, {0})}
    assert texts(m.loose) == ["6C", "KS"]


def test_opening_seep_is_worth_25():
    # bidder KH 2S 3S 4S, bid 13; floor 2C 3D 8H KD: 13-groups 2C+3D+8H and KD, disjoint:
    # the maximal capture takes all four floor cards, leaving the floor empty.
    # (Builds of 13 keeping KH, each taking in the loose KD: 2S + 3D+8H, 3S + 2C+8H; 4S
    # would need 9 from the floor: no.)
    m = opening("KH 2S 3S 4S", "2C 3D 8H KD", 13)
    assert moves(m) == ["take:KH:2C+3D+8H,KD", "build:13:2S+3D+8H,KD", "build:13:3S+2C+8H,KD"]
    events = play(m, ["take:KH:2C+3D+8H,KD"])
    assert of_kind(events, "seep") == [("0", "25")]
    assert m.loose == [] and m.houses == {}


# -- captures (S6, S15) -------------------------------------------------------------------------


def test_maximal_capture_choice_among_partitions():
    # J (11) over 2C 3C 5D 6C: the 11-groups are 2C+3C+6C and 6C+5D; they share the 6C, so
    # either one is a maximal capture (what is left, 5D or 2C+3C, makes no 11). Bidder JS KC
    # KD KH bids 11: the kings cannot build 11 and JS alone would keep no J.
    m = opening("JS KC KD KH", "2C 3C 5D 6C", 11)
    assert moves(m) == ["take:JS:2C+3C+6C", "take:JS:6C+5D"]
    refused(m, 0, "take:JS:2C+3C")  # does not make 11
    refused(m, 0, "take:JS:2C+3C+6C,6C+5D")  # the groups share 6C
    play(m, ["take:JS:6C+5D"])
    assert texts(m.loose) == ["2C", "3C"]


def test_capture_must_take_every_disjoint_group():
    # J over 4C 5C 6D 7D: 4C+7D and 5C+6D are disjoint, so both must be taken (one choice)
    m = opening("JS KC KD KH", "4C 5C 6D 7D", 11)
    assert moves(m) == ["take:JS:4C+7D,5C+6D"]
    refused(m, 0, "take:JS:4C+7D")
    refused(m, 0, "take:JS:5C+6D")
    events = play(m, ["take:JS:4C+7D,5C+6D"])
    assert of_kind(events, "seep") == [("0", "25")]


def test_capture_must_take_the_house():
    # HOUSE deal (seep_deals.py): after build:10:5C+3D+2H the floor is 6C KS + h10(5C 3D 2H).
    m = house_opened()
    # seat 3 (TS): the only capture with TS is the house; TS cannot be thrown onto it
    assert of_verb(m, "take") == ["take:6D:6C", "take:KD:KS", "take:TS:h10"]
    refused(m, 3, "throw:TS")
    # seat 3 throws 4S (4 captures nothing): the floor is 4S 6C KS + h10
    play(m, ["throw:4S"])
    # seat 2 (TC): must take the loose 6C+4S (a 10) and the house of 10 together
    assert [t for t in of_verb(m, "take") if t.startswith("take:TC")] == ["take:TC:6C+4S,h10"]
    refused(m, 2, "take:TC:h10")
    refused(m, 2, "take:TC:6C+4S")
    events = play(m, ["take:TC:6C+4S,h10"])
    assert texts(m.loose) == ["KS"] and m.houses == {}
    assert of_kind(events, "seep") == []  # KS is still on the floor


def test_full_move_list_after_an_ordinary_house():
    # Seat 3 holds AC 2C 3C 8C 6D 8D JD QD KD 9H 4S TS; floor 6C KS + h10(5C 3D 2H) of seat 0.
    #   take:   6D takes 6C; KD takes KS; TS takes the house (no loose 10-group)
    #   build:  3C+6C = 9 keeping 9H; 6D+6C = 12 keeping QD; (7 + 6C = 13 would need a 7;
    #           KD alone onto KS would keep no K; 4S+6C = 10 is the existing value: a cement)
    #   cement: 4S+6C onto the 10, keeping TS (TS alone would leave seat 3 without a 10)
    #   break:  the ordinary 10 of an opponent, one card: 2C -> 12 (QD), 3C -> 13 (KD; the new
    #           13 takes in the loose KS), AC -> 11 (JD)
    #   throw:  every card that captures nothing: not 6D (6C), KD (KS), TS (the house)
    m = house_opened()
    assert moves(m) == [
        "take:6D:6C", "take:KD:KS", "take:TS:h10",
        "build:9:3C+6C", "build:12:6D+6C",
        "cement:10:4S+6C",
        "break:10:2C", "break:10:3C,KS", "break:10:AC",
        "throw:2C", "throw:3C", "throw:8C", "throw:AC", "throw:8D", "throw:JD", "throw:QD",
        "throw:9H", "throw:4S",
    ]
    play(m, ["break:10:3C,KS"])
    # the breaker becomes the sole owner; the new 13 took in KS, so it is cemented
    assert m.houses == {13: house(13, "3C 5C 3D 2H KS", True, {3})}
    assert texts(m.loose) == ["6C"]


# -- builds (S24, S25) --------------------------------------------------------------------------


def test_build_needs_a_second_key_card():
    # bidder TS 5C 2D 8H, bid 10; floor 3C 7D 5H KC. 10-groups on the floor: 3C+7D.
    #   take:TS 3C+7D;
    #   5C + 5H = 10, taking in 3C+7D, keeps TS; 2D + 3C+5H = 10 keeps TS (7D KC make no 10);
    #   8H needs 2: no; TS alone onto 3C+7D: no second ten -> illegal.
    m = opening("TS 5C 2D 8H", "3C 7D 5H KC", 10)
    assert moves(m) == ["take:TS:3C+7D", "build:10:5C+5H,3C+7D", "build:10:2D+3C+5H"]
    refused(m, 0, "build:10:TS,3C+7D")


def test_build_of_another_value_needs_its_key_card():
    m = house_opened()
    refused(m, 3, "build:13:KD,KS")  # seat 3's only K onto KS keeps no K
    refused(m, 3, "build:10:4S+6C")  # a house of 10 exists: that is a cement, not a build
    play(m, ["throw:9H"])  # floor 6C 9H KS + h10
    # seat 2 holds TC 2S 3S 5D 5H 5S 6H 6S 7C 7D 7H QC: a Q but no 9, J or K.
    #   9: 3S+6C needs a 9 kept; 11: 5+6C or 2S+9H need a J; 13: 7+6C (taking in KS) needs a K;
    #   12: 6H+6C, 6S+6C, 3S+9H keep QC (no loose 12-group to take in); 10 is a house.
    assert of_verb(m, "build") == ["build:12:6H+6C", "build:12:3S+9H", "build:12:6S+6C"]
    refused(m, 2, "build:13:7C+6C,KS")
    refused(m, 2, "build:9:3S+6C")


# -- cementing (S11, S12) -----------------------------------------------------------------------


def test_cement_by_partner_then_by_opponent():
    m = house_opened()
    play(m, ["throw:9H"])  # seat 3: floor 6C 9H KS + h10(5C 3D 2H) of seat 0
    # seat 2 (partner; TC its only ten, no ace, no 4): loose groups 6, 9, 13, 6+9, ... so the
    # only combinations of 10 are TC alone (or a 4 or an ace, which seat 2 lacks).
    assert of_verb(m, "cement") == ["cement:10:TC"]
    play(m, ["cement:10:TC"])
    # a partner does not become an owner, so spending the only ten is fine
    assert m.houses == {10: house(10, "5C TC 3D 2H", True, {0})}
    # seat 1 (opponent; TH its only ten): 4D + 6C = 10 keeps TH; TH alone would make seat 1 a
    # co-owner without a ten
    assert of_verb(m, "cement") == ["cement:10:4D+6C"]
    refused(m, 1, "cement:10:TH")
    play(m, ["cement:10:4D+6C"])
    assert m.houses == {10: house(10, "5C 6C TC 3D 4D 2H", True, {0, 1})}
    assert texts(m.loose) == ["9H", "KS"]


def test_opponent_cement_without_becoming_owner():
    m = house_opened(opponent_cement_makes_coowner="false")
    play(m, ["throw:9H", "cement:10:TC"])
    # seat 1 does not become an owner, so TH alone is a legal cement now
    assert of_verb(m, "cement") == ["cement:10:4D+6C", "cement:10:TH"]
    play(m, ["cement:10:TH"])
    assert m.houses[10].owners == frozenset({0})


def test_cement_adds_one_combination_per_move():
    m = house_opened()
    play(m, ["throw:4S"])  # seat 3: floor 4S 6C KS + h10(5C 3D 2H); 6C+4S makes 10
    # seat 2: TC alone, or 6H / 6S + 4S; one combination per move (Precisions), so TC does not
    # also sweep the loose 6C+4S into the house
    assert of_verb(m, "cement") == ["cement:10:TC", "cement:10:6H+4S", "cement:10:6S+4S"]
    refused(m, 2, "cement:10:TC,6C+4S")
    refused(m, 2, "cement:10:TC+6C")  # does not make 10
    play(m, ["cement:10:TC"])
    assert texts(m.loose) == ["6C", "4S", "KS"]
    assert m.houses == {10: house(10, "5C TC 3D 2H", True, {0})}


# -- breaking (S13, S14) ------------------------------------------------------------------------

MERGE_FLOOR = "4C 7S AD KH"
MERGE_HANDS = (
    "9C 9D 5H 3S",  # pos0 (seat 0): bids 9, opens build:9:5H+4C keeping 9C 9D
    "5C QD",  # pos1 (seat 3): build:12:5C+7S keeping QD
    "3C QH 5D 6C 6D 7C 7D 8C 8D TC JC KC",  # pos2 (seat 2): 3C raises 9 to 12, keeps QH; no A 2 4
    "7H AC KD",  # pos3 (seat 1)
)


def merge_match(**options):
    m = new_match(**options)
    start(m, make_deck(4, MERGE_FLOOR, MERGE_HANDS), 9)
    # 5H + 4C = 9; the rest AD 7S KH makes no 9: an ordinary 9 of seat 0
    # seat 3: 5C + 7S = 12; AD KH make no 12: an ordinary 12 of seat 3
    play(m, ["build:9:5H+4C", "build:12:5C+7S"])
    assert m.houses == {9: house(9, "4C 5H", False, {0}), 12: house(12, "5C 7S", False, {3})}
    assert texts(m.loose) == ["AD", "KH"]
    return m


def test_break_onto_an_existing_value_merges():
    m = merge_match()
    # seat 2 may raise its partner's ordinary 9 with 3C to 12 (it holds QH); its hand has no
    # ace to raise the 12 to 13, and nothing else of 4 or less
    assert of_verb(m, "break") == ["break:9:3C"]
    play(m, ["break:9:3C"])
    # one house per value: the raised 9 merges into the 12, which is now cemented; its owner
    # stays and the breaker joins; seat 0's duty for the 9 ends (Precisions)
    assert m.houses == {12: house(12, "3C 4C 5C 5H 7S", True, {2, 3})}
    # seat 1 holds AC and KD: the 12 is cemented and cannot be raised to 13
    assert of_verb(m, "break") == []
    play(m, ["throw:7H"])
    # seat 0 no longer owns a house: its 9s are free (and capture nothing: the floor is AD 7H KH)
    assert {"throw:9C", "throw:9D"} <= set(moves(m))


def test_no_cementing_variant_forbids_the_merge():
    m = merge_match(variant="no_cementing")
    assert of_verb(m, "break") == []
    refused(m, 2, "break:9:3C")


def test_cemented_house_cannot_be_broken():
    # HOUSE deal: the ordinary 10 can be raised by seat 3 (see the full list above); the same
    # seat-3 hand facing a cemented 10 (the bidder's TD onto 3D+7H, keeping TS) cannot.
    ordinary = house_opened()
    assert of_verb(ordinary, "break") == ["break:10:2C", "break:10:3C,KS", "break:10:AC"]
    m = new_match()
    seat3 = "AC 2C 3C 8C 6D 8D JD QD KD 9H 4S 8H"
    start(m, make_deck(4, "3D 7H 6C KS", ["TD TS 8S 4H", seat3]), 10)
    play(m, ["build:10:TD,3D+7H"])
    assert m.houses[10].cemented
    assert of_verb(m, "break") == []
    refused(m, 3, "break:10:2C")


def test_partner_house_break_option():
    m = house_opened()
    play(m, ["throw:9H"])  # floor 6C 9H KS + h10 of seat 0
    # seat 2: 2S raises its partner's 10 to 12 keeping QC (no loose 12-group to take in);
    # 3S would make 13, but seat 2 holds no K
    assert of_verb(m, "break") == ["break:10:2S"]
    play(m, ["break:10:2S"])
    assert m.houses == {12: house(12, "5C 3D 2H 2S", False, {2})}
    m = house_opened(break_partner_house="false")
    play(m, ["throw:9H"])
    assert of_verb(m, "break") == []
    refused(m, 2, "break:10:2S")


def test_own_house_break_option():
    # seat 3 throws 9H, seat 2 throws 7C, seat 1 throws QS: none captures anything.
    # Floor 6C 7C 9H QS KS + h10 of seat 0. Seat 0 holds TD 8S 4H 4C AD AH AS JC 2D 8H 3H.
    script = ["throw:9H", "throw:7C", "throw:QS"]
    m = house_opened()
    play(m, script)
    assert of_verb(m, "break") == []  # S13: never your own house by default
    m = house_opened(break_own_house="true")
    play(m, script)
    # an ace raises 10 to 11 keeping JC (no loose 11-group: 6+5, 7+4, 9+2 are missing);
    # 2D -> 12 and 3H -> 13 would need a Q or a K
    assert of_verb(m, "break") == ["break:10:AD", "break:10:AH", "break:10:AS"]
    play(m, ["break:10:AH"])
    assert m.houses == {11: house(11, "5C 3D 2H AH", False, {0})}


def test_last_key_card_only_captures_its_house():
    # seat 0 owns the 10 and holds one ten, TD: TD may take the house, but not cement it alone
    # (seat 0 would keep no ten), nor be thrown
    m = house_opened()
    play(m, ["throw:9H", "throw:7C", "throw:QS"])
    assert [t for t in moves(m) if ":TD" in t] == ["take:TD:h10"]
    refused(m, 0, "cement:10:TD")
    refused(m, 0, "throw:TD")


# -- throws (S7) --------------------------------------------------------------------------------


def test_throw_is_illegal_when_the_card_could_capture():
    m = house_opened()
    # floor 6C KS + h10: 6D would capture 6C, KD the KS, TS the house
    for token in ("throw:6D", "throw:KD", "throw:TS"):
        assert token not in moves(m)
        refused(m, 3, token)
    refused(m, 3, "throw:5C")  # not in seat 3's hand
    refused(m, 2, "throw:9H")  # not seat 2's turn
    refused(m, 3, "throw", InvalidMoveError)
    refused(m, 3, "pass:9H", InvalidMoveError)
    play(m, ["throw:9H"])
    assert texts(m.loose) == ["6C", "9H", "KS"]


def test_throw_rule_no_other_action():
    # with throw_rule=no_other_action, a card is thrown only when no other move exists
    m = house_opened(throw_rule="no_other_action")
    assert moves(m) == [
        "take:6D:6C", "take:KD:KS", "take:TS:h10",
        "build:9:3C+6C", "build:12:6D+6C",
        "cement:10:4S+6C",
        "break:10:2C", "break:10:3C,KS", "break:10:AC",
    ]
    refused(m, 3, "throw:9H")


def test_throw_rule_no_other_action_allows_any_card_when_nothing_else_is_possible():
    # bidder QH QD 2C 8D, bid 12, floor KC KD KS 5H: no 12 on the floor, 2C and 8D build
    # nothing: the bidder throws QD. Floor KC QD KD 5H KS.
    # Seat 3 holds only cards of 1 to 4: none captures (the floor has 5, 12, 13); with 5H they
    # make 6 to 9, and 4+5 = 9 would need a 9 kept (none); with QD, an ace makes 13 but no K
    # is held. No house, so no cement or break: every card may be thrown, under both rules.
    seat3 = "2S 3S 4S AS 2D 3H 4H 2H AH AC AD 3C"
    for rule in ("card_cannot_capture", "no_other_action"):
        m = new_match(throw_rule=rule)
        start(m, make_deck(4, "KC KD KS 5H", ["QH QD 2C 8D", seat3]), 12)
        assert moves(m) == ["throw:QD", "throw:QH"]
        play(m, ["throw:QD"])
        assert texts(m.loose) == ["KC", "QD", "KD", "5H", "KS"]
        assert moves(m) == [f"throw:{c}" for c in texts(seat3)]


# -- options: retention scope, no cementing ------------------------------------------------------


def test_retention_scope_team():
    # The builder must hold the key in their own hand whatever the scope (Svolgimento 3): the
    # bidder TS 2C 3C 8H, bid 10, floor 4D 6H KC KD, the partner (seat 2) holding TD: TS onto
    # 4D+6H would need another ten in seat 0's hand, under either scope.
    deck = make_deck(4, "4D 6H KC KD", ["TS 2C 3C 8H", "", "TD 5S 6S 7S"])
    for scope in ("player", "team"):
        m = new_match(retention_scope=scope)
        start(m, deck, 10)
        assert moves(m) == ["take:TS:4D+6H"]
    # The scope decides who keeps an owner's house afterwards. Seat 0 builds h10 keeping its
    # second ten (TC) and then holds TC and KC with 3D loose: building 13 with TC + 3D spends
    # its last ten. Under the player scope the house of 10 would be left without its key;
    # under the team scope the partner's TD keeps it.
    deck = make_deck(4, "4D 6H KC 5C", ["TS TC 3C 8H", "", "TD 5S 6S 7S"])
    for scope, allowed in (("player", False), ("team", True)):
        m = new_match(retention_scope=scope)
        start(m, deck, 10)
        play(m, ["build:10:TS,4D+6H"])
        assert m.houses == {10: house(10, "4D 6H TS", True, {0})}
        m.hands[0] = cards("TC KC 2H")
        m.loose = cards("3D")
        m.turn = 0
        m._moves_cache = None
        assert ("build:13:TC+3D" in moves(m)) is allowed


def test_no_cementing_variant():
    # the opening of test_opening_capture_with_the_bid_card: the build 4C+6H no longer takes in
    # the loose 3C+7D (no consolidation, S30)
    m = opening("TS 4C 5D 9H", "7D 3C 6H KC", 10, variant="no_cementing")
    assert moves(m) == ["take:TS:3C+7D", "build:10:4C+6H"]
    m = new_match(variant="no_cementing")
    seat3 = "TD 3D AC JD 9S 8S 7S 6S 5S 4S 3S 2S"
    start(m, make_deck(4, "7D 3C 6H KC", ["TS 4C 5D 9H", seat3]), 10)
    play(m, ["build:10:4C+6H"])
    # the loose 3C+7D stays beside the ordinary house of 10
    assert m.houses == {10: house(10, "4C 6H", False, {0})}
    assert texts(m.loose) == ["3C", "KC", "7D"]
    # seat 3: no cement at all (3D+7D would cement the 10); TD must take 3C+7D and the house
    assert of_verb(m, "cement") == []
    refused(m, 3, "cement:10:3D+7D")
    assert [t for t in moves(m) if t.startswith("take:TD")] == ["take:TD:3C+7D,h10"]
    refused(m, 3, "take:TD:h10")
    # an opponent's ordinary house can still be raised: AC -> 11 keeping JD; 3D -> 13 has no K;
    # 2S -> 12 has no Q; 3S -> 13 no K
    assert of_verb(m, "break") == ["break:10:AC"]


# -- a move checked alone, as verify checks it ---------------------------------------------


@pytest.mark.parametrize("options", [{}, {"throw_rule": "no_other_action"}, {"cementing": False}])
def test_a_move_checked_without_the_list_is_accepted_and_refused_as_with_it(options) -> None:
    """``apply`` on a state whose moves were never listed (``verify``'s case) takes every listed
    move and refuses the others: tokens of another turn, and every card thrown."""
    rng = random.Random(7)
    setup = registry.resolve("seep", None, options, None, 3)
    m = setup.new_match()
    earlier: list[str] = []
    checked = 0
    while not m.is_over() and checked < 60:
        if m.needs_deal():
            m.deal(shuffled(3, m.deal_number, setup.spec.deck()))
            continue
        cold = copy.deepcopy(m)
        (decision,) = m.decisions()
        listed = set(decision.moves)
        if decision.kind == "play":
            hand_throws = {f"throw:{c.text}" for c in m.hands[decision.seat]}
            for token in sorted(listed | hand_throws | set(earlier[-10:])):
                probe = copy.deepcopy(cold)
                if token in listed:
                    probe.apply(decision.seat, token)
                else:
                    with pytest.raises((IllegalMoveError, InvalidMoveError)):
                        probe.apply(decision.seat, token)
            checked += 1
            earlier += decision.moves
        m.apply(decision.seat, rng.choice(decision.moves))
    assert checked == 60


def test_every_sum_found_in_one_walk_is_what_each_sum_alone_finds() -> None:
    """The floor's groups by value, found at once for a whole turn, come in the order (and
    so give the tokens) that looking for each value alone gives."""
    rng = random.Random(11)
    deck = list(french_52())
    for _ in range(200):
        floor = rng.sample(deck, rng.randint(0, 14))
        found = all_sums(floor)
        assert all(found.get(t, []) == sum_groups(floor, t) for t in range(1, 14))
        assert set(found) <= set(range(1, 14))
