"""The arena: a season-long competition served from a database (``cardcli arena``).

A tournament is one schedule played from an organiser's shell; an arena lives for weeks.
Entrants join and change their bots while it runs, a ladder plays them continuously in
duplicate units (one deal set, every seat rotation), every record is committed to the
database before its match counts, and the standings say how sure they are. ``docs/arena.md``
is the organiser's and the author's guide.

The modules: :mod:`.schema` (the tables) and :mod:`.migrations` (Alembic's history of them),
:mod:`.store` (every read and write of the database), :mod:`.config` (what ``arena init``
fixes), :mod:`.secrets` (tokens, stored as hashes only).
"""
