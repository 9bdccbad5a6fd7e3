"""Failure bundles: what a tournament keeps beside the record of a match in which a bot faulted.

A record says that seat 2 timed out in deal 7; its author needs what the bot was sent and what
it sent back, and how its stderr ended. Those exist only in the worker that played the match,
so the worker writes them into a text (:func:`bundle`) that travels with the record, and the
parent stores it as ``faults/match-N-seat-S.txt`` once the record is appended, naming the
record's line in ``records.jsonl``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import attrs

from ..errors import RecordError
from ..records.model import Record
from ..safe_text import printable
from ..seats.base import Seat
from ..seats.process import ProcessSeat
from ..transcript import FROM_BOT, TO_BOT, write
from .paired import tournament_tag

FAULTS = "faults"
"""The folder of the tournament directory that holds the bundles."""


@attrs.frozen
class Bundle:
    """One faulty seat's bundle: the file's name and its text, less the record's line number,
    which only the parent knows."""

    name: str
    seat: int
    heading: str
    """Its first line: the match and seat by the tournament's numbering."""
    text: str
    """The rest: the command, the fault, the last request, the protocol lines, the stderr's end
    (what the arena keeps, under its own numbering)."""

    def save(self, records: Path, line: int) -> Path:
        """Write the bundle in the ``faults`` folder beside ``records``, the tournament's records
        file, whose ``line`` holds the match's record. The folder lies in the tournament
        directory, which no bot can see."""
        folder = records.parent / FAULTS
        folder.mkdir(exist_ok=True)
        path = folder / self.name
        replay = f"cardcli replay {records} --game {line} --seat {self.seat} --protocol"
        head = f"record: line {line} of {records.name}; its protocol lines again: {replay}\n"
        tmp = path.with_name(f".{self.name}.{os.getpid()}")
        tmp.write_text(head + self.heading + "\n" + self.text, encoding="utf-8")
        os.replace(tmp, path)
        return path


def bundles(record: Record, seats: Sequence[Seat]) -> tuple[Bundle, ...]:
    """A bundle for each seat that faulted in the match and ran a program (a built-in player
    has no lines to show). ``record`` is the match's tagged record, which names the entrants."""
    made = []
    tag = tournament_tag(record)
    index = tag.index
    for fault in record.faults:
        seat = fault.seat
        bot = seats[seat]
        if not isinstance(bot, ProcessSeat):
            continue
        transcript = bot.transcript
        if tag.entrants is None:
            raise RecordError(f"match {index}: a tournament record without its entrants' names")
        entrant = tag.entrants[seat]
        heading = f"match {index} (key {tag.key}), seed {record.seed}: seat {seat}, entrant {printable(entrant)}"
        lines = [
            f"command: {printable(' '.join(bot.command))}"
            + (f" (in {printable(bot.launch.workdir)})" if bot.launch.workdir is not None else ""),
            f"fault: {fault.kind} in deal {fault.deal}, move {fault.move + 1}: {printable(fault.detail)}",
        ]
        request, answer = transcript.last_request()
        if request is not None:
            lines += ["", "last request and what the bot sent after it:", request.text(),
                      *(e.text() for e in answer)]
        lines += ["", f"the last lines of its protocol (seconds since the bot started; {TO_BOT} sent to the bot, "
                      f"{FROM_BOT} sent by it):", *write(transcript.entries(), timed=True)]
        tail = bytes(bot.stderr_tail).decode("utf-8", "replace")
        stderr_path = bot.stderr_path
        lines += ["", f"the end of its stderr ({len(tail.encode())} bytes"
                      + (f"; all of it in {stderr_path}" if stderr_path is not None else "") + "):"]
        lines += [printable(line) for line in tail.splitlines()]
        made.append(Bundle(f"match-{index}-seat-{seat}.txt", seat, heading, "\n".join(lines) + "\n"))
    return tuple(made)


def bundle_count(directory: Path) -> int:
    """The failure bundles a tournament directory holds."""
    folder = directory / FAULTS
    return sum(1 for p in folder.glob("match-*.txt")) if folder.is_dir() else 0
