"""What Pepper's bids say about the hands: a soft weight on the worlds a search draws.

Every deal makes the same bids legal, so the auction cannot rule a world out; but a seat that
bid 4 rarely holds a hand worth one trick, and a seat that passed when 1 was open rarely holds
three sure tricks. The search weighs each world it draws by how well every other seat's
dealt hand fits its bids, as judged by the heuristic's trick count (the model of a sensible
bidder the players share), and keeps a world with that weight as its chance (rejection
sampling, :func:`~cardcli.players.search.weighing.accepted_draw`, beside the search's other
weighed draw, which says when each fits). The weight is never zero unless ``bids=0``: a bot
that bids wildly only makes the worlds less sharp, never impossible.

It is off unless asked for (``ismcts:bids=0.35``): over the same 100 deals it changed the
player's points by -0.02 with 3 players and +0.02 with 4, both well inside the noise, while
making the decisions about a fifth slower (docs/players.md).
"""

from __future__ import annotations

from typing import Sequence

from ...cards import Card
from .heuristic import PepperHeuristic


class BidModel:
    """Scores a seat's dealt hand against the bids it made, for one deal's auction."""

    def __init__(self, num_players: int, hand_size: int, options: dict[str, str], miss: float) -> None:
        self.miss = miss
        """The weight kept per trick a bid is off from the hand's count."""
        self.num_players = num_players
        self.hand_size = hand_size
        self.counters = [PepperHeuristic(s, num_players, options) for s in range(num_players)]

    def value(self, token: str) -> int:
        """The tricks a bid promises: its number, or every trick for a Pepper."""
        return int(token) if token.isdigit() else self.hand_size

    def tricks(self, seat: int, hand: Sequence[Card]) -> float:
        return self.counters[seat].best_estimate(set(hand))

    def weight(self, seat: int, hand: Sequence[Card], bids: Sequence[tuple[int, str]]) -> float:
        """How well ``seat``'s dealt ``hand`` fits the auction ``bids`` (seat, token), in (0, 1]."""
        tricks = self.tricks(seat, hand)
        weight = 1.0
        high: tuple[int, int] | None = None
        for bidder, token in bids:
            if bidder == seat:
                if token != "pass":
                    weight *= self.miss ** max(0.0, self.value(token) - tricks)
                elif not self._partner_holds(seat, high):
                    lowest = high[1] + 1 if high else 1
                    weight *= self.miss ** max(0.0, tricks - lowest)
            if token != "pass":
                high = (bidder, self.value(token))
        return weight

    def _partner_holds(self, seat: int, high: tuple[int, int] | None) -> bool:
        return self.num_players == 4 and high is not None and high[0] == (seat + 2) % 4
