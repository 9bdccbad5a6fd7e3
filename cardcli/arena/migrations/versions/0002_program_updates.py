"""An entrant's program can be replaced during the season (``arena entrant update``): each
replacement is a new generation, and the bot it runs a new version."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("entrants") as table:
        table.add_column(sa.Column("generation", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("entrants") as table:
        table.drop_column("generation")
