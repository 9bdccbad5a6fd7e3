"""What the three trick games (Peppa, Il Pigugnìn, Pepper) show a seat in common: its hand, the
trick on the table, every card played so far in the deal and by whom, who leads and who
dealt, the tricks and card points taken, and the totals; each game adds its own blocks.

Totals are divided by the game's end mark (Peppa's threshold, the busche that put a player
out, Pepper's target), so that they read about 0 to 1 in a usual match. Their bounds
are what the rules allow in ``max_deals`` deals, the most a match in the environment can
last.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import attrs

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


class TrickFeatures(SeatFeatures):
    """The trick games' events; a subclass handles its own events first and calls this."""

    def __init__(self, seat: int, num_players: int, layout: Layout, game: TrickGame, hand_size: int) -> None:
        self.kinds = game.kinds
        super().__init__(seat, num_players, layout)
        self.game = game
        self.cards = game.cards
        self.size = len(game.cards)
        self.hand_size = hand_size
        at = layout.at
        self._hand, self._trick, self._played = at("hand"), at("trick"), at("played")
        self._won, self._tricks = at("won"), at("tricks")
        self._points = at("points") if game.points_per_deal else -1
        self._totals = at("totals")
        if len(game.counts) > 1:
            self.vector[at("players") + game.counts.index(num_players)] = 1.0

    def on_event(self, kind: str, args: tuple[str, ...]) -> None:
        vector = self.vector
        if kind == "play":
            place, card = self.place(args[0]), self.cards[args[1]]
            vector[self._trick + place * self.size + card] = 1.0
            vector[self._played + place * self.size + card] = 1.0
            if place == 0:
                vector[self._hand + card] = 0.0
        elif kind == "trick":
            self.one_hot("leader", self.place(args[1]))
        elif kind == "taken":
            place = self.place(args[1])
            # counts are recovered and divided again, never summed as fractions: ten tenths
            # summed in float32 pass 1.0 and leave the observation space
            won = self._won + place
            vector[won] = (round(vector[won] * self.hand_size) + 1) / self.hand_size
            vector[self._tricks] = int(args[0]) / self.hand_size
            if self._points >= 0:
                points, per_deal = self._points + place, self.game.points_per_deal
                vector[points] = (round(vector[points] * per_deal) + int(args[2])) / per_deal
            self.clear("trick", "leader")
        elif kind == "hand":
            self.clear("hand")
            self.set_cards("hand", args, self.cards)
        elif kind == "deal":
            self.new_deal()
            self.one_hot("dealer", self.place(args[1]))
        elif kind == "totals":
            scale = self.game.total_scale
            for seat, total in enumerate(args):
                vector[self._totals + self.place(seat)] = int(total) / scale

    def new_deal(self) -> None:
        """Forget the last deal; subclasses clear their own blocks too."""
        self.clear("hand", "trick", "played", "leader", "tricks", "won")
        if self._points >= 0:
            self.clear("points")
