"""Opening files from paths a user gave (records, keys, a tournament's configuration): every
failure one line naming what was asked for, and a file small by nature never read past its
bound."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from .errors import CardcliError, UsageError


def open_to_read(path: str | Path, kind: str, shown: str | None = None,
                 error: type[CardcliError] = UsageError) -> BinaryIO:
    """``path`` opened for reading in binary, or ``error`` in one line saying why not
    (missing, a directory where ``kind`` was expected, unreadable). ``shown`` is how the
    message names the file (the option that gave it, say), the path by default."""
    name = shown if shown is not None else str(path)
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except IsADirectoryError:
        raise error(f"{name}: is a directory, not {kind}") from None
    except OSError as err:
        raise error(f"{name}: cannot read: {err.strerror}") from None


def read_small(path: str | Path, limit: int, kind: str, shown: str | None = None,
               error: type[CardcliError] = UsageError) -> bytes:
    """The bytes of ``path``, or ``error`` saying why not (see :func:`open_to_read`), or that
    it is longer than ``limit``: then it is not ``kind`` at all, and is not read whole."""
    with open_to_read(path, kind, shown, error) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise error(f"{shown if shown is not None else path}: longer than {limit} bytes, not {kind}")
    return data
