"""The arena's own executor on this machine: worker processes started once for the life of
``arena serve`` and fed match after match, each with its unit's configuration.

Why not the tournament's :class:`cardcli.tournament.runner.Local`: it forks its workers for
each schedule, from a process that holds no threads at that moment. A server holds threads
all its life (the remote bots' listener, the lease keeper, the HTTP API), and forking a
process with threads can leave a lock held forever in the child. These workers are started
by a fork server (:mod:`multiprocessing`'s ``forkserver``), a clean process started before
any thread, so a worker can be started, or replaced, at any moment. They play each match
exactly as a tournament's workers do (:func:`cardcli.tournament.worker.run_one` with its
:class:`~cardcli.tournament.worker.BotPool`), keeping bots alive while consecutive matches
share a configuration.

A worker also tells the server the public and private events of the match it is playing,
for the spectators of live games (:mod:`cardcli.arena.live`), but only while someone watches:
a flag in shared memory, which the server sets, says so. Unwatched, a worker keeps the
current deal's events in a list (the cost of a list's ``extend`` per move) and sends nothing;
once watched, it sends what it kept, then each move's events as they come, as
:class:`LiveEvents` messages on its pipe between its results. What spectators may see of
them is decided in the server (the leak rule), never here.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import multiprocessing.sharedctypes
import signal
import sys
from collections import deque
from typing import Any, Callable, Protocol, Sequence, cast

import attrs

from ..errors import CardcliError
from ..games.base import Event
from ..tournament.config import Config
from ..tournament.executor import Executor, Store
from ..tournament.schedule import MatchPlan
from ..tournament.worker import BotPool, Finished, run_one

IN_FLIGHT = 2
"""Matches handed to a worker ahead of its results, as the tournament's workers are fed."""

MayStart = Callable[[MatchPlan, Sequence[MatchPlan]], bool]
"""Whether a match may start while the given matches are under way."""


@attrs.frozen
class Unplayable:
    """A match its worker could not start (a seat that cannot be made, such as a remote
    entrant's when no listener serves this configuration): a worker reports it rather than
    dying, so that it is not handed to the next worker to fail again."""

    index: int
    reason: str


Wire = tuple[str, "tuple[int, ...] | None"]
"""An event as a worker sends it: its protocol line, and the seats it was told to (None: every
seat, a public event)."""


@attrs.frozen
class LiveEvents:
    """Events of the match a worker is playing (the first it was handed of those in flight),
    in the order the referee routed them."""

    events: tuple[Wire, ...]


class LiveSink(Protocol):
    """Where :meth:`Workers.pump` sends what the workers tell of the matches in progress (the
    server's hub of live games, through its :class:`Job`)."""

    def events(self, match: MatchPlan, events: Sequence[Wire]) -> None: ...

    def ended(self, match: MatchPlan) -> None:
        """The match is over (finished, not playable, or its worker died: it is played again
        from its start, as a new match in progress)."""


class _Forward:
    """A worker's listener of the referee's events: keeps the current deal's events while
    nobody watches (a match's first message then shows its deal from its start), and sends
    them on once the server's flag says someone does. The list is cut at each deal's start, so
    it never holds more than a deal."""

    def __init__(self, conn: multiprocessing.connection.Connection, watching: Any):
        self.conn = conn
        self.watching = watching
        self.kept: list[Event] = []

    def __call__(self, events: Sequence[Event]) -> None:
        if not events:
            return
        if events[0].kind == "deal" and events[0].audience is None:
            self.kept.clear()
        self.kept.extend(events)
        if self.watching.value:
            kept, self.kept = self.kept, []
            wire = tuple((e.line(), None if e.audience is None else tuple(sorted(e.audience))) for e in kept)
            self.conn.send(LiveEvents(wire))

    def reset(self) -> None:
        self.kept = []


def _work(conn: multiprocessing.connection.Connection, watching: Any = None) -> None:
    """A worker: play each ``(config, match)`` sent until ``None`` or the end of the pipe; the
    bots of one configuration are kept alive for the next match of the same one. ``watching``
    is the server's flag: while it is set, the match's events are sent as they come."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pool: BotPool | None = None
    current: Config | None = None
    forward = None if watching is None else _Forward(conn, watching)
    try:
        while True:
            try:
                message = conn.recv()
            except (EOFError, ConnectionResetError):
                break
            if message is None:
                break
            config, match = message
            if pool is None or config != current:
                if pool is not None:
                    pool.close()
                pool, current = BotPool(config), config
            try:
                outcome: Finished | Unplayable = run_one(config, match, pool, forward)
            except CardcliError as err:  # a seat that cannot be made: the match is not played
                outcome = Unplayable(match.index, str(err))
            except (BrokenPipeError, ConnectionResetError):  # a live message found the pipe closed
                break
            if forward is not None:
                forward.reset()
            try:
                conn.send(outcome)
            except (BrokenPipeError, ConnectionResetError):
                break
    finally:
        if pool is not None:
            pool.close()


@attrs.frozen(eq=False)
class Job:
    """Matches submitted together: their configuration, and what to do with each outcome."""

    config: Config
    store: Store
    may_start: MayStart | None = None
    unplayable: Callable[[Unplayable], None] | None = None
    live: LiveSink | None = None
    """Where the events of its matches in progress go (the server's live games), if anywhere."""


@attrs.frozen
class _Queued:
    job: Job
    match: MatchPlan


def _ended(queued: _Queued) -> None:
    if queued.job.live is not None:
        queued.job.live.ended(queued.match)


class Workers(Executor):
    """``jobs`` long-lived worker processes fed from one queue of matches. :meth:`submit` adds
    matches and :meth:`pump` plays on for a while, so a server can claim its next units while
    the workers are busy with the last ones (no worker waits between batches); :meth:`play`
    is the blocking form every executor has. A worker that dies is replaced and its matches
    are played again by another (the arena's store refuses a match stored twice)."""

    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self._context = multiprocessing.get_context("forkserver")
        self._watching = self._context.RawValue("b", 0)
        """Set while someone watches the live games: the workers then send their matches'
        events (:class:`_Forward`). Shared memory, so that it costs the workers nothing to
        read at every move."""
        self._watched: Callable[[], bool] = lambda: False
        self._workers: list[multiprocessing.process.BaseProcess] = []
        self._ends: list[multiprocessing.connection.Connection] = []
        self._in_flight: list[deque[_Queued]] = []
        self._queue: deque[_Queued] = deque()

    def start(self) -> None:
        """Start the fork server and the workers: before the caller starts any thread."""
        for _ in range(self.jobs):
            self._add()

    def _add(self, at: int | None = None) -> None:
        parent_end, child_end = self._context.Pipe()
        worker = self._context.Process(target=_work, args=(child_end, self._watching), daemon=True,
                                       name="cardcli-arena-worker")
        worker.start()
        child_end.close()
        if at is None:
            self._workers.append(worker)
            self._ends.append(parent_end)
            self._in_flight.append(deque())
        else:
            self._workers[at], self._ends[at] = worker, parent_end
            self._in_flight[at] = deque()

    def watch(self, watched: Callable[[], bool]) -> None:
        """Ask ``watched()`` at every :meth:`pump` whether anyone watches the live games: the
        workers send the events of their matches while it says so."""
        self._watched = watched

    @property
    def waiting(self) -> int:
        """Matches submitted and not yet handed to a worker."""
        return len(self._queue)

    @property
    def busy(self) -> int:
        """Matches submitted and not yet finished."""
        return len(self._queue) + sum(len(flight) for flight in self._in_flight)

    def submit(self, job: Job, pending: Sequence[MatchPlan]) -> None:
        """Queue ``pending`` to be played with ``job``'s configuration; :meth:`pump` plays them.

        With ``job.may_start``, a match is handed to a worker only when it says so, given the
        matches under way (a remote bot plays as many matches at once as it holds
        connections). When nothing is under way, the first match left starts whatever it
        says: a bot that never connects is then a recorded fault, not a hang. A match that
        could not be started goes to ``job.unplayable`` (by default, a CardcliError)."""
        if not self._workers:
            self.start()
        self._queue.extend(_Queued(job, match) for match in pending)
        self._feed_all()

    def play(self, config: Config, pending: Sequence[MatchPlan], store: Store,
             may_start: MayStart | None = None, unplayable: Callable[[Unplayable], None] | None = None) -> None:
        """As :meth:`Executor.play`: submit, and play until everything submitted is done."""
        self.submit(Job(config, store, may_start, unplayable), pending)
        while self.busy:
            self.pump(None)

    def drain(self) -> None:
        """Forget the matches not yet handed over (their units go back to the store's pending
        ones when the server releases them) and finish the ones under way."""
        self._queue.clear()
        while self.busy:
            self.pump(None)

    def _next(self) -> _Queued | None:
        running = [q.match for flight in self._in_flight for q in flight]
        for queued in self._queue:
            guard = queued.job.may_start
            if guard is None or not running or guard(queued.match, running):
                self._queue.remove(queued)
                return queued
        return None

    def _feed(self, k: int) -> None:
        while self._queue and len(self._in_flight[k]) < IN_FLIGHT:
            queued = self._next()
            if queued is None:
                return
            try:
                self._ends[k].send((queued.job.config, queued.match))
            except (BrokenPipeError, ConnectionResetError, OSError):
                self._queue.appendleft(queued)
                return
            self._in_flight[k].append(queued)

    def _feed_all(self) -> None:
        for k in range(len(self._workers)):
            self._feed(k)

    def pump(self, timeout: float | None) -> None:
        """Take what the workers have finished (waiting up to ``timeout`` seconds for the
        first, None: until one), hand each outcome to its job, and feed the workers again."""
        if not self.busy:
            return
        self._watching.value = 1 if self._watched() else 0
        watched: dict[Any, int] = {end: k for k, end in enumerate(self._ends)}
        watched.update({w.sentinel: k for k, w in enumerate(self._workers)})
        for ready in multiprocessing.connection.wait(list(watched), timeout):
            k = watched[ready]
            end = self._ends[k]
            if ready is end:
                try:
                    outcome = cast("Finished | Unplayable | LiveEvents", end.recv())
                except (EOFError, ConnectionResetError, OSError):
                    continue  # the worker died: its sentinel says so
                self._deliver(k, outcome)
            elif not self._workers[k].is_alive():
                while end.poll():
                    try:
                        outcome = cast("Finished | Unplayable | LiveEvents", end.recv())
                    except (EOFError, ConnectionResetError, OSError):
                        break
                    self._deliver(k, outcome)
                if self._in_flight[k]:
                    _ended(self._in_flight[k][0])  # it is played again, from its start
                self._queue.extendleft(reversed(self._in_flight[k]))
                end.close()
                self._add(k)
                break  # the watched objects changed
        self._feed_all()

    def _deliver(self, k: int, outcome: Finished | Unplayable | LiveEvents) -> None:
        if isinstance(outcome, LiveEvents):
            if self._in_flight[k]:
                playing = self._in_flight[k][0]
                if playing.job.live is not None:
                    playing.job.live.events(playing.match, outcome.events)
            return
        queued = self._in_flight[k].popleft()
        _ended(queued)
        if isinstance(outcome, Finished):
            queued.job.store(outcome)
        elif queued.job.unplayable is not None:
            queued.job.unplayable(outcome)
        else:
            raise CardcliError(f"match {outcome.index} cannot be played: {outcome.reason}")

    def close(self, grace: float = 2.0, now: bool = False) -> None:
        """Tell every worker to stop after its match (``now``: at once, its bots closed, as
        Ctrl-C asks), then end the ones that do not."""
        for worker, end in zip(self._workers, self._ends):
            try:
                if now:
                    worker.terminate()
                else:
                    end.send(None)
            except (BrokenPipeError, ConnectionResetError, OSError):
                pass
        for worker in self._workers:
            worker.join(timeout=grace + 10)
        for worker in self._workers:
            if worker.is_alive():
                worker.terminate()
                worker.join(timeout=5)
            if worker.is_alive():
                worker.kill()
        for end in self._ends:
            end.close()
        self._workers, self._ends, self._in_flight = [], [], []
        self._queue.clear()
