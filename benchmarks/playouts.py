#!/usr/bin/env python3
"""Peppa's compact whole playouts against the engine's integer actions and OpenSpiel's hearts.

Usage: python3 benchmarks/playouts.py [--seconds S] [--rounds N]

Every contender plays whole random deals (the deal, the pass and 52 cards) for S seconds of
processor time per round, and the contenders take turns in N rounds, so that a shared
machine's drift in speed falls on all of them alike; each figure printed is the median over
the rounds, and each ratio the median of the rounds' own ratios. Processor time
(``time.process_time``), not the clock: other work on the machine then costs a contender
only what it does to caches and frequency, not the time it spends descheduled.

The contenders:

* ``compact``: :func:`cardcli.plugins.peppa.playout.play_deal` from a state between deals,
  so each call deals a random deck, makes four random passes and plays the deal with
  uniformly random legal cards (``greedy``: the cheap rule of thumb instead);
* ``engine actions``: the full engine's integer actions (``legal_actions`` and
  ``apply_action``, no events), whole matches as ``benchmarks/engine.py`` plays them;
* ``openspiel hearts``: OpenSpiel's ``hearts`` through ``pyspiel`` in this process (``pip
  install open_spiel``), random chance and random moves, as ``benchmarks/engine.py`` plays
  it; skipped when pyspiel is missing.

A move is a card played or a seat's pass (a Peppa pass is one move; OpenSpiel passes a card
at a time, 12 moves a deal). ``hearts rules`` plays Peppa with the lead restrictions of
OpenSpiel's default hearts (2♣ leads, no points on the first trick, hearts broken, Q♠ breaks
them), so that the rules compared are the same as well.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.peppa import playout

HEARTS_RULES = {
    "two_of_clubs_leads": "true",
    "no_points_first_trick": "true",
    "hearts_must_be_broken": "true",
    "queen_breaks_hearts": "true",
}
"""Peppa's options nearest OpenSpiel's default hearts (which also scores the Q♠ 13 and each
heart 1, as Torino's table does not quite: A♥ 5 ... J♥ 2)."""

CHECK_EVERY = 8
"""Deals between two reads of the processor clock (a read costs about a microsecond)."""


class Run(NamedTuple):
    deals: int
    moves: int
    seconds: float


Contender = Callable[[float, int], Run]
"""``contender(seconds, seed)``: random deals for about ``seconds`` of processor time."""


def compact(variant: str, policy: str = playout.RANDOM, options: dict[str, str] | None = None) -> Contender:
    match = registry.resolve("peppa", variant, options or {}, None, 0).new_match()
    state = playout.compact(match)
    passes = 4 if match.options.pass_cycle != ("hold",) else 0

    def run(seconds: float, seed: int) -> Run:
        rng = random.Random(seed)
        play_deal = playout.play_deal
        deals = 0
        clock = time.process_time
        start = clock()
        while True:
            for _ in range(CHECK_EVERY):
                play_deal(state, rng, policy)
            deals += CHECK_EVERY
            elapsed = clock() - start
            if elapsed >= seconds:
                return Run(deals, deals * (52 + passes), elapsed)

    return run


def engine_actions(variant: str) -> Contender:
    """Whole matches through ``legal_actions``/``apply_action``, dealt as the referee deals."""

    def run(seconds: float, seed: int) -> Run:
        rng = random.Random(seed)
        deals = moves = 0
        clock = time.process_time
        start = clock()
        while clock() - start < seconds:
            setup = registry.resolve("peppa", variant, {}, None, seed)
            state = setup.new_match()
            deck = setup.spec.deck()
            while not state.is_over():
                if state.needs_deal():
                    state.deal(shuffled(seed, state.deal_number, deck))
                    deals += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]
                    moves += 1
            seed += 1
        return Run(deals, moves, clock() - start)

    return run


def openspiel_hearts() -> Contender | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")

    def run(seconds: float, seed: int) -> Run:
        rng = random.Random(seed)
        deals = moves = 0
        clock = time.process_time
        start = clock()
        while clock() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    moves += 1
            deals += 1
        return Run(deals, moves, clock() - start)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="processor seconds per contender and round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, the contenders taking turns in each")
    args = parser.parse_args()
    contenders: dict[str, Contender] = {
        "peppa torino compact random": compact("torino"),
        "peppa standard compact random": compact("standard"),
        "peppa torino compact greedy": compact("torino", playout.GREEDY),
        "peppa hearts rules compact random": compact("torino", options=HEARTS_RULES),
        "peppa torino engine actions": engine_actions("torino"),
    }
    hearts = openspiel_hearts()
    if hearts is None:
        print("OpenSpiel hearts: pyspiel is not installed (pip install open_spiel): no ratio to it")
    else:
        contenders["openspiel hearts"] = hearts
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    per_move: dict[str, list[float]] = {name: [] for name in contenders}
    for number in range(args.rounds):
        for name, contender in contenders.items():
            run = contender(args.seconds, 1000 * number)
            rates[name].append(run.deals / run.seconds)
            per_move[name].append(run.seconds / run.moves * 1e6)
    print(f"{args.rounds} rounds of {args.seconds:.2f} processor seconds per contender; medians over the rounds")
    print(f"{'contender':<36} {'deals/cpu-s':>12} {'us/move':>8} {'lowest':>8} {'highest':>8}")
    for name in contenders:
        print(f"{name:<36} {statistics.median(rates[name]):>12.0f} {statistics.median(per_move[name]):>8.2f} "
              f"{min(rates[name]):>8.0f} {max(rates[name]):>8.0f}")
    references = [("peppa torino engine actions", None)]
    if hearts is not None:
        references.insert(0, ("openspiel hearts", 3.0))
    for reference, target in references:
        for name in contenders:
            if name == reference or name.startswith("openspiel") or "engine" in name:
                continue
            ratios = [a / b for a, b in zip(rates[name], rates[reference])]
            goal = f" (target: at least {target:.0f})" if target and name == "peppa torino compact random" else ""
            print(f"{name} / {reference}, deals per processor-second: median {statistics.median(ratios):.2f}, "
                  f"lowest {min(ratios):.2f}, highest {max(ratios):.2f}{goal}")


if __name__ == "__main__":
    main()
