"""Seep: take scoring cards, build houses it can capture, and leave no easy seep behind.

The strategy reads the floor (the last ``table`` line) and every card it has seen this deal
(in its ``hand`` lines, on the floor, played) from the seat's view. For each offered move it works out the
floor the move leaves (by reading the token, PROTOCOL.md §6) and scores the move:

* **take**: the points of the cards taken (spade values, aces 1, 10♦ 6 with the default
  ``standard100`` table; the ``thirty`` and ``casual_ten_two`` tables when chosen), a little per
  card, plus the seep bonus when the floor is left empty.
* **build / cement / break**: 70% of the house's points (it holds the card to capture it
  later; an ordinary house, which others can break, 50%), plus a small bonus.
* **throw**: nothing gained; low cards are preferred, and a scoring card thrown is exposed.
* **every move**, minus what it leaves exposed: a third of the points of the loose cards, and
  half the seep bonus when the next player could sweep the floor with one card (the loose
  cards, with at most one house, split into groups of a single value 1..13) while a card of
  that value is still unseen.

The bid is the highest value offered (the bidder then holds that card to capture the house).
"""

from __future__ import annotations

from typing import AbstractSet, Sequence

from ...cards import Card
from ...games.notation import spent_card
from .floor import packings, value
from .view import SeepView
from ...players.heuristic import Strategy

House = tuple[int, list[Card], bool]
"""A house: value, cards, cemented."""
Floor = tuple[list[Card], dict[int, House]]
VALUE_RANKS = "A23456789TJQK"
"""Rank letter of each capture value 1..13."""


def cards_of(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split("+") if t]


def parse_table(words: list[str]) -> Floor:
    """``table 3D 4H h12:c:0,1:5C+3D+4H+QC`` as loose cards and houses by value."""
    loose: list[Card] = []
    houses: dict[int, House] = {}
    for word in words:
        if word.startswith("h") and ":" in word:
            head, kind, _owners, cards = word.split(":")
            houses[int(head[1:])] = (int(head[1:]), cards_of(cards), kind == "c")
        else:
            loose.append(Card.parse(word))
    return loose, houses


def hand_card(token: str) -> Card:
    """The card a move token takes out of the hand."""
    spent = spent_card(token)
    assert spent is not None, token
    return Card.parse(spent)


class SeepHeuristic(Strategy):
    """Seep: greedy on points taken now, minus the points and seeps the move leaves exposed."""

    def __init__(self, seat: int, num_seats: int, options: dict[str, str]):
        super().__init__(seat, num_seats, options)
        self.scoring = options.get("scoring", "standard100")
        self.view: SeepView = SeepView()

    # -- what the seat knows, from its view -----------------------------------------------------
    @property
    def seen(self) -> AbstractSet[Card]:
        return self.view.seen()

    @property
    def floor(self) -> Floor:
        return parse_table(self.view.table or [])

    @property
    def plays(self) -> int:
        return self.view.plays

    # -- scoring ----------------------------------------------------------------------------
    def points(self, card: Card) -> float:
        if self.scoring == "thirty":
            table = {"9S": 9, "2S": 1, "TD": 12}
            majority = 0.3 if card.suit == "S" else 0.0  # the spade majority bonus, spread
            return table.get(card.text, 1 if card.rank == 14 else 0) + majority
        if card.suit == "S":
            return value(card)
        if card.rank == 14:
            return 1
        return (2 if self.scoring == "casual_ten_two" else 6) if card.text == "TD" else 0

    def seep_bonus(self, card: Card) -> float:
        if self.plays == 47:
            return int(self.options.get("sweep_last", 0))
        if self.scoring == "thirty":
            return value(card)
        return int(self.options.get("sweep_first" if self.plays == 0 else "sweep", 50))

    def unseen(self, v: int) -> int:
        """Cards of capture value ``v`` not seen this deal: they may be in another hand."""
        return sum(1 for suit in "CDHS" if Card.parse(VALUE_RANKS[v - 1] + suit) not in self.seen)

    # -- moves ------------------------------------------------------------------------------
    def choose(self, kind: str, moves: Sequence[str]) -> str:
        if kind == "bid":
            return max(moves, key=int)
        if kind != "play":
            return moves[0]
        return max(moves, key=self.score)

    def score(self, token: str) -> float:
        verb, *rest = token.split(":")
        card = hand_card(token)
        loose, houses = list(self.floor[0]), dict(self.floor[1])
        gain = 0.0
        if verb == "take":
            taken = [card]
            for group in rest[1].split(","):
                if group.startswith("h"):
                    taken += houses.pop(int(group[1:]))[1]
                else:
                    taken += cards_of(group)
            loose = [c for c in loose if c not in taken]
            gain = sum(self.points(c) for c in taken) + 0.1 * len(taken)
            if not loose and not houses:
                return gain + self.seep_bonus(card)
        elif verb == "throw":
            loose.append(card)
            gain = -0.05 * value(card)
        else:
            groups = [cards_of(g) for g in rest[1].split(",")]
            used = [c for g in groups for c in g]
            loose = [c for c in loose if c not in used]
            if verb == "break":
                old = int(rest[0])
                new = old + value(card)
                pile = houses.pop(old)[1] + used + houses.pop(new, (0, [], True))[1]
                cemented = len(groups) > 1 or any(h == new for h in self.floor[1])
            else:
                new = int(rest[0])
                pile = houses.pop(new, (0, [], False))[1] + used
                cemented = verb == "cement" or len(groups) > 1 or value(card) == new
            houses[new] = (new, pile, cemented)
            gain = (0.7 if cemented else 0.5) * sum(self.points(c) for c in pile) + 1.0
        return gain - self.exposure(loose, houses, card)

    def exposure(self, loose: list[Card], houses: dict[int, House], card: Card) -> float:
        """What the floor left by a move offers the next player."""
        if self.plays == 47:
            return 0.0
        risk = 0.3 * sum(self.points(c) for c in loose)
        if len(houses) > 1 or (not loose and not houses):
            return risk
        total = sum(value(c) for c in loose)
        values = list(houses) if houses else [v for v in range(1, 14) if total and total % v == 0]
        for v in values:
            if self.unseen(v) and self.sweepable(loose, v):
                return risk + 0.5 * self.seep_bonus(card)
        return risk

    @staticmethod
    def sweepable(loose: list[Card], v: int) -> bool:
        """One card of value ``v`` would take every loose card (as groups summing to ``v``)."""
        if not loose:
            return True
        if sum(value(c) for c in loose) % v or any(value(c) > v for c in loose) or len(loose) > 10:
            return False
        everything = frozenset(loose)
        return any(p.cards == everything for p in packings(loose, v))

