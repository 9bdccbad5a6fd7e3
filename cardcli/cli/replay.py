"""``cardcli replay``: a recorded match, deal by deal and trick by trick, for people."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .. import viewer
from ..errors import UsageError
from ..games import registry
from ..protocol_replay import derive
from ..records.model import Fault
from ..records.shape import Status
from ..replay import model_of, walk
from ..report import STOPPED_NOTE
from ..safe_text import DETAIL_WIDTH, display_name, printable
from ..seat_names import bot_names, seat_names
from ..tournament import results, runner
from ..transcript import FROM_BOT, Entry
from .common import load_records, records_path
from .options import max_record_bytes, record_select


@click.command("replay")
@click.argument("path", type=click.Path())
@click.option("--seat", type=int, default=None, metavar="N",
              help="Show the match as seat N saw it (with --protocol: its protocol lines).")
@click.option("--from-deal", type=click.IntRange(min=1), default=1, metavar="N", help="Start showing at deal N.")
@click.option("--step", is_flag=True, help="Wait for Enter after each action (on a terminal).")
@click.option("--protocol", "show_protocol", is_flag=True,
              help="Print the protocol lines seat N (--seat) exchanged with the referee: '<<' sent to the bot, "
                   "'>>' sent by it.")
@click.option("--to-bot", is_flag=True,
              help="Print only the lines seat N's bot received, without markers, to pipe into a bot "
                   "(implies --protocol).")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Write the matches as one self-contained HTML page (a card table to step through, "
                   "docs/viewer.md) to OUT and print its path; with --seat, only what seat N saw.")
@record_select
@max_record_bytes
def replay(path: str, seat: int | None, from_deal: int, step: bool, show_protocol: bool, to_bot: bool,
           html_out: str | None, select: int | None, max_bytes: int) -> int:
    """Print the matches recorded in PATH in readable text.

    PATH is a record file or a tournament directory (its records.jsonl). Every step is rebuilt
    through the rules engine, so what is shown is what the rules say happened; a record that
    does not verify stops with exit status 1 where it differs. With --protocol (or --to-bot),
    the lines one seat exchanged with the referee instead (docs/records.md, "The protocol lines
    of a seat"); with --html OUT, a page to open in a browser (docs/viewer.md).
    """
    given = Path(path)
    path = records_path(path)
    if html_out is not None:
        if show_protocol or to_bot:
            raise UsageError(f"--html writes a page, {'--to-bot' if to_bot else '--protocol'} prints protocol "
                             "lines: choose one")
        if from_deal != 1 or step:
            raise UsageError("--from-deal and --step belong to the readable replay, not to --html")
        write_page(path, html_out, seat, select, max_bytes, given if given.is_dir() else None)
        return 0
    if show_protocol or to_bot:
        protocol_lines(path, seat, to_bot, select, max_bytes, from_deal != 1 or step)
        return 0
    pause = step and sys.stdin.isatty()
    for loaded in load_records(path, select, max_bytes):
        render(loaded.record, seat, f"{path}:{loaded.line}", from_deal, pause)
    return 0


def tournament_standings(directory: Path) -> dict[str, Any]:
    """A tournament directory's standings for its page: the table ``cardcli tournament``
    prints at its end (and ``watch`` as it runs), made by the same code from the same finished
    records (:func:`cardcli.tournament.results.tabulate` and ``render``), so the page cannot
    disagree with it: the standings, the paired duplicate results and the crosstable, as text.
    ``entrants`` are the entrants' names as the table writes them. Made here, where both may be
    used: the viewer sits beside the tournament in the layers, and takes the standings as
    data."""
    names = runner.load(directory).names
    table = results.tabulate(names, runner.records_in_order(directory, runner.finished_read_only(directory)))
    return {"text": results.render(table, names), "matches": table.matches,
            "entrants": [display_name(n) for n in names]}


def write_page(path: str, out: str, seat: int | None, select: int | None, max_bytes: int,
               directory: Path | None = None) -> None:
    """Verify every record of PATH (or the one chosen with --game) and write the page; for a
    tournament's ``directory`` (all its matches: no --game), a page that opens on its
    standings."""
    loaded = load_records(path, select, max_bytes)
    tournament = directory is not None and (directory / "config.json").is_file() and select is None
    standings = tournament_standings(directory) if directory is not None and tournament else None
    written = viewer.write_html([item.record for item in loaded], out, seat,
                                wheres=[f"{path}:{item.line}" for item in loaded], source=path, tournament=standings)
    click.echo(str(written))


def protocol_lines(path: str, seat: int | None, to_bot: bool, select: int | None, max_bytes: int,
                   paged: bool) -> None:
    """Print one seat's protocol lines in one recorded match, re-derived through the referee
    (:func:`cardcli.protocol_replay.derive`). One match only: the lines of several would not
    be what any one bot process received, and a seat number names another bot in each match
    of a tournament."""
    flag = "--to-bot" if to_bot else "--protocol"
    if seat is None:
        raise UsageError(f"{flag} needs --seat N, the seat whose lines to print")
    if paged:
        raise UsageError(f"--from-deal and --step belong to the readable replay, not to {flag}")
    records = load_records(path, select, max_bytes)
    if not records:
        raise UsageError(f"{path} holds no record")
    if len(records) > 1:
        raise UsageError(f"{path} holds {len(records)} records: choose one match with --game K")
    loaded = records[0]
    derived = derive(loaded.record, seat, f"{path}:{loaded.line}")
    for note in derived.notes:
        click.echo(f"cardcli: note: {note}", err=True)
    if to_bot:
        for line in derived.to_bot():
            click.echo(printable(line))
        return
    for entry in derived.entries:
        click.echo(entry.text())
    if derived.info:
        click.echo(f"info lines of seat {seat}, kept with --keep-info (where they came among the lines above "
                   "is not recorded):")
        for text in derived.info:
            click.echo(Entry(0.0, FROM_BOT, f"info {text}").text())


def render(record: dict[str, Any], seat: int | None, where: str, from_deal: int = 1, pause: bool = False) -> None:
    """Print one record. Everything in it was written by whoever wrote the file, so every
    string it supplies is printed through :func:`printable` (the game's renderer does the same
    for the names it is given). The record is read as typed values, built once here (the
    header comes before the walk) and handed to the walk."""
    read = model_of(record, where)
    spec = registry.get(read.game)
    raw_names = seat_names(read)
    names = [display_name(n) for n in raw_names]
    if seat is not None and not 0 <= seat < len(names):
        raise UsageError(f"--seat {seat}: the match has seats 0 to {len(names) - 1}")
    assert spec.renderer is not None
    renderer = spec.renderer(raw_names)
    view = "all hands shown" if seat is None else f"as seat {seat} saw it"
    click.echo(f"{spec.title} - variant {printable(read.variant)} - seed {printable(read.seed)} - {view}")
    bots = bot_names(read)
    click.echo("seats: " + ", ".join(f"{i}:{n}" + (f" (bot {display_name(b)})" if b != raw else "")
                                     for i, (n, raw, b) in enumerate(zip(names, raw_names, bots))))
    faults: dict[tuple[int, int | None], Fault] = {(f.deal, f.move): f for f in read.faults}
    steps = walk(record, where, read=read)
    try:
        while True:
            step = next(steps)
            shown = False
            fault = faults.get((step.deal, step.move))
            if fault is not None and step.deal >= from_deal:
                kind, detail = printable(fault.kind), printable(fault.detail, DETAIL_WIDTH)
                click.echo(f"  ! seat {fault.seat} {kind}: {detail}")
            for event in step.events:
                if seat is None or event.visible_to(seat):
                    for line in renderer.feed(event):
                        if step.deal >= from_deal:
                            click.echo(line)
                            shown = True
            if pause and shown:
                click.pause("")
    except StopIteration as stop:
        replayed = stop.value
    click.echo("")
    outcome = replayed.outcome
    if outcome is None:
        click.echo(STOPPED_NOTE.get(Status(read.status), "no result"))
        return

    def who(seats: tuple[int, ...]) -> str:
        return ", ".join(f"{s}:{names[s]}" for s in seats) or "-"

    click.echo("final: " + "  ".join(f"{s}:{names[s]} {v}" for s, v in enumerate(outcome.scores)))
    if outcome.annulled:
        click.echo("the match is annulled: nobody wins or loses")
        return
    click.echo(f"winners: {who(outcome.winners)}   losers: {who(outcome.losers)}"
               + (f"   draws: {who(outcome.draws)}" if outcome.draws else ""))
    if outcome.forfeits:
        click.echo(f"forfeits: {who(outcome.forfeits)}")
