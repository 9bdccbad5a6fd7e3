"""A series of matches on the same seats: ``play --games N`` and ``check-bot``'s matches.

One piece of code serves both so that the command ``check-bot`` prints to reproduce a failure
(``cardcli play ... --seed S --games K``) plays exactly what ``check-bot`` played: the same
seeds, the same built-in opponents with the same random choices, the same bot process from one
match to the next.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .games import registry
from .games.registry import Setup
from .referee import Listener, MatchResult, Settings, play_match
from .seats.base import Seat, close_all
from .seats.limits import Limits
from .seats.policy import SandboxPolicy
from .seating import make_seat

if TYPE_CHECKING:
    from .remote.seat import RemoteContext

SEED_SPACE = 2**63
"""Seeds are 63-bit: match ``k`` of a series plays seed ``seed + k`` modulo this."""


def match_seed(seed: int, k: int) -> int:
    """The seed of match ``k`` (from 0) of a series started at ``seed``."""
    return (seed + k) % SEED_SPACE


class Series:
    """Seats built once from their specs and kept for every match of the series; a bot that
    can no longer play (it faulted and was ended) is started afresh for the next match, as a
    tournament does."""

    def __init__(self, game: str, variant: str | None, given: Mapping[str, Any], players: int | None, seed: int,
                 specs: Sequence[str], settings: Settings, stderr_dir: Path | None = None,
                 limits: Limits = Limits(), sandbox: SandboxPolicy | None = None,
                 remote: RemoteContext | None = None,
                 seat_options: Mapping[int, Sequence[tuple[str, str]]] | None = None):
        self.game, self.variant, self.given = game, variant, dict(given)
        self.first = registry.resolve(game, variant, given, players, seed)
        self.seed = seed
        self.specs = list(specs) if specs else ["random"] * self.first.num_players
        self.settings = settings
        self.stderr_dir = stderr_dir
        self.limits = limits
        self.sandbox = sandbox
        self.remote = remote
        self.seat_options = {seat: tuple(pairs) for seat, pairs in (seat_options or {}).items()}
        """The bot options set for each seat (``play --seat-option``), kept for a bot started
        again after a fault."""
        self.seats: list[Seat] = [self._seat(i, seed) for i in range(len(self.specs))]

    def _seat(self, index: int, seed: int) -> Seat:
        return make_seat(self.specs[index], index, seed, self.stderr_dir, self.limits, sandbox=self.sandbox,
                         remote=self.remote, options=self.seat_options.get(index, ()))

    def setup(self, k: int) -> Setup:
        if k == 0:
            return self.first
        return registry.resolve(self.game, self.variant, self.given, self.first.num_players, match_seed(self.seed, k))

    def play(self, k: int, listener: Listener | None = None) -> tuple[Setup, MatchResult]:
        """Play match ``k`` (from 0) on the series' seats, which stay alive after it."""
        setup = self.setup(k)
        if k:
            self.seats = [bot if bot.usable else self._seat(i, setup.seed) for i, bot in enumerate(self.seats)]
        return setup, play_match(setup, self.seats, self.settings, listener=listener, close=False)

    def close(self) -> None:
        close_all(self.seats, self.settings.quit_grace, last=True)
