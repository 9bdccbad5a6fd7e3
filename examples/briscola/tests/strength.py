"""Measure the built-in players against each other at Briscola: the README's table.

    python3 examples/briscola/tests/strength.py heuristic random 50        # 2 players
    python3 examples/briscola/tests/strength.py ismcts heuristic 15 4      # 4 players

Each seed is played twice, the seats swapped (with 4 players the first player's kind sits at
seats 0 and 2); the line printed gives each kind's matches won, and for the search player the
worlds its view failed to build or the replay refused (both must be 0). Runs with the package
installed or not (the tests' stand-in entry point, conftest.py).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

import conftest  # noqa: E402,F401  (the stand-in entry point, when the package is not installed)
from cardcli.games import registry  # noqa: E402
from cardcli.players.search.player import IsmctsPlayer  # noqa: E402
from cardcli.referee import Settings, play_match  # noqa: E402
from cardcli.seats.base import Seat  # noqa: E402
from cardcli.seating import builtin  # noqa: E402
from cardcli.seats.builtin import PlayerSeat  # noqa: E402


def seat(kind: str, label: str, seed: str) -> tuple[Seat, IsmctsPlayer | None]:
    made = builtin(kind, label, seed)
    player = made.player if isinstance(made, PlayerSeat) else None
    return made, player if isinstance(player, IsmctsPlayer) else None


def measure(first: str, second: str, seeds: int, players: int = 2) -> str:
    wins = {first: 0, second: 0}
    failures = refused = deals = 0
    started = time.monotonic()
    for k in range(seeds):
        for kinds in ([first, second], [second, first]):
            at_table = (kinds * 2)[:players]
            seats = [seat(kind, f"{kind}{s}", f"{k}/{s}") for s, kind in enumerate(at_table)]
            setup = registry.resolve("briscola", None, {}, players, 1000 + k)
            result = play_match(setup, [s for s, _ in seats], Settings(move_time=60))
            assert result.outcome is not None
            deals += len(result.record["deals"])
            for _, searcher in seats:
                if searcher is not None:
                    failures += searcher.failures
                    refused += searcher.view.refused if searcher.view is not None else 0
            if result.outcome.winners:
                wins[at_table[result.outcome.winners[0]]] += 1
    return (f"{first} against {second}, {players} players, {seeds} seeds x 2 seatings: {wins}, {deals} deals, "
            f"search failures {failures}, worlds refused {refused}, {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    print(measure(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 2))
