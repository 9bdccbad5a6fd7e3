"""The bound of benchmarks/strength.py, ``oracle:ismcts:...``: a search told every hand must
draw the true world at every decision, or the room it measures above the honest search is
not what a perfect inference of the hidden cards could win."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import strength


@pytest.mark.parametrize("game, players", [("pigugnin", 4), ("pigugnin", 5), ("pepper", 2), ("pepper", 4)])
def test_the_oracle_draws_the_true_hands_at_every_decision(game: str, players: int,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    decisions = []
    choose = strength.Oracle.choose

    def checked(self: Any, request: Any) -> str:
        move = choose(self, request)
        view = self.view
        world = view.current(random.Random(len(decisions)))
        decisions.append(all(set(world[s]) == self.dealt[s] - set(view.played[s])
                             for s in range(view.n) if s != view.seat))
        return move

    monkeypatch.setattr(strength.Oracle, "choose", checked)
    row = strength.one_deal((game, players, 1000, "oracle:ismcts:iterations=20", "heuristic", ()))
    assert row["failures"] == 0
    assert len(decisions) >= 2 * players and all(decisions)


def test_an_oracle_must_be_a_search_player() -> None:
    with pytest.raises(SystemExit):
        strength.one_deal(("pigugnin", 4, 1000, "oracle:heuristic", "heuristic", ()))
