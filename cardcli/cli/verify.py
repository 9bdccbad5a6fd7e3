"""``cardcli verify``: re-check every recorded match against the rules."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import RecordError, VerificationError
from ..records import read
from ..replay import verify as verify_record
from .common import json_option, print_json


@click.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
@json_option
def verify(path: str, as_json: bool) -> int:
    """Rebuild every match in PATH through the rules engine and check it.

    Checks that every deal is the one the seed deals, every move was legal when it was made,
    and every deal score and result is the one the rules give. Exit status 0 when every record
    holds, 1 naming the record, deal and move where one first differs (a torn or corrupt
    record included), 2 when PATH cannot be read at all.
    """
    if not Path(path).exists():
        raise RecordError(f"{path}: no such file")
    results: list[dict[str, object]] = []
    failed = False
    try:
        for loaded in read(Path(path)):
            where = f"{path}:{loaded.line}"
            try:
                replayed = verify_record(loaded.record, where)
            except VerificationError as err:
                failed = True
                results.append({"line": loaded.line, "ok": False, "error": str(err)})
                continue
            moves = sum(len(d["moves"]) for d in loaded.record["deals"])
            results.append({"line": loaded.line, "ok": True, "game": loaded.record["game"],
                            "deals": len(loaded.record["deals"]), "moves": moves,
                            "status": "complete" if replayed.outcome else "aborted"})
    except RecordError as err:
        failed = True
        results.append({"ok": False, "error": str(err)})
    if as_json:
        print_json({"ok": not failed, "records": results})
    else:
        for r in results:
            if r["ok"]:
                click.echo(f"ok   {path}:{r['line']}: {r['game']}, {r['status']}, {r['deals']} deals, {r['moves']} moves")
            else:
                click.echo(f"FAIL {r['error']}")
        click.echo(f"{sum(1 for r in results if r['ok'])} verified, {sum(1 for r in results if not r['ok'])} failed")
    return 1 if failed else 0
