"""Seeded random edits of JSON values, for the tests that feed damaged records to the readers."""

from __future__ import annotations

import random
from typing import Any, Sequence

VALUES: tuple[Any, ...] = (None, 0, -1, 3, 7, 13, True, 2.5, 10**30, "x", "QS", "take:QS:h12", "\x1b[2J", "",
                           [], [0], {}, {"seat": 0})
"""Values a field may be replaced with: every JSON type, the edges of the numbers the records
use, and text a terminal would act on."""


def mutate(value: Any, rng: random.Random, values: Sequence[Any] = VALUES, depth: int = 0) -> Any:
    """One random edit somewhere in ``value``: a key deleted, a value of another type, an item
    dropped, doubled or swapped with another."""
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        copy = dict(value)
        action = rng.random()
        if action < 0.2:
            del copy[key]
        elif action < 0.45 or depth > 5:
            copy[key] = rng.choice(values)
        else:
            copy[key] = mutate(value[key], rng, values, depth + 1)
        return copy
    if isinstance(value, list) and value:
        copy = list(value)
        i = rng.randrange(len(copy))
        action = rng.random()
        if action < 0.15:
            del copy[i]
        elif action < 0.25:
            copy.insert(i, copy[i])
        elif action < 0.4:
            j = rng.randrange(len(copy))
            copy[i], copy[j] = copy[j], copy[i]
        else:
            copy[i] = mutate(copy[i], rng, values, depth + 1)
        return copy
    return rng.choice(values)
