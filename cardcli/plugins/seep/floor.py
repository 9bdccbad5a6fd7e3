"""Seep's floor arithmetic: capture values, groups of loose cards that sum to a value, and the
ways to take several such groups at once.

Pure functions, kept apart from the rules so the combinatorics can be read and tested on their
own. They come twice: over card lists (:func:`sum_groups`, :func:`packings`, for readers of
the rules and the heuristic player), and over bit masks of :mod:`card_bits`
(:func:`floor_sums`, :func:`floor_groups`, :func:`mask_packings`, for the engine's move
generator), where a group is an ``int``. Both give the same groups in the same order, so the
tokens written from them are the same.

Nothing here is memoised across turns but the texts of groups. Random playouts meet a new
floor on nearly every turn, and memos of floors, captures and builds (as this module kept
once) missed far more often than they hit: they saved few instructions and cost more time
than that in memory traffic and garbage collection, for playouts 10-20% slower than without
them (``docs/performance.md``). A turn finds each floor fact once, and that is all the reuse
there is to have.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import attrs

from ...cards import Card, sort_cards
from ...games.card_bits import DECK, texts

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


# -- the same over bit masks -----------------------------------------------------------------

VALUES: tuple[int, ...] = tuple(value(c) for c in DECK)
"""The capture value of each card index of :data:`card_bits.DECK`."""

MaskPacking = tuple[int, str]
"""A packing as its mask (the cards it takes, 0 for none) and its text, its groups in the
order found joined as :func:`text` writes them (``2C+3D+6H,5S+6D``, empty for none)."""

EMPTY_PACKINGS: tuple[MaskPacking, ...] = ((0, ""),)
"""The packings of a target no group reaches: only taking nothing."""

Bucket = list[int] | tuple[()]
"""One value's groups as a walk collects them: the shared empty tuple until the first."""

GROUP_TEXTS_LIMIT = 1 << 14
"""Texts of groups :data:`GROUP_TEXTS` keeps before it starts afresh (a few MiB at most): the
one memo left, as the same groups are written again and again, and memory must not grow
without bound in a long search."""


def floor_sums(cards: Sequence[int]) -> tuple[int, int]:
    """What the loose ``cards`` (indices) sum to, for the questions a turn asks of every card:
    the values some group reaches, as bits (bit ``v``), found in one pass over the cards (each
    value reached so far, plus the card's); and the same mirrored, bit ``13 - v`` for each
    value ``v``, which turns the question "which values ``v`` complete a group to ``t``" (a
    group worth ``t - v`` for ``v`` from 1 to ``t - 1``) into a shift:
    ``mirrored >> 13 - t & (1 << t) - 2``."""
    reached = 1
    for i in cards:
        reached = (reached | reached << VALUES[i]) & 0x3FFF
    values = reached & ~1
    return values, _REVERSED_7[values & 127] << 7 | _REVERSED_7[values >> 7]


def floor_groups(cards: Sequence[int]) -> Sequence[Sequence[int]]:
    """Each value's groups (masks) of the loose ``cards`` (indices, canonical order), indexed
    by the value (0 to 13; empty where no group reaches it), in the order :func:`sum_groups`
    gives them: one walk of the floor, which a turn makes when a card first needs it (a turn
    in which no card captures or builds never does). The lists are the caller's to read, never
    to change."""
    found: list[Bucket] = [()] * 14
    if len(cards) <= FLAT_WALK:
        _walk_flat(cards, found)
    else:
        _extend_sums([(1 << i, VALUES[i]) for i in cards], 0, 0, 0, found)
    return found


_REVERSED_7 = tuple(sum(1 << 6 - k for k in range(7) if bits >> k & 1) for bits in range(128))
"""Seven bits in reverse order, for the mirrored values of :func:`floor_sums`."""


FLAT_WALK = 12
"""Floors of up to this many loose cards are walked without recursion, from a table of every
subset of that many positions (:func:`_subset_table`); larger ones (which only players who
throw whenever they can leave) recursively."""


def _subset_table(count: int) -> tuple[tuple[int, int, int], ...]:
    """The non-empty subsets of ``count`` positions in the order of their sorted positions (a
    subset before those that extend it, the order of :func:`sum_groups`), each as its
    parent (the subset without its last position; 0 for the empty set, subsets numbered from
    1), its last position, and the number of the first subset that does not extend it: where
    the walk goes on when the sum is over 13 already."""
    table: list[list[int]] = []

    def visit(parent: int, start: int) -> None:
        for position in range(start, count):
            table.append([parent, position, 0])
            number = len(table)
            visit(number, position + 1)
            table[number - 1][2] = len(table) + 1

    visit(0, 0)
    return tuple((parent, position, after) for parent, position, after in table)


_TABLES: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _walk_flat(cards: Sequence[int], found: list[Bucket]) -> None:
    """The walk of :func:`floor_groups` as a loop over :func:`_subset_table`: each subset
    summed from its parent, and the subsets that extend one over 13 skipped."""
    table = _TABLES.get(len(cards))
    if table is None:
        table = _TABLES[len(cards)] = _subset_table(len(cards))
    end = len(table)
    totals = [0] * (end + 1)
    groups = totals[:]
    number = 1
    while number <= end:
        parent, position, after = table[number - 1]
        card = cards[position]
        total = totals[parent] + VALUES[card]
        if total > 13:
            number = after
            continue
        group = groups[number] = groups[parent] | 1 << card
        totals[number] = total
        bucket = found[total]
        if bucket:
            bucket.append(group)
        else:
            found[total] = [group]
        number += 1


def _extend_sums(items: list[tuple[int, int]], start: int, total: int, chosen: int,
                 found: list[Bucket]) -> None:
    """The walk of :func:`floor_groups` for floors too large for a table: each group extended
    with the cards after its last while the sum stays within 13. A function of its own, not
    a closure, as a recursive closure is a reference cycle that only the garbage collector
    frees."""
    for k in range(start, len(items)):
        bit, v = items[k]
        reached = total + v
        if reached > 13:
            continue
        group = chosen | bit
        bucket = found[reached]
        if bucket:
            bucket.append(group)
        else:
            found[reached] = [group]
        _extend_sums(items, k + 1, reached, group, found)


class _GroupTexts(dict[int, str]):
    """Each group's cards joined by ``+`` in canonical order (``2C+3D+6H``), by its mask:
    written on the first look-up (``__missing__``), so a text known already costs a
    dictionary look-up and no call, and forgotten all at once past
    :data:`GROUP_TEXTS_LIMIT`."""

    def __missing__(self, group: int) -> str:
        if len(self) >= GROUP_TEXTS_LIMIT:
            self.clear()
        text = self[group] = "+".join(texts(group))
        return text


GROUP_TEXTS = _GroupTexts()
"""The texts of groups, ``GROUP_TEXTS[mask]``: the one memo of Seep's move generator."""


def mask_packings(rest: int, target: int, maximal: bool, groups: Sequence[int]) -> tuple[MaskPacking, ...]:
    """:func:`packings` of the cards of ``rest`` for ``target``, as masks, in the same order
    and with the same grouping of each.

    ``groups`` are the groups of ``target`` of a floor that holds ``rest`` (from
    :func:`floor_groups`); those within ``rest`` are the groups of ``rest`` itself, in the same
    order."""
    return pack_groups([g for g in groups if not g & ~rest], maximal)


def pack_groups(groups: Sequence[int], maximal: bool) -> tuple[MaskPacking, ...]:
    """The walk of :func:`packings` over masks, for ``groups`` that are all the groups of the
    cards: each distinct set of cards once, with the first grouping found."""
    if not groups:
        return EMPTY_PACKINGS
    if len(groups) == 1:
        only = (groups[0], GROUP_TEXTS[groups[0]])
        return (only,) if maximal else (EMPTY_PACKINGS[0], only)
    result: dict[int, tuple[int, ...]] = {}
    _extend_packings(groups, maximal, 0, 0, (), result)
    return tuple((used, ",".join(map(GROUP_TEXTS.__getitem__, chosen))) for used, chosen in result.items())


def _extend_packings(groups: Sequence[int], maximal: bool, start: int, used: int, chosen: tuple[int, ...],
                     result: dict[int, tuple[int, ...]]) -> None:
    """The step of :func:`pack_groups` (a function of its own, as :func:`_extend_sums` is)."""
    if used not in result:
        if maximal:
            for group in groups:
                if not group & used:
                    break
            else:
                result[used] = chosen
        else:
            result[used] = chosen
    for k in range(start, len(groups)):
        group = groups[k]
        if not group & used:
            _extend_packings(groups, maximal, k + 1, used | group, (*chosen, group), result)
