#!/usr/bin/env python3
"""Where an arena server's memory goes over a long season, measured inside the process.

Usage: python3 benchmarks/arena_memory.py [--matches 40000] [--every 4000] [--jobs 2] [--no-trace]

:class:`cardcli.arena.service.Service` is driven here as ``arena serve`` drives it (SQLite in a
temporary directory, six built-in entrants, this machine's long-lived workers), and every
``--every`` matches three figures of this process are printed side by side:

- the Python heap (``tracemalloc``'s current size; ``--no-trace`` leaves it out, and the run
  goes faster),
- SQLite's own memory (``sqlite3_status64(SQLITE_STATUS_MEMORY_USED)`` of the library the
  ``sqlite3`` module is linked to, read through ctypes): its page caches, one per open
  connection, and its statement caches,
- the C allocator's memory in use (glibc's ``mallinfo2()``: the blocks handed out, from its
  arenas and mapped directly; what it holds free is not counted),
- the resident set (``VmRSS``).

A resident set that grows while the first three hold still is memory the allocators keep
after it was freed (fragmentation, high-water marks), not memory in use; one that grows with
SQLite's figure is the page caches filling, which stop at their size
(:data:`cardcli.arena.store.SQLITE_CACHE_KIB` per connection). At the end, the growth of each
per 10,000 matches over the second half of the run (least squares).
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardcli.arena.config import ArenaConfig  # noqa: E402
from cardcli.arena.service import Service  # noqa: E402
from cardcli.arena.store import EntrantKind, Store  # noqa: E402
from cardcli.arena.workers import Workers  # noqa: E402
from cardcli.referee import Settings  # noqa: E402
from cardcli.seats.limits import Limits  # noqa: E402
from cardcli.seats.policy import SandboxMode, SandboxPolicy  # noqa: E402

ENTRANTS = (("random1", "random"), ("random2", "random"), ("first1", "first"), ("first2", "first"),
            ("heuristic1", "heuristic"), ("heuristic2", "heuristic"))


def sqlite_memory() -> tuple[int, int]:
    """SQLite's memory in use and its high-water mark, in bytes, for this process."""
    library = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    current, highest = ctypes.c_int64(), ctypes.c_int64()
    library.sqlite3_status64(0, ctypes.byref(current), ctypes.byref(highest), 0)  # SQLITE_STATUS_MEMORY_USED
    return current.value, highest.value


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def malloc_in_use() -> int:
    """The bytes glibc's allocator has handed out and not had back (``uordblks``, from its
    arenas, plus ``hblkhd``, mapped directly), for this process."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    return int(info.uordblks + info.hblkhd)


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40_000)
    parser.add_argument("--every", type=int, default=4_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-trace", action="store_true")
    args = parser.parse_args()
    config = ArenaConfig("peppa", "torino", {}, 4, 1, Settings(move_time=2.0), Limits(memory_mb=256),
                         SandboxPolicy(mode=SandboxMode.OFF))
    workers = Workers(args.jobs)
    workers.start()  # before any thread, as cardcli.arena.workers asks
    rows: list[tuple[int, float, float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.create(f"sqlite:///{Path(tmp) / 'arena.db'}", config)
        for name, spec in ENTRANTS:
            store.add_entrant(name, EntrantKind.PROGRAM, spec)
        if not args.no_trace:
            tracemalloc.start()
        service = Service(store, workers, jobs=args.jobs)
        started = time.monotonic()
        print(f"{'matches':>8} {'seconds':>8} {'heap MiB':>9} {'SQLite MiB':>10} {'(peak)':>7} {'malloc MiB':>10} "
              f"{'RSS MiB':>8}", flush=True)
        goal = args.every
        try:
            while goal <= args.matches:
                service.run(until=lambda: service.stored >= goal)
                service.stop.clear()
                heap = tracemalloc.get_traced_memory()[0] / 2**20 if not args.no_trace else float("nan")
                used, peak = sqlite_memory()
                rss = rss_kib() / 1024
                malloc = malloc_in_use() / 2**20
                rows.append((service.stored, heap, used / 2**20, malloc, rss))
                print(f"{service.stored:>8} {time.monotonic() - started:>8.0f} {heap:>9.2f} {used / 2**20:>10.2f} "
                      f"{peak / 2**20:>7.2f} {malloc:>10.2f} {rss:>8.1f}", flush=True)
                goal += args.every
        finally:
            workers.close()
            store.close()
    second = rows[len(rows) // 2:]
    if len(second) >= 2:
        growth = [slope([(r[0], r[k]) for r in second]) * 10_000 for k in (1, 2, 3, 4)]
        print(f"over the second half ({second[0][0]} to {second[-1][0]} matches), per 10,000 matches: heap "
              f"{growth[0]:+.2f} MiB, SQLite {growth[1]:+.2f} MiB, malloc {growth[2]:+.2f} MiB, RSS "
              f"{growth[3]:+.2f} MiB")


if __name__ == "__main__":
    main()
