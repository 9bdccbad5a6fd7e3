#!/usr/bin/env python3
"""Whole matches through the referee with built-in random players, the whole path of
``cardcli play --record`` (rules, event routing, the record appended and fsynced), and the
whole path of ``cardcli verify`` over the file they wrote (reading, parsing, replaying).

Usage: python3 benchmarks/referee.py [--matches N] [--repeat R]
Each figure is the best of R runs (the machines are noisy; the best run is the one least
disturbed), and verify/play compares the two in the same process.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from cardcli.games import registry
from cardcli.records.io import append, read
from cardcli.referee import play_match
from cardcli.replay import verify
from cardcli.seats.builtin import random_seat


def play(game: str, variant: str, matches: int, path: Path) -> None:
    """Play ``matches`` matches and append each record to ``path``, as ``play --record``."""
    path.write_text("")
    for seed in range(matches):
        setup = registry.resolve(game, variant, {}, None, seed)
        seats = [random_seat("random", f"{seed}/{i}") for i in range(setup.num_players)]
        append(path, play_match(setup, seats).record)


def verify_file(path: Path) -> None:
    """Read and verify every record of ``path``, as ``cardcli verify``."""
    for loaded in read(path):
        verify(loaded.record, f"{path}:{loaded.line}")


def best(repeat: int, run: Any) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for spec in registry.GAMES.values():
        for variant in spec.variants:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "records.jsonl"
                played = best(args.repeat, lambda: play(spec.name, variant.name, args.matches, path))
                verified = best(args.repeat, lambda: verify_file(path))
                records = [loaded.record for loaded in read(path)]
            deals = sum(len(r["deals"]) for r in records)
            moves = sum(len(d["moves"]) for r in records for d in r["deals"])
            print(f"{spec.name} {variant.name}: {args.matches / played:.1f} matches/s played "
                  f"({deals / played:.0f} deals/s, {played / moves * 1e6:.1f} us/move), "
                  f"{args.matches / verified:.1f} matches/s verified ({verified / moves * 1e6:.1f} us/move), "
                  f"verify/play = {played / verified:.2f} (target: 10)")


if __name__ == "__main__":
    main()
