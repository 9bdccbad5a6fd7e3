"""Control groups: limits and accounting for a bot's whole process tree.

``setrlimit`` limits one process at a time: a bot that forks fourteen helpers gets fourteen
times its CPU and memory. A control group holds every process the bot ever starts (children
are born into their parent's group and cannot leave it without privileges), so its limits and
counters are the tree's. The kernel does the enforcing and the counting: memory over the
limit ends in the kernel's OOM killer and an ``oom_kill`` count, a fork over the process limit
fails and counts in ``pids.events``, and CPU time accumulates in one counter that the
referee's watchdog (:mod:`cardcli.seats.watchdog`) compares with the limit. A limit fault is
decided from those counters, never from what the bot printed.

Both hierarchies are supported: v1 (one mount per controller: ``memory``, ``pids``,
``cpuacct``) and v2 (one unified tree whose delegated subtree enables ``memory``, ``pids`` and
``cpu``). A group is created under the referee's own group in each hierarchy; where that is
not writable (most unprivileged users on v1), :func:`host` answers None and the limits fall
back to per-process ``setrlimit`` (``docs/security.md``).
"""

from __future__ import annotations

import errno
import functools
import itertools
import os
import signal
import time
from pathlib import Path
import attrs

_MOUNTS = Path("/proc/self/mounts")
_OWN = Path("/proc/self/cgroup")
_V1_CONTROLLERS = ("memory", "pids", "cpuacct")
_V2_CONTROLLERS = ("memory", "pids", "cpu")
_counter = itertools.count()


@attrs.frozen
class Host:
    """Where this process may create groups: one parent directory per v1 controller, or the
    one v2 parent."""

    version: int
    parents: tuple[tuple[str, Path], ...]
    """(controller, directory) pairs; for v2 a single ("unified", directory)."""

    @property
    def label(self) -> str:
        return f"cgroup v{self.version}"

    def new_group(self, tag: str) -> "Group":
        """A fresh, empty group for one bot process tree; OSError when the kernel refuses."""
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in tag)[:32]
        name = f"cardcli-{os.getpid()}-{next(_counter)}-{safe}"
        dirs = {}
        try:
            for controller, parent in self.parents:
                path = parent / name
                path.mkdir()
                dirs[controller] = path
        except OSError:
            for path in dirs.values():
                _rmdir(path)
            raise
        return Group(self.version, dirs)


@functools.lru_cache(maxsize=None)
def host() -> Host | None:
    """The groups this process may create, or None where it may not (no controllers mounted,
    not writable, a v2 tree without delegated controllers). Probed once per process by
    creating and removing a group."""
    try:
        mounts = _MOUNTS.read_text().splitlines()
        own = _OWN.read_text().splitlines()
    except OSError:
        return None
    for candidate in (_v1(mounts, own), _v2(mounts, own)):
        if candidate is None:
            continue
        try:
            candidate.new_group("probe").remove()
        except OSError:
            continue
        return candidate
    return None


def _own_paths(own: list[str]) -> dict[str, str]:
    """Controller name → this process's group path, from ``/proc/self/cgroup``."""
    paths = {}
    for line in own:
        parts = line.split(":", 2)
        if len(parts) == 3:
            for name in parts[1].split(",") if parts[1] else ["unified"]:
                paths[name] = parts[2]
    return paths


def _v1(mounts: list[str], own: list[str]) -> Host | None:
    where: dict[str, Path] = {}
    for line in mounts:
        fields = line.split()
        if len(fields) >= 4 and fields[2] == "cgroup":
            for controller in _V1_CONTROLLERS:
                if controller in fields[3].split(","):
                    where.setdefault(controller, Path(fields[1]))
    if len(where) != len(_V1_CONTROLLERS):
        return None
    paths = _own_paths(own)
    parents = []
    for controller in _V1_CONTROLLERS:
        relative = next((p for name, p in paths.items() if name == controller), "/")
        parents.append((controller, where[controller] / relative.lstrip("/")))
    return Host(1, tuple(parents))


def _v2(mounts: list[str], own: list[str]) -> Host | None:
    root = next((Path(f[1]) for f in (line.split() for line in mounts) if len(f) >= 3 and f[2] == "cgroup2"), None)
    relative = _own_paths(own).get("unified")
    if root is None or relative is None:
        return None
    parent = root / relative.lstrip("/")
    try:
        enabled = (parent / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    if not all(c in enabled for c in _V2_CONTROLLERS):
        return None
    return Host(2, (("unified", parent),))


@attrs.define
class Group:
    """One bot's group: joined by the bot's launcher before it starts anything, limited,
    read, and removed when the bot is gone."""

    version: int
    dirs: dict[str, Path]
    keeper: str | None = None
    """The executable of the processes that hold the bot rather than being it (the sandbox's),
    left out of the bot's counts."""

    def procs_files(self) -> list[str]:
        """The files the launcher writes its pid to, to enter the group in every hierarchy."""
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    def _dir(self, v1: str) -> Path:
        return self.dirs["unified" if self.version == 2 else v1]

    def limit(self, memory_bytes: int | None, processes: int | None) -> None:
        """Set the tree's memory and process limits (before the bot starts)."""
        if memory_bytes is not None:
            if self.version == 1:
                _write(self._dir("memory") / "memory.limit_in_bytes", memory_bytes)
                swap = self._dir("memory") / "memory.memsw.limit_in_bytes"
                if swap.exists():
                    _write(swap, memory_bytes)
            else:
                _write(self._dir("memory") / "memory.max", memory_bytes)
                _write(self._dir("memory") / "memory.swap.max", 0, optional=True)
        if processes is not None:
            _write(self._dir("pids") / "pids.max", processes)

    def cpu_seconds(self) -> float:
        """CPU time used by every process the tree ever ran (user and system)."""
        if self.version == 1:
            return int(_read(self._dir("cpuacct") / "cpuacct.usage") or 0) / 1e9
        usage = _fields(_read(self._dir("cpu") / "cpu.stat")).get("usage_usec", 0)
        return usage / 1e6

    def oom_kills(self) -> int:
        """Processes of the tree the kernel killed for going over the memory limit."""
        if self.version == 1:
            return _fields(_read(self._dir("memory") / "memory.oom_control")).get("oom_kill", 0)
        return _fields(_read(self._dir("memory") / "memory.events")).get("oom_kill", 0)

    def forks_refused(self) -> int:
        """Forks the kernel refused because the tree was at its process limit."""
        return _fields(_read(self._dir("pids") / "pids.events")).get("max", 0)

    def pids(self) -> list[int]:
        """The processes in the tree now."""
        text = _read(self._dir("pids") / "cgroup.procs")
        return [int(p) for p in text.split()] if text else []

    def open_files(self) -> int:
        """Descriptors open across the bot's processes (a process that ends meanwhile counts
        0). The sandbox's own processes (:attr:`keeper`, bubblewrap) are not the bot's: their
        few descriptors would otherwise push a bot at its per-process limit over the tree's."""
        total = 0
        for pid in self.pids():
            if self.keeper is not None and program(pid) in (None, self.keeper):
                continue
            try:
                total += len(os.listdir(f"/proc/{pid}/fd"))
            except OSError:
                pass
        return total

    def kill(self) -> None:
        """SIGKILL every process in the tree, including any started while this runs. v2 has
        ``cgroup.kill``; on v1 the list is read and killed until it stays empty (a process
        forking in between lands in the same group and is caught on the next pass)."""
        if self.version == 2 and _write(self.dirs["unified"] / "cgroup.kill", 1, optional=True):
            return
        for _ in range(100):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.001)

    def remove(self) -> None:
        """Remove the group once empty (the kernel refuses while a process is in it)."""
        for path in self.dirs.values():
            _rmdir(path)


def program(pid: int) -> str | None:
    """The executable process ``pid`` runs, or None once it is exiting (or gone)."""
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None


def _rmdir(path: Path) -> None:
    for _ in range(50):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError as err:
            if err.errno != errno.EBUSY:
                return
            time.sleep(0.002)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _write(path: Path, value: int, optional: bool = False) -> bool:
    try:
        path.write_text(str(value))
    except OSError:
        if optional:
            return False
        raise
    return True


def _fields(text: str) -> dict[str, int]:
    """``key value`` lines as a mapping (``memory.oom_control``, ``pids.events``, ``cpu.stat``)."""
    result = {}
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if value.strip().isdigit():
            result[key] = int(value)
    return result

