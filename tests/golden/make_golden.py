#!/usr/bin/env python3
"""Write the golden records: matches of every game, variant and player count, played by the
built-in players (random, heuristic, a small ismcts) on fixed seeds.

They were made before a change that must not change behaviour (a move of code, a new
structure), and ``tests/test_golden.py`` plays the same matches again and compares, timings
and dates aside. Run this again only when a change of behaviour is intended, and say so in
the commit.

Usage: python3 tests/golden/make_golden.py
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any, Iterator

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from cardcli.games import registry  # noqa: E402
from cardcli.referee import Settings, play_match  # noqa: E402
from cardcli.seating import make_seat  # noqa: E402

GOLDEN = HERE / "records.jsonl.gz"
DIGESTS = HERE / "digests.json"
"""Digests of what the learning environments show their agents in a few seeded matches of
random legal actions (per game and player count), and of the text ``cardcli replay`` prints
of golden records, whole and as one seat saw them."""

LINEUPS = (
    ("heuristic", "random"),
    ("random", "heuristic", "ismcts:iterations=8,worlds=4"),
    ("heuristic",),
)
"""The players, seat after seat round the table (repeated as far as the table needs)."""


def matches() -> Iterator[tuple[str, str, int, int, tuple[str, ...], int]]:
    """Game, variant, player count, seed, seats and deal limit of every golden match: three
    short matches of each setup, and a whole match of heuristic players of each game: cardcli's
    own games (a game another package installs has no golden record here)."""
    for game in registry.MODULES:
        spec = registry.get(game)
        for variant in spec.variants:
            for players in sorted(spec.player_counts):
                for seed, lineup in enumerate(LINEUPS, start=1):
                    seats = tuple(lineup[k % len(lineup)] for k in range(players))
                    yield game, variant.name, players, seed * 1000 + players, seats, 3
        players = sorted(spec.player_counts)[-1]
        yield game, spec.default_variant.name, players, 77, ("heuristic",) * players, 60


def play(game: str, variant: str, players: int, seed: int, seats: tuple[str, ...], deals: int) -> dict[str, Any]:
    setup = registry.resolve(game, variant, {}, players, seed)
    built = [make_seat(spec, k, seed) for k, spec in enumerate(seats)]
    return comparable(play_match(setup, built, Settings(max_deals=deals)).record)


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """The record without what a second run cannot repeat: its dates, the software's version
    and the time of each move."""
    kept = {k: v for k, v in record.items() if k not in ("started", "finished", "software")}
    kept["deals"] = [{**deal, "moves": [{k: v for k, v in move.items() if k not in ("ms", "bank")}
                                         for move in deal["moves"]]} for deal in record["deals"]]
    return kept


def env_digest(game: str, players: int, steps: int = 600) -> str:
    """Play ``steps`` random legal actions in the AEC environment of ``game`` (new matches as
    they end) and digest everything it shows its agents."""
    import hashlib
    import importlib
    import random

    import numpy as np

    module = importlib.import_module(f"cardcli.envs.{game}_v0")
    env = module.raw_env(players=players, max_deals=4)
    digest = hashlib.sha256()
    rng = random.Random(f"golden/{game}/{players}")
    env.reset(seed=players)
    for _ in range(steps):
        agent = env.agent_selection
        observation, reward, terminated, truncated, _ = env.last()
        digest.update(agent.encode())
        digest.update(np.ascontiguousarray(observation["observation"]).tobytes())
        digest.update(np.ascontiguousarray(observation["action_mask"]).tobytes())
        digest.update(repr((float(reward), bool(terminated), bool(truncated))).encode())
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return digest.hexdigest()


def env_setups() -> Iterator[tuple[str, int]]:
    """cardcli's own games (a game another package installs has no golden digest here)."""
    for game in registry.MODULES:
        for players in sorted(registry.get(game).player_counts):
            yield game, players


def replay_digest(record: dict[str, Any], *args: str) -> str:
    """The digest of ``cardcli replay FILE ARGS`` for a file holding ``record``."""
    import hashlib
    import tempfile

    from click.testing import CliRunner

    from cardcli.cli import cli

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        deals = [{**deal, "moves": [{**move, "ms": 0.0} for move in deal["moves"]]} for deal in record["deals"]]
        whole = {**record, "deals": deals, "started": "", "finished": "", "software": "cardcli"}
        path.write_text(json.dumps(whole) + "\n")
        shown = CliRunner().invoke(cli, ["replay", str(path), *args], catch_exceptions=False)
        assert shown.exit_code == 0, shown.output
        return hashlib.sha256(shown.output.replace(folder, "DIR").encode()).hexdigest()


def replayed_records() -> Iterator[tuple[str, dict[str, Any]]]:
    """The golden records whose replay text is kept: the whole match of each game."""
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            game, _, _, _, _, deals = entry["match"]
            if deals > 3:
                yield game, entry["record"]


def digests() -> dict[str, str]:
    found = {f"env {game}/{players}": env_digest(game, players) for game, players in env_setups()}
    for game, record in replayed_records():
        found[f"replay {game}"] = replay_digest(record)
        found[f"replay {game} --seat 1"] = replay_digest(record, "--seat", "1")
    return found


def main() -> None:
    with gzip.open(GOLDEN, "wt", encoding="utf-8") as out:
        for match in matches():
            out.write(json.dumps({"match": list(match), "record": play(*match)}, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
    DIGESTS.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {DIGESTS}")


if __name__ == "__main__":
    main()
