#!/usr/bin/env python3
"""Peppa's compact whole playouts against the engine's integer actions and OpenSpiel's hearts.

Usage: python3 benchmarks/playouts.py [--seconds S] [--rounds N] [--search]

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
from typing import Callable, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.peppa import playout
from engine import MAX_DEALS

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


def search_decisions(rounds: int) -> None:
    """The search player's cost per decision with its playouts finished by the compact loop
    and move by move (the same rule, ``playout=rule``), on the same positions: Torino deals
    dealt from seeds 0, 1, 2 ..., passed at random and five cards into the play, each
    searched with the default 400 iterations over clones of the true position (the view's
    drawing of worlds, the same both ways, is left out)."""
    import attrs

    from cardcli.players.search.hooks import policy_for
    from cardcli.players.search.ismcts import DEFAULT_ITERATIONS, Budget, deal_rewards, search

    hooks = registry.get("peppa").search.load()  # type: ignore[union-attr]
    ways = {
        "whole playout": policy_for(hooks, 4, "rule"),
        "move by move": policy_for(attrs.evolve(hooks, whole_playout=None), 4, "rule"),
    }
    rewards = deal_rewards(4, True, ())
    budget = Budget(iterations=DEFAULT_ITERATIONS)

    def position(seed: int):  # type: ignore[no-untyped-def]
        setup = registry.resolve("peppa", "torino", {}, None, seed)
        match = setup.new_match()
        match.deal(shuffled(seed, 0, setup.spec.deck()))
        rng = random.Random(seed)
        while match.phase == "pass" or match.tricks.number * 4 + len(match.tricks.trick) < 5:
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
    print(f"ISMCTS decisions, {DEFAULT_ITERATIONS} iterations, playout=rule, {rounds} rounds of "
          f"{SEARCH_POSITIONS} positions each way; medians over the rounds")
    for name in ways:
        print(f"{name:<16} {statistics.median(per_decision[name]):>8.1f} ms a decision")
    ratios = [a / b for a, b in zip(per_decision["move by move"], per_decision["whole playout"])]
    print(f"move by move / whole playout: median {statistics.median(ratios):.2f}, lowest {min(ratios):.2f}, "
          f"highest {max(ratios):.2f}")
    seat_decisions(rounds)


def seat_decisions(rounds: int) -> None:
    """Whole decisions of the default ``ismcts`` seat in one-deal matches against three
    ``heuristic`` seats (the seat view draws the worlds), with the game's search hooks as they
    are and with ``whole_playout`` taken out of them, two seeds per round each way: processor
    time per decision the seat was asked for (its pass and its forced plays included)."""
    import attrs

    import cardcli.plugins.peppa.search as peppa_search
    from cardcli.referee import Settings, play_match
    from cardcli.seating import builtin

    hooks = peppa_search.SEARCH
    ways = {"whole playout": hooks, "move by move": attrs.evolve(hooks, whole_playout=None)}
    per_decision: dict[str, list[float]] = {name: [] for name in ways}
    try:
        for number in range(rounds):
            for name, chosen in ways.items():
                peppa_search.SEARCH = chosen  # what the seat's player loads (GameSpec.search)
                start = time.process_time()
                decisions = 0
                for seed in (2 * number, 2 * number + 1):
                    setup = registry.resolve("peppa", None, {}, None, seed)
                    seats = [builtin("ismcts", "i", seed), *(builtin("heuristic", f"h{k}", seed) for k in range(3))]
                    play_match(setup, seats, Settings(max_deals=1))
                    decisions += seats[0].player.decisions  # type: ignore[attr-defined]
                per_decision[name].append((time.process_time() - start) / decisions * 1000)
    finally:
        peppa_search.SEARCH = hooks
    print(f"An ismcts seat against three heuristic seats, one deal, {rounds} rounds of 2 seeds each way")
    for name in ways:
        print(f"{name:<16} {statistics.median(per_decision[name]):>8.1f} ms a decision")
    ratios = [a / b for a, b in zip(per_decision["move by move"], per_decision["whole playout"])]
    print(f"move by move / whole playout: median {statistics.median(ratios):.2f}, lowest {min(ratios):.2f}, "
          f"highest {max(ratios):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="processor seconds per contender and round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, the contenders taking turns in each")
    parser.add_argument("--search", action="store_true",
                        help="measure the search player's decisions with and without the whole playouts instead")
    args = parser.parse_args()
    if args.search:
        search_decisions(args.rounds)
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
