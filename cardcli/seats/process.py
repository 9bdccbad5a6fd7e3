"""External bot processes: the one adapter that owns pipes, framing, time and cleanup.

Bot I/O uses plain non-blocking pipes read with ``os.read`` and waited on with a selector (the
referee's :func:`cardcli.seats.gather.collect`): a round trip then costs about what the pipe
itself costs, where asyncio would cost four to seven times more and pexpect twenty. stderr is
drained by a thread into a bounded sink so a chatty bot never blocks on it. Each bot runs in
its own session (process group), so ending a bot ends the children it started too; where the
machine allows, also in a control group of its own (limits and clean-up for its whole process
tree, even the parts that left its session) and in a sandbox (:mod:`cardcli.seats.sandbox`).
"""

from __future__ import annotations

import fcntl
import logging
from collections import deque
import os
import select
import shutil
import signal
import struct
import subprocess
import termios
import threading
import time
from pathlib import Path
from typing import IO, Sequence

from .. import protocol
from ..transcript import Transcript
from ..safe_text import DETAIL_WIDTH, printable
from . import cgroups
from .base import DEBUG_HINT, FLUSH_HINT, Answer, FaultKind, Identity, Request, Seat, SeatFault, clip
from .gather import wait_ready_all
from .limits import Limits
from .sandbox import DEFAULT_PROCESSES, Jail, SandboxError, SandboxPolicy, describe
from .watchdog import WATCHDOG

log = logging.getLogger("cardcli.bot")

MAX_PENDING_INPUT = 16 << 20
"""Bytes the referee holds for a bot that does not read its input before calling it a fault."""
STDERR_CAP = 1 << 20
"""Bytes of each bot's stderr saved in the file asked for; the rest is read and discarded."""
STDERR_TAIL = 8192
"""Bytes of each bot's latest stderr kept in memory, to explain how it died."""
MAX_INFO_LINES = 1000
"""``info`` lines kept per bot and match when they are recorded."""
READ_CHUNK = 65536
"""Bytes asked of the pipe in one read: a whole default pipe."""
READ_ROUNDS = 16
"""Reads one call takes at most: a bot that writes faster than the referee reads still lets it
go back to its deadlines and its other seats, with at most 1 MiB taken in."""
QUOTED_LINES = 3
"""Ignored lines a timeout's detail quotes (the last ones): enough to show a pattern (a bare
move, debug output), few enough to keep the detail one readable line."""
QUOTED_WIDTH = 60
"""Characters of each bot line quoted in a timeout's detail."""
STDERR_LINES = 5
"""Last lines of a dead bot's stderr quoted in its fault: the end of a traceback, which names
the exception and where it was raised."""
STDERR_WAIT = 0.2
"""Seconds a crash waits for the last of the bot's stderr to be drained: the process has
exited, so its pipe ends at once unless a child still holds it."""


class ProcessSeat(Seat):
    """A bot program speaking protocol v1 on its stdin and stdout."""

    kind = "process"

    def __init__(
        self,
        label: str,
        argv: Sequence[str],
        stderr_path: Path | None = None,
        limits: Limits = Limits(),
        sandbox: SandboxPolicy | None = None,
    ):
        super().__init__(label)
        self.argv = list(argv)
        self.stderr_path = stderr_path
        self.limits = limits
        self.sandbox = sandbox
        """The sandbox policy in force (already resolved: None runs the bot unguarded)."""
        self._jail: Jail | None = None
        self._group: cgroups.Group | None = None
        self._isolation = describe(sandbox, None)
        self._breach: str | None = None
        """Set by the watchdog when it killed the tree for going over a limit."""
        self.stderr_tail = bytearray()
        self.stderr_bytes = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._out = protocol.LineBuffer(protocol.MAX_BOT_LINE)
        self._pending_input = bytearray()
        self._queued: list[str] = []
        self._readable = select.poll()
        self._request: Request | None = None
        self._asked_at = 0.0
        self._written_at: float | None = None
        self._answer: Answer | None = None
        self._stderr_thread: threading.Thread | None = None
        self._stdout_fd = -1
        self._stdin_fd = -1
        self._input_overflow = False
        self._quit_sent = False
        self.quit_obeyed: bool | None = None
        """After close(): whether the bot exited by itself within the grace period after quit."""
        self.left_behind = 0
        """After close(): processes of the bot's tree still running when the bot itself had
        exited after ``quit`` (the referee then ends them; another host might not)."""
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

    @property
    def command(self) -> list[str]:
        return self.argv

    # -- life cycle -----------------------------------------------------------------------------

    @property
    def usable(self) -> bool:
        return not self.started or self._proc is not None

    @property
    def isolation(self) -> str:
        """What guarded this bot when it last started, for the record (``off`` when nothing)."""
        return self._isolation

    @property
    def limits_in_force(self) -> Limits:
        """The limits, with the sandbox's default process limit where none was given."""
        return self.limits if self.sandbox is None else self.limits.with_default_processes(DEFAULT_PROCESSES)

    def start(self) -> None:
        self.started = True
        self._quit_sent = False
        self._breach = None
        self._kept_alive = False
        self._recent_ignored.clear()
        self._ignored_since_ask = 0
        self._started_at = time.monotonic()
        self.transcript.restart()
        limits = self.limits_in_force
        _check_startable(self.argv[0])
        self._group = _new_group(self.tag)
        argv, env, args_fd = self.argv, None, None
        try:
            if self._group is not None:
                limits.setup(self._group)
            if self.sandbox is not None:
                self._jail = Jail(self.sandbox, self.argv)
                if self._group is not None:
                    self._group.keeper = os.path.realpath(self._jail.tool)
                args_fd, write_end = os.pipe()
                argv, data = self._jail.command(args_fd)
                with open(write_end, "wb") as args:
                    args.write(data)
                env = Jail.environment()
            self._proc = subprocess.Popen(
                limits.launch(argv, self._group, self._jail is not None and self._jail.own_uid),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
                pass_fds=() if args_fd is None else (args_fd,),
                env=env,
                bufsize=0,
            )
        except OSError as err:
            self._release()
            raise SeatFault(FaultKind.CRASH, f"cannot start {self.argv[0]!r}: {err.strerror}") from None
        except SandboxError as err:
            self._release()
            raise SeatFault(FaultKind.CRASH, f"cannot start in the sandbox: {err}") from None
        finally:
            if args_fd is not None:
                os.close(args_fd)
        host = cgroups.host() if self._group is not None else None
        self._isolation = describe(self.sandbox, host.label if host is not None else None)
        if self._group is not None and limits.any:
            WATCHDOG.watch(self._group, limits, self._over_limit)
        assert self._proc.stdin and self._proc.stdout and self._proc.stderr
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._readable.register(self._stdout_fd, select.POLLIN)
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr, args=(self._proc.stderr,), daemon=True
        )
        self._stderr_thread.start()
        self._send([protocol.hello()], strict=False)

    def wait_ready(self, deadline: float) -> None:
        fault = wait_ready_all({0: self}, deadline, round(deadline - self._started_at, 1)).get(0)
        if fault is not None:
            raise fault

    def handshake_timeout(self, limit: float) -> SeatFault:
        """Say what arrived before the deadline, since the cure depends on it: nothing at all
        is almost always a ``ready`` left in the bot's output buffer; ``id`` lines without
        ``ready`` prove the buffer is flushed and ``ready`` is what is missing."""
        greeting = self._greeting
        received = greeting.received if greeting is not None and greeting.proc is self._proc else []
        count = greeting.count if greeting is not None and greeting.proc is self._proc else 0
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
        return self._stdout_fd if self._proc is not None else None

    def read_handshake(self) -> bool:
        greeting = self._greeting
        if greeting is None or greeting.proc is not self._proc:
            greeting = self._greeting = _Greeting(self._proc)
        if greeting.done:
            return True
        if self._proc is None:
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
        proc = self._proc
        if proc is not None and not self._quit_sent and proc.poll() is None:
            self._quit_sent = True
            self._send([protocol.quit_line()], strict=False)

    def close(self, grace: float = 0.0) -> None:
        proc = self._proc
        if proc is None:
            self._release()
            return
        self.quit_obeyed = None
        self.left_behind = 0
        if grace > 0:
            self.request_quit()
            self.quit_obeyed = _exits_within(proc, grace) if self._quit_sent else None
            if self.quit_obeyed:
                self.left_behind = self._still_running(proc.pid)
        self._kill_tree()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.warning("%s: process %d did not die", self.label, proc.pid)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=5)
        if proc.stderr is not None:
            proc.stderr.close()
        self._proc = None
        self._release()

    def begin_match(self) -> None:
        self._kept_alive = self._proc is not None
        if self._jail is not None and self._proc is not None:
            self._jail.reset()

    def _kill_tree(self) -> None:
        """SIGKILL the bot's session and, where it has one, its whole control group: the group
        also holds what left the session (``setsid``) and would otherwise outlive the match.
        In the sandbox, the session leader is bubblewrap, and the kernel ends every process of
        the PID namespace with it."""
        assert self._proc is not None
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self._group is not None:
            self._group.kill()

    def _still_running(self, pid: int) -> int:
        """Processes the exited bot ``pid`` left running: those of its control group (less the
        sandbox's own), or else of its session. In the sandbox the kernel ends them with the
        bot, so there this finds none. A process that is itself exiting (its program already
        gone: a zombie, or the sandbox's init as the kernel tears it down) is not counted."""
        members = self._group.pids() if self._group is not None else _session_members(pid)
        keeper = self._group.keeper if self._group is not None else None
        return sum(1 for p in members if p != pid and cgroups.program(p) not in (None, keeper))

    def _release(self) -> None:
        """Give back what the bot held besides its process: the group and the sandbox."""
        if self._group is not None:
            WATCHDOG.forget(self._group)
            self._group.kill()
            self._group.remove()
            self._group = None
        if self._jail is not None:
            self._jail.destroy()
            self._jail = None

    def _over_limit(self, reason: str) -> None:
        self._breach = reason

    def death(self) -> SeatFault:
        """The fault for a bot whose output has ended: how it ended, and whether the kernel's
        account says it went over a limit."""
        proc = self._proc
        if proc is None:
            return SeatFault(FaultKind.CRASH, "ended")
        try:
            code = proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return SeatFault(FaultKind.CRASH, "closed its output but is still running")
        if self._jail is not None and code > 128:
            code = 128 - code  # bubblewrap reports a child killed by signal N as 128 + N
        if code < 0:
            try:
                how = f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        limits = self.limits_in_force
        breach = self._breach or limits.breach(-code if code < 0 else None, self._group)
        if breach is not None:
            return SeatFault(FaultKind.LIMIT, f"{how}: over its {breach}")
        if code == 0 and self._kept_alive:
            how += " between matches (after 'result'): a bot must keep reading until 'quit'"
        if limits.any:
            how += f" (limits: {limits.describe()})"
        tail = self._stderr_end(DETAIL_WIDTH - len(how) - 60)
        if tail:
            how += f"; its stderr ended: {tail}"
        return SeatFault(FaultKind.CRASH, how)

    def _stderr_end(self, width: int) -> str:
        """The last lines the dead bot wrote on stderr (the end of its traceback), on one line,
        escaped and cut from the front to ``width`` characters: its author sees why it died
        without ``--bot-stderr``. Waits a moment for the drain to take in what the bot wrote
        last."""
        thread = self._stderr_thread
        if thread is not None:
            thread.join(timeout=STDERR_WAIT)
        text = bytes(self.stderr_tail).decode("utf-8", "replace")
        # Python's markers under the failing expression (^^^~~~) say nothing on one line
        lines = [line.strip() for line in text.splitlines() if line.strip(" ^~\t")][-STDERR_LINES:]
        shown = " | ".join(printable(line) for line in lines)
        width = max(width, 40)
        return shown if len(shown) <= width else "..." + shown[len(shown) - width + 3:]

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
        line = protocol.go(request.kind, request.millis, request.moves)
        self._check_unsolicited()
        if self._answer is not None:
            return
        self._asked_at = time.monotonic()
        self._written_at = None
        try:
            self._send([line])
        except SeatFault as fault:
            self._answer = Answer(None, 0.0, fault)
        if self._answer is None and not self._pending_input:
            self._written_at = time.monotonic()

    def fileno(self) -> int | None:
        return self._stdout_fd if self._answer is None else None

    def wait_readable(self, timeout: float) -> None:
        self._readable.poll(timeout * 1000.0)

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
            self._written_at = time.monotonic()

    def expire(self) -> Answer:
        """The timeout, with what the referee did receive: the limit and the time waited, the
        last lines it ignored (a move sent without ``move``, debug output), a line left without
        its newline, or nothing at all (then the answer is most likely in the bot's output
        buffer)."""
        request = self._request
        self._request = None
        elapsed = self._elapsed()
        limit = f"limit {request.millis / 1000:g} s, " if request is not None else ""
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
        return time.monotonic() - start

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
                if request is not None and move not in request.moves and self._unread_request():
                    raise SeatFault(
                        FaultKind.PROTOCOL,
                        f"move sent without a request: {clip(line)!r} (before the bot had read the request)",
                    )
                self._answer = Answer(move, self._elapsed())
                self._kept_alive = False
            else:
                self._note(protocol.parse_bot_line(line), line)

    def _unread_request(self) -> bool:
        """Whether the bot has not yet read the whole open request: then no line it sent can be
        the answer (a stale second ``move`` that arrived just after the request was written).
        Asked only of a move that was not offered, the one case where the answer's timing
        changes the fault, so a legal answer costs no system call: the input pipe's count of
        unread bytes (the request is the last thing written to it)."""
        if self._written_at is None or self._pending_input:
            return True
        try:
            unread = fcntl.ioctl(self._stdin_fd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return False
        return struct.unpack("i", unread)[0] > 0

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
            ignored = protocol.parse_bot_line(line).kind == "unknown"
            log.debug("%s >> %s%s", self.tag, printable(line, DETAIL_WIDTH),
                      f"    [ignored: not a protocol line; {DEBUG_HINT}]" if ignored else "")
        return line

    def _read_available(self) -> None:
        """Take in what the pipe holds, up to :data:`READ_ROUNDS` reads. Stops early once the
        framing has refused a line: the lines before it are still to be popped, and what
        follows it is never looked at."""
        for _ in range(READ_ROUNDS):
            try:
                data = os.read(self._stdout_fd, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError as err:
                raise SeatFault(FaultKind.CRASH, f"cannot read from the bot: {err.strerror}") from None
            if not data:
                if self._out.has_lines:
                    return
                raise self.death()
            try:
                self._out.feed(data)
            except protocol.FramingError as err:
                raise SeatFault(FaultKind.MALFORMED, err.detail) from None
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
        data = ("\n".join(lines) + "\n").encode("utf-8")
        if not self._pending_input and not self._input_overflow:
            try:
                written = os.write(self._stdin_fd, data)
            except BlockingIOError:
                written = 0
            except OSError:
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
                written = os.write(self._stdin_fd, self._pending_input)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self._pending_input.clear()
                return
            del self._pending_input[:written]

    def _drain_stderr(self, stream: IO[bytes]) -> None:
        sink = None
        kept = 0
        try:
            if self.stderr_path is not None:
                sink = _create_unfollowed(self.stderr_path)
            while True:
                chunk = os.read(stream.fileno(), 65536)
                if not chunk:
                    break
                self.stderr_bytes += len(chunk)
                self.stderr_tail += chunk
                if len(self.stderr_tail) > STDERR_TAIL:
                    del self.stderr_tail[: len(self.stderr_tail) - STDERR_TAIL]
                if sink is not None and kept < STDERR_CAP:
                    piece = chunk[: STDERR_CAP - kept]
                    kept += len(piece)
                    sink.write(piece)
        except (OSError, ValueError):
            pass
        finally:
            if sink is not None:
                sink.close()


class _Greeting:
    """What a bot has said in its handshake so far, read a piece at a time while the referee
    waits on every bot of the match at once; tied to one process, so a seat started again
    shakes hands afresh."""

    __slots__ = ("proc", "fields", "declared", "done", "received", "count")

    def __init__(self, proc: subprocess.Popen[bytes] | None):
        self.proc = proc
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


def _quote(partial: bytes) -> str:
    """An incomplete line as quoted in a fault's detail."""
    return repr(clip(partial.decode("utf-8", "replace"), QUOTED_WIDTH))


def _check_startable(program: str) -> None:
    """Refuse a program that is not there or not executable before anything starts it: behind
    the launcher the kernel's refusal would only be the launcher's exit status (126, 127),
    where the bot's author needs the reason."""
    found = program if os.sep in program else shutil.which(program)
    if found is None or not os.path.exists(found):
        raise SeatFault(FaultKind.CRASH, f"cannot start {program!r}: No such file or directory")
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        raise SeatFault(FaultKind.CRASH, f"cannot start {program!r}: Permission denied")


def _create_unfollowed(path: Path) -> IO[bytes] | None:
    """Create ``path`` afresh for writing without following any link: whatever stands at that
    name (a symlink a bot planted to make the referee truncate a file elsewhere) is removed,
    not followed, and the new file is made with ``O_EXCL | O_NOFOLLOW`` in a directory opened
    without following links either. None when that fails: the stderr copy is lost, nothing
    else."""
    try:
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as err:
        log.warning("cannot open %s: %s", path.parent, err.strerror)
        return None
    try:
        try:
            os.unlink(path.name, dir_fd=folder)
        except FileNotFoundError:
            pass
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(path.name, flags, 0o644, dir_fd=folder)
    except OSError as err:
        log.warning("cannot create %s: %s", path, err.strerror)
        return None
    finally:
        os.close(folder)
    return os.fdopen(fd, "wb")


def _new_group(tag: str) -> cgroups.Group | None:
    """A control group for one bot, where the machine lets the referee make one."""
    host = cgroups.host()
    if host is None:
        return None
    try:
        return host.new_group(tag)
    except OSError as err:
        log.warning("cannot create a control group: %s", err)
        return None


def _session_members(sid: int) -> list[int]:
    """The processes of session ``sid`` (Linux's /proc; none where it does not exist)."""
    members = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return members
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 3 and fields[3] == str(sid).encode():
            members.append(int(name))
    return members


def _exits_within(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Whether ``proc`` exits within ``timeout`` seconds. A pidfd wakes the wait the moment
    the process ends; ``Popen.wait`` alone sleeps in growing steps from 1 ms, which four bots
    closed in turn after every match would pay again and again."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        pidfd = None
    if pidfd is not None:
        try:
            waiter = select.poll()
            waiter.register(pidfd, select.POLLIN)
            waiter.poll(timeout * 1000.0)
        finally:
            os.close(pidfd)
    try:
        proc.wait(timeout=0.0 if pidfd is not None else timeout)
    except subprocess.TimeoutExpired:
        return False
    return True
