#!/usr/bin/env python3
"""Random playouts through the rules engine alone: deals per second and microseconds per move.

Usage: python3 benchmarks/engine.py [--seconds S]
Each variant runs whole matches with uniformly random moves for about S seconds; then Peppa
and OpenSpiel's hearts (when open_spiel is installed) alternate for S seconds each, and
their ratio is printed.
"""

from __future__ import annotations

import argparse
import random
import time

from cardcli.games import registry
from cardcli.games.dealing import shuffled


ROUNDS = 5
"""The ratio to OpenSpiel alternates the two engines in short rounds: a shared machine's speed
drifts over a run, and measuring one engine after the other would put the drift in the
ratio."""

MAX_DEALS = 500
"""The referee's default deal limit: random Pepper bidders would otherwise play for ever."""


def playout(game: str, variant: str, players: int, seconds: float, actions: bool = False) -> tuple[int, int, float]:
    """Whole matches with uniformly random moves for about ``seconds``: through the text moves
    of the protocol (``decisions``/``apply``, with events), or with ``actions`` through integer
    actions (``legal_actions``/``apply_action``, no events), the interface OpenSpiel's
    playouts use, for the games that offer it."""
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
            elif actions:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            else:
                for decision in state.decisions():
                    state.apply(decision.seat, rng.choice(decision.moves))
                    moves += 1
        seed += 1
    return deals, moves, time.perf_counter() - start


def openspiel_hearts(seconds: float) -> tuple[int, int, float] | None:
    """OpenSpiel's hearts, random playouts through pyspiel, when open_spiel is installed
    (``pip install '.[bench]'``): the peer a researcher would use."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(0)
    deals = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        deals += 1
    return deals, moves, time.perf_counter() - start


def setup_class(game: str) -> type:
    """The match class of ``game``, to see which interfaces it offers."""
    return type(registry.resolve(game, None, {}, None, 0).new_match())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"{'game':<8} {'variant':<13} {'players':>7} {'deals/s':>9} {'us/move':>8}")
    for spec in registry.GAMES.values():
        for variant in spec.variants:
            for players in spec.player_counts:
                deals, moves, elapsed = playout(spec.name, variant.name, players, args.seconds)
                print(f"{spec.name:<8} {variant.name:<13} {players:>7} {deals / elapsed:>9.0f} "
                      f"{elapsed / moves * 1e6:>8.1f}")
                if hasattr(setup_class(spec.name), "apply_action"):
                    deals, moves, elapsed = playout(spec.name, variant.name, players, args.seconds, actions=True)
                    print(f"{spec.name:<8} {variant.name + ' (actions)':<13} {players:>7} "
                          f"{deals / elapsed:>9.0f} {elapsed / moves * 1e6:>8.1f}")
    peer = openspiel_hearts(args.seconds)
    if peer is None:
        print("OpenSpiel hearts: not installed (pip install '.[bench]') - no ratio")
        return
    deals, moves, elapsed = peer
    print(f"{'hearts':<8} {'openspiel':<13} {4:>7} {deals / elapsed:>9.0f} {elapsed / moves * 1e6:>8.1f}")
    print(f"Peppa against OpenSpiel hearts, interleaved in {ROUNDS} rounds of {args.seconds / ROUNDS:.1f} s each:")
    totals = {"text moves": [0, 0.0], "actions": [0, 0.0], "hearts": [0, 0.0]}
    for _ in range(ROUNDS):
        for how, run in (
            ("text moves", lambda: playout("peppa", "torino", 4, args.seconds / ROUNDS)),
            ("actions", lambda: playout("peppa", "torino", 4, args.seconds / ROUNDS, actions=True)),
            ("hearts", lambda: openspiel_hearts(args.seconds / ROUNDS)),
        ):
            got = run()
            assert got is not None
            totals[how][0] += got[0]
            totals[how][1] += got[2]
    hearts = totals["hearts"][0] / totals["hearts"][1]
    for how in ("text moves", "actions"):
        rate = totals[how][0] / totals[how][1]
        print(f"Peppa (torino, {how}) / OpenSpiel hearts, deals per second: {rate:.0f} / {hearts:.0f} = "
              f"{rate / hearts:.2f} (target: 2.00)")


if __name__ == "__main__":
    main()
