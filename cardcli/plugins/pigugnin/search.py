"""Il Pigugnìn's hooks for the search player: the 7♦ that a rule places, and the penalty
games' playouts over its card actions (played by the compact loop of :mod:`.playout`, whole
deals at a time)."""

from __future__ import annotations


from ...cards import Card
from ...players.search.hooks import SearchHooks
from ...players.search.playouts import Finish, Policy, TrickPolicy, compact_finish
from ...players.search.trick_view import TrickView
from .playout import GREEDY, RANDOM, UnsupportedRules, compact, moves_left, play_deal
from .rules import CARD_ACTIONS, PigugninMatch


class PigugninView(TrickView):
    """Il Pigugnìn: with ``first_hand_leader=seven_of_coins`` the first leader was dealt 7♦."""

    SEVEN = Card.parse("7D")

    def on_trick(self, leader: int) -> None:
        first = self.trick_number == 1 and self.deal_number == 1
        if first and dict(self.header.options).get("first_hand_leader") == "seven_of_coins":
            if leader != self.seat and self.SEVEN not in self.played[leader]:
                self.known[leader].add(self.SEVEN)


def rule_policy(num_players: int) -> Policy:
    return TrickPolicy(CARD_ACTIONS.index_of, avoid=True)


def whole_playout(playout: str) -> Finish:
    """The compact loop of :mod:`.playout` playing what :func:`policy_for` gives for
    ``playout``: TrickPolicy's penalty-game rule (same epsilon) for ``rule``, uniformly random
    cards otherwise (Il Pigugnìn has no card-first policy: ``card`` is random too). The deal's
    busche are what the search's rewards read, as they read the engine's deal score."""
    policy = GREEDY if playout == "rule" else RANDOM
    epsilon = TrickPolicy(CARD_ACTIONS.index_of, avoid=True).epsilon

    return compact_finish(PigugninMatch, compact, UnsupportedRules, lambda start, rng: (play_deal(start, rng, policy, epsilon), moves_left(start)))


SEARCH = SearchHooks(view=PigugninView, rule_policy=rule_policy, whole_playout=whole_playout)
