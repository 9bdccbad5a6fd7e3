#!/usr/bin/env python3
"""What a short command costs to start, against the interpreter's own start.

A shell loop of a thousand matches pays a command's start-up a thousand times, and most of a
short command's cost is imports, not work: a whole random Peppa match is about 9 ms of play.
This script runs each command as a user would (``python3 -m cardcli ...``, a new process each
time), interleaved round by round so that the machine's drift falls on all alike, and prints
the median **processor time** (user + system, from the children's resource usage: the clock
would count the machine's other load) of each, and its ratio to ``python3 -c pass``.

The aims (issue of the first hour, round three): ``--help`` at most 2.5x, a whole random Peppa
match with ``play`` at most 4x. It prints figures and ratios and asserts nothing.

Usage: python3 benchmarks/startup.py [--rounds N]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PY = sys.executable


def commands(record: Path) -> dict[str, list[str]]:
    cli = [PY, "-m", "cardcli"]
    return {
        "python3 -c pass": [PY, "-c", "pass"],
        "cardcli --version": [*cli, "--version"],
        "cardcli --help": [*cli, "--help"],
        "cardcli play peppa (a whole random match)": [*cli, "play", "peppa", "--seed", "1"],
        "cardcli verify (that match's record)": [*cli, "verify", str(record)],
        "cardcli games": [*cli, "games"],
    }


def processor_time(command: list[str]) -> float:
    """Seconds of processor time the command's process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.decode(errors='replace')[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.jsonl"
        subprocess.run([PY, "-m", "cardcli", "play", "peppa", "--seed", "1", "--record", str(record)],
                       check=True, stdout=subprocess.DEVNULL)
        runs = commands(record)
        samples: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, command in runs.items():
                samples[name].append(processor_time(command))
    base = statistics.median(samples["python3 -c pass"])
    print(f"processor time, median of {args.rounds} interleaved runs, Python {sys.version.split()[0]}")
    print(f"{'command':45} {'ms':>8} {'x python -c pass':>17}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"{name:45} {median * 1e3:8.1f} {median / base:17.2f}")


if __name__ == "__main__":
    main()
