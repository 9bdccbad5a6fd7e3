"""What the search player needs to know of a game, declared in the game's own folder.

The search itself (:mod:`.ismcts`) knows no game: it plays worlds that a seat view draws, with
a playout policy. A game gives its seat view, the decisions the heuristic makes better within
the budget, its default budget where the shared one does not suit it, and its playout rules,
as a :class:`SearchHooks` that its :class:`~cardcli.games.base.GameSpec` names (``search``).
"""

from __future__ import annotations

from typing import Callable

import attrs

from .playouts import Policy
from .view import SeatView


@attrs.frozen
class SearchHooks:
    view: type[SeatView]
    """The seat view the search draws its worlds from."""
    delegated: frozenset[str] = frozenset()
    """Decision kinds the heuristic makes for the search player by default, because the search
    makes them worse within its budget (each game says why and where it was measured)."""
    iterations: int | None = None
    """Iterations per decision when the seat spec names no budget; None: the search's own
    default (:data:`~cardcli.players.search.ismcts.DEFAULT_ITERATIONS`)."""
    rule_policy: Callable[[int], Policy] | None = None
    """``rule_policy(num_players)``: the game's rule-of-thumb playout (``playout=rule``, the
    default); None plays uniformly random moves."""
    card_policy: Policy | None = None
    """The ``playout=card`` policy, where the game has one (a card first, then one of its
    moves); None plays uniformly random moves."""
