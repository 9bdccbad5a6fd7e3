"""The tokens file: one ``NAME TOKEN`` per line, the secrets that let a remote bot take its seat.

The organiser makes it (``cardcli tokens new alice bob > tokens.txt``) and sends each author
their own line. It is read whole and checked line by line before anything listens, so a typo
is a one-line error naming the line rather than a bot refused at match time.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Iterable, Mapping

from ..errors import UsageError
from ..small_files import read_small
from . import wire

MAX_FILE = 1 << 20
TOKEN_BYTES = 24
"""Random bytes in a new token: 192 bits, written as 32 URL-safe characters."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_lines(names: Iterable[str]) -> list[str]:
    """A tokens file for ``names``, one fresh token each; UsageError for a name that cannot be
    one or is given twice."""
    lines, seen = [], set()
    for name in names:
        check_name(name)
        if name in seen:
            raise UsageError(f"{name!r} is given twice")
        seen.add(name)
        lines.append(f"{name} {new_token()}")
    return lines


def check_name(name: str) -> None:
    if not wire.NAME.fullmatch(name):
        raise UsageError(f"{name[:80]!r} cannot be a remote entrant's name: 1 to 64 letters, digits "
                         "and _.- (starting with a letter or digit)")


def read_tokens(path: Path) -> Mapping[str, str]:
    """Name → token, from the file at ``path``; blank lines and lines starting with ``#`` are
    skipped."""
    raw = read_small(path, MAX_FILE, "a tokens file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    tokens: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        where = f"{path}:{number}"
        if len(words) != 2:
            raise UsageError(f"{where}: a line is 'NAME TOKEN'")
        name, token = words
        if not wire.NAME.fullmatch(name):
            raise UsageError(f"{where}: {name[:80]!r} cannot be a name (letters, digits and _.-, up to 64)")
        if not wire.TOKEN.fullmatch(token):
            raise UsageError(f"{where}: the token of {name} is not 16 to 128 letters, digits, '-' or '_'")
        if name in tokens:
            raise UsageError(f"{where}: {name} has a token already")
        tokens[name] = token
    if not tokens:
        raise UsageError(f"{path}: no 'NAME TOKEN' line")
    return tokens
