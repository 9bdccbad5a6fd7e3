#!/usr/bin/env python3
"""Seep's compact whole playouts against the engine's integer actions, for 4, 2 and 3 players.

Usage: python3 benchmarks/playouts_seep.py [--seconds S] [--rounds N] [--players 4,2,3] [--search]

Every contender plays whole random deals for S seconds of processor time per round, and the
contenders take turns in N rounds, so that a shared machine's drift in speed falls on all of
them alike; each figure printed is the median over the rounds, and each ratio the median of
the rounds' own ratios (as ``benchmarks/playouts.py`` measures Peppa's, both with the
measuring of ``benchmarks/playout_bench.py``).

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

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.plugins.seep import playout
from playouts import engine_actions
from playout_bench import CHECK_EVERY, Contender, compact_contender, first_deal, interleaved
from playout_bench import parse_args, print_ratios, print_table, random_move, search_decisions


def compact(num_players: int, policy: str = playout.RANDOM) -> Contender:
    match = registry.resolve("seep", None, {}, num_players, 0).new_match()
    state = playout.compact(match)

    def batch(rng: random.Random, play_deal: Any = playout.play_deal, state: Any = state, policy: str = policy) -> int:
        played = 0
        for _ in range(CHECK_EVERY):
            # the bid and 48 plays; a void deal (no bid possible) scores nothing and has none
            played += any(play_deal(state, rng, policy))
        return played * 49

    return compact_contender(batch)


SEARCH_POSITIONS = 6
"""Positions each way searches per round and player count (the same ones both ways)."""


def position(n: int, seed: int) -> Any:
    """A standard deal dealt from ``seed`` (the void deals dealt again), bid and played at
    random for a few moves past the opening: where ``--search`` times the search player's
    decisions (Seep's default 200 iterations, the same uniformly random playouts,
    ``playout=rule``), with its playouts finished by the compact loop and move by move."""
    match = first_deal("seep", None, n, seed)
    rng = random.Random(seed)
    for _ in range(2 + seed % 5):
        random_move(match, rng)
    return match


def main() -> None:
    args = parse_args(__doc__, players="4,2,3")
    if args.search:
        search_decisions("seep", args.players, args.rounds, SEARCH_POSITIONS, position)
        return
    contenders: dict[str, Contender] = {}
    for n in args.players:
        contenders[f"seep {n} compact random"] = compact(n)
        contenders[f"seep {n} compact card"] = compact(n, playout.CARD)
        contenders[f"seep {n} compact greedy"] = compact(n, playout.GREEDY)
        contenders[f"seep {n} engine actions"] = engine_actions(None, "seep", num_players=n)
    rates = interleaved(contenders, args.seconds, args.rounds)
    print_table(rates, args.seconds, args.rounds, 28)
    for n in args.players:
        print_ratios(rates, (f"seep {n} compact {policy}" for policy in ("random", "card", "greedy")),
                     f"seep {n} engine actions", target=4, label="engine actions")


if __name__ == "__main__":
    main()
