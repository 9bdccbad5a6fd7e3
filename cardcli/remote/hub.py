"""The referee's listener: remote bots connect here, authenticate, and are handed to the seats
that wait for them.

It runs an asyncio loop in one thread of the referee's main process, beside a referee that
stays synchronous (pipes and ``poll``): the WebSocket side is the `websockets` library's
asyncio server, and each seat (in this process, or in a tournament's worker process) reaches
its bot's connection over a local Unix socket (:mod:`cardcli.remote.link`). A seat therefore
reads and writes a plain descriptor, as it does a local bot's pipes, and the referee's loop
needs no change.

A *session* is one bot process as the referee sees it: it starts with an authenticated
connection and ends with ``end``. Its connection may drop and come back (``auth`` with the
session's identifier) within the reconnect window; the numbered lines (:mod:`wire`) make
the gap invisible to both ends. A session waits, idle, until a seat claims it; the seat keeps
it for as long as it keeps the bot (a tournament's kept-alive bot plays many matches on it).

What a peer can do is bounded: a frame's size (the bot's line limit), frames and bytes per
second, connections per address (authenticated or not), failed authentications per address,
and the time to authenticate. Everything it sends is checked before it is used; nothing it
sends becomes a path, a command or unescaped output.
"""

from __future__ import annotations

import asyncio
import http
import logging
import os
import secrets
import socket
import ssl
import tempfile
import threading
import time
from collections import deque
from typing import Any, Coroutine, Mapping

import attrs
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from ..errors import CardcliError, UsageError
from ..safe_text import printable
from ..seats.base import FaultKind
from . import link, wire

log = logging.getLogger("cardcli.remote")

RETURN_TIME = 3.0
"""Seconds the listener stays open at its close after a session ended with ``quit`` or
``fault``, to tell the relay that comes back for another session that it is over."""


@attrs.frozen
class Limits:
    """What one address and one connection may cost the referee."""

    auth_time: float = 5.0
    """Seconds from the connection to a well-formed ``auth``."""
    pending_per_address: int = 8
    """Connections of one address that have not authenticated yet."""
    connections_per_address: int = 64
    failures_per_address: int = 10
    """Refused authentications within :attr:`failure_window` after which the address is
    refused for that long."""
    failure_window: float = 60.0
    frames_per_second: float = 2000.0
    frame_burst: float = 4000.0
    bytes_per_second: float = 4 << 20
    byte_burst: float = 8 << 20


@attrs.frozen
class Address:
    """Where the listener listens: a host (an IP address or a name) and a port."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> "Address":
        """``HOST:PORT``, ``[IPv6]:PORT`` or a bare ``PORT`` (then 127.0.0.1: any other
        address must be named)."""
        text = text.strip()
        if text.isdigit():
            host, port = "127.0.0.1", text
        elif text.startswith("["):
            host, sep, port = text[1:].partition("]:")
            if not sep:
                raise UsageError(f"--listen {text!r}: write [IPv6]:PORT")
        else:
            host, sep, port = text.rpartition(":")
            if not sep or not host or ":" in host:
                raise UsageError(f"--listen {text!r}: write HOST:PORT, [IPv6]:PORT or PORT")
        if not port.isdigit() or not 0 <= int(port) <= 65535:
            raise UsageError(f"--listen {text!r}: the port is a number from 0 to 65535")
        return cls(host, int(port))


@attrs.frozen
class Tls:
    cert: str
    key: str

    def context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(self.cert, self.key)
        except (OSError, ssl.SSLError) as err:
            raise UsageError(f"--cert {self.cert} / --key {self.key}: cannot load: {err}") from None
        return context


class _Bucket:
    """A token bucket: ``rate`` a second, up to ``burst``."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    def take(self, amount: float) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        self.level -= amount
        return self.level >= 0


class _Book:
    """Per-address counts: connections, unauthenticated connections, recent refusals. A
    connection is counted from its admission (before the WebSocket handshake) until it closes,
    whatever happens in between."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.open: dict[str, int] = {}
        self.pending: dict[str, int] = {}
        self.failures: dict[str, deque[float]] = {}
        self._unauthenticated: set[int] = set()

    def admit(self, address: str) -> str | None:
        """None to let a new connection in, else why not."""
        failures = self.failures.get(address)
        now = time.monotonic()
        if failures is not None:
            while failures and failures[0] < now - self.limits.failure_window:
                failures.popleft()
            if not failures:
                del self.failures[address]
            elif len(failures) >= self.limits.failures_per_address:
                return "too many failed attempts from this address"
        if self.pending.get(address, 0) >= self.limits.pending_per_address:
            return "too many connections waiting to authenticate from this address"
        if self.open.get(address, 0) >= self.limits.connections_per_address:
            return "too many connections from this address"
        return None

    def opened(self, address: str, key: int) -> None:
        self.open[address] = self.open.get(address, 0) + 1
        self.pending[address] = self.pending.get(address, 0) + 1
        self._unauthenticated.add(key)

    def authenticated(self, address: str, key: int) -> None:
        if key in self._unauthenticated:
            self._unauthenticated.discard(key)
            self._drop(self.pending, address)

    def closed(self, address: str, key: int) -> None:
        self._drop(self.open, address)
        self.authenticated(address, key)

    def failed(self, address: str) -> None:
        self.failures.setdefault(address, deque(maxlen=1000)).append(time.monotonic())

    @staticmethod
    def _drop(counts: dict[str, int], address: str) -> None:
        left = counts.get(address, 0) - 1
        if left > 0:
            counts[address] = left
        else:
            counts.pop(address, None)


class _Session:
    """One bot process as the referee sees it, over however many connections."""

    def __init__(self, name: str):
        self.name = name
        self.id = secrets.token_urlsafe(15)
        self.ws: ServerConnection | None = None
        self.outbox = wire.Outbox()
        self.inbox = wire.Inbox()
        self.seat: asyncio.StreamWriter | None = None
        self.ended = False
        self.reconnects = 0
        self.rtt_ms: float | None = None
        self.detached_at: float | None = None
        self.expiry: asyncio.TimerHandle | None = None
        self.lock = asyncio.Lock()
        """Held while lines go out to the connection, so that a resend after a reconnection
        and the seat's new lines never interleave out of order."""

    def status(self) -> str:
        return f"{self.rtt_ms if self.rtt_ms is not None else -1:.3f} {self.reconnects}"


class Listener:
    """The WebSocket listener and its local link for seats. :meth:`bind` opens the sockets
    (in the calling thread, so a port already taken is a usage error at once, and before a
    tournament forks its workers); :meth:`start` runs the loop in a thread; :meth:`close`
    tells every connected bot that the referee is done and stops."""

    def __init__(self, address: Address, tokens: Mapping[str, str], capacity: Mapping[str, int],
                 tls: Tls | None = None, reconnect_time: float = 15.0, limits: Limits = Limits()):
        self.address = address
        self.tokens = dict(tokens)
        self.capacity = dict(capacity)
        """How many connections each name may hold at once: as many seats as it can fill at the
        same time. A further connection is refused (``taken``)."""
        self.tls = tls.context() if tls is not None else None
        self.reconnect_time = reconnect_time
        self.limits = limits
        self._book = _Book(limits)
        self._sessions: dict[str, _Session] = {}
        self._idle: dict[str, deque[_Session]] = {}
        self._live: dict[str, int] = {}
        """Sessions of each name not yet ended (idle or bound): what ``capacity`` bounds."""
        self._arrived: asyncio.Condition | None = None
        self._dummy = secrets.token_urlsafe(24)
        """Compared against when the name is unknown, so that takes as long as a wrong token."""
        self._tcp: socket.socket | None = None
        self._unix: socket.socket | None = None
        self._folder: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        """Every task the listener starts, until it is done: the loop itself holds tasks only
        weakly, and one that nothing else refers to may be collected before it ends."""
        self._seat_links: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._failure: str | None = None
        self._over = False
        self._last_return = -RETURN_TIME
        """When a session last ended with a relay expected back (``quit`` or ``fault``)."""
        """Set when the referee is closing: a fresh connection is told ``end over`` at once."""
        self._stopping: asyncio.Event | None = None

    # -- set-up and tear-down (the caller's thread) ------------------------------------------------

    @property
    def link_path(self) -> str:
        assert self._folder is not None
        return os.path.join(self._folder, "link")

    @property
    def port(self) -> int:
        assert self._tcp is not None
        return int(self._tcp.getsockname()[1])

    @property
    def url(self) -> str:
        scheme = "wss" if self.tls is not None else "ws"
        host = f"[{self.address.host}]" if ":" in self.address.host else self.address.host
        return f"{scheme}://{host}:{self.port}/"

    def bind(self) -> None:
        try:
            infos = socket.getaddrinfo(self.address.host, self.address.port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
        except socket.gaierror as err:
            raise UsageError(f"--listen {self.address.host}: {err.strerror}") from None
        family, _, _, _, where = infos[0]
        # IPPROTO_TCP named explicitly: the accepted sockets inherit it, and asyncio turns off
        # Nagle's algorithm only on sockets that name it (an ack frame and a line frame written
        # back to back would otherwise wait 40 ms for the peer's delayed ACK)
        tcp = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            tcp.bind(where)
            tcp.listen(256)
        except OSError as err:
            tcp.close()
            raise UsageError(f"--listen {self.address.host}:{self.address.port}: {err.strerror}") from None
        self._tcp = tcp
        self._folder = tempfile.mkdtemp(prefix="cardcli-listener-")
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix.bind(self.link_path)
        unix.listen(256)
        self._unix = unix

    def start(self) -> None:
        """Serve in a thread of this process (call after any fork)."""
        if self._tcp is None:
            self.bind()
        self._thread = threading.Thread(target=self._run, name="cardcli-listener", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._failure is not None:
            raise UsageError(self._failure)

    def close(self, drain: float = 2.0) -> None:
        """Wait up to ``drain`` seconds for the seats' last lines to go out, then end every
        connection with ``end over`` and stop."""
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            future = asyncio.run_coroutine_threadsafe(self._shutdown(drain), loop)
            try:
                future.result(drain + 10)
            except (TimeoutError, asyncio.CancelledError, RuntimeError):
                pass
            thread.join(10)
        for sock in (self._tcp, self._unix):
            if sock is not None:
                sock.close()
        if self._folder is not None:
            try:
                os.unlink(self.link_path)
            except OSError:
                pass
            try:
                os.rmdir(self._folder)
            except OSError:
                pass

    # -- the loop ---------------------------------------------------------------------------------

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        except OSError as err:
            self._failure = f"the listener stopped: {err}"
            log.error("cardcli: %s", self._failure)
        finally:
            self._ready.set()
            loop.close()

    async def _main(self) -> None:
        self._arrived = asyncio.Condition()
        self._stopping = asyncio.Event()
        assert self._tcp is not None and self._unix is not None
        self._server = await serve(
            self._connection, sock=self._tcp, ssl=self.tls, process_request=self._admit,
            max_size=wire.MAX_PEER_FRAME, max_queue=16, compression=None, open_timeout=self.limits.auth_time,
            ping_interval=5, ping_timeout=10, close_timeout=2, server_header=None,
            logger=logging.getLogger("cardcli.remote.websockets"),
        )
        unix = await asyncio.start_unix_server(self._seat_link, sock=self._unix)
        self._ready.set()
        await self._stopping.wait()
        unix.close()
        self._server.close(close_connections=False)
        await self._end_tasks()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> "asyncio.Task[Any]":
        """Start ``work`` as a task that the listener keeps until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _end_tasks(self) -> None:
        """Cancel the tasks still running when the listener stops, and wait for them, so that
        none is destroyed while pending when the loop closes."""
        left = [task for task in self._tasks if not task.done()]
        for task in left:
            task.cancel()
        if left:
            await asyncio.wait(left, timeout=5)

    async def _shutdown(self, drain: float) -> None:
        self._over = True
        end = time.monotonic() + drain
        while self._seat_links and time.monotonic() < end:
            await asyncio.sleep(0.01)
        for session in list(self._sessions.values()):
            await self._end(session, wire.END_OVER)
        # A relay whose session just ended with 'quit' or 'fault' is on its way back for the
        # next one: it is told 'over' (a fresh connection gets it at once, see _attach) rather
        # than finding nobody and trying again for minutes.
        linger = self._last_return + RETURN_TIME - time.monotonic()
        if linger > 0:
            await asyncio.sleep(linger)
        assert self._server is not None and self._stopping is not None
        self._server.close(close_connections=True)
        try:
            await asyncio.wait_for(self._server.wait_closed(), 5)
        except asyncio.TimeoutError:
            pass
        self._stopping.set()

    # -- connections from bots -------------------------------------------------------------------

    def _admit(self, connection: ServerConnection, request: Request) -> Response | None:
        """Before the WebSocket handshake: refuse an address over its limits with a plain
        HTTP 429, which costs the referee next to nothing."""
        address = _host(connection)
        why = self._book.admit(address)
        if why is None:
            self._book.opened(address, id(connection))
            self._spawn(self._count_until_closed(connection, address))
            return None
        connection.logger = _QUIET
        return connection.respond(http.HTTPStatus.TOO_MANY_REQUESTS, f"refused busy: {why}\n")

    async def _count_until_closed(self, connection: ServerConnection, address: str) -> None:
        await connection.wait_closed()
        self._book.closed(address, id(connection))

    async def _connection(self, ws: ServerConnection) -> None:
        address = _host(ws)
        session: _Session | None = None
        try:
            try:
                first = await asyncio.wait_for(ws.recv(), self.limits.auth_time)
            except asyncio.TimeoutError:
                self._book.failed(address)
                await _refuse(ws, "auth", f"no 'auth' within {self.limits.auth_time:g} s")
                return
            if not isinstance(first, str):
                await _refuse(ws, "frame", "binary frames are not accepted", wire.CLOSE_UNSUPPORTED)
                return
            try:
                auth = wire.parse_auth(first)
            except wire.WireError as err:
                self._book.failed(address)
                await _refuse(ws, "frame", str(err))
                return
            expected = self.tokens.get(auth.name)
            good = wire.same_secret(auth.token, expected if expected is not None else self._dummy)
            if expected is None or not good:
                self._book.failed(address)
                log.info("refused %s from %s: wrong name or token", printable(auth.name), address)
                await _refuse(ws, "auth", "wrong name or token")
                return
            self._book.authenticated(address, id(ws))
            session = await self._attach(ws, auth)
            if session is None:
                return
            await self._serve(ws, session)
        except ConnectionClosed as closed:
            if session is not None and session.ws is ws and closed.sent is not None \
                    and closed.sent.code == CloseCode.MESSAGE_TOO_BIG:
                await self._gone(session, FaultKind.MALFORMED,
                                 f"a message longer than {wire.MAX_PEER_FRAME} bytes (a line over the limit)")
        finally:
            if session is not None and session.ws is ws:
                await self._detached(session)

    async def _attach(self, ws: ServerConnection, auth: wire.Auth) -> _Session | None:
        """The session this connection serves: a new one, or the one it resumes; None when
        refused (the connection is then closed)."""
        if auth.session is None:
            if self._live.get(auth.name, 0) >= self.capacity.get(auth.name, 0):
                await _refuse(ws, "taken", f"{auth.name} has as many connections as it has seats")
                return None
            session = _Session(auth.name)
            self._sessions[session.id] = session
            self._live[auth.name] = self._live.get(auth.name, 0) + 1
            session.ws = ws
            await ws.send(wire.welcome(session.id, 0))
            if self._over:
                await self._end(session, wire.END_OVER)
                return None
            self._idle.setdefault(auth.name, deque()).append(session)
            self._spawn(self._measure(session, ws))
            assert self._arrived is not None
            async with self._arrived:
                self._arrived.notify_all()
            log.info("%s connected (session %s)", auth.name, session.id[:6])
            return session
        found = self._sessions.get(auth.session)
        if found is None or found.name != auth.name or found.ended:
            await _refuse(ws, "session", "no such session, or it is over")
            return None
        session = found
        async with session.lock:
            try:
                again = list(session.outbox.resend(auth.received))
            except wire.WireError as err:
                await _refuse(ws, "session", str(err))
                await self._gone(session, FaultKind.DISCONNECT, f"could not resume after a reconnection: {err}")
                return None
            old = session.ws
            session.ws = ws
            if session.expiry is not None:
                session.expiry.cancel()
                session.expiry = None
            session.detached_at = None
            session.reconnects += 1
            if old is not None and old is not ws:
                # not awaited: a half-open old connection would hold the resume for its close timeout
                self._spawn(old.close(wire.CLOSE_NORMAL, "taken over by a reconnection"))
            await ws.send(wire.welcome(session.id, session.inbox.received))
            for frame in again:
                await ws.send(frame)
            if session.seat is not None:
                await _tell(session.seat, link.STATUS, session.status())
        log.info("%s reconnected (session %s, %d lines sent again)", auth.name, session.id[:6], len(again))
        self._spawn(self._measure(session, ws))
        return session

    async def _measure(self, session: _Session, ws: ServerConnection) -> None:
        """The round trip of this connection, by one WebSocket ping, for the record."""
        try:
            started = time.monotonic()
            waiter = await ws.ping()
            await asyncio.wait_for(waiter, 10)
        except (ConnectionClosed, asyncio.TimeoutError, RuntimeError):
            return
        session.rtt_ms = round((time.monotonic() - started) * 1000, 3)
        if session.seat is not None and not session.ended:
            await _tell(session.seat, link.STATUS, session.status())

    async def _serve(self, ws: ServerConnection, session: _Session) -> None:
        """Take the peer's frames until the connection ends."""
        frames = _Bucket(self.limits.frames_per_second, self.limits.frame_burst)
        volume = _Bucket(self.limits.bytes_per_second, self.limits.byte_burst)
        async for message in ws:
            if session.ended:
                return
            if not isinstance(message, str):
                await self._violation(ws, session, FaultKind.MALFORMED, "a binary frame",
                                      wire.CLOSE_UNSUPPORTED)
                return
            if not frames.take(1) or not volume.take(len(message)):
                await self._violation(ws, session, FaultKind.PROTOCOL, "flooded the connection (over "
                                      f"{self.limits.frames_per_second:g} frames or "
                                      f"{self.limits.bytes_per_second / (1 << 20):g} MiB a second)")
                return
            try:
                frame = wire.parse(message)
                if frame.kind == "line":
                    if session.seat is None:
                        raise wire.WireError("a line before the session started")
                    if not session.inbox.take(frame.seq):
                        continue
                    await _tell(session.seat, link.LINE, frame.text)
                    ack = session.inbox.ack_due()
                    if ack is not None:
                        async with session.lock:
                            await ws.send(ack)
                elif frame.kind == "ack":
                    session.outbox.ack(frame.seq)
                elif frame.kind == "fault" and session.seat is not None:
                    await self._gone(session, frame.word, f"reported by {session.name}'s relay: "
                                                          f"{printable(frame.text, 200)}")
                    return
                else:
                    raise wire.WireError(f"a '{frame.kind}' frame from a bot")
            except wire.WireError as err:
                await self._violation(ws, session, FaultKind.PROTOCOL, str(err))
                return

    async def _violation(self, ws: ServerConnection, session: _Session, kind: str, detail: str,
                         code: int = wire.CLOSE_POLICY) -> None:
        """A peer that broke the transport's rules: its session ends with a fault of ``kind``
        (a bound seat records it), the connection is closed with the reason."""
        log.info("%s: %s", session.name, printable(detail))
        try:
            await ws.close(code, detail[:120])  # first: the peer learns why, not only "end fault"
        except ConnectionClosed:
            pass
        if session.seat is not None:
            await self._gone(session, kind, detail)
        else:
            self._forget(session)

    async def _detached(self, session: _Session) -> None:
        """The connection of ``session`` dropped: an idle session is forgotten (its bot will
        connect afresh); a bound one is held for the reconnect window."""
        session.ws = None
        if session.ended:
            return
        if session.seat is None:
            self._forget(session)
            return
        session.detached_at = time.monotonic()
        loop = asyncio.get_running_loop()
        window = self.reconnect_time

        def expired() -> None:
            self._spawn(self._gone(session, FaultKind.DISCONNECT,
                                   f"the connection dropped and did not come back within {window:g} s"))

        session.expiry = loop.call_later(window, expired)
        log.info("%s: connection lost; holding the seat for %g s", session.name, window)

    # -- seats ------------------------------------------------------------------------------------

    async def _seat_link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One seat: claim a session of the name it asks for, then carry its lines to the bot
        until it ends the session or goes away. The seat's link is read all along, so a seat
        that gives up waiting (it closes the link at its own deadline) withdraws its claim."""
        self._seat_links.add(writer)
        frames = link.Reader()
        session: _Session | None = None
        ending = wire.END_FAULT
        waiting: list[str] = []
        claim: asyncio.Task[_Session] | None = None
        read: asyncio.Task[bytes] | None = None
        try:
            while True:
                read = self._spawn(reader.read(65536))
                if session is None and claim is not None:
                    await asyncio.wait({read, claim}, return_when=asyncio.FIRST_COMPLETED)
                    if claim.done():
                        session = claim.result()
                        await _tell(writer, link.BOUND, session.status())
                        for text in waiting:
                            await self._to_bot(session, text)
                        waiting = []
                data = await read
                if not data:
                    break
                for kind, payload in frames.feed(data):
                    if kind == link.CLAIM and claim is None:
                        claim = self._spawn(self._claim(payload, writer))
                    elif kind == link.LINE:
                        if session is None:
                            waiting.append(payload)
                        else:
                            await self._to_bot(session, payload)
                    elif kind == link.END:
                        ending = payload if payload in wire.ENDS else wire.END_FAULT
                        raise _Ended()
                if session is not None and session.ended:
                    break
        except (_Ended, ConnectionError, link.LinkError, asyncio.CancelledError):
            pass
        finally:
            for task in (claim, read):
                if task is not None and not task.done():
                    task.cancel()
            self._seat_links.discard(writer)
            if session is not None and session.seat is writer:
                session.seat = None
                await self._end(session, ending)
            writer.close()

    async def _claim(self, name: str, writer: asyncio.StreamWriter) -> _Session:
        """Wait for an idle session of ``name`` and bind it to the seat."""
        assert self._arrived is not None
        async with self._arrived:
            while True:
                idle = self._idle.get(name)
                while idle:
                    session = idle.popleft()
                    if not session.ended and session.ws is not None:
                        session.seat = writer
                        return session
                await self._arrived.wait()

    async def _to_bot(self, session: _Session, text: str) -> None:
        async with session.lock:
            frame = session.outbox.push(text)
            ws = session.ws
            if ws is None:
                return
            try:
                await ws.send(frame)
            except ConnectionClosed:
                pass

    async def _gone(self, session: _Session, kind: str, detail: str) -> None:
        """The bot of ``session`` can no longer play: its seat is told why, the session ends."""
        seat = session.seat
        if seat is not None and not session.ended:
            await _tell(seat, link.GONE, f"{kind} {detail}")
            seat.close()
        session.seat = None
        await self._end(session, wire.END_FAULT)

    async def _end(self, session: _Session, reason: str) -> None:
        if session.ended:
            return
        session.ended = True
        if reason != wire.END_OVER:
            self._last_return = time.monotonic()
        if session.expiry is not None:
            session.expiry.cancel()
        self._forget(session)
        ws = session.ws
        if ws is not None:
            async with session.lock:
                try:
                    await ws.send(wire.end(reason))
                    await ws.close(wire.CLOSE_NORMAL, f"end {reason}")
                except ConnectionClosed:
                    pass

    def _forget(self, session: _Session) -> None:
        if self._sessions.pop(session.id, None) is not None:
            self._live[session.name] = self._live.get(session.name, 1) - 1
        session.ended = True
        idle = self._idle.get(session.name)
        if idle is not None and session in idle:
            idle.remove(session)


_QUIET = logging.getLogger("cardcli.remote.quiet")
_QUIET.addHandler(logging.NullHandler())
_QUIET.propagate = False


def _host(connection: ServerConnection) -> str:
    address: Any = connection.remote_address
    return str(address[0]) if address else "?"


async def _refuse(ws: ServerConnection, word: str, reason: str, code: int = wire.CLOSE_POLICY) -> None:
    try:
        await ws.send(wire.refused(word, reason))
        await ws.close(code, f"refused {word}")
    except ConnectionClosed:
        pass


async def _tell(writer: asyncio.StreamWriter, kind: bytes, payload: str) -> None:
    try:
        writer.write(link.frame(kind, payload))
        await writer.drain()
    except ConnectionError:
        pass


class _Ended(CardcliError):
    """The seat ended its session (a link ``E`` frame)."""
