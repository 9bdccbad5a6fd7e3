"""``arena serve``'s loop: schedule units, claim them, play their matches through a tournament
executor, commit each record, disable bots that keep faulting, and refresh the standings.

A batch of claimed units is played as one tournament configuration whose entrants are the
batch's (:func:`batch`): the executors (this machine's workers, or a Dask cluster) then play
arena matches exactly as they play a tournament's, bot pools, sandbox and limits included.
Each record arrives in this process, where it is committed before anything counts it.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable, Sequence

import attrs

from ..games import registry
from ..records import io as records
from ..records.model import Record
from ..safe_text import printable
from ..tournament import results
from ..tournament.config import Config
from ..tournament.executor import Executor
from ..tournament.schedule import MatchPlan, plan
from ..tournament.worker import Finished
from . import ladder
from .store import LADDER, EntrantKind, EntrantRow, Store, UnitRow
from .workers import Unplayable, Workers

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
    """Units claimed at once (0: two per job)."""
    admit_every: float = 2.0
    """Seconds between two readings of the remote entrants' tokens and states."""


DEFAULT_POLICY = Policy()


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
    for unit in units:
        played = store.played_rotations(unit.id)
        for match in plan(len(unit.lineup), cfg.players, teams, 1, unit.seed):
            if match.rotation in played:
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


class Service:
    """One ``serve`` process's work over the arena's database."""

    def __init__(self, store: Store, executor: Executor, policy: Policy = DEFAULT_POLICY, jobs: int = 1,
                 remote: Remote | None = None,
                 report: Callable[[str], None] | None = None, server: str | None = None, kind: str = LADDER,
                 hidden: Sequence[str] = ()):
        self.store = store
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
        self._counts: dict[int, tuple[int, float]] = {}
        """Entrant id → units it is in, and when the last was made."""
        self._last_unit = 0

    # -- the loop ---------------------------------------------------------------------------

    def run(self, until: Callable[[], bool] | None = None, idle: float = 0.5) -> None:
        """Play until :attr:`stop` is set (or ``until()`` says so): schedule, claim, play,
        store; the units this server holds are given back on the way out."""
        renewing = threading.Thread(target=self._renew, name="arena-lease", daemon=True)
        renewing.start()
        if self.remote is not None:
            threading.Thread(target=self._admit, name="arena-admit", daemon=True).start()
        try:
            while not self.stop.is_set() and not (until is not None and until()):
                if not self.step():
                    self.stop.wait(idle)
        finally:
            self.stop.set()
            self.store.release(self.server)
            self.refresh_standings()

    def step(self) -> bool:
        """One batch: top the schedule up, claim units and play them. False when there was
        nothing to play."""
        entrants = {row.id: row for row in self.store.entrants()}
        if self.kind == LADDER:
            self.schedule(entrants)
        want = self.policy.batch_units or 2 * self.jobs
        units = []
        for unit in self.store.claim(self.server, want, self.policy.lease, kind=self.kind):
            ready = all(entrants[e].enabled and self.available(entrants[e]) for e in unit.lineup)
            if ready or self.kind != LADDER:  # a finals waits for its finalists, as a tournament does
                units.append(unit)
            else:  # an entrant disabled, or a remote one gone, since the unit was made
                self.store.drop(unit.id)
                gone = [entrants[e].name for e in unit.lineup if not (entrants[e].enabled and self.available(entrants[e]))]
                self.report(f"unit {unit.id} dropped: {', '.join(gone)} no longer available")
        if not units:
            return False
        config, plans, slots = batch(self.store, units, entrants,
                                     self.remote.context if self.remote is not None else None, self.hidden)
        if plans:
            store = lambda finished: self.store_finished(finished, slots, entrants)  # noqa: E731
            if isinstance(self.executor, Workers):
                self.executor.play(config, plans, store, self._may_start(config),
                                   lambda failed: self._unplayable(failed, slots))
            else:
                self.executor.play(config, plans, store)
        if self._dirty and time.time() >= self._standings_due:
            self.refresh_standings()
        return True

    def _unplayable(self, failed: Unplayable, slots: dict[int, Slot]) -> None:
        """A match that could not start: its unit is dropped (the ladder makes others)."""
        slot = slots[failed.index]
        self.store.drop(slot.unit.id)
        self.report(f"unit {slot.unit.id} dropped: {failed.reason}")

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
        want = (self.policy.batch_units or 2 * self.jobs) * 2
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
        for _ in range(want - open_units):
            candidates = [ladder.Candidate(row.id, counted[row.id][0], counted[row.id][1],
                                           *ratings.get(latest.get(row.id, -1), (None, None)))
                          for row in ready]
            group = ladder.next_group(candidates, size, self.store.config.seed, number)
            if not group:
                return
            number += 1
            self.store.add_unit("ladder", group, [latest.get(e) for e in group], rotations(self.store, len(group)))
            now = time.time()
            for e in group:
                counted[e] = (counted[e][0] + 1, now)

    def _count_units(self) -> None:
        """Bring each entrant's count of units (and the time of its last) up to date with the
        units made since the last look, by any server."""
        for unit in self.store.units_after(self._last_unit):
            for e in set(unit.lineup):
                units, last = self._counts.get(e, (0, 0.0))
                self._counts[e] = (units + 1, max(last, unit.created))
            self._last_unit = unit.id

    def _ratings(self) -> dict[int, tuple[float, float]]:
        """Version id → (mu, sigma) from the latest standings."""
        table = self.store.standings()
        if table is None:
            return {}
        return {row["version_id"]: (row["rating"], row["rating_ci"] / 1.96) for row in table.get("rows", [])}

    # -- storing ----------------------------------------------------------------------------

    def store_finished(self, finished: Finished, slots: dict[int, Slot], entrants: dict[int, EntrantRow]) -> None:
        """Commit one finished match: its record line, the version in each seat (what the bot
        said in its handshake), whether it is rated (every seat's version the one scheduled:
        a bot that changed version mid-unit is not rated against its new self), then the
        fault rule for the seats that faulted."""
        record = records.load_json(finished.line.encode("utf-8"))
        slot = slots[record["tournament"]["index"]]
        seating, rated = [], True
        for seat, entrant in enumerate(slot.entrants):
            label = _label(record["seats"][seat])
            version = self.store.version_id(entrant, label)
            scheduled = slot.unit.versions[slot.unit.lineup.index(entrant)]
            rated = rated and (scheduled is None or scheduled == version)
            seating.append(version)
        faulted = sorted({fault["seat"] for fault in record["faults"]})
        stored = self.store.store_match(slot.unit.id, slot.rotation, seating, finished.line, rated, faulted)
        if stored is None:
            return
        self.stored += 1
        self._dirty = True
        names = [entrants[e].name for e in slot.entrants]
        self.report(f"match {stored}: unit {slot.unit.id} rotation {slot.rotation}, "
                    f"{', '.join(names)}: {_outcome(record)}")
        for entrant in {slot.entrants[seat] for seat in faulted}:
            self._check_faults(entrants[entrant])

    def _check_faults(self, entrant: EntrantRow) -> None:
        p = self.policy
        faulted, played = self.store.recent_faults(entrant.id, p.fault_window)
        if faulted >= p.fault_minimum and faulted > p.fault_rate * played:
            reason = f"faulted in {faulted} of its last {played} matches (the limit is {p.fault_rate:.0%})"
            self.store.set_enabled(entrant.name, False, reason)
            self.report(f"{entrant.name} disabled: {reason}")

    # -- standings --------------------------------------------------------------------------

    def refresh_standings(self) -> None:
        if self.kind != LADDER:
            return
        table = standings(self.store)
        self.store.save_standings(table, table["matches"])
        self._dirty = False
        self._standings_due = time.time() + self.policy.standings_every


def standings(store: Store, kind: str = LADDER) -> dict[str, Any]:
    """The standings from every rated record of the ladder (or every record of a finals), as
    the tournament's table folds them (ratings with intervals, paired duplicate results, the
    groups not separated), one row per version that played, each with its entrant's name and
    state."""
    versions = store.versions()
    matches = 0
    if kind != LADDER:  # a finals' table lists its finalists only
        played = {version for match, _ in store.records(kind=kind) for version in match.seating}
        versions = [v for v in versions if v["id"] in played]
    names = [str(v["id"]) for v in versions]
    index = {v["id"]: i for i, v in enumerate(versions)}

    def rated() -> Any:
        nonlocal matches
        for match, line in store.records(rated_only=kind == LADDER, kind=kind):
            matches += 1
            record = Record.from_json(records.load_json(line.encode("utf-8")))
            tag = record.tournament
            assert tag is not None
            yield attrs.evolve(record, tournament=attrs.evolve(tag, seating=tuple(index[v] for v in match.seating)))

    table = results.tabulate(names, rated())
    by_id = {str(v["id"]): v for v in versions}
    entrants = {row.name: row for row in store.entrants()}
    rows = []
    for row in table.rows:
        version = by_id[row["entrant"]]
        entrant = entrants[version["name"]]
        rows.append({**row, "entrant": version["name"], "version": version["label"], "version_id": version["id"],
                     "enabled": entrant.enabled, "disabled_reason": entrant.disabled_reason,
                     "next": _renamed(row.get("next"), by_id)})
    return {"matches": matches, "lower_is_better": table.lower_is_better, "rows": rows,
            "order": results.ORDER if table.paired else results.ORDER_WITHOUT_PAIRS}


def _renamed(comparison: dict[str, Any] | None, by_id: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """A row's comparison with the row below, naming the version by entrant and label."""
    if comparison is None:
        return None
    version = by_id[comparison["entrant"]]
    return {**comparison, "entrant": version["name"], "version": version["label"], "version_id": version["id"]}


def _label(seat: dict[str, Any]) -> str:
    bot = seat.get("bot") or {}
    version = bot.get("version")
    return printable(str(version))[:64] if version else UNVERSIONED


def _outcome(record: dict[str, Any]) -> str:
    result = record.get("result")
    if result is None:
        return record["status"]
    return "scores " + " ".join(str(s) for s in result["scores"]) + (f", {len(record['faults'])} fault(s)"
                                                                      if record["faults"] else "")

