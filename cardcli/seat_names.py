"""Who sat in each seat of a recorded match, as the user knows them.

In a tournament the user knows an entrant by the name the organiser gave it (``--bot mine=...``),
which the table, ``watch``, the HTML page and the text replay all show; a seat's recorded
``name`` is the bot's own ``id name`` (``ruby-ducker``), which the organiser may never have
seen. Outside a tournament the recorded name is the only one. One function serves every reader,
so no two of them name the same seat differently.
"""

from __future__ import annotations

from typing import Any


def seat_names(record: dict[str, Any]) -> list[str]:
    """Each seat's name: in a tournament's record, its entrants as the tournament names them;
    otherwise each seat's recorded ``name``."""
    recorded = bot_names(record)
    entrants = (record.get("tournament") or {}).get("entrants")
    if isinstance(entrants, list) and len(entrants) == len(recorded):
        return [str(e) for e in entrants]
    return recorded


def bot_names(record: dict[str, Any]) -> list[str]:
    """Each seat's bot as it named itself (``id name``), or as the referee named its player."""
    return [str(s.get("name", "?")) for s in record.get("seats", [])]
