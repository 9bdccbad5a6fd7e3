"""``check-bot``: a conformance check for a bot before it enters a competition.

It runs the handshake, whole matches with the bot in one seat until every kind of request the
game makes has been asked of it, and ``quit``; each step is a checklist line that passes or
fails with a reason a bot author can act on.
"""

from __future__ import annotations

import time
from typing import Sequence

import attrs

from .games import registry
from .referee import Settings, play_match
from .seats.base import FLUSH_HINT, HINTS, FaultKind, Seat, SeatFault
from .seats.builtin import random_seat
from .seats.limits import Limits
from .seats.process import ProcessSeat
from .seats.sandbox import SandboxPolicy

def with_hint(kind: str, detail: str) -> str:
    """A fault's detail and what to do about it. A bot's timeout detail says what the referee
    received and gives its own advice (the flush hint only when nothing came, which would be
    wrong for a bot whose lines did arrive), so the general hint is left out there: nothing is
    said twice, and nothing is said that the detail contradicts."""
    hint = HINTS.get(kind, "")
    if not hint or hint in detail or (kind == FaultKind.TIMEOUT and (FLUSH_HINT in detail or "received" in detail)):
        return detail
    return f"{detail} ({hint})"


@attrs.frozen
class Step:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"[{'pass' if self.ok else 'FAIL'}] {self.name}: {self.detail}"


def check(game: str, argv: Sequence[str], move_time: float = 5.0, startup_time: float = 10.0,
          quit_grace: float = 2.0, seed: int = 1, variant: str | None = None, players: int | None = None,
          sandbox: SandboxPolicy | None = None, limits: Limits = Limits()) -> list[Step]:
    """Run the checks; stop at the first failure (later steps would not mean much). With a
    sandbox, the bot is checked as a competition will run it."""
    spec = registry.get(game)
    steps: list[Step] = []
    bot = ProcessSeat(" ".join(argv), list(argv), limits=limits, sandbox=sandbox)
    started = time.monotonic()
    try:
        bot.start()
        bot.wait_ready(started + startup_time)
    except SeatFault as fault:
        steps.append(Step("start and handshake", False, f"{fault.kind}: {with_hint(fault.kind, fault.detail)}"))
        bot.close()
        return steps
    name = bot.identity.name or "(no id name)"
    steps.append(Step("start and handshake", True, f"ready in {1000 * (time.monotonic() - started):.0f} ms, "
                                                   f"name {name!r}; sandbox: {bot.isolation}"))
    asked: dict[str, list[float]] = {kind: [] for kind in spec.decision_kinds}
    settings = Settings(move_time=move_time, startup_time=startup_time, quit_grace=quit_grace,
                        on_fault="abort", max_deals=60)
    for attempt in range(8):
        setup = registry.resolve(game, variant, {}, players, seed + attempt)
        seat = attempt % setup.num_players
        seats: list[Seat] = [random_seat("random", f"check/{seed}/{attempt}/{i}") for i in range(setup.num_players)]
        seats[seat] = bot
        result = play_match(setup, seats, settings, close=False)
        for deal in result.record["deals"]:
            for move in deal["moves"]:
                if move["seat"] == seat and move.get("by", "seat") == "seat":
                    asked.setdefault(move["kind"], []).append(move["ms"])
        if result.faults:
            fault = result.faults[0]
            steps.append(Step(f"match {attempt + 1} ({setup.spec.name}, seat {seat})", False,
                              f"{fault.kind}: {with_hint(fault.kind, fault.detail)}"))
            bot.close()
            return steps
        steps.append(Step(f"match {attempt + 1} ({setup.spec.name}, seat {seat})", True,
                          f"complete, {len(result.record['deals'])} deals"))
        if all(asked.values()):
            break
    for kind, times in asked.items():
        if times:
            steps.append(Step(f"'{kind}' requests", True,
                              f"{len(times)} answered, all with an offered move; slowest {max(times):.1f} ms"))
        else:
            steps.append(Step(f"'{kind}' requests", False, "never asked in the matches played (try another seed)"))
    bot.close(quit_grace)
    if bot.quit_obeyed:
        steps.append(Step("quit", True, "exited after 'quit'"))
    else:
        steps.append(Step("quit", False, f"still running {quit_grace:g} s after 'quit' (killed): exit on 'quit'"))
    return steps
