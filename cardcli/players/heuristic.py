"""The heuristic player: a simple, explained strategy per game (``--seat heuristic``).

It reads the protocol lines its seat is sent and answers requests; each game's strategy is a
small class with ``notify(words)`` and ``choose(kind, moves)``, in the game's folder and named
by its spec (``heuristic``). A game without one, or a header naming no known game, gets the
first offered move.
"""

from __future__ import annotations

from typing import Sequence

from ..games.view import SeatView, view_for
from ..seats.base import Request


class Strategy:
    """One game's strategy. Subclasses override what they need.

    What the seat knows (its hand, the trick, the cards played, the game's own facts) is in
    :attr:`view`, the game's seat view, which the player keeps up to date from the seat's lines
    before each line reaches :meth:`notify`: a strategy reads the one view every part of
    cardcli reads rather than tracking the match itself."""

    def __init__(self, seat: int, num_seats: int, options: dict[str, str]):
        self.seat = seat
        self.num_seats = num_seats
        self.options = options
        self.view = SeatView()
        """The seat's view of the match; the player sets the game's own when the match begins."""

    def notify(self, words: list[str]) -> None:
        """One event line, split into words, after :attr:`view` has taken it."""

    def choose(self, kind: str, moves: Sequence[str]) -> str:
        return moves[0]


class HeuristicPlayer:
    """Follows the match header to pick the game's strategy, then feeds it every line."""

    def __init__(self) -> None:
        self.strategy: Strategy | None = None
        self.view = SeatView()
        self._header: list[list[str]] = []

    def notify(self, lines: Sequence[str]) -> None:
        for line in lines:
            words = line.split()
            if not words:
                continue
            if words[0] == "game" and len(words) > 1:
                self.view = view_for(words[1])
            self.view.update(words)
            if words[0] == "game":
                self._header = [words]
                self.strategy = None
            elif words[0] in ("option", "player", "order", "team") and self.strategy is None:
                self._header.append(words)
            elif words[0] == "begin":
                self.strategy = self._start()
            elif self.strategy is not None:
                self.strategy.notify(words)

    def _start(self) -> Strategy:
        game = self._header[0]
        options = {w[1]: w[2] for w in self._header if w[0] == "option" and len(w) > 2}
        strategy = strategy_of(game[1])(int(game[4]), int(game[3]), options)
        strategy.view = self.view
        return strategy

    def choose(self, request: Request) -> str:
        strategy = self.strategy or Strategy(0, 0, {})
        move = strategy.choose(request.kind, request.moves)
        return move if move in request.moves else request.moves[0]


def strategy_of(game: str) -> type[Strategy]:
    """The strategy the game's spec names; the first-move :class:`Strategy` for a game
    without one, or for a name no game has."""
    from ..games import registry

    spec = registry.GAMES.get(game)
    return spec.heuristic.load() if spec is not None and spec.heuristic is not None else Strategy
