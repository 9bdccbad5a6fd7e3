"""Text from bots and records made safe to print on a terminal.

A bot's name, its ``info`` lines and every string in a record file are written by someone who
may want to win by other means: a name holding ``ESC [2J`` clears the screen, an OSC sequence
sets the window title or writes the clipboard, and a cursor-up with a carriage return can
overwrite the referee's own ``winners:`` line with a forged one. Bidirectional overrides
reorder what is shown without changing what is stored, and a lone surrogate cannot even be
encoded (``UnicodeEncodeError``). :func:`printable` is the one function every command passes
such text through before printing it, whether stdout is a terminal or not (a log file is read
on a terminal later).

Characters are escaped visibly, never dropped, so a reader sees that something was there:
ESC becomes the four characters ``\\x1b``, a right-to-left override ``\\u202e``. Only the
program's own line structure prints real newlines.
"""

from __future__ import annotations

import unicodedata

NAME_WIDTH = 40
"""Characters of a bot's name shown in tables and summaries; a longer name is cut with a
marker that gives its full length, so one name cannot push a table off the screen."""

DETAIL_WIDTH = 300
"""Characters shown of a longer untrusted text, such as a fault's detail or a protocol line:
more than the referee's own details take (they quote at most 200 characters of a bot's text),
so only a made-up record is cut here."""

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories escaped: control characters (C0, DEL and C1), format characters (the
bidirectional marks, overrides and isolates, and invisible characters that would make two
names look alike), lone surrogates, and the line and paragraph separators."""

SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: object, width: int | None = None) -> str:
    """``text`` with every unsafe character escaped, cut to ``width`` characters if given.

    Anything that is not a string is shown as ``str()`` gives it, since a record field may
    hold any JSON value. A cut never splits an escape, and ends with ``... (N chars)``, N being
    the length of the original text.
    """
    raw = text if isinstance(text, str) else str(text)
    if raw.isprintable() and (width is None or len(raw) <= width):
        return raw
    pieces: list[str] = []
    used = 0
    for ch in raw:
        piece = _escape(ch)
        if width is not None and used + len(piece) > width:
            return "".join(pieces) + f"... ({len(raw)} chars)"
        pieces.append(piece)
        used += len(piece)
    return "".join(pieces)


def display_name(text: object) -> str:
    """A bot's or entrant's name as shown: escaped and bounded to :data:`NAME_WIDTH`."""
    return printable(text, NAME_WIDTH)


def _escape(ch: str) -> str:
    """One character as printed: itself when safe, else its escape in Python's notation."""
    if unicodedata.category(ch) not in UNSAFE_CATEGORIES:
        return ch
    if ch in SHORT_ESCAPES:
        return SHORT_ESCAPES[ch]
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def json_text(encoded: str) -> str:
    """JSON text (from ``json.dumps``) with every unsafe character written as a ``\\uXXXX``
    escape: the same JSON value for a program that reads it, nothing a terminal would act on
    (``json.dumps`` escapes C0 controls itself, but not DEL, C1 or bidirectional overrides)."""
    if encoded.isprintable():
        return encoded
    return "".join(ch if unicodedata.category(ch) not in UNSAFE_CATEGORIES else _json_escape(ch) for ch in encoded)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
