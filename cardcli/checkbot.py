"""``check-bot``: a conformance check for a bot before it enters a competition.

For every player count asked (by default every count the game is played by) one bot process
goes through the handshake, then plays whole matches against built-in random players, at
least :data:`MIN_MATCHES` of them on the same process (a bot that stops after ``result`` fails
the second), until every kind of request the game makes has been asked of it, and finally
``quit``. Each step is a checklist line that passes or fails with a reason a bot author can act
on; things that are allowed but will hurt in a competition are warnings.

The matches are a :class:`cardcli.series.Series`, the very code ``play --games`` runs, so a
failure comes with a ``cardcli play`` command that plays it again, seat for seat and seed for
seed.
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import attrs

from .games import registry
from .referee import Settings
from .safe_text import printable
from .seats.base import DEBUG_HINT, FLUSH_HINT, HINTS, FaultKind, SeatFault
from .seats.limits import Limits
from .seats.process import ProcessSeat
from .seats.sandbox import SandboxPolicy
from .series import Series, match_seed
from .transcript import FROM_BOT, Entry

MIN_MATCHES = 2
"""Matches every bot process plays: a tournament keeps bots alive between matches, and a bot
that exits after the first ``result`` loses every match after it."""
MAX_MATCHES = 6
"""Matches a process plays at most while some kind of request has not been asked yet."""
MAX_DEALS = 60
"""Deals after which a check match is adjudicated: a check is about the protocol, not about
who wins, and this keeps it short with any options."""
SLOW_SHARE = 0.5
"""An answer slower than this share of the move time is a warning: a loaded tournament host
(two matches a core, a cold cache) can make it a timeout."""
SHOWN_LINES = 40
"""Lines of the transcript before a failure that the JSON report carries."""


def with_hint(kind: str, detail: str) -> str:
    """A fault's detail and what to do about it. A bot's timeout detail says what the referee
    received and gives its own advice (the flush hint only when nothing came, which would be
    wrong for a bot whose lines did arrive), so the general hint is left out there: nothing is
    said twice, and nothing is said that the detail contradicts."""
    hint = HINTS.get(kind, "")
    explained = (kind == FaultKind.TIMEOUT and (FLUSH_HINT in detail or "received" in detail)) or (
        kind == FaultKind.CRASH and ("between matches" in detail or "stderr ended" in detail))
    if not hint or hint in detail or explained:
        return detail
    return f"{detail} ({hint})"


@attrs.frozen
class Step:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"[{'pass' if self.ok else 'FAIL'}] {self.name}: {self.detail}"


@attrs.frozen
class Failure:
    """Where the bot failed and how to see it again: the match, the request it was given and
    what it sent back, and the command that plays the same match."""

    players: int
    match: int
    """The match of the bot's process (from 1) in which it failed; 0 for the handshake."""
    seed: int
    deal: int
    move: int
    request: Entry | None
    answer: tuple[Entry, ...]
    transcript: tuple[Entry, ...]
    reproduce: str

    def lines(self) -> list[str]:
        where = "the handshake" if self.match == 0 else (
            f"match {self.match} (seed {self.seed}), deal {self.deal}, move {self.move}")
        lines = [f"failed with {self.players} players, in {where}"]
        if self.request is not None:
            lines.append(f"  request: {self.request.text(moves=SHOWN_MOVES)}")
        answer = "; ".join(e.text() for e in self.answer) if self.answer else "nothing"
        lines.append(f"  answer:  {answer}")
        lines.append(f"  again:   {self.reproduce}")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "match": self.match, "seed": self.seed, "deal": self.deal, "move": self.move,
            "request": None if self.request is None else self.request.line,
            "answer": [e.line for e in self.answer],
            "transcript": [e.text() for e in self.transcript],
            "reproduce": self.reproduce,
        }


@attrs.frozen
class Report:
    steps: tuple[Step, ...]
    warnings: tuple[str, ...]
    failure: Failure | None

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "steps": [{"name": s.name, "ok": s.ok, "detail": s.detail} for s in self.steps],
            "warnings": list(self.warnings),
            "failure": None if self.failure is None else self.failure.to_json(),
        }


@attrs.frozen
class Check:
    """What to check: the bot, the game as a competition sets it, and the referee's limits."""

    game: str
    argv: tuple[str, ...]
    variant: str | None = None
    options: Mapping[str, str] = attrs.field(factory=dict)
    players: tuple[int, ...] = ()
    """Player counts to check; empty: every count the game is played by."""
    move_time: float = 5.0
    startup_time: float = 10.0
    quit_grace: float = 2.0
    seed: int = 1
    sandbox: SandboxPolicy | None = None
    limits: Limits = Limits()
    stderr_dir: Path | None = None
    play_flags: tuple[str, ...] = ()
    """``cardcli play`` flags that set up the bot as this check did (sandbox, limits), for the
    command that reproduces a failure."""

    def counts(self) -> tuple[int, ...]:
        """The player counts to check, each checked against the game and its options."""
        counts = self.players or tuple(sorted(registry.get(self.game).player_counts))
        for count in counts:  # a count the game is not played by is a usage error, before anything starts
            registry.resolve(self.game, self.variant, self.options, count, self.seed)
        return counts

    @property
    def settings(self) -> Settings:
        return Settings(move_time=self.move_time, startup_time=self.startup_time, quit_grace=self.quit_grace,
                        on_fault="abort", max_deals=MAX_DEALS)

    def reproduce(self, players: int, games: int) -> str:
        """The ``cardcli play`` command that plays this check's first ``games`` matches with
        ``players`` seats again (the bot in seat 0)."""
        words = ["cardcli", "play", self.game]
        if self.variant is not None:
            words += ["--variant", self.variant]
        for name, value in self.options.items():
            words += ["-o", f"{name}={value}"]
        words += ["--seed", str(self.seed)]
        if games > 1:
            words += ["--games", str(games)]
        words += ["--seat", shlex.join(self.argv)] + ["--seat", "random"] * (players - 1)
        words += ["--move-time", f"{self.move_time:g}", "--startup-time", f"{self.startup_time:g}",
                  "--max-deals", str(MAX_DEALS), "--on-fault", "abort", *self.play_flags, "--verbose"]
        return printable(shlex.join(words))


def check(plan: Check) -> Report:
    """Run the checks, one bot process per player count; stop at the first failure (later
    steps would not mean much). With a sandbox, the bot is checked as a competition runs it."""
    steps: list[Step] = []
    warnings: list[str] = []
    for players in plan.counts():
        failure = _check_count(plan, players, steps, warnings)
        if failure is not None:
            return Report(tuple(steps), tuple(_unique(warnings)), failure)
    return Report(tuple(steps), tuple(_unique(warnings)), None)


def _check_count(plan: Check, players: int, steps: list[Step], warnings: list[str]) -> Failure | None:
    spec = registry.get(plan.game)
    stderr_dir = None
    if plan.stderr_dir is not None:
        stderr_dir = plan.stderr_dir / f"{players}-players"
        stderr_dir.mkdir(parents=True, exist_ok=True)
    specs = [shlex.join(plan.argv)] + ["random"] * (players - 1)
    series = Series(plan.game, plan.variant, plan.options, players, plan.seed, specs, plan.settings, stderr_dir,
                    plan.limits, plan.sandbox)
    bot = series.seats[0]
    assert isinstance(bot, ProcessSeat)
    head = f"{players} players: "
    try:
        started = time.monotonic()
        try:
            bot.start()
            bot.wait_ready(started + plan.startup_time)
        except SeatFault as fault:
            steps.append(Step(head + "start and handshake", False, f"{fault.kind}: {with_hint(fault.kind, fault.detail)}"))
            return _failure(plan, players, 0, bot, 0, 0)
        steps.append(Step(head + "start and handshake", True,
                          f"ready in {1000 * (time.monotonic() - started):.0f} ms, "
                          f"name {bot.identity.name or '(none)'!r}; sandbox: {bot.isolation}"))
        warnings += _identity_warnings(bot)
        asked: dict[str, list[float]] = {kind: [] for kind in spec.decision_kinds}
        first_ignored: str | None = None
        for k in range(MAX_MATCHES):
            setup, result = series.play(k)
            if first_ignored is None and bot.first_ignored is not None:
                first_ignored = bot.first_ignored
            for deal in result.record["deals"]:
                for move in deal["moves"]:
                    if move["seat"] == 0 and move.get("by", "seat") == "seat":
                        asked.setdefault(move["kind"], []).append(move["ms"])
            name = head + f"match {k + 1} (seed {setup.seed})"
            if result.faults:
                fault = result.faults[0]
                steps.append(Step(name, False, f"{fault.kind}: {with_hint(fault.kind, fault.detail)}"))
                return _failure(plan, players, k + 1, bot, fault.deal, fault.move)
            steps.append(Step(name, True, f"complete, {len(result.record['deals'])} deals"))
            if k + 1 >= MIN_MATCHES and all(asked.values()):
                break
        played = k + 1
        for kind, times in asked.items():
            if times:
                steps.append(Step(head + f"'{kind}' requests", True,
                                  f"{len(times)} answered, all with an offered move; slowest {max(times):.1f} ms"))
            elif kind in spec.decision_notes:
                warnings.append(f"'{kind}' requests not checked with {players} players, never asked in {played} "
                                f"matches: {spec.decision_notes[kind]}")
            else:
                steps.append(Step(head + f"'{kind}' requests", False,
                                  f"never asked in {played} matches (another --seed may bring it about)"))
        slowest = max((t for times in asked.values() for t in times), default=0.0)
        if slowest > SLOW_SHARE * plan.move_time * 1000:
            warnings.append(f"slow: an answer took {slowest:.0f} ms of the {plan.move_time:g} s move time; a busy "
                            f"tournament host can make that a timeout")
        if bot.ignored_lines:
            first = f" (first: '{printable(first_ignored, 80)}')" if first_ignored is not None else ""
            warnings.append(f"{bot.ignored_lines} lines on stdout that the protocol ignores{first}: {DEBUG_HINT}")
    finally:
        series.close()
    if bot.left_before_quit is not None:
        steps.append(Step(head + "quit", False, f"{bot.left_before_quit}: a bot must keep reading until 'quit'"))
    elif bot.quit_obeyed:
        steps.append(Step(head + "quit", True, "exited after 'quit'"))
    else:
        steps.append(Step(head + "quit", False, f"still running {plan.quit_grace:g} s after 'quit' (killed): "
                                                "exit on 'quit'"))
    if bot.left_behind:
        warnings.append(f"left {bot.left_behind} process(es) running after it exited on 'quit' (the referee "
                        f"killed them): end your child processes before exiting")
    return None


SHOWN_MOVES = 6
"""Moves of a long ``go`` line shown in a failure's text (all of them are in ``--json``)."""


def _identity_warnings(bot: ProcessSeat) -> list[str]:
    """What the handshake left out that organisers and records use."""
    ident = bot.identity
    missing = [field for field, value in (("name", ident.name), ("author", ident.author), ("version", ident.version))
               if not value]
    if not missing:
        return []
    why = "tables and records then show the entrant's name or command line" if "name" in missing else \
        "records then cannot tell the bot's versions or authors apart"
    return [f"no 'id {' / id '.join(missing)}' in the handshake: {why}"]


def _failure(plan: Check, players: int, match: int, bot: ProcessSeat, deal: int, move: int) -> Failure:
    request, answer = bot.transcript.last_request()
    entries = bot.transcript.entries()
    if match == 0:
        request = None
        answer = [e for e in entries if e.direction == FROM_BOT]
    return Failure(players, match, match_seed(plan.seed, max(match - 1, 0)), deal, move + 1, request,
                   tuple(answer[-5:]), tuple(entries[-SHOWN_LINES:]), plan.reproduce(players, max(match, 1)))


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))
