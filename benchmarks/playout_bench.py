"""The measuring shared by the whole-playout benchmarks (``benchmarks/playouts.py`` for Peppa,
``playouts_pepper.py``, ``playouts_pigugnin.py`` and ``playouts_seep.py``).

Every contender plays whole random deals for S seconds of processor time per round, and the
contenders take turns in N rounds (:func:`interleaved`), so that a shared machine's drift in
speed falls on all of them alike; each figure printed is the median over the rounds
(:func:`print_table`), and each ratio the median of the rounds' own ratios
(:func:`print_ratios`). Processor time (``time.process_time``), not the clock: other work on
the machine then costs a contender only what it does to caches and frequency, not the time it
spends descheduled.

Every game measures its compact loop (:func:`compact_contender`, given the game's own batch of
deals) against the same baseline, the engine's integer actions (``engine_actions`` of
``benchmarks/playouts.py``), and
with ``--search`` what the search player gains from the loop: :func:`search_decisions` (the
search alone, on the same positions, with the playouts finished by the compact loop and move
by move) and :func:`seat_decisions` (whole decisions of an ``ismcts`` seat against
``heuristic`` seats, with and without the game's ``whole_playout``).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from cardcli.games import registry
from cardcli.games.dealing import shuffled

CHECK_EVERY = 8
"""Deals between two reads of the processor clock (a read costs about a microsecond)."""


class Run(NamedTuple):
    deals: int
    moves: int
    seconds: float


Contender = Callable[[float, int], Run]
"""``contender(seconds, seed)``: random deals for about ``seconds`` of processor time."""

Batch = Callable[[random.Random], int]
"""``batch(rng)``: :data:`CHECK_EVERY` deals of a compact loop, returning the moves they made."""


def compact_contender(batch: Batch) -> Contender:
    """A compact loop's contender: ``batch`` plays :data:`CHECK_EVERY` deals between two reads
    of the clock (the game's own loop over its ``play_deal``, with what it calls bound as
    defaults, so that the deals themselves run on local names; the call costs a tenth of a
    microsecond in a batch of eight deals)."""

    def run(seconds: float, seed: int) -> Run:
        rng = random.Random(seed)
        deals = moves = 0
        clock = time.process_time
        start = clock()
        while True:
            moves += batch(rng)
            deals += CHECK_EVERY
            elapsed = clock() - start
            if elapsed >= seconds:
                return Run(deals, moves, elapsed)

    return run


def fixed_moves(play_deal: Callable[[Any, random.Random, str], object], state: Any, policy: str,
                moves_per_deal: int) -> Contender:
    """:func:`compact_contender` for a game whose every deal makes ``moves_per_deal`` moves."""

    def batch(rng: random.Random, play_deal: Callable[..., object] = play_deal, state: Any = state,
              policy: str = policy) -> int:
        for _ in range(CHECK_EVERY):
            play_deal(state, rng, policy)
        return CHECK_EVERY * moves_per_deal

    return compact_contender(batch)


def first_deal(game: str, variant: str | None, num_players: int | None, seed: int) -> Any:
    """A new match of ``game`` with its first deal to play, dealt from ``seed`` as the referee
    deals (a deal nobody can play, such as Seep's void deal, dealt again)."""
    setup = registry.resolve(game, variant, {}, num_players, seed)
    match = setup.new_match()
    while True:
        match.deal(shuffled(seed, match.deal_number, setup.spec.deck()))
        if not match.needs_deal():
            return match


def random_move(match: Any, rng: random.Random) -> None:
    """The first decision's seat makes one of its moves at random."""
    decision = match.decisions()[0]
    match.apply(decision.seat, rng.choice(decision.moves))


class Rates(NamedTuple):
    """Per contender, one figure a round: deals per processor-second, microseconds per move."""

    deals: dict[str, list[float]]
    move_us: dict[str, list[float]]


def interleaved(contenders: dict[str, Contender], seconds: float, rounds: int) -> Rates:
    """Every contender for ``seconds`` of processor time in each of ``rounds`` rounds, taking
    turns in the order given, with the seed ``1000 * round``."""
    rates = Rates({name: [] for name in contenders}, {name: [] for name in contenders})
    for number in range(rounds):
        for name, contender in contenders.items():
            run = contender(seconds, 1000 * number)
            rates.deals[name].append(run.deals / run.seconds)
            rates.move_us[name].append(run.seconds / run.moves * 1e6)
    return rates


def print_table(rates: Rates, seconds: float, rounds: int, width: int) -> None:
    """The medians over the rounds, and the lowest and highest rounds, in a ``width`` column of
    names."""
    print(f"{rounds} rounds of {seconds:.2f} processor seconds per contender; medians over the rounds")
    print(f"{'contender':<{width}} {'deals/cpu-s':>12} {'us/move':>8} {'lowest':>8} {'highest':>8}")
    for name, deals in rates.deals.items():
        print(f"{name:<{width}} {statistics.median(deals):>12.0f} {statistics.median(rates.move_us[name]):>8.2f} "
              f"{min(deals):>8.0f} {max(deals):>8.0f}")


def spread(ratios: Sequence[float]) -> str:
    return f"median {statistics.median(ratios):.2f}, lowest {min(ratios):.2f}, highest {max(ratios):.2f}"


def print_ratios(rates: Rates, names: Iterable[str], reference: str, target: float | None = None,
                 label: str | None = None) -> None:
    """Each of ``names`` against ``reference`` (called ``label`` in the line), round by round,
    with the ``target`` the ratio should reach."""
    goal = f" (target: at least {target:.0f})" if target else ""
    for name in names:
        ratios = [a / b for a, b in zip(rates.deals[name], rates.deals[reference])]
        print(f"{name} / {label or reference}, deals per processor-second: {spread(ratios)}{goal}")


def parse_args(doc: str | None, players: str | None = None) -> argparse.Namespace:
    """``--seconds``, ``--rounds``, ``--search`` and, given a default, ``--players`` (then a
    list of player counts)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="processor seconds per contender and round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, the contenders taking turns in each")
    if players is not None:
        parser.add_argument("--players", default=players, help="the player counts, comma-separated")
    parser.add_argument("--search", action="store_true",
                        help="measure the search player's decisions with and without the whole playouts instead")
    args = parser.parse_args()
    if players is not None:
        args.players = [int(n) for n in args.players.split(",")]
    return args


WAYS = ("whole playout", "move by move")
"""The two ways a search finishes its playouts: the game's ``whole_playout``, and without it."""


def print_ways(per_decision: dict[str, list[float]], prefix: str) -> None:
    for name in WAYS:
        print(f"{prefix}{name:<16} {statistics.median(per_decision[name]):>8.1f} ms a decision")
    ratios = [a / b for a, b in zip(per_decision["move by move"], per_decision["whole playout"])]
    print(f"{prefix}move by move / whole playout: {spread(ratios)}")


def search_decisions(game: str, counts: Sequence[int], rounds: int, positions: int,
                     position: Callable[[int, int], Any], name_counts: bool = True) -> None:
    """The search player's cost per decision with its playouts finished by the compact loop
    and move by move (the same rule, ``playout=rule``), on the same positions: ``positions``
    a round per player count, ``position(num_players, seed)`` for seeds 0, 1, 2 ..., each
    searched for 400 iterations (the old default, so that both ways do the same work; the
    default is now a time budget) over clones of the true position
    (the view's drawing of worlds, the same both ways, is left out). The lines name the player
    count unless ``name_counts`` is false."""
    import attrs

    from cardcli.players.search.hooks import policy_for
    from cardcli.players.search.ismcts import DEFAULT_ITERATIONS, Budget, deal_rewards, search

    spec = registry.get(game)
    hooks = spec.search.load()  # type: ignore[union-attr]
    iterations = DEFAULT_ITERATIONS
    budget = Budget(iterations=iterations)
    print(f"ISMCTS decisions, {iterations} iterations, playout=rule, {rounds} rounds of "
          f"{positions} positions each way; medians over the rounds")
    for n in counts:
        ways = dict(zip(WAYS, (policy_for(hooks, n, "rule"),
                               policy_for(attrs.evolve(hooks, whole_playout=None), n, "rule"))))
        rewards = deal_rewards(n, spec.lower_is_better, spec.teams(n))
        per_decision: dict[str, list[float]] = {name: [] for name in ways}
        for number in range(rounds):
            seeds = range(number * positions, (number + 1) * positions)
            matches = [position(n, seed) for seed in seeds]
            for name, policy in ways.items():
                start = time.process_time()
                for seed, match in zip(seeds, matches):
                    decision = match.decisions()[0]
                    search(lambda rng, match=match: match.clone(), decision.seat, decision.moves, rewards, budget,
                           random.Random(seed), policy)
                per_decision[name].append((time.process_time() - start) / positions * 1000)
        print_ways(per_decision, f"{n} players " if name_counts else "")


def seat_decisions(game: str, counts: Sequence[int], rounds: int, name_counts: bool = True,
                   against: str = "heuristic seats") -> None:
    """Whole decisions of an ``ismcts`` seat searching 400 iterations (the default is a time
    budget, which would take the same time both ways) in one-deal matches against
    ``heuristic`` seats (the seat view draws the worlds), with the game's search hooks as
    they are and with ``whole_playout`` taken out of them, two seeds per round each way: processor time per
    decision the seat was asked for (its forced moves, and what it leaves to the heuristic,
    included)."""
    import attrs

    from cardcli.players.search.ismcts import DEFAULT_ITERATIONS
    from cardcli.referee import Settings, play_match
    from cardcli.seating import builtin

    module = importlib.import_module(f"cardcli.plugins.{game}.search")
    hooks = module.SEARCH
    ways = dict(zip(WAYS, (hooks, attrs.evolve(hooks, whole_playout=None))))
    print(f"An ismcts seat against {against}, one deal, {rounds} rounds of 2 seeds each way")
    try:
        for n in counts:
            per_decision: dict[str, list[float]] = {name: [] for name in ways}
            for number in range(rounds):
                for name, chosen in ways.items():
                    module.SEARCH = chosen  # what the seat's player loads (GameSpec.search)
                    start = time.process_time()
                    decisions = 0
                    for seed in (2 * number, 2 * number + 1):
                        setup = registry.resolve(game, None, {}, n, seed)
                        seats = [builtin(f"ismcts:iterations={DEFAULT_ITERATIONS}", "i", seed),
                                 *(builtin("heuristic", f"h{k}", seed) for k in range(n - 1))]
                        play_match(setup, seats, Settings(max_deals=1))
                        decisions += seats[0].player.decisions  # type: ignore[attr-defined]
                    per_decision[name].append((time.process_time() - start) / max(decisions, 1) * 1000)
            print_ways(per_decision, f"{n} players " if name_counts else "")
    finally:
        module.SEARCH = hooks
