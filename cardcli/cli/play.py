"""``cardcli play``: one match between the given seats."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import click

from ..errors import Interrupted
from ..games.base import Event
from ..records.io import append, check_appendable, undeclared_options
from ..referee import MatchInterrupted
from ..report import closing_notes, summary_json, summary_text
from ..seats.launch import Launch
from ..seats.policy import SandboxMode
from ..series import Series
from ..seats.guard import resolve
from ..seating import remote_names
from .common import OptionWarnings, announce_sandbox, describe_views, guarded_by, print_json, sandbox_views
from .options import (bot_stderr_option, game_options, json_option, limit_options, max_deals_option, on_fault_option,
                      players_option, remote_options, sandbox_options, seed_option, sign_key_option, time_options)
from .requests import PlayRequest


if TYPE_CHECKING:
    from ..records import signing


@click.command("play")
@click.argument("game")
@click.option("--seat", "seats", multiple=True, metavar="SPEC",
              help="A seat, once per seat in seat order: a built-in player (random, first) or a bot's command line. Default: random in every seat.")
@click.option("--seat-option", "seat_options", multiple=True, metavar="SEAT:OPTION=VALUE",
              help="Set a bot option of seat SEAT (from 0): sent as 'setoption OPTION VALUE' after its handshake "
                   "when the bot declares the option. Repeatable.")
@game_options
@players_option("Number of players when no --seat is given.")
@seed_option("Fix every deal; default: a random seed, reported.")
@click.option("--games", "count_games", type=click.IntRange(min=1), default=1, show_default=True,
              help="Play this many matches in a row with the same bot processes; match k uses seed+k-1.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              help="Append the game record to this file (JSON Lines).")
@sign_key_option("Sign each record with this private key (keys new PREFIX writes PREFIX.key); "
                 "needs pip install 'cardcli[sign]'.")
@time_options
@on_fault_option
@bot_stderr_option("Save each bot's stderr (first 1 MiB) in this directory as seatN.stderr.")
@max_deals_option
@limit_options
@sandbox_options(SandboxMode.OFF)
@remote_options
@click.option("--keep-info", is_flag=True, help="Keep the bots' info lines in the record.")
@click.option("--events", is_flag=True,
              help="Print each public event as one line of JSON on stdout as it happens; the summary follows as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Log every protocol line on stderr.")
@json_option
def play(**options: Any) -> int:
    """Play one whole match of GAME (or --games N in a row) and print who won.

    Exit status: 0 when every match completed (even with faults), 1 when the fault policy
    aborted one, 2 for bad input, 130 on Ctrl-C and 143 on SIGTERM (the bots are ended, and the
    unfinished match goes into the record with the deals it played, marked interrupted, which
    verify and replay accept; a match stopped before its first deal leaves no record).
    """
    signal.signal(signal.SIGTERM, _terminated)
    return _play(PlayRequest.from_options(**options))


def _play(request: PlayRequest) -> int:
    """Play the matches of a checked request and print each one's summary; the exit status."""
    given, match, record_path = request.given, request.match, request.given.record_path
    if given.verbose:
        logging.basicConfig(level=logging.DEBUG, format="%(name)s %(message)s")
    setup, seats = request.setup, given.seats
    with _record_file(record_path):
        stderr_dir = Path(given.bot_stderr) if given.bot_stderr else None
        if stderr_dir is not None:
            stderr_dir.mkdir(parents=True, exist_ok=True)
        asked = request.sandbox_policy()
        sandbox = resolve(asked)
        announce_sandbox(asked, sandbox)
        views = sandbox_views(sandbox, ((f"seat {k}", spec, Launch()) for k, spec in enumerate(seats)))
        if sandbox is not None:
            click.echo(f"sandbox: {guarded_by(sandbox)}", err=True)
            for line in describe_views(views):
                click.echo(line, err=True)
        hub, context = match.remote.open(remote_names(seats))
        if hub is not None:
            hub.start()
        status = 0
        series: Series | None = None
        try:
            series = Series(given.game, match.variant, request.game_options, request.count, request.seed, seats,
                            match.settings(given.keep_info), stderr_dir, match.limits(), sandbox, context,
                            request.bot_options)
            warnings = OptionWarnings()
            for k in range(given.count_games):
                listener = _event_printer(k + 1, setup.spec.name) if given.events else None
                try:
                    setup, result = series.play(k, listener)
                except MatchInterrupted as stop:
                    deals = len(stop.result.record["deals"])
                    if record_path is None or not deals:
                        raise
                    _keep(stop.result.record, record_path, request.signer)
                    raise Interrupted(f"{stop} in match {k + 1}, deal {deals}; the deals it played are kept in "
                                      f"{record_path}, marked interrupted", stop.exit_code) from None
                warnings.check(undeclared_options(result.record), lambda seat: f"seat {seat}")
                if record_path is not None:
                    _keep(result.record, record_path, request.signer)
                if given.as_json or given.events:
                    print_json(summary_json(setup, result, record_path))
                else:
                    click.echo(("\n" if k else "") + summary_text(setup, result, record_path))
                if not result.completed:
                    status = 1
        finally:
            if series is not None:
                series.close()
            if hub is not None:
                hub.close()
        if series is not None:
            for note in closing_notes(series.seats, match.quit_grace):
                click.echo(note, err=True)
        return status


def _keep(record: dict[str, Any], path: str, signer: signing.PrivateKey | None) -> None:
    """Append a match's record, signed when asked; Ctrl-C and SIGTERM wait until the line is
    written, so that stopping the referee never tears the record it is keeping."""
    if signer is not None:
        record = _signed(record, signer)
    stops = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    try:
        repaired = append(Path(path), record)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
    if repaired is not None:
        click.echo(f"cardcli: {repaired.describe(path)}", err=True)


@contextlib.contextmanager
def _record_file(path: str | None) -> Iterator[None]:
    """The record file, made (or checked) before any bot starts, so a record that cannot be
    written fails before the match, and so the sandbox masks it from the bots; removed again
    at the end if this run made it and wrote nothing into it, so that a run interrupted or
    refused before its first match leaves no empty file behind."""
    if path is None:
        yield
        return
    made = not os.path.exists(path)
    check_appendable(Path(path))
    try:
        yield
    finally:
        try:
            if made and os.path.getsize(path) == 0:
                os.unlink(path)
        except OSError:
            pass


def _signed(record: dict[str, Any], key: signing.PrivateKey) -> dict[str, Any]:
    from ..records import signing

    return signing.signed(record, key)


def _event_printer(match: int, game: str) -> Callable[[Sequence[Event]], None]:
    """A referee listener that prints the public events (nothing private to a seat). An event's
    words that are whole numbers (seats, deal and trick numbers, points, totals, counts, a bid
    of 3) are printed as JSON numbers; every other word (a card token, a move such as
    ``take:JD:6C+5H``, ``pass``, a direction) stays a string. Only a number's own spelling
    counts (``-12``, ``0``; not ``+3``, ``007`` or ``-0``), so each prints back as it was sent;
    card tokens always hold a suit letter and are never numbers."""
    deal = 0

    def value(word: str) -> int | str:
        digits = word[1:] if word.startswith("-") else word
        return int(word) if digits.isascii() and digits.isdigit() and str(int(word)) == word else word

    def show(batch: Sequence[Event]) -> None:
        nonlocal deal
        for event in batch:
            if event.kind == "deal":
                deal = int(event.args[0])
            if event.audience is None:
                print_json({"match": match, "game": game, "deal": deal, "event": event.kind,
                            "args": [value(word) for word in event.args]})
        sys.stdout.flush()

    return show


def _terminated(signum: int, frame: object) -> None:
    raise Interrupted("terminated", 143)
