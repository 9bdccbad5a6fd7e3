"""Fault messages that say what went wrong: each mistake a new bot author makes, made by a real
bot process through ``cardcli play``, gets a detail that names its cause and what to do, not
just the fault's kind (``docs/tutorial.md``, "When your bot fails")."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from conftest import answered_before_fault, faulty, read_records, run_cli, run_json

FAST = ["--move-time", "1", "--startup-time", "2", "--quit-grace", "0.5"]


def play_with(bad_seat: str, record_path: Path, *extra: str) -> dict[str, Any]:
    return run_json("play", "peppa", "--seed", "3", *FAST, "--seat", bad_seat, "--seat", "random",
                    "--seat", "random", "--seat", "random", "--record", str(record_path), *extra)


def only_fault(summary: dict[str, Any], kind: str) -> str:
    assert [(f["seat"], f["kind"]) for f in summary["faults"]] == [(0, kind)], summary["faults"]
    return summary["faults"][0]["detail"]


def test_an_unflushed_handshake_says_nothing_arrived_once_and_hints_at_flushing(record_path: Path) -> None:
    detail = only_fault(play_with(faulty("--no-flush"), record_path), "timeout")
    assert detail.count("during the handshake") == 1, detail
    assert "within 2 s" in detail and "nothing received" in detail and "flush after every line" in detail
    assert answered_before_fault(read_records(record_path)[0], 0, name=None) == []


def test_id_without_ready_says_what_arrived_and_what_is_missing(record_path: Path) -> None:
    detail = only_fault(play_with(faulty("--id-no-ready"), record_path), "timeout")
    assert detail == "no 'ready' during the handshake within 2 s; received: id name mybot, id author me"
    assert "flush" not in detail, "the lines did arrive: the flush hint would be wrong"


def test_id_without_ready_gets_no_flush_hint_from_check_bot() -> None:
    proc = run_cli("check-bot", "peppa", "--startup-time", "1", "--sandbox", "off", "--json", "--",
                   *faulty("--id-no-ready").split())
    failed = [s for s in json.loads(proc.stdout)["steps"] if not s["ok"]]
    assert len(failed) == 1 and "received: id name mybot" in failed[0]["detail"], failed
    assert "flush" not in failed[0]["detail"]


def test_a_move_without_move_is_a_fault_at_once_that_says_how_answers_start(record_path: Path) -> None:
    """A bot that answers ``QS`` for ``move QS``: told at its first bare answer, under a move
    time of 30 s, and never put down to debug output."""
    started = time.monotonic()
    proc = run_cli("play", "peppa", "--seed", "3", *FAST, "--move-time", "30", "--seat", faulty("--bare-move-at", "2"),
                   "--seat", "random", "--seat", "random", "--seat", "random", "--record", str(record_path), "--json")
    took = time.monotonic() - started
    detail = only_fault(json.loads(proc.stdout), "malformed")
    record = read_records(record_path)[0]
    assert len(answered_before_fault(record, 0)) == 1
    assert re.fullmatch(r"'(\S+)' on a line of its own: answers start with 'move ' \(write 'move \1'\)", detail), detail
    assert took < 15, f"the fault waited out the clock: {took:.1f} s"
    assert "debug output" not in proc.stderr, proc.stderr


def test_a_bare_move_in_verbose_is_not_called_an_ignored_line() -> None:
    proc = run_cli("play", "peppa", "--seed", "3", *FAST, "--verbose", "--seat", faulty("--bare-move-at", "2"),
                   "--seat", "random", "--seat", "random", "--seat", "random")
    assert proc.returncode == 0, proc.stderr
    bare = [line for line in proc.stderr.splitlines() if re.search(r"seat0 >> [2-9TJQKA][CDHS]$", line)]
    assert len(bare) == 1, proc.stderr
    assert "debug output belongs on stderr" not in proc.stderr


def test_the_time_field_answered_as_a_move_is_named_as_the_time_limit(record_path: Path) -> None:
    detail = only_fault(play_with(faulty("--time-as-move-at", "2"), record_path), "illegal")
    assert detail == ("'1000' refused: it is the request's time limit in milliseconds, the third word of 'go', "
                      "not a move; the moves start at the fourth word ('go play 1000 MOVE MOVE ...')"), detail
    assert "not a card" not in detail
    assert len(answered_before_fault(read_records(record_path)[0], 0)) == 1


def test_a_slow_answer_names_the_limit_and_the_time_taken(record_path: Path) -> None:
    detail = only_fault(play_with(faulty("--slow-at", "2", "--delay", "1.6"), record_path), "timeout")
    match = re.match(r"no answer in time \(limit 1 s, waited (\d\.\d\d) s\); nothing received", detail)
    assert match is not None and float(match.group(1)) >= 1.0, detail


def test_debug_output_on_stdout_is_warned_once_per_bot_and_marked_in_verbose(tmp_path: Path) -> None:
    """Two matches with one kept-alive bot: one warning (a long tournament is not flooded),
    and every ignored line marked in the --verbose log."""
    proc = run_cli("play", "peppa", "--seed", "3", *FAST, "--games", "2", "--verbose", "--json",
                   "--seat", faulty("--debug-stdout"), "--seat", "random", "--seat", "random", "--seat", "random")
    assert proc.returncode == 0, proc.stderr
    summaries = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(summaries) == 2 and all(s["faults"] == [] for s in summaries), "ignored lines are no fault"
    warnings = [line for line in proc.stderr.splitlines() if "lines the protocol ignores" in line]
    assert len(warnings) == 1, warnings
    assert re.search(r"cardcli: seat 0 \(faulty\) sent \d+ lines the protocol ignores "
                     r"\(first: 'considering \d+ moves'\); debug output belongs on stderr", warnings[0])
    marked = [line for line in proc.stderr.splitlines() if ">> best so far:" in line]
    assert marked and all("[ignored: not a protocol line" in line for line in marked)
    assert not [line for line in proc.stderr.splitlines() if ">> move " in line and "ignored" in line]


def test_a_crash_quotes_the_end_of_the_traceback(record_path: Path) -> None:
    detail = only_fault(play_with(faulty("--traceback-at", "2"), record_path), "crash")
    assert detail.startswith("exited with status 1; its stderr ended: "), detail
    assert detail.endswith("IndexError: list index out of range"), "the traceback's last line"
    assert "in choose" in detail and len(detail) <= 300
    assert len(answered_before_fault(read_records(record_path)[0], 0)) == 1


def test_an_exit_after_result_says_the_bot_left_between_matches(record_path: Path) -> None:
    proc = run_cli("play", "peppa", "--seed", "3", *FAST, "--games", "2", "--json", "--record", str(record_path),
                   "--seat", faulty("--exit-after-result"), "--seat", "random", "--seat", "random", "--seat", "random")
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert first["faults"] == [], "the first match was played to its end"
    detail = only_fault(second, "crash")
    assert detail == ("exited with status 0 between matches (after 'result'): "
                      "a bot must keep reading until 'quit'"), detail

