"""Closing bots: every bot is told ``quit`` before any is waited for, one that obeys is let go,
one that does not is killed, and none outlives the referee."""

from __future__ import annotations

import shlex
import time
from pathlib import Path

from cardcli.seats.base import close_all
from cardcli.seats.process import ProcessSeat
from conftest import faulty


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
