"""One seat's observation, kept up to date from the events its seat is told.

An observation must hold only what the seat may know. The surest way is to build it from the
very events the referee would send that seat's bot (the protocol lines, PROTOCOL.md section
6): every event carries its audience, and :meth:`SeatFeatures.feed` reads only those its seat
may see, so another seat's hand, pass or hidden card can never reach the vector, whatever the
engine holds. Each game's subclass says what each event changes.

Seats are written relative to the observing seat: place ``k`` is seat ``(seat + k) mod
players``, so place 0 is always the seat itself, and a policy sees the same layout from every
chair. Blocks are sized for the game's largest player count; places beyond the count stay 0.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ..games.base import Event
from .vector_layout import Block, Layout


def relative_block(name: str, places: int, meaning: str, low: float = 0.0, high: float = 1.0) -> Block:
    """A block with one number per seat, counted from the observing seat."""
    return Block(name, places, meaning + " (per seat, from this one)", low, high)


class SeatFeatures:
    """The vector of one seat; subclasses handle their game's events in :meth:`on_event`."""

    kinds: tuple[str, ...] = ("play",)
    """The kinds of decision of the game, in the order of the ``decision`` block."""

    def __init__(self, seat: int, num_players: int, layout: Layout) -> None:
        self.seat = seat
        self.n = num_players
        self.layout = layout
        self.vector = layout.zeros()
        self._decision = layout.at("decision")

    def place(self, seat: int | str) -> int:
        """The place of ``seat`` counted from this seat."""
        return (int(seat) - self.seat) % self.n

    def feed(self, events: Sequence[Event]) -> None:
        """Take in the events this seat may see, in order; the others are skipped unread."""
        seat = self.seat
        for event in events:
            audience = event.audience
            if audience is None or seat in audience:
                self.on_event(event.kind, event.args)

    def on_event(self, kind: str, args: tuple[str, ...]) -> None:
        """One event line this seat is told: ``kind`` is its first word, ``args`` the rest."""

    def observe(self, kind: str | None, picked: Sequence[int] = ()) -> np.ndarray:
        """The vector now, with the seat's own open decision (``kind``, None when it has none)
        and the cards it has picked so far for a decision made in several picks."""
        out = self.vector.copy()
        if kind is not None:
            out[self._decision + self.kinds.index(kind)] = 1.0
        return out

    # -- helpers for the subclasses -------------------------------------------------------------

    def set_cards(self, block: str, texts: Sequence[str], index: Mapping[str, int], to: float = 1.0,
                  place: int | None = None, width: int = 0) -> None:
        """Set the cards ``texts`` in ``block`` (in its ``place``-th part of ``width`` numbers,
        for a block with one part per seat)."""
        start = self.layout.at(block) + (place * width if place is not None else 0)
        vector = self.vector
        for text in texts:
            vector[start + index[text]] = to

    def clear(self, *blocks: str) -> None:
        for block in blocks:
            self.vector[self.layout.span(block)] = 0.0

    def one_hot(self, block: str, at: int) -> None:
        span = self.layout.span(block)
        self.vector[span] = 0.0
        self.vector[span.start + at] = 1.0


def decision_block(kinds: Sequence[str]) -> Block:
    return Block("decision", len(kinds), "the seat's own open decision: " + ", ".join(f"`{k}`" for k in kinds)
                 + " (all 0 when it is not this seat's turn)")


def players_block(counts: Sequence[int]) -> Block:
    return Block("players", len(counts), "the player count: " + ", ".join(map(str, counts)))
