"""The failure bundles of the matches a program entrant faulted in (what it was sent, what it
answered, how its stderr ended), kept for its author's view (:mod:`cardcli.arena.author`)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fault_bundles",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("fault_bundles")
