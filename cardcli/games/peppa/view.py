"""Peppa as one seat sees it: the trick games' view, with the pass (the three cards this seat
gave and the three it received) and penalty points."""

from __future__ import annotations

from ...cards import Card
from ..view import SeatView


class PeppaView(SeatView):
    points_word = "penalty points"

    def on_event(self, kind: str, args: list[str]) -> None:
        if kind == "passed":
            gone = {Card.parse(c) for c in args[1:]}
            self.hand = [c for c in self.hand if c not in gone]
        elif kind == "received":
            self.hand += [Card.parse(c) for c in args[1:]]
