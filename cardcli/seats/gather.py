"""Waiting for answers from several seats at once, each against its own deadline; and for the
handshakes of a match's bots, all against one deadline.

One ``poll`` watches every pending bot's stdout, so a simultaneous decision costs the slowest
answer, not the sum, and no seat waits behind another. ``select.poll`` rather than the
``selectors`` module: it needs no file descriptor of its own (epoll costs four system calls
to create, register, unregister and close) and no Python layer, and it watches at most a
handful of pipes, once per request. In-process seats have answered before the wait starts. A bot whose input pipe is full (it is not reading) gets its request written
in small steps between waits; that case is rare, so it costs the common path nothing.
"""

from __future__ import annotations

import select
from typing import Mapping

from .base import Answer, Request, Seat, SeatFault
from .clock import REAL_CLOCK, Clock

_WRITE_RETRY = 0.01
"""Seconds between attempts to finish writing to a bot that is not reading its input."""


def ask_all(requests: Mapping[int, tuple[Seat, Request]], order: list[int],
            clock: Clock = REAL_CLOCK) -> dict[int, Answer]:
    """Send each request (in ``order``, which the referee shuffles for fairness), then wait for
    every answer or deadline, read from ``clock``. Returns the answers by seat number."""
    deadlines: dict[int, float] = {}
    answers: dict[int, Answer] = {}
    waiting: dict[int, Seat] = {}
    for seat in order:
        bot, request = requests[seat]
        bot.ask(request)
        deadlines[seat] = clock.monotonic() + request.allowed + bot.grace
        answer = bot.poll() if bot.fileno() is None else None
        if answer is not None:
            answers[seat] = answer
        else:
            waiting[seat] = bot
    if waiting:
        _wait(waiting, deadlines, answers, clock)
    return answers


def _wait(waiting: dict[int, Seat], deadlines: dict[int, float], answers: dict[int, Answer], clock: Clock) -> None:
    if len(waiting) == 1:
        _wait_one(waiting, deadlines, answers, clock)
    if waiting:
        _wait_several(waiting, deadlines, answers, clock)


def _wait_one(waiting: dict[int, Seat], deadlines: dict[int, float], answers: dict[int, Answer],
              clock: Clock) -> None:
    """The usual case, one seat to move, on the seat's own readiness check; a seat whose
    request is still being written is left to the general loop."""
    (seat, bot), = waiting.items()
    deadline = deadlines[seat]
    while not bot.wants_write():
        left = deadline - clock.monotonic()
        if left <= 0:
            answer = bot.poll()
            answers[seat] = answer if answer is not None else bot.expire()
            del waiting[seat]
            return
        bot.wait_readable(left)
        answer = bot.poll()
        if answer is not None:
            answers[seat] = answer
            del waiting[seat]
            return


def _wait_several(waiting: dict[int, Seat], deadlines: dict[int, float], answers: dict[int, Answer],
                  clock: Clock) -> None:
    poller = select.poll()
    seat_of: dict[int, int] = {}
    for seat, bot in waiting.items():
        fd = bot.fileno()
        if fd is not None:
            poller.register(fd, select.POLLIN)
            seat_of[fd] = seat
    while waiting:
        blocked = [bot for bot in waiting.values() if bot.wants_write()]
        for bot in blocked:
            bot.on_writable()
        timeout = max(0.0, min(deadlines[s] for s in waiting) - clock.monotonic())
        if blocked:
            timeout = min(timeout, _WRITE_RETRY)
        for fd, _ in clock.wait(poller, timeout):
            seat = seat_of[fd]
            ready = waiting.get(seat)
            if ready is None:
                continue
            answer = ready.poll()
            if answer is not None:
                answers[seat] = answer
                del waiting[seat]
                poller.unregister(fd)
        now = clock.monotonic()
        for seat in [s for s in waiting if deadlines[s] <= now]:
            bot = waiting.pop(seat)
            answer = bot.poll()
            answers[seat] = answer if answer is not None else bot.expire()
            fd = next((f for f, s in seat_of.items() if s == seat), None)
            if fd is not None:
                try:
                    poller.unregister(fd)
                except KeyError:
                    pass


def wait_ready_all(seats: Mapping[int, Seat], deadline: float, limit: float,
                   clock: Clock = REAL_CLOCK) -> dict[int, SeatFault]:
    """Finish the handshakes of several started seats by one ``deadline``, all at once: one
    ``poll`` over every pipe, each bot's lines taken in as they come. Waiting on them one
    after the other would charge a stalling bot's wait to every bot seated after it. A seat
    may move its own deadline (:meth:`Seat.handshake_deadline`: a remote bot has first to
    connect). When a seat's deadline has passed, what it has already sent is still read
    before it is called a timeout: a ``ready`` that is waiting in its pipe was sent in time,
    and the seat says what it did receive (:meth:`Seat.handshake_timeout`, ``limit``
    seconds). ``deadline`` is a time of ``clock``. Returns the fault of each seat that did not
    finish, by seat number."""
    faults: dict[int, SeatFault] = {}
    waiting: dict[int, Seat] = {}
    poller = select.poll()
    seat_of: dict[int, int] = {}
    for seat, bot in seats.items():
        if _handshake_done(seat, bot, faults):
            continue
        waiting[seat] = bot
        fd = bot.handshake_fileno()
        if fd is not None:
            poller.register(fd, select.POLLIN)
            seat_of[fd] = seat
    while waiting:
        now = clock.monotonic()
        for seat, bot in list(waiting.items()):
            if bot.handshake_deadline(deadline, limit) <= now:
                del waiting[seat]
                if not _handshake_done(seat, bot, faults):
                    faults[seat] = bot.handshake_timeout(limit)
        if not waiting:
            break
        left = min(bot.handshake_deadline(deadline, limit) for bot in waiting.values()) - now
        for fd, _ in clock.wait(poller, max(0.0, left)):
            seat = seat_of[fd]
            if seat in waiting and _handshake_done(seat, waiting[seat], faults):
                del waiting[seat]
                poller.unregister(fd)
    return faults


def _handshake_done(seat: int, bot: Seat, faults: dict[int, SeatFault]) -> bool:
    """Read what ``bot`` has sent; True when its handshake is over, well or with a fault (kept
    in ``faults``)."""
    try:
        return bot.read_handshake()
    except SeatFault as fault:
        faults[seat] = fault
        return True
