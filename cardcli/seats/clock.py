"""The clock a seat and the wait for answers read: the time, and waiting for a bot's input with
a deadline.

Every deadline the referee keeps (the start-up time, a request's limit and time bank, the wait
for a bot to read ``quit``) and every time it records (a move's ``ms``, what a bank draws) is
read from one :class:`Clock`. The real one is the system's monotonic clock and a blocking
``poll``; a test gives a seat and the referee a clock of its own instead, whose time moves only
when it is told, so that timeouts, time budgets and time banks are tested to the microsecond
without sleeping (tests/scripted.py).
"""

from __future__ import annotations

import select
import time
from typing import Protocol


class Clock(Protocol):
    """Time and waiting, as the seats and :mod:`cardcli.seats.gather` use them."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (``time.monotonic``)."""
        ...

    def wait(self, poller: select.poll, timeout: float) -> list[tuple[int, int]]:
        """Wait up to ``timeout`` seconds until one of the descriptors ``poller`` watches is
        ready; the ready ones, as ``select.poll.poll`` gives them."""
        ...

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        ...


class RealClock:
    """The system's clock: ``time.monotonic``, ``poll`` and ``time.sleep``, called as they are
    (the two plain ones are the functions themselves, so reading the time costs what it always
    did)."""

    __slots__ = ()

    monotonic = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def wait(self, poller: select.poll, timeout: float) -> list[tuple[int, int]]:
        return poller.poll(timeout * 1000.0)


REAL_CLOCK: Clock = RealClock()
"""The clock of every seat and match unless a test gives another."""
