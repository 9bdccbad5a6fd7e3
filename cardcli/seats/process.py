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
import os
import select
import signal
import struct
import subprocess
import termios
import threading
import time
from pathlib import Path
from typing import IO, Sequence

from .. import protocol
from ..safe_text import DETAIL_WIDTH, printable
from . import cgroups
from .base import Answer, FaultKind, Request, SeatFault
from .launch import Launch
from .limits import Limits
from .line_seat import LineSeat, log
from .policy import DEFAULT_PROCESSES, SandboxPolicy
from .sandbox import Jail, SandboxError, adopt_orphans, describe, reap_adopted
from .watchdog import WATCHDOG

STDERR_CAP = 1 << 20
"""Bytes of each bot's stderr saved in the file asked for; the rest is read and discarded."""
STDERR_TAIL = 8192
"""Bytes of each bot's latest stderr kept in memory, to explain how it died."""
STDERR_LINES = 5
"""Last lines of a dead bot's stderr quoted in its fault: the end of a traceback, which names
the exception and where it was raised."""
STDERR_WAIT = 0.2
"""Seconds a crash waits for the last of the bot's stderr to be drained: the process has
exited, so its pipe ends at once unless a child still holds it."""


SCRATCH_LOOK = 0.02
"""Seconds between two looks at a sandboxed bot's scratch from the request path (the watchdog
also looks, every 50 ms, where control groups apply)."""


class ProcessSeat(LineSeat):
    """A bot program speaking protocol v1 on its stdin and stdout."""

    kind = "process"

    def __init__(
        self,
        label: str,
        argv: Sequence[str],
        stderr_path: Path | None = None,
        limits: Limits = Limits(),
        sandbox: SandboxPolicy | None = None,
        launch: Launch = Launch(),
    ):
        super().__init__(label)
        self.argv = list(argv)
        self.launch = launch
        self.stderr_path = stderr_path
        self.limits = limits
        self.sandbox = sandbox
        """The sandbox policy in force (already resolved: None runs the bot unguarded)."""
        self._jail: Jail | None = None
        self._scratch_looked = -SCRATCH_LOOK
        self._group: cgroups.Group | None = None
        self._isolation = describe(sandbox, None)
        self._breach: str | None = None
        """Set by the watchdog when it killed the tree for going over a limit."""
        self.stderr_tail = bytearray()
        self.stderr_bytes = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr_thread: threading.Thread | None = None
        self.quit_obeyed: bool | None = None
        """After close(): whether the bot exited by itself within the grace period after quit."""
        self.left_behind = 0
        """After close(): processes of the bot's tree still running when the bot itself had
        exited after ``quit`` (the referee then ends them; another host might not)."""

    @property
    def command(self) -> list[str]:
        return self.argv

    def write_stderr_to(self, path: Path) -> None:
        """Write the bot's stderr to ``path`` (instead of the file it was made with), from its
        next start."""
        self.stderr_path = path

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
        self._breach = None
        limits = self.limits_in_force
        _check_startable(self.argv[0], self.launch)
        self._group = _new_group(self.tag)
        argv, env, args_fd, cwd = self.argv, self.launch.environment(), None, self.launch.workdir
        filter_fd: int | None = None
        try:
            if self._group is not None:
                limits.setup(self._group)
            if self.sandbox is not None:
                adopt_orphans()
                self._jail = Jail(self.sandbox, self.argv, self.launch.workdir, dict(self.launch.env),
                                  self.launch.binds, self.launch.show_workdir)
                cwd = None
                if self._group is not None:
                    self._group.keeper = os.path.realpath(self._jail.tool)
                args_fd, write_end = os.pipe()
                filter_fd, filter_write = os.pipe()
                argv, data, rules = self._jail.command(args_fd, filter_fd)
                with open(write_end, "wb") as args, open(filter_write, "wb") as filtered:
                    args.write(data)
                    filtered.write(rules)
                env = Jail.environment()
            self._proc = subprocess.Popen(
                limits.launch(argv, self._group, self._jail is not None and self._jail.own_uid),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
                pass_fds=tuple(fd for fd in (args_fd, filter_fd) if fd is not None),
                env=env,
                cwd=cwd,
                bufsize=0,
            )
        except OSError as err:
            self._release()
            raise SeatFault(FaultKind.CRASH, f"cannot start {self.argv[0]!r}: {err.strerror}") from None
        except SandboxError as err:
            self._release()
            raise SeatFault(FaultKind.CRASH, f"cannot start in the sandbox: {err}") from None
        finally:
            for fd in (args_fd, filter_fd):
                if fd is not None:
                    os.close(fd)
        host = cgroups.host() if self._group is not None else None
        self._isolation = describe(self.sandbox, host.label if host is not None else None)
        if self._group is not None and limits.any:
            WATCHDOG.watch(self._group, limits, self._over_limit, self._scratch_breach)
        assert self._proc.stdin and self._proc.stdout and self._proc.stderr
        self._open(self._proc.stdout.fileno(), self._proc.stdin.fileno(), self._proc)
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr, args=(self._proc.stderr,), daemon=True
        )
        self._stderr_thread.start()
        self._send([protocol.hello()], strict=False)

    def _alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _unread_request(self) -> bool:
        """As for any stream, and also while the input pipe still holds unread bytes: the
        request is the last thing written to it, so the bot has not read it yet."""
        if super()._unread_request():
            return True
        try:
            unread = fcntl.ioctl(self._write_fd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return False
        waiting: int = struct.unpack("i", unread)[0]
        return waiting > 0

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
        reap_adopted(proc.pid)
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
        self._proc = self._link = None
        self._release()

    def begin_match(self) -> None:
        super().begin_match()
        self._kept_alive = self._proc is not None
        if self._jail is not None and self._proc is not None:
            self._jail.reset(self._proc.pid)

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

    def ask(self, request: Request) -> None:
        """As for any stream, but a sandboxed bot whose scratch is full is a ``limit`` fault at
        this request: the kernel refused it a write, whatever it made of that, and on a fast
        match the watchdog may not have looked yet. The look (an ``fstatvfs``, 2-3 us) is
        taken at most every ``SCRATCH_LOOK`` seconds, so an instant bot's requests do not pay
        it each time."""
        now = time.monotonic()
        breach = None
        if self._jail is not None and now - self._scratch_looked >= SCRATCH_LOOK:
            self._scratch_looked = now
            breach = self._scratch_breach()
        if breach is None:
            super().ask(request)
            return
        self._breach = breach
        self._kill_tree()
        self._request = request
        self._answer = Answer(None, 0.0, self.death())

    def _scratch_breach(self) -> str | None:
        """The watchdog's check of the scratch: found once the sandbox has mounted it, full
        when the kernel refused the bot a write there."""
        jail, proc = self._jail, self._proc
        if jail is None or proc is None or not jail.attach(proc.pid):
            return None
        return jail.scratch_breach()

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
        if breach is None and self._jail is not None:
            breach = self._jail.scratch_breach()
        if breach is not None:
            return SeatFault(FaultKind.LIMIT, f"{how}: over its {breach}")
        if code == 0 and self._kept_alive:
            how += " between matches (after 'result'): a bot must keep reading until 'quit'"
        if limits.any:
            how += f" (limits: {limits.describe()})"
        if self._jail is not None and self._jail.view.hint is not None:
            how += f"; in the sandbox {self._jail.view.hint}"
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


def _check_startable(program: str, launch: Launch) -> None:
    """Refuse a program that is not there or not executable before anything starts it: behind
    the launcher the kernel's refusal would only be the launcher's exit status (126, 127),
    where the bot's author needs the reason."""
    found = launch.locate(program)
    if found is None:
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
    members: list[int] = []
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
