"""Bot options set by the referee: ``setoption NAME VALUE`` after ``ready`` and before the
first ``game`` header, only for options the bot declared; the rest recorded as not sent and
warned about once; values that are not one word refused before anything starts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cardcli.cli.common import option_assignment
from cardcli.errors import UsageError
from conftest import PYTHON_BOT, ROOT, read_records, run_cli

CLOCK = f"{sys.executable} {ROOT / 'tests/bots/clock_bot.py'}"


def clock(log: Path, *flags: str) -> str:
    return " ".join((CLOCK, "--log", str(log), *flags))


def play(tmp_path: Path, seat0: str, *extra: str) -> tuple[list[dict[str, Any]], str]:
    record_file = tmp_path / "games.jsonl"
    proc = run_cli("play", "pigugnin", "--seed", "4", "--max-deals", "1", "--seat", seat0, "--seat", "random",
                   "--seat", "random", "--seat", "random", "--record", str(record_file), *extra)
    assert proc.returncode == 0, proc.stderr
    return read_records(record_file), proc.stderr


def test_declared_options_are_sent_after_ready_and_before_the_first_game(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    records, err = play(tmp_path, clock(log, "--declare", "level=1", "--declare", "style=calm"),
                        "--seat-option", "0:level=3", "--seat-option", "0:style=wild", "--seat-option", "0:level=5",
                        "--games", "2")
    sent = log.read_text().splitlines()
    # one bot process for both matches: its options are set once, before its first header
    assert [line for line in sent if line.split()[0] in ("setoption", "game")] == [
        "setoption level 5", "setoption style wild", "game pigugnin standard 4 0", "game pigugnin standard 4 0"]
    for record in records:
        assert record["seats"][0]["set_options"] == [{"name": "level", "value": "5", "sent": True},
                                                     {"name": "style", "value": "wild", "sent": True}]
        assert "set_options" not in record["seats"][1]
    assert "warning" not in err


def test_an_undeclared_option_is_not_sent_recorded_as_such_and_warned_about_once(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    records, err = play(tmp_path, clock(log, "--declare", "level=1"), "--seat-option", "0:levle=3",
                        "--seat-option", "2:depth=4", "--games", "2")
    assert not [line for line in log.read_text().splitlines() if line.startswith("setoption")]
    for record in records:
        assert record["seats"][0]["set_options"] == [{"name": "levle", "value": "3", "sent": False}]
        assert record["seats"][2]["set_options"] == [{"name": "depth", "value": "4", "sent": False}]
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert warnings == [
        "cardcli: warning: seat 0: option levle was not sent: the bot did not declare it (it declares level)",
        "cardcli: warning: seat 2: option depth was not sent: the bot did not declare it (it declares no option)",
    ]


def test_the_shipped_python_bot_declares_think_ms_and_honours_it(tmp_path: Path) -> None:
    records, _ = play(tmp_path, f"{PYTHON_BOT} --seed 1", "--seat-option", "0:think_ms=100")
    (record,) = records
    assert record["seats"][0]["bot"]["options"] == [["think_ms", "0"]]
    assert record["seats"][0]["set_options"] == [{"name": "think_ms", "value": "100", "sent": True}]
    own = sorted(m["ms"] for deal in record["deals"] for m in deal["moves"] if m["seat"] == 0)
    assert own and own[len(own) // 2] >= 50, "it waits think_ms before each answer (its clock starts a little early)"


def test_a_bot_that_does_not_know_setoption_plays_on(tmp_path: Path) -> None:
    """A version 1 bot that declares an option but ignores lines it does not know (the shipped
    bots ignore every unknown first word) plays a normal match."""
    records, _ = play(tmp_path, clock(tmp_path / "bot.log", "--declare", "level=1"), "--seat-option", "0:level=2")
    assert records[0]["faults"] == [] and records[0]["result"] is not None


@pytest.mark.parametrize("item, problem", [
    ("0:level=a b", "holds a space or a line break"),
    ("0:level=a\nb", "holds a space or a line break"),
    ("0:level=", "the value of level is empty"),
    ("0:my level=1", "the name 'my level' holds a space"),
    ("0:level=\x07", "holds a control character"),
    ("0:level", "must be written SEAT:OPTION=VALUE"),
    ("4:level=1", "where SEAT is one of: 0, 1, 2, 3"),
    ("level=1", "must be written SEAT:OPTION=VALUE"),
])
def test_an_option_that_is_not_one_word_is_refused(item: str, problem: str) -> None:
    with pytest.raises(UsageError) as caught:
        option_assignment(item, "--seat-option", ["0", "1", "2", "3"], "seat")
    text = str(caught.value)
    assert text.startswith("--seat-option ") and "\n" not in text and problem in text, text


def test_the_command_refuses_such_an_option_before_any_bot_starts(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    proc = run_cli("play", "pigugnin", "--seat", f"{CLOCK} --log {marker}", "--seat", "random", "--seat", "random",
                   "--seat", "random", "--seat-option", "0:level=a\nb")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "cardcli: error: --seat-option '0:level=a\\nb': the value of level 'a\\nb' holds a space or a line break "
        "(an option's name and value are one word each)"]
    assert not marker.exists(), "no bot was started"


def test_tournament_bot_options_reach_every_process_of_the_entrant(tmp_path: Path) -> None:
    """``--bot-option NAME:OPTION=VALUE``: each bot process of the entrant gets it (a fresh
    one for each rotation of a deal set), every record lists it, and an undeclared one is
    warned about once for the whole tournament, whichever worker played it."""
    log = tmp_path / "bot.log"
    directory = tmp_path / "t"
    proc = run_cli("tournament", "pigugnin", "--bot", f"c={clock(log, '--declare', 'level=1')}", "--bot", "r=random",
                   "--bot-option", "c:level=7", "--bot-option", "c:nope=1", "--bot-option", "r:depth=2",
                   "--deal-sets", "2", "--max-deals", "1", "--seed", "5", "--dir", str(directory), "-j", "2",
                   "--sandbox", "off")
    assert proc.returncode == 0, proc.stderr
    lines = log.read_text().splitlines()
    starts = [line for line in lines if line.startswith("cwd ")]
    assert [line for line in lines if line.startswith("setoption")] == ["setoption level 7"] * len(starts)
    records = read_records(directory / "records.jsonl")
    for record in records:
        for seat, entrant in enumerate(record["tournament"]["entrants"]):
            options = record["seats"][seat]["set_options"]
            if entrant == "c":
                assert options == [{"name": "level", "value": "7", "sent": True},
                                   {"name": "nope", "value": "1", "sent": False}]
            else:
                assert options == [{"name": "depth", "value": "2", "sent": False}]
    warnings = sorted(line for line in proc.stderr.splitlines() if "warning" in line)
    assert warnings == [
        "cardcli: warning: entrant c: option nope was not sent: the bot did not declare it (it declares level)",
        "cardcli: warning: entrant r: option depth was not sent: the bot did not declare it (it declares no option)",
    ]
    config = json.loads((directory / "config.json").read_text())
    assert config["entrant_settings"]["c"]["options"] == {"level": "7", "nope": "1"}
    again = run_cli("tournament", "--resume", str(directory), "--bot-option", "c:level=8")
    assert again.returncode == 2 and "--bot-option is for a new tournament" in again.stderr


@pytest.mark.parametrize("item, problem", [
    ("nobody:level=1", "where NAME is one of: c, r"),
    ("c:level=two words", "holds a space or a line break"),
    ("c:=1", "the name is empty"),
])
def test_a_bad_bot_option_is_a_one_line_error(tmp_path: Path, item: str, problem: str) -> None:
    proc = run_cli("tournament", "pigugnin", "--bot", "c=random", "--bot", "r=random", "--bot-option", item,
                   "--dir", str(tmp_path / "t"))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardcli: error: --bot-option") and problem in lines[0], lines
    assert not (tmp_path / "t").exists()
