"""``cardcli connect``: run an unchanged stdin/stdout bot on the author's machine against a
remote referee, relaying its lines over the WebSocket transport of ``protocol/REMOTE.md``.

The bot never knows it is remote: it reads the referee's lines on its stdin and writes its
answers on its stdout, exactly as under ``cardcli play``. Everything the transport adds lives
here: authentication, the numbering of lines (:class:`wire.Outbox`, :class:`wire.Inbox`),
acknowledgements, and reconnection after a dropped connection, during which the bot keeps
running and its lines wait in the outbox, so a network hiccup costs the bot nothing.

Each of ``concurrency`` *slots* plays one session at a time: a fresh connection, ``auth``,
``welcome``, then silence until a match needs the seat. The bot process is started only when
the session's first line arrives, so an idle connection costs no process; it is ended when the
session ends, and the slot connects afresh for the next one (a new bot process each session, as
the referee itself would start one).

The pieces are small on purpose: :func:`run_relay` is the whole relay as one coroutine (the
command line only parses options), with its waits injectable through :class:`Timing`, so the
tests run real sessions against a fake referee in a fraction of a second.
"""

from __future__ import annotations

import asyncio
import enum
import os
import signal
import socket
import ssl
import sys
import urllib.parse
from typing import Any, Iterator, Sequence, TextIO

import attrs
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidProxy, InvalidStatus

from .. import protocol
from ..errors import CardcliError, Interrupted, UsageError
from ..safe_text import DETAIL_WIDTH, printable
from ..seats.base import FaultKind
from . import wire

PREFIX = "cardcli connect"
"""What every line the relay prints on stderr starts with (the bot's own stderr aside)."""

FATAL_REFUSALS = ("auth", "frame")
"""Refusals that no retry can change (a wrong name or token, a client the referee cannot
read): the relay stops with status 2 at once instead of hammering the referee, which would
end up refusing the address as ``busy``."""
WAIT_REFUSALS = ("busy", "taken")
"""Refusals that time may lift: the address or the name has too many connections now."""
TELL_REFUSALS = 3
"""Refusals in a row (of one word) after which the relay says it is being refused."""

BOT_EVENTS_KEPT = 64
"""Lines of the bot's stdout read ahead of the relay: beyond them the reader waits, and the bot
blocks on its own stdout as it would on a slow pipe (bounded memory during a reconnection)."""
READ_CHUNK = 1 << 16
CLOSE_GOING_AWAY = 1001
"""WebSocket close code when the relay itself is stopped (Ctrl-C, SIGTERM): the referee sees
the relay leave rather than a network failure."""
CLOSE_PROTOCOL_ERROR = 1002
"""WebSocket close code after the referee broke the transport's rules."""


class RelayError(CardcliError):
    """The relay cannot go on: the message is printed as one line, the status is the exit
    status (2 when nothing would change by trying again: a refused token, an untrusted
    certificate; 1 otherwise)."""

    exit_code = 1

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code


@attrs.frozen
class Backoff:
    """The waits between attempts to connect: ``first``, doubling, capped at ``cap``. A referee
    that restarts is back within a second or two; capping the wait keeps the relay prompt
    without flooding the referee (which refuses an address that tries too often)."""

    first: float = 0.1
    cap: float = 2.0

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield delay
            delay = min(delay * 2, self.cap)


@attrs.frozen
class Timing:
    """Every wait of the relay, injectable so that tests need not sleep for real."""

    backoff: Backoff = Backoff()
    quit_grace: float = 2.0
    """Seconds a bot sent ``quit`` has to exit by itself before its process group is killed
    (as the local referee's ``--quit-grace``)."""
    answer_timeout: float = 10.0
    """Seconds to wait for the answer to ``auth`` (the referee itself gives a client 5 s to
    send it, so a sane referee answers at once)."""
    open_timeout: float = 10.0
    ping_interval: float = 5.0
    ping_timeout: float = 10.0
    """WebSocket pings find a dead connection (a network that silently drops everything) in
    at most 15 s, within the referee's default reconnect window, so a resume still finds the
    seat held."""
    close_timeout: float = 2.0


@attrs.frozen
class Config:
    """What one ``cardcli connect`` was asked to do, checked by :func:`make_config`."""

    url: str
    name: str
    token: str
    argv: tuple[str, ...]
    concurrency: int = 1
    once: bool = False
    cafile: str | None = None
    retry_time: float = 300.0
    """Seconds to keep trying to reach the referee for a new session (it may not be up yet)."""
    reconnect_window: float = 60.0
    """Seconds to keep trying to resume a session after its connection dropped."""
    verbose: bool = False
    """Log every line relayed, besides what the relay tells anyway."""
    quiet: bool = False
    """Tell nothing on stderr but the error that stops the relay."""
    timing: Timing = Timing()

    @property
    def secure(self) -> bool:
        return self.url.startswith("wss://")


def make_config(url: str, name: str, token: str, argv: Sequence[str], *, concurrency: int = 1,
                once: bool = False, cafile: str | None = None, retry_time: float = 300.0,
                reconnect_window: float = 60.0, verbose: bool = False, quiet: bool = False,
                timing: Timing = Timing()) -> Config:
    """The configuration, or UsageError for what the referee would refuse anyway (a name or
    token that cannot be one) and what cannot work (a URL that is not ``ws://`` or ``wss://``,
    no bot): told before anything connects or starts."""
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme not in ("ws", "wss"):
        raise UsageError(f"the referee's address must be a ws:// or wss:// URL, not {printable(url, 80)!r}")
    try:
        _ = parsed.port  # reading it checks it
    except ValueError:
        raise UsageError(f"not a port in {printable(url, 80)!r}") from None
    if not parsed.hostname or parsed.fragment:
        raise UsageError(f"not a WebSocket URL: {printable(url, 80)!r}")
    if not wire.NAME.fullmatch(name):
        raise UsageError("--name must be 1 to 64 letters, digits and _.- (starting with a letter or digit)")
    if not wire.TOKEN.fullmatch(token):
        raise UsageError("--token must be the token the organiser gave: 16 to 128 letters, digits, - and _")
    if not argv:
        raise UsageError("give the bot's command after --, e.g. cardcli connect URL ... -- python3 bot.py")
    if cafile is not None and parsed.scheme != "wss":
        raise UsageError("--cafile is for a wss:// URL (TLS); this one is ws://")
    if concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    if quiet and verbose:
        raise UsageError("-q and -v say opposite things: give one of them")
    return Config(url, name, token, tuple(argv), concurrency, once, cafile, retry_time, reconnect_window,
                  verbose, quiet, timing)


async def run_relay(url: str, name: str, token: str, argv: Sequence[str], *, concurrency: int = 1,
                    once: bool = False, cafile: str | None = None, retry_time: float = 300.0,
                    reconnect_window: float = 60.0, verbose: bool = False, quiet: bool = False,
                    timing: Timing = Timing(), stderr: TextIO | None = None, handle_signals: bool = False) -> int:
    """Relay bot sessions until the referee says it is over (or, with ``once``, until each
    slot's first session ends); returns the exit status.

    0: every slot stopped normally (``end over``, or with ``once`` ``end quit``); 1: with
    ``once``, a session that ended in a fault or was lost, or a referee that could not be
    reached within ``retry_time``; 2: refused for good (``auth``, ``frame``). UsageError for a
    bad configuration; with ``handle_signals``, Interrupted (130 or 143) after Ctrl-C or
    SIGTERM, every bot's process group killed first.

    What it tells on stderr, one line each: that it connected (once, and again after it said it
    was waiting for the referee), each session's start and end with the results of its
    matches, reconnections, and what went wrong; ``quiet``: only the error that stops it;
    ``verbose``: every line relayed too.
    """
    config = make_config(url, name, token, argv, concurrency=concurrency, once=once, cafile=cafile,
                         retry_time=retry_time, reconnect_window=reconnect_window, verbose=verbose,
                         quiet=quiet, timing=timing)
    return await Relay(config, stderr).run(handle_signals)


def tls_context(cafile: str | None) -> ssl.SSLContext:
    """The TLS context of a ``wss://`` connection: the system's trust store, or only the given
    certificate file (an organiser's self-signed certificate); UsageError for a file that is
    not one."""
    try:
        return ssl.create_default_context(cafile=cafile)
    except (OSError, ssl.SSLError) as err:
        raise UsageError(f"--cafile {printable(cafile)}: not a PEM certificate file ({err})") from None


def exit_detail(returncode: int) -> str:
    """How a bot's process ended, in the words of a ``crash`` fault's detail."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = str(-returncode)
        return f"killed by signal {name}"
    return f"exited with status {returncode}"


# -- the bot ------------------------------------------------------------------------------------


@attrs.frozen
class Said:
    """A complete line the bot wrote on its stdout."""

    text: str


@attrs.frozen
class Malformed:
    """The bot broke the framing (an over-long line, invalid UTF-8): nothing it writes after
    is read."""

    detail: str


@attrs.frozen
class Exited:
    """The bot closed its stdout and its process exited."""

    returncode: int


BotEvent = Said | Malformed | Exited


class Bot:
    """One bot process: the child of one session, in a process session of its own so that
    ending it (SIGKILL to the group) also ends whatever it started, as the local referee does.

    Its stdout is read by a task of its own into :attr:`events`, so that the bot keeps running
    (and writing, up to :data:`BOT_EVENTS_KEPT` lines) while the connection is being resumed.
    Its stderr is inherited: the author reads it on the relay's own terminal. It is
    deliberately never sent to the referee, even in a ``crash`` fault: a bot's stderr may hold
    anything from the author's machine (paths, debugging dumps, the strategy itself), and the
    referee needs only the fact of the crash, which the exit status gives.
    """

    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process
        self.events: asyncio.Queue[BotEvent] = asyncio.Queue(BOT_EVENTS_KEPT)
        self.finished = False
        """True once the last event (Malformed or Exited) has been taken from :attr:`events`."""
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, argv: Sequence[str]) -> Bot:
        """Start the bot; OSError when its program cannot be run."""
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
            start_new_session=True)
        return cls(process)

    @property
    def pid(self) -> int:
        return self.process.pid

    async def _read(self) -> None:
        """Frame the bot's stdout as the local referee does (:class:`protocol.LineBuffer`): the
        lines complete before a framing error are still relayed, then the error ends the
        reading. At end of file, the exit status once the process has exited (a partial last
        line, with no newline, is a line the bot never finished: dropped)."""
        stdout = self.process.stdout
        assert stdout is not None
        framing = protocol.LineBuffer(protocol.MAX_BOT_LINE)
        try:
            while True:
                data = await stdout.read(READ_CHUNK)
                if not data:
                    break
                framing.feed(data)
                while (line := framing.pop()) is not None:
                    await self.events.put(Said(line))
        except protocol.FramingError as err:
            await self.events.put(Malformed(err.detail))
            return
        await self.events.put(Exited(await self.process.wait()))

    def write(self, text: str) -> None:
        """Give the bot one line. Never waits: the pipe's transport buffers what the bot has
        not read yet, so a bot slow to read never stalls the connection (the referee itself
        bounds what it sends to a bot that does not read). A bot that has gone is not
        written to."""
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing():
            return
        try:
            stdin.write(text.encode("utf-8") + b"\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def kill(self) -> None:
        """SIGKILL the bot's process group at once, whether or not the bot has exited (what it
        started may still run). Synchronous, so that it happens even in a task being
        cancelled."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    async def end(self, grace: float) -> None:
        """Close the bot's stdin, give it ``grace`` seconds to exit by itself, then kill its
        process group and collect it."""
        stdin = self.process.stdin
        if stdin is not None and not stdin.is_closing():
            stdin.close()
        if grace > 0 and self.process.returncode is None:
            try:
                await asyncio.wait_for(self.process.wait(), grace)
            except TimeoutError:
                pass
        self.kill()
        self._reader.cancel()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            pass
        await asyncio.gather(self._reader, return_exceptions=True)


# -- a session ----------------------------------------------------------------------------------


class Outcome(enum.Enum):
    """How a session ended, for the slot to decide what comes next."""

    QUIT = "quit"
    FAULT = "fault"
    OVER = "over"
    LOST = "lost"
    """The connection could not be resumed: the referee recorded a ``disconnect``."""
    BROKEN = "broken"
    """The referee broke the protocol: the session was ended on this side."""
    IDLE = "idle"
    """The connection was lost before the session's first line and could not be resumed:
    no match saw it, so it does not count as a session played."""


class Session:
    """The state of one session, which outlives its connections: the line numbers of both
    directions, the bot, and the fault reported (sent again after a resume, since a frame
    that is not a line is not numbered and may have been lost with the connection)."""

    def __init__(self, session_id: str):
        self.id = session_id
        self.inbox = wire.Inbox()
        self.outbox = wire.Outbox()
        self.bot: Bot | None = None
        self.bot_over = False
        """The bot was started and has ended: no other starts in this session."""
        self.quit_sent = False
        self.fault: str | None = None
        self.number = 0
        """The session's number among those its slot played (from 1), once it has started."""
        self.seat: int | None = None
        """The bot's seat in the match under way, from its ``game`` line."""
        self.broken: str | None = None
        """How the referee broke the protocol, when it did."""
        self.results: dict[str, int] = {}
        """How many of the session's matches ended with each standing of the bot's seat
        (``win``, ``lose``, ``draw``), from the ``result`` lines relayed, in order first seen."""

    def follow(self, text: str) -> None:
        """Note the bot's seat and its standings from the lines relayed to it."""
        if text.startswith("game "):
            words = text.split()
            self.seat = int(words[4]) if len(words) > 4 and words[4].isdigit() else None
        elif text.startswith("result ") and self.seat is not None:
            words = text.split()
            if len(words) > self.seat + 1:
                standing = words[self.seat + 1]
                self.results[standing] = self.results.get(standing, 0) + 1

    def played(self) -> str:
        """The session's matches and their results, as the line that ends it says them."""
        count = sum(self.results.values())
        if not count:
            return "no match finished"
        words = {"win": "won", "lose": "lost", "draw": "drawn"}
        each = ", ".join(f"{n} {words.get(standing, printable(standing, 20))}"
                         for standing, n in self.results.items())
        return f"{count} match{'es' if count != 1 else ''} ({each})"

    @property
    def started(self) -> bool:
        return self.bot is not None or self.bot_over

    async def end_bot(self, grace: float) -> None:
        bot, self.bot = self.bot, None
        if bot is not None:
            self.bot_over = True
            await bot.end(grace)

    def kill_bot(self) -> None:
        if self.bot is not None:
            self.bot.kill()


class _Lost(CardcliError):
    """The connection dropped (no ``end``): the session is resumed on a new one."""


class _Unreachable(CardcliError):
    """An attempt to connect that failed before the referee answered ``auth``."""


class _Refused(CardcliError):
    def __init__(self, word: str, reason: str):
        super().__init__(f"refused: {reason or word}")
        self.word = word
        self.reason = reason


class _Broken(CardcliError):
    """The referee sent what the transport does not allow: the session cannot go on."""


# -- the relay ----------------------------------------------------------------------------------


class Relay:
    """The slots of one ``cardcli connect`` and what they share: the configuration, the
    output, and whether the referee has said it is over (then no slot connects again)."""

    def __init__(self, config: Config, stderr: TextIO | None = None):
        self.config = config
        self.stderr = stderr
        self.over = False
        self.waiting = False
        """A slot has said it is waiting for the referee (one line for all of them)."""
        self.connected = False
        """A slot has said the relay is connected (one line for all of them)."""
        self.ssl = tls_context(config.cafile) if config.secure else None

    def tell(self, text: str) -> None:
        """One line on stderr, unless the relay was asked to be quiet."""
        if not self.config.quiet:
            self.say(text)

    def say(self, text: str) -> None:
        """One line on stderr (the bot's own stderr shares it), whatever was asked: the error
        that stops the relay, or a line of ``verbose``."""
        stream = self.stderr if self.stderr is not None else sys.stderr
        try:
            stream.write(text + "\n")
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass

    async def run(self, handle_signals: bool = False) -> int:
        slots = [Slot(self, k + 1) for k in range(self.config.concurrency)]
        tasks = [asyncio.create_task(slot.run(), name=slot.label) for slot in slots]
        stopped_by: list[int] = []
        loop = asyncio.get_running_loop()

        def stop(signum: int) -> None:
            stopped_by.append(signum)
            for task in tasks:
                task.cancel()

        if handle_signals:
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, stop, signum)
        status = 0
        try:
            pending: set[asyncio.Task[int]] = set(tasks)
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
                for task in done:
                    if task.cancelled():
                        continue
                    error = task.exception()
                    if isinstance(error, RelayError):
                        for other in pending:
                            other.cancel()
                        await asyncio.gather(*pending, return_exceptions=True)
                        pending = set()
                        if stopped_by:
                            break
                        self.say(f"{PREFIX}: {error}")
                        return error.exit_code
                    if error is not None:
                        raise error
                    status = max(status, task.result())
        finally:
            if handle_signals:
                for signum in (signal.SIGINT, signal.SIGTERM):
                    loop.remove_signal_handler(signum)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if stopped_by:
            if stopped_by[0] == signal.SIGTERM:
                raise Interrupted("terminated", 128 + signal.SIGTERM)
            raise Interrupted("interrupted", 128 + signal.SIGINT)
        return status


class Slot:
    """One of the relay's concurrent sessions, played one after the other."""

    def __init__(self, relay: Relay, number: int):
        self.relay = relay
        self.config = relay.config
        self.timing = relay.config.timing
        self.label = f"{relay.config.name}#{number}"
        self.sessions = 0
        """Sessions started (their bots started) so far."""
        self.current: Session | None = None
        """The session under way, or the last one."""

    def say(self, text: str) -> None:
        self.relay.tell(f"{PREFIX}: {self.label}: {text}")

    def trace(self, text: str) -> None:
        if self.config.verbose:
            self.relay.say(f"{self.label} {text}")

    async def run(self) -> int:
        """Sessions until the referee is over (or the first one, with ``once``); the exit status
        of the slot. After a session that ended badly the next one waits a backoff, so that
        a referee that breaks every session is not hammered."""
        failures = 0
        while not self.relay.over:
            outcome = await self.session()
            if outcome is not None:
                self.tell_end(outcome)
            if outcome is None or outcome is Outcome.OVER:
                self.relay.over = True
                return 0
            if self.config.once and outcome is not Outcome.IDLE:
                return 0 if outcome is Outcome.QUIT else 1
            if outcome in (Outcome.LOST, Outcome.BROKEN):
                failures += 1
                await asyncio.sleep(_nth(self.timing.backoff, failures))
            else:
                failures = 0
        return 0

    def tell_end(self, outcome: Outcome) -> None:
        """The line that ends a session that started, with how it ended and its results."""
        session = self.current
        if session is None or not session.started:
            return
        how = {
            Outcome.QUIT: "ended after 'quit'",
            Outcome.OVER: "ended: the referee has no more matches",
            Outcome.FAULT: "ended by the referee after a fault of the bot",
            Outcome.LOST: "is lost (the referee no longer holds it); its bot is ended",
            Outcome.BROKEN: f"ended: the referee broke the protocol ({session.broken})",
        }.get(outcome, f"ended ({outcome.value})")
        self.say(f"session {session.number} {how}; {session.played()}")

    async def session(self) -> Outcome | None:
        """One session, from a fresh connection to its ``end`` (None when the referee said it
        is over before one began). Whatever ends it, the bot is ended and the connection
        closed on the way out."""
        self.current = None
        opened = await self.open_fresh()
        if opened is None:
            return None
        ws: ClientConnection | None = opened[0]
        session = opened[1]
        self.current = session
        close_code = wire.CLOSE_NORMAL
        try:
            while True:
                assert ws is not None
                try:
                    return await self.serve(ws, session)
                except _Lost as lost:
                    ended = _ended_by_close(ws)
                    if ended is not None:
                        return await self._ended(ws, session, ended)
                    ws.transport.abort()
                    ws = None
                    if session.started:
                        self.say(f"connection lost ({lost}); reconnecting")
                    else:
                        self.trace(f"-- connection lost ({lost}); reconnecting")
                    ws = await self.resume(session)
                    if ws is None:
                        return self._lost(session)
        except _Broken as err:
            session.broken = printable(str(err), DETAIL_WIDTH)
            if not session.started:
                self.say(f"the referee broke the protocol ({err}); the session is ended")
            close_code = CLOSE_PROTOCOL_ERROR
            return Outcome.BROKEN
        except asyncio.CancelledError:
            session.kill_bot()
            if ws is not None:
                await self._close(ws, 0.5, CLOSE_GOING_AWAY)
                ws = None
            raise
        finally:
            session.kill_bot()
            await session.end_bot(0)
            if ws is not None:
                await self._close(ws, code=close_code)

    def _lost(self, session: Session) -> Outcome:
        if not session.started:
            self.trace("-- the idle session is gone; starting a new one")
            return Outcome.IDLE
        if session.quit_sent:
            self.trace("-- the session is over (the bot had been sent quit)")
            return Outcome.QUIT
        return Outcome.LOST

    # -- connecting --

    async def open_fresh(self) -> tuple[ClientConnection, Session] | None:
        """A new session on a new connection; None when the referee is over. While the referee
        cannot be reached the relay keeps trying for ``retry_time`` seconds (it may not be up
        yet), then gives up (RelayError, status 1); while it refuses with ``busy`` or
        ``taken`` it keeps trying (the referee is there and may make room)."""
        loop = asyncio.get_running_loop()
        delays = self.timing.backoff.delays()
        deadline: float | None = None
        refusals: dict[str, int] = {}
        while not self.relay.over:
            try:
                ws, answer = await self._attempt(wire.auth(self.config.name, self.config.token))
            except _Unreachable as err:
                now = loop.time()
                if deadline is None:
                    deadline = now + self.config.retry_time
                    if not self.relay.waiting:
                        self.relay.waiting = True
                        self.relay.tell(f"{PREFIX}: waiting for the referee at {self.config.url} ({err})")
                if now >= deadline:
                    raise RelayError(f"cannot reach the referee at {self.config.url} within "
                                     f"{self.config.retry_time:g} s ({err})", 1) from None
                await asyncio.sleep(min(next(delays), max(deadline - now, 0)))
                continue
            except _Broken as err:
                raise RelayError(f"the server at {self.config.url} is not a cardcli referee "
                                 f"or does not speak this version ({err})", 1) from None
            except _Refused as refusal:
                self._refused(refusal, refusals)
                deadline = None
                await asyncio.sleep(next(delays))
                continue
            if not self.relay.connected or self.relay.waiting:
                self.relay.connected = True
                self.relay.tell(f"{PREFIX}: connected to {printable(self.config.url, 200)} as {self.config.name}")
            self.relay.waiting = False
            self.trace(f"-- connected, session {answer.word}")
            return ws, Session(answer.word)
        return None

    async def resume(self, session: Session) -> ClientConnection | None:
        """A new connection that takes the session over, with the lines the referee has not
        received sent again; None when the session is lost (refused, or the reconnect window
        has passed). An idle session is not fought for once the referee is over."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.reconnect_window
        delays = self.timing.backoff.delays()
        refusals: dict[str, int] = {}
        while True:
            if self.relay.over and not session.started:
                return None
            auth = wire.auth(self.config.name, self.config.token, session.id, session.inbox.received)
            try:
                ws, answer = await self._attempt(auth)
                if answer.word != session.id:
                    ws.transport.abort()
                    raise _Broken(f"resumed session {answer.word}, not {session.id}")
                try:
                    frames = list(session.outbox.resend(answer.seq))
                except wire.WireError as err:
                    ws.transport.abort()
                    raise _Broken(str(err)) from None
                try:
                    for frame in frames:
                        await ws.send(frame)
                    if session.fault is not None:
                        await ws.send(session.fault)
                except ConnectionClosed:
                    raise _Unreachable("the connection closed") from None
            except (_Unreachable, _Refused) as err:
                if isinstance(err, _Refused):
                    if err.word not in FATAL_REFUSALS + WAIT_REFUSALS:
                        self.trace(f"-- {err}")
                        return None
                    self._refused(err, refusals)
                else:
                    self.trace(f"-- reconnecting: {err}")
                if loop.time() >= deadline:
                    if session.started:
                        self.say(f"cannot reconnect within {self.config.reconnect_window:g} s ({err})")
                    return None
            else:
                if session.started:
                    self.say(f"reconnected: session resumed, {len(frames)} line(s) sent again")
                return ws
            await asyncio.sleep(next(delays))

    def _refused(self, refusal: _Refused, refusals: dict[str, int]) -> None:
        """A refusal: fatal for ``auth`` and ``frame`` (RelayError, status 2, its line being
        ``cardcli connect: refused: REASON``) and for a word this relay does not know; else
        tried again, and told once it has lasted :data:`TELL_REFUSALS` attempts (a ``taken``
        right after a session, while the referee lets the old connection go, is no news)."""
        if refusal.word in FATAL_REFUSALS:
            raise RelayError(str(refusal), 2)
        if refusal.word not in WAIT_REFUSALS:
            raise RelayError(f"{refusal} (an answer this relay does not know)", 1)
        refusals[refusal.word] = refusals.get(refusal.word, 0) + 1
        if refusals[refusal.word] == TELL_REFUSALS:
            self.say(f"{refusal}; trying again")
        else:
            self.trace(f"-- {refusal}")

    async def _attempt(self, auth: str) -> tuple[ClientConnection, wire.Frame]:
        """Connect and authenticate: the connection and its ``welcome``; _Refused,
        _Unreachable, or _Broken for an answer that is not one."""
        ws = await self._dial()
        try:
            await ws.send(auth)
            raw = await asyncio.wait_for(ws.recv(), self.timing.answer_timeout)
        except ConnectionClosed:
            ws.transport.abort()
            raise _Unreachable("the connection closed before the referee answered") from None
        except TimeoutError:
            ws.transport.abort()
            raise _Unreachable("no answer to auth") from None
        try:
            answer = _parse(raw)
        except _Broken:
            ws.transport.abort()
            raise
        if answer.kind == "refused":
            await self._close(ws)
            raise _Refused(answer.word, printable(answer.text, DETAIL_WIDTH))
        if answer.kind != "welcome":
            ws.transport.abort()
            raise _Broken(f"answered auth with a {answer.kind} frame")
        return ws, answer

    async def _dial(self) -> ClientConnection:
        """One WebSocket connection; _Unreachable for what may pass (nothing listens yet, a
        network error, HTTP 429 from a referee refusing the address for a while), RelayError
        for what will not (an untrusted certificate, a bad proxy setting)."""
        timing = self.timing
        try:
            return await connect(
                self.config.url, ssl=self.relay.ssl, max_size=wire.MAX_REFEREE_FRAME, compression=None,
                open_timeout=timing.open_timeout, ping_interval=timing.ping_interval,
                ping_timeout=timing.ping_timeout, close_timeout=timing.close_timeout)
        except ssl.SSLCertVerificationError as err:
            raise RelayError(f"the referee's certificate is not trusted ({err.verify_message}); "
                             "give the organiser's certificate with --cafile PEM", 2) from None
        except InvalidStatus as err:
            code = err.response.status_code
            raise _Unreachable("busy: too many connections or attempts from this address"
                               if code == 429 else f"HTTP status {code}, not a WebSocket") from None
        except InvalidProxy as err:
            raise RelayError(f"the proxy setting is not usable: {err}", 2) from None
        except (OSError, InvalidHandshake, ConnectionClosed) as err:
            raise _Unreachable(_why(err)) from None

    async def _close(self, ws: ClientConnection, timeout: float | None = None, code: int = wire.CLOSE_NORMAL) -> None:
        """Close a connection politely, within ``timeout`` seconds (by default the close
        timeout) after which it is cut."""
        try:
            await asyncio.wait_for(ws.close(code), self.timing.close_timeout + 1 if timeout is None else timeout)
        except (TimeoutError, OSError, ConnectionClosed):
            ws.transport.abort()

    # -- relaying --

    async def serve(self, ws: ClientConnection, session: Session) -> Outcome:
        """Relay on one connection until the session's ``end`` (its outcome) or the
        connection's loss (_Lost). One task does every send, so frames leave in the order they
        are made: an ``ack`` before the line it goes with, a resend before new lines."""
        receiving: asyncio.Task[str | bytes] | None = None
        listening: asyncio.Task[BotEvent] | None = None
        try:
            while True:
                if receiving is None:
                    receiving = asyncio.create_task(ws.recv())
                waits: set[asyncio.Task[Any]] = {receiving}
                bot = session.bot
                if bot is not None and not bot.finished:
                    if listening is None:
                        listening = asyncio.create_task(bot.events.get())
                    waits.add(listening)
                done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                if listening is not None and listening in done:
                    event = listening.result()
                    listening = None
                    await self._from_bot(ws, session, event)
                if receiving in done:
                    got, receiving = receiving, None
                    try:
                        message = got.result()
                    except ConnectionClosed as err:
                        raise _Lost(_why(err)) from None
                    outcome = await self._from_referee(ws, session, message)
                    if outcome is not None:
                        return outcome
        finally:
            left: list[asyncio.Task[Any]] = [t for t in (receiving, listening) if t is not None]
            for one in left:
                one.cancel()
            await asyncio.gather(*left, return_exceptions=True)  # and their errors retrieved

    async def _send(self, ws: ClientConnection, frame: str) -> None:
        try:
            await ws.send(frame)
        except ConnectionClosed as err:
            raise _Lost(_why(err)) from None

    async def _from_bot(self, ws: ClientConnection, session: Session, event: BotEvent) -> None:
        bot = session.bot
        if bot is None:
            return
        if isinstance(event, Said):
            frame = session.outbox.push(event.text)
            self.trace(f">> {printable(event.text)}")
            await self._send(ws, frame)
            return
        bot.finished = True
        if isinstance(event, Exited) and session.quit_sent:
            self.trace(f"-- the bot {exit_detail(event.returncode)} after quit")
            await session.end_bot(0)
            return
        if isinstance(event, Malformed):
            session.fault = wire.fault(FaultKind.MALFORMED, event.detail)
            self.say(f"the bot broke the line framing ({printable(event.detail, DETAIL_WIDTH)}); "
                     "reported to the referee as a malformed fault and ended")
        else:
            detail = exit_detail(event.returncode)
            session.fault = wire.fault(FaultKind.CRASH, detail)
            self.say(f"the bot {detail} during the session; reported to the referee as a crash "
                     "(its stderr is not sent)")
        await session.end_bot(0)
        await self._send(ws, session.fault)

    async def _from_referee(self, ws: ClientConnection, session: Session, message: str | bytes) -> Outcome | None:
        frame = _parse(message)
        if frame.kind == "line":
            try:
                fresh = session.inbox.take(frame.seq)
            except wire.WireError as err:
                raise _Broken(str(err)) from None
            if not fresh:
                return None
            self.trace(f"<< {printable(frame.text)}")
            session.follow(frame.text)
            if frame.text == protocol.quit_line():
                session.quit_sent = True
            if not session.started:
                await self._start_bot(ws, session)
            if session.bot is not None:
                session.bot.write(frame.text)
            ack = session.inbox.ack_due()
            if ack is not None:
                await self._send(ws, ack)
            return None
        if frame.kind == "ack":
            try:
                session.outbox.ack(frame.seq)
            except wire.WireError as err:
                raise _Broken(str(err)) from None
            return None
        if frame.kind == "end":
            return await self._ended(ws, session, frame.word)
        raise _Broken(f"a {frame.kind} frame during the session")

    async def _start_bot(self, ws: ClientConnection, session: Session) -> None:
        """The session's first line has come: start the bot. A bot that cannot be started
        is reported as a crash, and the relay stops (every session would fail alike)."""
        try:
            session.bot = await Bot.start(self.config.argv)
        except OSError as err:
            session.bot_over = True
            detail = f"cannot be started: {err.strerror or err}"
            session.fault = wire.fault(FaultKind.CRASH, detail)
            try:
                await ws.send(session.fault)
            except ConnectionClosed:
                pass
            raise RelayError(f"the bot {detail} ({printable(self.config.argv[0])})", 1) from None
        self.sessions += 1
        session.number = self.sessions
        self.say(f"session {session.number} started (bot process {session.bot.pid})")
        self.trace(f"-- the first line: bot started, process {session.bot.pid}")

    async def _ended(self, ws: ClientConnection, session: Session, reason: str) -> Outcome:
        """``end REASON``: close, and end the bot: with the quit grace when it was sent
        ``quit``, at once after a fault (the referee no longer listens to it)."""
        await self._close(ws)
        polite = reason == wire.END_QUIT or (reason == wire.END_OVER and session.quit_sent)
        await session.end_bot(self.timing.quit_grace if polite else 0)
        self.trace(f"-- end {reason}")
        return Outcome(reason)


def _ended_by_close(ws: ClientConnection) -> str | None:
    """The ``end`` a referee sent, read from its close frame (whose reason repeats it): the
    connection may close under a send before the ``end`` frame itself has been read, and a
    session the referee has ended must not be resumed."""
    if ws.close_code != wire.CLOSE_NORMAL or not ws.close_reason:
        return None
    word, _, reason = ws.close_reason.partition(" ")
    return reason if word == "end" and reason in wire.ENDS else None


def _parse(message: str | bytes) -> wire.Frame:
    """A frame from the referee; _Broken for a binary message or anything wire cannot read."""
    if not isinstance(message, str):
        raise _Broken("a binary frame")
    try:
        return wire.parse(message)
    except wire.WireError as err:
        raise _Broken(str(err)) from None


def _nth(backoff: Backoff, n: int) -> float:
    """The ``n``-th wait of a backoff (from 1)."""
    return float(min(backoff.first * 2.0 ** min(n - 1, 30), backoff.cap))


def _why(err: BaseException) -> str:
    """An error of the network in a few words, for a one-line message."""
    if isinstance(err, ConnectionRefusedError):
        return "connection refused"
    if isinstance(err, socket.gaierror):
        return f"unknown host: {err.strerror}"
    if isinstance(err, TimeoutError):
        return "timed out"
    if isinstance(err, ConnectionClosed):
        if err.rcvd is None:
            return "the connection dropped"
        reason = f": {printable(err.rcvd.reason, 120)}" if err.rcvd.reason else ""
        return f"closed by the referee (code {err.rcvd.code}{reason})"
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return printable(str(err), 200) or type(err).__name__
