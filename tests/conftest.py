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
