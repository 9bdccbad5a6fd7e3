"""Resource limits for bot processes, and telling a bot that hit one from one that crashed.

Two mechanisms, chosen by what the machine offers:

- **A control group per bot** (:mod:`cardcli.seats.cgroups`), where the referee may create
  them: memory and the number of processes are limited for the bot's whole process tree by the
  kernel, CPU time and open files are summed over the tree by the watchdog. This is what makes a
  bot that spreads its work over helper processes subject to one limit.
- **Per-process rlimits** otherwise, and as a hard backstop beside the group: ``RLIMIT_CPU``
  (SIGXCPU at the limit) and ``RLIMIT_NOFILE`` always, ``RLIMIT_AS`` for memory only without a
  group (an address-space limit makes allocations fail inside the bot, where nothing reports
  it; a group's limit ends in the kernel's OOM killer, which is counted), ``RLIMIT_NPROC`` only
  when the bot runs under a uid of its own (it counts every process of a uid).

Both are applied by a tiny Python launcher that joins the group, calls ``setrlimit`` and then
``exec``s the bot (or the sandbox around it), so everything the bot starts is inside from its
first instruction. A launcher rather than ``preexec_fn``: the referee runs threads (stderr
drains), and code run between ``fork`` and ``exec`` in a threaded process can deadlock.

A ``limit`` fault is decided from what the kernel reports (the group's counters, the signal
that ended the bot), never from the bot's own words: a bot that prints ``MemoryError`` and
exits is a crash.
"""

from __future__ import annotations

import signal
import sys

import attrs

from .cgroups import Group

_LAUNCHER = """\
import os, resource, sys
for path in filter(None, sys.argv[1].split("\\n")):
    with open(path, "w") as f:
        f.write(str(os.getpid()))
names = ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_NPROC")
for name, value in zip(names, map(int, sys.argv[2:6])):
    if value >= 0:
        hard = value + 1 if name == "RLIMIT_CPU" else value
        resource.setrlimit(getattr(resource, name), (value, hard))
os.execvp(sys.argv[6], sys.argv[6:])
"""


@attrs.frozen
class Limits:
    """Per-bot limits; None means no limit."""

    memory_mb: int | None = None
    """Memory of the bot's tree in MiB (per process address space without a group)."""
    cpu_seconds: int | None = None
    """CPU time of the bot's tree over its whole life, in seconds."""
    open_files: int | None = None
    """Open file descriptors, per process and across the tree."""
    processes: int | None = None
    """Processes (and threads) alive at once in the bot's tree."""

    @property
    def any(self) -> bool:
        return any(v is not None for v in (self.memory_mb, self.cpu_seconds, self.open_files, self.processes))

    def with_default_processes(self, processes: int) -> "Limits":
        return self if self.processes is not None else attrs.evolve(self, processes=processes)

    def launch(self, argv: list[str], group: Group | None = None, own_uid: bool = False) -> list[str]:
        """The command that starts ``argv`` inside ``group`` and under the per-process limits
        that apply (``argv`` itself when there is nothing to do)."""
        values = [
            -1 if self.memory_mb is None or group is not None else self.memory_mb << 20,
            -1 if self.cpu_seconds is None else self.cpu_seconds,
            -1 if self.open_files is None else self.open_files,
            -1 if self.processes is None or group is not None or not own_uid else self.processes,
        ]
        if group is None and all(v < 0 for v in values):
            return argv
        joins = "\n".join(group.procs_files()) if group is not None else ""
        return [sys.executable, "-S", "-I", "-c", _LAUNCHER, joins, *map(str, values), *argv]

    def setup(self, group: Group) -> None:
        """Limit the group before the bot joins it."""
        group.limit(None if self.memory_mb is None else self.memory_mb << 20, self.processes)

    def breach(self, signal_number: int | None, group: Group | None) -> str | None:
        """The limit a bot went over, from the kernel's own account: the group's counters (OOM
        kills, refused forks, CPU time) and the signal that ended the bot (SIGXCPU from
        ``RLIMIT_CPU``). None when nothing says a limit was hit."""
        if group is not None:
            kills = group.oom_kills()
            if kills and self.memory_mb is not None:
                return f"memory limit of {self.memory_mb} MiB (the kernel killed {kills} of its processes)"
            refused = group.forks_refused()
            if refused and self.processes is not None:
                return f"process limit of {self.processes} (the kernel refused {refused} forks)"
            if self.cpu_seconds is not None:
                used = group.cpu_seconds()
                if used >= self.cpu_seconds:
                    return f"CPU time limit of {self.cpu_seconds} s (its processes used {used:.2f} s)"
        if self.cpu_seconds is not None and signal_number == signal.SIGXCPU:
            return f"CPU time limit of {self.cpu_seconds} s (SIGXCPU)"
        return None

    def files_breach(self, group: Group) -> str | None:
        """The open-files limit summed over the tree (the kernel limits each process alone)."""
        if self.open_files is None:
            return None
        count = group.open_files()
        if count > self.open_files:
            return f"open files limit of {self.open_files} (its processes held {count})"
        return None

    def describe(self) -> str:
        """The limits in force, for a crash detail: a bot that died of a refused allocation or
        open cannot be told from any other crash, but its author should know what applied."""
        parts = []
        if self.memory_mb is not None:
            parts.append(f"memory {self.memory_mb} MiB")
        if self.cpu_seconds is not None:
            parts.append(f"CPU {self.cpu_seconds} s")
        if self.open_files is not None:
            parts.append(f"open files {self.open_files}")
        if self.processes is not None:
            parts.append(f"processes {self.processes}")
        return ", ".join(parts)
