"""Reading a file that is small by nature (a key, a tournament's configuration) from a path a
user gave: never more than its bound, and every failure one line naming what was asked for."""

from __future__ import annotations

from pathlib import Path

from .errors import CardcliError, UsageError


def read_small(path: str | Path, limit: int, kind: str, shown: str | None = None,
               error: type[CardcliError] = UsageError) -> bytes:
    """The bytes of ``path``, or ``error`` saying why not: missing, a directory, unreadable, or
    longer than ``limit`` (then not ``kind`` at all, and not read whole). ``shown`` is how the
    message names the file (the option that gave it, say), the path by default."""
    name = shown if shown is not None else str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except IsADirectoryError:
        raise error(f"{name}: is a directory, not {kind}") from None
    except OSError as err:
        raise error(f"{name}: cannot read: {err.strerror}") from None
    if len(data) > limit:
        raise error(f"{name}: longer than {limit} bytes, not {kind}")
    return data
