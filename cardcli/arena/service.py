"""``arena serve``'s loop: schedule units, claim them, play their matches through a tournament
executor, commit the records, disable bots that keep faulting, and refresh the standings.

A batch of claimed units is played as one tournament configuration whose entrants are the
batch's (:func:`batch`): the executors (this machine's workers, or a Dask cluster) then play
arena matches exactly as they play a tournament's, bot pools, sandbox and limits included.
Each record arrives in this process, where it is committed before anything counts it.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

import attrs

from ..games import registry
from ..safe_text import printable
from ..tournament.config import Config
from ..tournament.executor import Executor
from ..tournament.schedule import MatchPlan, plan
from ..tournament.worker import Finished
from . import ladder
from .store import LADDER, EntrantKind, EntrantRow, NewMatch, Store, UnitRow
from .table import SeasonTable
from .workers import IN_FLIGHT, Job, Unplayable, Wire, Workers

if TYPE_CHECKING:
    from ..remote.hub import Listener
    from ..remote.seat import RemoteContext

UNVERSIONED = "unversioned"
"""The version label of a bot that does not say ``id version``."""


@attrs.frozen
class Policy:
    """The organiser's knobs (``arena serve`` options), with the defaults ``docs/arena.md``
    explains."""

    lease: float = 60.0
    """Seconds after which a unit claimed by a silent server is another server's to play."""
    fault_window: int = 50
    """The recent matches a bot's fault rate is measured over."""
    fault_rate: float = 0.1
    """A bot that faults in more than this share of its recent matches is disabled..."""
    fault_minimum: int = 5
    """...once it has faulted in at least this many (one early crash disables nobody)."""
    standings_every: float = 5.0
    """Seconds between two refreshes of the standings while matches are played."""
    batch_units: int = 0
    """Units claimed at once (0: :data:`UNITS_PER_JOB` per job)."""
    admit_every: float = 2.0
    """Seconds between two readings of the remote entrants' tokens and states."""
    commit_every: float = 0.1
    """Seconds a finished match may wait for others to be committed with it."""


DEFAULT_POLICY = Policy()

UNITS_PER_JOB = 2
"""Units claimed per job at once. This machine's workers are handed the next batch while they
play the last (:meth:`Service.step`); a cluster's executor plays a batch at a time, and waits
between two while the server schedules and claims."""


@attrs.frozen
class _Finished:
    """A finished match waiting for its commit, with what counting it needs."""

    match: NewMatch
    slot: Slot
    head: dict[str, Any]
    entrants: dict[int, EntrantRow]


@attrs.frozen
class Slot:
    """Where a planned match belongs: its unit, rotation and the entrant in each seat."""

    unit: UnitRow
    rotation: int
    entrants: tuple[int, ...]


def batch(store: Store, units: Sequence[UnitRow], entrants: dict[int, EntrantRow],
          remote: RemoteContext | None = None, hidden: tuple[str, ...] = ()
          ) -> tuple[Config, list[MatchPlan], dict[int, Slot]]:
    """One tournament configuration for ``units`` and the matches still to play: each unit's
    rotations (as :func:`cardcli.tournament.schedule.plan` makes one deal set's, from the
    unit's seed) with the seats mapped to the batch's entrants. ``hidden`` are the arena's own
    paths (its directory, its database), masked from every sandboxed bot.

    With a remote entrant among them, no bot is kept alive from one match to the next: a kept
    remote bot would hold one of its entrant's connections idle in one worker while another
    worker waits for it; each match's bot quits, and the relay connects again."""
    cfg = store.config
    order: list[int] = []
    for unit in units:
        for entrant in unit.lineup:
            if entrant not in order:
                order.append(entrant)
    index_of = {entrant: i for i, entrant in enumerate(order)}
    rows = [entrants[e] for e in order]
    config = cfg.tournament(tuple((row.name, row.spec) for row in rows), cfg.seed,
                            {row.name: {"options": row.options} for row in rows if row.options})
    if any(row.kind == EntrantKind.REMOTE for row in rows):
        config = attrs.evolve(config, keep_alive=False, remote=remote)
    config = attrs.evolve(config, hidden=hidden)
    teams = registry.get(cfg.game).teams(cfg.players)
    plans: list[MatchPlan] = []
    slots: dict[int, Slot] = {}
    played = store.played_rotations_of([unit.id for unit in units])
    for unit in units:
        for match in plan(len(unit.lineup), cfg.players, teams, 1, unit.seed):
            if match.rotation in played.get(unit.id, ()):
                continue
            seated = tuple(unit.lineup[i] for i in match.seating)
            index = len(plans)
            plans.append(attrs.evolve(match, index=index, deal_set=unit.id,
                                      seating=tuple(index_of[e] for e in seated)))
            slots[index] = Slot(unit, match.rotation, seated)
    return config, plans, slots


def rotations(store: Store, group: int) -> int:
    cfg = store.config
    return sum(1 for _ in plan(group, cfg.players, registry.get(cfg.game).teams(cfg.players), 1, 0))


@attrs.frozen
class Remote:
    """The remote entrants' side of a server: its listener (which admits the entrants' token
    hashes) and the context its workers' remote seats reach it through."""

    listener: Listener
    context: RemoteContext
    connections: int = 4
    """How many connections each remote entrant may hold (its relay's ``--concurrency``)."""

    def admit(self, entrants: Sequence[EntrantRow], hashes: dict[str, str]) -> None:
        enabled = [row.name for row in entrants if row.kind == EntrantKind.REMOTE and row.enabled]
        self.listener.admit({name: hashes[name] for name in enabled if name in hashes},
                            dict.fromkeys(enabled, self.connections))


class LiveGames(Protocol):
    """The spectators' side of a server (:class:`cardcli.arena.live.LiveHub`): how much of each
    match in progress is watched, named ``UNIT-ROTATION``, and what its worker told of it."""

    def level(self, key: str) -> int: ...

    def publish(self, key: str, info: Mapping[str, Any], events: Sequence[Wire]) -> None: ...

    def summary(self, key: str, info: Mapping[str, Any], lines: Sequence[str]) -> None: ...

    def ended(self, key: str) -> None: ...


def live_key(slot: Slot) -> str:
    """A match in progress's name for its spectators: it has no id until it is stored."""
    return f"{slot.unit.id}-{slot.rotation}"


@attrs.frozen(eq=False)
class _Watch:
    """A batch's matches in progress, named and described for the live games (with their unit's
    number of rotations, which the hub's duplicate gate waits for)."""

    live: LiveGames
    slots: dict[int, Slot]
    entrants: dict[int, EntrantRow]
    game: tuple[str, str]

    def level(self, match: MatchPlan) -> int:
        return self.live.level(live_key(self.slots[match.index]))

    def info(self, match: MatchPlan) -> dict[str, Any]:
        slot = self.slots[match.index]
        playing = {other.rotation for other in self.slots.values() if other.unit.id == slot.unit.id}
        return {"id": live_key(slot), "unit": slot.unit.id, "rotation": slot.rotation,
                "rotations": slot.unit.rotations, "game": self.game[0], "variant": self.game[1],
                "seats": [self.entrants[e].name for e in slot.entrants],
                # stored before this batch (a unit given back and claimed again): over, for the gate
                "stored": [r for r in range(slot.unit.rotations) if r not in playing]}

    def events(self, match: MatchPlan, events: Sequence[Wire]) -> None:
        self.live.publish(live_key(self.slots[match.index]), self.info(match), events)

    def summary(self, match: MatchPlan, lines: Sequence[str]) -> None:
        self.live.summary(live_key(self.slots[match.index]), self.info(match), lines)

    def ended(self, match: MatchPlan) -> None:
        self.live.ended(live_key(self.slots[match.index]))


class Service:
    """One ``serve`` process's work over the arena's database."""

    def __init__(self, store: Store, executor: Executor, policy: Policy = DEFAULT_POLICY, jobs: int = 1,
                 remote: Remote | None = None,
                 report: Callable[[str], None] | None = None, server: str | None = None, kind: str = LADDER,
                 hidden: Sequence[str] = (), live: LiveGames | None = None):
        self.store = store
        self.live = live
        """The live games' hub, told of the matches in progress as much as they are watched
        (this machine's workers only: a cluster's matches are not watched live)."""
        self.hidden = tuple(hidden)
        """The arena's own paths, which no bot may see (:func:`batch`)."""
        self.kind = kind
        """The units this service plays: the ladder's (which it schedules), or a finals' (made
        beforehand, :mod:`.finals`)."""
        self.executor = executor
        self.policy = policy
        self.jobs = max(1, jobs)
        self.remote = remote
        self.report = report or (lambda text: None)
        self.server = server or uuid.uuid4().hex[:16]
        self.stop = threading.Event()
        self.stored = 0
        self._standings_due = 0.0
        self._dirty = False
        self.table = SeasonTable(kind)
        """The standings, folded as matches are stored."""
        self._versions: dict[tuple[int, str], int] = {}
        """(entrant id, label) → version id, as the store gave them."""
        self._counts: dict[int, tuple[int, float]] = {}
        """Entrant id → units it is in, and when the last was made."""
        self._last_unit = 0
        self._finished: list[_Finished] = []
        """Finished matches not yet committed (:meth:`flush`)."""
        self._first_finished = 0.0

    # -- the loop ---------------------------------------------------------------------------

    def run(self, until: Callable[[], bool] | None = None, idle: float = 0.5) -> None:
        """Play until :attr:`stop` is set (or ``until()`` says so): schedule, claim, play,
        store. At a stop asked by ``until``, the matches under way are finished and stored;
        the units this server holds are given back on the way out, however it ends."""
        self.refresh_standings()  # the ladder schedules by the ratings: fold the season so far first
        renewing = threading.Thread(target=self._renew, name="arena-lease", daemon=True)
        renewing.start()
        if self.remote is not None:
            threading.Thread(target=self._admit, name="arena-admit", daemon=True).start()
        try:
            while not self.stop.is_set() and not (until is not None and until()):
                if not self.step():
                    self.stop.wait(idle)
            if isinstance(self.executor, Workers):
                self.executor.drain()
        finally:
            self.stop.set()
            self.flush()
            self.store.release(self.server)
            self.refresh_standings()

    def step(self) -> bool:
        """Keep the workers fed: claim and hand over the next units while the last are played
        (with this machine's workers), or play one batch (an executor that only blocks, such
        as a cluster's). False when there was nothing to play."""
        workers = self.executor if isinstance(self.executor, Workers) else None
        claimed = False
        if workers is None or workers.waiting < IN_FLIGHT * self.jobs:
            claimed = self._claim_and_play()
        if workers is not None and workers.busy:
            wait = 0.25
            if self._finished:
                wait = max(0.0, min(wait, self._first_finished + self.policy.commit_every - time.monotonic()))
            workers.pump(wait)
        if self._commit_due() or (self._finished and not (workers is not None and workers.busy)):
            self.flush()
        if self._dirty and time.time() >= self._standings_due:
            self.refresh_standings()
        return claimed or (workers is not None and workers.busy > 0)

    def _claim_and_play(self) -> bool:
        """Schedule, claim a batch of units and hand their matches over; False when there was
        none."""
        entrants = {row.id: row for row in self.store.entrants()}
        if self.kind == LADDER:
            self.schedule(entrants)
        units = []
        for unit in self.store.claim(self.server, self.batch_units, self.policy.lease, kind=self.kind):
            if self._playable(unit, entrants):
                units.append(unit)
        if not units:
            return False
        config, plans, slots = batch(self.store, units, entrants,
                                     self.remote.context if self.remote is not None else None, self.hidden)
        if plans:
            store = lambda finished: self.store_finished(finished, slots, entrants)  # noqa: E731
            if isinstance(self.executor, Workers):
                watch = None if self.live is None else _Watch(
                    self.live, slots, entrants, (self.store.config.game, self.store.config.variant))
                self.executor.submit(Job(config, store, self._may_start(config),
                                         lambda failed: self._unplayable(failed, slots), watch), plans)
            else:
                self.executor.play(config, plans, store)
                self.flush()
        return True

    def _playable(self, unit: UnitRow, entrants: dict[int, EntrantRow]) -> bool:
        """Whether a claimed unit can be played now; a ladder's unit whose entrant was disabled
        or whose remote bot went away since it was made is dropped (a finals waits for its
        finalists, as a tournament does)."""
        gone = [entrants[e].name for e in unit.lineup if not (entrants[e].enabled and self.available(entrants[e]))]
        if not gone or self.kind != LADDER:
            return True
        self.store.drop(unit.id)
        self.report(f"unit {unit.id} dropped: {', '.join(gone)} no longer available")
        return False

    def _unplayable(self, failed: Unplayable, slots: dict[int, Slot]) -> None:
        """A match that could not start: its unit is dropped (the ladder makes others)."""
        slot = slots[failed.index]
        self.store.drop(slot.unit.id)
        self.report(f"unit {slot.unit.id} dropped: {failed.reason}")

    @property
    def batch_units(self) -> int:
        return self.policy.batch_units or UNITS_PER_JOB * self.jobs

    def available(self, row: EntrantRow) -> bool:
        """Whether an entrant can be scheduled now: a program always, a remote bot while it
        holds a connection."""
        if row.kind == EntrantKind.PROGRAM:
            return True
        return self.remote is not None and self.remote.listener.sessions(row.name) > 0

    def _may_start(self, config: Config) -> Callable[[MatchPlan, Sequence[MatchPlan]], bool]:
        """A match may start when each remote entrant in it holds a connection for each of its
        seats beyond the seats it fills in the matches under way."""
        remote = {i for i, (name, spec) in enumerate(config.entrants) if spec.startswith("remote:")}
        if not remote or self.remote is None:
            return lambda match, running: True
        listener = self.remote.listener

        def may_start(match: MatchPlan, running: Sequence[MatchPlan]) -> bool:
            for e in remote & set(match.seating):
                busy = sum(m.seating.count(e) for m in running)
                if busy + match.seating.count(e) > listener.sessions(config.entrants[e][0]):
                    return False
            return True

        return may_start

    def _admit(self) -> None:
        """Keep the listener's list of remote entrants current, apart from the matches: a new
        token or a disabled entrant takes effect within :attr:`Policy.admit_every` seconds,
        even while a long batch is played."""
        assert self.remote is not None
        while True:
            self.remote.admit(self.store.entrants(), self.store.token_hashes())
            if self.stop.wait(self.policy.admit_every):
                return

    def _renew(self) -> None:
        while not self.stop.wait(self.policy.lease / 4):
            self.store.renew(self.server)

    # -- scheduling -------------------------------------------------------------------------

    def schedule(self, entrants: dict[int, EntrantRow]) -> None:
        """Add units until twice the jobs' worth are open (pending or under way)."""
        size = self.store.config.group_size
        want = self.batch_units * 2
        open_units = self.store.open_units()
        if open_units >= want:
            return
        ready = [row for row in entrants.values() if row.enabled and self.available(row)]
        if len(ready) < 2:
            return
        self._count_units()
        ratings = self._ratings()
        latest = self.store.latest_versions()
        counted = {row.id: self._counts.get(row.id, (0, 0.0)) for row in ready}
        number = self._last_unit
        made: list[tuple[Sequence[int], Sequence[int | None], int, int | None]] = []
        for _ in range(want - open_units):
            candidates = [ladder.Candidate(row.id, counted[row.id][0], counted[row.id][1],
                                           *ratings.get(latest.get(row.id, -1), (None, None)))
                          for row in ready]
            group = ladder.next_group(candidates, size, self.store.config.seed, number)
            if not group:
                break
            number += 1
            made.append((group, [latest.get(e) for e in group], rotations(self.store, len(group)), None))
            now = time.time()
            for e in group:
                counted[e] = (counted[e][0] + 1, now)
        if made:
            self.store.add_units(LADDER, made)

    def _count_units(self) -> None:
        """Bring each entrant's count of units (and the time of its last) up to date with the
        units made since the last look, by any server."""
        for unit in self.store.units_after(self._last_unit):
            for e in set(unit.lineup):
                units, last = self._counts.get(e, (0, 0.0))
                self._counts[e] = (units + 1, max(last, unit.created))
            self._last_unit = unit.id

    def _ratings(self) -> dict[int, tuple[float, float]]:
        """Version id → (mu, sigma), as this server's standings have folded them."""
        ratings = self.table.tally.ratings
        return {version: (ratings[place].mu, ratings[place].sigma) for version, place in self.table.index.items()}

    # -- storing ----------------------------------------------------------------------------

    def store_finished(self, finished: Finished, slots: dict[int, Slot], entrants: dict[int, EntrantRow]) -> None:
        """Take one finished match: the version in each seat (what the bot said in its
        handshake), and whether it is rated (every seat's version the one scheduled: a bot
        that changed version mid-unit is not rated against its new self). It is committed
        with the others finished about the same time (:meth:`flush`), at the latest
        :attr:`Policy.commit_every` seconds after the first of them: until then it counts
        nowhere, and a server killed meanwhile plays it again after a restart."""
        head = finished.head
        slot = slots[head["tournament"]["index"]]
        seating, rated = [], True
        for seat, entrant in enumerate(slot.entrants):
            label = _label(head["versions"][seat], entrants[entrant].generation)
            version = self._versions.get((entrant, label))
            if version is None:
                version = self._versions[(entrant, label)] = self.store.version_id(entrant, label)
            scheduled = slot.unit.versions[slot.unit.lineup.index(entrant)]
            rated = rated and (scheduled is None or scheduled == version)
            seating.append(version)
        if not self._finished:
            self._first_finished = time.monotonic()
        self._finished.append(_Finished(
            NewMatch(slot.unit.id, slot.rotation, tuple(seating), finished.line, rated, tuple(head["faulted"]),
                     time.time(), tuple((b.seat, b.text) for b in finished.bundles)),
            slot, head, {e: entrants[e] for e in slot.entrants}))
        if self._commit_due():
            self.flush()

    def _commit_due(self) -> bool:
        return bool(self._finished) and time.monotonic() - self._first_finished >= self.policy.commit_every

    def flush(self) -> None:
        """Commit the finished matches taken since the last commit, in one transaction, then
        count them: fold the rated ones into the standings and apply the fault rule to the
        seats that faulted."""
        finished, self._finished = self._finished, []
        kept = [(done, stored) for done, stored in zip(finished, self.store.store_matches([f.match for f in finished]))
                if stored is not None]
        if self.kind == LADDER:
            self.table.fold(self.store, [(stored, done.slot.unit.id, done.match.seating, done.head["without_moves"])
                                         for done, stored in kept if done.match.rated])
        for done, stored in kept:
            slot = done.slot
            self.stored += 1
            self._dirty = True
            self.report(f"match {stored}: unit {slot.unit.id} rotation {slot.rotation}, "
                        f"{', '.join(done.entrants[e].name for e in slot.entrants)}: {_outcome(done.head)}")
            for entrant in {slot.entrants[seat] for seat in done.match.faulted}:
                self._check_faults(done.entrants[entrant])

    def _check_faults(self, entrant: EntrantRow) -> None:
        p = self.policy
        faulted, played = self.store.recent_faults(entrant.id, p.fault_window)
        if faulted >= p.fault_minimum and faulted > p.fault_rate * played:
            reason = f"faulted in {faulted} of its last {played} matches (the limit is {p.fault_rate:.0%})"
            self.store.set_enabled(entrant.name, False, reason)
            self.report(f"{entrant.name} disabled: {reason}")

    # -- standings --------------------------------------------------------------------------

    def refresh_standings(self) -> None:
        """Fold the matches stored since the last refresh (by any server) into the standings
        and save them. The next refresh waits at least ten times as long as this one took, so
        the standings never take more than a tenth of this process however long the season."""
        if self.kind != LADDER:
            return
        started = time.monotonic()
        self.table.catch_up(self.store)
        snapshot = self.table.snapshot(self.store)
        self.store.save_standings(snapshot, snapshot["matches"])
        self._dirty = False
        took = time.monotonic() - started
        self._standings_due = time.time() + max(self.policy.standings_every, 10 * took)


def _label(version: Any, generation: int = 0) -> str:
    """The version label of what a bot said in ``id version`` (None when it said nothing), and
    of which of its entrant's programs it is when the organiser replaced the first."""
    said = printable(str(version))[:64] if version else UNVERSIONED
    return f"{said} (program {generation + 1})" if generation else said


def _outcome(head: dict[str, Any]) -> str:
    result = head.get("result")
    if result is None:
        return str(head["status"])
    faulted = head["faulted"]
    return "scores " + " ".join(str(s) for s in result["scores"]) + (f", seat(s) {faulted} faulted" if faulted else "")

