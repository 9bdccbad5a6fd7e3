"""The text of a match for ``render_mode`` ``"ansi"`` and ``"human"``: what ``cardcli replay``
prints for the same match (all hands shown).

The events go through the game's own renderer, the one ``replay`` uses
(:attr:`GameSpec.renderer`); the heading and the closing lines are written as ``replay``
writes them, and a test compares the whole text with ``replay``'s.
"""

from __future__ import annotations

from typing import Sequence

from ..games.base import Event, Outcome
from ..games.registry import Setup
from ..safe_text import display_name


class MatchText:
    """Collects the lines of a match as it is played; :meth:`take` hands over the new ones."""

    def __init__(self, setup: Setup, names: Sequence[str]) -> None:
        spec = setup.spec
        assert spec.renderer is not None
        self.renderer = spec.renderer(names)
        self.names = [display_name(n) for n in names]
        self.lines = [
            f"{spec.title} - variant {setup.variant.name} - seed {setup.seed} - all hands shown",
            "seats: " + ", ".join(f"{i}:{n}" for i, n in enumerate(self.names)),
        ]

    def __call__(self, events: Sequence[Event]) -> None:
        for event in events:
            self.lines += self.renderer.feed(event)

    def finish(self, outcome: Outcome) -> None:
        """The closing lines, once the match is over."""
        names = self.names

        def who(seats: tuple[int, ...]) -> str:
            return ", ".join(f"{s}:{names[s]}" for s in seats) or "-"

        self.lines += ["", "final: " + "  ".join(f"{s}:{names[s]} {v}" for s, v in enumerate(outcome.scores))]
        if outcome.annulled:
            self.lines.append("the match is annulled: nobody wins or loses")
            return
        self.lines.append(f"winners: {who(outcome.winners)}   losers: {who(outcome.losers)}"
                          + (f"   draws: {who(outcome.draws)}" if outcome.draws else ""))

    def take(self) -> list[str]:
        lines, self.lines = self.lines, []
        return lines
