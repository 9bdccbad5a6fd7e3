"""Seep: the decisions taken after an independent engine's differential test, one scripted
position each (docs/rules/seep.md states them with the seed sentence each follows).

Mid-deal positions are set up by :func:`position`: a real deal, then the hands, the floor, the
houses, the captured piles and the turn as the position says, written in the project's
notation (houses as ``h<value>:<o|c>:<owners>:<cards>``). Seats 0+2 and 1+3 are partners in
4-player games.
"""

from __future__ import annotations

import pytest

from cardcli.cards import cards, french_52
from cardcli.errors import IllegalMoveError, OptionError
from cardcli.games import registry
from cardcli.plugins.seep.rules import House, Phase

from seep_deals import canonical, make_deck, moves, new_match, start


def house(text: str) -> House:
    """``h10:o:1:4C+6S`` as the engine keeps it."""
    head, kind, owners, items = text.split(":")
    return House(int(head[1:]), tuple(canonical(cards(items.replace("+", " ")))), kind == "c",
                 frozenset(int(o) for o in owners.split(",")))


def position(n: int, turn: int, hands: dict[int, str], loose: str = "", houses: tuple[str, ...] = (),
             piles: tuple[str, ...] = (), totals: tuple[int, ...] = (), match=None, **options):
    """A match in the middle of a deal: ``turn`` to play, every other card already played.
    ``piles`` are the sides' captured cards so far; with ``match``, the position is set in
    that match's next deal (its totals carry on)."""
    m = match if match is not None else new_match(n=n, **options)
    m.deal(french_52())
    if m.phase == Phase.BID:
        m.apply(m.bidder, m.decisions()[0].moves[0])
    m.phase = Phase.PLAY
    m._later = []
    m.hands = [list(canonical(cards(hands.get(s, "")))) for s in range(n)]
    m.loose = list(canonical(cards(loose)))
    m.houses = {h.value: h for h in map(house, houses)}
    m.piles = [list(cards(p)) for p in piles] if piles else [[] for _ in m.sides]
    m.bonus = [0] * len(m.sides)
    m.last_capturer = None
    if totals:
        m.side_totals = list(totals)
    m.turn = turn
    m._moves_cache = None
    return m


def opening(bidder: str, floor: str, bid: int, **options):
    m = new_match(**options)
    start(m, make_deck(4, floor, [bidder]), bid)
    return m


def end_deal(m) -> None:
    """Play the last card of the deal: a throw onto an empty floor, which scores nothing."""
    (decision,) = m.decisions()
    m.apply(decision.seat, decision.moves[0])
    assert m.needs_deal() or m.is_over()


# -- 1-3: who wins the baazi ------------------------------------------------------------------

# standard100 points: spades their value, other aces 1, 10♦ 6
P46 = "KS QS JS TS"  # 13 + 12 + 11 + 10
P46B = "9S 7S 6S 5S 4S 3S 2S AS AC AD AH TD"  # 37 + 3 + 6
P8 = "8S"


def test_three_players_one_under_nine_and_the_best_totals_tied_play_extra_deals() -> None:
    # deal points 46, 46, 8: seat 2 is under 9 and has lost; seats 0 and 1 are tied for the
    # best total, so the baazi goes on until one of them is ahead
    m = position(3, 0, {0: "2C"}, piles=(P46, P46B, P8))
    end_deal(m)
    assert m.deal_scores[-1].points == (46, 46, 8)
    assert not m.is_over() and m.needs_deal()
    assert m.deal_scores[-1].notes == ("under 9: 2", "tied for the best total: 0, 1; another deal")
    # the extra deal: seat 1 scores more than seat 0; seat 2 scores well but stays a loser
    m = position(3, 0, {0: "2C"}, piles=("QS 5S", "KS JS TS 9S", "8S 7S 6S 4S 3S 2S AS AC AD AH TD"), match=m)
    end_deal(m)
    assert m.is_over()
    out = m.outcome()
    assert (out.winners, out.losers, out.draws) == ((1,), (0, 2), ())


def test_three_players_one_under_nine_one_winner_and_everyone_else_loses() -> None:
    # 65, 28, 7: seat 0 has the best total among those not under 9 and wins; seat 1 (neither
    # under nor best) loses with seat 2
    m = position(3, 0, {0: "2C"}, piles=("KS QS JS TS 9S 8S 2S", "7S 6S 5S 4S TD", "3S AS AC AD AH"))
    end_deal(m)
    assert m.deal_scores[-1].points == (65, 28, 7)
    out = m.outcome()
    assert (out.winners, out.losers, out.draws) == ((0,), (1, 2), ())


@pytest.mark.parametrize("n", [2, 4])
def test_every_side_under_the_minimum_loses_and_nobody_wins(n: int) -> None:
    # min_deal_points 55, a deal of 52 to 48: "that pair loses" holds for each side
    piles = ("KS QS JS TS 4S 2S", "9S 8S 7S 6S 5S 3S AS AC AD AH TD")
    m = position(n, 0, {0: "2C"}, piles=piles, min_deal_points="55")
    end_deal(m)
    assert m.deal_scores[-1].points[:2] == (52, 48)
    out = m.outcome()
    assert out.winners == () and out.draws == () and out.losers == tuple(range(n))


def test_two_players_one_under_nine_the_other_wins() -> None:
    m = position(2, 0, {0: "2C"}, piles=("KS QS JS TS 9S 7S 6S 5S 4S 3S 2S AS AC AD AH TD", P8))
    end_deal(m)
    out = m.outcome()
    assert (out.winners, out.losers, out.draws) == ((0,), (1,), ())


# -- 4-5: the retention duty --------------------------------------------------------------------


def test_a_builder_must_hold_the_new_value_even_when_the_team_keeps_houses() -> None:
    # seat 0 holds 2C 9C 4H, its partner KD; loose 4D: 9C+4D = 13, but seat 0 has no king
    m = position(4, 0, {0: "2C 9C 4H", 2: "KD", 1: "5C", 3: "6C"}, loose="4D", retention_scope="team")
    assert "build:13:9C+4D" not in moves(m)
    with pytest.raises(IllegalMoveError):
        m.apply(0, "build:13:9C+4D")
    # with the king in seat 0's own hand the same build is offered
    m = position(4, 0, {0: "2C 9C KD", 2: "4H", 1: "5C", 3: "6C"}, loose="4D", retention_scope="team")
    assert "build:13:9C+4D" in moves(m)


def test_a_breaker_must_hold_the_new_value_even_when_the_team_keeps_houses() -> None:
    # seat 0 holds 3C 5H, loose 8D, an opponent's h10:o:1:4C+6S; the partner holds the king
    m = position(4, 0, {0: "3C 5H", 2: "KC", 1: "TC", 3: "7C"}, loose="8D", houses=("h10:o:1:4C+6S",),
                 retention_scope="team")
    assert moves(m) == ["throw:3C", "throw:5H"]
    for token in ("break:10:3C", "build:13:5H+8D"):
        with pytest.raises(IllegalMoveError):
            m.apply(0, token)
    # with the king in seat 0's own hand both are offered
    m = position(4, 0, {0: "3C 5H KC", 2: "9C", 1: "TC", 3: "7C"}, loose="8D", houses=("h10:o:1:4C+6S",),
                 retention_scope="team")
    assert {"break:10:3C", "build:13:5H+8D"} <= set(moves(m))


def test_with_last_key_capture_only_off_every_owner_of_the_changed_house_keeps_a_key() -> None:
    # seat 2 cements h10 (owners 0 and 3) with its last ten while seat 0 holds no ten: owner
    # 0's side would hold no ten afterwards, so the cement is refused; the capture is not
    m = position(4, 2, {2: "4C TH", 0: "5C", 1: "TC", 3: "TS"}, houses=("h10:c:0,3:4D+6D+3D+7D",),
                 retention_scope="team", last_key_capture_only="false")
    assert moves(m) == ["take:TH:h10", "throw:4C"]
    with pytest.raises(IllegalMoveError):
        m.apply(2, "cement:10:TH")
    # the same with a ten in seat 0's hand: the side keeps its key, the cement is allowed
    m = position(4, 2, {2: "4C TH", 0: "TD", 1: "TC", 3: "TS"}, houses=("h10:c:0,3:4D+6D+3D+7D",),
                 retention_scope="team", last_key_capture_only="false")
    assert "cement:10:TH" in moves(m)


# -- 6-7: the opening ---------------------------------------------------------------------------


def test_an_opening_the_allowed_kinds_leave_empty_offers_every_kind_with_the_compulsory_capture() -> None:
    # build_bid_value only, bid 13: no build of 13 exists, so every kind is offered; KD
    # captures KS, so the capture is the opening and KD may not be thrown
    m = opening("2C 2D KD 7H", "7C QD 2S KS", 13, opening_allowed="build_bid_value")
    assert moves(m) == ["take:KD:KS"]
    # throw_bid_card only, bid 12: QH captures QC, so it may not be thrown; the builds of 12
    # and the capture are the opening
    m = opening("2C JC 6D QH", "6C QC AC 2S", 12, opening_allowed="throw_bid_card")
    offered = moves(m)
    assert "throw:QH" not in offered and "take:QH:QC" in offered
    assert {t.split(":")[0] for t in offered} == {"take", "build"}
    assert all(t.startswith("build:12:") for t in offered if t.startswith("build"))


def test_the_opening_under_no_other_action_counts_only_opening_moves() -> None:
    # bid 9: no build of 9 and no capture with a 9 exists; KS could take KD, but that is no
    # opening. Every 9 that captures nothing may be thrown.
    m = opening("9C 9D 3H KS", "2C KD 8H QS", 9, throw_rule="no_other_action")
    assert moves(m) == ["throw:9C", "throw:9D"]


# -- 8-9: option sets refused, and an option that does nothing ---------------------------------


@pytest.mark.parametrize("given, why", [
    ({"reveal_floor_before_bid": "true", "bid_requires_floor_feasibility": "true",
      "opening_allowed": "throw_bid_card"}, "every deal would be void"),
    ({"scoring": "thirty", "sweep": "30"}, "do not apply"),
    ({"scoring": "thirty", "sweep_last": "10"}, "do not apply"),
])
def test_option_sets_that_cannot_mean_anything_are_refused(given: dict[str, str], why: str) -> None:
    with pytest.raises(OptionError, match=why):
        registry.resolve("seep", None, given, 4, 1)
    with pytest.raises(OptionError, match=why):
        registry.resolve("seep", "thirty" if "scoring" in given else None, given, 4, 1)


def test_feasibility_with_the_floor_face_down_is_said_to_do_nothing() -> None:
    setup = registry.resolve("seep", None, {"bid_requires_floor_feasibility": "true"}, 4, 1)
    assert any("no effect" in w for w in setup.warnings())
    setup = registry.resolve("seep", None, {"bid_requires_floor_feasibility": "true",
                                            "reveal_floor_before_bid": "true"}, 4, 1)
    assert setup.warnings() == ()


def test_under_thirty_a_seep_is_the_cards_value_and_nothing_on_the_last_play() -> None:
    # the last play of the deal sweeps the floor: 0, not sweep_last
    m = position(4, 0, {0: "KC"}, loose="KD", variant="thirty")
    m.last_capturer = 0
    m.apply(0, "take:KC:KD")
    assert m.bonus == [0, 0]
    m = position(4, 0, {0: "KC 2C"}, loose="KD", variant="thirty")
    m.apply(0, "take:KC:KD")
    assert m.bonus == [13, 0]
