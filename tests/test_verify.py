"""``verify`` accepts an honest record and rejects every edited one, naming where it differs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import PYTHON_BOT, read_records, run_cli


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("honest") / "r.jsonl"
    run_cli("play", "peppa", "--seed", "21", "--record", str(path), check=True)
    return read_records(path)[0]


def write(path: Path, records: list[dict[str, Any]], tail: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail)
    return path


def swap_two_moves(r: dict[str, Any]) -> None:
    moves = r["deals"][0]["moves"]
    moves[10], moves[11] = moves[11], moves[10]


def change_a_played_card(r: dict[str, Any]) -> None:
    move = r["deals"][1]["moves"][20]
    hand_cards = {c for h in r["deals"][1]["hands"] for c in h}
    move["move"] = next(c for c in sorted(hand_cards) if c != move["move"])


def drop_last_deal(r: dict[str, Any]) -> None:
    r["deals"].pop()


def drop_last_move(r: dict[str, Any]) -> None:
    r["deals"][-1]["moves"].pop()


def edit_a_score(r: dict[str, Any]) -> None:
    r["deals"][0]["points"][0] += 1


def edit_the_winners(r: dict[str, Any]) -> None:
    r["result"]["winners"], r["result"]["losers"] = r["result"]["losers"], r["result"]["winners"]


def edit_a_hand(r: dict[str, Any]) -> None:
    hands = r["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def change_the_seed(r: dict[str, Any]) -> None:
    r["seed"] += 1


def change_an_option(r: dict[str, Any]) -> None:
    r["options"]["end_threshold"] = 1000


def lower_the_deal_limit(r: dict[str, Any]) -> None:
    """A record that deals more than its own limit lets the referee have dealt: one the
    referee never writes."""
    r["settings"]["max_deals"] = 2


@pytest.mark.parametrize(
    "tamper, expected",
    [
        (swap_two_moves, "deal 1, move"),
        (change_a_played_card, "deal 2, move 21"),
        (drop_last_deal, "the record ends before the match does"),
        (drop_last_move, "deal"),
        (edit_a_score, "deal 1: recorded points"),
        (edit_the_winners, "recorded result"),
        (edit_a_hand, "deal 1: the dealt hands"),
        (change_the_seed, ""),
        (change_an_option, ""),
        (lower_the_deal_limit, "deal 3: the record deals past its deal limit (2)"),
    ],
)
def test_an_edited_record_fails_and_names_where(tamper: Callable[[dict[str, Any]], None], expected: str,
                                                honest: dict[str, Any], tmp_path: Path) -> None:
    record = json.loads(json.dumps(honest))
    tamper(record)
    path = write(tmp_path / "edited.jsonl", [honest, record])
    proc = run_cli("verify", str(path))
    assert proc.returncode == 1, proc.stdout
    assert f"ok   {path}:1" in proc.stdout
    assert f"FAIL {path}:2" in proc.stdout
    assert expected in proc.stdout
    assert "1 verified, 1 failed" in proc.stdout


def test_an_honest_record_verifies(honest: dict[str, Any], tmp_path: Path) -> None:
    proc = run_cli("verify", str(write(tmp_path / "ok.jsonl", [honest])), "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["ok"] is True


@pytest.mark.parametrize(
    "tail, expected",
    [
        ('{"format": "cardcli-record", "format_ver', "torn"),
        ("this is not json\n", "not a JSON record"),
        ('{"format": "cardcli-record", "format_version": 99}\n', "format version 99 is not supported"),
        ('{"hello": 1}\n', "not a cardcli record"),
    ],
)
def test_a_torn_or_corrupt_line_fails_verification_clearly(tail: str, expected: str, honest: dict[str, Any],
                                                           tmp_path: Path) -> None:
    path = write(tmp_path / "bad.jsonl", [honest], tail)
    proc = run_cli("verify", str(path))
    assert proc.returncode == 1
    assert expected in proc.stdout
    assert "Traceback" not in proc.stderr


def test_a_record_of_an_unknown_game_fails(honest: dict[str, Any], tmp_path: Path) -> None:
    record = dict(honest, game="chess")
    proc = run_cli("verify", str(write(tmp_path / "x.jsonl", [record])))
    assert proc.returncode == 1 and "unknown game 'chess'" in proc.stdout


def test_replay_of_a_corrupt_file_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_bytes(b"\x00\xff garbage\n")
    proc = run_cli("replay", str(path))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "not a JSON record" in proc.stderr


@pytest.fixture(scope="module")
def seep_honest(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("seep") / "r.jsonl"
    run_cli("play", "seep", "--seed", "7", "--record", str(path), check=True)
    return read_records(path)[0]


def _first_move(record: dict[str, Any], test: Callable[[str], bool]) -> dict[str, Any]:
    return next(m for d in record["deals"] for m in d["moves"] if test(m["move"]))


def seep_capture_not_maximal(record: dict[str, Any]) -> None:
    move = _first_move(record, lambda t: t.startswith("take:") and t.count(",") >= 1 and "h" not in t.split(":")[2])
    move["move"] = move["move"].rsplit(",", 1)[0]


def seep_house_above_13(record: dict[str, Any]) -> None:
    move = _first_move(record, lambda t: t.startswith("build:"))
    move["move"] = "build:14:" + move["move"].split(":", 2)[2]


def seep_edit_the_floor(record: dict[str, Any]) -> None:
    record["deals"][0]["floor"][0], record["deals"][0]["hands"][0][0] = (
        record["deals"][0]["hands"][0][0], record["deals"][0]["floor"][0])


@pytest.mark.parametrize(
    "tamper, expected",
    [
        (seep_capture_not_maximal, "illegal move 'take:"),
        (seep_house_above_13, "illegal move 'build:14:"),
        (seep_edit_the_floor, "the dealt"),
    ],
)
def test_an_edited_seep_record_fails(tamper: Callable[[dict[str, Any]], None], expected: str,
                                     seep_honest: dict[str, Any], tmp_path: Path) -> None:
    record = json.loads(json.dumps(seep_honest))
    tamper(record)
    proc = run_cli("verify", str(write(tmp_path / "edited.jsonl", [seep_honest, record])))
    assert proc.returncode == 1, proc.stdout
    assert expected in proc.stdout and "1 verified, 1 failed" in proc.stdout


def test_an_edited_pigugnin_busca_fails(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    run_cli("play", "pigugnin", "--seed", "3", "--record", str(path), check=True)
    honest = read_records(path)[0]
    record = json.loads(json.dumps(honest))
    record["deals"][0]["points"][0] += 1
    record["deals"][0]["notes"] = []
    proc = run_cli("verify", str(write(tmp_path / "edited.jsonl", [honest, record])))
    assert proc.returncode == 1 and "deal 1: recorded points" in proc.stdout


def test_verify_and_replay_take_a_tournament_directory_and_name_its_entrants(tmp_path: Path) -> None:
    """``verify`` takes a tournament directory as ``replay`` and ``watch`` do, and the text replay
    names each seat by its entrant, as the table does, with the bot's own name beside it."""
    directory = tmp_path / "t"
    proc = run_cli("tournament", "peppa", "--bot", f"mine={PYTHON_BOT} --name ruby-ducker", "--bot", "r=random",
                   "--deal-sets", "1", "--max-deals", "1", "--seed", "4", "--dir", str(directory), "--sandbox", "off")
    assert proc.returncode == 0, proc.stderr
    verified = run_cli("verify", str(directory))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"{directory / 'records.jsonl'}:1: peppa" in verified.stdout and "0 failed" in verified.stdout
    replayed = run_cli("replay", str(directory), "--game", "1")
    assert replayed.returncode == 0, replayed.stderr
    seats = next(line for line in replayed.stdout.splitlines() if line.startswith("seats: "))
    assert "mine (bot ruby-ducker)" in seats and ":r" in seats and "ruby-ducker," not in seats.replace("(bot ruby-ducker)", "")
    final = next(line for line in replayed.stdout.splitlines() if line.startswith("final: "))
    assert "mine" in final and "ruby-ducker" not in final
    missing = run_cli("verify", str(tmp_path))
    assert missing.returncode == 2 and "without a tournament's records.jsonl" in missing.stderr
