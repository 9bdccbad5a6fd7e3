"""``tournament --gauntlet NAME``: NAME plays every match, the other entrants share the other
places fairly, and the schedule is stored so that ``--resume`` rebuilds it.

The rule checked here (:func:`cardcli.tournament.schedule.gauntlet_groups`): after every deal
set, the other entrants' numbers of deal sets differ by at most 1, and they are equal exactly
when the number of others divides deal sets x (places - 1). Every deal set has as many matches
as any other, so their matches differ by at most one deal set's matches (one per rotation with
duplicate deals)."""

from __future__ import annotations

import json
from collections import Counter
from math import gcd
from pathlib import Path

import pytest

from cardcli.games import registry
from cardcli.records.shape import config_problem
from cardcli.tournament.config import Config
from cardcli.tournament.schedule import balance, places, plan
from conftest import standings, PYTHON_BOT, read_records, run_cli

CASES = [("peppa", 4, 5), ("peppa", 4, 7), ("peppa", 4, 9), ("pigugnin", 5, 8), ("seep", 4, 6), ("pepper", 3, 6),
         ("peppa", 4, 3), ("peppa", 4, 4)]
MODES = [(True, False), (False, False), (True, True)]


def deal_sets_of(matches: list, entrant: int) -> int:
    return len({m.deal_set for m in matches if entrant in m.seating})


@pytest.mark.parametrize("game, players, entrants", CASES)
@pytest.mark.parametrize("duplicate, permutations", MODES)
def test_the_gauntlet_plays_every_match_and_the_others_share_fairly(
        game: str, players: int, entrants: int, duplicate: bool, permutations: bool) -> None:
    teams = registry.get(game).teams(players)
    table = len(places(players, teams))
    for hero in (0, entrants - 1):
        others = [e for e in range(entrants) if e != hero]
        for deal_sets in range(1, 13):
            matches = list(plan(entrants, players, teams, deal_sets, 7, duplicate, permutations, hero))
            assert all(hero in m.seating for m in matches)
            counts = [deal_sets_of(matches, o) for o in others]
            assert max(counts) - min(counts) <= 1, (deal_sets, counts)
            if entrants > table:
                assert (len(set(counts)) == 1) == (deal_sets * (table - 1) % len(others) == 0), counts
                assert sum(counts) == deal_sets * (table - 1)
                per_set = Counter(m.deal_set for m in matches)
                assert len(set(per_set.values())) == 1, "every deal set has as many matches"
                played = Counter(e for m in matches for e in set(m.seating))
                spread = max(played[o] for o in others) - min(played[o] for o in others)
                assert spread in (0, next(iter(per_set.values())))
            else:
                assert counts == [deal_sets] * len(others), "everybody plays every deal set"
            if teams:
                for m in matches:
                    for team in teams:
                        assert len({m.seating[s] for s in team}) == 1


@pytest.mark.parametrize("game, players, entrants", CASES)
@pytest.mark.parametrize("permutations", [False, True])
def test_the_gauntlet_sits_every_seat_equally_in_each_deal_set(
        game: str, players: int, entrants: int, permutations: bool) -> None:
    teams = registry.get(game).teams(players)
    matches = list(plan(entrants, players, teams, 6, 3, True, permutations, gauntlet=1))
    for deal_set in range(6):
        rotations = [m for m in matches if m.deal_set == deal_set]
        assert len({m.seed for m in rotations}) == 1
        seats = Counter(s for m in rotations for s in range(players) if m.seating[s] == 1)
        assert len({seats[s] for s in range(players)}) == 1, (deal_set, seats)
        if entrants > len(places(players, teams)):
            # the other entrants of the deal set sit each of its seats equally too
            for other in set(rotations[0].seating) - {1}:
                theirs = Counter(s for m in rotations for s in range(players) if m.seating[s] == other)
                assert len({theirs[s] for s in range(players)}) == 1


def test_without_duplicate_deals_the_gauntlet_moves_round_the_table() -> None:
    matches = list(plan(6, 4, (), 8, 3, duplicate=False, gauntlet=2))
    assert len(matches) == 8
    assert Counter(m.seating.index(2) for m in matches) == {0: 2, 1: 2, 2: 2, 3: 2}


def test_the_same_numbers_and_seed_give_the_same_schedule() -> None:
    one = list(plan(7, 4, (), 9, 5, gauntlet=3))
    assert one == list(plan(7, 4, (), 9, 5, gauntlet=3))
    other_seed = list(plan(7, 4, (), 9, 6, gauntlet=3))
    assert [m.seating for m in one] == [m.seating for m in other_seed]
    # a longer schedule begins with the shorter one, so more deal sets never reshuffle the first
    assert list(plan(7, 4, (), 12, 5, gauntlet=3))[: len(one)] == one


def test_the_others_meet_in_varied_groups() -> None:
    """Six others, three places: plain windows would play {0,1,2} and {3,4,5} for ever."""
    matches = list(plan(7, 4, (), 10, 1, gauntlet=0))
    met = {frozenset((a, b)) for m in matches for a in m.seating for b in m.seating if a != b and 0 not in (a, b)}
    assert len(met) == 15, "every pair of others meets"


@pytest.mark.parametrize("entrants, players", [(5, 4), (7, 4), (9, 4), (6, 3), (8, 5), (4, 4)])
def test_balance_knows_the_gauntlets_even_numbers_of_deal_sets(entrants: int, players: int) -> None:
    cycle = (entrants - 1) // gcd(entrants - 1, players - 1) if entrants > players else 1
    evens = []
    for deal_sets in range(1, 3 * cycle + 1):
        found = balance(entrants, players, (), deal_sets, gauntlet=0)
        played = Counter(e for m in plan(entrants, players, (), deal_sets, 0, gauntlet=0) for e in set(m.seating))
        assert found.matches == tuple(played[e] for e in range(entrants))
        assert found.compared == tuple(range(1, entrants))
        assert found.even == (len({played[e] for e in range(1, entrants)}) == 1)
        if found.even:
            evens.append(deal_sets)
    for deal_sets in range(1, 2 * cycle + 1):
        found = balance(entrants, players, (), deal_sets, gauntlet=0)
        assert found.more == min(d for d in evens if d >= deal_sets)


def test_the_configuration_keeps_the_gauntlet_and_old_ones_have_none() -> None:
    base = {"game": "peppa", "variant": None, "options": {}, "players": 4, "entrants": [["a", "random"], ["b", "first"]],
            "deal_sets": 2, "seed": 1}
    assert config_problem(base) is None
    assert Config.from_json(base).gauntlet is None
    assert config_problem({**base, "gauntlet": "b"}) is None
    assert Config.from_json({**base, "gauntlet": "b"}).gauntlet_index == 1
    assert config_problem({**base, "gauntlet": None}) is None
    assert "gauntlet" in (config_problem({**base, "gauntlet": "c"}) or "")
    assert "gauntlet" in (config_problem({**base, "gauntlet": 1}) or "")


def gauntlet_run(directory: Path, *extra: str) -> dict:
    proc = run_cli("tournament", "pigugnin", "--bot", "rand=random", "--bot", f"py={PYTHON_BOT} --seed 3",
                   "--bot", "first=first", "--bot", "rand2=random", "--bot", "first2=first", "--bot", "rand3=random",
                   "--deal-sets", "5", "--seed", "4", "--gauntlet", "py", "--dir", str(directory), "-j", "2",
                   "--json", *extra)
    assert proc.returncode == 0, proc.stderr
    assert "unbalanced" not in proc.stderr, "5 deal sets x 3 other places share evenly among 5 others"
    return json.loads(proc.stdout)


def test_a_gauntlet_tournament_runs_and_resumes_to_the_same_schedule_and_table(tmp_path: Path) -> None:
    whole = gauntlet_run(tmp_path / "whole")
    assert whole["matches"] == 20  # pigugnin's four seats: one rotation per seat
    rows = {r["entrant"]: r for r in whole["entrants"]}
    assert rows["py"]["matches"] == 20
    assert {rows[n]["matches"] for n in rows if n != "py"} == {12}, "three deal sets each"
    assert json.loads((tmp_path / "whole" / "config.json").read_text())["gauntlet"] == "py"
    records = read_records(tmp_path / "whole" / "records.jsonl")
    assert all("py" in r["tournament"]["entrants"] for r in records)

    # the same tournament cut after 9 records (a torn tenth) and resumed: the stored gauntlet
    # rebuilds the same schedule, so the records check against it and the table is the same
    cut = tmp_path / "cut"
    cut.mkdir()
    lines = (tmp_path / "whole" / "records.jsonl").read_text().splitlines(keepends=True)
    (cut / "config.json").write_text((tmp_path / "whole" / "config.json").read_text())
    (cut / "records.jsonl").write_text("".join(lines[:9]) + lines[9][:40])
    resumed = run_cli("tournament", "--resume", str(cut), "--json", "-j", "2")
    assert resumed.returncode == 0, resumed.stderr
    table = json.loads(resumed.stdout)
    assert standings(table["entrants"]) == standings(whole["entrants"]) and table["crosstable"] == whole["crosstable"]
    by_index = lambda rs: {r["tournament"]["index"]: r["tournament"]["seating"] for r in rs}  # noqa: E731
    assert by_index(read_records(cut / "records.jsonl")) == by_index(records)


@pytest.mark.parametrize("args, message", [
    (("--gauntlet", "nobody"), "--gauntlet nobody: not an entrant"),
])
def test_a_gauntlet_that_is_no_entrant_is_one_line_and_exit_2(args: tuple[str, ...], message: str,
                                                              tmp_path: Path) -> None:
    proc = run_cli("tournament", "peppa", "--bot", "a=random", "--bot", "b=first", "--dir", str(tmp_path / "t"),
                   *args)
    assert proc.returncode == 2 and message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t").exists()


def test_resume_refuses_another_gauntlet(tmp_path: Path) -> None:
    proc = run_cli("tournament", "pigugnin", "--bot", "a=random", "--bot", "b=first", "--bot", "c=random",
                   "--deal-sets", "1", "--seed", "1", "--dir", str(tmp_path / "t"), "-j", "1", "--gauntlet", "a")
    assert proc.returncode == 0, proc.stderr
    again = run_cli("tournament", "--resume", str(tmp_path / "t"), "--gauntlet", "b")
    assert again.returncode == 2 and "the gauntlet of a" in again.stderr


def test_an_uneven_gauntlet_warns_about_the_others_only(tmp_path: Path) -> None:
    proc = run_cli("tournament", "pigugnin", "--bot", "a=random", "--bot", "b=first", "--bot", "c=random",
                   "--bot", "d=first", "--bot", "e=random", "--bot", "f=first", "--gauntlet", "c",
                   "--deal-sets", "3", "--seed", "1", "--dir", str(tmp_path / "t"), "-j", "1")
    assert proc.returncode == 0, proc.stderr
    (warning,) = [line for line in proc.stderr.splitlines() if "unbalanced schedule" in line]
    assert "the entrants other than c play 4 to 8 matches each" in warning
    assert "--deal-sets 5 would give every other entrant the same number of matches" in warning
