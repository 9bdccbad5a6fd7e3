"""Paired duplicate results (cardcli.tournament.paired): hand-worked records, the t quantile,
and a real tournament where pairing must beat the unpaired comparison."""

from __future__ import annotations

import csv
import json

import math
import statistics
from pathlib import Path
from typing import Sequence

import attrs
import pytest

from cardcli.errors import RecordError
from cardcli.games import registry
from cardcli.records.model import Record
from cardcli.tournament.paired import (
    NOT_SEPARATED,
    Observation,
    PairedTally,
    PairResult,
    half_width,
    paired_results,
    t_cdf,
    t_quantile,
)
from conftest import read_records, run_cli
from made_up import made_up

T975 = {1: 12.706204736, 2: 4.302652730, 3: 3.182446305, 10: 2.228138852, 30: 2.042272456, 120: 1.979930405}
"""Student's t 0.975 quantiles (two-sided 95%), from the published tables to 9 decimals."""


def record(deal_set: int, rotation: int, seating: Sequence[int], points: Sequence[Sequence[int] | None],
           status: str = "complete") -> Record:
    """A tournament record of the shape docs/records.md gives, reduced to what paired results
    read (and a little more, so that a reader reaching for other fields would notice)."""
    totals: list[int] = [0] * len(seating)
    deals = []
    for number, p in enumerate(points, start=1):
        if p is not None:
            totals = [t + x for t, x in zip(totals, p)]
        deals.append({"number": number, "points": None if p is None else list(p),
                      "totals": None if p is None else list(totals)})
    return made_up({
        "status": status,
        "game": "peppa",
        "tournament": {"index": 0, "key": f"{deal_set}.{rotation}", "deal_set": deal_set, "rotation": rotation,
                       "seating": list(seating), "entrants": [f"e{e}" for e in seating]},
        "deals": deals,
        "result": None if status != "complete" else {"scores": totals},
        "faults": [],
    })


# Two entrants, a 2-seat game, 2 deal sets x 2 rotations. Scores per deal (seat: entrant value):
#   deal set 0, rotation 0 [A, B]: points (5,1) (1,1)        -> seat 0 A 3,   seat 1 B 1
#   deal set 0, rotation 1 [B, A]: points (2,2) x 3 deals    -> seat 0 B 2,   seat 1 A 2
#   deal set 1, rotation 0 [A, B]: points (4,0)              -> seat 0 A 4,   seat 1 B 0
#   deal set 1, rotation 1 [B, A]: points (0,3) (2,3)        -> seat 0 B 1,   seat 1 A 3
# Differences A - B by (deal set, seat): (0,0) 3-2 = 1, (0,1) 2-1 = 1, (1,0) 4-1 = 3, (1,1) 3-0 = 3.
# n 4, mean 2, sample variance (1+1+1+1)/3 = 4/3, half-width t(0.975, 3) * sqrt(4/3 / 4).
TWO = [
    record(0, 0, [0, 1], [(5, 1), (1, 1)]),
    record(0, 1, [1, 0], [(2, 2), (2, 2), (2, 2)]),
    record(1, 0, [0, 1], [(4, 0)]),
    record(1, 1, [1, 0], [(0, 3), (2, 3)]),
]
TWO_HALF = T975[3] * math.sqrt(4 / 3 / 4)


def test_two_entrants_by_hand() -> None:
    [r] = paired_results(["A", "B"], TWO, lower_is_better=False)
    assert (r.a, r.b, r.n) == ("A", "B", 4)
    assert r.mean == pytest.approx(2.0)
    assert r.half_width == pytest.approx(TWO_HALF, abs=1e-8)
    assert (r.wins, r.draws, r.losses) == (4, 0, 0)
    assert r.low == pytest.approx(2.0 - 1.8373862, abs=1e-6) and r.low > 0
    assert r.verdict == "A better" and r.better == "A"


def test_lower_is_better_flips_the_sign() -> None:
    [r] = paired_results(["A", "B"], TWO, lower_is_better=True)
    assert r.mean == pytest.approx(-2.0)
    assert r.half_width == pytest.approx(TWO_HALF, abs=1e-8)
    assert (r.wins, r.draws, r.losses) == (0, 0, 4)
    assert r.verdict == "B better" and r.better == "B"


def test_observations_and_one_difference_per_deal_set() -> None:
    tally = PairedTally(("A", "B"), lower_is_better=False)
    for rec in TWO:
        assert tally.add(rec)
    assert list(tally.observations(0, 1)) == [Observation(0, 0, 1.0), Observation(0, 1, 1.0),
                                              Observation(1, 0, 3.0), Observation(1, 1, 3.0)]
    assert tally.deal_set_differences(0, 1) == [(0, 1.0), (1, 3.0)]
    assert tally.deal_set_differences(1, 0) == [(0, -1.0), (1, -3.0)]


def test_incomplete_records_are_skipped() -> None:
    aborted = record(1, 1, [1, 0], [(0, 90), None], status="aborted")
    also = record(0, 0, [0, 1], [(0, 50)], status="aborted")
    tally = PairedTally(("A", "B"), lower_is_better=False)
    for rec in [aborted, *TWO, also]:
        tally.add(rec)
    assert tally.skipped == 2
    assert tally.results() == paired_results(["A", "B"], TWO, lower_is_better=False)
    # and the observation an aborted match would have given is simply missing
    [r] = paired_results(["A", "B"], TWO[:3] + [aborted], lower_is_better=False)
    assert r.n == 2 and r.mean == pytest.approx(1.0)  # (0,0) and (0,1) only: deal set 1 has no pair left


def test_zero_spread_separates_only_a_nonzero_mean() -> None:
    [r] = paired_results(["A", "B"], TWO[:2], lower_is_better=False)
    assert (r.n, r.mean, r.half_width) == (2, 1.0, 0.0)
    assert r.verdict == "A better"
    draw = [record(0, 0, [0, 1], [(2, 2)]), record(0, 1, [1, 0], [(2, 2)])]
    [d] = paired_results(["A", "B"], draw, lower_is_better=False)
    assert (d.n, d.mean, d.wins, d.draws, d.losses) == (2, 0.0, 0, 2, 0)
    assert d.verdict == NOT_SEPARATED


def test_a_pair_that_never_shares_a_seat_of_a_deal_set() -> None:
    # three entrants at a two-seat table, one deal set played by A and B only
    results = paired_results(["A", "B", "C"], TWO[:2], lower_is_better=False)
    assert [(r.a, r.b) for r in results] == [("A", "B"), ("A", "C"), ("B", "C")]
    for r in results[1:]:
        assert (r.n, r.mean, r.wins, r.draws, r.losses) == (0, 0.0, 0, 0, 0)
        assert math.isinf(r.half_width) and r.verdict == NOT_SEPARATED
        assert r.to_json() == {"a": r.a, "b": "C", "n": 0, "mean": None, "ci": None, "low": None, "high": None,
                               "wins": 0, "draws": 0, "losses": 0, "better": None, "verdict": NOT_SEPARATED}
    one = paired_results(["A", "B"], TWO[:1], lower_is_better=False)[0]
    assert one.n == 0  # a deal set played in one rotation only: nobody to pair with


# Three entrants, a 3-seat game, one deal set played in all 6 permutations (--permutations), one
# deal each, so every entrant sits every seat twice. Points by seat, (entrant in the seat):
#   r0 (A,B,C): 6 1 0     r1 (A,C,B): 2 0 3     r2 (B,A,C): 1 4 0
#   r3 (B,C,A): 1 0 5     r4 (C,A,B): 0 4 3     r5 (C,B,A): 0 3 7
# Averaged per seat: A 4 4 6, B 1 2 3, C 0 0 0. One difference per seat, not one per pair of
# matches (4 per seat):
#   A-B: 3 2 3  mean 8/3  variance 1/3  half-width t(0.975, 2) sqrt(1/9)   -> A better
#   A-C: 4 4 6  mean 14/3 variance 4/3  half-width t(0.975, 2) sqrt(4/9)   -> A better
#   B-C: 1 2 3  mean 2    variance 1    half-width t(0.975, 2) sqrt(1/3)   -> not separated
PERMUTATIONS = [
    record(0, 0, [0, 1, 2], [(6, 1, 0)]),
    record(0, 1, [0, 2, 1], [(2, 0, 3)]),
    record(0, 2, [1, 0, 2], [(1, 4, 0)]),
    record(0, 3, [1, 2, 0], [(1, 0, 5)]),
    record(0, 4, [2, 0, 1], [(0, 4, 3)]),
    record(0, 5, [2, 1, 0], [(0, 3, 7)]),
]


def test_several_matches_from_one_seat_are_averaged_first() -> None:
    ab, ac, bc = paired_results(["A", "B", "C"], PERMUTATIONS, lower_is_better=False)
    expected = [(ab, 8 / 3, 1 / 9, "A better"), (ac, 14 / 3, 4 / 9, "A better"), (bc, 2.0, 1 / 3, NOT_SEPARATED)]
    for r, mean, var_of_mean, verdict in expected:
        assert r.n == 3
        assert r.mean == pytest.approx(mean)
        assert r.half_width == pytest.approx(T975[2] * math.sqrt(var_of_mean), abs=1e-8)
        assert (r.wins, r.draws, r.losses) == (3, 0, 0)
        assert r.verdict == verdict
    assert bc.low < 0 < bc.high


def test_a_difference_within_the_tolerance_is_a_draw() -> None:
    tally = PairedTally(("A", "B"), lower_is_better=False)
    tally.cells.update({(0, 0, 0): [1.0 + 1e-12, 1], (0, 0, 1): [1.0, 1],
                        (1, 0, 0): [1.0, 1], (1, 0, 1): [1.0 - 1e-6, 1]})
    [r] = tally.results()
    assert (r.wins, r.draws, r.losses) == (1, 1, 0)


def matchpoints(names: Sequence[str], records: Sequence[Record], lower: bool) -> list[tuple[float, int]]:
    tally = PairedTally(tuple(names), lower)
    for rec in records:
        tally.add(rec)
    return [(m.points, m.comparisons) for m in tally.matchpoints()]


def test_matchpoints_by_hand() -> None:
    """At every (deal set, seat), 1 for each entrant that held those cards and did worse, 1/2
    for each that did as well. PERMUTATIONS, averaged per seat: A 4 4 6, B 1 2 3, C 0 0 0, so
    A beats both others from every seat (6 of 6), B beats C only (3 of 6), C nobody."""
    assert matchpoints(["A", "B", "C"], PERMUTATIONS, False) == [(6.0, 6), (3.0, 6), (0.0, 6)]
    assert matchpoints(["A", "B", "C"], PERMUTATIONS, True) == [(0.0, 6), (3.0, 6), (6.0, 6)], "lower is better"
    assert matchpoints(["A", "B"], TWO, False) == [(4.0, 4), (0.0, 4)]
    tally = PairedTally(("A", "B"), lower_is_better=False)
    tally.cells.update({(0, 0, 0): [1.0 + 1e-12, 1], (0, 0, 1): [1.0, 1],
                        (1, 0, 0): [1.0, 1], (1, 0, 1): [1.0 - 1e-6, 1]})
    assert [(m.points, m.comparisons, m.percent) for m in tally.matchpoints()] == [(1.5, 2, 75.0), (0.5, 2, 25.0)]
    # a deal set played in one rotation only, and an entrant that never played: no comparison
    assert [m.percent for m in PairedTally(("A", "B", "C"), False).matchpoints()] == [None, None, None]
    assert matchpoints(["A", "B", "C"], TWO[:1], False) == [(0.0, 0), (0.0, 0), (0.0, 0)]


def test_a_record_that_does_not_fit_the_tournament_is_an_error() -> None:
    with pytest.raises(RecordError):
        paired_results(["A", "B"], [record(0, 0, [0, 5], [(1, 1)])], lower_is_better=False)
    whole = record(0, 0, [0, 1], [(1, 1)])
    assert whole.tournament is not None
    broken = attrs.evolve(whole, tournament=attrs.evolve(whole.tournament, deal_set=None))
    with pytest.raises(RecordError):
        paired_results(["A", "B"], [broken], lower_is_better=False)


def test_to_json_rounds_like_the_table() -> None:
    ab = paired_results(["A", "B", "C"], PERMUTATIONS, lower_is_better=False)[0]
    j = ab.to_json()
    assert j["mean"] == 2.667 and j["ci"] == round(T975[2] / 3, 3) and j["verdict"] == "A better"
    assert isinstance(ab, PairResult)
    with pytest.raises(AttributeError):
        ab.n = 5  # type: ignore[misc]  # frozen


@pytest.mark.parametrize("df, value", sorted(T975.items()))
def test_t_quantile_matches_the_tables(df: int, value: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-8)
    assert t_quantile(0.025, df) == pytest.approx(-value, abs=1e-8)
    assert t_cdf(value, df) == pytest.approx(0.975, abs=1e-9)


def test_t_quantile_rounded_values_and_limits() -> None:
    assert round(t_quantile(0.975, 1), 3) == 12.706
    assert round(t_quantile(0.975, 10), 3) == 2.228
    assert round(t_quantile(0.975, 30), 3) == 2.042
    z = statistics.NormalDist().inv_cdf(0.975)
    assert t_quantile(0.975, 10_000) == pytest.approx(1.960201, abs=1e-6)
    assert t_quantile(0.975, 10**6) == pytest.approx(z, abs=1e-5)
    assert t_quantile(0.975, 10**9) == pytest.approx(z, abs=1e-8)
    assert t_quantile(0.95, 5) == pytest.approx(2.015048373, abs=1e-8)
    assert t_quantile(0.995, 20) == pytest.approx(2.845339710, abs=1e-8)
    assert t_quantile(0.5, 7) == 0.0
    assert half_width(1, 0.0) == math.inf and half_width(0, 0.0) == math.inf
    assert half_width(4, 4 / 3) == pytest.approx(TWO_HALF)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError):
        t_quantile(0.9, 0)


def _welch_half_width(x: Sequence[float], y: Sequence[float]) -> float:
    """The 95% half-width of the difference of two unpaired means (Welch's t)."""
    vx, vy = statistics.variance(x) / len(x), statistics.variance(y) / len(y)
    df = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
    return t_quantile(0.975, df) * math.sqrt(vx + vy)


def test_a_real_tournament_pairs_better_than_it_compares_unpaired(tmp_path: Path) -> None:
    directory = tmp_path / "t"
    proc = run_cli("tournament", "peppa", "--bot", "h=heuristic", "--bot", "r=random", "--bot", "f=first",
                   "--bot", "s=random", "--deal-sets", "6", "--seed", "3", "--dir", str(directory), "--json")
    assert proc.returncode == 0, proc.stderr
    records = read_records(directory / "records.jsonl")
    names = ["h", "r", "f", "s"]
    for rec in records:
        assert rec["tournament"]["entrants"] == [names[e] for e in rec["tournament"]["seating"]]
    lower = registry.get("peppa").lower_is_better
    assert lower
    results = {(r.a, r.b): r for r in paired_results(names, map(Record.from_json, records), lower)}
    assert len(results) == 6
    hr = results[("h", "r")]
    assert hr.n == 6 * 4  # every deal set, every seat
    assert hr.mean > 0 and hr.low > 0 and hr.verdict == "h better"
    assert hr.wins > hr.losses

    # the same scores, unpaired: each entrant's score per deal in each of its matches
    per_match: dict[str, list[float]] = {n: [] for n in names}
    for rec in records:
        deals = [d["points"] for d in rec["deals"]]
        for seat, entrant in enumerate(rec["tournament"]["seating"]):
            per_match[names[entrant]].append(-sum(p[seat] for p in deals) / len(deals))
    unpaired_mean = statistics.fmean(per_match["h"]) - statistics.fmean(per_match["r"])
    assert hr.mean == pytest.approx(unpaired_mean)  # one match per (deal set, seat): same mean
    unpaired = _welch_half_width(per_match["h"], per_match["r"])
    assert hr.half_width < unpaired, (hr.half_width, unpaired)


def test_the_tournament_shows_the_paired_results_in_text_json_and_csv(tmp_path: Path) -> None:
    args = ["tournament", "peppa", "--bot", "h=heuristic", "--bot", "r=random", "--bot", "f=first",
            "--bot", "s=random", "--deal-sets", "2", "--seed", "3"]
    text = run_cli(*args, "--dir", str(tmp_path / "a"), "--csv", str(tmp_path / "table.csv"), check=True).stdout
    assert "paired duplicate results" in text
    (line,) = [line.split() for line in text.splitlines() if line.strip().startswith("h - r")]
    assert line[-2:] in (["h", "better"], ["not", "separated"]), line
    data = json.loads(run_cli(*args, "--dir", str(tmp_path / "b"), "--json", check=True).stdout)
    pairs = {(p["a"], p["b"]): p for p in data["pairs"]}
    assert set(pairs) == {("h", "r"), ("h", "f"), ("h", "s"), ("r", "f"), ("r", "s"), ("f", "s")}
    assert pairs[("h", "r")]["n"] == 8 and pairs[("h", "r")]["mean"] > 0
    with open(tmp_path / "table.pairs.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][:4] == ["a", "b", "n", "mean"] and len(rows) == 7
    assert (tmp_path / "table.csv").read_text().startswith("rank,entrant,")
