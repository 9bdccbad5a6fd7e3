"""A bot that forgets to flush: its lines sit in a 64 KiB output buffer it never flushes."""

import random
import sys

out = open(1, "w", buffering=1 << 16, closefd=False)
for line in sys.stdin.buffer:
    words = line.split()
    if words and words[0] == b"cardcli":
        out.write("ready\n")
    elif words and words[0] == b"go":
        out.write(f"move {random.choice(words[3:]).decode()}\n")
    elif words and words[0] == b"quit":
        break
