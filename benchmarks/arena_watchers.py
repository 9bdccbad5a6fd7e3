#!/usr/bin/env python3
"""Do watchers of the standings page slow the matches? ``arena serve`` with and without 200
open standings streams.

Usage: python3 benchmarks/arena_watchers.py [--watchers 200] [--phase 30] [--rounds 2] [--jobs 1]

An arena (SQLite in a temporary directory, Peppa, four built-in entrants) is served by
``cardcli arena serve -j N -q --web 127.0.0.1:0`` in a subprocess. After a warm-up, phases of
``--phase`` seconds alternate: no watcher, then ``--watchers`` connections on loopback to
``/events/standings`` that read every event (as a browser does), ``--rounds`` times each, so
that a drift of the machine's load falls on both. For each phase: the matches stored per
second (read from the store) and, with watchers, the standings events each received and the
streams that were refused or ended. Then the server is stopped with SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardcli.arena import directory  # noqa: E402
from cardcli.arena.store import Store  # noqa: E402

ENTRANTS = (("random1", "random"), ("random2", "random"), ("heuristic1", "heuristic"), ("heuristic2", "heuristic"))
WARM_UP = 20.0


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cardcli", *args]


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


async def watchers(port: int, many: int, seconds: float) -> tuple[list[int], int]:
    until = time.monotonic() + seconds
    counts: list[int] = []
    ended: list[int] = []
    await asyncio.gather(*(watch(port, until, counts, ended) for _ in range(many)))
    return counts, len(ended)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--phase", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
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
            time.sleep(WARM_UP)
            rates: dict[int, list[float]] = {0: [], args.watchers: []}
            for _ in range(args.rounds):
                for many in (0, args.watchers):
                    before, started = store.match_count(), time.monotonic()
                    if many:
                        counts, ended = asyncio.run(watchers(port, many, args.phase))
                    else:
                        time.sleep(args.phase)
                        counts, ended = [], 0
                    rate = (store.match_count() - before) / (time.monotonic() - started)
                    rates[many].append(rate)
                    extra = (f", events per watcher {min(counts)} to {max(counts)}, ended or refused {ended}"
                             if many else "")
                    print(f"{many:4d} watchers: {rate:.2f} matches/s{extra}", flush=True)
            for many, found_rates in rates.items():
                print(f"{many:4d} watchers, mean of {len(found_rates)} phases: {statistics.mean(found_rates):.2f} "
                      "matches/s")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
            store.close()


if __name__ == "__main__":
    main()
