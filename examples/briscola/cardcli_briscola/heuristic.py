"""The heuristic player of Briscola (``--seat heuristic``): a few plain rules, no search.

It knows only what its seat is told (the protocol lines, docs/protocol.md), and reads it from
the seat's view (``view.py``, kept from those lines by the heuristic player): its hand (the
``hand`` line, plus its own ``draw`` lines, less its own plays), the trump (the ``briscola``
line), the trick on the table and, with four players, who its partner is (the seat opposite).
The rules, in the order they are tried:

1. **Leading**, play the card that risks least: a *liscio* (a card worth nothing) of a plain
   suit, the lowest first; then the figures (K, Q, J) of a plain suit, the cheapest first;
   then the trumps, the lowest first. An ace or a three is led only when the hand holds
   nothing else: led, it is an open invitation to be taken.
2. **A partner is winning the trick** (four players): when this seat plays last, the trick is
   the side's, so *load* it: the plain card worth most (an ace or a three if there is one);
   when an opponent still plays after, throw as in rule 4.
3. **An opponent is winning the trick**: take it when it is worth it, with the cheapest card
   that takes it:

   * with a card of the suit led that beats the winning one, whenever the trick and that card
     carry any points (taking with one's own ace banks its 11 points), the card worth most
     first when this seat plays last, else the strongest;
   * with a trump, the cheapest that wins (a liscio trump before a figure), when the trick
     holds 10 points or more (an ace or a three), or 4 or more and the trump is a liscio. The
     ace and the three of trumps are spent only on a trick of 10 points or more.

4. **Otherwise throw** the card that costs least to give away: a liscio of a plain suit, then a
   plain figure, then a trump; an ace or a three last of all. Trumps and aces are kept for the
   tricks worth taking.

It never counts cards to infer the other hands, and it plays the end of the deal (no stock,
every hand known to a careful player) by the same rules: the search player (``ismcts``) is
the one that reads the whole position. The package's README gives its results measured
against the random and the search players.
"""

from __future__ import annotations

from typing import Sequence

from cardcli.cards import Card
from cardcli.players.heuristic import Strategy

from .deck import CARD_POINTS_BY_RANK, POWER_BY_RANK
from .view import BriscolaView

BIG_TRICK = 10
"""Points on the table (an ace or a three) that are worth any trump, even the ace."""
SMALL_TRICK = 4
"""Points on the table (a king at least) that are worth a liscio trump."""
CARICO = 10
"""A card worth this much or more (an ace, a three) is a *carico*: kept to the last."""


def points(card: Card) -> int:
    """The card points of ``card`` (ace 11, three 10, king 4, queen 3, jack 2, else 0)."""
    return CARD_POINTS_BY_RANK.get(card.rank, 0)


def power(card: Card) -> int:
    """Strength in a trick within its suit: A, 3, K, Q, J, 7, 6, 5, 4, 2."""
    return POWER_BY_RANK[card.rank]


def beats(card: Card, best: Card, trump: str | None) -> bool:
    """Whether ``card`` played now takes the trick from ``best`` (the card winning it so
    far): a higher card of the winning card's suit, or any trump over a card that is not a
    trump. The winning card is of the suit led unless it is a trump, so a card of a third
    suit never wins."""
    if card.suit == best.suit:
        return power(card) > power(best)
    return trump is not None and card.suit == trump


def winner(trick: list[tuple[int, Card]], trump: str | None) -> tuple[int, Card]:
    """The seat and card winning a trick so far: the best trump, else the best card of the
    suit led."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if beats(card, best, trump):
            best_seat, best = seat, card
    return best_seat, best


class BriscolaHeuristic(Strategy):
    """The rules of the module docstring, reading the seat's view (:class:`BriscolaView`, which
    the player keeps from the seat's protocol lines): the trump from the face-up briscola, the
    trick in progress."""

    def __init__(self, seat: int, num_seats: int, options: dict[str, str]):
        super().__init__(seat, num_seats, options)
        self.partner = (seat + 2) % num_seats if num_seats == 4 else None

    @property
    def trump(self) -> str | None:
        return self.view.trump if isinstance(self.view, BriscolaView) else None

    @property
    def trick(self) -> list[tuple[int, Card]]:
        return self.view.trick

    # -- decisions --------------------------------------------------------------------------

    def choose(self, kind: str, moves: Sequence[str]) -> str:
        if kind != "play":
            return moves[0]
        cards = [Card.parse(m) for m in moves]
        if not self.trick:
            return self.lead(cards).text
        return self.follow(cards).text

    def is_trump(self, card: Card) -> bool:
        return card.suit == self.trump

    def giveaway(self, card: Card) -> tuple[int, int, int, int]:
        """What throwing ``card`` costs, smallest first: a carico last, a trump before it,
        then by points and strength (rules 1 and 4)."""
        return (points(card) >= CARICO, self.is_trump(card), points(card), power(card))

    def lead(self, cards: list[Card]) -> Card:
        return min(cards, key=self.giveaway)

    def last_to_play(self) -> bool:
        return len(self.trick) == self.num_seats - 1

    def follow(self, cards: list[Card]) -> Card:
        seat, best = winner(self.trick, self.trump)
        if seat == self.partner:
            if self.last_to_play():
                plain = [c for c in cards if not self.is_trump(c)]
                if plain:
                    return max(plain, key=lambda c: (points(c), -power(c)))
            return min(cards, key=self.giveaway)
        on_table = sum(points(c) for _, c in self.trick)
        takers = [c for c in cards if beats(c, best, self.trump)]
        same_suit = [c for c in takers if c.suit == best.suit]
        worth = [c for c in same_suit if on_table + points(c) > 0]
        if worth:
            if self.last_to_play():
                return max(worth, key=lambda c: (points(c), power(c)))
            return max(worth, key=power)
        trumps = sorted((c for c in takers if c.suit != best.suit), key=lambda c: (points(c), power(c)))
        if trumps:
            cheapest = trumps[0]
            if on_table >= BIG_TRICK or (on_table >= SMALL_TRICK and points(cheapest) == 0):
                return cheapest
        return min(cards, key=self.giveaway)
