"""Cards as immutable values with a text round-trip, and the decks the games use.

A card's text is its rank letter and suit letter, ``"QS"``, ``"TH"``, ``"2C"``: two ASCII
characters, so it is one whitespace-free token on the wire and a fixed-width field for a
bash bot. Every card value is interned: :func:`Card.parse` and the deck builders hand out the
same object for the same card, so engines can compare and hash cards cheaply.

Cards are written two ways, each for its reader. Tokens (``TS``) are for programs: always two
characters, upper case, ``T`` for the ten, one spelling per card, so a bot compares strings and
a bash bot cuts fixed-width fields. People read :meth:`Card.symbol` (``10♠``), with the ten as
printed on the card and a suit symbol. :meth:`Card.parse` is lenient (``qs``, ``10S``) for text
typed by people; a move token is held to the exact spelling, and :func:`misspelling` names the
rule a near miss breaks, so a bot's author is told what to change.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Iterable

import attrs

from .errors import InvalidMoveError

SUITS = "CDHS"
"""Suit letters in canonical order: clubs, diamonds, hearts, spades."""

RANKS = "23456789TJQKA"
"""Rank letters from low to high; ``T`` is the ten."""

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RED_SUITS = frozenset("DH")


@attrs.frozen(eq=False, repr=False)
class Card:
    """One playing card. ``rank`` is 2..14 (ace high); ``suit`` is one of ``SUITS``.

    Cards are interned: there is one object per card (the constructor hands back the existing
    one), so equality and hashing are by identity, the cheapest there is, and engines compare
    cards on every move.
    """

    rank: int
    suit: str
    text: str = attrs.field(init=False, eq=False, repr=False)
    """The two-character text, ``"QS"``; computed once, as engines read it on every move."""
    sort_key: tuple[int, int] = attrs.field(init=False, eq=False, repr=False)
    """Canonical order: by suit (C, D, H, S), then by rank from low to high."""

    def __new__(cls, rank: int, suit: str) -> "Card":
        existing = _INTERNED.get((rank, suit))
        return existing if existing is not None else super().__new__(cls)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.text,))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> "Card":
        return self

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "text", RANKS[self.rank - 2] + self.suit)
        object.__setattr__(self, "sort_key", (SUITS.index(self.suit), self.rank))

    @staticmethod
    def parse(text: str) -> "Card":
        """Parse ``"QS"`` (also ``"qs"`` and ``"10S"``, as people type them); raise
        InvalidMoveError otherwise. Move tokens are read with :func:`token_card` instead."""
        card = _BY_TEXT.get(text) or _near_miss(text)
        if card is None:
            raise InvalidMoveError(f"not a card: {text!r}")
        return card

    def symbol(self) -> str:
        """Text for people with a suit symbol, ``Q♠``; the ten is written ``10`` as on the card
        (tokens, for programs, write it ``T``: see the module docstring)."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 2]
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"


_INTERNED: dict[tuple[int, str], Card] = {}
_ALL = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 15))
_INTERNED.update(((c.rank, c.suit), c) for c in _ALL)
_BY_TEXT: dict[str, Card] = {card.text: card for card in _ALL}


UPPER_CASE = "card tokens are upper case"
"""The rule a token such as ``qs`` breaks."""

TEN_IS_T = "the ten is written T"
"""The rule a token such as ``10S`` breaks."""


def _near_miss(text: str) -> Card | None:
    """The card ``text`` names when written as people write cards (any case, ``10`` for the
    ten); None when it names no card."""
    return _BY_TEXT.get(text.upper().replace("10", "T", 1))


def is_card(text: str) -> bool:
    """True when ``text`` is a card's canonical text (``QS``)."""
    return text in _BY_TEXT


def misspelling(text: str) -> tuple[tuple[str, ...], str] | None:
    """``(rules broken, token)`` when ``text`` names a card but is not its token: ``qs`` gives
    ``(("card tokens are upper case",), "QS")``, ``10s`` both rules. None for a token and for
    text that names no card at all (``ZZ``), which is a different mistake.

    The one place a near miss is diagnosed, so the referee's fault detail, the engines and
    the human seat word it alike."""
    if text in _BY_TEXT:
        return None
    card = _near_miss(text)
    if card is None:
        return None
    rules = [TEN_IS_T] if text[:2] == "10" else []
    if text != text.upper():
        rules.append(UPPER_CASE)
    return tuple(rules), card.text


def token_card(text: str) -> Card:
    """The card a move token names, spelt exactly as the protocol writes it. A near miss is
    refused with the rule it breaks and the token to write (``card tokens are upper case:
    write 'QS'``), anything else as not a card; InvalidMoveError either way."""
    card = _BY_TEXT.get(text)
    if card is not None:
        return card
    wrong = misspelling(text)
    if wrong is not None:
        raise InvalidMoveError(f"{' and '.join(wrong[0])}: write {wrong[1]!r}")
    raise InvalidMoveError(f"not a card: {text!r}")


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`, handy in tests and scripts."""
    return Card.parse(text)


def cards(texts: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse space-separated card texts (or an iterable of texts) into a tuple of cards."""
    items = texts.split() if isinstance(texts, str) else texts
    return tuple(Card.parse(t) for t in items)


def sort_cards(items: Iterable[Card]) -> list[Card]:
    return sorted(items, key=_SORT_KEY)


_SORT_KEY = attrgetter("sort_key")


def french_52() -> tuple[Card, ...]:
    """The full 52-card French deck in canonical order."""
    return _ALL


def french_40() -> tuple[Card, ...]:
    """The 40-card deck: the French deck without 8, 9 and 10."""
    return tuple(c for c in _ALL if c.rank not in (8, 9, 10))


def french_24() -> tuple[Card, ...]:
    """The 24-card deck: nine up to ace in each suit."""
    return tuple(c for c in _ALL if c.rank >= 9)


def render(items: Iterable[Card]) -> str:
    """Cards with suit symbols, separated by spaces."""
    return " ".join(c.symbol() for c in items)


def render_hand(items: Iterable[Card]) -> str:
    """A hand grouped by suit, spades first as players usually hold them: ``♠ A Q 3  ♥ K 2``."""
    by_suit: dict[str, list[Card]] = {s: [] for s in "SHDC"}
    for c in items:
        by_suit[c.suit].append(c)
    groups = []
    for suit in "SHDC":
        if by_suit[suit]:
            ranks = " ".join(c.symbol()[:-1] for c in sorted(by_suit[suit], key=lambda c: -c.rank))
            groups.append(f"{SUIT_SYMBOLS[suit]} {ranks}")
    return "  ".join(groups) if groups else "-"
