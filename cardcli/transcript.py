"""Protocol transcripts: the lines between the referee and one seat, in one written form.

A live bot keeps the last of its lines (:class:`Transcript`) so that a fault can be shown with
the request and the answer that led to it (``check-bot``, a tournament's failure bundle);
``replay --protocol`` writes the lines a seat was sent and sent back, re-derived from a record.
All of them write a line the way ``--verbose`` logs it: ``<<`` for what the referee sent to the
bot, ``>>`` for what the bot sent, so a bot author reads one notation everywhere.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Iterable, Iterator

import attrs

from .safe_text import printable

TO_BOT = "<<"
"""Marks a line the referee sent to the seat."""
FROM_BOT = ">>"
"""Marks a line the seat sent to the referee."""

KEPT_LINES = 400
"""Lines a live transcript keeps (the last ones): a whole deal of the longest game with its
requests and answers, so a fault is shown with everything the bot knew of the deal."""
KEPT_WIDTH = 400
"""Characters kept of each line a bot sent (it may send 8 KiB of anything). The referee's own
lines are kept whole: the game bounds them (a Peppa pass offers 286 moves, 2.6 kB), and a bot
author replaying a failure needs them exactly."""


@attrs.frozen
class Entry:
    """One line of a transcript: ``at`` seconds from the transcript's start."""

    at: float
    direction: str
    line: str

    def text(self, timed: bool = False, moves: int | None = None) -> str:
        """The line as written in a transcript, escaped: a bot's line may hold anything. With
        ``moves``, a ``go`` line shows that many of its moves and how many there are."""
        stamp = f"{self.at:9.3f} " if timed else ""
        line = self.line if moves is None else shorten_request(self.line, moves)
        return f"{stamp}{self.direction} {printable(line)}"


class Transcript:
    """The last :data:`KEPT_LINES` lines of one bot process, both ways. Appending costs a
    length check and a deque append, so every bot keeps one at all times."""

    def __init__(self) -> None:
        self._lines: deque[tuple[float, str, str]] = deque(maxlen=KEPT_LINES)
        self._start = time.monotonic()

    def restart(self) -> None:
        """Forget every line (a new process starts)."""
        self._lines.clear()
        self._start = time.monotonic()

    def sent(self, lines: Iterable[str]) -> None:
        now = time.monotonic() - self._start
        for line in lines:
            self._lines.append((now, TO_BOT, line))

    def received(self, line: str) -> None:
        self._lines.append((time.monotonic() - self._start, FROM_BOT, _clip(line)))

    def entries(self) -> list[Entry]:
        return [Entry(at, direction, line) for at, direction, line in self._lines]

    def last_request(self) -> tuple[Entry | None, list[Entry]]:
        """The last ``go`` line sent and everything the bot sent after it (its answer, or
        what it sent instead): what a fault report shows first."""
        entries = self.entries()
        for k in range(len(entries) - 1, -1, -1):
            entry = entries[k]
            if entry.direction == TO_BOT and entry.line.startswith("go "):
                return entry, [e for e in entries[k + 1:] if e.direction == FROM_BOT]
        return None, [e for e in entries if e.direction == FROM_BOT]


def _clip(line: str) -> str:
    return line if len(line) <= KEPT_WIDTH else f"{line[:KEPT_WIDTH]}... ({len(line)} chars)"


def shorten_request(line: str, moves: int) -> str:
    """A ``go`` line with only its first ``moves`` moves and the count of all of them; any
    other line as it is."""
    words = line.split(" ")
    if words[0] != "go" or len(words) <= 3 + moves:
        return line
    return " ".join(words[:3 + moves]) + f" ... ({len(words) - 3} moves in all)"


def write(entries: Iterable[Entry], timed: bool = False) -> Iterator[str]:
    """The transcript's lines as text."""
    for entry in entries:
        yield entry.text(timed)
