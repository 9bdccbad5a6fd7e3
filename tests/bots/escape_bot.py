#!/usr/bin/env python3
"""A hostile but legal bot for the terminal-safety tests: it plays the first offered move, and
everything it says about itself is terminal escape sequences meant for the person reading the
referee's output (clear the screen, set the window title, write the clipboard, move the cursor
up and forge the winners line, reverse the text with a bidi override, a C1 CSI)."""

import sys

CLEAR = "\x1b[2J"
TITLE = "\x1b]0;pwned\x07"
CLIPBOARD = "\x1b]52;c;ZWNobyBwd25lZA==\x07"
FORGE = "\x1b[1A\rwinners: 0:escape (forged)"
BIDI = "\u202eniw"
C1_CSI = "\u009b2J"

NAME = CLEAR + TITLE + CLIPBOARD + "escape" + FORGE + BIDI + C1_CSI


def main() -> int:
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "cardcli":
            out.write(f"id name {NAME}\n")
            out.write(f"id author {TITLE}{CLEAR}\n")
            out.write(f"id version {CLIPBOARD}{BIDI}\n")
            out.write(f"info {FORGE}{TITLE}\n")
            out.write("ready\n")
        elif words[0] == "go":
            # go <kind> <millis> <move> <move> ...
            out.write(f"info {CLEAR}{BIDI}\n")
            out.write(f"move {words[3]}\n")
        elif words[0] == "quit":
            break
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
