"""The arena's tables, in SQLAlchemy Core: one definition that SQLite and PostgreSQL share.

Every change to them is an Alembic migration (:mod:`.migrations`); ``tests/test_arena_store.py``
checks that the migrations build exactly these tables, so the two cannot drift.

Times are seconds since the epoch (a float): portable between the two databases, cheap to
compare, and what the scheduler computes with. JSON values are stored as text written by
:func:`json.dumps` (the records themselves are the lines ``cardcli verify`` reads, byte for
byte).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

arena = sa.Table(
    "arena", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)
"""One row: the arena's configuration (:class:`cardcli.arena.config.ArenaConfig` as JSON)."""

entrants = sa.Table(
    "entrants", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False, unique=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("token_hash", sa.String(128)),
    sa.Column("options", sa.Text, nullable=False, server_default="{}"),
    sa.Column("enabled", sa.Boolean, nullable=False),
    sa.Column("disabled_reason", sa.Text),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("generation", sa.Integer, nullable=False, server_default="0"),
)
"""Who plays: a remote bot (``kind`` remote, its token's hash) or a program or built-in player
the arena runs (``kind`` program, its seat spec; ``generation`` counts the times the organiser
replaced it, each a new version)."""

versions = sa.Table(
    "versions", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("entrant_id", sa.Integer, sa.ForeignKey("entrants.id"), nullable=False),
    sa.Column("label", sa.String(200), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.UniqueConstraint("entrant_id", "label"),
)
"""A rated row: an entrant's bot as it was (its ``id version``, or its program's seat spec).
A new version starts a new row; the earlier ones keep their games."""

units = sa.Table(
    "units", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("lineup", sa.Text, nullable=False),
    sa.Column("rotations", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("claimed_by", sa.String(64)),
    sa.Column("claimed_at", sa.Float),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("units_by_status", "status", "id"),
)
"""A scheduled unit: one deal set (``seed``) played by a group of versions (``lineup``, their
ids as a JSON list) in every seat rotation. ``status`` is ``pending``, ``playing`` (claimed by
a server, since ``claimed_at``) or ``done``; a unit claimed by a server that died is pending
again at the next start."""

matches = sa.Table(
    "matches", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("unit_id", sa.Integer, sa.ForeignKey("units.id"), nullable=False),
    sa.Column("rotation", sa.Integer, nullable=False),
    sa.Column("seating", sa.Text, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("faults", sa.Integer, nullable=False),
    sa.Column("finished", sa.Float, nullable=False),
    sa.UniqueConstraint("unit_id", "rotation"),
    sa.Index("matches_by_finished", "finished"),
)
"""A finished match: its record line exactly as ``cardcli verify`` reads it, the version in
each seat (``seating``), whether it counts for the ratings, and how many faults it holds.
``(unit_id, rotation)`` is unique: a match stored twice (two servers, a restart) is refused by
the database itself."""

appearances = sa.Table(
    "appearances", metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
    sa.Column("version_id", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("faulted", sa.Boolean, nullable=False),
    sa.PrimaryKeyConstraint("match_id", "seat"),
    sa.Index("appearances_by_version", "version_id", "match_id"),
)
"""Which version sat in which seat of which match: what an entrant's page and its fault rate
read without parsing records."""

standings = sa.Table(
    "standings", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("table", sa.Text, nullable=False),
    sa.Column("computed", sa.Float, nullable=False),
)
"""The latest standings, computed from the rated records by the tournament's own table
(:func:`cardcli.tournament.results.tabulate`) after matches are stored: the API reads this row
instead of folding every record on every request."""

rating_history = sa.Table(
    "rating_history", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("version_id", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
    sa.Column("time", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Index("rating_history_by_version", "version_id", "time"),
)
"""Each version's rating (mu, sigma) over time, written as the standings are saved: what the
standings page draws its chart from. Bounded per version (:meth:`.Store.save_standings`)."""

fault_bundles = sa.Table(
    "fault_bundles", metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.PrimaryKeyConstraint("match_id", "seat"),
)
"""The failure bundle of each seat that faulted in a match and ran a program
(:func:`cardcli.tournament.bundles.bundles`): its last protocol lines with their times and the
end of its stderr, which exist only in the worker that played the match. Written with the match,
in its transaction; read only by the author's view (:mod:`.author`), never by the public pages
or the API, since a bot's stderr is its author's."""
