"""What a tournament shows its organiser: a warning for a schedule that does not give every
entrant the same number of matches, a table in the order of a column it shows (the same order
in --json and --csv), and every entrant named by its entrant name (in the table, in ``watch``,
in the warnings and in the records), never by a bot's ``id name`` in one place and its entrant
name in another, nor by its command line."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
from collections import Counter
from math import comb
from pathlib import Path
from typing import Any, Sequence

import pytest

from cardcli.games import registry
from cardcli.safe_text import display_name
from cardcli.tournament.schedule import balance, groups, places, plan
from conftest import PYTHON_BOT, ROOT, read_records, run_cli

# -- the schedule's balance -------------------------------------------------------------------


def played(entrants: int, players: int, teams: Sequence[Sequence[int]], deal_sets: int, duplicate: bool,
           permutations: bool) -> tuple[int, ...]:
    """Matches per entrant, counted from the schedule itself."""
    count: Counter[int] = Counter()
    for match in plan(entrants, players, teams, deal_sets, 5, duplicate, permutations):
        count.update(set(match.seating))
    return tuple(count[e] for e in range(entrants))


def even(counts: tuple[int, ...]) -> bool:
    """Whether every entrant plays as often as every other: counted here, not taken from the
    code under test."""
    return len(set(counts)) <= 1


@pytest.mark.parametrize("game, players", [("peppa", 4), ("seep", 4), ("pigugnin", 5), ("pepper", 3)])
@pytest.mark.parametrize("duplicate, permutations", [(True, False), (False, False), (True, True)])
def test_balance_finds_the_nearest_even_numbers_of_deal_sets_by_counting_every_schedule(
        game: str, players: int, duplicate: bool, permutations: bool) -> None:
    """The balance is worked out from the cycle of groups; here it is checked against a count of
    every schedule, deal set by deal set, for small fields."""
    teams = registry.get(game).teams(players)
    table = len(places(players, teams))
    for entrants in range(2, 7):
        cycle = len(groups(entrants, table))
        assert cycle == comb(entrants, min(entrants, table))
        limit = 2 * cycle + 2
        evens = [d for d in range(1, limit + cycle + 1)
                 if even(played(entrants, players, teams, d, duplicate, permutations))]
        for deal_sets in range(1, limit):
            found = balance(entrants, players, teams, deal_sets, duplicate, permutations)
            assert found.matches == played(entrants, players, teams, deal_sets, duplicate, permutations)
            assert found.even == (deal_sets in evens)
            assert found.more == min(d for d in evens if d >= deal_sets)
            below = [d for d in evens if d < deal_sets]
            assert found.fewer == (max(below) if below else None)
            if entrants <= table:
                assert found.even, "everybody plays every match"


def test_the_organisers_example_six_entrants_four_seats_two_deal_sets() -> None:
    found = balance(6, 4, (), 2)
    assert found.matches == (8, 8, 8, 4, 4, 0) and not found.even
    assert (found.fewer, found.more) == (None, 15)
    assert (balance(6, 4, (), 20).fewer, balance(6, 4, (), 20).more) == (15, 30)


# -- a tournament where the ordinal and the rating disagree -------------------------------------

FIELD = ["heur=heuristic", "rand=random", "first=first", "heur2=heuristic", "rand2=random",
         "zz-idle=random", "aa-idle=first"]
"""Seven entrants at a four-seat table, two deal sets: the groups are (0, 1, 2, 3) and
(0, 1, 2, 4), so the last two never play. They keep the starting rating (mu 25) and an
ordinal of 0, below entrants whose mu is lower but better established; and they tie, so their
order is their names' (``aa-idle`` first although entered last)."""


def field_args(directory: Path) -> list[str]:
    args = ["tournament", "peppa", "--seed", "5", "--deal-sets", "2", "-j", "1", "--dir", str(directory)]
    for entrant in FIELD:
        args += ["--bot", entrant]
    return args


@pytest.fixture(scope="module")
def field(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The tournament played once with --json and --csv, then resumed (nothing left to play)
    for the text table."""
    base = tmp_path_factory.mktemp("field")
    directory = base / "t"
    table_csv = base / "table.csv"
    first = run_cli(*field_args(directory), "--json", "--csv", str(table_csv))
    assert first.returncode == 0, first.stderr
    resumed = run_cli("tournament", "--resume", str(directory))
    assert resumed.returncode == 0, resumed.stderr
    return {"json": first, "text": resumed, "csv": list(csv.reader(table_csv.open())), "dir": directory}


def warnings(stderr: str) -> list[str]:
    """The unbalanced-schedule warnings in a run's stderr."""
    return [line for line in stderr.splitlines() if "unbalanced schedule" in line]


def test_an_unbalanced_schedule_is_announced_once_before_play(field: dict[str, Any]) -> None:
    lines = field["json"].stderr.splitlines()
    (warning,) = warnings(field["json"].stderr)
    assert warning.startswith("cardcli: warning: unbalanced schedule: with 2 deal sets")
    assert "play 0 to 8 matches each (zz-idle, aa-idle: 0; heur, rand, first: 8)" in warning
    assert "--deal-sets 35 would give every entrant the same number of matches" in warning
    progress = [i for i, line in enumerate(lines) if line.startswith("match ")]
    assert progress and lines.index(warning) < progress[0], "said before anything is played"
    json.loads(field["json"].stdout)  # stdout is still the one JSON object
    assert len(warnings(field["text"].stderr)) == 1, "--resume says it once too"


def test_a_balanced_schedule_says_nothing(tmp_path: Path) -> None:
    proc = run_cli("tournament", "peppa", "--seed", "2", "--deal-sets", "5", "-j", "1", "--dir", str(tmp_path / "t"),
                   "--bot", "a=random", "--bot", "b=first", "--bot", "c=random", "--bot", "d=first",
                   "--bot", "e=random", "--json")
    assert proc.returncode == 0, proc.stderr
    assert not warnings(proc.stderr)


def text_rows(out: str) -> list[tuple[int, str, float, float]]:
    """(rank, entrant, first numeric column, rating) of each row of the text table."""
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("# entrant"))
    rows = []
    for line in lines[header + 1:]:
        if not line.strip():
            break
        words = line.split()
        rows.append((int(words[0]), words[1], float(words[2]), float(words[3])))
    return rows


def test_the_table_is_in_the_order_of_the_ordinal_it_shows_first(field: dict[str, Any]) -> None:
    out = field["text"].stdout
    assert "ranked by ordinal = mu - 3 sigma, highest first (equal ordinals: by entrant name)" in out.splitlines()[0]
    header = next(line for line in out.splitlines() if line.lstrip().startswith("# entrant"))
    assert header.split()[2] == "ordinal"
    rows = text_rows(out)
    assert [r[0] for r in rows] == list(range(1, len(FIELD) + 1))
    assert [(-r[2], r[1]) for r in rows] == sorted((-r[2], r[1]) for r in rows)
    # the orders differ: somewhere an entrant ranks above one with a higher rating (mu)
    assert any(rows[i][3] < rows[j][3] for i in range(len(rows)) for j in range(i + 1, len(rows)))
    names = [r[1] for r in rows]
    aa, zz = names.index("aa-idle"), names.index("zz-idle")
    assert zz == aa + 1 and rows[aa][2] == rows[zz][2] == 0.0, "level ordinals by name, not by entry"
    idle = [line for line in out.splitlines() if "aa-idle" in line][0]
    assert "n/a ± n/a" in idle, "no deal played, no score: 0.00 would read as the best Peppa score"


def test_json_and_csv_list_the_rows_in_the_same_order_with_their_rank(field: dict[str, Any]) -> None:
    rows = text_rows(field["text"].stdout)
    data = json.loads(field["json"].stdout)
    assert data["ranked_by"] == "ordinal"
    assert [(r["rank"], r["entrant"], r["ordinal"], r["rating"]) for r in data["entrants"]] == rows
    assert all((r["score_per_deal"] is None) == (r["matches"] == 0) for r in data["entrants"])
    table = field["csv"]
    head = table[0]
    assert head[:3] == ["rank", "entrant", "rating"]
    assert [(int(r[0]), r[1], float(r[head.index("ordinal")]), float(r[2])) for r in table[1:]] == rows


# -- names ------------------------------------------------------------------------------------


def test_watch_names_entrants_as_the_table_does(tmp_path: Path) -> None:
    """The bot says ``id name someone-else``; the table and ``watch`` both say ``py``. A long
    name is cut the same way in both (one display function)."""
    long = "L" * 50
    directory = tmp_path / "t"
    proc = run_cli("tournament", "peppa", "--seed", "4", "--deal-sets", "1", "-j", "1", "--sandbox", "off",
                   "--dir", str(directory), "--bot", f"py={PYTHON_BOT} --seed 2 --name someone-else",
                   "--bot", f"{long}=first")
    assert proc.returncode == 0, proc.stderr
    records = read_records(directory / "records.jsonl")
    assert any(s["name"] == "someone-else" for r in records for s in r["seats"]), "the bot did say its name"
    out = run_cli("watch", str(directory), "--once", check=True).stdout
    names = ["py", long]
    game_lines = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(game_lines) == len(records)
    for line, record in zip(game_lines, records):
        seating = record["tournament"]["seating"]
        winners = ", ".join(f"{s}:{display_name(names[seating[s]])}" for s in record["result"]["winners"])
        assert line.endswith(f"won by {winners}; scores {record['result']['scores']}"), line
    assert "someone-else" not in out
    table = out[out.index(" # entrant"):]
    for shown in ("py", display_name(long)):
        assert f" {shown} " in table and f" {shown} " in proc.stdout


def test_a_bot_that_fails_before_its_handshake_is_named_by_its_entrant_name(tmp_path: Path) -> None:
    """Two bots behind command lines of over 200 characters: one exits at once, the other says
    a line the protocol ignores and exits. Each is its entrant name in the table, the warnings,
    the records and ``watch``; its command line appears nowhere but the record's ``command``."""
    folder = tmp_path.joinpath(*(["a-rather-long-directory-name-for-bots"] * 5))
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "tests/bots/faulty_bot.py", folder / "faulty_bot.py")
    (folder / "chatty_exit.py").write_text('import sys\nprint("starting up, please wait", flush=True)\nsys.exit(1)\n')
    silent = f"{sys.executable} {folder / 'faulty_bot.py'} --exit-at-start"
    chatty = f"{sys.executable} {folder / 'chatty_exit.py'} --level 3"
    assert len(silent) > 200 and len(chatty) > 200
    directory = tmp_path / "t"
    proc = run_cli("tournament", "peppa", "--seed", "8", "--deal-sets", "1", "-j", "2", "--sandbox", "off",
                   "--dir", str(directory), "--bot", f"shortname={silent}", "--bot", f"talker={chatty}",
                   "--bot", "r=random", "--bot", "f=first")
    assert proc.returncode == 0, proc.stderr
    watched = run_cli("watch", str(directory), "--once", check=True).stdout
    for text in (proc.stdout, proc.stderr, watched):
        assert str(folder) not in text and "a-rather-long-directory" not in text
    rows = {line.split()[1]: line for line in proc.stdout.splitlines() if line[:2].strip().isdigit()}
    assert "crash 4" in rows["shortname"] and "crash 4" in rows["talker"]
    warned = [line for line in proc.stderr.splitlines() if "the protocol ignores" in line]
    assert len(warned) == 4 and all("(talker) sent 1 line" in line for line in warned), proc.stderr
    names = ["shortname", "talker", "r", "f"]
    for record in read_records(directory / "records.jsonl"):
        seating = record["tournament"]["seating"]
        for seat in record["seats"]:
            assert seat["name"] == names[seating[seat["seat"]]]
            assert seat["bot"]["name"] is None or seating[seat["seat"]] > 1
        faulted = {f["seat"] for f in record["faults"]}
        assert {s for s, e in enumerate(seating) if e < 2} == faulted
        assert all("during the handshake" in f["detail"] for f in record["faults"])
        commands = {" ".join(record["seats"][s]["command"]) for s in faulted}
        assert commands == {silent, chatty}, "the command line is kept, as the command"


# -- play's output: events --------------------------------------------------------------------


@pytest.mark.parametrize("game", ["peppa", "seep", "pigugnin", "pepper"])
def test_events_give_numbers_as_json_numbers_and_card_tokens_as_strings(game: str) -> None:
    proc = run_cli("play", game, "--seed", "3", "--max-deals", "2", "--events", check=True)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    events, summary = lines[:-1], lines[-1]
    by_kind: dict[str, list[list[Any]]] = {}
    for event in events:
        by_kind.setdefault(event["event"], []).append(event["args"])
        for arg in event["args"]:
            assert isinstance(arg, (int, str)) and not isinstance(arg, bool)
            if isinstance(arg, str):
                assert not arg.lstrip("-").isdigit(), f"a number left as a string in {event}"
    deals = by_kind["deal"]
    assert [d[0] for d in deals] == sorted(d[0] for d in deals) and all(isinstance(x, int) for d in deals for x in d)
    scored = [d for d in summary["deal_scores"]]
    assert [args[1:] for args in by_kind["score"]] == [d["points"] for d in scored], "points are the record's numbers"
    assert by_kind["totals"] == [d["totals"] for d in scored]
    plays = by_kind["play"]
    assert all(isinstance(seat, int) and isinstance(move, str) for seat, move, *_ in plays), "a move is a token"
    if game != "seep":
        assert all(len(move) == 2 and move[-1] in "CDHS" for _, move, *_ in plays), "card tokens stay strings"


def test_a_bid_is_a_number_only_when_it_is_one() -> None:
    """Pepper's bids are numbers of tricks or words (pass, small, big): each keeps its kind."""
    proc = run_cli("play", "pepper", "--seed", "3", "--events", check=True)
    bids = [json.loads(line)["args"] for line in proc.stdout.splitlines()[:-1]
            if json.loads(line)["event"] == "bid"]
    kinds = {type(bid).__name__ for _, bid in bids}
    assert kinds == {"int", "str"}, bids
    assert {bid for _, bid in bids if isinstance(bid, str)} <= {"pass", "small", "big"}


# -- play's output: a long match on a terminal ------------------------------------------------

LONG_MATCH = ["play", "peppa", "-o", "end_threshold=100000", "--max-deals", "60", "--seed", "1"]
"""A Peppa match that nobody ends before 60 deals, adjudicated there."""


def deal_rows(out: str) -> list[int]:
    return [int(line.split()[0]) for line in out.splitlines() if line[:4].strip().isdigit()]


def test_a_long_match_on_a_terminal_elides_the_middle_deals() -> None:
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "cardcli", *LONG_MATCH], cwd=str(ROOT), encoding="utf-8",
                          timeout=60, dimensions=(50, 140), env={**os.environ, "PYTHONPATH": str(ROOT)})
    child.expect(pexpect.EOF)
    child.close()
    out = child.before.replace("\r\n", "\n")
    assert child.exitstatus == 0, out
    assert deal_rows(out) == [*range(1, 11), *range(51, 61)]
    (elided,) = [line for line in out.splitlines() if "not shown" in line]
    assert elided.split()[:2] == ["...", "40"] and "(11 to 50;" in elided
    lines = out.splitlines()
    assert len(lines) < 40, "the table fits a screen"
    assert lines.index(elided) == [i for i, line in enumerate(lines) if line.startswith("deal ")][0] + 11
    assert any(line.startswith("total") for line in lines) and "adjudicated by the totals after 60 deals" in out


def test_a_long_match_piped_prints_every_deal() -> None:
    out = run_cli(*LONG_MATCH, check=True).stdout
    assert deal_rows(out) == list(range(1, 61)) and "not shown" not in out


def test_the_summary_elides_only_when_it_saves_lines() -> None:
    from cardcli.referee import Settings, play_match
    from cardcli.report import summary_text
    from cardcli.seats.builtin import random_seat

    setup = registry.resolve("peppa", None, {"end_threshold": "100000"}, 4, 1)
    result = play_match(setup, [random_seat(f"r{s}", s) for s in range(4)], Settings(max_deals=21))
    assert deal_rows(summary_text(setup, result, None, deals_shown=20)) == list(range(1, 22)), "one row: all"
    assert deal_rows(summary_text(setup, result, None, deals_shown=4)) == [1, 2, 20, 21]
    assert deal_rows(summary_text(setup, result, None, deals_shown=5)) == [1, 2, 3, 20, 21]
    assert deal_rows(summary_text(setup, result, None, deals_shown=0)) == list(range(1, 22)), "0: every deal"
