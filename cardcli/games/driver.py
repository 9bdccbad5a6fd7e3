"""The match driver: what a match needs next, and its chance.

Three things play a match from its start: the referee (with seats), the learning
environments (with agents) and the replay (with a record's moves). They differ in where the
moves come from and agree on everything else: a deal is due when the rules say so, each
deal's deck is the seed's (:func:`~cardcli.games.dealing.shuffled` for the seed and the deal's
index, or a deck a study chose), and once the deal limit is reached the match is adjudicated
by its totals instead of dealt again. :class:`Driver` is that agreement in one place, so that
``cardcli play --seed S``, ``reset(seed=S)`` and ``verify`` cannot drift apart.
"""

from __future__ import annotations

import enum
from typing import Callable, Sequence

import attrs

from ..cards import Card
from .base import Event, MatchState
from .dealing import shuffled
from .registry import Setup


class Next(enum.Enum):
    """What a match needs now."""

    DEAL = "deal"
    """Chance: the next deal's cards."""
    ADJUDICATE = "adjudicate"
    """The deal limit is reached: the match ends by its totals."""
    DECIDE = "decide"
    """A decision is open: one seat's, or several at once."""
    OVER = "over"


@attrs.frozen
class Driver:
    setup: Setup
    max_deals: int | None = None
    """Deals after which a match that has not ended is adjudicated; None: no limit (a record
    that does not say its limit)."""
    decks: Callable[[int], Sequence[Card]] | None = None
    """The deck of each deal by its 0-based index, instead of the seed's: for studies of chosen
    deals. None deals as ``cardcli play`` does."""

    def next(self, state: MatchState) -> Next:
        if state.is_over():
            return Next.OVER
        if not state.needs_deal():
            return Next.DECIDE
        if self.max_deals is not None and state.deal_number >= self.max_deals:
            return Next.ADJUDICATE
        return Next.DEAL

    def deck(self, index: int) -> Sequence[Card]:
        """The deck of deal ``index`` (0-based)."""
        if self.decks is not None:
            return self.decks(index)
        return shuffled(self.setup.seed, index, self.setup.spec.deck())

    def deal(self, state: MatchState) -> list[Event]:
        """Deal the next deal's cards; its events."""
        return state.deal(self.deck(state.deal_number))
