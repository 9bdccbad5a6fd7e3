"""``cardcli replay --seat N --protocol`` / ``--to-bot``: the lines a seat exchanged with the
referee, re-derived from a record through the referee.

The gold standard is ``play --verbose``, which logs every line a bot was sent and sent as
``seatN << line`` / ``seatN >> line`` while the match is played: the re-derived lines must be
those, line for line, for every game, in faulty matches too.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from cardcli.protocol_replay import FaultReading, Stage, derive, handshake_lines
from cardcli.records.model import Bot, Fault
from cardcli.transcript import FROM_BOT, TO_BOT

from conftest import PYTHON_BOT, faulty, read_records, run_cli

BOT_A = f"{PYTHON_BOT} --seed 4"
BOT_B = f"{PYTHON_BOT} --seed 9 --name other-bot"


def play(tmp_path: Path, game: str, *args: str, seats: list[str], expect: int = 0,
         name: str = "games.jsonl") -> tuple[Path, str]:
    """Play a match with ``--verbose``; return the record's path and the log."""
    record = tmp_path / name
    flags = [x for spec in seats for x in ("--seat", spec)]
    proc = run_cli("play", game, "--seed", "11", "--verbose", "--record", str(record), *args, *flags)
    assert proc.returncode == expect, proc.stderr[-3000:]
    return record, proc.stderr


def verbose_lines(log: str, seat: int) -> list[str]:
    """The lines ``--verbose`` logged for ``seat``, as ``<< line`` / ``>> line``."""
    prefix = f"cardcli.bot seat{seat} "
    return [line[len(prefix):] for line in log.splitlines() if line.startswith(prefix)]


def protocol(record: Path, seat: int, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli("replay", str(record), "--seat", str(seat), "--protocol", *extra)


def lines_of(record: Path, seat: int, *extra: str) -> list[str]:
    proc = protocol(record, seat, *extra)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def bot_answers(lines: list[str]) -> list[str]:
    return [line[len(FROM_BOT) + 1:] for line in lines if line.startswith(FROM_BOT + " ")]


# -- the lines are the ones --verbose logged, for every game -----------------------------------

MATCHES = [
    ("peppa", ["-o", "end_threshold=1"], 4),
    ("peppa", ["--variant", "standard", "-o", "end_threshold=1", "-o", "pass_cycle=across,left"], 4),
    ("peppa", ["--max-deals", "1"], 4),  # adjudicated at the deal limit
    ("seep", ["-o", "baazi_target=1"], 4),
    ("seep", ["--variant", "thirty", "-o", "baazi_target=1"], 2),
    ("seep", ["--variant", "no_cementing", "-o", "baazi_target=1"], 3),
    ("pigugnin", ["-o", "lose_at=1", "-o", "sole_loser_at=1"], 4),
    ("pigugnin", ["-o", "lose_at=1", "-o", "sole_loser_at=1", "-o", "direction=cw"], 5),
    ("pepper", ["-o", "target=5"], 2),
    ("pepper", ["-o", "target=5"], 3),
    ("pepper", ["-o", "target=5", "-o", "auction=single_round"], 4),
]


@pytest.mark.parametrize(("game", "args", "players"), MATCHES,
                         ids=[f"{g}-{n}p-{i}" for i, (g, _, n) in enumerate(MATCHES)])
def test_the_lines_are_the_ones_the_bot_exchanged(tmp_path: Path, game: str, args: list[str], players: int) -> None:
    seats = [BOT_A, "heuristic", BOT_B, "random", "random"][:players]
    if players == 2:
        seats = [BOT_A, BOT_B]
    record, log = play(tmp_path, game, *args, seats=seats)
    for seat, spec in enumerate(seats):
        if spec.startswith(PYTHON_BOT):
            gold = verbose_lines(log, seat)
            assert gold[0] == f"{TO_BOT} cardcli 1" and gold[-1] == f"{TO_BOT} quit"
            assert lines_of(record, seat) == gold
    built_in = seats.index("heuristic") if "heuristic" in seats else None
    if built_in is not None:
        proc = protocol(record, built_in)
        assert proc.returncode == 0, proc.stderr
        assert f"{TO_BOT} game {game} " in proc.stdout and proc.stdout.endswith(f"{TO_BOT} quit\n")
        assert "was not a bot program" in proc.stderr


def test_to_bot_prints_the_lines_the_bot_received_and_nothing_else(tmp_path: Path) -> None:
    record, log = play(tmp_path, "peppa", "-o", "end_threshold=1", seats=[BOT_A, "random", "random", "random"])
    proc = run_cli("replay", str(record), "--seat", "0", "--to-bot")
    assert proc.returncode == 0, proc.stderr
    sent = [line[len(TO_BOT) + 1:] for line in verbose_lines(log, 0) if line.startswith(TO_BOT + " ")]
    assert proc.stdout.splitlines() == sent
    assert proc.stdout.startswith("cardcli 1\ngame peppa torino 4 0\n")
    assert run_cli("replay", str(record), "--seat", "0", "--protocol", "--to-bot").stdout == proc.stdout


def test_several_matches_of_one_bot_process_are_the_session_split_at_its_matches(tmp_path: Path) -> None:
    """With ``--games 2`` the bot process plays both matches: its session is the first match's
    lines without ``quit``, then the second's without the greeting, and the first match's last
    lines (its ``result``) go out with the second ``game`` header, in the same order."""
    record, log = play(tmp_path, "pepper", "-o", "target=5", "--games", "2", seats=[BOT_A, "random", "random"])
    first, second = lines_of(record, 0, "--game", "1"), lines_of(record, 0, "--game", "2")
    handshake = second.index(f"{TO_BOT} game pepper standard 3 0")
    assert first[-1] == f"{TO_BOT} quit"
    assert first[:-1] + second[handshake:] == verbose_lines(log, 0)


# -- faults -----------------------------------------------------------------------------------

FAULTS = [
    (["--illegal-at", "3"], "illegal", f"{FROM_BOT} move ZZ"),
    (["--crash-at", "2"], "crash", None),
    (["--two-words-at", "2"], "malformed", None),
    (["--double-at", "2"], "protocol", None),
    (["--bad-utf8-at", "2"], "malformed", None),
    (["--stall-at", "2"], "timeout", None),
    (["--no-ready"], "timeout", f"{TO_BOT} cardcli 1"),
    (["--exit-at-start"], "crash", f"{TO_BOT} cardcli 1"),
]


@pytest.mark.parametrize(("flags", "kind", "last"), FAULTS, ids=[f[0][0] for f in FAULTS])
def test_a_fault_is_reproduced_where_the_referee_stopped(tmp_path: Path, flags: list[str], kind: str,
                                                          last: str | None) -> None:
    seats = [BOT_A, faulty(*flags), "random", BOT_B]
    record, log = play(tmp_path, "peppa", "-o", "end_threshold=1", "--move-time", "1.5", "--startup-time", "3",
                       seats=seats)
    fault = read_records(record)[0]["faults"][0]
    assert (fault["seat"], fault["kind"]) == (1, kind)
    gold = verbose_lines(log, 1)
    proc = protocol(record, 1)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == gold
    if last is not None:
        assert gold[-1] == last
    if fault["deal"] > 0:
        sent = [line for line in gold if line.startswith(TO_BOT + " ")]
        assert sent[-1].startswith(f"{TO_BOT} go "), "the referee wrote nothing after its last request"
    assert "seat 1 faulted in" in proc.stderr and kind in proc.stderr
    for seat in (0, 3):
        others = verbose_lines(log, seat)
        assert f"{TO_BOT} forfeit 1 {kind}" in others
        assert lines_of(record, seat) == others


def test_an_aborted_match_stops_every_seat_where_the_referee_stopped(tmp_path: Path) -> None:
    seats = [BOT_A, faulty("--illegal-at", "3"), "random", BOT_B]
    record, log = play(tmp_path, "peppa", "-o", "end_threshold=1", "--on-fault", "abort", seats=seats, expect=1)
    assert read_records(record)[0]["status"] == "aborted"
    for seat in (0, 1, 3):
        gold = verbose_lines(log, seat)
        assert lines_of(record, seat) == gold
        assert not any(line.startswith(f"{TO_BOT} result") for line in gold)
    assert verbose_lines(log, 1)[-1] == f"{FROM_BOT} move ZZ"
    assert verbose_lines(log, 0)[-1] == f"{TO_BOT} quit"


def test_an_answer_the_abort_left_untaken_is_not_shown_and_said_so(tmp_path: Path) -> None:
    """Seat 1 fails the simultaneous pass under ``abort``: seat 3 had answered too, but the
    referee stopped before taking its answer, so the record does not hold it."""
    seats = [BOT_A, faulty("--illegal-at", "1"), "random", BOT_B]
    record, log = play(tmp_path, "peppa", "-o", "end_threshold=1", "--on-fault", "abort", seats=seats, expect=1)
    gold = verbose_lines(log, 3)
    proc = protocol(record, 3)
    assert proc.returncode == 0, proc.stderr
    assert gold[-3].startswith(f"{TO_BOT} go pass ") and gold[-2].startswith(f"{FROM_BOT} move ")
    assert proc.stdout.splitlines() == gold[:-2] + gold[-1:]
    assert "answer to its last request is not recorded" in proc.stderr
    assert lines_of(record, 0) == verbose_lines(log, 0)  # seat 0's pass was taken before the fault


@pytest.mark.parametrize("policy", ["replace", "abort"])
def test_a_bot_that_cannot_start_got_no_line_and_the_others_their_forfeit(tmp_path: Path, policy: str) -> None:
    program = tmp_path / "not-executable.sh"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o644)
    seats = [BOT_A, str(program), BOT_B, "random"]
    record, log = play(tmp_path, "peppa", "-o", "end_threshold=1", "--on-fault", policy, seats=seats,
                       expect=0 if policy == "replace" else 1)
    faults = read_records(record)[0]["faults"]
    assert faults[0]["kind"] == "crash" and "during the start" in faults[0]["detail"]
    proc = protocol(record, 1)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and "could not be started" in proc.stderr
    for seat in (0, 2):
        assert lines_of(record, seat) == verbose_lines(log, seat)
    if policy == "replace":  # the seat after it was told before its own greeting, as the referee did
        assert verbose_lines(log, 2)[:2] == [f"{TO_BOT} forfeit 1 crash", f"{TO_BOT} cardcli 1"]


def test_ignored_lines_and_info_are_not_in_the_lines_and_said_so(tmp_path: Path) -> None:
    seats = [BOT_A, faulty("--chatty"), "random", "random"]
    record, log = play(tmp_path, "peppa", "-o", "end_threshold=1", "--keep-info", seats=seats)
    gold = verbose_lines(log, 1)
    proc = protocol(record, 1)
    assert proc.returncode == 0, proc.stderr
    heading = next(i for i, line in enumerate(proc.stdout.splitlines()) if line.startswith("info lines of seat 1"))
    shown, info = proc.stdout.splitlines()[:heading], proc.stdout.splitlines()[heading + 1:]
    assert shown == [line for line in gold if "[ignored:" not in line and not line.startswith(f"{FROM_BOT} info ")]
    assert info == [line for line in gold if line.startswith(f"{FROM_BOT} info ")] and info
    ignored = read_records(record)[0]["seats"][1]["ignored_lines"]
    assert f"the bot sent {ignored} line(s) the protocol ignores" in proc.stderr
    assert "info" not in run_cli("replay", str(record), "--seat", "1", "--to-bot").stdout


# -- piping --to-bot into the bot plays the same moves -------------------------------------------


def run_bot(command: str, given: str) -> list[str]:
    proc = subprocess.run(command.split(), input=given, capture_output=True, text=True, timeout=60)
    return proc.stdout.splitlines()


@pytest.mark.parametrize(("game", "args", "players"), [MATCHES[0], MATCHES[4], MATCHES[7], MATCHES[9]],
                         ids=["peppa", "seep-2p", "pigugnin-5p", "pepper-3p"])
def test_piping_the_lines_into_the_bot_plays_the_same_moves(tmp_path: Path, game: str, args: list[str],
                                                            players: int) -> None:
    seats = [BOT_A] + ["random"] * (players - 1)
    record, _ = play(tmp_path, game, *args, seats=seats)
    given = run_cli("replay", str(record), "--seat", "0", "--to-bot").stdout
    answers = run_bot(BOT_A, given)
    assert answers == bot_answers(lines_of(record, 0))
    recorded = [m["move"] for d in read_records(record)[0]["deals"] for m in d["moves"] if m["seat"] == 0]
    assert [a.split(" ", 1)[1] for a in answers if a.startswith("move ")] == recorded


def test_piping_the_lines_into_a_faulty_bot_reproduces_its_fault(tmp_path: Path) -> None:
    bot = faulty("--illegal-at", "4")
    record, log = play(tmp_path, "seep", "-o", "baazi_target=1", seats=["random", bot, "random", "random"])
    given = run_cli("replay", str(record), "--seat", "1", "--to-bot").stdout
    answers = run_bot(bot, given)
    assert answers == bot_answers(verbose_lines(log, 1))
    assert answers[-1] == "move ZZ" and sum(a.startswith("move ") for a in answers) == 4


# -- tournaments --------------------------------------------------------------------------------


def test_a_tournaments_records_give_each_seats_lines(tmp_path: Path) -> None:
    directory = tmp_path / "t"
    proc = run_cli("tournament", "peppa", "--dir", str(directory), "--bot", "a=heuristic", "--bot", f"b={PYTHON_BOT}",
                   "--bot", f"c={faulty('--illegal-at', '5')}", "-o", "end_threshold=1", "--deal-sets", "1",
                   "-j", "1", "--sandbox", "off")
    assert proc.returncode == 0, proc.stderr
    path = directory / "records.jsonl"
    records = read_records(path)
    refused = run_cli("replay", str(path), "--seat", "0", "--protocol")
    assert refused.returncode == 2 and "--game K" in refused.stderr and refused.stdout == ""
    for _k, record in enumerate(records, start=1):
        for seat, entrant in enumerate(record["tournament"]["entrants"]):
            derived = derive(record, seat)  # in-process: the command line is checked below
            lines = [entry.text() for entry in derived.entries]
            assert f"{TO_BOT} game peppa torino 4 {seat}" in lines
            names = [s["name"] for s in record["seats"]]
            assert [line for line in lines if line.startswith(f"{TO_BOT} player ")] == [
                f"{TO_BOT} player {i} {n}" for i, n in enumerate(names)]
            own = [m["move"] for d in record["deals"] for m in d["moves"]
                   if m["seat"] == seat and m.get("by") != "fallback"]
            moves = [a.split(" ", 1)[1] for a in bot_answers(lines) if a.startswith("move ")]
            faulted = [f for f in record["faults"] if f["seat"] == seat]
            assert moves == own + (["ZZ"] if faulted else [])
            assert any("a tournament keeps its bots alive" in note for note in derived.notes)
            if entrant == "b":
                given = "".join(line + "\n" for line in derived.to_bot())
                assert run_bot(PYTHON_BOT, given) == bot_answers(lines)
    last = len(records)
    seat = records[-1]["tournament"]["entrants"].index("b")
    proc = protocol(path, seat, "--game", str(last))
    assert proc.returncode == 0 and "a tournament keeps its bots alive" in proc.stderr
    assert proc.stdout.splitlines() == [entry.text() for entry in derive(records[-1], seat).entries]
    given = run_cli("replay", str(path), "--seat", str(seat), "--game", str(last), "--to-bot").stdout
    assert run_bot(PYTHON_BOT, given) == bot_answers(proc.stdout.splitlines())


# -- errors -------------------------------------------------------------------------------------


@pytest.fixture
def one_match(tmp_path: Path) -> Path:
    record, _ = play(tmp_path, "peppa", "-o", "end_threshold=1",
                     seats=[BOT_A, faulty("--illegal-at", "3"), "random", "random"])
    return record


def fails(args: list[str], code: int, says: str) -> None:
    proc = run_cli("replay", *args)
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardcli: error: ") and says in lines[0], proc.stderr


def test_usage_errors_exit_2(one_match: Path, tmp_path: Path) -> None:
    path = str(one_match)
    fails([path, "--protocol"], 2, "--protocol needs --seat N")
    fails([path, "--to-bot"], 2, "--to-bot needs --seat N")
    fails([path, "--protocol", "--seat", "4"], 2, "--seat 4: the match has seats 0 to 3")
    fails([path, "--to-bot", "--seat", "-1"], 2, "--seat -1: the match has seats 0 to 3")
    fails([path, "--protocol", "--seat", "1", "--from-deal", "2"], 2, "--from-deal and --step")
    fails([path, "--protocol", "--seat", "1", "--game", "2"], 2, "there is no record 2")
    twice = tmp_path / "twice.jsonl"
    twice.write_text(one_match.read_text() * 2)
    fails([str(twice), "--protocol", "--seat", "1"], 2, "holds 2 records: choose one match with --game K")
    assert protocol(twice, 1, "--game", "2").stdout == protocol(one_match, 1).stdout
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    fails([str(empty), "--protocol", "--seat", "0"], 2, "holds no record")


def rewrite(source: Path, target: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    record = json.loads(source.read_text())
    change(record)
    target.write_text(json.dumps(record) + "\n")
    return target


def test_a_record_that_does_not_verify_is_refused(one_match: Path, tmp_path: Path) -> None:
    def swap(record: dict[str, Any]) -> None:
        moves = record["deals"][0]["moves"]
        moves[5]["move"], moves[6]["move"] = moves[6]["move"], moves[5]["move"]

    fails([str(rewrite(one_match, tmp_path / "bad.jsonl", swap)), "--protocol", "--seat", "0"], 1, "deal 1, move 6")


def test_a_record_the_referee_would_not_have_written_is_refused(one_match: Path, tmp_path: Path) -> None:
    """A fault's detail is not verified, but the re-run answers the move it quotes: quoting the
    legal move the fallback player made instead turns the fault into no fault at all."""
    def legal(record: dict[str, Any]) -> None:
        fault = record["faults"][0]
        made = record["deals"][fault["deal"] - 1]["moves"][fault["move"]]["move"]
        fault["detail"] = f"{made!r} refused: no reason"

    fault = read_records(one_match)[0]["faults"][0]
    assert run_cli("verify", str(rewrite(one_match, tmp_path / "legal.jsonl", legal))).returncode == 0
    fails([str(tmp_path / "legal.jsonl"), "--protocol", "--seat", "1"], 1,
          f"deal {fault['deal']}, move {fault['move'] + 1}: the record has seat 1")

    def bogus(record: dict[str, Any]) -> None:
        record["faults"][0]["kind"] = "bogus\x1b[2J"

    fails([str(rewrite(one_match, tmp_path / "bogus.jsonl", bogus)), "--to-bot", "--seat", "0"], 1,
          "fault 1 is of kind 'bogus\\x1b[2J', which the referee never records")


def test_text_from_the_record_never_reaches_the_terminal_raw(one_match: Path, tmp_path: Path) -> None:
    """Names and a bot's identity come from the file, which anybody may have written: the
    referee's ``player`` lines make them one line of printable text, as it did in the match, and
    a bot's own lines are escaped."""
    def hostile(record: dict[str, Any]) -> None:
        record["seats"][0]["name"] = "evil\x1b[2J\u202ename"
        record["seats"][0]["bot"]["name"] = "evil\x1b]0;title\x07"

    path = rewrite(one_match, tmp_path / "hostile.jsonl", hostile)
    for flag in ("--protocol", "--to-bot"):
        proc = run_cli("replay", str(path), "--seat", "0", flag)
        assert proc.returncode == 0, proc.stderr
        assert "\x1b" not in proc.stdout and "\u202e" not in proc.stdout and "\x07" not in proc.stdout
        assert "player 0 evil [2J name" in proc.stdout
    assert f"{FROM_BOT} id name evil\\x1b]0;title\\x07" in protocol(path, 0).stdout


# -- reading a fault's detail ---------------------------------------------------------------------


def reading(kind: str, detail: str, deal: int = 1) -> FaultReading:
    return FaultReading.of(Fault.from_json({"seat": 0, "kind": kind, "detail": detail, "deal": deal, "move": 0}))


def test_the_bots_offending_line_is_read_from_the_detail_only_when_it_is_quoted_whole() -> None:
    illegal = reading("illegal", "'ZZ' refused: not a card: 'ZZ'")
    assert (illegal.move, illegal.line, illegal.unasked, illegal.phase) == ("ZZ", "move ZZ", False, Stage.MOVE)
    assert reading("illegal", "\"it's\" is not one of the offered moves").move == "it's"
    assert reading("illegal", "'" + "x" * 200 + "... (300 chars)' refused: too long").move is None
    assert reading("illegal", "'ZZ' and more").move is None
    assert reading("malformed", "a move is one token: 'move 3S 3S'").line == "move 3S 3S"
    assert reading("malformed", "invalid UTF-8: b'move \\xff'").line is None
    unasked = reading("protocol", "move sent without a request: 'move QS'")
    assert (unasked.line, unasked.unasked) == ("move QS", True)
    late = reading("protocol", "move sent without a request: 'move QS' (before the bot had read the request)")
    assert (late.line, late.unasked) == ("move QS", False)
    early = reading("protocol", "move during the handshake: 'move 2C'", deal=0)
    assert (early.line, early.phase) == ("move 2C", Stage.HANDSHAKE)
    assert reading("crash", "cannot start 'x': Permission denied (during the start)", deal=0).phase is Stage.START
    assert reading("crash", "exited with status 0 (during the handshake)", deal=0).phase is Stage.HANDSHAKE
    assert reading("timeout", "no answer in time (limit 1 s, waited 1.00 s)").line is None


def test_the_handshake_is_rebuilt_from_the_recorded_identity() -> None:
    bot = {"name": "mybot", "author": "me", "version": None, "options": [["depth", "3"], ["flag", ""]]}
    assert handshake_lines(Bot.from_json(bot)) == ["id name mybot", "id author me", "option depth 3", "option flag",
                                                  "ready"]
    assert handshake_lines(Bot.from_json({})) == ["ready"]

