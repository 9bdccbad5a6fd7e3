"""``docs/record.schema.json``, the published JSON Schema of a record (format version 1): the
records cardcli writes match it (every game, variant and player count; signed, ``--keep-info``,
tournament, aborted and faulty records), and it agrees with cardcli's readers (``records.decode``:
the format fields, then ``cardcli/records/shape.py``): what they accept, the schema accepts; what
they refuse and a schema can say (types, enums, required fields, a closed object, bounds), the
schema refuses. The checks the schema leaves to the readers are listed here too.

Beyond these records, every record cardcli writes while the suite runs, in the suite's process and
in the cardcli processes it starts, is checked against the schema (``tests/record_check/``); the
last tests here show that the check sees every line written, in every process, and names the
process of a record that does not match."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import jsonschema
import pytest

from conftest import PYTHON_BOT, ROOT, faulty, read_records, run_cli
from record_check import record_schema_check
from cardcli.records import io as records
from cardcli.records import shape as record_shape
from cardcli.games import registry
from cardcli.referee import MatchInterrupted, Settings, play_match
from cardcli.seats.base import FaultKind
from cardcli.seats.builtin import InProcessSeat, first_seat, random_seat, scripted_seat

SCHEMA_PATH = ROOT / "docs/record.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SUITE_CHECK = record_schema_check.Checker(SCHEMA_PATH)
"""The check the suite makes of every record written (the schema without its annotations)."""
CARD = re.compile(r"\A[2-9TJQKA][CDHS]\Z")


def refusal(record: Any) -> str | None:
    """The schema's first objection to ``record``, or None (and the suite's check agrees)."""
    error = jsonschema.exceptions.best_match(VALIDATOR.iter_errors(record))
    assert (error is None) == (SUITE_CHECK.refusal(record) is None)
    return None if error is None else f"{error.json_path}: {error.message}"


def reader_refusal(record: Any) -> str | None:
    """Why cardcli's readers refuse ``record`` as a line of a file (the format fields, then
    the shape check, :func:`cardcli.records.shape.problem`), or None."""
    try:
        records.decode(json.dumps(record, ensure_ascii=False).encode("utf-8"))
    except records.LineError as err:
        return str(err)
    return None


def matches(record: dict[str, Any]) -> None:
    """The record matches the schema and passes the readers' check."""
    assert refusal(record) is None, refusal(record)
    assert reader_refusal(record) is None, reader_refusal(record)


def written_as_documented(record: dict[str, Any]) -> None:
    """What the schema leaves open, as cardcli writes it today: every kind and name among the
    values the schema lists, cards as tokens, what each game deals, one entry per seat."""
    props = SCHEMA["properties"]
    seats = len(record["seats"])
    assert record["game"] in props["game"]["examples"]
    assert record["variant"] in props["variant"]["examples"]
    assert {s["kind"] for s in record["seats"]} <= set(SCHEMA["$defs"]["seat"]["properties"]["kind"]["examples"])
    assert {f["kind"] for f in record["faults"]} <= set(SCHEMA["$defs"]["fault"]["properties"]["kind"]["examples"])
    move_kinds = SCHEMA["$defs"]["deal"]["properties"]["moves"]["items"]["properties"]["kind"]["examples"]
    for deal in record["deals"]:
        facts = {"hands"} | ({"floor"} if record["game"] == "seep" else set())
        facts |= {"dead"} if record["game"] == "pepper" and seats == 2 else set()
        assert facts <= set(deal) and not ({"floor", "dead"} - facts) & set(deal), deal.keys()
        assert len(deal["hands"]) == seats
        assert all(CARD.match(c) for hand in deal["hands"] for c in hand)
        assert all(CARD.match(c) for c in deal.get("floor", []) + deal.get("dead", []))
        assert "floor" not in deal or len(deal["floor"]) == 4
        assert all(m["kind"] in move_kinds and 0 <= m["seat"] < seats for m in deal["moves"])
        assert 0 <= deal["dealer"] < seats
        for key in ("points", "totals"):
            assert deal[key] is None or len(deal[key]) == seats
    if record["result"] is not None:
        assert len(record["result"]["scores"]) == seats


# -- the schema itself ----------------------------------------------------------------------


def test_the_schema_is_a_draft_2020_12_schema_that_says_what_each_field_means() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] and SCHEMA["title"] and SCHEMA["description"]
    undescribed = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    undescribed.append(f"{where}/{name}")
            for key, sub in node.items():
                if f"{where}/{key}" != "#/properties/seats/prefixItems":  # seat N's number, told in $defs/seat
                    walk(sub, f"{where}/{key}")
        elif isinstance(node, list):
            for k, sub in enumerate(node):
                walk(sub, f"{where}/{k}")

    walk(SCHEMA, "#")
    assert not undescribed, undescribed


def test_the_values_the_schema_lists_are_the_ones_cardcli_knows() -> None:
    props, defs = SCHEMA["properties"], SCHEMA["$defs"]
    assert props["game"]["examples"] == list(registry.MODULES)  # cardcli's own; a plugin's game is not listed
    assert set(props["variant"]["examples"]) == {v.name for g in registry.MODULES for v in registry.get(g).variants}
    assert defs["fault"]["properties"]["kind"]["examples"] == [kind.value for kind in FaultKind]
    assert props["format"]["const"] == records.FORMAT
    assert props["format_version"]["const"] == records.FORMAT_VERSION
    assert props["status"]["enum"] == list(record_shape._STATUSES)
    assert defs["deal"]["properties"]["moves"]["items"]["properties"]["by"]["enum"] == list(record_shape._BY)
    assert set(SCHEMA["required"]) == {"format", "format_version", *record_shape.REQUIRED}
    assert props["seats"]["maxItems"] == record_shape.MAX_SEATS
    assert defs["text"]["maxLength"] == record_shape.MAX_TEXT
    assert defs["long_text"]["maxLength"] == record_shape.MAX_COMMAND_TEXT


# -- records cardcli writes ------------------------------------------------------------------

EVERY_SETUP = [(game, variant.name, players) for game, spec in registry.GAMES.items()
               for variant in spec.variants for players in sorted(spec.player_counts)]


@pytest.mark.parametrize("game, variant, players", EVERY_SETUP)
def test_a_record_of_every_game_variant_and_player_count_matches(game: str, variant: str, players: int) -> None:
    setup = registry.resolve(game, variant, {}, players, 11)
    seats = [random_seat(f"r{s}", f"11/{s}") for s in range(players - 1)] + [first_seat("first")]
    record = play_match(setup, seats, Settings(max_deals=3)).record
    matches(record)
    if game in registry.MODULES:  # the schema documents the values of cardcli's own games
        written_as_documented(record)
    assert records.decode(records.dump(record).encode()) == record


def test_a_scripted_seat_that_runs_out_of_moves_makes_a_faulty_record_that_matches() -> None:
    setup = registry.resolve("peppa", None, {}, 4, 3)
    seats = [scripted_seat("script", []), *(random_seat(f"r{s}", f"3/{s}") for s in range(1, 4))]
    complete = play_match(setup, seats, Settings(max_deals=1)).record
    seats = [scripted_seat("script", []), *(random_seat(f"r{s}", f"3/{s}") for s in range(1, 4))]
    aborted = play_match(setup, seats, Settings(max_deals=1, on_fault="abort")).record
    assert complete["faults"] and any(m.get("by") == "fallback" for m in complete["deals"][0]["moves"])
    assert aborted["status"] == "aborted" and aborted["result"] is None and aborted["faults"]
    for record in (complete, aborted):
        matches(record)
        written_as_documented(record)


def test_records_written_by_cardcli_play_match(tmp_path: Path) -> None:
    """Bot programs, info lines kept, faults, fallback moves and an abort, as ``play --record``
    writes them."""
    path = tmp_path / "games.jsonl"
    seats = ["--seat", PYTHON_BOT, "--seat", faulty("--chatty"), "--seat", "heuristic", "--seat", "random"]
    run_cli("play", "peppa", "--seed", "5", *seats, "--keep-info", "--max-deals", "2", "--record", str(path),
            check=True)
    crashing = ["--seat", faulty("--illegal-at", "3"), "--seat", "first", "--seat", "random"]
    run_cli("play", "seep", "--players", "3", "--seed", "6", *crashing, "--record", str(path), check=True)
    aborted = run_cli("play", "pepper", "--players", "2", "--seed", "7", "--seat", faulty("--garbage-at", "2"),
                      "--seat", "random", "--on-fault", "abort", "--record", str(path))
    assert aborted.returncode == 1, aborted.stderr
    kept, faulted, stopped = read_records(path)
    copies = [p.read_text().split("\n")[1] for p in Path(os.environ[record_schema_check.SPOOL_ENV]).glob("*.record")]
    assert set(path.read_text().splitlines()) <= set(copies), "the suite's check sees every record run_cli writes"
    assert kept["settings"]["keep_info"] and kept["info"]["1"], kept.get("info")
    assert kept["seats"][0]["kind"] == "process" and kept["seats"][0]["command"]
    assert faulted["faults"][0]["kind"] == "illegal"
    assert any(m.get("by") == "fallback" for d in faulted["deals"] for m in d["moves"])
    assert stopped["status"] == "aborted" and stopped["result"] is None and stopped["faults"]
    for record in (kept, faulted, stopped):
        matches(record)
        written_as_documented(record)


def test_a_signed_record_matches(tmp_path: Path) -> None:
    pytest.importorskip("cryptography")
    path = tmp_path / "games.jsonl"
    run_cli("keys", "new", str(tmp_path / "referee"), check=True)
    run_cli("play", "pigugnin", "--players", "5", "--seed", "8", "--max-deals", "2", "--record", str(path),
            "--sign-key", str(tmp_path / "referee.key"), check=True)
    [signed] = read_records(path)
    assert set(signed["signature"]) == {"alg", "key", "sig"}
    matches(signed)
    written_as_documented(signed)


def test_records_written_by_a_tournament_match(tmp_path: Path) -> None:
    pytest.importorskip("cryptography")
    run_cli("keys", "new", str(tmp_path / "referee"), check=True)
    directory = tmp_path / "t"
    run_cli("tournament", "seep", "--players", "2", "--bot", f"py={PYTHON_BOT}", "--bot", "heur=heuristic",
            "--deal-sets", "1", "--max-deals", "2", "--sandbox", "off", "-j", "2", "--dir", str(directory),
            "--sign-key", str(tmp_path / "referee.key"), check=True)
    written = read_records(directory / "records.jsonl")
    assert len(written) == 2
    for record in written:
        assert list(record)[-2:] == ["signature", "tournament"]
        assert set(record["tournament"]) == {"index", "key", "deal_set", "rotation", "seating", "entrants"}
        matches(record)
        written_as_documented(record)


# -- agreement with the readers' shape check ------------------------------------------------


@pytest.fixture(scope="module")
def honest() -> dict[str, Any]:
    """A real record with every optional field: a fault, fallback moves, info lines, a
    signature's shape and a tournament tag."""
    setup = registry.resolve("seep", None, {}, 4, 21)
    seats = [scripted_seat("script", ["9"]), *(random_seat(f"r{s}", f"21/{s}") for s in range(1, 4))]
    record = play_match(setup, seats, Settings(max_deals=2)).record
    record["info"] = {"2": ["depth 3", "score 12"]}
    record["signature"] = {"alg": "ed25519", "key": "A" * 44, "sig": "B" * 88}
    record["tournament"] = {"index": 3, "key": "1.1", "deal_set": 1, "rotation": 1, "seating": [1, 0, 1, 0],
                            "entrants": ["a", "b", "a", "b"]}
    assert record["faults"] and record["result"] is not None
    return record


def changed(record: dict[str, Any], path: str, value: Any = None, *, drop: bool = False) -> dict[str, Any]:
    """A deep copy of ``record`` with the field at ``path`` (``deals.0.moves.3.ms``) set or
    dropped."""
    copied = copy.deepcopy(record)
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    target: Any = copied
    for step in parents:
        target = target[step]
    if drop:
        del target[last]
    else:
        target[last] = value
    return copied


BROKEN: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
    # a wrong type
    ("seed as a text", lambda r: changed(r, "seed", "21")),
    ("seed as a boolean", lambda r: changed(r, "seed", True)),
    ("format version as a text", lambda r: changed(r, "format_version", "1")),
    ("status as a number", lambda r: changed(r, "status", 1)),
    ("adjudicated as a text", lambda r: changed(r, "adjudicated", "no")),
    ("an option as an object", lambda r: changed(r, "options.sweep", {"value": 50})),
    ("a list option holding a number", lambda r: changed(r, "options.opening_allowed", [1])),
    ("a setting as a text", lambda r: changed(r, "settings.move_time", "10")),
    ("a seat's name as a number", lambda r: changed(r, "seats.1.name", 7)),
    ("a seat's command as a text", lambda r: changed(r, "seats.1.command", "python3 bot.py")),
    ("a bot option as a single text", lambda r: changed(r, "seats.1.bot.options", [["depth"]])),
    ("a dealer as a text", lambda r: changed(r, "deals.0.dealer", "0")),
    ("a hand of numbers", lambda r: changed(r, "deals.0.hands.0", [2, 3])),
    ("a move's time as a text", lambda r: changed(r, "deals.0.moves.0.ms", "3")),
    ("a move's seat as a boolean", lambda r: changed(r, "deals.0.moves.0.seat", False)),
    ("points as a number", lambda r: changed(r, "deals.0.points", 5)),
    ("a note as a number", lambda r: changed(r, "deals.0.notes", [9])),
    ("a fault's deal as a text", lambda r: changed(r, "faults.0.deal", "1")),
    ("scores as texts", lambda r: changed(r, "result.scores", ["1", "2", "3", "4"])),
    ("result as a list", lambda r: changed(r, "result", [])),
    ("annulled as a number", lambda r: changed(r, "result.annulled", 0)),
    ("info lines as a text", lambda r: changed(r, "info.2", "depth 3")),
    ("a tournament index as a text", lambda r: changed(r, "tournament.index", "3")),
    ("seats as an object", lambda r: changed(r, "seats", {"0": r["seats"][0]})),
    # an unknown value where the format has a closed list
    ("an unknown status", lambda r: changed(r, "status", "won")),
    ("an unknown 'by'", lambda r: changed(r, "deals.0.moves.0.by", "robot")),
    ("an unknown signature algorithm", lambda r: changed(r, "signature.alg", "rsa")),
    # a required key missing
    *((f"no {key}", lambda r, key=key: changed(r, key, drop=True)) for key in record_shape.REQUIRED),
    ("a seat without a name", lambda r: changed(r, "seats.2.name", drop=True)),
    ("a deal without moves", lambda r: changed(r, "deals.0.moves", drop=True)),
    ("a deal without a number", lambda r: changed(r, "deals.0.number", drop=True)),
    ("a move without its time", lambda r: changed(r, "deals.0.moves.1.ms", drop=True)),
    ("a fault without its detail", lambda r: changed(r, "faults.0.detail", drop=True)),
    ("a result without its draws", lambda r: changed(r, "result.draws", drop=True)),
    ("a tournament tag without its seating", lambda r: changed(r, "tournament.seating", drop=True)),
    ("a signature without its key", lambda r: changed(r, "signature.key", drop=True)),
    # an extra field in a closed object
    ("a signature with an extra field", lambda r: changed(r, "signature.note", "trust me")),
    # out of bounds
    ("a negative seed", lambda r: changed(r, "seed", -1)),
    ("a seed of 2**63", lambda r: changed(r, "seed", 2**63)),
    ("a score beyond 64 bits", lambda r: changed(r, "result.scores.0", -(2**63) - 1)),
    ("no seat", lambda r: changed(r, "seats", [])),
    ("17 seats", lambda r: changed(r, "seats", [dict(r["seats"][0], seat=k) for k in range(17)])),
    ("a seat out of its place", lambda r: changed(r, "seats.1.seat", 2)),
    ("deal number 0", lambda r: changed(r, "deals.0.number", 0)),
    ("a negative fault move", lambda r: changed(r, "faults.0.move", -1)),
    ("a dealer beyond any table", lambda r: changed(r, "deals.0.dealer", 16)),
    ("a max_deals of 0", lambda r: changed(r, "settings.max_deals", 0)),
    ("a move of 8193 characters", lambda r: changed(r, "deals.0.moves.0.move", "x" * 8193)),
    ("a seat name of 131073 characters", lambda r: changed(r, "seats.0.name", "n" * 131073)),
    ("an option name of 101 characters", lambda r: changed(r, "options." + "o" * 101, True)),
    ("a signature of 201 characters", lambda r: changed(r, "signature.sig", "B" * 201)),
    ("an empty seating", lambda r: changed(r, "tournament.seating", [])),
]


@pytest.mark.parametrize("name, breaks", BROKEN, ids=[name for name, _ in BROKEN])
def test_a_broken_record_is_refused_by_the_schema_and_by_the_readers(
        honest: dict[str, Any], name: str, breaks: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    matches(honest)
    broken = breaks(honest)
    assert refusal(broken) is not None, f"the schema accepts a record with {name}"
    assert reader_refusal(broken) is not None, f"the readers accept a record with {name}"


OPEN: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
    ("an unknown top-level field", lambda r: changed(r, "comment", {"any": ["thing"]})),
    ("an unknown field in a seat, a bot, a deal, a move, a fault, the result, the settings and the tag",
     lambda r: changed(changed(changed(changed(changed(changed(changed(changed(
         r, "seats.0.rating", 1500), "seats.0.bot.url", "x"), "deals.0.cut", 7), "deals.0.moves.0.think", []),
         "faults.0.signal", 9), "result.margin", 3), "settings.jobs", 2), "tournament.round", 1)),
    ("a seat kind cardcli does not write", lambda r: changed(r, "seats.0.kind", "remote")),
    ("a fault kind cardcli does not write", lambda r: changed(r, "faults.0.kind", "oom")),
    ("a game cardcli does not know", lambda r: changed(r, "game", "scopa")),
    ("a move kind cardcli does not write", lambda r: changed(r, "deals.0.moves.0.kind", "declare")),
    ("a card that is not a token", lambda r: changed(r, "deals.0.hands.0.0", "10S")),
    ("a fault policy cardcli does not have", lambda r: changed(r, "settings.on_fault", "retry")),
    ("no optional field at all", lambda r: {k: v for k, v in r.items() if k in SCHEMA["required"]}),
    ("null for the optional objects", lambda r: {**r, "info": None, "signature": None, "tournament": None}),
    ("null for a seat's command and sandbox, and the bot's fields",
     lambda r: changed(changed(r, "seats.0.sandbox", None), "seats.0.bot", {"name": None, "author": None})),
    ("an aborted deal's null scores", lambda r: changed(changed(r, "deals.0.points", None), "deals.0.totals", None)),
    ("a fractional time", lambda r: changed(r, "deals.0.moves.0.ms", 1e300)),
    ("a seat without its number, spec, kind, command or bot",
     lambda r: changed(r, "seats.3", {"name": "x"})),
]


@pytest.mark.parametrize("name, opens", OPEN, ids=[name for name, _ in OPEN])
def test_what_the_readers_accept_the_schema_accepts(
        honest: dict[str, Any], name: str, opens: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Readers ignore fields they do not know and take kinds and names they do not know (a later
    cardcli may write new ones in format version 1; ``verify`` says what it cannot check)."""
    matches(opens(honest))


BEYOND_JSON_SCHEMA: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
    ("a dealer who is not at the table", lambda r: changed(r, "deals.0.dealer", 4)),
    ("a move by a seat that is not at the table", lambda r: changed(r, "deals.0.moves.0.seat", 4)),
    ("a winner who is not at the table", lambda r: changed(r, "result.winners", [4])),
    ("points for five seats at a table of four", lambda r: changed(r, "deals.0.points", [0, 0, 0, 0, 0])),
    ("a seating for three seats", lambda r: changed(r, "tournament.seating", [0, 1, 0])),
    ("an integer written as 21.0", lambda r: changed(r, "seed", 21.0)),
]


@pytest.mark.parametrize("name, breaks", BEYOND_JSON_SCHEMA, ids=[name for name, _ in BEYOND_JSON_SCHEMA])
def test_what_json_schema_cannot_say_is_left_to_the_readers(
        honest: dict[str, Any], name: str, breaks: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Bounds that depend on the number of seats, and 1.0 against 1 (the same number to JSON
    Schema): the schema's description names them, and the readers refuse them."""
    broken = breaks(honest)
    assert refusal(broken) is None
    assert reader_refusal(broken) is not None


# -- the check of every record the suite makes ----------------------------------------------


def test_an_interrupted_record_matches() -> None:
    """Ctrl-C in the second deal, after a fault: the record keeps the deals played, the last
    one without its score."""
    setup = registry.resolve("peppa", None, {}, 4, 3)
    asked = 0

    def stop_in_deal_two(request: Any) -> str:
        nonlocal asked
        asked += 1
        if asked == 20:
            raise KeyboardInterrupt
        return str(request.moves[0])

    seats = [scripted_seat("script", []), InProcessSeat("stops", stop_in_deal_two),
             *(random_seat(f"r{s}", f"3/{s}") for s in range(2, 4))]
    with pytest.raises(MatchInterrupted) as stopped:
        play_match(setup, seats, Settings())
    record = stopped.value.result.record
    assert record["status"] == "interrupted" and record["result"] is None and record["faults"]
    assert len(record["deals"]) == 2 and record["deals"][-1]["points"] is None
    matches(record)
    written_as_documented(record)


def test_the_suite_s_own_process_spools_every_record_it_writes() -> None:
    assert getattr(records.dump, "spools_records", False)
    import cardcli.tournament.worker

    assert cardcli.tournament.worker.dump is records.dump
    assert Path(os.environ[record_schema_check.SPOOL_ENV]).is_dir()


def test_a_record_written_in_the_suite_s_process_that_does_not_match_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setenv(record_schema_check.SPOOL_ENV, str(spool))
    seats = [first_seat(f"f{s}") for s in range(4)]
    seats[2] = InProcessSeat("f2", lambda request: request.moves[0], kind=7)  # type: ignore[arg-type]
    record = play_match(registry.resolve("peppa", None, {}, 4, 1), seats, Settings(max_deals=1)).record
    records.append(tmp_path / "games.jsonl", record)
    refused = record_schema_check.Checker(SCHEMA_PATH, spool).refused()
    assert len(refused) == 1 and "at $.seats[2].kind: 7 is not of type 'string'" in refused[0], refused
    assert not list(spool.iterdir())


def strict_schema(tmp_path: Path) -> Path:
    """The schema with one more demand no record meets: the writing program must be someone else."""
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["software"] = {"const": "another program"}
    schema["required"].append("software")
    path = tmp_path / "strict.schema.json"
    path.write_text(json.dumps(schema))
    return path


@pytest.mark.parametrize("command", [
    ["play", "peppa", "--seed", "2", "--max-deals", "1", "--games", "2"],
    ["tournament", "peppa", "--bot", "a=random", "--bot", "b=first", "--deal-sets", "1", "--max-deals", "1",
     "-j", "2", "--seed", "2"],
], ids=["play", "tournament"])
def test_every_record_a_cardcli_process_writes_is_checked(tmp_path: Path, command: list[str]) -> None:
    """In ``play`` and in a tournament's worker processes, every line written reaches the check
    as it was written; a record that does not match is refused, naming the process."""
    spool = tmp_path / "spool"
    spool.mkdir()
    target = tmp_path / ("games.jsonl" if command[0] == "play" else "t")
    where = ["--record", str(target)] if command[0] == "play" else ["--dir", str(target)]
    env = {**os.environ, "PYTHONPATH": record_schema_check.pythonpath(str(ROOT)),
           record_schema_check.SPOOL_ENV: str(spool)}
    subprocess.run([sys.executable, "-m", "cardcli", *command, *where], capture_output=True, text=True,
                   cwd=ROOT, env=env, timeout=120, check=True)
    written = (target if command[0] == "play" else target / "records.jsonl").read_text().splitlines()
    spooled = [p.read_text().split("\n")[1] for p in spool.glob("*.record")]
    assert len(written) == 2 and sorted(spooled) == sorted(written)
    assert all(record_schema_check.Checker(SCHEMA_PATH, spool).refusal(json.loads(line)) is None for line in spooled)
    refused = record_schema_check.Checker(strict_schema(tmp_path), spool).refused()
    assert len(refused) == 2 and all(
        "at $.software: 'another program' was expected" in r and command[0] in r for r in refused), refused
    assert not list(spool.iterdir())


def test_the_suite_s_python_processes_on_this_tree_get_the_check() -> None:
    proc = subprocess.run([sys.executable, "-c", "import sys; print(sys.path)"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert str(record_schema_check.HERE) in proc.stdout
