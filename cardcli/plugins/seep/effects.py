"""What a Seep move does: the houses it may make (:class:`House`), its effect on the floor
(:data:`Effect`) and a legal move (:data:`Move`, a hand card and its effect) with its token.

These are the values the move generator (:mod:`.moves`) makes and the match (:mod:`.rules`)
plays, kept apart from both so that either can be read knowing only this page. A move carries
its whole effect, so applying one is the same few lines for every verb, and a move is legal
exactly when it was generated.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import Final

import attrs

from ...cards import Card
from ...games.card_bits import DECK, TEXTS

HOUSE_VALUES = range(9, 14)
"""The values a house may have (S10)."""
VERBS = ("take", "build", "cement", "break", "throw")
"""The verbs of the move tokens, in the canonical order of the moves."""
VERB_RANK = {verb: rank for rank, verb in enumerate(VERBS)}

_TEXT = attrgetter("text")


@attrs.frozen
class House:
    value: int
    cards: tuple[Card, ...]
    cemented: bool
    owners: frozenset[int]
    _text: str | None = attrs.field(default=None, init=False, eq=False, repr=False)
    """:meth:`describe`, written when first asked for: a house stays on the floor for many
    plays, and the floor is told after each (a plain slot, which costs less to read than a
    cached property of a slotted class)."""

    def describe(self) -> str:
        """``h12:c:0,2:5C+3D+4H+QC``: value, cemented (c) or ordinary (o), owners, cards."""
        text = self._text
        if text is None:
            kind = "c" if self.cemented else "o"
            owners = ",".join(map(str, sorted(self.owners)))
            text = f"h{self.value}:{kind}:{owners}:" + "+".join(map(_TEXT, self.cards))
            object.__setattr__(self, "_text", text)
        return text


ALONE = tuple(frozenset({seat}) for seat in range(4))
"""The owners of a house one seat made alone."""


Effect = tuple[str, int, tuple[int, ...], int, bool, "frozenset[int] | None", str, str]
"""What a legal move does to the floor, the same whichever card of its capture value plays
it: a turn finds each value's effects once and pairs them with each card of the value (a
:data:`Move`). Its fields, each read by the name of its place (``effect[HEAD]``):

* :data:`VERB`: ``take``, ``build``, ``cement``, ``break`` or ``throw``;
* :data:`LOOSE`: the loose cards that leave the floor (captured, or built into a house), a
  mask;
* :data:`REMOVED`: the values of the houses that leave the floor (captured, or broken into
  another house);
* :data:`MADE`: the value of the house made (0: none), :data:`CEMENTED` and :data:`OWNERS`
  (its owners; None for the mover alone, which lets a build be the same effect for every
  seat, and spares most effects a container the garbage collector would have to walk).
  The house itself is built only when the move is played: its cards are the hand card, the
  loose cards taken and the cards of the houses removed;
* :data:`HEAD` and :data:`TAIL`: the token around the hand card, ``head + card + tail``; the
  token is written only when asked for (the integer actions never ask).

A bare tuple, not an attrs class or a named tuple: a turn makes about four effects a move
and plays one, and an instance of a class costs several times a tuple to make and to free.
Counted in instructions over the same 26,950 random moves, with the fields read by name
everywhere, a ``typing.NamedTuple`` cost 7% more a move (15% made with keyword arguments) and
a frozen attrs class 24% (21% with a hand-written ``__init__``); these names of places cost
0.3%.
"""

VERB: Final = 0
LOOSE: Final = 1
REMOVED: Final = 2
MADE: Final = 3
CEMENTED: Final = 4
OWNERS: Final = 5
HEAD: Final = 6
TAIL: Final = 7
"""Where an :data:`Effect` keeps each field: ``effect[HEAD]``, never ``effect[6]``."""

HEAD_AND_TAIL = itemgetter(HEAD, TAIL)
"""An :data:`Effect`'s token's sort key for any one card."""

Move = tuple[int, Effect]
"""A legal move: the hand card (its index in ``card_bits.DECK``) and its effect."""


def token(move: Move) -> str:
    """The move's protocol token, ``take:JS:2C+3D+6H,h11``."""
    card, effect = move
    return effect[HEAD] + TEXTS[card] + effect[TAIL]


THROWS: tuple[Move, ...] = tuple(
    (card, ("throw", 0, (), 0, False, None, "throw:", "")) for card in range(len(DECK))
)
"""The throw of each card: the same move in every position."""
