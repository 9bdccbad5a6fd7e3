"""Crafted record files: every reader (``verify``, ``replay``, ``watch``, a tournament's resume
and table) refuses them with one line naming the file and line, within bounded time and
memory, and never with a traceback; whatever ``verify`` accepts, ``replay`` renders.

Each attack is a real file on disk given to the real command line. The many mutated records
go through the command line's own entry point in one process per batch (a fresh interpreter
per command would take minutes), with stdout and stderr as strict UTF-8 streams, as a
terminal's would be.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import ROOT, read_records, run_cli
from mutation import mutate

READERS = (("verify",), ("replay",), ("watch", "--once"))


def one_line_error(proc: subprocess.CompletedProcess[str], code: int, *fragments: str) -> None:
    """The failure the house allows: the exit status, one line on stderr, no traceback."""
    assert proc.returncode == code, (proc.returncode, proc.stdout[-500:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardcli: error: "), proc.stderr[-2000:]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def verify_fails(proc: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """``verify`` reports a bad record as a failed check: a FAIL line, exit status 1."""
    assert proc.returncode == 1, (proc.stdout[-500:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr and proc.stderr == ""
    fail = [line for line in proc.stdout.splitlines() if line.startswith("FAIL ")]
    assert fail, proc.stdout
    for fragment in fragments:
        assert fragment in fail[0], fail[0]


def every_reader_refuses(path: Path, *fragments: str, extra: tuple[str, ...] = ()) -> None:
    verify_fails(run_cli("verify", str(path), *extra), f"{path}:1", *fragments)
    for command in READERS[1:]:
        one_line_error(run_cli(*command, str(path), *extra), 2, f"{path}:1", *fragments)


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Real records of every game, small enough to replay many times over."""
    folder = tmp_path_factory.mktemp("honest")
    found = []
    for game, players, seed, faults in (("peppa", "4", "3", False), ("pigugnin", "5", "4", False),
                                        ("seep", "2", "5", False), ("pepper", "3", "6", True)):
        path = folder / f"{game}.jsonl"
        args = ["play", game, "--players", players, "--seed", seed, "--record", str(path), "--max-deals", "12"]
        if faults:  # a fault, so the mutations reach the faults list too
            args += ["--seat", f"{sys.executable} {ROOT / 'tests/bots/faulty_bot.py'} --illegal-at 3",
                     "--seat", "random", "--seat", "random"]
        run_cli(*args, check=True)
        found.extend(read_records(path))
    assert any(r["faults"] for r in found)
    return found


def write_line(path: Path, text: str | bytes) -> Path:
    path.write_bytes((text if isinstance(text, bytes) else text.encode("utf-8")) + b"\n")
    return path


# -- the attacks, each through the real command line ---------------------------------------


def test_deep_nesting_fails_fast_without_parsing(tmp_path: Path) -> None:
    path = write_line(tmp_path / "deep.jsonl", "[" * 200_000 + "]" * 200_000)
    started = time.monotonic()
    every_reader_refuses(path, "nested over 16 deep")
    assert time.monotonic() - started < 20


def test_an_integer_of_5000_digits_is_refused(honest: list[dict[str, Any]], tmp_path: Path) -> None:
    text = json.dumps(honest[0]).replace('"seed": ', '"seed": ' + "9" * 5000 + ', "was": ', 1)
    every_reader_refuses(write_line(tmp_path / "digits.jsonl", text), "more than 4300 digits")


def test_dev_zero_fails_at_the_line_limit() -> None:
    started = time.monotonic()
    verify_fails(run_cli("verify", "/dev/zero"), "/dev/zero:1: a line longer than 16777216 bytes")
    one_line_error(run_cli("replay", "/dev/zero"), 2, "/dev/zero:1", "longer than")
    one_line_error(run_cli("watch", "--once", "/dev/zero"), 2, "/dev/zero:1", "longer than")
    assert time.monotonic() - started < 20


def test_a_long_line_needs_the_limit_raised(honest: list[dict[str, Any]], tmp_path: Path) -> None:
    """A 3 MB line (the same attack as 300 MB, scaled down with the limit): refused under a
    1 MB limit; the record itself is sound, and verifies once the limit is raised."""
    record = dict(honest[0], padding="x" * 3_000_000)
    path = write_line(tmp_path / "long.jsonl", json.dumps(record))
    every_reader_refuses(path, "a line longer than 1000000 bytes", "--max-record-bytes",
                         extra=("--max-record-bytes", "1000000"))
    assert run_cli("verify", str(path), "--max-record-bytes", "4000000").returncode == 0


def test_many_empty_arrays_are_bounded_by_the_limit(tmp_path: Path) -> None:
    """60 MB of ``[],`` took 1.5 GB: scaled down, refused at the limit or as not a record."""
    path = write_line(tmp_path / "arrays.jsonl", "[" + "[]," * 400_000 + "0]")
    every_reader_refuses(path, "longer than 1000000 bytes", extra=("--max-record-bytes", "1000000"))
    every_reader_refuses(path, "not a cardcli record", extra=("--max-record-bytes", "2000000"))


def test_a_lone_surrogate_in_a_seat_name_is_refused(honest: list[dict[str, Any]], tmp_path: Path) -> None:
    record = json.loads(json.dumps(honest[0]))
    record["seats"][1]["name"] = "bot\ud800"
    every_reader_refuses(write_line(tmp_path / "lone.jsonl", json.dumps(record)), "lone UTF-16 surrogate")
    record["seats"][1]["name"] = "bot \U0001F0A1"  # a pair, escaped: a character
    path = write_line(tmp_path / "pair.jsonl", json.dumps(record, ensure_ascii=True))
    assert run_cli("verify", str(path)).returncode == 0
    assert "bot" in run_cli("replay", str(path), check=True).stdout


# -- wrong types in every field -------------------------------------------------------------


def _set(*keys: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(record: dict[str, Any]) -> None:
        target = record
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return edit


def _drop(*keys: Any) -> Callable[[dict[str, Any]], None]:
    def edit(record: dict[str, Any]) -> None:
        target = record
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]
    return edit


WRONG = [
    (_set("seats", 0, value="random"), "seat 0 must be an object"),
    (_set("seats", value=[]), "'seats' must be a list of 1 to 16 seats"),
    (_set("seats", 1, "name", value=7), "seat 1: 'name' must be a text"),
    (_set("seats", 1, "name", value="n" * 200_000), "seat 1: 'name' must be a text of at most 131072"),
    (_set("seats", 2, "command", value="python3 bot.py"), "seat 2: 'command' must be null or a list"),
    (_set("seats", 0, "bot", "options", value=[["a"]]), "seat 0: 'bot.options'"),
    (_set("faults", value=[{"seat": "0", "kind": "crash", "detail": "", "deal": 1, "move": 0}]), "fault 1: 'seat'"),
    (_set("faults", value=[{"seat": 9, "kind": "crash", "detail": "", "deal": 1, "move": 0}]), "fault 1: 'seat'"),
    (_set("faults", value=[{"seat": 0, "kind": "crash", "detail": "", "deal": [1], "move": 0}]), "fault 1: 'deal'"),
    (_set("faults", value=[{"seat": 0, "kind": None, "detail": "", "deal": 1, "move": 0}]), "fault 1: 'kind'"),
    (_set("faults", value={"0": "crash"}), "'faults' must be a list"),
    (_set("deals", 0, "number", value=True), "deal 1: 'number'"),
    (_set("deals", 0, "dealer", value=99), "deal 1: 'dealer'"),
    (_set("deals", 0, "hands", value=[[1, 2]]), "deal 1: 'hands'"),
    (_set("deals", 0, "moves", 0, "seat", value="0"), "deal 1: move 1: 'seat'"),
    (_set("deals", 0, "moves", 1, "move", value=["QS"]), "deal 1: move 2: 'kind' and 'move'"),
    (_set("deals", 0, "moves", 2, "ms", value="fast"), "deal 1: move 3: 'ms'"),
    (_set("deals", 0, "moves", 0, value=None), "deal 1: move 1 must be an object"),
    (_set("deals", 0, "points", value=[1, 2]), "deal 1: 'points'"),
    (_set("deals", 0, "notes", value="void"), "deal 1: 'notes'"),
    (_set("result", "winners", value=[7]), "'result.winners'"),
    (_set("result", "scores", value=[1]), "'result.scores'"),
    (_set("result", "annulled", value="no"), "'result.annulled'"),
    (_set("result", value=[]), "'result' must be null or an object"),
    (_drop("result"), "the record has no 'result'"),
    (_set("settings", "max_deals", value=True), "'settings.max_deals'"),
    (_set("settings", value=None), "'settings' must be an object"),
    (_set("options", "first_dealer", value={"seat": 1}), "option 'first_dealer'"),
    (_set("options", value=[]), "'options' must be an object"),
    (_set("seed", value=-1), "'seed'"),
    (_set("seed", value=2.0), "'seed'"),
    (_set("status", value="won"), "'status'"),
    (_set("game", value=None), "'game'"),
    (_set("tournament", value={"index": 0, "seating": [0]}), "'tournament.seating'"),
    (_set("tournament", value={"index": -1, "seating": [0, 1, 0, 1]}), "'tournament.index'"),
    (_set("info", value={"0": "text"}), "'info'"),
]


def test_wrong_types_in_every_field_are_one_line_errors(honest: list[dict[str, Any]], tmp_path: Path) -> None:
    cases: list[list[str]] = []
    expected: list[str] = []
    for k, (edit, message) in enumerate(WRONG):
        record = json.loads(json.dumps(honest[0]))
        edit(record)
        path = write_line(tmp_path / f"wrong{k}.jsonl", json.dumps(record))
        for command in READERS:
            cases.append([*command, str(path)])
            expected.append(message)
    for (args, code, out, err), message in zip(run_many(cases), expected):
        assert "Traceback" not in err, (args, err)
        if args[0] == "verify":
            assert code == 1 and f"FAIL {args[-1]}:1: malformed record: {message}" in out, (args, out)
        else:
            assert code == 2 and err.count("\n") == 1, (args, err)
            assert f"{args[-1]}:1: malformed record: {message}" in err, (args, err)


# -- seeded mutations -------------------------------------------------------------------------

def mutated_line(record: dict[str, Any], rng: random.Random) -> bytes:
    changed = mutate(record, rng)
    for _ in range(rng.randrange(3)):
        changed = mutate(changed, rng)
    line = json.dumps(changed, ensure_ascii=rng.random() < 0.5).encode("utf-8")
    if rng.random() < 0.1:  # truncated (and the line ended, so it is not torn)
        line = line[: rng.randrange(len(line))]
    return line


def test_300_mutated_records_never_crash_a_reader(honest: list[dict[str, Any]], tmp_path: Path) -> None:
    rng = random.Random(14)
    paths = [write_line(tmp_path / f"m{k}.jsonl", mutated_line(rng.choice(honest), rng)) for k in range(300)]
    outcomes: dict[str, dict[str, tuple[int, str, str]]] = {}
    for args, code, out, err in run_many([[*command, str(p)] for p in paths for command in READERS]):
        outcomes.setdefault(args[-1], {})[args[0]] = (code, out, err)
    accepted = 0
    for path in paths:
        got = outcomes[str(path)]
        for command, (code, _out, err) in got.items():
            assert "Traceback" not in err, (command, path.read_text()[:300], err)
            if command == "verify":
                assert code in (0, 1) and err == "", (code, err)
            elif code != 0:
                assert code in (1, 2), (command, code, err)
                assert err.count("\n") == 1 and err.startswith("cardcli: error: "), (command, err)
        if got["verify"][0] == 0:
            accepted += 1
            replayed = got["replay"]
            assert replayed[0] == 0 and ("final:" in replayed[1] or "aborted" in replayed[1]), replayed
            assert got["watch"][0] == 0, got["watch"]
        else:
            assert f"FAIL {path}:1" in got["verify"][1]
            assert got["replay"][0] in (1, 2)
    assert 0 < accepted < 300  # both sides are reached


# -- a tournament's records -----------------------------------------------------------------


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tournament") / "t"
    run_cli("tournament", "pigugnin", "--bot", "a=random", "--bot", "b=first", "--deal-sets", "2",
            "--max-deals", "3", "--dir", str(directory), "-j", "1", check=True)
    assert len(read_records(directory / "records.jsonl")) == 4
    return directory


def _copy(tournament: Path, tmp_path: Path, edit: Callable[[list[bytes]], bytes]) -> Path:
    directory = tmp_path / "copy"
    shutil.copytree(tournament, directory)
    records = directory / "records.jsonl"
    records.write_bytes(edit(records.read_bytes().splitlines(keepends=True)))
    return directory


def _retyped_seat_name(lines: list[bytes]) -> bytes:
    record = json.loads(lines[2])
    record["seats"][0]["name"] = ["a"]
    return b"".join([*lines[:2], json.dumps(record, separators=(",", ":")).encode() + b"\n", *lines[3:]])


@pytest.mark.parametrize(
    "edit, line, message",
    [
        (lambda lines: b"".join([lines[0], b"hello\n", *lines[2:]]), 2, "no schedule index"),
        (lambda lines: b"".join([lines[0], lines[1].replace(b'"seats":[', b'"seats":[[', 1), *lines[2:]]), 2,
         "not a JSON record"),
        (_retyped_seat_name, 3, "seat 0: 'name' must be a text"),
        (lambda lines: b"".join([*lines[:3], lines[3][:-3] + b"[" * 50_000 + b"}}\n"]), 4, "no schedule index"),
    ],
    ids=["garbage", "broken-json", "wrong-type", "deep-tag"],
)
def test_a_corrupted_tournament_line_is_named(tournament: Path, tmp_path: Path, edit: Callable[[list[bytes]], bytes],
                                              line: int, message: str) -> None:
    directory = _copy(tournament, tmp_path, edit)
    for args in (("watch", "--once", str(directory)), ("tournament", "--resume", str(directory), "-j", "1")):
        proc = run_cli(*args)
        one_line_error(proc, 2, f"records.jsonl:{line}:")
        assert message in proc.stderr or "not a JSON record" in proc.stderr, proc.stderr


def test_a_torn_last_tournament_line_is_cut_and_played_again(tournament: Path, tmp_path: Path) -> None:
    directory = _copy(tournament, tmp_path, lambda lines: b"".join([*lines[:3], lines[3][:200]]))
    shown = run_cli("watch", "--once", str(directory), check=True).stdout.splitlines()
    assert sum(line.startswith("game ") for line in shown) == 3
    proc = run_cli("tournament", "--resume", str(directory), "-j", "1", check=True)
    assert "4 matches" in proc.stdout
    assert len(read_records(directory / "records.jsonl")) == 4


def test_a_damaged_tournament_configuration_is_one_line(tournament: Path, tmp_path: Path) -> None:
    directory = tmp_path / "copy"
    shutil.copytree(tournament, directory)
    config = json.loads((directory / "config.json").read_text())
    config["entrants"] = [["a"], ["b", "first"]]
    (directory / "config.json").write_text(json.dumps(config))
    for args in (("watch", "--once", str(directory)), ("tournament", "--resume", str(directory))):
        one_line_error(run_cli(*args), 2, "config.json: not a tournament configuration: 'entrants'")
    (directory / "config.json").write_text("[" * 100_000)
    one_line_error(run_cli("tournament", "--resume", str(directory)), 2, "config.json: not JSON")


# -- many commands in one process -----------------------------------------------------------

DRIVER = r"""
import io, json, sys, traceback
from cardcli.cli import cli

results = []
real_out, real_err = sys.stdout, sys.stderr
for args in json.load(sys.stdin):
    out, err = io.BytesIO(), io.BytesIO()
    text_out = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    text_err = io.TextIOWrapper(err, encoding="utf-8", errors="strict", write_through=True)
    sys.stdout, sys.stderr = text_out, text_err
    try:
        cli.main(args)
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        err.write(traceback.format_exc().encode("utf-8", "backslashreplace"))
        code = -1
    finally:
        sys.stdout, sys.stderr = real_out, real_err
    results.append([args, code, out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace")])
json.dump(results, real_out)
"""


def run_many(cases: list[list[str]]) -> list[tuple[list[str], int, str, str]]:
    """Run ``cardcli ARGS`` for each case through the command line's entry point, all in one
    Python process: ``(args, exit status, stdout, stderr)`` each, a traceback in stderr if
    anything escaped the command."""
    proc = subprocess.run([sys.executable, "-c", DRIVER], input=json.dumps(cases), capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [tuple(r) for r in json.loads(proc.stdout)]  # type: ignore[misc]
