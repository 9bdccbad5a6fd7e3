"""Running a tournament: matches in order or in parallel worker processes, bots kept alive
between matches, every finished match appended durably, and resuming where a run stopped.

A tournament lives in a directory: ``config.json`` (everything needed to rebuild the
schedule) and ``records.jsonl`` (one record per finished match, in finishing order, each
carrying its place in the schedule). Resuming reruns exactly the matches without a record.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import attrs

from ..errors import RecordError, UsageError
from ..games import registry
from ..records import append_line, dump
from ..referee import Settings, play_match
from ..seats.base import Seat, close_all
from ..seats.limits import Limits
from ..seats.spec import make_seat
from .schedule import MatchPlan, plan

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

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["entrants"] = [list(e) for e in self.entrants]
        return data

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

    def schedule(self) -> list[MatchPlan]:
        spec = registry.get(self.game)
        return list(
            plan(len(self.entrants), self.players, spec.teams(self.players), self.deal_sets, self.seed,
                 self.duplicate, self.permutations)
        )


class BotPool:
    """Bot processes per entrant, kept alive between matches (unless asked otherwise).

    Built-in players are made afresh for each match, seeded from that match, so their play does
    not depend on which matches a worker happened to run.
    """

    def __init__(self, config: Config):
        self.config = config
        self.idle: dict[int, list[Seat]] = {}
        self.limits = Limits(**config.limits)

    def seats_for(self, match: MatchPlan) -> list[Seat]:
        seats = []
        taken: dict[int, int] = {}
        for seat, entrant in enumerate(match.seating):
            name, spec = self.config.entrants[entrant]
            pool = self.idle.get(entrant, [])
            k = taken.get(entrant, 0)
            ready = [s for s in pool if s.usable]
            if k < len(ready) and self.config.keep_alive:
                bot = ready[k]
            else:
                bot = make_seat(spec, seat, match.seed, None, self.limits, salt=f"/{name}")
                bot.label = name
            taken[entrant] = k + 1
            seats.append(bot)
        return seats

    def release(self, match: MatchPlan, seats: Sequence[Seat]) -> None:
        quit_grace = float(self.config.settings.get("quit_grace", 2.0))
        for entrant in set(match.seating):
            self.idle[entrant] = []
        ended = []
        for entrant, bot in zip(match.seating, seats):
            if bot.kind == "process" and bot.usable and self.config.keep_alive:
                self.idle[entrant].append(bot)
            else:
                ended.append(bot)
        close_all(ended, quit_grace)

    def close(self) -> None:
        quit_grace = float(self.config.settings.get("quit_grace", 2.0))
        close_all([bot for bots in self.idle.values() for bot in bots], quit_grace)
        self.idle = {}


@attrs.frozen
class Finished:
    """A finished match on its way to the records file: the record as its JSON line, written
    where the match was played (in parallel, in a worker), and the fields progress reports
    read. The parent process then only appends a string."""

    line: str
    head: dict[str, Any]

    @classmethod
    def of(cls, record: dict[str, Any]) -> "Finished":
        head = {k: record[k] for k in ("status", "result", "tournament")}
        return cls(dump(record), head)


def run_one(config: Config, match: MatchPlan, pool: BotPool) -> dict[str, Any]:
    """Play one scheduled match and return its record, tagged with its place in the schedule."""
    setup = registry.resolve(config.game, config.variant, config.options, config.players, match.seed)
    seats = pool.seats_for(match)
    try:
        result = play_match(setup, seats, Settings(**config.settings), close=False)
    finally:
        pool.release(match, seats)
    record = result.record
    record["tournament"] = {
        "index": match.index,
        "key": match.key,
        "deal_set": match.deal_set,
        "rotation": match.rotation,
        "seating": list(match.seating),
        "entrants": [config.names[e] for e in match.seating],
    }
    return record


# -- the tournament directory ---------------------------------------------------------------


def create(directory: Path, config: Config) -> None:
    if (directory / CONFIG).exists():
        raise UsageError(f"{directory} already holds a tournament; continue it with --resume {directory}")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CONFIG).write_text(json.dumps(config.to_json(), indent=2) + "\n")


def load(directory: Path) -> Config:
    path = directory / CONFIG
    if not path.exists():
        raise UsageError(f"{directory} holds no tournament ({CONFIG} is missing)")
    try:
        return Config.from_json(json.loads(path.read_text()))
    except json.JSONDecodeError as err:
        raise UsageError(f"{path}: not JSON ({err})") from None


def finished(directory: Path, repair: bool = True) -> dict[int, int]:
    """Schedule index → byte offset of every finished match in the records file. A torn last
    line (a run killed while writing) is cut off so that its match is played again (with
    ``repair``; a reader watching a running tournament leaves it alone)."""
    path = directory / RECORDS
    done: dict[int, int] = {}
    if not path.exists():
        return done
    good_end = 0
    with open(path, "rb") as f:
        offset = 0
        for raw in f:
            if not raw.endswith(b"\n"):
                break
            index = _schedule_index(raw)
            if index is None:
                raise RecordError(f"{path}: a line that is not a tournament record at byte {offset}")
            done[index] = offset
            offset += len(raw)
            good_end = offset
    if repair and good_end != path.stat().st_size:
        with open(path, "r+b") as f:
            f.truncate(good_end)
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
    """The integer ``index`` of the JSON object ``text`` (under the keys ``path``), or None."""
    try:
        data = json.loads(text)
        for key in path:
            data = data[key]
        index = data["index"]
    except (ValueError, KeyError, TypeError):
        return None
    return index if type(index) is int else None


def finished_read_only(directory: Path) -> dict[int, int]:
    return finished(directory, repair=False)


def records_in_order(directory: Path, done: dict[int, int]) -> Iterator[dict[str, Any]]:
    """The finished records in schedule order, read one at a time (memory stays flat)."""
    with open(directory / RECORDS, "rb") as f:
        for index in sorted(done):
            f.seek(done[index])
            yield json.loads(f.readline())


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int, int, dict[str, Any]], None]


def run(directory: Path, config: Config, jobs: int, progress: Progress) -> None:
    """Play every match of the schedule that has no record yet."""
    done = finished(directory)
    schedule = config.schedule()
    pending = [m for m in schedule if m.index not in done]
    total, count = len(schedule), len(done)
    path = directory / RECORDS

    def store(finished: Finished) -> None:
        nonlocal count
        append_line(path, finished.line)
        count += 1
        progress(count, total, finished.head)

    if jobs <= 1 or len(pending) <= 1:
        pool = BotPool(config)
        try:
            for match in pending:
                store(Finished.of(run_one(config, match, pool)))
        finally:
            pool.close()
        return
    _run_parallel(config, pending, min(jobs, len(pending)), store)


_START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"
"""How workers start. On Linux a forked worker starts at once with everything imported, where
a spawned one starts a new interpreter and imports the package again (0.3 s or more of a
short tournament, and work the -j 1 run never does); the parent holds no threads and no bot
processes at that point, which is what makes forking safe. Elsewhere (macOS, Windows) spawn
is the safe choice, as Python itself decides."""


def _run_parallel(config: Config, pending: list[MatchPlan], jobs: int, store: Callable[[Finished], None]) -> None:
    context = multiprocessing.get_context(_START_METHOD)
    tasks = context.Queue()
    results = context.Queue()
    for match in pending:
        tasks.put(match)
    for _ in range(jobs):
        tasks.put(None)
    workers = [context.Process(target=_worker, args=(config, tasks, results), daemon=True) for _ in range(jobs)]
    for w in workers:
        w.start()
    try:
        for _ in pending:
            while True:
                try:
                    outcome = results.get(timeout=1.0)
                    break
                except queue.Empty:
                    failed = [w.exitcode for w in workers if w.exitcode not in (None, 0)]
                    if failed:
                        raise RecordError(f"a tournament worker stopped with status {failed[0]}") from None
            store(outcome)
    finally:
        for w in workers:
            if w.is_alive():
                w.terminate()
        for w in workers:
            w.join(timeout=30)


def _worker(config: Config, tasks: Any, results: Any) -> None:
    """A worker process: plays matches from the queue with its own bot processes, and ends them
    all when it is done or told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pool = BotPool(config)
    try:
        while (match := tasks.get()) is not None:
            results.put(Finished.of(run_one(config, match, pool)))
    finally:
        pool.close()


def progress_printer(stream: Any, names: Sequence[str]) -> Progress:
    """Live progress: one updating line on a terminal, plain parseable lines otherwise."""
    started = time.monotonic()
    wins = {n: 0 for n in names}
    tty = hasattr(stream, "isatty") and stream.isatty()

    def show(done: int, total: int, record: dict[str, Any]) -> None:
        result = record.get("result") or {}
        for seat in result.get("winners", []):
            wins[record["tournament"]["entrants"][seat]] += 1
        leader = max(wins, key=lambda n: (wins[n], n)) if any(wins.values()) else "-"
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
