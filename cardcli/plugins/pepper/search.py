"""Pepper's hooks for the search player: suits as the trump makes them, the auction and the
dead hand in its worlds, the rule-of-thumb playouts with partners (the heuristic's bids and
trump, the trick-taking rule; played by the compact loop of :mod:`.playout`, whole deals at a
time), and the bids searched one move deep.

A bid is searched flat: each bid the seat may make is judged by playouts from just after it,
in which every seat bids, names the trump and plays by the rule. A tree over everyone's bids
grown within the budget judged the later bids by a few visits each, and searched that way the
bids did worse than the heuristic's; flat, they do better (docs/players.md). The trump, once
the auction is over, is searched in the tree: that gains.
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence, cast

from ...cards import Card
from ...games.base import MatchState
from ...players.search.hooks import SearchHooks
from ...players.search.playouts import Finish, Policy, TrickPolicy, compact_finish
from ...players.search.trick_view import TrickView
from ...players.search.view import other_seats
from ...players.search.weighing import accepted_draw
from ...players.search.worlds import Slot
from .bids import BidModel
from .playout import (
    GREEDY,
    RANDOM,
    UnsupportedRules,
    actions_mask,
    compact,
    finish_deal,
    greedy_bid,
    greedy_trump,
    numbered,
)
from .rules import BID, BIDS, CARD_ACTIONS, TRUMP, TRUMPS, PepperMatch, action_of


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


class PepperRulePolicy(TrickPolicy):
    """TrickPolicy's trick play, and the heuristic's bids and trump (:func:`.playout.greedy_bid`,
    :func:`.playout.greedy_trump`), each but a random move with TrickPolicy's probability: the
    rule the compact loop's ``greedy`` playouts play, move by move through the engine."""

    def choose(self, state: MatchState, rng: random.Random) -> int:
        match = cast(PepperMatch, state)
        phase = match.phase
        if phase is not BID and phase is not TRUMP:
            return super().choose(state, rng)
        (decision,) = match.decisions()
        moves = decision.moves
        if len(moves) == 1 or rng.random() < self.epsilon:
            return action_of(rng.choice(moves))
        left_bower = bool(match.options.left_bower_is_trump)
        hand = actions_mask(match.hand_masks[decision.seat])
        if phase is TRUMP:
            return action_of(TRUMPS[greedy_trump(hand, [TRUMPS.index(m) for m in moves], left_bower)])
        levels = match.levels
        level = levels.index(match.high[1]) + 1 if match.high else 0
        partnered = match.num_players == 4
        over_partner = partnered and match.high is not None and match.high[0] == (decision.seat + 2) % 4
        bid = greedy_bid(hand, level, numbered(levels), "pass" not in moves, over_partner, left_bower, partnered)
        return action_of(levels[bid - 1] if bid else "pass")


def rule_policy(num_players: int) -> Policy:
    partners = [(s + 2) % 4 for s in range(4)] if num_players == 4 else None
    return PepperRulePolicy(CARD_ACTIONS.index_of, avoid=False, partners=partners)


def whole_playout(playout: str) -> Finish:
    """The compact loop of :mod:`.playout` playing what :func:`policy_for` gives for
    ``playout``: :class:`PepperRulePolicy`'s rule (the same epsilon) for ``rule``, uniformly
    random moves otherwise (Pepper has no card-first policy: ``card`` is random too). The
    moves counted are the ones the loop played, bids included."""
    policy = GREEDY if playout == "rule" else RANDOM
    epsilon = TrickPolicy(CARD_ACTIONS.index_of, avoid=False).epsilon

    return compact_finish(PepperMatch, compact, UnsupportedRules, lambda start, rng: finish_deal(start, rng, policy, epsilon))


SEARCH = SearchHooks(view=PepperView, flat=frozenset({"bid"}), rule_policy=rule_policy,
                     whole_playout=whole_playout, house_iterations=(100, 400))
"""``house:4`` searches 100 iterations: at 50 it was not told apart from the heuristic with 3
and 4 players (+0.08 and +0.05 points a deal, intervals across zero, on 200 duplicate deals;
at 100, +0.11 and +0.17, clear of it; docs/performance.md)."""
