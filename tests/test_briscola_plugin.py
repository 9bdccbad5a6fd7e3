"""The fifth game as a user adds it: examples/briscola installed with pip into a virtual
environment of its own, and every command run there with that environment's Python.

The environment is made with ``--system-site-packages``, so it sees the cardcli this suite
runs (installed editable) and the ``rl`` extra, and nothing is installed outside it: the real
environment's site-packages never learn of Briscola (the suite's conformance and no-leak tests
would otherwise find a game whose invariants they do not know). The package is installed with
``--no-deps --no-build-isolation``, from a copy in the test's folder so that the build leaves
nothing in the checkout. Commands run with ``PYTHONPATH`` set to the checkout, as
:func:`conftest.run_cli` runs them, so that the suite's record check (tests/record_check) checks
the Briscola records written here against docs/record.schema.json as well.

The steps depend on each other (``replay`` and ``verify`` read the records ``play`` and
``tournament`` wrote) and share one environment, which takes a few seconds to make, so they
are one test, in the order a user would take them: the suite runs its tests spread over
processes (pytest-xdist), which would make an environment per process and break the order.
Each step is a function of its own below; the whole takes well under a minute on two cores.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import ROOT, read_records

PACKAGE = ROOT / "examples" / "briscola"
RANDOM_BOT = f"{sys.executable} {ROOT / 'bots/python/random_bot.py'}"
"""The repository's Python random bot, with the interpreter that runs the suite (as the rest of
the suite runs it: a sandboxed bot finds that interpreter's installation bound)."""


class Venv:
    """A virtual environment with cardcli-briscola installed, and a way to run its Python."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.python = folder / "bin" / "python"
        self.work = folder.parent / "work"
        self.work.mkdir()

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """``python ARGS`` of the environment, from a folder of the test's own, as a user runs
        it (and with the checkout on ``PYTHONPATH`` for the record check, see above)."""
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("PYTHONHOME", None)
        return subprocess.run([str(self.python), *args], capture_output=True, text=True, timeout=timeout,
                              cwd=self.work, env=env)

    def cardcli(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        proc = self.run("-m", "cardcli", *args, timeout=timeout)
        assert proc.returncode == 0, f"cardcli {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        return proc


def _build_support(python: Path) -> None:
    """pip builds the package with the environment's own setuptools (no build isolation, no
    package index): setuptools builds a wheel by itself from version 70.1, and an older one
    with the ``wheel`` package, which cardcli's ``test`` extra installs for that reason."""
    probe = ("import importlib.util, setuptools; v = tuple(int(p) for p in setuptools.__version__.split('.')[:2]); "
             "raise SystemExit(0 if v >= (70, 1) or importlib.util.find_spec('wheel') else 1)")
    assert subprocess.run([str(python), "-c", probe], capture_output=True).returncode == 0, \
        "no setuptools that builds wheels: install cardcli's test extra (bash tests/setup.sh)"


def make_venv(base: Path) -> Venv:
    """The virtual environment, with the package installed from a copy of examples/briscola."""
    source = base / "briscola"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*cache"))
    folder = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(folder)],
                   check=True, timeout=120)
    made = Venv(folder)
    _build_support(made.python)
    installed = made.run("-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                         "--disable-pip-version-check", str(source), timeout=300)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return made


def entry_point_names(python: Path | str) -> list[str]:
    code = "from importlib.metadata import entry_points; print(*[e.name for e in entry_points(group='cardcli.games')])"
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True,
                          cwd="/", env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}).stdout.split()


def installed_in_the_virtual_environment_only(venv: Venv) -> None:
    assert "briscola" in entry_point_names(venv.python)
    assert "briscola" not in entry_point_names(sys.executable), "the real environment must not see the package"
    where = venv.run("-c", "import cardcli_briscola, cardcli; print(cardcli_briscola.__file__); print(cardcli.__file__)")
    package, cardcli = where.stdout.split()
    assert Path(package).is_relative_to(venv.folder) and Path(cardcli).is_relative_to(ROOT)


def games_lists_briscola_and_rules_prints_its_summary(venv: Venv) -> None:
    listed = venv.cardcli("games").stdout
    assert "briscola: Briscola, 2, 4 players" in listed and "peppa:" in listed
    assert "partners_see_hands" in listed
    assert "Briscola is the most played Italian card game" in venv.cardcli("rules", "briscola").stdout


def play_matches_of_built_in_players(venv: Venv, records: Path) -> None:
    """2 and 4 players, the heuristic, the random and the search player, recorded."""
    for players in (2, 4):
        record = records / f"play-{players}.jsonl"
        seats = ["heuristic", "random", "ismcts:iterations=20", "random"][:players]
        args = [a for seat in seats for a in ("--seat", seat)]
        if players == 4:
            args += ["-o", "partners_see_hands=true"]
        venv.cardcli("play", "briscola", "--seed", "7", *args, "--record", str(record))
        (written,) = read_records(record)
        assert written["game"] == "briscola" and written["status"] == "complete" and not written["faults"]
        assert len(written["seats"]) == players and written["result"]["winners"]
        for deal in written["deals"]:
            assert len(deal["stock"]) == 40 - 3 * players and len(deal["moves"]) == 40
        summary = json.loads(venv.cardcli("play", "briscola", "--players", str(players), "--seed", "8", "--json").stdout)
        assert summary["game"] == "briscola"


def play_against_a_bot_process(venv: Venv, records: Path) -> None:
    record = records / "bot.jsonl"
    venv.cardcli("play", "briscola", "--seed", "3", "--seat", RANDOM_BOT, "--seat", "heuristic",
                 "--games", "2", "--record", str(record))
    played = read_records(record)
    assert len(played) == 2 and all(r["status"] == "complete" and not r["faults"] for r in played)
    assert played[0]["seats"][0]["bot"]["name"], "the bot's handshake named it"


def check_bot_passes_the_random_bot(venv: Venv) -> None:
    checked = venv.cardcli("check-bot", "briscola", "--time-budget", "20", "--", *RANDOM_BOT.split())
    assert "2 players" in checked.stdout and "4 players" in checked.stdout, checked.stdout


def a_duplicate_tournament_of_the_heuristic_and_the_search_player(venv: Venv, records: Path) -> None:
    """Two deal sets of one deal each (``target=1``), each played from both seats."""
    folder = records / "tournament"
    table = venv.cardcli("tournament", "briscola", "--bot", "heuristic=heuristic", "--bot",
                         "search=ismcts:iterations=20", "--deal-sets", "2", "--seed", "5", "--jobs", "2",
                         "-o", "target=1", "--dir", str(folder), "--json", timeout=240)
    result = json.loads(table.stdout.splitlines()[0])
    assert result["game"] == "briscola" and {row["entrant"] for row in result["entrants"]} == {"heuristic", "search"}
    played = read_records(folder / "records.jsonl")
    assert len(played) == 4 and all(r["game"] == "briscola" and r["status"] == "complete" for r in played)


def replay_as_text_and_as_a_page(venv: Venv, records: Path) -> None:
    record = records / "play-4.jsonl"
    text = venv.cardcli("replay", str(record)).stdout
    assert "are trumps" in text and "draws:" in text, text[:2000]
    seat = venv.cardcli("replay", str(record), "--seat", "1").stdout
    assert "a card" in seat, "another seat's draw, unseen"
    page = records / "replay.html"
    venv.cardcli("replay", str(record), "--html", str(page))
    assert page.read_text().lstrip().lower().startswith("<!doctype html")


def verify_every_record_written(venv: Venv, records: Path) -> None:
    """Every record the steps wrote (play, bot, tournament) is rebuilt through the installed
    rules and holds."""
    paths = sorted(records.glob("*.jsonl")) + [records / "tournament"]
    assert len(paths) == 4, paths
    for path in paths:
        verified = venv.cardcli("verify", str(path))
        assert "briscola, complete" in verified.stdout, verified.stdout


def the_learning_environments(venv: Venv) -> None:
    """``cardcli.envs`` makes ``briscola_v0``, which passes PettingZoo's API test, and the
    single-agent environment against the heuristic player."""
    code = textwrap.dedent("""
        import warnings
        warnings.simplefilter("ignore")
        import cardcli.envs
        from cardcli.envs import briscola_v0
        from pettingzoo.test import api_test
        assert "briscola" in cardcli.envs.GAMES, cardcli.envs.GAMES
        for players in (2, 4):
            api_test(briscola_v0.env(players=players), num_cycles=100)
        import gymnasium
        single = gymnasium.make(cardcli.envs.ENV_IDS["briscola"], opponents="heuristic")
        observation, info = single.reset(seed=1)
        print("ok", observation.shape)
    """)
    ran = venv.run("-c", code)
    assert ran.returncode == 0 and "ok (469,)" in ran.stdout, ran.stdout + ran.stderr


def test_a_user_installs_briscola_with_pip_and_runs_every_command(tmp_path: Path) -> None:
    venv = make_venv(tmp_path)
    records = venv.work / "records"
    records.mkdir()
    installed_in_the_virtual_environment_only(venv)
    games_lists_briscola_and_rules_prints_its_summary(venv)
    play_matches_of_built_in_players(venv, records)
    play_against_a_bot_process(venv, records)
    check_bot_passes_the_random_bot(venv)
    a_duplicate_tournament_of_the_heuristic_and_the_search_player(venv, records)
    replay_as_text_and_as_a_page(venv, records)
    verify_every_record_written(venv, records)
    the_learning_environments(venv)
