"""Protocol v1: the lines between the referee and a bot, as pure functions and values.

``protocol/PROTOCOL.md`` is the source of truth; this module implements it and nothing else
(no I/O). Framing lives here too, in :class:`LineBuffer`, so every transport splits, decodes
and bounds lines the same way.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import attrs

VERSION = 1
MAX_BOT_LINE = 8192
"""Longest line a bot may send, in bytes, newline included. Longer is a ``malformed`` fault."""
MAX_REFEREE_LINE = 1 << 20
"""Longest line the referee ever sends, in bytes, newline included."""


# -- referee to bot ---------------------------------------------------------------------------


def hello() -> str:
    return f"cardcli {VERSION}"


def match_header(
    game: str,
    variant: str,
    num_seats: int,
    seat: int,
    options: Iterable[tuple[str, str]],
    names: Sequence[str],
    order: str,
    teams: Sequence[Sequence[int]] = (),
    rng: int | None = None,
) -> list[str]:
    """The lines that open a match for one seat, ending with ``begin``."""
    lines = [f"game {game} {variant} {num_seats} {seat}"]
    lines += [f"option {name} {value}" for name, value in options]
    lines += [f"player {i} {one_line(name)}" for i, name in enumerate(names)]
    lines.append(f"order {order}")
    lines += ["team " + " ".join(map(str, team)) for team in teams]
    if rng is not None:
        lines.append(f"rng {rng}")
    lines.append("begin")
    return lines


def go(kind: str, millis: int, moves: Sequence[str]) -> str:
    return " ".join(("go", kind, str(millis), *moves))


def bank(millis: int) -> str:
    """The line before each ``go`` of a match with a time bank: what is left of the seat's bank
    (an addition to version 1: ``go`` cannot take a trailing word, its tail is the moves)."""
    return f"bank {millis}"


def request(kind: str, millis: int, moves: Sequence[str], bank_us: int | None = None) -> list[str]:
    """The lines of one request: ``go``, after ``bank`` when the match has a time bank. Every
    seat that writes requests (a bot's stream, a replayed seat) writes them through this."""
    line = go(kind, millis, moves)
    return [line] if bank_us is None else [bank(bank_us // 1000), line]


def setoption(name: str, value: str) -> str:
    """The line that sets one option a bot declared (an addition to version 1), sent after
    ``ready`` and before the first ``game`` header; no answer is expected."""
    return f"setoption {name} {value}"


MAX_OPTION_NAME = 100
"""Longest option name a referee sets, in characters: as long as a declared name is kept."""
MAX_OPTION_VALUE = 1000
"""Longest option value a referee sets, in characters."""


def option_problem(name: str, value: str) -> str | None:
    """Why a bot option cannot be set as given, or None: its name and value are each one word
    of a ``setoption`` line."""
    return (option_word_problem(name, "name", MAX_OPTION_NAME)
            or option_word_problem(value, f"value of {name}", MAX_OPTION_VALUE))


def option_word_problem(text: str, what: str, limit: int) -> str | None:
    """Why ``text`` cannot be an option's name or value on a ``setoption`` line (``what`` says
    which), or None. Each is one word: a space would shift the value into the name for a bot
    that splits on spaces, and a newline would end the line and start another."""
    if not text:
        return f"the {what} is empty"
    if len(text) > limit:
        return f"the {what} is longer than {limit} characters"
    if any(ch.isspace() for ch in text):
        return f"the {what} {text[:40]!r} holds a space or a line break (an option's name and value are one word each)"
    if not text.isprintable():
        return f"the {what} {text[:40]!r} holds a control character"
    return None


def result(standings: Sequence[str]) -> str:
    return " ".join(("result", *standings))


def quit_line() -> str:
    return "quit"


def one_line(text: str) -> str:
    """Text made safe to end a line: control characters become spaces."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split()) or "-"


# -- bot to referee ---------------------------------------------------------------------------


@attrs.frozen
class BotLine:
    """One parsed line from a bot.

    ``kind`` is one of ``id``, ``option``, ``ready``, ``move``, ``info``, ``empty`` or
    ``unknown``; ``word`` and ``text`` hold its fields (``id name Foo`` gives word ``name`` and
    text ``Foo``; ``move QS`` gives text ``QS``).
    """

    kind: str
    word: str = ""
    text: str = ""


KNOWN = frozenset({"id", "option", "ready", "move", "info"})


def parse_bot_line(line: str) -> BotLine:
    """Parse a line already framed by :class:`LineBuffer` (no newline, valid UTF-8)."""
    stripped = line.strip()
    if not stripped:
        return BotLine("empty")
    head, _, rest = stripped.partition(" ")
    rest = rest.strip()
    if head not in KNOWN:
        return BotLine("unknown", head, rest)
    if head == "id":
        word, _, text = rest.partition(" ")
        return BotLine("id", word, text.strip())
    if head == "option":
        word, _, text = rest.partition(" ")
        return BotLine("option", word, text.strip())
    return BotLine(head, "", rest)


def move_of(line: str) -> str | None:
    """The text of a ``move`` line (what :func:`parse_bot_line` gives), else None: the line
    read once per request, so the usual ``move QS`` is recognised without the general parse."""
    if line.startswith("move "):
        return line[5:].strip()
    parsed = parse_bot_line(line)
    return parsed.text if parsed.kind == "move" else None


# -- framing ----------------------------------------------------------------------------------


class FramingError(ValueError):
    """A byte stream that breaks the framing rules: too long a line or invalid UTF-8."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class LineBuffer:
    """Splits a byte stream into lines: ``\\n``-terminated, ``\\r\\n`` accepted, strict UTF-8,
    at most ``limit`` bytes a line (newline included).

    Memory stays bounded: an over-long line is refused as soon as ``limit`` bytes arrive without
    a newline, however much more is pending. Lines stay in order with their errors: a line
    completed before the over-long one is still given out first (a bot's ``ready`` followed in
    the same read by endless output has said ``ready``), so the error is raised by ``feed`` only
    when no complete line is waiting, and otherwise by the ``pop`` after the last of them; what
    is fed in between belongs to the refused stream and is dropped.
    """

    def __init__(self, limit: int = MAX_BOT_LINE):
        self.limit = limit
        self._pending = bytearray()
        self._lines: list[bytes] = []
        self._error: FramingError | None = None

    def feed(self, data: bytes) -> None:
        if self._error is not None:
            return
        if data and not self._pending and data.find(b"\n") == len(data) - 1 and len(data) <= self.limit:
            self._lines.append(data[:-1])
            return
        self._pending += data
        while True:
            cut = self._pending.find(b"\n")
            if cut < 0:
                break
            if cut + 1 > self.limit:
                self._overflow()
                return
            self._lines.append(bytes(self._pending[:cut]))
            del self._pending[: cut + 1]
        if len(self._pending) >= self.limit:
            self._overflow()

    def _overflow(self) -> None:
        """Refuse the line being read: at once when nothing precedes it, else after the lines
        already complete (kept for :meth:`pop`)."""
        head = bytes(self._pending[:60])
        self._pending.clear()
        error = FramingError("malformed", f"line longer than {self.limit} bytes: {head!r}...")
        if not self._lines:
            raise error
        self._error = error

    def pop(self) -> str | None:
        """The next complete line, decoded, without its line end; None when none is complete.
        Raises the framing error that follows the last complete line, once."""
        if not self._lines:
            error = self._error
            if error is not None:
                self._error = None
                raise error
            return None
        raw = self._lines.pop(0)
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise FramingError("malformed", f"invalid UTF-8: {raw[:60]!r}") from None

    @property
    def has_lines(self) -> bool:
        """True when :meth:`pop` has something to give: a complete line, or the error after
        them."""
        return bool(self._lines) or self._error is not None

    @property
    def refused(self) -> bool:
        """True while an over-long line has been refused and its error waits behind complete
        lines: reading more from the stream is pointless until it has been raised."""
        return self._error is not None

    @property
    def partial(self) -> bytes:
        """Bytes received after the last newline."""
        return bytes(self._pending)
