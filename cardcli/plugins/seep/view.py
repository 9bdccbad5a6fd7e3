"""Seep as one seat sees it: the floor (as the last ``table`` line gave it), the bid and its
bidder, the cards each seat holds and has captured, the last capturer, and each side's captured
card points and seep bonuses so far (a majority bonus is known only at the deal's end). Moves
read in words (``takes with J♠: 2♣ 3♦ 6♥ | house 11``)."""

from __future__ import annotations

from typing import AbstractSet, Sequence

from ...cards import Card, is_card
from ...games.notation import spent_card
from ...games.view import SeatView
from .rules import _card_worth
from .text import move_text, table_text


class SeepView(SeatView):
    def new_deal(self) -> None:
        super().new_deal()
        self.table: list[str] | None = None
        """The floor as the last ``table`` line gave it; None before it is turned up, empty
        once the deal's ``leftover`` line has cleared it."""
        self.bonus = [0] * len(self.names)
        """Seep bonuses each seat has won in this deal."""
        self.plays = 0
        """Moves played in this deal, by every seat."""
        seats = len(self.names)
        self.bidder = -1
        """The seat that bids this deal, from the ``deal`` line; -1 before the first deal."""
        self.bid: int | None = None
        """The house value bid this deal (9 to 13), from the ``bid`` line; None before it."""
        self.seeps: list[list[int]] = [[] for _ in range(seats)]
        """Each seat's seep bonuses this deal, one number a ``seep`` line, in order (their sums
        are :attr:`bonus`)."""
        self.captured: list[list[Card]] = [[] for _ in range(seats)]
        """The cards each seat has captured this deal, in the order taken: its captures' cards
        as the moves name them (the hand card, the loose cards and the houses' cards, read from
        the floor before the move), and the leftover given to it at the deal's end."""
        self.capturer = -1
        """The seat that captured last with a move this deal; -1 before any capture."""
        self.held = [0] * seats
        """How many cards each seat holds. Public: every seat is dealt in the same packets, so
        each gets what this seat gets (counted from this seat's own ``hand`` lines), and every
        move spends one card of its seat's."""
        self._seen: set[Card] = set()

    def update(self, words: list[str]) -> None:
        super().update(words)
        head = words[0]
        if head == "hand":
            self._seen |= set(self.hand)
            if self.seat < len(self.held):
                got = len(self.hand) - self.held[self.seat]
                self.held = [held + got for held in self.held]
        elif head == "deal" and len(words) >= 4:
            self.bidder = int(words[3])

    def on_play(self, seat: int, token: str) -> None:
        self.plays += 1
        if seat < len(self.held):
            self.held[seat] -= 1
        spent = spent_card(token)
        if spent is not None:
            self._seen.add(Card.parse(spent))
        if token.startswith("take:"):
            self._capture(seat, captured_cards(token, self.table or []))
            self.capturer = seat

    def seen(self) -> AbstractSet[Card]:
        """Every card this seat has seen in this deal, and so knows to be in no other hand: its
        own hands, the floor, the cards played (the view's own set: read it, do not change it)."""
        return self._seen

    def on_event(self, kind: str, args: list[str]) -> None:
        if kind == "bid" and len(args) == 2:
            self.moves.append((int(args[0]), args[1]))
            self.bid = int(args[1]) if args[1].isdigit() else None
        elif kind == "table":
            before = frozenset(self.table or ())  # their cards are seen already
            self.table = list(args)
            for item in args:
                if item not in before:
                    self._seen |= {Card.parse(c) for c in item.split(":")[-1].split("+") if is_card(c)}
        elif kind == "seep" and len(args) >= 2 and int(args[0]) < len(self.bonus):
            self.bonus[int(args[0])] += int(args[1])
            self.seeps[int(args[0])].append(int(args[1]))
        elif kind == "leftover":
            if args and args[0].isdigit():
                self._capture(int(args[0]), args[1:])
            self.table = []  # the leftover, given to a seat or to nobody, leaves the floor empty

    def _capture(self, seat: int, cards: Sequence[str]) -> None:
        """``seat`` captured ``cards``, counted at their worth under the match's scoring (the
        engine's own card values: one table of them)."""
        if seat < len(self.points):
            scoring = self.options.get("scoring", "standard100")
            taken = [Card.parse(c) for c in cards if is_card(c)]
            self.points[seat] += sum(_card_worth(card, scoring) for card in taken)
            self.captured[seat] += taken

    def deal_so_far(self) -> tuple[str, list[str]]:
        if self.table is None:
            return "", []
        entries = []
        for label, points, side in self.side_tally(self.points):
            bonus = sum(self.bonus[s] for s in side)
            entries.append(f"{label} {points + bonus}" + (f" (seeps {bonus})" if bonus else ""))
        return "this deal, points:", entries

    def table_text(self) -> str:
        return "floor: " + (table_text(self.table) if self.table is not None else "face down until the bid")

    def move_label(self, move: str) -> str:
        return move_text(move) if ":" in move else super().move_label(move)


def captured_cards(token: str, table: Sequence[str]) -> list[str]:
    """The cards a ``take:`` move captures: the hand card, the loose groups it names and the
    cards of the houses it names (``h11``), read from the floor before the move."""
    _, card, groups = (token.split(":", 2) + ["", ""])[:3]
    cards = [card]
    for group in filter(None, groups.split(",")):
        if group.startswith("h"):
            house = next((item for item in table if item.startswith(group + ":")), "")
            cards += house.split(":")[-1].split("+") if house else []
        else:
            cards += group.split("+")
    return cards
