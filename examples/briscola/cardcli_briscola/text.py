"""Briscola's events as text for people: what ``cardcli replay`` prints and a human seat reads.

cardcli's :class:`~cardcli.games.trick_text.TrickRenderer` already writes the lines every trick
game shares (``deal``, ``hand``, ``trick``/``play``/``taken``, ``points``); this adds Briscola's
own: the turned-up briscola, the drawing after each trick, a partner's hand shown, and a deal
score that is a deal won rather than points.

The drawing after a trick is one line, not one per card: the renderer keeps the ``draw`` events
of a round and writes them when the next other event comes (the next ``trick`` always follows
a round). A replay with every hand shown feeds both the drawer's ``draw <seat> <card>`` and the
others' ``draw <seat>``; keeping the round by seat writes each draw once, with its card when
it is known.
"""

from __future__ import annotations

from typing import Sequence

from cardcli.cards import SUIT_SYMBOLS, Card, render_hand
from cardcli.games.base import Event
from cardcli.games.trick_text import TrickRenderer, played


class BriscolaRenderer(TrickRenderer):
    """Turns a stream of Briscola events into readable lines, one trick a line."""

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self._round: dict[int, str | None] = {}
        """The draws of the round in progress: seat to the card's text, None while unseen."""

    def feed(self, event: Event) -> list[str]:
        if event.kind == "draw":
            seat = int(event.args[0])
            card = event.args[1] if len(event.args) > 1 else None
            self._round[seat] = card or self._round.get(seat)
            return []
        return self._flush() + self._lines(event)

    def _flush(self) -> list[str]:
        if not self._round:
            return []
        drawn = ", ".join(played(str(seat), card) if card else f"{seat} a card" for seat, card in self._round.items())
        self._round = {}
        return [f"  {'draws:':<9} {drawn}"]  # the cards line up with a trick line's

    def _lines(self, event: Event) -> list[str]:
        a = event.args
        kind = event.kind
        if kind == "briscola":
            card = Card.parse(a[0])
            return [f"  briscola {card.symbol()}: {SUIT_SYMBOLS[card.suit]} are trumps"]
        if kind == "partner":
            seat = next(iter(event.audience or ()), None)
            if seat is None:
                return []
            shown = render_hand(Card.parse(t) for t in a[1:])
            return [f"  {self.who(seat)} sees the hand of partner {self.who(a[0])}: {shown}"]
        if kind == "score":
            won = [self.who(s) for s, v in enumerate(a[1:]) if v == "1"]
            return [f"  deal {a[0]} won by {', '.join(won)}" if won else f"  deal {a[0]} won by nobody (60-60)"]
        if kind == "totals":
            return ["  deals won: " + "  ".join(f"{self.who(s)} {v}" for s, v in enumerate(a))]
        return super().feed(event)
