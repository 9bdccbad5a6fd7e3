"""Options and helpers that several commands share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

import click

from ..errors import UsageError
from ..records import Loaded, read

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout instead of text.")


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """``-o NAME=VALUE`` items as a mapping; later items win."""
    result: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"option {item!r} must be written NAME=VALUE")
        result[name.strip()] = value.strip()
    return result


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=None, separators=(",", ":")))


def load_records(path: str, select: int | None) -> list[Loaded]:
    """All records of a file (or only the ``select``-th, counted from 1)."""
    loaded = list(read(Path(path)))
    if select is None:
        return loaded
    if not 1 <= select <= len(loaded):
        raise UsageError(f"{path} holds {len(loaded)} record(s); there is no record {select}")
    return [loaded[select - 1]]


record_select = click.option(
    "--game", "select", type=int, default=None, metavar="K", help="Only the K-th record of the file (from 1)."
)
