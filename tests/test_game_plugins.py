"""Games from other packages: the registry finds them through the ``cardcli.games`` entry
point, as an installed distribution declares it, and a broken one is a one-line error.

The whole fifth game, installed with pip, is examples/briscola (tests/test_briscola_plugin.py);
these tests make a distribution on disk (its ``.dist-info`` with ``entry_points.txt``) so that
the registry's own discovery is checked without installing anything."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import ROOT

GAME = '''
import attrs
from cardcli.games.base import GameSpec, Variant
from cardcli.games import registry

PEPPA = registry.get("peppa")

SPEC = attrs.evolve(PEPPA, name="peppa_twin", title="Peppa, again", summary="Peppa under another name.")
'''


def distribution(folder: Path, module: str, source: str, entry: str) -> None:
    """A distribution named ``twin`` in ``folder``: ``module.py`` and its entry point."""
    (folder / f"{module}.py").write_text(textwrap.dedent(source))
    info = folder / "twin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: twin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[cardcli.games]\n{entry}\n")


def cli(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardcli", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={"PYTHONPATH": f"{folder}:{ROOT}", "PATH": "/usr/bin:/bin"})


def test_a_game_declared_by_another_package_is_listed_played_and_verified(tmp_path: Path) -> None:
    distribution(tmp_path, "twin_game", GAME, "peppa_twin = twin_game:SPEC")
    listed = cli(tmp_path, "games")
    assert listed.returncode == 0 and "peppa_twin: Peppa, again" in listed.stdout, listed.stderr
    record = tmp_path / "twin.jsonl"
    played = cli(tmp_path, "play", "peppa_twin", "--seed", "3", "--seat", "heuristic", "--seat", "random",
                 "--seat", "ismcts:iterations=5", "--seat", "random", "--record", str(record))
    assert played.returncode == 0, played.stderr
    verified = cli(tmp_path, "verify", str(record))
    assert verified.returncode == 0 and "peppa_twin, complete" in verified.stdout, verified.stdout


def test_a_package_cannot_take_the_name_of_a_game_of_cardcli(tmp_path: Path) -> None:
    distribution(tmp_path, "twin_game", GAME.replace('name="peppa_twin"', 'name="peppa"'), "peppa = twin_game:SPEC")
    listed = cli(tmp_path, "games")
    assert listed.returncode == 0 and listed.stdout.count("peppa: ") == 1 and "Peppa, again" not in listed.stdout


def test_a_broken_game_package_is_one_line_naming_it(tmp_path: Path) -> None:
    distribution(tmp_path, "twin_game", "raise ImportError('the package is broken')\n", "broken = twin_game:SPEC")
    played = cli(tmp_path, "play", "broken")
    assert played.returncode == 2, played.stderr
    assert played.stderr.count("\n") == 1 and "Traceback" not in played.stderr
    assert "the game 'broken' of twin_game:SPEC cannot be loaded: the package is broken" in played.stderr
    listed = cli(tmp_path, "games")
    assert listed.returncode == 0 and "peppa: " in listed.stdout, listed.stderr
    assert "cardcli: warning: the game 'broken'" in listed.stderr
    distribution_named_otherwise = tmp_path / "other"
    distribution_named_otherwise.mkdir()
    distribution(distribution_named_otherwise, "twin_game", GAME, "twin = twin_game:SPEC")
    misnamed = cli(distribution_named_otherwise, "play", "twin")
    assert misnamed.returncode == 2 and "declared as 'peppa_twin'" in misnamed.stderr, misnamed.stderr
