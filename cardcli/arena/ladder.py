"""Which entrants play the next unit: games spent where they inform, and nobody starved.

The policy, seat by seat (``docs/arena-ladder.md`` states it with its measured figures):

1. **The floor**: the entrant that has waited longest, counted in units scheduled since its
   last one (the number of distinct later ``last`` times among the candidates, so the policy
   needs no unit duration), is in the group; so is every other entrant that has waited at
   least :data:`DUE` rounds (``ceil(1.5 * entrants / size)`` units), longest first, while
   seats remain. Why both: the first alone lets an entrant far from every other (nothing to
   learn from its matches) wait about ``entrants`` units, while seating every overdue one keeps
   each wait under about ``2 * entrants / size`` however the other seats are spent.
2. **The widest interval**: the first seat the floor leaves goes to the entrant with the
   largest sigma (an entrant without a rating counts as OpenSkill's initial sigma), so a new
   entrant, or an entrant's new version (its rating starts again), plays unit after unit
   until its interval is no wider than the field's: new and changed versions first.
3. **The uncertainty removed**: each remaining seat goes to the entrant whose matches with
   those already seated would remove the most uncertainty, scored per seated entrant as the
   chance the two are ordered wrongly (the normal tail of the gap in mu over the combined
   sigma; one half when either has no rating) times their combined variance: the pairs the
   standings cannot yet separate (overlapping intervals), the widest first.
4. **The spread**: the seats of 2 and 3 go only to entrants that have played at most
   ``1 + LEAD`` times the mean units (plus one), so the entrants the scoring likes best cannot
   run far ahead of the rest; when too few qualify, those seats go to the fewest units.
5. **Ties** are broken by a generator seeded from the arena's seed and the unit's number, so
   a season's groups follow from its seed and its results.

The function is pure: it is given the entrants' state and returns a group, so the simulation
(``benchmarks/arena_ladder.py``, run by ``tests/test_arena_ladder.py``) can drive it with
thousands of units of synthetic entrants of known strength.
"""

from __future__ import annotations

import bisect
import math
import random
from typing import Sequence

import attrs

UNRATED_SIGMA = 25 / 3
"""The sigma the ladder assumes of an entrant without a rating: OpenSkill's initial sigma, so
an unrated entrant counts as the widest interval there is."""
LEAD = 0.15
"""How far past the mean count of units (as a fraction of it) an entrant may be and still be
seated for what it would tell (steps 2 and 3 above); the floor seats anyone. Why 0.15: in
the simulation (docs/arena-ladder.md) it holds the most-played entrant to about 1.4 times the
units of the least-played while leaving the scoring room (0.25 let 1.6)."""

DUE = 1.5
"""An entrant that has waited this many rounds (a round is ``entrants / size`` units, the time
in which every entrant would play once if all played alike) is seated by the floor. Why not
one round: on average every entrant is due after one, so the floor would fill the group and
leave nothing to choose by information; one and a half leaves most seats to the scoring and
still keeps the longest wait under two rounds."""


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
    """The entrant's rating interval, mu plus or minus two sigma (everything when unrated)."""
    if c.mu is None or c.sigma is None:
        return (float("-inf"), float("inf"))
    return (c.mu - 2 * c.sigma, c.mu + 2 * c.sigma)


def overlap(a: Candidate, b: Candidate) -> float:
    """How much the two rating intervals overlap: negative when apart, the other's whole width
    when one has no rating, infinite when neither has."""
    lo_a, hi_a = interval(a)
    lo_b, hi_b = interval(b)
    return min(hi_a, hi_b) - max(lo_a, lo_b)


def sigma_of(c: Candidate) -> float:
    """The entrant's sigma, :data:`UNRATED_SIGMA` before its first rated match."""
    return UNRATED_SIGMA if c.mu is None or c.sigma is None else c.sigma


def information(a: Candidate, b: Candidate) -> float:
    """What a match between the two would tell, as the chance the standings order them wrongly
    now times their combined variance: near-equal pairs and wide intervals score high, a pair
    already far apart next to nothing."""
    variance = sigma_of(a) ** 2 + sigma_of(b) ** 2
    if a.mu is None or b.mu is None or a.sigma is None or b.sigma is None:
        return 0.5 * variance
    wrong = 0.5 * math.erfc(abs(a.mu - b.mu) / math.sqrt(2 * variance))
    return wrong * variance


def waits(candidates: Sequence[Candidate]) -> dict[int, int]:
    """Each entrant's wait in units scheduled since its last one: how many distinct ``last``
    times among the candidates are later than its own (every unit gets its own time)."""
    times = sorted({c.last for c in candidates})
    return {c.entrant: len(times) - bisect.bisect_right(times, c.last) for c in candidates}


def next_group(candidates: Sequence[Candidate], size: int, seed: int, unit_number: int) -> tuple[int, ...]:
    """The entrants of the next unit (at most ``size``; fewer when fewer are available, which
    the schedule then seats round the table), or () when fewer than two are available."""
    if len(candidates) < 2:
        return ()
    rng = random.Random(f"cardcli/arena/{seed}/{unit_number}")
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    seats = min(size, len(shuffled))
    wait = waits(shuffled)
    due = math.ceil(DUE * len(shuffled) / max(1, size))
    by_wait = sorted(shuffled, key=lambda c: (-wait[c.entrant], c.units))
    group = [by_wait[0]]
    group += [c for c in by_wait[1:] if wait[c.entrant] >= due][: seats - 1]
    cap = (1 + LEAD) * sum(c.units for c in shuffled) / len(shuffled) + 1
    widest = True
    while len(group) < seats:
        seated = {c.entrant for c in group}
        rest = [c for c in shuffled if c.entrant not in seated]
        eligible = [c for c in rest if c.units <= cap]
        if not eligible:
            group.append(min(rest, key=lambda c: (c.units, -wait[c.entrant])))
        elif widest:
            group.append(max(eligible, key=sigma_of))
        else:
            group.append(max(eligible, key=lambda c: sum(information(c, g) for g in group)))
        widest = False
    return tuple(c.entrant for c in group)
