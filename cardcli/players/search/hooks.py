"""What the search player needs to know of a game, declared in the game's own folder.

The search itself (:mod:`.ismcts`) knows no game: it plays worlds that a seat view draws, with
a playout policy. A game gives its seat view, the decisions the heuristic makes better within
the budget, the budgets of its house levels, and its playout rules, as a :class:`SearchHooks`
that its :class:`~cardcli.games.base.GameSpec` names (``search``).
"""

from __future__ import annotations

from typing import Callable

import attrs

from .playouts import Finish, Policy, WholePlayout, random_policy
from .view import SeatView
from .weighing import PlayModel, rule_model


@attrs.frozen
class SearchHooks:
    view: type[SeatView]
    """The seat view the search draws its worlds from."""
    delegated: frozenset[str] = frozenset()
    """Decision kinds the heuristic makes for the search player by default, because the search
    makes them worse within its budget (each game says why and where it was measured)."""
    flat: frozenset[str] = frozenset()
    """Decision kinds searched one move deep by default (flat Monte Carlo: every move judged
    by the playouts from just after it, none of the later moves in the tree), where the
    game's rule-of-thumb playouts model those moves better than a tree of every seat's
    replies grown within the budget (each game says why and where it was measured)."""
    house_iterations: tuple[int, int] = (50, 400)
    """The iterations of the house players' two search levels, ``house:4`` and ``house:5``
    (:mod:`cardcli.players.levels`): level 4 must still beat the heuristic, which a small
    budget does in the trick games and not in Seep, measured on duplicate deals."""
    rule_policy: Callable[[int], Policy] | None = None
    """``rule_policy(num_players)``: the game's rule-of-thumb playout (``playout=rule``, the
    default); None plays uniformly random moves."""
    card_policy: Policy | None = None
    """The ``playout=card`` policy, where the game has one (a card first, then one of its
    moves); None plays uniformly random moves."""
    whole_playout: Callable[[str], Finish | None] | None = None
    """``whole_playout(playout)``: the game's own loop playing the policy that
    :func:`policy_for` gives for ``playout`` to the end of a deal in one call, or None where it
    has none for that kind; None: every playout goes move by move."""


def policy_for(hooks: SearchHooks, num_players: int, playout: str = "rule") -> Policy:
    """The playout policy a game's hooks give: ``random``, uniform among the moves; ``card``,
    the game's card-first policy where it has one; ``rule``, the game's own rule of thumb
    where it has one. Otherwise, uniform. Where the game has a whole playout for that kind,
    the policy comes as a :class:`WholePlayout`, which the search calls once per deal."""
    step = _step_policy(hooks, num_players, playout)
    finish = hooks.whole_playout(playout) if hooks.whole_playout is not None else None
    return step if finish is None else WholePlayout(step, finish)


def _step_policy(hooks: SearchHooks, num_players: int, playout: str) -> Policy:
    if playout == "rule" and hooks.rule_policy is not None:
        return hooks.rule_policy(num_players)
    if playout == "card" and hooks.card_policy is not None:
        return hooks.card_policy
    return random_policy


def play_model(hooks: SearchHooks, num_players: int, miss: float) -> PlayModel | None:
    """The model of the other seats' plays that weighs the worlds (``ismcts:model=W``, ``miss``
    the W): the game's rule of thumb where it is a trick rule (Peppa, Il Pigugnìn, Pepper);
    None when ``miss`` is 1 (off) or the game has no such rule. Seep has none: its playouts
    are uniformly random, and a uniform model weighs every world alike."""
    if miss >= 1 or hooks.rule_policy is None:
        return None
    return rule_model(hooks.rule_policy(num_players), miss)
