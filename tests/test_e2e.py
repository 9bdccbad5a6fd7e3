"""End to end: real bot processes (the shipped Python and bash bots) play whole matches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import BASH_BOT, FAULTY_BOT, PYTHON_BOT, read_records, run_cli, run_json


def mixed_seats(seed_base: int = 0) -> list[str]:
    return [
        "--seat", f"{PYTHON_BOT} --seed {seed_base + 1}",
        "--seat", f"{BASH_BOT} --seed {seed_base + 2}",
        "--seat", f"{PYTHON_BOT} --seed {seed_base + 3}",
        "--seat", f"{BASH_BOT} --seed {seed_base + 4}",
    ]


def test_python_and_bash_bots_play_a_match_that_records_replays_and_verifies(record_path: Path) -> None:
    summary = run_json("play", "peppa", "--seed", "11", *mixed_seats(), "--record", str(record_path))
    assert summary["status"] == "complete"
    assert summary["faults"] == []
    assert [p["name"] for p in summary["players"]] == ["python-random", "bash-random"] * 2
    assert len(summary["winners"]) == 2 and len(summary["losers"]) == 2
    assert max(p["score"] for p in summary["players"]) > 100

    verified = run_cli("verify", str(record_path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "1 verified, 0 failed" in verified.stdout

    replay = run_cli("replay", str(record_path))
    assert replay.returncode == 0, replay.stderr
    assert "Deal 1" in replay.stdout and "trick 13" in replay.stdout
    assert "winners:" in replay.stdout


def test_same_seed_and_seeded_bots_give_the_same_record(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        run_cli("play", "peppa", "--seed", "5", *mixed_seats(7), "--record", str(path), check=True)
    a, b = read_records(first)[0], read_records(second)[0]
    for record in (a, b):
        for key in ("started", "finished"):
            record.pop(key)
        for deal in record["deals"]:
            for move in deal["moves"]:
                move.pop("ms")
    assert a == b


def test_games_appended_to_one_file_all_verify(record_path: Path) -> None:
    for seed in (1, 2, 3):
        run_cli("play", "peppa", "--seed", str(seed), "--seat", PYTHON_BOT, "--seat", "random",
                "--seat", BASH_BOT, "--seat", "random", "--record", str(record_path), check=True)
    assert len(read_records(record_path)) == 3
    verified = run_cli("verify", str(record_path))
    assert verified.returncode == 0
    assert "3 verified, 0 failed" in verified.stdout


def test_bot_identity_and_command_are_recorded(record_path: Path) -> None:
    run_cli("play", "peppa", "--seed", "3", *mixed_seats(), "--record", str(record_path), check=True)
    seats = read_records(record_path)[0]["seats"]
    assert seats[0]["bot"]["name"] == "python-random"
    assert seats[0]["command"][-2:] == ["--seed", "1"]
    assert seats[1]["kind"] == "process" and seats[1]["bot"]["name"] == "bash-random"


def test_one_bot_process_plays_several_matches_in_a_row(tmp_path: Path, record_path: Path) -> None:
    pidfile = tmp_path / "pids"
    bot = f"{FAULTY_BOT} --pidfile {pidfile}"
    proc = run_cli("play", "peppa", "--seed", "30", "--games", "3", "--json", "--seat", bot, "--seat", PYTHON_BOT,
                   "--seat", BASH_BOT, "--seat", "random", "--record", str(record_path), check=True)
    summaries = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [s["seed"] for s in summaries] == [30, 31, 32]
    assert all(s["faults"] == [] and s["status"] == "complete" for s in summaries)
    assert len(pidfile.read_text().splitlines()) == 1, "the bot was started once for three matches"
    assert len(read_records(record_path)) == 3
    assert "3 verified, 0 failed" in run_cli("verify", str(record_path)).stdout


def test_a_bot_that_crashed_is_restarted_for_the_next_match(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    bot = f"{FAULTY_BOT} --pidfile {pidfile} --crash-at 3"
    proc = run_cli("play", "peppa", "--seed", "30", "--games", "2", "--json", "--seat", bot, "--seat", "random",
                   "--seat", "random", "--seat", "random", check=True)
    summaries = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [[f["kind"] for f in s["faults"]] for s in summaries] == [["crash"], ["crash"]]
    assert len(pidfile.read_text().splitlines()) == 2


@pytest.mark.parametrize("players, variant", [(4, "standard"), (3, "standard"), (2, "standard"), (4, "no_cementing"), (2, "thirty")])
def test_shipped_bots_play_whole_seep_matches_that_verify(players: int, variant: str, record_path: Path) -> None:
    bots = [f"{PYTHON_BOT} --seed 1", f"{BASH_BOT} --seed 2", f"{PYTHON_BOT} --seed 3", f"{BASH_BOT} --seed 4"]
    seats = [arg for bot in bots[:players] for arg in ("--seat", bot)]
    summary = run_json("play", "seep", "--variant", variant, "--seed", "12", *seats, "--record", str(record_path))
    assert summary["status"] == "complete" and summary["faults"] == []
    assert summary["winners"]
    assert summary["lower_is_better"] is False
    if players == 4:
        scores = [p["score"] for p in summary["players"]]
        assert scores[0] == scores[2] and scores[1] == scores[3], "partners share their side's score"
    proc = run_cli("verify", str(record_path))
    assert proc.returncode == 0, proc.stdout
    replay = run_cli("replay", str(record_path))
    assert "bids" in replay.stdout and "floor:" in replay.stdout


@pytest.mark.parametrize("players", [4, 5])
def test_shipped_bots_play_whole_pigugnin_matches_that_verify(players: int, record_path: Path) -> None:
    bots = [PYTHON_BOT, BASH_BOT, "random", f"{PYTHON_BOT} --seed 9", f"{BASH_BOT} --seed 5"]
    seats = [arg for bot in bots[:players] for arg in ("--seat", bot)]
    summary = run_json("play", "pigugnin", "--seed", "21", *seats, "--record", str(record_path))
    assert summary["status"] == "complete" and summary["faults"] == []
    assert summary["lower_is_better"] is True
    standings = {p["standing"] for p in summary["players"]}
    assert standings <= {"win", "lose", "draw", "annulled"}
    assert run_cli("verify", str(record_path)).returncode == 0
    replay = run_cli("replay", str(record_path)).stdout
    assert "pays" in replay and "deal score:" in replay


@pytest.mark.parametrize("players", [4, 3, 2])
def test_shipped_bots_play_whole_pepper_games_that_verify(players: int, record_path: Path) -> None:
    bots = [f"{PYTHON_BOT} --seed 3", f"{BASH_BOT} --seed 4", "random", f"{PYTHON_BOT} --seed 5"]
    seats = [arg for bot in bots[:players] for arg in ("--seat", bot)]
    summary = run_json("play", "pepper", "--seed", "8", "--max-deals", "60", *seats, "--record", str(record_path))
    assert summary["status"] == "complete" and summary["faults"] == []
    assert summary["winners"] and summary["lower_is_better"] is False
    record = read_records(record_path)[0]
    if players == 2:
        assert all(len(d["dead"]) == 8 for d in record["deals"])
    assert run_cli("verify", str(record_path)).returncode == 0
    assert "names" in run_cli("replay", str(record_path), "--seat", "0").stdout


def test_a_match_that_does_not_end_is_adjudicated_at_the_deal_limit_and_verifies(record_path: Path) -> None:
    summary = run_json("play", "peppa", "--seed", "3", "--max-deals", "2", "--record", str(record_path))
    assert summary["adjudicated"] is True and summary["deals"] == 2
    assert len(summary["losers"]) >= 2 and summary["winners"]
    assert run_cli("verify", str(record_path)).returncode == 0
    record = read_records(record_path)[0]
    record["settings"]["max_deals"] = 3
    edited = record_path.with_name("edited.jsonl")
    edited.write_text(json.dumps(record) + "\n")
    proc = run_cli("verify", str(edited))
    assert proc.returncode == 1 and "deal limit" in proc.stdout
