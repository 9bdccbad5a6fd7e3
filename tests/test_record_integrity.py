"""Records nobody can glue or forge: ``play --record`` repairs a torn last line instead of
gluing onto it; ``verify`` refuses forgeries that change the outcome (invented, erased or moved
faults, fallback moves swapped, aborts without a fault, loosely typed versions, duplicate keys);
and signed records (``keys new``, ``--sign-key``, ``verify --public-key``) cover what the rules
cannot prove. Every forgery is made from a real record of a real match with a faulty bot."""

from __future__ import annotations

import copy
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import ROOT, faulty, read_records, run_cli
from cardcli.games import registry
from cardcli.games.dealing import shuffled

pytest.importorskip("cryptography")

SEED = "29"
CRASHER = faulty("--crash-at", "3")


OTHERS = ("heuristic", "first", "heuristic")
"""The crashing bot's opponents. Not the built-in random player: it is seeded as the fallback
player is (docs/records.md), so a record claiming that such a seat failed to start is one the
rules cannot tell from the truth; only a signature can."""


def play(path: Path, *args: str, seed: str = SEED, seats: tuple[str, ...] = (CRASHER, *OTHERS),
         check: bool = True) -> subprocess.CompletedProcess[str]:
    seat_args = [a for s in seats for a in ("--seat", s)]
    proc = run_cli("play", "peppa", "--seed", seed, *seat_args, "--record", str(path), *args)
    if check:
        assert proc.returncode in (0, 1), proc.stderr
    return proc


def verify(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("verify", str(path), *args)


def write(path: Path, *records: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Real records: a match with a crashing bot (a fault and fallback moves), an aborted one,
    an adjudicated one, one with two bots crashing in the simultaneous pass and one with a bot
    that dies before its handshake; and a key pair with a signed record."""
    base = tmp_path_factory.mktemp("integrity")
    paths = {name: base / f"{name}.jsonl" for name in ("faulty", "aborted", "adjudicated", "pass", "start", "signed")}
    play(paths["faulty"])
    play(paths["aborted"], "--on-fault", "abort")
    play(paths["adjudicated"], "--max-deals", "2", seats=("random",) * 4)
    play(paths["pass"], seats=(faulty("--crash-at", "1"), "heuristic", faulty("--crash-at", "1"), "first"))
    play(paths["start"], seats=("random", faulty("--exit-at-start"), "random", "random"))
    keys = run_cli("keys", "new", str(base / "referee"))
    assert keys.returncode == 0, keys.stderr
    play(paths["signed"], "--sign-key", str(base / "referee.key"))
    return {"dir": base, **{name: read_records(path)[0] for name, path in paths.items()}, "paths": paths}


def outcome_with(record: dict[str, Any], forfeits: set[int]) -> dict[str, Any]:
    """The result the rules give this record's match with ``forfeits``: what a forger who
    knows the rules writes, so that only the faults and their moves can give it away."""
    state, _ = rebuild(record)
    return state.outcome(frozenset(forfeits)).to_json()


def legal_moves_at(record: dict[str, Any], deal: int, index: int) -> tuple[str, ...]:
    """The moves the rules offered the mover of ``deal``'s move ``index`` (deal from 1)."""
    _, offered = rebuild(record, (deal, index))
    assert offered is not None
    return offered


def rebuild(record: dict[str, Any], stop: tuple[int, int] | None = None) -> tuple[Any, tuple[str, ...] | None]:
    """The record's match played through the rules engine alone (no check of faults or
    result), to its end, or to move ``stop`` and the moves offered there."""
    setup = registry.resolve(record["game"], record["variant"], record["options"], len(record["seats"]),
                             record["seed"])
    state = setup.new_match()
    for number, recorded in enumerate(record["deals"], start=1):
        state.deal(shuffled(setup.seed, number - 1, setup.spec.deck()))
        for m, move in enumerate(recorded["moves"]):
            if (number, m) == stop:
                return state, tuple(next(d for d in state.decisions() if d.seat == move["seat"]).moves)
            state.apply(move["seat"], move["move"])
    if record.get("adjudicated"):
        state.adjudicate()
    return state, None


def fallback_places(record: dict[str, Any]) -> list[tuple[int, int]]:
    return [(d, m) for d, deal in enumerate(record["deals"], start=1)
            for m, move in enumerate(deal["moves"]) if move.get("by") == "fallback"]


# -- the honest records ----------------------------------------------------------------------


def test_the_records_are_what_the_forgeries_need(made: dict[str, Any]) -> None:
    faulty_record = made["faulty"]
    assert [f["seat"] for f in faulty_record["faults"]] == [0] and faulty_record["status"] == "complete"
    assert fallback_places(faulty_record)
    assert made["aborted"]["status"] == "aborted" and made["aborted"]["faults"]
    assert made["adjudicated"]["adjudicated"] is True
    assert sorted(f["seat"] for f in made["pass"]["faults"]) == [0, 2]
    assert made["start"]["faults"][0]["deal"] == 0


@pytest.mark.parametrize("name", ["faulty", "aborted", "adjudicated", "pass", "start", "signed"])
def test_honest_records_pass(made: dict[str, Any], name: str) -> None:
    proc = verify(made["paths"][name])
    assert proc.returncode == 0, proc.stdout
    assert "1 verified, 0 failed" in proc.stdout


# -- forgeries that change the outcome ---------------------------------------------------------


def invent_a_fault_for_the_winner(r: dict[str, Any]) -> None:
    """The winner 'crashed' in the last deal; everything else, result included, made to fit."""
    winner = r["result"]["winners"][0]
    last = len(r["deals"])
    move = next(m for m, mv in enumerate(r["deals"][-1]["moves"]) if mv["seat"] == winner)
    r["faults"].append({"seat": winner, "kind": "crash", "detail": "exited with status 3", "deal": last, "move": move})
    r["result"] = outcome_with(r, {0, winner})


def invent_a_fault_and_mark_the_moves(r: dict[str, Any]) -> None:
    """As above, and the winner's later moves marked as the fallback player's."""
    invent_a_fault_for_the_winner(r)
    fault = r["faults"][-1]
    for m, move in enumerate(r["deals"][-1]["moves"]):
        if move["seat"] == fault["seat"] and m >= fault["move"]:
            move["by"] = "fallback"


def invent_a_fault_at_the_start(r: dict[str, Any]) -> None:
    """The winner 'never started', and every move of it marked as the fallback player's."""
    winner = r["result"]["winners"][0]
    r["faults"].append({"seat": winner, "kind": "crash", "detail": "exited with status 0 (during the handshake)",
                        "deal": 0, "move": 0})
    for deal in r["deals"]:
        for move in deal["moves"]:
            if move["seat"] == winner:
                move["by"] = "fallback"
    r["result"] = outcome_with(r, {0, winner})


def invent_a_fault_after_the_last_move(r: dict[str, Any]) -> None:
    winner = r["result"]["winners"][0]
    r["faults"].append({"seat": winner, "kind": "timeout", "detail": "no answer in time",
                        "deal": len(r["deals"]), "move": len(r["deals"][-1]["moves"])})
    r["result"] = outcome_with(r, {0, winner})


def erase_the_fault_keep_its_marks(r: dict[str, Any]) -> None:
    r["faults"] = []
    r["result"] = outcome_with(r, set())


def move_the_fault_later(r: dict[str, Any]) -> None:
    """The fault put one deal later: the moves in between are still marked fallback."""
    r["faults"][0]["deal"] += 1
    r["faults"][0]["move"] = 0


def replace_a_fallback_move(r: dict[str, Any], which: int) -> None:
    places = [p for p in fallback_places(r) if len(legal_moves_at(r, *p)) > 1]
    deal, m = places[which]
    move = r["deals"][deal - 1]["moves"][m]
    move["move"] = next(token for token in legal_moves_at(r, deal, m) if token != move["move"])


def replace_the_first_fallback_move(r: dict[str, Any]) -> None:
    replace_a_fallback_move(r, 0)


def replace_the_last_fallback_move(r: dict[str, Any]) -> None:
    replace_a_fallback_move(r, -1)


def mark_a_move_of_another_seat_fallback(r: dict[str, Any]) -> None:
    move = next(mv for mv in r["deals"][-1]["moves"] if mv["seat"] != 0)
    move["by"] = "fallback"


def abort_without_a_fault(r: dict[str, Any]) -> None:
    r["faults"] = []


def abort_a_complete_match(r: dict[str, Any]) -> None:
    """A complete match (with its fault) claimed aborted, so that nobody wins."""
    r["status"], r["result"] = "aborted", None
    r["deals"] = r["deals"][:1]
    r["deals"][0]["moves"] = r["deals"][0]["moves"][:20]
    r["deals"][0]["points"] = r["deals"][0]["totals"] = None
    r["deals"][0]["notes"] = []


def continue_after_an_abort_fault(r: dict[str, Any]) -> None:
    """The aborting fault moved before the last move: the record goes on after it."""
    r["faults"][0]["move"] -= 1


@pytest.mark.parametrize(
    "source, forge, reason",
    [
        ("faulty", invent_a_fault_for_the_winner, "not marked so"),
        ("faulty", invent_a_fault_and_mark_the_moves, "the fallback player, seeded from the match, chooses"),
        ("faulty", invent_a_fault_at_the_start, "the fallback player, seeded from the match, chooses"),
        ("faulty", invent_a_fault_after_the_last_move, "the record has no such move"),
        ("faulty", erase_the_fault_keep_its_marks, "marked as the fallback player's, but seat 0 has no fault"),
        ("faulty", move_the_fault_later, "marked as the fallback player's, but seat 0 has not faulted yet"),
        ("faulty", replace_the_first_fallback_move, "the fallback player, seeded from the match, chooses"),
        ("faulty", replace_the_last_fallback_move, "the fallback player, seeded from the match, chooses"),
        ("pass", replace_the_first_fallback_move, "the fallback player, seeded from the match, chooses"),
        ("faulty", mark_a_move_of_another_seat_fallback, "marked as the fallback player's"),
        ("aborted", abort_without_a_fault, "aborted, but no fault stopped it"),
        ("faulty", abort_a_complete_match, "is not where the aborted match stops"),
        ("aborted", continue_after_an_abort_fault, "is not where the aborted match stops"),
    ],
)
def test_a_forgery_fails_verify_with_its_reason(made: dict[str, Any], tmp_path: Path, source: str,
                                                forge: Callable[[dict[str, Any]], None], reason: str) -> None:
    record = copy.deepcopy(made[source])
    forge(record)
    proc = verify(write(tmp_path / "forged.jsonl", made["adjudicated"], record))
    assert proc.returncode == 1
    assert "ok   " in proc.stdout.splitlines()[0]  # the honest record before it
    assert f"FAIL {tmp_path / 'forged.jsonl'}:2" in proc.stdout and reason in proc.stdout, proc.stdout


@pytest.mark.parametrize("written", ["1.0", "true", "1e0", '"1"'])
def test_a_loosely_typed_format_version_fails(made: dict[str, Any], tmp_path: Path, written: str) -> None:
    line = json.dumps(made["faulty"])
    assert '"format_version": 1,' in line
    path = tmp_path / "v.jsonl"
    path.write_text(line.replace('"format_version": 1,', f'"format_version": {written},') + "\n")
    proc = verify(path)
    assert proc.returncode == 1 and "format version" in proc.stdout and "is not supported" in proc.stdout


def test_a_duplicate_result_key_fails(made: dict[str, Any], tmp_path: Path) -> None:
    """A second ``result`` after the first: Python's reader would take the forged one."""
    record = made["faulty"]
    forged = dict(record["result"], winners=record["result"]["losers"], losers=record["result"]["winners"])
    line = json.dumps(record)
    path = tmp_path / "dup.jsonl"
    path.write_text(line[:-1] + ', "result": ' + json.dumps(forged) + "}\n")
    proc = verify(path)
    assert proc.returncode == 1 and "the key 'result' appears twice in one object" in proc.stdout


def test_a_duplicate_key_deep_inside_fails(made: dict[str, Any], tmp_path: Path) -> None:
    line = json.dumps(made["faulty"])
    path = tmp_path / "dup.jsonl"
    path.write_text(line.replace('{"seat": 1, "kind"', '{"seat": 1, "seat": 2, "kind"', 1) + "\n")
    assert path.read_text() != line + "\n"
    proc = verify(path)
    assert proc.returncode == 1 and "the key 'seat' appears twice" in proc.stdout


# -- a torn last line is repaired, never glued to -------------------------------------------------


def test_play_cuts_a_torn_last_line_and_verify_passes(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    play(path, seats=("random",) * 4)
    play(path, seed="30", seats=("random",) * 4)
    whole = path.read_bytes()
    first_end = whole.index(b"\n") + 1
    torn = whole[:-200]  # the second match cut short while it was written
    path.write_bytes(torn)
    assert verify(path).returncode == 1  # torn, as it stands
    proc = play(path, seed="31", seats=("random",) * 4)
    assert proc.returncode == 0
    assert f"{path}:2: cut off a torn last line ({len(torn) - first_end} bytes" in proc.stderr
    checked = verify(path)
    assert checked.returncode == 0, checked.stdout
    assert "2 verified, 0 failed" in checked.stdout
    assert [r["seed"] for r in read_records(path)] == [29, 31]


def test_a_whole_record_missing_only_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    play(path, seats=("random",) * 4)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    proc = play(path, seed="30", seats=("random",) * 4)
    assert f"{path}:1: the last record had no line end; ended it there" in proc.stderr
    checked = verify(path)
    assert checked.returncode == 0 and "2 verified, 0 failed" in checked.stdout


def test_a_killed_play_leaves_a_file_that_the_next_play_repairs(tmp_path: Path) -> None:
    """A referee killed by SIGKILL while it writes: here, the record's bytes as far as a write
    got, after a whole record; the next play repairs and appends."""
    path = tmp_path / "games.jsonl"
    play(path, seats=("random",) * 4)
    record = read_records(path)[0]
    with open(path, "ab") as f:
        f.write(json.dumps(dict(record, seed=77)).encode()[:1000])
    play(path, seed="30", seats=("random",) * 4)
    assert verify(path).returncode == 0
    assert [r["seed"] for r in read_records(path)] == [29, 30]


# -- signed records ---------------------------------------------------------------------------------


def test_keys_new_writes_a_private_key_only_its_owner_reads(made: dict[str, Any]) -> None:
    base = made["dir"]
    assert stat.S_IMODE(os.stat(base / "referee.key").st_mode) == 0o600
    assert (base / "referee.pub").read_text().startswith("-----BEGIN PUBLIC KEY-----")
    again = run_cli("keys", "new", str(base / "referee"))
    assert again.returncode == 2 and "already exists" in again.stderr and len(again.stderr.splitlines()) == 1


def test_a_signed_record_verifies_under_its_public_key(made: dict[str, Any]) -> None:
    assert made["signed"]["signature"]["alg"] == "ed25519"
    assert "PRIVATE" not in json.dumps(made["signed"])
    proc = verify(made["paths"]["signed"], "--public-key", str(made["dir"] / "referee.pub"))
    assert proc.returncode == 0 and "signature good" in proc.stdout


def test_a_one_byte_change_to_a_signed_record_fails_naming_it(made: dict[str, Any], tmp_path: Path) -> None:
    line = made["paths"]["signed"].read_text()
    assert '"name":"first"' in line
    path = tmp_path / "changed.jsonl"
    path.write_text(line + line.replace('"name":"first"', '"name":"firsT"', 1))
    proc = verify(path, "--public-key", str(made["dir"] / "referee.pub"))
    assert proc.returncode == 1
    assert f"ok   {path}:1" in proc.stdout
    assert f"FAIL {path}:2: the signature does not hold: the record was changed after it was signed" in proc.stdout
    assert verify(path).returncode == 0  # the rules alone cannot tell: a seat's name is not a rule


def test_an_erased_fault_and_its_marks_fail_under_the_signature(made: dict[str, Any], tmp_path: Path) -> None:
    """Erasing a fault together with every fallback mark leaves moves the rules accept as the
    seat's own; the signature is what shows it."""
    record = copy.deepcopy(made["signed"])
    assert record["faults"]
    record["faults"] = []
    for deal in record["deals"]:
        for move in deal["moves"]:
            move.pop("by", None)
    record["result"] = outcome_with(record, set())
    proc = verify(write(tmp_path / "erased.jsonl", record), "--public-key", str(made["dir"] / "referee.pub"))
    assert proc.returncode == 1 and "the signature does not hold" in proc.stdout


def test_a_record_signed_with_another_key_fails(made: dict[str, Any], tmp_path: Path) -> None:
    assert run_cli("keys", "new", str(tmp_path / "other")).returncode == 0
    path = tmp_path / "other.jsonl"
    play(path, "--sign-key", str(tmp_path / "other.key"), seats=("random",) * 4)
    proc = verify(path, "--public-key", str(made["dir"] / "referee.pub"))
    assert proc.returncode == 1 and f"FAIL {path}:1: the record is signed with another key" in proc.stdout


def test_an_unsigned_record_fails_under_a_public_key(made: dict[str, Any]) -> None:
    proc = verify(made["paths"]["faulty"], "--public-key", str(made["dir"] / "referee.pub"))
    assert proc.returncode == 1 and "the record is unsigned" in proc.stdout


def test_a_signed_tournament_verifies_under_its_public_key(made: dict[str, Any], tmp_path: Path) -> None:
    directory = tmp_path / "t"
    key = made["dir"] / "referee.key"
    proc = run_cli("tournament", "peppa", "--dir", str(directory), "--bot", "a=random", "--bot", "b=heuristic",
                   "--deal-sets", "2", "--seed", "5", "-j", "2", "--max-deals", "3", "--sign-key", str(key))
    assert proc.returncode == 0, proc.stderr
    lines = (directory / "records.jsonl").read_text().splitlines()
    assert len(lines) == 4  # 2 deal sets, each played in 2 rotations
    assert all(line.rstrip("}").rfind(',"tournament":') > line.find('"signature":') > 0 for line in lines)
    checked = verify(directory / "records.jsonl", "--public-key", str(made["dir"] / "referee.pub"))
    assert checked.returncode == 0 and "4 verified, 0 failed" in checked.stdout
    config = (directory / "config.json").read_text()
    assert json.loads(config)["sign_key"] == str(key.resolve())
    assert key.read_text().splitlines()[1] not in config
    resumed = run_cli("tournament", "--resume", str(directory), "--sign-key", str(tmp_path / "elsewhere.key"))
    assert resumed.returncode == 2 and "--resume continues" in resumed.stderr


@pytest.mark.parametrize("command", ["play", "tournament", "verify"])
def test_a_missing_key_file_is_one_line_and_exit_2(tmp_path: Path, command: str) -> None:
    missing = str(tmp_path / "nokey.key")
    if command == "play":
        proc = run_cli("play", "peppa", "--record", str(tmp_path / "r.jsonl"), "--sign-key", missing)
    elif command == "tournament":
        proc = run_cli("tournament", "peppa", "--dir", str(tmp_path / "t"), "--bot", "a=random", "--bot",
                       "b=random", "--sign-key", missing)
        assert not (tmp_path / "t" / "config.json").exists()
    else:
        (tmp_path / "r.jsonl").write_text("")
        proc = run_cli("verify", str(tmp_path / "r.jsonl"), "--public-key", missing)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"cardcli: error: {'--public-key' if command == 'verify' else '--sign-key'} "
                                        f"{tmp_path / 'nokey.key' if command != 'tournament' else Path(missing).resolve()}"
                                        ": no such file"]


def test_signing_without_the_cryptography_package_says_what_to_install(made: dict[str, Any], tmp_path: Path) -> None:
    script = ("import sys; sys.modules['cryptography'] = None; from cardcli.cli import main; "
              "sys.argv = ['cardcli', *sys.argv[1:]]; main()")
    for args in (["play", "peppa", "--record", str(tmp_path / "r.jsonl"), "--sign-key", str(made["dir"] / "referee.key")],
                 ["verify", str(made["paths"]["signed"]), "--public-key", str(made["dir"] / "referee.pub")],
                 ["keys", "new", str(tmp_path / "k")]):
        proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
        assert proc.returncode == 2
        assert proc.stderr.splitlines() == [
            "cardcli: error: signed records need the 'cryptography' package: pip install 'cardcli[sign]'"]
    plain = subprocess.run([sys.executable, "-c", script, "verify", str(made["paths"]["signed"])],
                           capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           timeout=60)
    assert plain.returncode == 0 and "not checked" in plain.stdout  # the core works without it
