#!/usr/bin/env python3
"""The learning environments (``cardcli.envs``, docs/rl.md): their speed, and the bound of
Seep's action encoding.

Usage:
  python3 benchmarks/envs.py speed [--seconds S]
  python3 benchmarks/envs.py seep [--matches N] [--options NAME=VALUE ...]

``speed`` plays whole matches through each game's AEC environment with uniformly random
legal actions for about S seconds per game and player count, and prints environment steps per
second and moves per second (a Peppa pass is three steps and one move) next to the engine's own
random playouts (``benchmarks/engine.py``'s), through the text moves (which the environment
makes) and through integer actions (the fastest way, for the games whose actions are fixed),
each with the ratio of its move rate to the environment's: what the environment costs on top of
the rules. They alternate in rounds, so that the drift of a shared machine's speed falls on
all of them.

``seep`` plays N seeded matches per variant and player count twice, once with uniformly random
moves and once with a player that throws whenever it may (the floor then fills up, and the
ways to capture and build multiply), and at every play decision checks that the encoding gives
every legal move a different action and the action back the move, and measures the largest
number of ways of one card, kind and value against the encoding's bounds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import SEED_SPACING, playouts, setup_class

MAX_DEALS = 500
ROUNDS = 3
CASES = (("peppa", 4), ("seep", 2), ("seep", 3), ("seep", 4), ("pigugnin", 4), ("pigugnin", 5),
         ("pepper", 2), ("pepper", 3), ("pepper", 4))


def env_playouts(game: str, players: int, seconds: float, seed: int) -> tuple[int, int, float, int]:
    """Whole matches through the AEC environment with random legal actions for about
    ``seconds``: steps, moves, seconds and the next seed."""
    import numpy as np
    from importlib import import_module

    env = import_module(f"cardcli.envs.{game}_v0").raw_env(players=players, max_deals=MAX_DEALS)
    rng = np.random.default_rng(seed)
    steps = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        moves += len(env.table_now.moves)
        seed += 1
    return steps, moves, time.perf_counter() - start, seed


def speed(seconds: float) -> None:
    print(f"{'game':<9} {'players':>7} {'env steps/s':>11} {'env moves/s':>11} {'engine text':>11} "
          f"{'ratio':>5} {'engine actions':>14} {'ratio':>5}")
    for game, players in CASES:
        ways = ["text"] + (["actions"] if game != "seep" and hasattr(setup_class(game), "apply_action") else [])
        seeds = {"env": 2 * SEED_SPACING, "text": 0, "actions": SEED_SPACING}
        steps = {"env": 0, "text": 0, "actions": 0}
        moves = dict.fromkeys(steps, 0)
        spent = dict.fromkeys(steps, 0.0)
        for _ in range(ROUNDS):
            done, made, elapsed, seeds["env"] = env_playouts(game, players, seconds / ROUNDS, seeds["env"])
            steps["env"] += done
            moves["env"] += made
            spent["env"] += elapsed
            for way in ways:
                run = playouts(game, _variant(game), players, seconds / ROUNDS, way == "actions", seeds[way])
                seeds[way] = run.next_seed
                moves[way] += run.moves
                spent[way] += run.seconds
        rate = {way: moves[way] / spent[way] for way in spent if spent[way]}
        cells = [f"{rate['text']:>11.0f} {rate['text'] / rate['env']:>5.1f}"]
        cells.append(f"{rate['actions']:>14.0f} {rate['actions'] / rate['env']:>5.1f}" if "actions" in rate
                     else f"{'-':>14} {'-':>5}")
        print(f"{game:<9} {players:>7} {steps['env'] / spent['env']:>11.0f} {rate['env']:>11.0f} {' '.join(cells)}",
              flush=True)


def _variant(game: str) -> str:
    from cardcli.games import registry

    return registry.get(game).default_variant.name


# -- Seep's action encoding ---------------------------------------------------------------------


def seep(matches: int, given: dict[str, str]) -> None:
    from cardcli.plugins.seep import actions as seep_actions
    from cardcli.games import registry
    from cardcli.games.dealing import shuffled

    spec = registry.get("seep")
    bounds = seep_actions.WAYS
    print(f"action space: {seep_actions.SIZE}; ways per card, kind and value: "
          + ", ".join(f"{k} {v}" for k, v in bounds.items() if k != "throw"))
    print(f"{'variant':<13} {'players':>7} {'play':<6} {'decisions':>9} {'largest list':>12} "
          f"{'take':>4} {'build':>5} {'cement':>6} {'break':>5} {'past bound':>10}")
    for variant in spec.variants:
        for players in spec.player_counts:
            for policy in ("random", "throw"):
                decisions = largest = past = 0
                most: Counter[str] = Counter()
                for seed in range(matches):
                    setup = registry.resolve("seep", variant.name, given, players, seed)
                    state = setup.new_match()
                    rng = random.Random(seed)
                    while not state.is_over():
                        if state.needs_deal():
                            if state.deal_number >= MAX_DEALS:
                                state.adjudicate()
                            else:
                                state.deal(shuffled(seed, state.deal_number, spec.deck()))
                            continue
                        decision = state.decisions()[0]
                        encoded = seep_actions.encode(decision.kind, decision.moves)
                        named = [a for a in encoded.actions if a >= 0]
                        if len(set(named)) != len(named) or any(encoded.token(a) != m for a, m in
                                                                 zip(encoded.actions, decision.moves) if a >= 0):
                            raise SystemExit(f"seed {seed}: two moves share an action in {decision.moves}")
                        if decision.kind == "play":
                            decisions += 1
                            largest = max(largest, len(decision.moves))
                            past += encoded.unencoded > 0
                            ways = Counter(seep_actions.MoveName.of(m) for m in decision.moves)
                            for name, count in ways.items():
                                most[name.kind] = max(most[name.kind], count)
                        moves = decision.moves
                        throws = [m for m in moves if m.startswith("throw:")] if policy == "throw" else []
                        state.apply(decision.seat, rng.choice(throws or moves))
                print(f"{variant.name:<13} {players:>7} {policy:<6} {decisions:>9} {largest:>12} {most['take']:>4} "
                      f"{most['build']:>5} {most['cement']:>6} {most['break']:>5} {past:>10}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    timing = commands.add_parser("speed", help="environment steps per second against the engine's playouts")
    timing.add_argument("--seconds", type=float, default=6.0, help="per game and player count, both sides")
    bound = commands.add_parser("seep", help="Seep's action encoding over many random positions")
    bound.add_argument("--matches", type=int, default=50)
    bound.add_argument("--options", nargs="*", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    if args.command == "speed":
        speed(args.seconds)
    else:
        seep(args.matches, dict(item.split("=", 1) for item in args.options))


if __name__ == "__main__":
    main()
