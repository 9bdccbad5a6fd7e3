"""The heuristic player (``--seat heuristic``) beats random players clearly in every game and
player count, and never faults.

Each case plays seeded matches: one heuristic seat, rotating over the seats, among random
players (in the partnership games, Seep and Pepper with 4 players, a heuristic side against a
random side, alternating sides). Run with ``-s`` to see the measured rates, the figures quoted
in ``docs/players.md``.
"""

from __future__ import annotations

import statistics
from typing import Callable

import attrs
import pytest

from cardcli.games import registry
from cardcli.referee import Settings, play_match
from cardcli.seating import builtin
from cardcli.seats.builtin import random_seat


@attrs.frozen
class Series:
    matches: int
    wins: int
    losses: int
    heuristic_per_deal: float
    """Mean points of a heuristic seat per played deal (penalties or busche: lower is better)."""
    random_per_deal: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches

    @property
    def loss_rate(self) -> float:
        return self.losses / self.matches


def play_series(game: str, num_players: int, matches: int, heuristic: Callable[[int], set[int]],
                max_deals: int = 500) -> Series:
    wins = losses = 0
    mine: list[int] = []
    theirs: list[int] = []
    for m in range(matches):
        seats_h = heuristic(m)
        seats = [
            builtin("heuristic", f"h{i}", m) if i in seats_h else random_seat(f"r{i}", f"{m}/{i}")
            for i in range(num_players)
        ]
        setup = registry.resolve(game, None, {}, num_players, 7000 + m)
        result = play_match(setup, seats, Settings(max_deals=max_deals))
        assert result.faults == ()
        assert result.outcome is not None
        first = min(seats_h)
        wins += first in result.outcome.winners
        losses += first in result.outcome.losers
        for deal in result.record["deals"]:
            for seat, points in enumerate(deal["points"] or ()):
                (mine if seat in seats_h else theirs).append(points)
    series = Series(matches, wins, losses, statistics.mean(mine), statistics.mean(theirs))
    print(f"\n{game} {num_players}p, {matches} matches: win {series.win_rate:.2f} lose "
          f"{series.loss_rate:.2f}, per deal heuristic {series.heuristic_per_deal:.2f} random "
          f"{series.random_per_deal:.2f}")
    return series


def one_seat(num_players: int) -> Callable[[int], set[int]]:
    return lambda m: {m % num_players}


def one_side(m: int) -> set[int]:
    return {m % 2, m % 2 + 2}


def test_peppa_heuristic_takes_far_fewer_penalty_points() -> None:
    s = play_series("peppa", 4, 40, one_seat(4))
    assert s.heuristic_per_deal < 0.5 * s.random_per_deal
    assert s.loss_rate <= 0.2  # two of four lose: 0.5 for a random seat


@pytest.mark.parametrize("num_players, random_loss", [(4, 0.5), (5, 0.4)])
def test_pigugnin_heuristic_pays_fewer_busche(num_players: int, random_loss: float) -> None:
    s = play_series("pigugnin", num_players, 60, one_seat(num_players))
    assert s.heuristic_per_deal < 0.8 * s.random_per_deal
    assert s.loss_rate <= random_loss / 2


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_seep_heuristic_takes_more_points_and_wins(num_players: int) -> None:
    chooser = one_side if num_players == 4 else one_seat(num_players)
    s = play_series("seep", num_players, 20, chooser)
    assert s.heuristic_per_deal > 2 * s.random_per_deal
    assert s.win_rate >= 0.8


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_pepper_heuristic_scores_positive_and_wins(num_players: int) -> None:
    chooser = one_side if num_players == 4 else one_seat(num_players)
    s = play_series("pepper", num_players, 30, chooser, max_deals=40)
    assert s.heuristic_per_deal > 1 > s.random_per_deal
    assert s.win_rate >= 0.8


@pytest.mark.parametrize("game, num_players", [
    (game, n) for game in ("peppa", "pigugnin", "seep", "pepper")
    for n in registry.get(game).player_counts
])
def test_heuristic_seats_alone_finish_without_faults(game: str, num_players: int) -> None:
    for seed in range(3):
        seats = [builtin("heuristic", f"h{i}", seed) for i in range(num_players)]
        setup = registry.resolve(game, None, {}, num_players, seed)
        result = play_match(setup, seats, Settings(max_deals=60))
        assert result.faults == () and result.completed
