"""The entrants of a tournament: ``--bot NAME=SPEC`` on the command line, an entrants file
(``--entrants FILE.toml``), or both, and the bot options set for each (``--bot-option``).

An entrants file is TOML, one ``[[entrant]]`` table per entrant::

    [[entrant]]
    name = "py"
    command = "python3 random_bot.py --seed 1"     # a seat spec, or ["python3", "random_bot.py"]
    dir = "bots/python"                             # the working directory (shown to a sandboxed bot)
    sandbox_bind = ["data"]                         # further paths a sandboxed bot may read
    env = { PYTHONHASHSEED = "0" }                  # added to the bot's environment
    options = { think_ms = 50 }                     # sent with setoption, when the bot declares them

Every relative path in the file is relative to the file's own directory, so a file means the
same from wherever the tournament is started: ``dir`` is resolved from there, and a bot program
starts in its ``dir`` (the file's directory when it has none), where the relative paths of its
command are found, as a shell started there would find them.

The file is untrusted input as much as a record is: every mistake in it is one line naming the
file, the entrant and the key (exit status 2), whatever its bytes.
"""

from __future__ import annotations

import datetime
import os
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import attrs

from ..errors import UsageError
from ..protocol import option_problem
from ..safe_text import display_name, printable
from ..seats.launch import Launch
from ..seats.process import ProcessSeat
from ..small_files import read_small

MAX_FILE_BYTES = 1 << 20
"""Longest entrants file read, in bytes: a file for hundreds of entrants is a few kilobytes."""
MAX_KEY_PARTS = 16
"""Most parts of one dotted key (``a.b.c``): an entrants file needs three. The TOML reader
spends memory quadratic in a key's parts (a 16,000-part key takes a gigabyte), so deeper keys
are refused before it reads them."""
KEYS = ("name", "command", "dir", "sandbox_bind", "env", "options")
"""The keys of an ``[[entrant]]`` table."""
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
"""A portable environment variable name (POSIX)."""


@attrs.frozen
class Entrant:
    """One entrant: its name, its seat spec, how its bot program starts, and its options."""

    name: str
    spec: str
    """As ``--bot NAME=SPEC`` gives it: a built-in player, ``remote:NAME`` or a command line (an
    argv list from a file is written ``cmd:`` and its words, quoted)."""
    workdir: str | None = None
    """The working directory of its bot program, absolute; None: the referee's."""
    env: tuple[tuple[str, str], ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    """Bot options to set (name, value), in order."""
    binds: tuple[str, ...] = ()
    """Further paths its sandboxed bot may read (``sandbox_bind``), absolute."""
    dir_shown: bool = False
    """Whether its working directory was named (``dir``), and so is shown to its sandboxed bot;
    the entrants file's own directory, where a bot without ``dir`` starts, is not."""

    @property
    def launch(self) -> Launch:
        return Launch(self.workdir, self.env, self.binds, self.dir_shown)

    def settings_json(self) -> dict[str, Any]:
        """What a tournament's configuration keeps of it beyond its name and spec (only the
        keys that are set)."""
        data: dict[str, Any] = {}
        if self.workdir is not None:
            data["dir"] = self.workdir
        if self.dir_shown:
            data["dir_shown"] = True
        if self.binds:
            data["sandbox_bind"] = list(self.binds)
        if self.env:
            data["env"] = dict(self.env)
        if self.options:
            data["options"] = dict(self.options)
        return data

    @classmethod
    def of(cls, name: str, spec: str, settings: Mapping[str, Any]) -> "Entrant":
        """The entrant a configuration describes (its ``entrant_settings`` entry)."""
        return cls(name, spec, settings.get("dir"), tuple(settings.get("env", {}).items()),
                   tuple(settings.get("options", {}).items()), tuple(settings.get("sandbox_bind", ())),
                   bool(settings.get("dir_shown", False)))


def load(path: Path) -> list[Entrant]:
    """The entrants of an entrants file, checked: every mistake is a UsageError of one line
    naming the file, the entrant and the key."""
    shown = str(path)
    raw = read_small(path, MAX_FILE_BYTES, "an entrants file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise UsageError(f"{shown}: not UTF-8 text (line {line}, byte {err.start})") from None
    parts = deepest_key(text)
    if parts > MAX_KEY_PARTS:
        raise UsageError(f"{shown}: a key of {parts} parts; an entrants file has none deeper than {MAX_KEY_PARTS}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UsageError(f"{shown}: not TOML: {err}") from None
    except RecursionError:
        raise UsageError(f"{shown}: arrays or tables nested too deeply") from None
    return _entrants(data, shown, path.resolve().parent)


def _entrants(data: dict[str, Any], shown: str, home: Path) -> list[Entrant]:
    for key in data:
        if key != "entrant":
            raise UsageError(f"{shown}: unknown key {_key(key)} (an entrants file holds [[entrant]] tables)")
    tables = data.get("entrant")
    if tables is None:
        raise UsageError(f"{shown}: no [[entrant]] table")
    if type(tables) is not list or not all(type(t) is dict for t in tables):
        raise UsageError(f"{shown}: 'entrant' must be an array of tables ([[entrant]]), not {_kind(tables)}")
    found: list[Entrant] = []
    seen: dict[str, int] = {}
    for number, table in enumerate(tables, start=1):
        entrant = _entrant(table, f"{shown}: entrant {number}", shown, home)
        if entrant.name in seen:
            raise UsageError(f"{shown}: entrant {_quoted(entrant.name)}: name: given twice (entrants "
                             f"{seen[entrant.name]} and {number})")
        seen[entrant.name] = number
        found.append(entrant)
    return found


def _entrant(table: dict[str, Any], at: str, shown: str, home: Path) -> Entrant:
    name = table.get("name")
    if name is None:
        raise UsageError(f"{at}: name: missing")
    if type(name) is not str:
        raise UsageError(f"{at}: name: must be a text, not {_kind(name)}")
    name = name.strip()
    if not name or not name.isprintable():
        raise UsageError(f"{at}: name: must be a printable text, not {name[:40]!r}")
    at = f"{shown}: entrant {_quoted(name)}"
    for key in table:
        if key not in KEYS:
            raise UsageError(f"{at}: unknown key {_key(key)} (the keys are {', '.join(KEYS)})")
    spec = _command(table.get("command"), at)
    workdir = _workdir(table.get("dir"), at, home)
    env = _env(table.get("env"), at)
    options = _options(table.get("options"), at)
    binds = _binds(table.get("sandbox_bind"), at, home)
    entrant = Entrant(name, spec, workdir if workdir is not None else str(home), env, options, binds,
                      workdir is not None)
    program = _check_spec(entrant, at)
    if not program:
        for key in ("dir", "env", "sandbox_bind"):
            if key in table:
                raise UsageError(f"{at}: {key}: the command {spec!r} runs no program (a built-in player or a "
                                 "remote bot), so it has no working directory or environment")
        entrant = attrs.evolve(entrant, workdir=None, dir_shown=False)
    return entrant


def _command(command: Any, at: str) -> str:
    if command is None:
        raise UsageError(f"{at}: command: missing")
    if type(command) is str:
        if not command.strip():
            raise UsageError(f"{at}: command: empty")
        return command.strip()
    if type(command) is list and all(type(word) is str for word in command):
        if not command or not command[0]:
            raise UsageError(f"{at}: command: an empty program name")
        return "cmd:" + shlex.join(command)
    raise UsageError(f"{at}: command: must be a text (a seat spec) or an array of texts (a program and its "
                     f"arguments), not {_kind(command)}")


def _workdir(value: Any, at: str, home: Path) -> str | None:
    if value is None:
        return None
    if type(value) is not str:
        raise UsageError(f"{at}: dir: must be a text (a directory), not {_kind(value)}")
    if not value or "\0" in value:
        raise UsageError(f"{at}: dir: not a directory name: {value!r}")
    path = home / value
    if not path.exists():
        raise UsageError(f"{at}: dir: no such directory: {printable(str(path), 200)}")
    if not path.is_dir():
        raise UsageError(f"{at}: dir: not a directory: {printable(str(path), 200)}")
    return os.path.normpath(path.resolve())


def _binds(value: Any, at: str, home: Path) -> tuple[str, ...]:
    """``sandbox_bind``: paths (from the file's directory) the organiser shows this entrant's
    sandboxed bot, each of which must exist."""
    if value is None:
        return ()
    if type(value) is not list or not all(type(v) is str for v in value):
        raise UsageError(f"{at}: sandbox_bind: must be an array of texts (paths), not {_kind(value)}")
    paths = []
    for text in value:
        if not text or "\0" in text:
            raise UsageError(f"{at}: sandbox_bind: not a path: {text!r}")
        path = home / text
        if not path.exists():
            raise UsageError(f"{at}: sandbox_bind: no such file or directory: {printable(str(path), 200)}")
        paths.append(os.path.normpath(path.resolve()))
    return tuple(paths)


def _env(value: Any, at: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if type(value) is not dict:
        raise UsageError(f"{at}: env: must be a table of texts (NAME = \"value\"), not {_kind(value)}")
    pairs = []
    for name, text in value.items():
        if not ENV_NAME.match(name):
            raise UsageError(f"{at}: env: {_key(name)} is not a variable name (letters, digits and _, "
                             "not starting with a digit)")
        if type(text) is not str:
            raise UsageError(f"{at}: env: {name}: must be a text, not {_kind(text)}")
        if "\0" in text:
            raise UsageError(f"{at}: env: {name}: holds a NUL character")
        pairs.append((name, text))
    return tuple(pairs)


def _options(value: Any, at: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if type(value) is not dict:
        raise UsageError(f"{at}: options: must be a table (NAME = value), not {_kind(value)}")
    pairs = []
    for name, raw in value.items():
        if type(raw) is bool:
            text = "true" if raw else "false"
        elif type(raw) in (str, int, float):
            text = str(raw)
        else:
            raise UsageError(f"{at}: options: {_key(name)}: must be a text, a number or a boolean, not {_kind(raw)}")
        problem = option_problem(name, text)
        if problem is not None:
            raise UsageError(f"{at}: options: {problem}")
        pairs.append((name, text))
    return tuple(pairs)


def _check_spec(entrant: Entrant, at: str) -> bool:
    """Refuse an entrant whose command cannot start (an unknown player, a missing program)
    before anything runs; True when the command is a bot program."""
    if entrant.spec.startswith("remote:"):
        return False
    from ..seating import make_seat

    try:
        seat = make_seat(entrant.spec, 0, 0, launch=entrant.launch)
    except UsageError as err:
        raise UsageError(f"{at}: command: {_without_seat(str(err))}") from None
    return isinstance(seat, ProcessSeat)


def _without_seat(message: str) -> str:
    """A seat spec's error without the seat number it names (``seat 0: ``): an entrant has
    no seat."""
    return message[len("seat 0: "):] if message.startswith("seat 0: ") else message


def merge(entrants: Sequence[Entrant], bots: Iterable[tuple[str, str]],
          options: Iterable[tuple[str, str, str]]) -> list[Entrant]:
    """The entrants of a file with the command line's: ``--bot NAME=SPEC`` replaces the file's
    entrant of that name (its command, which then runs as any ``--bot`` does: in the referee's
    working directory and environment; its options stay) or adds one after the file's, and
    each ``--bot-option`` (entrant, option, value) sets or replaces one option."""
    merged = {e.name: e for e in entrants}
    given: set[str] = set()
    for name, spec in bots:
        if name in given:
            raise UsageError(f"--bot {display_name(name)} is given twice: entrant names must differ")
        given.add(name)
        kept = merged[name].options if name in merged else ()
        merged[name] = Entrant(name, spec, options=kept)
    for name, option, value in options:
        entrant = merged[name]
        settings = dict(entrant.options)
        settings[option] = value
        merged[name] = attrs.evolve(entrant, options=tuple(settings.items()))
    return list(merged.values())


def deepest_key(text: str) -> int:
    """The most parts of any dotted key in a TOML text, read lexically (strings and comments
    skipped; a part ends at ``=``, ``,``, a bracket or a brace): a bound to check before the
    TOML reader, which is quadratic in them. Fractional numbers count as keys of two parts,
    which no limit worth having meets."""
    deepest = parts = 1
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            triple = text.startswith(ch * 3, i)
            close = ch * 3 if triple else ch
            i += len(close)
            while i < n and not text.startswith(close, i):
                if ch == '"' and text[i] == "\\":
                    i += 1
                elif not triple and text[i] == "\n":
                    break
                i += 1
            i += len(close)
            continue
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch == ".":
            parts += 1
            deepest = max(deepest, parts)
        elif ch in "=,[]{}\n":
            parts = 1
        i += 1
    return deepest


def _kind(value: Any) -> str:
    """A TOML value's type, as a message names it."""
    if type(value) is bool:
        return "a boolean"
    if type(value) is int:
        return "an integer"
    if type(value) is float:
        return "a float"
    if type(value) is str:
        return "a text"
    if type(value) is list:
        return "an array"
    if type(value) is dict:
        return "a table"
    if isinstance(value, (datetime.date, datetime.time)):
        return "a date or time"
    return type(value).__name__


def _key(key: str) -> str:
    return repr(printable(key, 60))


def _quoted(name: str) -> str:
    return repr(display_name(name))
