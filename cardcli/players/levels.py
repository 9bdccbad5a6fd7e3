"""The house players at named levels, ``house:1`` to ``house:5``: one scale of strength from
random play to the full search, so that an arena can gate a league ("beat ``house:3`` to
enter") and an author can say where a bot stands with a number rather than a recipe.

The levels are built from the players cardcli already has, each one step above the last:

1. uniformly random legal moves, as the ``random`` seat plays them;
2. the heuristic, with half of its moves replaced by random ones;
3. the heuristic;
4. the search (``ismcts``) at a small budget: 50 iterations, but Pepper's 100 and Seep's 200,
   since a search of 50 does not beat the heuristic there;
5. the search at 400 iterations with no time ceiling.

A game sets its two search levels' iterations in its search hooks
(:attr:`~cardcli.players.search.hooks.SearchHooks.house_iterations`).

Every level is deterministic given the match's seed: the random moves come from a generator
seeded by the seat, the search from its iteration count and the header's ``rng`` line, never
from the clock. That is why the search levels drop the default ``ismcts`` seat's processor-time
ceiling (which only a slow or busy machine reaches): the same match gives the same moves on any
machine, as a chess engine's node limit does. Where each level stands against its neighbours,
on duplicate deals, is measured by ``benchmarks/strength.py`` (docs/players.md).
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

import attrs

from ..errors import UsageError
from ..seats.base import Request
from ..seats.builtin import InProcessSeat, PlayerSeat, random_seat
from .heuristic import HeuristicPlayer
from .search.player import IsmctsPlayer, Settings

PREFIX = "house:"


class NoisyHeuristic:
    """The heuristic, except that each decision is, with probability ``noise``, a uniformly
    random legal move. It follows every line, so its own moves stay those of a player that
    knows the match; only its answers are diluted."""

    def __init__(self, noise: float, seed: str | int) -> None:
        self.noise = noise
        self.rng = random.Random(f"cardcli/house/{seed}")
        self.heuristic = HeuristicPlayer()

    def notify(self, lines: Sequence[str]) -> None:
        self.heuristic.notify(lines)

    def choose(self, request: Request) -> str:
        if self.rng.random() < self.noise:
            return self.rng.choice(request.moves)
        return self.heuristic.choose(request)


Maker = Callable[[str, "str | int"], InProcessSeat]
"""``make(label, seed)``: the level's seat."""


@attrs.frozen
class Level:
    number: int
    summary: str
    make: Maker


LEVELS = (
    Level(1, "uniformly random legal moves, as the random seat plays", random_seat),
    Level(2, "the heuristic, half of its moves random",
          lambda label, seed: PlayerSeat(label, NoisyHeuristic(0.5, seed))),
    Level(3, "the heuristic", lambda label, seed: PlayerSeat(label, HeuristicPlayer())),
    Level(4, "the search at a small budget, the game's own (50 to 200 iterations)",
          lambda label, seed: PlayerSeat(label, IsmctsPlayer(Settings(house=4)))),
    Level(5, "the search at its full iterations (400), no time ceiling",
          lambda label, seed: PlayerSeat(label, IsmctsPlayer(Settings(house=5)))),
)
"""The levels, weakest first; ``LEVELS[n - 1]`` is ``house:n``."""


def level_of(spec: str) -> Level:
    """The level a ``house:N`` seat spec names; a usage error for anything else."""
    raw = spec[len(PREFIX):] if spec.startswith(PREFIX) else ""
    if not raw.isdigit() or not 1 <= int(raw) <= len(LEVELS):
        raise UsageError(f"house: the level must be 1 to {len(LEVELS)}, as in house:3; not {spec!r}")
    return LEVELS[int(raw) - 1]
