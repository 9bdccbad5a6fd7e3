"""No sandbox leaves a ``<defunct>`` process behind. Bubblewrap's first process exits as soon as
the bot does, while the sandbox's init (process 1 of its PID namespace) is still ending, so
that init is orphaned after every sandboxed bot; it goes to the nearest subreaper, which must
wait for it. Each test runs a parent of its own in a subprocess, a subreaper as the suite's
workers are, and looks only at that parent's children afterwards, never at the machine's
other processes. Like tests/test_sandbox.py, these need bubblewrap and fail saying why where
it cannot run."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardcli.seats.sandbox import support
from conftest import PYTHON_BOT, ROOT

PARENT = """
import ctypes, json, os, subprocess, sys
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


@pytest.fixture(scope="module", autouse=True)
def sandbox_available() -> None:
    assert support().bwrap is not None, f"the reaping tests need bubblewrap: {support().detail}"


def test_sandboxed_matches_leave_no_zombie_in_their_parent() -> None:
    done = subprocess.run([sys.executable, "-c", PARENT, PYTHON_BOT], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert all("sandbox: bubblewrap" in err for err in report["stderr"]), report["stderr"]
    zombies = {pid: state for pid, state in report["children"].items() if state.endswith(" Z")}
    assert not zombies, f"the parent of three sandboxed matches holds zombies: {zombies}"
