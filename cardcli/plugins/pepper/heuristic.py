"""Pepper: bid what the hand will surely take, name its strongest suit, win tricks for the side.

Made contracts score their tricks and every side scores its tricks anyway, while a set costs
6 to 16 points, so the strategy bids only what it expects to take:

* **Estimate** per possible trump: the right bower 1, the left bower 0.8 (1 behind the right),
  the trump ace 0.9, the trump king 0.6 (0.3 when short), 0.5 for each trump beyond the third;
  off-suit aces 0.8, a king beside its ace 0.4. No-trump counts aces 1 and kings beside an ace
  0.6. With 4 players the partner is worth one more trick.
* **Bid** the lowest offered number that does not exceed the best estimate (rounded down),
  never over its own partner and never a Pepper; pass otherwise (a stuck dealer bids the
  lowest offer).
* **Trump**: the suit with the best estimate, or NT when no-trump estimates half a trick more.
* **Play**: when the partner is winning the trick, the lowest card. Otherwise a card that wins
  (the lowest winner when playing last, else the highest), or the lowest card when none can.
  Leading: the highest trump when it is the top trump still out and the side declared, else a
  card no outstanding card of its suit beats, else the lowest card. Following suit is already
  enforced by the offered moves.
"""

from __future__ import annotations

from typing import AbstractSet, Sequence

from ...cards import Card, french_24
from .rules import SAME_COLOUR
from .view import PepperView
from ...players.heuristic import Strategy


class PepperHeuristic(Strategy):
    """Pepper: cautious bidding on counted tricks, then win tricks unless the partner has it."""

    def __init__(self, seat: int, num_seats: int, options: dict[str, str]):
        super().__init__(seat, num_seats, options)
        self.left_bower = options.get("left_bower_is_trump", "true") == "true"
        self.partner = (seat + 2) % 4 if num_seats == 4 else None
        self.view: PepperView = PepperView()

    # -- what the seat knows, from its view -----------------------------------------------------
    @property
    def hand(self) -> set[Card]:
        return set(self.view.hand)

    @property
    def seen(self) -> AbstractSet[Card]:
        return self.view.seen()

    @property
    def trick(self) -> list[tuple[int, Card]]:
        return self.view.trick

    @property
    def trump(self) -> str | None:
        return self.view.trump

    @property
    def declarer(self) -> int:
        return self.view.declarer

    @property
    def high_bidder(self) -> int:
        return self.view.high_bidder

    # -- card order -------------------------------------------------------------------------
    def suit(self, card: Card, trump: str | None) -> str:
        """The effective suit: the left bower belongs to the trump suit."""
        if trump and self.left_bower and card.rank == 11 and card.suit == SAME_COLOUR[trump]:
            return trump
        return card.suit

    def power(self, card: Card, led: str | None = None) -> int:
        """Trick strength: trumps above the led suit above the rest (0)."""
        suit = self.suit(card, self.trump)
        if self.trump and suit == self.trump:
            if card.rank == 11:
                return 40 if card.suit == self.trump else 39
            return 20 + card.rank
        return card.rank if led is None or suit == led else 0

    # -- bidding ----------------------------------------------------------------------------
    def estimate(self, trump: str | None, hand: AbstractSet[Card] | None = None) -> float:
        """Tricks the side should take with ``trump`` (a suit letter, or None for no-trump),
        holding ``hand`` (the seat's own by default; a search weighs other seats' possible
        hands with it)."""
        hand = self.hand if hand is None else hand
        tricks = 0.0
        for suit in "CDHS":
            cards = [c for c in hand if self.suit(c, trump) == suit]
            held = {c.rank for c in cards if not (suit == trump and c.rank == 11)}
            if suit == trump:
                right = Card.parse("J" + trump) in hand
                left = self.left_bower and Card.parse("J" + SAME_COLOUR[trump]) in hand
                length = len(cards)
                tricks += right + (1.0 if right else 0.8) * left + 0.9 * (14 in held)
                tricks += (0.6 if length >= 3 else 0.3) * (13 in held) + 0.5 * max(0, length - 3)
            elif trump is None:
                tricks += (14 in held) + 0.6 * (13 in held and 14 in held)
            else:
                tricks += 0.8 * (14 in held) + 0.4 * (13 in held and 14 in held)
        return tricks + (1.0 if self.partner is not None else 0.0)

    def best_estimate(self, hand: AbstractSet[Card] | None = None) -> float:
        """The tricks the side should take under its best trump or no-trump."""
        return max(self.estimate(t, hand) for t in ("C", "D", "H", "S", None))

    def choose(self, kind: str, moves: Sequence[str]) -> str:
        if kind == "bid":
            return self.bid(moves)
        if kind == "trump":
            return max(moves, key=self.trump_value)
        if kind == "play":
            return self.play([Card.parse(m) for m in moves]).text
        return moves[0]

    def trump_value(self, token: str) -> float:
        """The estimate under that trump; no-trump must beat the suits by half a trick."""
        return self.estimate(None) - 0.5 if token == "NT" else self.estimate(token)

    def bid(self, moves: Sequence[str]) -> str:
        numbers = [m for m in moves if m.isdigit()]
        if "pass" in moves and self.partner is not None and self.high_bidder == self.partner:
            return "pass"
        best = int(self.best_estimate())
        fitting = [m for m in numbers if int(m) <= best]
        if fitting:
            return min(fitting, key=int)
        if "pass" in moves:
            return "pass"
        return min(numbers, key=int) if numbers else moves[0]

    # -- play -------------------------------------------------------------------------------
    def outstanding(self) -> set[Card]:
        return set(french_24()) - self.hand - self.seen

    def top(self, card: Card) -> bool:
        """No outstanding card of its effective suit is stronger."""
        suit = self.suit(card, self.trump)
        return all(self.power(c, suit) < self.power(card, suit)
                   for c in self.outstanding() if self.suit(c, self.trump) == suit)

    def lowest(self, cards: list[Card]) -> Card:
        return min(cards, key=lambda c: (self.power(c) >= 20, c.rank))

    def play(self, cards: list[Card]) -> Card:
        if not self.trick:
            return self.lead(cards)
        led = self.suit(self.trick[0][1], self.trump)
        winner, best = max(((s, self.power(c, led)) for s, c in self.trick), key=lambda p: p[1])
        if self.partner is not None and winner == self.partner:
            return self.lowest(cards)
        winners = [c for c in cards if self.power(c, led) > best]
        if not winners:
            return self.lowest(cards)
        last = len(self.trick) == self.num_seats - 1
        return (min if last else max)(winners, key=lambda c: self.power(c, led))

    def lead(self, cards: list[Card]) -> Card:
        declaring = self.declarer in (self.seat, self.partner)
        trumps = [c for c in cards if self.trump and self.suit(c, self.trump) == self.trump]
        if declaring and trumps:
            high = max(trumps, key=self.power)
            if self.top(high):
                return high
        sure = [c for c in cards if c not in trumps and self.top(c)]
        if sure:
            return max(sure, key=lambda c: c.rank)
        return self.lowest(cards)

