"""The time bank (``--time-bank S``): time over the per-move limit is drawn from a bank of S
seconds per seat and match, the bot is told what is left before each request, and only a move
over the limit plus what is left is a timeout.

The bots sleep for a set time (tests/bots/clock_bot.py), so what they spend does not depend on
the machine's speed, and the margins are wide (limit 200 ms, sleeps of 400 ms or more, banks
of a second or two): the assertions are on the record's own arithmetic, never on how long a
move took.

The bank's timing logic (what each answer draws to the microsecond, a timeout at the limit
plus what is left, each seat's own bank in a simultaneous decision, a full bank again at the
next match) is tested on scripted bots and a clock that moves only when told
(tests/test_protocol_scripted.py). What stays here needs real bots on the real clock: a bank
drawn by a bot that really sleeps, the lines it was really sent, the command line, a
tournament and a remote bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, read_records, run_cli

CLOCK = f"{sys.executable} {ROOT / 'tests/bots/clock_bot.py'}"
LIMIT_MS = 200


def clock(log: Path, *flags: str) -> str:
    return " ".join((CLOCK, "--log", str(log), *flags))


def own_moves(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [m for deal in record["deals"] for m in deal["moves"] if m["seat"] == seat]


def drawn(bank_ms: float, ms: float, grace_ms: int = 0) -> float:
    """The bank after a move of ``ms``, as the referee draws it (in microseconds, as the
    record keeps times)."""
    over = round(ms * 1000) - LIMIT_MS * 1000 - grace_ms * 1000
    return max(0, round(bank_ms * 1000) - max(0, over)) / 1000


def check_the_draws(record: dict[str, Any], seat: int, bank_ms: float, grace_ms: int = 0) -> list[dict[str, Any]]:
    """Every move of ``seat`` carries the bank left after it, drawn from the one before by
    the move's time over the limit (a timeout empties it; the fallback player's moves after a
    fault cost nothing); returns the seat's moves."""
    timed_out = any(f["seat"] == seat and f["kind"] == "timeout" for f in record["faults"])
    moves = own_moves(record, seat)
    for move in moves:
        if move.get("by", "seat") == "seat":
            bank_ms = drawn(bank_ms, move["ms"], grace_ms)
        elif timed_out:
            bank_ms = 0
        assert move["bank_ms"] == bank_ms, (move, bank_ms)
    return moves


def sent_lines(log: Path, head: str) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.split()[0] == head]


def play(tmp_path: Path, seats: list[str], bank: str, *extra: str) -> dict[str, Any]:
    record_file = tmp_path / "games.jsonl"
    args = ["play", "peppa", "--seed", "5", "--max-deals", "1", "--move-time", str(LIMIT_MS / 1000),
            "--time-bank", bank, "--record", str(record_file), *extra]
    for seat in seats:
        args += ["--seat", seat]
    proc = run_cli(*args)
    assert proc.returncode == 0, proc.stderr
    (record,) = read_records(record_file)
    return record


def test_a_bot_that_overspends_a_little_survives_and_its_bank_goes_down(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    record = play(tmp_path, [clock(log, "--sleep-ms", "400", "--slow", "3"), "random", "random", "random"], "2")
    assert record["faults"] == []
    assert record["settings"]["time_bank"] == 2
    moves = check_the_draws(record, 0, 2000.0)
    slow = moves[:3]
    assert all(m["ms"] > LIMIT_MS for m in slow), "each slow answer went over the per-move limit"
    # each drew about 200 ms; the referee's clock may start a little after the bot's sleep
    assert slow[-1]["bank_ms"] <= 2000 - 3 * 100, "the bank went down by the time over the limit"
    # the bot is told what is left before each request, in whole milliseconds
    banks = sent_lines(log, "bank")
    assert len(banks) == len(moves) == len(sent_lines(log, "go"))
    told = [int(line.split()[1]) for line in banks]
    assert told == [2000] + [int(m["bank_ms"]) for m in moves[:-1]]
    for seat in (1, 2, 3):
        assert {m["bank_ms"] for m in own_moves(record, seat)} == {2000}, "a built-in player answers at once"


def test_a_bot_that_knows_nothing_of_banks_plays_on(tmp_path: Path) -> None:
    """A version 1 bot that ignores the ``bank`` line (the shipped bash bot) plays as
    before."""
    record = play(tmp_path, [f"bash {ROOT / 'bots/bash/random_bot.sh'} --seed 2", "random", "random", "random"], "1")
    assert record["faults"] == [] and record["result"] is not None
    assert all("bank_ms" in m for m in own_moves(record, 0))


def test_the_protocol_lines_replayed_from_the_record_are_the_ones_sent(tmp_path: Path) -> None:
    """``replay --protocol`` makes the ``bank`` lines again from the recorded times: the very
    lines the bot was sent, as ``--verbose`` logged them."""
    record_file = tmp_path / "games.jsonl"
    proc = run_cli("play", "peppa", "--seed", "5", "--max-deals", "1", "--move-time", "0.2", "--time-bank", "2",
                   "--seat", clock(tmp_path / "bot.log", "--sleep-ms", "400", "--slow", "2", "--declare", "level=1"),
                   "--seat", "random", "--seat", "random", "--seat", "random", "--seat-option", "0:level=4",
                   "--record", str(record_file), "--verbose")
    assert proc.returncode == 0, proc.stderr
    sent = [line.split(" ", 2)[2] for line in proc.stderr.splitlines() if line.startswith("cardcli.bot seat0 ")]
    replayed = run_cli("replay", str(record_file), "--seat", "0", "--protocol")
    assert replayed.returncode == 0, replayed.stderr
    lines = replayed.stdout.splitlines()
    assert [line for line in lines if line.startswith("<<")] == [line for line in sent if line.startswith("<<")]
    assert "<< setoption level 4" in lines and "<< bank 2000" in lines


def test_a_tournament_keeps_its_bank_setting_and_resume_keeps_it(tmp_path: Path) -> None:
    directory = tmp_path / "t"
    args = ["tournament", "pigugnin", "--bot", "a=random", "--bot",
            f"b={clock(tmp_path / 'b.log', '--sleep-ms', '300', '--slow', '1')}", "--deal-sets", "1",
            "--max-deals", "1", "--seed", "3", "--dir", str(directory), "-j", "1", "--sandbox", "off",
            "--move-time", "0.2", "--time-bank", "1.5"]
    proc = run_cli(*args)
    assert proc.returncode == 0, proc.stderr
    config = json.loads((directory / "config.json").read_text())
    assert config["settings"]["time_bank"] == 1.5
    records = read_records(directory / "records.jsonl")
    for record in records:
        assert record["settings"]["time_bank"] == 1.5 and record["faults"] == []
        for seat, _entrant in enumerate(record["tournament"]["entrants"]):
            check_the_draws(record, seat, 1500.0)
    again = run_cli("tournament", "--resume", str(directory), "--time-bank", "3")
    assert again.returncode == 2
    assert again.stderr.strip().splitlines() == [
        f"cardcli: error: --resume continues {directory} as it was made: its time bank is 1.5 s, not --time-bank 3"]


def test_a_remote_bot_draws_only_past_its_network_grace(tmp_path: Path) -> None:
    """A remote seat: its network grace (400 ms) comes before the bank, so answers of about
    350 ms, over the 200 ms limit but inside limit and grace, leave the bank whole; the bank
    line reaches the bot through ``cardcli connect`` like any other."""
    from test_remote import Referee, connect

    tokens = run_cli("tokens", "new", "alice", check=True).stdout
    token_file = tmp_path / "tokens.txt"
    token_file.write_text(tokens)
    record_file = tmp_path / "games.jsonl"
    referee = Referee("play", "peppa", "--seed", "8", "--listen", "127.0.0.1:0", "--tokens", str(token_file),
                      "--seat", "remote:alice", "--seat", "random", "--seat", "random", "--seat", "random",
                      "--move-time", "0.2", "--network-grace", "400", "--time-bank", "1", "--max-deals", "1",
                      "--record", str(record_file))
    log = tmp_path / "remote.log"
    bot = clock(log, "--sleep-ms", "350", "--slow", "2").split()
    relay = connect(referee.port, "alice", tokens.split()[1], bot=bot)
    code, _, err = referee.finish()
    relay.wait(30)
    assert code == 0, err
    (record,) = read_records(record_file)
    assert record["faults"] == [] and record["seats"][0]["network"]["grace_ms"] == 400
    moves = check_the_draws(record, 0, 1000.0, grace_ms=400)
    before = [1000.0] + [m["bank_ms"] for m in moves[:-1]]
    inside = [(left, m) for left, m in zip(before, moves[:2]) if LIMIT_MS < m["ms"] <= LIMIT_MS + 400]
    assert inside, "an answer over the limit but within the grace"
    assert all(m["bank_ms"] == left for left, m in inside), "the grace is not drawn from the bank"
    assert sent_lines(log, "bank")[0] == "bank 1000"


def banked_record() -> dict[str, Any]:
    """An in-process match with a time bank and an option set for a seat."""
    from cardcli.games import registry
    from cardcli.referee import Settings, play_match
    from cardcli.seats.builtin import random_seat

    setup = registry.resolve("pigugnin", None, {}, 4, 9)
    seats = [random_seat(f"r{s}", f"9/{s}") for s in range(4)]
    seats[0].given_options([("depth", "3")])
    return play_match(setup, seats, Settings(max_deals=1, time_bank=1.5)).record


@pytest.mark.parametrize("path, value", [
    ("deals.0.moves.0.bank_ms", -1),
    ("deals.0.moves.0.bank_ms", "1500"),
    ("settings.time_bank", 0),
    ("settings.time_bank", "1.5"),
    ("seats.0.set_options", "depth=3"),
    ("seats.0.set_options.0.sent", "no"),
    ("seats.0.set_options.0.value", 3),
])
def test_the_schema_and_the_readers_agree_on_the_bank_and_the_options(path: str, value: Any) -> None:
    from test_record_schema import changed, reader_refusal, refusal

    record = banked_record()
    assert record["settings"]["time_bank"] == 1.5 and all("bank_ms" in m for m in record["deals"][0]["moves"])
    assert record["seats"][0]["set_options"] == [{"name": "depth", "value": "3", "sent": False}]
    assert refusal(record) is None and reader_refusal(record) is None
    broken = changed(record, path, value)
    assert refusal(broken) is not None and reader_refusal(broken) is not None
