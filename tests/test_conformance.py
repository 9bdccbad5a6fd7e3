"""The conformance suite: many seeded random matches of every registered game, variant and
player count, to the end, with invariants checked on the way and on the record.

A game added to the registry, a plugin's included, is covered automatically, with the
invariants every game keeps (:func:`every_game_invariants`); a game's own invariants are
added where ``INVARIANTS`` below has them.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest

from cardcli.games import registry
from cardcli.games.base import Event
from cardcli.games.dealing import shuffled
from cardcli.games.notation import spent_card
from cardcli.plugins.peppa.rules import CARD_VALUES
from cardcli.games.tricks import step
from cardcli.replay import verify, walk
from harness import Played, every_game_variant_and_count, install_briscola, play, random_options

MATCHES = 12


def peppa_invariants(played: Played) -> None:
    record = played.result.record
    setup = registry.resolve("peppa", record["variant"], record["options"], 4, record["seed"])
    deck = {c.text for c in setup.spec.deck()}
    clockwise = record["options"]["play_direction"] == "cw"
    deal_total = sum(CARD_VALUES[record["options"]["card_values"]].values())
    for deal in record["deals"]:
        hands = deal["hands"]
        assert sum(len(h) for h in hands) == 52 and set().union(*map(set, hands)) == deck, "every card dealt once"
        plays = [m["move"] for m in deal["moves"] if m["kind"] == "play"]
        assert sorted(plays) == sorted(deck), "every card played (and so taken) exactly once"
        passes = [m for m in deal["moves"] if m["kind"] == "pass"]
        assert len(passes) in (0, 4)
        assert sum(deal["points"]) in (deal_total, 3 * deal_total), "a deal scores 36/265, or three times that"
    _check_turn_order(played.events, clockwise)
    totals = [0, 0, 0, 0]
    for deal in record["deals"]:
        totals = [t + p for t, p in zip(totals, deal["points"])]
        assert totals == deal["totals"]
    result = record["result"]
    assert sorted(result["winners"] + result["losers"]) == [0, 1, 2, 3]
    assert max(totals) > record["options"]["end_threshold"] or (
        record["options"]["end_inclusive"] and max(totals) >= record["options"]["end_threshold"]
    )
    assert max(totals[s] for s in result["winners"]) <= min(totals[s] for s in result["losers"])


def _check_turn_order(events: tuple[Event, ...], clockwise: bool, num_players: int = 4) -> None:
    """Within a trick each play comes from the next seat in the direction of play; the taker of
    a trick leads the next one."""
    expected: int | None = None
    for e in events:
        if e.kind == "trick":
            expected = int(e.args[1])
        elif e.kind == "play":
            assert expected is not None and int(e.args[0]) == expected, "turn order"
            expected = step(expected, num_players, clockwise)
        elif e.kind == "taken":
            expected = int(e.args[1])


SEEP_DEAL_POINTS = {"standard100": {100}, "thirty": {26, 30}, "casual_ten_two": {96, 100}}
"""Card points of a deal; the 4-point majority bonus is not won when no side has a majority."""


def seep_invariants(played: Played) -> None:
    record = played.result.record
    options = record["options"]
    n = len(record["seats"])
    sides = [(0, 2), (1, 3)] if n == 4 else [(s,) for s in range(n)]
    for deal in record["deals"]:
        dealt = [c for h in deal["hands"] for c in h] + deal["floor"]
        assert len(dealt) == 52 and len(set(dealt)) == 52, "every card dealt once"
        if deal["notes"] == ["void"]:
            assert deal["moves"] == [] and not any(deal["points"])
            continue
        plays = [m for m in deal["moves"] if m["kind"] == "play"]
        assert len(plays) == 48, "every card but the floor is played once"
        assert sorted(spent_card(m["move"]) for m in plays) == sorted(c for h in deal["hands"] for c in h)
    # Per-deal card points: the deal's points less its seep bonuses are the scoring table's total
    # (unless the last floor went to nobody, which needs a deal without any capture).
    bonuses: list[int] = []
    hands: dict[int, list[str]] = {}
    expected_turn: int | None = None
    deal_points = SEEP_DEAL_POINTS[options["scoring"]]
    for e in played.events:
        if e.kind == "deal":
            bonuses = [0] * len(sides)
            expected_turn = int(e.args[2])
        elif e.kind == "hand":
            hands[next(iter(e.audience))] = list(e.args)
        elif e.kind == "play":
            seat = int(e.args[0])
            assert seat == expected_turn, "play goes counter-clockwise from the bidder"
            expected_turn = (seat - 1) % n
            hands[seat].remove(spent_card(e.args[1]))
        elif e.kind == "seep":
            side = next(i for i, sd in enumerate(sides) if int(e.args[0]) in sd)
            bonuses[side] += int(e.args[1])
        elif e.kind == "table":
            for item in e.args:
                if item.startswith("h"):
                    value, _, owners, cards = item[1:].split(":")
                    assert 9 <= int(value) <= 13, "houses are 9 to 13"
                    total = sum(1 if c[0] == "A" else "23456789TJQK".index(c[0]) + 2 for c in cards.split("+"))
                    assert total % int(value) == 0, "a house's cards are combinations of its value"
                    if options["last_key_capture_only"]:
                        for owner in map(int, owners.split(",")):
                            keepers = next(sd for sd in sides if owner in sd) if options["retention_scope"] == "team" else (owner,)
                            assert any(
                                (1 if c[0] == "A" else "23456789TJQK".index(c[0]) + 2) == int(value)
                                for k in keepers for c in hands[k]
                            ), "every owner holds a card of the house value"
        elif e.kind == "score" and not all(p == "0" for p in e.args[1:]):
            points = [int(e.args[1 + sd[0]]) for sd in sides]
            assert sum(points) - sum(bonuses) in deal_points
    totals = [0] * n
    for deal in record["deals"]:
        totals = [t + p for t, p in zip(totals, deal["points"])]
        assert totals == deal["totals"]
    result = record["result"]
    assert result["winners"] or result["draws"]
    assert sorted(result["winners"] + result["losers"] + result["draws"]) == list(range(n))


def pigugnin_invariants(played: Played) -> None:
    record = played.result.record
    n = len(record["seats"])
    deck = {c.text for c in registry.get("pigugnin").deck()}
    assert len(deck) == 40
    for deal in record["deals"]:
        assert [len(h) for h in deal["hands"]] == [40 // n] * n
        assert set().union(*map(set, deal["hands"])) == deck, "every card dealt once"
        assert sorted(m["move"] for m in deal["moves"]) == sorted(deck), "every card played once"
    _check_turn_order(played.events, record["options"]["direction"] == "cw", n)
    busche: list[int] = [0] * n
    for e in played.events:
        if e.kind == "deal":
            busche = [0] * n
        elif e.kind == "points":
            assert sum(map(int, e.args)) == 35, "35 points a deal"
        elif e.kind == "busca":
            busche[int(e.args[0])] += int(e.args[2])
        elif e.kind == "score":
            assert list(map(int, e.args[1:])) == busche, "a deal's busche are the sum of its reasons"
            assert sum(1 for b in busche if b) >= 1, "somebody always pays (at least the Pigugnìn)"
    totals = [0] * n
    for deal in record["deals"]:
        totals = [t + p for t, p in zip(totals, deal["points"])]
        assert totals == deal["totals"]
    result = record["result"]
    if result["annulled"]:
        assert result["winners"] == result["losers"] == []
    else:
        assert sorted(result["winners"] + result["losers"] + result["draws"]) == list(range(n))
        assert result["winners"] and result["losers"]


PEPPER_ORDER = "9TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def pepper_trick_winner(plays: list[tuple[int, str]], trump: str | None, left_is_trump: bool) -> int:
    """An independent reading of the seed's ranking, to check the engine's trick winners."""

    def suit(card: str) -> str:
        if trump and left_is_trump and card[0] == "J" and card[1] == SAME_COLOUR[trump]:
            return trump
        return card[1]

    def power(card: str) -> int:
        if trump and suit(card) == trump:
            if card == "J" + trump:
                return 100
            if card[0] == "J" and left_is_trump:
                return 99
            return 50 + PEPPER_ORDER.index(card[0])
        return PEPPER_ORDER.index(card[0]) + (10 if suit(card) == suit(plays[0][1]) else -100)

    return max(plays, key=lambda p: power(p[1]))[0]


def pepper_invariants(played: Played) -> None:
    record = played.result.record
    n = len(record["seats"])
    sides = [(0, 2), (1, 3)] if n == 4 else [(s,) for s in range(n)]
    hand_size = 6 if n == 4 else 8
    left_is_trump = record["options"]["left_bower_is_trump"]
    deck = {c.text for c in registry.get("pepper").deck()}
    for deal in record["deals"]:
        dealt = [c for h in deal["hands"] for c in h] + deal.get("dead", [])
        assert len(dealt) == 24 and set(dealt) == deck, "24 cards, each dealt once"
        assert [len(h) for h in deal["hands"]] == [hand_size] * n
        assert ("dead" in deal) == (n == 2)
        plays = [m["move"] for m in deal["moves"] if m["kind"] == "play"]
        if deal["notes"] != ["all passed"]:
            assert sorted(plays) == sorted(c for h in deal["hands"] for c in h), "every hand card played once"
    trump: str | None = None
    trick: list[tuple[int, str]] = []
    tricks = [0] * n
    contract: tuple[int, str] = (0, "")
    totals = [0] * len(sides)
    for e in played.events:
        if e.kind == "deal":
            tricks = [0] * n
        elif e.kind == "contract":
            contract = (int(e.args[0]), e.args[1])
        elif e.kind == "trump":
            trump = None if e.args[1] == "NT" else e.args[1]
        elif e.kind == "trick":
            trick = []
            if e.args[0] == "1":
                assert int(e.args[1]) == contract[0], "the declarer leads"
        elif e.kind == "play":
            if trick:
                assert int(e.args[0]) == (trick[-1][0] + 1) % n, "play goes clockwise"
            trick.append((int(e.args[0]), e.args[1]))
        elif e.kind == "taken":
            assert int(e.args[1]) == pepper_trick_winner(trick, trump, left_is_trump)
            tricks[int(e.args[1])] += 1
        elif e.kind in ("made", "set"):
            declarer, bid = contract
            side = next(i for i, sd in enumerate(sides) if declarer in sd)
            won = [sum(tricks[s] for s in sd) for sd in sides]
            need = hand_size if bid in ("small", "big") else int(bid)
            assert (e.kind == "made") == (won[side] >= need)
            penalty = 6 if n == 4 else 8
            expected = list(won)
            if bid == "big":
                expected[side] = 2 * penalty if e.kind == "made" else -2 * penalty
            elif e.kind == "set":
                expected[side] = -penalty
            totals = [t + x for t, x in zip(totals, expected)]
        elif e.kind == "totals":
            assert [int(e.args[sd[0]]) for sd in sides] == totals
    result = record["result"]
    assert result["winners"] and sorted(result["winners"] + result["losers"]) == list(range(n))
    best = max(totals)
    assert {s for i, sd in enumerate(sides) if totals[i] == best for s in sd} == set(result["winners"])
    if not record["adjudicated"]:
        assert best >= record["options"]["target"]


RECORD_KEYS = frozenset({"number", "dealer", "hands", "moves", "points", "totals", "notes"})
"""A recorded deal's keys that are not places cards are dealt to (beside ``hands``, a game's
facts name its own: Seep's floor, Pepper's dead hand, a stock)."""


def every_game_invariants(played: Played) -> None:
    """What every game keeps, whatever its rules: each deal deals every card of the deck once
    (to the hands and the game's other places), no card is played twice in a deal, the totals
    add up the deal points, events go only to seats of the match, and the result places every
    seat once (unless the match is annulled)."""
    record = played.result.record
    n = len(record["seats"])
    deck = sorted(c.text for c in registry.get(record["game"]).deck())
    totals: list[int] | None = None
    for deal in record["deals"]:
        assert len(deal["hands"]) == n
        dealt = [c for hand in deal["hands"] for c in hand]
        dealt += [c for key, cards in deal.items() if key not in RECORD_KEYS for c in cards]
        assert sorted(dealt) == deck, "every card dealt once"
        spent = [spent_card(m["move"]) for m in deal["moves"] if m["kind"] == "play"]
        cards = [c for c in spent if c is not None]
        assert len(cards) == len(set(cards)) and set(cards) <= set(deck), "no card played twice"
        assert all(0 <= m["seat"] < n for m in deal["moves"])
        totals = deal["points"] if totals is None else [t + p for t, p in zip(totals, deal["points"])]
        assert totals == deal["totals"], "the totals add up the deal points"
    assert all(e.audience is None or e.audience <= set(range(n)) for e in played.events)
    result = record["result"]
    if not result["annulled"]:
        assert sorted(result["winners"] + result["losers"] + result["draws"]) == list(range(n))


INVARIANTS: dict[str, Callable[[Played], None]] = {
    "peppa": peppa_invariants,
    "seep": seep_invariants,
    "pigugnin": pigugnin_invariants,
    "pepper": pepper_invariants,
}
MATCHES_OF = {"seep": 4, "pepper": 6}
"""Seep and Pepper matches run long (the 30-point baazi takes dozens of deals, a random Pepper
table rarely reaches its target): fewer per combination."""


@pytest.mark.parametrize("game, variant, players", every_game_variant_and_count())
def test_random_matches_end_with_invariants_and_verifiable_records(game: str, variant: str, players: int) -> None:
    spec = registry.get(game)
    for k in range(MATCHES_OF.get(game, MATCHES)):
        rng = random.Random(f"{game}/{variant}/{players}/{k}")
        options = random_options(spec, variant, rng) if k % 2 else {}
        played = play(game, variant, seed=1000 + k, options=options, num_players=players)
        record = played.result.record
        assert record["status"] == "complete" and record["faults"] == []
        check_invariants(played)
        replayed = verify(record)
        assert replayed.outcome == played.result.outcome


def check_invariants(played: Played) -> None:
    """The invariants of every game, then the game's own where it has them."""
    every_game_invariants(played)
    own = INVARIANTS.get(played.result.record["game"])
    if own is not None:
        own(played)


@pytest.mark.fast
def test_a_game_of_another_package_gets_the_invariants_of_every_game(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    """examples/briscola, found through the entry point as an installed package's game, has no
    invariants of its own here: its matches are checked with those of every game, which also
    catch a record that deals a card twice."""
    install_briscola(monkeypatch, tmp_path)
    combos = [combo for combo in every_game_variant_and_count() if combo[0] == "briscola"]
    assert combos and "briscola" not in INVARIANTS
    for game, variant, players in combos:
        played = play(game, variant, seed=7, num_players=players, max_deals=3)
        check_invariants(played)
        assert verify(played.result.record).outcome == played.result.outcome
    hands = played.result.record["deals"][0]["hands"]
    hands[0][0] = hands[1][0]
    with pytest.raises(AssertionError, match="every card dealt once"):
        check_invariants(played)


@pytest.mark.parametrize("game, variant, players", every_game_variant_and_count())
def test_replay_retells_the_match_and_verify_reaches_the_same_end(game: str, variant: str, players: int) -> None:
    """The replay (moves applied with their events) tells exactly the events the referee
    routed, and verify (moves applied without them) ends in the same scores and result."""
    played = play(game, variant, seed=5, num_players=players)
    record = played.result.record
    steps = walk(record)
    told = []
    while True:
        try:
            told += next(steps).events
        except StopIteration as stop:
            replayed = stop.value
            break
    assert told == list(played.events)
    quiet = verify(record)
    assert quiet.state.deal_scores == replayed.state.deal_scores
    assert quiet.outcome == replayed.outcome == played.result.outcome


@pytest.mark.parametrize("game, variant, players", every_game_variant_and_count())
def test_the_same_seed_gives_the_same_record(game: str, variant: str, players: int) -> None:
    def strip(record: dict[str, Any]) -> dict[str, Any]:
        record = dict(record, started=None, finished=None)
        record["deals"] = [dict(d, moves=[dict(m, ms=0) for m in d["moves"]]) for d in record["deals"]]
        return record

    # a few deals show it as well as a whole match (the random matches above play those whole)
    a = play(game, variant, seed=77, num_players=players, max_deals=6).result.record
    b = play(game, variant, seed=77, num_players=players, max_deals=6).result.record
    c = play(game, variant, seed=78, num_players=players, max_deals=1).result.record
    assert strip(a) == strip(b)
    assert strip(a)["deals"][0]["hands"] != strip(c)["deals"][0]["hands"]


def test_the_dealt_cards_are_spread_evenly_over_many_seeds() -> None:
    """A sanity check of the shuffle: over 400 deals each seat gets each card about 100 times."""
    counts: Counter[tuple[int, str]] = Counter()
    for seed in range(400):
        setup = registry.resolve("peppa", None, {}, None, seed)
        state = setup.new_match()
        state.deal(shuffled(seed, 0, setup.spec.deck()))
        for seat, hand in enumerate(state.dealt_hands):
            counts.update((seat, c.text) for c in hand)
    assert min(counts.values()) > 60 and max(counts.values()) < 140
