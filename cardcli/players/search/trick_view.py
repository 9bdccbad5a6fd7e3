"""What a seat can infer in a trick game, for the search player.

Every card a seat plays is public, so a seat knows its own hand and every card gone; the rest
is unseen. It also knows **voids**: a seat that did not follow the led suit holds none of it,
in the suits as the game counts them when following (:meth:`TrickView.category`: a trump
may change a card's suit). A game adds what else its seat learns (cards it passed, a card a
rule placed, bids that make some hands likelier) in a subclass in its own folder
(``search.py``).
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence

from ...cards import Card
from .view import Header, SeatView, other_seats
from .worlds import Slot, allocate


def printed_suit(card: Card) -> str:
    return card.suit


class TrickView(SeatView):
    """The facts every trick game shares: the hand, the cards played, voids, known holders."""

    def __init__(self, header: Header) -> None:
        super().__init__(header)
        self.reset_deal()

    def reset_deal(self) -> None:
        self.hand_size = 0
        """The cards the seat was dealt in this deal."""
        self.known: list[set[Card]] = [set() for _ in range(self.n)]
        """Unseen cards known to be in a seat's hand now."""

    # -- what the seat was told, from the game's seat view ---------------------------------

    @property
    def hand(self) -> set[Card]:
        return set(self.info.hand)

    @property
    def played(self) -> list[list[Card]]:
        return self.info.played

    @property
    def voids(self) -> list[set[str]]:
        return self.info.voids

    @property
    def moves(self) -> list[tuple[int, str]]:
        return self.info.moves

    @property
    def trick_number(self) -> int:
        return self.info.trick_number

    def category(self, card: Card) -> str:
        """The suit a card counts as when following, as the game's view counts it."""
        return self.info.category(card)

    def kind(self, card: Card) -> str:
        """The kind of card a seat's refusals name when the unseen cards are dealt: its
        :meth:`category`, unless a game tells some cards apart (Peppa's Q♠)."""
        return self.category(card)

    def refusals(self, seat: int) -> frozenset[str]:
        """The kinds of card ``seat`` cannot hold now: its voids, and whatever else its game
        infers."""
        return frozenset(self.voids[seat])

    # -- what the seat infers ---------------------------------------------------------------

    def on_event(self, words: list[str]) -> None:
        head = words[0]
        if head == "hand":
            self.hand_size = len(words) - 1
        elif head == "trick":
            self.on_trick(int(words[2]))
        elif head == "play" and len(words) == 3:
            self.known[int(words[1])].discard(Card.parse(words[2]))

    def on_trick(self, leader: int) -> None:
        """A trick begins; ``leader`` leads it."""

    # -- worlds -----------------------------------------------------------------------------

    def holding(self) -> list[int]:
        """How many cards each seat holds now."""
        return [self.hand_size - len(self.played[s]) for s in range(self.n)]

    def unseen_places(self) -> list[Slot]:
        """The places unseen cards are now, besides the other seats' hands: a dead hand."""
        return []

    def current(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        """Every seat's hand now (and any other place), the unseen cards drawn at random."""
        holding = self.holding()
        gone = {c for cards in self.played for c in cards}
        placed = set().union(*self.known)
        pool = [c for c in self.deck if c not in gone and c not in self.hand and c not in placed]
        slots = [Slot(s, holding[s] - len(self.known[s]), self.refusals(s)) for s in other_seats(self)]
        slots += self.unseen_places()
        dealt = allocate(pool, slots, self.kind, rng)
        for s in other_seats(self):
            dealt[s] += self.known[s]
        dealt[self.seat] = sorted(self.hand, key=lambda c: c.sort_key)
        return dealt

    def deal_unseen(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        dealt = self.current(rng)
        for s in range(self.n):
            dealt[s] = dealt[s] + self.played[s]
        return dealt

    def replay(self, dealt: Mapping[Hashable, Sequence[Card]]) -> list[tuple[int, str]]:
        return self.moves
