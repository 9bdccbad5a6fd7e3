"""Fault handling with real misbehaving processes: the match always completes (replace policy)
or stops cleanly (abort policy), the fault is recorded against the right seat, and no bot
process outlives the match."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from conftest import alive, answered_before_fault, faulty, read_records, run_cli, run_json

FAST = ["--move-time", "1", "--startup-time", "5", "--quit-grace", "0.5"]


def play_with(bad_seat: str, record_path: Path, *extra: str) -> dict:
    return run_json("play", "peppa", "--seed", "3", *FAST, "--seat", bad_seat, "--seat", "random",
                    "--seat", "random", "--seat", "random", "--record", str(record_path), *extra)


def assert_forfeit(summary: dict, record_path: Path, kind: str) -> dict:
    assert summary["status"] == "complete"
    assert [(f["seat"], f["kind"]) for f in summary["faults"]] == [(0, kind)]
    assert 0 in summary["losers"], "a forfeited seat ranks last"
    assert summary["players"][0]["forfeit"] is True
    record = read_records(record_path)[0]
    assert [(f["seat"], f["kind"]) for f in record["faults"]] == [(0, kind)]
    assert run_cli("verify", str(record_path)).returncode == 0
    return record


@pytest.mark.parametrize(
    "flags, kind, detail, answered",
    [
        (("--crash-at", "2"), "crash", "exited with status 3", 1),
        (("--kill-self-at", "2"), "crash", "killed by signal SIGKILL", 1),
        (("--stall-at", "2"), "timeout", "no answer in time", 1),
        (("--illegal-at", "2"), "illegal", "'ZZ' refused", 1),
        (("--garbage-at", "2"), "malformed", "a move is one token: 'move'$", 1),
        (("--two-words-at", "2"), "malformed", r"a move is one token: 'move (\S+) \1'", 1),
        (("--long-at", "2"), "malformed", r"longer than 8192 bytes: b'info x{40}", 1),
        (("--bad-utf8-at", "2"), "malformed", r"invalid UTF-8: b'move \\xff\\xfe'", 1),
        (("--no-ready",), "timeout", "no answer during the handshake", None),
        (("--exit-at-start",), "crash", r"exited with status 0 \(during the handshake\)", None),
    ],
)
def test_each_fault_kind_is_recorded_and_the_match_completes(flags, kind, detail, answered, record_path: Path) -> None:
    """``answered``: the requests the bot answered before its fault (None: it never finished
    the handshake), so the fault is the one its flag asked for and at the request it named."""
    summary = play_with(faulty(*flags), record_path)
    record = assert_forfeit(summary, record_path, kind)
    assert re.search(detail, summary["faults"][0]["detail"]), "the detail quotes what the bot sent"
    if answered is None:
        assert record["faults"][0]["deal"] == 0 and answered_before_fault(record, 0, name=None) == []
    else:
        assert len(answered_before_fault(record, 0)) == answered


def test_a_second_answer_nobody_asked_for_is_a_protocol_fault_quoting_it(record_path: Path) -> None:
    summary = play_with(faulty("--double-at", "2"), record_path)
    record = assert_forfeit(summary, record_path, "protocol")
    answered = answered_before_fault(record, 0)
    assert len(answered) == 2, "its second answer was taken, the copy is the fault"
    assert f"move sent without a request: 'move {answered[1]['move']}'" in summary["faults"][0]["detail"]


def test_fallback_moves_are_marked_in_the_record(record_path: Path) -> None:
    record = assert_forfeit(play_with(faulty("--illegal-at", "3"), record_path), record_path, "illegal")
    by_seat0 = [m for d in record["deals"] for m in d["moves"] if m["seat"] == 0]
    assert all(m.get("by", "seat") == "seat" for m in by_seat0[:2])
    assert len(answered_before_fault(record, 0)) == 2
    assert all(m["by"] == "fallback" for m in by_seat0[2:])


def test_an_answer_just_inside_the_limit_is_not_a_fault(record_path: Path) -> None:
    summary = play_with(faulty("--slow-at", "2", "--delay", "0.4"), record_path)
    assert summary["faults"] == []
    record = read_records(record_path)[0]
    moves = [m for deal in record["deals"] for m in deal["moves"] if m["seat"] == 0]
    # the bot sleeps 400 ms from reading the request; the referee's clock starts once its write
    # has returned, which on a loaded machine can be a little after the bot began to sleep
    assert record["seats"][0]["bot"]["name"] == "faulty" and moves[1]["ms"] >= 300, "the answer was really slow"


def test_a_chatty_bot_with_info_unknown_lines_and_stderr_is_not_faulted(record_path: Path) -> None:
    summary = play_with(faulty("--chatty"), record_path, "--keep-info")
    assert summary["faults"] == []
    record = read_records(record_path)[0]
    assert record["info"]["0"][0] == "thinking hard"
    assert record["seats"][0]["ignored_lines"] > 0


def test_abort_policy_stops_the_match_with_exit_status_1(record_path: Path) -> None:
    proc = run_cli("play", "peppa", "--seed", "3", *FAST, "--on-fault", "abort",
                   "--seat", faulty("--illegal-at", "2"), "--seat", "random", "--seat", "random",
                   "--seat", "random", "--record", str(record_path), "--json")
    assert proc.returncode == 1
    record = read_records(record_path)[0]
    assert record["status"] == "aborted" and record["result"] is None
    assert [(f["seat"], f["kind"]) for f in record["faults"]] == [(0, "illegal")]
    assert "'ZZ' refused" in record["faults"][0]["detail"] and len(answered_before_fault(record, 0)) == 1
    assert run_cli("verify", str(record_path)).returncode == 0


@pytest.mark.parametrize("flags, faults", [(("--stall-at", "2"), [(0, "timeout")]), (("--ignore-quit",), []), ((), [])])
def test_no_bot_process_or_child_is_left_running(flags, faults, tmp_path: Path, record_path: Path) -> None:
    pidfile = tmp_path / "pids"
    summary = play_with(faulty("--spawn-child", "--pidfile", str(pidfile), *flags), record_path)
    assert [(f["seat"], f["kind"]) for f in summary["faults"]] == faults, "the bot played until its stall or the end"
    record = read_records(record_path)[0]
    if faults:
        assert len(answered_before_fault(record, 0)) == 1
    else:
        assert record["seats"][0]["bot"]["name"] == "faulty"
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pidfile.read_text().splitlines()) == 1
    assert len(pids) == 2
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)


def test_three_misbehaving_seats_leave_the_fourth_result_intact(record_path: Path) -> None:
    summary = run_json("play", "peppa", "--seed", "9", *FAST,
                       "--seat", faulty("--crash-at", "1"), "--seat", faulty("--stall-at", "3"),
                       "--seat", faulty("--illegal-at", "5"), "--seat", "random",
                       "--record", str(record_path))
    assert summary["status"] == "complete"
    assert sorted((f["seat"], f["kind"]) for f in summary["faults"]) == [(0, "crash"), (1, "timeout"), (2, "illegal")]
    assert summary["winners"] == [3]
    assert run_cli("verify", str(record_path)).returncode == 0
    record = read_records(record_path)[0]
    assert [len(answered_before_fault(record, seat)) for seat in (0, 1, 2)] == [0, 2, 4], "each at its own request"


def test_bot_stderr_is_drained_and_saved_per_seat_when_asked(tmp_path: Path, record_path: Path) -> None:
    logs = tmp_path / "logs"
    summary = play_with(faulty("--chatty"), record_path, "--bot-stderr", str(logs))
    assert summary["faults"] == []
    saved = (logs / "seat0.stderr").read_bytes()
    assert saved.startswith(b"noise noise")
    assert len(saved) <= 1 << 20, "stderr is kept only up to its cap"
