"""Reading move tokens across games: which card from the hand a move spends, and why a token that
is not offered was written wrongly.

A bot that means a legal move but writes it otherwise (``qs``, ``10S``, a pass or a capture with
its cards out of order) makes a different mistake from one that plays a card it does not hold,
and its author needs to hear which: each rule has its own reason, with the token to write. The
reasons are found only once a move has been refused, so a legal move costs nothing more.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence, TypeVar

from ..cards import is_card, misspelling
from ..errors import IllegalMoveError, InvalidMoveError, MoveError

T = TypeVar("T")

ORDER = "list the cards in canonical order"
"""The rule a token with its cards out of order breaks (a Peppa pass, a Seep group)."""

GROUPING = "group the cards as the offered move does"
"""The rule a Seep token breaks that takes the offered cards in other groups."""

HAND_CARD_FIRST = "put the hand card first"
"""The rule a Seep ``build``, ``cement`` or ``break`` breaks that lists its hand card elsewhere."""

_SEPARATORS = re.compile(r"([:,+])")
"""What joins the fields, groups and cards of a token; kept when a token is split."""


def spent_card(token: str) -> str | None:
    """The hand card a move token plays: the card itself (``QS``) or, for Seep, the card a
    ``take``/``throw``/``build``/``cement``/``break`` spends; None for moves that spend no
    card (bids, trumps, passes of several cards)."""
    if is_card(token):
        return token
    verb, _, rest = token.partition(":")
    if verb in ("take", "throw"):
        return rest.split(":")[0]
    if verb in ("build", "cement", "break"):
        groups = rest.partition(":")[2]
        return groups.split(",")[0].split("+")[0] or None
    return None


def sentence(rules: Sequence[str]) -> str:
    """Rules as one clause: ``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(filter(None, (", ".join(rules[:-1]), rules[-1])))


class MisorderedMove(IllegalMoveError):
    """A move the rules allow whose cards are listed otherwise than in its token. It carries
    the rules broken and the token to write, so that a misspelling found with it is told in
    the same sentence (:func:`checked`)."""

    def __init__(self, rules: Sequence[str], token: str) -> None:
        super().__init__(f"{sentence(rules)}: write {token!r}")
        self.rules = tuple(rules)
        self.token = token


def respell(token: str) -> tuple[str, tuple[str, ...]]:
    """``token`` with every card in it written as a token (``take:js:10h`` becomes
    ``take:JS:TH``), and the rules its cards broke, each once, in the order met."""
    parts = _SEPARATORS.split(token)
    rules: list[str] = []
    for i, part in enumerate(parts):
        wrong = misspelling(part)
        if wrong is not None:
            parts[i] = wrong[1]
            rules += [r for r in wrong[0] if r not in rules]
    return "".join(parts), tuple(rules)


def checked(check: Callable[[int, str], T], seat: int, move: str) -> T:
    """``check(seat, move)``, a game's check of a move token that changes nothing. When it
    refuses a token whose cards are misspelt, the refusal names the misspelling and then says
    what the respelt token would meet: nothing (``card tokens are upper case: write 'QS'``),
    its cards' order (one sentence for both mistakes), or another refusal (quoted after it).
    A misspelt token is always refused: only the offered tokens are moves."""
    try:
        return check(seat, move)
    except MoveError:
        fixed, rules = respell(move)
        if not rules:
            raise
        raise _misspelt(check, seat, move, fixed, rules) from None


def _misspelt(check: Callable[[int, str], object], seat: int, move: str, fixed: str,
              rules: tuple[str, ...]) -> InvalidMoveError:
    """The refusal of ``move``, whose cards break ``rules``, given what ``fixed``, the same
    token respelt, meets."""
    try:
        check(seat, fixed)
    except MisorderedMove as err:
        return InvalidMoveError(f"{sentence(rules + err.rules)}: write {err.token!r}")
    except MoveError as err:
        return InvalidMoveError(f"{sentence(rules)} ({fixed!r}, not {move!r}); even so, {err}")
    return InvalidMoveError(f"{sentence(rules)}: write {fixed!r}")


def _cards_of(token: str) -> tuple[str, tuple[str, ...]]:
    """A token's fields but the last, and the items (cards, houses) of its last field sorted:
    what stays the same however its cards are ordered or grouped."""
    head, _, items = token.rpartition(":")
    return head, tuple(sorted(_SEPARATORS.split(items)[::2]))


def misordered(move: str, offered: Iterable[str]) -> MisorderedMove | None:
    """The refusal of ``move`` when an offered token is the same move with its cards ordered
    or grouped otherwise (a Seep ``take:JS:6D+5S,2C+3D+6H``), naming the rule it breaks; None
    when no offered token is."""
    key = _cards_of(move)
    twin = next((t for t in offered if t != move and _cards_of(t) == key), None)
    if twin is None:
        return None
    hand_card = spent_card(twin)
    rules = [HAND_CARD_FIRST] if spent_card(move) != hand_card else []
    if _groups(move) != _groups(twin):
        rules.append(GROUPING)
    elif [c for c in _items(move) if c != hand_card] != [c for c in _items(twin) if c != hand_card]:
        rules.append(ORDER)
    return MisorderedMove(rules, twin)


def _items(token: str) -> list[str]:
    """The items (cards, houses) of a token's last field, in the order written."""
    return _SEPARATORS.split(token.rpartition(":")[2])[::2]


def _groups(token: str) -> set[frozenset[str]]:
    """The groups of a token's last field, each as a set of items."""
    return {frozenset(g.split("+")) for g in token.rpartition(":")[2].split(",")}
