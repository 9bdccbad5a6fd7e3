#!/usr/bin/env python3
"""The largest Seep legal-move lists seen over many seeded random matches, per variant and
player count, with the longest request line in bytes (what a bot must be able to read).

Usage: python3 benchmarks/seep_moves.py [--matches N]
"""

from __future__ import annotations

import argparse
import random

from cardcli import protocol
from cardcli.games import registry
from cardcli.games.dealing import shuffled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    args = parser.parse_args()
    spec = registry.get("seep")
    print(f"{'variant':<13} {'players':>7} {'matches':>7} {'requests':>9} {'max moves':>9} {'max bytes':>9} {'mean moves':>10}")
    for variant in spec.variants:
        for players in spec.player_counts:
            requests = total = biggest = longest = 0
            for seed in range(args.matches):
                setup = registry.resolve("seep", variant.name, {}, players, seed)
                state = setup.new_match()
                rng = random.Random(seed)
                while not state.is_over():
                    if state.needs_deal():
                        state.deal(shuffled(seed, state.deal_number, spec.deck()))
                        continue
                    for d in state.decisions():
                        requests += 1
                        total += len(d.moves)
                        biggest = max(biggest, len(d.moves))
                        longest = max(longest, len(protocol.go(d.kind, 10000, d.moves)) + 1)
                        state.apply(d.seat, rng.choice(d.moves))
            print(f"{variant.name:<13} {players:>7} {args.matches:>7} {requests:>9} {biggest:>9} {longest:>9} {total / requests:>10.1f}")


if __name__ == "__main__":
    main()
