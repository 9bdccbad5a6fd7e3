"""``cardcli check-bot GAME -- COMMAND``: check a bot before it enters a competition."""

from __future__ import annotations

import shlex

import click

from ..checkbot import check
from ..errors import UsageError
from ..games import registry
from ..seats.spec import make_seat
from ..seats.limits import Limits
from ..seats.sandbox import resolve
from .common import announce_sandbox, json_option, print_json, sandbox_options, sandbox_policy


@click.command("check-bot")
@click.argument("game")
@click.argument("command", nargs=-1, required=True)
@click.option("--move-time", type=click.FloatRange(min=0.001), default=5.0, show_default=True)
@click.option("--startup-time", type=click.FloatRange(min=0.001), default=10.0, show_default=True)
@click.option("--quit-grace", type=click.FloatRange(min=0.0), default=2.0, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--variant", default=None)
@click.option("--players", type=int, default=None)
@sandbox_options("auto")
@json_option
def check_bot(game: str, command: tuple[str, ...], move_time: float, startup_time: float, quit_grace: float,
              seed: int, variant: str | None, players: int | None, sandbox_mode: str, bot_network: bool,
              sandbox_binds: tuple[str, ...], bot_procs: int | None, as_json: bool) -> int:
    """Check that the bot COMMAND speaks the protocol for GAME: handshake, every kind of
    request, whole matches, and quit. Prints a checklist; exit status 1 when a step fails.

    Write the command after `--`: cardcli check-bot peppa -- python3 mybot.py --seed 1
    """
    registry.get(game)
    argv = list(command)
    if len(argv) == 1 and " " in argv[0]:
        argv = shlex.split(argv[0])
    if make_seat(shlex.join(argv), 0, seed).kind != "process":  # refuses a missing program too
        raise UsageError("check-bot checks a bot program, not a built-in player")
    asked = sandbox_policy(sandbox_mode, bot_network, sandbox_binds)
    sandbox = resolve(asked)
    announce_sandbox(asked, sandbox)
    steps = check(game, argv, move_time, startup_time, quit_grace, seed, variant, players, sandbox,
                  Limits(processes=bot_procs))
    ok = all(s.ok for s in steps)
    if as_json:
        print_json({"ok": ok, "steps": [{"name": s.name, "ok": s.ok, "detail": s.detail} for s in steps]})
    else:
        for s in steps:
            click.echo(s.line())
        click.echo("the bot passes every check" if ok else "the bot FAILS")
    return 0 if ok else 1
