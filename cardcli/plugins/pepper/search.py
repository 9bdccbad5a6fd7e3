"""Pepper's hooks for the search player: suits as the trump makes them, the auction and the
dead hand in its worlds, the trick-taking playouts with partners (played by the compact loop
of :mod:`.playout`, whole deals at a time), and the bids left to the heuristic.

The heuristic makes Pepper's bids by default: they lie deep in a tree of everyone's bids, and
the search makes them worse within its budget (measured in docs/players.md). The trump, once
the auction is over, is searched: that gains.
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence

from ...cards import Card
from ...players.search.hooks import SearchHooks
from ...players.search.playouts import Finish, Policy, TrickPolicy, compact_finish
from ...players.search.trick_view import TrickView
from ...players.search.view import other_seats
from ...players.search.weighing import accepted_draw
from ...players.search.worlds import Slot
from .bids import BidModel
from .playout import GREEDY, RANDOM, UnsupportedRules, compact, finish_deal
from .rules import BIDS, CARD_ACTIONS, PepperMatch


class PepperView(TrickView):
    """Pepper: the auction and the trump replayed (the game's view has them among its moves,
    and counts suits as the trump makes them), worlds weighed by the bids, and the dead hand."""

    def reset_deal(self) -> None:
        super().reset_deal()
        self._bid_model: BidModel | None = None

    def deal_unseen(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        if self.bid_weight >= 1:
            return super().deal_unseen(rng)
        bids = [(s, t) for s, t in self.moves if t in BIDS]
        if not bids:
            return super().deal_unseen(rng)
        if self._bid_model is None:
            self._bid_model = BidModel(self.n, self.hand_size, dict(self.header.options), self.bid_weight)
        model = self._bid_model

        def weight(dealt: Mapping[Hashable, Sequence[Card]]) -> float:
            w = 1.0
            for s in other_seats(self):
                w *= model.weight(s, dealt[s], bids)
            return w

        return accepted_draw(super().deal_unseen, weight, rng)

    def unseen_places(self) -> list[Slot]:
        if self.n != 2:
            return []
        return [Slot("dead", len(self.deck) - 2 * self.hand_size)]


def rule_policy(num_players: int) -> Policy:
    partners = [(s + 2) % 4 for s in range(4)] if num_players == 4 else None
    return TrickPolicy(CARD_ACTIONS.index_of, avoid=False, partners=partners)


def whole_playout(playout: str) -> Finish:
    """The compact loop of :mod:`.playout` playing what :func:`policy_for` gives for
    ``playout``: TrickPolicy's trick-taking rule (same epsilon, random bids and trump) for
    ``rule``, uniformly random moves otherwise (Pepper has no card-first policy: ``card`` is
    random too). The moves counted are the ones the loop played, bids included."""
    policy = GREEDY if playout == "rule" else RANDOM
    epsilon = TrickPolicy(CARD_ACTIONS.index_of, avoid=False).epsilon

    return compact_finish(PepperMatch, compact, UnsupportedRules, lambda start, rng: finish_deal(start, rng, policy, epsilon))


SEARCH = SearchHooks(view=PepperView, delegated=frozenset({"bid"}), rule_policy=rule_policy,
                     whole_playout=whole_playout, house_iterations=(100, 400))
"""``house:4`` searches 100 iterations: at 50 it was not told apart from the heuristic with 3
and 4 players (+0.08 and +0.05 points a deal, intervals across zero, on 200 duplicate deals;
at 100, +0.11 and +0.17, clear of it; docs/performance.md)."""
