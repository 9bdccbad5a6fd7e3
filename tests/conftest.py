"""Shared fixtures: paths of the shipped and test bots, and ways to run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON_BOT = f"{sys.executable} {ROOT / 'bots/python/random_bot.py'}"
BASH_BOT = f"bash {ROOT / 'bots/bash/random_bot.sh'}"
FAULTY_BOT = f"{sys.executable} {ROOT / 'tests/bots/faulty_bot.py'}"


def faulty(*flags: str) -> str:
    return " ".join((FAULTY_BOT, *flags))


def run_cli(*args: str, timeout: float = 120, check: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cardcli`` as a user would, in a subprocess."""
    proc = subprocess.run(
        [sys.executable, "-m", "cardcli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"cardcli {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def run_json(*args: str, **kwargs: Any) -> dict[str, Any]:
    proc = run_cli(*args, "--json", **kwargs)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, f"--json must print exactly one line, got: {proc.stdout!r} / {proc.stderr!r}"
    return json.loads(lines[0])


def read_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    return tmp_path / "games.jsonl"


BOT_MARKS = ("faulty_bot.py", "random_bot.py", "random_bot.sh")


def _bot_processes() -> list[str]:
    """Bot processes (and the children the faulty bot starts) still alive on this machine."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().split()[2]
        except OSError:
            continue
        if state != "Z" and (any(mark in cmdline for mark in BOT_MARKS) or cmdline.strip() == "sleep 300"):
            found.append(f"{entry.name}: {cmdline.strip()[:120]}")
    return found


@pytest.fixture(scope="session", autouse=True)
def no_bot_outlives_the_suite():
    """After the whole suite, no bot process (nor a child it started) is left running."""
    before = set(_bot_processes())
    yield
    import time

    deadline = time.monotonic() + 5
    left = [p for p in _bot_processes() if p not in before]
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = [p for p in _bot_processes() if p not in before]
    assert not left, f"bot processes left running: {left}"
