"""``cardcli check-bot GAME -- COMMAND``: check a bot before it enters a competition."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..checkbot import TIME_BUDGET, Check, check
from ..errors import UsageError
from ..games import registry
from ..seating import make_seat
from ..seats.limits import Limits
from ..seats.launch import Launch
from ..seats.guard import resolve
from ..seats.policy import DEFAULT_DISK_MIB, SandboxMode
from .common import announce_sandbox, parse_assignments, print_json, sandbox_policy, sandbox_views, warn_options
from .options import (bot_stderr_option, game_options, json_option, move_time_option, quit_grace_option,
                      sandbox_options, seed_option, startup_time_option)


@click.command("check-bot")
@click.argument("game")
@click.argument("command", nargs=-1, required=True)
@game_options
@click.option("--players", "counts", type=int, multiple=True, metavar="N",
              help="Check with N players; repeatable. Default: every count the game is played by.")
@move_time_option(default=5.0)
@startup_time_option
@quit_grace_option
@seed_option("Fixes the deals of the check's matches.", default=1)
@click.option("--time-budget", type=click.FloatRange(min=0.0), default=TIME_BUDGET, show_default=True, metavar="S",
              help="Seconds the check aims to take: a slow bot's matches are adjudicated after fewer deals to "
                   "keep within it (the output says so); 0: no budget, matches as long as they take.")
@bot_stderr_option("Save the bot's stderr in DIR/N-players/seat0.stderr (first 1 MiB).", metavar="DIR")
@sandbox_options(SandboxMode.AUTO)
@json_option
def check_bot(game: str, command: tuple[str, ...], variant: str | None, options: tuple[str, ...],
              counts: tuple[int, ...], move_time: float, startup_time: float, quit_grace: float, seed: int,
              time_budget: float, bot_stderr: str | None, sandbox_mode: SandboxMode, bot_network: bool,
              sandbox_binds: tuple[str, ...], bot_disk: int, bot_procs: int | None, as_json: bool) -> int:
    """Check that the bot COMMAND speaks the protocol for GAME: handshake, every kind of
    request, two or more whole matches on one process for every player count, and quit.
    Prints a checklist as it goes, then warnings (an answer over half the move time is one);
    on a failure, the request, the bot's answer and a `cardcli play` command that plays the
    same match again; then the time taken. Exit status 1 when a step fails.

    Write the command after `--`: cardcli check-bot peppa -- python3 mybot.py --seed 1
    """
    registry.get(game)
    argv = list(command)
    if len(argv) == 1 and " " in argv[0]:
        argv = shlex.split(argv[0])
    if make_seat(shlex.join(argv), 0, seed).kind != "process":  # refuses a missing program too
        raise UsageError("check-bot checks a bot program, not a built-in player")
    asked = sandbox_policy(sandbox_mode, bot_network, sandbox_binds, (bot_stderr,), bot_disk)
    sandbox = resolve(asked)
    views = sandbox_views(sandbox, [("the bot", shlex.join(argv), Launch())])
    plan = Check(game, tuple(argv), variant, parse_assignments(options), tuple(dict.fromkeys(counts)), move_time,
                 startup_time, quit_grace, seed, time_budget or None, sandbox, Limits(processes=bot_procs),
                 Path(bot_stderr) if bot_stderr else None,
                 _play_flags(sandbox is not None, bot_network, sandbox_binds, bot_disk, bot_procs))
    counts = plan.counts()  # a player count the game is not played by: exit 2 before any bot starts
    warn_options(registry.resolve(game, variant, plan.options, counts[0], seed))
    announce_sandbox(asked, sandbox)
    if as_json:
        report = check(plan)
        print_json({**report.to_json(), "sees": [view.to_json() for view in views.values()]})
    else:
        for view in views.values():
            click.echo(f"[sees] {view.describe()}")
        report = check(plan, progress=click.echo)
        for warning in report.warnings:
            click.echo(f"[warn] {warning}")
        if report.failure is not None:
            for line in report.failure.lines():
                click.echo(line)
        click.echo(f"[time] {report.timing()}")
        click.echo("the bot passes every check" if report.ok else "the bot FAILS")
    return 0 if report.ok else 1


def _play_flags(sandboxed: bool, network: bool, binds: tuple[str, ...], disk: int,
                procs: int | None) -> tuple[str, ...]:
    """The ``play`` flags that run the bot as the check ran it."""
    flags: list[str] = []
    if sandboxed:
        flags += ["--sandbox", "on"] + (["--bot-network"] if network else [])
        for bind in binds:
            flags += ["--sandbox-bind", str(Path(bind).resolve())]
        if disk != DEFAULT_DISK_MIB:
            flags += ["--bot-disk", str(disk)]
    if procs is not None:
        flags += ["--bot-procs", str(procs)]
    return tuple(flags)
