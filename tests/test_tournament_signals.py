"""A tournament stops cleanly however it is stopped: Ctrl-C and SIGTERM exit at once with one
line and keep every finished match, even with most of a long schedule still to play; and when
the parent is killed outright, its workers and their bots do not outlive it.

Every test runs the real command in a process of its own, finds that process's workers and
bots by walking the process tree from it (never by name across the machine), and checks they
were alive before it stops the tournament, so that no test can pass without having stopped
anything."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import standings, PYTHON_BOT, ROOT, alive, records_written as records, run_cli, wait_for

DEADLINE = 60.0
"""Seconds any awaited condition may take on a slow, busy machine; a healthy run takes far less."""

EXIT_TIME = 10.0
"""Seconds an interrupted tournament may take to exit: 'a few', with room for a loaded machine."""

FAST = ["--bot", "a=first", "--bot", "b=random", "--bot", "c=first", "--bot", "d=random",
        "--deal-sets", "500", "--max-deals", "1", "--seed", "21", "-j", "2"]
"""2,000 matches (500 deal sets, 4 rotations) of quick built-in players, one deal each."""

WITH_BOTS = ["--bot", f"py={PYTHON_BOT} --seed 5", "--bot", "r=random", "--deal-sets", "50", "--seed", "8", "-j", "2"]
"""Two real bot processes per match, in two workers: far more matches than a test waits for."""


def start(directory: Path, args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardcli", "tournament", "peppa", *args, "--dir", str(directory)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def tree(root: int) -> dict[int, tuple[int, str]]:
    """Every live descendant of ``root``: pid → (parent pid, command line)."""
    parent: dict[int, int] = {}
    command: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        command[int(entry.name)] = cmdline.strip()
    found: dict[int, tuple[int, str]] = {}
    frontier = [root]
    while frontier:
        here = frontier.pop()
        for pid, ppid in parent.items():
            if ppid == here and pid not in found and alive(pid):
                found[pid] = (ppid, command[pid])
                frontier.append(pid)
    return found


def workers_and_bots(root: int) -> tuple[set[int], set[int]]:
    """The tournament's workers (its own children) and the bot processes below them."""
    below = tree(root)
    workers = {pid for pid, (ppid, _) in below.items() if ppid == root}
    bots = {pid for pid, (_, cmd) in below.items() if "random_bot.py" in cmd}
    return workers, bots


def nothing_left(known: set[int], seconds: float = EXIT_TIME) -> list[str]:
    """Wait until every process in ``known``, and every process any of them starts meanwhile,
    has ended; return those still alive after ``seconds`` (and kill them, so that a failing
    test leaves nothing behind either)."""
    deadline = time.monotonic() + seconds
    while True:
        for pid in [p for p in known if alive(p)]:
            known |= set(tree(pid))
        left = sorted(p for p in known if alive(p))
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    described = [f"{p}: {_command(p)}" for p in left]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return described


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:120]
    except OSError:
        return "?"


def own_lines(stderr: str) -> list[str]:
    """What the command said on stderr besides its progress lines."""
    return [line for line in stderr.splitlines() if line.strip() and not line.startswith("match ")]


def test_ctrl_c_stops_a_long_tournament_at_once_and_resume_gives_the_uninterrupted_table(tmp_path: Path) -> None:
    whole = run_cli("tournament", "peppa", *FAST, "--dir", str(tmp_path / "whole"), "--json")
    assert whole.returncode == 0, whole.stderr
    reference = json.loads(whole.stdout)
    assert reference["matches"] == 2000

    directory = tmp_path / "cut"
    proc = start(directory, FAST)
    wait_for(lambda: records(directory) >= 1 or proc.poll() is not None, "a first record")
    workers, _ = workers_and_bots(proc.pid)
    assert len(workers) == 2 and proc.poll() is None, "the tournament was running in two workers"
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=EXIT_TIME)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"still running {EXIT_TIME:.0f} s after Ctrl-C") from None
    left = nothing_left(workers)
    assert not left, f"still running after the tournament exited: {left}"
    _, err = proc.communicate(timeout=DEADLINE)

    assert proc.returncode == 130, err
    assert own_lines(err) == ["cardcli: error: interrupted"], err
    assert "Traceback" not in err
    assert records(directory) <= 2000 - 450, "most of the schedule was still to play when it stopped"

    resumed = run_cli("tournament", "--resume", str(directory), "--json")
    assert resumed.returncode == 0, resumed.stderr
    table = json.loads(resumed.stdout)
    assert table["matches"] == 2000
    assert standings(table["entrants"]) == standings(reference["entrants"]) and table["crosstable"] == reference["crosstable"]


def started_with_bots(tmp_path: Path) -> tuple[subprocess.Popen[str], set[int]]:
    """A tournament with real bot processes, once it has a record and its two workers and
    their bots are alive; with every pid of its process tree at that moment."""
    proc = start(tmp_path, WITH_BOTS)
    seen: dict[str, set[int]] = {}

    def running() -> bool:
        workers, bots = workers_and_bots(proc.pid)
        seen["workers"], seen["bots"] = workers, bots
        return proc.poll() is not None or (records(tmp_path) >= 1 and len(workers) == 2 and len(bots) >= 2)

    wait_for(running, "a record, two workers and their bots")
    assert proc.poll() is None, proc.communicate()[1]
    return proc, seen["workers"] | seen["bots"] | set(tree(proc.pid))


def test_sigterm_exits_143_keeps_every_finished_match_and_ends_workers_and_bots(tmp_path: Path) -> None:
    proc, known = started_with_bots(tmp_path)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=DEADLINE)
    left = nothing_left(known)
    assert not left, f"still running after the tournament exited: {left}"
    _, err = proc.communicate(timeout=DEADLINE)  # the workers shared its stderr: read it once they are gone

    assert proc.returncode == 143, err
    assert own_lines(err) == ["cardcli: error: terminated"], err
    lines = (tmp_path / "records.jsonl").read_text().splitlines()
    assert lines and all("index" in json.loads(line)["tournament"] for line in lines)
    assert len(lines) < 100, "the tournament was stopped, not finished"
    assert run_cli("verify", str(tmp_path / "records.jsonl")).returncode == 0


def test_killing_the_parent_outright_ends_its_workers_and_their_bots(tmp_path: Path) -> None:
    proc, known = started_with_bots(tmp_path)
    proc.kill()
    assert proc.wait(timeout=DEADLINE) == -signal.SIGKILL
    left = nothing_left(known)
    assert not left, f"still running after the parent was killed: {left}"
    proc.communicate(timeout=DEADLINE)
