"""Peppa for learning: 52 actions, one per card, for plays and for the three-card pass alike.

**Actions.** Action ``a`` is the card ``card_bits.TEXTS[a]`` (clubs, diamonds, hearts, spades,
each 2 to ace). A play is one action. A pass is three actions in a row by the same seat, one
card each, in any order; the pass is made with the third. Why not one action per pass: the
engine's 286 pass actions are positions in the passer's sorted hand, so pass 0 passes other
cards in every hand, and a fixed action per pass would have to name three cards, 22,100
actions of which at most 286 are ever legal. Three picks over the 52 cards keep every action
meaning one card, in the pass as in the play, and a policy learns one notion of a card's
worth for both; the observation shows the cards picked so far (``picked``).

**Observation.** The trick games' blocks (:mod:`.trick_features`) and the pass: where it goes
this deal, the cards the seat passed and received (all read from the seat's view,
:class:`.view.PeppaView`), and its picks so far (the environment's, not yet a move).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import rules as peppa
from ...cards import Card
from ...games.base import Decision
from ...games.card_bits import INDEX_OF_TEXT, TEXTS
from ...games.registry import Setup
from .view import PeppaView
from ...envs.encoding import GameEncoding
from ...envs.seat_features import seat_view
from ...envs.trick_features import TrickFeatures, TrickGame, trick_layout
from ...envs.vector_layout import Block, Layout

CARDS = INDEX_OF_TEXT
PASS_DIRECTIONS = ("left", "right", "across", "hold")
NUM_ACTIONS = 52


def _per_deal(setup: Setup) -> int:
    """Penalty points in a deal, which is also the most a seat takes in one (a cappotto)."""
    return sum(peppa.CARD_VALUES[setup.options.card_values].values())


def _game(setup: Setup) -> TrickGame:
    return TrickGame(CARDS, 4, _per_deal(setup), setup.options.end_threshold, ("pass", "play"), (4,))


def layout(setup: Setup, max_deals: int) -> Layout:
    most = max_deals * _per_deal(setup) / setup.options.end_threshold
    return trick_layout(_game(setup), (0.0, most), [
        Block("passing", 4, "where this deal's pass goes: left, right, across, hold (no pass)"),
        Block("passed", 52, "the three cards the seat passed this deal"),
        Block("received", 52, "the three cards passed to the seat this deal"),
        Block("picked", 52, "the cards the seat has picked so far for the pass it is making"),
    ])


class PeppaFeatures(TrickFeatures):
    """The trick games' blocks and the pass, from the seat's :class:`~.view.PeppaView`."""

    view: PeppaView

    def __init__(self, seat: int, setup: Setup, layout: Layout) -> None:
        super().__init__(seat, 4, layout, _game(setup), peppa.HAND_SIZE, seat_view(seat, setup))
        at = layout.at
        self._passing, self._passed, self._received = at("passing"), at("passed"), at("received")
        self._picked = at("picked")
        self._shown_pass: tuple[str | None, list[Card], list[Card]] = (None, [], [])

    def encode(self) -> None:
        super().encode()
        view = self.view
        shown = (view.passing, view.passed, view.received)
        if shown == self._shown_pass:
            return
        self.vector[self._passing:self._picked] = 0.0
        cells, index = self.cells, self.card_index
        if view.passing is not None:
            cells[self._passing + PASS_DIRECTIONS.index(view.passing)] = 1.0
        for card in view.passed:
            cells[self._passed + index[card]] = 1.0
        for card in view.received:
            cells[self._received + index[card]] = 1.0
        self._shown_pass = (view.passing, view.passed.copy(), view.received.copy())

    def observe(self, kind: str | None, picked: Sequence[int] = ()) -> np.ndarray:
        out = super().observe(kind, picked)
        for card in picked:
            out[self._picked + card] = 1.0
        return out


class PeppaActions:
    """Cards by index; the pass as three picks."""

    size = NUM_ACTIONS

    def legal(self, decision: Decision, picked: tuple[int, ...]) -> Sequence[int]:
        if decision.kind == "play":
            return [CARDS[t] for t in decision.moves]
        return [CARDS[t] for t in _hand(decision) if CARDS[t] not in picked]

    def move(self, decision: Decision, picked: tuple[int, ...], action: int) -> str | None:
        if decision.kind == "play":
            return TEXTS[action]
        chosen = (*picked, action)
        if len(chosen) < peppa.PASS_SIZE:
            return None
        return "+".join(TEXTS[a] for a in sorted(chosen))

    def action(self, decision: Decision, token: str) -> tuple[int, ...]:
        return tuple(CARDS[t] for t in token.split("+"))

    def describe(self, action: int) -> str:
        return TEXTS[action]

    def unencoded(self, decision: Decision) -> int:
        return 0


def _hand(decision: Decision) -> Sequence[str]:
    """The passer's cards: the pass list is every three of them (the engine's lazy list keeps
    them as ``texts``; a plain list of tokens is read whole)."""
    texts = getattr(decision.moves, "texts", None)
    if texts is not None:
        return texts
    return sorted({t for move in decision.moves for t in move.split("+")}, key=CARDS.__getitem__)


ENCODING = GameEncoding("peppa", PeppaActions(), layout, PeppaFeatures)
