#!/usr/bin/env python3
"""Seep's compact whole playouts against the engine's integer actions, for 4, 2 and 3 players.

Usage: python3 benchmarks/playouts_seep.py [--seconds S] [--rounds N] [--players 4,2,3] [--search]

Every contender plays whole random deals for S seconds of processor time per round, and the
contenders take turns in N rounds, so that a shared machine's drift in speed falls on all of
them alike; each figure printed is the median over the rounds, and each ratio the median of
the rounds' own ratios (as ``benchmarks/playouts.py`` measures Peppa's, whose pieces this
imports).

The contenders, per player count (the standard variant):

* ``compact random``: :func:`cardcli.plugins.seep.playout.play_deal` from a state between
  deals, so each call deals a random deck, makes a random bid and plays uniformly random
  legal moves (a void deal, where the bidder holds nothing from 9 to K, counts as a deal, as
  it does for the engine);
* ``compact card``: the same with a card drawn first and then one of its moves
  (``playout=card``);
* ``compact greedy``: the same with the cheap greedy rule;
* ``engine actions``: the full engine's integer actions (``legal_actions`` and
  ``apply_action``, no events) with uniformly random moves, whole matches as the referee
  deals them, capped at the referee's deal limit (``engine_actions`` of playouts.py).

A move is a bid or a play.

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
from cardcli.plugins.seep import playout
from playouts import CHECK_EVERY, Contender, Run, engine_actions


def compact(num_players: int, policy: str = playout.RANDOM) -> Contender:
    match = registry.resolve("seep", None, {}, num_players, 0).new_match()
    state = playout.compact(match)

    def run(seconds: float, seed: int) -> Run:
        rng = random.Random(seed)
        play_deal = playout.play_deal
        deals = played = 0
        clock = time.process_time
        start = clock()
        while True:
            for _ in range(CHECK_EVERY):
                # the bid and 48 plays; a void deal (no bid possible) scores nothing and has none
                played += any(play_deal(state, rng, policy))
            deals += CHECK_EVERY
            elapsed = clock() - start
            if elapsed >= seconds:
                return Run(deals, played * 49, elapsed)

    return run


SEARCH_POSITIONS = 6
"""Positions each way searches per round and player count (the same ones both ways)."""


def search_decisions(rounds: int, counts: list[int]) -> None:
    """The search player's cost per decision with its playouts finished by the compact loop
    and move by move (the same uniformly random playouts, ``playout=rule``), on the same
    positions: standard deals dealt from seeds 0, 1, 2 ..., bid and played at random for a
    few moves past the opening, each searched with Seep's default 200 iterations over clones
    of the true position (the view's drawing of worlds, the same both ways, is left out)."""
    import attrs

    from cardcli.players.search.hooks import policy_for
    from cardcli.players.search.ismcts import Budget, deal_rewards, search

    hooks = registry.get("seep").search.load()  # type: ignore[union-attr]
    budget = Budget(iterations=hooks.iterations)
    print(f"ISMCTS decisions, {hooks.iterations} iterations, playout=rule, {rounds} rounds of "
          f"{SEARCH_POSITIONS} positions each way; medians over the rounds")
    for n in counts:
        ways = {
            "whole playout": policy_for(hooks, n, "rule"),
            "move by move": policy_for(attrs.evolve(hooks, whole_playout=None), n, "rule"),
        }
        spec = registry.get("seep")
        rewards = deal_rewards(n, False, spec.teams(n))

        def position(seed: int) -> Any:
            setup = registry.resolve("seep", None, {}, n, seed)
            match = setup.new_match()
            while True:
                match.deal(shuffled(seed, match.deal_number, setup.spec.deck()))
                if not match.needs_deal():
                    break
            rng = random.Random(seed)
            for _ in range(2 + seed % 5):
                decision = match.decisions()[0]
                match.apply(decision.seat, rng.choice(decision.moves))
            return match

        per_decision: dict[str, list[float]] = {name: [] for name in ways}
        for number in range(rounds):
            seeds = range(number * SEARCH_POSITIONS, (number + 1) * SEARCH_POSITIONS)
            positions = [position(seed) for seed in seeds]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="processor seconds per contender and round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, the contenders taking turns in each")
    parser.add_argument("--players", default="4,2,3", help="player counts, comma-separated")
    parser.add_argument("--search", action="store_true",
                        help="measure the search player's decisions with and without the whole playouts instead")
    args = parser.parse_args()
    counts = [int(n) for n in args.players.split(",")]
    if args.search:
        search_decisions(args.rounds, counts)
        return
    contenders: dict[str, Contender] = {}
    for n in counts:
        contenders[f"seep {n} compact random"] = compact(n)
        contenders[f"seep {n} compact card"] = compact(n, playout.CARD)
        contenders[f"seep {n} compact greedy"] = compact(n, playout.GREEDY)
        contenders[f"seep {n} engine actions"] = engine_actions(None, "seep", num_players=n)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    per_move: dict[str, list[float]] = {name: [] for name in contenders}
    for number in range(args.rounds):
        for name, contender in contenders.items():
            run = contender(args.seconds, 1000 * number)
            rates[name].append(run.deals / run.seconds)
            per_move[name].append(run.seconds / run.moves * 1e6)
    print(f"{args.rounds} rounds of {args.seconds:.2f} processor seconds per contender; medians over the rounds")
    print(f"{'contender':<28} {'deals/cpu-s':>12} {'us/move':>8} {'lowest':>8} {'highest':>8}")
    for name in contenders:
        print(f"{name:<28} {statistics.median(rates[name]):>12.0f} {statistics.median(per_move[name]):>8.2f} "
              f"{min(rates[name]):>8.0f} {max(rates[name]):>8.0f}")
    for n in counts:
        reference = f"seep {n} engine actions"
        for policy in ("random", "card", "greedy"):
            name = f"seep {n} compact {policy}"
            ratios = [a / b for a, b in zip(rates[name], rates[reference])]
            print(f"{name} / engine actions, deals per processor-second: median {statistics.median(ratios):.2f}, "
                  f"lowest {min(ratios):.2f}, highest {max(ratios):.2f} (target: at least 4)")


if __name__ == "__main__":
    main()
