#!/usr/bin/env python3
"""A test bot for time banks and bot options: it plays the first offered move, sleeps a given
time before some answers (a wall-clock sleep, so its spending does not depend on the machine's
speed), declares the options it is told to, and logs what it was sent about them.

Its log (``--log FILE``) gets one line per ``setoption``, ``bank``, ``game`` and ``go`` line it
receives (a ``go`` line cut to its first three words), and at its start its working directory
and the variables named by ``--show-env``: what a test then compares with the record.
"""

import argparse
import os
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--sleep-ms", type=int, default=0, help="sleep this long before an answer")
p.add_argument("--slow", type=int, default=0, help="sleep before the first N answers only (0: every answer)")
p.add_argument("--declare", action="append", default=[], metavar="NAME=DEFAULT", help="declare an option")
p.add_argument("--obey", action="store_true", help="take --sleep-ms from 'setoption sleep_ms N' as well")
p.add_argument("--log", default=None, help="append what the bot was sent to this file ('-': stderr)")
p.add_argument("--show-env", action="append", default=[], metavar="NAME", help="log this variable at the start")
args = p.parse_args()

log = (sys.stderr if args.log == "-" else open(args.log, "a", buffering=1)) if args.log else None


def note(text: str) -> None:
    if log is not None:
        log.write(text + "\n")
        log.flush()


note(f"cwd {os.getcwd()}")
for name in args.show_env:
    note(f"env {name}={os.environ.get(name, '<unset>')}")

sleep_ms = args.sleep_ms
answered = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    head = words[0]
    if head == "cardcli":
        lines = ["id name clock"] + [f"option {d.replace('=', ' ', 1)}" for d in args.declare] + ["ready"]
        sys.stdout.write("\n".join(lines) + "\n")
    elif head in ("setoption", "bank", "game"):
        note(line.strip())
        if head == "setoption" and args.obey and len(words) > 2 and words[1] == "sleep_ms":
            sleep_ms = int(words[2])
    elif head == "go":
        note(" ".join(words[:3]))
        answered += 1
        if sleep_ms and (not args.slow or answered <= args.slow):
            time.sleep(sleep_ms / 1000)
        sys.stdout.write(f"move {words[3]}\n")
    elif head == "quit":
        break
    sys.stdout.flush()
