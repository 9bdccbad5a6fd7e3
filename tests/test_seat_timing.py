"""Faults charged to the right seat and the right kind whatever the timing, each with real bot
processes: a bot that stalls its handshake faults alone, wherever it sits; a ``ready`` that
arrives in the same read as an over-long line still counts; a stale second ``move`` is a
``protocol`` fault, never taken as the answer to the next request.

The timing logic alone (every seat of every table size stalling in turn, a stale move at
every point of a match) is tested on a scripted bot and a clock that moves only when told
(tests/test_protocol_scripted.py); what stays here is what needs a real process and the real
clock: a real staller cut off at the real deadline while real bots start beside it, and the
races of a real pipe around a request."""

from __future__ import annotations

import select
import shlex
import time
from pathlib import Path

import pytest

from cardcli.games import registry
from cardcli.protocol import FramingError, LineBuffer
from cardcli.referee import MatchResult, Settings, play_match
from cardcli.seats.base import Answer, Identity, Request, Seat
from cardcli.seats.builtin import random_seat
from cardcli.seats.process import ProcessSeat
from conftest import PYTHON_BOT, faulty

STARTUP = 2.0
"""The start-up time of the staller tests: short to keep them quick, and still far more than a
Python bot needs to start on a loaded machine."""


def bot(label: str, command: str) -> ProcessSeat:
    return ProcessSeat(label, shlex.split(command))


# -- 1. one stalling bot ----------------------------------------------------------------------


class TimedSeat(ProcessSeat):
    """A bot process that notes when it was started and when the referee took its ``ready``
    (the moment the handshake sets the seat's identity)."""

    started_at: float | None = None
    ready_at: float | None = None

    def start(self) -> None:
        self.started_at = time.monotonic()
        super().start()

    @property  # type: ignore[override]
    def identity(self) -> Identity:
        return self._identity

    @identity.setter
    def identity(self, value: Identity) -> None:
        self._identity = value
        if self.started_at is not None:
            self.ready_at = time.monotonic()


STALLERS = ("--no-ready", "--ready-delay 60")


@pytest.mark.parametrize("game, players, staller", [("pepper", 3, 0), ("pigugnin", 5, 3)])
def test_a_bot_that_stalls_its_handshake_faults_alone_whatever_its_seat(game: str, players: int, staller: int) -> None:
    setup = registry.resolve(game, None, {}, players, 11)
    stall = STALLERS[staller % 2]
    seats = [
        TimedSeat(f"seat{i}", shlex.split(faulty(stall) if i == staller else f"{PYTHON_BOT} --seed {i}"))
        for i in range(players)
    ]
    began = time.monotonic()
    result = play_match(setup, seats, Settings(move_time=10, startup_time=STARTUP, quit_grace=0.5, max_deals=1))
    assert [(f.seat, f.kind) for f in result.faults] == [(staller, "timeout")], result.faults
    assert "during the handshake" in result.faults[0].detail
    assert time.monotonic() - began >= STARTUP, "the staller really made the referee wait out the start-up time"
    for i, seat in enumerate(seats):
        if i == staller:
            continue
        assert seat.started_at is not None and seat.ready_at is not None
        took = seat.ready_at - seat.started_at
        # a real process that took time to start: the test is not passed by bots ready at once
        assert 0.002 < took < STARTUP, f"seat {i} took {took:.4f} s to be ready"
        assert seat.identity.name == "python-random"
    assert result.completed


def test_a_ready_waiting_in_the_pipe_at_the_deadline_is_not_a_timeout() -> None:
    """The deadline has passed before the referee looks (here: before it looks at all), yet the
    ``ready`` was sent in time: it counts."""
    seat = bot("late-look", f"{PYTHON_BOT} --seed 1")
    seat.start()
    try:
        fd = seat.handshake_fileno()
        assert fd is not None
        # the shipped bot writes its id lines and ready in one write: readable means all there
        assert select.select([fd], [], [], 30)[0], "the bot never wrote its ready"
        seat.wait_ready(time.monotonic() - 1.0)
        assert seat.identity.name == "python-random"
    finally:
        seat.close()


# -- 4. ready, then an over-long line in the same read ----------------------------------------


def test_framing_gives_the_complete_lines_before_refusing_the_long_one() -> None:
    buffer = LineBuffer(limit=16)
    buffer.feed(b"id name A\nready\n" + b"y" * 40)
    buffer.feed(b"y" * 1000)  # more of the refused line: dropped, never held
    assert buffer.pop() == "id name A"
    assert buffer.pop() == "ready"
    with pytest.raises(FramingError, match="longer than 16 bytes"):
        buffer.pop()
    assert buffer.partial == b"" and buffer.pop() is None


class FirstReadSeat(ProcessSeat):
    """A bot process whose first read from its stdout is noted (its start and its length), to
    check that ``ready`` and more than a whole line of the flood really arrived together."""

    first_read: bytes | None = None
    first_len = 0

    def start(self) -> None:
        super().start()
        feed = self._out.feed

        def keep(data: bytes) -> None:
            if self.first_read is None:
                self.first_read, self.first_len = bytes(data[:16]), len(data)
            feed(data)

        self._out.feed = keep  # type: ignore[method-assign]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_ready_then_an_endless_line_in_one_write_faults_at_the_first_request(seed: int) -> None:
    setup = registry.resolve("peppa", None, {}, None, seed)
    flood = FirstReadSeat("flood", shlex.split(faulty("--ready-then-endless")))
    seats: list[Seat] = [flood] + [random_seat(f"r{i}", i) for i in range(1, 4)]
    result = play_match(setup, seats, Settings(move_time=10, startup_time=10, quit_grace=0.5, max_deals=1))
    assert flood.first_read is not None and flood.first_read.startswith(b"ready\nyyyy")
    assert flood.first_len > 8192 + 6, "ready and more than a whole line of the flood came in one read"
    assert [(f.seat, f.kind) for f in result.faults] == [(0, "malformed")], result.faults
    fault = result.faults[0]
    assert "line longer than 8192 bytes" in fault.detail
    assert "handshake" not in fault.detail
    assert (fault.deal, fault.move) == (1, 0), "the fault came at the first request"
    assert result.completed


def test_the_seat_takes_ready_and_refuses_the_endless_line_at_the_next_request() -> None:
    seat = bot("flood", faulty("--ready-then-endless"))
    seat.start()
    try:
        seat.wait_ready(time.monotonic() + 10)
        seat.ask(Request("play", ("QS",), 10_000))
        answer = seat.poll()
        deadline = time.monotonic() + 10
        while answer is None and time.monotonic() < deadline:
            seat.wait_readable(0.1)
            answer = seat.poll()
    finally:
        seat.close()
    assert answer is not None and answer.fault is not None
    assert answer.fault.kind == "malformed" and "longer than 8192 bytes" in answer.fault.detail


# -- 5. a stale second move -------------------------------------------------------------------

PAUSE = 0.5
"""How long the referee waits after taking an answer before going on, in the test where the
echo must arrive before the next request."""


class PausingSeat(ProcessSeat):
    """A bot process after whose every answer the referee pauses, so its next request comes at
    least :data:`PAUSE` later: an echo sent at once is waiting before that request is written."""

    def poll(self) -> Answer | None:
        answer = super().poll()
        if answer is not None and answer.fault is None:
            time.sleep(PAUSE)
        return answer


def play_echo(seat: ProcessSeat, seed: int = 2) -> MatchResult:
    setup = registry.resolve("peppa", None, {}, None, seed)
    seats: list[Seat] = [seat] + [random_seat(f"r{i}", i) for i in range(1, 4)]
    return play_match(setup, seats, Settings(move_time=10, startup_time=10, quit_grace=0.5, on_fault="abort"))


def assert_unasked(result: MatchResult) -> None:
    assert [(f.seat, f.kind) for f in result.faults] == [(0, "protocol")], result.faults
    assert "move sent without a request" in result.faults[0].detail


def echo_order(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


@pytest.mark.parametrize("at", [1])
def test_a_stale_move_waiting_before_the_request_is_a_protocol_fault(at: int, tmp_path: Path) -> None:
    """With a real process and pipe, once; every point of a match is scripted
    (tests/test_protocol_scripted.py)."""
    log = tmp_path / "echo.log"
    seat = PausingSeat("echo", shlex.split(faulty("--echo-at", str(at), "--echo-log", str(log))))
    assert_unasked(play_echo(seat))
    assert echo_order(log) == ["before"], "the echo was written before the next request"


@pytest.mark.parametrize("at", [1, 2, 3, 5])
def test_a_stale_move_arriving_after_the_request_was_written_is_a_protocol_fault(at: int, tmp_path: Path) -> None:
    log = tmp_path / "echo.log"
    flags = ("--echo-at", str(at), "--echo-after-request", "--echo-hold", "30", "--echo-log", str(log))
    assert_unasked(play_echo(bot("echo", faulty(*flags))))
    assert echo_order(log) == ["after"], "the echo was written after the next request had arrived"


@pytest.mark.parametrize("delay", [0.0, 0.0002, 0.0005, 0.001, 0.002, 0.005])
@pytest.mark.parametrize("at", [2, 4])
def test_a_stale_move_sent_around_the_next_request_is_a_protocol_fault(at: int, delay: float, tmp_path: Path) -> None:
    log = tmp_path / "echo.log"
    flags = ("--echo-at", str(at), "--echo-delay", str(delay), "--echo-hold", "30", "--echo-log", str(log))
    assert_unasked(play_echo(bot("echo", faulty(*flags)), seed=at))
    assert echo_order(log) in (["before"], ["after"])
