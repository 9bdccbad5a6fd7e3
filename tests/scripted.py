"""A bot played by a script over a real pipe, and a clock that moves only when told: the
protocol's logic (framing, the handshake, requests and answers, timeouts, time budgets and
time banks) tested line by line, deterministically, without a bot process or a sleep.

The model is python-chess's engine tests (``MockTransport.expect``): the test says what the
seat must send and what the bot answers, and at the end that every expectation was met::

    clock = FakeClock()
    bot = ScriptedBot(clock)
    bot.expect("cardcli 1", ["id name scripted", "ready"])
    bot.expect("go play 1000 4H 5H", ["move 4H"], after=0.25)   # answers 250 ms later
    seat = ScriptedSeat("s0", bot)
    ...
    bot.assert_done()

Where the seams are. The stream: :class:`ScriptedSeat` is a
:class:`cardcli.seats.line_seat.LineSeat`, the very code a bot process and a remote bot are
judged by, given a pair of pipes (:meth:`LineSeat._open`) whose far ends the script reads
and writes; so its reads, writes, ``poll`` and unread-input counts are the real ones. The
clock: the seat and the referee read the time and wait for input through a
:class:`cardcli.seats.clock.Clock`; :class:`FakeClock` is one whose time moves only while
somebody waits on it, and then straight to the next thing the script does or to the end of
the wait. A bot that "takes 1.2 s" answers when the referee has waited 1.2 s of this clock,
so a timeout, a time budget or a bank is checked to the microsecond, instantly.

What stays with real processes (tests/test_hostile.py, tests/test_seat_timing.py,
tests/test_time_bank.py): that the real clock is wired in, that a real process really is cut
off at its limit, and what only an operating system does (exits, signals, pipe buffers).
"""

from __future__ import annotations

import heapq
import itertools
import os
import select
from collections import deque
from typing import Callable, Iterable, Sequence

import attrs

from cardcli import protocol
from cardcli.seats.base import Answer, Request
from cardcli.seats.gather import ask_all
from cardcli.seats.line_seat import LineSeat

Match = str | Callable[[str], bool]
"""What an expected line must be: the line itself, or a test of it."""
Responder = Callable[[str], "tuple[float, Sequence[str]] | None"]
"""A bot's answer to any line no expectation is waiting for: the delay and the lines, or None
for no answer."""


class FakeClock:
    """A :class:`cardcli.seats.clock.Clock` whose time moves only while the code under test
    waits on it (or the test calls :meth:`advance`): then straight to the next thing one of
    its scripted bots does, or to the end of the wait."""

    def __init__(self, start: float = 1000.0):
        self.now = start
        self.bots: list[ScriptedBot] = []
        self.waits: list[float] = []
        """The timeout of every wait, in seconds: what the code under test asked of the clock."""

    def monotonic(self) -> float:
        return self.now

    def wait(self, poller: select.poll, timeout: float) -> list[tuple[int, int]]:
        self.waits.append(timeout)
        return self._run_until(self.now + max(0.0, timeout), poller)

    def sleep(self, seconds: float) -> None:
        self._run_until(self.now + max(0.0, seconds), None)

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass, the bots doing what falls due meanwhile."""
        self._run_until(self.now + seconds, None)

    def _run_until(self, end: float, poller: select.poll | None) -> list[tuple[int, int]]:
        while True:
            for bot in self.bots:
                bot.pump()
            if poller is not None:
                ready = poller.poll(0)
                if ready:
                    return ready
            due = min((d for bot in self.bots if (d := bot.next_due()) is not None), default=None)
            if due is None or due > end:
                self.now = max(self.now, end)
                for bot in self.bots:
                    bot.pump()
                return poller.poll(0) if poller is not None else []
            self.now = max(self.now, due)


@attrs.define
class _Expect:
    match: Match
    responses: tuple[bytes, ...]
    after: float
    close: bool

    def wants(self, line: str) -> bool:
        return self.match(line) if callable(self.match) else line == self.match

    def __str__(self) -> str:
        return repr(self.match) if isinstance(self.match, str) else getattr(self.match, "__name__", "a test")


@attrs.define
class _Say:
    data: bytes | None
    """None: close the bot's output."""
    after: float


class ScriptedBot:
    """The far end of a :class:`ScriptedSeat`'s stream, following a script of steps in order:
    :meth:`expect` a line from the seat and answer it, :meth:`say` something unasked,
    :meth:`close` the output. A line the seat sends that the script did not expect is kept in
    :attr:`unexpected` (and fails :meth:`assert_done`), unless its first word is one of
    ``ignore`` or a :meth:`respond` handler takes it."""

    def __init__(self, clock: FakeClock, ignore: Iterable[str] = ()):
        self.clock = clock
        clock.bots.append(self)
        self.ignore = frozenset(ignore)
        self.received: list[tuple[float, str]] = []
        """Every line the seat sent, with the time it was read."""
        self.unexpected: list[str] = []
        self.reading = True
        """Whether the bot reads its input; False leaves what the seat writes in the pipe."""
        self._steps: deque[_Expect | _Say] = deque()
        self._due: list[tuple[float, int, bytes | None]] = []
        self._order = itertools.count()
        self._responder: Responder | None = None
        self._mark = clock.now
        self._partial = b""
        self._to_seat = -1
        self._from_seat = -1
        self.opened = 0

    # -- the script ---------------------------------------------------------------------------

    def expect(self, line: Match, responses: Sequence[str | bytes] = (), after: float = 0.0,
               close: bool = False) -> ScriptedBot:
        """The next line the seat sends must be ``line``; the bot answers ``responses`` (lines,
        or raw bytes sent as they are) ``after`` seconds later, then exits when ``close``: it
        reads nothing more and closes its end of the stream."""
        self._steps.append(_Expect(line, tuple(_bytes(r) for r in responses), after, close))
        return self

    def say(self, *lines: str | bytes, after: float = 0.0) -> ScriptedBot:
        """Unasked, ``after`` seconds after the script's last step (its answer, or the start):
        the bot writes ``lines``."""
        self._steps.append(_Say(b"".join(_bytes(line) for line in lines), after))
        self._start_says()
        return self

    def close(self, after: float = 0.0) -> ScriptedBot:
        """The bot exits ``after`` seconds after the script's last step: its output ends and
        its input is no longer read."""
        self._steps.append(_Say(None, after))
        self._start_says()
        return self

    def handshake(self, *lines: str, name: str = "scripted") -> ScriptedBot:
        """The usual greeting: ``cardcli 1`` answered with the bot's name, ``lines`` and
        ``ready``."""
        return self.expect(protocol.hello(), [f"id name {name}", *lines, "ready"])

    def respond(self, responder: Responder) -> ScriptedBot:
        """Answer every line no expectation is waiting for with ``responder``."""
        self._responder = responder
        return self

    def assert_done(self) -> None:
        """Every expectation was met, every line the bot was to send was sent, and nothing
        unexpected came."""
        assert not self.unexpected, f"lines the script did not expect: {self.unexpected}"
        left = [str(step) for step in self._steps if isinstance(step, _Expect)]
        assert not left, f"expected but never sent: {left}; received {[line for _, line in self.received]}"
        assert not self._due and not self._steps, "the bot had more to say"

    # -- the stream ---------------------------------------------------------------------------

    def open(self) -> tuple[int, int]:
        """A fresh stream: the seat's ends (it reads, it writes)."""
        self.hang_up()
        seat_reads, self._to_seat = os.pipe()
        self._from_seat, seat_writes = os.pipe()
        os.set_blocking(self._to_seat, False)
        os.set_blocking(self._from_seat, False)
        self.opened += 1
        self._mark = self.clock.now
        self._partial = b""
        self._start_says()
        return seat_reads, seat_writes

    def hang_up(self) -> None:
        for fd in (self._to_seat, self._from_seat):
            if fd >= 0:
                os.close(fd)
        self._to_seat = self._from_seat = -1

    def next_due(self) -> float | None:
        return self._due[0][0] if self._due else None

    def pump(self) -> None:
        """Read what the seat wrote and follow the script; write what is due by now."""
        if self._from_seat >= 0 and self.reading:
            while True:
                try:
                    data = os.read(self._from_seat, 65536)
                except BlockingIOError:
                    break
                if not data:
                    break
                *lines, self._partial = (self._partial + data).split(b"\n")
                for line in lines:
                    self._heard(line.decode("utf-8"))
        while self._due and self._due[0][0] <= self.clock.now:
            _, _, data = heapq.heappop(self._due)
            if self._to_seat < 0:
                continue
            if data is None:
                self.hang_up()
            else:
                os.write(self._to_seat, data)

    def _heard(self, line: str) -> None:
        now = self.clock.now
        self.received.append((now, line))
        step = self._steps[0] if self._steps else None
        if isinstance(step, _Expect) and step.wants(line):
            self._steps.popleft()
            self._mark = now + step.after
            if step.close:
                self.reading = False
            if step.responses:
                self._schedule(self._mark, b"".join(step.responses))
            if step.close:
                self._schedule(self._mark, None)
            self._start_says()
            return
        if line.split(" ", 1)[0] in self.ignore:
            return
        if self._responder is not None and not isinstance(step, _Expect):
            answer = self._responder(line)
            if answer is not None:
                delay, lines = answer
                self._schedule(now + delay, b"".join(_bytes(x) for x in lines))
            return
        self.unexpected.append(line if step is None else f"{line} (expected {step})")

    def _start_says(self) -> None:
        """Schedule the steps at the head of the script that wait for nothing (from the
        opening of the stream on)."""
        while self.opened and self._steps and isinstance(self._steps[0], _Say):
            say = self._steps.popleft()
            assert isinstance(say, _Say)
            self._mark += say.after
            self._schedule(self._mark, say.data)

    def _schedule(self, when: float, data: bytes | None) -> None:
        heapq.heappush(self._due, (when, next(self._order), data))


def _bytes(line: str | bytes) -> bytes:
    return line if isinstance(line, bytes) else (line + "\n").encode("utf-8")


class ScriptedSeat(LineSeat):
    """A seat whose bot is a :class:`ScriptedBot`: the protocol code of every bot program's
    seat, on a pipe the script holds, timed by the script's clock."""

    kind = "scripted"

    def __init__(self, label: str, bot: ScriptedBot, grace: float = 0.0):
        super().__init__(label, clock=bot.clock)
        self.bot = bot
        self.grace = grace

    def start(self) -> None:
        self.started = True
        read_fd, write_fd = self.bot.open()
        self._open(read_fd, write_fd, self.bot)
        self._send([protocol.hello()], strict=False)

    def _alive(self) -> bool:
        return self._link is not None and self.bot._to_seat >= 0

    def close(self, grace: float = 0.0) -> None:
        if self._link is None:
            return
        self._readable.unregister(self._read_fd)
        os.close(self._read_fd)
        os.close(self._write_fd)
        self._read_fd = self._write_fd = -1
        self._link = None
        self.bot.hang_up()


def answer_of(seat: LineSeat, request: Request) -> Answer:
    """One request through the referee's own wait for answers
    (:func:`cardcli.seats.gather.ask_all`) on the seat's clock: the answer, or the fault, as
    the referee gets it."""
    return ask_all({0: (seat, request)}, [0], seat.clock)[0]
