#!/usr/bin/env python3
"""A built-in player as it was at any commit of this repository, as a bot program.

Usage: python3 benchmarks/checkout_bot.py REVISION SPEC
       e.g. python3 benchmarks/checkout_bot.py cfe0d51 ismcts:iterations=1000000,cpu=100

A player's new version is best judged against its old one on the same deals, in one run, at
the same processor time. Both cannot be imported into one process (they are the same package),
so the old one plays as any outside bot does: this program speaks the bot protocol
(``protocol/PROTOCOL.md``) and hands the lines to the built-in player SPEC of the package as it
was at REVISION, which it extracts once (``git archive``) into a cache directory
(``$XDG_CACHE_HOME/cardcli-checkouts``, or ``~/.cache/...``). With ``strength.py`` it measures
one version against the other, deal by deal::

    python3 benchmarks/strength.py --player ismcts:cpu=100 --only pepper:3 --out rows.jsonl
    python3 benchmarks/strength.py --player "python3 benchmarks/checkout_bot.py cfe0d51 \\
        ismcts:iterations=1000000,cpu=100" --only pepper:3 --out rows.jsonl
    python3 benchmarks/strength.py --player ismcts:cpu=100 --only pepper:3 --out rows.jsonl \\
        --summary --compare "python3 benchmarks/checkout_bot.py cfe0d51 ismcts:iterations=1000000,cpu=100"

The built-in players learn the game only from their seat's protocol lines, so the old player
sees exactly what it saw in its own referee. Its processor time is its own budget's.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout(revision: str) -> Path:
    """The package as it was at ``revision``, extracted once; a lock keeps the seats of one
    run, started together, from extracting it at the same time."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{revision}^{{commit}}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardcli-checkouts"
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / commit
    with open(cache / f"{commit}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (target / "cardcli").is_dir():
            partial = cache / f"{commit}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir()
            archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", commit, "cardcli"], stdout=subprocess.PIPE)
            subprocess.run(["tar", "-x", "-C", str(partial)], stdin=archive.stdout, check=True)
            if archive.wait() != 0:
                sys.exit(f"checkout_bot: git archive {commit} failed")
            partial.rename(target)
    return target


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    revision, spec = sys.argv[1], sys.argv[2]
    sys.path.insert(0, str(checkout(revision)))
    from cardcli.seating import builtin  # the package as it was at the revision
    from cardcli.seats.base import Request

    seat = None
    pending: list[str] = []
    rng = 0
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        words = line.split()
        if not words:
            continue
        if words[0] == "cardcli":
            print(f"id name {spec}@{revision}\nready", flush=True)
        elif words[0] == "quit":
            break
        elif words[0] == "go":
            assert seat is not None, "a request before the match began"
            seat.notify(pending)
            pending = []
            seat.ask(Request(words[1], words[3:], int(words[2])))
            answer = seat.poll()
            assert answer is not None and answer.move is not None, "the player made no move"
            print(f"move {answer.move}", flush=True)
        elif words[0] not in ("setoption", "bank"):
            if words[0] == "game":
                seat, pending = None, []
            elif words[0] == "rng":
                rng = int(words[1])
            pending.append(line)
            if words[0] == "begin":
                seat = builtin(spec, spec, rng)


if __name__ == "__main__":
    main()
