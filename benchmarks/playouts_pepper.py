#!/usr/bin/env python3
"""Pepper's compact whole playouts against the engine's integer actions, for 2, 3 and 4 players.

Usage: python3 benchmarks/playouts_pepper.py [--seconds S] [--rounds N] [--players 2,3,4] [--search]

Every contender plays whole random deals for S seconds of processor time per round, and the
contenders take turns in N rounds, so that a shared machine's drift in speed falls on all of
them alike; each figure printed is the median over the rounds, and each ratio the median of
the rounds' own ratios (as ``benchmarks/playouts.py`` measures Peppa's, both with the
measuring of ``benchmarks/playout_bench.py``).

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

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.pepper import playout
from playouts import engine_actions
from playout_bench import CHECK_EVERY, Contender, compact_contender, interleaved, parse_args
from playout_bench import print_ratios, print_table, search_decisions, seat_decisions


def compact(num_players: int, policy: str = playout.RANDOM) -> Contender:
    match = registry.resolve("pepper", None, {}, num_players, 0).new_match()
    state = playout.compact(match)

    def batch(rng: random.Random, finish: Any = playout.finish_deal, state: Any = state, policy: str = policy) -> int:
        moves = 0
        for _ in range(CHECK_EVERY):
            moves += finish(state, rng, policy)[1]
        return moves

    return compact_contender(batch)


SEARCH_POSITIONS = 6
"""Positions each way searches per round and player count (the same ones both ways)."""


def position(n: int, seed: int) -> Any:
    """A deal dealt from ``seed``, each seat bidding the lowest number the heuristic's trick
    count reaches, the trump named at random, and a few cards into the play: where ``--search``
    times the search player's decisions (the default 400 iterations, ``playout=rule``), with
    its playouts finished by the compact loop and move by move."""
    from cardcli.plugins.pepper.heuristic import PepperHeuristic

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


def main() -> None:
    args = parse_args(__doc__, players="2,3,4")
    if args.search:
        search_decisions("pepper", args.players, args.rounds, SEARCH_POSITIONS, position)
        # an ismcts seat's whole decisions (its bids, the heuristic's as by default, and its
        # forced plays included) in one-deal matches against heuristic seats
        seat_decisions("pepper", args.players, args.rounds)
        return
    contenders: dict[str, Contender] = {}
    for n in args.players:
        contenders[f"pepper {n}p compact random"] = compact(n)
        contenders[f"pepper {n}p compact greedy"] = compact(n, playout.GREEDY)
        contenders[f"pepper {n}p engine actions"] = engine_actions(None, "pepper", num_players=n)
    rates = interleaved(contenders, args.seconds, args.rounds)
    print_table(rates, args.seconds, args.rounds, 30)
    for n in args.players:
        print_ratios(rates, (f"pepper {n}p compact random", f"pepper {n}p compact greedy"),
                     f"pepper {n}p engine actions", target=4)


if __name__ == "__main__":
    main()
