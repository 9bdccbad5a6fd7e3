"""Sets of cards as bit masks: bit ``i`` is ``DECK[i]`` of the 52-card deck in canonical order.

The trick games hold their hands this way: following suit is one ``&``, taking a card out of a
hand one ``^``, and a mask is an ``int`` that copies for free. The 40- and 24-card decks are
subsets of the same 52 bits, so one set of tables serves every game. Masks turn back into
card indices or texts in canonical order through a cache per suit block (a suit's 13 bits
have only 8,192 values, and hands are read on every move). :class:`DeckActions` numbers the
cards of a smaller deck from 0, the integer actions of the games that play one.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from ..cards import SUITS, Card, french_52

DECK = french_52()
TEXTS = tuple(c.text for c in DECK)
INDEX = {c: i for i, c in enumerate(DECK)}
INDEX_OF_TEXT = {t: i for i, t in enumerate(TEXTS)}
BLOCK = 13
SUIT_MASKS = {suit: ((1 << BLOCK) - 1) << (BLOCK * k) for k, suit in enumerate(SUITS)}
"""The mask of each printed suit."""
_BLOCKS = tuple(SUIT_MASKS.values())


def bit(card: Card) -> int:
    return 1 << INDEX[card]


def mask_of(items: Iterable[Card]) -> int:
    mask = 0
    for c in items:
        mask |= 1 << INDEX[c]
    return mask


def _build_indices(mask: int) -> tuple[int, ...]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return tuple(found)


def _build_texts(mask: int) -> tuple[str, ...]:
    return tuple(TEXTS[i] for i in _build_indices(mask))


def _build_cards(mask: int) -> tuple[Card, ...]:
    return tuple(DECK[i] for i in _build_indices(mask))


_INDICES: dict[int, tuple[int, ...]] = {}
_TEXTS: dict[int, tuple[str, ...]] = {}
_CARDS: dict[int, tuple[Card, ...]] = {}


def _by_suit(mask: int, cache: dict[int, tuple[Any, ...]], build: Callable[[int], tuple[Any, ...]]) -> tuple[Any, ...]:
    """``build(mask)`` assembled from cached suit blocks; the cards that follow suit are a
    single block, found in one lookup."""
    got = cache.get(mask)
    if got is not None:
        return got
    found: tuple[Any, ...] = ()
    for block in _BLOCKS:
        part = mask & block
        if part:
            got = cache.get(part)
            if got is None:
                got = cache[part] = build(part)
            found += got
    return found


def indices(mask: int) -> tuple[int, ...]:
    """The card indices of a mask, in canonical order."""
    got = _INDICES.get(mask)
    return got if got is not None else _by_suit(mask, _INDICES, _build_indices)


def texts(mask: int) -> tuple[str, ...]:
    """The card texts of a mask, in canonical order."""
    got = _TEXTS.get(mask)
    return got if got is not None else _by_suit(mask, _TEXTS, _build_texts)


def cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    got = _CARDS.get(mask)
    return got if got is not None else _by_suit(mask, _CARDS, _build_cards)


class DeckActions:
    """The cards of a game's own deck as integer actions: action ``a`` is the ``a``-th card of
    the deck in canonical order (0..39 for Il Pigugnìn's 40 cards, 0..23 for Pepper's 24),
    while hands stay masks over the 52 bits. A learning environment wants a dense action
    space, the rules want the shared bits; this is the one translation between the two.
    The deck is canonical order with cards left out, so a mask's actions come out sorted.
    """

    def __init__(self, deck: Sequence[Card]) -> None:
        self.size = len(deck)
        self.index_of: tuple[int, ...] = tuple(INDEX[c] for c in deck)
        """Each action's card index in :data:`DECK` (its bit)."""
        self.texts: tuple[str, ...] = tuple(c.text for c in deck)
        """Each action's card token."""
        where = {index: action for action, index in enumerate(self.index_of)}
        self._action_of: tuple[int, ...] = tuple(where.get(i, -1) for i in range(len(DECK)))
        self._cache: dict[int, tuple[int, ...]] = {}

    def index(self, action: int) -> int:
        """The card index of a card action, or -1 when ``action`` is not one."""
        return self.index_of[action] if 0 <= action < self.size else -1

    def actions(self, mask: int) -> tuple[int, ...]:
        """The actions of the cards of ``mask``, sorted (canonical order)."""
        got = self._cache.get(mask)
        return got if got is not None else _by_suit(mask, self._cache, self._build)

    def _build(self, mask: int) -> tuple[int, ...]:
        action_of = self._action_of
        return tuple(action_of[i] for i in _build_indices(mask))
