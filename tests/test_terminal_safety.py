"""Untrusted text never reaches the terminal raw.

A bot's handshake and ``info`` lines and every string in a record file are written by somebody
who may want to win: escape sequences in a name could clear the reader's screen, set the window
title, write the clipboard (OSC 52), or move the cursor up and overwrite the winners line with
a forged one. Every command shows such text escaped and visible instead
(``cardcli.safe_text.printable``), on a pipe and on a terminal alike.
"""

from __future__ import annotations

import json
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcli.safe_text import NAME_WIDTH, display_name, printable
from cardcli.tournament.results import Table, render
from conftest import ROOT, run_cli

ESCAPE_BOT = f"{sys.executable} {ROOT / 'tests/bots/escape_bot.py'}"
HOSTILE_NAME: str = runpy.run_path(str(ROOT / "tests/bots/escape_bot.py"))["NAME"]

RAW_UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
"""What must never be printed raw: C0 controls but the newline (ESC, BEL, CR, backspace...),
DEL, C1 controls, bidi marks, overrides and isolates, line and paragraph separators, and
surrogates."""


def assert_clean(text: str, what: str) -> None:
    """Fail with the offending character in context, so a regression says where it leaked."""
    found = RAW_UNSAFE.search(text)
    if found is not None:
        context = text[max(0, found.start() - 60):found.end() + 20]
        raise AssertionError(f"{what}: a raw {found.group()!r} reached the output: {context!r}")


def assert_no_traceback(proc: subprocess.CompletedProcess[str], what: str) -> None:
    assert "Traceback" not in proc.stderr, f"{what} crashed:\n{proc.stderr}"


def lines_starting(text: str, prefix: str) -> list[str]:
    """The lines a reader would take for the program's own (a forged one must not be among them)."""
    return [line for line in text.splitlines() if line.startswith(prefix)]


# -- a real hostile bot -----------------------------------------------------------------------

Match = tuple[subprocess.CompletedProcess[str], Path]


@pytest.fixture(scope="module")
def hostile_match(tmp_path_factory: pytest.TempPathFactory) -> Match:
    """One Peppa match with the escape bot in seat 0, recorded."""
    path = tmp_path_factory.mktemp("hostile") / "r.jsonl"
    proc = run_cli("play", "peppa", "--seed", "3", "--seat", ESCAPE_BOT, "--seat", "random", "--seat", "random",
                   "--seat", "random", "--record", str(path), check=True)
    return proc, path


def test_play_summary_shows_a_hostile_name_escaped(hostile_match: Match) -> None:
    proc, _ = hostile_match
    out, err = proc.stdout, proc.stderr
    assert_clean(out, "play stdout")
    assert_clean(err, "play stderr")
    assert "0:\\x1b[2J\\x1b]0;pwned\\x07" in out, "the escaped name is visible"
    assert len(lines_starting(out, "winners:")) == 1, "nobody can add a winners line"
    assert f"... ({len(HOSTILE_NAME)} chars)" in out, "a long name is cut and its length given"


def test_verbose_protocol_log_escapes_what_the_bot_says() -> None:
    proc = run_cli("play", "peppa", "--seed", "3", "--max-deals", "1", "--verbose", "--seat", ESCAPE_BOT,
                   "--seat", "random", "--seat", "random", "--seat", "random", check=True)
    assert_clean(proc.stdout, "play --verbose stdout")
    assert_clean(proc.stderr, "play --verbose stderr")
    assert "seat0 >> id name \\x1b[2J\\x1b]0;pwned\\x07\\x1b]52;c;ZWNobyBwd25lZA==\\x07escape\\x1b[1A\\r" in proc.stderr
    assert "seat0 >> info \\x1b[2J\\u202eniw" in proc.stderr


def test_replay_of_a_hostile_bots_record_is_escaped(hostile_match: Match) -> None:
    _, path = hostile_match
    proc = run_cli("replay", str(path), check=True)
    assert_clean(proc.stdout, "replay stdout")
    assert_clean(proc.stderr, "replay stderr")
    assert "hand of 0:\\x1b[2J" in proc.stdout
    assert len(lines_starting(proc.stdout, "winners:")) == 1


def test_watch_of_a_hostile_bots_record_is_escaped(hostile_match: Match) -> None:
    _, path = hostile_match
    proc = run_cli("watch", "--once", str(path), check=True)
    assert_clean(proc.stdout, "watch stdout")
    assert_clean(proc.stderr, "watch stderr")
    assert "\\x1b[2J\\x1b]0;pwned" in proc.stdout


def test_replay_on_a_terminal_sends_no_escape_sequence(hostile_match: Match) -> None:
    """On a terminal nothing strips sequences on the way (click only does so for pipes)."""
    _, path = hostile_match
    child = pexpect.spawn(sys.executable, ["-m", "cardcli", "replay", str(path)], cwd=str(ROOT),
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    screen = child.before.decode("utf-8").replace("\r\n", "\n")
    assert child.exitstatus == 0
    assert_clean(screen, "replay on a terminal")
    assert "\\x1b]52;c;" in screen


def test_json_summary_keeps_the_name_exact_with_control_characters_escaped() -> None:
    """JSON is for programs, so the name is kept exactly as the bot sent it; ESC, BEL and CR
    are written as JSON escapes, so the sequences do not act on a terminal showing it."""
    proc = run_cli("play", "peppa", "--seed", "3", "--max-deals", "1", "--json", "--seat", ESCAPE_BOT,
                   "--seat", "random", "--seat", "random", "--seat", "random", check=True)
    assert not re.search("[\x00-\x1f]", proc.stdout.rstrip("\n"))
    assert json.loads(proc.stdout)["players"][0]["name"] == HOSTILE_NAME


# -- crafted record files ---------------------------------------------------------------------

CRAFTED_NAMES = [
    "\x1b]0;pwned\x07",
    "\u202eevil\u2028next\u2066",
    "long" * 75,
    "a\r\nwinners: 3:forged\x1b[1A",
]
FAULT = {"seat": 1, "kind": "crash\x1b[2J", "detail": "\x1b]52;c;ZWNobyBwd25lZA==\x07\x9b", "deal": 1, "move": 0}


@pytest.fixture(scope="module")
def real_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("real") / "r.jsonl"
    run_cli("play", "seep", "--seed", "5", "--record", str(path), check=True)
    return json.loads(path.read_text())


def crafted(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of a real record with hostile seat names and the given fields changed."""
    copy = json.loads(json.dumps(record))
    for seat, name in zip(copy["seats"], CRAFTED_NAMES):
        seat["name"] = name
    copy.update(changes)
    return copy


@pytest.fixture(scope="module")
def crafted_files(tmp_path_factory: pytest.TempPathFactory, real_record: dict[str, Any]) -> dict[str, Path]:
    """One record file per way of planting text: hostile names only (the record still
    verifies); a made-up fault; a hostile variant; a lone surrogate in a name. Each is written
    with every non-ASCII character as a JSON escape, the only way to write a lone surrogate."""
    surrogate = crafted(real_record)
    surrogate["seats"][0]["name"] = "lone\ud800surrogate"
    records = {
        "names": crafted(real_record),
        "fault": crafted(real_record, faults=[FAULT]),
        "variant": crafted(real_record, variant="standard\x1b[2J\u202e"),
        "surrogate": surrogate,
    }
    folder = tmp_path_factory.mktemp("crafted")
    for name, record in records.items():
        (folder / f"{name}.jsonl").write_text(json.dumps(record, ensure_ascii=True) + "\n", encoding="ascii")
    return {name: folder / f"{name}.jsonl" for name in records}


def test_replay_shows_crafted_names_escaped_and_bounded(crafted_files: dict[str, Path]) -> None:
    proc = run_cli("replay", str(crafted_files["names"]))
    assert_no_traceback(proc, "replay")
    assert proc.returncode == 0, proc.stderr
    assert_clean(proc.stdout, "replay stdout")
    assert "seats: 0:\\x1b]0;pwned\\x07, 1:\\u202eevil\\u2028next\\u2066, " in proc.stdout
    assert f"2:{'long' * 10}... (300 chars)" in proc.stdout
    assert "3:a\\r\\nwinners: 3:forged\\x1b[1A" in proc.stdout
    assert len(lines_starting(proc.stdout, "winners:")) == 1


def test_watch_shows_crafted_names_escaped(crafted_files: dict[str, Path]) -> None:
    proc = run_cli("watch", "--once", str(crafted_files["names"]))
    assert_no_traceback(proc, "watch")
    assert proc.returncode == 0, proc.stderr
    assert_clean(proc.stdout, "watch stdout")
    assert_clean(proc.stderr, "watch stderr")
    assert "\\x1b]0;pwned\\x07" in proc.stdout and "\\u202eevil" in proc.stdout


def test_verify_accepts_a_record_whose_only_oddity_is_its_names(crafted_files: dict[str, Path]) -> None:
    proc = run_cli("verify", str(crafted_files["names"]))
    assert proc.returncode == 0, proc.stdout
    assert_clean(proc.stdout, "verify stdout")


@pytest.mark.parametrize("which, shown", [
    ("fault", "! seat 1 crash\\x1b[2J: \\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x9b"),
    ("variant", "variant standard\\x1b[2J\\u202e"),
    ("surrogate", "0:lone\\ud800surrogate"),
])
def test_replay_of_a_crafted_record_that_does_not_verify_prints_nothing_raw(
    crafted_files: dict[str, Path], which: str, shown: str
) -> None:
    """Such a record is refused as it is read (exit 2) or stops where it differs (exit 1);
    what it printed before that is escaped, and the error is one line."""
    proc = run_cli("replay", str(crafted_files[which]))
    assert_no_traceback(proc, "replay")
    assert proc.returncode in (1, 2) and proc.stderr.startswith("cardcli: error:")
    assert len(proc.stderr.splitlines()) == 1
    assert_clean(proc.stdout, "replay stdout")
    assert_clean(proc.stderr, "replay stderr")
    if which == "fault":
        # the fault is made up: the walk refuses it where its fallback moves should begin,
        # before any line that would show its hostile text
        assert "seat 1, deal 1" in proc.stderr and shown not in proc.stdout
    elif proc.stdout:
        assert shown in proc.stdout


WATCH_SHOWS = {"fault": "seed 5, 4 deals", "variant": "seep standard\\x1b[2J\\u202e seed 5",
               "surrogate": "lone\\ud800surrogate"}
"""What ``watch`` prints of each crafted record when it shows it."""


@pytest.mark.parametrize("which", ["fault", "variant", "surrogate"])
@pytest.mark.parametrize("command", [["watch", "--once"], ["verify"], ["verify", "--json"]])
def test_crafted_records_reach_watch_and_verify_escaped_or_refused(
    crafted_files: dict[str, Path], which: str, command: list[str]
) -> None:
    """Printed raw, a lone surrogate raises UnicodeEncodeError and the others act on the
    terminal: each command shows the record escaped or refuses it in a line; never a crash."""
    proc = run_cli(*command, str(crafted_files[which]))
    assert_no_traceback(proc, " ".join(command))
    assert_clean(proc.stdout, "stdout")
    assert_clean(proc.stderr, "stderr")
    if command[0] == "verify":
        assert proc.returncode == 1, proc.stdout
    else:
        assert proc.returncode in (0, 2)
    if command == ["verify", "--json"]:
        assert json.loads(proc.stdout)["ok"] is False
    if command[0] == "watch" and proc.returncode == 0:
        assert WATCH_SHOWS[which] in proc.stdout


# -- the tournament table ---------------------------------------------------------------------


def test_tournament_table_escapes_entrant_names_and_fault_kinds() -> None:
    names = ["\x1b[2Jclear", "\u202eright", "plain"]
    rows = tuple(
        {"rank": 1, "entrant": n, "ordinal": 22.0, "rating": 25.0, "rating_ci": 1.0, "matches": 1, "wins": 0,
         "draws": 0, "losses": 1,
         "score_per_deal": 0.0, "score_per_deal_ci": None, "faults": {"crash\x07": 1}}
        for n in names
    )
    text = render(Table(rows, {}, 1, False), names)
    assert_clean(text, "tournament table")
    assert "\\x1b[2Jclear" in text and "\\u202eright" in text and "crash\\x07 1" in text


# -- printable --------------------------------------------------------------------------------


@pytest.mark.parametrize("raw, shown", [
    ("\x1b", "\\x1b"),      # ESC
    ("\x07", "\\x07"),      # BEL
    ("\x08", "\\x08"),      # backspace
    ("\x00", "\\x00"),
    ("\r", "\\r"),
    ("\n", "\\n"),
    ("\t", "\\t"),
    ("\x7f", "\\x7f"),      # DEL
    ("\x80", "\\x80"),      # C1
    ("\x9b", "\\x9b"),      # C1 CSI
    ("\x9f", "\\x9f"),
    ("\u202a", "\\u202a"),  # bidi embeddings and overrides
    ("\u202e", "\\u202e"),
    ("\u2066", "\\u2066"),  # bidi isolates
    ("\u2069", "\\u2069"),
    ("\u200e", "\\u200e"),  # bidi marks
    ("\u200f", "\\u200f"),
    ("\u061c", "\\u061c"),
    ("\u2028", "\\u2028"),  # line and paragraph separators
    ("\u2029", "\\u2029"),
    ("\ud800", "\\ud800"),  # lone surrogates
    ("\udfff", "\\udfff"),
    ("\U000e0041", "\\U000e0041"),  # an invisible tag character
])
def test_printable_escapes_each_unsafe_character_visibly(raw: str, shown: str) -> None:
    assert printable(f"a{raw}b") == f"a{shown}b"
    printable(raw).encode("utf-8")


@pytest.mark.parametrize("text", ["random", "Pigugnìn", "♠♥♦♣ 10♦", "Zoë Ødegård", "日本語の名前", "a b-c_d.e", ""])
def test_printable_leaves_ordinary_text_alone(text: str) -> None:
    assert printable(text) == text
    assert display_name(text) == text


def test_names_are_bounded_with_a_visible_marker_and_the_full_length() -> None:
    assert display_name("x" * NAME_WIDTH) == "x" * NAME_WIDTH
    assert display_name("x" * 100) == "x" * NAME_WIDTH + "... (100 chars)"
    assert printable("a" * 38 + "\x1b[2J", 40) == "a" * 38 + "... (42 chars)", "an escape is never split"


def test_printable_shows_values_that_are_not_text() -> None:
    assert printable(7) == "7"
    assert printable(None) == "None"
    assert printable(["a\x1b"]) == "['a\\x1b']"


@given(st.text(st.characters(exclude_categories=())), st.none() | st.integers(min_value=0, max_value=100))
def test_printable_never_lets_an_unsafe_character_through(text: str, width: int | None) -> None:
    shown = printable(text, width)
    assert not RAW_UNSAFE.search(shown)
    shown.encode("utf-8")
    if width is not None and len(shown) > width:
        assert shown.endswith(f"... ({len(text)} chars)")
