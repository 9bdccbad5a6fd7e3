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
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
import sys
from collections import deque
from typing import Any, Callable, Sequence, cast

import attrs

from ..errors import CardcliError
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


def _work(conn: multiprocessing.connection.Connection) -> None:
    """A worker: play each ``(config, match)`` sent until ``None`` or the end of the pipe; the
    bots of one configuration are kept alive for the next match of the same one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pool: BotPool | None = None
    current: Config | None = None
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
                outcome: Finished | Unplayable = run_one(config, match, pool)
            except CardcliError as err:  # a seat that cannot be made: the match is not played
                outcome = Unplayable(match.index, str(err))
            try:
                conn.send(outcome)
            except (BrokenPipeError, ConnectionResetError):
                break
    finally:
        if pool is not None:
            pool.close()


class Workers(Executor):
    """``jobs`` long-lived worker processes; :meth:`play` feeds them and waits for the matches
    given, as every executor does. A worker that dies is replaced and its matches are played
    again by another (the arena's store refuses a match stored twice)."""

    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self._context = multiprocessing.get_context("forkserver")
        self._workers: list[multiprocessing.process.BaseProcess] = []
        self._ends: list[multiprocessing.connection.Connection] = []
        self._in_flight: list[deque[MatchPlan]] = []

    def start(self) -> None:
        """Start the fork server and the workers: before the caller starts any thread."""
        for _ in range(self.jobs):
            self._add()

    def _add(self, at: int | None = None) -> None:
        parent_end, child_end = self._context.Pipe()
        worker = self._context.Process(target=_work, args=(child_end,), daemon=True, name="cardcli-arena-worker")
        worker.start()
        child_end.close()
        if at is None:
            self._workers.append(worker)
            self._ends.append(parent_end)
            self._in_flight.append(deque())
        else:
            self._workers[at], self._ends[at] = worker, parent_end
            self._in_flight[at] = deque()

    def play(self, config: Config, pending: Sequence[MatchPlan], store: Store,
             may_start: MayStart | None = None, unplayable: Callable[[Unplayable], None] | None = None) -> None:
        """As :meth:`Executor.play`; with ``may_start``, a match is handed to a worker only
        when it says so, given the matches under way (a remote bot plays as many matches at
        once as it holds connections). When nothing is under way, the first match left starts
        whatever it says: a bot that never connects is then a recorded fault, not a hang. A
        match that could not be started goes to ``unplayable`` (by default, a CardcliError)."""
        if not self._workers:
            self.start()
        work: deque[MatchPlan] = deque(pending)
        left = len(pending)

        def next_match() -> MatchPlan | None:
            running = [m for flight in self._in_flight for m in flight]
            for match in work:
                if may_start is None or not running or may_start(match, running):
                    work.remove(match)
                    return match
            return None

        def feed(k: int) -> None:
            while work and len(self._in_flight[k]) < IN_FLIGHT:
                match = next_match()
                if match is None:
                    return
                try:
                    self._ends[k].send((config, match))
                except (BrokenPipeError, ConnectionResetError, OSError):
                    work.appendleft(match)
                    return
                self._in_flight[k].append(match)

        for k in range(self.jobs):
            feed(k)
        while left:
            watched: dict[Any, int] = {end: k for k, end in enumerate(self._ends)}
            watched.update({w.sentinel: k for k, w in enumerate(self._workers)})
            for ready in multiprocessing.connection.wait(list(watched)):
                k = watched[ready]
                end = self._ends[k]
                if ready is end:
                    try:
                        outcome = cast("Finished | Unplayable", end.recv())
                    except (EOFError, ConnectionResetError, OSError):
                        continue  # the worker died: its sentinel says so
                    self._in_flight[k].popleft()
                    left -= 1
                    if isinstance(outcome, Unplayable):
                        if unplayable is None:
                            raise CardcliError(f"match {outcome.index} cannot be played: {outcome.reason}")
                        unplayable(outcome)
                    else:
                        store(outcome)
                    for j in [k, *range(self.jobs)]:  # a match held back may start now
                        feed(j)
                elif not self._workers[k].is_alive():
                    while end.poll():
                        try:
                            outcome = cast("Finished | Unplayable", end.recv())
                        except (EOFError, ConnectionResetError, OSError):
                            break
                        self._in_flight[k].popleft()
                        left -= 1
                        if isinstance(outcome, Finished):
                            store(outcome)
                        elif unplayable is not None:
                            unplayable(outcome)
                    work.extendleft(reversed(self._in_flight[k]))
                    end.close()
                    self._add(k)
                    feed(k)
                    break  # the watched objects changed

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
