#!/usr/bin/env python3
"""Soak: sandboxed tournaments back to back for N minutes, each with one hostile entrant.

Short tests check each fault once, in a fresh referee. A competition runs for hours, keeps
bots alive between matches and plays two matches at once, so what it can go wrong on is
different: a fault that leaks into a well-behaved seat, a record that no longer verifies,
memory that creeps up, a process that outlives its tournament. This script plays real
tournaments (``cardcli tournament``, ``-j 2``, the default ``--sandbox auto``) for N minutes,
rotating the four games and the hostile entrant's misbehaviour (every flag of
``tests/bots/faulty_bot.py`` and the attacks of ``tests/bots/intruder_bot.py``), the other
seats filled by well-behaved entrants. As it goes and at the end it prints:

- matches played, and faults by seat kind: those of the hostile entrant by its misbehaviour
  and the fault kinds charged, and every fault charged to a well-behaved entrant, each with
  where its record is (those must not exist);
- the result of ``cardcli verify`` on every record;
- the RSS of the tournament process and of its workers, from /proc, every ``--sample``
  seconds, and each tournament's peak;
- processes left running after each tournament: the pids seen while walking the process
  tree down from the tournament's pid as it ran, checked again once it has exited, and any
  process still carrying the tournament's unique mark (its directory's name is the mark, and
  the well-behaved bots and the intruder's escapee carry it too). Nothing else on the
  machine is looked at.

It prints figures and asserts no timing. Exit status 1 if a well-behaved entrant faulted, a
record failed ``verify``, a tournament failed or anything was left running; else 0.

Usage: python3 benchmarks/soak.py --minutes N [--seed S] [--sample SECONDS] [--deal-sets N] [--kinds K,K]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
FAULTY = f"{PY} {ROOT / 'tests/bots/faulty_bot.py'}"
INTRUDER = f"{PY} {ROOT / 'tests/bots/intruder_bot.py'}"
TIMES = ["--move-time", "2", "--startup-time", "3", "--quit-grace", "0.5"]
"""Short enough to rotate many kinds in a few minutes, long enough for a bot on a loaded
two-core machine (a well-behaved bot answers in milliseconds)."""
LAUNCHER = "import os, sys\nos.execvp(sys.argv[2], [sys.argv[1].replace('+', ''), *sys.argv[3:]])\n"
"""Runs a program under a mark given with a ``+`` inside, taken out (the intruder's convention):
the exec'd process carries the mark, the command lines naming it (the referee's) do not."""

GAMES = [("peppa", 4, 4), ("seep", 3, 3), ("pigugnin", 5, 5), ("pepper", 4, 2)]
"""(game, players, places): Pepper with four players is played by two partnerships, so the
hostile entrant fills both seats of a side."""


class Hostile(NamedTuple):
    """One way to misbehave: the bot's command line and the tournament options it needs.
    ``{victim}`` and ``{mark}`` are filled in per tournament."""

    kind: str
    bot: str
    options: tuple[str, ...] = ()


def faulty(kind: str, *flags: str, options: tuple[str, ...] = ()) -> Hostile:
    return Hostile(kind, " ".join((FAULTY, *flags)), options)


def intruder(kind: str, *flags: str, options: tuple[str, ...] = ()) -> Hostile:
    return Hostile(kind, " ".join((INTRUDER, *flags)), options)


HELD = ("--move-time", "12")
"""The fork attacks hold their helpers 10 s before answering: the limit must strike first."""
HOSTILE = [
    faulty("crash", "--crash-at", "3"),
    faulty("kill-self", "--kill-self-at", "3"),
    faulty("stall", "--stall-at", "3"),
    faulty("slow-inside-limit", "--slow-at", "3", "--delay", "1"),
    faulty("illegal", "--illegal-at", "3"),
    faulty("garbage", "--garbage-at", "3"),
    faulty("two-words", "--two-words-at", "3"),
    faulty("double-answer", "--double-at", "3"),
    faulty("long-line", "--long-at", "3"),
    faulty("bad-utf8", "--bad-utf8-at", "3"),
    faulty("no-ready", "--no-ready"),
    faulty("ready-delay", "--ready-delay", "4"),
    faulty("exit-zero", "--exit-zero-at", "3"),
    faulty("empty", "--empty-at", "3"),
    faulty("endless-output", "--endless-at", "3"),
    faulty("stop-reading", "--stop-reading-at", "3"),
    faulty("close-stdout", "--close-stdout-at", "3"),
    faulty("eat-cpu", "--eat-cpu-at", "3", options=("--bot-cpu", "1", "--move-time", "6")),
    faulty("eat-memory", "--eat-memory-at", "3", options=("--bot-memory", "300")),
    faulty("open-files", "--open-files-at", "3", options=("--bot-files", "40")),
    faulty("stderr-flood", "--stderr-flood", "4"),
    faulty("spawn-child", "--spawn-child"),
    faulty("ignore-quit", "--ignore-quit"),
    faulty("quit-delay", "--quit-delay", "2"),
    intruder("kill-and-stop-others", "--kill", "{victim}", "--stop", "{victim}"),
    intruder("escape", "--escape", "escapee_{mark}"),
    intruder("fork-cpu", "--fork-cpu", "3", "--hold", "10", options=("--bot-cpu", "2", *HELD)),
    intruder("fork-memory", "--fork-memory", "4", "100", "--hold", "10", options=("--bot-memory", "256", *HELD)),
    intruder("fork-files", "--fork-files", "4", "30", "--hold", "10", options=("--bot-files", "40", *HELD)),
    intruder("fork-procs", "--fork-files", "40", "1", "--hold", "10", options=("--bot-procs", "16", *HELD)),
    intruder("kernel-surface", "--kernel"),
    intruder("lock-shared-file", "--lock", "/etc/passwd"),
    intruder("fill-scratch", "--fill", "96", options=("--bot-disk", "64")),
]
INTERPRETER = tuple(dict.fromkeys(os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)
                                  if not os.path.realpath(p).startswith("/usr")))
"""The installation of the Python that runs the bots, bound as an organiser would bind it when
it lies outside the system's directories (pyenv, a virtual environment)."""


def well_behaved(launcher: Path, victim: str) -> list[tuple[str, str]]:
    """The well-behaved entrants: the shipped Python and bash bots (run under the victim mark,
    so the intruder can aim at them and a leftover can be found) and two built-in players."""
    return [
        ("py", f"{PY} {launcher} {victim} {PY} {ROOT / 'bots/python/random_bot.py'} --seed 1"),
        ("sh", f"{PY} {launcher} {victim} bash {ROOT / 'bots/bash/random_bot.sh'}"),
        ("random", "random"),
        ("heuristic", "heuristic"),
    ]


# -- processes, from /proc ------------------------------------------------------------------


def started(pid: int) -> str | None:
    """The process's start time (with its pid, an identity pids reused later cannot fake),
    or None once it is gone or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] == "Z" else fields[19]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def carrying(mark: str) -> list[int]:
    """Live processes whose command line holds ``mark`` (unique to one tournament)."""
    pids = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]
    return [pid for pid in pids if pid != os.getpid() and mark in cmdline(pid) and started(pid)]


def wait_gone(seen: dict[int, str], seconds: float) -> list[int]:
    """Wait (on pidfds, no polling) up to ``seconds`` for the processes in ``seen`` (pid →
    start time) to exit, and return those still running."""
    fds = {}
    for pid, start in seen.items():
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            continue
        if started(pid) == start:
            fds[fd] = pid
        else:
            os.close(fd)
    deadline = time.monotonic() + seconds
    while fds and time.monotonic() < deadline:
        ready, _, _ = select.select(list(fds), [], [], deadline - time.monotonic())
        for fd in ready:
            os.close(fd)
            del fds[fd]
    left = [pid for pid in fds.values() if started(pid) == seen[pid]]
    for fd in fds:
        os.close(fd)
    return left


# -- one tournament ---------------------------------------------------------------------------


class Outcome(NamedTuple):
    matches: int
    hostile_faults: collections.Counter[str]
    well_faults: list[str]
    verify_failures: int
    leftovers: list[str]
    errors: list[str]
    peak_rss: float
    sandbox: str


class Soak:
    """The state of a whole soak: where it works, the clock, and the memory timeline."""

    def __init__(self, work: Path, seed: int, sample: float, deal_sets: int):
        self.work, self.seed, self.sample, self.deal_sets = work, seed, sample, deal_sets
        self.launcher = work / "bin" / "launcher.py"
        self.launcher.parent.mkdir(parents=True)
        self.launcher.write_text(LAUNCHER)
        for path in (work, self.launcher.parent, self.launcher):
            path.chmod(0o755)  # a sandboxed bot runs under a uid of its own
        self.began = time.monotonic()
        self.next_sample = self.began

    def clock(self) -> str:
        return f"[{time.monotonic() - self.began:6.0f}s]"

    def play(self, n: int) -> Outcome:
        """Play tournament ``n``: its game and hostile entrant follow from ``n``."""
        hostile = HOSTILE[n % len(HOSTILE)]
        game, players, places = GAMES[(n + n // len(HOSTILE)) % len(GAMES)]
        mark = f"soak{uuid.uuid4().hex[:16]}"
        victim = f"vic+tim_{mark}"
        directory = self.work / mark
        others = well_behaved(self.launcher, victim)
        entrants = [("hostile", hostile.bot.format(victim=victim, mark=mark))]
        entrants += [others[(n + k) % len(others)] for k in range(places - 1)]
        command = [PY, "-m", "cardcli", "tournament", game, "--players", str(players), "--dir", str(directory),
                   "--seed", str(self.seed + n), "--deal-sets", str(self.deal_sets), "-j", "2", "--json",
                   "--max-deals", "60", *TIMES, *hostile.options]
        for path in INTERPRETER:
            command += ["--sandbox-bind", path]
        for name, spec in entrants:
            command += ["--bot", f"{name}={spec}"]
        print(f"{self.clock()} #{n} {game} ({players} players) hostile={hostile.kind} "
              f"with {', '.join(name for name, _ in entrants[1:])}", flush=True)
        out, err = self.work / f"{mark}.out", self.work / f"{mark}.err"
        seen: dict[int, str] = {}
        peak = 0.0
        with out.open("w") as stdout, err.open("w") as stderr:
            proc = subprocess.Popen(command, stdout=stdout, stderr=stderr, cwd=ROOT)
            deadline = time.monotonic() + 600
            while proc.poll() is None and time.monotonic() < deadline:
                self.walk(proc.pid, seen)
                peak = max(peak, self.memory(proc.pid))
                try:
                    proc.wait(timeout=0.2)
                except subprocess.TimeoutExpired:
                    pass
            errors = []
            if proc.poll() is None:
                errors.append("the tournament was still running after 600 s: ended with SIGTERM")
                proc.send_signal(signal.SIGTERM)
                proc.wait()
        if proc.returncode != 0:
            errors.append(f"cardcli tournament exited {proc.returncode}: {err.read_text()[-500:].strip()}")
        leftovers = self.leftovers(seen, mark)
        records = directory / "records.jsonl"
        lines = records.read_text().splitlines() if records.exists() else []
        summary = json.loads(out.read_text() or "{}")
        if summary and summary.get("matches") != len(lines):
            errors.append(f"{len(lines)} records for {summary.get('matches')} matches")
        hostile_faults: collections.Counter[str] = collections.Counter()
        well_faults = []
        for number, line in enumerate(lines, 1):
            record = json.loads(line)
            for fault in record["faults"]:
                entrant = record["tournament"]["entrants"][fault["seat"]]
                if entrant == "hostile":
                    hostile_faults[fault["kind"]] += 1
                else:
                    well_faults.append(self.describe(fault, record, f"{records}:{number}", hostile.kind))
        failures = self.verify(records) if lines else 0
        outcome = Outcome(len(lines), hostile_faults, well_faults, failures, leftovers, errors, peak,
                          summary.get("sandbox", "?"))
        if not (well_faults or failures or leftovers or errors):
            shutil.rmtree(directory, ignore_errors=True)
            out.unlink()
            err.unlink()
        return outcome

    def walk(self, root: int, seen: dict[int, str]) -> None:
        """Add every process now under ``root`` to ``seen`` (pid → start time)."""
        stack = [root]
        while stack:
            pid = stack.pop()
            start = started(pid)
            if start is None:
                continue
            if pid != root:
                seen.setdefault(pid, start)
            stack += children(pid)

    def memory(self, pid: int) -> float:
        """The RSS of the tournament process and its workers (its direct children), printed
        every ``sample`` seconds; returns the total."""
        workers = [rss_mib(child) for child in children(pid)]
        total = rss_mib(pid) + sum(workers)
        if time.monotonic() >= self.next_sample:
            self.next_sample += self.sample
            shown = " + ".join(f"{w:.1f}" for w in workers) or "none"
            print(f"{self.clock()}   memory: tournament {rss_mib(pid):.1f} MiB, workers {shown} MiB, "
                  f"total {total:.1f} MiB", flush=True)
        return total

    def leftovers(self, seen: dict[int, str], mark: str) -> list[str]:
        """The processes of the tournament still running once it has exited (given a few
        seconds to go), and any process with its mark; each one is reported, then killed so
        the next tournament starts clean."""
        left = set(wait_gone(seen, 5.0))
        marked = set(carrying(mark))
        found = [f"{pid}: {cmdline(pid)[:160]}{' (marked)' if pid in marked else ''}" for pid in sorted(left | marked)]
        for pid in left | marked:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return found

    def verify(self, records: Path) -> int:
        """The number of records ``cardcli verify`` fails (each failure printed)."""
        proc = subprocess.run([PY, "-m", "cardcli", "verify", str(records)], capture_output=True, text=True,
                              cwd=ROOT)
        failed = [line for line in proc.stdout.splitlines() if line.startswith("FAIL")]
        for line in failed:
            print(f"      VERIFY {line}", flush=True)
        if proc.returncode != 0 and not failed:
            print(f"      VERIFY exited {proc.returncode}: {(proc.stdout + proc.stderr)[-300:]}", flush=True)
            return 1
        return len(failed)

    @staticmethod
    def describe(fault: dict[str, Any], record: dict[str, Any], where: str, kind: str) -> str:
        """A fault of a well-behaved entrant with what is needed to look into it: where its
        record is, the match, the seating, and every fault of the match in order."""
        seats = [f"{s['seat']}={e}({s['name']})" for s, e in zip(record["seats"], record["tournament"]["entrants"])]
        faults = "; ".join(f"seat {f['seat']} {f['kind']} at deal {f['deal']} move {f['move']}: {f['detail'][:120]}"
                           for f in record["faults"])
        return (f"{where} (hostile={kind}, {record['game']}, seats {' '.join(seats)}): seat {fault['seat']} "
                f"{fault['kind']}: {fault['detail'][:200]} | all faults: {faults}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, required=True, help="start tournaments for this long")
    parser.add_argument("--seed", type=int, default=None, help="master seed of tournament n is SEED + n")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between memory lines")
    parser.add_argument("--deal-sets", type=int, default=1, help="deal sets per tournament")
    parser.add_argument("--kinds", default=None, help="only these hostile kinds, comma-separated (to reproduce)")
    args = parser.parse_args()
    if args.kinds:
        HOSTILE[:] = [h for h in HOSTILE if h.kind in args.kinds.split(",")]
        if not HOSTILE:
            parser.error(f"--kinds: none of {args.kinds!r} is a hostile kind")
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    work = Path(tempfile.mkdtemp(prefix="cardcli-soak-"))
    soak = Soak(work, seed, args.sample, args.deal_sets)
    print(f"soak: {args.minutes:g} minutes, seed {seed}, {len(HOSTILE)} hostile kinds, work directory {work}",
          flush=True)
    end = soak.began + args.minutes * 60
    by_kind: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    totals: collections.Counter[str] = collections.Counter()
    problems: list[str] = []
    peaks: list[float] = []
    sandboxes: set[str] = set()
    n = 0
    while time.monotonic() < end:
        kind = HOSTILE[n % len(HOSTILE)].kind
        got = soak.play(n)
        totals.update(tournaments=1, matches=got.matches, verify_failures=got.verify_failures,
                      well_faults=len(got.well_faults), leftovers=len(got.leftovers), errors=len(got.errors))
        by_kind[kind].update(got.hostile_faults)
        by_kind[kind]["(matches)"] += got.matches
        peaks.append(got.peak_rss)
        sandboxes.add(got.sandbox)
        charged = ", ".join(f"{k} {v}" for k, v in sorted(got.hostile_faults.items())) or "none"
        print(f"{soak.clock()}   {got.matches} matches; hostile faults: {charged}; well-behaved faults: "
              f"{len(got.well_faults)}; verify failures: {got.verify_failures}; left running: "
              f"{len(got.leftovers)}; peak RSS {got.peak_rss:.1f} MiB", flush=True)
        for text in got.well_faults:
            print(f"      WELL-BEHAVED FAULT {text}", flush=True)
        for text in got.leftovers:
            print(f"      LEFT RUNNING {text}", flush=True)
        for text in got.errors:
            print(f"      ERROR {text}", flush=True)
        problems += got.well_faults + got.leftovers + got.errors + [f"verify #{n}"] * got.verify_failures
        n += 1

    print(f"\nsoak over after {time.monotonic() - soak.began:.0f} s: {totals['tournaments']} tournaments, "
          f"{totals['matches']} matches, sandbox: {'; '.join(sorted(sandboxes))}")
    print("faults charged to the hostile entrant, by its misbehaviour (matches played):")
    for hostile in HOSTILE:
        if hostile.kind in by_kind:
            counts = by_kind[hostile.kind]
            matches = counts.pop("(matches)")
            charged = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"
            print(f"  {hostile.kind:22} {matches:4} matches   {charged}")
    print(f"faults charged to well-behaved entrants: {totals['well_faults']}")
    print(f"records failing verify: {totals['verify_failures']}")
    print(f"processes left running: {totals['leftovers']}")
    print(f"tournaments that failed: {totals['errors']}")
    if peaks:
        print(f"peak RSS of tournament + workers: first {peaks[0]:.1f} MiB, last {peaks[-1]:.1f} MiB, "
              f"max {max(peaks):.1f} MiB")
    if problems:
        print(f"FAILED: {len(problems)} problems; their tournament directories are kept in {work}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
