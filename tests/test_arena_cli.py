"""The arena's commands as a user meets them: each mistake is one line and exit status 2,
never a traceback; what the commands print is what they did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli


def one_line_error(*args: str) -> str:
    done = run_cli(*args)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardcli: error: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


@pytest.fixture
def arena(tmp_path: Path) -> Path:
    where = tmp_path / "season"
    done = run_cli("arena", "init", str(where), "--game", "pepper", "--seed", "7", check=True)
    assert "pepper (standard)" in done.stdout and "seed 7" in done.stdout
    assert (where / "arena.json").stat().st_mode & 0o077 == 0, "the database's URL is the owner's alone"
    return where


def test_mistakes_are_one_line_each(arena: Path, tmp_path: Path) -> None:
    assert "holds an arena already" in one_line_error("arena", "init", str(arena), "--game", "peppa")
    assert "holds no arena" in one_line_error("arena", "standings", str(tmp_path))
    assert "unknown game" in one_line_error("arena", "init", str(tmp_path / "x"), "--game", "chess").lower()
    assert "--remote or --command" in one_line_error("arena", "entrant", "add", str(arena), "a")
    assert "--remote or --command" in one_line_error("arena", "entrant", "add", str(arena), "a", "--remote",
                                                     "--command", "random")
    assert "cannot be a remote entrant's name" in one_line_error("arena", "entrant", "add", str(arena),
                                                                 "<img src=x>", "--remote")
    assert "no such program: /no/such/program" in one_line_error("arena", "entrant", "add", str(arena), "b",
                                                                 "--command", "/no/such/program")
    run_cli("arena", "entrant", "add", str(arena), "a", "--command", "random", check=True)
    assert "exists already" in one_line_error("arena", "entrant", "add", str(arena), "a", "--command", "first")
    assert "no entrant named zed" in one_line_error("arena", "entrant", "disable", str(arena), "zed")
    assert "no entrant named zed" in one_line_error("arena", "entrant", "token", str(arena), "zed")
    assert "--cert and --key" in one_line_error("arena", "serve", str(arena), "--cert", str(arena / "arena.json"))
    assert "--web" in one_line_error("arena", "serve", str(arena), "--web", "nowhere")
    assert "at least two" in one_line_error("arena", "finals", str(arena), "--top", "2", "--deal-sets", "1")
    url = "postgresql://nobody:secret@127.0.0.1:1/none"
    message = one_line_error("arena", "init", str(tmp_path / "pg"), "--game", "peppa", "--db", url)
    assert "secret" not in message and "cannot open the database" in message


def test_entrants_are_listed_disabled_and_enabled(arena: Path) -> None:
    token = run_cli("arena", "entrant", "add", str(arena), "alice", "--remote", check=True).stdout.split()
    assert token[0] == "alice" and len(token[1]) >= 32
    run_cli("arena", "entrant", "add", str(arena), "house", "--command", "heuristic", "--option", "x=1", check=True)
    run_cli("arena", "entrant", "disable", str(arena), "house", "--reason", "under repair", check=True)
    listed = json.loads(run_cli("arena", "entrant", "list", str(arena), "--json", check=True).stdout)
    assert [(e["name"], e["kind"], e["enabled"], e["disabled_reason"]) for e in listed] == [
        ("alice", "remote", True, None), ("house", "program", False, "under repair")]
    assert token[1] not in json.dumps(listed)
    run_cli("arena", "entrant", "enable", str(arena), "house", check=True)
    assert "house  program  enabled" in run_cli("arena", "entrant", "list", str(arena), check=True).stdout


def test_an_upgrade_of_a_current_database_does_nothing_and_says_so(arena: Path) -> None:
    assert "nothing to do" in run_cli("arena", "upgrade", str(arena), check=True).stdout


def test_standings_before_any_match(arena: Path) -> None:
    table = json.loads(run_cli("arena", "standings", str(arena), "--json", check=True).stdout)
    assert table["matches"] == 0 and table["rows"] == []
