"""The referee: runs one match over a game and its seats, from the first deal to the result.

One linear loop, in the spirit of fastchess's ``Match::playMove``: deal when chance is due,
otherwise ask the seats whose decision is open (all at once when several are), check every
answer against the offered moves and the rules before it takes effect, route each event only to
the seats allowed to see it, and write everything into the record.

Fault policy (``docs/faults.md``): with ``replace`` (the default) a faulty seat forfeits (it
ranks last whatever its score), its process is ended, and a built-in random player makes its
remaining moves so the others' match completes; with ``abort`` the match stops at the fault.

Ctrl-C or SIGTERM during a match ends the bots as well and raises :class:`MatchInterrupted`,
which carries the record of what was played so far, marked ``interrupted``: the deals of a
long match are not lost with it.
"""

from __future__ import annotations

import copy
import datetime
import logging
import random
from typing import Any, Callable, Sequence

import attrs

from . import protocol
from .errors import Interrupted, MoveError
from .games import options as opt
from .games.base import Decision, Event, MatchState, Outcome
from .games.driver import Driver, Next
from .games.registry import Setup
from .records.shape import Status
from .records.io import FORMAT, FORMAT_VERSION, DealRecord, FaultRecord, MoveRecord, OnFault, software
from .safe_text import display_name, printable
from .seats.base import DEBUG_HINT, Answer, FaultKind, Request, Seat, SeatFault, clip, close_all
from .seats.builtin import fallback_player
from .seats.clock import REAL_CLOCK, Clock
from .seats.gather import ask_all, wait_ready_all


log = logging.getLogger("cardcli.referee")


@attrs.frozen
class Settings:
    move_time: float = 10.0
    """Seconds a seat has to answer one request."""
    startup_time: float = 10.0
    """Seconds a bot has from its start to ``ready``."""
    quit_grace: float = 2.0
    """Seconds a bot has to exit after ``quit`` before its process group is killed."""
    on_fault: OnFault = attrs.field(default=OnFault.REPLACE, converter=OnFault)
    """What a fault does to the match (a text converts to the policy it names)."""
    keep_info: bool = False
    max_deals: int = 500
    """Deals after which a match that has not ended is adjudicated by its totals."""
    time_bank: float | None = None
    """Seconds of time bank each seat has per match (``--time-bank``): the time a move takes
    beyond ``move_time`` is drawn from it, and only a move that takes longer than
    ``move_time`` plus what is left is a timeout. None: no bank."""

    @property
    def move_millis(self) -> int:
        return max(1, int(round(self.move_time * 1000)))

    @property
    def bank_us(self) -> int | None:
        """The bank each seat starts a match with, in microseconds (the unit of the times the
        record keeps), or None."""
        return None if self.time_bank is None else round(self.time_bank * 1e6)

    def to_json(self) -> dict[str, Any]:
        """The record's ``settings``: ``time_bank`` only when there is one, so that a record
        of a match without a bank reads as it always did."""
        data = attrs.asdict(self)
        data["on_fault"] = self.on_fault.value
        if self.time_bank is None:
            del data["time_bank"]
        return data


@attrs.frozen
class MatchResult:
    """What a finished (or aborted) match produced; ``record`` is the JSON record."""

    record: dict[str, Any]
    outcome: Outcome | None
    faults: tuple[FaultRecord, ...]

    @property
    def completed(self) -> bool:
        return self.outcome is not None


class MatchInterrupted(Interrupted):
    """The match was stopped by Ctrl-C or SIGTERM; ``result`` holds its record up to there
    (status ``interrupted``, no result), for the caller to keep."""

    def __init__(self, message: str, exit_code: int, result: MatchResult):
        super().__init__(message, exit_code)
        self.result = result


Listener = Callable[[Sequence[Event]], None]


class Referee:
    """Runs one match. Use :func:`play_match` unless you need the listener hook."""

    def __init__(self, setup: Setup, seats: Sequence[Seat], settings: Settings, listener: Listener | None = None,
                 clock: Clock = REAL_CLOCK):
        if len(seats) != setup.num_players:
            raise ValueError("one seat per player")
        self.setup = setup
        self.clock = clock
        """The clock of the match's deadlines (:mod:`cardcli.seats.clock`): the seats' own."""
        self.seats = list(seats)
        self.settings = settings
        self.listener = listener
        self.state: MatchState = setup.new_match()
        self.driver = Driver(setup, settings.max_deals)
        self.fallbacks: dict[int, Seat] = {}
        self.faults: list[FaultRecord] = []
        self.deals: list[DealRecord] = []
        self.aborted = False
        self.adjudicated = False
        self._fair = random.Random(f"cardcli/order/{setup.seed}")
        self._ignored_before = [bot.ignored_lines for bot in self.seats]
        """Each seat's count of ignored lines before this match (the count runs over a kept-alive
        bot's session), so the warning counts this match's lines alone."""
        self._move_millis = settings.move_millis
        bank = settings.bank_us
        self._banks: dict[int, int] | None = None if bank is None else dict.fromkeys(range(len(seats)), bank)
        """What is left of each seat's time bank, in microseconds; None without a bank."""

    # -- the match loop -----------------------------------------------------------------------

    def run(self, close: bool = True) -> MatchResult:
        """Play the match. With ``close=False`` the seats stay alive for another match (the
        protocol lets one bot process play many); faulty seats are ended in any case."""
        started = _now()
        try:
            outcome = self._play(close)
        except (KeyboardInterrupt, Interrupted) as stop:
            code = stop.exit_code if isinstance(stop, Interrupted) else 130
            partial = MatchResult(self._record(started, None, interrupted=True), None, tuple(self.faults))
            raise MatchInterrupted(str(stop) or "interrupted", code, partial) from stop
        return MatchResult(self._record(started, outcome), outcome, tuple(self.faults))

    def _play(self, close: bool) -> Outcome | None:
        try:
            self._start_seats()
            while not self.aborted:
                step = self.driver.next(self.state)
                if step is Next.OVER:
                    break
                if step is Next.ADJUDICATE:
                    self.state.adjudicate()
                    self.adjudicated = True
                elif step is Next.DEAL:
                    self._deal()
                else:
                    self._decide(self.state.decisions())
            outcome = None if self.aborted else self.state.outcome(frozenset(self.fallbacks))
            if outcome is not None:
                standings = [outcome.standing(s) for s in range(self.setup.num_players)]
                self._broadcast_line(protocol.result(standings))
            return outcome
        finally:
            if close:
                self._close_seats()
            self._warn_ignored()

    def _warn_ignored(self) -> None:
        """Once per bot process, on stderr: a seat whose bot sent lines the protocol ignores. Such
        lines are allowed, so they are no fault, but they are nearly always debug output on
        the wrong stream, and a bot author would otherwise never learn that they go nowhere.
        Counted by the seat as it reads, so this costs nothing per request."""
        for seat, bot in enumerate(self.seats):
            count = bot.ignored_lines - self._ignored_before[seat]
            if count <= 0 or bot.warned_ignored:
                continue
            bot.mark_warned_ignored()
            first = f" (first: '{printable(bot.first_ignored, 80)}')" if bot.first_ignored is not None else ""
            lines = "line" if count == 1 else "lines"
            log.warning("cardcli: seat %d (%s) sent %d %s the protocol ignores%s; %s",
                        seat, display_name(self._name(seat)), count, lines, first, DEBUG_HINT)

    def _start_seats(self) -> None:
        """Start every new bot, then wait for all their handshakes at once against one
        deadline: each bot has the whole start-up time from its start, whatever the bots
        seated before it do (one that stalls must not make the others forfeit)."""
        deadline = self.clock.monotonic() + self.settings.startup_time
        for bot in self.seats:
            bot.begin_match()
        fresh = [seat for seat, bot in enumerate(self.seats) if not bot.started]
        for seat in fresh:
            bot = self.seats[seat]
            bot.keep_info_lines(self.settings.keep_info)
            try:
                bot.start()
            except SeatFault as fault:
                self._fault(seat, fault, during="the start")
        started = {seat: self.seats[seat] for seat in fresh if seat not in self.fallbacks}
        faults = wait_ready_all(started, deadline, self.settings.startup_time, self.clock)
        for seat in sorted(faults):
            self._fault(seat, faults[seat], during="the handshake")
        for seat in fresh:
            if seat not in self.fallbacks:
                _set_options(self.seats[seat])
        names = [self._name(s) for s in range(self.setup.num_players)]
        order = self.setup.spec.play_order(self.setup.options)
        for seat, bot in enumerate(self.seats):
            if seat not in self.fallbacks:
                bot.notify(
                    protocol.match_header(
                        self.setup.spec.name,
                        self.setup.variant.name,
                        self.setup.num_players,
                        seat,
                        opt.to_wire(self.setup.options),
                        names,
                        order,
                        self.setup.spec.teams(self.setup.num_players),
                        bot_rng(self.setup.seed, seat),
                    )
                )

    def _deal(self) -> None:
        events = self.driver.deal(self.state)
        self.deals.append(DealRecord(self.state.deal_number, self.state.dealer, self.state.deal_facts()))
        self._route(events)
        self._score_deal()

    def _decide(self, decisions: tuple[Decision, ...]) -> None:
        millis = self._move_millis
        requests = {d.seat: (self._player(d.seat), Request(d.kind, d.moves, millis, self._bank(d.seat)))
                    for d in decisions}
        order = list(requests)
        if len(order) > 1:
            order.sort()
            self._fair.shuffle(order)
            decisions = tuple(sorted(decisions, key=lambda d: d.seat))
        answers = ask_all(requests, order, self.clock)
        for decision in decisions:
            if self.aborted:
                return
            self._take(decision, answers[decision.seat])

    def _take(self, decision: Decision, answer: Answer) -> None:
        seat = decision.seat
        by = "fallback" if seat in self.fallbacks else "seat"
        fault = answer.fault
        if fault is None and answer.move not in decision.moves:
            fault = SeatFault(FaultKind.ILLEGAL, self._why_illegal(seat, answer.move or ""))
        if fault is not None:
            self._fault(seat, fault)
            if self.aborted:
                return
            answer = self._fallback_answer(decision)
            by = "fallback"
        assert answer.move is not None
        events = self.state.apply(seat, answer.move)
        deal = self.deals[-1]
        ms = round(answer.elapsed * 1000, 3)
        bank = self._charge(seat, ms if by == "seat" else None, fault)
        deal.moves.append(MoveRecord(seat, decision.kind, answer.move, ms, by, bank))
        self._route(events)
        self._score_deal()

    def _bank(self, seat: int) -> int | None:
        return None if self._banks is None else self._banks[seat]

    def _charge(self, seat: int, ms: float | None, fault: SeatFault | None) -> float | None:
        """Draw a move's time over the per-move limit from the seat's bank, and return what is
        left, in milliseconds (None without a bank). ``ms`` is the seat's own time as the
        record keeps it (None for the fallback player's moves, which cost the seat nothing),
        so that a re-run of the record (``replay --protocol``) draws the same. A remote seat's
        network grace comes before the bank: the organiser grants it to the network, not the
        bot. A timeout has waited for the whole bank: none is left."""
        if self._banks is None:
            return None
        if fault is not None and fault.kind == FaultKind.TIMEOUT:
            self._banks[seat] = 0
        elif ms is not None:
            over = round(ms * 1000) - self._move_millis * 1000 - round(self.seats[seat].grace * 1e6)
            if over > 0:
                self._banks[seat] = max(0, self._banks[seat] - over)
        return self._banks[seat] / 1000

    def _score_deal(self) -> None:
        """Copy the current deal's score into its record once the rules have scored it (after
        its last move, or at once for a deal that is void)."""
        deal = self.deals[-1]
        if deal.points is not None or not (self.state.needs_deal() or self.state.is_over()):
            return
        scores = self.state.deal_scores
        if len(scores) >= deal.number:
            finished = scores[deal.number - 1]
            deal.points, deal.totals = list(finished.points), list(finished.totals)
            deal.notes = list(finished.notes)

    def _why_illegal(self, seat: int, move: str) -> str:
        """The engine's reason, asked on a copy so the live state cannot change."""
        probe = copy.deepcopy(self.state)
        try:
            probe.apply(seat, move)
        except MoveError as err:
            return f"{clip(move)!r} refused: {err}"
        return f"{clip(move)!r} is not one of the offered moves"

    def _fallback_answer(self, decision: Decision) -> Answer:
        fallback = self.fallbacks[decision.seat]
        fallback.ask(Request(decision.kind, decision.moves, self.settings.move_millis))
        answer = fallback.poll()
        assert answer is not None and answer.move is not None
        return answer

    # -- faults -------------------------------------------------------------------------------

    def _fault(self, seat: int, fault: SeatFault, during: str | None = None) -> None:
        detail = fault.detail
        if during is not None and f"during {during}" not in detail:
            # "when" belongs to what happened, the detail's head, not to the stderr quoted after it
            head, sep, rest = detail.partition("; ")
            detail = f"{head} (during {during}){sep}{rest}"
        deal = self.state.deal_number
        move = len(self.deals[-1].moves) if self.deals else 0
        self.faults.append(FaultRecord(seat, fault.kind, clip(detail, 300), deal, move))
        self.seats[seat].abandon()
        if self.settings.on_fault is OnFault.ABORT:
            self.aborted = True
            return
        self.fallbacks[seat] = fallback_player(self.setup.seed, seat)
        self._broadcast_line(f"forfeit {seat} {fault.kind}")

    # -- routing ------------------------------------------------------------------------------

    def _route(self, events: Sequence[Event]) -> None:
        if self.listener is not None:
            self.listener(events)
        if not events:
            return
        lines = [(e.audience, e.line()) for e in events]
        public = [line for audience, line in lines if audience is None]
        for seat, bot in enumerate(self.seats):
            if seat in self.fallbacks:
                continue
            if len(public) == len(lines):
                bot.notify(public)
                continue
            visible = [line for audience, line in lines if audience is None or seat in audience]
            if visible:
                bot.notify(visible)

    def _broadcast_line(self, line: str) -> None:
        for seat, bot in enumerate(self.seats):
            if seat not in self.fallbacks:
                bot.notify([line])

    def _player(self, seat: int) -> Seat:
        return self.fallbacks.get(seat, self.seats[seat])

    def _name(self, seat: int) -> str:
        bot = self.seats[seat]
        return bot.identity.name or bot.label

    def _close_seats(self) -> None:
        close_all(self.seats, self.settings.quit_grace)

    # -- the record ---------------------------------------------------------------------------

    def _record(self, started: str, outcome: Outcome | None, interrupted: bool = False) -> dict[str, Any]:
        """The JSON record. An interrupted match keeps the deals it played; the last may be
        unfinished (no points), and a fault may be its last event, before the fallback
        player's move."""
        setup = self.setup
        status = Status.INTERRUPTED if interrupted else Status.COMPLETE if outcome is not None else Status.ABORTED
        record: dict[str, Any] = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "software": software(),
            "status": status.value,
            "adjudicated": self.adjudicated,
            "game": setup.spec.name,
            "variant": setup.variant.name,
            "options": opt.to_json(setup.options),
            "seed": setup.seed,
            "first_dealer": setup.first_dealer,
            "started": started,
            "finished": _now(),
            "settings": self.settings.to_json(),
            "seats": [self._seat_json(s) for s in range(setup.num_players)],
            "deals": [d.to_json() for d in self.deals],
            "faults": [f.to_json() for f in self.faults],
            "result": None,
        }
        if outcome is not None:
            record["result"] = outcome.to_json()
        if self.settings.keep_info:
            record["info"] = {str(s): list(bot.info) for s, bot in enumerate(self.seats) if bot.info}
        return record

    def _seat_json(self, seat: int) -> dict[str, Any]:
        bot = self.seats[seat]
        ident = bot.identity
        entry = {
            "seat": seat,
            "name": self._name(seat),
            "spec": bot.label,
            "kind": bot.kind,
            "command": bot.command,
            "ignored_lines": bot.ignored_lines,
            "sandbox": bot.isolation,
            "bot": {
                "name": ident.name,
                "author": ident.author,
                "version": ident.version,
                "options": [list(o) for o in ident.options],
            },
        }
        if bot.options_asked:
            sent = bot.options_sent or frozenset()
            entry["set_options"] = [{"name": name, "value": value, "sent": name in sent}
                                    for name, value in bot.options_asked]
        network = bot.network
        if network is not None:
            entry["network"] = network
        return entry


def _set_options(bot: Seat) -> None:
    """Queue a ``setoption`` line for each option asked for the seat that its bot declared in
    its handshake, ahead of the match header: as UCI's GUIs do, a bot is sent only the options
    it says it has (one it did not declare is recorded as not sent, and the command warns)."""
    declared = {name for name, _ in bot.identity.options}
    sent = frozenset(name for name, _ in bot.options_asked if name in declared)
    bot.mark_options_sent(sent)
    lines = [protocol.setoption(name, value) for name, value in bot.options_asked if name in sent]
    if lines:
        bot.notify(lines)


def bot_rng(seed: int, seat: int) -> int:
    """The ``rng`` header value: a number a bot may seed its random choices with, so a bot kept
    alive across matches plays each match the same way whatever it played before. It is drawn
    from its own generator, so it tells nothing about the deals."""
    return random.Random(f"cardcli/bot-rng/{seed}/{seat}").getrandbits(31)


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def play_match(
    setup: Setup,
    seats: Sequence[Seat],
    settings: Settings = Settings(),
    listener: Listener | None = None,
    close: bool = True,
    clock: Clock = REAL_CLOCK,
) -> MatchResult:
    """Play one whole match and return its record and outcome; ``clock`` times it (a test's
    clock, the one its seats read: :mod:`cardcli.seats.clock`)."""
    return Referee(setup, seats, settings, listener, clock).run(close)
