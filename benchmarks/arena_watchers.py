#!/usr/bin/env python3
"""Do watchers slow the matches? ``arena serve`` with and without 200 open streams: watchers of
the standings page (``--target standings``) or spectators of one live game (``--target live``).

Usage: python3 benchmarks/arena_watchers.py [--target standings|live] [--lists all|one] [--watchers 200]
       [--phase 30] [--rounds 2] [--jobs 1]

An arena (SQLite in a temporary directory, Peppa, four built-in entrants) is served by
``cardcli arena serve -j N -q --web 127.0.0.1:0`` in a subprocess. After a warm-up, phases of
``--phase`` seconds alternate: no watcher, then ``--watchers`` of them on loopback, ``--rounds``
times each, so that a drift of the machine's load falls on both. The watchers:

- ``standings``: connections to ``/events/standings`` that read every event, as a browser does;
- ``live``: spectators of the same live game. Each follows ``/events/live`` (the list of the
  matches in progress; with ``--lists one``, only the first spectator does) and
  ``/events/live/ID`` of the featured match, which the first spectator picks from its list
  (:class:`Crowd`: the last rotation of a unit about to start), and when that match ends, the
  next one, so the whole crowd hops from match to match together. A spectator reads
  every event as a browser's ``EventSource`` does, on one kept-alive connection for its
  matches; a stream that ends without the match's end (refused, or dropped for falling behind)
  is opened again after the 2 seconds the server asks for, if its match is still featured.

For each phase: the matches stored per second (read from the store), the load average of the
machine (``os.getloadavg``, 1 minute, at the phase's end), the processor time of the server's
process and of its workers (from ``/proc``, per match stored), and the watchers' own figures
(standings: events each received, streams refused or ended; live: events received per
spectator, matches watched to their end, featured matches, streams refused or ended early).
Then the means and the ratio with/without, and the server is stopped with SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Coroutine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardcli.arena import directory  # noqa: E402
from cardcli.arena.store import Store  # noqa: E402

ENTRANTS = (("random1", "random"), ("random2", "random"), ("heuristic1", "heuristic"), ("heuristic2", "heuristic"))
WARM_UP = 20.0
RETRY = 2.0
"""Seconds before a spectator opens again a stream that ended early (the server's ``retry``)."""
SETTLE = 2.0
"""Seconds after the list opens during which the units it shows are not featured (:class:`Crowd`)."""
LEAD = 0.6
"""Seconds ahead the featured match should start, at the pace the units go (:class:`Crowd`)."""
STALL = 5.0
"""Seconds without a message after which the spectators leave a featured match."""


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cardcli", *args]


# -- the standings page's watchers -----------------------------------------------------------------


async def watch(port: int, until: float, counts: list[int], ended: list[int]) -> None:
    """One watcher: reads the stream, counting its standings events, until ``until``."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        ended.append(1)
        return
    writer.write(b"GET /events/standings HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    seen = 0
    try:
        while True:
            left = until - time.monotonic()
            if left <= 0:
                break
            try:
                chunk = await asyncio.wait_for(reader.read(65536), left)
            except asyncio.TimeoutError:
                break
            if not chunk:
                ended.append(1)
                break
            seen += chunk.count(b"event: standings")
    finally:
        counts.append(seen)
        writer.close()


async def standings(port: int, many: int, seconds: float, args: argparse.Namespace) -> str:
    until = time.monotonic() + seconds
    counts: list[int] = []
    ended: list[int] = []
    await asyncio.gather(*(watch(port, until, counts, ended) for _ in range(many)))
    return f"events per watcher {min(counts)} to {max(counts)}, ended or refused {len(ended)}"


# -- the spectators of a live game -----------------------------------------------------------------


class Stream:
    """One HTTP/1.1 connection that reads server-sent events streams one after the other (as a
    browser keeps a connection alive), decoding the chunked transfer coding."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self, path: str) -> bool:
        """Ask for ``path``; whether the server answered 200 with a chunked stream."""
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None
            self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                              .encode())
            await self.writer.drain()
            status = await self.reader.readline()
            if not status and attempt == 0:  # the server closed the kept connection: a new one
                self.close()
                continue
            chunked = False
            while True:
                header = await self.reader.readline()
                if header in (b"\r\n", b"\n", b""):
                    break
                if header.lower().startswith(b"transfer-encoding:") and b"chunked" in header.lower():
                    chunked = True
            if status.split(b" ")[1:2] == [b"200"] and chunked:
                return True
            self.close()
            return False
        return False

    async def chunk(self) -> bytes | None:
        """The next chunk of the stream (whole messages), or None at its end."""
        assert self.reader is not None
        size = int((await self.reader.readline()).split(b";")[0] or b"0", 16)
        if size == 0:
            await self.reader.readline()
            return None
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Crowd:
    """The featured match, which every spectator watches, chosen from the list the first
    spectator follows: the last rotation of a unit about to start. A Peppa match between
    built-in players lasts some 50 ms, less than the 0.3 s or so 200 spectators take to move to
    another match; a crowd that chose a match it saw under way would arrive after its end, when
    nothing more is told (a match's events are sent only while it is watched). So the crowd
    waits for the match :data:`LEAD` seconds ahead: the newest unit the list shows, plus as
    many units as start in that time at the pace seen (the ladder numbers its units one after
    the other), and its last rotation, which the duplicate gate shows as it is played (the
    unit's other rotations are over or ahead). A stream of a match not started yet waits for
    it. Units the list showed within :data:`SETTLE` seconds of its opening are not counted:
    the server began to tell of them when some of their rotations may have been over already,
    and the gate then holds their deals (for :attr:`~cardcli.arena.live.LiveHub.hold_seconds`).
    Should the featured match show nothing for :data:`STALL` seconds, the crowd moves on."""

    def __init__(self) -> None:
        self.featured: str | None = None
        self.history: list[str] = []
        self.changed = asyncio.Event()
        self.live: dict[str, int] = {}
        """The matches in progress, in the order the list first showed them, and their units'
        numbers of rotations."""
        self.units: dict[str, bool] = {}
        """Unit → whether its matches may be featured (decided when the list first shows it)."""
        self.gone: set[str] = set()
        self.rotations = 1
        self.first: tuple[float, int] | None = None
        """When the crowd first chose, and the newest unit then: the pace of the units."""
        self.opened: float | None = None
        self.stalled = 0

    def seen(self, message: dict[str, Any]) -> None:
        """A message of the first spectator's list: keep the matches in progress, and move on
        when the featured one is gone."""
        now = time.monotonic()
        if self.opened is None:
            self.opened = now
        kind = message.get("type")
        if kind == "matches":
            self.live = {m["id"]: m["rotations"] for m in message["matches"] if not m.get("over")}
        elif kind == "match" and not message["match"].get("over"):
            self.live.setdefault(message["match"]["id"], message["match"]["rotations"])
        elif kind == "gone":
            self.live.pop(message["id"], None)
            self.gone.add(message["id"])
        for key, rotations in self.live.items():
            self.units.setdefault(key.partition("-")[0], now - self.opened >= SETTLE)
            self.rotations = rotations
        if self.featured is None or self.featured in self.gone:
            self.choose()

    def choose(self) -> None:
        units = [int(unit) for unit, ok in self.units.items() if ok and unit.isdigit()]
        if not units or self.opened is None:
            return
        newest = max(units)
        if self.first is None:
            self.first = (time.monotonic(), newest)
        pace = (newest - self.first[1]) / max(time.monotonic() - self.first[0], 1.0)
        following = f"{newest + max(1, math.ceil(pace * LEAD))}-{self.rotations - 1}"
        if following not in self.history:
            self.featured = following
            self.history.append(following)
            self.changed.set()
            self.changed = asyncio.Event()

    def stall(self, key: str) -> None:
        """The featured match showed nothing for :data:`STALL` seconds: move on."""
        if self.featured == key:
            self.stalled += 1
        self.ended(key)

    def ended(self, key: str) -> None:
        """A spectator saw the end of ``key`` (the list may have missed its ``gone``: a list
        stream dropped for falling behind starts again from a snapshot)."""
        self.gone.add(key)
        if self.featured == key:
            self.choose()

    async def next(self, watched: set[str]) -> str:
        while self.featured is None or self.featured in watched:
            await self.changed.wait()
        return self.featured


class Tally:
    """One phase's figures, kept as they come (the phase ends by cancelling the spectators)."""

    def __init__(self, many: int):
        self.events = [0] * many
        self.watched = [0] * many
        """Matches watched to their end message."""
        self.empty = 0
        """Matches watched to their end that showed no event (over before the crowd came)."""
        self.early = 0
        """Match streams refused or ended without the match's end, or left after :data:`STALL`
        seconds without a message."""
        self.list_early = 0
        """List streams refused or ended."""
        self.list_messages = 0


async def follow_list(port: int, number: int, crowd: Crowd, tally: Tally) -> None:
    stream = Stream(port)
    try:
        while True:
            try:
                if await stream.open("/events/live"):
                    while True:
                        async with asyncio.timeout(STALL):
                            data = await stream.chunk()
                        if data is None:
                            break
                        tally.list_messages += data.count(b"data: ")
                        if number == 0:
                            for line in data.split(b"\n"):
                                if line.startswith(b"data: "):
                                    crowd.seen(json.loads(line[6:]))
            except (OSError, asyncio.IncompleteReadError, ValueError):  # broke, or silent: a new one
                stream.close()
            tally.list_early += 1
            await asyncio.sleep(RETRY)
    finally:
        stream.close()


async def spectator(port: int, number: int, crowd: Crowd, tally: Tally, lists: bool) -> None:
    """One spectator: the list (the first spectator always; the others with ``lists``), and
    the featured match's stream, match after match."""
    lister = asyncio.ensure_future(follow_list(port, number, crowd, tally)) if lists or number == 0 else None
    stream = Stream(port)
    watched: set[str] = set()
    try:
        while True:
            key = await crowd.next(watched)
            over = stalled = False
            events = 0
            try:
                if await stream.open(f"/events/live/{key}"):
                    while True:
                        async with asyncio.timeout(STALL):
                            data = await stream.chunk()
                        if data is None:
                            break
                        events += data.count(b'"type":"event"')
                        over = over or b'{"type":"end"}' in data
            except TimeoutError:
                stalled = True
                stream.close()
            except (OSError, asyncio.IncompleteReadError, ValueError):  # the connection broke: a new one
                stream.close()
            tally.events[number] += events
            if over:
                crowd.ended(key)
                watched.add(key)
                tally.watched[number] += 1
                tally.empty += events == 0
                continue
            tally.early += 1
            if stalled:
                crowd.stall(key)
                watched.add(key)
                continue
            await asyncio.sleep(RETRY)
            if crowd.featured != key:
                watched.add(key)
    finally:
        if lister is not None:
            lister.cancel()
        stream.close()


async def live(port: int, many: int, seconds: float, args: argparse.Namespace) -> str:
    crowd, tally = Crowd(), Tally(many)
    tasks = [asyncio.ensure_future(spectator(port, k, crowd, tally, args.lists == "all")) for k in range(many)]
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True)
              if not isinstance(r, asyncio.CancelledError)]
    events = sorted(tally.events)
    return (f"events per spectator {events[0]} to {events[-1]} (median {statistics.median(events):.0f}), "
            f"matches watched to their end {min(tally.watched)} to {max(tally.watched)} of {len(crowd.history)} "
            f"featured ({tally.empty} ends without an event, {crowd.stalled} stalled), "
            f"match streams refused or ended early {tally.early}, list streams {tally.list_early}, "
            f"list messages per list {tally.list_messages / (many if args.lists == 'all' else 1):.0f}"
            + (f", spectators failed {len(failed)}: {failed[0]!r}" if failed else ""))


TARGETS: dict[str, Callable[[int, int, float, argparse.Namespace], Coroutine[Any, Any, str]]] = {"standings": standings, "live": live}


# -- the phases ------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> tuple[float, float, float]:
    """Processor time (user and system) of ``pid`` itself, of its descendants living at normal
    priority (the workers, the fork server) and of those at a lower one (the web process)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick, int(fields[16]))
    children: dict[int, list[int]] = {}
    for child, (parent, _, _) in stats.items():
        children.setdefault(parent, []).append(child)
    below, niced, todo = 0.0, 0.0, list(children.get(pid, ()))
    while todo:
        child = todo.pop()
        if stats[child][2] > 0:
            niced += stats[child][1]
        else:
            below += stats[child][1]
        todo += children.get(child, ())
    return stats.get(pid, (0, 0.0, 0))[1], below, niced


def descendants(pid: int) -> list[tuple[int, int]]:
    """(pid, nice) of every process below ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            found.append((int(entry), int(fields[1]), int(fields[16])))
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for child, of, nice in found:
            if of == parent:
                out.append((child, nice))
                todo.append(child)
    return out


def pin(server: int) -> str:
    """The web process (the niced one) and this script on the last processor, the serving
    process and its workers on the others: spectators then share no processor with the
    matches. Returns what was done."""
    last = max(os.sched_getaffinity(0))
    rest = set(os.sched_getaffinity(0)) - {last}
    if not rest:
        return "not pinned: one processor"
    for pid, nice in [(server, 0), *descendants(server)]:
        try:
            os.sched_setaffinity(pid, {last} if nice > 0 else rest)
        except OSError:
            pass
    os.sched_setaffinity(0, {last})
    return f"pinned: web process and spectators on processor {last}, the rest on {sorted(rest)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=sorted(TARGETS), default="standings")
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--phase", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pin", action="store_true",
                        help="put the web process and the watchers on the last processor, the matches on the others")
    parser.add_argument("--lists", choices=("all", "one"), default="all",
                        help="live: every spectator follows the list of live games, or only the first")
    args = parser.parse_args()
    target = TARGETS[args.target]
    who = "watchers" if args.target == "standings" else "spectators"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        arena = Path(tmp) / "season"
        subprocess.run(cli("arena", "init", str(arena), "--game", "peppa", "--seed", "7", "--sandbox", "off"),
                       check=True, env=env, capture_output=True)
        for name, spec in ENTRANTS:
            subprocess.run(cli("arena", "entrant", "add", str(arena), name, "--command", spec), check=True, env=env,
                           capture_output=True)
        store = Store.open(directory.url_of(arena))
        server = subprocess.Popen(cli("arena", "serve", str(arena), "-j", str(args.jobs), "-q",
                                      "--web", "127.0.0.1:0"), env=env, stderr=subprocess.PIPE, text=True)
        try:
            assert server.stderr is not None
            port = 0
            for _ in range(20):
                found = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stderr.readline())
                if found:
                    port = int(found.group(1))
                    break
            assert port, "serve did not say where its pages are"
            if args.pin:
                time.sleep(2)  # the workers are started
                print(pin(server.pid), flush=True)
            print(f"target {args.target}" + (f" (lists: {args.lists})" if args.target == "live" else "")
                  + f", -j {args.jobs}, phases of {args.phase:g} s, {args.rounds} rounds, "
                  f"load average at the start {os.getloadavg()[0]:.2f}", flush=True)
            time.sleep(WARM_UP)
            rates: dict[int, list[float]] = {0: [], args.watchers: []}
            for _ in range(args.rounds):
                for many in (0, args.watchers):
                    before, started = store.match_count(), time.monotonic()
                    cpu_before, mine = cpu_seconds(server.pid), time.process_time()
                    if many:
                        extra = ", " + asyncio.run(target(port, many, args.phase, args))
                    else:
                        time.sleep(args.phase)
                        extra = ""
                    stored = store.match_count() - before
                    rate = stored / (time.monotonic() - started)
                    cpu_after, mine = cpu_seconds(server.pid), time.process_time() - mine
                    rates[many].append(rate)
                    per = max(stored, 1) / 1000
                    print(f"{many:4d} {who}: {rate:.2f} matches/s, load {os.getloadavg()[0]:.2f}, "
                          f"cpu ms/match server {(cpu_after[0] - cpu_before[0]) / per:.2f} "
                          f"workers {(cpu_after[1] - cpu_before[1]) / per:.2f} "
                          f"web {(cpu_after[2] - cpu_before[2]) / per:.2f}, "
                          f"this script {mine:.1f} s{extra}", flush=True)
            for many, found_rates in rates.items():
                print(f"{many:4d} {who}, mean of {len(found_rates)} phases: {statistics.mean(found_rates):.2f} "
                      "matches/s")
            without, with_ = rates[0], rates[args.watchers]
            print(f"ratio with/without: {statistics.mean(with_) / statistics.mean(without):.3f} (per round: "
                  + ", ".join(f"{b / a:.3f}" for a, b in zip(without, with_)) + ")")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
            store.close()


if __name__ == "__main__":
    main()
