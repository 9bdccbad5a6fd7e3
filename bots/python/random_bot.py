#!/usr/bin/env python3
"""A cardcli bot that plays any game by picking one of the offered moves at random.

Standard library only. Usage: random_bot.py [--seed N] [--name NAME]
It shows the whole protocol a bot needs: answer the handshake, then answer every `go` line
with one of the moves it lists. Everything else the referee says may be ignored.
"""

import argparse
import random
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible play")
    parser.add_argument("--name", default="python-random", help="name given in the handshake")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "cardcli":
            out.write(f"id name {args.name}\nid author cardcli examples\nid version 1.0\nready\n")
        elif command == "rng" and len(words) > 1:
            # reseed per match: same seed and same match, same moves, whatever came before
            rng = random.Random(f"{args.seed}/{words[1]}")
        elif command == "go":
            # go <kind> <millis> <move> <move> ...
            out.write(f"move {rng.choice(words[3:])}\n")
        elif command == "quit":
            break
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
