#!/usr/bin/env python3
"""The cost of copying a match: ``clone()`` against ``copy.deepcopy``, halfway through a deal.

Usage: python3 benchmarks/clone.py [--deal N] [--seconds S]
For every game, variant and player count whose engine offers ``clone()``, a match is played at
random to the middle of deal N (the middle of its moves, at a card play); then each way of
copying it is timed, the best of five rounds of about S/5 seconds each, and the ratio printed.
A search copies a state per simulation, so this is the price of every simulation it runs.
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from typing import Any, Callable

from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.games.registry import Setup

ROUNDS = 5


def play_moves(setup: Setup, seed: int, deal: int, moves: int | None) -> tuple[Any, int]:
    """The match of ``seed`` played with random moves up to deal ``deal``, then ``moves``
    moves into it (all of it when None); also the number of moves made in that deal."""
    match = setup.new_match()
    rng = random.Random(seed)
    made = 0
    while not match.is_over():
        if match.needs_deal():
            if match.deal_number == deal:
                break
            match.deal(shuffled(setup.seed, match.deal_number, setup.spec.deck()))
            continue
        if match.deal_number == deal:
            if made == moves:
                break
            made += 1
        decision = match.decisions()[0]
        match.apply(decision.seat, rng.choice(decision.moves))
    return match, made


def mid_deal(setup: Setup, deal: int) -> Any | None:
    """A match halfway through the moves of deal ``deal``, at a card play: the first seed whose
    deal ``deal`` gets there (a Pepper deal can be thrown in before any card is played, a
    match can end first); None when none of a hundred seeds does."""
    for seed in range(100):
        _, length = play_moves(setup, seed, deal, None)
        match, _ = play_moves(setup, seed, deal, length // 2)
        if not match.is_over() and not match.needs_deal() and match.acting()[0][1] == "play":
            return match
    return None


def best_time(copy_once: Callable[[], Any], seconds: float) -> float:
    """Seconds per call, the best of :data:`ROUNDS` rounds of about ``seconds / ROUNDS`` each
    (the best round is the one the shared machine disturbed least)."""
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.01:
        copy_once()
        calls += 1
    per_round = max(1, int(calls * seconds / ROUNDS / (time.perf_counter() - start)))
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(per_round):
            copy_once()
        best = min(best, (time.perf_counter() - start) / per_round)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=1, help="the deal to copy the match in (default 1)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per copy method and row (default 1)")
    args = parser.parse_args()
    print(f"{'game':<9} {'variant':<13} {'players':>7} {'clone us':>9} {'deepcopy us':>12} {'ratio':>6}")
    for spec in registry.GAMES.values():
        for variant in spec.variants:
            for players in spec.player_counts:
                setup = registry.resolve(spec.name, variant.name, {}, players, 0)
                match = mid_deal(setup, args.deal)
                if match is None or not hasattr(match, "clone"):
                    why = "no clone()" if match is not None else f"no match of seeds 0..99 reaches deal {args.deal}"
                    print(f"{spec.name:<9} {variant.name:<13} {players:>7}  ({why})")
                    continue
                cloned = best_time(match.clone, args.seconds)
                deep = best_time(lambda: copy.deepcopy(match), args.seconds)
                print(f"{spec.name:<9} {variant.name:<13} {players:>7} {cloned * 1e6:>9.2f} {deep * 1e6:>12.1f} "
                      f"{deep / cloned:>6.0f}")


if __name__ == "__main__":
    main()
