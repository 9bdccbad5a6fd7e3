"""Game records: the complete account of a match, one JSON object per line of a file.

A record holds everything needed to replay and re-verify a match without the bots: the game,
variant, options and seed (so every deal can be recomputed), the seats, every deal's hands,
every move in order with its seat, wire text and time, the faults, the per-deal and final
scores. ``docs/records.md`` documents the format; :data:`FORMAT_VERSION` changes whenever a
reader of the old format would misread the new one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import attrs

from . import __version__
from .errors import RecordError

FORMAT = "cardcli-record"
FORMAT_VERSION = 1


@attrs.frozen
class MoveRecord:
    seat: int
    kind: str
    move: str
    ms: float
    by: str = "seat"
    """``seat`` when the seat's own player chose it; ``fallback`` after a fault."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "move": self.move, "ms": self.ms}
        if self.by != "seat":
            data["by"] = self.by
        return data


@attrs.frozen
class FaultRecord:
    seat: int
    kind: str
    detail: str
    deal: int
    move: int
    """Index in the deal's move list of the move the fault was about (where it was due)."""

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.define
class DealRecord:
    """One deal; built move by move while the match runs, then frozen into JSON."""

    number: int
    dealer: int
    facts: dict[str, Any]
    """What was dealt (``hands``, and a ``floor`` or ``dead`` hand where the game has one)."""
    moves: list[MoveRecord] = attrs.field(factory=list)
    points: list[int] | None = None
    totals: list[int] | None = None
    notes: list[str] = attrs.field(factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            **self.facts,
            "moves": [m.to_json() for m in self.moves],
            "points": self.points,
            "totals": self.totals,
            "notes": self.notes,
        }


def software() -> str:
    return f"cardcli {__version__}"


def dump(record: dict[str, Any]) -> str:
    """One record as one line of JSON (no newline inside, keys in a stable order)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def append(path: Path, record: dict[str, Any]) -> None:
    """Append a record as one line and make it durable (flushed and fsynced) before returning."""
    append_line(path, dump(record))


def append_line(path: Path, line: str) -> None:
    """Append a record already written by :func:`dump` (a tournament worker writes its own),
    durably."""
    line += "\n"
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
    except OSError as err:
        raise RecordError(f"cannot write the record to {path}: {err.strerror}") from None


def check_appendable(path: Path) -> None:
    """Fail before a match, not after it, when its record could not be written: open the file
    for appending (creating it, empty, if it does not exist) and close it again."""
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        raise RecordError(f"cannot write the record to {path}: {err.strerror}") from None


@attrs.frozen
class Loaded:
    line: int
    record: dict[str, Any]


def read(path: Path) -> Iterator[Loaded]:
    """The records in a file, in order, each with its line number.

    Raises RecordError with the line number for anything that is not a record of a known
    format version: a torn last line (a match cut short while being written), a line that is
    not JSON, or an unknown format.
    """
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: is a directory, not a record file") from None
    except OSError as err:
        raise RecordError(f"{path}: cannot read: {err.strerror}") from None
    with handle:
        number = 0
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            if not raw.endswith(b"\n"):
                raise RecordError(f"{path}:{number}: the last record is torn (no line end)")
            yield Loaded(number, _parse(path, number, raw))
        if number == 0:
            raise RecordError(f"{path}: the file holds no record")


def _parse(path: Path, number: int, raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise RecordError(f"{path}:{number}: not a JSON record ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path}:{number}: not a cardcli record")
    if data.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            f"{path}:{number}: record format version {data.get('format_version')!r} is not "
            f"supported (this is {software()}, format {FORMAT_VERSION})"
        )
    return data
