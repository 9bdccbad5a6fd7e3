"""The house players ``house:1`` to ``house:5``: each level seats in every game, plays the same
moves for the same seed (level 5 even on a machine too slow for the default search's ceiling),
differs from its neighbours, and a level that does not exist is a one-line usage error."""

from __future__ import annotations

import pytest

from cardcli.games import registry
from cardcli.players.human import short_name
from cardcli.players.levels import LEVELS
from cardcli.players.search.ismcts import Budget
from cardcli.referee import Settings as MatchSettings
from cardcli.referee import play_match
from cardcli.seating import builtin

from conftest import run_cli

EVERY_COUNT = [(spec.name, n) for spec in registry.GAMES.values() for n in spec.player_counts]


Move = tuple[int, str, str]


def _moves(game: str, players: int, spec: str, seed: int, deals: int = 1) -> list[list[Move]]:
    """The moves (seat, kind, move) of a match with ``spec`` in seat 0 and the heuristic
    elsewhere; the think times left out."""
    setup = registry.resolve(game, None, {}, players, seed)
    seats = [builtin(spec, spec, f"{seed}/0"), *(builtin("heuristic", "h", f"{seed}/{k}") for k in range(1, players))]
    deals_played = play_match(setup, seats, MatchSettings(max_deals=deals)).record["deals"]
    return [[(m["seat"], m["kind"], m["move"]) for m in deal["moves"]] for deal in deals_played]


@pytest.mark.parametrize("game, players", EVERY_COUNT)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_level_plays_every_game_the_same_way_twice(game: str, players: int, level: int) -> None:
    """The search levels are the search at an iteration budget (below), whose moves
    tests/test_ismcts.py shows to be the same every time."""
    first = _moves(game, players, f"house:{level}", 5)
    assert first and all(first), "no deal played"
    assert _moves(game, players, f"house:{level}", 5) == first


def test_the_top_level_plays_the_full_search_whatever_the_machine_s_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine so slow that the default ``ismcts`` seat's time allows one iteration a
    decision, ``house:5`` still searches every iteration: its moves are those of the named
    budget."""
    from cardcli.players.search import player as player_module

    named = _moves("pepper", 3, "ismcts:iterations=400", 2)
    tiny = Budget(cpu_millis=0.001, ceiling_millis=0.001)
    monkeypatch.setattr(player_module, "DEFAULT_BUDGET", tiny)
    assert _moves("pepper", 3, "house:5", 2) == named
    assert _moves("pepper", 3, "ismcts", 2) != named, "the default's time did not bind: the test shows nothing"


@pytest.mark.parametrize("game, players, iterations", [("peppa", 4, 50), ("pepper", 3, 100), ("seep", 2, 200)])
def test_the_small_search_level_searches_the_game_s_own_budget(game: str, players: int, iterations: int) -> None:
    """``house:4`` is a search of 50 iterations, but 100 in Pepper and 200 in Seep, where 50
    do not beat the heuristic."""
    assert _moves(game, players, "house:4", 6) == _moves(game, players, f"ismcts:iterations={iterations}", 6)


def test_neighbouring_levels_play_differently() -> None:
    seen = {level.number: _moves("peppa", 4, f"house:{level.number}", 9) for level in LEVELS[:4]}
    for low in range(1, 4):
        assert seen[low] != seen[low + 1], (low, low + 1)


def test_a_noisy_level_draws_its_noise_from_the_match_seed() -> None:
    assert _moves("pigugnin", 4, "house:2", 1) != _moves("pigugnin", 4, "house:2", 2)


@pytest.mark.parametrize("spec", ["house", "house:0", "house:6", "house:x", "house:3,iterations=9"])
def test_a_level_that_does_not_exist_is_a_one_line_usage_error(spec: str) -> None:
    result = run_cli("play", "peppa", "--seat", spec, "--seat", "random", "--seat", "random", "--seat", "random")
    assert result.returncode == 2, result.stderr
    assert "house: the level must be 1 to 5" in result.stderr and "Traceback" not in result.stderr


def test_the_table_names_a_house_player_by_its_level() -> None:
    assert short_name("house:3") == "house:3" and short_name("builtin:house:5") == "house:5"
    result = run_cli("play", "pigugnin", "--seat", "house:3", "--seat", "house:1", "--seat", "random",
                     "--seat", "heuristic", "--max-deals", "1", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert "house:3" in result.stdout and "house:1" in result.stdout
