"""How a search finishes a deal: random moves, or a cheap rule of thumb for the trick games.

A playout's only job is to say how good the position it starts from is. Uniformly random play
says it badly in trick games: random followers throw away their aces and dump points at
random, so every lead looks alike. A rule that plays each card as a sensible player would,
in a few integer operations on the world's own trick state, makes each iteration worth
several random ones; a little randomness (``epsilon``) keeps the playouts from all agreeing.

:class:`TrickPolicy` is that rule for the trick games, in two kinds:

* **penalty games** (``avoid``): lead the weakest card; follow with the strongest card that
  still loses the trick, or the strongest when every card wins; when void, throw the card
  that carries the most points, then the strongest;
* **trick-taking games**: lead the strongest card; win as cheaply as possible unless a partner
  is already winning; otherwise play the weakest card, a non-trump first.

A game picks its playouts in its search hooks (:mod:`.hooks`); a game without a rule of its
own plays uniformly random ones (each game's folder says why it chose what it chose).

The policy reads only the world it plays in, which the search drew from the seat's own view.
"""

from __future__ import annotations

import copy
import random
from typing import Callable, Sequence, TypeVar

from ...errors import CardcliError
from ...games.base import MatchState

Policy = Callable[[MatchState, random.Random], None]
"""Plays one move for the seat to act, without events."""

Finish = Callable[[MatchState, random.Random], "tuple[Sequence[int], int] | None"]
"""A game's whole playout: finishes the deal in progress in a world (reading it, not changing
it) and gives each seat's points in the deal and the number of moves it played; None when it
cannot play this world (then the search plays the deal move by move)."""


M = TypeVar("M", bound=MatchState)
C = TypeVar("C")


def compact_finish(match: type[M], compact: Callable[[M], C], refused: type[CardcliError],
                   play: Callable[[C, random.Random], "tuple[Sequence[int], int]"]) -> Finish:
    """A game's :data:`Finish` from its compact loop: a world of the game's ``match`` class is
    made compact and played by ``play``; any other world, or one whose rules ``compact``
    refuses with ``refused`` (an option the loop does not play), is left to the move-by-move
    playout. Every game's loop is declared to the search this way."""

    def finish(state: MatchState, rng: random.Random) -> "tuple[Sequence[int], int] | None":
        if not isinstance(state, match):
            return None
        try:
            start = compact(state)
        except refused:
            return None
        return play(start, rng)

    return finish


class WholePlayout:
    """A playout policy that can also finish a deal in one call.

    Move by move, a playout pays the engine's per-move interface (a list of legal actions, a
    checked move, the trick's bookkeeping) for every move; a game whose rules have a loop of
    their own over a compact state plays the same policy several times faster (Peppa's:
    docs/performance.md). The search calls :attr:`finish` for the whole deal and this object,
    as a plain :data:`Policy`, only where a world needs the moves played one by one."""

    def __init__(self, step: Policy, finish: Finish) -> None:
        self.step = step
        """The same policy, one move at a time."""
        self.finish = finish

    def __call__(self, state: MatchState, rng: random.Random) -> None:
        self.step(state, rng)


def random_policy(state: MatchState, rng: random.Random) -> None:
    """A move drawn uniformly among the legal ones."""
    state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]


class TrickPolicy:
    """The rule of thumb above for a trick game whose card actions map to deck indices."""

    def __init__(
        self,
        card_index: Sequence[int] | None,
        avoid: bool,
        partners: Sequence[int] | None = None,
        epsilon: float = 0.1,
    ) -> None:
        self.card_index = card_index
        """Deck index (the 52-card numbering the trick play uses) of each card action; None
        when the actions are deck indices already."""
        self.avoid = avoid
        self.partners = partners
        """Each seat's partner in a partnership game."""
        self.epsilon = epsilon
        self._points: tuple[int, ...] | None = None

    def __call__(self, state: MatchState, rng: random.Random) -> None:
        state.apply_action(self.choose(state, rng))  # type: ignore[attr-defined]

    def choose(self, state: MatchState, rng: random.Random) -> int:
        actions = state.legal_actions()  # type: ignore[attr-defined]
        if len(actions) == 1 or state.phase != "play" or rng.random() < self.epsilon:  # type: ignore[attr-defined]
            return rng.choice(actions)
        return self.rule(state, actions, rng)

    def exact(self) -> "TrickPolicy":
        """The same rule without its random moves: what a model of the other seats reads
        (:class:`~.weighing.RuleModel`). A subclass with rules of its own keeps them."""
        twin = copy.copy(self)
        twin.epsilon = 0.0
        return twin

    def rule(self, state: MatchState, actions: Sequence[int], rng: random.Random) -> int:
        """The rule's action among ``actions``, more than one, in the trick play: what a game
        with more knowledge of its own overrides."""
        tricks = state.tricks  # type: ignore[attr-defined]
        ranking = tricks.ranking
        power, suit = ranking.power, ranking.suit_mask
        index = self.card_index
        cards = {(index[a] if index is not None else a): a for a in actions}
        trick = tricks.trick
        if not trick:
            pick = min if self.avoid else max
            return cards[pick(cards, key=lambda i: (power[i], rng.random()))]
        best_seat, best = tricks.winning()
        trump = tricks.trump_mask
        best_suit = suit[best]

        def beats(i: int) -> bool:
            return (suit[i] == best_suit and power[i] > power[best]) or (
                trump != 0 and suit[i] == trump and best_suit != trump
            )

        led = suit[trick[0][1]]
        if self.avoid:
            if all(suit[i] == led for i in cards):
                losers = [i for i in cards if not beats(i)]
                return cards[max(losers or cards, key=lambda i: power[i])]
            points = self._card_points(tricks)
            return cards[max(cards, key=lambda i: (points[i], power[i]))]
        partner_wins = self.partners is not None and self.partners[tricks.turn] == best_seat
        winners = [i for i in cards if beats(i)]
        if winners and not partner_wins:
            return cards[min(winners, key=lambda i: (suit[i] == trump, power[i]))]
        return cards[min(cards, key=lambda i: (suit[i] == trump, power[i]))]

    def _card_points(self, tricks: object) -> tuple[int, ...]:
        if self._points is None:
            points = tricks.trick_points  # type: ignore[attr-defined]
            self._points = tuple(points(1 << i, False) for i in range(52))
        return self._points
