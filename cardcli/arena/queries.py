"""The reads the arena's web pages make beyond the API's: matches filtered by version and by
faults, and who won each match, read by the database out of the records.

Kept apart from :mod:`.store` (whose queries the server's own work runs) because they serve
only the pages, and each is shaped so that a page costs what it shows, not the season: every
one is ``ORDER BY id DESC LIMIT n`` over an index, or a lookup of a few ids.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

import attrs
import sqlalchemy as sa

from . import schema
from .store import StoredMatch, Store


@attrs.frozen
class Placing:
    """The seats of a match in each group of its result (empty without a result)."""

    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    draws: tuple[int, ...] = ()


def find_matches(store: Store, limit: int, after: int | None = None, versions: Sequence[int] | None = None,
                 faulted: bool | None = None) -> list[StoredMatch]:
    """The newest matches first, with a smaller id than ``after`` when given; only those where
    one of ``versions`` sat, when given; with ``faulted`` True only those with a fault (by one
    of ``versions``, when given), False only those without."""
    m, a = schema.matches, schema.appearances
    query = sa.select(m.c.id, m.c.unit_id, m.c.rotation, m.c.seating, m.c.rated, m.c.faults, m.c.finished)
    if after is not None:
        query = query.where(m.c.id < after)
    if versions is not None:
        if not versions:
            return []
        seats = sa.select(a.c.match_id).where(a.c.version_id.in_(list(versions)))
        if faulted is not None:
            query = query.where(m.c.id.in_(seats))
            seats = seats.where(a.c.faulted == sa.true())
            query = query.where(m.c.id.in_(seats) if faulted else m.c.id.not_in(seats))
        else:
            query = query.where(m.c.id.in_(seats))
    elif faulted is not None:
        query = query.where(m.c.faults > 0 if faulted else m.c.faults == 0)
    with store.engine.connect() as conn:
        rows = conn.execute(query.order_by(m.c.id.desc()).limit(limit)).all()
    return [StoredMatch(r.id, r.unit_id, r.rotation, tuple(json.loads(r.seating)), bool(r.rated), r.faults,
                        r.finished) for r in rows]


def placings(store: Store, match_ids: Sequence[int]) -> dict[int, Placing]:
    """The winners, losers and draws (seats) of the matches ``match_ids``, read by the database
    out of each record's ``result`` (a page filtered by result reads a few hundred of these;
    carrying the records here to parse them would cost a hundredfold)."""
    if not match_ids:
        return {}
    m = schema.matches
    ids = sorted(set(match_ids))
    if store.engine.dialect.name == "sqlite":
        record = sa.type_coerce(m.c.record, sa.JSON)
        query: sa.Select[Any] = sa.select(m.c.id, record[("result",)].as_string())
    else:
        top = (sa.func.json_to_record(sa.cast(m.c.record, sa.JSON))
               .table_valued(sa.column("result", sa.Text)).render_derived(name="top", with_types=True))
        query = sa.select(m.c.id, top.c.result).select_from(m).join(top, sa.true())
    with store.engine.connect() as conn:
        rows = conn.execute(query.where(m.c.id.in_(ids))).all()
    out = {}
    for match_id, text in rows:
        result = json.loads(text) if text else None
        if isinstance(result, dict):
            out[int(match_id)] = Placing(*(tuple(int(s) for s in result.get(k) or ()) for k in
                                           ("winners", "losers", "draws")))
        else:
            out[int(match_id)] = Placing()
    return out


def fault_details(store: Store, match_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """The faults each of the matches ``match_ids`` recorded (``seat``, ``kind``, ``detail``,
    ``deal``, ``move`` as the record has them), for an entrant's page: a few matches, read
    whole."""
    out = {}
    for match_id in match_ids:
        line = store.record_line(match_id)
        if line is None:
            continue
        faults = json.loads(line).get("faults") or []
        out[match_id] = [f for f in faults if isinstance(f, dict)]
    return out
