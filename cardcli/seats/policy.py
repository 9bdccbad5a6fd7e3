"""What the organiser asked of the sandbox: ``--sandbox``, ``--bot-network``,
``--sandbox-bind``, ``--bot-disk`` (whether this machine can give it is :mod:`.guard`'s to say).

A value apart from the sandbox's machinery (:mod:`.sandbox`), so that the command line can
declare its options and a match of built-in players can run without loading bubblewrap's
code, the system-call filter or the visibility rules.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Iterable, Mapping

import attrs

if TYPE_CHECKING:
    from .visibility import View


class SandboxMode(StrEnum):
    """``--sandbox``, and a tournament's ``sandbox.mode`` (the values are the texts written
    there)."""

    AUTO = "auto"
    """Sandbox where this machine can, and say so where it cannot."""
    ON = "on"
    """Sandbox, or refuse to start."""
    OFF = "off"
    """Run the bots unguarded."""


DEFAULT_PROCESSES = 256
"""The process (and thread) limit of a sandboxed tree when none is given: a fork bomb stops
there instead of at the machine's end."""
DEFAULT_DISK_MIB = 256
"""The size of a bot's scratch when none is given: room for a competition's opening books and
caches, and a bound on what one bot can take of the machine (a tmpfs lives in memory, and
counts against ``--bot-memory`` where control groups apply)."""


@attrs.frozen
class SandboxPolicy:
    """What was asked for: ``--sandbox``, ``--bot-network``, ``--sandbox-bind``, ``--bot-disk``
    and the referee's own paths that no bot may see."""

    mode: SandboxMode = attrs.field(default=SandboxMode.OFF, converter=SandboxMode)
    """Whether to sandbox (a text converts to the mode it names)."""
    network: bool = False
    binds: tuple[str, ...] = ()
    """Further paths every bot may read (data a bot needs outside its own directory)."""
    hidden: tuple[str, ...] = ()
    """The referee's own paths (tournament directory, records, stderr files, tokens, keys,
    certificates, CSV, entrants file), masked where they lie inside a directory a bot may see."""
    disk_mib: int = DEFAULT_DISK_MIB
    """The size of each bot's scratch."""

    def view(self, argv: list[str], workdir: str | None = None, env: Mapping[str, str] | None = None,
             binds: Iterable[str] = (), show_workdir: bool = False) -> View:
        """What the bot ``argv`` may see under this policy (UsageError where that is refused)."""
        from .visibility import view_of

        return view_of(argv, workdir, dict(env or {}).get("PATH"), [*self.binds, *binds], self.hidden, show_workdir)

