"""Alembic's entry point: migrations run on the connection the arena's store hands over
(:func:`cardcli.arena.store.migrate`), never on a URL of alembic.ini's."""

from __future__ import annotations

from alembic import context

from cardcli.arena.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
