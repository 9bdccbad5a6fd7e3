"""Seep's hooks for the search player: its seat view (:mod:`.search_view`), uniformly random
playouts (or a card first, ``playout=card``), played whole deals at a time by the compact loop
of :mod:`.playout`, and the house levels' budgets.

The playouts stay uniformly random: a playout that always made the biggest capture scored
worse, and so did one that drew a card first and then one of its moves (``playout=card``:
decisions less than half as long, but 7.5 points a deal behind the uniform playouts on the
same 45 deals with 4 players, at 200 iterations each; docs/players.md).
"""

from __future__ import annotations

import random

from ...games.base import MatchState
from ...players.search.hooks import SearchHooks
from ...players.search.playouts import Finish, compact_finish
from .playout import CARD, RANDOM, UnsupportedRules, compact, moves_left, play_deal
from .rules import SeepMatch
from .search_view import SeepView


def card_policy(state: MatchState, rng: random.Random) -> None:
    """A card of the hand at random, then one of its moves
    (:meth:`~cardcli.plugins.seep.rules.SeepMatch.apply_random_card`)."""
    state.apply_random_card(rng)  # type: ignore[attr-defined]


def whole_playout(playout: str) -> Finish:
    """The compact loop of :mod:`.playout` playing what
    :func:`~cardcli.players.search.hooks.policy_for` gives Seep: uniformly random moves for
    ``rule`` (Seep has no rule of thumb of its own) and ``random``; for ``card``, a card at
    random and then one of its moves, as :func:`card_policy` plays."""
    policy = CARD if playout == "card" else RANDOM

    return compact_finish(SeepMatch, compact, UnsupportedRules, lambda start, rng: (play_deal(start, rng, policy), moves_left(start)))


SEARCH = SearchHooks(view=SeepView, house_iterations=(200, 400), card_policy=card_policy,
                     whole_playout=whole_playout)
"""``house:4`` searches 200 iterations: at 50 it lost to the heuristic (-4.6 points
a deal with 4 players, -4.0 with 2, on 200 duplicate deals; docs/performance.md)."""
