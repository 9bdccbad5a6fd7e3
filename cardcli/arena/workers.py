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

A worker also tells the server about the match it is playing, for the spectators of live
games (:mod:`cardcli.arena.live`), as much as is watched: a number in shared memory per
worker, which the server sets at each :meth:`Workers.pump` from the spectators of that
worker's match, says how much (:data:`QUIET`, :data:`LISTED`, :data:`WATCHED`). Whatever it
says, a worker keeps the current deal's events in a list (a list's ``extend`` per move); a
listed match sends only its deals' starts, scores and running totals (:class:`LiveSummary`,
three lines a deal: the duplicate gate of the live games counts the scores), and a watched one what it kept, then every event as it comes
(:class:`LiveEvents`); either in batches of at most :data:`BATCH` seconds, on its pipe between
its results. So a spectator of one match costs the other matches nothing, and a match played by
fast bots costs a message per batch rather than per move or per deal. What spectators may see of the events is
decided in the server (the leak rule), never here.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import multiprocessing.sharedctypes
import signal
import sys
import threading
import time
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
QUIET, LISTED, WATCHED = 0, 1, 2
"""How much of its match a worker tells: nothing (nobody watches), its deals, scores and totals
(the list of live games is watched, or another rotation of its unit), every event (the match itself is)."""
BATCH = 0.05
"""Seconds a watched match's events may wait to be sent with the next ones."""
SUMMARY = ("deal", "score", "totals")
"""The public events a listed match sends: enough for the list of live games, and for the
duplicate gate to know which deals the match has finished."""

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


@attrs.frozen
class LiveSummary:
    """The public deal starts and running totals of the match a worker is playing, for the list
    of live games (:data:`SUMMARY`)."""

    lines: tuple[str, ...]


class LiveSink(Protocol):
    """Where :meth:`Workers.pump` sends what the workers tell of the matches in progress (the
    server's hub of live games, through its :class:`Job`)."""

    def level(self, match: MatchPlan) -> int:
        """How much of the match is watched: :data:`QUIET`, :data:`LISTED` or :data:`WATCHED`."""

    def events(self, match: MatchPlan, events: Sequence[Wire]) -> None: ...

    def summary(self, match: MatchPlan, lines: Sequence[str]) -> None: ...

    def ended(self, match: MatchPlan) -> None:
        """The match is over (finished, not playable, or its worker died: it is played again
        from its start, as a new match in progress)."""


def _wire(events: Sequence[Event]) -> tuple[Wire, ...]:
    return tuple((e.line(), None if e.audience is None else tuple(sorted(e.audience))) for e in events)


class _Forward:
    """A worker's listener of the referee's events, and the one sender on its pipe. It keeps the
    current deal's events whatever is watched (a match's first message then shows its deal
    from its start, and the list is cut at each deal's start, so it never holds more than a
    deal); it sends according to the server's number (``level``).

    Nothing is sent from the referee's own thread: what is due waits for a thread of its own,
    which sends it :data:`BATCH` seconds after the first of it, so that a move is shown within
    that time however long the next bot thinks, and a match of fast bots costs a message per
    batch. That holds for a listed match's summary lines as much as for a watched match's
    events: a message sent at once wakes the server, which then takes the processor from
    the match (sent at once, three a deal, they took 9% of a worker's samples in a profile of
    50-millisecond Peppa matches on 2 processors; docs/performance.md). Everything goes through one lock, and :meth:`send` flushes what is
    waiting before a result, so that a match's events always reach the server before its
    result."""

    def __init__(self, conn: multiprocessing.connection.Connection, level: Any):
        self.conn = conn
        self.level = level
        self.kept: list[Event] = []
        self.waiting: list[Event] = []
        self.summary: list[str] = []
        self.lock = threading.Lock()
        self.due = threading.Event()
        self.thread: threading.Thread | None = None

    def __call__(self, events: Sequence[Event]) -> None:
        if not events:
            return
        if events[0].kind == "deal" and events[0].audience is None:
            self.kept.clear()
        self.kept.extend(events)
        level = self.level.value
        if level == WATCHED:
            with self.lock:
                self.waiting += self.kept
            self.kept = []
        elif level == LISTED and (events[0].kind in SUMMARY or events[-1].kind in SUMMARY):
            # a deal's events start with its deal line, and its totals end its last move's
            lines = [e.line() for e in events if e.kind in SUMMARY and e.audience is None]
            if not lines:
                return
            with self.lock:
                self.summary += lines
        else:
            return
        if self.thread is None:
            self.thread = threading.Thread(target=self._batches, name="cardcli-live", daemon=True)
            self.thread.start()
        self.due.set()

    def _batches(self) -> None:
        while True:
            self.due.wait()
            time.sleep(BATCH)  # gather what the moves made meanwhile add
            self.due.clear()
            try:
                with self.lock:
                    self._flush()
            except (BrokenPipeError, ConnectionResetError, OSError):
                return

    def _flush(self) -> None:
        """Send what is waiting (the caller holds the lock)."""
        if self.summary:
            self.conn.send(LiveSummary(tuple(self.summary)))
            self.summary = []
        if self.waiting:
            self.conn.send(LiveEvents(_wire(self.waiting)))
            self.waiting = []

    def send(self, outcome: Any) -> None:
        """Send a match's result, after its events, and forget the match."""
        with self.lock:
            self._flush()
            self.kept = []
            self.conn.send(outcome)


def _work(conn: multiprocessing.connection.Connection, level: Any) -> None:
    """A worker: play each ``(config, match)`` sent until ``None`` or the end of the pipe; the
    bots of one configuration are kept alive for the next match of the same one. ``level`` is
    the server's number that says how much of the match is watched (:class:`_Forward`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pool: BotPool | None = None
    current: Config | None = None
    forward = _Forward(conn, level)
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
            try:
                forward.send(outcome)
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
        self._levels: list[Any] = []
        """Each worker's number in shared memory: how much of its match is watched
        (:class:`_Forward`), read by the worker at every move for next to nothing."""
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
        if at is None:
            self._levels.append(self._context.RawValue("b", QUIET))
        level = self._levels[len(self._levels) - 1 if at is None else at]
        level.value = QUIET
        worker = self._context.Process(target=_work, args=(child_end, level), daemon=True,
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
        self._set_levels()
        watched: dict[Any, int] = {end: k for k, end in enumerate(self._ends)}
        watched.update({w.sentinel: k for k, w in enumerate(self._workers)})
        for ready in multiprocessing.connection.wait(list(watched), timeout):
            k = watched[ready]
            end = self._ends[k]
            if ready is end:
                try:
                    outcome = cast("Finished | Unplayable | LiveEvents | LiveSummary", end.recv())
                except (EOFError, ConnectionResetError, OSError):
                    continue  # the worker died: its sentinel says so
                self._deliver(k, outcome)
            elif not self._workers[k].is_alive():
                while end.poll():
                    try:
                        outcome = cast("Finished | Unplayable | LiveEvents | LiveSummary", end.recv())
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
        self._set_levels()

    def _set_levels(self) -> None:
        """Tell each worker how much of its match is watched (the first of its matches in
        flight, the one it plays or is about to)."""
        for k, flight in enumerate(self._in_flight):
            level = QUIET
            if flight and flight[0].job.live is not None:
                level = flight[0].job.live.level(flight[0].match)
            if self._levels[k].value != level:
                self._levels[k].value = level

    def _deliver(self, k: int, outcome: Finished | Unplayable | LiveEvents | LiveSummary) -> None:
        if isinstance(outcome, (LiveEvents, LiveSummary)):
            if self._in_flight[k]:
                playing = self._in_flight[k][0]
                if playing.job.live is not None:
                    if isinstance(outcome, LiveEvents):
                        playing.job.live.events(playing.match, outcome.events)
                    else:
                        playing.job.live.summary(playing.match, outcome.lines)
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
        self._workers, self._ends, self._in_flight, self._levels = [], [], [], []
        self._queue.clear()
