"""The example bots in every language (Python, bash, C, JavaScript) play every game together.

The C bot is built here with the system compiler (``cc`` or ``gcc``; no compiler is a
failure, not a skip) and must compile without a warning under ``-Wall -Wextra``. The JS bot
needs ``node``. Each registered game is played at each of its player counts, seats cycling
through the four languages, and the record must verify; the C and JS bots must replay the
same moves from the same seeds.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import BASH_BOT, PYTHON_BOT, ROOT, live_processes, read_records, run_cli, run_json, wait_until_gone

from cardcli.games.registry import GAMES

C_SOURCE = ROOT / "bots/c/random_bot.c"
JS_BOT_PATH = ROOT / "bots/js/random_bot.js"
LANGUAGES = ("python", "bash", "c", "js")
MAX_DEALS = "40"

# (game, player count) for every registered game, in registry order.
CASES = [(name, count) for name, spec in GAMES.items() for count in spec.player_counts]


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C bot, compiled from source: a missing compiler or any warning fails."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "no C compiler (cc or gcc) on PATH: the C example bot cannot be built"
    binary = tmp_path_factory.mktemp("c_bot") / "random_bot"
    proc = subprocess.run(
        [compiler, "-O2", "-Wall", "-Wextra", "-o", str(binary), str(C_SOURCE)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0, f"{compiler} failed:\n{proc.stderr}"
    assert proc.stderr.strip() == "", f"{compiler} warned:\n{proc.stderr}"
    return binary


@pytest.fixture(scope="module")
def js_bot() -> str:
    node = shutil.which("node")
    assert node, "node is not on PATH: the JavaScript example bot cannot run"
    return f"{node} {JS_BOT_PATH}"


@pytest.fixture(scope="module")
def bots(c_bot: Path, js_bot: str) -> dict[str, str]:
    """Command line of each language's bot, without --seed."""
    return {"python": PYTHON_BOT, "bash": BASH_BOT, "c": str(c_bot), "js": js_bot}


@pytest.fixture(scope="module", autouse=True)
def no_c_or_js_bot_outlives_the_module(c_bot: Path):
    """Checked per module as well, so a leak is reported next to the tests that caused it."""
    marks = (str(c_bot), str(JS_BOT_PATH))
    before = set(live_processes(marks))
    yield
    left = wait_until_gone(before, marks)
    assert not left, f"bot processes left running: {left}"


def seat_args(bots: dict[str, str], languages: list[str], seed_base: int) -> list[str]:
    args: list[str] = []
    for seat, language in enumerate(languages):
        args += ["--seat", f"{bots[language]} --seed {seed_base + seat}"]
    return args


def moves_of(record: dict[str, Any]) -> list[tuple[int, int, str, str]]:
    return [(deal["number"], m["seat"], m["kind"], m["move"]) for deal in record["deals"] for m in deal["moves"]]


def test_every_game_is_covered_and_every_language_sits_in_a_short_handed_match() -> None:
    assert {name for name, _ in CASES} == set(GAMES)
    for language in LANGUAGES:
        assert any(
            language in [LANGUAGES[(index + seat) % 4] for seat in range(count)]
            for index, (_, count) in enumerate(CASES) if count < 4
        ), f"{language} bot never plays a 2- or 3-player match"


@pytest.mark.parametrize(
    "index, game, players", [(i, g, n) for i, (g, n) in enumerate(CASES)], ids=[f"{g}-{n}p" for g, n in CASES]
)
def test_bots_in_four_languages_play_a_match_that_verifies(
    index: int, game: str, players: int, bots: dict[str, str], tmp_path: Path
) -> None:
    # Seats cycle Python, bash, C, JS; the start shifts with each case so that 2- and
    # 3-player matches also seat the C and JS bots.
    languages = [LANGUAGES[(index + seat) % 4] for seat in range(players)]
    record_path = tmp_path / "r.jsonl"
    summary = run_json(
        "play", game, "--seed", str(100 + index), "--max-deals", MAX_DEALS,
        *seat_args(bots, languages, 10 * index + 1), "--record", str(record_path),
    )
    assert summary["status"] == "complete", summary
    assert summary["faults"] == [], summary["faults"]
    assert [p["name"] for p in summary["players"]] == [f"{lang}-random" for lang in languages]
    assert not any(p["forfeit"] for p in summary["players"])

    record = read_records(record_path)[0]
    assert [s["kind"] for s in record["seats"]] == ["process"] * players
    played_by = {m[1] for m in moves_of(record)}
    assert played_by == set(range(players)), "every seat made at least one decision"

    verified = run_cli("verify", str(record_path))
    assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.mark.parametrize("game, options", [("peppa", ["-o", "end_threshold=40"]), ("seep", [])])
def test_c_and_js_bots_replay_the_same_moves_from_the_same_seeds(
    game: str, options: list[str], bots: dict[str, str], tmp_path: Path
) -> None:
    # Only C and JS seats, so every move in the record is theirs; Peppa's pass offers 286
    # tokens (a long line, a wide choice), Seep's play lists change with every move.
    languages = ["c", "js", "c", "js"]
    runs = []
    for name, seed_base in (("a", 5), ("b", 5), ("other", 50)):
        path = tmp_path / f"{name}.jsonl"
        run_cli(
            "play", game, "--seed", "7", "--max-deals", MAX_DEALS, *options,
            *seat_args(bots, languages, seed_base), "--record", str(path), check=True,
        )
        record = read_records(path)[0]
        assert record["faults"] == []
        runs.append(moves_of(record))
    first, second, other = runs
    assert len(first) > 20
    assert first == second, "same game seed and bot seeds must give the same moves"
    assert first != other, "different bot seeds should give different moves"
