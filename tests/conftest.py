"""Shared fixtures: paths of the shipped and test bots, and ways to run the CLI."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from record_check import record_schema_check
from tiers import marks_of

ROOT = Path(__file__).resolve().parent.parent
pytest_plugins = ["postgres"]  # tests/postgres.py: the database tests' real PostgreSQL server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test with what it needs and its tier, from one table (tests/tiers.py, which
    tests/test_tiers.py holds to every module)."""
    seen: set[tuple[str, object]] = set()
    for item in items:
        path = Path(str(item.fspath))
        callspec = getattr(item, "callspec", None)
        marks = marks_of(path.parent.name, path.stem, getattr(item, "originalname", item.name),
                         callspec.params if callspec is not None else None, seen)
        for mark in sorted(marks or ()):
            item.add_marker(mark)


PYTHON_BOT = f"{sys.executable} {ROOT / 'bots/python/random_bot.py'}"
BASH_BOT = f"bash {ROOT / 'bots/bash/random_bot.sh'}"
FAULTY_BOT = f"{sys.executable} {ROOT / 'tests/bots/faulty_bot.py'}"
INTERPRETER = os.pathsep.join(dict.fromkeys(os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)))
"""The installation of the Python that runs the suite and its bots. A sandboxed bot sees only
what its command names and what the organiser binds: a Python outside the system's
directories (pyenv, a virtual environment) must be bound to find its libraries, as an
organiser would bind it, so every command the suite runs gets it through the environment."""
os.environ.setdefault("CARDCLI_SANDBOX_BIND", INTERPRETER)


def faulty(*flags: str) -> str:
    return " ".join((FAULTY_BOT, *flags))


def run_cli(*args: str, timeout: float = 120, check: bool = False,
            env_path: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cardcli`` as a user would, in a subprocess (with ``PATH`` set to
    ``env_path`` when given)."""
    proc = subprocess.run(
        [sys.executable, "-m", "cardcli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **({"PATH": env_path} if env_path is not None else {})},
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


def answered_before_fault(record: dict[str, Any], seat: int, name: str | None = "faulty") -> list[dict[str, Any]]:
    """The moves ``seat`` made itself before its fault (at the fault's deal and move), after
    checking that the bot completed its handshake under ``name`` (its ``id name``; None for a
    fault during the handshake). A fault test checks these, so that a bot that never started
    properly (a bad flag makes it exit at once) cannot pass for the fault it was meant to show."""
    assert record["seats"][seat]["bot"]["name"] == name, record["seats"][seat]
    fault = next(f for f in record["faults"] if f["seat"] == seat)
    moves = [m for deal in record["deals"] if deal["number"] < fault["deal"] for m in deal["moves"]]
    moves += [m for deal in record["deals"] if deal["number"] == fault["deal"] for m in deal["moves"][: fault["move"]]]
    mine = [m for m in moves if m["seat"] == seat]
    assert all(m.get("by", "seat") == "seat" for m in mine), "no fallback move before the fault"
    return mine


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    return tmp_path / "games.jsonl"


BOT_MARKS = ("faulty_bot.py", "random_bot")
"""Command-line marks of every shipped and test bot (Python, bash, C, JavaScript)."""


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def _become_subreaper() -> None:
    """Make this test process the reaper of every orphan it leaves (``PR_SET_CHILD_SUBREAPER``):
    a bot child that double-forks or calls ``setsid`` is then still a descendant of the suite,
    so leftover checks look only at processes the suite started, never at the whole machine
    (where another run's processes would count)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


_become_subreaper()


def suite_processes() -> list[int]:
    """Every live descendant of this test process."""
    return descendants(os.getpid())


def descendants(root: int) -> list[int]:
    """Every live descendant of process ``root``."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.append(child)
                    todo.append(child)
    return [pid for pid in found if alive(pid)]


def command_line(pid: int) -> str | None:
    """The command line of a live process, as one string; None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def records_written(directory: Path) -> int:
    """Records in a tournament directory so far (complete lines)."""
    path = directory / "records.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def live_processes(marks: tuple[str, ...] = BOT_MARKS) -> list[str]:
    """Live processes started by the suite whose command line has one of ``marks`` (and the
    faulty bot's sleeping children)."""
    found = []
    for pid in suite_processes():
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if any(mark in cmdline for mark in marks) or cmdline.strip() == "sleep 300":
            found.append(f"{pid}: {cmdline.strip()[:120]}")
    return found


def wait_until_gone(before: set[str], marks: tuple[str, ...] = BOT_MARKS, seconds: float = 5) -> list[str]:
    """The processes (not in ``before``) still alive after waiting up to ``seconds``."""
    import time

    deadline = time.monotonic() + seconds
    left = [p for p in live_processes(marks) if p not in before]
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = [p for p in live_processes(marks) if p not in before]
    return left


def reap_adopted_bubblewraps() -> int:
    """Wait for the ended bubblewrap processes this test process adopted as their subreaper:
    cardcli waits for those it leaves while it runs, but a referee that is killed (the tests of
    interruptions do that) leaves its sandboxes to die with it (``--die-with-parent``) and come
    here. No test starts bubblewrap itself without waiting for it, so none is taken from a test.
    Returns how many were reaped."""
    reaped = 0
    for task in Path(f"/proc/{os.getpid()}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                name, state = Path(f"/proc/{child}/stat").read_text().split("(", 1)[1].rsplit(")", 1)
            except (OSError, ValueError):
                continue
            if name == "bwrap" and state.split()[0] == "Z":
                try:
                    reaped += os.waitpid(int(child), os.WNOHANG)[0] == int(child)
                except ChildProcessError:
                    pass
    return reaped


@pytest.fixture(autouse=True)
def adopted_bubblewraps_reaped():
    """After each test, no ended bubblewrap stays a ``<defunct>`` child of this worker."""
    yield
    reap_adopted_bubblewraps()


@pytest.fixture(scope="session", autouse=True)
def no_bot_outlives_the_suite():
    """After the whole suite, no bot process (nor a child it started) is left running."""
    before = set(live_processes())
    yield
    left = wait_until_gone(before)
    assert not left, f"bot processes left running: {left}"


@pytest.fixture(scope="session", autouse=True)
def record_checker(tmp_path_factory: pytest.TempPathFactory):
    """Every record cardcli writes while the suite runs, in this process and in the cardcli
    processes the suite starts on this tree, is copied to a spool and checked against
    docs/record.schema.json (tests/record_check/; up to 100 per test)."""
    spool = tmp_path_factory.mktemp("record-spool")
    os.environ[record_schema_check.SPOOL_ENV] = str(spool)
    undo = (record_schema_check.install_here(), record_schema_check.cover_subprocesses(str(ROOT)))
    checker = record_schema_check.Checker(ROOT / "docs/record.schema.json", spool)
    yield checker
    for step in undo:
        step()
    del os.environ[record_schema_check.SPOOL_ENV]
    refused = checker.refused()
    assert not refused, "\n".join(refused)


@pytest.fixture(autouse=True)
def records_match_the_schema(record_checker: record_schema_check.Checker):
    """A test fails when a record written for it, in any process, does not match the schema."""
    yield
    refused = record_checker.refused()
    assert not refused, "\n".join(refused)


def standings(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A table's ``entrants`` rows without what the clock decides (``time_ms``, the time per
    move): what two runs of the same tournament must agree on, whatever ran them."""
    return [{k: v for k, v in row.items() if k != "time_ms"} for row in rows]
