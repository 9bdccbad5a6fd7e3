#!/usr/bin/env python3
"""Il Pigugnìn's compact whole playouts against the engine's integer actions.

Usage: python3 benchmarks/playouts_pigugnin.py [--seconds S] [--rounds N] [--search]

As ``benchmarks/playouts.py`` measures Peppa's (whose ``engine_actions`` this imports, and
with the measuring of ``benchmarks/playout_bench.py``): every contender plays whole random deals for S seconds of
processor time per round, and the contenders take turns in N rounds, so that a shared
machine's drift in speed falls on all of them alike; each figure printed is the median over
the rounds, and each ratio the median of the rounds' own ratios. Processor time
(``time.process_time``), not the clock.

The contenders, with 4 and with 5 players:

* ``compact random``: :func:`cardcli.plugins.pigugnin.playout.play_deal` from a state between
  deals, so each call deals a random deck and plays the 40 cards with uniformly random legal
  cards, then charges the busche (``compact greedy``: Il Pigugnìn's rule of thumb,
  ``PigugninPolicy``'s, one card in ten at random, as the search plays it);
* ``engine actions``: the full engine's integer actions (``legal_actions`` and
  ``apply_action``, no events), whole matches dealt as the referee deals them:
  ``engine_actions(None, "pigugnin", num_players=N)`` of ``benchmarks/playouts.py``.

A move is a card played: a deal is 40 moves with either seat count.

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
from cardcli.plugins.pigugnin import playout
from playouts import engine_actions
from playout_bench import Contender, first_deal, fixed_moves, interleaved, parse_args
from playout_bench import print_ratios, print_table, random_move, search_decisions, seat_decisions

TARGET = 4.0
"""The compact loop's deals per processor-second, at least this many times the engine's."""

COUNTS = (4, 5)
"""The player counts measured."""


def compact(num_players: int, policy: str = playout.RANDOM, options: dict[str, str] | None = None) -> Contender:
    match = registry.resolve("pigugnin", None, options or {}, num_players, 0).new_match()
    return fixed_moves(playout.play_deal, playout.compact(match), policy, 40)


SEARCH_POSITIONS = 8
"""Positions each way searches per round and player count (the same ones both ways)."""


def position(num_players: int, seed: int) -> Any:
    """A deal dealt from ``seed`` and five cards into the play: where ``--search`` times the
    search player's decisions (the default 400 iterations, ``playout=rule``), with its playouts
    finished by the compact loop and move by move."""
    match = first_deal("pigugnin", None, num_players, seed)
    rng = random.Random(seed)
    for _ in range(5):
        random_move(match, rng)
    return match


def main() -> None:
    args = parse_args(__doc__)
    if args.search:
        search_decisions("pigugnin", COUNTS, args.rounds, SEARCH_POSITIONS, position)
        # an ismcts seat's whole decisions (its forced plays included) in one-deal matches
        # against heuristic seats
        seat_decisions("pigugnin", COUNTS, args.rounds)
        return
    contenders: dict[str, Contender] = {}
    for n in COUNTS:
        contenders[f"pigugnin {n}p compact random"] = compact(n)
        contenders[f"pigugnin {n}p compact greedy"] = compact(n, playout.GREEDY)
        contenders[f"pigugnin {n}p engine actions"] = engine_actions(None, "pigugnin", num_players=n)
    rates = interleaved(contenders, args.seconds, args.rounds)
    print_table(rates, args.seconds, args.rounds, 32)
    for n in COUNTS:
        print_ratios(rates, (f"pigugnin {n}p compact {policy}" for policy in ("random", "greedy")),
                     f"pigugnin {n}p engine actions", target=TARGET)


if __name__ == "__main__":
    main()
