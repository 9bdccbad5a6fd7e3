"""Sides: the players or partnerships that score together (Seep and Pepper).

With four players partners sit opposite (seats 0+2 and 1+3); with fewer, every player is a
side of their own. A side's result applies to all its seats.
"""

from __future__ import annotations

from typing import Iterable, Sequence

Sides = tuple[tuple[int, ...], ...]


def sides_for(num_players: int) -> Sides:
    return ((0, 2), (1, 3)) if num_players == 4 else tuple((s,) for s in range(num_players))


def side_map(sides: Sides) -> dict[int, int]:
    """Seat number to side index."""
    return {s: i for i, side in enumerate(sides) for s in side}


def seats(sides: Sides, chosen: Iterable[int]) -> tuple[int, ...]:
    """The seats of the chosen sides, in seat order."""
    return tuple(sorted(s for i in chosen for s in sides[i]))


def best(totals: Sequence[int], among: Iterable[int]) -> list[int]:
    """The sides among ``among`` with the best total (all of them when tied)."""
    among = list(among)
    if not among:
        return []
    top = max(totals[i] for i in among)
    return [i for i in among if totals[i] == top]


def with_forfeits(
    sides: Sides,
    totals: Sequence[int],
    winners: Iterable[int],
    draws: Iterable[int],
    forfeits: frozenset[int],
) -> tuple[list[int], list[int], list[int]]:
    """Winning, losing and drawing sides once forfeits count: a side with a forfeited seat
    loses; the other winners keep their win; with no winner left the best other total wins."""
    out = {i for i, side in enumerate(sides) if set(side) & forfeits}
    won = [i for i in winners if i not in out]
    rest = [i for i in range(len(sides)) if i not in out]
    if not won:
        won = best(totals, rest)
    drew = [i for i in draws if i in rest and i not in won]
    lost = [i for i in range(len(sides)) if i not in won and i not in drew]
    return won, lost, drew
