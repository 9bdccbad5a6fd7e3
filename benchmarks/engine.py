#!/usr/bin/env python3
"""Random playouts through the rules engine alone: deals per second and microseconds per move.

Usage: python3 benchmarks/engine.py [--seconds S]
Each variant runs whole matches with uniformly random moves for about S seconds.
"""

from __future__ import annotations

import argparse
import random
import time

from cardcli.games import registry
from cardcli.games.dealing import shuffled


MAX_DEALS = 500
"""The referee's default deal limit: random Pepper bidders would otherwise play for ever."""


def playout(game: str, variant: str, players: int, seconds: float) -> tuple[int, int, float]:
    deals = moves = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        setup = registry.resolve(game, variant, {}, players, seed)
        state = setup.new_match()
        rng = random.Random(seed)
        deck = setup.spec.deck()
        while not state.is_over():
            if state.needs_deal() and state.deal_number >= MAX_DEALS:
                state.adjudicate()
            elif state.needs_deal():
                state.deal(shuffled(seed, state.deal_number, deck))
                deals += 1
                continue
            for decision in state.decisions():
                state.apply(decision.seat, rng.choice(decision.moves))
                moves += 1
        seed += 1
    return deals, moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"{'game':<8} {'variant':<10} {'players':>7} {'deals/s':>9} {'us/move':>8}")
    for spec in registry.GAMES.values():
        for variant in spec.variants:
            for players in spec.player_counts:
                deals, moves, elapsed = playout(spec.name, variant.name, players, args.seconds)
                print(f"{spec.name:<8} {variant.name:<10} {players:>7} {deals / elapsed:>9.0f} "
                      f"{elapsed / moves * 1e6:>8.1f}")


if __name__ == "__main__":
    main()
