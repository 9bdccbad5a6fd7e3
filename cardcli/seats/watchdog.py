"""The watchdog: one thread that holds every bot's process tree to the limits the kernel does
not enforce for a whole tree by itself.

The kernel stops a group at its memory and process limits, but CPU time it only counts, and
open files it limits per process. Every ``INTERVAL`` seconds the watchdog reads each watched
group's counters; a tree over a limit (or with a process the OOM killer took, or a fork the
process limit refused, even when the bot's main process survived it) is killed whole, with the
reason kept for the fault. The referee then sees the bot's output end, as for any death, and
records a ``limit`` fault with that reason. Checking from a thread keeps the request path free
of the cost, and catches a tree that burns CPU while it is not even its turn.

The thread starts with the first watched tree, so a tournament parent that only forks
workers never has one (forking a process that runs threads is unsafe).
"""

from __future__ import annotations

import threading
from typing import Callable

from .cgroups import Group
from .limits import Limits

INTERVAL = 0.05
"""Seconds between two readings: the most CPU time a tree can use past its limit per core."""

Verdict = Callable[[str], None]
Check = Callable[[], "str | None"]
"""A further limit of the tree's, read with the group's counters (the sandbox's scratch)."""


class Watchdog:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watched: dict[int, tuple[Group, Limits, Verdict, Check | None]] = {}
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()

    def watch(self, group: Group, limits: Limits, verdict: Verdict, check: Check | None = None) -> None:
        """Hold ``group`` to ``limits`` (and ``check``, when given); ``verdict`` receives the
        reason just before the tree is killed."""
        with self._lock:
            self._watched[id(group)] = (group, limits, verdict, check)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cardcli-watchdog", daemon=True)
                self._thread.start()

    def forget(self, group: Group) -> None:
        with self._lock:
            self._watched.pop(id(group), None)

    def _run(self) -> None:
        while not self._wake.wait(INTERVAL):
            with self._lock:
                watched = list(self._watched.values())
            for group, limits, verdict, check in watched:
                reason = limits.breach(None, group) or limits.files_breach(group) or (check() if check else None)
                if reason is not None:
                    self.forget(group)
                    verdict(reason)
                    group.kill()


WATCHDOG = Watchdog()
