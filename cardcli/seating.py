"""Turning a ``--seat SPEC`` into a seat: seat resolution, above the seats, the players and the
remote seats it chooses among.

A SPEC is a built-in player's name, ``remote:NAME`` (a bot that connects from another machine,
see ``docs/remote.md``) or a bot's command line. A bare word that names a built-in
player (``random``) is that player, even if a program of that name is on PATH; write
``cmd:random`` or ``./random`` for the program, and ``builtin:random`` to be explicit the other
way. Anything else is split as a shell splits words (quotes, backslashes) and run without a
shell.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from .errors import UsageError
from .seats.base import Seat, SeatBase
from .seats.builtin import BUILTIN_NAMES, InProcessSeat, PlayerSeat, builtin_name, first_seat, random_seat
from .seats.launch import Launch
from .seats.limits import Limits
from .seats.policy import SandboxPolicy

if TYPE_CHECKING:
    from .remote.seat import RemoteContext


def make_seat(
    spec: str,
    index: int,
    seed: int,
    stderr_dir: Path | None = None,
    limits: Limits = Limits(),
    salt: str = "",
    sandbox: SandboxPolicy | None = None,
    remote: RemoteContext | None = None,
    launch: Launch | None = None,
    label: str | None = None,
    tag: str | None = None,
    options: Sequence[tuple[str, str]] = (),
) -> Seat:
    """The seat for ``spec`` at seat ``index``; built-in players are seeded from the match seed
    (and ``salt``, which tells apart entrants that play the same built-in player). A bot
    program runs in ``sandbox`` (a resolved policy; None runs it unguarded), started as
    ``launch`` says (its working directory and environment). A remote seat needs the referee's
    listener (``remote``). The seat is named ``label`` (by default its spec) and ``tag`` (by
    default ``seat{index}`` for a bot program or a remote bot, its label otherwise), and is set
    the bot ``options``."""
    seat = _make_seat(spec, index, seed, stderr_dir, limits, salt, sandbox, remote, launch)
    return seat.named(label, tag).given_options(options)


def _make_seat(
    spec: str,
    index: int,
    seed: int,
    stderr_dir: Path | None,
    limits: Limits,
    salt: str,
    sandbox: SandboxPolicy | None,
    remote: RemoteContext | None,
    launch: Launch | None,
) -> SeatBase:
    text = spec.strip()
    if text.startswith("remote:"):
        return _remote_seat(spec, text[len("remote:"):], index, remote)
    if text.startswith("builtin:"):
        name = text[len("builtin:") :]
        if builtin_name(name) is None:
            raise UsageError(f"unknown built-in player {name!r}; built-in players: {', '.join(BUILTIN_NAMES)}")
        return builtin(name, spec, f"{seed}/{index}{salt}")
    if text.startswith("script:"):
        return _script_seat(spec, text[len("script:") :])
    if builtin_name(text) is not None:
        return builtin(text, spec, f"{seed}/{index}{salt}")
    command = text[len("cmd:") :] if text.startswith("cmd:") else text
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise UsageError(f"seat {index}: cannot split {spec!r} into words: {err}") from None
    if not argv:
        raise UsageError(f"seat {index}: empty seat spec")
    launch = launch or Launch()
    program = argv[0]
    if os.sep not in program and launch.locate(program) is None:
        raise UsageError(
            f"seat {index}: {program!r} is neither a built-in player ({', '.join(BUILTIN_NAMES)}) "
            "nor a program on PATH"
        )
    if os.sep in program and launch.locate(program) is None:
        raise UsageError(f"seat {index}: no such program: {program}")
    stderr_path = stderr_dir / f"seat{index}.stderr" if stderr_dir is not None else None
    from .seats.process import ProcessSeat  # the process machinery, for a bot program only

    return ProcessSeat(spec, argv, stderr_path, limits, sandbox, launch).named(tag=f"seat{index}")


def _remote_seat(spec: str, name: str, index: int, remote: RemoteContext | None) -> SeatBase:
    from .remote.seat import RemoteSeat  # the network's modules, for a match that has a remote seat only
    from .remote.tokens import check_name

    check_name(name)
    if remote is None:
        raise UsageError(f"seat {index}: {spec!r} is a remote seat: the referee must listen (--listen and --tokens)")
    return RemoteSeat(spec, name, remote).named(tag=f"seat{index}")


def remote_names(specs: Sequence[str]) -> list[str]:
    """The names of the remote seats among ``specs``, once per seat."""
    return [s.strip()[len("remote:"):] for s in specs if s.strip().startswith("remote:")]


def _script_seat(spec: str, path: str) -> SeatBase:
    """A seat that plays the moves in a file, one a line (see cardcli.players.human)."""
    from .players.human import HumanPlayer

    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as err:
        raise UsageError(f"script seat: cannot read {path}: {err.strerror}") from None
    return PlayerSeat(spec, HumanPlayer(lines=iter(lines), interactive=False), kind="scripted")


def builtin(name: str, label: str, seed: str | int) -> InProcessSeat:
    """The built-in player ``name`` (one of :data:`~cardcli.seats.builtin.BUILTIN_NAMES`, with
    its parameters if it takes any) in seat ``label``, seeded from ``seed``."""
    if name == "random":
        return random_seat(label, seed)
    if name == "first":
        return first_seat(label)
    if name == "human":
        import sys

        from .players.human import HumanPlayer

        return PlayerSeat(label, HumanPlayer(interactive=sys.stdin.isatty()), kind="human")
    if name == "heuristic":
        from .players.heuristic import HeuristicPlayer

        return PlayerSeat(label, HeuristicPlayer())
    if builtin_name(name) == "house":
        from .players.levels import level_of

        return level_of(name).make(label, seed)
    if builtin_name(name) == "ismcts":
        from .players.search.player import IsmctsPlayer, Settings

        return PlayerSeat(label, IsmctsPlayer(Settings.parse(name.partition(":")[2])))
    raise KeyError(name)
