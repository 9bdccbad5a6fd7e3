"""The command-line options that several commands share, each declared once: its name, type,
default and help text. ``play`` and ``tournament`` take the same match options (the game's
variant and options, the time limits, the fault policy, the bots' limits, the sandbox, the
remote seats), so ``--help`` explains each the same way in both; ``check-bot`` takes the
sandbox's. A few options both commands take mean something different in each and take their
help text (and nothing else) from the command: :data:`DIFFERENT` says which and why.

Each declaration is a decorator, as ``click.option`` gives it; a group of options that stand
together in both commands' ``--help`` is one decorator (:func:`group`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Callable, Generic, TypeVar

import click

from ..records.io import MAX_RECORD_BYTES, OnFault
from ..seats.policy import DEFAULT_DISK_MIB, DEFAULT_PROCESSES, SandboxMode

F = TypeVar("F", bound=Callable[..., Any])
E = TypeVar("E", bound=StrEnum)


class EnumChoice(click.Choice, Generic[E]):
    """A choice among an enum's values, given to the command as the member: the text is read
    once, here, and the code behind the command holds the closed set. (Click's own enum
    choices match a member's name, ``REPLACE``; the command line takes the value, ``replace``.)"""

    def __init__(self, enum: type[E]) -> None:
        super().__init__([member.value for member in enum])
        self.enum = enum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> E:
        return value if isinstance(value, self.enum) else self.enum(super().convert(value, param, ctx))


def group(*options: Callable[[Any], Any]) -> Callable[[F], F]:
    """The options as one decorator, in the order given (which is the order ``--help`` lists them)."""

    def decorate(function: F) -> F:
        for option in reversed(options):
            function = option(function)
        return function

    return decorate


DIFFERENT: dict[str, str] = {
    "--players": "play: the seat count when no --seat gives it; tournament: the seats at every table",
    "--seed": "play: fixes the deals of the match; tournament: the master seed of the schedule and of every deal",
    "--sign-key": "play signs the --record file's records; tournament signs every record and keeps the key's "
                  "path for --resume",
    "--bot-stderr": "play names the files by seat, tournament by entrant and match",
    "--sandbox": "default: play runs the built-in players and a user's own bots unguarded (off); a tournament "
                 "of others' bots guards them where the machine can (auto)",
}
"""The options ``play`` and ``tournament`` both take but describe (or default) differently, and why."""

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout instead of text.")

variant_option = click.option("--variant", default=None, help="Rule variant (see `cardcli games`).")

game_option = click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
                           help="Set a game option; repeatable.")

game_options = group(variant_option, game_option)
"""The game's rule variant (``--variant``) and options (``-o NAME=VALUE``)."""


def players_option(help: str) -> Callable[[F], F]:
    return click.option("--players", type=int, default=None, help=help)


def seed_option(help: str, default: int | None = None) -> Callable[[F], F]:
    return click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=default, show_default=default is not None,
                        help=help)


def sign_key_option(help: str) -> Callable[[F], F]:
    return click.option("--sign-key", type=click.Path(dir_okay=False), default=None, metavar="FILE", help=help)


def bot_stderr_option(help: str, metavar: str | None = None) -> Callable[[F], F]:
    return click.option("--bot-stderr", type=click.Path(file_okay=False), default=None, metavar=metavar, help=help)


def move_time_option(default: float = 10.0) -> Callable[[F], F]:
    return click.option("--move-time", type=click.FloatRange(min=0.001), default=default, show_default=True,
                        help="Seconds a seat has for each move.")


time_bank_option = click.option(
    "--time-bank", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
    help="Give each seat a bank of SECONDS per match: a move's time over --move-time is drawn from it, and only "
         "a move longer than --move-time plus what is left is a timeout. Each request is preceded by "
         "'bank <millis>' (protocol/PROTOCOL.md).")

startup_time_option = click.option("--startup-time", type=click.FloatRange(min=0.001), default=10.0,
                                   show_default=True, help="Seconds a bot has to start and finish the handshake.")

quit_grace_option = click.option("--quit-grace", type=click.FloatRange(min=0.0), default=2.0, show_default=True,
                                 help="Seconds a bot has to exit after quit before it is killed.")

time_options = group(move_time_option(), time_bank_option, startup_time_option, quit_grace_option)
"""The time limits of a match: ``--move-time``, ``--time-bank``, ``--startup-time``, ``--quit-grace``."""

on_fault_option = click.option(
    "--on-fault", type=EnumChoice(OnFault), default=OnFault.REPLACE.value, show_default=True,
    help="replace: the faulty seat forfeits and a random player finishes its moves; abort: stop the match.")

max_deals_option = click.option(
    "--max-deals", type=click.IntRange(min=1), default=500, show_default=True,
    help="Adjudicate a match by its totals if it has not ended after this many deals.")

limit_options = group(
    click.option("--bot-memory", type=click.IntRange(min=1), default=None, metavar="MIB",
                 help="Limit the memory of each bot's process tree (MiB); a bot over it is a 'limit' fault."),
    click.option("--bot-cpu", type=click.IntRange(min=1), default=None, metavar="SECONDS",
                 help="Limit the CPU time of each bot's process tree over its whole life (seconds)."),
    click.option("--bot-files", type=click.IntRange(min=3), default=None, metavar="N",
                 help="Limit the open file descriptors of each bot (per process and across its tree)."),
)
"""The limits of each bot's process tree but the processes (which :func:`sandbox_options` holds)."""


def sandbox_options(default: SandboxMode) -> Callable[[F], F]:
    """The options that guard bot programs, shared by play, tournament and check-bot; ``default``
    the ``--sandbox`` mode when none is given."""
    return group(
        click.option("--sandbox", "sandbox_mode", type=EnumChoice(SandboxMode), default=default.value, show_default=True,
                     help="Run each bot program in a sandbox (docs/security.md): auto where the machine can, "
                          "on or refuse to start, off."),
        click.option("--bot-network", is_flag=True, help="Let sandboxed bots reach the network."),
        click.option("--sandbox-bind", "sandbox_binds", multiple=True, metavar="PATH", envvar="CARDCLI_SANDBOX_BIND",
                     type=click.Path(exists=True),
                     help="A further path every sandboxed bot may read (an interpreter's installation, shared "
                          "data); repeatable, or a ':'-separated list in CARDCLI_SANDBOX_BIND."),
        click.option("--bot-disk", "bot_disk", type=click.IntRange(min=1, max=1 << 20), default=DEFAULT_DISK_MIB,
                     show_default=True, metavar="MIB",
                     help="The size of each sandboxed bot's scratch (/tmp, in memory); a bot that fills it is a "
                          "'limit' fault."),
        click.option("--bot-procs", type=click.IntRange(min=1), default=None, metavar="N",
                     help=f"Limit the processes and threads of each bot's tree (in the sandbox: {DEFAULT_PROCESSES})."),
    )


remote_options = group(
    click.option("--listen", metavar="[HOST:]PORT", default=None,
                 help="Listen for remote bots (remote:NAME seats) on this address; a bare PORT listens on "
                      "127.0.0.1 only."),
    click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                 help="The remote bots' tokens, one 'NAME TOKEN' a line (cardcli tokens new NAME...)."),
    click.option("--cert", type=click.Path(dir_okay=False), default=None, metavar="PEM",
                 help="Serve wss:// (TLS) with this certificate chain; needs --key."),
    click.option("--key", "key_path", type=click.Path(dir_okay=False), default=None, metavar="PEM",
                 help="The private key of --cert."),
    click.option("--connect-time", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
                 help="Seconds a remote seat waits for its bot to connect."),
    click.option("--reconnect-time", type=click.FloatRange(min=0.0), default=15.0, show_default=True,
                 help="Seconds a remote seat is held after its connection drops."),
    click.option("--network-grace", type=click.IntRange(min=0, max=600000), default=0, show_default=True,
                 metavar="MS", help="Milliseconds added to every request of a remote seat, beyond the move time."),
)
"""The options of a referee that lets bots play from other machines (docs/remote.md), shared
by play and tournament; their values make a :class:`cardcli.cli.common.RemoteArgs`."""

record_select = click.option(
    "--game", "select", type=int, default=None, metavar="K", help="Only the K-th record of the file (from 1)."
)

max_record_bytes = click.option(
    "--max-record-bytes", "max_bytes", type=click.IntRange(min=1024), default=MAX_RECORD_BYTES, show_default=True,
    metavar="N", help="Refuse a record line longer than N bytes (a bound on what a crafted file can cost).",
)
