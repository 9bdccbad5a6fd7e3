"""What a seat can infer in the trick games (Peppa, Il Pigugnìn, Pepper).

Every card a seat plays is public, so a seat knows its own hand and every card gone; the rest
is unseen. It also knows:

* **voids**: a seat that did not follow the led suit holds none of it (in Pepper the suit as
  the trump makes it: the left bower is a trump);
* **where some unseen cards are**: in Peppa the three cards it passed are in the receiver's
  hand until played; in Il Pigugnìn's first deal with ``first_hand_leader=seven_of_coins``
  the first leader was dealt the 7♦;
* in Peppa, the three cards it received were in the passer's dealt hand.

A Peppa world also needs the passes between other seats, which nobody told this seat: any
three cards of the receiver's hand after the pass will do, as nothing later depends on which.
Pepper's bids and contract are facts of the replay (every world replays them) but say nothing
certain about the hands, so they do not constrain the deal; asked to, the view weighs the
worlds by how well they fit the bids (:mod:`.pepper_bids`).
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence

from ...cards import Card
from ...games.peppa import pass_token
from ...games.pepper import BIDS, suit_under
from .pepper_bids import BidModel, weighted_draw
from .view import Header, SeatView, other_seats
from .worlds import ImpossibleView, Slot, allocate


def printed_suit(card: Card) -> str:
    return card.suit


class TrickView(SeatView):
    """The facts every trick game shares: the hand, the cards played, voids, known holders."""

    def __init__(self, header: Header) -> None:
        super().__init__(header)
        self.reset_deal()

    def reset_deal(self) -> None:
        self.hand: set[Card] = set()
        self.hand_size = 0
        self.played: list[list[Card]] = [[] for _ in range(self.n)]
        self.voids: list[set[str]] = [set() for _ in range(self.n)]
        self.known: list[set[Card]] = [set() for _ in range(self.n)]
        """Unseen cards known to be in a seat's hand now."""
        self.moves: list[tuple[int, str]] = []
        self.led: str | None = None
        self.trick_number = 0

    def category(self, card: Card) -> str:
        """The suit a card counts as when following."""
        return card.suit

    def on_event(self, words: list[str]) -> None:
        head = words[0]
        if head == "hand":
            self.hand = {Card.parse(w) for w in words[1:]}
            self.hand_size = len(self.hand)
        elif head == "trick":
            self.led = None
            self.trick_number = int(words[1])
            self.on_trick(int(words[2]))
        elif head == "play" and len(words) == 3:
            self._play(int(words[1]), Card.parse(words[2]))

    def on_trick(self, leader: int) -> None:
        """A trick begins; ``leader`` leads it."""

    def _play(self, seat: int, card: Card) -> None:
        suit = self.category(card)
        if self.led is None:
            self.led = suit
        elif suit != self.led:
            self.voids[seat].add(self.led)
        self.played[seat].append(card)
        self.known[seat].discard(card)
        self.hand.discard(card)
        self.moves.append((seat, card.text))

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
        slots = [Slot(s, holding[s] - len(self.known[s]), frozenset(self.voids[s])) for s in other_seats(self)]
        slots += self.unseen_places()
        dealt = allocate(pool, slots, self.category, rng)
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


class PeppaView(TrickView):
    """Peppa: the pass adds what this seat gave and received to what it knows."""

    def reset_deal(self) -> None:
        super().reset_deal()
        self.direction = "hold"
        self.gave: list[Card] = []
        self.target: int | None = None
        self.got: list[Card] = []
        self.giver: int | None = None
        self._pass_targets: list[int] | None = None
        self._passes: dict[int, list[Card]] = {}
        """The passes of the world last drawn, for :meth:`replay`."""

    def on_event(self, words: list[str]) -> None:
        head = words[0]
        if head == "passing":
            self.direction = words[1]
        elif head == "passed":
            self.target = int(words[1])
            self.gave = [Card.parse(w) for w in words[2:]]
            self.hand -= set(self.gave)
            self.known[self.target] |= set(self.gave)
        elif head == "received":
            self.giver = int(words[1])
            self.got = [Card.parse(w) for w in words[2:]]
            self.hand |= set(self.got)
        else:
            super().on_event(words)

    def _passing_done(self) -> bool:
        return self.direction != "hold" and self.giver is not None

    def deal_unseen(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        if self.direction != "hold" and not self._passing_done():
            if self.target is not None:
                raise ImpossibleView("this seat has no decision between its pass and the cards it receives")
            return self.current(rng)
        after = super().deal_unseen(rng)
        if self.direction == "hold":
            return after
        targets = self._targets()
        received: dict[int, list[Card]] = {}
        for s in range(self.n):
            if s == self.seat:
                received[s] = list(self.got)
            elif s == self.target:
                received[s] = list(self.gave)
            else:
                received[s] = rng.sample(list(after[s]), 3)
        dealt: dict[Hashable, list[Card]] = {}
        for s in range(self.n):
            kept = [c for c in after[s] if c not in received[s]]
            dealt[s] = kept + received[targets[s]]
        self._passes = {s: received[targets[s]] for s in range(self.n)}
        return dealt

    def _targets(self) -> list[int]:
        if self._pass_targets is None:
            assert self.start is not None
            probe = self.start.clone()
            probe.deal(self.deck)
            self._pass_targets = [probe.pass_target(s) for s in range(self.n)]  # type: ignore[attr-defined]
        return self._pass_targets

    def replay(self, dealt: Mapping[Hashable, Sequence[Card]]) -> list[tuple[int, str]]:
        if not self._passing_done():
            return self.moves
        passes = [(s, pass_token(self._passes[s])) for s in range(self.n)]
        return passes + self.moves


class PigugninView(TrickView):
    """Il Pigugnìn: with ``first_hand_leader=seven_of_coins`` the first leader was dealt 7♦."""

    SEVEN = Card.parse("7D")

    def on_trick(self, leader: int) -> None:
        first = self.trick_number == 1 and self.deal_number == 1
        if first and dict(self.header.options).get("first_hand_leader") == "seven_of_coins":
            if leader != self.seat and self.SEVEN not in self.played[leader]:
                self.known[leader].add(self.SEVEN)


class PepperView(TrickView):
    """Pepper: suits as the trump makes them, the auction replayed, and the dead hand."""

    def reset_deal(self) -> None:
        super().reset_deal()
        self.trump: str | None = None
        self._bid_model: BidModel | None = None

    def category(self, card: Card) -> str:
        bowers = dict(self.header.options).get("left_bower_is_trump", "true") == "true"
        return suit_under(card, self.trump, bowers)

    def on_event(self, words: list[str]) -> None:
        head = words[0]
        if head == "bid" and len(words) == 3:
            self.moves.append((int(words[1]), words[2]))
        elif head == "trump" and len(words) == 3:
            self.trump = None if words[2] == "NT" else words[2]
            self.moves.append((int(words[1]), words[2]))
        else:
            super().on_event(words)

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

        return weighted_draw(super().deal_unseen, weight, rng)

    def unseen_places(self) -> list[Slot]:
        if self.n != 2:
            return []
        return [Slot("dead", len(self.deck) - 2 * self.hand_size)]

