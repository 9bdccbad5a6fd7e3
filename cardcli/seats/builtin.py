"""Seats answered in the referee's own process: a player's answers (:class:`PlayerSeat`), the
random and first-move players, scripted seats for tests and pipelines, the referee's fallback
player, and the names ``--seat`` keeps for built-in players. The players that think
(:mod:`cardcli.players`) are seats of this kind; :func:`cardcli.seating.builtin` makes them by
name."""

from __future__ import annotations

import random
from typing import Callable, Iterable, Protocol, Sequence

from .base import Answer, FaultKind, Request, SeatBase, SeatFault


class InProcessSeat(SeatBase):
    """A seat whose answer is computed by a function at once, in the referee's process; ``kind``
    says what plays it, for the record, when it is not a built-in player."""

    kind = "builtin"

    def __init__(self, label: str, choose: Callable[[Request], str], kind: str | None = None):
        super().__init__(label, kind)
        self._choose = choose
        self._answer: Answer | None = None

    def ask(self, request: Request) -> None:
        try:
            self._answer = Answer(self._choose(request), 0.0)
        except SeatFault as fault:
            self._answer = Answer(None, 0.0, fault)

    def poll(self) -> Answer | None:
        answer, self._answer = self._answer, None
        return answer


class PlayerSeat(InProcessSeat):
    """An in-process player that follows the game from the lines its seat is sent."""

    def __init__(self, label: str, player: "Player", kind: str | None = None):
        super().__init__(label, player.choose, kind)
        self.player = player

    def notify(self, lines: Sequence[str]) -> None:
        self.player.notify(lines)


class Player(Protocol):
    def notify(self, lines: Sequence[str]) -> None: ...

    def choose(self, request: Request) -> str: ...


def random_seat(label: str, seed: str | int) -> InProcessSeat:
    """A player that picks uniformly among the offered moves, from its own seeded generator."""
    rng = random.Random(f"cardcli/random-player/{seed}")
    return InProcessSeat(label, lambda request: rng.choice(request.moves))


def first_seat(label: str) -> InProcessSeat:
    """A player that always takes the first offered move: fully predictable, for tests."""
    return InProcessSeat(label, lambda request: request.moves[0])


def scripted_seat(label: str, moves: Iterable[str]) -> InProcessSeat:
    """A seat that answers a fixed list of moves in order, legal or not.

    Running out of moves is a ``protocol`` fault, so a test script that is too short fails
    loudly instead of quietly playing something else.
    """
    script = iter(moves)

    def choose(request: Request) -> str:
        try:
            return next(script)
        except StopIteration:
            raise SeatFault(FaultKind.PROTOCOL, "the script has no move left") from None

    return InProcessSeat(label, choose, kind="scripted")


BUILTIN_NAMES = ("random", "first", "heuristic", "ismcts", "human", "house")
"""Names that ``--seat`` resolves to a built-in player (``house`` needs its level)."""

WITH_PARAMETERS = ("ismcts", "house")
"""Built-in players that take parameters after a colon: ``ismcts:iterations=800``, ``house:3``."""


def builtin_name(text: str) -> str | None:
    """The built-in player ``text`` names (with its parameters, if it takes any), else None."""
    if text in BUILTIN_NAMES:
        return text
    base, sep, _ = text.partition(":")
    return base if sep and base in WITH_PARAMETERS else None


def fallback_player(seed: int, seat: int) -> InProcessSeat:
    """The referee's random player that finishes a faulty seat's moves, seeded from the match
    and the seat alone: the referee plays with it, and ``verify`` makes its choices again."""
    return random_seat("fallback", f"{seed}/{seat}")
