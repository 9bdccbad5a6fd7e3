"""What a person sees at the human seat, and what a bot is told when it writes a card token as
people write cards.

The human seat: at every one of its decisions, in every game, the screen shows the trick in
progress of this deal only (who played each card, with suit symbols, as ``replay`` writes a
trick) or, in Seep, this deal's floor; nothing of the deal before lingers at a new deal's first
decision (a Peppa pass, a Seep or Pepper bid). A real match is played in-process with the
human seat answering "1" at every prompt, and each screen is checked against the protocol lines
the seat had been sent; one match goes through the real ``cardcli play`` on a terminal.

The bots: a real bot process answering a legal move in lower case, with a ten written ``10`` or
with its cards out of order gets an ``illegal`` fault whose detail names that mistake.
"""

from __future__ import annotations

import io
import itertools
import os
import re
import sys
from pathlib import Path
from typing import Any, Sequence

import pexpect
import pytest

from cardcli.cards import Card
from cardcli.games import registry
from cardcli.plugins.seep.text import table_text
from cardcli.games.view import SeatView, view_for
from cardcli.players.human import HumanPlayer, match_input, paint
from cardcli.referee import Settings, play_match
from cardcli.seats.base import Request
from cardcli.seats.builtin import PlayerSeat, random_seat
from conftest import ROOT, faulty, read_records, run_json

FAST = ["--move-time", "2", "--startup-time", "5", "--quit-grace", "0.5"]
RAW_TOKEN = re.compile(r"\b\d+:[2-9TJQKA][CDHS]\b")
"""A card shown as the protocol's ``seat:token`` (``3:QS``), as the trick used to be shown."""


class ScreenRecorder(HumanPlayer):
    """The human seat on a pretend terminal that answers "1" at every prompt, keeping, for
    each decision, the protocol lines received until then and the screen it showed."""

    def __init__(self) -> None:
        super().__init__(lines=itertools.repeat("1\n"), out=io.StringIO(), interactive=True)
        self.colour = False
        self.received: list[str] = []
        self.screens: list[tuple[int, str]] = []
        """(how many lines had been received, the text ``choose`` wrote) per decision."""

    def notify(self, lines: Sequence[str]) -> None:
        self.received.extend(lines)
        super().notify(lines)

    def choose(self, request: Request) -> str:
        assert isinstance(self.out, io.StringIO)
        start = len(self.out.getvalue())
        move = super().choose(request)
        self.screens.append((len(self.received), self.out.getvalue()[start:]))
        return move


def play_as_human(game: str, seed: int, players: int | None = None) -> ScreenRecorder:
    setup = registry.resolve(game, None, {}, players, seed)
    human = ScreenRecorder()
    seats = [PlayerSeat("you", human)] + [random_seat(f"bot{i}", f"{seed}/{i}") for i in range(1, setup.num_players)]
    result = play_match(setup, seats, Settings(move_time=5, max_deals=6))
    assert result.completed and not result.faults
    return human


def expected_table(lines: Sequence[str]) -> tuple[str | None, list[str] | None, int]:
    """From a seat's protocol lines: the trick line and the Seep floor its next screen must show,
    worked out from this deal's lines alone, and the number of the deal."""
    names: dict[int, str] = {}
    trick: tuple[int, list[str]] | None = None
    floor: list[str] | None = None
    deal = 0
    for line in lines:
        words = line.split()
        if words[0] == "player":
            names[int(words[1])] = " ".join(words[2:])
        elif words[0] == "deal":
            trick, floor, deal = None, None, int(words[1])
        elif words[0] == "trick":
            trick = (int(words[1]), [])
        elif words[0] == "play" and trick is not None:
            trick[1].append(f"{words[1]}:{names[int(words[1])]} {Card.parse(words[2]).symbol()}")
        elif words[0] == "table":
            floor = words[1:]
    shown = None if trick is None else f"trick {trick[0]}: " + (", ".join(trick[1]) or "you lead")
    return shown, floor, deal


def lines_starting(screen: str, prefix: str) -> list[str]:
    """The lines of a screen that start with ``prefix``."""
    return [line for line in screen.splitlines() if line.startswith(prefix)]


@pytest.mark.parametrize("game, seed", [("peppa", 3), ("peppa", 8), ("pigugnin", 2), ("pepper", 3), ("pepper", 5)])
def test_the_trick_shown_is_this_deal_s_with_names_and_suit_symbols(game: str, seed: int) -> None:
    human = play_as_human(game, seed)
    first_of_a_later_deal = 0
    plays_shown = 0
    seen_deal = 1
    for count, screen in human.screens:
        if screen.startswith("only one legal"):
            continue  # a forced move is played at once: one line, no table
        trick, _, deal = expected_table(human.received[:count])
        shown = lines_starting(screen, "trick ")
        assert shown == ([trick] if trick is not None else []), screen
        assert not RAW_TOKEN.search(screen), screen
        if deal > seen_deal:
            seen_deal = deal
            first_of_a_later_deal += 1
            if trick is None:  # a pass or a bid opens the deal: no trick of the deal before
                assert "trick" not in screen, screen
        plays_shown += trick is not None and "," in trick
    assert first_of_a_later_deal >= 1 and plays_shown > 0, "the match must show tricks over several deals"


def test_peppa_s_pass_at_a_new_deal_shows_no_trick_of_the_deal_before() -> None:
    human = play_as_human("peppa", 3)
    passes = [(count, screen) for count, screen in human.screens if "your pass:" in screen]
    later = [screen for count, screen in passes if expected_table(human.received[:count])[2] > 1]
    assert later, "a second deal with a pass"
    for screen in later:
        assert lines_starting(screen, "trick") == [], screen


@pytest.mark.parametrize("seed, players", [(3, 4), (6, 4), (1, 2), (4, 3)])
def test_seep_shows_this_deal_s_floor_and_no_trick(seed: int, players: int) -> None:
    human = play_as_human("seep", seed, players)
    for count, screen in human.screens:
        if screen.startswith("only one legal"):
            continue  # a forced move is played at once: one line, no floor
        _, floor, _ = expected_table(human.received[:count])
        want = "floor: " + (table_text(floor) if floor is not None else "face down until the bid")
        assert lines_starting(screen, "floor: ") == [want], screen
        assert lines_starting(screen, "trick") == []


def following(lines: list[str]) -> SeatView:
    """The view of the game the first line names, as the human seat keeps it, fed ``lines``."""
    view = view_for(lines[0].split()[1])
    for line in lines:
        view.update(line.split())
    return view


def test_a_new_deal_clears_the_hand_the_trick_and_the_floor_but_not_the_totals() -> None:
    view = following(["game peppa torino 4 0", "player 0 you", "player 1 ann", "player 2 bob", "player 3 cy",
                      "deal 1 3", "hand QS TH", "trick 13 2", "play 2 2S", "play 3 TS", "play 0 QS",
                      "totals 0 5 30 1", "deal 2 0", "hand 2C 3C"])
    assert view.trick_number == 0 and view.trick == [] and view.table_text() == ""
    assert [c.text for c in view.hand] == ["2C", "3C"] and view.totals == ["0", "5", "30", "1"]
    for line in ["trick 1 1", "play 1 TS", "play 2 QH"]:
        view.update(line.split())
    assert view.table_text() == "trick 1: 1:ann 10♠, 2:bob Q♥"
    seep = following(["game seep standard 2 0", "deal 1 1 0", "hand 9C", "bid 0 9", "table 5D h9:o:0:9C+AS",
                      "deal 2 0 1", "hand 2C 3C 4C 5C"])
    assert seep.table_text() == "floor: face down until the bid"


def test_the_trick_is_coloured_like_the_hand_and_bot_names_are_escaped() -> None:
    view = following(["game pepper standard 4 0", "player 1 \x1b[2Jevil", "deal 1 0", "trick 1 1", "play 1 TH"])
    assert paint(view.table_text(), True) == "trick 1: 1:\\x1b[2Jevil 10\x1b[31m♥\x1b[0m"


def spawn(game: str, seed: int) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "NO_COLOR": "1", "CARDCLI_HUMAN_DELAY": "0"}
    args = ["-m", "cardcli", "play", game, "--seed", str(seed), "--seat", "human", "--seat", "random",
            "--seat", "random", "--seat", "random"]
    return pexpect.spawn(sys.executable, args, cwd=str(ROOT), env=env, encoding="utf-8", timeout=30)


def test_on_a_terminal_the_second_pass_shows_no_trick_and_tricks_show_names_and_symbols() -> None:
    """Through the real ``cardcli play``: the whole first Peppa deal, typing a ten as ``10`` when
    one is offered (seat 0 holds 10♥ in this deal), then the second deal's pass."""
    child = spawn("peppa", 8)
    child.expect("your pass:")
    child.expect("your move")
    child.sendline("1")  # the first pass: three clubs, the ten of hearts is kept
    tricks_seen = tens_typed = 0
    while True:
        index = child.expect([r"seat 0, your (\w+):", pexpect.EOF])
        assert index == 0, child.before
        screen = child.before
        kind = child.match.group(1)
        child.expect("your move")
        screen += child.before
        if kind == "pass":
            assert "\ntrick" not in screen, screen
            break
        assert "is not one of the" not in screen, "every typed move was taken"
        shown = [line for line in screen.splitlines() if line.startswith("trick ")]
        assert len(shown) == 1 and not RAW_TOKEN.search(shown[0]), screen
        tricks_seen += re.fullmatch(r"trick \d+: (\d:\S+ (10|[2-9JQKA])[♣♦♥♠](, )?)+", shown[0]) is not None
        ten = re.search(r"\d+\. 10([♣♦♥♠])", screen)
        tens_typed += ten is not None
        child.sendline(f"10{'cdhs'['♣♦♥♠'.index(ten.group(1))]}" if ten else "1")
    child.terminate(force=True)
    assert tricks_seen > 0 and tens_typed == 1


def test_typed_cards_may_use_10_and_any_case_and_order() -> None:
    assert match_input("10s", ("TS", "QS")) == "TS"
    assert match_input("TS", ("TS", "QS")) == "TS"
    assert match_input("10H 2c qs", ("2C+TH+QS",)) == "2C+TH+QS"
    assert match_input("take:js:6d+5s,2c+9d", ("take:JS:2C+9D,6D+5S",)) == "take:JS:2C+9D,6D+5S"
    assert match_input("nt", ("C", "NT")) == "NT"
    assert match_input("ZZ", ("TS",)) is None


# -- the reasons a bot is given, through a real bot process ------------------------------------


def only_illegal(summary: dict[str, Any], record_path: Path) -> str:
    assert [(f["seat"], f["kind"]) for f in summary["faults"]] == [(0, "illegal")], summary["faults"]
    record = read_records(record_path)[0]
    assert record["seats"][0]["bot"]["name"] == "faulty"
    return summary["faults"][0]["detail"]


def play_bot(game: str, flags: str, record_path: Path) -> dict[str, Any]:
    return run_json("play", game, "--seed", "3", *FAST, "--seat", faulty(*flags.split()), "--seat", "random",
                    "--seat", "random", "--seat", "random", "--record", str(record_path))


def test_a_bot_s_lower_case_pass_is_told_upper_case_not_order(record_path: Path) -> None:
    detail = only_illegal(play_bot("peppa", "--lowercase-at 1", record_path), record_path)
    match = re.fullmatch(r"'(\S+)' refused: card tokens are upper case: write '(\S+)'", detail)
    assert match is not None and match.group(1).upper() == match.group(2), detail
    assert "order" not in detail


def test_a_bot_s_lower_case_play_is_told_upper_case(record_path: Path) -> None:
    detail = only_illegal(play_bot("pigugnin", "--lowercase-at 2", record_path), record_path)
    assert re.fullmatch(r"'([2-9jqka][cdhs])' refused: card tokens are upper case: write '[2-9JQKA][CDHS]'", detail), detail


def test_a_bot_s_ten_written_10_is_told_the_ten_is_t(record_path: Path) -> None:
    detail = only_illegal(play_bot("peppa", "--ten-as-10-at 1", record_path), record_path)
    match = re.fullmatch(r"'(\S+)' refused: the ten is written T: write '(\S+)'", detail)
    assert match is not None and match.group(1).replace("10", "T") == match.group(2), detail


def test_a_bot_s_misordered_pass_is_told_the_canonical_order(record_path: Path) -> None:
    detail = only_illegal(play_bot("peppa", "--misorder-at 1", record_path), record_path)
    match = re.fullmatch(r"'(\S+)' refused: list the cards in canonical order: write '(\S+)'", detail)
    assert match is not None, detail
    assert match.group(1).split("+") == list(reversed(match.group(2).split("+")))


def test_a_bot_s_seep_build_with_the_hand_card_last_is_told_so(record_path: Path) -> None:
    detail = only_illegal(play_bot("seep", "--misorder-at 2", record_path), record_path)
    assert re.fullmatch(r"'\S+' refused: put the hand card first: write '(build|cement):\S+'", detail), detail
