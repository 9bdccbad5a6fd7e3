#!/usr/bin/env python3
"""A compressed day of an arena's play: does ``arena serve`` hold its memory flat?

Usage: python3 benchmarks/arena_soak.py [--minutes 5] [--jobs 2] [--game peppa] [--every 10]

An arena (SQLite in a temporary directory) with six built-in entrants (``random``, ``first``,
``heuristic``, two of each) is served by ``cardcli arena serve -j N -q`` in a subprocess for
``--minutes``. Every ``--every`` seconds the resident memory (``VmRSS`` of /proc/PID/status) of
the server and the total of its descendants (the workers and their fork server), and the
matches stored (read from the store) are sampled and printed. At the end: the server's growth
per 10,000 matches after the first minute (start-up and the first standings are warm-up),
by a least-squares line through the samples, then the server is stopped with SIGTERM.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardcli.arena import directory  # noqa: E402
from cardcli.arena.store import Store  # noqa: E402

ENTRANTS = (("random1", "random"), ("random2", "random"), ("first1", "first"), ("first2", "first"),
            ("heuristic1", "heuristic"), ("heuristic2", "heuristic"))
WARM_UP = 60.0
"""Seconds left out of the growth figure: the imports, the workers' start and the first
standings."""


def rss_kib(pid: int) -> int:
    """The resident set of process ``pid`` in KiB; 0 for a process gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return 0
    return 0


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, read from /proc (children of children included)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of y over x; 0 with fewer than two distinct x."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def cli(*argv: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "cardcli", *argv], check=True, capture_output=True, env=env, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", default="peppa")
    parser.add_argument("--every", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp) / "arena"
        cli("arena", "init", str(where), "--game", args.game, "--seed", "1", "--sandbox", "off")
        for name, spec in ENTRANTS:
            cli("arena", "entrant", "add", str(where), name, "--command", spec)
        store = Store.open(directory.url_of(where))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen([sys.executable, "-m", "cardcli", "arena", "serve", str(where), "-j",
                                   str(args.jobs), "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  env=env, cwd=ROOT)
        started = time.monotonic()
        samples: list[tuple[float, int, float, float]] = []
        print(f"{'elapsed s':>9} {'matches':>8} {'server MiB':>10} {'workers MiB':>11}", flush=True)
        try:
            while time.monotonic() - started < args.minutes * 60 and server.poll() is None:
                time.sleep(args.every)
                elapsed = time.monotonic() - started
                matches = store.match_count()
                own = rss_kib(server.pid) / 1024
                workers = sum(rss_kib(child) for child in descendants(server.pid)) / 1024
                samples.append((elapsed, matches, own, workers))
                print(f"{elapsed:>9.0f} {matches:>8} {own:>10.1f} {workers:>11.1f}", flush=True)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                _, err = server.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                server.kill()
                _, err = server.communicate()
            store.close()
        if server.returncode not in (0, 1, -signal.SIGTERM, 128 + signal.SIGTERM):
            print(f"the server exited with {server.returncode}:", err.decode(errors="replace")[-2000:],
                  file=sys.stderr)
    steady = [s for s in samples if s[0] >= WARM_UP]
    if len(steady) < 2:
        print("too short a run for a growth figure (samples after the first minute: fewer than 2)")
        return
    played = steady[-1][1] - steady[0][1]
    per_server = slope([(m, own) for _, m, own, _ in steady]) * 10_000
    per_workers = slope([(m, workers) for _, m, _, workers in steady]) * 10_000
    rate = played / (steady[-1][0] - steady[0][0])
    print(f"after the first minute: {played} matches at {rate:.1f}/s; server {steady[0][2]:.1f} -> "
          f"{steady[-1][2]:.1f} MiB, {per_server:+.2f} MiB per 10,000 matches (least squares); workers "
          f"{steady[0][3]:.1f} -> {steady[-1][3]:.1f} MiB, {per_workers:+.2f} MiB per 10,000 matches")


if __name__ == "__main__":
    main()
