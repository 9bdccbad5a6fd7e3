"""Alembic's history of the arena's tables (:mod:`cardcli.arena.schema`): ``arena init``
builds a database by running every migration, and ``arena upgrade`` brings an older one to
the current schema. A migration is written out in full (never generated from the current
tables at run time), so that it builds the same tables in every later version of cardcli.

To add one: change :mod:`..schema`, then write ``versions/NNNN_what.py`` with ``revision``,
``down_revision`` and ``upgrade()``; ``tests/test_arena_store.py`` fails until the migrations
build exactly what the schema says."""
