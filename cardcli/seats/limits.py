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

Both are applied by a launcher that joins the group, sets the rlimits and then ``exec``s the
bot (or the sandbox around it), so everything the bot starts is inside from its first
instruction. A launcher rather than ``preexec_fn``: the referee runs threads (stderr drains),
and code run between ``fork`` and ``exec`` in a threaded process can deadlock.

A ``limit`` fault is decided from what the kernel reports (the group's counters, the signal
that ended the bot), never from the bot's own words: a bot that prints ``MemoryError`` and
exits is a crash.
"""

from __future__ import annotations

import shutil
import signal
import sys
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from .cgroups import Group

_RLIMITS = ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_NPROC")
_PRLIMIT = {"RLIMIT_AS": "as", "RLIMIT_CPU": "cpu", "RLIMIT_NOFILE": "nofile", "RLIMIT_NPROC": "nproc"}

_JOIN = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 126; shift; n=$((n - 1)); done; exec "$@"'
"""``sh -c`` text: write the shell's own pid into each of the first $1 files (entering the
control group in every hierarchy), then become the rest of the command line."""

_LAUNCHER = """\
import os, resource, sys
for path in filter(None, sys.argv[1].split("\\n")):
    with open(path, "w") as f:
        f.write(str(os.getpid()))
for name, value in zip(("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_NPROC"), sys.argv[2:6]):
    if value != "-":
        resource.setrlimit(getattr(resource, name), tuple(map(int, value.split(":"))))
os.execvp(sys.argv[6], sys.argv[6:])
"""
"""The same for a machine without ``prlimit``, in Python."""


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
        that apply (``argv`` itself when there is nothing to do).

        The launcher is ``sh`` (joining the group: one ``echo`` of its pid per hierarchy) and
        util-linux's ``prlimit`` (the rlimits), each ``exec``-ing the next: about a millisecond
        each, where a Python launcher costs ten or more at every bot start. Where ``prlimit``
        is missing, a Python launcher does both."""
        values = self._rlimits(group is not None, own_uid)
        joins = group.procs_files() if group is not None else []
        if not joins and not values:
            return argv
        prlimit = shutil.which("prlimit", path="/usr/bin:/bin:/usr/sbin:/sbin")
        if prlimit is None:
            pairs = [f"{values[name][0]}:{values[name][1]}" if name in values else "-" for name in _RLIMITS]
            return [sys.executable, "-S", "-I", "-c", _LAUNCHER, "\n".join(joins), *pairs, *argv]
        command = list(argv)
        if values:
            command = [prlimit, *(f"--{_PRLIMIT[name]}={soft}:{hard}" for name, (soft, hard) in values.items()),
                       "--", *command]
        if joins:
            command = ["/bin/sh", "-c", _JOIN, "sh", str(len(joins)), *joins, *command]
        return command

    def _rlimits(self, grouped: bool, own_uid: bool) -> dict[str, tuple[int, int]]:
        """The per-process limits that apply, as (soft, hard) by rlimit name: memory only
        without a group, processes only for a bot with a uid of its own (``RLIMIT_NPROC``
        counts every process of a uid), CPU time with a second's grace between SIGXCPU and
        SIGKILL."""
        values: dict[str, tuple[int, int]] = {}
        if self.memory_mb is not None and not grouped:
            values["RLIMIT_AS"] = (self.memory_mb << 20, self.memory_mb << 20)
        if self.cpu_seconds is not None:
            # with a group the watchdog stops the tree at the limit and measures it; the
            # per-process limit then only backs it up, a second later
            soft = self.cpu_seconds + (1 if grouped else 0)
            values["RLIMIT_CPU"] = (soft, soft + 1)
        if self.open_files is not None:
            values["RLIMIT_NOFILE"] = (self.open_files, self.open_files)
        if self.processes is not None and not grouped and own_uid:
            values["RLIMIT_NPROC"] = (self.processes, self.processes)
        return values

    def setup(self, group: Group) -> None:
        """Limit the group before the bot joins it."""
        group.limit(None if self.memory_mb is None else self.memory_mb << 20, self.processes)

    def breach(self, signal_number: int | None, group: Group | None) -> str | None:
        """The limit a bot went over, from the kernel's own account: the group's counters (OOM
        kills, refused forks, CPU time) and the signal that ended the bot (SIGXCPU from
        ``RLIMIT_CPU``). None when nothing says a limit was hit."""
        if group is not None:
            kills = group.oom_kills() if self.memory_mb is not None else 0
            if kills:
                return f"memory limit of {self.memory_mb} MiB (the kernel killed {kills} of its processes)"
            refused = group.forks_refused() if self.processes is not None else 0
            if refused:
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
