"""The shape of a record, checked before a record is replayed.

``verify`` and ``replay`` read records that may have been edited, truncated or made up. This
module checks every field they rely on for its JSON type first, so the replay itself only
ever meets well-typed data and a malformed record fails with one clear message rather than a
crash deep inside the walk. The fields of each move are the exception: the walk checks them
as it reads them (:func:`cardcli.replay.move_fields`), which spares a second pass over
every move of the record.
"""

from __future__ import annotations

from typing import Any

INT = (int,)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(value: Any) -> bool:
    return isinstance(value, list) and all(_is_int(v) for v in value)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def problem(record: Any) -> str | None:
    """What is wrong with the record's shape, or None when every field has its type."""
    if not isinstance(record, dict):
        return "a record is a JSON object"
    for key, test, kind in (
        ("game", lambda v: isinstance(v, str), "a string"),
        ("variant", lambda v: isinstance(v, str), "a string"),
        ("options", lambda v: isinstance(v, dict), "an object"),
        ("seed", lambda v: _is_int(v) and v >= 0, "a non-negative integer"),
        ("status", lambda v: isinstance(v, str), "a string"),
        ("seats", lambda v: isinstance(v, list) and all(isinstance(s, dict) for s in v), "a list of objects"),
        ("deals", lambda v: isinstance(v, list) and all(isinstance(d, dict) for d in v), "a list of objects"),
        ("faults", lambda v: isinstance(v, list) and all(isinstance(f, dict) and _is_int(f.get("seat")) for f in v),
         "a list of faults with seat numbers"),
        ("settings", lambda v: isinstance(v, dict), "an object"),
    ):
        if key not in record:
            return f"the record has no {key!r}"
        if not test(record[key]):
            return f"{key!r} must be {kind}"
    for number, deal in enumerate(record["deals"], start=1):
        found = _deal_problem(deal)
        if found:
            return f"deal {number}: {found}"
    result = record.get("result")
    if result is not None:
        if not isinstance(result, dict) or not all(
            _ints(result.get(k)) for k in ("scores", "winners", "losers", "draws", "forfeits")
        ):
            return "'result' must hold lists of integers"
    if "max_deals" in record["settings"] and not _is_int(record["settings"]["max_deals"]):
        return "'settings.max_deals' must be an integer"
    return None


def _deal_problem(deal: dict[str, Any]) -> str | None:
    if not _is_int(deal.get("number")) or not _is_int(deal.get("dealer")):
        return "'number' and 'dealer' must be integers"
    moves = deal.get("moves")
    if not isinstance(moves, list):
        return "'moves' must be a list"
    for key in ("points", "totals"):
        if deal.get(key) is not None and not _ints(deal[key]):
            return f"{key!r} must be a list of integers"
    if not _strings(deal.get("notes", [])):
        return "'notes' must be a list of texts"
    return None
