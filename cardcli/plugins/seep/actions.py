"""A fixed numbering of Seep's moves, for a ``Discrete`` action space.

The engine numbers a Seep move by its place in the legal list, which changes with every
position: action 3 is a capture now and a throw next turn. Here an action *names* the move:

* the **hand card** it spends (one of the 52, in canonical order);
* the **kind**: ``take``, ``build``, ``cement``, ``break`` or ``throw``;
* the **value**: the house value built or cemented, the value of the ordinary house broken,
  the card's own value for a capture (none for a throw);
* and, since one card can capture, build or cement the same value in several ways (other
  loose cards taken), the **way**: the move's rank among the legal moves with the same card,
  kind and value, in the order the protocol lists them (by token text).

Only the value pairs the rules can give have a place: a build or cement of ``H`` with a card
worth ``v`` needs ``max(9, v) <= H <= 13``, a break of the house ``V`` needs ``V + v <= 13``.
The number of ways each kind may take is bounded by :data:`WAYS`, measured (docs/rl.md,
``python3 benchmarks/envs.py seep``): a legal move beyond the bound has no action, and
:meth:`SeepActions.encode` reports it rather than letting two moves share one.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from ...cards import Card
from ...games.card_bits import DECK, INDEX_OF_TEXT, TEXTS
from ...games.notation import spent_card
from .rules import HOUSE_VALUES
from .floor import value

KINDS = ("take", "build", "cement", "break", "throw")

WAYS = {"take": 48, "build": 64, "cement": 24, "break": 24, "throw": 1}
"""How many ways of one card, kind and value have an action. Measured: the largest rank seen
and how often a bound is passed are in docs/rl.md."""

BIDS = tuple(HOUSE_VALUES)
"""Actions 0..4 bid 9..13."""


@attrs.frozen
class MoveName:
    """What a Seep move token names, its way aside: ``card`` is the hand card's index in the
    52-card deck, ``value`` 0 for a throw."""

    card: int
    kind: str
    value: int

    @classmethod
    def of(cls, token: str) -> "MoveName":
        kind, _, rest = token.partition(":")
        spent = spent_card(token)
        if kind not in KINDS or spent is None or spent not in INDEX_OF_TEXT:
            raise ValueError(f"not a Seep play token: {token!r}")
        card = INDEX_OF_TEXT[spent]
        if kind == "throw":
            return cls(card, kind, 0)
        if kind == "take":
            return cls(card, kind, value(DECK[card]))
        return cls(card, kind, int(rest.partition(":")[0]))


def _values(kind: str, v: int) -> tuple[int, ...]:
    """The values a card worth ``v`` can name with a move of ``kind``."""
    if kind == "take":
        return (v,)
    if kind in ("build", "cement"):
        return tuple(h for h in HOUSE_VALUES if h >= v)
    if kind == "break":
        return tuple(h for h in HOUSE_VALUES if h + v <= 13)
    return (0,)


def _blocks() -> tuple[dict[MoveName, int], tuple[tuple[MoveName, int] | None, ...]]:
    """The first action of every (card, kind, value), card after card, and each action's
    (card, kind, value) and way (None for the bids)."""
    first: dict[MoveName, int] = {}
    named: list[tuple[MoveName, int] | None] = [None] * len(BIDS)
    for card, c in enumerate(DECK):
        for kind in KINDS:
            for v in _values(kind, value(c)):
                name = MoveName(card, kind, v)
                first[name] = len(named)
                named += [(name, way) for way in range(WAYS[kind])]
    return first, tuple(named)


FIRST, NAME_OF_ACTION = _blocks()
"""Where each (card, kind, value)'s ways start; what each action names."""
SIZE = len(NAME_OF_ACTION)
"""The size of the action space."""


def describe(action: int) -> str:
    """What an action names, for people: ``bid 11``, ``build 12 with 5C, way 2``."""
    if not 0 <= action < SIZE:
        raise ValueError(f"not a Seep action: {action} (actions are 0..{SIZE - 1})")
    if action < len(BIDS):
        return f"bid {BIDS[action]}"
    named = NAME_OF_ACTION[action]
    assert named is not None
    name, way = named
    card = TEXTS[name.card]
    if name.kind == "throw":
        return f"throw {card}"
    what = {"take": "take", "build": "build {v}", "cement": "cement {v}", "break": "break {v}"}[name.kind]
    return f"{what.format(v=name.value)} with {card}, way {way + 1}"


@attrs.frozen
class Encoded:
    """A decision's moves under the encoding: ``actions[i]`` is the action of ``moves[i]``, or
    -1 for a move past the bound of its kind (``unencoded`` counts them)."""

    moves: tuple[str, ...]
    actions: tuple[int, ...]

    @property
    def unencoded(self) -> int:
        return self.actions.count(-1)

    def token(self, action: int) -> str | None:
        """The move of ``action``, or None when it names no move of this decision."""
        if action < 0:
            return None
        try:
            return self.moves[self.actions.index(action)]
        except ValueError:
            return None


def encode(kind: str, moves: Sequence[str]) -> Encoded:
    """The actions of a decision's moves (``bid`` or ``play``), in the order offered."""
    if kind == "bid":
        return Encoded(tuple(moves), tuple(BIDS.index(int(m)) for m in moves))
    seen: dict[int, int] = {}
    actions = []
    for token in moves:
        first, ways = _first(token)
        way = seen.get(first, 0)
        seen[first] = way + 1
        actions.append(first + way if way < ways else -1)
    return Encoded(tuple(moves), tuple(actions))


_FIRSTS: dict[str, tuple[int, int]] = {}


def _first(token: str) -> tuple[int, int]:
    """The first action of a token's (card, kind, value) and its number of ways, remembered:
    the same moves come back turn after turn."""
    found = _FIRSTS.get(token)
    if found is None:
        if len(_FIRSTS) >= 200_000:
            _FIRSTS.clear()
        name = MoveName.of(token)
        found = _FIRSTS[token] = (FIRST[name], WAYS[name.kind])
    return found


def card_of(action: int) -> Card | None:
    """The hand card a play action spends; None for a bid."""
    named = NAME_OF_ACTION[action] if 0 <= action < SIZE else None
    return DECK[named[0].card] if named is not None else None
