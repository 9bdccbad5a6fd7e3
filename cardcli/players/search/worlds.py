"""Dealing the cards a seat cannot see: random worlds that fit what it has learnt.

A searching player does not know the other hands, so it imagines them: it deals the unseen
cards into the places they can be (another seat's hand now, cards still to be dealt, a dead
hand), each of a known size. Some places cannot take some cards: a seat that failed to follow
a suit holds none of it. A world that ignores that is impossible, and a search over impossible
worlds plays to situations that cannot arise (OpenSpiel fixed this very bug for Oh Hell).

The deal is random but not exactly uniform over the worlds that fit: each card, the most
constrained first, goes to a place that can take it with a chance proportional to the room
left there. A greedy deal can paint itself into a corner when constraints are tight; after a
few tries the exact method takes over, which checks before each card that the remaining cards
can still be placed (Hall's condition over the sets of suits, at most 2^5 of them).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Callable, Hashable, Mapping, Sequence

import attrs

from ...cards import Card
from ...errors import CardcliError


class ImpossibleView(CardcliError):
    """No deal of the unseen cards fits what the seat has seen: a bug in what it inferred."""


@attrs.frozen
class Slot:
    """A place unseen cards go: ``size`` of them, none of a category in ``refuses``."""

    name: Hashable
    size: int
    refuses: frozenset[str] = frozenset()


GREEDY_TRIES = 8


def allocate(
    pool: Sequence[Card],
    slots: Sequence[Slot],
    category: Callable[[Card], str],
    rng: random.Random,
) -> dict[Hashable, list[Card]]:
    """Deal every card of ``pool`` into ``slots``, filling each exactly, respecting refusals."""
    if sum(s.size for s in slots) != len(pool) or any(s.size < 0 for s in slots):
        raise ImpossibleView(f"{len(pool)} unseen cards for places of sizes {[s.size for s in slots]}")
    if not any(s.refuses for s in slots):
        cards = list(pool)
        rng.shuffle(cards)
        dealt: dict[Hashable, list[Card]] = {}
        start = 0
        for slot in slots:
            dealt[slot.name] = cards[start : start + slot.size]
            start += slot.size
        return dealt
    for _ in range(GREEDY_TRIES):
        found = _greedy(pool, slots, category, rng)
        if found is not None:
            return found
    return _exact(pool, slots, category, rng)


def _greedy(
    pool: Sequence[Card], slots: Sequence[Slot], category: Callable[[Card], str], rng: random.Random
) -> dict[Hashable, list[Card]] | None:
    room = [s.size for s in slots]
    options = {c: [i for i, s in enumerate(slots) if category(c) not in s.refuses] for c in pool}
    order = list(pool)
    rng.shuffle(order)
    order.sort(key=lambda c: len(options[c]))
    dealt: dict[Hashable, list[Card]] = {s.name: [] for s in slots}
    for card in order:
        open_ = [i for i in options[card] if room[i]]
        if not open_:
            return None
        i = rng.choices(open_, weights=[room[j] for j in open_])[0]
        room[i] -= 1
        dealt[slots[i].name].append(card)
    return dealt


def _exact(
    pool: Sequence[Card], slots: Sequence[Slot], category: Callable[[Card], str], rng: random.Random
) -> dict[Hashable, list[Card]]:
    kinds = sorted({category(c) for c in pool})
    takers = {k: [i for i, s in enumerate(slots) if k not in s.refuses] for k in kinds}
    left = {k: sum(1 for c in pool if category(c) == k) for k in kinds}
    room = [s.size for s in slots]
    if not _placeable(left, room, takers):
        raise ImpossibleView("the unseen cards cannot be placed where the seat's view allows")
    order = list(pool)
    rng.shuffle(order)
    dealt: dict[Hashable, list[Card]] = {s.name: [] for s in slots}
    for card in order:
        kind = category(card)
        left[kind] -= 1
        choices = [i for i in takers[kind] if room[i]]
        rng.shuffle(choices)
        choices.sort(key=lambda i: -room[i])
        for i in choices:
            room[i] -= 1
            if _placeable(left, room, takers):
                dealt[slots[i].name].append(card)
                break
            room[i] += 1
        else:  # pragma: no cover - _placeable held before this card, so some place keeps it
            raise ImpossibleView("the unseen cards cannot be placed where the seat's view allows")
    return dealt


def _placeable(left: Mapping[str, int], room: Sequence[int], takers: Mapping[str, list[int]]) -> bool:
    """Hall's condition: every set of categories fits in the room of the places that take any."""
    kinds = [k for k in left if left[k]]
    for size in range(1, len(kinds) + 1):
        for group in combinations(kinds, size):
            places = {i for k in group for i in takers[k]}
            if sum(left[k] for k in group) > sum(room[i] for i in places):
                return False
    return True
