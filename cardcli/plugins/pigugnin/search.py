"""Il Pigugnìn's hooks for the search player: the 7♦ that a rule places, and the penalty
games' playouts over its card actions."""

from __future__ import annotations

from ...cards import Card
from ...players.search.hooks import SearchHooks
from ...players.search.playouts import Policy, TrickPolicy
from ...players.search.trick_view import TrickView
from .rules import CARD_ACTIONS


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


SEARCH = SearchHooks(view=PigugninView, rule_policy=rule_policy)
