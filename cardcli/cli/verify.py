"""``cardcli verify``: re-check every recorded match against the rules."""

from __future__ import annotations

from pathlib import Path

import click

from ..records import signing
from ..errors import RecordError, VerificationError
from ..records.io import complete_lines, parse
from ..replay import verify as verify_record
from ..safe_text import printable
from .common import print_json, records_path
from .options import json_option, max_record_bytes


@click.command("verify")
@click.argument("path", type=click.Path())
@json_option
@max_record_bytes
@click.option("--public-key", "public_key", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also require every record signed with the private key of this public key (keys new PREFIX "
                   "writes PREFIX.pub); a record unsigned, signed with another key or changed since fails.")
def verify(path: str, as_json: bool, max_bytes: int, public_key: str | None) -> int:
    """Rebuild every match in PATH (a record file or a tournament directory) through the rules
    engine and check it.

    Checks that every deal is the one the seed deals, every move was legal when it was made,
    and every deal score and result is the one the rules give. Exit status 0 when every record
    holds, 1 naming the record, deal and move where one first differs (a torn, corrupt,
    malformed or overlong record included; the records after a bad line are still checked,
    unless the line is torn or too long), 2 when PATH cannot be read at all.

    Without --public-key a signature is not checked; docs/records.md says what verify proves
    with and without one.
    """
    key = signing.public_key(public_key) if public_key is not None else None
    if not Path(path).exists():
        raise RecordError(f"{path}: no such file")
    path = records_path(path)
    results: list[dict[str, object]] = []
    failed = False
    try:
        for line in complete_lines(Path(path), max_bytes):
            where = f"{path}:{line.number}"
            try:
                record = parse(line.raw, where)
                if key is not None:
                    unsigned = signing.problem(record, key)
                    if unsigned is not None:
                        raise VerificationError(printable(f"{where}: {unsigned}"))
                checked = verify_record(record, where).record
            except (RecordError, VerificationError) as err:
                failed = True
                results.append({"line": line.number, "ok": False, "error": str(err)})
                continue
            signature = "none" if checked.signature is None else "good" if key is not None else "unchecked"
            results.append({"line": line.number, "ok": True, "game": checked.game,
                            "deals": len(checked.deals), "moves": checked.moves,
                            "status": checked.status, "signature": signature})
    except RecordError as err:
        failed = True
        results.append({"ok": False, "error": str(err)})
    if as_json:
        print_json({"ok": not failed, "records": results})
    else:
        for r in results:
            if r["ok"]:
                signed = _SIGNATURE_NOTES[str(r["signature"])]
                click.echo(f"ok   {path}:{r['line']}: {r['game']}, {r['status']}, {r['deals']} deals, {r['moves']} moves"
                           f"{signed}")
            else:
                click.echo(f"FAIL {r['error']}")
        click.echo(f"{sum(1 for r in results if r['ok'])} verified, {sum(1 for r in results if not r['ok'])} failed")
    return 1 if failed else 0


_SIGNATURE_NOTES = {"none": "", "good": ", signature good", "unchecked": ", signed (not checked: give --public-key)"}
