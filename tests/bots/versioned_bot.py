#!/usr/bin/env python3
"""A bot that says the version written in a file (read at its start) and plays the first
offered move: changing the file between two of its processes is a new version of the bot, as
an author's update is."""

import sys

version = open(sys.argv[1]).read().strip() if len(sys.argv) > 1 else "1"
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "cardcli":
        sys.stdout.write(f"id name versioned\nid version {version}\nready\n")
    elif words[0] == "go":
        sys.stdout.write(f"move {words[3]}\n")
    elif words[0] == "quit":
        break
    sys.stdout.flush()
