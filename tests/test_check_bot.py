"""``check-bot`` passes every shipped bot and fails each broken one with a clear reason."""

from __future__ import annotations

import json
import sys

import pytest

from conftest import BASH_BOT, PYTHON_BOT, ROOT, faulty, run_cli


@pytest.mark.parametrize("game", ["peppa", "seep", "pigugnin", "pepper"])
@pytest.mark.parametrize("bot", [PYTHON_BOT, BASH_BOT])
def test_the_shipped_bots_pass_every_check(game: str, bot: str) -> None:
    proc = run_cli("check-bot", game, "--", *bot.split())
    assert proc.returncode == 0, proc.stdout
    assert "the bot passes every check" in proc.stdout
    assert "[pass] quit" in proc.stdout and "[FAIL]" not in proc.stdout


@pytest.mark.parametrize(
    "bot, reason",
    [
        (faulty("--illegal-at", "1"), "illegal: 'ZZ'"),
        (faulty("--stall-at", "2"), "timeout"),
        (f"{sys.executable} {ROOT / 'tests/bots/unflushed_bot.py'}", "flush"),
        (faulty("--ignore-quit"), "still running"),
        (faulty("--crash-at", "3"), "crash: exited with status 3"),
    ],
)
def test_a_broken_bot_fails_with_a_clear_reason(bot: str, reason: str) -> None:
    proc = run_cli("check-bot", "peppa", "--move-time", "1", "--startup-time", "2", "--quit-grace", "0.5", "--json",
                   "--", *bot.split())
    assert proc.returncode == 1, proc.stdout
    data = json.loads(proc.stdout)
    assert data["ok"] is False
    failed = [s for s in data["steps"] if not s["ok"]]
    assert len(failed) == 1 and reason in failed[0]["detail"], failed


def test_check_bot_refuses_a_built_in_player_or_a_missing_program() -> None:
    assert run_cli("check-bot", "peppa", "--", "random").returncode == 2
    proc = run_cli("check-bot", "peppa", "--", "./no/such/bot")
    assert proc.returncode == 2 and "no such program" in proc.stderr
