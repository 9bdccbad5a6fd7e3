"""One seat's observation: an encoding of the game's seat view, which the events its seat is told
keep up to date.

An observation must hold only what the seat may know. The surest way is to build it from the
very events the referee would send that seat's bot (the protocol lines, PROTOCOL.md section
6): every event carries its audience, and :meth:`SeatFeatures.feed` reads only those its seat
may see, so another seat's hand, pass or hidden card can never reach the vector, whatever the
engine holds.

What a seat knows is kept in one place, the game's seat view (:mod:`cardcli.games.view`): the
same view the human seat shows and the heuristic and search players read. The features feed it
each line the seat is told, and :meth:`SeatFeatures.encode` writes the vector from its state
alone, so the observation cannot drift from what every other player of the seat reads.

The vector is a cache of that encoding. A line the seat is told makes it stale, and the next
:meth:`SeatFeatures.observe` encodes the view again: an environment tells every seat each move
but observes one seat a step, so the encoding is paid once a step, not once a line and seat.
Within an encoding, a block is written again only when the part of the view it shows differs
from what it was last written from (a seat's hand, the trick...), and the cards played, which
only grow within a deal, are added as they come: encoding every block of the view afresh at
every step made a trick game's step about a sixth slower than this (docs/performance.md).

Seats are written relative to the observing seat: place ``k`` is seat ``(seat + k) mod
players``, so place 0 is always the seat itself, and a policy sees the same layout from every
chair. Blocks are sized for the game's largest player count; places beyond the count stay 0.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from .. import protocol
from ..cards import Card
from ..games import options as opt
from ..games.base import Event
from ..games.registry import Setup
from ..games.view import SeatView, view_for
from .vector_layout import Block, Layout


def relative_block(name: str, places: int, meaning: str, low: float = 0.0, high: float = 1.0) -> Block:
    """A block with one number per seat, counted from the observing seat."""
    return Block(name, places, meaning + " (per seat, from this one)", low, high)


def seat_view(seat: int, setup: Setup) -> SeatView:
    """The game's seat view for ``seat``, told the match header the seat's bot is told (the
    game, the options, the players as the environment names its agents, the order, the teams):
    the view then sizes itself for the player count and reads the options as a bot's would."""
    view = view_for(setup.spec.name)
    names = [f"player_{s}" for s in range(setup.num_players)]
    header = protocol.match_header(setup.spec.name, setup.variant.name, setup.num_players, seat,
                                   opt.to_wire(setup.options), names, setup.spec.play_order(setup.options),
                                   setup.spec.teams(setup.num_players))
    for line in header:
        view.update(line.split())
    return view


def bare_view(seat: int, num_players: int) -> SeatView:
    """The trick games' common view for ``seat``, opened with a game line alone: what features
    made without a view read until an environment gives them the game's
    (:meth:`SeatFeatures.take_view`); features made outside an environment keep it."""
    view = SeatView()
    view.update(["game", "-", "-", str(num_players), str(seat)])
    return view


class SeatFeatures:
    """The vector of one seat, encoded from its view; subclasses write their game's blocks in
    :meth:`encode`."""

    kinds: tuple[str, ...] = ("play",)
    """The kinds of decision of the game, in the order of the ``decision`` block."""

    def __init__(self, seat: int, num_players: int, layout: Layout, view: SeatView | None = None) -> None:
        """``view`` is the game's seat view, opened with the seat's match header
        (:func:`seat_view`); by default the common view, opened with a game line alone."""
        self.seat = seat
        self.n = num_players
        self.layout = layout
        self.view = view if view is not None else bare_view(seat, num_players)
        """What the seat knows, from the lines it was told: all the vector shows of the match."""
        self.view_given = view is not None
        """False for features made without a view (a game's features written before they read
        one: examples/briscola's), which an environment gives the game's (:meth:`take_view`)."""
        self.vector = layout.zeros()
        """The vector as last encoded (and the blocks that never change, such as the player
        count, set once); a subclass with lines of its own may keep blocks here too (see
        :meth:`on_event`). Always this one array: :attr:`cells` shares its memory."""
        self.cells = self.vector.data.cast("B").cast("f")
        """The vector's numbers, written one at a time: a Python float stored into a float32
        cell is rounded as NumPy rounds it, at a fraction of the cost of NumPy's item
        assignment. (A sum kept in the vector is still added up with NumPy, whose float32
        arithmetic differs from a Python float's.)"""
        self._decision = layout.at("decision")
        self._stale = True
        # the per-line hook costs a call a line and seat: made only when a subclass has one
        self._hook = type(self).on_event is not SeatFeatures.on_event

    def take_view(self, view: SeatView) -> None:
        """Read ``view`` from now on, before any line is told: how an environment gives the
        game's seat view (:func:`seat_view`) to features made without one, so that their blocks
        show what the game's view keeps (a game's own lines, such as Briscola's draws, which the
        common view does not read)."""
        self.view, self.view_given, self._stale = view, True, True

    def place(self, seat: int | str) -> int:
        """The place of ``seat`` counted from this seat."""
        return (int(seat) - self.seat) % self.n

    def feed(self, events: Sequence[Event]) -> None:
        """Take in the events this seat may see, in order; the others are skipped unread."""
        seat, update, hook, told = self.seat, self.view.update, self._hook, False
        for event in events:
            audience = event.audience
            if audience is None or seat in audience:
                update([event.kind, *event.args])
                told = True
                if hook:
                    self.on_event(event.kind, event.args)
        if told:
            self._stale = True

    def on_event(self, kind: str, args: tuple[str, ...]) -> None:
        """One event line this seat is told, after its view has taken it: ``kind`` is its first
        word, ``args`` the rest. Nothing to do when everything the vector shows is in the view;
        a game whose view does not keep some line of its own may keep a block of its own in
        :attr:`vector` here (blocks that :meth:`encode` does not write)."""

    def encode(self) -> None:
        """Bring :attr:`vector` up to date with :attr:`view`: afterwards every block the
        features own shows the view's state and nothing else (a subclass writes only what
        changed since its last encoding). Called by :meth:`observe` when a line came since."""

    def observe(self, kind: str | None, picked: Sequence[int] = ()) -> np.ndarray:
        """The vector now, with the seat's own open decision (``kind``, None when it has none)
        and the cards it has picked so far for a decision made in several picks."""
        if self._stale:
            self.encode()
            self._stale = False
        out = self.vector.copy()
        if kind is not None:
            out[self._decision + self.kinds.index(kind)] = 1.0
        return out

    # -- helpers for the subclasses -------------------------------------------------------------

    def write_cards(self, at: int, shown: list[Card], now: list[Card], index: Mapping[Card, int]) -> None:
        """Make a card block that shows the cards ``shown`` (each at ``at + index[card]``) show
        ``now`` instead, writing only the numbers that change. A hand loses a card a move and
        keeps its order (a list's ``remove``): that is one walk along the two lists; anything
        else (a new hand, cards passed or dealt) clears the old cards and writes the new."""
        cells = self.cells
        gone: list[Card] = []
        j, left = 0, len(now)
        for card in shown:
            if j < left and now[j] is card:
                j += 1
            else:
                gone.append(card)
        if j == left:
            for card in gone:
                cells[at + index[card]] = 0.0
            return
        for card in shown:
            cells[at + index[card]] = 0.0
        for card in now:
            cells[at + index[card]] = 1.0

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


def feed_all(seats: Sequence[SeatFeatures], events: Sequence[Event]) -> None:
    """:meth:`SeatFeatures.feed` for every seat of a match at once, as an environment tells them
    each move: each line is split into words once, for all the seats that may see it (a view
    reads the words of a line and never changes them), where feeding seat by seat split it
    once a seat."""
    for event in events:
        audience, words = event.audience, None
        for features in seats:
            if audience is None or features.seat in audience:
                if words is None:
                    words = [event.kind, *event.args]
                features.view.update(words)
                features._stale = True
                if features._hook:
                    features.on_event(event.kind, event.args)


def decision_block(kinds: Sequence[str]) -> Block:
    return Block("decision", len(kinds), "the seat's own open decision: " + ", ".join(f"`{k}`" for k in kinds)
                 + " (all 0 when it is not this seat's turn)")


def players_block(counts: Sequence[int]) -> Block:
    return Block("players", len(counts), "the player count: " + ", ".join(map(str, counts)))
