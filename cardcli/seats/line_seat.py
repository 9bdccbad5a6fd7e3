"""The protocol over a byte stream: what every seat that talks to a bot program shares, whether
the program runs here (:mod:`cardcli.seats.process`, its stdin and stdout) or on another
machine (:mod:`cardcli.remote.seat`, a connection relayed by the referee's listener).

Framing, the handshake, requests and answers, unsolicited lines, timeouts and what they quote,
and writing to a reader that is slow: one piece of code, so a remote bot is judged exactly as
a local one. A subclass opens the stream (:meth:`LineSeat.start`), says how its bytes are
framed (:meth:`LineSeat._receive`, :meth:`LineSeat._encode`), and how it ended
(:meth:`LineSeat.death`).
"""

from __future__ import annotations

import fcntl
import logging
import os
import select
import stat
import struct
import termios
from collections import deque
from typing import Sequence

from .. import protocol
from ..safe_text import DETAIL_WIDTH, printable
from ..transcript import Transcript
from .base import DEBUG_HINT, FLUSH_HINT, Answer, FaultKind, Identity, Request, SeatBase, SeatFault, clip
from .clock import REAL_CLOCK, Clock
from .gather import wait_ready_all

log = logging.getLogger("cardcli.bot")

MAX_PENDING_INPUT = 16 << 20
"""Bytes the referee holds for a bot that does not read its input before calling it a fault."""
MAX_INFO_LINES = 1000
"""``info`` lines kept per bot and match when they are recorded."""
READ_CHUNK = 65536
"""Bytes asked of the stream in one read: a whole default pipe."""
READ_ROUNDS = 16
"""Reads one call takes at most: a bot that writes faster than the referee reads still lets it
go back to its deadlines and its other seats, with at most 1 MiB taken in."""
QUOTED_LINES = 3
"""Ignored lines a timeout's detail quotes (the last ones): enough to show a pattern (a bare
move, debug output), few enough to keep the detail one readable line."""
QUOTED_WIDTH = 60
"""Characters of each bot line quoted in a timeout's detail."""
QUIT_READ_WAIT = 0.5
"""Seconds, at most, the referee waits at the end for a bot to read the match's last lines
and then ``quit``, before it goes on to the next bot and to the quit grace: a bot blocked on
its input reads each at once, so this costs a healthy bot a millisecond or two, and tells a bot
that stopped at ``result`` from one that obeyed ``quit``."""


class LineSeat(SeatBase):
    """A bot that speaks protocol v1 over a stream the subclass opens: ``_read_fd`` (the bot's
    lines) and ``_write_fd`` (the referee's), both non-blocking, and ``_link``, the object that
    stands for the bot's current process or connection (None when there is none).

    Time is read from :attr:`clock`, given at construction, and waiting for the bot's lines goes
    through it; the stream is whatever pair of descriptors :meth:`_open` is given. Both are
    seams: a test opens a pipe whose far end follows a script, with a clock that moves only
    when told (tests/scripted.py), and so tests the protocol's timing without a process or a
    sleep."""

    def __init__(self, label: str, clock: Clock = REAL_CLOCK):
        super().__init__(label)
        self.clock = clock
        """The clock the seat times its bot by (:mod:`cardcli.seats.clock`); the referee's
        deadlines must be read from the same one."""
        self._link: object | None = None
        self._out = protocol.LineBuffer(protocol.MAX_BOT_LINE)
        self._pending_input = bytearray()
        self._queued: list[str] = []
        self._readable = select.poll()
        self._request: Request | None = None
        self._asked_at = 0.0
        self._written_at: float | None = None
        self._answer: Answer | None = None
        self._read_fd = -1
        self._write_fd = -1
        self._input_overflow = False
        self._quit_sent = False
        self._greeting: _Greeting | None = None
        self._started_at = 0.0
        self._recent_ignored: deque[str] = deque(maxlen=QUOTED_LINES)
        """The last lines the protocol ignored, clipped, for a timeout's detail."""
        self._ignored_since_ask = 0
        """Lines ignored since the open request was made: only these explain its timeout."""
        self.transcript = Transcript()
        """The last lines to and from the bot's current process: a fault is shown with the
        request and answer that led to it (``check-bot``, a tournament's failure bundle)."""
        self._kept_alive = False
        """True from the start of a match the bot was kept alive into until its first answer
        in it: an exit then is a bot that stopped at ``result``."""
        self._input_is_pipe = False
        """Whether the bot's input is a pipe, whose unread bytes the referee can count."""
        self._write_failed = False
        """Whether a write to the bot failed (its input was closed: it had exited)."""
        self.left_before_quit: str | None = None
        """Set at the end (:meth:`request_quit`) when the bot exited by itself before reading
        ``quit``: what it did, such as ``exited after 'result', without reading 'quit'``. A
        tournament would keep such a bot for its next match, where it faults; ``play`` says so
        at its end. Known only for a bot whose input is a pipe."""

    # -- what a subclass provides -------------------------------------------------------------------

    def _open(self, read_fd: int, write_fd: int, link: object) -> None:
        """Take a freshly opened stream: the state of the last one is forgotten."""
        self._quit_sent = False
        self._kept_alive = False
        self._input_overflow = False
        self._write_failed = False
        self.left_before_quit = None
        try:
            self._input_is_pipe = stat.S_ISFIFO(os.fstat(write_fd).st_mode)
        except OSError:
            self._input_is_pipe = False
        self._pending_input.clear()
        self._out = protocol.LineBuffer(protocol.MAX_BOT_LINE)
        self._recent_ignored.clear()
        self._ignored_since_ask = 0
        self._started_at = self.clock.monotonic()
        self.transcript.restart()
        self._read_fd, self._write_fd, self._link = read_fd, write_fd, link
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
        self._readable.register(read_fd, select.POLLIN)

    def _alive(self) -> bool:
        """Whether the bot may still read a ``quit``."""
        return True

    def _receive(self, data: bytes) -> None:
        """Take bytes read from the stream: here, the bot's lines as it wrote them."""
        try:
            self._out.feed(data)
        except protocol.FramingError as err:
            raise SeatFault(FaultKind.MALFORMED, err.detail) from None

    def _encode(self, lines: Sequence[str]) -> bytes:
        """The bytes that carry ``lines`` to the bot: here, each line and its newline."""
        return ("\n".join(lines) + "\n").encode("utf-8")

    def death(self) -> SeatFault:
        """The fault for a bot whose stream has ended."""
        return SeatFault(FaultKind.CRASH, "ended")

    # -- the handshake --------------------------------------------------------------------------

    def wait_ready(self, deadline: float) -> None:
        fault = wait_ready_all({0: self}, deadline, round(deadline - self._started_at, 1), self.clock).get(0)
        if fault is not None:
            raise fault

    def handshake_timeout(self, limit: float) -> SeatFault:
        """Say what arrived before the deadline, since the cure depends on it: nothing at all
        is almost always a ``ready`` left in the bot's output buffer; ``id`` lines without
        ``ready`` prove the buffer is flushed and ``ready`` is what is missing."""
        greeting = self._greeting
        received = greeting.received if greeting is not None and greeting.link is self._link else []
        count = greeting.count if greeting is not None and greeting.link is self._link else 0
        partial = self._out.partial
        within = f"within {limit:g} s"
        if count:
            shown = ", ".join(received)
            more = f" and {count - len(received)} more" if count > len(received) else ""
            detail = f"no 'ready' during the handshake {within}; received: {shown}{more}"
            if partial:
                detail += f"; then an incomplete line {_quote(partial)}"
            return SeatFault(FaultKind.TIMEOUT, detail)
        if partial:
            return SeatFault(FaultKind.TIMEOUT, f"no answer during the handshake {within}; received only an "
                                                f"incomplete line {_quote(partial)}: end each line with a newline "
                                                f"and {FLUSH_HINT}")
        return SeatFault(FaultKind.TIMEOUT, f"no answer during the handshake {within}; nothing received: a line "
                                            f"left in the bot's output buffer never arrives, {FLUSH_HINT}")

    def handshake_fileno(self) -> int | None:
        return self._read_fd if self._link is not None else None

    def read_handshake(self) -> bool:
        greeting = self._greeting
        if greeting is None or greeting.link is not self._link:
            greeting = self._greeting = _Greeting(self._link)
        if greeting.done:
            return True
        if self._link is None:
            raise SeatFault(FaultKind.CRASH, "not running")
        self._read_available()
        while (line := self._pop_line()) is not None:
            parsed = protocol.parse_bot_line(line)
            if parsed.kind != "empty":
                greeting.heard(line)
            if parsed.kind == "ready":
                greeting.done = True
                fields = greeting.fields
                self.identity = Identity(
                    fields.get("name"), fields.get("author"), fields.get("version"), tuple(greeting.declared)
                )
                return True
            if parsed.kind == "id" and parsed.word in ("name", "author", "version"):
                greeting.fields[parsed.word] = clip(parsed.text, 100)
            elif parsed.kind == "option" and len(greeting.declared) < 100:
                greeting.declared.append((clip(parsed.word, 100), clip(parsed.text, 100)))
            elif parsed.kind == "move":
                raise SeatFault(FaultKind.PROTOCOL, f"move during the handshake: {clip(line)!r}")
            else:
                self._note(parsed, line)
        return False

    def request_quit(self) -> None:
        """Send ``quit``. When the match's last lines (its ``result``) are still queued and the
        bot's input is a pipe, they go first, on their own, and ``quit`` once the bot has read
        them: a bot that exits on ``result`` then leaves ``quit`` unread, and
        :attr:`left_before_quit` says so, where lines sent together would have looked like a
        bot obeying ``quit``."""
        if self._link is None or self._quit_sent:
            return
        if not self._alive():
            if self._input_is_pipe:
                self.left_before_quit = "exited before 'quit'"
            return
        if not (self._queued and self._input_is_pipe):
            self._quit_sent = True
            self._send([protocol.quit_line()], strict=False)
            return
        after = "'result'" if self._queued[-1].startswith("result ") else "the match's last lines"
        deadline = self.clock.monotonic() + QUIT_READ_WAIT
        self._send([], strict=False)
        self._until_read(deadline)
        if not self._alive():
            self.left_before_quit = f"exited after {after}, before 'quit'"
            return
        self._quit_sent = True
        self._send([protocol.quit_line()], strict=False)
        self._until_read(deadline)
        if not self._alive() and (self._write_failed or self._unread_input()):
            self.left_before_quit = f"exited after {after}, without reading 'quit'"

    def _unread_input(self) -> int:
        """Bytes written for the bot that it has not read: those still waiting to be written,
        and those in its input pipe."""
        if self._pending_input:
            return len(self._pending_input)
        try:
            unread = fcntl.ioctl(self._write_fd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return 0
        return int(struct.unpack("i", unread)[0])

    def _until_read(self, deadline: float) -> None:
        """Wait, up to ``deadline``, until the bot has read all it was sent or has exited. A
        pipe tells its writer neither, so this looks, in growing steps from half a
        millisecond."""
        pause = 0.0005
        while self._alive() and self._unread_input():
            left = deadline - self.clock.monotonic()
            if left <= 0:
                return
            self.clock.sleep(min(pause, left))
            pause = min(pause * 2, 0.01)
            self._flush()

    # -- talking ----------------------------------------------------------------------------------

    def notify(self, lines: Sequence[str]) -> None:
        """Queue events: they go out with the seat's next request (or ``quit``) in one write,
        one system call per request instead of one per event batch; a bot learns everything
        that happened before it must answer, which is all the protocol promises."""
        self._queued += lines

    def ask(self, request: Request) -> None:
        """Check what is already waiting, then write the request. The line is made first, so
        the check and the write are as close together as they can be: whatever the bot sent
        before the check is classified as unasked-for, never taken as this request's answer
        (and what slips in between is caught by :meth:`_unread_request`)."""
        self._answer = None
        self._request = request
        self._ignored_since_ask = 0
        lines = protocol.request(request.kind, request.millis, request.moves, request.bank_us)
        self._check_unsolicited()
        if self._answer is not None:
            return
        self._asked_at = self.clock.monotonic()
        self._written_at = None
        try:
            self._send(lines)
        except SeatFault as fault:
            self._answer = Answer(None, 0.0, fault)
        if self._answer is None and not self._pending_input:
            self._written_at = self.clock.monotonic()

    def fileno(self) -> int | None:
        return self._read_fd if self._answer is None else None

    def wait_readable(self, timeout: float) -> None:
        self.clock.wait(self._readable, timeout)

    def wants_write(self) -> bool:
        return bool(self._pending_input)

    def poll(self) -> Answer | None:
        if self._answer is None and self._request is not None:
            try:
                self._read_available()
                self._take_answer()
            except SeatFault as fault:
                self._answer = Answer(None, self._elapsed(), fault)
        answer = self._answer
        if answer is not None:
            self._request = None
            self._answer = None
        return answer

    def on_writable(self) -> None:
        self._flush()
        if self._written_at is None and not self._pending_input and self._request is not None:
            self._written_at = self.clock.monotonic()

    def expire(self) -> Answer:
        """The timeout, with what the referee did receive: the limit and the time waited, the
        last lines it ignored (a move sent without ``move``, debug output), a line left without
        its newline, or nothing at all (then the answer is most likely in the bot's output
        buffer)."""
        request = self._request
        self._request = None
        elapsed = self._elapsed()
        limit = f"limit {_allowance(request)}, " if request is not None else ""
        detail = f"no answer in time ({limit}waited {elapsed:.2f} s)"
        heard = self._heard_lines(request.moves if request is not None else ())
        if heard:
            detail += f"; {heard}"
        partial = self._out.partial
        if partial:
            detail += f"; received an incomplete line {_quote(partial)}: end each line with a newline and {FLUSH_HINT}"
        if self._pending_input:
            detail += "; the bot was not reading its input"
        elif not heard and not partial:
            detail += f"; nothing received: too slow, or the answer is stuck in the bot's output buffer ({FLUSH_HINT})"
        return Answer(None, elapsed, SeatFault(FaultKind.TIMEOUT, detail))

    def _heard_lines(self, moves: Sequence[str]) -> str:
        """The lines the protocol ignored since the request, the last few quoted, and why they
        did not count; empty when there were none."""
        count = self._ignored_since_ask
        if not count:
            return ""
        last = list(self._recent_ignored)[-min(count, QUOTED_LINES):]
        quoted = ", ".join(repr(line) for line in last)
        sent = f"received {quoted}" if count <= len(last) else f"received {count} lines, the last {quoted}"
        if any(line.split() and line.split()[0] in moves for line in last):
            return f"{sent}, ignored: answers start with 'move '"
        return f"{sent}, ignored: not protocol lines ({DEBUG_HINT})"

    def _elapsed(self) -> float:
        start = self._written_at if self._written_at is not None else self._asked_at
        return self.clock.monotonic() - start

    def _take_answer(self) -> None:
        while self._answer is None:
            line = self._pop_line()
            if line is None:
                return
            move = protocol.move_of(line)
            if move is not None:
                if not move or " " in move:
                    raise SeatFault(FaultKind.MALFORMED, f"a move is one token: {clip(line)!r}")
                request = self._request
                if request is not None and move not in request.moves:
                    if self._unread_request():
                        raise SeatFault(
                            FaultKind.PROTOCOL,
                            f"move sent without a request: {clip(line)!r} (before the bot had read the request)",
                        )
                    misread = _misread_field(move, request)
                    if misread is not None:
                        raise SeatFault(FaultKind.ILLEGAL, misread)
                self._answer = Answer(move, self._elapsed())
                self._kept_alive = False
            else:
                parsed = protocol.parse_bot_line(line)
                if self._bare_move(parsed):
                    raise SeatFault(FaultKind.MALFORMED, f"{parsed.word!r} on a line of its own: answers start with "
                                                         f"'move ' (write 'move {parsed.word}')")
                self._note(parsed, line)

    def _bare_move(self, parsed: protocol.BotLine) -> bool:
        """Whether a line the protocol would ignore is one of the open request's moves written
        alone, without ``move`` in front: the bot's answer, misspelt. It is told at once,
        rather than ignored until the clock runs out and then put down to debug output. A line
        that came before the bot had read the request cannot answer it, and stays ignored."""
        request = self._request
        return (request is not None and parsed.kind == "unknown" and not parsed.text
                and parsed.word in request.moves and not self._unread_request())

    def _unread_request(self) -> bool:
        """Whether the bot has not yet read the whole open request: then no line it sent can be
        the answer (a stale second ``move`` that arrived just after the request was written).
        Asked only of a move that was not offered, the one case where the answer's timing
        changes the fault, so a legal answer costs no system call. Here: the request is not
        yet wholly written; a pipe can also tell whether the bot has read it
        (:meth:`cardcli.seats.process.ProcessSeat._unread_request`)."""
        return self._written_at is None or bool(self._pending_input)

    def _check_unsolicited(self) -> None:
        """Before a request: any ``move`` already waiting was sent without being asked for.
        A zero-timeout poll says whether anything is waiting at all, the common case, without
        the failed read it would otherwise take."""
        if not self._out.has_lines and not self._readable.poll(0):
            return
        try:
            self._read_available()
            while (line := self._pop_line()) is not None:
                parsed = protocol.parse_bot_line(line)
                if parsed.kind == "move":
                    raise SeatFault(FaultKind.PROTOCOL, f"move sent without a request: {clip(line)!r}")
                self._note(parsed, line)
        except SeatFault as fault:
            self._answer = Answer(None, 0.0, fault)

    def _note(self, parsed: protocol.BotLine, line: str) -> None:
        if parsed.kind == "info":
            if self.keep_info and len(self.info) < MAX_INFO_LINES:
                self.info.append(clip(parsed.text, 500))
        elif parsed.kind != "empty":
            self.ignored_lines += 1
            self._ignored_since_ask += 1
            quoted = clip(line, QUOTED_WIDTH)
            self._recent_ignored.append(quoted)
            if self.first_ignored is None:
                self.first_ignored = quoted

    def _pop_line(self) -> str | None:
        try:
            line = self._out.pop()
        except protocol.FramingError as err:
            raise SeatFault(FaultKind.MALFORMED, err.detail) from None
        if line is None:
            return None
        self.transcript.received(line)
        if log.isEnabledFor(logging.DEBUG):
            parsed = protocol.parse_bot_line(line)
            ignored = parsed.kind == "unknown" and not (
                self._request is not None and not parsed.text and parsed.word in self._request.moves)
            log.debug("%s >> %s%s", self.tag, printable(line, DETAIL_WIDTH),
                      f"    [ignored: not a protocol line; {DEBUG_HINT}]" if ignored else "")
        return line

    def _read_available(self) -> None:
        """Take in what the pipe holds, up to :data:`READ_ROUNDS` reads. Stops early once the
        framing has refused a line: the lines before it are still to be popped, and what
        follows it is never looked at."""
        for _ in range(READ_ROUNDS):
            try:
                data = os.read(self._read_fd, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError as err:
                raise SeatFault(FaultKind.CRASH, f"cannot read from the bot: {err.strerror}") from None
            if not data:
                if self._out.has_lines:
                    return
                raise self.death()
            self._receive(data)
            if len(data) < READ_CHUNK or self._out.refused:
                return

    def _send(self, lines: Sequence[str], strict: bool = True) -> None:
        """Write the queued events and ``lines`` as far as the pipe takes them now, keeping the
        rest for :meth:`on_writable`."""
        if self._queued:
            lines = [*self._queued, *lines]
            self._queued.clear()
        self.transcript.sent(lines)
        if log.isEnabledFor(logging.DEBUG):
            for line in lines:
                log.debug("%s << %s", self.tag, printable(line))
        data = self._encode(lines)
        if not self._pending_input and not self._input_overflow:
            try:
                written = os.write(self._write_fd, data)
            except BlockingIOError:
                written = 0
            except OSError:
                self._write_failed = True
                return
            data = data[written:]
            if not data:
                return
        self._pending_input += data
        if len(self._pending_input) > MAX_PENDING_INPUT:
            self._pending_input.clear()
            self._input_overflow = True
        if self._input_overflow and strict:
            raise SeatFault(FaultKind.PROTOCOL, "the bot stopped reading its input")
        self._flush()

    def _flush(self) -> None:
        while self._pending_input:
            try:
                written = os.write(self._write_fd, self._pending_input)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self._write_failed = True
                self._pending_input.clear()
                return
            del self._pending_input[:written]


class _Greeting:
    """What a bot has said in its handshake so far, read a piece at a time while the referee
    waits on every bot of the match at once; tied to one process (or connection), so a seat started again
    shakes hands afresh."""

    __slots__ = ("link", "fields", "declared", "done", "received", "count")

    def __init__(self, link: object):
        self.link = link
        self.fields: dict[str, str] = {}
        self.declared: list[tuple[str, str]] = []
        self.done = False
        self.received: list[str] = []
        """The first few lines received, clipped: a handshake timeout quotes them."""
        self.count = 0

    def heard(self, line: str) -> None:
        """Keep a line for the timeout's detail, bounded however much the bot says."""
        self.count += 1
        if len(self.received) < QUOTED_LINES:
            self.received.append(clip(line, QUOTED_WIDTH))


def _allowance(request: Request) -> str:
    """The time a request allowed, as a timeout's detail states it: the per-move limit, and
    the time bank that was left on top of it when the match has one."""
    limit = f"{request.millis / 1000:g} s"
    if request.bank_us is None:
        return limit
    return f"{limit} + time bank {request.bank_us / 1e6:.3f} s"


def _misread_field(move: str, request: Request) -> str | None:
    """The detail of an answer that is not a move but another field of the request (a bot that
    read the wrong word of its ``go`` line), or None: the time limit, the kind, or the time
    bank. Worded as the referee words any refused token (``'X' refused: ...``), so a replay
    of the record quotes the bot's line as for any ``illegal`` fault."""
    if move == str(request.millis):
        what = "the request's time limit in milliseconds, the third word of 'go'"
    elif move == request.kind:
        what = "the request's kind, the second word of 'go'"
    elif request.bank_us is not None and move == str(request.bank_us // 1000):
        what = "the time left in the bank, from the 'bank' line"
    else:
        return None
    return (f"{clip(move)!r} refused: it is {what}, not a move; the moves start at the fourth word "
            f"('go {request.kind} {request.millis} MOVE MOVE ...')")


def _quote(partial: bytes) -> str:
    """An incomplete line as quoted in a fault's detail."""
    return repr(clip(partial.decode("utf-8", "replace"), QUOTED_WIDTH))
