"""``cardcli watch``: follow a record file or a tournament directory while it is being written."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ..records import io as records
from ..records.model import Record
from ..safe_text import display_name, printable
from ..seat_names import seat_names
from ..tournament import results as tables
from ..tournament import runner
from .options import max_record_bytes


@click.command("watch")
@click.argument("path", type=click.Path(exists=True))
@click.option("--interval", type=click.FloatRange(min=0.05), default=0.5, show_default=True,
              help="Seconds between looks at the file.")
@click.option("--once", is_flag=True, help="Show what is there now and exit.")
@max_record_bytes
def watch(path: str, interval: float, once: bool, max_bytes: int) -> int:
    """Show each game as it finishes, and the standings so far, until interrupted (Ctrl-C).

    PATH is a record file that `play --record` is appending to, or a tournament directory.
    """
    target = Path(path)
    names: list[str] | None = None
    if target.is_dir():
        names = runner.load(target).names
        target = target / runner.RECORDS
    follower = _Follower(target, max_bytes)
    seen: list[dict[str, Any]] = []
    try:
        while True:
            fresh = follower.new_records()
            for record in fresh:
                seen.append(_brief(record))
                click.echo(_line(len(seen), record, seat_names(record)))
            if fresh:
                click.echo(_standings(seen) if names is None else _tournament_table(target.parent, names))
            if once:
                return 0
            time.sleep(interval)
    except KeyboardInterrupt:
        return 0


class _Follower:
    """Reads the complete records added to a file since the last look (a torn last line waits),
    through the records' one reader: bounded lines, every record's shape checked."""

    def __init__(self, path: Path, max_bytes: int):
        self.path = path
        self.max_bytes = max_bytes
        self.offset = 0
        self.line = 1

    def new_records(self) -> list[Record]:
        """The records added since the last look, as typed values (each shape-checked by the
        reader before its model is built)."""
        if not self.path.exists():
            return []
        out = []
        for line in records.lines(self.path, self.max_bytes, self.offset, self.line):
            if not line.complete:
                break
            if line.raw.strip():
                out.append(Record.from_json(records.parse(line.raw, f"{self.path}:{line.number}")))
            self.offset, self.line = line.offset + len(line.raw), line.number + 1
        return out


def _brief(record: Record) -> dict[str, Any]:
    """What the standings need of a record (the whole record is not kept)."""
    result = record.result
    names = list(record.names)
    return {"winners": [names[s] for s in result.winners] if result is not None else [],
            "losers": [names[s] for s in result.losers] if result is not None else [], "names": names}


def _line(number: int, record: Record, seat_names: list[str]) -> str:
    """One finished game as a line, the seats named by ``seat_names``; every string from the
    record is shown escaped, names through :func:`display_name` as in the table."""
    result = record.result
    names = [display_name(n) for n in seat_names]
    head = f"game {number}: {printable(record.game)} {printable(record.variant)} " \
           f"seed {printable(record.seed)}, {len(record.deals)} deals"
    if result is None:
        return f"{head}: {printable(record.status)}"
    if result.annulled:
        return f"{head}: annulled"
    winners = ", ".join(f"{s}:{names[s]}" for s in result.winners)  # one entrant may fill two seats
    return f"{head}: won by {winners}; scores {printable(list(result.scores))}"


def _standings(seen: list[dict[str, Any]]) -> str:
    wins: dict[str, int] = {}
    played: dict[str, int] = {}
    for brief in seen:
        for name in set(brief["names"]):
            played[name] = played.get(name, 0) + 1
        for name in set(brief["winners"]):
            wins[name] = wins.get(name, 0) + 1
    order = sorted(played, key=lambda n: (-wins.get(n, 0), n))
    return "standings: " + ", ".join(f"{display_name(n)} {wins.get(n, 0)}/{played[n]} won" for n in order)


def _tournament_table(directory: Path, names: list[str]) -> str:
    table = tables.tabulate(names, runner.records_in_order(directory, runner.finished_read_only(directory)))
    return tables.render(table, names)
