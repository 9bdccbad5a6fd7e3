"""Running a tournament: matches in order or in parallel worker processes, bots kept alive
between matches, every finished match appended durably, and resuming where a run stopped.

A tournament lives in a directory: ``config.json`` (everything needed to rebuild the
schedule) and ``records.jsonl`` (one record per finished match, in finishing order, each
carrying its place in the schedule). Resuming reruns exactly the matches without a record.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, cast

import attrs

from ..errors import RecordError, UsageError
from ..records import io as records
from ..records import shape as record_shape
from ..records.io import append_line
from ..records.model import Record
from ..safe_text import display_name
from ..small_files import read_small
from .config import Config
from .executor import Executor, Store
from .schedule import MatchPlan
from .stopping import Decided, SprtWatch
from .worker import STOP_SIGNALS, BotPool, Finished, run_one, serve

CONFIG = "config.json"
RECORDS = "records.jsonl"


# -- the tournament directory ---------------------------------------------------------------


def create(directory: Path, config: Config) -> None:
    if (directory / CONFIG).exists():
        raise UsageError(f"{directory} already holds a tournament; continue it with --resume {directory}")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CONFIG).write_text(json.dumps(config.to_json(), indent=2) + "\n")


def load(directory: Path) -> Config:
    """The tournament's configuration, read within the records' bounds and checked field by
    field (:func:`cardcli.records.shape.config_problem`): a damaged ``config.json`` is a
    one-line error before anything runs, not a failure in the middle of a resumed run."""
    path = directory / CONFIG
    if not path.exists():
        raise UsageError(f"{directory} holds no tournament ({CONFIG} is missing)")
    raw = read_small(path, records.MAX_RECORD_BYTES, "a tournament configuration")
    try:
        data = records.load_json(raw)
    except records.LineError as err:
        raise UsageError(f"{path}: not JSON ({err})") from None
    found = record_shape.config_problem(data)
    if found is not None:
        raise UsageError(f"{path}: not a tournament configuration: {found}")
    return Config.from_json(data)


def finished(directory: Path, repair: bool = True) -> dict[int, int]:
    """Schedule index → byte offset of every finished match in the records file. A torn last
    line (a run killed while writing) is cut off so that its match is played again (with
    ``repair``, by :func:`cardcli.records.io.repair_tail`, as ``play --record`` does; a reader
    watching a running tournament leaves it alone). Lines are read within
    the tournament's line limit; a line without a schedule index is a RecordError naming it.
    Only the index is read here (see :func:`_schedule_index`); :func:`records_in_order` checks
    each record in full when the table is made."""
    path = directory / RECORDS
    done: dict[int, int] = {}
    if not path.exists():
        return done
    limit = records.MAX_RECORD_BYTES
    if (directory / CONFIG).exists():
        limit = records.limit_for(load(directory).settings.max_deals)
    if repair:
        records.repair_tail(path, limit)
    for line in records.lines(path, limit):
        if not line.complete:
            break
        if line.raw.strip():
            index = _schedule_index(line.raw)
            if index is None:
                raise RecordError(f"{path}:{line.number}: a line that is not a tournament record (no schedule index)")
            done[index] = line.offset
    return done


_TAG = b',"tournament":'


def _schedule_index(raw: bytes) -> int | None:
    """The schedule index of a record line, or None. The ``tournament`` object is the last
    field a worker writes, so it is read alone from the end of the line (no string inside
    the record can hold the tag unescaped), and the whole line is decoded only when that
    fails: the records of a long tournament are read at every start and for the table."""
    at = raw.rfind(_TAG)
    if at >= 0:
        index = _index_of(raw[at + len(_TAG):].rstrip()[:-1])
        if index is not None:
            return index
    return _index_of(raw, "tournament")


def _index_of(text: bytes, *path: str) -> int | None:
    """The non-negative integer ``index`` of the JSON object ``text`` (under the keys
    ``path``), or None; the text is parsed within the records' bounds (depth, digits)."""
    try:
        data = records.load_json(text)
        for key in path:
            data = data[key]
        index = data["index"]
    except (records.LineError, KeyError, TypeError, IndexError):
        return None
    return index if type(index) is int and index >= 0 else None


def finished_read_only(directory: Path) -> dict[int, int]:
    return finished(directory, repair=False)


def records_in_order(directory: Path, done: dict[int, int]) -> Iterator[Record]:
    """The finished records in schedule order, read one at a time (memory stays flat), as
    typed values: the table and the sequential test read them so.

    Each goes through the records' one reader (:func:`cardcli.records.io.decode`) and is matched
    with its place in this tournament's schedule (index, seating, game), so the table only
    meets records it can fold; anything else is a RecordError naming the line."""
    if not done:
        return
    config = load(directory)
    schedule = config.schedule()
    limit = records.limit_for(config.settings.max_deals)
    path = directory / RECORDS
    try:
        handle = open(path, "rb")
    except OSError as err:
        raise RecordError(f"{path}: cannot read: {err.strerror}") from None
    with handle:
        for index in sorted(done):
            handle.seek(done[index])
            raw = handle.readline(limit + 2)
            try:
                if not raw.endswith(b"\n"):
                    raise records.LineError(f"a line longer than {limit} bytes, or torn")
                record = Record.from_json(records.decode(raw))
                tag = record.tournament
                if tag is None or tag.index != index or index >= len(schedule):
                    raise records.LineError("not a record of this tournament's schedule")
                if record.game != config.game or tag.seating != tuple(schedule[index].seating):
                    raise records.LineError(f"not match {index} of this tournament (another game or seating)")
            except records.LineError as err:
                raise RecordError(f"{path}:{records.line_number(path, done[index])}: {err}") from None
            yield record


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int, int, dict[str, Any]], None]


def run(directory: Path, config: Config, jobs: int, progress: Progress, stderr_dir: Path | None = None,
        started: Callable[[], None] | None = None, executor: Executor | None = None,
        watch: SprtWatch | None = None) -> None:
    """Play every match of the schedule that has no record yet; with ``stderr_dir``, every
    bot process's stderr is saved there (as the referee's own path, no bot can see it).
    ``started`` is called once the workers exist and before the first match: what runs
    threads in this process (the remote bots' listener) starts there, after every fork.
    With ``executor``, the matches are played there instead of by this machine's workers
    (:class:`Local`): a Dask cluster (:class:`.cluster.ClusterRun`, opened) makes them tasks.
    With ``watch``, a sequential test stops the run as soon as it decides (:mod:`.stopping`):
    the schedule is then played deal set by deal set."""
    done = finished(directory)
    schedule = config.schedule()
    pending = [m for m in schedule if m.index not in done]
    if watch is not None:
        for record in records_in_order(directory, done):
            if watch.add(record):
                return
        pending.sort(key=lambda m: (m.deal_set, m.rotation))
    elif config.duplicate:
        # Every deal set's first rotation, then every second one...: a kept-alive bot meets a
        # deal set again (and must be restarted) once per round, not at every match.
        pending.sort(key=lambda m: (m.rotation, m.deal_set))
    hidden = (directory, stderr_dir) if stderr_dir is not None else (directory,)
    config = attrs.evolve(config, hidden=config.hidden + tuple(str(p.resolve()) for p in hidden))
    total, count = len(schedule), len(done)
    path = directory / RECORDS

    def store(finished: Finished) -> None:
        nonlocal count
        append_line(path, finished.line)
        count += 1
        for bundle in finished.bundles:
            bundle.save(path, count)
        progress(count, total, finished.head)
        if watch is not None and watch.add(Record.from_json(records.load_json(finished.line.encode("utf-8")))):
            raise Decided("the sequential test has decided")

    try:
        (executor or Local(jobs, stderr_dir, started)).play(config, pending, store)
    except Decided:
        pass


class Local(Executor):
    """This machine's executor: the matches in this process (``-j 1``, or one match left),
    else in ``jobs`` worker processes (:func:`_run_parallel`). ``stderr_dir`` and ``started``
    as for :func:`run`."""

    def __init__(self, jobs: int, stderr_dir: Path | None = None, started: Callable[[], None] | None = None):
        self.jobs = jobs
        self.stderr_dir = stderr_dir
        self.started = started

    def play(self, config: Config, pending: Sequence[MatchPlan], store: Store) -> None:
        if self.jobs <= 1 or len(pending) <= 1:
            if self.started is not None:
                self.started()
            pool = BotPool(config, self.stderr_dir)
            try:
                for match in pending:
                    store(run_one(config, match, pool))
            finally:
                pool.close()
            return
        _run_parallel(config, list(pending), min(self.jobs, len(pending)), store, self.stderr_dir, self.started)


_START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"
"""How workers start. On Linux a forked worker starts at once with everything imported, where
a spawned one starts a new interpreter and imports the package again (0.3 s or more of a
short tournament, and work the -j 1 run never does); the parent holds no threads and no bot
processes at that point, which is what makes forking safe. Elsewhere (macOS, Windows) spawn
is the safe choice, as Python itself decides."""


_IN_FLIGHT = 2
"""Matches handed to a worker ahead of its results: one to play and one ready for when it
finishes, so a worker never waits on the parent. Feeding work on demand, instead of putting
the whole schedule in a queue up front, keeps the parent free to stop at any moment: nothing
is left in a pipe that has to be flushed before the process may exit."""


def _run_parallel(config: Config, pending: list[MatchPlan], jobs: int, store: Store,
                  stderr_dir: Path | None = None, started: Callable[[], None] | None = None) -> None:
    """Play ``pending`` in ``jobs`` worker processes, in the order of the list, and store each
    record as it arrives. Each worker has a pipe of its own; it is given its next match when it
    sends a result. Whatever stops the parent (the end of the schedule, Ctrl-C, SIGTERM, a
    failed worker), the workers are ended with their bots before this returns or raises."""
    context: multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext = (
        multiprocessing.get_context("fork") if _START_METHOD == "fork" else multiprocessing.get_context("spawn"))
    work = iter(pending)
    ends: list[multiprocessing.connection.Connection] = []
    workers: list[multiprocessing.process.BaseProcess] = []
    in_flight: list[int] = []
    fed: list[bool] = []
    completed = False

    def feed(k: int) -> None:
        """Top worker ``k`` up to ``_IN_FLIGHT`` matches; past the end of the schedule, tell it
        to stop once its matches are played."""
        try:
            while not fed[k] and in_flight[k] < _IN_FLIGHT:
                match = next(work, None)
                ends[k].send(match)
                if match is None:
                    fed[k] = True
                else:
                    in_flight[k] += 1
        except (BrokenPipeError, ConnectionResetError):
            pass  # the worker is gone: its sentinel reports it

    masked = _hold_stop_signals()
    try:
        for _ in range(jobs):
            parent_end, child_end = context.Pipe()
            ends.append(parent_end)
            inherited = tuple(ends) if _START_METHOD == "fork" else ()
            worker = context.Process(target=serve, args=(config, child_end, os.getpid(), inherited, stderr_dir),
                                     daemon=True)
            worker.start()
            child_end.close()
            workers.append(worker)
            in_flight.append(0)
            fed.append(False)
        _release_stop_signals(masked)
        if started is not None:
            started()
        for k in range(jobs):
            feed(k)
        left = len(pending)
        watched: dict[multiprocessing.connection.Connection | int, int] = {end: k for k, end in enumerate(ends)}
        watched.update({w.sentinel: k for k, w in enumerate(workers)})

        def take(k: int) -> bool:
            """Store one result of worker ``k`` and feed it; False once its pipe has ended."""
            nonlocal left
            try:
                outcome = ends[k].recv()
            except (EOFError, ConnectionResetError):
                watched.pop(ends[k], None)
                return False
            in_flight[k] -= 1
            left -= 1
            store(outcome)
            feed(k)
            return True

        while left:
            if not watched:
                raise RecordError("the tournament workers stopped before the schedule was played")
            for obj in multiprocessing.connection.wait(list(watched)):
                ready = cast("multiprocessing.connection.Connection | int", obj)  # one of those it was given
                found = watched.get(ready)
                if found is None:
                    continue
                k = found
                if ready is ends[k]:
                    take(k)
                    continue
                del watched[ready]
                while ends[k] in watched and ends[k].poll() and take(k):
                    pass  # what it sent before it ended
                workers[k].join(timeout=5)  # its pipes close a moment before its status is there
                code = workers[k].exitcode
                if code != 0 or in_flight[k]:
                    if code is not None and code < 0:
                        raise RecordError(f"a tournament worker was killed by signal {-code}")
                    raise RecordError(f"a tournament worker stopped with status {code}")
        completed = True
    finally:
        _stop_workers(workers, ends, completed, config.settings.quit_grace)
        _release_stop_signals(masked)  # in case starting a worker failed while they were held


def _stop_workers(workers: Sequence[multiprocessing.process.BaseProcess],
                  ends: Sequence[multiprocessing.connection.Connection], completed: bool, grace: float) -> None:
    """End every worker and wait for it. After a whole schedule the workers are already on
    their way out and are given the time to close their bots; after an interruption they are
    told at once (SIGTERM: each closes its bots, `quit` then the kill of each bot's group).
    One that does not exit in time is killed."""
    if not completed:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
    deadline = time.monotonic() + grace + 10
    for worker in workers:
        worker.join(timeout=max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.is_alive():
            worker.kill()
            worker.join(timeout=5)
    for end in ends:
        end.close()


def _hold_stop_signals() -> set[int] | None:
    """Hold Ctrl-C and SIGTERM back while workers start, so that a worker never receives one
    before it has set its own handlers (it would die with a traceback, or run the parent's
    handler). Returns the mask to restore; None where signal masks do not exist."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS))


def _release_stop_signals(mask: set[int] | None) -> None:
    """Restore the mask; a signal held back meanwhile is delivered now."""
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def progress_printer(stream: Any, names: Sequence[str]) -> Progress:
    """Live progress: one updating line on a terminal, plain parseable lines otherwise."""
    started = time.monotonic()
    wins = dict.fromkeys(names, 0)
    tty = hasattr(stream, "isatty") and stream.isatty()

    def show(done: int, total: int, record: dict[str, Any]) -> None:
        result = record.get("result") or {}
        for seat in result.get("winners", []):
            wins[record["tournament"]["entrants"][seat]] += 1
        leader = display_name(max(wins, key=lambda n: (wins[n], n))) if any(wins.values()) else "-"
        elapsed = time.monotonic() - started
        eta = elapsed / max(1, done) * (total - done)
        if tty:
            bar = "#" * int(30 * done / total)
            stream.write(f"\r[{bar:<30}] {done}/{total} eta {eta:5.0f}s leader {leader}   ")
            if done == total:
                stream.write("\n")
        else:
            stream.write(f"match {done}/{total} key {record['tournament']['key']} status {record['status']} "
                         f"leader {leader} eta {eta:.0f}s\n")
        stream.flush()

    return show


def default_jobs() -> int:
    return os.cpu_count() or 1
