"""The trick games' events as text for people (Peppa, Il Pigugnìn, Pepper): what ``replay`` prints."""

from __future__ import annotations

from typing import Sequence

from ..cards import SUIT_SYMBOLS, Card, render, render_hand
from ..safe_text import display_name
from .base import Event


class TrickRenderer:
    """Turns a stream of trick-game events into readable lines, one trick a line."""

    shows_points = True
    """Whether a taken trick is shown with its card points (Peppa, Il Pigugnìn)."""

    def __init__(self, names: Sequence[str]):
        # names come from bots and record files: shown escaped, never as raw terminal text
        self.names = [display_name(n) for n in names]
        self.trick: list[str] = []
        self.trick_number = 0

    def who(self, seat: str | int) -> str:
        seat = int(seat)
        return f"{seat}:{self.names[seat]}"

    def feed(self, event: Event) -> list[str]:
        a = event.args
        kind = event.kind
        if kind == "deal":
            return ["", f"Deal {a[0]} - dealer {self.who(a[1])}"]
        if kind == "hand":
            seat = next(iter(event.audience or ()), None)
            return [f"  hand of {self.who(seat)}: {render_hand(_cards(a))}"] if seat is not None else []
        if kind == "passing":
            return [f"  passing: {a[0]}"] if a[0] != "hold" else ["  no pass this deal"]
        if kind == "passed":
            seat = next(iter(event.audience or ()), None)
            return [f"  {self.who(seat)} passes {render(_cards(a[1:]))} to {self.who(a[0])}"] if seat is not None else []
        if kind == "received":
            seat = next(iter(event.audience or ()), None)
            return [f"  {self.who(seat)} receives {render(_cards(a[1:]))} from {self.who(a[0])}"] if seat is not None else []
        if kind == "trick":
            self.trick, self.trick_number = [], int(a[0])
            return []
        if kind == "play":
            self.trick.append(played(a[0], a[1]))
            return []
        if kind == "taken":
            plays = ", ".join(self.trick)
            taken = f"takes {a[2]}" if self.shows_points else "takes it"
            return [f"  trick {a[0]:>2}: {plays:<34} -> {self.who(a[1])} {taken}"]
        if kind == "cappotto":
            return [f"  CAPPOTTO by {self.who(a[0])}"]
        if kind == "bid":
            return [f"  {self.who(a[0])} " + ("passes" if a[1] == "pass" else f"bids {a[1]}")]
        if kind == "allpass":
            return ["  everybody passed: the deal is thrown in"]
        if kind == "contract":
            return [f"  contract: {a[1]} by {self.who(a[0])}"]
        if kind == "trump":
            named = "no trump" if a[1] == "NT" else f"trump {SUIT_SYMBOLS[a[1]]}"
            return [f"  {self.who(a[0])} names {named}"]
        if kind in ("made", "set"):
            return [f"  {a[1]} by {self.who(a[0])} {'made' if kind == 'made' else 'SET'} with {a[2]} tricks"]
        if kind == "points":
            return ["  card points: " + _per_seat(self, a)]
        if kind == "notricks":
            return ["  no trick for " + ", ".join(self.who(s) for s in a) + ": points are not counted"]
        if kind == "busca":
            return [f"  {self.who(a[0])} pays {a[2]} ({a[1].replace('_', ' ')})"]
        if kind == "score":
            return ["  deal score: " + _per_seat(self, a[1:])]
        if kind == "totals":
            return ["  totals: " + _per_seat(self, a)]
        return [f"  {event.line()}"]


class TricksOnlyRenderer(TrickRenderer):
    """Pepper's tricks: each counts as one trick and carries no card points (the protocol's
    ``taken`` line says 0), so a replay shows who took it, not a meaningless 0."""

    shows_points = False


def played(who: str, token: str) -> str:
    """A card played to a trick as people read it: who played it, then the card with its suit
    symbol (``2:ann 10♠``). The replay's trick lines and the human seat's trick in progress
    are both written with it, so a card looks the same wherever a person sees it."""
    return f"{who} {Card.parse(token).symbol()}"


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def _per_seat(renderer: TrickRenderer, values: Sequence[str]) -> str:
    return "  ".join(f"{renderer.who(s)} {v}" for s, v in enumerate(values))
