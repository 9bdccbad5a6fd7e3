"""The same seeds give the same matches: golden records and digests made before a change that
must not change behaviour (the games moved into one folder each), played and compared again.

``tests/golden/make_golden.py`` made them; a change that means to change behaviour makes them
again and says so."""

from __future__ import annotations

import gzip
import json
import sys
from typing import Any

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "golden"))
import make_golden

GOLDEN = [json.loads(line) for line in gzip.open(make_golden.GOLDEN, "rt", encoding="utf-8")]
DIGESTS: dict[str, str] = json.loads(make_golden.DIGESTS.read_text())


def test_the_golden_set_covers_every_game_variant_and_player_count() -> None:
    covered = {tuple(entry["match"][:3]) for entry in GOLDEN}
    assert covered == {(game, variant, players) for game, variant, players, *_ in make_golden.matches()}
    assert len(GOLDEN) == len(list(make_golden.matches()))


@pytest.mark.parametrize("entry", GOLDEN, ids=lambda e: "-".join(map(str, e["match"][:4])))
def test_a_golden_match_is_played_again_move_for_move(entry: dict[str, Any]) -> None:
    game, variant, players, seed, seats, deals = entry["match"]
    again = make_golden.play(game, variant, players, seed, tuple(seats), deals)
    assert json.loads(json.dumps(again)) == entry["record"]


@pytest.mark.parametrize("game, players", list(make_golden.env_setups()))
def test_the_environments_show_what_they_showed(game: str, players: int) -> None:
    assert make_golden.env_digest(game, players) == DIGESTS[f"env {game}/{players}"]


@pytest.mark.parametrize("game, record", list(make_golden.replayed_records()), ids=lambda v: v if isinstance(v, str) else "")
def test_replay_prints_what_it_printed(game: str, record: dict[str, Any]) -> None:
    assert make_golden.replay_digest(record) == DIGESTS[f"replay {game}"]
    assert make_golden.replay_digest(record, "--seat", "1") == DIGESTS[f"replay {game} --seat 1"]
