"""Worlds weighed by how well they explain what the other seats did.

Every world a seat view draws fits what the seat saw, but not every fitting world is as
likely: a seat that bid 4 rarely holds a weak hand (Pepper's bids, :mod:`cardcli.plugins.
pepper.bids`), and a seat that ducked under the queen rarely held a card that would have won
cheaply. Strong Skat and Bridge programs weigh their worlds by the chance of the other seats'
observed moves under a model of those players; this module is that weighing for every game:
the draws of weighed worlds, and a model of the other seats' plays (:class:`RuleModel`, built
from a game's rule-of-thumb playout policy).

Two ways of drawing, for two kinds of weight:

* a play model's weight, **sampling-importance-resampling** (:func:`weighed_draw`): draw
  :data:`CANDIDATES` fitting worlds and keep one with chance proportional to its weight. A
  play model multiplies a miss weight per unexpected play, so late in a deal every world's
  weight is small (the other seats are not the model), and rejection would draw dozens of
  worlds, each replayed, to keep one, or give up and keep the best-weighed, which is no
  longer a draw. Resampling reads only the weights' ratios, so a deal in which nobody plays
  like the model still gets the worlds that explain it best, at a cost fixed in advance,
  which a decision's time budget needs; the price is a draw a little closer to the unweighed
  one when few candidates carry the weight.
* a weight that stays near 1 for most deals (Pepper's bids: a few tricks off at most),
  **rejection sampling** (:func:`accepted_draw`): keep a draw with its weight as its chance.
  It is exact, and the first draw or two are kept as a rule, a quarter of what resampling's
  eight candidates cost there (0.22 ms a world against 0.87 with 3 players).
"""

from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence, TypeVar, cast

from ...games.base import MatchState
from ...games.card_bits import INDEX_OF_TEXT
from .playouts import Policy, TrickPolicy

CANDIDATES = 8
"""Fitting worlds drawn for each weighed world kept."""

T = TypeVar("T")


def weighed_draw(draw: Callable[[random.Random], T], weight: Callable[[T], float], rng: random.Random,
                 candidates: int = CANDIDATES) -> T:
    """One of ``candidates`` draws, kept with chance proportional to its weight (which must
    be above 0, as a play model's is)."""
    drawn = [draw(rng) for _ in range(candidates)]
    return rng.choices(drawn, weights=[weight(d) for d in drawn])[0]


TRIES = 24
"""Draws :func:`accepted_draw` makes at most before it keeps the best-weighed one."""


def accepted_draw(draw: Callable[[random.Random], T], weight: Callable[[T], float], rng: random.Random) -> T:
    """A draw kept with its weight as its chance; after :data:`TRIES`, the best one seen."""
    best, best_weight = None, -1.0
    for _ in range(TRIES):
        dealt = draw(rng)
        w = weight(dealt)
        if rng.random() < w:
            return dealt
        if w > best_weight:
            best, best_weight = dealt, w
    assert best is not None
    return best


class PlayModel(Protocol):
    """How likely another seat's move was in a world, at the point it was made."""

    def weight(self, state: MatchState, seat: int, token: str, rng: random.Random) -> float:
        """The chance kept by a world in which ``seat`` made ``token`` in ``state`` (the world
        just before the move), in (0, 1]: 1 where the model would have made it."""
        ...


class RuleModel:
    """A trick game's rule of thumb (:class:`~.playouts.TrickPolicy`, without its random
    moves) as the model of the other seats: a card play it would not have made keeps
    :attr:`miss` of the world's chance. Bids, passes and trumps are not weighed.

    The rule is what the playouts already assume the other seats play, so the worlds and the
    playouts tell the search one story; and it reads the world's trick state in a few integer
    operations, so weighing a world costs less than replaying it does (0.11 ms against 0.17
    in Peppa). Where the rule rates several cards alike (two cards of one rank to lead or to
    throw away), it picks among them at random here: its own choice among equals is the first
    in the moves' order, which would read into a play that the seat lacked every equal card
    before it in that order."""

    def __init__(self, policy: TrickPolicy, miss: float) -> None:
        self.rule = policy.exact()
        self.miss = miss
        """The weight a world keeps per play the rule would not have made."""

    def weight(self, state: MatchState, seat: int, token: str, rng: random.Random) -> float:
        index = INDEX_OF_TEXT.get(token)
        if index is None or state.phase != "play":  # type: ignore[attr-defined]
            return 1.0
        actions = state.legal_actions()  # type: ignore[attr-defined]
        if len(actions) == 1:
            return 1.0
        shuffled = sorted(actions, key=lambda _: rng.random())  # twice as fast as rng.shuffle
        choice = self.rule.choose(cast(MatchState, _Reordered(state, shuffled)), rng)
        card_index = self.rule.card_index
        predicted = choice if card_index is None else card_index[choice]
        return 1.0 if predicted == index else self.miss


class _Reordered:
    """The part of a world the rule reads (its phase and trick play), with the legal moves in
    a given order, so that the rule's first-found among equals is a random one."""

    __slots__ = ("phase", "tricks", "_actions")

    def __init__(self, state: MatchState, actions: Sequence[int]) -> None:
        self.phase = state.phase  # type: ignore[attr-defined]
        self.tricks = state.tricks  # type: ignore[attr-defined]
        self._actions = actions

    def legal_actions(self) -> Sequence[int]:
        return self._actions


def rule_model(policy: Policy, miss: float) -> PlayModel | None:
    """The model a game's rule-of-thumb playout gives, where it is a trick rule; None for any
    other policy (uniformly random moves say nothing about a world)."""
    return RuleModel(policy, miss) if isinstance(policy, TrickPolicy) else None
