"""The arena's database, on SQLite and on a real PostgreSQL server: the migrations build the
tables the schema names, entrants and their tokens (never in clear), units claimed once
however many servers ask, a match stored once however often it is offered, and the lease that
hands a dead server's units to another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from cardcli.arena import history, schema, secrets
from cardcli.arena.config import ArenaConfig
from cardcli.arena.store import HEAD, EntrantKind, Store, engine_for, migrate, revision
from cardcli.errors import UsageError
from cardcli.referee import Settings
from cardcli.seats.limits import Limits
from cardcli.seats.policy import SandboxMode, SandboxPolicy

CONFIG = ArenaConfig("peppa", "torino", {}, 4, 42, Settings(move_time=2.0), Limits(memory_mb=256),
                     SandboxPolicy(mode=SandboxMode.OFF))


@pytest.fixture
def store(db: str) -> Store:
    made = Store.create(db, CONFIG, now=1000.0)
    yield made
    made.close()


def test_the_migrations_build_the_tables_the_schema_names(store: Store) -> None:
    inspector = sa.inspect(store.engine)
    assert set(inspector.get_table_names()) - {"alembic_version"} == set(schema.metadata.tables)
    for table in schema.metadata.sorted_tables:
        built = {c["name"]: c for c in inspector.get_columns(table.name)}
        assert set(built) == set(table.columns.keys()), table.name
        for column in table.columns:
            assert built[column.name]["nullable"] == column.nullable, f"{table.name}.{column.name}"
            assert type(built[column.name]["type"]).__name__.lower()[:4] in _type_names(column.type), \
                f"{table.name}.{column.name}: {built[column.name]['type']} for {column.type}"
        indexes = {tuple(i["column_names"]) for i in inspector.get_indexes(table.name)}
        assert {tuple(i.columns.keys()) for i in table.indexes} <= indexes, table.name
        uniques = {tuple(u["column_names"]) for u in inspector.get_unique_constraints(table.name)}
        uniques |= {tuple(i["column_names"]) for i in inspector.get_indexes(table.name) if i["unique"]}
        wanted = {tuple(c.columns.keys()) for c in table.constraints if isinstance(c, sa.UniqueConstraint)}
        wanted |= {(c.name,) for c in table.columns if c.unique}
        assert wanted <= uniques, table.name
    with store.engine.connect() as conn:
        assert revision(conn) == HEAD


def _type_names(kind: sa.types.TypeEngine[object]) -> set[str]:
    """The first letters of the names a database may give back for a column of ``kind``."""
    names = {type(kind).__name__.lower()[:4]}
    if isinstance(kind, sa.Float):
        names |= {"real", "doub", "floa"}
    if isinstance(kind, sa.Integer):
        names |= {"inte", "bigi"}
    if isinstance(kind, sa.Boolean):
        names |= {"bool"}
    if isinstance(kind, (sa.String, sa.Text)):
        names |= {"varc", "text", "stri"}
    return names


def test_the_configuration_reads_back_and_a_second_init_is_refused(db: str, store: Store) -> None:
    opened = Store.open(db)
    assert opened.config == CONFIG
    opened.close()
    with pytest.raises(UsageError, match="already holds an arena"):
        Store.create(db, CONFIG)


def test_a_database_without_an_arena_or_at_another_schema_is_one_line(db: str) -> None:
    with pytest.raises(UsageError, match="holds no arena"):
        Store.open(db)
    made = Store.create(db, CONFIG)
    with made.engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0000'"))
    with pytest.raises(UsageError, match="arena upgrade"):
        Store.open(db)


def test_an_unreachable_database_is_one_line() -> None:
    with pytest.raises(UsageError, match="cannot open the database postgresql"):
        Store.create("postgresql://nobody:secret@127.0.0.1:1/none", CONFIG)
    with pytest.raises(UsageError) as err:
        Store.create("postgresql://nobody:secret@127.0.0.1:1/none", CONFIG)
    assert "secret" not in str(err.value)


def test_entrants_names_are_unique_and_tokens_are_kept_as_hashes_only(db: str, store: Store,
                                                                       tmp_path: Path) -> None:
    token, digest = secrets.new_pair()
    store.add_entrant("alice", EntrantKind.REMOTE, "remote:alice", {"Depth": "3"}, digest)
    store.add_entrant("bob", EntrantKind.PROGRAM, "heuristic")
    with pytest.raises(UsageError, match="exists already"):
        store.add_entrant("alice", EntrantKind.PROGRAM, "random")
    assert [(e.name, e.kind, e.enabled) for e in store.entrants()] == [("alice", "remote", True), ("bob", "program", True)]
    assert store.entrant("alice").options == {"Depth": "3"}
    assert secrets.matches(token, store.token_hashes()["alice"])
    assert not secrets.matches(token + "x", store.token_hashes()["alice"])
    new, new_digest = secrets.new_pair()
    store.set_token_hash("alice", new_digest)
    assert secrets.matches(new, store.token_hashes()["alice"]) and not secrets.matches(token, store.token_hashes()["alice"])
    with pytest.raises(UsageError, match="no entrant named carol"):
        store.set_token_hash("carol", new_digest)
    authors, authors_digest = secrets.new_pair()
    store.set_token_hash("bob", authors_digest)  # a program's token opens only its author's view
    assert "bob" not in store.token_hashes()
    holder = store.holder_of(authors_digest)
    assert holder is not None and holder.name == "bob" and store.holder_of(secrets.token_hash(token)) is None
    dumped = _dump(store)
    assert all(t not in dumped for t in (token, new, authors)), "a token is in the database in clear"
    store.set_enabled("bob", False, "faulted in 9 of its last 50 matches")
    assert store.entrant("bob").disabled_reason == "faulted in 9 of its last 50 matches"
    store.set_enabled("bob", True)
    assert store.entrant("bob").enabled and store.entrant("bob").disabled_reason is None


def _dump(store: Store) -> str:
    """Every value of every table, as text."""
    out = []
    with store.engine.connect() as conn:
        for table in schema.metadata.sorted_tables:
            out += [repr(tuple(row)) for row in conn.execute(sa.select(table))]
    return "\n".join(out)


def test_a_finals_units_are_not_the_ladder_s(store: Store) -> None:
    a = store.add_entrant("a", EntrantKind.PROGRAM, "random")
    store.add_unit("finals/1", [a], [None], 1)
    assert store.claim("s", 5, lease=60) == [] and store.open_units() == 0
    assert store.open_units("finals/1") == 1 and store.unit_kinds() == ["finals/1"]
    assert [u.kind for u in store.claim("s", 5, lease=60, kind="finals/1")] == ["finals/1"]


def test_a_unit_is_claimed_by_one_server_and_a_dead_server_s_by_another_after_the_lease(store: Store) -> None:
    a = store.add_entrant("a", EntrantKind.PROGRAM, "random")
    b = store.add_entrant("b", EntrantKind.PROGRAM, "random")
    first = store.add_unit("ladder", [a, b], [None, None], 2, now=1000.0)
    second = store.add_unit("ladder", [b, a], [None, None], 2, now=1000.0)
    assert [u.id for u in store.claim("one", 1, lease=60, now=1000.0)] == [first]
    assert [u.id for u in store.claim("two", 5, lease=60, now=1001.0)] == [second]
    assert store.claim("three", 5, lease=60, now=1030.0) == []
    store.renew("one", now=1050.0)
    taken = store.claim("three", 5, lease=60, now=1062.0)
    assert [u.id for u in taken] == [second], "only the unit whose claim lapsed is taken over"
    store.release("three")
    assert [u.id for u in store.claim("four", 5, lease=60, now=1063.0)] == [second]


def test_a_unit_s_seed_follows_from_the_season_s_seed(store: Store) -> None:
    a = store.add_entrant("a", EntrantKind.PROGRAM, "random")
    one = store.add_unit("ladder", [a], [None], 1)
    fixed = store.add_unit("finals/1", [a], [None], 1, seed=77)
    seeds = {u.id: u.seed for kind in ("ladder", "finals/1") for u in store.claim("s", 5, lease=60, kind=kind)}
    from cardcli.tournament.schedule import deal_set_seed

    assert seeds == {one: deal_set_seed(CONFIG.seed, one), fixed: 77}


def test_a_match_is_stored_once_and_completes_its_unit(store: Store) -> None:
    a = store.add_entrant("a", EntrantKind.PROGRAM, "random")
    b = store.add_entrant("b", EntrantKind.PROGRAM, "random")
    va, vb = store.version_id(a, "1.0"), store.version_id(b, "unversioned")
    assert store.version_id(a, "1.0") == va
    unit = store.add_unit("ladder", [a, b], [va, vb], 2)
    line = json.dumps({"seats": [], "note": "x"})
    first = store.store_match(unit, 0, [va, vb, va, vb], line, True, [1])
    assert first is not None
    assert store.store_match(unit, 0, [va, vb, va, vb], line, True, [1]) is None
    assert store.open_units() == 1
    assert store.store_match(unit, 1, [vb, va, vb, va], line, True, []) is not None
    assert store.open_units() == 0
    assert [m.rotation for m in store.matches()] == [1, 0]
    assert [m.id for m in store.matches(entrant="b", after=first + 1)] == [first]
    assert store.record_line(first) == line
    assert [m.id for m, _ in store.records()] == sorted(m.id for m in store.matches())
    assert store.recent_faults(b, 10) == (1, 2) and store.recent_faults(a, 10) == (0, 2)


def test_an_unknown_version_is_an_error_not_a_duplicate(store: Store) -> None:
    a = store.add_entrant("a", EntrantKind.PROGRAM, "random")
    unit = store.add_unit("ladder", [a], [None], 1)
    with pytest.raises(sa.exc.IntegrityError):
        store.store_match(unit, 0, [999], "{}", True, [])
    assert store.match_count() == 0


def test_an_unrecognised_url_is_one_line() -> None:
    with pytest.raises(UsageError, match="cannot use the database"):
        engine_for("nosuchdb://x")


def test_a_database_of_the_first_schema_is_upgraded_with_its_data(db: str) -> None:
    """A season begun by an older cardcli: refused until upgraded, then served with every row."""
    engine = engine_for(db)
    with engine.begin() as conn:
        migrate(conn, "0001")
        conn.execute(sa.text("INSERT INTO arena (id, config, created) VALUES (1, :c, 0)"), {"c": CONFIG.dumps()})
        conn.execute(sa.text("INSERT INTO entrants (name, kind, spec, options, enabled, created) "
                             "VALUES ('old', 'program', 'random', '{}', true, 0)"))
    engine.dispose()
    with pytest.raises(UsageError, match="at schema 0001.*arena upgrade"):
        Store.open(db)
    assert Store.upgrade(db) == ("0001", HEAD)
    store = Store.open(db)
    assert [(e.name, e.spec, e.generation) for e in store.entrants()] == [("old", "random", 0)]
    assert store.replace_program("old", "heuristic") == 1
    assert (store.entrant("old").spec, store.entrant("old").generation) == ("heuristic", 1)
    store.close()


def test_a_database_of_the_second_schema_is_upgraded_and_keeps_a_ratings_history(db: str) -> None:
    """A season begun before the ratings' history: upgraded with its rows, then each save of
    the standings adds the points of the versions whose rating moved."""
    engine = engine_for(db)
    with engine.begin() as conn:
        migrate(conn, "0002")
        conn.execute(sa.text("INSERT INTO arena (id, config, created) VALUES (1, :c, 0)"), {"c": CONFIG.dumps()})
        conn.execute(sa.text("INSERT INTO entrants (name, kind, spec, options, enabled, created, generation) "
                             "VALUES ('old', 'program', 'random', '{}', true, 0, 2)"))
    engine.dispose()
    with pytest.raises(UsageError, match="at schema 0002.*arena upgrade"):
        Store.open(db)
    assert Store.upgrade(db) == ("0002", HEAD)
    store = Store.open(db)
    try:
        assert [(e.name, e.generation) for e in store.entrants()] == [("old", 2)]
        version = store.version_id(store.entrant("old").id, "1.0")
        def table(mu: float, matches: int = 3) -> dict[str, object]:
            return {"matches": matches, "rows": [{"version_id": version, "rating": mu, "rating_ci": 3.92,
                                                  "matches": matches}]}
        store.save_standings(table(25.0, 0), 0, now=100.0)  # not played yet: no point
        store.save_standings(table(26.0), 3, now=200.0)
        store.save_standings(table(27.0), 4, now=210.0)  # too soon after the last point
        store.save_standings(table(26.0), 5, now=300.0)  # unchanged since the last point
        store.save_standings(table(28.0), 6, now=400.0)
        assert history.read(store.engine, [version]) == {version: [(200.0, 26.0, 2.0), (400.0, 28.0, 2.0)]}
        assert store.standings_stamp() == (400.0, 6)
    finally:
        store.close()


def test_the_ratings_history_is_halved_when_a_version_has_too_many_points(store: Store) -> None:
    entrant = store.add_entrant("e", EntrantKind.PROGRAM, "random")
    version = store.version_id(entrant, "1")
    for n in range(history.KEPT + 1):
        store.save_standings({"rows": [{"version_id": version, "rating": float(n), "rating_ci": 1.96,
                                        "matches": 1}]}, n, now=1000.0 + n * history.EVERY)
    points = history.read(store.engine, [version])[version]
    assert len(points) == history.KEPT // 2 + 1
    assert points[0][1] == 0.0 and points[-1][1] == float(history.KEPT)
    assert [p[1] for p in points] == sorted(p[1] for p in points)
    assert len({round(b[1] - a[1]) for a, b in zip(points, points[1:])}) == 1  # evenly thinned


def test_only_a_program_entrant_s_program_is_replaced(store: Store) -> None:
    store.add_entrant("remote", EntrantKind.REMOTE, "remote:remote", token_hash=secrets.new_pair()[1])
    with pytest.raises(UsageError, match="no program entrant named remote"):
        store.replace_program("remote", "random")
