"""The ratings over time, for the standings page's chart: one row per version each time its
rating moved and was saved (thinned as :meth:`cardcli.arena.store.Store.save_standings` says)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("version_id", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
        sa.Column("time", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("rating_history_by_version", "rating_history", ["version_id", "time"])


def downgrade() -> None:
    op.drop_index("rating_history_by_version", "rating_history")
    op.drop_table("rating_history")
