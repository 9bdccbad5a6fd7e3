"""What the three trick games (Peppa, Il Pigugnìn, Pepper) show a seat in common: its hand, the
trick on the table, every card played so far in the deal and by whom, who leads and who
dealt, the tricks and card points taken, and the totals; each game adds its own blocks. All of
it is read from the seat's view (:class:`cardcli.games.view.SeatView`), the trick games'
common part of which is encoded here.

Totals are divided by the game's end mark (Peppa's threshold, the busche that put a player
out, Pepper's target), so that they read about 0 to 1 in a usual match. Their bounds
are what the rules allow in ``max_deals`` deals, the most a match in the environment can
last.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import attrs

from ..cards import Card
from ..games.view import SeatView
from .seat_features import SeatFeatures, decision_block, players_block, relative_block
from .vector_layout import Block, Layout


@attrs.frozen
class TrickGame:
    """The facts a trick game's layout needs."""

    cards: Mapping[str, int]
    """Card token to its place in the game's deck (its action)."""
    places: int
    """The largest player count: blocks per seat have this many places."""
    points_per_deal: int
    """Card points in a deal (0 for a game whose tricks carry none)."""
    total_scale: float
    """What the totals are divided by."""
    kinds: tuple[str, ...]
    """The kinds of decision, in the order of the ``decision`` block."""
    counts: tuple[int, ...]
    """The player counts, when there are several."""


def trick_blocks(game: TrickGame, totals: tuple[float, float]) -> list[Block]:
    """The blocks every trick game has; ``totals`` bounds the totals (as divided)."""
    size, n = len(game.cards), game.places
    blocks = [
        Block("hand", size, "the seat's hand: 1 for each card it holds"),
        Block("trick", n * size, f"the trick on the table: for each seat from this one, {size} numbers, 1 for "
                                 "the card it played to it"),
        Block("played", n * size, f"the cards each seat has played in this deal ({size} numbers per seat, "
                                  "from this one), the trick on the table included"),
        relative_block("leader", n, "who leads the trick on the table"),
        relative_block("dealer", n, "who dealt"),
        Block("tricks", 1, "tricks taken so far in the deal / the tricks of a deal"),
        relative_block("won", n, "tricks each seat has taken in the deal / the tricks of a deal"),
    ]
    if game.points_per_deal:
        blocks.append(relative_block("points", n, f"card points each seat has taken in the deal / "
                                                  f"{game.points_per_deal}"))
    blocks.append(relative_block("totals", n, f"running totals / {game.total_scale:g}", *totals))
    if len(game.counts) > 1:
        blocks.append(players_block(game.counts))
    return blocks


def trick_layout(game: TrickGame, totals: tuple[float, float], extra: Sequence[Block] = ()) -> Layout:
    return Layout([*trick_blocks(game, totals), *extra, decision_block(game.kinds)])


NOT_IN_PROGRESS: list[tuple[int, Card]] = []
"""What the trick block shows when no trick is in progress (never changed)."""


class TrickFeatures(SeatFeatures):
    """The trick games' blocks, encoded from the seat's view; a subclass encodes its own blocks
    after calling :meth:`encode`.

    The blocks follow the view's fields: ``hand`` its hand; ``trick`` its trick while the trick
    is in progress (:attr:`~cardcli.games.view.SeatView.leader`: cleared when the trick is
    taken, not at the next lead); ``played`` its cards played by each seat; ``leader`` and
    ``dealer`` its leader and dealer; ``tricks``, ``won`` and ``points`` its tricks and points
    taken (counts divided once, never fractions summed: ten tenths summed in float32 pass 1.0
    and leave the observation space); ``totals`` its totals.

    Each block remembers the part of the view it was last written from (``_shown_*``, at first
    what the zero vector shows), and only the numbers that differ are written again: the cards
    that left or joined the hand, the cards played since, the seat whose tricks changed. So a
    subclass that writes one of these blocks itself (examples/briscola sets a card drawn in the
    hand) must write what the view shows, or the block is wrong until that part changes."""

    def __init__(self, seat: int, num_players: int, layout: Layout, game: TrickGame, hand_size: int,
                 view: SeatView | None = None) -> None:
        self.kinds = game.kinds
        super().__init__(seat, num_players, layout, view)
        self.game = game
        self.cards = game.cards
        self.size = len(game.cards)
        self.hand_size = hand_size
        self.card_index = {Card.parse(text): index for text, index in game.cards.items()}
        """The view's cards to their place in a card block (cards are interned: hashed by identity)."""
        at = layout.at
        self._hand, self._tricks = at("hand"), at("tricks")
        seats = range(num_players)
        places = [(s - seat) % num_players for s in seats]
        # where each seat's part of a block starts (its place counted from this seat)
        self._trick_at = [at("trick") + places[s] * self.size for s in seats]
        self._played_at = [at("played") + places[s] * self.size for s in seats]
        self._leader_at = [at("leader") + places[s] for s in seats]
        self._dealer_at = [at("dealer") + places[s] for s in seats]
        self._won_at = [at("won") + places[s] for s in seats]
        self._points_at = [at("points") + places[s] for s in seats] if game.points_per_deal else []
        self._totals_at = [at("totals") + places[s] for s in seats]
        self._places = places
        """Each seat's place, counted from this seat."""
        if len(game.counts) > 1:
            self.vector[at("players") + game.counts.index(num_players)] = 1.0
        # what each block was last written from, starting from what the zero vector shows
        self._shown_hand: list[Card] = []
        self._shown_trick: list[tuple[int, Card]] = NOT_IN_PROGRESS
        self._shown_trick_cards = 0
        self._shown_leader = -1
        self._shown_played: list[list[Card]] = []
        self._played_total = 0
        self._seen_trick: list[tuple[int, Card]] = NOT_IN_PROGRESS
        """The view's trick list as the last encoding saw it, in progress or not, and its length."""
        self._seen_trick_cards = 0
        self._shown_dealer = -1
        self._shown_tricks = [0] * num_players
        self._shown_points = [0] * num_players
        self._shown_totals: list[str] = []
        self._hook = type(self).on_event is not TrickFeatures.on_event

    def encode(self) -> None:
        """The blocks above, from the view; one method read top to bottom, since an environment
        runs it at every step."""
        view, cells, index = self.view, self.cells, self.card_index
        hand = view.hand
        if hand != self._shown_hand:
            self.write_cards(self._hand, self._shown_hand, hand, index)
            self._shown_hand = hand.copy()

        # the trick in progress: none once taken (the view keeps its cards until the next
        # lead); the view appends to a trick's list, and a new trick is a new list
        leader, trick = view.leader, view.trick
        shown_trick = trick if leader >= 0 else NOT_IN_PROGRESS
        count, trick_at = self._shown_trick_cards, self._trick_at
        if shown_trick is not self._shown_trick or leader != self._shown_leader or len(shown_trick) < count:
            for seat, card in self._shown_trick[:count]:
                cells[trick_at[seat] + index[card]] = 0.0
            if self._shown_leader >= 0:
                cells[self._leader_at[self._shown_leader]] = 0.0
            if leader >= 0:
                cells[self._leader_at[leader]] = 1.0
            self._shown_leader, self._shown_trick, count = leader, shown_trick, 0
        if len(shown_trick) > count:
            for seat, card in shown_trick[count:]:
                cells[trick_at[seat] + index[card]] = 1.0
            count = len(shown_trick)
        self._shown_trick_cards = count

        # the cards each seat played this deal. Every card played goes to a trick's list as well
        # as to its seat's list, so the cards played since the last encoding are those added
        # since to the trick lists it saw (the last one's tail and the new one), as long as
        # their number is the number the seats' lists grew by; otherwise (a new deal, or
        # tricks gone by unseen) each seat's list is read.
        played, played_at = view.played, self._played_at
        total = sum(map(len, played))
        if total != self._played_total or played is not self._shown_played:
            seen, seen_count = self._seen_trick, self._seen_trick_cards
            new = seen[seen_count:] if trick is seen else seen[seen_count:] + trick
            if played is self._shown_played and self._played_total + len(new) == total:
                for seat, card in new:
                    cells[played_at[seat] + index[card]] = 1.0
            else:
                self._encode_played(played)
            self._shown_played, self._played_total = played, total
        self._seen_trick, self._seen_trick_cards = trick, len(trick)

        dealer = view.dealer
        if dealer != self._shown_dealer:
            if self._shown_dealer >= 0:
                cells[self._dealer_at[self._shown_dealer]] = 0.0
            if dealer >= 0:
                cells[self._dealer_at[dealer]] = 1.0
            self._shown_dealer = dealer
        tricks = view.tricks
        if tricks != self._shown_tricks:
            hand_size = self.hand_size
            for at, taken, before in zip(self._won_at, tricks, self._shown_tricks):
                if taken != before:
                    cells[at] = taken / hand_size
            cells[self._tricks] = sum(tricks) / hand_size
            self._shown_tricks = tricks.copy()
        points = view.points
        if self._points_at and points != self._shown_points:
            per_deal = self.game.points_per_deal
            for at, taken, before in zip(self._points_at, points, self._shown_points):
                if taken != before:
                    cells[at] = taken / per_deal
            self._shown_points = points.copy()
        totals = view.totals
        if totals != self._shown_totals:
            scale, totals_at = self.game.total_scale, self._totals_at
            for at, value in zip(totals_at, totals):
                cells[at] = int(value) / scale
            self._shown_totals = totals.copy()

    def _encode_played(self, played: list[list[Card]]) -> None:
        """The played block written afresh from each seat's list."""
        vector, cells, index = self.vector, self.cells, self.card_index
        for cards, at in zip(played, self._played_at):
            vector[at:at + self.size] = 0.0
            for card in cards:
                cells[at + index[card]] = 1.0

    def on_event(self, kind: str, args: tuple[str, ...]) -> None:
        """Nothing for the trick games' own lines (their view keeps them); a ``deal`` line calls
        :meth:`new_deal`, for a subclass that keeps blocks of its own from lines of its own."""
        if kind == "deal":
            self.new_deal()

    def new_deal(self) -> None:
        """A new deal: a subclass that keeps blocks of its own (:meth:`on_event`) clears them
        here."""
