#!/usr/bin/env python3
"""Tournament throughput on a Dask cluster against the local worker pool.

The same tournament (same seed, same schedule) is played with ``-j 2`` and on a Dask
``LocalCluster`` of 2 worker processes (``--cluster tcp://...``), then on a cluster of 1 worker;
twice over: with built-in players only (the cluster's per-task overhead at its most visible),
and with Python bots kept alive from match to match. The clusters are started before the clock
runs (their start-up, about 2 s, is paid once per cluster, not per tournament). Each executor
plays a short and a long tournament, each timed as the whole ``cardcli tournament`` command:
the short one gives the fixed cost of a run (connecting, starting the processes that play), the
difference the throughput of the matches themselves, which is what the per-task overhead
bears on. Printed: matches per second of the whole long run and of its matches alone, and the
ratios cluster:2 / -j 2 and cluster:2 / cluster:1 of the latter.

Usage: python3 benchmarks/cluster_scaling.py [--deal-sets N] [--bot-deal-sets N]
(needs pip install 'cardcli[cluster]')
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON_BOT = f"{sys.executable} {ROOT / 'bots/python/random_bot.py'}"


def tournament(folder: Path, entrants: list[str], deal_sets: int, executor: list[str]) -> tuple[float, int]:
    target = Path(tempfile.mkdtemp(dir=folder))
    shutil.rmtree(target)
    args = [sys.executable, "-m", "cardcli", "tournament", "peppa", "--seed", "17", "--deal-sets", str(deal_sets),
            "--dir", str(target), "--sandbox", "off", "--json", *executor]
    for k, spec in enumerate(entrants):
        args += ["--bot", f"e{k}={spec}"]
    started = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(executor)}: {done.stderr}")
    return took, json.loads(done.stdout)["matches"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deal-sets", type=int, default=60, help="deal sets with built-in players (4 matches each)")
    parser.add_argument("--bot-deal-sets", type=int, default=20, help="deal sets with Python bots")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    folder = Path(tempfile.mkdtemp(prefix="cardcli-cluster-bench-"))
    clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                host="127.0.0.1", silence_logs=40) for n in (1, 2)}
    clients = {n: Client(c) for n, c in clusters.items()}
    try:
        kinds = {
            "built-in players": (["random", "first", "heuristic", "random"], args.deal_sets),
            "Python bots kept alive": ([PYTHON_BOT, PYTHON_BOT, "heuristic", PYTHON_BOT], args.bot_deal_sets),
        }
        for kind, (entrants, deal_sets) in kinds.items():
            rates = {}
            for label, executor in (("-j 2", ["-j", "2"]),
                                    ("cluster:2", ["--cluster", clusters[2].scheduler_address]),
                                    ("cluster:1", ["--cluster", clusters[1].scheduler_address])):
                short, few = tournament(folder, entrants, 2, executor)
                took, matches = tournament(folder, entrants, deal_sets, executor)
                rates[label] = (matches - few) / (took - short)
                print(f"{kind:24s} {label:10s} {matches:4d} matches in {took:6.2f} s ({matches / took:5.1f}/s); "
                      f"fixed cost {short - few * (took - short) / (matches - few):4.2f} s; "
                      f"matches alone {rates[label]:5.1f}/s")
            print(f"{kind:24s} matches alone: cluster:2 / -j 2 = {rates['cluster:2'] / rates['-j 2']:.2f}   "
                  f"cluster:2 / cluster:1 = {rates['cluster:2'] / rates['cluster:1']:.2f}")
    finally:
        for client in clients.values():
            client.close()
        for cluster in clusters.values():
            cluster.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
