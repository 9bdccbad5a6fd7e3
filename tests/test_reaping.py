"""No sandbox leaves a ``<defunct>`` process behind. Bubblewrap's first process exits as soon as
the bot does, while the sandbox's init (process 1 of its PID namespace) is still ending, so
that init is orphaned after every sandboxed bot; it goes to the nearest subreaper, which must
wait for it. The first test runs a parent of its own in a subprocess, a subreaper as the
suite's workers are, with two matches and a tournament as its children and a match in it, and
looks only at that parent's children afterwards, never at the machine's other processes; like
tests/test_sandbox.py, it needs bubblewrap and fails saying why where it cannot run. The last
checks the suite's own reaping (tests/conftest.py)."""

from __future__ import annotations

import json
import subprocess
import sys


from cardcli.seats.sandbox import support
from conftest import PYTHON_BOT, ROOT, reap_adopted_bubblewraps, wait_for

PARENT = """
import ctypes, json, os, subprocess, sys, tempfile
from pathlib import Path

if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
    raise SystemExit("prctl(PR_SET_CHILD_SUBREAPER) failed")
bot = sys.argv[1]
match = ["play", "peppa", "-o", "end_threshold=1", "--sandbox", "on", "--quit-grace", "0.5"]
match += [arg for _ in range(4) for arg in ("--seat", bot)]
errors = []
for seed in (1, 2):  # cardcli as a child, as the suite runs it
    done = subprocess.run([sys.executable, "-m", "cardcli", *match, "--seed", str(seed)],
                          capture_output=True, text=True, timeout=120)
    errors.append(done.stderr)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
folder = tempfile.mkdtemp()  # and a tournament, whose forked workers run the bots
os.chmod(folder, 0o755)
done = subprocess.run([sys.executable, "-m", "cardcli", "tournament", "peppa", "--dir", os.path.join(folder, "t"),
                       "--seed", "3", "--deal-sets", "1", "--max-deals", "1", "-j", "2", "-o", "end_threshold=1",
                       "--sandbox", "on", *(f"--bot={name}={bot}" for name in "abcd")],
                      capture_output=True, text=True, timeout=120)
errors.append(done.stderr)
if done.returncode != 0:
    raise SystemExit(done.stderr)
from cardcli.cli import cli  # and in this process, as an embedding program would
try:
    cli.main([*match, "--seed", "3", "--quit-grace", "0"], standalone_mode=False)
except SystemExit as end:
    if end.code:
        raise
states = {}
for task in Path("/proc/self/task").iterdir():
    for child in (task / "children").read_text().split():
        try:
            stat = Path(f"/proc/{child}/stat").read_text()
        except OSError:
            continue
        name, rest = stat.split("(", 1)[1].rsplit(")", 1)
        states[child] = f"{name} {rest.split()[0]}"
print(json.dumps({"children": states, "stderr": errors}))
"""


def test_sandboxed_matches_leave_no_zombie_in_their_parent() -> None:
    assert support().bwrap is not None, f"this test needs bubblewrap: {support().detail}"
    done = subprocess.run([sys.executable, "-c", PARENT, PYTHON_BOT], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert all("sandbox: bubblewrap" in err for err in report["stderr"][:2]), report["stderr"]
    assert "status complete" in report["stderr"][2], report["stderr"][2]
    zombies = {pid: state for pid, state in report["children"].items() if state.endswith(" Z")}
    assert not zombies, f"the parent of sandboxed matches and a tournament holds zombies: {zombies}"


ORPHAN = """
import ctypes, os, time
if os.fork() == 0:
    ctypes.CDLL(None).prctl(15, b"bwrap", 0, 0, 0)  # PR_SET_NAME: named as bubblewrap is
    time.sleep(0.3)
    os._exit(0)
"""


def test_the_suite_reaps_a_bubblewrap_orphaned_to_it() -> None:
    """What a killed referee leaves: a process named bwrap whose parent is gone, adopted by
    this worker (a subreaper), ends; the suite's fixture waits for it."""
    subprocess.run([sys.executable, "-c", ORPHAN], check=True, timeout=30)
    reaped = 0

    def orphan_reaped() -> bool:
        nonlocal reaped
        reaped += reap_adopted_bubblewraps()
        return reaped > 0

    wait_for(orphan_reaped, "the orphan named bwrap to be reaped", 10)
