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

The commands run with their bytecode cached, as they do once installed (``pip install`` writes
the ``.pyc`` files): the children get a cache folder of their own (``PYTHONPYCACHEPREFIX``),
filled by a first unmeasured round, even where the environment sets
``PYTHONDONTWRITEBYTECODE``. Without a cache every start compiles the package's source again,
which would be measured instead of the imports. ``--no-bytecode-cache`` measures that case.

Usage: python3 benchmarks/startup.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
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


def child_environment(cache: Path | None) -> dict[str, str]:
    """The environment of the measured commands: with a bytecode cache in ``cache``, or none."""
    env = dict(os.environ)
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def processor_time(command: list[str], env: dict[str, str]) -> float:
    """Seconds of processor time the command's process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.decode(errors='replace')[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="run the commands without .pyc files, compiling every module at each start")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = child_environment(None if args.no_bytecode_cache else Path(folder) / "pycache")
        record = Path(folder) / "game.jsonl"
        subprocess.run([PY, "-m", "cardcli", "play", "peppa", "--seed", "1", "--record", str(record)],
                       check=True, stdout=subprocess.DEVNULL, env=env)
        runs = commands(record)
        for command in runs.values():
            processor_time(command, env)
        samples: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, command in runs.items():
                samples[name].append(processor_time(command, env))
    base = statistics.median(samples["python3 -c pass"])
    cached = "without a bytecode cache" if args.no_bytecode_cache else "bytecode cached"
    print(f"processor time, median of {args.rounds} interleaved runs, Python {sys.version.split()[0]}, {cached}")
    print(f"{'command':45} {'ms':>8} {'x python -c pass':>17}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"{name:45} {median * 1e3:8.1f} {median / base:17.2f}")


if __name__ == "__main__":
    main()
