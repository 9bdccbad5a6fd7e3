"""Where a tournament's matches are played: a pool of bots kept alive between matches, one
scheduled match played and signed, and the worker loop that plays the matches it is sent.

Every executor plays its matches here: in the runner's own process (``-j 1``), in its worker
processes (``-j N``), and in the cardcli process each Dask worker thread keeps
(:mod:`.cluster`), which runs the very loop of ``-j``.
"""

from __future__ import annotations

import ctypes
import math
import multiprocessing.connection
import os
import signal
import sys
from pathlib import Path
from typing import Any, Sequence

import attrs

from ..records import io as records
from ..records import signing
from ..games import registry
from ..records.io import dump
from ..records.model import Record
from ..referee import Listener, play_match
from ..safe_text import display_name
from ..seating import make_seat
from ..seats.base import Seat, close_all
from ..seats.guard import resolve
from ..seats.process import ProcessSeat
from .bundles import Bundle, bundles as make_bundles
from .config import Config
from .entrants import Entrant
from .schedule import MatchPlan

KEPT_KINDS = ("process", "remote")
"""The seats a tournament keeps alive from match to match: those that run a bot program."""


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
        self.limits = config.limits
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
            self._end(ended, self.config.settings.quit_grace)

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
                        remote=self.config.remote, launch=entrant.launch, label=name, tag=display_name(name),
                        options=entrant.options)
        if isinstance(bot, ProcessSeat) and self.stderr_dir is not None:
            self.started += 1
            bot.write_stderr_to(self.stderr_dir / stderr_file_name(name, match.index, self.started))
        return bot

    def _remembers(self, bot: Seat, match: MatchPlan) -> bool:
        return self.config.duplicate and match.deal_set in self.seen.get(id(bot), ())

    def release(self, match: MatchPlan, seats: Sequence[Seat]) -> None:
        quit_grace = self.config.settings.quit_grace
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
        quit_grace = self.config.settings.quit_grace
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
        # what the arena stores beside each record, so that its server need not parse it
        head["versions"] = [(seat.get("bot") or {}).get("version") for seat in record["seats"]]
        head["faulted"] = sorted({fault["seat"] for fault in record["faults"]})
        head["without_moves"] = records.without_moves(record)
        return cls(dump(record), head, bundles)


def run_one(config: Config, match: MatchPlan, pool: BotPool, listener: Listener | None = None) -> Finished:
    """Play one scheduled match; its record is tagged with its place in the schedule and
    comes with a failure bundle for each bot that faulted in it. ``listener`` is told the
    referee's events as they happen (the arena forwards them to its spectators); a
    tournament passes none."""
    setup = registry.resolve(config.game, config.variant, config.options, config.players, match.seed)
    seats = pool.seats_for(match)
    try:
        result = play_match(setup, seats, config.settings, listener, close=False)
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
    return Finished.of(record, make_bundles(Record.from_json(record), seats) if record["faults"] else ())


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


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
"""Ctrl-C and SIGTERM: a worker sets its own handling of them, and the runner holds them back
while it starts its workers."""

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


def serve(config: Config, conn: multiprocessing.connection.Connection, parent: int,
          inherited: Sequence[multiprocessing.connection.Connection], stderr_dir: Path | None = None) -> None:
    """A worker process: plays the matches its parent sends, one at a time, with its own bot
    processes, and ends them all when it is done, told to stop (SIGTERM), or orphaned.

    ``inherited`` are the parent's ends of the workers' pipes, copied into this process by
    fork; closing them here leaves the parent the only holder of each, so that every worker
    sees its pipe end when the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    grace = config.settings.quit_grace
    signal.signal(signal.SIGTERM, lambda *_: _worker_stopped(grace))
    for end in inherited:
        end.close()
    _die_with_parent(parent)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
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
