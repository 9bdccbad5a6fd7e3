"""Each version's rating over time, for the standings page's chart.

The standings saved by a server (:meth:`.Store.save_standings`) hold only the latest ratings;
the chart needs their past. A point (version, time, mu, sigma) is written as the standings
are saved, in the same transaction, and the table is kept bounded, since a season has no end:

- **Only moves.** A version gets a point at its first rated match and then only when its
  rating (as the table rounds it) moved, and at most one every :data:`EVERY` seconds: a
  server saves its standings every few seconds, and a chart needs no more than a point a
  minute. The page adds the current rating as the last point, so nothing between two points
  is missing from what it shows now.
- **Halved when full.** When a version holds more than :data:`KEPT` points, every other one
  is deleted (the first and the last kept): the whole line at half the detail. The older a
  point, the more halvings it has been through, so the past thins out geometrically while
  the recent weeks stay dense, and a version never holds more than :data:`KEPT` points:
  the table grows with the versions, not with the matches.

Several servers sharing a season each save standings, so each may write a point; the spacing
is judged against the newest point in the database, whoever wrote it.
"""

from __future__ import annotations

from typing import Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from . import schema

EVERY = 60.0
"""The least time between two points of one version, in seconds."""
KEPT = 512
"""The most points one version keeps (then halved)."""
Z95 = 1.96
"""The table's ``rating_ci`` is this many sigmas."""

Point = tuple[float, float, float]
"""(time, mu, sigma)."""


def ratings(table: dict[str, Any]) -> dict[int, tuple[float, float]]:
    """Version id → (mu, sigma) of every row of saved standings that has played."""
    out = {}
    for row in table.get("rows", []):
        if row.get("matches") and row.get("version_id") is not None:
            out[int(row["version_id"])] = (float(row["rating"]), round(float(row["rating_ci"]) / Z95, 4))
    return out


def record(conn: Connection, table: dict[str, Any], now: float, every: float = EVERY, kept: int = KEPT) -> int:
    """Write the points the standings ``table`` (saved at ``now``) call for, on ``conn`` (the
    transaction that saves them), then halve any version past ``kept``; how many were written."""
    current = ratings(table)
    if not current:
        return 0
    h = schema.rating_history
    newest = sa.select(sa.func.max(h.c.id)).where(h.c.version_id.in_(list(current))).group_by(h.c.version_id)
    last = {int(r.version_id): (float(r.time), float(r.mu), float(r.sigma))
            for r in conn.execute(sa.select(h.c.version_id, h.c.time, h.c.mu, h.c.sigma).where(h.c.id.in_(newest)))}
    due: list[dict[str, Any]] = []
    for version, (mu, sigma) in current.items():
        before = last.get(version)
        if before is None or ((before[1], before[2]) != (mu, sigma) and now - before[0] >= every):
            due.append({"version_id": version, "time": now, "mu": mu, "sigma": sigma})
    if due:
        conn.execute(h.insert(), due)
        _thin(conn, [d["version_id"] for d in due], kept)
    return len(due)


def _thin(conn: Connection, versions: Iterable[int], kept: int) -> None:
    h = schema.rating_history
    full = conn.execute(sa.select(h.c.version_id).where(h.c.version_id.in_(list(versions)))
                        .group_by(h.c.version_id).having(sa.func.count() > kept)).scalars().all()
    for version in full:
        ids = conn.execute(sa.select(h.c.id).where(h.c.version_id == version).order_by(h.c.time, h.c.id)).scalars().all()
        doomed = [int(i) for n, i in enumerate(ids[:-1]) if n % 2 == 1]
        conn.execute(h.delete().where(h.c.id.in_(doomed)))


def read(engine: Engine, versions: Iterable[int]) -> dict[int, list[Point]]:
    """The points of ``versions``, oldest first (at most :data:`KEPT` each)."""
    wanted = list(versions)
    if not wanted:
        return {}
    h = schema.rating_history
    out: dict[int, list[Point]] = {v: [] for v in wanted}
    with engine.connect() as conn:
        for row in conn.execute(sa.select(h.c.version_id, h.c.time, h.c.mu, h.c.sigma)
                                .where(h.c.version_id.in_(wanted)).order_by(h.c.version_id, h.c.time, h.c.id)):
            out[int(row.version_id)].append((float(row.time), float(row.mu), float(row.sigma)))
    return out
