"""Chance, derived from a match seed: the first dealer and each deal's shuffled deck.

Each draw gets its own generator seeded from a text naming the seed and the draw, so deal 7
of seed 42 is the same whatever happened in deals 1 to 6, and a verifier can recompute any
deal on its own. Python's ``random.Random`` seeded with a ``str`` hashes it with SHA-512
(seed version 2), which is stable across Python releases and platforms.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..cards import Card


def shuffled(seed: int, deal_index: int, deck: Sequence[Card]) -> tuple[Card, ...]:
    """The deck for deal ``deal_index`` (0-based) of the match played with ``seed``."""
    order = list(deck)
    random.Random(f"cardcli/deal/{seed}/{deal_index}").shuffle(order)
    return tuple(order)


def draw_seat(seed: int, num_players: int) -> int:
    """The first dealer drawn at random for the match played with ``seed``."""
    return random.Random(f"cardcli/first-dealer/{seed}").randrange(num_players)


def new_seed() -> int:
    """A fresh seed for a match the user did not seed (written into the record)."""
    return random.SystemRandom().randrange(2**63)
