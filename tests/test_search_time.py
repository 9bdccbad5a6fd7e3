"""When a search under a time budget stops: the rules of :class:`~cardcli.players.search.ismcts.Limits`,
on a clock the test sets, so that no test waits on the machine's speed.

A chess engine's time control is the model: spend the budget, stop sooner when the move can
no longer change, go on (up to a hard ceiling) while the decision is unsettled, and never let
a time bound make an iteration budget nondeterministic where it is not reached."""

from __future__ import annotations

import math

from cardcli.players.search.ismcts import Budget, Limits, RootStats


class Clock:
    """A processor-time clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def at(self, millis: float) -> None:
        self.now = millis / 1000


def _limits(budget: Budget) -> tuple[Limits, Clock, Clock]:
    cpu, clock = Clock(), Clock()
    return Limits(budget, cpu, clock), cpu, clock


def _root(*moves: tuple[int, float]) -> RootStats:
    """The root's moves with these visits and mean rewards; the first is the most visited."""
    stats = RootStats()
    for i, (visits, mean) in enumerate(moves):
        for _ in range(visits):
            stats.record(f"m{i}", mean)
    assert stats.leader == "m0"
    return stats


def test_an_iteration_budget_counts_its_iterations_and_a_ceiling_only_cuts_it() -> None:
    limits, cpu, _ = _limits(Budget(iterations=100, ceiling_millis=50))
    stats = _root((10, 0.5), (5, 0.9))
    cpu.at(10)
    assert limits.left(10, stats) == 90, "the rate and the unsettled move change nothing"
    cpu.at(49)
    assert limits.left(99, stats) == 1
    cpu.at(50)
    assert limits.left(20, stats) == 0


def test_with_no_budget_named_the_search_plays_the_default_iterations() -> None:
    limits, _, _ = _limits(Budget())
    stats = _root((10, 0.5))
    assert limits.left(10, stats) == 400 - 10


def test_a_time_budget_estimates_the_iterations_left_from_its_rate_so_far() -> None:
    limits, cpu, _ = _limits(Budget(cpu_millis=100))
    stats = _root((6, 0.5), (4, 0.4))
    assert limits.left(0, stats) == math.inf, "the first iteration sets the rate"
    cpu.at(20)
    assert limits.left(10, stats) == 40, "10 iterations in 20 ms, 80 ms left"


def test_a_settled_decision_ends_with_its_budget() -> None:
    limits, cpu, _ = _limits(Budget(cpu_millis=100, ceiling_millis=200))
    stats = _root((100, 0.5), (60, 0.4), (40, 0.45))
    cpu.at(100)
    assert limits.left(200, stats) == 0


def test_an_unsettled_decision_goes_on_past_its_budget_until_the_ceiling() -> None:
    limits, cpu, _ = _limits(Budget(cpu_millis=100, ceiling_millis=200))
    stats = _root((100, 0.5), (60, 0.55))
    cpu.at(100)
    assert limits.left(160, stats) == 160 * 100 / 100, "the time to the ceiling, at its rate"
    cpu.at(200)
    assert limits.left(320, stats) == 0, "the ceiling is hard"


def test_a_move_tried_a_few_times_does_not_unsettle_a_decision() -> None:
    limits, cpu, _ = _limits(Budget(cpu_millis=100, ceiling_millis=200))
    stats = _root((100, 0.5), (24, 0.9))
    cpu.at(100)
    assert limits.left(124, stats) == 0


def test_a_time_budget_with_no_ceiling_named_never_runs_past_itself() -> None:
    limits, cpu, _ = _limits(Budget(cpu_millis=100))
    stats = _root((100, 0.5), (90, 0.6))
    cpu.at(100)
    assert limits.left(190, stats) == 0


def test_a_clock_budget_ends_by_the_clock_whatever_the_processor_time() -> None:
    limits, cpu, clock = _limits(Budget(millis=100))
    stats = _root((10, 0.5), (5, 0.4))
    cpu.at(5)
    clock.at(50)
    assert limits.left(10, stats) == 10, "10 iterations in 50 ms of clock, 50 ms left"
    clock.at(100)
    assert limits.left(20, stats) == 0


def test_the_time_spent_is_read_from_the_same_clock() -> None:
    limits, cpu, _ = _limits(Budget(cpu_millis=100))
    cpu.at(37)
    assert limits.spent() == 37
