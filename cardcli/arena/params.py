"""The query values and path ids the arena's API and its pages both read, checked the same
way in both (a value out of range is a 400 before it reaches a query)."""

from __future__ import annotations

import re

from starlette.exceptions import HTTPException

RECENT_MATCHES = 20
"""The matches an entrant's page lists (their ids, newest first)."""
ID_MAX = 2**62
"""Beyond any id the database gives; a larger value is refused before it reaches a query (a
bound integer past 64 bits is an error in SQLite's driver, not an empty answer)."""
_INTEGER = re.compile(r"[+-]?[0-9]{1,30}")


def error(status: int, message: str) -> HTTPException:
    """An HTTP error that the app renders as ``{"error": message}``."""
    return HTTPException(status, message)


def integer(text: str | None, name: str, low: int, high: int) -> int | None:
    """A query value as an integer in ``[low, high]``, None when absent; 400 otherwise."""
    if text is None:
        return None
    if not _INTEGER.fullmatch(text):
        raise error(400, f"{name} must be an integer")
    value = int(text)
    if not low <= value <= high:
        raise error(400, f"{name} must be between {low} and {high}")
    return value


def match_id_of(text: str) -> int:
    """The path's match id; 400 for what is not one."""
    if not text.isascii() or not text.isdigit() or len(text) > 30:
        raise error(400, "a match id is a positive integer")
    return int(text)
