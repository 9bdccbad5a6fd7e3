#!/usr/bin/env python3
"""Pepper's compact whole playouts against the engine's integer actions, for 2, 3 and 4 players.

Usage: python3 benchmarks/playouts_pepper.py [--seconds S] [--rounds N] [--players 2,3,4] [--search]

Every contender plays whole random deals for S seconds of processor time per round, and the
contenders take turns in N rounds, so that a shared machine's drift in speed falls on all of
them alike; each figure printed is the median over the rounds, and each ratio the median of
the rounds' own ratios (as ``benchmarks/playouts.py`` measures Peppa's, whose pieces this
imports).

The contenders, per player count:

* ``compact random``: :func:`cardcli.plugins.pepper.playout.finish_deal` from a state between
  deals, so each call deals a random deck, holds a random auction (a deal where everybody
  passes is thrown in: a deal with no trump and no card), names a random trump and plays
  uniformly random legal cards;
* ``compact greedy``: the same with the trick-taking rule of thumb for the cards;
* ``engine actions``: the full engine's integer actions (``legal_actions`` and
  ``apply_action``, no events) with uniformly random moves, whole matches as the referee
  deals them, capped at the referee's deal limit (``engine_actions`` of playouts.py).

Both sides bid uniformly at random, so the deals they play are alike, thrown-in deals
included. A move is a bid, a trump or a card.

With ``--search`` it measures instead what the search player gains: processor time per
decision, on the same positions, with the playouts finished by the compact loop and move by
move, and then per decision of an ``ismcts`` seat playing a deal against heuristic seats
(``--seconds`` is then unused).
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
from cardcli.plugins.pepper import playout
from playouts import CHECK_EVERY, Contender, Run, engine_actions


def compact(num_players: int, policy: str = playout.RANDOM) -> Contender:
    match = registry.resolve("pepper", None, {}, num_players, 0).new_match()
    state = playout.compact(match)

    def run(seconds: float, seed: int) -> Run:
        rng = random.Random(seed)
        finish = playout.finish_deal
        deals = moves = 0
        clock = time.process_time
        start = clock()
        while True:
            for _ in range(CHECK_EVERY):
                moves += finish(state, rng, policy)[1]
            deals += CHECK_EVERY
            elapsed = clock() - start
            if elapsed >= seconds:
                return Run(deals, moves, elapsed)

    return run


SEARCH_POSITIONS = 6
"""Positions each way searches per round and player count (the same ones both ways)."""


def search_decisions(rounds: int, counts: list[int]) -> None:
    """The search player's cost per decision with its playouts finished by the compact loop
    and move by move (the same rule, ``playout=rule``), on the same positions: deals dealt
    from seeds 0, 1, 2 ..., each seat bidding the lowest number the heuristic's trick count
    reaches, the trump named at random, and a few cards
    into the play, each searched with the default 400 iterations over clones of the true
    position (the view's drawing of worlds, the same both ways, is left out)."""
    import attrs

    from cardcli.players.search.hooks import policy_for
    from cardcli.players.search.ismcts import DEFAULT_ITERATIONS, Budget, deal_rewards, search
    from cardcli.plugins.pepper.heuristic import PepperHeuristic

    hooks = registry.get("pepper").search.load()  # type: ignore[union-attr]
    budget = Budget(iterations=DEFAULT_ITERATIONS)

    def position(n: int, seed: int) -> Any:
        setup = registry.resolve("pepper", None, {}, n, seed)
        match = setup.new_match()
        rng = random.Random(seed)
        while True:
            if match.needs_deal():
                match.deal(shuffled(seed, match.deal_number, setup.spec.deck()))
            decision = match.decisions()[0]
            if decision.kind == "bid":  # the heuristic's count: the lowest number it reaches
                tricks = int(PepperHeuristic(decision.seat, n, {}).best_estimate(set(match.hands[decision.seat])))
                fitting = [m for m in decision.moves if m.isdigit() and int(m) <= tricks] or ["pass"]
                match.apply(decision.seat, fitting[0] if fitting[0] in decision.moves else decision.moves[0])
            elif decision.kind == "trump" or match.tricks.number * n + len(match.tricks.trick) < n + 1:
                match.apply(decision.seat, rng.choice(decision.moves))
            else:
                return match

    print(f"ISMCTS decisions, {DEFAULT_ITERATIONS} iterations, playout=rule, {rounds} rounds of "
          f"{SEARCH_POSITIONS} positions each way; medians over the rounds")
    for n in counts:
        ways = {
            "whole playout": policy_for(hooks, n, "rule"),
            "move by move": policy_for(attrs.evolve(hooks, whole_playout=None), n, "rule"),
        }
        rewards = deal_rewards(n, False, ((0, 2), (1, 3)) if n == 4 else ())
        per_decision: dict[str, list[float]] = {name: [] for name in ways}
        for number in range(rounds):
            seeds = range(number * SEARCH_POSITIONS, (number + 1) * SEARCH_POSITIONS)
            positions = [position(n, seed) for seed in seeds]
            for name, policy in ways.items():
                start = time.process_time()
                for seed, match in zip(seeds, positions):
                    decision = match.decisions()[0]
                    search(lambda rng, match=match: match.clone(), decision.seat, decision.moves, rewards, budget,
                           random.Random(seed), policy)
                per_decision[name].append((time.process_time() - start) / SEARCH_POSITIONS * 1000)
        for name in ways:
            print(f"{n} players {name:<16} {statistics.median(per_decision[name]):>8.1f} ms a decision")
        ratios = [a / b for a, b in zip(per_decision["move by move"], per_decision["whole playout"])]
        print(f"{n} players move by move / whole playout: median {statistics.median(ratios):.2f}, "
              f"lowest {min(ratios):.2f}, highest {max(ratios):.2f}")


def seat_decisions(rounds: int, counts: list[int]) -> None:
    """Whole decisions of the default ``ismcts`` seat in one-deal matches against ``heuristic``
    seats (the seat view draws the worlds; the seat's bids are the heuristic's, as by
    default), with the game's search hooks as they are and with ``whole_playout`` taken out
    of them, two seeds per round each way: processor time per decision the seat was asked for
    (its bids and forced plays included)."""
    import attrs

    import cardcli.plugins.pepper.search as pepper_search
    from cardcli.referee import Settings, play_match
    from cardcli.seating import builtin

    hooks = pepper_search.SEARCH
    ways = {"whole playout": hooks, "move by move": attrs.evolve(hooks, whole_playout=None)}
    print(f"An ismcts seat against heuristic seats, one deal, {rounds} rounds of 2 seeds each way")
    try:
        for n in counts:
            per_decision: dict[str, list[float]] = {name: [] for name in ways}
            for number in range(rounds):
                for name, chosen in ways.items():
                    pepper_search.SEARCH = chosen  # what the seat's player loads (GameSpec.search)
                    start = time.process_time()
                    decisions = 0
                    for seed in (2 * number, 2 * number + 1):
                        setup = registry.resolve("pepper", None, {}, n, seed)
                        seats = [builtin("ismcts", "i", seed),
                                 *(builtin("heuristic", f"h{k}", seed) for k in range(n - 1))]
                        play_match(setup, seats, Settings(max_deals=1))
                        decisions += seats[0].player.decisions  # type: ignore[attr-defined]
                    per_decision[name].append((time.process_time() - start) / max(decisions, 1) * 1000)
            for name in ways:
                print(f"{n} players {name:<16} {statistics.median(per_decision[name]):>8.1f} ms a decision")
            ratios = [a / b for a, b in zip(per_decision["move by move"], per_decision["whole playout"])]
            print(f"{n} players move by move / whole playout: median {statistics.median(ratios):.2f}, "
                  f"lowest {min(ratios):.2f}, highest {max(ratios):.2f}")
    finally:
        pepper_search.SEARCH = hooks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="processor seconds per contender and round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, the contenders taking turns in each")
    parser.add_argument("--players", default="2,3,4", help="the player counts, comma-separated")
    parser.add_argument("--search", action="store_true",
                        help="measure the search player's decisions with and without the whole playouts instead")
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    if args.search:
        search_decisions(args.rounds, counts)
        seat_decisions(args.rounds, counts)
        return
    contenders: dict[str, Contender] = {}
    for n in counts:
        contenders[f"pepper {n}p compact random"] = compact(n)
        contenders[f"pepper {n}p compact greedy"] = compact(n, playout.GREEDY)
        contenders[f"pepper {n}p engine actions"] = engine_actions(None, "pepper", num_players=n)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    per_move: dict[str, list[float]] = {name: [] for name in contenders}
    for number in range(args.rounds):
        for name, contender in contenders.items():
            run = contender(args.seconds, 1000 * number)
            rates[name].append(run.deals / run.seconds)
            per_move[name].append(run.seconds / run.moves * 1e6)
    print(f"{args.rounds} rounds of {args.seconds:.2f} processor seconds per contender; medians over the rounds")
    print(f"{'contender':<30} {'deals/cpu-s':>12} {'us/move':>8} {'lowest':>8} {'highest':>8}")
    for name in contenders:
        print(f"{name:<30} {statistics.median(rates[name]):>12.0f} {statistics.median(per_move[name]):>8.2f} "
              f"{min(rates[name]):>8.0f} {max(rates[name]):>8.0f}")
    for n in counts:
        reference = f"pepper {n}p engine actions"
        for name in (f"pepper {n}p compact random", f"pepper {n}p compact greedy"):
            ratios = [a / b for a, b in zip(rates[name], rates[reference])]
            print(f"{name} / {reference}, deals per processor-second: median {statistics.median(ratios):.2f}, "
                  f"lowest {min(ratios):.2f}, highest {max(ratios):.2f} (target: at least 4)")


if __name__ == "__main__":
    main()
