"""Peppa (Italian Hearts): avoid hearts and Q♠ by ducking tricks and dumping points on others.

The strategy keeps its hand from ``hand``/``passed``/``received``/own ``play`` lines and the
cards played so far (``play``), so it knows which cards are still *outstanding* (in another
hand). Its rules, in order of the decisions:

* **Pass**: the three most dangerous cards: Q♠; A♠ and K♠ when it holds few low spades to
  guard them (they catch Q♠); high hearts; then high cards of other suits.
* **Lead**: the card least likely to win its trick: the one with the fewest outstanding cards
  of its suit below it (zero means somebody following must beat it), preferring suits with
  many outstanding cards (fewer players void, so fewer points dumped on a trick it might win).
* **Follow**: the highest card that still loses the trick. When every card wins anyway, or it
  plays last to a trick with no points, it wins with its highest card that carries no points.
* **Discard** (void in the led suit): Q♠, then A♠/K♠ while Q♠ is out, then the card with the
  most penalty points (the highest heart), then the highest card.

:class:`~cardcli.players.trick_avoider.TrickAvoider` holds the trick logic, with the rank
order and the point table as hooks.
"""

from __future__ import annotations

from typing import Sequence

from ...cards import Card
from .rules import CARD_VALUES
from ...players.trick_avoider import TrickAvoider


QUEEN = Card.parse("QS")
BIG_SPADES = (Card.parse("AS"), Card.parse("KS"))


class PeppaHeuristic(TrickAvoider):
    """Peppa: pass the dangerous cards, duck every trick, dump Q♠ and hearts when void."""

    def __init__(self, seat: int, num_seats: int, options: dict[str, str]):
        super().__init__(seat, num_seats, options)
        self.values = CARD_VALUES.get(options.get("card_values", "torino"), CARD_VALUES["torino"])

    def points(self, card: Card) -> int:
        return self.values[card]

    def discard_priority(self, card: Card) -> tuple[int, ...]:
        queen_out = QUEEN in self.outstanding()
        return (card == QUEEN, queen_out and card in BIG_SPADES, self.points(card) > 0,
                self.points(card), card.rank)

    def danger(self, card: Card) -> float:
        """How much a card is worth passing away (higher: pass first)."""
        if card == QUEEN:
            return 100.0
        if card in BIG_SPADES:
            guards = sum(1 for c in self.hand if c.suit == "S" and c.rank < 12)
            return 60.0 if guards < 3 else 2.0
        if card.suit == "H":
            return 1.5 * card.rank - 6
        return 2.0 * max(0, card.rank - 9)

    def choose_pass(self, moves: Sequence[str]) -> str:
        return max(moves, key=lambda m: sum(self.danger(Card.parse(t)) for t in m.split("+")))

