#!/usr/bin/env python3
"""Peppa's compact whole playouts against the engine's integer actions and OpenSpiel's hearts.

Usage: python3 benchmarks/playouts.py [--seconds S] [--rounds N] [--search]

Every contender plays whole random deals (the deal, the pass and 52 cards) for S seconds of
processor time per round, and the contenders take turns in N rounds, so that a shared
machine's drift in speed falls on all of them alike; each figure printed is the median over
the rounds, and each ratio the median of the rounds' own ratios. Processor time
(``time.process_time``), not the clock: other work on the machine then costs a contender
only what it does to caches and frequency, not the time it spends descheduled. The measuring
is ``benchmarks/playout_bench.py``'s, shared with the other games' playout benchmarks, which
import the engine's baseline (``engine_actions``) from here.

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

With ``--search`` it measures instead what the search player gains: processor time per
decision, on the same positions, with the playouts finished by the compact loop and move by
move (``--seconds`` is then unused).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.peppa import playout
from engine import MAX_DEALS
from playout_bench import Contender, Run, first_deal, fixed_moves, interleaved, parse_args, print_ratios, print_table
from playout_bench import random_move, search_decisions, seat_decisions

HEARTS_RULES = {
    "two_of_clubs_leads": "true",
    "no_points_first_trick": "true",
    "hearts_must_be_broken": "true",
    "queen_breaks_hearts": "true",
}
"""Peppa's options nearest OpenSpiel's default hearts (which also scores the Q♠ 13 and each
heart 1, as Torino's table does not quite: A♥ 5 ... J♥ 2)."""


def compact(variant: str, policy: str = playout.RANDOM, options: dict[str, str] | None = None) -> Contender:
    match = registry.resolve("peppa", variant, options or {}, None, 0).new_match()
    passes = 4 if match.options.pass_cycle != ("hold",) else 0
    return fixed_moves(playout.play_deal, playout.compact(match), policy, 52 + passes)


def engine_actions(variant: str | None, game: str = "peppa", options: dict[str, str] | None = None,
                   num_players: int | None = None) -> Contender:
    """Whole matches of ``game`` through ``legal_actions``/``apply_action``, dealt as the
    referee deals: every game's baseline (the other games' benchmarks import it)."""

    def run(seconds: float, seed: int) -> Run:
        rng = random.Random(seed)
        deals = moves = 0
        clock = time.process_time
        start = clock()
        while clock() - start < seconds:
            setup = registry.resolve(game, variant, options or {}, num_players, seed)
            state = setup.new_match()
            deck = setup.spec.deck()
            while not state.is_over():
                if state.needs_deal():
                    if state.deal_number >= MAX_DEALS:
                        break
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


SEARCH_POSITIONS = 8
"""Positions each way searches per round (the same ones both ways)."""


def position(num_players: int, seed: int) -> Any:
    """A Torino deal dealt from ``seed``, passed at random and five cards into the play: where
    ``--search`` times the search player's decisions (the default 400 iterations, ``playout=rule``),
    with its playouts finished by the compact loop and move by move."""
    match = first_deal("peppa", "torino", None, seed)
    rng = random.Random(seed)
    while match.phase == "pass" or match.tricks.number * 4 + len(match.tricks.trick) < 5:
        random_move(match, rng)
    return match


def main() -> None:
    args = parse_args(__doc__)
    if args.search:
        search_decisions("peppa", [4], args.rounds, SEARCH_POSITIONS, position, name_counts=False)
        # an ismcts seat's whole decisions (its pass and forced plays included) in one-deal
        # matches against three heuristic seats
        seat_decisions("peppa", [4], args.rounds, name_counts=False, against="three heuristic seats")
        return
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
    rates = interleaved(contenders, args.seconds, args.rounds)
    print_table(rates, args.seconds, args.rounds, 36)
    compacts = [name for name in contenders if "compact" in name]
    if hearts is not None:
        print_ratios(rates, compacts[:1], "openspiel hearts", target=3.0)
        print_ratios(rates, compacts[1:], "openspiel hearts")
    print_ratios(rates, compacts, "peppa torino engine actions")


if __name__ == "__main__":
    main()
