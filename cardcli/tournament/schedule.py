"""The tournament schedule: which entrants sit where, for every match, from the seed alone.

A *deal set* is one match seed. Its group of entrants plays it once per rotation of the seats
(duplicate), so every entrant plays the same cards from every seat and the luck of the deal
cancels out, as in ACPC's duplicate poker. Groups cycle through every combination of entrants
when there are more entrants than places at the table, so each entrant plays as often as the
others and from every seat equally. In a partnership game an entrant fills both seats of a
side.
"""

from __future__ import annotations

import itertools
import random
from typing import Iterator, Sequence

import attrs


@attrs.frozen
class MatchPlan:
    """One match of the schedule."""

    index: int
    """Position in the schedule; also the order in which results are counted."""
    deal_set: int
    rotation: int
    seed: int
    seating: tuple[int, ...]
    """The entrant (index) in each seat."""

    @property
    def key(self) -> str:
        return f"{self.deal_set}.{self.rotation}"


def deal_set_seed(master: int, deal_set: int) -> int:
    return random.Random(f"cardcli/tournament/{master}/{deal_set}").getrandbits(63)


def places(num_players: int, teams: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The places at the table: a side in a partnership game, else a single seat."""
    return [tuple(t) for t in teams] if teams else [(s,) for s in range(num_players)]


def plan(
    entrants: int,
    num_players: int,
    teams: Sequence[Sequence[int]],
    deal_sets: int,
    master_seed: int,
    duplicate: bool = True,
    permutations: bool = False,
) -> Iterator[MatchPlan]:
    """Every match of the tournament, in order."""
    table = places(num_players, teams)
    size = min(entrants, len(table))
    groups = list(itertools.combinations(range(entrants), size))
    index = 0
    for deal_set in range(deal_sets):
        group = groups[deal_set % len(groups)]
        # fewer entrants than places: cycle the group round the table, starting from a different
        # entrant on each pass through the groups, so over `size` passes all fill equally
        start = (deal_set // len(groups)) % size
        filled = [group[(start + i) % size] for i in range(len(table))]
        if not duplicate:
            shift = deal_set // len(groups)
            arrangements = [filled[shift % len(table):] + filled[: shift % len(table)]]
        elif permutations:
            arrangements = sorted(set(itertools.permutations(filled)), key=lambda p: list(p))
            arrangements = [list(p) for p in arrangements]
        else:
            arrangements = [filled[r:] + filled[:r] for r in range(len(table))]
            # a group smaller than the table repeats itself: play each distinct seating once
            arrangements = [a for i, a in enumerate(arrangements) if a not in arrangements[:i]]
        seed = deal_set_seed(master_seed, deal_set)
        for rotation, arrangement in enumerate(arrangements):
            seating = [0] * num_players
            for place, entrant in zip(table, arrangement):
                for seat in place:
                    seating[seat] = entrant
            yield MatchPlan(index, deal_set, rotation, seed, tuple(seating))
            index += 1
