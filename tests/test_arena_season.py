"""A season through the command line, on SQLite and on a real PostgreSQL server: built-in
players, a bot program and remote bots through ``cardcli connect`` play continuously; the
standings and the exported records agree with what is stored; a new version of a remote bot
gets its own row; a bot that keeps faulting is disabled; SIGKILLs during play lose nothing;
the finals replay from their seed; two servers share one database without playing a match
twice."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
import sqlalchemy as sa

from cardcli.arena import directory as arena_dir
from cardcli.arena import schema
from cardcli.arena.store import Store, UnitRow
from conftest import FAULTY_BOT, PYTHON_BOT, ROOT, run_cli, wait_for

VERSIONED_BOT = f"{sys.executable} {ROOT / 'tests/bots/versioned_bot.py'}"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
DEADLINE = 180.0
"""Seconds a test waits for what a season does in a few: generous for a loaded machine."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> str | None:
    """The ``--db`` of the arena: None for the default SQLite file, or a new PostgreSQL
    database on the suite's server."""
    return None if request.param == "sqlite" else str(request.getfixturevalue("fresh_postgres_url"))


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, timeout=timeout, check=True)


def init(tmp_path: Path, db: str | None, *extra: str) -> Path:
    arena = tmp_path / "arena"
    cli("arena", "init", str(arena), "--game", "peppa", "--seed", "11", "--sandbox", "off", "--move-time", "5",
        *(["--db", db] if db else []), *extra)
    return arena


def store_of(arena: Path) -> Store:
    return Store.open(arena_dir.url_of(arena))


def add(arena: Path, name: str, *how: str) -> str:
    return cli("arena", "entrant", "add", str(arena), name, *how).stdout.split()[-1]


@contextmanager
def running(argv: list[str], env: dict[str, str], grace: float, **pipes: Any) -> Iterator[subprocess.Popen[str]]:
    """``python -m cardcli ARGV`` in its own process group; stopped with SIGTERM (and its
    group killed after ``grace`` seconds) on the way out."""
    proc = subprocess.Popen([sys.executable, "-m", "cardcli", *argv], cwd=ROOT, env=env, text=True,
                            start_new_session=True, **pipes)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        _kill_group(proc.pid)
        proc.communicate()


def serving(arena: Path, *args: str) -> Any:
    """``arena serve`` (see :func:`running`)."""
    return running(["arena", "serve", str(arena), "-q", *args], ENV, 30, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def ports(proc: subprocess.Popen[str], *kinds: str) -> dict[str, int]:
    """The ports ``serve`` says it listens on for remote bots (``ws``) and the API
    (``http``), asked for as 127.0.0.1:0 (its first stderr lines)."""
    assert proc.stderr is not None
    found: dict[str, int] = {}
    for _ in range(8):
        match = re.search(r"(ws|http)://127\.0\.0\.1:(\d+)/", proc.stderr.readline())
        if match:
            found[match.group(1)] = int(match.group(2))
        if set(kinds) <= set(found):
            return found
    raise AssertionError(f"serve did not say where it listens: {found}")


def listening_port(proc: subprocess.Popen[str]) -> int:
    return ports(proc, "ws")["ws"]


def relay(port: int, name: str, token: str, bot: str, concurrency: int = 2) -> Any:
    """``cardcli connect`` for the entrant ``name`` (see :func:`running`)."""
    return running(["connect", f"ws://127.0.0.1:{port}/", "--name", name, "--concurrency", str(concurrency), "-q",
                    "--", *bot.split()], {**ENV, "CARDCLI_TOKEN": token}, 20, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


def matches_of(store: Store, name: str) -> int:
    return len(store.matches(limit=100000, entrant=name))


def verify_export(arena: Path, tmp_path: Path) -> int:
    """Export every record and verify the file; the number of records."""
    out = tmp_path / "export.jsonl"
    cli("arena", "export", str(arena), str(out))
    done = run_cli("verify", str(out), timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out.read_text().count("\n")


def test_a_season_with_programs_and_remote_bots_keeps_its_records_and_standings_true(
        tmp_path: Path, db: str | None) -> None:
    arena = init(tmp_path, db)
    add(arena, "heur", "--command", "heuristic")
    add(arena, "rand", "--command", "random")
    add(arena, "prog", "--command", PYTHON_BOT)
    tokens = {name: add(arena, name, "--remote") for name in ("alice", "bob")}
    version = tmp_path / "alice.version"
    version.write_text("1.0\n")
    store = store_of(arena)
    with serving(arena, "-j", "2", "--listen", "127.0.0.1:0", "--connect-time", "30", "--web", "127.0.0.1:0") as server:
        found = ports(server, "ws", "http")
        port, web = found["ws"], found["http"]
        with relay(port, "alice", tokens["alice"], f"{VERSIONED_BOT} {version}"), \
                relay(port, "bob", tokens["bob"], PYTHON_BOT):
            wait_for(lambda: matches_of(store, "alice") >= 4 and matches_of(store, "bob") >= 4
                     and store.match_count() >= 16, "a season's first matches, remote bots among them", DEADLINE)
            version.write_text("2.0\n")  # the author updates the bot: its next process says 2.0
            wait_for(lambda: {v["label"] for v in store.versions() if v["name"] == "alice"} == {"1.0", "2.0"},
                     "alice's new version", DEADLINE)
            seen = store.match_count()
            wait_for(lambda: store.match_count() >= seen + 8, "more matches after the update", DEADLINE)
        served = httpx.get(f"http://127.0.0.1:{web}/api/matches?limit=5&entrant=alice", timeout=30).json()
        assert len(served["matches"]) == 5 and all("alice" in {s["entrant"] for s in m["seats"]}
                                                   for m in served["matches"])
        server.send_signal(signal.SIGTERM)
        assert server.wait(60) == 143
    labels = {(v["name"], v["label"]) for v in store.versions()}
    assert {("alice", "1.0"), ("alice", "2.0"), ("bob", "1.0")} <= labels
    table = json.loads(cli("arena", "standings", str(arena), "--json", "--recompute").stdout)
    rows = {(row["entrant"], row["version"]): row for row in table["rows"]}
    assert ("alice", "1.0") in rows and ("alice", "2.0") in rows, "each version has its own row"
    stored = json.loads(cli("arena", "standings", str(arena), "--json").stdout)
    assert stored["rows"] == table["rows"], "the standings the server saved are the records' own"
    with store.engine.connect() as conn:
        rated = conn.execute(sa.select(sa.func.count()).select_from(schema.matches)
                             .where(schema.matches.c.rated == sa.true())).scalar_one()
        playing = conn.execute(sa.select(sa.func.count()).select_from(schema.units)
                               .where(schema.units.c.status == "playing")).scalar_one()
    assert table["matches"] == rated and sum(row["matches"] for row in table["rows"]) >= rated
    assert playing == 0, "a clean stop gives back the units under way"
    assert verify_export(arena, tmp_path) == store.match_count()
    for match, line in store.records():
        record = json.loads(line)
        names = [v["name"] for v in store.versions() if v["id"] in match.seating]
        assert set(record["tournament"]["entrants"]) == set(names)
    store.close()


def test_a_bot_that_keeps_faulting_is_disabled_with_the_reason(tmp_path: Path, db: str | None) -> None:
    arena = init(tmp_path, db, "--move-time", "2")
    add(arena, "rand", "--command", "random")
    add(arena, "heur", "--command", "heuristic")
    add(arena, "crashy", "--command", f"{FAULTY_BOT} --crash-at 2")
    store = store_of(arena)
    with serving(arena, "-j", "2"):
        wait_for(lambda: not store.entrant("crashy").enabled, "the faulting bot disabled", DEADLINE)
        disabled_at = time.time()

        def later_units() -> list[UnitRow]:
            return [u for u in store.units_after(0) if u.created > disabled_at + 1]

        wait_for(lambda: len(later_units()) >= 3, "play going on without it", DEADLINE)
    reason = store.entrant("crashy").disabled_reason or ""
    assert re.fullmatch(r"faulted in \d+ of its last \d+ matches \(the limit is 10%\)", reason), reason
    listed = cli("arena", "entrant", "list", str(arena)).stdout
    assert "crashy  program  disabled (faulted in" in listed
    crashy = store.entrant("crashy").id
    later = later_units()
    assert later and all(crashy not in u.lineup for u in later), "a disabled bot is no longer scheduled"
    store.close()


def test_a_replaced_program_is_a_new_version_with_its_own_row(tmp_path: Path, db: str | None) -> None:
    arena = init(tmp_path, db)
    add(arena, "a", "--command", "random")
    add(arena, "b", "--command", "first")
    with serving(arena, "--stop-after", "4") as server:
        assert server.wait(DEADLINE) == 0
    assert "(program 2)" in cli("arena", "entrant", "update", str(arena), "a", "--command", "heuristic").stdout
    with serving(arena, "--stop-after", "4") as server:
        assert server.wait(DEADLINE) == 0
    store = store_of(arena)
    assert {v["label"] for v in store.versions() if v["name"] == "a"} == {"unversioned", "unversioned (program 2)"}
    table = json.loads(cli("arena", "standings", str(arena), "--json").stdout)
    assert {row["version"] for row in table["rows"] if row["entrant"] == "a"} == {"unversioned",
                                                                                  "unversioned (program 2)"}
    store.close()


def _half_played(store: Store) -> set[int]:
    """The units with some of their matches stored and not done."""
    with store.engine.connect() as conn:
        started = set(conn.execute(sa.select(schema.matches.c.unit_id).distinct()).scalars())
        done = set(conn.execute(sa.select(schema.units.c.id).where(schema.units.c.status == "done")).scalars())
    return started - done


def test_sigkill_during_play_loses_and_doubles_nothing(tmp_path: Path, db: str | None) -> None:
    arena = init(tmp_path, db)
    for name, spec in (("a", "random"), ("b", "heuristic"), ("c", "random"), ("d", "first")):
        add(arena, name, "--command", spec)
    store = store_of(arena)
    for _ in range(5):
        before = store.match_count()
        with serving(arena, "-j", "2", "--lease", "2") as server:
            wait_for(lambda: store.match_count() >= before + 3, "matches stored before the kill", DEADLINE)
            _kill_group(server.pid)  # the server, its fork server and its workers, at once
            server.wait(30)
    time.sleep(2.5)  # the dead servers' leases lapse
    half_played = _half_played(store)

    def taken_over() -> bool:
        return not _half_played(store) & half_played

    # oldest first, the last server reaches every half-played unit; it stops cleanly once
    # they are done, giving back only the units of its own still in play
    with serving(arena, "-j", "2", "--lease", "2"):
        wait_for(taken_over, "the killed servers' half-played units taken over and finished", DEADLINE)
    with store.engine.connect() as conn:
        units = {row.id: row for row in conn.execute(sa.select(schema.units))}
        matches = conn.execute(sa.select(schema.matches.c.unit_id, schema.matches.c.rotation)).all()
    assert len(matches) == len(set(matches)), "a match stored twice"
    for unit_id, unit in units.items():
        played = {r for u, r in matches if u == unit_id}
        assert played <= set(range(unit.rotations))
        assert (unit.status == "done") == (len(played) == unit.rotations), f"unit {unit_id}: {unit.status}"
        assert unit.status != "playing", "a unit left claimed after a clean stop"
    abandoned = [u for u in units.values() if u.status == "pending" and any(m[0] == u.id for m in matches)]
    assert len(abandoned) <= 2, "only the last server's own units in play are left half-played"
    assert verify_export(arena, tmp_path) == len(matches)
    store.close()


def test_the_finals_replay_from_their_seed(tmp_path: Path, db: str | None) -> None:
    arena = init(tmp_path, db)
    for name, spec in (("a", "random"), ("b", "heuristic"), ("c", "first")):
        add(arena, name, "--command", spec)
    with serving(arena, "-j", "2", "--stop-after", "8") as server:
        assert server.wait(DEADLINE) == 0
    first = json.loads(cli("arena", "finals", str(arena), "--top", "3", "--deal-sets", "2", "--seed", "5", "--json",
                           timeout=300).stdout)
    second = json.loads(cli("arena", "finals", str(arena), "--top", "3", "--deal-sets", "2", "--seed", "5",
                            "--json", timeout=300).stdout)
    assert (first["finals"], second["finals"]) == ("finals/1", "finals/2")
    assert first["finalists"] == second["finalists"] and len(first["finalists"]) == 3
    assert (arena / "finals-1.json").exists() and (arena / "finals-2.json").exists()
    store = store_of(arena)

    def played(kind: str) -> list[Any]:
        out = []
        for _, line in store.records(kind=kind):
            record = json.loads(line)
            out.append((record["seed"], record["tournament"]["entrants"],
                        [[m["move"] for m in d["moves"]] for d in record["deals"]], record["result"]["scores"]))
        return sorted(out)

    assert played("finals/1") == played("finals/2") != []
    assert [row["entrant"] for row in first["rows"]] == [row["entrant"] for row in second["rows"]]
    ladder = json.loads(cli("arena", "standings", str(arena), "--json", "--recompute").stdout)
    assert ladder["matches"] == len(list(store.records(kind="ladder"))), "the finals are not the ladder's"
    store.close()


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_two_servers_on_one_database_never_play_a_match_twice(tmp_path: Path, db: str | None) -> None:
    arena = init(tmp_path, db)
    for name, spec in (("a", "random"), ("b", "heuristic"), ("c", "random"), ("d", "first"), ("e", "random")):
        add(arena, name, "--command", spec)
    store = store_of(arena)

    def servers() -> int:
        """How many servers have finished a unit (one may start late on a loaded machine)."""
        with store.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count(sa.distinct(schema.units.c.claimed_by)))
                                    .where(schema.units.c.status == "done")).scalar_one())

    with serving(arena, "-j", "1"), serving(arena, "-j", "1"):
        wait_for(lambda: store.match_count() >= 40 and servers() == 2, "both servers' matches", DEADLINE)
    with store.engine.connect() as conn:
        matches = conn.execute(sa.select(schema.matches.c.unit_id, schema.matches.c.rotation)).all()
    assert len(matches) == len(set(matches))
    assert verify_export(arena, tmp_path) == len(matches)
    store.close()
