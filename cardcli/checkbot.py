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

A slow bot is checked within a time budget (``--time-budget``, a minute by default): a check
is about the protocol, so its matches are then adjudicated after fewer deals, chosen from the
time the bot has been seen to take, and the output says so. A bot too slow for its first match
to fit is checked again on a new process with the shorter matches (a match cannot be cut short
and still end with ``result``). Every match of a player count but its last is played with the
same deal limit, and the last one with no more, so the ``cardcli play`` command of a failure
still plays the very same matches.
"""

from __future__ import annotations

import shlex
import statistics
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import attrs

from .games import registry
from .games.base import Event
from .records.io import OnFault
from .records.model import Record
from .referee import Listener, Settings
from .safe_text import printable
from .seats.base import DEBUG_HINT, FLUSH_HINT, HINTS, FaultKind, SeatFault
from .seats.limits import Limits
from .seats.process import ProcessSeat
from .seats.policy import SandboxPolicy
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
TIME_BUDGET = 60.0
"""Seconds a check aims to take by default (``--time-budget``)."""
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
    notes: tuple[str, ...] = ()
    """What the check did differently to keep within its time budget."""
    seconds: float = 0.0
    """How long the check took."""
    budget: float | None = None
    """The time budget it had, in seconds; None: none."""

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    def timing(self) -> str:
        """One line on the time the check took, and its budget."""
        if self.budget is None:
            return f"the check took {self.seconds:.1f} s (no time budget)"
        within = "within" if self.seconds <= self.budget else "over"
        return f"the check took {self.seconds:.1f} s, {within} its time budget of {self.budget:g} s (--time-budget)"

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "steps": [{"name": s.name, "ok": s.ok, "detail": s.detail} for s in self.steps],
            "warnings": list(self.warnings),
            "notes": list(self.notes),
            "seconds": round(self.seconds, 3),
            "time_budget": self.budget,
            "failure": None if self.failure is None else self.failure.to_json(),
        }


class Log:
    """The steps, warnings and notes of a check as they are made: each step and note is also
    handed to ``progress`` at once (the command prints them as the check goes, so a slow bot's
    check is not a silent one)."""

    def __init__(self, progress: Callable[[str], None] | None = None):
        self.steps: list[Step] = []
        self.warnings: list[str] = []
        self.notes: list[str] = []
        self._progress = progress

    def step(self, step: Step) -> None:
        self.steps.append(step)
        if self._progress is not None:
            self._progress(step.line())

    def note(self, text: str) -> None:
        self.notes.append(text)
        if self._progress is not None:
            self._progress(f"[note] {text}")


class _OverBudget(Exception):
    """Raised from inside a match that will not fit in the budget: it is dropped, and the
    player count checked again with shorter matches."""

    def __init__(self, deals: int, seconds: float):
        super().__init__(f"{deals} deals in {seconds:.1f} s")
        self.deals = deals
        self.seconds = seconds


class Budget:
    """The time a check may take, shared out among its player counts as they come, and what
    it has learnt of the bot's pace (seconds a deal) to size the matches."""

    def __init__(self, seconds: float | None, counts: int):
        self.seconds = seconds
        self.started = time.monotonic()
        self.counts_left = counts
        self.pace: float | None = None
        """Seconds a deal took in the last match measured."""

    def share(self) -> float | None:
        """The seconds the next player count may take: what is left, shared equally among the
        counts not yet checked. None without a budget."""
        if self.seconds is None:
            return None
        left = self.seconds - (time.monotonic() - self.started)
        return max(left, 0.0) / max(self.counts_left, 1)

    def deals_within(self, seconds: float | None, matches: int, pace: float | None) -> int:
        """The deal limit for ``matches`` matches to fit in ``seconds`` at ``pace``: at
        least one deal, at most :data:`MAX_DEALS`."""
        if seconds is None or pace is None or pace <= 0:
            return MAX_DEALS
        return max(1, min(MAX_DEALS, int(seconds / (matches * pace))))


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
    budget: float | None = TIME_BUDGET
    """Seconds the check aims to take (``--time-budget``); None: as long as its matches take."""
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
                        on_fault=OnFault.ABORT, max_deals=MAX_DEALS)

    def reproduce(self, players: int, games: int, deals: int = MAX_DEALS) -> str:
        """The ``cardcli play`` command that plays this check's first ``games`` matches with
        ``players`` seats again (the bot in seat 0), adjudicated after ``deals`` deals."""
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
                  "--max-deals", str(deals), "--on-fault", "abort", *self.play_flags, "--verbose"]
        return printable(shlex.join(words))


def check(plan: Check, progress: Callable[[str], None] | None = None) -> Report:
    """Run the checks, one bot process per player count; stop at the first failure (later
    steps would not mean much). With a sandbox, the bot is checked as a competition runs it.
    ``progress`` is given each step and note as a line, as soon as it is made."""
    log = Log(progress)
    counts = plan.counts()
    budget = Budget(plan.budget, len(counts))
    failure = None
    for players in counts:
        failure = _check_count(plan, players, log, budget)
        budget.counts_left -= 1
        if failure is not None:
            break
    return Report(tuple(log.steps), tuple(_unique(log.warnings)), failure, tuple(log.notes),
                  time.monotonic() - budget.started, plan.budget)


def _check_count(plan: Check, players: int, log: Log, budget: Budget) -> Failure | None:
    """Check one player count. When its first match will not fit in the count's share of the
    budget (:func:`_cutter`), it is stopped, and the count checked again from the start, on a
    new bot process, with matches short enough for what is left."""
    share = budget.share()
    deals = budget.deals_within(share, MIN_MATCHES, budget.pace)
    started = time.monotonic()
    try:
        return _play_count(plan, players, log, budget, deals, share, cut=share is not None)
    except _OverBudget as over:
        assert share is not None
        pace = over.seconds / over.deals
        budget.pace = pace
        left = max(share - (time.monotonic() - started), 0.0)
        shorter = min(deals, budget.deals_within(left, MIN_MATCHES, pace))
        log.note(f"{players} players: match 1 stopped after {_deals(over.deals)} in {over.seconds:.1f} s "
                 f"({pace:.1f} s a deal), too slow for the {share:.0f} s of the time budget this player count has; "
                 f"checked again on a new bot process, with matches of at most {_deals(shorter)}")
        return _play_count(plan, players, log, budget, shorter, left, cut=False)


def _play_count(plan: Check, players: int, log: Log, budget: Budget, deals: int, share: float | None,
                cut: bool) -> Failure | None:
    """One bot process through the handshake, matches of at most ``deals`` deals (the last
    one possibly fewer, to fit in ``share`` seconds) and ``quit``. With ``cut``, the first
    match raises _OverBudget when it will not fit (:func:`_cutter`)."""
    spec = registry.get(plan.game)
    stderr_dir = None
    if plan.stderr_dir is not None:
        stderr_dir = plan.stderr_dir / f"{players}-players"
        stderr_dir.mkdir(parents=True, exist_ok=True)
    specs = [shlex.join(plan.argv)] + ["random"] * (players - 1)
    settings = attrs.evolve(plan.settings, max_deals=deals)
    series = Series(plan.game, plan.variant, plan.options, players, plan.seed, specs, settings, stderr_dir,
                    plan.limits, plan.sandbox)
    bot = series.seats[0]
    assert isinstance(bot, ProcessSeat)
    head = f"{players} players: "
    started = time.monotonic()
    try:
        try:
            bot.start()
            bot.wait_ready(started + plan.startup_time)
        except SeatFault as fault:
            log.step(Step(head + "start and handshake", False, f"{fault.kind}: {with_hint(fault.kind, fault.detail)}"))
            return _failure(plan, players, 0, bot, 0, 0, deals)
        log.step(Step(head + "start and handshake", True,
                      f"ready in {1000 * (time.monotonic() - started):.0f} ms, "
                      f"name {bot.identity.name or '(none)'!r}; sandbox: {bot.isolation}"))
        log.warnings.extend(_identity_warnings(bot))
        asked: dict[str, list[float]] = {kind: [] for kind in spec.decision_kinds}
        first_ignored: str | None = None
        played_deals = 0
        playing = 0.0
        played = 0
        out_of_time = False
        for k in range(MAX_MATCHES):
            last = k + 1 >= MIN_MATCHES and all(asked.values())
            pace = playing / played_deals if played_deals else budget.pace
            limit = deals
            if share is not None and k:
                left = share - (time.monotonic() - started)
                if last:
                    limit = min(deals, budget.deals_within(max(left, 0.0), 1, pace))
                elif k + 1 > MIN_MATCHES and pace is not None and left < pace * played_deals / k:
                    out_of_time = True  # another match like the last ones would not fit
                    break
            series.settings = attrs.evolve(settings, max_deals=limit)
            match_started = time.monotonic()
            listener = _cutter(started, match_started, share, deals) if cut and k == 0 else None
            try:
                setup, result = series.play(k, listener)
            except _OverBudget:
                for seat in series.seats:
                    seat.abandon()
                raise
            playing += time.monotonic() - match_started
            record = Record.from_json(result.record)  # the match's record as typed values, read once
            played_deals += len(record.deals)
            played += 1
            if first_ignored is None and bot.first_ignored is not None:
                first_ignored = bot.first_ignored
            for deal in record.deals:
                for move in deal.moves:
                    if move.seat == 0 and move.by == "seat":
                        asked.setdefault(move.kind, []).append(move.ms)
            name = head + f"match {k + 1} (seed {setup.seed})"
            if result.faults:
                faulted = result.faults[0]
                log.step(Step(name, False, f"{faulted.kind}: {with_hint(faulted.kind, faulted.detail)}"))
                return _failure(plan, players, k + 1, bot, faulted.deal, faulted.move, deals)
            count = len(record.deals)
            shortened = f" (adjudicated after {_deals(limit)}, to keep within the time budget)" \
                if record.adjudicated and limit < MAX_DEALS else ""
            log.step(Step(name, True, f"complete, {count} deals{shortened}"))
            if last or (k + 1 >= MIN_MATCHES and all(asked.values())):
                break
        if played_deals:
            budget.pace = playing / played_deals
        for kind, times in asked.items():
            if times:
                log.step(Step(head + f"'{kind}' requests", True,
                              f"{len(times)} answered, all with an offered move; median "
                              f"{statistics.median(times):.1f} ms, slowest {max(times):.1f} ms"))
            elif kind in spec.decision_notes:
                log.warnings.append(f"'{kind}' requests not checked with {players} players, never asked in {played} "
                                    f"matches: {spec.decision_notes[kind]}")
            elif out_of_time:
                log.warnings.append(f"'{kind}' requests not checked with {players} players, never asked in {played} "
                                    f"matches, and the time budget allows no more (a longer --time-budget plays more)")
            else:
                log.step(Step(head + f"'{kind}' requests", False,
                              f"never asked in {played} matches (another --seed may bring it about)"))
        slowest = max((t for times in asked.values() for t in times), default=0.0)
        if slowest > SLOW_SHARE * plan.move_time * 1000:
            log.warnings.append(f"slow: an answer took {slowest:.0f} ms, over {SLOW_SHARE:.0%} of the "
                                f"{plan.move_time:g} s move time; a busy tournament host can make that a timeout")
        if bot.ignored_lines:
            first = f" (first: '{printable(first_ignored, 80)}')" if first_ignored is not None else ""
            log.warnings.append(f"{bot.ignored_lines} lines on stdout that the protocol ignores{first}: {DEBUG_HINT}")
    finally:
        series.close()
    if bot.left_before_quit is not None:
        log.step(Step(head + "quit", False, f"{bot.left_before_quit}: a bot must keep reading until 'quit'"))
    elif bot.quit_obeyed:
        log.step(Step(head + "quit", True, "exited after 'quit'"))
    else:
        log.step(Step(head + "quit", False, f"still running {plan.quit_grace:g} s after 'quit' (killed): "
                                            "exit on 'quit'"))
    if bot.left_behind:
        log.warnings.append(f"left {bot.left_behind} process(es) running after it exited on 'quit' (the referee "
                            f"killed them): end your child processes before exiting")
    return None


def _cutter(started: float, match_started: float, share: float | None, deals: int) -> Listener | None:
    """The listener that stops the first match of a player count at the start of a deal when a
    quarter of the count's ``share`` of the budget has passed since ``started`` and, at the
    pace of the deals so far (timed from ``match_started``), the rest of the match up to its
    ``deals`` and a one-deal second match would not fit in the share (None: no share, never
    stopped). A bot fast enough for its matches as they come is never stopped, however long
    the game runs; a slow one is stopped early, with most of its share left for the matches
    played again."""
    if share is None:
        return None

    def watch(events: Sequence[Event]) -> None:
        for event in events:
            if event.kind != "deal" or int(event.args[0]) < 2:
                continue
            now = time.monotonic()
            done = int(event.args[0]) - 1
            pace = (now - match_started) / done
            if now - started > share / 4 and now - started + pace * (deals - done + 1) > share:
                raise _OverBudget(done, now - match_started)

    return watch


def _deals(count: int) -> str:
    return f"{count} deal" if count == 1 else f"{count} deals"


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


def _failure(plan: Check, players: int, match: int, bot: ProcessSeat, deal: int, move: int,
             deals: int = MAX_DEALS) -> Failure:
    request, answer = bot.transcript.last_request()
    entries = bot.transcript.entries()
    if match == 0:
        request = None
        answer = [e for e in entries if e.direction == FROM_BOT]
    return Failure(players, match, match_seed(plan.seed, max(match - 1, 0)), deal, move + 1, request,
                   tuple(answer[-5:]), tuple(entries[-SHOWN_LINES:]), plan.reproduce(players, max(match, 1), deals))


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))
