"""Seep for learning: moves named by card, kind, value and way (:mod:`.actions`), and an
observation of the floor, the houses and the captures.

**Observation.** The seat's hand, the loose cards on the floor, each house (9 to 13) with its
cards, whether it is cemented and its owners, the cards each seat has captured this deal, the
seeps, the last capturer, how many cards each seat holds, the bid, the bidder, the dealer and
the totals. Everything comes from the public ``table`` lines and the moves; a seat's hand from
its own ``hand`` lines. How many cards another seat holds is public: every seat receives its
cards in the same packets, so each gets what this seat gets, and loses one a move.
"""

from __future__ import annotations

from typing import Sequence

from . import rules as seep
from ..base import Decision
from ..card_bits import INDEX_OF_TEXT
from ..registry import Setup
from . import actions as seep_actions
from ...envs.encoding import GameEncoding
from ...envs.seat_features import SeatFeatures, decision_block, players_block, relative_block
from ...envs.vector_layout import Block, Layout

CARDS = INDEX_OF_TEXT
HOUSES = tuple(seep.HOUSE_VALUES)
MOST_HELD = 24
"""The most cards a seat holds: 4, then 20 more with 2 players dealt at once."""
SEEP_SCALE = 50
KINDS = ("bid", "play")


def _most_a_seep(options: seep.SeepOptions) -> int:
    """The largest seep bonus: the options' (or a king's 13 in the 30-point version)."""
    return max(options.sweep, options.sweep_first, options.sweep_last, 13)


def _most_a_deal(options: seep.SeepOptions) -> int:
    """The most a side scores in a deal: every card point (100 at most, with 4 for the majority)
    and a seep on each of the 48 plays."""
    return 104 + 48 * _most_a_seep(options)


def layout(setup: Setup, max_deals: int) -> Layout:
    scale = setup.options.baazi_target
    return Layout([
        Block("hand", 52, "the seat's hand: 1 for each card it holds"),
        Block("floor", 52, "the loose cards on the floor"),
        Block("houses", 5 * 52, "the cards of the house of 9, 10, 11, 12 and 13 (52 numbers each)"),
        Block("cemented", 5, "1 for a cemented house of 9, 10, 11, 12, 13"),
        Block("owners", 5 * 4, "the owners of the house of 9, 10, 11, 12, 13 (4 numbers each, seats from this one)"),
        Block("captured", 4 * 52, "the cards each seat has captured this deal (52 numbers per seat, from this "
                                  "one), the leftover included"),
        relative_block("seeps", 4, f"seep bonuses each seat has scored this deal / {SEEP_SCALE}", 0.0,
                       48 * _most_a_seep(setup.options) / SEEP_SCALE),
        relative_block("capturer", 4, "who captured last"),
        relative_block("held", 4, f"how many cards each seat holds / {MOST_HELD}"),
        Block("bid", 5, "the bid: 9, 10, 11, 12, 13"),
        relative_block("bidder", 4, "the bidder"),
        relative_block("dealer", 4, "the dealer"),
        relative_block("totals", 4, f"running totals / {scale}", 0.0, max_deals * _most_a_deal(setup.options) / scale),
        players_block((2, 3, 4)),
        decision_block(KINDS),
    ])


class SeepFeatures(SeatFeatures):
    kinds = KINDS

    def __init__(self, seat: int, setup: Setup, layout: Layout) -> None:
        super().__init__(seat, setup.num_players, layout)
        self.scale = setup.options.baazi_target
        self.houses: dict[int, list[str]] = {}
        """The cards of each house on the floor, from the last ``table`` line."""
        self.held = [0] * self.n
        """How many cards each seat holds, by place (from this seat)."""
        at = layout.at
        self._captured, self._held, self._seeps = at("captured"), at("held"), at("seeps")
        self.vector[at("players") + (2, 3, 4).index(self.n)] = 1.0

    def on_event(self, kind: str, args: tuple[str, ...]) -> None:
        if kind == "table":
            self._table(args)
        elif kind == "play":
            self._play(self.place(args[0]), args[1])
        elif kind == "hand":
            self._hand(args)
        elif kind == "seep":
            self.vector[self._seeps + self.place(args[0])] += int(args[1]) / SEEP_SCALE
        elif kind == "leftover":
            if args[0] != "-":
                self.set_cards("captured", args[1:], CARDS, place=self.place(args[0]), width=52)
        elif kind == "bid":
            self.one_hot("bid", HOUSES.index(int(args[1])))
        elif kind == "deal":
            self.clear("hand", "floor", "houses", "cemented", "owners", "captured", "seeps", "capturer", "held", "bid")
            self.houses = {}
            self.held = [0] * self.n
            self.one_hot("dealer", self.place(args[1]))
            self.one_hot("bidder", self.place(args[2]))
        elif kind == "totals":
            for seat, total in enumerate(args):
                self.vector[self.layout.at("totals") + self.place(seat)] = int(total) / self.scale

    def _hand(self, cards: Sequence[str]) -> None:
        """The seat's whole hand; every seat has just received as many cards as this one."""
        got = len(cards) - self.held[0]
        self.held = [held + got for held in self.held]
        self._show_held()
        self.clear("hand")
        self.set_cards("hand", cards, CARDS)

    def _play(self, place: int, token: str) -> None:
        card = seep_actions.MoveName.of(token).card
        self.held[place] -= 1
        self._show_held()
        if place == 0:
            self.vector[self.layout.at("hand") + card] = 0.0
        if token.startswith("take:"):
            taken = [token.split(":")[1]]
            for group in token.split(":", 2)[2].split(","):
                taken += self.houses.get(int(group[1:]), []) if group.startswith("h") else group.split("+")
            self.set_cards("captured", taken, CARDS, place=place, width=52)
            self.one_hot("capturer", place)

    def _table(self, items: Sequence[str]) -> None:
        self.clear("floor", "houses", "cemented", "owners")
        self.houses = {}
        vector, at = self.vector, self.layout.at
        for item in items:
            if not item.startswith("h"):
                vector[at("floor") + CARDS[item]] = 1.0
                continue
            head, state, owners, cards = item.split(":")
            house = HOUSES.index(int(head[1:]))
            self.houses[int(head[1:])] = cards.split("+")
            self.set_cards("houses", self.houses[int(head[1:])], CARDS, place=house, width=52)
            vector[at("cemented") + house] = 1.0 if state == "c" else 0.0
            for owner in owners.split(","):
                vector[at("owners") + house * 4 + self.place(owner)] = 1.0

    def _show_held(self) -> None:
        for place, held in enumerate(self.held):
            self.vector[self._held + place] = held / MOST_HELD


class SeepActions:
    """Bids 9..13, then every play named by :mod:`.actions`."""

    size = seep_actions.SIZE

    def __init__(self) -> None:
        self._last: tuple[Decision, seep_actions.Encoded] | None = None

    def encoded(self, decision: Decision) -> seep_actions.Encoded:
        """The decision's moves under the encoding, worked out once per decision."""
        last = self._last
        if last is not None and last[0] is decision:
            return last[1]
        found = seep_actions.encode(decision.kind, decision.moves)
        self._last = (decision, found)
        return found

    def legal(self, decision: Decision, picked: tuple[int, ...]) -> Sequence[int]:
        return sorted(a for a in self.encoded(decision).actions if a >= 0)

    def move(self, decision: Decision, picked: tuple[int, ...], action: int) -> str | None:
        token = self.encoded(decision).token(action)
        if token is None:
            raise ValueError(f"action {action} names no move of this decision")
        return token

    def action(self, decision: Decision, token: str) -> tuple[int, ...]:
        found = self.encoded(decision)
        action = found.actions[found.moves.index(token)]
        if action < 0:
            raise ValueError(f"{token} is past the bound of the action encoding")
        return (action,)

    def describe(self, action: int) -> str:
        return seep_actions.describe(action)

    def unencoded(self, decision: Decision) -> int:
        return self.encoded(decision).unencoded


ENCODING = GameEncoding("seep", SeepActions(), layout, SeepFeatures)
