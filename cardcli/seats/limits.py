"""Resource limits for bot processes, and telling a bot that hit one from one that crashed.

Limits are set in the child before the bot's program starts, by a tiny Python launcher that
calls ``setrlimit`` and then ``exec``s the bot (so the limits apply to the bot itself, and to
its children). A launcher rather than ``preexec_fn``: the referee runs threads (stderr
drains), and code run between ``fork`` and ``exec`` in a threaded process can deadlock.
"""

from __future__ import annotations

import signal
import sys

import attrs

_LAUNCHER = """\
import os, resource, sys
for name, value in zip(("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE"), map(int, sys.argv[1:4])):
    if value >= 0:
        hard = value + 1 if name == "RLIMIT_CPU" else value
        resource.setrlimit(getattr(resource, name), (value, hard))
os.execvp(sys.argv[4], sys.argv[4:])
"""

MEMORY_SIGNS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory")
FILES_SIGNS = ("Too many open files",)


@attrs.frozen
class Limits:
    """Per-bot limits; None means no limit."""

    memory_mb: int | None = None
    """Address space, in MiB (RLIMIT_AS)."""
    cpu_seconds: int | None = None
    """CPU time (RLIMIT_CPU): SIGXCPU at the limit, SIGKILL a second later."""
    open_files: int | None = None
    """Open file descriptors (RLIMIT_NOFILE)."""

    @property
    def any(self) -> bool:
        return any(v is not None for v in (self.memory_mb, self.cpu_seconds, self.open_files))

    def wrap(self, argv: list[str]) -> list[str]:
        """The command that starts ``argv`` under these limits (``argv`` itself when none)."""
        if not self.any:
            return argv
        values = [
            -1 if self.memory_mb is None else self.memory_mb * 1024 * 1024,
            -1 if self.cpu_seconds is None else self.cpu_seconds,
            -1 if self.open_files is None else self.open_files,
        ]
        return [sys.executable, "-S", "-c", _LAUNCHER, *map(str, values), *argv]

    def breach(self, exit_code: int | None, stderr_tail: str) -> str | None:
        """Which limit a dead bot most likely hit, from how it died and what it last printed:
        exact for CPU time (the kernel's SIGXCPU), a reading of the bot's own last words for
        memory and files (a program that runs out of either usually says so and exits)."""
        if self.cpu_seconds is not None and exit_code in (-signal.SIGXCPU, -signal.SIGKILL):
            return f"CPU time limit of {self.cpu_seconds} s"
        if self.memory_mb is not None and any(s in stderr_tail for s in MEMORY_SIGNS):
            return f"memory limit of {self.memory_mb} MiB"
        if self.open_files is not None and any(s in stderr_tail for s in FILES_SIGNS):
            return f"open files limit of {self.open_files}"
        return None
