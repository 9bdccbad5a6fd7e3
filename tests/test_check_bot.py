"""``check-bot`` passes every shipped bot and fails each broken one with a clear reason."""

from __future__ import annotations

import json
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import BASH_BOT, PYTHON_BOT, ROOT, faulty, run_cli

from cardcli.games import registry


@pytest.mark.parametrize("game", ["peppa", "seep", "pigugnin", "pepper"])
@pytest.mark.parametrize("bot", [PYTHON_BOT, BASH_BOT])
def test_the_shipped_bots_pass_every_check(game: str, bot: str) -> None:
    proc = run_cli("check-bot", game, "--", *bot.split())
    assert proc.returncode == 0, proc.stdout
    assert "the bot passes every check" in proc.stdout
    assert "[FAIL]" not in proc.stdout and "[warn]" not in proc.stdout, proc.stdout
    for count in registry.get(game).player_counts:  # every count the game is played by, by default
        assert f"[pass] {count} players: quit: exited after 'quit'" in proc.stdout
        assert f"[pass] {count} players: match 2 " in proc.stdout


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


def check_json(*args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli("check-bot", *args[:args.index("--")], "--json", *args[args.index("--"):])
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_a_failure_shows_the_request_the_answer_and_a_command_that_plays_it_again(tmp_path: Path) -> None:
    code, data = check_json("peppa", "--players", "4", "--seed", "5", "--", *faulty("--illegal-at", "30").split())
    assert code == 1
    failure = data["failure"]
    assert failure["request"].startswith("go play ") and failure["answer"] == ["move ZZ"]
    assert failure["deal"] >= 1 and failure["match"] == 1
    # the command plays the same match: the same fault at the same deal
    words = shlex.split(failure["reproduce"])
    assert words[:3] == ["cardcli", "play", "peppa"] and "--seed" in words
    record = tmp_path / "again.jsonl"
    run_cli(*words[1:], "--record", str(record))
    fault = json.loads(record.read_text())["faults"][0]
    assert (fault["kind"], fault["deal"], fault["move"] + 1) == ("illegal", failure["deal"], failure["move"])
    text = run_cli("check-bot", "peppa", "--players", "4", "--seed", "5", "--", *faulty("--illegal-at", "30").split())
    assert "request: << go play" in text.stdout and "answer:  >> move ZZ" in text.stdout
    assert "again:   cardcli play peppa --seed 5" in text.stdout


def test_a_bot_that_exits_after_result_fails_on_its_second_match() -> None:
    code, data = check_json("seep", "--players", "2", "--", *faulty("--exit-after-result").split())
    assert code == 1
    failed = [s for s in data["steps"] if not s["ok"]]
    assert failed[0]["name"].startswith("2 players: match 2")
    assert "between matches" in failed[0]["detail"] and "--games 2" in data["failure"]["reproduce"]


def test_options_variant_and_player_counts_are_those_given() -> None:
    code, data = check_json("peppa", "--variant", "standard", "-o", "end_threshold=1", "--", *PYTHON_BOT.split())
    assert code == 0, data
    matches = [s for s in data["steps"] if " match " in s["name"]]
    assert matches and all(s["detail"] == "complete, 1 deals" for s in matches)
    code, data = check_json("pigugnin", "--", *PYTHON_BOT.split())
    assert {s["name"].split(" ")[0] for s in data["steps"]} == {"4", "5"}
    code, data = check_json("seep", "--players", "3", "--", *PYTHON_BOT.split())
    assert {s["name"].split(" ")[0] for s in data["steps"]} == {"3"}
    proc = run_cli("check-bot", "peppa", "--players", "5", "--", *PYTHON_BOT.split())
    assert proc.returncode == 2 and "4 players, not 5" in proc.stderr
    proc = run_cli("check-bot", "peppa", "-o", "no_such=1", "--", *PYTHON_BOT.split())
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_bot_stderr_is_saved_per_player_count(tmp_path: Path) -> None:
    code, _ = check_json("pigugnin", "--bot-stderr", str(tmp_path / "err"), "--", *faulty("--chatty").split())
    assert code == 0
    for count in (4, 5):
        assert "noise noise" in (tmp_path / "err" / f"{count}-players" / "seat0.stderr").read_text()


@pytest.mark.parametrize(
    "flags, options, warning",
    [
        (("--debug-stdout",), (), "lines on stdout that the protocol ignores (first: 'considering"),
        ((), (), "no 'id author / id version'"),
        (("--slow-at", "2", "--delay", "1.2"), ("--move-time", "2"), "slow: an answer took 1"),
        (("--spawn-child",), ("--sandbox", "off"), "left 1 process(es) running after it exited on 'quit'"),
    ],
)
def test_allowed_but_risky_behaviour_is_a_warning_not_a_failure(flags: tuple[str, ...], options: tuple[str, ...],
                                                                 warning: str) -> None:
    code, data = check_json("peppa", *options, "--", *faulty(*flags).split())
    assert code == 0 and data["ok"], data
    assert any(warning in w for w in data["warnings"]), data["warnings"]


def test_the_slow_warning_states_its_share_of_the_move_time() -> None:
    code, data = check_json("peppa", "--move-time", "2", "--", *faulty("--slow-at", "2", "--delay", "1.2").split())
    assert code == 0
    [slow] = [w for w in data["warnings"] if w.startswith("slow:")]
    assert re.fullmatch(r"slow: an answer took 1\d{3} ms, over 50% of the 2 s move time; a busy tournament host "
                        r"can make that a timeout", slow), slow


def test_a_slow_bot_is_checked_within_the_time_budget_and_the_output_says_how() -> None:
    """A bot that takes 0.1 s over every answer would take about 25 s over the two whole
    matches of a check; with a budget of 6 s its first match is stopped, and the check plays
    one-deal matches on a new process instead, printing each step as it goes."""
    args = ("check-bot", "peppa", "--move-time", "1", "--time-budget", "6", "--", *faulty("--think", "0.1").split())
    started = time.monotonic()
    proc = run_cli(*args)
    took = time.monotonic() - started
    assert proc.returncode == 0, proc.stdout
    assert took < 15, f"{took:.1f} s"
    lines = proc.stdout.splitlines()
    [note] = [line for line in lines if line.startswith("[note] ")]
    assert re.match(r"\[note\] 4 players: match 1 stopped after \d+ deals? in [\d.]+ s \([\d.]+ s a deal\), too slow "
                    r"for the 6 s of the time budget this player count has; checked again on a new bot process, "
                    r"with matches of at most 1 deal$", note), note
    matches = [line for line in lines if line.startswith("[pass] 4 players: match ")]
    assert len(matches) == 2 and all("complete, 1 deals (adjudicated after 1 deal, to keep within the time budget)"
                                     in line for line in matches), matches
    assert re.search(r"^\[time\] the check took [\d.]+ s, (within|over) its time budget of 6 s \(--time-budget\)$",
                     proc.stdout, re.M), proc.stdout
    assert lines[-1] == "the bot passes every check"


def test_a_failure_in_budget_shortened_matches_is_played_again_the_same(tmp_path: Path) -> None:
    """The bot's first deal (14 requests of 0.2 s) takes more than a quarter of the 6 s
    budget however fast the machine is, so the first match is always stopped at the start of
    deal 2, before the illegal answer (request 20); a loaded machine only stops it sooner."""
    code, data = check_json("peppa", "--move-time", "1", "--time-budget", "6", "--",
                            *faulty("--think", "0.2", "--illegal-at", "20").split())
    assert code == 1 and data["notes"], data
    failure = data["failure"]
    assert failure["match"] == 2 and "--max-deals 1 " in failure["reproduce"], failure
    record = tmp_path / "again.jsonl"
    run_cli(*shlex.split(failure["reproduce"])[1:], "--record", str(record))
    fault = [json.loads(line) for line in record.read_text().splitlines()][-1]["faults"][0]
    assert (fault["kind"], fault["deal"], fault["move"] + 1) == ("illegal", failure["deal"], failure["move"])


def test_a_fast_bot_is_not_stopped_by_the_budget() -> None:
    code, data = check_json("seep", "--", *PYTHON_BOT.split())
    assert code == 0 and data["notes"] == [] and data["time_budget"] == 60
    assert not any("time budget" in s["detail"] for s in data["steps"])
    code, data = check_json("seep", "--players", "2", "--time-budget", "0", "--", *PYTHON_BOT.split())
    assert code == 0 and data["time_budget"] is None


def test_a_kind_of_request_only_the_bots_own_play_brings_about_is_explained() -> None:
    """The faulty bot always bids the first offered bid, so it never wins a Pepper auction and
    is never asked for trump: no seed would change that, so none is suggested."""
    code, data = check_json("pepper", "--players", "4", "--", *faulty().split())
    assert code == 0
    said = [w for w in data["warnings"] if "'trump' requests not checked" in w]
    assert said and "wins the auction" in said[0] and "seed" not in said[0]
