"""Options and helpers that several commands share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

import click

from ..errors import UsageError
from ..games.registry import Setup
from ..records import MAX_RECORD_BYTES, Loaded, read
from ..safe_text import json_text
from ..seats import cgroups
from ..seats.sandbox import DEFAULT_PROCESSES, MODES, SandboxPolicy, describe, support

F = TypeVar("F", bound=Callable[..., Any])

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


def warn_options(setup: Setup) -> None:
    """Say on stderr which options are set but change nothing (one line each)."""
    for warning in setup.warnings():
        click.echo(f"cardcli: warning: {warning}", err=True)


def print_json(data: Any) -> None:
    click.echo(json_text(json.dumps(data, ensure_ascii=False, indent=None, separators=(",", ":"))))


def load_records(path: str, select: int | None, max_bytes: int = MAX_RECORD_BYTES) -> list[Loaded]:
    """All records of a file (or only the ``select``-th, counted from 1)."""
    loaded = list(read(Path(path), max_bytes))
    if select is None:
        return loaded
    if not 1 <= select <= len(loaded):
        raise UsageError(f"{path} holds {len(loaded)} record(s); there is no record {select}")
    return [loaded[select - 1]]


def sandbox_options(default: str) -> Callable[[F], F]:
    """The options that guard bot programs, shared by play, tournament and check-bot."""
    options = [
        click.option("--sandbox", "sandbox_mode", type=click.Choice(MODES), default=default, show_default=True,
                     help="Run each bot program in a sandbox (docs/security.md): auto where the machine can, "
                          "on or refuse to start, off."),
        click.option("--bot-network", is_flag=True, help="Let sandboxed bots reach the network."),
        click.option("--sandbox-bind", "sandbox_binds", multiple=True, metavar="PATH",
                     type=click.Path(exists=True), help="A further path every sandboxed bot may read; repeatable."),
        click.option("--bot-procs", type=click.IntRange(min=1), default=None, metavar="N",
                     help=f"Limit the processes and threads of each bot's tree (in the sandbox: {DEFAULT_PROCESSES})."),
    ]

    def decorate(function: F) -> F:
        for option in reversed(options):
            function = option(function)
        return function

    return decorate


def sandbox_policy(mode: str, network: bool, binds: Iterable[str], hidden: Iterable[str | None] = ()) -> SandboxPolicy:
    """The policy asked for on the command line; ``hidden`` are the referee's own paths."""
    return SandboxPolicy(mode, network, tuple(str(Path(b).resolve()) for b in binds),
                         tuple(str(Path(h).resolve()) for h in hidden if h is not None))


def announce_sandbox(policy: SandboxPolicy, resolved: SandboxPolicy | None) -> None:
    """Say on stderr when ``auto`` found no sandbox: the user must know bots run unguarded."""
    if policy.mode == "auto" and resolved is None:
        click.echo(f"cardcli: no sandbox here ({support().detail}); bots run unguarded", err=True)


def guarded_by(resolved: SandboxPolicy | None) -> str:
    """What guards the bots, as the output states it."""
    host = cgroups.host()
    return describe(resolved, host.label if host is not None else None)


record_select = click.option(
    "--game", "select", type=int, default=None, metavar="K", help="Only the K-th record of the file (from 1)."
)

max_record_bytes = click.option(
    "--max-record-bytes", "max_bytes", type=click.IntRange(min=1024), default=MAX_RECORD_BYTES, show_default=True,
    metavar="N", help="Refuse a record line longer than N bytes (a bound on what a crafted file can cost).",
)
