"""Seep for learning: moves named by card, kind, value and way (:mod:`.actions`), and an
observation of the floor, the houses and the captures.

**Observation.** The seat's hand, the loose cards on the floor, each house (9 to 13) with its
cards, whether it is cemented and its owners, the cards each seat has captured this deal, the
seeps, the last capturer, how many cards each seat holds, the bid, the bidder, the dealer and
the totals, all read from the seat's view (:class:`.view.SeepView`). Everything comes from the
public ``table`` lines and the moves; a seat's hand from its own ``hand`` lines. How many cards
another seat holds is public: every seat receives its cards in the same packets, so each gets
what this seat gets, and loses one a move.
"""

from __future__ import annotations

from typing import Sequence

from . import rules as seep
from ...games.base import Decision
from ...games.card_bits import INDEX_OF_TEXT
from ...games.registry import Setup
from . import actions as seep_actions
from .view import SeepView
from ...cards import Card
from ...envs.encoding import GameEncoding
from ...envs.seat_features import SeatFeatures, decision_block, players_block, relative_block, seat_view
from ...envs.vector_layout import Block, Layout

CARDS = INDEX_OF_TEXT
INDEX_OF_CARD = {Card.parse(text): index for text, index in INDEX_OF_TEXT.items()}
"""The view's cards to their index (cards are interned: hashed by identity)."""
NOT_CAPTURED: list[Card] = []
"""What a seat's part of the captured block shows before it is first written (never changed)."""
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
    """Every block from the seat's :class:`~.view.SeepView`: its hand, the floor as its last
    ``table`` line gave it, the captures, seeps, last capturer and cards held it counts, the bid,
    the bidder, the dealer and the totals. As in the trick games
    (:class:`~cardcli.envs.trick_features.TrickFeatures`), each block remembers the part of the
    view it was last written from (``_shown_*``), and only the numbers that differ are written
    again; the captured cards, which only grow within a deal, are added as they come."""

    kinds = KINDS
    view: SeepView

    def __init__(self, seat: int, setup: Setup, layout: Layout) -> None:
        n = setup.num_players
        super().__init__(seat, n, layout, seat_view(seat, setup))
        self.scale = setup.options.baazi_target
        at = layout.at
        self._hand, self._floor, self._houses = at("hand"), at("floor"), at("houses")
        self._cemented, self._owners, self._captured = at("cemented"), at("owners"), at("captured")
        self._seeps, self._capturer, self._held = at("seeps"), at("capturer"), at("held")
        self._bid, self._bidder, self._dealer, self._totals = at("bid"), at("bidder"), at("dealer"), at("totals")
        self._places = [(s - seat) % n for s in range(n)]
        # what each block was last written from, starting from what the zero vector shows
        self._shown_hand: list[Card] = []
        self._shown_table: list[str] | None = None
        self._shown_floor: set[int] = set()
        self._shown_captured: list[list[Card]] = [NOT_CAPTURED] * n
        self._shown_counts = [0] * n
        self._shown_seeps: list[list[int]] = [[] for _ in range(n)]
        self._shown_held = [0] * n
        self._shown_seats = (-1, -1, -1)
        self._shown_bid: int | None = None
        self._shown_totals: list[str] = []
        self.vector[at("players") + (2, 3, 4).index(n)] = 1.0

    def encode(self) -> None:
        view, cells, places = self.view, self.cells, self._places
        hand, shown = view.hand, self._shown_hand
        if hand != shown:
            self.write_cards(self._hand, shown, hand, INDEX_OF_CARD)
            self._shown_hand = hand.copy()
        if view.table is not self._shown_table:
            self._encode_floor(view.table)
        self._encode_captured(view.captured)
        if view.seeps != self._shown_seeps:
            vector = self.vector
            for seat, bonuses in enumerate(view.seeps):
                at = self._seeps + places[seat]
                vector[at] = 0.0
                for bonus in bonuses:  # summed in float32 one seep at a time, as each was told
                    vector[at] += bonus / SEEP_SCALE
            self._shown_seeps = [bonuses.copy() for bonuses in view.seeps]
        seats = (view.capturer, view.bidder, view.dealer)
        if seats != self._shown_seats:
            for at, seat, before in zip((self._capturer, self._bidder, self._dealer), seats, self._shown_seats):
                if seat != before:
                    if before >= 0:
                        cells[at + places[before]] = 0.0
                    if seat >= 0:
                        cells[at + places[seat]] = 1.0
            self._shown_seats = seats
        if view.bid != self._shown_bid:
            if self._shown_bid is not None:
                cells[self._bid + HOUSES.index(self._shown_bid)] = 0.0
            if view.bid is not None:
                cells[self._bid + HOUSES.index(view.bid)] = 1.0
            self._shown_bid = view.bid
        held, shown_held = view.held, self._shown_held
        if held != shown_held:
            for seat, count in enumerate(held):
                if count != shown_held[seat]:
                    cells[self._held + places[seat]] = count / MOST_HELD
                    shown_held[seat] = count
        if view.totals != self._shown_totals:
            for seat, total in enumerate(view.totals):
                cells[self._totals + places[seat]] = int(total) / self.scale
            self._shown_totals = view.totals.copy()

    def _encode_floor(self, table: list[str] | None) -> None:
        """The floor of the view's last ``table`` line (None before the floor is turned up): its
        loose cards, and each house's cards, cementing and owners. Most of the floor stays from
        one line to the next, so only the numbers that changed are written."""
        ones = set()
        for item in table or ():
            if not item.startswith("h"):
                ones.add(self._floor + CARDS[item])
                continue
            head, state, owners, cards = item.split(":")
            house = HOUSES.index(int(head[1:]))
            at = self._houses + house * 52
            ones.update([at + CARDS[card] for card in cards.split("+")])
            if state == "c":
                ones.add(self._cemented + house)
            ones.update([self._owners + house * 4 + self.place(owner) for owner in owners.split(",")])
        cells, shown = self.cells, self._shown_floor
        for at in shown.difference(ones):
            cells[at] = 0.0
        for at in ones.difference(shown):
            cells[at] = 1.0
        self._shown_table, self._shown_floor = table, ones

    def _encode_captured(self, captured: list[list[Card]]) -> None:
        """The cards each seat captured this deal: the view's lists only grow within a deal (a
        new deal brings new lists), so the cards captured since the last encoding are added."""
        shown, counts, cells = self._shown_captured, self._shown_counts, self.cells
        for seat, cards in enumerate(captured):
            count = counts[seat]
            if cards is shown[seat] and len(cards) == count:
                continue
            at = self._captured + self._places[seat] * 52
            if cards is not shown[seat] or len(cards) < count:
                self.vector[at:at + 52] = 0.0
                shown[seat], count = cards, 0
            for card in cards[count:]:
                cells[at + INDEX_OF_CARD[card]] = 1.0
            counts[seat] = len(cards)


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
