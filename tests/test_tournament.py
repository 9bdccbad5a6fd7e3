"""Tournaments: fair duplicate schedules, durable records, resume, concurrency and the table."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from cardcli.games import registry
from cardcli.tournament.schedule import plan
from conftest import BASH_BOT, PYTHON_BOT, ROOT, run_cli, standings


@pytest.mark.parametrize("game, players, entrants", [("peppa", 4, 4), ("peppa", 4, 5), ("pigugnin", 5, 3),
                                                     ("seep", 4, 3), ("pepper", 3, 4)])
def test_every_entrant_plays_equally_often_from_every_seat(game: str, players: int, entrants: int) -> None:
    teams = registry.get(game).teams(players)
    places = len(teams) or players
    from math import comb

    cycle = comb(entrants, min(entrants, places)) * (entrants if entrants < places else 1)
    matches = list(plan(entrants, players, teams, 2 * cycle, master_seed=1))
    seats = Counter((m.seating[s], s) for m in matches for s in range(players))
    per_seat = {e: [seats[(e, s)] for s in range(players)] for e in range(entrants)}
    counts = {tuple(v) for v in per_seat.values()}
    assert len(counts) == 1, per_seat
    assert len(set(next(iter(counts)))) == 1, "every seat equally"
    if teams:
        for m in matches:
            for team in teams:
                assert len({m.seating[s] for s in team}) == 1, "an entrant fills both seats of a side"


def test_duplicate_deal_sets_are_played_once_per_rotation_with_the_same_seed() -> None:
    matches = list(plan(4, 4, (), 3, master_seed=9))
    assert len(matches) == 12
    for deal_set in range(3):
        same = [m for m in matches if m.deal_set == deal_set]
        assert len({m.seed for m in same}) == 1
        assert sorted(m.seating for m in same) == sorted({m.seating for m in same})


def tournament(directory: Path, *extra: str, jobs: str = "1") -> dict:
    proc = run_cli("tournament", "pigugnin", "--bot", "rand=random", "--bot", f"py={PYTHON_BOT} --seed 3",
                   "--bot", f"sh={BASH_BOT} --seed 4", "--bot", "first=first", "--deal-sets", "3", "--seed", "11",
                   "--dir", str(directory), "-j", jobs, "--json", *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_parallel_run_gives_the_table_of_a_sequential_one(tmp_path: Path) -> None:
    one = tournament(tmp_path / "one")
    two = tournament(tmp_path / "two", jobs="2")
    assert one["matches"] == two["matches"] == 12
    assert standings(one["entrants"]) == standings(two["entrants"]) and one["crosstable"] == two["crosstable"]
    row = one["entrants"][0]
    assert {"entrant", "rating", "rating_ci", "matches", "wins", "draws", "losses", "score_per_deal",
            "score_per_deal_ci", "faults"} <= set(row)
    assert sum(r["matches"] for r in one["entrants"]) == 12 * 4


def test_an_interrupted_tournament_resumes_to_the_same_table(tmp_path: Path) -> None:
    reference = tournament(tmp_path / "whole")
    directory = tmp_path / "cut"
    slow = f"{PYTHON_BOT} --seed 3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcli", "tournament", "pigugnin", "--bot", "rand=random", "--bot", f"py={slow}",
         "--bot", f"sh={BASH_BOT} --seed 4", "--bot", "first=first", "--deal-sets", "3", "--seed", "11",
         "--dir", str(directory), "-j", "1"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    records = directory / "records.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not records.exists() or len(records.read_text().splitlines()) < 3):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.fail("the tournament finished before it could be interrupted")
    assert proc.returncode == 130, err
    done = len(records.read_text().splitlines())
    assert 3 <= done < 12
    with open(records, "a") as f:
        f.write('{"format": "cardcli-record", "tourn')  # a run killed while writing
    resumed = run_cli("tournament", "--resume", str(directory), "--json")
    assert resumed.returncode == 0, resumed.stderr
    table = json.loads(resumed.stdout)
    assert standings(table["entrants"]) == standings(reference["entrants"]) and table["crosstable"] == reference["crosstable"]
    assert len(records.read_text().splitlines()) == 12
    assert run_cli("verify", str(records)).returncode == 0


def test_the_table_is_also_written_as_csv(tmp_path: Path) -> None:
    out = tmp_path / "table.csv"
    tournament(tmp_path / "t", "--csv", str(out))
    rows = list(csv.reader(out.open()))
    assert rows[0][:3] == ["rank", "entrant", "rating"] and len(rows) == 5


@pytest.mark.parametrize(
    "args, message",
    [
        (("tournament", "peppa", "--bot", "a=random", "--dir", "x"), "at least two --bot"),
        (("tournament", "peppa", "--bot", "a", "--bot", "b=random", "--dir", "x"), "NAME=SPEC"),
        (("tournament", "peppa", "--bot", "a=random", "--bot", "a=first", "--dir", "x"), "names must differ"),
        (("tournament", "peppa", "--bot", "a=random", "--bot", "b=nosuchbot"), "--dir"),
        (("tournament", "peppa", "--bot", "a=random", "--bot", "b=nosuchbot", "--dir", "x"), "nosuchbot"),
    ],
)
def test_bad_tournament_input_is_one_line_and_exit_2(args, message, tmp_path: Path) -> None:
    args = tuple(str(tmp_path / a) if a == "x" else a for a in args)
    proc = run_cli(*args)
    assert proc.returncode == 2 and message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_directory_holding_a_tournament_is_not_overwritten(tmp_path: Path) -> None:
    tournament(tmp_path / "t")
    proc = run_cli("tournament", "peppa", "--bot", "a=random", "--bot", "b=first", "--dir", str(tmp_path / "t"))
    assert proc.returncode == 2 and "--resume" in proc.stderr


def test_a_bot_that_crashes_is_restarted_for_its_next_match_and_its_faults_counted(tmp_path: Path) -> None:
    from conftest import FAULTY_BOT

    proc = run_cli("tournament", "pigugnin", "--bot", f"bad={FAULTY_BOT} --crash-at 3", "--bot", "rand=random",
                   "--deal-sets", "2", "--seed", "3", "--dir", str(tmp_path / "t"), "-j", "1", "--json",
                   "--move-time", "2")
    assert proc.returncode == 0, proc.stderr
    rows = {r["entrant"]: r for r in json.loads(proc.stdout)["entrants"]}
    matches = rows["bad"]["matches"]
    # two entrants at a four-seat table: "bad" fills two seats, so two processes crash a match,
    # every match, which they can only do if each is started afresh after its crash
    assert rows["bad"]["faults"] == {"crash": 2 * matches}
    assert rows["rand"]["faults"] == {}


def test_finished_matches_are_found_whatever_the_records_hold(tmp_path: Path) -> None:
    """A record's place in the schedule is read from the end of its line; a name that holds
    the same text, or a record whose tournament field is not last, cannot mislead it."""
    from cardcli.errors import RecordError
    from cardcli.tournament import runner

    tricky = json.dumps({"seats": [{"name": ',"tournament":{"index":99}'}], "tournament": {"index": 3, "key": "0.3"}},
                        separators=(",", ":"))
    reordered = json.dumps({"tournament": {"index": 1}, "after": 2})
    (tmp_path / "records.jsonl").write_text(tricky + "\n" + reordered + "\n")
    assert runner.finished(tmp_path) == {3: 0, 1: len(tricky) + 1}
    (tmp_path / "records.jsonl").write_text(tricky + "\n" + '{"tournament":{"index":"x"}}\n')
    with pytest.raises(RecordError, match="not a tournament record"):
        runner.finished(tmp_path)
