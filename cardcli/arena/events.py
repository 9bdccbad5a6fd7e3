"""The standings pushed to every open standings page as they change: server-sent events from
``/events/standings``.

Why server-sent events: the page only listens, so a one-way stream over plain HTTP is enough
(no WebSocket protocol, nothing new for a proxy), the browser's ``EventSource`` reconnects by
itself, and what is sent is the same server-rendered, escaped HTML the page was served with.

How it stays cheap however many watch:

- **One watcher.** A single task in the server's event loop polls the saved standings' stamp
  every :data:`POLL` seconds (in a worker thread: the database never blocks the loop), renders
  the live fragment once when anything shown changed, and hands that one text to every
  subscriber. A page's cost is a queue, not a query; with nobody watching, the task ends.
- **Bounded queues; the slow are dropped.** Each subscriber has a queue of :data:`QUEUE`
  messages and the watcher only ever puts without waiting: a subscriber whose queue is full
  (a client that stopped reading) is dropped, its stream ended, and its browser reconnects
  and gets the current standings. Beyond :data:`SUBSCRIBERS` streams a new one is refused
  (503 with ``Retry-After``). Nobody slows the server or the others.
- **Closed on stop.** :meth:`Feed.close` (called by :class:`.api.WebServer` as it stops) ends
  every stream, so the web server stops at once rather than waiting on open streams.
"""

from __future__ import annotations

import asyncio
import threading
from typing import AsyncIterator, Callable

import anyio.to_thread
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..errors import CardcliError
from .markup import HEADERS

POLL = 1.0
"""Seconds between two looks at the saved standings."""
QUEUE = 4
"""Messages a subscriber may have waiting before it is dropped."""
SUBSCRIBERS = 1000
"""Open streams at most (each costs a socket and a queue)."""
HEARTBEAT = 15.0
"""Seconds of silence after which a comment is sent, so a dead connection is noticed."""
RETRY_MS = 3000
"""How long a browser waits before reconnecting a stream that ended."""


def message(event: str, data: str, ident: int | None = None) -> str:
    """One server-sent event: ``data`` split into lines (a line break in it cannot end the
    event early)."""
    lines = [f"event: {event}"]
    if ident is not None:
        lines.append(f"id: {ident}")
    lines += [f"data: {line}" for line in data.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return "\n".join(lines) + "\n\n"


class Subscriber:
    """One open stream: its queue, and whether it was dropped."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self.dropped = False

    def end(self) -> None:
        """Drop the waiting messages and end the stream after what it is sending."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


class Feed:
    """Renders with ``render`` (a blocking call, run in a thread) and fans the text out."""

    def __init__(self, render: Callable[[], str], event: str = "standings", poll: float = POLL,
                 most: int = SUBSCRIBERS):
        self.render = render
        self.event = event
        self.poll = poll
        self.most = most
        self.sent = 0
        """Messages rendered and handed out so far (their ids)."""
        self.latest: str | None = None
        self._subscribers: set[Subscriber] = set()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = threading.Event()

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)

    async def endpoint(self, request: Request) -> Response:
        """The stream: the current fragment at once, then every change (HEAD: its headers
        only, no subscriber)."""
        if request.method == "HEAD":
            return Response(b"", 200, {**HEADERS, "X-Accel-Buffering": "no"}, "text/event-stream; charset=utf-8")
        if self._closed.is_set() or len(self._subscribers) >= self.most:
            return Response("too many watchers; try again soon\n", 503,
                            {**HEADERS, "Retry-After": "10"}, "text/plain; charset=utf-8")
        first = self.latest
        if first is None or not self._subscribers:  # nobody watched: the last text may be old
            first = self.latest = await anyio.to_thread.run_sync(self.render)
        subscriber = Subscriber()
        self._subscribers.add(subscriber)
        self._start()
        return StreamingResponse(self._stream(subscriber, first), headers={**HEADERS, "X-Accel-Buffering": "no"},
                                 media_type="text/event-stream; charset=utf-8")

    async def _stream(self, subscriber: Subscriber, first: str) -> AsyncIterator[str]:
        try:
            yield f"retry: {RETRY_MS}\n\n" + message(self.event, first, self.sent)
            while True:
                try:
                    text = await asyncio.wait_for(subscriber.queue.get(), HEARTBEAT)
                except asyncio.TimeoutError:
                    yield ": still here\n\n"
                    continue
                if text is None:
                    return
                yield text
        finally:
            self._subscribers.discard(subscriber)

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._loop is not loop:
            self._loop = loop
            self._task = loop.create_task(self._watch())

    async def _watch(self) -> None:
        """Poll, render on change and hand out, while anyone watches."""
        while self._subscribers and not self._closed.is_set():
            await asyncio.sleep(self.poll)
            try:
                text = await anyio.to_thread.run_sync(self.render)
            except (SQLAlchemyError, OSError, CardcliError):  # the database gone a moment: poll again
                continue
            if text == self.latest:
                continue
            self.latest = text
            self.sent += 1
            self.publish(message(self.event, text, self.sent))

    def publish(self, text: str) -> None:
        """Hand ``text`` to every subscriber, dropping those that are full (in the loop)."""
        for subscriber in list(self._subscribers):
            if subscriber.dropped:
                continue
            try:
                subscriber.queue.put_nowait(text)
            except asyncio.QueueFull:
                self._subscribers.discard(subscriber)
                subscriber.end()

    def close(self) -> None:
        """End every stream (from any thread); no new one is accepted."""
        self._closed.set()
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def ending() -> None:
            for subscriber in list(self._subscribers):
                subscriber.end()
            self._subscribers.clear()

        try:
            loop.call_soon_threadsafe(ending)
        except RuntimeError:  # the loop stopped meanwhile: nothing left to end
            pass
