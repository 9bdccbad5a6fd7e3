"""The package's types and lint, with the configuration in pyproject.toml: mypy (strict on the
games' core, each game's rules, the protocol and the seats) and ruff (its chosen rule set).
Both run here so that the README's test command, which CI runs, checks them."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_finds_no_error() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is in the test extra: pip install -e '.[test]'")
    done = run(sys.executable, "-m", "mypy", "--no-error-summary")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_finds_nothing() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is in the test extra: pip install -e '.[test]'")
    done = run(ruff, "check", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
