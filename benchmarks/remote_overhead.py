#!/usr/bin/env python3
"""What a remote seat costs per request, on loopback, against the same bot on a local pipe.

The bot is ``benchmarks/echo_bot.c`` (it answers the first offered move at once), in seat 0 of
a Peppa match whose other seats are the built-in ``first`` player. Each run plays the same
matches (same seeds) three ways:

- ``local``: the bot on the referee's machine, on its stdin and stdout;
- ``connect``: the bot behind ``cardcli connect`` on 127.0.0.1, the way an author runs it;
- ``direct``: no bot process, a WebSocket client in this script that answers the first move
  (a bot that speaks the transport itself; ``protocol/REMOTE.md``).

The figure is the time the referee measured for each of seat 0's answers (the record's ``ms``:
from the request written to the answer read), median and 90th percentile, and the overhead of
each remote way against ``local``. For scale, the floor of the transport itself: one message
and its echo between two Python processes over a `websockets` connection, with nothing else.

Usage: python3 benchmarks/remote_overhead.py [--matches N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_bot(folder: Path) -> str:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("needs a C compiler for benchmarks/echo_bot.c")
    binary = folder / "echo_bot"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(ROOT / "benchmarks/echo_bot.c")], check=True)
    return str(binary)


def referee(folder: Path, seed: int, matches: int, seat0: str, listen: bool) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "cardcli", "play", "peppa", "--seed", str(seed), "--games", str(matches),
            "--seat", seat0, "--seat", "first", "--seat", "first", "--seat", "first",
            "--record", str(folder / f"{seed}.jsonl"), "--json"]
    if listen:
        args += ["--listen", "127.0.0.1:0", "--tokens", str(folder / "tokens.txt")]
    return subprocess.Popen(args, cwd=ROOT, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def port_of(proc: subprocess.Popen[str]) -> int:
    assert proc.stderr is not None
    for line in proc.stderr:
        if "listening on ws" in line:
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return int(line.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    raise SystemExit("the referee did not listen")


async def direct_bot(port: int, token: str) -> None:
    """A bot that speaks the WebSocket transport itself: first offered move, no acks."""
    from websockets.asyncio.client import connect

    while True:
        async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
            await ws.send(f"auth 1 alice {token}")
            await ws.recv()
            sent = 0
            async for message in ws:
                assert isinstance(message, str)
                if message.startswith("end "):
                    if message == "end over":
                        return
                    break
                _, _, line = message.partition(" ")
                if line.startswith("cardcli "):
                    sent += 1
                    await ws.send(f"{sent} ready")
                elif line.startswith("go "):
                    sent += 1
                    await ws.send(f"{sent} move {line.split()[3]}")


ECHO_SERVER = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with serve(echo, "127.0.0.1", 0, compression=None) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


def websocket_floor(rounds: int = 3000) -> float:
    """Median seconds of one round trip through a bare `websockets` echo in another process."""
    from websockets.asyncio.client import connect

    server = subprocess.Popen([sys.executable, "-c", ECHO_SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())

        async def measure() -> list[float]:
            found = []
            async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
                for _ in range(rounds):
                    started = time.perf_counter()
                    await ws.send("7 go play 10000 2C")
                    await ws.recv()
                    found.append(time.perf_counter() - started)
            return found

        return statistics.median(asyncio.run(measure()))
    finally:
        server.kill()
        server.wait()


def times(folder: Path, seed: int) -> list[float]:
    found = []
    with open(folder / f"{seed}.jsonl") as records:
        for text in records:
            record = json.loads(text)
            assert not record["faults"], record["faults"]
            found += [m["ms"] for d in record["deals"] for m in d["moves"] if m["seat"] == 0]
    return found


def run(folder: Path, bot: str, way: str, seed: int, matches: int, token: str) -> tuple[list[float], float]:
    started = time.perf_counter()
    if way == "local":
        proc = referee(folder, seed, matches, bot, False)
        proc.wait()
    else:
        proc = referee(folder, seed, matches, "remote:alice", True)
        port = port_of(proc)
        if way == "connect":
            relay = subprocess.Popen([sys.executable, "-m", "cardcli", "connect", f"ws://127.0.0.1:{port}/",
                                      "--name", "alice", "--token", token, "--", bot], cwd=ROOT)
            proc.wait()
            relay.wait(30)
        else:
            asyncio.run(direct_bot(port, token))
            proc.wait()
    if proc.returncode != 0:
        raise SystemExit(f"{way}: the referee failed ({proc.returncode})")
    return times(folder, seed), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cardcli-remote-bench-"))
    try:
        bot = build_bot(folder)
        made = subprocess.run([sys.executable, "-m", "cardcli", "tokens", "new", "alice"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout
        (folder / "tokens.txt").write_text(made)
        token = made.split()[1]
        figures = {}
        for n, way in enumerate(("local", "connect", "direct")):
            ms, wall = run(folder, bot, way, 100 + n, args.matches, token)
            figures[way] = statistics.median(ms)
            p90 = statistics.quantiles(ms, n=10)[-1]
            print(f"{way:8s} {len(ms):6d} requests   median {statistics.median(ms) * 1000:7.1f} us   "
                  f"p90 {p90 * 1000:7.1f} us   ({wall:.1f} s for {args.matches} matches)")
        floor = websocket_floor()
        print(f"floor: a bare websockets echo between two processes: {floor * 1e6:.1f} us")
        for way in ("connect", "direct"):
            extra = (figures[way] - figures["local"]) * 1000
            print(f"overhead of {way} over a local pipe: {extra:.0f} us per request "
                  f"({figures[way] / figures['local']:.1f} x)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    main()
