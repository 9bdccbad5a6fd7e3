"""Seep's events as text for people: the floor and its houses after every action."""

from __future__ import annotations

from typing import Sequence

from ...cards import Card, render, render_hand
from ...safe_text import display_name
from ...games.base import Event

VERB_TEXT = {"take": "takes with", "build": "builds", "cement": "cements", "break": "breaks", "throw": "throws"}


def _cards(texts: Sequence[str]) -> str:
    return render(Card.parse(t) for t in texts)


def _groups(text: str) -> str:
    parts = []
    for group in text.split(","):
        if group.startswith("h"):
            parts.append(f"house {group[1:]}")
        else:
            parts.append(_cards(group.split("+")))
    return " | ".join(parts)


def move_text(token: str) -> str:
    """``take:JS:2C+3D+6H,h11`` as ``takes with J♠: 2♣ 3♦ 6♥ | house 11``."""
    verb, _, rest = token.partition(":")
    if verb == "throw":
        return f"throws {_cards([rest])}"
    if verb == "take":
        card, _, items = rest.partition(":")
        return f"takes with {_cards([card])}: {_groups(items)}"
    if verb in ("build", "cement"):
        target, _, items = rest.partition(":")
        return f"{VERB_TEXT[verb]} {target}: {_groups(items)}"
    if verb == "break":
        old, _, items = rest.partition(":")
        card, _, absorbed = items.partition(",")
        extra = f", taking in {_groups(absorbed)}" if absorbed else ""
        return f"breaks house {old} with {_cards([card])}{extra}"
    return token


def table_text(items: Sequence[str]) -> str:
    loose = [i for i in items if not i.startswith("h")]
    houses = []
    for item in items:
        if item.startswith("h"):
            value, kind, owners, cards = item[1:].split(":")
            state = "cemented" if kind == "c" else "ordinary"
            houses.append(f"[house {value} {state}, owner {owners}: {_cards(cards.split('+'))}]")
    shown = " ".join(filter(None, [_cards(loose) if loose else "", *houses]))
    return shown or "(empty)"


class SeepRenderer:
    """Turns a stream of Seep events into readable lines."""

    def __init__(self, names: Sequence[str]):
        # names come from bots and record files: shown escaped, never as raw terminal text
        self.names = [display_name(n) for n in names]

    def who(self, seat: str | int) -> str:
        return f"{seat}:{self.names[int(seat)]}" if str(seat) != "-" else "nobody"

    def feed(self, event: Event) -> list[str]:
        a = event.args
        kind = event.kind
        if kind == "deal":
            return ["", f"Deal {a[0]} - dealer {self.who(a[1])}, bidder {self.who(a[2])}"]
        if kind == "hand":
            seat = next(iter(event.audience or ()), None)
            return [f"  hand of {self.who(seat)}: {render_hand(Card.parse(t) for t in a)}"] if seat is not None else []
        if kind == "void":
            shown = f" (shows {_cards(a[1:])})" if len(a) > 1 else ""
            return [f"  {self.who(a[0])} cannot bid{shown}: the same dealer deals again"]
        if kind == "bid":
            return [f"  {self.who(a[0])} bids {a[1]}"]
        if kind == "table":
            return [f"      floor: {table_text(a)}"]
        if kind == "play":
            return [f"  {self.who(a[0])} {move_text(a[1])}"]
        if kind == "seep":
            return [f"  SEEP by {self.who(a[0])}: +{a[1]}"]
        if kind == "leftover":
            return [f"  leftover {_cards(a[1:])} to {self.who(a[0])}"]
        if kind == "score":
            return ["  points: " + "  ".join(f"{self.who(s)} {v}" for s, v in enumerate(a[1:]))]
        if kind == "totals":
            return ["  totals: " + "  ".join(f"{self.who(s)} {v}" for s, v in enumerate(a))]
        return [f"  {event.line()}"]
