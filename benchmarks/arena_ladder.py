#!/usr/bin/env python3
"""The arena ladder's scheduling policy, measured on a season of synthetic entrants.

Usage: python3 benchmarks/arena_ladder.py [--entrants N] [--units K] [--size S] [--seed X]
                                          [--width W] [--json]

Entrants of known strength (clusters of near-equal ones, a clear gap between clusters) play a
season of K units scheduled by ``cardcli.arena.ladder.next_group``, and again scheduled by a
plain round robin (the S entrants that waited longest), with a newcomer joining halfway. Each
unit is a duplicate unit: every rotation of the seats is one match, whose order is drawn from
the Plackett-Luce model of the true strengths (each entrant's performance is its strength plus
Gumbel noise, the order of performances is the match's order), and OpenSkill's Plackett-Luce
rates each match as the tournament's table does (``results.tabulate`` with
``results.dense_ranks``). The ladder sees what the arena's service gives it: units played, the
time of its last unit (a simulated clock: every unit takes :data:`UNIT_SECONDS`), mu and sigma.

Printed per policy: units per entrant (min, max, max/min, coefficient of variation), games per
entrant per hour (the same spread on the clock), the longest wait between an entrant's units
(in units scheduled), Kendall's tau of the final ratings against the true order, the clear-gap
pairs ordered wrongly, the adjacent pairs of the final order whose intervals (mu plus or minus
two sigma) overlap ("not separated") against the true near-equal pairs, and how many units,
counted from its joining, the newcomer needed for two sigma to fall below W.

The simulation lives here once: tests/test_arena_ladder.py imports it and asserts the figures
on a smaller season; docs/arena-ladder.md gives this script's output.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce, PlackettLuceRating

from cardcli.arena import ladder
from cardcli.tournament.paired import half_width
from cardcli.tournament.results import dense_ranks

Policy = Callable[[Sequence[ladder.Candidate], int, int, int], tuple[int, ...]]
"""A scheduler with ``ladder.next_group``'s signature."""

UNIT_SECONDS = 600.0
"""How long one unit takes on the simulated clock."""
NEAR = 0.1
"""True gaps (in the Plackett-Luce log-strength) at most this are near-equal: no season can
order such a pair reliably, and the standings should say so."""
CLEAR = 2.0
"""The true gap between clusters: a clear gap, which the standings must order and separate.
Why this large: OpenSkill adds its tau to sigma on every match, so sigma settles near 1.8 and
an interval of mu plus or minus two sigma is about 7 wide on each side of a pair; a gap of 2.0
in log-strength is about 18 in mu, which a season separates with margin."""
LUCK = 0.5
"""The spread (standard deviation) of a seat's luck in a deal set, added to the score of
whoever sits it: the duplicate rotation cancels it from the paired results, not from the
places the ratings read."""
CLUSTERS = (3, 2, 1, 4, 2, 3, 2, 1, 3, 2, 4, 3)
"""The sizes of the clusters of near-equal entrants (30 in all), weakest cluster first."""


def strengths(entrants: int) -> list[float]:
    """The true log-strengths of ``entrants`` synthetic entrants, weakest first: clusters (of
    the sizes of :data:`CLUSTERS`, repeated) whose members are 0.02 apart, :data:`CLEAR`
    between one cluster's strongest and the next's weakest."""
    out: list[float] = []
    level = 0.0
    for size in itertools.cycle(CLUSTERS):
        for i in range(size):
            if len(out) == entrants:
                return out
            out.append(level + 0.02 * i)
        level = out[-1] + CLEAR
    return out


def round_robin(candidates: Sequence[ladder.Candidate], size: int, seed: int, unit_number: int) -> tuple[int, ...]:
    """The baseline: the ``size`` entrants that waited longest (fewest units among equals),
    whatever their ratings, so every entrant plays once a round of ``entrants / size`` units."""
    if len(candidates) < 2:
        return ()
    rng = random.Random(f"round-robin/{seed}/{unit_number}")
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    shuffled.sort(key=lambda c: (c.last, c.units))
    return tuple(c.entrant for c in shuffled[:size])


@dataclass
class Season:
    """What one simulated season left: enough to compute every figure."""

    strength: list[float]
    mu: list[float]
    sigma: list[float]
    units: list[int]
    played: list[list[int]] = field(default_factory=list)
    """Per entrant, the numbers of the units it played."""
    joined: list[int] = field(default_factory=list)
    """Per entrant, the number of the first unit it could be scheduled in."""
    total: int = 0
    newcomer: int | None = None
    newcomer_sigma: list[float] = field(default_factory=list)
    """The newcomer's sigma after each of its units."""
    paired: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    """Per pair (a, b), a < b: the count, sum and sum of squares of a's score minus b's in
    the same seat of the same unit, as the table's paired results take them."""

    def separated(self, a: int, b: int) -> bool:
        """Whether the pair's 95% t interval of the mean paired difference excludes zero, as
        ``PairResult.better`` decides (never below 2 observations)."""
        n, total, squares = self.paired.get((min(a, b), max(a, b)), (0, 0.0, 0.0))
        if n < 2:
            return False
        mean = total / n
        variance = max(0.0, (squares - n * mean * mean) / (n - 1))
        return abs(mean) > half_width(int(n), variance)


def simulate(strength: Sequence[float], units: int, size: int = 4, seed: int = 1,
             policy: Policy = ladder.next_group, newcomer: float | None = None) -> Season:
    """Play a season of ``units`` units of ``size`` entrants chosen by ``policy``; with
    ``newcomer`` (a log-strength), one more entrant joins when half the units are scheduled.

    Every unit is played before the next is chosen, so the ratings the policy reads are up to
    date: the arena's service schedules a few units ahead, which a season of thousands of
    units hardly feels."""
    rng = random.Random(f"arena-ladder/{seed}")
    model = PlackettLuce()
    true = list(strength) + ([newcomer] if newcomer is not None else [])
    everyone = len(true)
    present = len(strength)
    ratings: list[PlackettLuceRating] = [model.rating() for _ in range(everyone)]
    rated = [False] * everyone
    season = Season(true, [0.0] * everyone, [0.0] * everyone, [0] * everyone,
                    [[] for _ in range(everyone)], [0] * everyone, units,
                    present if newcomer is not None else None)
    last = [0.0] * everyone
    for number in range(units):
        if newcomer is not None and number == units // 2:
            present = everyone
            season.joined[everyone - 1] = number
        candidates = [ladder.Candidate(e, season.units[e], last[e],
                                       ratings[e].mu if rated[e] else None,
                                       ratings[e].sigma if rated[e] else None)
                      for e in range(present)]
        group = policy(candidates, size, seed, number)
        now = (number + 1) * UNIT_SECONDS
        for e in group:
            season.units[e] += 1
            last[e] = now
            season.played[e].append(number)
        seats = len(group)
        luck = [rng.gauss(0.0, LUCK) for _ in range(seats)]
        scores = [[0.0] * seats for _ in group]  # per member of the group, per seat
        for rotation in range(seats):
            performance = []
            for i, e in enumerate(group):
                seat = (i + rotation) % seats
                scores[i][seat] = true[e] - math.log(-math.log(1.0 - rng.random())) + luck[seat]
                performance.append(scores[i][seat])
            updated = model.rate([[ratings[e]] for e in group],
                                 ranks=dense_ranks([-p for p in performance]))
            for e, team in zip(group, updated):
                ratings[e] = team[0]
                rated[e] = True
        for i, j in itertools.combinations(range(seats), 2):
            a, b = group[i], group[j]
            sign = 1.0 if a < b else -1.0
            tally = season.paired.setdefault((min(a, b), max(a, b)), [0, 0.0, 0.0])
            for seat in range(seats):
                difference = sign * (scores[i][seat] - scores[j][seat])
                tally[0] += 1
                tally[1] += difference
                tally[2] += difference * difference
        if season.newcomer is not None and season.newcomer in group:
            season.newcomer_sigma.append(ratings[season.newcomer].sigma)
    season.mu = [r.mu for r in ratings]
    season.sigma = [r.sigma for r in ratings]
    return season


def kendall_tau(a: Sequence[float], b: Sequence[float]) -> float:
    """Kendall's tau (tau-a) between two scorings of the same entrants."""
    n = len(a)
    agree = 0
    for i in range(n):
        for j in range(i + 1, n):
            agree += 1 if (a[i] - a[j]) * (b[i] - b[j]) > 0 else -1
    return agree / (n * (n - 1) / 2)


def longest_wait(season: Season) -> int:
    """The most units scheduled between two consecutive units of one entrant, or between its
    joining and its first unit."""
    worst = 0
    for e, numbers in enumerate(season.played):
        previous = season.joined[e] - 1
        for n in numbers:
            worst = max(worst, n - previous - 1)
            previous = n
        worst = max(worst, season.total - 1 - previous)
    return worst


def newcomer_units(season: Season, width: float) -> int | None:
    """How many units scheduled after the newcomer joined until its two sigma fell below
    ``width`` (counting the unit that did it), or None if it never did."""
    if season.newcomer is None:
        return None
    for numbers, sigma in zip(season.played[season.newcomer], season.newcomer_sigma):
        if 2 * sigma < width:
            return numbers - season.joined[season.newcomer] + 1
    return None


def figures(season: Season, width: float) -> dict[str, object]:
    """The season's figures (see the module's docstring), over the entrants present all season
    for the spread, over everyone for the order."""
    whole = [e for e in range(len(season.strength)) if e != season.newcomer]
    counts = [season.units[e] for e in whole]
    mean = sum(counts) / len(counts)
    cv = math.sqrt(sum((c - mean) ** 2 for c in counts) / len(counts)) / mean
    hours = season.total * UNIT_SECONDS / 3600
    everyone = range(len(season.strength))
    order = sorted(everyone, key=lambda e: -season.mu[e])
    pairs = list(itertools.combinations(everyone, 2))
    clear = [(a, b) for a, b in pairs if abs(season.strength[a] - season.strength[b]) > NEAR]
    wrong = [(a, b) for a, b in clear
             if (season.strength[a] - season.strength[b]) * (season.mu[a] - season.mu[b]) <= 0]
    adjacent = list(zip(order, order[1:]))

    def overlap(a: int, b: int) -> bool:
        return season.mu[b] + 2 * season.sigma[b] >= season.mu[a] - 2 * season.sigma[a]

    near_adjacent = [(a, b) for a, b in adjacent if abs(season.strength[a] - season.strength[b]) <= NEAR]
    clear_adjacent = [(a, b) for a, b in adjacent if abs(season.strength[a] - season.strength[b]) > NEAR]
    return {
        "units": season.total,
        "entrants": len(whole),
        "units_min": min(counts),
        "units_max": max(counts),
        "units_max_over_min": round(max(counts) / min(counts), 3),
        "units_cv": round(cv, 3),
        "games_per_hour_min": round(min(counts) / hours, 3),
        "games_per_hour_max": round(max(counts) / hours, 3),
        "longest_wait": longest_wait(season),
        "kendall_tau": round(kendall_tau([season.mu[e] for e in everyone], [season.strength[e] for e in everyone]), 3),
        "clear_pairs": len(clear),
        "clear_pairs_wrong": len(wrong),
        "adjacent_near": len(near_adjacent),
        "adjacent_near_not_separated": sum(not season.separated(a, b) for a, b in near_adjacent),
        "adjacent_near_intervals_overlap": sum(overlap(a, b) for a, b in near_adjacent),
        "adjacent_clear": len(clear_adjacent),
        "adjacent_clear_not_separated": sum(not season.separated(a, b) for a, b in clear_adjacent),
        "adjacent_clear_intervals_overlap": sum(overlap(a, b) for a, b in clear_adjacent),
        "sigma_median": round(sorted(season.sigma)[len(season.sigma) // 2], 3),
        "newcomer_units_to_width": newcomer_units(season, width),
        "newcomer_own_units_to_width": next(
            (i + 1 for i, s in enumerate(season.newcomer_sigma) if 2 * s < width), None),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=60)
    parser.add_argument("--units", type=int, default=6000)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=float, default=5.0, help="the newcomer's two sigma must fall below this")
    parser.add_argument("--json", action="store_true", help="one JSON line per policy")
    args = parser.parse_args(argv)
    field_ = strengths(args.entrants)
    newcomer = field_[len(field_) // 2] + 0.01
    for name, policy in (("ladder", ladder.next_group), ("round robin", round_robin)):
        season = simulate(field_, args.units, args.size, args.seed, policy, newcomer)
        result = figures(season, args.width)
        if args.json:
            print(json.dumps({"policy": name, **result}))
        else:
            print(f"{name}:")
            for key, value in result.items():
                print(f"  {key:30} {value}")


if __name__ == "__main__":
    main()
