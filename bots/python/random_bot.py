#!/usr/bin/env python3
"""A cardcli bot that plays any game by picking one of the offered moves at random.

Standard library only. Usage: random_bot.py [--seed N] [--name NAME]
It shows the whole protocol a bot needs: answer the handshake, then answer every `go` line
with one of the moves it lists. Everything else the referee says may be ignored.

It also declares one option, `think_ms` (default 0): milliseconds to wait before each answer,
a stand-in for thinking that lets you try time controls. The referee sets it with
`setoption think_ms 300` (`tournament --bot-option NAME:think_ms=300`, an entrants file's
`options`, or `play --seat-option SEAT:think_ms=300`). The bot never waits past what a request
allows: the `go` line's limit plus the time bank a `bank` line reports, less a margin.
"""

import argparse
import random
import sys
import time

MARGIN_MS = 50
"""What the bot keeps back from the time a request allows, for its own answer to arrive."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible play")
    parser.add_argument("--name", default="python-random", help="name given in the handshake")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    think_ms = 0
    bank_ms = 0
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "cardcli":
            out.write(f"id name {args.name}\nid author cardcli examples\nid version 1.0\n"
                      "option think_ms 0\nready\n")
        elif command == "setoption" and len(words) > 2:
            # setoption <name> <value>: only options this bot declared are ever sent
            if words[1] == "think_ms" and words[2].isdigit():
                think_ms = int(words[2])
        elif command == "rng" and len(words) > 1:
            # reseed per match: same seed and same match, same moves, whatever came before
            rng = random.Random(f"{args.seed}/{words[1]}")
        elif command == "bank" and len(words) > 1:
            # bank <millis>: the time bank left, sent before each go of a match that has one
            bank_ms = int(words[1])
        elif command == "go":
            # go <kind> <millis> <move> <move> ...
            if think_ms:
                allowed = int(words[2]) + bank_ms - MARGIN_MS
                time.sleep(max(0, min(think_ms, allowed)) / 1000)
            out.write(f"move {rng.choice(words[3:])}\n")
        elif command == "quit":
            break
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
