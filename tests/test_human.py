"""The human seat, driven through a real pseudo-terminal with pexpect, for every game; and the
same seat (and script: seats) reading moves from a pipe or a file."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time

import pexpect
import pytest

from cardcli.games import registry
from cardcli.errors import UsageError
from cardcli.games.view import SeatView, view_for
from cardcli.players.human import match_input, move_lines, pause_seconds, short_name
from cardcli.referee import Settings, play_match
from cardcli.seats.base import Request
from cardcli.seats.builtin import PlayerSeat, random_seat
from conftest import ROOT, run_json

GAMES = [("peppa", []), ("seep", []), ("pigugnin", []), ("pepper", ["--max-deals", "6"])]


def spawn(game: str, extra: list[str], env_extra: dict[str, str] | None = None,
          others: tuple[str, ...] = ("random", "random", "random"), seed: int = 3) -> pexpect.spawn:
    """``play game`` with the human at seat 0 and ``others`` after it, on an 80-column terminal;
    other seats' moves land with no pause unless ``env_extra`` sets ``CARDCLI_HUMAN_DELAY``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "CARDCLI_HUMAN_DELAY": "0"}
    env.pop("NO_COLOR", None)
    env.pop("COLUMNS", None)
    env.update(env_extra or {})
    args = ["-m", "cardcli", "play", game, "--seed", str(seed), "--seat", "human"]
    for other in others:
        args += ["--seat", other]
    return pexpect.spawn(sys.executable, [*args, *extra], cwd=str(ROOT), env=env, encoding="utf-8", timeout=30,
                         dimensions=(24, 80))


@pytest.mark.parametrize("game, extra", GAMES)
def test_a_person_plays_a_whole_match_in_the_terminal(game: str, extra: list[str]) -> None:
    child = spawn(game, extra, {"NO_COLOR": "1"})
    child.expect("you are seat 0")
    prompts = 0
    kinds = set()
    while True:
        index = child.expect([r"seat \d+, your (\w+):", pexpect.EOF])
        if index == 1:
            break
        kinds.add(child.match.group(1))
        child.expect("your move")
        screen = child.before
        assert "your hand:" not in screen or "\x1b[31m" not in screen, "NO_COLOR turns colour off"
        if prompts == 0:
            child.sendline("not a move")
            child.expect("is not one of the")
            child.expect("your move")
        child.sendline("1")
        prompts += 1
    child.close()
    assert child.exitstatus == 0
    assert prompts > 5
    assert "winners:" in child.before or "adjudicated" in child.before or "annulled" in child.before
    assert "play" in kinds and kinds <= set(registry.get(game).decision_kinds)


def test_the_terminal_shows_colour_help_and_accepts_a_pass_typed_as_cards() -> None:
    child = spawn("peppa", [])
    child.expect("your pass:")
    child.expect("type them in any order, e.g. ([2-9TJQKA][CDHS]) ([2-9TJQKA][CDHS]) ([2-9TJQKA][CDHS])")
    example = " ".join(reversed(child.match.groups())).lower()
    child.expect("your move")
    assert "\x1b[31m" in child.before or "♥" not in child.before and "♦" not in child.before
    child.sendline("?")
    child.expect("Peppa is Italian Hearts")
    child.expect("your move")
    child.sendline(example)
    child.expect("passes", timeout=10)
    child.terminate(force=True)


def test_the_screen_never_shows_another_seat_s_hand() -> None:
    child = spawn("peppa", [], {"NO_COLOR": "1"})
    child.expect("your move")
    seen = child.before
    child.terminate(force=True)
    assert "hand of 0:" in seen
    assert not any(f"hand of {s}:" in seen for s in (1, 2, 3))


def test_piped_moves_play_without_prompts_and_fall_back_when_they_run_out() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cardcli", "play", "pigugnin", "--seed", "2", "--json", "--seat", "human",
         "--seat", "random", "--seat", "random", "--seat", "random"],
        input="1\n1\n1\n", capture_output=True, text=True, cwd=ROOT, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CARDCLI_HUMAN_DELAY": "5"},  # no pause without a terminal
    )
    assert proc.returncode == 0, proc.stderr
    assert "your move" not in proc.stdout + proc.stderr
    assert "no more input: playing the first offered move" in proc.stderr
    assert proc.stdout.count("\n") == 1


def test_a_script_seat_plays_the_moves_of_a_file(tmp_path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("2\n")
    data = run_json("play", "peppa", "--seed", "1", "--seat", f"script:{script}", "--seat", "random",
                    "--seat", "random", "--seat", "random")
    assert data["status"] == "complete" and data["faults"] == []
    assert data["players"][0]["spec"] == f"script:{script}"


def test_typed_input_is_matched_to_a_legal_move() -> None:
    moves = ("2C+7D+QS", "2C+7D+AS", "3H+4H+5H")
    assert match_input("2", moves) == "2C+7D+AS"
    assert match_input("qs 2c 7d", moves) == "2C+7D+QS"
    assert match_input("5H,3H,4H", moves) == "3H+4H+5H"
    assert match_input("2C+7D+QS", moves) == "2C+7D+QS"
    assert match_input("9", moves) is None and match_input("KS QS 2C", moves) is None


def play_out(child: pexpect.spawn) -> str:
    """Answer 1 at every prompt until the match ends; everything the person saw."""
    screen = []
    while child.expect(["your move.*: ", pexpect.EOF]) == 0:
        screen.append(child.before + child.after)
        child.sendline("1")
    screen.append(child.before)
    child.close()
    assert child.exitstatus == 0
    return "".join(screen)


def test_built_in_players_are_named_without_their_parameters() -> None:
    child = spawn("peppa", ["-o", "end_threshold=1"], {"NO_COLOR": "1"},
                  others=("ismcts:iterations=5", "builtin:random", "random"))
    seat_view = play_out(child).partition("The match is over")[0]  # the match's summary follows: not the seat's
    assert "1:ismcts " in seat_view and "2:random " in seat_view
    assert "iterations=" not in seat_view and "builtin:" not in seat_view


def test_a_built_in_player_s_name_is_cut_to_its_base_and_a_bot_s_name_is_kept() -> None:
    assert short_name("ismcts:iterations=100") == "ismcts"
    assert short_name("builtin:ismcts:iterations=8") == "ismcts" and short_name("builtin:random") == "random"
    assert short_name("heuristic") == "heuristic"
    assert short_name("my-bot:v2") == "my-bot:v2" and short_name("python3 bot.py") == "python3 bot.py"


def prompts(child: pexpect.spawn, count: int, answer: str = "1") -> list[str]:
    """The screens of the next ``count`` prompts (each from the line after the one before it
    to the prompt), answering each with ``answer``."""
    screens = []
    for _ in range(count):
        child.expect("your move.*: ")
        screens.append(child.before.replace("\r", ""))
        child.sendline(answer)
    return screens


def move_list(screen: str) -> list[str]:
    """The lines of the legal moves on one prompt's screen."""
    return screen.partition(", your ")[2].split("\n")[1:-1]


def test_the_legal_moves_take_a_compact_line_wrapped_to_the_terminal() -> None:
    child = spawn("peppa", [], {"NO_COLOR": "1"})
    screen = prompts(child, 2)[1]  # the first play of the deal, after the pass: 13 cards, 13 moves here
    child.terminate(force=True)
    lines = move_list(screen)
    assert 1 <= len(lines) <= 2, screen
    assert all(len(line) < 80 for line in lines)
    numbers = re.findall(r"(\d+)\. ([2-9JQKA]|10)[♣♦♥♠]", " ".join(lines))
    assert [int(n) for n, _ in numbers] == list(range(1, len(numbers) + 1)) and len(numbers) >= 8


def test_seep_s_long_moves_are_wrapped_on_a_narrow_terminal() -> None:
    child = spawn("seep", [], {"NO_COLOR": "1", "COLUMNS": "44"})
    screens = prompts(child, 8)
    child.terminate(force=True)
    plays = [s for s in screens if ", your play:" in s]
    assert plays
    for screen in plays:
        lines = move_list(screen)
        assert all(len(line) <= 43 for line in lines), lines
        entries = re.findall(r"(\d+)\. (takes|builds|cements|breaks|throws)", " ".join(lines))
        assert [int(n) for n, _ in entries] == list(range(1, len(entries) + 1))


def test_long_moves_wrap_under_their_text_and_short_ones_share_a_line() -> None:
    moves = ("take:JS:2C+3D+6H,6D+5S,h11", "throw:5C", "throw:6C")
    lines = move_lines(moves, 30, view_for("seep").move_label)
    assert lines == ["  1. takes with J♠: 2♣ 3♦ 6♥ |", "     6♦ 5♠ | house 11",
                     "  2. throws 5♣   3. throws 6♣"]
    assert move_lines(("QS", "TH"), 80) == ["  1. Q♠   2. 10♥"]
    assert match_input("q♠", ("TH", "QS")) == "QS" and match_input("10♥", ("TH", "QS")) == "TH"


def test_a_forced_move_is_played_without_waiting_and_said_in_one_line() -> None:
    child = spawn("peppa", ["-o", "end_threshold=1"], {"NO_COLOR": "1"})
    screen = play_out(child).replace("\r", "")
    forced = re.findall(r"only one legal move: ((?:[2-9JQKA]|10)[♣♦♥♠])\n", screen)
    assert forced, "the last card of a deal is always forced"
    asked = len(re.findall(r"seat 0, your play:", screen))
    assert asked + len(forced) == 13, "each of the 13 cards is either asked for or forced"
    last_trick = re.search(r"trick 13: (.*?) *->", screen).group(1)
    assert f"0 {forced[-1]}" in last_trick.split(", "), "the forced card is the one played"


class DealChecker:
    """A seat that follows the match as the human seat does (the game's :class:`SeatView` of its own
    lines), plays at random, and checks the deal so far it would show against what the deal's
    end then tells: each seat's score, Il Pigugnìn's card points, Pepper's tricks."""

    def __init__(self, seed: int) -> None:
        self.view = SeatView()
        self.rng = random.Random(seed)
        self.checked = 0
        self.cappotto = False

    def choose(self, request: Request) -> str:
        return self.rng.choice(request.moves)

    def notify(self, lines: list[str]) -> None:
        for line in lines:
            words = line.split()
            self.check(words[0], [int(w) if w.lstrip("-").isdigit() else w for w in words[1:]])
            if words[0] == "game":
                self.view = view_for(words[1])
            self.view.update(words)

    def check(self, kind: str, args: list) -> None:
        view = self.view
        side = {s: side for side in (view.sides or [(s,) for s in range(len(view.names))]) for s in side}
        if kind == "deal":
            self.cappotto = False
        elif kind == "cappotto":
            self.cappotto = True
        elif kind == "points":  # Il Pigugnìn: every seat's card points, counted
            assert view.points == args
            self.checked += 1
        elif kind in ("made", "set"):  # Pepper: the declaring side's tricks
            assert sum(view.tricks[s] for s in side[args[0]]) == args[2]
            self.checked += 1
        elif kind == "score" and view.game == "seep":
            bonus = view.bonus  # type: ignore[attr-defined]
            assert args[1:] == [sum(view.points[p] + bonus[p] for p in side[s]) for s in range(len(side))]
            assert view.deal_so_far()[1] or not any(args[1:]), "the floor was shown"
            self.checked += 1
        elif kind == "score" and view.game == "peppa" and not self.cappotto:
            assert args[1:] == view.points
            self.checked += 1
        elif kind == "score" and view.game == "pigugnin":
            assert sum(view.points) == 35 and sum(view.tricks) == 40 // len(side)  # counted or not
            self.checked += 1


@pytest.mark.parametrize("game, players", [("peppa", 4), ("seep", 4), ("seep", 2), ("pigugnin", 4), ("pepper", 4),
                                            ("pepper", 3)])
def test_the_deal_so_far_is_what_the_deal_s_end_then_tells(game: str, players: int) -> None:
    checker = DealChecker(players)
    seats = [PlayerSeat("human", checker), *(random_seat("random", f"{i}") for i in range(1, players))]
    play_match(registry.resolve(game, None, {}, players, 11), seats, Settings(max_deals=4))
    assert checker.checked >= 2


def test_the_deal_so_far_is_shown_above_the_prompt() -> None:
    child = spawn("pigugnin", [], {"NO_COLOR": "1"})
    screens = prompts(child, 6)
    child.terminate(force=True)
    shown = [re.search(r"this deal, card points \(tricks\): (.*?)\nseat 0, your play:", s, re.S) for s in screens]
    assert all(shown[1:]), screens  # from the deal's second trick on, at least
    last = re.findall(r"(\d):\w+ (\d+) \((\d+)\)", shown[-1].group(1))
    assert [int(s) for s, _, _ in last] == [0, 1, 2, 3] and sum(int(t) for _, _, t in last) >= 4


def test_other_seats_moves_are_shown_as_they_happen() -> None:
    child = spawn("pigugnin", [], {"NO_COLOR": "1"})
    screen = prompts(child, 1)[0]
    child.terminate(force=True)
    trick = re.search(r"\ntrick 1: (.*)\n", screen).group(1).split(", ")
    assert trick != ["you lead"], "seed 3: seats 2 and 1 play before seat 0"
    shown = re.findall(r"^  (\d:\w+) plays (\S+)$", screen[:screen.index("\ntrick 1:")], re.M)
    assert [f"{who} {card}" for who, card in shown] == trick


def test_a_pause_follows_each_other_seat_s_move_on_a_terminal() -> None:
    delay = 0.3
    child = spawn("pigugnin", [], {"NO_COLOR": "1", "CARDCLI_HUMAN_DELAY": str(delay)})
    child.expect("your move.*: ")
    child.sendline("1")
    started = time.monotonic()
    child.expect("your move.*: ")
    elapsed = time.monotonic() - started
    child.terminate(force=True)
    landed = re.findall(r"^  [1-3]:random plays |^only one legal move", child.before, re.M)
    assert landed, "between two of seat 0's turns the others play"
    assert elapsed >= 0.8 * delay * len(landed), f"{len(landed)} moves landed in {elapsed:.2f} s"


def test_the_pause_is_set_in_seconds_and_a_wrong_value_is_refused() -> None:
    assert pause_seconds({}) == 0.4 and pause_seconds({"CARDCLI_HUMAN_DELAY": ""}) == 0.4
    assert pause_seconds({"CARDCLI_HUMAN_DELAY": "0"}) == 0 and pause_seconds({"CARDCLI_HUMAN_DELAY": "1.5"}) == 1.5
    for wrong in ("fast", "-1", "nan", "inf", "61"):
        with pytest.raises(UsageError, match="CARDCLI_HUMAN_DELAY"):
            pause_seconds({"CARDCLI_HUMAN_DELAY": wrong})
