#!/usr/bin/env python3
"""The referee's cost per request with external bots, against the raw pipe round trip.

Builds benchmarks/echo_bot.c (answers instantly), measures the raw round trip of one request
line and one answer line through plain pipes from Python, then plays whole Peppa matches with
four such bots and divides the time by the number of requests. To show where the time goes it
also measures the seat layer alone (one bot, one request at a time) and the referee with
in-process players (no pipe at all). The shipped Python bot is measured the same way.

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
from cardcli.seats.base import Request, Seat, close_all
from cardcli.seats.builtin import first_seat
from cardcli.seats.gather import ask_all
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


def seat_per_request(bot: list[str], rounds: int = 20000) -> float:
    """Microseconds for one request through the referee's seat layer alone (ProcessSeat and
    the wait for answers: queued events, the request line, the poll, framing, parsing)."""
    seat = ProcessSeat("bench", bot)
    seat.start()
    seat.wait_ready(time.monotonic() + 10)
    request = Request("play", ("QS", "AH", "2C"), 10000)
    start = time.perf_counter()
    for _ in range(rounds):
        seat.notify(["play 1 QS", "play 2 AH"])
        ask_all({0: (seat, request)}, [0])
    elapsed = time.perf_counter() - start
    seat.close(0.5)
    return elapsed / rounds * 1e6


def referee_per_request(bot: list[str] | None, matches: int, keep_alive: bool = False) -> tuple[float, int]:
    """Microseconds per request of whole Peppa matches with four ``bot`` processes (started
    for each match, or kept alive across them), or with in-process first-move players when
    ``bot`` is None: the rules, events and record without any pipe."""
    requests = 0
    kept = [ProcessSeat("bench", bot) for _ in range(4)] if bot and keep_alive else None
    start = time.perf_counter()
    for seed in range(matches):
        setup = registry.resolve("peppa", None, {}, None, seed)
        if kept is not None:
            seats: list[Seat] = list(kept)
        elif bot is not None:
            seats = [ProcessSeat("bench", bot) for _ in range(4)]
        else:
            seats = [first_seat("first") for _ in range(4)]
        result = play_match(setup, seats, Settings(quit_grace=0.5), close=kept is None)
        requests += sum(len(d["moves"]) for d in result.record["deals"])
    elapsed = time.perf_counter() - start
    if kept is not None:
        close_all(kept, 0.5)
    return elapsed / requests * 1e6, requests


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
        seat = seat_per_request([binary])
        in_process, _ = referee_per_request(None, args.matches)
        per_request, requests = referee_per_request([binary], args.matches)
        kept, _ = referee_per_request([binary], args.matches, keep_alive=True)
        print(f"raw pipe round trip, Python parent, C bot:  {floor:8.1f} us")
        print(f"the seat layer alone, one request:          {seat:8.1f} us  ({seat / floor:.2f} x the floor)")
        print(f"referee per request, in-process players:    {in_process:8.1f} us  (rules, events, record)")
        print(f"referee per request, 4 C bots ({requests} requests, started per match): {per_request:8.1f} us")
        print(f"referee per request, 4 C bots kept alive:   {kept:8.1f} us")
        print(f"ratio to the floor: {per_request / floor:.2f} (target: at most 2.00)")
    python_bot = [sys.executable, str(HERE.parent / "bots/python/random_bot.py"), "--seed", "1"]
    per_request, requests = referee_per_request(python_bot, max(1, args.matches // 2))
    print(f"referee per request, 4 shipped Python bots ({requests} requests): {per_request:8.1f} us")


if __name__ == "__main__":
    main()
