"""A competition as an organiser runs it: the random bots in four languages and the heuristic
player, a seeded tournament of every game, interrupted and resumed to the table of an
uninterrupted run; and the heuristic player's rating clearly above random's, first in the table
with its first place established by the paired results."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import BASH_BOT, PYTHON_BOT, ROOT, run_cli, standings


@pytest.fixture(scope="module")
def entrants(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "a C compiler is needed to build the C bot"
    folder = tmp_path_factory.mktemp("cbot")
    folder.chmod(0o755)  # tournaments sandbox their bots by default, each under a uid of its own
    binary = folder / "random_bot"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(ROOT / "bots/c/random_bot.c")], check=True)
    assert shutil.which("node"), "node is needed for the JavaScript bot"
    return [
        f"py={PYTHON_BOT} --seed 1",
        f"sh={BASH_BOT} --seed 2",
        f"c={binary} --seed 3",
        f"js=node {ROOT / 'bots/js/random_bot.js'} --seed 4",
        "heur=heuristic",
    ]


def args_for(game: str, entrants: list[str], directory: Path) -> list[str]:
    bots = [a for e in entrants for a in ("--bot", e)]
    return ["tournament", game, *bots, "--deal-sets", "2", "--seed", "5", "--max-deals", "30",
            "--dir", str(directory), "--json"]


@pytest.mark.parametrize("game", ["peppa", "seep", "pigugnin", "pepper"])
def test_a_tournament_interrupted_and_resumed_ends_with_the_uninterrupted_table(
        game: str, entrants: list[str], tmp_path: Path) -> None:
    whole = run_cli(*args_for(game, entrants, tmp_path / "whole"), "-j", "2")
    assert whole.returncode == 0, whole.stderr
    reference = json.loads(whole.stdout)
    assert reference["matches"] >= 4

    directory = tmp_path / "cut"
    proc = subprocess.Popen([sys.executable, "-m", "cardcli", *args_for(game, entrants, directory), "-j", "1"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    records = directory / "records.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and (
            not records.exists() or len(records.read_text().splitlines()) < 2):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 130, "the tournament was interrupted"
    assert len(records.read_text().splitlines()) < reference["matches"]
    resumed = run_cli("tournament", "--resume", str(directory), "--json")
    assert resumed.returncode == 0, resumed.stderr
    table = json.loads(resumed.stdout)
    assert standings(table["entrants"]) == standings(reference["entrants"])
    assert table["crosstable"] == reference["crosstable"]
    assert all(not row["faults"] for row in table["entrants"]), "every shipped bot plays cleanly"
    assert run_cli("verify", str(records)).returncode == 0


def test_the_heuristic_player_rates_clearly_above_random(tmp_path: Path) -> None:
    proc = run_cli("tournament", "peppa", "--bot", "heur=heuristic", "--bot", "r1=random", "--bot", "r2=random",
                   "--bot", "r3=random", "--deal-sets", "40", "--seed", "2", "-j", "2", "--json",
                   "--dir", str(tmp_path / "heur"))
    assert proc.returncode == 0, proc.stderr
    table = json.loads(proc.stdout)
    rows = {r["entrant"]: r for r in table["entrants"]}
    # first in the table, and established: the paired results put it ahead of every random player
    assert table["entrants"][0]["entrant"] == "heur" and table["entrants"][0]["next"]["separated"]
    assert table["first_place"] == {"entrant": "heur", "established": True, "not_separated_from": []}
    heur = rows.pop("heur")
    best = max(rows.values(), key=lambda r: r["rating"])
    margin = math.hypot(heur["rating_ci"], best["rating_ci"])
    assert heur["rating"] - best["rating"] > margin, (heur, best)
    # and per deal: the heuristic's interval lies wholly below every random player's (lower is better)
    for row in rows.values():
        assert heur["score_per_deal"] + heur["score_per_deal_ci"] < row["score_per_deal"] - row["score_per_deal_ci"]
