"""How fast the HTML replay viewer opens in a real browser, for the largest files it is given.

Two files: one Pepper match of 500 deals (the referee's deal limit; the target is raised so that
the match runs to it) and the records of a 400-match Peppa tournament. For each, the page is
made with ``cardcli replay FILE --html OUT`` (timed), then opened afresh several times in
headless Chromium (the tests' browser, ``tests/browser.py``), and the median is printed of:

- ``ready``: from the start of navigation to the end of ``DOMContentLoaded`` (the page's inline
  script runs as the page is parsed, so its data is read and the first step drawn by then);
- ``paint``: to the first contentful paint, when the reader first sees the page;
- ``load``: to the end of the load event;
- ``to end``: ``goto`` to the last step of the last match, from wherever the page opened;
- ``step``: one ``goto`` to the next step, averaged over 200 steps in the middle of a match;
- ``switch``: one ``goto`` to the first step of another match (up to 50 of them; the page
  works out a match's steps the first time it is shown);
- the JavaScript heap in use after all that (``performance.memory``, Chromium's figure).

Usage: ``python3 benchmarks/viewer_load.py [--runs 5] [--deals 500] [--matches 400] [--keep DIR]``
(needs ``chromium``, ``chromium-driver`` and ``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import HEIGHT, WIDTH, start  # noqa: E402


def cli(*args: str) -> float:
    """Run ``cardcli ARGS`` quietly; return its wall time in seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardcli", *args], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - started


def make_files(where: Path, deals: int, matches: int) -> list[tuple[str, Path]]:
    """The two record files (kept from an earlier run with ``--keep``)."""
    pepper = where / f"pepper-{deals}.jsonl"
    tournament = where / f"tournament-{matches}"
    if pepper.exists() and (tournament / "records.jsonl").exists():
        return [(f"Pepper, 1 match of {deals} deals", pepper),
                (f"Peppa tournament, {matches} matches", tournament / "records.jsonl")]
    shutil.rmtree(tournament, ignore_errors=True)
    pepper.unlink(missing_ok=True)
    cli("play", "pepper", *["--seat", "random"] * 4, "--seed", "1", "-o", "target=1000000",
        "--max-deals", str(deals), "--record", str(pepper))
    cli("tournament", "peppa", "--bot", "a=heuristic", "--bot", "b=random", "--deal-sets", str(matches // 2),
        "--seed", "1", "--dir", str(tournament))
    return [(f"Pepper, 1 match of {deals} deals", pepper),
            (f"Peppa tournament, {matches} matches", tournament / "records.jsonl")]


MEASURE = """
const V = window.cardcliViewer;
const nav = performance.getEntriesByType('navigation')[0];
const paint = performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint');
const m = V.matches() - 1;
const n = V.steps(m);
let t = performance.now();
V.goto(m, n - 1);
document.body.offsetHeight;  // the layout of the step drawn
const toEnd = performance.now() - t;
const from = Math.max(0, Math.floor(n / 2) - 100), upto = Math.min(n - 1, from + 200);
V.goto(m, from);
t = performance.now();
for (let s = from + 1; s <= upto; s++) { V.goto(m, s); document.body.offsetHeight; }
const step = (performance.now() - t) / Math.max(1, upto - from);
const others = Math.min(50, V.matches() - 1);
t = performance.now();
for (let i = 0; i < others; i++) { V.goto(i, 1); document.body.offsetHeight; }
const toMatch = others ? (performance.now() - t) / others : null;
return {load: nav.loadEventEnd, toMatch, ready: nav.domContentLoadedEventEnd, paint: paint ? paint.startTime : null, toEnd, step, steps: n,
        heap: performance.memory ? performance.memory.usedJSHeapSize : null};
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads per file (the median is shown)")
    parser.add_argument("--deals", type=int, default=500, help="deals of the Pepper match")
    parser.add_argument("--matches", type=int, default=400, help="matches of the tournament (even)")
    parser.add_argument("--keep", type=Path, default=None, help="write the files and pages here and keep them")
    args = parser.parse_args()
    where = args.keep or Path(tempfile.mkdtemp(prefix="cardcli-viewer-bench-"))
    where.mkdir(parents=True, exist_ok=True)
    try:
        files = make_files(where, args.deals, args.matches)
        browser = start("--enable-precise-memory-info")  # else the heap is given in coarse steps
        try:
            version = browser.driver.capabilities.get("browserVersion", "?")
            print(f"Chromium {version}, headless, {WIDTH}x{HEIGHT}; median of {args.runs} loads")
            print(f"{'file':<36} {'records':>8} {'page':>9} {'make':>7} {'ready':>7} {'paint':>7} {'load':>7} "
                  f"{'to end':>7} {'step':>7} {'switch':>7} {'heap':>6}")
            for label, records in files:
                page = records.with_suffix(".html")
                made = cli("replay", str(records), "--html", str(page))
                runs = []
                for _ in range(args.runs):
                    browser.open(page)
                    deadline = time.monotonic() + 300
                    while not browser.js("return document.readyState === 'complete' && !!window.cardcliViewer && "
                                         "performance.getEntriesByType('paint').length > 0"):
                        if time.monotonic() > deadline:
                            raise SystemExit(f"{page}: the viewer did not open within 300 s")
                        time.sleep(0.05)
                    runs.append(browser.js(MEASURE))
                med = {k: statistics.median(r[k] or 0 for r in runs) for k in ("load", "ready", "paint", "toEnd", "step")}
                switch = f"{statistics.median(r['toMatch'] for r in runs):>5.1f}ms" if runs[0]["toMatch"] else "-"
                heap = max(r["heap"] or 0 for r in runs)
                print(f"{label:<36} {records.stat().st_size / 2**20:>6.1f}MB {page.stat().st_size / 2**20:>7.1f}MB "
                      f"{made:>6.1f}s {med['ready'] / 1000:>6.2f}s {med['paint'] / 1000:>6.2f}s "
                      f"{med['load'] / 1000:>6.2f}s {med['toEnd']:>5.0f}ms {med['step']:>5.1f}ms {switch:>7} {heap / 2**20:>4.0f}MB")
                print(f"    ({runs[0]['steps']} steps in the last match; each load: "
                      + ", ".join(f"{r['load'] / 1000:.2f}s" for r in runs) + ")")
            print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        finally:
            browser.driver.quit()
            shutil.rmtree(browser.profile, ignore_errors=True)
    finally:
        if args.keep is None:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    main()
