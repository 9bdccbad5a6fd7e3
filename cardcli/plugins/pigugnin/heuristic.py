"""Il Pigugnìn: take few points, but at least one trick, and pass the J♠ to somebody else.

It plays like the Peppa strategy (:class:`~.peppa_heuristic.TrickAvoider`: lead the card least
likely to win, duck under the winning card, dump points when void), with Pigugnìn's trick rank
3 2 A K Q J 7 6 5 4 and card points (ace 3; 2, 3, K, Q, J 1; the last trick 3 more). Two
things differ:

* **One trick is needed**: a seat with no trick pays 2 busche or more, while 11 points cost
  nothing. Until it has a trick it keeps its strong cards (it follows and discards its weakest
  card), and it wins a trick whenever the trick and its own card cost 6 points or less: with
  the cheapest winning card when it plays last, else with its strongest. Leading (only the
  first trick can be led without a trick), it leads a card no outstanding card can beat. In
  the last three tricks it plays its strongest card at any cost.
* **The Pigugnìn (J♠)** costs a busca to whoever takes it: it counts as 4 more points when
  choosing a card to win with, it is the first card discarded when void and the card played
  under a winning spade, and it is led only when at least three stronger spades are still out.
"""

from __future__ import annotations

from ...cards import Card, french_40
from .rules import LAST_TRICK, PIGUGNIN, POWER, card_points
from ...players.trick_avoider import TrickAvoider

CHEAP_TRICK = 6
"""Points a seat without a trick accepts to take its first one."""
PIGUGNIN_COST = 4
"""The J♠'s busca counted in points, when choosing which card wins a trick."""
LATE_TRICKS = 3
"""In this many last tricks a seat without a trick tries to win at any cost."""


class PigugninHeuristic(TrickAvoider):
    """Il Pigugnìn: avoid points and the J♠, yet make sure of one trick per deal."""

    deck = french_40()

    def power(self, card: Card) -> int:
        return POWER[card.rank]

    def points(self, card: Card) -> int:
        return card_points(card)

    def cost(self, card: Card) -> int:
        return self.points(card) + (PIGUGNIN_COST if card == PIGUGNIN else 0)

    def discard_priority(self, card: Card) -> tuple[int, ...]:
        return (card == PIGUGNIN, self.points(card), self.power(card))

    @property
    def tricks_per_deal(self) -> int:
        return len(self.deck) // self.num_seats

    def needs_trick(self) -> bool:
        return self.tricks_won == 0

    def late(self) -> bool:
        return self.tricks_per_deal - self.trick_number < LATE_TRICKS

    def trick_points(self) -> int:
        last = LAST_TRICK if self.trick_number == self.tricks_per_deal else 0
        return super().trick_points() + last

    def discard(self, cards: list[Card]) -> Card:
        if self.needs_trick():
            return max(cards, key=lambda c: (c == PIGUGNIN, -self.power(c)))
        return super().discard(cards)

    def sure(self, card: Card) -> bool:
        """No outstanding card of its suit is stronger: the card wins if it leads or follows."""
        out = self.outstanding()
        return all(self.power(c) < self.power(card) for c in out if c.suit == card.suit)

    def lead(self, cards: list[Card]) -> Card:
        if self.needs_trick():
            sure = [c for c in cards if self.sure(c) and c != PIGUGNIN]
            if sure:
                return min(sure, key=lambda c: (self.cost(c), self.power(c)))
            if self.late():
                return max(cards, key=lambda c: (self.power(c), -self.cost(c)))
        out = self.outstanding()
        stronger = sum(1 for c in out if c.suit == "S" and self.power(c) > self.power(PIGUGNIN))
        if PIGUGNIN in cards and stronger >= 3:
            return PIGUGNIN
        safe = [c for c in cards if c != PIGUGNIN] or cards
        return super().lead(safe)

    def follow(self, cards: list[Card]) -> Card:
        best = self.winning_power()
        winners = [c for c in cards if self.power(c) > best and c != PIGUGNIN]
        if self.needs_trick() and winners:
            if self.late():
                return max(winners, key=self.power)
            cheap = [c for c in winners if self.trick_points() + self.cost(c) <= CHEAP_TRICK]
            if cheap and self.is_last():
                return min(cheap, key=lambda c: (self.cost(c), self.power(c)))
            if cheap:
                return max(cheap, key=self.power)
        if self.needs_trick():
            dump = PIGUGNIN if PIGUGNIN in cards and self.power(PIGUGNIN) < best else None
            return dump or min(cards, key=self.power)
        return super().follow(cards)

