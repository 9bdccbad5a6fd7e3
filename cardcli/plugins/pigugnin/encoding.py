"""Il Pigugnìn for learning: the engine's 40 card actions, and the trick games' observation.

**Actions.** Action ``a`` plays ``pigugnin.action_text(a)``: the 40 cards in canonical order
(clubs, diamonds, hearts, spades, each 2 to 7, then J, Q, K, A), the engine's own fixed
numbering. Every decision is a play.

**Observation.** The trick games' blocks (:mod:`.trick_features`), sized for 5 players, read
from the seat's view (:class:`.view.PigugninView`).
"""

from __future__ import annotations

from typing import Sequence

from ...cards import french_40
from . import rules as pigugnin
from ...games.base import Decision
from ...games.registry import Setup
from ...envs.encoding import GameEncoding
from ...envs.seat_features import seat_view
from ...envs.trick_features import TrickFeatures, TrickGame, trick_layout
from ...envs.vector_layout import Layout

CARDS = {text: action for action, text in enumerate(pigugnin.CARD_ACTIONS.texts)}
MOST_BUSCHE_A_DEAL = 21
"""The most busche one seat pays in a deal: 16 for all 35 points, 4 for a five-way tie, 1 for
the Pigugnìn (a seat without a trick pays at most 5, and no points then)."""


def _game(setup: Setup) -> TrickGame:
    return TrickGame(CARDS, 5, 35, setup.options.lose_at, ("play",), (4, 5))


def layout(setup: Setup, max_deals: int) -> Layout:
    return trick_layout(_game(setup), (0.0, max_deals * MOST_BUSCHE_A_DEAL / setup.options.lose_at))


class PigugninFeatures(TrickFeatures):
    """The trick games' blocks alone, from the seat's view."""

    def __init__(self, seat: int, setup: Setup, layout: Layout) -> None:
        n = setup.num_players
        super().__init__(seat, n, layout, _game(setup), len(french_40()) // n, seat_view(seat, setup))


class PigugninActions:
    size = pigugnin.NUM_ACTIONS

    def legal(self, decision: Decision, picked: tuple[int, ...]) -> Sequence[int]:
        return [CARDS[t] for t in decision.moves]

    def move(self, decision: Decision, picked: tuple[int, ...], action: int) -> str | None:
        return pigugnin.action_text(action)

    def action(self, decision: Decision, token: str) -> tuple[int, ...]:
        return (pigugnin.action_of(token),)

    def describe(self, action: int) -> str:
        return pigugnin.action_text(action)

    def unencoded(self, decision: Decision) -> int:
        return 0


ENCODING = GameEncoding("pigugnin", PigugninActions(), layout, PigugninFeatures)
