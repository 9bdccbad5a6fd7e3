"""Pepper as one seat sees it: the trick games' view, with the auction (each seat's latest bid,
the highest bidder), the trump and its declarer, and the tricks per side (what a side scores is
known when the deal ends) with the contract."""

from __future__ import annotations

from ...cards import Card
from ...games.view import SeatView
from .rules import suit_under


class PepperView(SeatView):
    def new_deal(self) -> None:
        super().new_deal()
        self.contract: tuple[int, str] | None = None
        """The deal's contract: (declarer, bid)."""
        self.high_bidder = -1
        """The seat of the highest bid so far; -1 before any."""
        self.latest_bids: list[str | None] = [None] * len(self.names)
        """Each seat's latest bid this deal, as its ``bid`` line gave it (``pass``, ``1`` to
        ``7``, ``small``, ``big``); None for a seat that has not bid yet."""
        self.declarer = -1
        """The seat that named trump; -1 before."""
        self.trump: str | None = None
        """The trump suit's letter; None before it is named, or for no-trump (the two told
        apart by :attr:`declarer`)."""

    def on_event(self, kind: str, args: list[str]) -> None:
        if kind == "contract" and len(args) >= 2:
            self.contract = (int(args[0]), args[1])
        elif kind == "bid" and len(args) == 2:
            self.moves.append((int(args[0]), args[1]))
            if int(args[0]) < len(self.latest_bids):
                self.latest_bids[int(args[0])] = args[1]
            if args[1] != "pass":
                self.high_bidder = int(args[0])
        elif kind == "trump" and len(args) == 2:
            self.moves.append((int(args[0]), args[1]))
            self.declarer, self.trump = int(args[0]), None if args[1] == "NT" else args[1]

    def category(self, card: Card) -> str:
        """Suits as the trump makes them: the left bower is a trump (unless the option says
        it is not)."""
        return suit_under(card, self.trump, self.options.get("left_bower_is_trump", "true") == "true")

    def deal_so_far(self) -> tuple[str, list[str]]:
        if not self.trick_number:
            return "", []
        entries = [f"{label} {count}" for label, count, _ in self.side_tally(self.tricks)]
        if self.contract is not None:
            entries[-1] += ";"
            entries.append(f"contract {self.contract[1]} by {self.who(self.contract[0])}")
        return "this deal, tricks:", entries
