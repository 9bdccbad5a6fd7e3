"""What a tournament shows its organiser: a warning for a schedule that does not give every
entrant the same number of matches, a table in the order of a column it shows (the same order
in --json and --csv), and every entrant named by its entrant name (in the table, in ``watch``,
in the warnings and in the records), never by a bot's ``id name`` in one place and its entrant
name in another, nor by its command line."""

from __future__ import annotations

import csv
import json
import os
import random
import re
import shutil
import sys
from collections import Counter
from math import comb
from pathlib import Path
from typing import Any, Sequence

import pytest

from cardcli.games import registry
from cardcli.records.model import Record
from cardcli.safe_text import display_name
from cardcli.tournament.paired import PairResult
from cardcli.tournament.results import Table, _preference, order_rows, render, tabulate
from cardcli.tournament.schedule import balance, groups, places, plan
from conftest import PYTHON_BOT, ROOT, read_records, run_cli
from made_up import made_up

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


# -- a field the table must order: idle entrants, matchpoints, ordinals -------------------------

FIELD = ["heur=heuristic", "rand=random", "first=first", "heur2=heuristic", "rand2=random",
         "zz-idle=random", "aa-idle=first"]
"""Seven entrants at a four-seat table, two deal sets: the groups are (0, 1, 2, 3) and
(0, 1, 2, 4), so the last two never play. They have no matchpoints and keep the starting
rating (mu 25, ordinal 0), below every entrant that played; and they tie, so their order is
their names' (``aa-idle`` first although entered last)."""


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


def text_rows(out: str) -> list[tuple[int, str, str, float | None, float]]:
    """(rank, mark, entrant, MP, ordinal) of each row of the text table: the mark is the
    character after the rank, '=' for a row not separated from the row above."""
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#  entrant"))
    rows = []
    for line in lines[header + 1:]:
        if not line.strip() or not line[:2].strip().isdigit():
            break
        words = line[3:].split()
        rows.append((int(line[:2]), line[2], words[0], None if words[1] == "n/a" else float(words[1]), float(words[2])))
    return rows


def test_the_table_is_ranked_by_paired_results_then_matchpoints_as_its_heading_says(field: dict[str, Any]) -> None:
    out = field["text"].stdout
    lines = out.splitlines()
    assert lines[0] == ("8 matches, ranked by the paired duplicate results (a pair they separate is never out of "
                        "order), then by matchpoints (MP), ordinal, name")
    assert lines[1].startswith("'=' after a rank: not separated from the row above by the paired results")
    header = next(line for line in lines if line.lstrip().startswith("#  entrant"))
    assert header.split()[2:4] == ["MP", "ordinal"]
    rows = text_rows(out)
    data = json.loads(field["json"].stdout)
    by_name = {r["entrant"]: r for r in data["entrants"]}
    assert [r[0] for r in rows] == list(range(1, len(FIELD) + 1))
    for upper, lower in zip(rows, rows[1:]):
        separated = by_name[upper[2]]["next"]["separated"]
        assert lower[1] == (" " if separated else "="), "the mark says what the paired result says"
        if not separated and upper[3] is not None and lower[3] is not None:
            assert (upper[3], upper[4], lower[2]) >= (lower[3], lower[4], upper[2]), "else by MP, ordinal, name"
    names = [r[2] for r in rows]
    assert names[-2:] == ["aa-idle", "zz-idle"], "no comparison: last, level ordinals by name"
    assert rows[-1][3] is None and rows[-1][4] == 0.0
    idle = [line for line in lines if "aa-idle" in line][0]
    assert "n/a ± n/a" in idle, "no deal played, no score: 0.00 would read as the best Peppa score"


def test_json_and_csv_list_the_rows_in_the_same_order_with_their_rank(field: dict[str, Any]) -> None:
    rows = text_rows(field["text"].stdout)
    data = json.loads(field["json"].stdout)
    assert data["ranked_by"] == ["paired", "matchpoints", "ordinal", "entrant"]
    assert [(r["rank"], r["entrant"], r["matchpoints"], r["ordinal"]) for r in data["entrants"]] == [
        (rank, name, mp, ordinal) for rank, _, name, mp, ordinal in rows]
    assert all((r["score_per_deal"] is None) == (r["matches"] == 0) for r in data["entrants"])
    assert all((r["matchpoints"] is None) == (r["comparisons"] == 0) for r in data["entrants"])
    first = data["first_place"]
    assert first["entrant"] == rows[0][2] and first["established"] == (not first["not_separated_from"])
    table = field["csv"]
    head = table[0]
    assert head[:3] == ["rank", "entrant", "rating"]
    assert [(int(r[0]), r[1], float(r[head.index("ordinal")])) for r in table[1:]] == [
        (rank, name, ordinal) for rank, _, name, _, ordinal in rows]


# -- what the rank rests on: the paired evidence ---------------------------------------------


def peppa_record(index: int, deal_set: int, rotation: int, seating: Sequence[int],
                 points: Sequence[int]) -> Record:
    """A made-up complete one-deal Peppa record: ``points`` by seat; the two lowest win, as
    Peppa's two of four do."""
    order = sorted(range(4), key=lambda s: (points[s], s))
    return made_up({
        "game": "peppa", "status": "complete",
        "seats": [{"seat": s, "kind": "builtin"} for s in range(4)],
        "deals": [{"number": 1, "moves": [], "points": list(points), "totals": list(points)}],
        "faults": [],
        "result": {"winners": sorted(order[:2]), "losers": sorted(order[2:]), "scores": list(points)},
        "tournament": {"index": index, "key": f"{deal_set}.{rotation}", "deal_set": deal_set, "rotation": rotation,
                       "seating": list(seating), "entrants": [str(e) for e in seating]},
    })


def test_two_entrants_that_win_every_match_are_told_apart_by_their_points() -> None:
    """The issue's table: in Peppa two seats of four win every match, so two good entrants
    both win (almost) every match and places of win and lose alone leave them level (the
    rating fed those alone gives them equal ordinals, and the name put the worse first). The
    points on the same cards separate them: ``b-heur`` takes 2 points a deal fewer than
    ``a-mine`` from every seat of every deal set, and must rank first, established."""
    rng = random.Random(4)
    names = ["a-mine", "b-heur", "c-rand", "d-rand"]
    skill = [6, 4, 14, 16]  # points a deal over the cards' share; lower is better
    records = []
    for deal_set in range(6):
        cards = [rng.randint(0, 8) for _ in range(4)]  # what each seat's hand costs, the same in every rotation
        for rotation in range(4):
            seating = [(seat + rotation) % 4 for seat in range(4)]
            points = [cards[s] + skill[e] + rng.choice([-1, 0, 1]) for s, e in enumerate(seating)]
            records.append(peppa_record(len(records), deal_set, rotation, seating, points))
    table = tabulate(names, records)
    rows = {r["entrant"]: r for r in table.rows}
    assert (rows["a-mine"]["wins"], rows["b-heur"]["wins"]) == (24, 24), "both won every match"
    assert [r["entrant"] for r in table.rows] == ["b-heur", "a-mine", "c-rand", "d-rand"]
    pair = table.pair("a-mine", "b-heur")
    assert pair is not None and pair.better == "b-heur"
    assert rows["b-heur"]["next"] == {"entrant": "a-mine", "n": 24, "mean": round(-pair.mean, 3),
                                      "ci": round(pair.half_width, 3), "wins": pair.losses, "draws": pair.draws,
                                      "losses": pair.wins, "separated": True}
    assert table.first_place() == {"entrant": "b-heur", "established": True, "not_separated_from": []}
    text = render(table, names)
    assert "first place: b-heur, separated from every other entrant by the paired results" in text
    # the rating fed win and lose alone could not have done it: a-mine and b-heur have the same places
    assert all(r.result is not None and r.tournament is not None
               and set(r.result.winners) == {s for s, e in enumerate(r.tournament.seating) if e < 2} for r in records)


def synthetic_rows(rng: random.Random, names: Sequence[str]) -> list[dict[str, Any]]:
    return [{"entrant": n, "matchpoints": rng.choice([None, *(round(rng.uniform(0, 100), 2) for _ in range(5))]),
             "ordinal": round(rng.uniform(-5, 30), 2)} for n in names]


def pair_result(a: str, b: str, mean: float, half: float) -> PairResult:
    return PairResult(a, b, 10, mean, half, 5, 0, 5)


@pytest.mark.parametrize("seed", range(40))
def test_no_row_is_ever_below_an_entrant_a_separated_paired_result_puts_it_above(seed: int) -> None:
    """Random tables whose separated results follow a hidden order (so they never go round in
    a circle), with matchpoints and ordinals that disagree with it at random: a separated
    pair is never out of order, neighbours out of the matchpoints' order are always a
    separated pair (the upper better), and the rest is by matchpoints, ordinal, name."""
    rng = random.Random(seed)
    names = [f"e{i}" for i in range(rng.randint(2, 8))]
    hidden = {n: rng.random() for n in names}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            gap = hidden[a] - hidden[b]
            pairs.append(pair_result(a, b, gap, abs(gap) * rng.choice([0.5, 2.0])))  # separated or not
    rows, against = order_rows(synthetic_rows(rng, names), pairs)
    assert not against
    position = {r["entrant"]: i for i, r in enumerate(rows)}
    for pair in pairs:
        if pair.better is not None:
            loser = pair.b if pair.better == pair.a else pair.a
            assert position[pair.better] < position[loser], pair
    for upper, lower in zip(rows, rows[1:]):
        assert upper["next"]["entrant"] == lower["entrant"]
        if _preference(upper) > _preference(lower):
            pair = next(p for p in pairs if {p.a, p.b} == {upper["entrant"], lower["entrant"]})
            assert pair.better == upper["entrant"], "an inversion is always a separated pair"
    assert [r["rank"] for r in rows] == list(range(1, len(names) + 1)) and rows[-1]["next"] is None


def test_separated_results_that_go_round_in_a_circle_are_said_to() -> None:
    """a beats b, b beats c, c beats a, each separated: no order follows all three. The table
    takes the first by matchpoints and says which pair it placed against its result."""
    rows = [{"entrant": name, "matchpoints": mp, "ordinal": 1.0, "rating": 25.0, "rating_ci": 1.0, "matches": 2,
             "wins": 1, "draws": 0, "losses": 1, "score_per_deal": 1.0, "score_per_deal_ci": 0.5, "faults": {}}
            for name, mp in [("a", 60.0), ("b", 50.0), ("c", 40.0)]]
    pairs = [pair_result("a", "b", 2.0, 1.0), pair_result("b", "c", 2.0, 1.0), pair_result("a", "c", -2.0, 1.0)]
    ordered, against = order_rows(rows, pairs)
    assert [r["entrant"] for r in ordered] == ["a", "b", "c"] and against == [("a", "c")]
    table = Table(tuple(ordered), {}, 3, True, tuple(pairs), tuple(against))
    text = render(table, ["a", "b", "c"])
    assert "note: a is above c against their paired result: the paired results go round in a circle" in text


# -- entrants of known strength, every game ---------------------------------------------------


class Sloppy:
    """The heuristic player, except that it plays a random legal move with probability ``p``:
    an entrant whose strength is set by one number, weaker as ``p`` grows (checked against
    long tournaments of every game: docs/tournaments.md)."""

    def __init__(self, p: float, seed: str):
        from cardcli.players.heuristic import HeuristicPlayer

        self.inner = HeuristicPlayer()
        self.p = p
        self.rng = random.Random(seed)

    def notify(self, lines: Sequence[str]) -> None:
        self.inner.notify(lines)

    def choose(self, request: Any) -> str:
        if self.rng.random() < self.p:
            return self.rng.choice(request.moves)
        return self.inner.choose(request)


def sloppy_tournament(game: str, ps: Sequence[float], deal_sets: int, seed: int,
                      permutations: bool) -> list[Record]:
    """The records of a duplicate tournament between sloppy heuristic players, one per
    ``ps``, played here in this process (no worker, no bot process: a few hundredths of a
    second a match), tagged as the tournament runner tags them."""
    from cardcli.referee import Settings, play_match
    from cardcli.seats.builtin import PlayerSeat

    spec = registry.get(game)
    players = registry.resolve(game, None, {}, None, seed).num_players
    records = []
    for match in plan(len(ps), players, spec.teams(players), deal_sets, seed, True, permutations):
        setup = registry.resolve(game, None, {}, players, match.seed)
        seats = [PlayerSeat(f"e{e}", Sloppy(ps[e], f"{match.seed}/{s}/{e}")) for s, e in enumerate(match.seating)]
        record = play_match(setup, seats, Settings()).record
        record["tournament"] = {"index": match.index, "key": match.key, "deal_set": match.deal_set,
                                "rotation": match.rotation, "seating": list(match.seating),
                                "entrants": [f"e{e}" for e in match.seating]}
        records.append(Record.from_json(record))
    return records


KNOWN_FIELDS = {
    # Peppa's two winners a match: two good entrants a shade apart, who both win almost every
    # match, and two random players; seed 25 is the first of 1 to 39 where 24 matches separate
    # the good two (they are 0.6 a deal apart: it usually takes a few hundred matches)
    "peppa-two-winners": ("peppa", [0.0, 0.1, 1.0, 1.0], 1, True, 25),
    "peppa": ("peppa", [0.0, 0.3, 0.6, 1.0], 1, True, 3),
    "pigugnin": ("pigugnin", [0.0, 0.35, 0.7, 1.0], 2, True, 1),
    "seep": ("seep", [0.0, 0.15, 0.3, 0.45], 12, False, 4),
    "pepper": ("pepper", [0.0, 0.15, 0.3, 0.45], 12, False, 1),
}
"""game, p of each entrant (0 is the heuristic player itself), deal sets, permutations (the
four-seat games: rotations keep every entrant's neighbours, whose effect is as large as these
entrants' differences; two-place games have no other order), seed."""


@pytest.mark.parametrize("field_name", sorted(KNOWN_FIELDS))
def test_the_rank_follows_the_true_order_wherever_the_paired_interval_separates_two_entrants(
        field_name: str) -> None:
    game, ps, deal_sets, permutations, seed = KNOWN_FIELDS[field_name]
    names = [f"e{i}" for i in range(len(ps))]
    records = sloppy_tournament(game, ps, deal_sets, seed, permutations)
    assert len(records) == (24 if permutations else 2) * deal_sets
    if game == "peppa":
        assert all(r.result is not None and len(r.result.winners) == 2 for r in records), "two winners a match"
    table = tabulate(names, records)
    rank = {r["entrant"]: r["rank"] for r in table.rows}
    separated = 0
    for pair in table.pairs:
        pa, pb = ps[names.index(pair.a)], ps[names.index(pair.b)]
        if pair.better is None or pa == pb:
            continue
        separated += 1
        stronger, weaker = (pair.a, pair.b) if pa < pb else (pair.b, pair.a)
        assert pair.better == stronger, f"the interval itself is wrong here: {pair}"
        assert rank[stronger] < rank[weaker], f"{stronger} ranks below {weaker} although {pair}"
    assert separated, "a field where the paired results separate somebody"
    if field_name == "peppa-two-winners":
        good = table.pair("e0", "e1")
        assert good is not None and good.better == "e0" and [r["entrant"] for r in table.rows[:2]] == ["e0", "e1"]
        assert min(r["wins"] for r in table.rows[:2]) >= 20, "both won nearly every match"
    first = table.first_place()
    if first["established"]:
        assert first["entrant"] == "e0"
    text = render(table, names)
    marks = [row[1] for row in text_rows(text)]
    assert marks == [" "] + [" " if r["next"]["separated"] else "=" for r in table.rows[:-1]]


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
    table = out[out.index(" #  entrant"):]
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
    scored = list(summary["deal_scores"])
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


# -- tournament options: standings as it runs, help shared with play --------------------------


def test_standings_every_n_matches_go_to_stderr_ranked_as_the_final_table(tmp_path: Path) -> None:
    args = ["tournament", "peppa", "--seed", "3", "--deal-sets", "3", "-j", "1", "--bot", "h=heuristic",
            "--bot", "r=random", "--bot", "f=first", "--bot", "s=random", "--standings-every", "5"]
    proc = run_cli(*args, "--dir", str(tmp_path / "t"), "--json")
    assert proc.returncode == 0, proc.stderr
    final = json.loads(proc.stdout)
    assert final["matches"] == 12
    blocks = proc.stderr.split("standings after ")[1:]
    assert [block.split(" matches:")[0] for block in blocks] == ["5 of 12", "10 of 12"], "not after the last"
    for block, done in zip(blocks, (5, 10)):
        lines = block.splitlines()
        assert lines[1].startswith(f"{done} matches, ranked by the paired duplicate results")
        rows = text_rows(block)
        assert sorted(r[2] for r in rows) == ["f", "h", "r", "s"]
        assert any(line.startswith("first place") for line in lines)
        assert "crosstable" not in block, "the standings, not the whole table"
    # the standings after 10 are the table of the first 10 records, in schedule order, as the final table is made
    records = read_records(tmp_path / "t" / "records.jsonl")
    first_ten = [Record.from_json(r) for r in sorted(records[:10], key=lambda r: r["tournament"]["index"])]
    assert [r[2] for r in text_rows(blocks[1])] == [r["entrant"] for r in tabulate(["h", "r", "f", "s"], first_ten).rows]
    assert [r[2] for r in text_rows(run_cli("tournament", "--resume", str(tmp_path / "t"), check=True).stdout)] == [
        r["entrant"] for r in final["entrants"]]


SHARED_WITH_PLAY = ["--variant", "--option", "--move-time", "--startup-time", "--quit-grace", "--max-deals",
                    "--on-fault", "--bot-memory", "--bot-cpu", "--bot-files", "--time-bank"]


def option_helps(command: str) -> dict[str, str]:
    """Each option's help text as ``COMMAND --help`` prints it, by its long name, the lines of
    the text joined and the bracketed defaults and ranges at its end left out."""
    out = run_cli(command, "--help", check=True).stdout
    options = out[out.index("Options:"):].splitlines()[1:]
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for line in options:
        head = re.match(r"\s{2}(?:-\w, )?(--[\w-]+)(?: \S+)*\s{2,}(\S.*)", line)
        if head:
            current = found.setdefault(head.group(1), [])
            current.append(head.group(2))
        elif re.match(r"\s{2}-", line):
            current = []  # an option without help on its line, or a flag pair: not compared
        else:
            current.append(line.strip())
    return {name: re.sub(r"\s*\[[^\]]*\]$", "", " ".join(words)) for name, words in found.items()}


@pytest.fixture(scope="module")
def helps() -> dict[str, dict[str, str]]:
    return {command: option_helps(command) for command in ("tournament", "play")}


@pytest.mark.parametrize("option", SHARED_WITH_PLAY)
def test_tournament_help_explains_the_options_it_shares_with_play_in_the_same_words(
        option: str, helps: dict[str, dict[str, str]]) -> None:
    shown = helps["tournament"].get(option, "")
    assert len(shown) > 20, f"tournament --help says nothing of {option}"
    assert shown == helps["play"][option]
