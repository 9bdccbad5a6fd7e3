#!/usr/bin/env python3
"""The size of a `cardcli replay PATH --html OUT` page per 1,000 recorded moves, and the time to
make it, for a long Pepper match (500 deals, four random players, a target never reached) and a
tournament's records.jsonl of many matches; each page of every hand and as seat 0 saw it, with
the record file's own size for comparison.

Usage: python3 benchmarks/viewer_size.py [--deals N] [--matches M] [--game GAME]
Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "cardcli", *args], capture_output=True, text=True, check=True,
                          cwd=ROOT).stdout


def moves_in(path: Path) -> tuple[int, int, int]:
    """Records, deals and moves in a record file."""
    records = deals = moves = 0
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            records += 1
            deals += len(record["deals"])
            moves += sum(len(d["moves"]) for d in record["deals"])
    return records, deals, moves


def measure(label: str, source: Path, records_file: Path, out: Path) -> None:
    records, deals, moves = moves_in(records_file)
    size = records_file.stat().st_size
    print(f"\n{label}: {records} record(s), {deals} deals, {moves} moves; the record file {size / 1e3:,.0f} kB "
          f"({size / moves:,.1f} kB per 1,000 moves)")
    print(f"  {'page':<16} {'bytes':>11} {'data bytes':>11} {'kB/1,000 moves':>15} {'data kB/1,000':>14} {'seconds':>8}")
    for name, extra in (("every hand", []), ("--seat 0", ["--seat", "0"])):
        start = time.perf_counter()
        cli("replay", str(source), "--html", str(out), *extra)
        seconds = time.perf_counter() - start
        text = out.read_text(encoding="utf-8")
        found = re.search(r'<script type="application/json" id="cardcli-data">(.*?)</script>', text, re.S)
        data = len(found.group(1).encode()) if found else 0
        total = len(text.encode())
        print(f"  {name:<16} {total:>11,} {data:>11,} {total / moves:>15,.1f} {data / moves:>14,.1f} {seconds:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deal limit of the long Pepper match")
    parser.add_argument("--matches", type=int, default=400, help="matches of the tournament (two seatings a deal set)")
    parser.add_argument("--game", default="peppa", help="the tournament's game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        long_file = base / "pepper.jsonl"
        cli("play", "pepper", "--seed", "1", "-o", "target=1000000", "--max-deals", str(args.deals),
            "--record", str(long_file))
        measure(f"Pepper, 4 players, {args.deals} deals", long_file, long_file, base / "pepper.html")
        directory = base / "t"
        cli("tournament", args.game, "--seed", "1", "--deal-sets", str(max(1, args.matches // 2)), "--dir",
            str(directory), "--bot", "a=random", "--bot", "b=heuristic", "--sandbox", "off")
        measure(f"tournament of {args.game}", directory, directory / "records.jsonl", base / "t.html")
        empty = cli("replay", str(long_file), "--html", str(base / "x.html"))  # the page's fixed part
        text = Path(empty.strip()).read_text(encoding="utf-8")
        fixed = len(re.sub(r'(<script type="application/json" id="cardcli-data">).*?(</script>)', r"\1\2", text,
                           flags=re.S).encode())
        print(f"\nthe page without its data (script, style, markup): {fixed:,} bytes")


if __name__ == "__main__":
    main()
