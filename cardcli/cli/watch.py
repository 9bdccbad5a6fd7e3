"""``cardcli watch``: follow a record file or a tournament directory while it is being written."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from ..errors import UsageError
from ..tournament import results as tables
from ..tournament import runner


@click.command("watch")
@click.argument("path", type=click.Path(exists=True))
@click.option("--interval", type=click.FloatRange(min=0.05), default=0.5, show_default=True,
              help="Seconds between looks at the file.")
@click.option("--once", is_flag=True, help="Show what is there now and exit.")
def watch(path: str, interval: float, once: bool) -> int:
    """Show each game as it finishes, and the standings so far, until interrupted (Ctrl-C).

    PATH is a record file that `play --record` is appending to, or a tournament directory.
    """
    target = Path(path)
    names: list[str] | None = None
    if target.is_dir():
        names = runner.load(target).names
        target = target / runner.RECORDS
    follower = _Follower(target)
    seen: list[dict[str, Any]] = []
    try:
        while True:
            fresh = follower.new_records()
            for record in fresh:
                seen.append(_brief(record))
                click.echo(_line(len(seen), record))
            if fresh:
                click.echo(_standings(seen) if names is None else _tournament_table(target.parent, names))
            if once:
                return 0
            time.sleep(interval)
    except KeyboardInterrupt:
        return 0


class _Follower:
    """Reads the complete lines added to a file since the last look (a torn last line waits)."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0

    def new_records(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self.offset += end
        out = []
        for raw in data[:end].splitlines():
            if raw.strip():
                try:
                    out.append(json.loads(raw))
                except json.JSONDecodeError:
                    raise UsageError(f"{self.path}: a line that is not JSON") from None
        return out


def _brief(record: dict[str, Any]) -> dict[str, Any]:
    """What the standings need of a record (the whole record is not kept)."""
    result = record.get("result") or {}
    names = [s.get("name", "?") for s in record.get("seats", [])]
    return {"winners": [names[s] for s in result.get("winners", [])],
            "losers": [names[s] for s in result.get("losers", [])], "names": names}


def _line(number: int, record: dict[str, Any]) -> str:
    result = record.get("result")
    names = [s.get("name", "?") for s in record.get("seats", [])]
    head = f"game {number}: {record.get('game')} {record.get('variant')} seed {record.get('seed')}, " \
           f"{len(record.get('deals', []))} deals"
    if not result:
        return f"{head}: {record.get('status')}"
    if result.get("annulled"):
        return f"{head}: annulled"
    winners = ", ".join(names[s] for s in result["winners"])
    return f"{head}: won by {winners}; scores {result['scores']}"


def _standings(seen: list[dict[str, Any]]) -> str:
    wins: dict[str, int] = {}
    played: dict[str, int] = {}
    for brief in seen:
        for name in set(brief["names"]):
            played[name] = played.get(name, 0) + 1
        for name in set(brief["winners"]):
            wins[name] = wins.get(name, 0) + 1
    order = sorted(played, key=lambda n: (-wins.get(n, 0), n))
    return "standings: " + ", ".join(f"{n} {wins.get(n, 0)}/{played[n]} won" for n in order)


def _tournament_table(directory: Path, names: list[str]) -> str:
    table = tables.tabulate(names, runner.records_in_order(directory, runner.finished_read_only(directory)))
    return tables.render(table, names)
