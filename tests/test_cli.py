"""The command line as a user meets it: commands, output shapes, errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from conftest import PYTHON_BOT, read_records, run_cli, run_json


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_play_with_no_seats_plays_a_whole_match_with_random_players() -> None:
    result = invoke("play", "peppa", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "winners:" in result.output and "losers:" in result.output
    assert "seed 2" in result.output
    assert "total" in result.output


def test_play_json_prints_exactly_one_object_with_the_documented_fields(record_path: Path) -> None:
    data = run_json("play", "peppa", "--seed", "4", "--record", str(record_path))
    for key in ("game", "variant", "options", "seed", "players", "winners", "losers", "deals", "faults", "record"):
        assert key in data
    assert data["game"] == "peppa" and data["variant"] == "torino" and data["seed"] == 4
    assert [p["seat"] for p in data["players"]] == [0, 1, 2, 3]
    assert all({"seat", "name", "score"} <= set(p) for p in data["players"])
    assert data["record"] == str(record_path)
    assert data["deals"] == len(read_records(record_path)[0]["deals"])
    assert sorted(data["winners"] + data["losers"]) == [0, 1, 2, 3]


def test_without_seed_a_random_seed_is_chosen_and_reported() -> None:
    first = run_json("play", "peppa")
    second = run_json("play", "peppa")
    assert isinstance(first["seed"], int) and first["seed"] != second["seed"]


def test_variant_and_options_are_applied_and_reported() -> None:
    data = run_json("play", "peppa", "--seed", "1", "--variant", "standard", "-o", "play_direction=ccw",
                    "-o", "boundary_tie=shared_loss", "-o", "end_threshold=500")
    assert data["variant"] == "standard"
    assert data["options"]["play_direction"] == "ccw"
    assert data["options"]["pass_cycle"] == ["left", "right", "across"]
    assert data["options"]["end_threshold"] == 500
    assert max(p["score"] for p in data["players"]) > 500


@pytest.mark.parametrize(
    "args, message",
    [
        (("play", "chess"), "unknown game 'chess'"),
        (("play", "peppa", "--variant", "roman"), "unknown variant 'roman'"),
        (("play", "peppa", "-o", "colour=red"), "unknown option 'colour'; valid options:"),
        (("play", "peppa", "-o", "end_threshold=lots"), "option end_threshold: 'lots' is not valid"),
        (("play", "peppa", "-o", "play_direction=up"), "expected cw|ccw"),
        (("play", "peppa", "-o", "novalue"), "must be written NAME=VALUE"),
        (("play", "peppa", "--seat", "random", "--seat", "random"), "peppa is played by 4 players, not 2"),
        (("play", "peppa", "--seat", "randon", "--seat", "random", "--seat", "random", "--seat", "random"),
         "'randon' is neither a built-in player"),
        (("play", "peppa", "--seat", "./nope.sh", "--seat", "random", "--seat", "random", "--seat", "random"),
         "no such program"),
        (("play", "peppa", "--record", "/no/such/dir/x.jsonl"), "cannot write the record"),
        (("play", "peppa", "--move-time", "-1"), "--move-time"),
        (("rules", "chess"), "unknown game 'chess'"),
        (("replay", "/no/such/file.jsonl"), "no such file"),
        (("verify", "/no/such/file.jsonl"), "no such file"),
        (("frobnicate",), "No such command 'frobnicate'"),
    ],
)
def test_bad_input_gives_one_line_and_exit_status_2(args, message) -> None:
    proc = run_cli(*args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("cardcli: error: ")
    assert message in lines[0]
    assert "Traceback" not in proc.stderr


def test_games_lists_games_variants_counts_and_option_defaults_from_the_registry() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    assert "peppa" in result.output and "torino (default)" in result.output and "standard" in result.output
    assert "end_threshold = 100 (torino), 1000 (standard)" in result.output
    data = json.loads(invoke("games", "--json").output)
    peppa = next(g for g in data if g["name"] == "peppa")
    assert peppa["players"] == [4]
    options = {o["name"]: o for o in peppa["options"]}
    assert options["pass_cycle"]["defaults"] == {"torino": ["right"], "standard": ["left", "right", "across"]}
    assert options["boundary_tie"]["defaults"]["torino"] == "play_on"


def test_rules_prints_a_summary_and_every_option() -> None:
    result = invoke("rules", "peppa")
    assert result.exit_code == 0
    assert "Q♠ 13" in result.output
    for name in ("play_direction", "two_of_clubs_leads", "no_points_first_trick", "hearts_must_be_broken",
                 "cappotto", "end_threshold", "end_inclusive", "boundary_tie", "pass_cycle"):
        assert name in result.output


def test_replay_shows_tricks_with_suit_symbols_and_scores(record_path: Path) -> None:
    run_cli("play", "peppa", "--seed", "8", "--record", str(record_path), check=True)
    result = invoke("replay", str(record_path))
    assert result.exit_code == 0, result.output
    assert "Deal 1" in result.output and "trick  1:" in result.output
    assert any(sym in result.output for sym in "♠♥♦♣")
    assert "deal score:" in result.output and "totals:" in result.output
    assert result.output.count("hand of") >= 4


def test_replay_of_pepper_shows_who_took_each_trick_without_card_points(record_path: Path) -> None:
    """Pepper's tricks carry no card points: no trick line ends in a meaningless 'takes 0'."""
    run_cli("play", "pepper", "--seed", "3", "--record", str(record_path), check=True)
    result = invoke("replay", str(record_path))
    tricks = [line for line in result.output.splitlines() if line.lstrip().startswith("trick ")]
    assert tricks and all(line.endswith(" takes it") for line in tricks), tricks[:3]


def test_replay_from_one_seat_shows_only_that_seat_s_hand_and_pass(record_path: Path) -> None:
    run_cli("play", "peppa", "--seed", "8", "--record", str(record_path), check=True)
    record = read_records(record_path)[0]
    result = invoke("replay", str(record_path), "--seat", "2")
    assert result.exit_code == 0, result.output
    deals = len(record["deals"])
    assert result.output.count("hand of 2:") == deals
    assert "hand of 0:" not in result.output and "hand of 1:" not in result.output
    assert "0:random passes" not in result.output
    assert result.output.count("2:random passes") == deals
    assert "as seat 2 saw it" in result.output


def test_replay_seat_out_of_range_is_bad_input(record_path: Path) -> None:
    run_cli("play", "peppa", "--seed", "8", "--record", str(record_path), check=True)
    proc = run_cli("replay", str(record_path), "--seat", "7")
    assert proc.returncode == 2 and "--seat 7" in proc.stderr


def test_version_and_help() -> None:
    assert invoke("--version").exit_code == 0
    result = invoke("play", "--help")
    assert result.exit_code == 0 and "--seat" in result.output and "--on-fault" in result.output


def test_play_and_tournament_describe_every_option_they_share_alike() -> None:
    """An option both commands take has one help text and one default (cardcli/cli/options.py
    declares it once), except those DIFFERENT lists with the reason each means another thing."""
    import click

    from cardcli.cli.options import DIFFERENT
    from cardcli.cli.play import play
    from cardcli.cli.tournament import tournament

    def by_flag(command: click.Command) -> dict[str, click.Option]:
        return {flag: p for p in command.params if isinstance(p, click.Option) for flag in p.opts}

    in_play, in_tournament = by_flag(play), by_flag(tournament)
    shared = sorted(set(in_play) & set(in_tournament) - {"-o"})
    assert len(shared) > 25, shared
    for flag in shared:
        one, other = in_play[flag], in_tournament[flag]
        alike = (one.help, one.default, one.metavar) == (other.help, other.default, other.metavar)
        assert alike != (flag in DIFFERENT), (flag, one.help, other.help, one.default, other.default)
    assert set(DIFFERENT) <= set(shared), sorted(set(DIFFERENT) - set(shared))


def test_the_requests_take_every_option_of_their_command_and_no_other() -> None:
    """play's and tournament's options are the fields of their requests' option values, so an
    option added to a command and not to its request (or the other way) fails here."""
    import attrs

    from cardcli.cli.common import RemoteArgs
    from cardcli.cli.play import play
    from cardcli.cli.requests import MatchOptions, PlayOptions, TournamentOptions
    from cardcli.cli.tournament import tournament

    shared = {f.name for f in attrs.fields(MatchOptions) if f.name != "remote"} | {
        f.name for f in attrs.fields(RemoteArgs)}
    for command, own in ((play, PlayOptions), (tournament, TournamentOptions)):
        assert {p.name for p in command.params} == shared | {f.name for f in attrs.fields(own)}, command.name


def test_games_and_rules_describe_seep_with_its_variants_counts_and_options() -> None:
    data = json.loads(invoke("games", "--json").output)
    seep = next(g for g in data if g["name"] == "seep")
    assert seep["players"] == [4, 2, 3]
    assert [v["name"] for v in seep["variants"]] == ["standard", "thirty", "no_cementing"]
    options = {o["name"]: o for o in seep["options"]}
    assert options["cementing"]["defaults"] == {"standard": True, "thirty": True, "no_cementing": False}
    assert options["scoring"]["defaults"]["thirty"] == "thirty"
    assert options["baazi_target"]["defaults"]["standard"] == 100
    result = invoke("rules", "seep")
    assert result.exit_code == 0 and "baazi" in result.output and "throw_rule" in result.output


def test_seep_player_count_follows_the_seats_or_players_option() -> None:
    assert len(run_json("play", "seep", "--seed", "1", "--players", "3")["players"]) == 3
    proc = run_cli("play", "seep", "--players", "5")
    assert proc.returncode == 2 and "seep is played by 2, 3 or 4 players, not 5" in proc.stderr
    proc = run_cli("play", "seep", "--players", "2", "-o", "first_dealer=3")
    assert proc.returncode == 2 and "first_dealer 3" in proc.stderr


def test_pigugnin_json_reports_busche_and_standings_per_seat() -> None:
    data = run_json("play", "pigugnin", "--seed", "5", "--players", "5")
    assert len(data["players"]) == 5 and data["lower_is_better"] is True
    standings = [p["standing"] for p in data["players"]]
    if data["annulled"]:
        assert set(standings) == {"annulled"}
    else:
        assert standings.count("win") >= 1 and standings.count("lose") >= 1
    last = data["deal_scores"][-1]["totals"]
    assert [p["score"] for p in data["players"]] == last, "the score is the busche total"


def test_pepper_json_gives_team_and_player_scores() -> None:
    data = run_json("play", "pepper", "--seed", "4", "--max-deals", "40")
    scores = [p["score"] for p in data["players"]]
    assert scores[0] == scores[2] and scores[1] == scores[3], "partners share the team score"
    assert data["teams"] == [{"seats": [0, 2], "score": scores[0]}, {"seats": [1, 3], "score": scores[1]}]
    assert data["lower_is_better"] is False and data["winners"]
    three = run_json("play", "pepper", "--seed", "4", "--players", "3", "--max-deals", "20")
    assert three["teams"] == [] and len({p["seat"] for p in three["players"]}) == 3


def test_every_registered_game_plays_from_the_command_line() -> None:
    for game, counts in (("peppa", [4]), ("seep", [4, 2, 3]), ("pigugnin", [4, 5]), ("pepper", [4, 2, 3])):
        for players in counts:
            data = run_json("play", game, "--seed", "1", "--players", str(players), "--max-deals", "30")
            assert data["game"] == game and len(data["players"]) == players and data["status"] == "complete"


def test_a_seep_option_set_that_can_leave_no_legal_move_still_plays_to_the_end() -> None:
    """Owners who may not throw, keys kept by the team: a seat can be left with nothing legal;
    the engine then lets any card be thrown rather than offer an empty list."""
    data = run_json("play", "seep", "--seat", "heuristic", "--seat", "heuristic", "--seat", "heuristic",
                    "--seat", "heuristic", "--seed", "10", "-o", "owner_may_throw=false", "-o", "retention_scope=team",
                    "-o", "bid_requires_floor_feasibility=true", "-o", "two_player_halves=false",
                    "-o", "break_partner_house=false")
    assert data["status"] == "complete" and data["faults"] == []


@pytest.mark.parametrize("command", [
    ("play", "seep"),
    ("tournament", "seep", "--bot", "a=random", "--bot", "b=random", "--deal-sets", "1", "--dir", "{tmp}/t"),
    ("check-bot", "seep", "--", *PYTHON_BOT.split()),
])
def test_a_seep_option_set_that_cannot_mean_anything_is_a_one_line_error_everywhere(command: tuple[str, ...],
                                                                                     tmp_path: Path) -> None:
    words = [w.replace("{tmp}", str(tmp_path)) for w in command]
    at = words.index("--") if "--" in words else len(words)
    for options in (["-o", "scoring=thirty", "-o", "sweep=30"],
                    ["-o", "reveal_floor_before_bid=true", "-o", "bid_requires_floor_feasibility=true",
                     "-o", "opening_allowed=throw_bid_card"]):
        proc = run_cli(*words[:at], *options, *words[at:])
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    proc = run_cli(*words[:at], "-o", "bid_requires_floor_feasibility=true", "--seed", "1", *words[at:])
    assert "cardcli: warning: bid_requires_floor_feasibility has no effect" in proc.stderr


OPTIONAL_EXTRAS = ("numpy", "gymnasium", "pettingzoo", "cryptography", "distributed", "dask", "torch",
                   "selenium", "jsonschema", "websockets", "pyseccomp", "openskill")
"""Packages a short command never needs: the optional extras, and the core's heavy ones that
only some commands use (the network, the sandbox's filter, ratings)."""


def imported_by(*args: str) -> set[str]:
    """The modules ``python -m cardcli ARGS`` imports, read from ``-X importtime``."""
    import subprocess
    import sys

    from conftest import ROOT

    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cardcli", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")
            and "|" in line}


@pytest.mark.parametrize("args", [("--help",), ("--version",), ("play", "peppa", "--seed", "1"), ("games",)])
def test_a_short_command_imports_no_optional_extra(args: tuple[str, ...]) -> None:
    """Start-up is most of a short command's cost (benchmarks/startup.py): none of these may
    load an optional extra or a heavy package that only some commands use."""
    loaded = imported_by(*args)
    heavy = sorted(m for m in loaded if m.split(".")[0] in OPTIONAL_EXTRAS)
    assert heavy == [], f"cardcli {' '.join(args)} imports {heavy}"


def test_a_match_of_built_in_players_loads_no_bot_process_code() -> None:
    """A match whose seats are all built-in players starts no program, so the code that runs
    bots as processes (the line seats, the sandbox, control groups, the watchdog) is not worth
    its start-up there; it loads for the first seat that is a program."""
    loaded = imported_by("play", "peppa", "--seed", "1")
    bot_processes = sorted(m for m in loaded if m in {"cardcli.seats.process", "cardcli.seats.sandbox",
                                                      "cardcli.seats.cgroups", "cardcli.seats.watchdog"})
    assert bot_processes == [], f"a built-in match imports {bot_processes}"
    from conftest import PYTHON_BOT

    with_a_program = imported_by("play", "peppa", "--seed", "1", "--seat", PYTHON_BOT, *["--seat", "random"] * 3)
    assert "cardcli.seats.process" in with_a_program


def test_help_lists_every_command_without_importing_any() -> None:
    loaded = imported_by("--help")
    commands = sorted(m for m in loaded if m.startswith("cardcli.cli.") and m != "cardcli.cli.__init__")
    assert commands == [], f"--help imported {commands}"
    from cardcli.cli import COMMANDS

    listed = run_cli("--help").stdout
    for name, (_, _, summary) in COMMANDS.items():
        assert name in listed and summary in " ".join(listed.split()), name
        assert run_cli(name, "--help").returncode == 0
