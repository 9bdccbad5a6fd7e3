"""Pepper for learning: the engine's 39 actions, and an observation with the auction.

**Actions.** The engine's own fixed numbering (docs/engines.md): 0..23 the 24 cards in
canonical order (a card keeps its printed suit's action whatever the trump), 24 ``pass``,
25..31 the bids 1 to 7, 32 ``small``, 33 ``big``, 34..37 the trumps C, D, H, S and 38 ``NT``.

**Observation.** The trick games' blocks (:mod:`.trick_features`, no card points: Pepper's
tricks carry none) and the auction: each seat's latest bid, the contract, its declarer and the
trump, all read from the seat's view (:class:`.view.PepperView`).
"""

from __future__ import annotations

from typing import Sequence, cast

from . import rules as pepper
from ...games.base import Decision
from ...games.registry import Setup
from .view import PepperView
from ...envs.encoding import GameEncoding
from ...envs.seat_features import relative_block, seat_view
from ...envs.trick_features import TrickFeatures, TrickGame, trick_layout
from ...envs.vector_layout import Block, Layout

CARDS = {text: action for action, text in enumerate(pepper.CARD_ACTIONS.texts)}
LEVELS = ("1", "2", "3", "4", "5", "6", "7", *pepper.PEPPERS)
MOST_POINTS_A_DEAL = 16
"""The most a side scores or loses in a deal: a Big Pepper with 2 or 3 players (2 x 8)."""


def _game(setup: Setup) -> TrickGame:
    return TrickGame(CARDS, 4, 0, setup.options.target, ("bid", "trump", "play"), (2, 3, 4))


def layout(setup: Setup, max_deals: int) -> Layout:
    most = max_deals * MOST_POINTS_A_DEAL / setup.options.target
    return trick_layout(_game(setup), (-most, most), [
        Block("bids", 4 * len(pepper.BIDS), "each seat's latest bid this deal (from this one, "
                                            f"{len(pepper.BIDS)} numbers each: pass, 1 to 7, small, big)"),
        Block("contract", len(LEVELS), "the contract once the auction is over: 1 to 7, small, big"),
        relative_block("declarer", 4, "the declarer"),
        Block("trump", len(pepper.TRUMPS), "the trump named: C, D, H, S, NT"),
    ])


class PepperFeatures(TrickFeatures):
    """The trick games' blocks and the auction, from the seat's :class:`~.view.PepperView`."""

    view: PepperView

    def __init__(self, seat: int, setup: Setup, layout: Layout) -> None:
        n = setup.num_players
        hand_size = cast(pepper.PepperMatch, setup.new_match()).hand_size
        super().__init__(seat, n, layout, _game(setup), hand_size, seat_view(seat, setup))
        at = layout.at
        self._bids, self._contract, self._declarer, self._trump = at("bids"), at("contract"), at("declarer"), at("trump")
        self._auction_end = self._trump + len(pepper.TRUMPS)
        self._shown_auction: tuple[list[str | None], tuple[int, str] | None, int, str | None] = ([], None, -1, None)

    def encode(self) -> None:
        super().encode()
        view = self.view
        auction = (view.latest_bids, view.contract, view.declarer, view.trump)
        if auction == self._shown_auction:
            return
        cells, places = self.cells, self._places
        self.vector[self._bids:self._auction_end] = 0.0
        width = len(pepper.BIDS)
        for seat, bid in enumerate(view.latest_bids):
            if bid is not None:
                cells[self._bids + places[seat] * width + pepper.BIDS.index(bid)] = 1.0
        if view.contract is not None:
            declarer, level = view.contract
            cells[self._contract + LEVELS.index(level)] = 1.0
            cells[self._declarer + places[declarer]] = 1.0
        if view.declarer >= 0:  # trump named; the view's trump is None for no-trump
            cells[self._trump + pepper.TRUMPS.index(view.trump or "NT")] = 1.0
        self._shown_auction = (view.latest_bids.copy(), view.contract, view.declarer, view.trump)


class PepperActions:
    size = pepper.NUM_ACTIONS

    def legal(self, decision: Decision, picked: tuple[int, ...]) -> Sequence[int]:
        if decision.kind == "play":
            return [CARDS[t] for t in decision.moves]
        return [pepper.action_of(t) for t in decision.moves]

    def move(self, decision: Decision, picked: tuple[int, ...], action: int) -> str | None:
        return pepper.action_text(action)

    def action(self, decision: Decision, token: str) -> tuple[int, ...]:
        return (pepper.action_of(token),)

    def describe(self, action: int) -> str:
        return pepper.action_text(action)

    def unencoded(self, decision: Decision) -> int:
        return 0


ENCODING = GameEncoding("pepper", PepperActions(), layout, PepperFeatures)
