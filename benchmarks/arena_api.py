"""Latency of the arena's HTTP API over a season-sized database, over real HTTP on loopback.

A store is filled with ``--matches`` (100,000) stored matches: a few real matches are played
first (the ladder's own service, two built-in players), and their record lines are copied
into synthetic rows, inserted straight through SQLAlchemy with their appearances and units,
among ``--entrants`` entrants of two versions each; the standings row is the real one's row
repeated per version. Then :class:`cardcli.arena.api.WebServer` serves the store on
127.0.0.1 and each request below is sent ``--requests`` times (after a few to warm up), one
at a time over one keep-alive connection, and the p50 and p95 of the wall time are printed:

- ``GET /api/standings``;
- ``GET /api/matches?limit=50``: the newest page;
- ``GET /api/matches?limit=50&entrant=NAME``: each entrant in turn, the rarest included;
- ``GET /api/matches?limit=50&after=ID``: pages at random depths;
- ``GET /api/entrants/NAME``: an entrant's page (its recent matches and fault count).

The target is a p95 under 50 ms. SQLite by default (a file in a temporary directory);
``--postgres URL`` runs on an empty PostgreSQL database as well.

Usage: ``python3 benchmarks/arena_api.py [--matches 100000] [--requests 200] [--postgres URL]``
(needs ``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardcli.arena import schema  # noqa: E402
from cardcli.arena.api import WebServer, make_app  # noqa: E402
from cardcli.arena.config import ArenaConfig  # noqa: E402
from cardcli.arena.service import Service  # noqa: E402
from cardcli.arena.table import standings  # noqa: E402
from cardcli.arena.store import EntrantKind, Store  # noqa: E402
from cardcli.arena.workers import Workers  # noqa: E402
from cardcli.referee import Settings  # noqa: E402
from cardcli.seats.policy import SandboxMode, SandboxPolicy  # noqa: E402

CONFIG = ArenaConfig("peppa", "torino", {}, 4, 42, Settings(move_time=2.0), sandbox=SandboxPolicy(mode=SandboxMode.OFF))
ROTATIONS = 4
"""Matches per unit (Peppa's four seats, two entrants: every rotation of a deal set)."""
CHUNK = 2000
"""Matches inserted per transaction."""


def real_matches(where: Path, count: int = 8) -> tuple[list[str], dict[str, Any]]:
    """``count`` record lines and the standings table of a ladder that really played them."""
    store = Store.create(f"sqlite:///{where / 'real.db'}", CONFIG)
    store.add_entrant("random", EntrantKind.PROGRAM, "random")
    store.add_entrant("heuristic", EntrantKind.PROGRAM, "heuristic")
    workers = Workers(1)
    workers.start()
    try:
        service = Service(store, workers)
        service.run(until=lambda: service.stored >= count)
    finally:
        workers.close()
    lines = [line for _, line in store.records()]
    table = standings(store)
    store.close()
    return lines, table


def fill(url: str, matches: int, entrants: int, lines: list[str], table: dict[str, Any]) -> list[str]:
    """A new arena at ``url`` holding ``matches`` synthetic matches; the entrants' names."""
    store = Store.create(url, CONFIG)
    rng = random.Random(1)
    names = [f"bot{i}" for i in range(entrants)]
    versions: list[list[int]] = []
    ids: list[int] = []
    for name in names:
        entrant = store.add_entrant(name, EntrantKind.PROGRAM, "random")
        ids.append(entrant)
        versions.append([store.version_id(entrant, label) for label in ("1.0", "2.0")])
    weights = [2.0 ** -i for i in range(entrants)]  # the last entrant plays rarely, as a newcomer does
    started = time.time() - matches * 5.0
    match_id = 0
    unit_id = 0
    with store.engine.begin() as conn:
        while match_id < matches:
            units, rows, seats = [], [], []
            for _ in range(CHUNK // ROTATIONS):
                unit_id += 1
                pair = _two(rng, entrants, weights)
                lineup = [versions[e][1 if unit_id > matches // ROTATIONS // 2 else 0] for e in pair]
                units.append({"id": unit_id, "kind": "ladder", "seed": unit_id, "rotations": ROTATIONS,
                              "status": "done", "lineup": json.dumps({"entrants": [ids[e] for e in pair],
                                                                      "versions": lineup}),
                              "created": started + match_id * 5.0})
                for rotation in range(ROTATIONS):
                    match_id += 1
                    seating = [lineup[(seat + rotation) % 2] for seat in range(4)]
                    faulted = {seat for seat in range(4) if rng.random() < 0.002}
                    rows.append({"id": match_id, "unit_id": unit_id, "rotation": rotation,
                                 "seating": json.dumps(seating), "record": lines[match_id % len(lines)],
                                 "rated": True, "faults": len(faulted), "finished": started + match_id * 5.0})
                    seats += [{"match_id": match_id, "version_id": v, "seat": s, "faulted": s in faulted}
                              for s, v in enumerate(seating)]
            conn.execute(schema.units.insert(), units)
            conn.execute(schema.matches.insert(), rows)
            conn.execute(schema.appearances.insert(), seats)
        if conn.dialect.name == "postgresql":  # ids were given: the sequences follow them
            for table_name in ("units", "matches"):
                conn.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table_name}', 'id'), "
                                     f"(SELECT max(id) FROM {table_name}))"))
            conn.execute(sa.text("ANALYZE"))
    if store.engine.dialect.name == "sqlite":
        with store.engine.connect() as conn:
            conn.execute(sa.text("ANALYZE"))
            conn.commit()
    template = table["rows"][0]
    rows_out = [{**template, "entrant": name, "version": label, "version_id": version}
                for name, ids in zip(names, versions) for label, version in zip(("1.0", "2.0"), ids)]
    rows_out = [{**row, "rank": rank} for rank, row in enumerate(rows_out, start=1)]
    store.save_standings({**table, "matches": matches, "rows": rows_out}, matches)
    store.close()
    return names


def _two(rng: random.Random, entrants: int, weights: list[float]) -> list[int]:
    first = rng.choices(range(entrants), weights)[0]
    second = first
    while second == first:
        second = rng.choices(range(entrants), weights)[0]
    return [first, second]


def measure(url: str, names: list[str], matches: int, requests: int) -> list[tuple[str, float, float]]:
    """(request, p50 ms, p95 ms) for each kind of request."""
    store = Store.open(url)
    server = WebServer(make_app(store), "127.0.0.1", 0)
    server.start()
    rng = random.Random(2)
    out = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as client:
            kinds: list[tuple[str, Any]] = [
                ("/api/standings", lambda i: "/api/standings"),
                ("/api/matches?limit=50", lambda i: "/api/matches?limit=50"),
                ("/api/matches?limit=50&entrant=NAME", lambda i: f"/api/matches?limit=50&entrant={names[i % len(names)]}"),
                (f"/api/matches?limit=50&entrant={names[-1]} (the rarest)",
                 lambda i: f"/api/matches?limit=50&entrant={names[-1]}"),
                ("/api/matches?limit=50&after=ID", lambda i: f"/api/matches?limit=50&after={rng.randint(2, matches)}"),
                ("/api/entrants/NAME", lambda i: f"/api/entrants/{names[i % len(names)]}"),
            ]
            for label, path in kinds:
                for i in range(10):
                    client.get(path(i)).raise_for_status()
                times = []
                for i in range(requests):
                    started = time.perf_counter()
                    response = client.get(path(i))
                    times.append((time.perf_counter() - started) * 1000)
                    response.raise_for_status()
                cuts = statistics.quantiles(times, n=100, method="inclusive")
                out.append((label, statistics.median(times), cuts[94]))
    finally:
        server.stop()
        store.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--entrants", type=int, default=6)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--postgres", metavar="URL", help="An empty PostgreSQL database to run on as well.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        lines, table = real_matches(where)
        print(f"{len(lines)} real records of {min(map(len, lines))}-{max(map(len, lines))} bytes; "
              f"{args.matches} matches, {args.entrants} entrants, {args.requests} requests each")
        urls = [("SQLite", f"sqlite:///{where / 'arena.db'}")]
        if args.postgres:
            urls.append(("PostgreSQL", args.postgres))
        for name, url in urls:
            started = time.perf_counter()
            names = fill(url, args.matches, args.entrants, lines, table)
            print(f"\n{name}: filled in {time.perf_counter() - started:.0f} s")
            print(f"  {'request':<58} {'p50 ms':>7} {'p95 ms':>7}")
            for label, p50, p95 in measure(url, names, args.matches, args.requests):
                print(f"  {label:<58} {p50:7.1f} {p95:7.1f}")


if __name__ == "__main__":
    main()
