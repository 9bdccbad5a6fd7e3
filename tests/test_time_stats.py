"""Time per move in the tournament table: mean, nearest-rank 95th percentile, maximum and the
number of moves of each entrant, from its seats' moves, the referee's fallback moves left out;
the percentile from a bounded histogram (:class:`cardcli.tournament.results.MoveTimes`)."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from cardcli.records.model import Record
from cardcli.tournament.results import MoveTimes, TIME_COLUMNS, render, tabulate, to_csv_rows
from conftest import PYTHON_BOT, read_records, run_cli
from made_up import made_up


def nearest_rank(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def record(seating: list[int], moves: list[dict[str, Any]], index: int = 0) -> Record:
    """A made-up complete pigugnin record: one deal, the given moves, seat 0 wins."""
    seats = len(seating)
    return made_up({
        "game": "pigugnin", "status": "complete",
        "seats": [{"seat": s, "kind": "process"} for s in range(seats)],
        "deals": [{"number": 1, "moves": moves, "points": [0] * seats}],
        "faults": [],
        "result": {"winners": [0], "losers": list(range(1, seats)), "scores": [0] * seats},
        "tournament": {"index": index, "key": f"{index}.0", "deal_set": index, "rotation": 0, "seating": seating},
    })


def test_the_times_of_hand_made_records_leave_fallback_moves_out() -> None:
    moves = [
        {"seat": 0, "kind": "play", "move": "x", "ms": 1.0},
        {"seat": 1, "kind": "play", "move": "x", "ms": 4.0},
        {"seat": 2, "kind": "play", "move": "x", "ms": 0.0},
        {"seat": 0, "kind": "play", "move": "x", "ms": 3.0, "by": "seat"},
        {"seat": 1, "kind": "play", "move": "x", "ms": 999.0, "by": "fallback"},
        {"seat": 3, "kind": "play", "move": "x", "ms": 5.0},  # entrant 0 again
    ]
    table = tabulate(["a", "b", "c"], [record([0, 1, 2, 0], moves)])
    rows = {r["entrant"]: r["time_ms"] for r in table.rows}
    assert rows["a"] == {"mean": 3.0, "p95": 5.0, "max": 5.0, "moves": 3}
    assert rows["b"] == {"mean": 4.0, "p95": 4.0, "max": 4.0, "moves": 1}, "the fallback's 999 ms is not b's"
    assert rows["c"] == {"mean": 0.0, "p95": 0.0, "max": 0.0, "moves": 1}, "a built-in player's 0 ms counts"


def test_an_entrant_without_moves_has_no_times_and_empty_csv_cells() -> None:
    table = tabulate(["a", "b", "idle"], [record([0, 1, 0, 1], [{"seat": 0, "kind": "play", "move": "x", "ms": 2.5}])])
    rows = {r["entrant"]: r for r in table.rows}
    assert rows["idle"]["time_ms"] == {"mean": None, "p95": None, "max": None, "moves": 0}
    assert rows["b"]["time_ms"]["moves"] == 0
    csv_rows = to_csv_rows(table)
    assert csv_rows[0][:12] == ["rank", "entrant", "rating", "rating_ci", "ordinal", "matches", "wins", "draws",
                                "losses", "score_per_deal", "score_per_deal_ci", "faults"], "the old columns first"
    assert csv_rows[0][12:] == list(TIME_COLUMNS) == ["time_mean_ms", "time_p95_ms", "time_max_ms"]
    by_name = {row[1]: row for row in csv_rows[1:]}
    assert by_name["idle"][12:] == ["", "", ""] and by_name["a"][12:] == ["2.5", "2.5", "2.5"]
    text = render(table, ["a", "b", "idle"])
    section = text[text.index("time per move"):].splitlines()
    assert len(section) == 5 and section[2].split() == ["a", "2.500", "2.500", "2.500", "1"]
    assert all(line.split()[1:5] == ["n/a"] * 4 for line in section[3:]), "no false zero for the others"


@pytest.mark.parametrize("spread", ["uniform", "lognormal", "constant", "two-values"])
def test_the_percentile_is_within_its_stated_precision_of_the_exact_one(spread: str) -> None:
    rng = random.Random(spread)
    values = {
        "uniform": [round(rng.uniform(0, 50), 3) for _ in range(5000)],
        "lognormal": [round(rng.lognormvariate(1, 2), 3) for _ in range(5000)],
        "constant": [7.25] * 1000,
        "two-values": [0.0] * 960 + [12.5] * 40,
    }[spread]
    times = MoveTimes()
    for v in values:
        times.add(v)
    summary = times.summary()
    exact = nearest_rank(values, 0.95)
    assert summary.moves == len(values) and summary.max == max(values)
    assert summary.mean == pytest.approx(sum(values) / len(values), abs=0.001)
    assert abs(summary.p95 - exact) <= exact * (2 ** (1 / 32) - 1) + 0.001, (summary.p95, exact)
    if spread in ("constant", "two-values"):
        assert summary.p95 == exact, "a bucket that saw one value reports it exactly"


def test_memory_stays_flat_with_the_number_of_moves() -> None:
    """Ten times the moves over the same range of times add no bucket: what is kept is bounded
    by the range of times (a bucket per 2**(1/16)), not by the number of moves."""
    rng = random.Random(1)
    times = MoveTimes()

    def add(n: int) -> None:
        for _ in range(n):
            times.add(10 ** rng.uniform(-3, 5))  # 1 microsecond to 100 s

    add(30_000)
    few = len(times.buckets)
    add(300_000)
    assert times.count == 330_000
    assert len(times.buckets) == few <= math.ceil(math.log2(10 ** 8) * 16) + 2
    times.add(1e12)  # a month: counted in the top bucket, the maximum exact
    assert max(times.buckets) == 40 * 16 and times.summary().max == 1e12


def test_a_real_tournament_reports_the_time_of_every_move(tmp_path: Path) -> None:
    out = tmp_path / "table.csv"
    proc = run_cli("tournament", "pigugnin", "--bot", "rand=random", "--bot", f"py={PYTHON_BOT} --seed 3",
                   "--deal-sets", "1", "--seed", "8", "--dir", str(tmp_path / "t"), "-j", "1", "--json",
                   "--csv", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = {r["entrant"]: r for r in json.loads(proc.stdout)["entrants"]}
    records = read_records(tmp_path / "t" / "records.jsonl")
    assert rows["rand"]["time_ms"] == {"mean": None, "p95": None, "max": None, "moves": 0}, \
        "a built-in player's moves are not timed: no false zero"
    for index, name in enumerate(["py"], start=1):
        ms = [m["ms"] for r in records for d in r["deals"] for m in d["moves"]
              if r["tournament"]["seating"][m["seat"]] == index and m.get("by") != "fallback"]
        t = rows[name]["time_ms"]
        assert t["moves"] == len(ms) > 0
        assert t["max"] == round(max(ms), 3)
        assert t["mean"] == pytest.approx(sum(ms) / len(ms), abs=0.001)
        exact = nearest_rank(ms, 0.95)
        assert abs(t["p95"] - exact) <= exact * 0.023 + 0.001
    assert rows["py"]["time_ms"]["max"] > 0.0, "a bot program's take some"
    table = list(csv.reader(out.open()))
    assert table[0][-3:] == ["time_mean_ms", "time_p95_ms", "time_max_ms"]
    text = run_cli("tournament", "--resume", str(tmp_path / "t"))
    assert "time per move in ms" in text.stdout
