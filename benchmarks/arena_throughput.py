#!/usr/bin/env python3
"""The arena's matches per second against a tournament's on the same machine: the same
built-in entrants, the same game, the same number of worker processes, each as a user runs it
(``cardcli tournament -j N`` and ``cardcli arena serve -j N``), in alternated rounds.

Usage: python3 benchmarks/arena_throughput.py [--game peppa] [--jobs 2] [--matches 480] [--rounds 3]

Both print a line per finished match; the rate is measured between the first and the last of
them (the steady rate a season runs at, start-up aside), and the whole run's rate is printed
too, with the processor time the main process (the tournament's parent, the arena's server)
spends per match while steady: on N cores shared with N workers, what it takes is what the
workers miss, and it depends less on the machine's other load than the rates do. Medians over the rounds; the ratio arena/tournament is the figure docs/performance.md
keeps (the target is 0.9).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRANTS = (("a", "random"), ("b", "random"), ("c", "first"), ("d", "random"))


def cpu_seconds(pid: int) -> float:
    """The processor time (user and system) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(argv: list[str], marker: str) -> tuple[float, float, int, float]:
    """Run ``cardcli`` with ``argv``; (steady rate, whole-run rate, lines, the main process's
    processor milliseconds per match between the first line and the last) from the lines
    starting with ``marker``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cardcli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    times, cpu = [], []
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(marker):
            times.append(time.perf_counter() - started)
            cpu.append(cpu_seconds(proc.pid))
    proc.wait()
    total = time.perf_counter() - started
    steady = len(times) - 1
    return steady / (times[-1] - times[0]), len(times) / total, len(times), 1000 * (cpu[-1] - cpu[0]) / steady


def tournament(game: str, jobs: int, matches: int, work: Path) -> tuple[float, float, int, float]:
    rotations = {"peppa": 4, "pigugnin": 5, "pepper": 3, "seep": 2}[game]
    argv = ["tournament", game, "--dir", str(work / f"t{time.monotonic_ns()}"), "-j", str(jobs), "--seed", "1",
            "--deal-sets", str(max(1, matches // rotations)), "--sandbox", "off"]
    for name, spec in ENTRANTS:
        argv += ["--bot", f"{name}={spec}"]
    return timed(argv, "match ")


def arena(game: str, jobs: int, matches: int, work: Path) -> tuple[float, float, int, float]:
    where = work / f"a{time.monotonic_ns()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "cardcli", "arena", "init", str(where), "--game", game, "--seed", "1",
                    "--sandbox", "off"], check=True, capture_output=True, env=env, cwd=ROOT)
    for name, spec in ENTRANTS:
        subprocess.run([sys.executable, "-m", "cardcli", "arena", "entrant", "add", str(where), name, "--command",
                        spec], check=True, capture_output=True, env=env, cwd=ROOT)
    return timed(["arena", "serve", str(where), "-j", str(jobs), "--stop-after", str(matches)], "match ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="peppa")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--matches", type=int, default=480)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    figures: dict[str, list[tuple[float, float, int, float]]] = {"tournament": [], "arena": []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            figures["tournament"].append(tournament(args.game, args.jobs, args.matches, Path(tmp)))
            figures["arena"].append(arena(args.game, args.jobs, args.matches, Path(tmp)))
    steady = {k: statistics.median(f[0] for f in v) for k, v in figures.items()}
    whole = {k: statistics.median(f[1] for f in v) for k, v in figures.items()}
    own = {k: statistics.median(f[3] for f in v) for k, v in figures.items()}
    for kind in ("tournament", "arena"):
        print(f"{kind}: {steady[kind]:.1f} matches/s steady, {whole[kind]:.1f} matches/s over the whole run, "
              f"main process {own[kind]:.2f} ms of processor time per match while steady "
              f"({figures[kind][0][2]} matches, {args.game}, -j {args.jobs}, median of {args.rounds})")
    print(f"arena/tournament: {steady['arena'] / steady['tournament']:.2f} steady, "
          f"{whole['arena'] / whole['tournament']:.2f} over the whole run (target: 0.9)")

if __name__ == "__main__":
    main()
