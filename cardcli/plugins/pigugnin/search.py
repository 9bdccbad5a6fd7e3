"""Il Pigugnìn's hooks for the search player: the 7♦ that a rule places, and its rule of thumb
for the playouts (played by the compact loop of :mod:`.playout`, whole deals at a time)."""

from __future__ import annotations


import functools
import operator
import random
from typing import Sequence

from ...cards import Card
from ...games.base import MatchState
from ...players.search.hooks import SearchHooks
from ...players.search.playouts import Finish, Policy, TrickPolicy, compact_finish
from ...players.search.trick_view import TrickView
from .heuristic import LATE_TRICKS
from .playout import (
    BLOCK, COMPACT_OF, GREEDY, PIG, PIG_BIT, RANDOM, UnsupportedRules, compact, compact_mask, follow_for_a_trick,
    lead_for_a_trick, moves_left, play_deal, weakest,
)
from .rules import CARD_ACTIONS, PigugninMatch


class PigugninView(TrickView):
    """Il Pigugnìn: with ``first_hand_leader=seven_of_coins`` the first leader was dealt 7♦."""

    SEVEN = Card.parse("7D")

    def on_trick(self, leader: int) -> None:
        first = self.trick_number == 1 and self.deal_number == 1
        if first and dict(self.header.options).get("first_hand_leader") == "seven_of_coins":
            if leader != self.seat and self.SEVEN not in self.played[leader]:
                self.known[leader].add(self.SEVEN)


class PigugninPolicy(TrickPolicy):
    """Il Pigugnìn's rule of thumb move by move: the penalty games' rule, but the J♠ is thrown
    first when void, and a seat with no trick yet plays for one, as the game's heuristic does.
    The rule itself is the compact loop's (:mod:`.playout`, its ``greedy``), read here on the
    engine's state, so that the two cannot drift apart.

    The plain penalty rule plays every seat as if it wanted no trick at all, so almost half its
    deals ended with a seat that took none (46% from the deal, against 9% in the heuristic's
    own games), and in those the seats with a trick count no points: a search finishing its
    deals that way was told that the deal would often be void for it."""

    def rule(self, state: MatchState, actions: Sequence[int], rng: random.Random) -> int:
        tricks = state.tricks  # type: ignore[attr-defined]
        seat = tricks.turn
        index = self.card_index
        assert index is not None
        action_of = {COMPACT_OF[index[a]]: a for a in actions}
        legal = sum(1 << card for card in action_of)
        needy = not tricks.tricks_won[seat]
        left = tricks.total - tricks.number
        card = -1
        if not tricks.trick:
            if needy:
                others = functools.reduce(operator.or_, (h for s, h in enumerate(tricks.hands) if s != seat), 0)
                card = lead_for_a_trick(legal, compact_mask(others), left)
        else:
            played = [COMPACT_OF[c] for _, c in tricks.trick]
            shift = played[0] - played[0] % 10
            follow = legal >> shift & BLOCK
            if not follow:
                if legal & PIG_BIT:
                    card = PIG
                elif needy:
                    card = weakest(legal, rng.random)
            elif needy:
                best = max(c for c in played if shift <= c < shift + 10)
                card = follow_for_a_trick(follow, shift, best, sum(1 << c for c in played), left == 1,
                                          left <= LATE_TRICKS, len(played) == tricks.num_players - 1)
        return action_of[card] if card >= 0 else super().rule(state, actions, rng)


def rule_policy(num_players: int) -> Policy:
    return PigugninPolicy(CARD_ACTIONS.index_of, avoid=True)


def whole_playout(playout: str) -> Finish:
    """The compact loop of :mod:`.playout` playing what :func:`policy_for` gives for
    ``playout``: :class:`PigugninPolicy`'s rule (same epsilon) for ``rule``, uniformly random
    cards otherwise (Il Pigugnìn has no card-first policy: ``card`` is random too). The deal's
    busche are what the search's rewards read, as they read the engine's deal score."""
    policy = GREEDY if playout == "rule" else RANDOM
    epsilon = PigugninPolicy(CARD_ACTIONS.index_of, avoid=True).epsilon

    return compact_finish(PigugninMatch, compact, UnsupportedRules, lambda start, rng: (play_deal(start, rng, policy, epsilon), moves_left(start)))


SEARCH = SearchHooks(view=PigugninView, rule_policy=rule_policy, whole_playout=whole_playout)
