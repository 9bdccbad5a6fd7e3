"""Peppa as one seat sees it: the trick games' view, with the pass (where it goes, the three
cards this seat gave and the three it received) and penalty points."""

from __future__ import annotations

from ...cards import Card
from ...games.view import SeatView


class PeppaView(SeatView):
    points_word = "penalty points"

    def new_deal(self) -> None:
        super().new_deal()
        self.passing: str | None = None
        """Where this deal's pass goes (``left``, ``right``, ``across``, ``hold`` for no pass),
        from the ``passing`` line; None before it."""
        self.passed: list[Card] = []
        """The cards this seat passed this deal (its ``passed`` line), in the line's order."""
        self.received: list[Card] = []
        """The cards passed to this seat this deal (its ``received`` line), in the line's order."""

    def on_event(self, kind: str, args: list[str]) -> None:
        if kind == "passing" and args:
            self.passing = args[0]
        elif kind == "passed":
            self.passed = [Card.parse(c) for c in args[1:]]
            gone = set(self.passed)
            self.hand = [c for c in self.hand if c not in gone]
        elif kind == "received":
            self.received = [Card.parse(c) for c in args[1:]]
            self.hand += self.received
