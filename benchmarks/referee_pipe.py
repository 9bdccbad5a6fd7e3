#!/usr/bin/env python3
"""The referee's cost per request with external bots, against the raw pipe round trip.

Builds benchmarks/echo_bot.c (answers instantly), measures the raw round trip of one request
line and one answer line through plain pipes from Python, then plays whole Peppa matches with
four such bots and divides the time by the number of requests. The shipped Python bot is
measured the same way.

Usage: python3 benchmarks/referee_pipe.py [--matches N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardcli.games import registry
from cardcli.referee import Settings, play_match
from cardcli.seats.process import ProcessSeat

HERE = Path(__file__).resolve().parent


def raw_round_trip(bot: list[str], rounds: int = 20000) -> float:
    """Microseconds for one request line out and one answer line back, plain pipes."""
    proc = subprocess.Popen(bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin and proc.stdout
    out, inp = proc.stdin.fileno(), proc.stdout.fileno()
    os.write(out, b"cardcli 1\n")
    os.read(inp, 100)
    request = b"go play 10000 QS AH 2C\n"
    start = time.perf_counter()
    for _ in range(rounds):
        os.write(out, request)
        data = os.read(inp, 100)
        while not data.endswith(b"\n"):
            data += os.read(inp, 100)
    elapsed = time.perf_counter() - start
    os.write(out, b"quit\n")
    proc.wait()
    return elapsed / rounds * 1e6


def referee_per_request(bot: list[str], matches: int) -> tuple[float, int]:
    requests = 0
    start = time.perf_counter()
    for seed in range(matches):
        setup = registry.resolve("peppa", None, {}, None, seed)
        seats = [ProcessSeat("bench", bot) for _ in range(4)]
        result = play_match(setup, seats, Settings(quit_grace=0.5))
        requests += sum(len(d["moves"]) for d in result.record["deals"])
    return (time.perf_counter() - start) / requests * 1e6, requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("a C compiler is needed")
    with tempfile.TemporaryDirectory() as tmp:
        binary = str(Path(tmp) / "echo_bot")
        subprocess.run([compiler, "-O2", "-o", binary, str(HERE / "echo_bot.c")], check=True)
        floor = raw_round_trip([binary])
        per_request, requests = referee_per_request([binary], args.matches)
        print(f"raw pipe round trip, Python parent, C bot:  {floor:8.1f} us")
        print(f"referee per request, 4 C bots ({requests} requests, match start-up included): {per_request:8.1f} us")
        print(f"ratio to the floor: {per_request / floor:.2f} (target: at most 2.00)")
    python_bot = [sys.executable, str(HERE.parent / "bots/python/random_bot.py"), "--seed", "1"]
    per_request, requests = referee_per_request(python_bot, max(1, args.matches // 2))
    print(f"referee per request, 4 shipped Python bots ({requests} requests): {per_request:8.1f} us")


if __name__ == "__main__":
    main()
