"""Helpers that several commands share (the options they share are in :mod:`.options`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import attrs
import click

from ..errors import UsageError
from ..games.registry import Setup
from ..records.io import MAX_RECORD_BYTES, Loaded, read
from ..protocol import option_problem
from ..safe_text import display_name, json_text, printable
from ..seats.policy import DEFAULT_DISK_MIB, SandboxMode, SandboxPolicy

if TYPE_CHECKING:
    from ..remote.hub import Listener
    from ..remote.seat import RemoteContext
    from ..seats.launch import Launch
    from ..seats.visibility import View


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """``-o NAME=VALUE`` items as a mapping; later items win."""
    result: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"option {item!r} must be written NAME=VALUE")
        result[name.strip()] = value.strip()
    return result


def option_assignment(item: str, flag: str, targets: Sequence[str], what: str) -> tuple[str, str, str]:
    """A bot option given on the command line, ``TARGET:OPTION=VALUE`` (``flag`` names the
    option, ``targets`` the entrant names or seat numbers it may name, ``what`` what they are),
    as (target, option, value). The target is matched whole against ``targets``, so an entrant
    name may hold ``:`` or ``=``; the option name and value must each be one word."""
    matches = [target for target in targets if item.startswith(target + ":")]
    shown = f"'{printable(item, 120)}'"
    if not matches:
        form = f"{flag} {shown} must be written {what.upper()}:OPTION=VALUE"
        known = ", ".join(display_name(t) for t in targets[:12]) + (", ..." if len(targets) > 12 else "")
        raise UsageError(f"{form}, where {what.upper()} is one of: {known}")
    target = max(matches, key=len)
    name, sep, value = item[len(target) + 1:].partition("=")
    if not sep:
        raise UsageError(f"{flag} {shown} must be written {what.upper()}:OPTION=VALUE")
    problem = option_problem(name, value)
    if problem is not None:
        raise UsageError(f"{flag} {shown}: {problem}")
    return target, name, value


class OptionWarnings:
    """Says once on stderr, per seat or entrant and option, that an option set for a bot was
    not sent because the bot did not declare it (a typo, most often, or a bot of another
    version): the match goes on, as a UCI engine is only sent the options it declares."""

    def __init__(self) -> None:
        self._said: set[tuple[str, str]] = set()

    def check(self, undeclared: Sequence[Sequence[Any]], who: Callable[[int], str]) -> None:
        """``undeclared``: (seat, option, declared names) as
        :func:`cardcli.records.io.undeclared_options` gives them; ``who`` names a seat."""
        for seat, option, declared in undeclared:
            name = who(seat)
            if (name, option) in self._said:
                continue
            self._said.add((name, option))
            names = ", ".join(printable(d, 40) for d in declared[:12]) if declared else None
            click.echo(f"cardcli: warning: {name}: option {printable(option, 60)} was not sent: the bot did not "
                       f"declare it ({'it declares ' + names if names else 'it declares no option'})", err=True)


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


def records_path(path: str) -> str:
    """A tournament directory's records file (DIR/records.jsonl), or PATH itself: every command
    that reads records takes either."""
    from ..tournament.runner import RECORDS

    target = Path(path)
    if target.is_dir():
        inside = target / RECORDS
        if not inside.is_file():
            raise UsageError(f"{path} is a directory without a tournament's {RECORDS}")
        return str(inside)
    return path


def sandbox_policy(mode: SandboxMode, network: bool, binds: Iterable[str], hidden: Iterable[str | None] = (),
                   disk_mib: int = DEFAULT_DISK_MIB) -> SandboxPolicy:
    """The policy asked for on the command line; ``hidden`` are the referee's own paths."""
    return SandboxPolicy(mode, network, tuple(str(Path(b).resolve()) for b in binds), referee_paths(hidden), disk_mib)


def referee_paths(paths: Iterable[str | None]) -> tuple[str, ...]:
    """The referee's own files, absolute, that no sandboxed bot may see."""
    return tuple(str(Path(p).resolve()) for p in paths if p is not None)


def sandbox_views(policy: SandboxPolicy | None, bots: Iterable[tuple[str, str, "Launch"]]) -> dict[str, View]:
    """What each sandboxed bot program among ``bots`` (name, seat spec, launch) may see,
    checked before any bot starts: a view the sandbox refuses is a one-line error naming the
    bot, the path and why (exit 2)."""
    views: dict[str, View] = {}
    if policy is None:
        return views
    from ..seats.process import ProcessSeat
    from ..seating import make_seat

    for name, spec, launch in bots:
        if spec.startswith("remote:"):
            continue
        seat = make_seat(spec, 0, 0, launch=launch)
        if isinstance(seat, ProcessSeat):
            try:
                views[name] = policy.view(seat.argv, launch.workdir, dict(launch.env), launch.binds,
                                          launch.show_workdir)
            except UsageError as err:
                raise UsageError(f"{name}: {err}") from None
    return views


def describe_views(views: dict[str, View]) -> list[str]:
    """What each bot may see, a line each, for the output."""
    return [f"  {display_name(name)} sees: {view.describe()}" for name, view in views.items()]


def announce_sandbox(policy: SandboxPolicy, resolved: SandboxPolicy | None) -> None:
    """Say on stderr when ``auto`` found no sandbox: the user must know bots run unguarded."""
    if policy.mode == "auto" and resolved is None:
        from ..seats.sandbox import support

        click.echo(f"cardcli: no sandbox here ({support().detail}); bots run unguarded", err=True)


def guarded_by(resolved: SandboxPolicy | None) -> str:
    """What guards the bots, as the output states it."""
    from ..seats import cgroups
    from ..seats.sandbox import describe

    host = cgroups.host()
    return describe(resolved, host.label if host is not None else None)


@attrs.frozen
class RemoteArgs:
    """The values of :data:`cardcli.cli.options.remote_options`."""

    listen: str | None = None
    tokens_path: str | None = None
    cert: str | None = None
    key_path: str | None = None
    connect_time: float = 60.0
    reconnect_time: float = 15.0
    network_grace: int = 0

    def open(self, names: Sequence[str], seats_at_once: int = 1) -> "tuple[Listener | None, RemoteContext | None]":
        """The listener (bound, not yet serving) and the context of the remote seats named
        ``names`` (one entry per seat), each name able to fill ``seats_at_once`` seats at the
        same time; (None, None) without remote seats. Every mistake is a one-line error here,
        before any bot starts."""
        if not names:
            if self.listen is not None:
                raise UsageError("--listen but no remote:NAME seat")
            return None, None
        if self.listen is None or self.tokens_path is None:
            raise UsageError(f"remote:{names[0]} needs the referee to listen: give --listen [HOST:]PORT and --tokens FILE")
        from ..remote.hub import Address, Listener, Tls  # websockets loads only when a referee listens
        from ..remote.seat import RemoteContext
        from ..remote.tokens import read_tokens

        if (self.cert is None) != (self.key_path is None):
            raise UsageError("--cert and --key go together")
        tokens = read_tokens(Path(self.tokens_path))
        for name in names:
            if name not in tokens:
                raise UsageError(f"remote:{name} has no token in {self.tokens_path}")
        capacity = {name: names.count(name) * seats_at_once for name in set(names)}
        tls = Tls(self.cert, self.key_path) if self.cert is not None and self.key_path is not None else None
        listener = Listener(Address.parse(self.listen), tokens, capacity, tls, self.reconnect_time)
        listener.bind()
        context = RemoteContext(listener.link_path, self.connect_time, self.network_grace / 1000.0)
        waiting = ", ".join(sorted(set(names)))
        click.echo(f"cardcli: listening on {listener.url} for {waiting} (each has {self.connect_time:g} s to "
                   "connect)", err=True)
        return listener, context
