#!/usr/bin/env python3
"""Whole matches through the referee with built-in random players (rules, event routing and
the record included), and the cost of verifying those records.

Usage: python3 benchmarks/referee.py [--matches N]
"""

from __future__ import annotations

import argparse
import time

from cardcli.games import registry
from cardcli.referee import play_match
from cardcli.replay import verify
from cardcli.seats.builtin import random_seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    args = parser.parse_args()
    for spec in registry.GAMES.values():
        for variant in spec.variants:
            records = []
            start = time.perf_counter()
            for seed in range(args.matches):
                setup = registry.resolve(spec.name, variant.name, {}, None, seed)
                seats = [random_seat("random", f"{seed}/{i}") for i in range(setup.num_players)]
                records.append(play_match(setup, seats).record)
            played = time.perf_counter() - start
            start = time.perf_counter()
            for record in records:
                verify(record)
            verified = time.perf_counter() - start
            deals = sum(len(r["deals"]) for r in records)
            print(f"{spec.name} {variant.name}: {args.matches / played:.1f} matches/s played "
                  f"({deals / played:.0f} deals/s), {args.matches / verified:.1f} matches/s verified "
                  f"(verify/play = {played / verified:.2f})")


if __name__ == "__main__":
    main()
