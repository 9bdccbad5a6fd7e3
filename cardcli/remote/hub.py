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

What many peers can do together is bounded too: connections waiting to authenticate, and
connections in all, are capped for the whole listener, and the caps are derived from the
process's limit on open descriptors (:func:`budget`), so that the network can never take the
descriptors the referee needs for its records, its bots' pipes and their stderr files. A
connection is counted from the moment it is accepted (:class:`_Door`), not from its HTTP
request: a peer that connects and says nothing costs exactly what one that talks does.
"""

from __future__ import annotations

import asyncio
import errno
import http
import ipaddress
import logging
import os
import resource
import secrets
import socket
import ssl
import struct
import tempfile
import threading
import time
from asyncio import constants as asyncio_constants
from collections import deque
from typing import Any, Callable, Coroutine, Mapping

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
    """What one address, one connection, and all of them together may cost the referee. An
    "address" is an IPv4 address or an IPv6 /64 (:func:`address_key`)."""

    auth_time: float = 5.0
    """Seconds from the connection to a well-formed ``auth``."""
    pending_per_address: int = 8
    """Connections of one address that have not authenticated yet."""
    connections_per_address: int = 64
    max_pending: int = 256
    """Connections of all addresses together that have not authenticated yet: what a peer with
    many addresses runs into. Lowered further when the descriptor budget is smaller."""
    max_connections: int = 4096
    """Connections the listener holds at once, authenticated or not. Lowered further when the
    descriptor budget is smaller."""
    failures_per_address: int = 10
    """Refused authentications within :attr:`failure_window` after which the address is
    refused for that long."""
    failure_window: float = 60.0
    frames_per_second: float = 2000.0
    frame_burst: float = 4000.0
    bytes_per_second: float = 4 << 20
    byte_burst: float = 8 << 20


OPEN_FILES_WANTED = 1 << 16
"""The soft limit on open descriptors the listener raises the process's to, when the hard
limit allows: far more than its caps need, and no more, since every bot the referee starts
inherits it."""
RESERVED_FILES = 64
"""Descriptors kept, at the least, for the referee's own use after the listener binds (records,
bots' pipes and stderr files, a tournament's workers); an eighth of the limit when that is more."""
LISTENER_FILES = 8
"""Descriptors the listener opens after it binds, besides its connections and its seats' links:
its loop's selector and wake-up pair, a refused connection while it is being reset, and room
to spare."""
BACKLOG = 256
"""The listening socket's queue of connections the kernel has completed and the listener has
not accepted yet (they hold no descriptor of the referee's). asyncio also accepts up to this
many in one turn of its loop; each is counted before anything else happens to it."""
REFUSED_PER_ACCEPT = 4
"""Connections over the caps that one call of :meth:`_Door.accept` resets before it lets the
loop do other work."""
OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
"""Failures of an accept that say nothing about the connection, only that the process or the
system has no room for it now: retried later (asyncio's own list)."""
FULL_TOLD_EVERY = 30.0
"""Seconds between two warnings that the listener is full."""


@attrs.frozen
class Caps:
    """The listener's caps on connections, derived from the descriptors it may use
    (:func:`budget`), and what they were derived from."""

    limit: int
    """The process's soft limit on open descriptors (after raising it)."""
    in_use: int
    """Descriptors open when the listener bound."""
    reserved: int
    """Descriptors left to the referee itself."""
    connections: int
    """TCP connections the listener holds at once, at most."""
    pending: int
    """Of those, connections not authenticated yet, at most."""


def raise_open_file_limit() -> int:
    """Raise the soft limit on open descriptors to the hard limit (up to
    :data:`OPEN_FILES_WANTED`), where the system allows, and return the soft limit in force: a
    soft limit of 1,024 or less, common by default, would make the caps small for no reason."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES_WANTED if hard == resource.RLIM_INFINITY else min(hard, OPEN_FILES_WANTED)
    if soft == resource.RLIM_INFINITY:
        return OPEN_FILES_WANTED
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return soft  # some systems cap it lower than they say (macOS: OPEN_MAX)
        return wanted
    return soft


def open_descriptors() -> int:
    """How many descriptors this process has open now (a generous guess where the system
    cannot list them)."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder)) - 1  # less the one listing it
        except OSError:
            continue
    return RESERVED_FILES


def budget(limits: Limits, limit: int, in_use: int, sessions: int) -> Caps:
    """The caps that keep the process within ``limit`` descriptors whatever the network does.

    The referee keeps :data:`RESERVED_FILES` (or an eighth of the limit) beyond what was open
    when the listener bound; the listener keeps :data:`LISTENER_FILES` and one link per
    session; the rest may hold connections. Of those, room for two connections per session
    (a session's, and the one that replaces it after a drop) is never given to connections that
    have not authenticated, so that a flood of them cannot crowd out the bots that play. A
    connection over the caps is accepted only to be reset at once (:class:`_Door`): the one
    descriptor it holds meanwhile is among :data:`LISTENER_FILES`.

    UsageError when the limit leaves too little room (``ulimit -n`` must be raised)."""
    reserved = max(RESERVED_FILES, limit // 8)
    room = limit - in_use - reserved - LISTENER_FILES - sessions
    connections = min(limits.max_connections, room)
    pending = min(limits.max_pending, connections - 2 * sessions)
    if pending < limits.pending_per_address:
        raise UsageError(f"the limit on open files ({limit}; {in_use} open) leaves too little room for the "
                         f"listener's connections: raise it (ulimit -n), or listen for fewer remote seats")
    return Caps(limit, in_use, reserved, connections, pending)


def address_key(host: str) -> str:
    """What the per-address limits count by: an IPv4 address as it is, an IPv6 address by its
    /64 (one network's prefix: whoever has one address has 2^64 of them), an IPv4-mapped IPv6
    address (a dual-stack socket's IPv4 peer) as its IPv4 address."""
    try:
        ip = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@attrs.frozen
class Address:
    """Where the listener listens: a host (an IP address or a name) and a port."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str, option: str = "--listen") -> "Address":
        """``HOST:PORT``, ``[IPv6]:PORT`` or a bare ``PORT`` (then 127.0.0.1: any other
        address must be named); ``option`` names the option in the messages."""
        text = text.strip()
        if text.isdigit():
            host, port = "127.0.0.1", text
        elif text.startswith("["):
            host, sep, port = text[1:].partition("]:")
            if not sep:
                raise UsageError(f"{option} {text!r}: write [IPv6]:PORT")
        else:
            host, sep, port = text.rpartition(":")
            if not sep or not host or ":" in host:
                raise UsageError(f"{option} {text!r}: write HOST:PORT, [IPv6]:PORT or PORT")
        if not port.isdigit() or not 0 <= int(port) <= 65535:
            raise UsageError(f"{option} {text!r}: the port is a number from 0 to 65535")
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


class _Slot:
    """One TCP connection as the book counts it: from its accept to the close of its socket."""

    __slots__ = ("key", "fd", "pending", "book", "sock")

    def __init__(self, key: str, fd: int, book: "_Book"):
        self.key, self.fd = key, fd
        self.book: _Book | None = book
        self.pending = True
        self.sock: socket.socket | None = None
        """The connection's socket, to cut it at the listener's close."""

    def release(self) -> None:
        """The connection's socket is closed (only the first call counts)."""
        book, self.book = self.book, None
        if book is not None:
            book.closed(self)


class _Book:
    """The counts that the limits are checked against: connections and unauthenticated
    connections, of each address and of all together, and each address's recent failed
    authentications. Used in the listener's thread only."""

    def __init__(self, limits: Limits, caps: Caps):
        self.limits = limits
        self.caps = caps
        self.open: dict[str, int] = {}
        self.pending: dict[str, int] = {}
        self.failures: dict[str, deque[float]] = {}
        self.total = 0
        self.total_pending = 0
        self.slots: dict[int, _Slot] = {}
        """The open connections by their socket's descriptor."""

    def full(self) -> str | None:
        """None while the listener may take one more connection, else why not."""
        if self.total >= self.caps.connections:
            return f"{self.total} connections, the most it holds"
        if self.total_pending >= self.caps.pending:
            return f"{self.total_pending} connections waiting to authenticate, the most it holds"
        return None

    def crowded(self, key: str) -> str | None:
        """None while ``key`` may open one more connection, else why not."""
        if self.pending.get(key, 0) >= self.limits.pending_per_address:
            return "too many connections waiting to authenticate from this address"
        if self.open.get(key, 0) >= self.limits.connections_per_address:
            return "too many connections from this address"
        return None

    def opened(self, key: str, fd: int) -> _Slot:
        slot = _Slot(key, fd, self)
        self.slots[fd] = slot
        self.total += 1
        self.total_pending += 1
        self.open[key] = self.open.get(key, 0) + 1
        self.pending[key] = self.pending.get(key, 0) + 1
        return slot

    def authenticated(self, slot: _Slot) -> None:
        if slot.pending:
            slot.pending = False
            self.total_pending -= 1
            self._drop(self.pending, slot.key)

    def closed(self, slot: _Slot) -> None:
        self.authenticated(slot)
        self.total -= 1
        self._drop(self.open, slot.key)
        if self.slots.get(slot.fd) is slot:
            del self.slots[slot.fd]

    def banned(self, key: str) -> bool:
        """True while ``key`` has failed to authenticate too often within the window."""
        failures = self.failures.get(key)
        if failures is None:
            return False
        now = time.monotonic()
        while failures and failures[0] < now - self.limits.failure_window:
            failures.popleft()
        if not failures:
            del self.failures[key]
            return False
        return len(failures) >= self.limits.failures_per_address

    def failed(self, key: str) -> None:
        self.failures.setdefault(key, deque(maxlen=1000)).append(time.monotonic())

    @staticmethod
    def _drop(counts: dict[str, int], key: str) -> None:
        left = counts.get(key, 0) - 1
        if left > 0:
            counts[key] = left
        else:
            counts.pop(key, None)


class _Counted(socket.socket):
    """An accepted connection's socket. asyncio closes it when the connection is lost, however
    that happens (the peer left, a handshake timed out, the TLS handshake failed, the
    listener closed it): its place in the book is given back then, and only then."""

    slot: _Slot | None = None

    def close(self) -> None:
        try:
            super().close()
        finally:
            slot, self.slot = self.slot, None
            if slot is not None:
                slot.release()


class _Door(socket.socket):
    """The listening TCP socket, through which every connection is counted as it is accepted.

    asyncio's server calls :meth:`accept` whenever the socket is readable, as many times in a
    row as its backlog, and only at a later turn of its loop hands each connection to a
    protocol: a connection refused by the protocol would hold a descriptor until then, as many
    of them as that turn accepted. So the caps are checked here, in the accept itself: a
    connection over them is reset at once (no descriptor kept, no TIME_WAIT), and one within
    them is counted before asyncio sees it.

    When the accept itself fails for want of resources (:data:`OUT_OF_RESOURCES`: the budget
    makes these rare, but the referee's own files or another process may use the last
    descriptors), the error is raised once: asyncio then stops reading the socket and tries
    again :data:`asyncio.constants.ACCEPT_RETRY_DELAY` later. The calls left in that turn are
    told that nothing is waiting, where asyncio would have retried the failing accept up to its
    backlog again and armed one more retry for each failure. A retry that is due when the
    server closes still runs, on a closed socket (``Invalid file descriptor: -1``, as an
    error), so :meth:`close` waits for it."""

    def __init__(self, family: int, book: _Book | None = None):
        super().__init__(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.book = book
        self.refused = 0
        """Connections reset for being over a cap, since the listener started."""
        self.failed_at: float | None = None
        """When an accept last failed for want of resources (asyncio retries a second later)."""
        self.told_at: float | None = None
        """When the listener last said it was full."""
        self.closing = False
        """Closed by asyncio's server, but kept open until asyncio's retry has run."""

    def close(self) -> None:
        """Close now, or, when asyncio's retry of a failed accept is still due and the loop runs
        in this thread, right after that retry (the loop stops reading the socket first)."""
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None  # the loop is over: no retry will run
        due = self._retry_due()
        if loop is not None and due > 0:
            if not self.closing:
                self.closing = True
                loop.call_later(due, self._close_now, loop)
            return
        super().close()

    def _retry_due(self) -> float:
        """Seconds until asyncio's retry after the last failed accept has run (<= 0: it has)."""
        if self.failed_at is None:
            return 0.0
        return self.failed_at + asyncio_constants.ACCEPT_RETRY_DELAY + 0.05 - time.monotonic()

    def _close_now(self, loop: asyncio.AbstractEventLoop) -> None:
        """The close that :meth:`close` put off: no reader is left on a closed descriptor."""
        if self.fileno() >= 0:
            loop.remove_reader(self.fileno())
        super().close()

    def accept(self) -> tuple[socket.socket, Any]:
        """The next connection within the caps, counted. Those over them are reset on the way,
        up to :data:`REFUSED_PER_ACCEPT`; then BlockingIOError, as when none is waiting, and
        asyncio calls again at its loop's next turn (the loop's other work goes first)."""
        if self.closing:
            asyncio.get_running_loop().remove_reader(self.fileno())  # put back by asyncio's retry
            raise BlockingIOError(errno.EAGAIN, "the listener is closed")
        now = time.monotonic()
        if self.failed_at is not None and now - self.failed_at < asyncio_constants.ACCEPT_RETRY_DELAY / 2:
            raise BlockingIOError(errno.EAGAIN, "accepting resumes after a failure")
        for _ in range(REFUSED_PER_ACCEPT):
            try:
                conn, peer = super().accept()
            except (BlockingIOError, InterruptedError):
                raise
            except OSError as err:
                if err.errno in OUT_OF_RESOURCES:
                    self.failed_at = time.monotonic()
                    raise
                continue  # that connection failed on its way in (accept(2): ECONNABORTED, EPROTO, ...)
            counted = self._admit(conn, peer)
            if counted is not None:
                return counted, peer
        raise BlockingIOError(errno.EAGAIN, "the loop's other work first")

    def _admit(self, conn: socket.socket, peer: Any) -> _Counted | None:
        """``conn`` as a counted socket, or None after resetting it (over a cap)."""
        assert self.book is not None
        key = address_key(str(peer[0]))
        full = self.book.full()
        if full is not None or self.book.crowded(key) is not None:
            self.refused += 1
            _reset(conn)
            if full is not None:
                self._tell_full(full)
            return None
        family, kind, proto = conn.family, conn.type, conn.proto
        counted = _Counted(family, kind, proto, fileno=conn.detach())
        counted.slot = self.book.opened(key, counted.fileno())
        counted.slot.sock = counted
        return counted

    def _tell_full(self, why: str) -> None:
        """Say, once in a while, that the listener turns connections away: bots cannot get in
        while it lasts (one address over its own limits is not news)."""
        now = time.monotonic()
        if self.told_at is None or now - self.told_at >= FULL_TOLD_EVERY:
            self.told_at = now
            log.warning("cardcli: the listener refuses new connections: %s (%d refused so far)", why, self.refused)


def _reset(conn: socket.socket) -> None:
    """Close a connection with a reset: nothing is sent or waited for, and no TIME_WAIT is
    left behind for each of a flood's connections."""
    try:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    conn.close()


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
                 tls: Tls | None = None, reconnect_time: float = 15.0, limits: Limits = Limits(),
                 verify: Callable[[str, str], bool] = wire.same_secret):
        self.address = address
        self.tokens = dict(tokens)
        """Name → what its token is checked against: the token itself (a tokens file), or what
        ``verify`` compares a token with (the arena keeps only a hash)."""
        self.capacity = dict(capacity)
        """How many connections each name may hold at once: as many seats as it can fill at the
        same time. A further connection is refused (``taken``)."""
        self.verify = verify
        """Whether a token given (first) is the one kept (second), in constant time."""
        self.tls = tls.context() if tls is not None else None
        self.reconnect_time = reconnect_time
        self.limits = limits
        self.caps: Caps | None = None
        """The caps on connections, known once the listener is bound (:func:`budget`)."""
        self._book: _Book | None = None
        self._sessions: dict[str, _Session] = {}
        self._idle: dict[str, deque[_Session]] = {}
        self._live: dict[str, int] = {}
        """Sessions of each name not yet ended (idle or bound): what ``capacity`` bounds."""
        self._arrived: asyncio.Condition | None = None
        self._dummy = secrets.token_urlsafe(24)
        """Compared against when the name is unknown, so that takes as long as a wrong token."""
        self._tcp: _Door | None = None
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
        """Open the listening sockets, raise the limit on open descriptors, and derive the caps
        on connections from what is open now (the referee's bots and records come after)."""
        try:
            infos = socket.getaddrinfo(self.address.host, self.address.port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
        except socket.gaierror as err:
            raise UsageError(f"--listen {self.address.host}: {err.strerror}") from None
        family, _, _, _, where = infos[0]
        # IPPROTO_TCP named explicitly: the accepted sockets inherit it, and asyncio turns off
        # Nagle's algorithm only on sockets that name it (an ack frame and a line frame written
        # back to back would otherwise wait 40 ms for the peer's delayed ACK)
        tcp = _Door(family)
        try:
            tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            tcp.bind(where)
            tcp.listen(BACKLOG)
        except OSError as err:
            tcp.close()
            raise UsageError(f"--listen {self.address.host}:{self.address.port}: {err.strerror}") from None
        self._tcp = tcp
        self._folder = tempfile.mkdtemp(prefix="cardcli-listener-")
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix.bind(self.link_path)
        unix.listen(256)
        self._unix = unix
        limit = raise_open_file_limit()
        try:
            self.caps = budget(self.limits, limit, open_descriptors(), sum(self.capacity.values()))
        except UsageError:
            self.close()
            raise
        self._book = tcp.book = _Book(self.limits, self.caps)
        log.info("connections at most: %d, %d of them waiting to authenticate (open files: %d of %d, "
                 "%d kept for the referee)", self.caps.connections, self.caps.pending, self.caps.in_use, limit,
                 self.caps.reserved)

    def admit(self, tokens: Mapping[str, str], capacity: Mapping[str, int]) -> None:
        """Replace who may connect and how many connections each may hold, while serving (an
        arena's entrants come, go and change tokens during its season). A session already
        connected stays; a name no longer admitted cannot connect again."""
        self.tokens, self.capacity = dict(tokens), dict(capacity)

    def sessions(self, name: str) -> int:
        """How many sessions ``name`` holds now (connected, or reconnecting within the window)."""
        return self._live.get(name, 0)

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
        loop.set_exception_handler(self._loop_trouble)
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
            self._connection, sock=self._tcp, ssl=self.tls, process_request=self._admit, backlog=BACKLOG,
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

    def _loop_trouble(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The loop's report of an error no task took. A failed accept (see :class:`_Door`) is
        one line, not an error with its traceback: the listener goes on, and tries again."""
        error = context.get("exception")
        if context.get("message") == "socket.accept() out of system resource" and isinstance(error, OSError):
            log.warning("cardcli: the listener cannot accept a connection now (%s); it tries again in %g s",
                        error.strerror, asyncio_constants.ACCEPT_RETRY_DELAY)
            return
        loop.default_exception_handler(context)

    def _cut_unauthenticated(self) -> None:
        """Cut every connection that has not authenticated (still in its TLS or WebSocket
        handshake, or silent): the server's close waits for each one's handler, and a silent
        one would hold it for the whole authentication time."""
        assert self._book is not None
        for slot in list(self._book.slots.values()):
            if slot.pending and slot.sock is not None:
                try:
                    slot.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # gone already

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
        self._cut_unauthenticated()
        try:
            await asyncio.wait_for(self._server.wait_closed(), 5)
        except asyncio.TimeoutError:
            pass
        self._stopping.set()

    # -- connections from bots -------------------------------------------------------------------

    def _admit(self, connection: ServerConnection, request: Request) -> Response | None:
        """Before the WebSocket handshake: refuse an address that failed to authenticate too
        often with a plain HTTP 429, which costs the referee next to nothing. (The caps on
        connections were checked when the connection was accepted, see :class:`_Door`.)"""
        assert self._book is not None
        if not self._book.banned(address_key(_host(connection))):
            return None
        connection.logger = _QUIET
        return connection.respond(http.HTTPStatus.TOO_MANY_REQUESTS,
                                  "refused busy: too many failed attempts from this address\n")

    def _slot(self, ws: ServerConnection) -> _Slot | None:
        """The book's entry of this connection (None once its socket is closed)."""
        assert self._book is not None
        sock = ws.transport.get_extra_info("socket")
        return self._book.slots.get(sock.fileno()) if sock is not None else None

    async def _connection(self, ws: ServerConnection) -> None:
        assert self._book is not None
        address = _host(ws)
        key = address_key(address)
        session: _Session | None = None
        try:
            try:
                first = await asyncio.wait_for(ws.recv(), self.limits.auth_time)
            except asyncio.TimeoutError:
                self._book.failed(key)
                await _refuse(ws, "auth", f"no 'auth' within {self.limits.auth_time:g} s")
                return
            if not isinstance(first, str):
                await _refuse(ws, "frame", "binary frames are not accepted", wire.CLOSE_UNSUPPORTED)
                return
            try:
                auth = wire.parse_auth(first)
            except wire.WireError as err:
                self._book.failed(key)
                await _refuse(ws, "frame", str(err))
                return
            expected = self.tokens.get(auth.name)
            good = self.verify(auth.token, expected if expected is not None else self._dummy)
            if expected is None or not good:
                self._book.failed(key)
                log.info("refused %s from %s: wrong name or token", printable(auth.name), address)
                await _refuse(ws, "auth", "wrong name or token")
                return
            slot = self._slot(ws)
            if slot is not None:
                self._book.authenticated(slot)
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

    async def _violation(self, ws: ServerConnection, session: _Session, kind: FaultKind, detail: str,
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
