"""Closing bots: every bot is told ``quit`` before any is waited for, one that obeys is let go,
one that does not is killed, and none outlives the referee."""

from __future__ import annotations

import shlex
import time
from pathlib import Path

import pytest

from cardcli.seats.base import close_all
from cardcli.seats.process import ProcessSeat
from conftest import faulty, run_cli


def started(*flags: str) -> ProcessSeat:
    seat = ProcessSeat("bot", shlex.split(faulty(*flags)))
    seat.start()
    seat.wait_ready(time.monotonic() + 10)
    assert seat.identity.name == "faulty", "the bot is running and completed its handshake"
    return seat


def test_bots_that_obey_quit_are_let_go_and_those_that_do_not_are_killed() -> None:
    slow = [started("--quit-delay", "0.3") for _ in range(3)]
    stubborn = started("--ignore-quit")
    close_all([*slow, stubborn], grace=2.0)
    assert [seat.quit_obeyed for seat in slow] == [True, True, True]
    assert stubborn.quit_obeyed is False
    assert not any(seat.usable for seat in [*slow, stubborn])


def test_quit_reaches_every_bot_before_the_first_is_waited_for(tmp_path: Path) -> None:
    """The bots exit side by side: all four have been told ``quit`` before any has left."""
    log = tmp_path / "quit.log"
    seats = [started("--quit-delay", "0.3", "--quit-log", str(log)) for _ in range(4)]
    close_all(seats, grace=5.0)
    assert [seat.quit_obeyed for seat in seats] == [True] * 4
    words = [line.split()[0] for line in log.read_text().splitlines()]
    assert words == ["quit"] * 4 + ["exit"] * 4


def test_no_grace_means_no_quit_and_an_immediate_end() -> None:
    seat = started()
    close_all([seat], grace=0.0)
    assert seat.quit_obeyed is None and not seat.usable


def test_a_bot_that_exits_at_result_is_told_from_one_that_obeys_quit() -> None:
    """The match's last lines go out before ``quit``, on their own: a bot that stops at
    ``result`` leaves ``quit`` unread, where lines written together would have looked like a
    bot obeying ``quit``."""
    leaver, stayer, stubborn = started("--exit-after-result"), started(), started("--ignore-quit")
    for seat in (leaver, stayer, stubborn):
        seat.notify(["result win lose lose win"])
    close_all([leaver, stayer, stubborn], grace=1.0)
    assert leaver.left_before_quit == "exited after 'result', without reading 'quit'"
    assert stayer.left_before_quit is None and stayer.quit_obeyed is True
    assert stubborn.left_before_quit is None and stubborn.quit_obeyed is False


def play_ending(*flags: str) -> list[str]:
    """``play``'s stderr lines about how the bots ended, with the faulty bot in seat 0."""
    proc = run_cli("play", "peppa", "--seed", "3", "--quit-grace", "0.5", "--seat", faulty(*flags),
                   "--seat", "random", "--seat", "random", "--seat", "random")
    assert proc.returncode == 0, proc.stderr
    assert "fault:" not in proc.stdout, "none of this is a fault"
    return proc.stderr.splitlines()


@pytest.mark.parametrize("flags, said", [
    (("--exit-after-result",), "cardcli: seat 0 (faulty) exited after 'result', without reading 'quit': a bot must "
                               "keep reading until 'quit' (a tournament keeps it for its next match)"),
    (("--ignore-quit",), "cardcli: seat 0 (faulty) ignored 'quit': it was still running 0.5 s after it, and was "
                         "killed; exit on 'quit'"),
    (("--spawn-child",), "cardcli: seat 0 (faulty) left 1 process(es) running when it exited"),
])
def test_play_says_once_at_the_end_how_a_bot_failed_to_end(flags: tuple[str, ...], said: str) -> None:
    lines = play_ending(*flags)
    assert len(lines) == 1 and lines[0].startswith(said), lines


def test_play_says_nothing_of_a_bot_that_ends_on_quit() -> None:
    assert play_ending() == []
