"""Which entrants play the next unit: games spent where they inform, and nobody starved.

The policy, in order (``docs/arena.md`` states it with its measured figures):

1. **The floor**: the entrant that has played least (rated or not, counted in units) is in
   the next group; among equals, the one that waited longest. No available entrant waits more
   than about ``entrants / group size`` units for its next one.
2. **Uncertainty**: the rest of the group are the entrants whose rating intervals overlap the
   first's most (they are the pairs the standings cannot yet separate), new versions first
   (their interval is the widest); entrants without a rating count as overlapping everyone.
3. **Ties** are broken by a generator seeded from the arena's seed and the unit's number, so
   a season's groups follow from its seed and its results.

The function is pure: it is given the entrants' state and returns a group, so the simulation
test (``tests/test_arena_ladder.py``) can drive it with thousands of synthetic entrants.
"""

from __future__ import annotations

import random
from typing import Sequence

import attrs


@attrs.frozen
class Candidate:
    """What the ladder knows of one available entrant."""

    entrant: int
    units: int
    """Units it has played (or has under way)."""
    last: float
    """When it last joined a unit (0 never)."""
    mu: float | None = None
    sigma: float | None = None
    """Its current version's rating and uncertainty, None before its first rated match."""


def interval(c: Candidate) -> tuple[float, float]:
    if c.mu is None or c.sigma is None:
        return (float("-inf"), float("inf"))
    return (c.mu - 2 * c.sigma, c.mu + 2 * c.sigma)


def overlap(a: Candidate, b: Candidate) -> float:
    """How much the two rating intervals overlap (infinite when either has none)."""
    lo_a, hi_a = interval(a)
    lo_b, hi_b = interval(b)
    return min(hi_a, hi_b) - max(lo_a, lo_b)


def next_group(candidates: Sequence[Candidate], size: int, seed: int, unit_number: int) -> tuple[int, ...]:
    """The entrants of the next unit (at most ``size``; fewer when fewer are available, which
    the schedule then seats round the table), or () when fewer than two are available."""
    if len(candidates) < 2:
        return ()
    rng = random.Random(f"cardcli/arena/{seed}/{unit_number}")
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    first = min(shuffled, key=lambda c: (c.units, c.last))
    others = [c for c in shuffled if c is not first]
    others.sort(key=lambda c: (-overlap(first, c), -(c.sigma or float("inf")), c.units))
    return (first.entrant, *(c.entrant for c in others[: size - 1]))
