"""The conformance suite: many seeded random matches of every registered game, variant and
player count, to the end, with invariants checked on the way and on the record.

A game added to the registry is covered automatically; it must also register its own
invariants in ``INVARIANTS`` below, or this suite fails for it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

import pytest

from cardcli.games import registry
from cardcli.games.base import Event
from cardcli.games.dealing import shuffled
from cardcli.games.peppa import CARD_VALUES
from cardcli.games.tricks import step
from cardcli.replay import verify
from harness import Played, every_game_variant_and_count, play, random_options

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


def _check_turn_order(events: tuple[Event, ...], clockwise: bool) -> None:
    """Within a trick each play comes from the next seat in the direction of play; the taker of
    a trick leads the next one."""
    expected: int | None = None
    for e in events:
        if e.kind == "trick":
            expected = int(e.args[1])
        elif e.kind == "play":
            assert expected is not None and int(e.args[0]) == expected, "turn order"
            expected = step(expected, 4, clockwise)
        elif e.kind == "taken":
            expected = int(e.args[1])


INVARIANTS: dict[str, Callable[[Played], None]] = {"peppa": peppa_invariants}


@pytest.mark.parametrize("game, variant, players", every_game_variant_and_count())
def test_random_matches_end_with_invariants_and_verifiable_records(game: str, variant: str, players: int) -> None:
    assert game in INVARIANTS, f"register the conformance invariants of {game}"
    spec = registry.get(game)
    for k in range(MATCHES):
        rng = random.Random(f"{game}/{variant}/{players}/{k}")
        options = random_options(spec, variant, rng) if k % 2 else {}
        played = play(game, variant, seed=1000 + k, options=options, num_players=players)
        record = played.result.record
        assert record["status"] == "complete" and record["faults"] == []
        INVARIANTS[game](played)
        replayed = verify(record)
        assert replayed.outcome == played.result.outcome


@pytest.mark.parametrize("game, variant, players", every_game_variant_and_count())
def test_the_same_seed_gives_the_same_record(game: str, variant: str, players: int) -> None:
    def strip(record: dict[str, Any]) -> dict[str, Any]:
        record = dict(record, started=None, finished=None)
        record["deals"] = [dict(d, moves=[dict(m, ms=0) for m in d["moves"]]) for d in record["deals"]]
        return record

    a = play(game, variant, seed=77, num_players=players).result.record
    b = play(game, variant, seed=77, num_players=players).result.record
    c = play(game, variant, seed=78, num_players=players).result.record
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
