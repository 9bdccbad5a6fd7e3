"""Where a bot program starts and what it finds in its environment.

A value of its own, apart from the process machinery (:mod:`.process`), so that the command
line and an entrants file can describe and check a bot's start without loading the pipes,
the sandbox and the watchdog; a match of built-in players never loads them.
"""

from __future__ import annotations

import os
import shutil

import attrs


@attrs.frozen
class Launch:
    """Where a bot program starts and what it finds in its environment, beyond the referee's
    defaults: an entrants file's ``dir`` and ``env`` (``docs/tournaments.md``)."""

    workdir: str | None = None
    """The bot's working directory, absolute; None: the referee's own. A relative program or
    argument in the command is found from here, as a shell started here would find it."""
    env: tuple[tuple[str, str], ...] = ()
    """Variables added to the bot's environment (and to a sandboxed bot's clean one)."""
    binds: tuple[str, ...] = ()
    """Further paths this bot may read in the sandbox (an entrants file's ``sandbox_bind``)."""
    show_workdir: bool = False
    """Whether the sandbox shows the working directory itself (an entrants file's ``dir``,
    which the organiser named), not only what the command names in it."""

    def environment(self) -> dict[str, str] | None:
        """The whole environment of an unsandboxed bot; None: the referee's, unchanged."""
        return {**os.environ, **dict(self.env)} if self.env else None

    def locate(self, program: str) -> str | None:
        """Where ``program`` is, found as the bot's start will find it: a path from the working
        directory, a bare name on the ``PATH`` the bot gets; None when it is not there."""
        if os.sep in program:
            path = os.path.join(self.workdir or "", program)
            return path if os.path.exists(path) else None
        return shutil.which(program, path=dict(self.env).get("PATH"))
