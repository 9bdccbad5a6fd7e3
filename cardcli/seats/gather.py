"""Waiting for answers from several seats at once, each against its own deadline.

One selector watches every pending bot's stdout, so a simultaneous decision costs the slowest
answer, not the sum, and no seat waits behind another. In-process seats have answered before
the wait starts. A bot whose input pipe is full (it is not reading) gets its request written
in small steps between waits; that case is rare, so it costs the common path nothing.
"""

from __future__ import annotations

import selectors
import time
from typing import Mapping

from .base import Answer, Request, Seat

_WRITE_RETRY = 0.01
"""Seconds between attempts to finish writing to a bot that is not reading its input."""


def ask_all(requests: Mapping[int, tuple[Seat, Request]], order: list[int]) -> dict[int, Answer]:
    """Send each request (in ``order``, which the referee shuffles for fairness), then wait for
    every answer or deadline. Returns the answers by seat number."""
    deadlines: dict[int, float] = {}
    answers: dict[int, Answer] = {}
    waiting: dict[int, Seat] = {}
    for seat in order:
        bot, request = requests[seat]
        bot.ask(request)
        deadlines[seat] = time.monotonic() + request.millis / 1000.0
        answer = bot.poll()
        if answer is not None:
            answers[seat] = answer
        else:
            waiting[seat] = bot
    if waiting:
        _wait(waiting, deadlines, answers)
    return answers


def _wait(waiting: dict[int, Seat], deadlines: dict[int, float], answers: dict[int, Answer]) -> None:
    with selectors.DefaultSelector() as sel:
        for seat, bot in waiting.items():
            fd = bot.fileno()
            if fd is not None:
                sel.register(fd, selectors.EVENT_READ, seat)
        while waiting:
            blocked = [bot for bot in waiting.values() if bot.wants_write()]
            for bot in blocked:
                bot.on_writable()
            timeout = max(0.0, min(deadlines[s] for s in waiting) - time.monotonic())
            if blocked:
                timeout = min(timeout, _WRITE_RETRY)
            for key, _ in sel.select(timeout):
                seat = key.data
                bot = waiting.get(seat)
                if bot is None:
                    continue
                answer = bot.poll()
                if answer is not None:
                    answers[seat] = answer
                    del waiting[seat]
                    sel.unregister(key.fd)
            now = time.monotonic()
            for seat in [s for s in waiting if deadlines[s] <= now]:
                bot = waiting.pop(seat)
                answer = bot.poll()
                answers[seat] = answer if answer is not None else bot.expire()
                fd = bot.fileno()
                if fd is not None and fd in sel.get_map():
                    sel.unregister(fd)
