#!/usr/bin/env python3
"""How much better one player scores than another, on duplicate deals.

Usage: python3 benchmarks/strength.py [--player SPEC] [--field SPEC] [--deals N] [--jobs J]
                                      [--only GAME:PLAYERS,...]

For every game and player count (or those ``--only`` names), each of N deals is played once
with the field in every seat (the baseline) and once more for every seat with the player in
that seat and the field in the others, so the player meets every deal from every seat, as a
duplicate tournament rotates them. The figure is the player's points in the deal minus the
field's points in the same seat on the same deal (sign flipped in the penalty games, so more
is better), averaged over the seats of a deal and then over the deals, with a 95% confidence
interval from the spread of the per-deal differences (the deals are independent; the seats
of one deal are not). Each deal is a one-deal match, so every deal starts from the same
totals and dealer.

Also printed: the player's time per decision (its mean and 95th percentile) and how often
its search could not fit its view (must be 0).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry  # noqa: E402
from cardcli.referee import Settings, play_match  # noqa: E402
from cardcli.seats.base import Request  # noqa: E402
from cardcli.seats.builtin import InProcessSeat, PlayerSeat, builtin  # noqa: E402

CONFIGS = [(spec.name, n) for spec in registry.GAMES.values() for n in spec.player_counts]


class Timed(InProcessSeat):
    """A built-in seat whose every decision is timed (only decisions with a choice)."""

    def __init__(self, inner: InProcessSeat):
        super().__init__(inner.label, self._choose)
        self.inner = inner
        self.times: list[float] = []

    def notify(self, lines: Sequence[str]) -> None:
        self.inner.notify(lines)

    def _choose(self, request: Request) -> str:
        start = time.perf_counter()
        self.inner.ask(request)
        answer = self.inner.poll()
        if len(request.moves) > 1:
            self.times.append(time.perf_counter() - start)
        assert answer is not None and answer.move is not None
        return answer.move


def _points(game: str, players: int, seed: int, specs: Sequence[str]) -> tuple[list[int], list[float], int]:
    setup = registry.resolve(game, None, {}, players, seed)
    seats = [Timed(builtin(spec, f"s{i}", f"{seed}/{i}")) for i, spec in enumerate(specs)]
    result = play_match(setup, seats, Settings(max_deals=1))
    points = result.record["deals"][-1]["points"]
    sign = -1 if setup.spec.lower_is_better else 1
    failures = sum(getattr(getattr(s.inner, "player", None), "failures", 0) for s in seats)
    return [sign * p for p in points], [t for s in seats for t in s.times], failures


def one_deal(job: tuple[str, int, int, str, str]) -> tuple[float, float, float, list[float], int]:
    """The mean difference over the seats of one deal, the player's and the field's mean
    points, the player's decision times and its failures."""
    game, players, seed, player, field = job
    base, _, _ = _points(game, players, seed, [field] * players)
    diffs, mine, times, failures = [], [], [], 0
    for seat in range(players):
        specs = [field] * players
        specs[seat] = player
        points, seat_times, failed = _points(game, players, seed, specs)
        diffs.append(points[seat] - base[seat])
        mine.append(points[seat])
        failures += failed
        if player.startswith("ismcts"):
            times += seat_times if field != player else []
    return statistics.mean(diffs), statistics.mean(mine), statistics.mean(base), times, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="ismcts")
    parser.add_argument("--field", default="heuristic")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="e.g. peppa:4,seep:2")
    parser.add_argument("--first-seed", type=int, default=1000)
    args = parser.parse_args()
    configs = [(g, int(n)) for g, n in (c.split(":") for c in args.only.split(",") if c)] or CONFIGS
    print(f"player {args.player} against field {args.field}, {args.deals} duplicate deals per row")
    print(f"{'game':9} {'seats':>5} {'deals':>6} {'diff':>7} {'95% CI':>17} {'player':>7} {'field':>7} "
          f"{'ms/dec':>7} {'p95 ms':>7} {'fails':>5} {'s':>6}")
    with multiprocessing.Pool(args.jobs) as pool:
        for game, players in configs:
            start = time.perf_counter()
            jobs = [(game, players, args.first_seed + k, args.player, args.field) for k in range(args.deals)]
            rows = pool.map(one_deal, jobs, chunksize=1)
            diffs = [r[0] for r in rows]
            mean = statistics.mean(diffs)
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
            times = sorted(t for r in rows for t in r[3])
            ms = 1000 * statistics.mean(times) if times else 0.0
            p95 = 1000 * times[int(0.95 * (len(times) - 1))] if times else 0.0
            print(f"{game:9} {players:>5} {len(diffs):>6} {mean:>+7.2f} [{mean - half:>+7.2f}, {mean + half:>+7.2f}] "
                  f"{statistics.mean(r[1] for r in rows):>7.2f} {statistics.mean(r[2] for r in rows):>7.2f} "
                  f"{ms:>7.1f} {p95:>7.1f} {sum(r[4] for r in rows):>5} {time.perf_counter() - start:>6.0f}",
                  flush=True)


if __name__ == "__main__":
    main()
