"""``arena serve --web`` in a process of its own, at a lower priority than the matches.

Why not a thread of the serving process, as it was: 200 spectators of one live game cost that
process some 10 ms of processor time per match (HTTP requests, stream writes in uvicorn and
Starlette), and a thread's work takes the interpreter from the service's thread, which stores
the matches and feeds the workers: measured, the matches went a fifth to a half slower
(``benchmarks/arena_watchers.py``, ``docs/performance.md``). In a process of its own, niced
by :data:`NICE`, the web server holds no lock the service needs, and the kernel gives the
workers and the service the processor first: spectators get what the matches leave.

What crosses between the two, over one pipe:

- to the web process, the live games' news (:class:`WebProcess` is the service's
  :class:`~cardcli.arena.service.LiveGames`: ``publish``, ``summary``, ``ended``, forwarded to
  a :class:`~cardcli.arena.live.LiveHub` there, which applies the leak rule and the duplicate
  gate as before), and every second what the listener knows of the remote entrants'
  connections (the standings' state column);
- back, what the spectators watch (:class:`~cardcli.arena.live.Watching`), whenever it changes
  and at most every :data:`WATCHING_EVERY` seconds, from which the service's workers learn how
  much to tell (:meth:`WebProcess.level`).

The news waits in a bounded queue (:data:`QUEUE_MAX` batches) that a thread of the serving
process sends from, so the service never waits for the web process: when that falls so far
behind, the oldest news is dropped, which can make a spectator miss events but never shows one
early (the leak rule holds a deal's hidden events until a later public line of it, and the
gate holds a deal until every other rotation is known to have passed it).

The web process reads the database itself (its own :class:`~cardcli.arena.store.Store`): the
pages, the API and the standings' stream need nothing else from the service.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import multiprocessing.process
import os
import signal
import threading
import time
from collections import deque
from typing import Any, Callable, Mapping, Sequence

from ..errors import CardcliError, UsageError
from .live import Watching
from .workers import Wire

NICE = 10
"""How much lower the web process's priority is than the serving process's."""
QUEUE_MAX = 10_000
"""Batches of news waiting for the web process at most; beyond, the oldest are dropped."""
WATCHING_EVERY = 0.05
"""Seconds between two reports of what the spectators watch, at least."""
SEND_EVERY = 0.02
"""Seconds the sender gathers news before a send: one wakening of its thread and one message
per batch of news rather than per event batch of each match (each would take the interpreter
from the service for a moment)."""
PRESENCE_EVERY = 1.0
"""Seconds between two reports of the remote entrants' connections."""
START_SECONDS = 60.0
"""How long the web process may take to import, open the database and listen."""

Presence = Callable[[str], "str | None"]


class WebProcess:
    """The serving process's side: the web process, the news sent to it, and what its
    spectators watch."""

    def __init__(self, url: str, host: str, port: int, delay: float = 0.0,
                 presence: Presence | None = None, names: Callable[[], Sequence[str]] | None = None):
        self._args = (url, host, port, delay)
        self._presence = presence
        self._names = names
        self._conn: multiprocessing.connection.Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._queue: deque[tuple[Any, ...]] = deque(maxlen=QUEUE_MAX)
        self._ready = threading.Condition()
        self._closing = False
        self._threads: list[threading.Thread] = []
        self.watching = Watching()
        """What the spectators watch, as the web process last said."""
        self.port = 0
        self.dropped = 0
        """Batches of news dropped because the web process fell behind."""

    def start(self) -> int:
        """Start the web process and return its port once it serves; a one-line UsageError
        when it cannot (the port taken, an unknown host)."""
        context = multiprocessing.get_context("forkserver")
        ours, theirs = context.Pipe()
        self._process = context.Process(target=_serve, args=(theirs, *self._args), name="arena-web", daemon=True)
        self._process.start()
        theirs.close()
        self._conn = ours
        if not ours.poll(START_SECONDS):
            self.stop()
            raise UsageError("the web server did not start")
        try:
            kind, value = ours.recv()
        except EOFError:
            self.stop()
            raise UsageError("the web server did not start") from None
        if kind != "ready":
            self.stop()
            raise UsageError(str(value))
        self.port = int(value)
        for target, name in ((self._send, "arena-web-send"), (self._receive, "arena-web-receive")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self.port

    # -- the service's LiveGames -------------------------------------------------------------

    def level(self, key: str) -> int:
        return self.watching.level(key)

    def publish(self, key: str, info: Mapping[str, Any], events: Sequence[Wire]) -> None:
        self._put(("publish", key, dict(info), list(events)))

    def summary(self, key: str, info: Mapping[str, Any], lines: Sequence[str]) -> None:
        self._put(("summary", key, dict(info), list(lines)))

    def ended(self, key: str) -> None:
        self._put(("ended", key))

    def _put(self, message: tuple[Any, ...]) -> None:
        with self._ready:
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1
            if not self._queue:
                self._ready.notify()
            self._queue.append(message)

    # -- the threads ----------------------------------------------------------------------------

    def _send(self) -> None:
        """Send the news in batches, and the remote entrants' connections every second."""
        assert self._conn is not None
        presence_due = 0.0
        while True:
            with self._ready:
                if not self._queue and not self._closing:
                    self._ready.wait(PRESENCE_EVERY)
                gather = bool(self._queue) and not self._closing
            if gather:
                time.sleep(SEND_EVERY)
            with self._ready:
                batch = list(self._queue)
                self._queue.clear()
                closing = self._closing
            now = time.monotonic()
            if self._presence is not None and self._names is not None and now >= presence_due:
                presence_due = now + PRESENCE_EVERY
                batch.append(("presence", {name: self._presence(name) for name in self._names()}))
            try:
                if batch:
                    self._conn.send(batch)
                if closing:
                    self._conn.send([("stop",)])
                    return
            except (OSError, ValueError):  # the web process is gone
                return

    def _receive(self) -> None:
        assert self._conn is not None
        while True:
            try:
                kind, *rest = self._conn.recv()
            except (EOFError, OSError, ValueError):
                return
            if kind == "watching":
                self.watching = Watching(frozenset(rest[0]), bool(rest[1]), frozenset(rest[2]))

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the web process: its streams end, the requests under way finish."""
        with self._ready:
            self._closing = True
            self._ready.notify()
        for thread in self._threads:
            thread.join(timeout)
        if self._process is not None:
            self._process.join(timeout)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(timeout)
        if self._conn is not None:
            self._conn.close()


def _serve(conn: multiprocessing.connection.Connection, url: str, host: str, port: int, delay: float) -> None:
    """The web process: the pages, the API and the live games over its own store."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the serving process, which stops this one
    try:
        os.nice(NICE)
    except OSError:
        pass
    from .api import WebServer, make_app
    from .live import LiveHub, routes
    from .store import Store

    presences: dict[str, str | None] = {}
    try:
        store = Store.open(url)
        hub = LiveHub(delay=delay)
        server = WebServer(make_app(store, presence=presences.get, more=routes(hub)), host, port)
        server.start()
    except CardcliError as err:
        conn.send(("error", str(err)))
        return
    conn.send(("ready", server.port))
    reported = Watching()
    try:
        while True:
            if conn.poll(WATCHING_EVERY):
                try:
                    batch = conn.recv()
                except EOFError:
                    break
                if not _apply(hub, presences, batch):
                    break
            now = hub.watching()
            if now != reported:
                conn.send(("watching", sorted(now.matches), now.listed, sorted(now.units)))
                reported = now
    finally:
        hub.close()
        server.stop()
        store.close()


def _apply(hub: Any, presences: dict[str, str | None], batch: list[tuple[Any, ...]]) -> bool:
    """Hand a batch of news to the hub; False at the serving process's stop."""
    for kind, *rest in batch:
        if kind == "publish":
            hub.publish(*rest)
        elif kind == "summary":
            hub.summary(*rest)
        elif kind == "ended":
            hub.ended(*rest)
        elif kind == "presence":
            presences.clear()
            presences.update(rest[0])
        elif kind == "stop":
            return False
    return True
