"""Who sat in each seat of a recorded match, as the user knows them.

In a tournament the user knows an entrant by the name the organiser gave it (``--bot mine=...``),
which the table, ``watch``, the HTML page and the text replay all show; a seat's recorded
``name`` is the bot's own ``id name`` (``ruby-ducker``), which the organiser may never have
seen. Outside a tournament the recorded name is the only one. One function serves every reader,
so no two of them name the same seat differently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: this module sits beside the records, not above them
    from .records.model import Record


def seat_names(record: Record) -> list[str]:
    """Each seat's name: in a tournament's record, its entrants as the tournament names them;
    otherwise each seat's recorded ``name``."""
    recorded = bot_names(record)
    entrants = record.tournament.entrants if record.tournament is not None else None
    if entrants is not None and len(entrants) == len(recorded):
        return list(entrants)
    return recorded


def bot_names(record: Record) -> list[str]:
    """Each seat's bot as it named itself (``id name``), or as the referee named its player."""
    return list(record.names)
