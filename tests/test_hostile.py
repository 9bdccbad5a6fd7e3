"""Hostile and broken bots, each case with a real process (the table in docs/faults.md):
the match goes on, the fault is recorded against the right seat with its own kind, memory
stays bounded and no process is left behind.

Cases that are timing logic alone (an answer just inside or just after the limit, an empty
line then silence) are tested to the microsecond on a scripted bot and a clock that moves
only when told (tests/test_protocol_scripted.py); here stay the ones a real process must show:
a stalled process really cut off at its real deadline, in the handshake and at a request, and
an answer inside the limit measured by the real clock, with wide margins."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from cardcli.seats.base import Request
from cardcli.seats.process import ProcessSeat
from conftest import FAULTY_BOT, ROOT, alive, answered_before_fault, faulty, read_records, run_cli, run_json

FAST = ["--move-time", "1", "--startup-time", "3", "--quit-grace", "0.5"]


def play_one_bad_seat(bad: str, record_path: Path, *extra: str) -> dict:
    return run_json("play", "pigugnin", "--seed", "4", *FAST, "--seat", bad, "--seat", "random",
                    "--seat", "random", "--seat", "random", "--record", str(record_path), *extra)


def only_fault(summary: dict) -> tuple[int, str, str]:
    assert summary["status"] == "complete"
    assert len(summary["faults"]) == 1, summary["faults"]
    fault = summary["faults"][0]
    return fault["seat"], fault["kind"], fault["detail"]


@pytest.mark.parametrize(
    "flags, kind, detail, answered",
    [
        (("--ready-delay", "5"), "timeout", "during the handshake", None),
        (("--exit-zero-at", "3"), "crash", "exited with status 0", 2),
        (("--stall-at", "2"), "timeout", "no answer in time", 1),
        (("--endless-at", "2"), "malformed", "longer than 8192 bytes: b'yyyyyyyy", 1),
        (("--close-stdout-at", "2"), "crash", "closed its output but is still running", 1),
        (("--stop-reading-at", "2"), "timeout", "no answer in time", 2),
    ],
)
def test_each_hostile_case_is_its_own_recorded_fault(flags, kind, detail, answered, record_path: Path) -> None:
    """``answered``: the requests the bot answered before its fault (None: it was still in the
    handshake), so the fault is the one its flag asked for, at the request it named."""
    seat, got_kind, got_detail = only_fault(play_one_bad_seat(faulty(*flags), record_path))
    assert (seat, got_kind) == (0, kind)
    assert detail in got_detail
    assert run_cli("verify", str(record_path)).returncode == 0
    record = read_records(record_path)[0]
    if answered is None:
        assert record["faults"][0]["deal"] == 0 and answered_before_fault(record, 0, name=None) == []
    else:
        assert len(answered_before_fault(record, 0)) == answered


def test_an_answer_well_inside_the_limit_is_not_a_fault_and_its_time_is_the_real_one(record_path: Path) -> None:
    """The real clock is wired in: a bot that really sleeps 600 ms, under a limit of 5 s so
    that a loaded machine cannot make it late, is recorded as taking about that long. The
    boundary itself (999 ms of 1 s, 1001 ms) is scripted (tests/test_protocol_scripted.py)."""
    summary = play_one_bad_seat(faulty("--slow-at", "2", "--delay", "0.6"), record_path, "--move-time", "5")
    assert summary["faults"] == []
    record = read_records(record_path)[0]
    moves = [m for deal in record["deals"] for m in deal["moves"] if m["seat"] == 0]
    # the bot sleeps 600 ms from reading the request; the referee's clock starts once its write
    # has returned, which on a loaded machine can be a little after the bot began to sleep
    assert record["seats"][0]["bot"]["name"] == "faulty" and moves[1]["ms"] >= 500, "the answer was really slow"


def test_a_bot_flooding_stderr_plays_on_and_only_the_cap_is_kept(tmp_path: Path, record_path: Path) -> None:
    logs = tmp_path / "logs"
    # 4 MiB of stderr per request, about 40 requests: over 150 MiB in all
    summary = play_one_bad_seat(faulty("--stderr-flood", "4"), record_path, "--bot-stderr", str(logs))
    assert summary["faults"] == []
    assert (logs / "seat0.stderr").stat().st_size == 1 << 20
    assert read_records(record_path)[0]["seats"][0]["bot"]["name"] == "faulty", "the flooding bot played"


@pytest.mark.parametrize(
    "flags, limit_option, detail, measured",
    [
        # the group's CPU counter, or the kernel's SIGXCPU at the per-process limit beside it
        (("--eat-cpu-at", "2"), ("--bot-cpu", "1", "--move-time", "10"), "CPU time limit of 1 s",
         r"\((its processes used [1-9]\.\d\d s|SIGXCPU)\)"),
        # a generous move time: on a loaded machine, filling 300 MiB took longer than a short one
        (("--eat-memory-at", "2"), ("--bot-memory", "300", "--move-time", "10"), "memory limit of 300 MiB",
         r"\(the kernel killed [1-9]\d* of its processes\)"),
    ],
)
def test_a_bot_over_its_resource_limit_is_a_limit_fault(flags, limit_option, detail, measured,
                                                        record_path: Path) -> None:
    summary = play_one_bad_seat(faulty(*flags), record_path, *limit_option)
    seat, kind, got = only_fault(summary)
    assert (seat, kind) == (0, "limit") and detail in got
    assert re.search(measured, got), "the detail names what the kernel measured"
    assert len(answered_before_fault(read_records(record_path)[0], 0)) == 1


def test_a_bot_refused_an_open_that_then_dies_is_a_crash_naming_the_limits(record_path: Path) -> None:
    """The kernel refuses the 41st descriptor of one process (EMFILE) and reports it to no one
    but the bot: what the bot does next is its own doing, a crash, whose detail says which
    limits were in force (a whole tree over the limit is a limit fault: test_sandbox.py)."""
    summary = play_one_bad_seat(faulty("--open-files-at", "2"), record_path, "--bot-files", "40")
    seat, kind, got = only_fault(summary)
    assert (seat, kind) == (0, "crash") and "open files 40" in got
    assert "exited with status 1" in got and len(answered_before_fault(read_records(record_path)[0], 0)) == 1


def test_limits_leave_a_well_behaved_bot_alone(record_path: Path) -> None:
    summary = play_one_bad_seat(faulty(), record_path, "--bot-memory", "300", "--bot-cpu", "20", "--bot-files", "64")
    assert summary["faults"] == []
    assert read_records(record_path)[0]["seats"][0]["bot"]["name"] == "faulty", "the bot played under its limits"


def test_bots_inherit_no_descriptor_but_their_three_pipes(tmp_path: Path, record_path: Path) -> None:
    report = tmp_path / "fds"
    play_one_bad_seat(faulty("--report-fds", str(report)), record_path)
    fds = [int(fd) for fd in report.read_text().split()]
    # 0, 1, 2 and the descriptor the bot itself opened to list /proc/self/fd
    assert fds[:3] == [0, 1, 2] and len(fds) <= 4


def test_the_referee_never_blocks_writing_to_a_bot_that_stopped_reading() -> None:
    seat = ProcessSeat("sleeper", [sys.executable, "-c", "import sys, time; print('ready', flush=True); time.sleep(60)"])
    seat.start()
    try:
        seat.wait_ready(time.monotonic() + 10)
        started = time.monotonic()
        line = "event " + "z" * 1000
        seat.notify([line] * 20_000)  # 20 MB: more than the pipe and more than the queue cap
        assert time.monotonic() - started < 2, "notify returned without waiting for the bot"
        seat.ask(Request("play", ("QS",), 1000))
        answer = seat.poll()
        assert answer is not None and answer.fault is not None
        assert answer.fault.kind == "protocol" and "stopped reading" in answer.fault.detail
    finally:
        seat.close()


def test_endless_output_keeps_the_referee_memory_bounded() -> None:
    seat = ProcessSeat("flood", [sys.executable, "-c",
                                 "import sys\nsys.stdout.write('ready\\n'); sys.stdout.flush()\n"
                                 "for _ in range(64): sys.stdout.write('y' * (1 << 20))\nsys.stdout.flush()"])
    tracemalloc.start()
    try:
        seat.start()
        seat.wait_ready(time.monotonic() + 10)
        seat.ask(Request("play", ("QS",), 10_000))
        deadline = time.monotonic() + 10
        answer = None
        while answer is None and time.monotonic() < deadline:
            answer = seat.poll()
            time.sleep(0.01)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        seat.close()
    assert answer is not None and answer.fault is not None and answer.fault.kind == "malformed"
    assert "longer than 8192 bytes: b'yyyy" in answer.fault.detail
    assert peak < 4 << 20, f"the referee held {peak} bytes for a 64 MiB line"


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupting_the_referee_ends_the_bots_and_keeps_finished_games(sig, code, tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    pidfile = tmp_path / "pids"
    bot = f"{FAULTY_BOT} --spawn-child --pidfile {pidfile} --slow-at 200 --delay 30"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcli", "play", "peppa", "--seed", "1", "--games", "3", "--move-time", "60",
         "--seat", bot, "--seat", "random", "--seat", "random", "--seat", "random", "--record", str(record)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    deadline = time.monotonic() + 60
    while (not record.exists() or not record.read_text()) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "in match 2" in err and "marked interrupted" in err, err
    games = read_records(record)
    assert [g["status"] for g in games] == ["complete", "interrupted"], "the finished game, then what was played"
    assert run_cli("verify", str(record)).returncode == 0
    pids = [int(p) for line in pidfile.read_text().splitlines() for p in line.split()]
    assert len(pids) == 2, "the bot and its child were running"
    time.sleep(0.5)
    assert not any(alive(p) for p in pids), "bots and their children are ended"


def _play_until(marker: Path, record: Path, bot: str, *settings: str) -> subprocess.Popen[str]:
    """``cardcli play peppa`` with ``bot`` in seat 0, started and running until the bot writes
    ``marker``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcli", "play", "peppa", "--seed", "1", *settings,
         "--seat", bot, "--seat", "random", "--seat", "random", "--seat", "random", "--record", str(record)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    deadline = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert marker.exists(), "the bot never got that far"
    return proc


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_match_stopped_by_ctrl_c_or_sigterm_keeps_its_deals_marked_interrupted(
        tmp_path: Path, stop: signal.Signals, code: int) -> None:
    """Ctrl-C in the third deal of a long match used to lose the two deals played and leave a
    record file of 0 bytes: the match is kept, marked interrupted, and verify, replay and
    replay --protocol take it as such."""
    record = tmp_path / "games.jsonl"
    slow = tmp_path / "slow"
    bot = f"{FAULTY_BOT} --slow-at 30 --delay 60 --slow-log {slow}"
    proc = _play_until(slow, record, bot, "--move-time", "120")
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "Traceback" not in err and "marked interrupted" in err, err
    lines = record.read_text().splitlines()
    assert len(lines) == 1
    kept = json.loads(lines[0])
    assert kept["status"] == "interrupted" and kept["result"] is None
    assert len(kept["deals"]) >= 2 and all(d["points"] is not None for d in kept["deals"][:-1])
    assert kept["deals"][-1]["points"] is None
    verified = run_cli("verify", str(record))
    assert verified.returncode == 0 and "interrupted" in verified.stdout, verified.stdout
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0 and "interrupted" in replayed.stdout.splitlines()[-1], replayed.stdout[-500:]
    lines_of_the_bot = run_cli("replay", str(record), "--protocol", "--seat", "0")
    assert lines_of_the_bot.returncode == 0, lines_of_the_bot.stderr
    assert "interrupted" in lines_of_the_bot.stderr


def test_a_run_stopped_before_its_first_deal_leaves_no_record(tmp_path: Path) -> None:
    """Ctrl-C while the bots start (or a refusal before it) used to leave a record file of 0
    bytes; a match with no deal leaves nothing, and a file that was there before is left as
    it was."""
    record = tmp_path / "games.jsonl"
    pidfile = tmp_path / "pids"
    bot = f"{FAULTY_BOT} --pidfile {pidfile} --ready-delay 60"
    proc = _play_until(pidfile, record, bot, "--startup-time", "120")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert not record.exists(), "no empty record is left behind"
    refused = run_cli("play", "peppa", "--record", str(record), "--seat", "remote:alice")
    assert refused.returncode == 2 and not record.exists()
    record.write_text("")
    run_cli("play", "peppa", "--record", str(record), "--seat", "remote:alice")
    assert record.exists(), "a file that was there before stays"


def test_a_torn_record_is_reported_by_replay_and_verify_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run_cli("play", "peppa", "--seed", "2", "--record", str(path), check=True)
    run_cli("play", "peppa", "--seed", "3", "--record", str(path), check=True)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 500])  # a referee killed while writing the second game
    verified = run_cli("verify", str(path))
    assert verified.returncode == 1 and "torn" in verified.stdout and f"ok   {path}:1" in verified.stdout
    replayed = run_cli("replay", str(path))
    assert replayed.returncode == 2 and "torn" in replayed.stderr and "Traceback" not in replayed.stderr
    assert run_cli("replay", str(path), "--game", "1").returncode == 2


@pytest.mark.parametrize(
    "content, message",
    [
        (random.Random(300).randbytes(300), ""),
        (b'{"format": "cardcli-record", "format_version": 1, "game": "peppa"', "torn"),
        (b'{"format": "cardcli-record", "format_version": 7}\n', "format version 7"),
    ],
    ids=["random-bytes", "torn", "future-version"],
)
def test_corrupt_input_never_gives_a_traceback(content: bytes, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    for command in ("verify", "replay"):
        proc = run_cli(command, str(path))
        assert proc.returncode in (1, 2)
        assert "Traceback" not in proc.stderr
        assert message in proc.stdout + proc.stderr


@pytest.mark.parametrize("path", ["/proc/version", "/no/such/dir/r.jsonl", "/sys/kernel/notes"])
def test_an_unwritable_record_path_is_refused_before_the_match(path: str) -> None:
    proc = run_cli("play", "peppa", "--record", path)
    assert proc.returncode == 2 and "cannot write the record" in proc.stderr, proc.stderr
    assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1


def test_a_program_that_cannot_be_started_is_a_crash_fault(tmp_path: Path, record_path: Path) -> None:
    script = tmp_path / "not_executable.sh"
    script.write_text("#!/bin/sh\necho ready\n")
    script.chmod(0o644)
    seat, kind, detail = only_fault(play_one_bad_seat(str(script), record_path))
    assert (seat, kind) == (0, "crash") and "cannot start" in detail and "Permission denied" in detail


def test_one_bot_s_info_and_stderr_never_reach_another_seat() -> None:
    from cardcli.games import registry
    from cardcli.referee import Settings, play_match
    from harness import TranscriptSeat

    chatty = ProcessSeat("chatty", [sys.executable, str(ROOT / "tests/bots/faulty_bot.py"), "--chatty"])
    listeners = [TranscriptSeat(f"t{i}", str(i)) for i in range(3)]
    result = play_match(registry.resolve("pigugnin", None, {}, 4, 6), [chatty, *listeners], Settings(keep_info=True))
    assert result.faults == ()
    assert result.record["info"]["0"], "the chatty bot did talk"
    for seat in listeners:
        assert not any("thinking" in line or "noise" in line or "whatever" in line for line in seat.lines)


def test_a_referee_killed_outright_leaves_every_finished_game_intact(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    pidfile = tmp_path / "pids"
    bot = f"{FAULTY_BOT} --pidfile {pidfile} --slow-at 120 --delay 30"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcli", "play", "peppa", "--seed", "1", "--games", "5", "--move-time", "60",
         "--seat", bot, "--seat", "random", "--seat", "random", "--seat", "random", "--record", str(record)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 60
        while (not record.exists() or not record.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)
        proc.kill()
        proc.wait(timeout=10)
        games = read_records(record)
        assert 1 <= len(games) and all(g["status"] == "complete" for g in games)
        assert run_cli("verify", str(record)).returncode == 0
    finally:
        # the referee could not end its bot: do it here so nothing outlives the test
        for line in pidfile.read_text().splitlines() if pidfile.exists() else []:
            for pid in map(int, line.split()):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
