"""A Seep position as the move generator reads it: each hand and the floor's loose cards as
card indices and bit masks (a :data:`Known`), and the next position's made from this one.

Reading four hands costs more than a turn's moves often do, and a play changes one card of one
hand and a few of the floor, so the match keeps what a turn read and :func:`known_after`
updates it after each play instead of reading the lists again (:mod:`.rules`).
"""

from __future__ import annotations

from bisect import bisect
from typing import Sequence

from ...cards import Card
from ...games.card_bits import DECK, INDEX
from .floor import VALUES

_INDEX_AND_VALUE_BIT = {card: (i, 1 << VALUES[i]) for i, card in enumerate(DECK)}
_VALUE_CARDS = tuple(sum(1 << i for i, v in enumerate(VALUES) if v == value) for value in range(14))
"""The mask of the four cards of each capture value."""


Holding = tuple[tuple[int, ...], int, int, int]
"""One seat's cards as a turn reads them: their indices in canonical order, their mask, the
values held (as bits; bit 0, which no value uses, marks a hand read) and the values held
twice or more."""


def holding(cards: Sequence[Card]) -> Holding:
    """A hand read into a :data:`Holding`."""
    indices: list[int] = []
    mask = held = twice = 0
    for card in cards:
        index, bit = _INDEX_AND_VALUE_BIT[card]
        indices.append(index)
        mask |= 1 << index
        twice |= held & bit
        held |= bit
    indices.sort()
    return tuple(indices), mask, held | 1, twice


Known = tuple[Sequence[Holding], int, tuple[int, ...]]
"""The hands and the floor as a turn reads them: each seat's :data:`Holding`, and the floor's
cards as a mask and as indices in canonical order. Reading four hands costs more than a
turn's moves often do, and a play changes one card of one hand and a few of the floor:
:func:`known_after` makes the next position's from this one. Never changed once made, so
clones share it; a bare tuple, as one is made on every move."""


def read_known(hands: Sequence[Sequence[Card]], loose: Sequence[Card]) -> Known:
    """What the lists say."""
    floor = 0
    for card in loose:
        floor |= 1 << INDEX[card]
    return tuple(map(holding, hands)), floor, tuple(sorted(INDEX[card] for card in loose))


def known_after(known: Known, seat: int, card: int, taken: int, thrown: bool) -> Known:
    """The same once ``seat`` has played ``card``, taking the loose cards ``taken`` from the
    floor, or throwing the card onto it."""
    seats, floor, floor_cards = known
    indices, mask, held, twice = seats[seat]
    at = indices.index(card)
    mask ^= 1 << card
    bit = 1 << VALUES[card]
    if not twice & bit:
        held &= ~bit
    elif (mask & _VALUE_CARDS[VALUES[card]]).bit_count() < 2:
        twice &= ~bit
    seats = list(seats)
    seats[seat] = (indices[:at] + indices[at + 1:], mask, held, twice)
    if thrown:
        at = bisect(floor_cards, card)
        return seats, floor | 1 << card, floor_cards[:at] + (card,) + floor_cards[at:]
    if taken:
        return seats, floor & ~taken, tuple([i for i in floor_cards if not taken >> i & 1])
    return seats, floor, floor_cards
