"""What a sandboxed bot may read, decided before it starts, and told to the organiser.

A bot sees the system's directories, its program's directory, the directories its command line
names, its working directory, and what the organiser adds in so many words (``--sandbox-bind``,
an entrants file's ``sandbox_bind``); nothing else is inferred. Inference is how gaps open: a
rule that showed "the installation around a ``bin``" showed the whole home of a bot installed
as ``~/bin/mybot``, and an entrants file's ``dir = "../../../.."`` showed ``/``.

So an inferred path (never one the organiser gave) is refused with a one-line error when it is
too broad to be any bot's own: ``/``, a user's home or a directory that holds one, a directory
every user shares (``/tmp``, ``/var/tmp``, ``/dev/shm``), or the kernel's and the system's
run-time trees (``/proc``, ``/sys``, ``/run``, ``/dev``; a path inside ``/proc`` or ``/dev``
needs nothing shown, the sandbox has its own). The referee's own paths (records, tournament
directory, stderr and bundle folders, tokens, keys, certificates, CSV, entrants file) are
never shown: one lying inside a shown directory is **masked**, an empty directory or an
unreadable file in its place, and one that does not exist yet there is refused, since a file
made later inside a shown directory would appear to the bot.

Everything here is a pure function of paths and the file system's answers, so the command line
checks every bot before any starts, ``check-bot`` and the tournament print what each may see,
and the sandbox mounts exactly that.
"""

from __future__ import annotations

import enum
import functools
import os
import pwd
import shutil
from typing import Iterable, Mapping, Sequence

import attrs

from ..errors import UsageError

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
"""Visible read-only to every sandboxed bot: the system's programs, libraries and settings."""
SHARED_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
"""Directories every user writes into: showing one shows everyone's files."""
RUNTIME_TREES = ("/sys", "/run")
"""The kernel's and the system's live state: never a bot's own directory."""
PROVIDED_TREES = ("/proc", "/dev")
"""The sandbox has its own: a command-line path inside them needs nothing shown."""


class Why(enum.Enum):
    """Why a path is shown to a bot."""

    PROGRAM = "its program"
    ARGUMENT = "its command line"
    WORKDIR = "its working directory"
    BIND = "the organiser's bind"


@attrs.frozen
class Shown:
    path: str
    why: Why


@attrs.frozen
class View:
    """What one sandboxed bot may read, and how it starts."""

    argv: tuple[str, ...]
    """The command with every path made absolute (the bot may start in its scratch)."""
    shown: tuple[Shown, ...]
    """Directories (or files) shown read-only at their own place, besides the system's."""
    masked: tuple[str, ...]
    """The referee's paths that lie inside a shown directory, masked there."""
    workdir: str | None
    """Where the bot starts, when it has a working directory it may see; else its scratch."""
    hint: str | None = None
    """What the organiser may need to add (an interpreter's installation), for a bot that
    then fails to start."""

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(s.path for s in self.shown)

    def to_json(self) -> dict[str, object]:
        return {"shown": [{"path": s.path, "why": s.why.value} for s in self.shown], "masked": list(self.masked),
                "hint": self.hint}

    def describe(self) -> str:
        """One line: each shown path and why, then what is masked."""
        parts = [f"{s.path} ({s.why.value})" for s in self.shown] or ["nothing of its own"]
        text = "system directories, scratch /tmp, " + ", ".join(parts)
        if self.masked:
            text += "; masked: " + ", ".join(self.masked)
        if self.hint is not None:
            text += f"; note: {self.hint}"
        return text


def view_of(argv: Sequence[str], workdir: str | None, search: str | None, binds: Iterable[str],
            hidden: Iterable[str], show_workdir: bool = False) -> View:
    """What the bot ``argv`` (started in ``workdir``, its program looked up on ``search``, a
    ``PATH``) may see, with the organiser's ``binds`` and the referee's ``hidden`` paths. The
    working directory itself is shown only with ``show_workdir`` (an entrants file's ``dir``):
    a directory the bot merely starts in, such as the one its entrants file lies in, may hold
    other entrants and the referee's files.
    Raises UsageError, naming the path and why, where an inferred path is too broad or a
    referee's path would appear inside a shown directory."""
    hidden = [os.path.realpath(h) for h in hidden]
    absolute, inferred = _command_paths(argv, workdir, search)
    if workdir is not None and show_workdir:
        inferred.append(Shown(os.path.abspath(workdir), Why.WORKDIR))
    wanted = inferred + [Shown(os.path.abspath(b), Why.BIND) for b in binds]
    shown: list[Shown] = []
    for candidate in wanted:
        path, real = candidate.path, os.path.realpath(candidate.path)
        if candidate.why is not Why.BIND:
            if _under_any(path, PROVIDED_TREES):
                continue
            problem = too_broad(path) or too_broad(real)
            if problem is not None:
                raise UsageError(f"{path} ({candidate.why.value}) would show a sandboxed bot {problem}: "
                                 "move the bot into a directory of its own, or show it with --sandbox-bind")
        if any(_inside(real, secret) for secret in hidden):
            continue
        if _under_any(path, SYSTEM_DIRS) or any(s.path == path for s in shown):
            continue
        shown.append(Shown(path, candidate.why))
    shown = [s for s in shown if not any(o.path != s.path and _inside(s.path, o.path) for o in shown)]
    masked = []
    for secret in hidden:
        for place in shown:
            real = os.path.realpath(place.path)
            if secret == real or not _inside(secret, real):
                continue
            if not os.path.lexists(secret):
                raise UsageError(f"{secret} is the referee's and would be made inside {place.path}, which a "
                                 "sandboxed bot may read: put it elsewhere")
            inside = place.path.rstrip("/") + secret[len(real.rstrip("/")):]
            if inside not in masked:
                masked.append(inside)
    start = os.path.abspath(workdir) if workdir is not None else None
    if start is not None and not any(_inside(start, s.path) for s in shown) and not _under_any(start, SYSTEM_DIRS):
        start = None
    return View(tuple(absolute), tuple(shown), tuple(masked), start, _installation_hint(absolute[0], shown))


def too_broad(path: str) -> str | None:
    """Why ``path`` is no bot's own directory, or None."""
    if path == "/":
        return "the whole file system"
    if path in SHARED_DIRS:
        return "a directory every user writes into"
    if _under_any(path, RUNTIME_TREES):
        return "the system's run-time state"
    for home in _homes():
        if _inside(home, path):
            return f"the home directory {home}" if home == path else f"{path}, which holds the home {home}"
    return None


def crossings(views: Mapping[str, View]) -> None:
    """Refuse entrants one of which would see another's directory: every inferred path of one
    that holds (strictly) a path of another's own. Two entrants started from the same directory
    share it by the organiser's choice, and the tournament says so."""
    for name, view in views.items():
        for other, theirs in views.items():
            if other == name:
                continue
            for mine in view.shown:
                if mine.why is Why.BIND:
                    continue
                for own in theirs.shown:
                    if own.why is not Why.BIND and own.path != mine.path and _inside(own.path, mine.path):
                        raise UsageError(f"entrant {name}'s {mine.path} ({mine.why.value}) holds entrant {other}'s "
                                         f"{own.path}: give each entrant a directory of its own, or show it "
                                         "with --sandbox-bind")


def _command_paths(argv: Sequence[str], workdir: str | None, search: str | None) -> tuple[list[str], list[Shown]]:
    """The command with its paths absolute, and the directories it names: its program's (and,
    when the program is a link, the directory it leads to) and each argument's that names a
    path (one with a ``/``, or a file in the working directory). A bare program name is looked
    up on ``search`` (None: the referee's ``PATH``)."""
    here = workdir or os.getcwd()
    program = argv[0]
    found = program if os.sep in program else (shutil.which(program, path=search) or program)
    found = os.path.abspath(os.path.join(here, found))
    shown = [Shown(os.path.dirname(found), Why.PROGRAM), Shown(os.path.dirname(os.path.realpath(found)), Why.PROGRAM)]
    result = [found]
    for arg in argv[1:]:
        named = os.path.join(here, arg)
        if (os.sep in arg or os.path.isfile(named)) and os.path.exists(named):
            path = os.path.abspath(named)
            shown.append(Shown(path if os.path.isdir(path) else os.path.dirname(path), Why.ARGUMENT))
            result.append(path)
        else:
            result.append(arg)
    return result, shown


def _installation_hint(program: str, shown: Sequence[Shown]) -> str | None:
    """For a program in ``PREFIX/bin`` outside the system's directories whose ``PREFIX`` is not
    shown (an interpreter of pyenv, conda, a virtual environment, a JDK): the bind that would
    show its libraries."""
    for path in (program, os.path.realpath(program)):
        folder = os.path.dirname(path)
        prefix = os.path.dirname(folder)
        if os.path.basename(folder) == "bin" and not _under_any(path, SYSTEM_DIRS) \
                and not any(_inside(prefix, s.path) for s in shown):
            return f"its program lies in {folder}: if it needs {prefix} (its libraries), add --sandbox-bind {prefix}"
    return None


@functools.lru_cache(maxsize=1)
def _homes() -> tuple[str, ...]:
    """Every user's home directory (the system's accounts' homes in system directories aside).
    Read once per process: the password database and a ``realpath`` per account cost
    milliseconds, and every bot's start would pay them several times."""
    homes = {"/root", "/home"}
    try:
        homes.update(entry.pw_dir for entry in pwd.getpwall())
    except OSError:
        pass
    home = os.environ.get("HOME")
    if home:
        homes.add(home)
    return tuple(sorted(os.path.realpath(h) for h in homes
                  if h and h != "/" and os.path.isabs(h) and not _under_any(h, SYSTEM_DIRS)
                  and not _under_any(h, PROVIDED_TREES) and h not in ("/nonexistent",)))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _under_any(path: str, folders: Sequence[str]) -> bool:
    real = os.path.realpath(path) if os.path.exists(path) else path
    return any(_inside(real, f) for f in folders)
