"""Running a tournament: matches in order or in parallel worker processes, bots kept alive
between matches, every finished match appended durably, and resuming where a run stopped.

A tournament lives in a directory: ``config.json`` (everything needed to rebuild the
schedule) and ``records.jsonl`` (one record per finished match, in finishing order, each
carrying its place in the schedule). Resuming reruns exactly the matches without a record.
"""

from __future__ import annotations

import ctypes
import json
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import attrs

from ..errors import RecordError, UsageError
from ..games import registry
from .. import record_shape, records, signing
from ..records import append_line, dump
from ..safe_text import display_name
from ..small_files import read_small
from ..referee import Settings, play_match
from ..seats.base import Seat, close_all
from ..seats.limits import Limits
from ..seats.guard import resolve
from ..seats.policy import DEFAULT_DISK_MIB, SandboxPolicy
from ..seats.process import ProcessSeat
from ..seats.spec import make_seat
from ..remote.seat import RemoteContext
from .bundles import Bundle, bundles as make_bundles
from .cluster import ClusterRun
from .entrants import Entrant
from .stopping import Decided, SprtWatch
from .schedule import MatchPlan, plan

KEPT_KINDS = ("process", "remote")
"""The seats a tournament keeps alive from match to match: those that run a bot program."""

CONFIG = "config.json"
RECORDS = "records.jsonl"


@attrs.frozen
class Config:
    """A tournament's whole definition; stored in its directory as JSON."""

    game: str
    variant: str | None
    options: dict[str, str]
    players: int
    entrants: tuple[tuple[str, str], ...]
    """(name, seat spec) of each entrant."""
    deal_sets: int
    seed: int
    duplicate: bool = True
    permutations: bool = False
    keep_alive: bool = True
    settings: dict[str, Any] = attrs.field(factory=dict)
    limits: dict[str, Any] = attrs.field(factory=dict)
    sandbox: dict[str, Any] = attrs.field(factory=dict)
    """``mode``, ``network`` and ``binds`` as given; a tournament made before the sandbox
    existed has none and keeps running its bots as it did (``off``)."""
    sign_key: str | None = None
    """The absolute path of the private key that signs every record (``--sign-key``), or None.
    Only the path is stored, never the key, so that ``--resume`` signs on with the same key."""
    gauntlet: str | None = None
    """The entrant that plays every match (``--gauntlet NAME``), or None for the ordinary
    schedule. Stored so that ``--resume`` rebuilds the same schedule; a configuration made
    before gauntlets existed has none."""
    entrant_settings: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    """Entrant name → how its bot starts and what it is set to: ``dir`` (absolute), ``env``
    and ``options`` (``--entrants``, ``--bot-option``; :class:`.entrants.Entrant`), for the
    entrants that have any. A configuration made before entrants files existed has none."""
    hidden: tuple[str, ...] = attrs.field(default=(), eq=False)
    """The tournament's own directory while it runs: never stored, masked from every bot."""
    remote: RemoteContext | None = attrs.field(default=None, eq=False)
    """Where this run's remote seats find their bots (``--listen``): never stored, since the
    listener lives as long as one run."""

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self, filter=lambda field, _: field.name not in ("hidden", "remote"))
        data["entrants"] = [list(e) for e in self.entrants]
        return data

    def sandbox_policy(self) -> SandboxPolicy:
        return SandboxPolicy(
            mode=self.sandbox.get("mode", "off"),
            network=bool(self.sandbox.get("network", False)),
            binds=tuple(self.sandbox.get("binds", ())),
            hidden=self.hidden + ((self.sign_key,) if self.sign_key is not None else ()),
            disk_mib=int(self.sandbox.get("disk_mib", DEFAULT_DISK_MIB)),
        )

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Config":
        try:
            data = dict(data)
            data["entrants"] = tuple(tuple(e) for e in data["entrants"])
            return Config(**data)
        except (KeyError, TypeError, ValueError) as err:
            raise UsageError(f"not a tournament configuration: {err}") from None

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.entrants]

    def entrant(self, index: int) -> Entrant:
        name, spec = self.entrants[index]
        return Entrant.of(name, spec, self.entrant_settings.get(name, {}))

    def schedule(self) -> list[MatchPlan]:
        spec = registry.get(self.game)
        return list(
            plan(len(self.entrants), self.players, spec.teams(self.players), self.deal_sets, self.seed,
                 self.duplicate, self.permutations, self.gauntlet_index)
        )

    @property
    def gauntlet_index(self) -> int | None:
        """The index of the gauntlet's entrant, or None (a name that is no entrant's is refused
        when the configuration is made or loaded)."""
        return None if self.gauntlet is None else self.names.index(self.gauntlet)


class BotPool:
    """Bot processes per entrant, kept alive between matches (unless asked otherwise).

    Built-in players are made afresh for each match, seeded from that match, so their play does
    not depend on which matches a worker happened to run. With duplicate deals, no bot process
    plays two rotations of one deal set: a process that has played a deal set is ended before
    it would meet it again, and a fresh one takes its seat (a bot that remembered its hands
    would otherwise know every other seat's). In the sandbox its scratch directory goes with it.
    """

    def __init__(self, config: Config, stderr_dir: Path | None = None):
        self.config = config
        self.stderr_dir = stderr_dir
        """Where each bot process's stderr is saved (``--bot-stderr``), or None."""
        self.started = 0
        self.idle: dict[int, list[Seat]] = {}
        self.limits = Limits(**config.limits)
        self.sandbox = resolve(config.sandbox_policy())
        self.seen: dict[int, set[int]] = {}
        """id of a live bot → the deal sets it has played."""

    def seats_for(self, match: MatchPlan) -> list[Seat]:
        self._end_remembering(match)
        seats = []
        taken: dict[int, int] = {}
        for seat, entrant in enumerate(match.seating):
            pool = self.idle.get(entrant, [])
            k = taken.get(entrant, 0)
            ready = [s for s in pool if s.usable and not self._remembers(s, match)]
            if k < len(ready) and self.config.keep_alive:
                bot = ready[k]
            else:
                bot = self._new_bot(self.config.entrant(entrant), seat, match)
            taken[entrant] = k + 1
            self.seen.setdefault(id(bot), set()).add(match.deal_set)
            seats.append(bot)
        return seats

    def _end_remembering(self, match: MatchPlan) -> None:
        """End, before new bots are started, the kept-alive bots of this match's entrants that
        have played its deal set: what a bot held is given back before a fresh one asks for
        the same (a remote entrant's connection above all, which its fresh bot will need)."""
        if not self.config.duplicate:
            return
        ended = []
        for entrant in set(match.seating):
            pool = self.idle.get(entrant, [])
            ended += [bot for bot in pool if self._remembers(bot, match)]
            self.idle[entrant] = [bot for bot in pool if not self._remembers(bot, match)]
        if ended:
            self._end(ended, float(self.config.settings.get("quit_grace", 2.0)))

    def _new_bot(self, entrant: Entrant, seat: int, match: MatchPlan) -> Seat:
        """A fresh seat for ``entrant``, named by its name wherever a seat names itself:
        ``label``, which the referee shows and records for a bot that has not (yet) said
        ``id name`` (one that fails at its start above all), and ``tag``, which names its
        control group and its log lines. Otherwise ``make_seat`` names it by its spec, for a
        bot program a command line that may run to hundreds of characters, and by the seat it
        was made for, which a kept-alive bot soon leaves. It starts where its entrant says
        (an entrants file's ``dir`` and ``env``) and is set its entrant's options."""
        name = entrant.name
        bot = make_seat(entrant.spec, seat, match.seed, None, self.limits, salt=f"/{name}", sandbox=self.sandbox,
                        remote=self.config.remote, launch=entrant.launch)
        bot.options_asked = entrant.options
        bot.label = name
        bot.tag = display_name(name)
        if isinstance(bot, ProcessSeat) and self.stderr_dir is not None:
            self.started += 1
            bot.stderr_path = self.stderr_dir / stderr_file_name(name, match.index, self.started)
        return bot

    def _remembers(self, bot: Seat, match: MatchPlan) -> bool:
        return self.config.duplicate and match.deal_set in self.seen.get(id(bot), ())

    def release(self, match: MatchPlan, seats: Sequence[Seat]) -> None:
        quit_grace = float(self.config.settings.get("quit_grace", 2.0))
        ended = [bot for entrant in set(match.seating) for bot in self.idle.get(entrant, []) if bot not in seats]
        for entrant in set(match.seating):
            self.idle[entrant] = []
        for entrant, bot in zip(match.seating, seats):
            if bot.kind in KEPT_KINDS and bot.usable and self.config.keep_alive:
                self.idle[entrant].append(bot)
            else:
                ended.append(bot)
        self._end(ended, quit_grace)

    def close(self) -> None:
        """End every bot: this pool plays no more matches."""
        quit_grace = float(self.config.settings.get("quit_grace", 2.0))
        self._end([bot for bots in self.idle.values() for bot in bots], quit_grace, last=True)
        self.idle = {}

    def _end(self, bots: list[Seat], quit_grace: float, last: bool = False) -> None:
        close_all(bots, quit_grace, last)
        for bot in bots:
            self.seen.pop(id(bot), None)


def stderr_file_name(entrant: str, match: int, number: int) -> str:
    """The name of one bot process's stderr file: the entrant (reduced to characters every
    file system takes), the match it started for, and the worker's process id and count, so
    that no two processes of a run, in whichever worker, ever write the same file."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in entrant)[:40].lstrip(".") or "bot"
    return f"{safe}.match-{match}.{os.getpid()}-{number}.stderr"


@attrs.frozen
class Finished:
    """A finished match on its way to the records file: the record as its JSON line, written
    where the match was played (in parallel, in a worker), and the fields progress reports
    read. The parent process then only appends a string."""

    line: str
    head: dict[str, Any]
    bundles: tuple[Bundle, ...] = ()
    """The failure bundles of the match's faulty bots, stored beside the record."""

    @classmethod
    def of(cls, record: dict[str, Any], bundles: tuple[Bundle, ...] = ()) -> "Finished":
        head = {k: record[k] for k in ("status", "result", "tournament")}
        head["undeclared"] = [list(found) for found in records.undeclared_options(record)]
        return cls(dump(record), head, bundles)


def run_one(config: Config, match: MatchPlan, pool: BotPool) -> Finished:
    """Play one scheduled match; its record is tagged with its place in the schedule and
    comes with a failure bundle for each bot that faulted in it."""
    setup = registry.resolve(config.game, config.variant, config.options, config.players, match.seed)
    seats = pool.seats_for(match)
    try:
        result = play_match(setup, seats, Settings(**config.settings), close=False)
    finally:
        pool.release(match, seats)
    record = result.record
    tag = {
        "index": match.index,
        "key": match.key,
        "deal_set": match.deal_set,
        "rotation": match.rotation,
        "seating": list(match.seating),
        "entrants": [config.names[e] for e in match.seating],
    }
    record["tournament"] = tag
    if config.sign_key is not None:
        sign_in_place(record, config.sign_key)  # here, in the worker: the key was read at the start
    return Finished.of(record, make_bundles(record, seats) if record["faults"] else ())


def sign_in_place(record: dict[str, Any], key_path: str) -> None:
    """Sign a tagged record, tag included. The tag stays the last field: _schedule_index
    reads it alone from the end of a line."""
    tag = record["tournament"]
    signature = signing.sign(record, signing.private_key(key_path))
    del record["tournament"]
    record["signature"] = signature
    record["tournament"] = tag


def signed_here(finished: Finished, key_path: str) -> Finished:
    """A record played elsewhere (a cluster's worker, which does not hold the key) signed in
    this process."""
    record = records.load_json(finished.line.encode("utf-8"))
    sign_in_place(record, key_path)
    return Finished(dump(record), finished.head, finished.bundles)


# -- the tournament directory ---------------------------------------------------------------


def create(directory: Path, config: Config) -> None:
    if (directory / CONFIG).exists():
        raise UsageError(f"{directory} already holds a tournament; continue it with --resume {directory}")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CONFIG).write_text(json.dumps(config.to_json(), indent=2) + "\n")


def load(directory: Path) -> Config:
    """The tournament's configuration, read within the records' bounds and checked field by
    field (:func:`cardcli.record_shape.config_problem`): a damaged ``config.json`` is a
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
    ``repair``, by :func:`cardcli.records.repair_tail`, as ``play --record`` does; a reader
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
        limit = records.limit_for(load(directory).settings.get("max_deals", Settings().max_deals))
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


def records_in_order(directory: Path, done: dict[int, int]) -> Iterator[dict[str, Any]]:
    """The finished records in schedule order, read one at a time (memory stays flat).

    Each goes through the records' one reader (:func:`cardcli.records.decode`) and is matched
    with its place in this tournament's schedule (index, seating, game), so the table only
    meets records it can fold; anything else is a RecordError naming the line."""
    if not done:
        return
    config = load(directory)
    schedule = config.schedule()
    limit = records.limit_for(config.settings.get("max_deals", Settings().max_deals))
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
                record = records.decode(raw)
                tag = record.get("tournament")
                if tag is None or tag["index"] != index or index >= len(schedule):
                    raise records.LineError("not a record of this tournament's schedule")
                if record["game"] != config.game or tag["seating"] != list(schedule[index].seating):
                    raise records.LineError(f"not match {index} of this tournament (another game or seating)")
            except records.LineError as err:
                raise RecordError(f"{path}:{records.line_number(path, done[index])}: {err}") from None
            yield record


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int, int, dict[str, Any]], None]


def run(directory: Path, config: Config, jobs: int, progress: Progress, stderr_dir: Path | None = None,
        started: Callable[[], None] | None = None, cluster: ClusterRun | None = None,
        watch: SprtWatch | None = None) -> None:
    """Play every match of the schedule that has no record yet; with ``stderr_dir``, every
    bot process's stderr is saved there (as the referee's own path, no bot can see it).
    ``started`` is called once the workers exist and before the first match: what runs
    threads in this process (the remote bots' listener) starts there, after every fork.
    With ``cluster`` (opened), the matches are tasks on a Dask cluster instead (:mod:`.cluster`).
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
        if watch is not None and watch.add(records.load_json(finished.line.encode("utf-8"))):
            raise Decided("the sequential test has decided")

    try:
        _play(config, pending, jobs, store, stderr_dir, started, cluster)
    except Decided:
        pass


def _play(config: Config, pending: list[MatchPlan], jobs: int, store: Callable[[Finished], None],
          stderr_dir: Path | None, started: Callable[[], None] | None, cluster: ClusterRun | None) -> None:
    """Play ``pending`` with the executor asked for, storing each result as it comes."""
    if cluster is not None:
        if pending:
            key = config.sign_key
            # the workers do not hold the signing key: the records are signed here, as they arrive
            cluster.play(attrs.evolve(config, sign_key=None), pending,
                         store if key is None else (lambda finished: store(signed_here(finished, key))))
        return
    if jobs <= 1 or len(pending) <= 1:
        if started is not None:
            started()
        pool = BotPool(config, stderr_dir)
        try:
            for match in pending:
                store(run_one(config, match, pool))
        finally:
            pool.close()
        return
    _run_parallel(config, pending, min(jobs, len(pending)), store, stderr_dir, started)


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


def _run_parallel(config: Config, pending: list[MatchPlan], jobs: int, store: Callable[[Finished], None],
                  stderr_dir: Path | None = None, started: Callable[[], None] | None = None) -> None:
    """Play ``pending`` in ``jobs`` worker processes, in the order of the list, and store each
    record as it arrives. Each worker has a pipe of its own; it is given its next match when it
    sends a result. Whatever stops the parent (the end of the schedule, Ctrl-C, SIGTERM, a
    failed worker), the workers are ended with their bots before this returns or raises."""
    context = multiprocessing.get_context(_START_METHOD)
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
            worker = context.Process(target=_worker, args=(config, child_end, os.getpid(), inherited, stderr_dir),
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
                k = watched.get(obj)
                if k is None:
                    continue
                if obj is ends[k]:
                    take(k)
                    continue
                del watched[obj]
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
        _stop_workers(workers, ends, completed, float(config.settings.get("quit_grace", 2.0)))
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


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _hold_stop_signals() -> set[int] | None:
    """Hold Ctrl-C and SIGTERM back while workers start, so that a worker never receives one
    before it has set its own handlers (it would die with a traceback, or run the parent's
    handler). Returns the mask to restore; None where signal masks do not exist."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS))


def _release_stop_signals(mask: set[int] | None) -> None:
    """Restore the mask; a signal held back meanwhile is delivered now."""
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Make this worker receive SIGTERM when its parent dies, however it dies (SIGKILL
    included), so that no worker goes on playing matches nobody records. On Linux the kernel
    does it (``prctl(PR_SET_PDEATHSIG)``); the parent may already have died before the call,
    so the parent is checked right after it, and a worker that lost its parent stops at once.
    (The kernel watches the thread that forked the worker: workers are started from the
    parent's main thread, which lives as long as the parent.) Elsewhere the worker notices
    when its pipe to the parent ends, at the end of its current match at the latest."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the pipe is the only watch
    if os.getppid() != parent:
        sys.exit(143)


def _worker(config: Config, conn: multiprocessing.connection.Connection, parent: int,
            inherited: Sequence[multiprocessing.connection.Connection], stderr_dir: Path | None = None) -> None:
    """A worker process: plays the matches its parent sends, one at a time, with its own bot
    processes, and ends them all when it is done, told to stop (SIGTERM), or orphaned.

    ``inherited`` are the parent's ends of the workers' pipes, copied into this process by
    fork; closing them here leaves the parent the only holder of each, so that every worker
    sees its pipe end when the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    grace = float(config.settings.get("quit_grace", 2.0))
    signal.signal(signal.SIGTERM, lambda *_: _worker_stopped(grace))
    for end in inherited:
        end.close()
    _die_with_parent(parent)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    pool = BotPool(config, stderr_dir)
    try:
        while True:
            try:
                match = conn.recv()
            except (EOFError, ConnectionResetError):
                break  # the parent is gone
            if match is None:
                break
            try:
                conn.send(run_one(config, match, pool))
            except (BrokenPipeError, ConnectionResetError):
                break
    finally:
        pool.close()


def _worker_stopped(grace: float) -> None:
    """SIGTERM in a worker: stop playing and close the bots on the way out. A second SIGTERM
    cannot cut that short; should closing hang, SIGALRM (whose default is to end the process)
    ends the worker a few seconds after the bots' quit grace."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if hasattr(signal, "alarm"):
        signal.alarm(math.ceil(grace) + 5)
    sys.exit(143)


def progress_printer(stream: Any, names: Sequence[str]) -> Progress:
    """Live progress: one updating line on a terminal, plain parseable lines otherwise."""
    started = time.monotonic()
    wins = {n: 0 for n in names}
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
