"""Move lists of card combinations, built only as far as they are read.

A Peppa pass is any three of thirteen cards: 286 tokens per seat and deal. A random player
reads one of them, a check reads none (it asks whether a token is in the list), and only a
bot on the wire reads them all. :class:`Combinations` is that list without its 286 strings:
its length, its k-th token, membership and iteration are computed from the hand on demand,
in the order ``itertools.combinations`` gives, so it is interchangeable with the tuple it
stands for.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Iterator, Sequence, overload


@lru_cache(maxsize=None)
def positions(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every k-combination of ``range(n)`` in ``itertools.combinations`` order."""
    return tuple(combinations(range(n), k))


class Combinations(Sequence[str]):
    """The k-combinations of ``texts`` (in canonical order), each joined by ``sep``."""

    __slots__ = ("texts", "k", "sep", "_where")

    def __init__(self, texts: Sequence[str], k: int, sep: str = "+"):
        self.texts = tuple(texts)
        self.k = k
        self.sep = sep
        self._where: dict[str, int] | None = None

    def __len__(self) -> int:
        return comb(len(self.texts), self.k)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        texts = self.texts
        return self.sep.join([texts[i] for i in positions(len(texts), self.k)[index]])

    def __iter__(self) -> Iterator[str]:
        return map(self.sep.join, combinations(self.texts, self.k))

    def __contains__(self, token: object) -> bool:
        """True for a token of this list: k of the texts, each once, in canonical order."""
        if not isinstance(token, str):
            return False
        if self._where is None:
            self._where = {t: i for i, t in enumerate(self.texts)}
        parts = token.split(self.sep)
        if len(parts) != self.k:
            return False
        last = -1
        for part in parts:
            at = self._where.get(part, -1)
            if at <= last:
                return False
            last = at
        return True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Combinations):
            return (self.texts, self.k, self.sep) == (other.texts, other.k, other.sep)
        if isinstance(other, (tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Combinations({len(self)} of {' '.join(self.texts)})"
