"""The shared strategy of the trick games where every point taken is a penalty: duck tricks,
dump points on others.

It reads its hand and the cards played so far from the seat's view, so it knows which cards
are still *outstanding* (in another hand). A game's heuristic
subclasses it and gives its rank order, its points and its pass (``power``, ``points``,
``cost``, ``discard_priority``, ``choose_pass``); the lead, follow and discard rules are here.
"""

from __future__ import annotations

from typing import AbstractSet, Iterable, Sequence

from ..cards import Card, french_52
from .heuristic import Strategy


class TrickAvoider(Strategy):
    """A no-trump trick game where every point taken is a penalty."""

    deck: tuple[Card, ...] = french_52()

    # -- what the seat knows, from its view ---------------------------------------------------
    @property
    def hand(self) -> set[Card]:
        return set(self.view.hand)

    @property
    def seen(self) -> AbstractSet[Card]:
        """The cards played in this deal."""
        return self.view.seen()

    @property
    def trick(self) -> list[tuple[int, Card]]:
        return self.view.trick

    @property
    def trick_number(self) -> int:
        return self.view.trick_number

    @property
    def tricks_won(self) -> int:
        tricks = self.view.tricks
        return tricks[self.seat] if self.seat < len(tricks) else 0

    # -- hooks ----------------------------------------------------------------------------
    def power(self, card: Card) -> int:
        """Strength within its suit (higher wins)."""
        return card.rank

    def points(self, card: Card) -> int:
        """Penalty points the card gives to whoever takes it."""
        return 0

    def cost(self, card: Card) -> int:
        """What winning a trick with this card costs by the card alone (its points by default)."""
        return self.points(card)

    def discard_priority(self, card: Card) -> tuple[int, ...]:
        """Larger means: get rid of it first when void in the led suit."""
        return (self.points(card), self.power(card))

    # -- helpers --------------------------------------------------------------------------
    def outstanding(self) -> set[Card]:
        """Cards neither in this hand nor played: they sit in another hand."""
        return set(self.deck) - self.hand - self.seen

    def trick_points(self) -> int:
        return sum(self.points(c) for _, c in self.trick)

    def winning_power(self) -> int:
        led = self.trick[0][1].suit
        return max(self.power(c) for _, c in self.trick if c.suit == led)

    def is_last(self) -> bool:
        return len(self.trick) == self.num_seats - 1

    # -- decisions ------------------------------------------------------------------------
    def choose(self, kind: str, moves: Sequence[str]) -> str:
        if kind == "pass":
            return self.choose_pass(moves)
        if kind != "play":
            return moves[0]
        cards = [Card.parse(m) for m in moves]
        if not self.trick:
            return self.lead(cards).text
        led = self.trick[0][1].suit
        following = [c for c in cards if c.suit == led]
        return (self.follow(following) if following else self.discard(cards)).text

    def choose_pass(self, moves: Sequence[str]) -> str:
        return moves[0]

    def lead(self, cards: list[Card]) -> Card:
        out = self.outstanding()

        def risk(card: Card) -> tuple[int, int, int, int]:
            same = [c for c in out if c.suit == card.suit]
            below = sum(1 for c in same if self.power(c) < self.power(card))
            sure_win = 100 if not same else 0
            return (below + sure_win, self.points(card), -len(same), self.power(card))

        return min(cards, key=risk)

    def follow(self, cards: list[Card]) -> Card:
        best = self.winning_power()
        losing = [c for c in cards if self.power(c) < best]
        clean = [c for c in cards if self.cost(c) == 0]
        if self.is_last() and self.trick_points() == 0 and clean:
            return self.highest(clean)
        if losing:
            return self.highest(losing)
        cheapest = min(self.cost(c) for c in cards)
        return self.highest(c for c in cards if self.cost(c) == cheapest)

    def discard(self, cards: list[Card]) -> Card:
        return max(cards, key=self.discard_priority)

    def highest(self, cards: Iterable[Card]) -> Card:
        return max(cards, key=self.power)
