"""What an environment needs to know of a game: its action encoding and its observation.

Each game fills one :class:`GameEncoding` in its folder (``encoding.py``), which its spec names.
Actions are translated to the protocol's move tokens and applied through the engine's text
moves, so an environment makes exactly the moves a bot would, with the same events.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

import attrs

from ..games.base import Decision
from ..games.registry import Setup
from .seat_features import SeatFeatures
from .vector_layout import Layout


class ActionCodec(Protocol):
    """A game's fixed action numbering, over its decisions' move tokens.

    A move is made of one action, or of several for a decision taken in steps (Peppa's pass:
    three cards, one at a time); ``picked`` holds the actions taken so far in it.
    """

    size: int
    """The size of the ``Discrete`` action space."""

    def legal(self, decision: Decision, picked: tuple[int, ...]) -> Sequence[int]:
        """The actions allowed now, sorted."""

    def move(self, decision: Decision, picked: tuple[int, ...], action: int) -> str | None:
        """The move token ``action`` completes, or None when the move needs more picks. The
        action is one of :meth:`legal`'s."""

    def action(self, decision: Decision, token: str) -> tuple[int, ...]:
        """The actions that make the move ``token`` (one, or one per pick)."""

    def describe(self, action: int) -> str:
        """What an action names, for people."""

    def unencoded(self, decision: Decision) -> int:
        """How many legal moves of the decision have no action (always 0 but in Seep, where an
        encoding bound could be passed: docs/rl.md)."""


@attrs.frozen
class GameEncoding:
    """A game's action codec and the observation of each seat."""

    game: str
    actions: ActionCodec
    layout: Callable[[Setup, int], Layout]
    """``layout(setup, max_deals)``: the blocks of the observation (bounds depend on the
    options and the deal limit)."""
    features: Callable[[int, Setup, Layout], SeatFeatures]
    """``features(seat, setup, layout)``: a fresh observation for a seat at the match start."""
