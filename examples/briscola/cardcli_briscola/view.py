"""Briscola as one seat sees it (the spec's ``view``, which the human seat shows): cardcli's
trick games' view, with what Briscola adds.

* No void is ever inferred: there is no duty to follow suit, so a card of another suit says
  nothing of what its player holds. A card played goes to the trick and to ``played`` only.
* The hand refills from the stock: ``draw <seat> <card>`` (to the drawer, or to everybody for
  the turned-up briscola) puts the seat's own card in its hand; either form of the line, ``draw
  <seat>`` to the others included, is one card fewer in the stock.
* The table shows the trick, the face-up briscola and the cards left in the stock (the briscola
  counted: it is the stock's last card), and, with ``partners_see_hands``, the partner's hand
  once it is shown.
* The deal's running line counts card points (a ``taken`` line carries the trick's card points),
  per side with partners.

Built only from the seat's lines (docs/protocol.md), like every seat view.
"""

from __future__ import annotations

from cardcli.cards import SUIT_SYMBOLS, Card, is_card, render_hand
from cardcli.games.view import SeatView

DECK_SIZE = 40
HAND_SIZE = 3


class BriscolaView(SeatView):
    points_word = "card points"

    def new_deal(self) -> None:
        super().new_deal()
        self.briscola: Card | None = None
        """The turned-up card, from the ``briscola`` line: its suit is the trump; None before."""
        self.stock = 0
        """The cards still to be drawn, the briscola (the last of them) counted; 0 before the
        ``briscola`` line and once the stock is used up."""
        self.briscola_drawer = -1
        """The seat that drew the briscola (every seat sees it drawn); -1 while it lies face up."""
        self.partner: tuple[int, list[Card]] | None = None
        """The partner's hand as the ``partner`` line showed it (four players with
        ``partners_see_hands``, once the stock is gone), less the cards the partner has played
        since; None when not shown."""

    def on_play(self, seat: int, token: str) -> None:
        """A card goes to the trick and to the seat's played cards, with no void inferred:
        Briscola has no duty to follow suit."""
        if not is_card(token):
            return
        card = Card.parse(token)
        self.trick.append((seat, card))
        if seat < len(self.played):
            self.played[seat].append(card)
        if self.partner is not None and self.partner[0] == seat and card in self.partner[1]:
            self.partner[1].remove(card)

    def on_event(self, kind: str, args: list[str]) -> None:
        if kind == "draw" and args:
            self.stock = max(0, self.stock - 1)
            if len(args) == 2 and is_card(args[1]):
                card = Card.parse(args[1])
                if args[0] == str(self.seat):
                    self.hand.append(card)
                if card == self.briscola:
                    self.briscola_drawer = int(args[0])
        elif kind == "briscola" and args and is_card(args[0]):
            self.briscola = Card.parse(args[0])
            self.stock = DECK_SIZE - HAND_SIZE * len(self.names)
            self.briscola_drawer = -1
        elif kind == "partner" and len(args) >= 2:
            self.partner = (int(args[0]), [Card.parse(c) for c in args[1:] if is_card(c)])

    @property
    def trump(self) -> str | None:
        """The trump suit's letter; None before the ``briscola`` line."""
        return self.briscola.suit if self.briscola is not None else None

    # -- what it shows ----------------------------------------------------------------------

    def table_text(self) -> str:
        """The trick (as the trick games write it), then the briscola and the stock:
        ``trick 3: 1:bob Q♠ | briscola 4♣ (♣ trumps), stock 28 cards`` (the briscola counted
        in the stock); once the stock is gone, who drew the briscola; with a partner's hand
        shown, that hand."""
        parts = [super().table_text()]
        if self.briscola is not None:
            trumps = f"{self.briscola.symbol()} ({SUIT_SYMBOLS[self.briscola.suit]} trumps)"
            if self.stock:
                parts.append(f"briscola {trumps}, stock {self.stock} card{'s' if self.stock != 1 else ''}")
            else:
                drawer = f", drawn by {self.who(self.briscola_drawer)}" if self.briscola_drawer >= 0 else ""
                parts.append(f"briscola {trumps}{drawer}, stock empty")
        if self.partner is not None:
            parts.append(f"partner {self.who(self.partner[0])} holds {render_hand(self.partner[1])}")
        return " | ".join(p for p in parts if p)

    def deal_so_far(self) -> tuple[str, list[str]]:
        """Card points taken so far (tricks in brackets), per side with partners."""
        if not self.trick_number:
            return "", []
        points = {label: total for label, total, _ in self.side_tally(self.points)}
        entries = [f"{label} {points[label]} ({tricks})" for label, tricks, _ in self.side_tally(self.tricks)]
        return f"this deal, {self.points_word} (tricks):", entries
