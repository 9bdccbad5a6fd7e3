"""The first season's tables: the arena, entrants, versions, units, matches, appearances and
the standings' latest row."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arena",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "entrants",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(128)),
        sa.Column("options", sa.Text, nullable=False, server_default="{}"),
        sa.Column("enabled", sa.Boolean, nullable=False),
        sa.Column("disabled_reason", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "versions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("entrant_id", sa.Integer, sa.ForeignKey("entrants.id"), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("entrant_id", "label"),
    )
    op.create_table(
        "units",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("lineup", sa.Text, nullable=False),
        sa.Column("rotations", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("claimed_by", sa.String(64)),
        sa.Column("claimed_at", sa.Float),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("units_by_status", "units", ["status", "id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("unit_id", sa.Integer, sa.ForeignKey("units.id"), nullable=False),
        sa.Column("rotation", sa.Integer, nullable=False),
        sa.Column("seating", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("faults", sa.Integer, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.UniqueConstraint("unit_id", "rotation"),
    )
    op.create_index("matches_by_finished", "matches", ["finished"])
    op.create_table(
        "appearances",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("version_id", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("faulted", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index("appearances_by_version", "appearances", ["version_id", "match_id"])
    op.create_table(
        "standings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("table", sa.Text, nullable=False),
        sa.Column("computed", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("standings", "appearances", "matches", "units", "versions", "entrants", "arena"):
        op.drop_table(table)
