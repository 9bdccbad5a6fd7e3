#!/usr/bin/env python3
"""Tournament throughput at -j 1 and -j 2, bots kept alive versus restarted, and the peak
memory of a small and a ten times larger tournament.

Usage: python3 benchmarks/tournament_scaling.py [--deal-sets N] [--repeat R]
The -j 1 and -j 2 throughputs are each the fastest of R runs: on a shared virtual machine a
run can lose a third of its speed to a neighbour, and the fastest run is the least disturbed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY_BOT = f"{sys.executable} {ROOT / 'bots/python/random_bot.py'}"


def tournament(deal_sets: int, jobs: int, bots: list[str], extra: list[str] | None = None) -> tuple[float, int, int]:
    """Seconds, matches and deals of one tournament run in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [sys.executable, "-m", "cardcli", "tournament", "pigugnin", "--seed", "1", "--deal-sets",
                str(deal_sets), "-j", str(jobs), "--dir", str(Path(tmp) / "t"), "--json", *(extra or [])]
        for i, bot in enumerate(bots):
            args += ["--bot", f"e{i}={bot}"]
        start = time.perf_counter()
        out = subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT).stdout
        elapsed = time.perf_counter() - start
        records = Path(tmp) / "t" / "records.jsonl"
        deals = sum(len(json.loads(line)["deals"]) for line in records.read_text().splitlines())
    return elapsed, json.loads(out)["matches"], deals


def _spin(n: int) -> None:
    total = 0
    for i in range(n):
        total += i


def machine_scaling(n: int = 10_000_000) -> float:
    """The machine's own speed-up for two CPU-bound Python processes against one doing both
    loops: the ceiling for -j 2 on this machine in this run (a shared virtual machine does not
    always give its second core in full)."""
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    start = time.perf_counter()
    _spin(n)
    _spin(n)
    serial = time.perf_counter() - start
    start = time.perf_counter()
    workers = [context.Process(target=_spin, args=(n,)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return serial / (time.perf_counter() - start)


MEMORY_DEAL_SETS = 28
"""About 1,000 deals of four-player Pigugnìn (four matches of about nine deals a deal set),
and ten times as many for the larger run."""


def peak_rss_mib(deal_sets: int) -> tuple[float, int]:
    """Peak resident memory of the largest process of a whole tournament run (MiB), and its deals."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        args = [sys.executable, "-c", probe, sys.executable, "-m", "cardcli", "tournament", "pigugnin", "--seed", "1",
                "--deal-sets", str(deal_sets), "-j", "2", "--dir", str(Path(tmp) / "t"),
                "--bot", "a=random", "--bot", "b=heuristic", "--bot", "c=random", "--bot", "d=first"]
        kib = int(subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT).stdout.split()[-1])
        records = Path(tmp) / "t" / "records.jsonl"
        deals = sum(len(json.loads(line)["deals"]) for line in records.read_text().splitlines())
    return kib / 1024, deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal-sets", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each -j; the fastest counts")
    args = parser.parse_args()
    builtin = ["random", "heuristic", "random", "first"]
    before = machine_scaling()
    one = min((tournament(args.deal_sets, 1, builtin) for _ in range(args.repeat)), key=lambda run: run[0])
    two = min((tournament(args.deal_sets, 2, builtin) for _ in range(args.repeat)), key=lambda run: run[0])
    after = machine_scaling()
    print(f"built-in players, {one[1]} matches: -j 1 {one[1] / one[0]:.1f} matches/s, "
          f"-j 2 {two[1] / two[0]:.1f} matches/s, ratio {one[0] / two[0]:.2f} (target: at least 1.80)")
    print(f"the machine's own speed-up for two CPU-bound processes, before and after: {before:.2f}, {after:.2f}")
    alive = tournament(max(2, args.deal_sets // 5), 1, [PY_BOT] * 4)
    fresh = tournament(max(2, args.deal_sets // 5), 1, [PY_BOT] * 4, ["--restart-bots"])
    print(f"Python bots, {alive[1]} matches: kept alive {alive[1] / alive[0]:.1f} matches/s, "
          f"restarted {fresh[1] / fresh[0]:.1f} matches/s")
    small = peak_rss_mib(MEMORY_DEAL_SETS)
    large = peak_rss_mib(MEMORY_DEAL_SETS * 10)
    print(f"peak memory: {small[0]:.1f} MiB for {small[1]} deals, {large[0]:.1f} MiB for {large[1]} deals "
          f"(ratio {large[0] / small[0]:.2f}; target: at most 1.10)")


if __name__ == "__main__":
    main()
