#!/usr/bin/env python3
"""Il Pigugnìn's compact whole playouts against the engine's integer actions.

Usage: python3 benchmarks/playouts_pigugnin.py [--seconds S] [--rounds N] [--search]

As ``benchmarks/playouts.py`` measures Peppa's (whose ``Run``, ``engine_actions`` and
``CHECK_EVERY`` this imports): every contender plays whole random deals for S seconds of
processor time per round, and the contenders take turns in N rounds, so that a shared
machine's drift in speed falls on all of them alike; each figure printed is the median over
the rounds, and each ratio the median of the rounds' own ratios. Processor time
(``time.process_time``), not the clock.

The contenders, with 4 and with 5 players:

* ``compact random``: :func:`cardcli.plugins.pigugnin.playout.play_deal` from a state between
  deals, so each call deals a random deck and plays the 40 cards with uniformly random legal
  cards, then charges the busche (``compact greedy``: TrickPolicy's penalty-game rule, one
  card in ten at random, as the search plays it);
* ``engine actions``: the full engine's integer actions (``legal_actions`` and
  ``apply_action``, no events), whole matches dealt as the referee deals them:
  ``engine_actions(None, "pigugnin", num_players=N)`` of ``benchmarks/playouts.py``.

A move is a card played: a deal is 40 moves with either seat count.

With ``--search`` it measures instead what the search player gains: processor time per
decision, on the same positions, with the playouts finished by the compact loop and move by
move (``--seconds`` is then unused).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.pigugnin import playout
from playouts import CHECK_EVERY, Contender, Run, engine_actions

TARGET = 4.0
"""The compact loop's deals per processor-second, at least this many times the engine's."""


def compact(num_players: int, policy: str = playout.RANDOM, options: dict[str, str] | None = None) -> Contender:
    match = registry.resolve("pigugnin", None, options or {}, num_players, 0).new_match()
    state = playout.compact(match)

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
                return Run(deals, deals * 40, elapsed)

    return run


SEARCH_POSITIONS = 8
"""Positions each way searches per round (the same ones both ways)."""


def search_decisions(rounds: int) -> None:
    """The search player's cost per decision with its playouts finished by the compact loop
    and move by move (the same rule, ``playout=rule``), on the same positions: deals dealt
    from seeds 0, 1, 2 ... and five cards into the play, 4 and 5 players, each searched with
    the default 400 iterations over clones of the true position (the view's drawing of
    worlds, the same both ways, is left out)."""
    import attrs

    from cardcli.players.search.hooks import policy_for
    from cardcli.players.search.ismcts import DEFAULT_ITERATIONS, Budget, deal_rewards, search

    hooks = registry.get("pigugnin").search.load()  # type: ignore[union-attr]
    budget = Budget(iterations=DEFAULT_ITERATIONS)

    def position(num_players: int, seed: int) -> Any:
        setup = registry.resolve("pigugnin", None, {}, num_players, seed)
        match = setup.new_match()
        match.deal(shuffled(seed, 0, setup.spec.deck()))
        rng = random.Random(seed)
        for _ in range(5):
            decision = match.decisions()[0]
            match.apply(decision.seat, rng.choice(decision.moves))
        return match

    print(f"ISMCTS decisions, {DEFAULT_ITERATIONS} iterations, playout=rule, {rounds} rounds of "
          f"{SEARCH_POSITIONS} positions each way; medians over the rounds")
    for num_players in (4, 5):
        ways = {
            "whole playout": policy_for(hooks, num_players, "rule"),
            "move by move": policy_for(attrs.evolve(hooks, whole_playout=None), num_players, "rule"),
        }
        rewards = deal_rewards(num_players, True, ())
        per_decision: dict[str, list[float]] = {name: [] for name in ways}
        for number in range(rounds):
            seeds = range(number * SEARCH_POSITIONS, (number + 1) * SEARCH_POSITIONS)
            positions = [position(num_players, seed) for seed in seeds]
            for name, policy in ways.items():
                start = time.process_time()
                for seed, match in zip(seeds, positions):
                    decision = match.decisions()[0]
                    search(lambda rng, match=match: match.clone(), decision.seat, decision.moves, rewards, budget,
                           random.Random(seed), policy)
                per_decision[name].append((time.process_time() - start) / SEARCH_POSITIONS * 1000)
        for name in ways:
            print(f"{num_players} players {name:<16} {statistics.median(per_decision[name]):>8.1f} ms a decision")
        ratios = [a / b for a, b in zip(per_decision["move by move"], per_decision["whole playout"])]
        print(f"{num_players} players move by move / whole playout: median {statistics.median(ratios):.2f}, "
              f"lowest {min(ratios):.2f}, highest {max(ratios):.2f}")
    seat_decisions(rounds)


def seat_decisions(rounds: int) -> None:
    """Whole decisions of the default ``ismcts`` seat in one-deal matches against ``heuristic``
    seats (the seat view draws the worlds), 4 and 5 players, with the game's search hooks as
    they are and with ``whole_playout`` taken out of them, two seeds per round each way:
    processor time per decision the seat was asked for (its forced plays included)."""
    import attrs

    import cardcli.plugins.pigugnin.search as pigugnin_search
    from cardcli.referee import Settings, play_match
    from cardcli.seating import builtin

    hooks = pigugnin_search.SEARCH
    ways = {"whole playout": hooks, "move by move": attrs.evolve(hooks, whole_playout=None)}
    print(f"An ismcts seat against heuristic seats, one deal, {rounds} rounds of 2 seeds each way")
    try:
        for num_players in (4, 5):
            per_decision: dict[str, list[float]] = {name: [] for name in ways}
            for number in range(rounds):
                for name, chosen in ways.items():
                    pigugnin_search.SEARCH = chosen  # what the seat's player loads (GameSpec.search)
                    start = time.process_time()
                    decisions = 0
                    for seed in (2 * number, 2 * number + 1):
                        setup = registry.resolve("pigugnin", None, {}, num_players, seed)
                        seats = [builtin("ismcts", "i", seed),
                                 *(builtin("heuristic", f"h{k}", seed) for k in range(num_players - 1))]
                        play_match(setup, seats, Settings(max_deals=1))
                        decisions += seats[0].player.decisions  # type: ignore[attr-defined]
                    per_decision[name].append((time.process_time() - start) / decisions * 1000)
            for name in ways:
                print(f"{num_players} players {name:<16} {statistics.median(per_decision[name]):>8.1f} ms a decision")
            ratios = [a / b for a, b in zip(per_decision["move by move"], per_decision["whole playout"])]
            print(f"{num_players} players move by move / whole playout: median {statistics.median(ratios):.2f}, "
                  f"lowest {min(ratios):.2f}, highest {max(ratios):.2f}")
    finally:
        pigugnin_search.SEARCH = hooks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="processor seconds per contender and round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, the contenders taking turns in each")
    parser.add_argument("--search", action="store_true",
                        help="measure the search player's decisions with and without the whole playouts instead")
    args = parser.parse_args()
    if args.search:
        search_decisions(args.rounds)
        return
    contenders: dict[str, Contender] = {}
    for n in (4, 5):
        contenders[f"pigugnin {n}p compact random"] = compact(n)
        contenders[f"pigugnin {n}p compact greedy"] = compact(n, playout.GREEDY)
        contenders[f"pigugnin {n}p engine actions"] = engine_actions(None, "pigugnin", num_players=n)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    per_move: dict[str, list[float]] = {name: [] for name in contenders}
    for number in range(args.rounds):
        for name, contender in contenders.items():
            run = contender(args.seconds, 1000 * number)
            rates[name].append(run.deals / run.seconds)
            per_move[name].append(run.seconds / run.moves * 1e6)
    print(f"{args.rounds} rounds of {args.seconds:.2f} processor seconds per contender; medians over the rounds")
    print(f"{'contender':<32} {'deals/cpu-s':>12} {'us/move':>8} {'lowest':>8} {'highest':>8}")
    for name in contenders:
        print(f"{name:<32} {statistics.median(rates[name]):>12.0f} {statistics.median(per_move[name]):>8.2f} "
              f"{min(rates[name]):>8.0f} {max(rates[name]):>8.0f}")
    for n in (4, 5):
        reference = f"pigugnin {n}p engine actions"
        for policy in ("random", "greedy"):
            name = f"pigugnin {n}p compact {policy}"
            ratios = [a / b for a, b in zip(rates[name], rates[reference])]
            print(f"{name} / {reference}, deals per processor-second: median {statistics.median(ratios):.2f}, "
                  f"lowest {min(ratios):.2f}, highest {max(ratios):.2f} (target: at least {TARGET:.0f})")


if __name__ == "__main__":
    main()
