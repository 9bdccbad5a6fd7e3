"""Every read and write of the arena's database, through SQLAlchemy Core: SQLite (embedded,
the default) and PostgreSQL (for larger seasons and several ``serve`` processes) run the same
statements.

What must hold, and how:

- **Nothing lost, nothing twice.** A match is committed whole: its record, who sat where and
  the unit's progress in one transaction (with the other matches finished about the same
  time, :meth:`Store.store_matches`), and ``(unit, rotation)`` is unique, so a match stored
  twice (a restart, two servers) is refused by the database and dropped here (its id is
  None). A unit is claimed by compare-and-set on its
  status, which both databases make atomic for one row.
- **Leases, not locks.** A server renews the claim on its units (:meth:`Store.renew`); a unit
  whose claim is older than the lease is another server's to take (a server killed mid-unit
  leaves it so), and only its unplayed rotations are played again.
- **Tokens never in clear**: the store only sees hashes (:mod:`.secrets`).
"""

from __future__ import annotations

import json
import time
from enum import StrEnum
from pathlib import Path
from typing import Any, Iterator, Sequence

import attrs
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..errors import UsageError
from . import history, schema
from ..tournament.schedule import deal_set_seed
from .config import ArenaConfig

HEAD = "0004"
"""The newest migration (:mod:`.migrations`): a database at another one is upgraded with
``cardcli arena upgrade``, never silently."""


class EntrantKind(StrEnum):
    """Who runs an entrant's bot (the values are the texts stored)."""

    REMOTE = "remote"
    """Its author, connecting with ``cardcli connect``."""
    PROGRAM = "program"
    """The arena: a program or built-in player, sandboxed as tournaments run them."""


LADDER = "ladder"
"""The kind of the ladder's units; a finals' units are ``finals/N``."""


@attrs.frozen
class EntrantRow:
    id: int
    name: str
    kind: EntrantKind
    spec: str
    options: dict[str, str]
    enabled: bool
    disabled_reason: str | None
    created: float
    generation: int = 0
    """How many times the organiser replaced its program (``arena entrant update``)."""


@attrs.frozen
class UnitRow:
    id: int
    kind: str
    seed: int
    lineup: tuple[int, ...]
    """The entrants of the unit, in their order (ids)."""
    versions: tuple[int | None, ...]
    """The version each was scheduled as (None for an entrant that had none yet)."""
    rotations: int
    status: str
    created: float


@attrs.frozen
class StoredMatch:
    id: int
    unit_id: int
    rotation: int
    seating: tuple[int, ...]
    """The version in each seat."""
    rated: bool
    faults: int
    finished: float


@attrs.frozen
class NewMatch:
    """A finished match to store (:meth:`Store.store_matches`)."""

    unit_id: int
    rotation: int
    seating: tuple[int, ...]
    """The version in each seat (ids)."""
    line: str
    """Its record, as written."""
    rated: bool
    faulted: tuple[int, ...]
    """The seats that faulted."""
    finished: float
    bundles: tuple[tuple[int, str], ...] = ()
    """The failure bundle of each faulty seat that ran a program: (seat, text)."""


@attrs.frozen
class MatchOutcome:
    """What a match's summary says of its result, as its record says it."""

    status: str | None
    """The record's ``status`` (``complete``, ``aborted``...)."""
    scores: tuple[float, ...] | None
    """Each seat's score, or None for a match without a result."""
    faulted: tuple[int, ...]
    """The seats that faulted."""


SQLITE_CACHE_KIB = 2000
"""The most each SQLite connection keeps of the database in its page cache (SQLite's own
default, said here because it is what a server's memory grows to as the database outgrows
it): a server holds a few connections (its loop, the lease keeper, the API's threads), at
most the engine's pool of 15, so SQLite's share of its memory has a ceiling whatever the
season's length (``benchmarks/arena_memory.py`` measures it)."""


def engine_for(url: str) -> Engine:
    """An engine for ``url``: SQLite waits for a busy database rather than failing at once and
    keeps foreign keys; PostgreSQL goes through psycopg 3."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    try:
        if url.startswith("sqlite"):
            engine = sa.create_engine(url, connect_args={"timeout": 30})

            @sa.event.listens_for(engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA journal_mode=WAL")
                # durable across a crash of any process (the operating system has each commit);
                # only a power cut can lose the last commits, never consistency (docs/arena.md)
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")
                cursor.close()

            return engine
        return sa.create_engine(url, pool_pre_ping=True)
    except (sa.exc.ArgumentError, ImportError, ValueError) as err:
        raise UsageError(f"cannot use the database {display_url(url)}: {err}") from None


def display_url(url: str) -> str:
    """The URL with any password masked, for messages and logs."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return "(a malformed database URL)"


def migrate(connection: Connection, target: str = "head") -> None:
    """Bring the database on ``connection`` to ``target`` (by default :data:`HEAD`) by running
    the migrations."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    config = AlembicConfig()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, target)


def revision(connection: Connection) -> str | None:
    """The migration the database is at, or None for a database Alembic never touched."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


class Store:
    """The arena's database."""

    def __init__(self, engine: Engine, config: ArenaConfig):
        self.engine = engine
        self.config = config

    # -- opening --------------------------------------------------------------------------------

    @classmethod
    def create(cls, url: str, config: ArenaConfig, now: float | None = None) -> Store:
        """A new arena's database at ``url``: every migration, then the configuration. A
        database that already holds an arena is refused."""
        engine = engine_for(url)
        try:
            with engine.begin() as conn:
                migrate(conn)
                if conn.execute(sa.select(sa.func.count()).select_from(schema.arena)).scalar_one():
                    raise UsageError(f"{display_url(url)} already holds an arena")
                conn.execute(schema.arena.insert().values(id=1, config=config.dumps(),
                                                          created=time.time() if now is None else now))
        except sa.exc.OperationalError as err:
            raise UsageError(f"cannot open the database {display_url(url)}: {_first_line(err)}") from None
        return cls(engine, config)

    @classmethod
    def open(cls, url: str) -> Store:
        """The arena at ``url``; a database at another migration than this cardcli's is a
        one-line error that says what to do."""
        engine = engine_for(url)
        try:
            with engine.connect() as conn:
                found = revision(conn)
                if found is None:
                    raise UsageError(f"{display_url(url)} holds no arena (cardcli arena init makes one)")
                if found != HEAD:
                    raise UsageError(f"{display_url(url)} is at schema {found}, this cardcli needs {HEAD}: "
                                     "run cardcli arena upgrade DIR")
                text = conn.execute(sa.select(schema.arena.c.config).where(schema.arena.c.id == 1)).scalar_one()
        except sa.exc.OperationalError as err:
            raise UsageError(f"cannot open the database {display_url(url)}: {_first_line(err)}") from None
        except sa.exc.NoResultFound:
            raise UsageError(f"{display_url(url)} holds no arena (cardcli arena init makes one)") from None
        return cls(engine, ArenaConfig.loads(text))

    @staticmethod
    def upgrade(url: str) -> tuple[str | None, str]:
        """Run the migrations a database lacks; the revision before and after."""
        engine = engine_for(url)
        with engine.begin() as conn:
            before = revision(conn)
            migrate(conn)
        return before, HEAD

    def close(self) -> None:
        self.engine.dispose()

    # -- entrants -------------------------------------------------------------------------------

    def add_entrant(self, name: str, kind: str, spec: str, options: dict[str, str] | None = None,
                    token_hash: str | None = None, now: float | None = None) -> int:
        """A new entrant, enabled; UsageError for a name taken."""
        t = schema.entrants
        try:
            with self.engine.begin() as conn:
                result = conn.execute(t.insert().values(
                    name=name, kind=kind, spec=spec, options=json.dumps(options or {}, sort_keys=True),
                    token_hash=token_hash, enabled=True, disabled_reason=None,
                    created=time.time() if now is None else now))
                return _new_id(result)
        except sa.exc.IntegrityError:
            raise UsageError(f"an entrant named {name} exists already") from None

    def entrants(self) -> list[EntrantRow]:
        t = schema.entrants
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t).order_by(t.c.id)).all()
        return [_entrant(row) for row in rows]

    def entrant(self, name: str) -> EntrantRow:
        t = schema.entrants
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t).where(t.c.name == name)).first()
        if row is None:
            raise UsageError(f"no entrant named {name}")
        return _entrant(row)

    def set_enabled(self, name: str, enabled: bool, reason: str | None = None) -> None:
        t = schema.entrants
        with self.engine.begin() as conn:
            done = conn.execute(t.update().where(t.c.name == name).values(
                enabled=enabled, disabled_reason=None if enabled else reason))
        if done.rowcount != 1:
            raise UsageError(f"no entrant named {name}")

    def replace_program(self, name: str, spec: str) -> int:
        """A program entrant's new seat spec: a new generation (its bot is a new version from
        its next match); the generation."""
        t = schema.entrants
        with self.engine.begin() as conn:
            done = conn.execute(t.update().where((t.c.name == name) & (t.c.kind == EntrantKind.PROGRAM))
                                .values(spec=spec, generation=t.c.generation + 1))
            if done.rowcount != 1:
                raise UsageError(f"no program entrant named {name}")
            return int(conn.execute(sa.select(t.c.generation).where(t.c.name == name)).scalar_one())

    def set_token_hash(self, name: str, token_hash: str) -> None:
        """An entrant's new token (the old one stops working at once): a remote bot's key to its
        seats and its author's to the author's view; a program entrant's only the latter."""
        t = schema.entrants
        with self.engine.begin() as conn:
            done = conn.execute(t.update().where(t.c.name == name).values(token_hash=token_hash))
        if done.rowcount != 1:
            raise UsageError(f"no entrant named {name}")

    def holder_of(self, token_hash: str) -> EntrantRow | None:
        """The entrant whose token has the hash ``token_hash``, enabled or not (a disabled
        entrant's author most needs to see why), or None."""
        t = schema.entrants
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t).where(t.c.token_hash == token_hash)).first()
        return None if row is None else _entrant(row)

    def token_hashes(self) -> dict[str, str]:
        """Remote entrant name → its token's hash, for the listener."""
        t = schema.entrants
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.c.name, t.c.token_hash).where(t.c.kind == EntrantKind.REMOTE)).all()
        return {name: digest for name, digest in rows if digest is not None}

    # -- versions -------------------------------------------------------------------------------

    def version_id(self, entrant_id: int, label: str, now: float | None = None) -> int:
        """The version ``label`` of an entrant, made at its first sight."""
        t = schema.versions
        for _ in range(2):  # a second server may make the same version at the same moment
            with self.engine.begin() as conn:
                found = conn.execute(sa.select(t.c.id).where((t.c.entrant_id == entrant_id) & (t.c.label == label))
                                     ).scalar()
                if found is not None:
                    return int(found)
                try:
                    result = conn.execute(t.insert().values(entrant_id=entrant_id, label=label,
                                                            created=time.time() if now is None else now))
                    return _new_id(result)
                except sa.exc.IntegrityError:
                    conn.rollback()
        raise UsageError(f"cannot record version {label!r} of entrant {entrant_id}")

    def latest_versions(self) -> dict[int, int]:
        """Entrant id → its newest version's id, for the entrants that have one."""
        t = schema.versions
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.c.entrant_id, sa.func.max(t.c.id)).group_by(t.c.entrant_id)).all()
        return {int(e): int(v) for e, v in rows}

    def versions(self) -> list[dict[str, Any]]:
        """Every version with its entrant's name, oldest first."""
        v, e = schema.versions, schema.entrants
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(v.c.id, v.c.label, v.c.created, e.c.name, e.c.id.label("entrant_id"))
                                .join(e, e.c.id == v.c.entrant_id).order_by(v.c.id)).all()
        return [dict(row._mapping) for row in rows]

    # -- units ----------------------------------------------------------------------------------

    def add_unit(self, kind: str, lineup: Sequence[int], versions: Sequence[int | None], rotations: int,
                 seed: int | None = None, now: float | None = None) -> int:
        """A pending unit. Its deals come from ``seed``, or by default from the arena's master
        seed and the unit's number, so that a season's deals follow from its seed."""
        return self.add_units(kind, [(lineup, versions, rotations, seed)], now)[0]

    def add_units(self, kind: str, units: Sequence[tuple[Sequence[int], Sequence[int | None], int, int | None]],
                  now: float | None = None) -> list[int]:
        """Pending units (lineup, versions, rotations, seed or None), in one transaction: the
        ladder schedules several at a time (see :meth:`add_unit`)."""
        t = schema.units
        made = []
        with self.engine.begin() as conn:
            for lineup, versions, rotations, seed in units:
                result = conn.execute(_INSERT_UNIT, {
                    "kind": kind, "seed": 0 if seed is None else seed, "rotations": rotations, "status": "pending",
                    "lineup": json.dumps({"entrants": list(lineup), "versions": list(versions)}),
                    "created": time.time() if now is None else now})
                unit_id = _new_id(result)
                if seed is None:
                    conn.execute(t.update().where(t.c.id == unit_id)
                                 .values(seed=deal_set_seed(self.config.seed, unit_id)))
                made.append(unit_id)
        return made

    def claim(self, server: str, limit: int, lease: float, now: float | None = None,
              kind: str = LADDER) -> list[UnitRow]:
        """Up to ``limit`` units of ``kind`` for ``server`` to play, oldest first: pending ones,
        and ones whose claim has not been renewed within ``lease`` seconds (their server died).
        One compare-and-set on their status: a unit another server took meanwhile is not
        taken again (the database makes one statement's update of a row atomic)."""
        t = schema.units
        now = time.time() if now is None else now
        claimable = (t.c.kind == kind) & (
            (t.c.status == "pending") | ((t.c.status == "playing") & (t.c.claimed_at < now - lease)))
        with self.engine.begin() as conn:
            candidates = conn.execute(sa.select(t.c.id).where(claimable).order_by(t.c.id).limit(limit)).scalars().all()
            if not candidates:
                return []
            conn.execute(t.update().where(t.c.id.in_(candidates) & claimable)
                         .values(status="playing", claimed_by=server, claimed_at=now))
            rows = conn.execute(sa.select(t).where(t.c.id.in_(candidates) & (t.c.claimed_by == server)
                                                   & (t.c.claimed_at == now) & (t.c.status == "playing"))
                                .order_by(t.c.id)).all()
        return [_unit(row) for row in rows]

    def renew(self, server: str, now: float | None = None) -> None:
        """Keep ``server``'s claims alive."""
        t = schema.units
        with self.engine.begin() as conn:
            conn.execute(t.update().where((t.c.claimed_by == server) & (t.c.status == "playing"))
                         .values(claimed_at=time.time() if now is None else now))

    def release(self, server: str) -> None:
        """Give back ``server``'s unfinished units (a clean stop): pending again at once."""
        t = schema.units
        with self.engine.begin() as conn:
            conn.execute(t.update().where((t.c.claimed_by == server) & (t.c.status == "playing"))
                         .values(status="pending", claimed_by=None, claimed_at=None))

    def drop(self, unit_id: int) -> None:
        """A unit that will not be played (an entrant of it was disabled before it was)."""
        t = schema.units
        with self.engine.begin() as conn:
            conn.execute(t.update().where((t.c.id == unit_id) & (t.c.status != "done")).values(status="dropped"))

    def units_after(self, last: int) -> list[UnitRow]:
        """The units made after unit ``last``, oldest first: what the ladder reads to keep its
        counts without reading the whole season again."""
        t = schema.units
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t).where(t.c.id > last).order_by(t.c.id)).all()
        return [_unit(row) for row in rows]

    def open_units(self, kind: str = LADDER) -> int:
        """Units of ``kind`` pending or being played."""
        t = schema.units
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(t).where(
                (t.c.kind == kind) & t.c.status.in_(("pending", "playing")))).scalar_one())

    def unit_kinds(self) -> list[str]:
        """Every kind of unit made so far (the ladder's, and each finals')."""
        t = schema.units
        with self.engine.connect() as conn:
            return sorted(conn.execute(sa.select(t.c.kind).distinct()).scalars())

    def played_rotations_of(self, unit_ids: Sequence[int]) -> dict[int, set[int]]:
        """The rotations stored of each of the units ``unit_ids`` (those with any)."""
        t = schema.matches
        found: dict[int, set[int]] = {}
        with self.engine.connect() as conn:
            for unit_id, rotation in conn.execute(sa.select(t.c.unit_id, t.c.rotation).where(t.c.unit_id.in_(unit_ids))):
                found.setdefault(int(unit_id), set()).add(int(rotation))
        return found

    def played_rotations(self, unit_id: int) -> set[int]:
        t = schema.matches
        with self.engine.connect() as conn:
            return set(conn.execute(sa.select(t.c.rotation).where(t.c.unit_id == unit_id)).scalars())

    # -- matches --------------------------------------------------------------------------------

    def store_match(self, unit_id: int, rotation: int, seating: Sequence[int], line: str, rated: bool,
                    faulted: Sequence[int], now: float | None = None) -> int | None:
        """Commit one finished match (its record ``line``, the version in each seat, the seats
        that faulted) and the unit's progress, in one transaction; None when the match was
        stored already (the database refuses a second (unit, rotation))."""
        return self.store_matches([NewMatch(unit_id, rotation, tuple(seating), line, rated, tuple(faulted),
                                            time.time() if now is None else now)])[0]

    def store_matches(self, new: Sequence[NewMatch]) -> list[int | None]:
        """Commit finished matches together, each as :meth:`store_match` does, in one
        transaction: a server stores what its workers finished since its last commit, and
        a commit costs more than the rows it writes. When one of them was stored already,
        the transaction is refused whole and each is then stored alone, so that the others
        are kept and only that one gives None."""
        if not new:
            return []
        try:
            with self.engine.begin() as conn:
                return self._insert(conn, new)
        except sa.exc.IntegrityError:
            if len(new) > 1:
                return [self.store_matches([match])[0] for match in new]
            if new[0].rotation in self.played_rotations(new[0].unit_id):
                return [None]  # stored already: by another server, or before a restart
            raise

    @staticmethod
    def _insert(conn: Connection, new: Sequence[NewMatch]) -> list[int | None]:
        ids: list[int | None] = []
        for match in new:
            result = conn.execute(_INSERT_MATCH, {
                "unit_id": match.unit_id, "rotation": match.rotation, "seating": json.dumps(list(match.seating)),
                "record": match.line, "rated": match.rated, "faults": len(match.faulted), "finished": match.finished})
            match_id = _new_id(result)
            conn.execute(_INSERT_APPEARANCE, [{"match_id": match_id, "version_id": version, "seat": seat,
                                               "faulted": seat in match.faulted}
                                              for seat, version in enumerate(match.seating)])
            ids.append(match_id)
            if match.bundles:
                conn.execute(schema.fault_bundles.insert(), [{"match_id": match_id, "seat": seat, "text": text}
                                                              for seat, text in match.bundles])
        conn.execute(_UNIT_DONE, [{"unit": unit} for unit in dict.fromkeys(match.unit_id for match in new)])
        return ids

    def match_count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(schema.matches)).scalar_one())

    def matches(self, limit: int = 50, after: int | None = None, entrant: str | None = None) -> list[StoredMatch]:
        """The newest matches first (``after``: only those with a smaller id, for paging), of
        one entrant's versions when ``entrant`` is given."""
        m = schema.matches
        query = sa.select(m.c.id, m.c.unit_id, m.c.rotation, m.c.seating, m.c.rated, m.c.faults, m.c.finished)
        if after is not None:
            query = query.where(m.c.id < after)
        if entrant is not None:
            a, v, e = schema.appearances, schema.versions, schema.entrants
            query = query.where(m.c.id.in_(
                sa.select(a.c.match_id).join(v, v.c.id == a.c.version_id).join(e, e.c.id == v.c.entrant_id)
                .where(e.c.name == entrant)))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(m.c.id.desc()).limit(limit)).all()
        return [StoredMatch(r.id, r.unit_id, r.rotation, tuple(json.loads(r.seating)), bool(r.rated), r.faults,
                            r.finished) for r in rows]

    def entrant_matches(self, entrant: str, limit: int = 50, after: int | None = None) -> list[StoredMatch]:
        """What :meth:`matches` gives for one entrant, read so that its cost follows the page,
        not the season: each of the entrant's versions gives its newest appearances from the
        ``(version, match)`` index (a page's worth per seat at most), and only the matches
        among those are read. ``matches(entrant=...)`` gathers every match the entrant ever
        played before it keeps a page: tens of milliseconds for a regular over a long season."""
        a, v, e, m = schema.appearances, schema.versions, schema.entrants, schema.matches
        with self.engine.connect() as conn:
            versions = conn.execute(sa.select(v.c.id).join(e, e.c.id == v.c.entrant_id)
                                    .where(e.c.name == entrant)).scalars().all()
            if not versions:
                return []
            newest = []
            for version in versions:
                query = sa.select(a.c.match_id).where(a.c.version_id == version)
                if after is not None:
                    query = query.where(a.c.match_id < after)
                newest.append(sa.select(query.order_by(a.c.match_id.desc())
                                        .limit(limit * self.config.players).subquery().c.match_id))
            found = (sa.union_all(*newest) if len(newest) > 1 else newest[0]).subquery()
            page = sa.select(found.c.match_id).distinct().order_by(found.c.match_id.desc()).limit(limit)
            rows = conn.execute(
                sa.select(m.c.id, m.c.unit_id, m.c.rotation, m.c.seating, m.c.rated, m.c.faults, m.c.finished)
                .where(m.c.id.in_(page))
                .order_by(m.c.id.desc())).all()
        return [StoredMatch(r.id, r.unit_id, r.rotation, tuple(json.loads(r.seating)), bool(r.rated), r.faults,
                            r.finished) for r in rows]

    def outcomes(self, match_ids: Sequence[int]) -> dict[int, MatchOutcome]:
        """The status, scores and faulting seats of the matches ``match_ids`` (those stored).
        The database reads the two fields out of each record itself: a page of fifty summaries
        would otherwise carry a megabyte of records here to be parsed for a few numbers."""
        if not match_ids:
            return {}
        m, a = schema.matches, schema.appearances
        ids = sorted(set(match_ids))
        with self.engine.connect() as conn:
            rows = conn.execute(self._outcome_query().where(m.c.id.in_(ids))).all()
            faulted = conn.execute(sa.select(a.c.match_id, a.c.seat)
                                   .where(a.c.match_id.in_(ids) & (a.c.faulted == sa.true()))
                                   .order_by(a.c.match_id, a.c.seat)).all()
        seats: dict[int, list[int]] = {}
        for match_id, seat in faulted:
            seats.setdefault(int(match_id), []).append(int(seat))
        return {int(match_id): MatchOutcome(None if status is None else str(status),
                                            None if scores is None else tuple(json.loads(scores)),
                                            tuple(seats.get(int(match_id), ())))
                for match_id, status, scores in rows}

    def _outcome_query(self) -> sa.Select[Any]:
        """Each match's id, its record's ``status`` and ``result.scores`` (a JSON text), read
        by the database. SQLite's JSON functions read the text as it is. PostgreSQL's must
        parse it, and each path read parses the whole record again: the record is parsed
        once into its top-level fields (``json_to_record``), which halves a page's cost."""
        m = schema.matches
        if self.engine.dialect.name == "sqlite":
            record = sa.type_coerce(m.c.record, sa.JSON)
            return sa.select(m.c.id, record[("status",)].as_string(), record[("result", "scores")].as_string())
        top = (sa.func.json_to_record(sa.cast(m.c.record, sa.JSON))
               .table_valued(sa.column("status", sa.Text), sa.column("result", sa.JSON))
               .render_derived(name="top", with_types=True))
        return (sa.select(m.c.id, top.c.status, top.c.result["scores"].as_string())
                .select_from(m).join(top, sa.true()))

    def record_line(self, match_id: int) -> str | None:
        m = schema.matches
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(m.c.record).where(m.c.id == match_id)).scalar()
        return None if found is None else str(found)

    def records(self, since: float | None = None, rated_only: bool = False, kind: str | None = None,
                after: int = 0, ids: Sequence[int] | None = None,
                batch: int = 500) -> Iterator[tuple[StoredMatch, str]]:
        """Every stored match with its record line (of units of ``kind`` only, when given;
        after match ``after``; among ``ids``, when given), oldest first, read in batches
        (memory stays flat over a season)."""
        m, u = schema.matches, schema.units
        last = after
        while True:
            query = sa.select(m).where(m.c.id > last)
            if ids is not None:
                query = query.where(m.c.id.in_(list(ids)))
            if kind is not None:
                query = query.where(m.c.unit_id.in_(sa.select(u.c.id).where(u.c.kind == kind)))
            if since is not None:
                query = query.where(m.c.finished >= since)
            if rated_only:
                query = query.where(m.c.rated == sa.true())
            with self.engine.connect() as conn:
                rows = conn.execute(query.order_by(m.c.id).limit(batch)).all()
            if not rows:
                return
            for r in rows:
                yield (StoredMatch(r.id, r.unit_id, r.rotation, tuple(json.loads(r.seating)), bool(r.rated),
                                   r.faults, r.finished), r.record)
            last = rows[-1].id

    def match_ids(self, after: int, rated_only: bool = False, kind: str | None = None) -> list[int]:
        """The ids of the matches stored after match ``after`` (of units of ``kind``)."""
        m, u = schema.matches, schema.units
        query = sa.select(m.c.id).where(m.c.id > after)
        if rated_only:
            query = query.where(m.c.rated == sa.true())
        if kind is not None:
            query = query.where(m.c.unit_id.in_(sa.select(u.c.id).where(u.c.kind == kind)))
        with self.engine.connect() as conn:
            return [int(i) for i in conn.execute(query.order_by(m.c.id)).scalars()]

    def entrant_faults(self, entrant: str, limit: int, after: int | None = None) -> list[tuple[int, int]]:
        """The newest matches in which ``entrant`` (any of its versions) faulted, as (match id,
        seat), newest first; only those with an id below ``after`` when it is given."""
        a, v, e = schema.appearances, schema.versions, schema.entrants
        query = (sa.select(a.c.match_id, a.c.seat).join(v, v.c.id == a.c.version_id).join(e, e.c.id == v.c.entrant_id)
                 .where((e.c.name == entrant) & (a.c.faulted == sa.true())))
        if after is not None:
            query = query.where(a.c.match_id < after)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(a.c.match_id.desc(), a.c.seat).limit(limit)).all()
        return [(int(match_id), int(seat)) for match_id, seat in rows]

    def seats_of(self, entrant: str, match_id: int) -> list[int]:
        """The seats ``entrant`` held in the match ``match_id`` (none when it did not play it)."""
        a, v, e = schema.appearances, schema.versions, schema.entrants
        with self.engine.connect() as conn:
            seats = conn.execute(sa.select(a.c.seat).join(v, v.c.id == a.c.version_id)
                                 .join(e, e.c.id == v.c.entrant_id)
                                 .where((e.c.name == entrant) & (a.c.match_id == match_id))
                                 .order_by(a.c.seat)).scalars().all()
        return [int(seat) for seat in seats]

    def bundles(self, match_id: int) -> dict[int, str]:
        """Seat → the failure bundle kept of it in the match ``match_id``."""
        b = schema.fault_bundles
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(b.c.seat, b.c.text).where(b.c.match_id == match_id)).all()
        return {int(seat): str(text) for seat, text in rows}

    def recent_faults(self, entrant_id: int, window: int) -> tuple[int, int]:
        """Of an entrant's last ``window`` matches (every version), how many it faulted in,
        and how many there were."""
        a, v = schema.appearances, schema.versions
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(a.c.match_id, sa.func.max(sa.cast(a.c.faulted, sa.Integer)))
                .join(v, v.c.id == a.c.version_id).where(v.c.entrant_id == entrant_id)
                .group_by(a.c.match_id).order_by(a.c.match_id.desc()).limit(window)).all()
        return sum(1 for _, f in rows if f), len(rows)

    # -- standings ------------------------------------------------------------------------------

    def save_standings(self, table: dict[str, Any], matches: int, now: float | None = None) -> None:
        """Save the latest standings and, in the same transaction, the points of the ratings'
        history they call for (:mod:`.history`, which keeps it bounded)."""
        t = schema.standings
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            conn.execute(t.delete())
            conn.execute(t.insert().values(id=1, matches=matches, table=json.dumps(table), computed=now))
            history.record(conn, table, now)

    def standings_stamp(self) -> tuple[float, int] | None:
        """When the latest standings were saved and how many matches they fold, or None
        before the first: what a watcher of the standings polls, without reading the table."""
        t = schema.standings
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.c.computed, t.c.matches).where(t.c.id == 1)).first()
        return None if row is None else (float(row.computed), int(row.matches))

    def standings(self) -> dict[str, Any] | None:
        """The latest standings computed, or None before the first."""
        t = schema.standings
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.c.table).where(t.c.id == 1)).first()
        return None if row is None else dict(json.loads(row.table))


_INSERT_UNIT = schema.units.insert()
_INSERT_MATCH = schema.matches.insert()
_INSERT_APPEARANCE = schema.appearances.insert()
_UNIT_DONE = schema.units.update().where(
    (schema.units.c.id == sa.bindparam("unit"))
    & (sa.select(sa.func.count()).select_from(schema.matches).where(schema.matches.c.unit_id == sa.bindparam("unit"))
       .scalar_subquery() >= schema.units.c.rotations)).values(status="done")
"""The statements a match is stored by, made once: built afresh for each match, SQLAlchemy's
work of building and keying them cost more than the database's of running them."""


def _entrant(row: Any) -> EntrantRow:
    return EntrantRow(row.id, row.name, EntrantKind(row.kind), row.spec, json.loads(row.options), bool(row.enabled),
                      row.disabled_reason, row.created, row.generation)


def _unit(row: Any) -> UnitRow:
    lineup = json.loads(row.lineup)
    return UnitRow(row.id, row.kind, int(row.seed), tuple(lineup["entrants"]), tuple(lineup["versions"]),
                   row.rotations, row.status, row.created)


def _first_line(err: BaseException) -> str:
    return str(getattr(err, "orig", err)).strip().splitlines()[0] if str(err).strip() else type(err).__name__


def _new_id(result: sa.CursorResult[Any]) -> int:
    """The primary key of the row an insert made."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])
