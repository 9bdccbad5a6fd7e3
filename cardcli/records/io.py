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
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Iterator

import attrs

from .. import __version__
from ..errors import RecordError
from ..small_files import open_to_read

if TYPE_CHECKING:
    from .model import Record

try:
    import fcntl
except ImportError:  # not on Windows: appends are then not locked
    fcntl = None  # type: ignore[assignment]

FORMAT = "cardcli-record"
FORMAT_VERSION = 1


class OnFault(StrEnum):
    """What the referee does when a seat faults: ``--on-fault``, and the record's
    ``settings.on_fault`` (the values are the texts written there)."""

    REPLACE = "replace"
    """The faulty seat forfeits, and a random player finishes its moves."""
    ABORT = "abort"
    """The match stops at the fault."""


@attrs.frozen
class MoveRecord:
    seat: int
    kind: str
    move: str
    ms: float
    by: str = "seat"
    """``seat`` when the seat's own player chose it; ``fallback`` after a fault."""
    bank_ms: float | None = None
    """What was left of the seat's time bank after the move, in milliseconds; None when the
    match has no time bank."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "move": self.move, "ms": self.ms}
        if self.by != "seat":
            data["by"] = self.by
        if self.bank_ms is not None:
            data["bank_ms"] = self.bank_ms
        return data


@attrs.frozen
class FaultRecord:
    seat: int
    kind: str = attrs.field(converter=str)
    """The fault's kind as text (a ``FaultKind`` member becomes its value): the record holds
    plain JSON values only."""
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


def undeclared_options(record: dict[str, Any]) -> list[tuple[int, str, list[str]]]:
    """The bot options set for a seat that were not sent because its bot, which finished its
    handshake, did not declare them: (seat, option, the names the bot declared), in seat
    order. A seat that faulted before its first deal is left out: its options were not sent
    because it never became ready, which its fault already says."""
    early = {fault["seat"] for fault in record["faults"] if fault["deal"] == 0}
    found = []
    for place, seat in enumerate(record["seats"]):
        if place in early:
            continue
        declared = [name for name, _ in seat.get("bot", {}).get("options", [])]
        found += [(place, option["name"], declared) for option in seat.get("set_options", []) if not option["sent"]]
    return found


def software() -> str:
    return f"cardcli {__version__}"


def dump(record: dict[str, Any]) -> str:
    """One record as one line of JSON (no newline inside, keys in a stable order)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def append(path: Path, record: dict[str, Any]) -> "Repair | None":
    """Append a record as one line and make it durable (flushed and fsynced) before returning;
    a torn last line found in the file first is repaired (:func:`repair_tail`), never glued to."""
    return append_line(path, dump(record))


def append_line(path: Path, line: str) -> "Repair | None":
    """Append a record already written by :func:`dump` (a tournament worker writes its own),
    durably, and return what was done to a torn last line found there, if anything.

    The file is locked (``flock``) from the look at its last line to the fsync, so two
    cardcli processes appending to one file never cut or glue each other's records."""
    data = (line + "\n").encode("utf-8")
    try:
        with open(path, "a+b") as f:
            _lock(f)
            repaired = _repair(f, path, MAX_RECORD_BYTES)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as err:
        raise RecordError(f"cannot write the record to {path}: {err.strerror}") from None
    return repaired


def check_appendable(path: Path) -> None:
    """Fail before a match, not after it, when its record could not be written: open the file
    for appending (creating it, empty, if it does not exist) and close it again."""
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        raise RecordError(f"cannot write the record to {path}: {err.strerror}") from None


MAX_RECORD_BYTES = 16 << 20
"""The longest record line a reader accepts by default, in bytes (16 MiB). The longest real
records are Pepper's at the 500-deal limit, 0.79 MB for four players; the largest record the
referee can write at that limit, with ``--keep-info`` and bots that fill their info quota with
escaped text, stays just under it. A line over the limit is refused as soon as the limit is
read, so a reader never holds more than this much of one line; parsing a line costs at most
about 30 times its length in memory (the worst case, a line of ``[],``, takes 450 MB and 3 s
at this limit). ``--max-record-bytes`` raises it for longer matches."""

BYTES_PER_DEAL = MAX_RECORD_BYTES // 500
"""What a record may take per deal of its deal limit when a tournament reads its own records:
the default limit spread over the default 500 deals, 20 times what the longest real record
takes (Pepper, 1.6 kB per deal)."""

MAX_DEPTH = 16
"""Deepest nesting of arrays and objects a record line may have. A record nests 6 deep (a
seat's bot options); the limit is checked by a scan of the line before it is parsed, so a
line of 200,000 brackets costs a few milliseconds, not a parse."""

_CHUNK = 1 << 20


def limit_for(max_deals: int) -> int:
    """The line limit for records of matches with a deal limit of ``max_deals``: a tournament
    with a higher deal limit than the default writes longer records, and must read them back."""
    return max(MAX_RECORD_BYTES, max_deals * BYTES_PER_DEAL)


@attrs.frozen
class Line:
    """One line of a record file, as bytes, with where it starts."""

    number: int
    offset: int
    raw: bytes
    """The line with its newline; without it only for the last line of a file being written."""

    @property
    def complete(self) -> bool:
        return self.raw.endswith(b"\n")


def lines(path: Path, max_bytes: int = MAX_RECORD_BYTES, start: int = 0, number: int = 1) -> Iterator[Line]:
    """The lines of a file from byte ``start`` (line ``number``), read in chunks.

    A line longer than ``max_bytes`` (its newline aside) raises RecordError as soon as that
    many bytes of it are read, so an endless line (``/dev/zero``) fails at once and memory
    stays bounded. The last line is yielded even without its newline: a reader decides
    whether it is torn (``verify``) or still being written (``watch``, a tournament).
    """
    handle = _open(path)
    with handle:
        if start:
            handle.seek(start)
        offset = start
        pending = bytearray()
        while chunk := handle.read(_CHUNK):
            at = 0
            while (end := chunk.find(b"\n", at)) >= 0:
                if len(pending) + end - at > max_bytes:
                    raise _too_long(path, number, max_bytes)
                if pending:
                    pending += chunk[at:end + 1]
                    raw = bytes(pending)
                    pending.clear()
                else:
                    raw = chunk[at:end + 1]
                yield Line(number, offset, raw)
                offset += len(raw)
                number += 1
                at = end + 1
            if len(pending) + len(chunk) - at > max_bytes:
                raise _too_long(path, number, max_bytes)
            pending += chunk[at:]
        if pending:
            yield Line(number, offset, bytes(pending))


def _open(path: Path) -> BinaryIO:
    return open_to_read(path, "a record file", error=RecordError)


def _too_long(path: Path, number: int, max_bytes: int) -> RecordError:
    return RecordError(f"{path}:{number}: a line longer than {max_bytes} bytes "
                       f"(a longer record needs --max-record-bytes)")


def line_number(path: Path, offset: int) -> int:
    """The number of the line that starts at byte ``offset``: for messages about a record
    found by its offset, so counted only when there is something to report."""
    count = 1
    with _open(path) as handle:
        while offset > 0 and (chunk := handle.read(min(_CHUNK, offset))):
            count += chunk.count(b"\n")
            offset -= len(chunk)
    return count


@attrs.frozen
class Repair:
    """What :func:`repair_tail` did to a file whose last line had no line end."""

    line: int
    """The number of that line."""
    size: int
    """Its length in bytes."""
    ended: bool
    """True: it was a whole record without its newline, and was ended; False: it was cut off."""

    def describe(self, path: Path | str) -> str:
        if self.ended:
            return f"{path}:{self.line}: the last record had no line end; ended it there"
        return (f"{path}:{self.line}: cut off a torn last line ({self.size} bytes of a record cut short "
                f"while it was written)")


def repair_tail(path: Path, max_bytes: int = MAX_RECORD_BYTES) -> Repair | None:
    """Make a record file end with a whole line before anything is appended to it: a last line
    without its newline (a writer killed mid-record) is cut off, unless it is a whole record
    missing only its newline, which is ended. ``play --record`` and a tournament's resume share
    this, so a record is never glued to a fragment (the pair would be one line no reader
    accepts). Returns what was done, or None for a file that ends well (or does not exist)."""
    try:
        with open(path, "r+b") as f:
            _lock(f)
            return _repair(f, path, max_bytes)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise RecordError(f"{path}: cannot repair its last line: {err.strerror}") from None


def _repair(handle: BinaryIO, path: Path, max_bytes: int) -> Repair | None:
    size = handle.seek(0, os.SEEK_END)
    if size == 0:
        return None
    handle.seek(size - 1)
    if handle.read(1) == b"\n":
        return None
    start = _last_line_start(handle, size)
    length = size - start
    ended = False
    if length <= max_bytes:
        handle.seek(start)
        try:
            decode(handle.read(length))
            ended = True
        except LineError:
            ended = False
    if ended:
        handle.seek(size)
        handle.write(b"\n")
    else:
        handle.truncate(start)
    handle.flush()
    os.fsync(handle.fileno())
    return Repair(line_number(path, start), length, ended)


def _last_line_start(handle: BinaryIO, size: int) -> int:
    """The offset just after the last newline before ``size`` (0 when there is none), found by
    reading backwards, so a long file costs only its last line."""
    end = size
    while end > 0:
        begin = max(0, end - _CHUNK)
        handle.seek(begin)
        at = handle.read(end - begin).rfind(b"\n")
        if at >= 0:
            return begin + at + 1
        end = begin
    return 0


def _lock(handle: BinaryIO) -> None:
    """An exclusive advisory lock on the whole file until it is closed (where ``flock`` exists)."""
    if fcntl is not None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)


@attrs.frozen
class Loaded:
    line: int
    record: dict[str, Any]
    """The record as read: a checked JSON object (:func:`decode`)."""

    @property
    def model(self) -> Record:
        """The record as typed values (:class:`cardcli.records.model.Record`), built anew on
        each use: a reader that uses it more than once keeps it."""
        from .model import Record

        return Record.from_json(self.record)


def read(path: Path, max_bytes: int = MAX_RECORD_BYTES) -> Iterator[Loaded]:
    """The records in a file, in order, each with its line number.

    Raises RecordError naming the file and line for anything that is not a well-formed record
    of a known format version: see :func:`complete_lines` and :func:`decode`.
    """
    for line in complete_lines(path, max_bytes):
        yield Loaded(line.number, parse(line.raw, f"{path}:{line.number}"))


def read_models(path: Path, max_bytes: int = MAX_RECORD_BYTES) -> Iterator[tuple[int, Record]]:
    """The records in a file as typed values, each with its line number (see :func:`read`)."""
    from .model import Record

    for loaded in read(path, max_bytes):
        yield loaded.line, Record.from_json(loaded.record)


def complete_lines(path: Path, max_bytes: int = MAX_RECORD_BYTES) -> Iterator[Line]:
    """The lines of a finished record file that hold something: raises RecordError for a
    torn last line (a match cut short while being written), a line over ``max_bytes`` and a
    file without any record."""
    found = False
    for line in lines(path, max_bytes):
        if not line.complete:
            raise RecordError(f"{path}:{line.number}: the last record is torn (no line end)")
        if line.raw.strip():
            found = True
            yield line
    if not found:
        raise RecordError(f"{path}: the file holds no record")


def parse(raw: bytes, where: str) -> dict[str, Any]:
    """One record line, checked through and through (:func:`decode`); a problem is a
    RecordError that starts with ``where``."""
    try:
        return decode(raw)
    except LineError as err:
        raise RecordError(f"{where}: {err}") from None


class LineError(RecordError):
    """What is wrong with a line, before the caller says where the line is."""


def decode(raw: bytes) -> dict[str, Any]:
    """A record line as a record whose every field a reader uses has its type and bounds.

    Whatever the bytes, this returns a record that ``verify``, ``replay``, ``watch`` and a
    tournament's table can use without failing, or raises LineError saying what is wrong.
    """
    try:
        data = load_json(raw)
    except LineError as err:
        raise LineError(f"not a JSON record ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LineError("not a cardcli record")
    version = data.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        shown = repr(version) if version is None or type(version) in (int, float, bool, str) else "?"
        raise LineError(
            f"record format version {shown[:40]} is not supported "
            f"(this is {software()}, format {FORMAT_VERSION})"
        )
    if _SURROGATE_ESCAPE.search(raw):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise LineError("a text holds a lone UTF-16 surrogate (\\ud800 to \\udfff), which is not a character") from None
    from . import shape  # the shape's checks, for a command that reads records

    found = shape.problem(data)
    if found is not None:
        raise LineError(f"malformed record: {found}")
    return data


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_MARKS = bytes(b for b in range(256) if b not in b'"[]{}')
_PARENS = bytes.maketrans(b"[{]}", b"(())")
_STRING = re.compile(rb'"[^"]*"')


def load_json(raw: bytes) -> Any:
    """Any JSON text, within bounds: UTF-8, nested at most :data:`MAX_DEPTH` deep, integers
    within Python's digit limit, no ``NaN`` or ``Infinity``, no key twice in one object.
    Raises LineError saying why not.

    The depth is checked before parsing, because ``json.loads`` recurses once per level. A
    repeated key is refused because readers disagree on it (Python keeps the last, others the
    first): a record with two ``result`` fields would say one thing to ``verify`` and another
    to a different tool.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise LineError(f"not UTF-8 at byte {err.start}") from None
    deep = f"arrays and objects nested over {MAX_DEPTH} deep"
    if too_deep(raw):
        raise LineError(deep)
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as err:
        raise LineError(str(err)) from None
    except _Constant as err:
        raise LineError(f"{err} is not a JSON number") from None
    except _Duplicate as err:
        raise LineError(f"the key {err.args[0][:40]!r} appears twice in one object") from None
    except ValueError:
        raise LineError(f"a number of more than {sys.get_int_max_str_digits()} digits") from None
    except RecursionError:
        raise LineError(deep) from None


def too_deep(raw: bytes) -> bool:
    """Whether the JSON text nests arrays and objects deeper than :data:`MAX_DEPTH`.

    A scan at the speed of ``bytes`` methods (a few milliseconds for a long real record):
    escapes are dropped, so every quote left opens or closes a string; only quotes and
    brackets are kept; empty strings go, and the strings that hold brackets (rare) are cut out.
    What remains are the brackets outside strings, and each pass that removes the innermost
    pairs lowers the depth by one. Invalid JSON may be misjudged either way; ``json.loads``
    then refuses it (its own recursion limit is the last guard).
    """
    marks = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _MARKS)
    if len(marks) <= 2 * MAX_DEPTH:
        return False
    marks = marks.replace(b'""', b"")
    if b'"' in marks:
        marks = _STRING.sub(b"", marks)
    bare = marks.translate(_PARENS)
    for _ in range(MAX_DEPTH):
        shorter = bare.replace(b"()", b"")
        if len(shorter) == len(bare):
            return False
        bare = shorter
    return b"()" in bare


class _Constant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``: Python's JSON reader takes them, JSON does not."""


def _no_constant(name: str) -> Any:
    raise _Constant(name)


class _Duplicate(ValueError):
    """A key that appears twice in one JSON object."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return data


def without_moves(record: dict[str, Any]) -> dict[str, Any]:
    """A record's JSON object with its deals' moves left out (the rest shared, not copied):
    what a table of results reads, at a fraction of a long record's size."""
    return {**record, "deals": [{**deal, "moves": []} for deal in record["deals"]]}
