"""Seep's hooks for the search player: its seat view (:mod:`.search_view`), uniformly random
playouts, and a smaller default budget.

The playouts stay uniformly random: a playout that always made the biggest capture scored
worse, and so did one that drew a card first and then one of its moves (``playout=card``:
decisions less than half as long, but 7.5 points a deal behind the uniform playouts on the
same 45 deals with 4 players, at 200 iterations each; docs/players.md). A Seep decision at the
search's default 400 iterations can take 1.5 s on a 2-core machine, so the default is 200.
"""

from __future__ import annotations

import random

from ...games.base import MatchState
from ...players.search.hooks import SearchHooks
from .search_view import SeepView


def card_policy(state: MatchState, rng: random.Random) -> None:
    """A card of the hand at random, then one of its moves
    (:meth:`~cardcli.plugins.seep.rules.SeepMatch.apply_random_card`)."""
    state.apply_random_card(rng)  # type: ignore[attr-defined]


SEARCH = SearchHooks(view=SeepView, iterations=200, card_policy=card_policy)
