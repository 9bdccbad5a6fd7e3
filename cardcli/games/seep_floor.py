"""Seep's floor arithmetic: capture values, groups of loose cards that sum to a value, and the
ways to take several such groups at once.

Pure functions over card lists, kept apart from the rules so the combinatorics can be read
and tested on their own.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import attrs

from ..cards import Card, sort_cards

Group = tuple[Card, ...]


def value(card: Card) -> int:
    """Capture value: ace 1, two to ten at face value, jack 11, queen 12, king 13."""
    return 1 if card.rank == 14 else card.rank


def sum_groups(cards: Sequence[Card], target: int) -> list[Group]:
    """Every non-empty set of ``cards`` whose values sum to ``target``, each in canonical order."""
    ordered = sort_cards(cards)
    values = [value(c) for c in ordered]
    found: list[Group] = []

    def extend(start: int, left: int, chosen: list[Card]) -> None:
        for i in range(start, len(ordered)):
            v = values[i]
            if v > left:
                continue
            chosen.append(ordered[i])
            if v == left:
                found.append(tuple(chosen))
            else:
                extend(i + 1, left - v, chosen)
            chosen.pop()

    extend(0, target, [])
    return found


def all_sums(cards: Sequence[Card], limit: int = 13) -> dict[int, list[Group]]:
    """:func:`sum_groups` for every target up to ``limit`` at once, in one walk: each list in
    the order ``sum_groups`` gives it (lexicographic by canonical position), so a turn that
    asks for a dozen targets walks the floor once."""
    ordered = sort_cards(cards)
    values = [value(c) for c in ordered]
    found: dict[int, list[Group]] = {}

    def extend(start: int, total: int, chosen: list[Card]) -> None:
        for i in range(start, len(ordered)):
            reached = total + values[i]
            if reached > limit:
                continue
            chosen.append(ordered[i])
            found.setdefault(reached, []).append(tuple(chosen))
            extend(i + 1, reached, chosen)
            chosen.pop()

    extend(0, 0, [])
    return found


@attrs.frozen
class Packing:
    """Disjoint groups taken together; ``cards`` is their union."""

    groups: tuple[Group, ...]
    cards: frozenset[Card]


def packings(
    cards: Sequence[Card], target: int, maximal: bool = True, groups: Sequence[Group] | None = None
) -> list[Packing]:
    """The distinct ways to take disjoint groups summing to ``target`` from ``cards``.

    With ``maximal``, only packings after which no group summing to ``target`` is left (the
    empty packing when there is no group at all); otherwise every packing, the empty one
    included. Packings that take the same cards in a different grouping count once, written
    with the first grouping found, so each distinct effect is offered once. ``groups`` may
    give ``sum_groups(cards, target)`` when it is known already.
    """
    if groups is None:
        groups = sum_groups(cards, target)
    sets = [frozenset(g) for g in groups]
    result: dict[frozenset[Card], Packing] = {}

    def extend(start: int, used: frozenset[Card], chosen: list[int]) -> None:
        is_maximal = not any(s.isdisjoint(used) for s in sets)
        if (is_maximal or not maximal) and used not in result:
            result[used] = Packing(tuple(groups[i] for i in chosen), used)
        for i in range(start, len(groups)):
            if sets[i].isdisjoint(used):
                chosen.append(i)
                extend(i + 1, used | sets[i], chosen)
                chosen.pop()

    extend(0, frozenset(), [])
    return list(result.values())


def text(groups: Iterable[Group]) -> str:
    """Groups written as ``2C+3D+6H,5S+6D``."""
    return ",".join("+".join(c.text for c in g) for g in groups)
