"""The compiled playouts (``CARDCLI_COMPILE=1 pip install .``, setup.py): built as a user builds
them, they must be the modules Python imports, and they must play exactly what the pure loops
play: every game's consistency suite against its engine, and the golden matches (whose search
players finish their playouts in these loops, so one different draw changes a digest).

The build runs without build isolation, from the mypy and setuptools the tests already have,
so it needs no network: a copy of the source goes to a temporary directory (pip builds in the
source tree) and is installed with ``--target`` into another, which the suites then import
from first.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUITES = sorted(str(p) for p in (ROOT / "tests" / "games").glob("test_*_playout.py")) + [str(ROOT / "tests" / "test_golden.py")]
"""What the compiled loops are held to: each game's playout suite and the golden matches."""


def _loops() -> list[str]:
    """The module of every game's loop, as setup.py finds them."""
    return sorted(".".join(p.relative_to(ROOT).with_suffix("").parts) for p in ROOT.glob("cardcli/plugins/*/playout.py"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "cardcli", source / "cardcli", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    target = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-build-isolation",
         "--no-deps", "--target", str(target), str(source)],
        env={**os.environ, "CARDCLI_COMPILE": "1"}, capture_output=True, text=True, timeout=900,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return target


def _run(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Python in ``site`` (the compiled tree first on its path, before the source checkout)."""
    return subprocess.run([sys.executable, *args], cwd=site, capture_output=True, text=True, timeout=900)


def test_the_compiled_loops_are_what_python_imports(site: Path) -> None:
    loops = _loops()
    assert len(loops) == 4
    probe = "import importlib, sys\nfor name in sys.argv[1:]:\n    print(importlib.import_module(name).__file__)"
    shown = _run(site, "-c", probe, *loops)
    assert shown.returncode == 0, shown.stderr
    files = shown.stdout.split()
    assert len(files) == len(loops)
    for loop, file in zip(loops, files):
        assert file.startswith(str(site)), (loop, file)
        assert file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (loop, file)


REPORTER = """
import sys

def pytest_sessionfinish(session):
    with open("loops.txt", "w") as out:
        for name, module in sorted(sys.modules.items()):
            if name.endswith(".playout") and name.startswith("cardcli.plugins."):
                print(name, module.__file__, file=out)
"""
"""A pytest plugin that writes down the file each loop the suites used came from."""


def test_the_compiled_loops_play_what_the_engines_and_the_golden_matches_play(site: Path) -> None:
    (site / "loop_reporter.py").write_text(REPORTER)
    ran = _run(site, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "loop_reporter", *SUITES)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout and " failed" not in ran.stdout and " skipped" not in ran.stdout
    used = dict(line.split() for line in (site / "loops.txt").read_text().splitlines())
    assert sorted(used) == _loops()
    assert all(file.startswith(str(site)) and not file.endswith(".py") for file in used.values()), used


def test_asking_for_the_compiled_build_with_a_bad_value_is_a_one_line_error() -> None:
    ran = subprocess.run([sys.executable, str(ROOT / "setup.py"), "--name"], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "CARDCLI_COMPILE": "yes"}, timeout=120)
    assert ran.returncode != 0
    assert ran.stderr.strip().splitlines() == ["CARDCLI_COMPILE must be 0 or 1, not 'yes'"]
