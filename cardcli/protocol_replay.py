"""The protocol lines one seat exchanged with the referee in a recorded match, made again.

A record keeps the moves, not the lines. To give a bot author the very input their bot had (to
reproduce a fault from a tournament, say), the lines are re-derived by running the record
through the referee itself (:class:`cardcli.referee.Referee`): the recorded game, variant,
options, seed, seat names and settings, and one in-process seat per recorded seat that answers
that seat's recorded moves in order and fails where the record says it failed. Every line is
then made by the code that made it in the match, not by a second formatter that could drift
from it, and the fallback player takes over a faulty seat exactly as it did then.

The seat asked about keeps what it is sent and what it answers (:class:`ReplaySeat`), queued
the way a bot process queues its events (:meth:`cardcli.seats.process.ProcessSeat.notify`), so
lines the referee queued but never wrote (to a seat that faulted) are not shown either.

Two checks guard what is printed: the record must pass the verification walk first
(:func:`cardcli.replay.verify`, as ``replay`` and ``verify`` do), and the re-run must write the
record's deals, moves, faults and result again (:func:`first_difference`). A record the referee
would not have written is refused with the deal and move where it differs, rather than shown as
lines no bot ever saw.

What a record does not hold cannot be shown: the exact spelling of a bot's lines (its answers are
written ``move TOKEN``, its handshake ``id`` lines in the order name, author, version), the lines
the protocol ignores, and where its ``info`` lines fell (:attr:`Derived.info` keeps them apart).
"""

from __future__ import annotations

import ast
import re
from enum import Enum
from typing import Any, Sequence

import attrs

from . import protocol
from .errors import Interrupted, UsageError, VerificationError
from .games import registry
from .games.base import Event
from .records.shape import Status
from .records.io import OnFault
from .records.model import Bot, Deal, Fault, Move, Record, Seat
from .referee import Listener, MatchInterrupted, Referee, Settings
from .replay import listed, verify
from .safe_text import DETAIL_WIDTH, printable
from .seats.base import FAULT_KINDS, Answer, FaultKind, Identity, Request, SeatBase, SeatFault
from .transcript import FROM_BOT, TO_BOT, Entry

NO_MOVE_LEFT = "the record holds no further answer of this seat"
"""The detail of the fault a replayed seat answers once its recorded moves are used up. The
referee only asks for it where the match was aborted by another seat's fault while this seat's
answer was open, and then drops the answer unread; anywhere else the re-run's record differs
and the record is refused."""


@attrs.frozen
class Derived:
    """The lines of one seat in a recorded match, with what the record cannot show."""

    entries: tuple[Entry, ...]
    """Every line, in order: :data:`~cardcli.transcript.TO_BOT` to the bot,
    :data:`~cardcli.transcript.FROM_BOT` from it."""
    info: tuple[str, ...]
    """The seat's ``info`` texts, when the record kept them (``--keep-info``): their places among
    the lines are not recorded."""
    notes: tuple[str, ...]
    """Remarks for the reader: where the lines are not all the bot exchanged."""

    def to_bot(self) -> list[str]:
        """The lines the bot received, without markers: input to feed a bot again."""
        return [entry.line for entry in self.entries if entry.direction == TO_BOT]



class Stage(Enum):
    """When a recorded fault happened, as far as replaying it goes (read from the fault's deal
    and detail; never written anywhere)."""

    START = "start"
    """The program could not be started."""
    HANDSHAKE = "handshake"
    MOVE = "move"


@attrs.frozen
class FaultReading:
    """A recorded fault, read for replaying: how the seat fails again, and the line the bot sent
    when the fault's detail quotes it whole."""

    kind: str
    detail: str
    line: str | None
    """The bot's offending line, recovered from the detail (None when it quotes none, or only a
    cut part)."""
    move: str | None
    """For an ``illegal`` fault, the token the bot answered: it is answered again, so the
    referee itself finds it illegal."""
    unasked: bool
    """A ``move`` that was waiting before the request went out: the referee found it before
    writing the request, so the request and the events queued with it never reached the bot."""
    phase: Stage
    """When the fault happened: at the start, during the handshake, or at a move."""

    @classmethod
    def of(cls, fault: Fault) -> "FaultReading":
        kind, detail = fault.kind, fault.detail
        if fault.deal == 0:
            phase = Stage.START if "during the start" in detail and "during the handshake" not in detail else Stage.HANDSHAKE
        else:
            phase = Stage.MOVE
        line = move = None
        unasked = False
        if kind == FaultKind.ILLEGAL:
            move = _quoted_at(detail, 0, (" refused: ", " is not one of the offered moves"))
            line = None if move is None else f"move {move}"
        elif kind == FaultKind.MALFORMED:
            line = _quoted_after(detail, "a move is one token: ")
        elif kind == FaultKind.PROTOCOL:
            line = _quoted_after(detail, "move sent without a request: ")
            if line is not None:
                unasked = "(before the bot had read the request)" not in detail
            else:
                line = _quoted_after(detail, "move during the handshake: ")
        return cls(kind, detail, line, move, unasked, phase)

    def fault(self) -> SeatFault:
        return SeatFault(FaultKind(self.kind), self.detail)


def _quoted_after(detail: str, head: str) -> str | None:
    if not detail.startswith(head):
        return None
    return _quoted_at(detail, len(head), None)


def _quoted_at(detail: str, start: int, followers: tuple[str, ...] | None) -> str | None:
    """The text of the Python string literal (a ``repr``, as the referee quotes a bot's line)
    at ``detail[start:]``, when one of ``followers`` comes right after it (None: anything may).
    None when there is no whole literal there, or the referee had cut the quoted text (a long
    line is quoted as its start and ``... (N chars)``)."""
    if start >= len(detail) or detail[start] not in "'\"":
        return None
    quote, i = detail[start], start + 1
    while i < len(detail):
        ch = detail[i]
        if ch == "\\":
            i += 2
            continue
        if ch == quote:
            break
        i += 1
    else:
        return None
    if followers is not None and not detail.startswith(followers, i + 1):
        return None
    try:
        value = ast.literal_eval(detail[start:i + 1])
    except (ValueError, SyntaxError):
        return None
    if not isinstance(value, str) or re.search(r"\.\.\. \(\d+ chars\)\Z", value):
        return None
    return value


@attrs.frozen
class AsRecorded:
    """What the referee's lines to a replayed seat depend on besides its moves: the options its
    bot declared (in its ``identity``) and was set (the ``setoption`` lines), and a remote
    seat's network ``grace`` (which comes before its time bank)."""

    identity: Identity = Identity()
    options: tuple[tuple[str, str], ...] = ()
    grace: float = 0.0


class ReplaySeat(SeatBase):
    """A recorded seat played again: its recorded moves in order, its recorded faults where they
    happened.

    The lines it is told are queued and count as sent only when a request, the greeting or
    ``quit`` goes out, as a bot process's are: events the referee queued for a seat that then
    faulted were never written to it, and its transcript must not show them. With ``keep``, it
    keeps every line in :attr:`entries`.
    """

    kind = "replay"

    def __init__(self, label: str, moves: Sequence[tuple[str, float]], faults: Sequence[FaultReading],
                 handshake: Sequence[str], keep: bool = False, recorded: AsRecorded = AsRecorded()):
        super().__init__(label)
        self.identity = recorded.identity
        self.options_asked = recorded.options
        self.grace = recorded.grace
        self._moves = list(moves)
        """The seat's own moves and their recorded times in milliseconds: answered with the
        same times, the referee draws the same time bank again."""
        self._answered = 0
        self._faults = list(faults)
        self._handshake = list(handshake)
        self._queued: list[str] = []
        self._answer: Answer | None = None
        self._quit_sent = False
        self.abandoned = False
        self.entries: list[Entry] | None = [] if keep else None
        self.unanswered = False
        """Whether the seat was asked a request the record holds no answer to (see
        :data:`NO_MOVE_LEFT`)."""
        self.failed: FaultReading | None = None
        """The first fault the seat made again, if any."""

    # -- what reaches the bot, and what it says -------------------------------------------------

    def _keep(self, direction: str, line: str) -> None:
        if self.entries is not None:
            self.entries.append(Entry(0.0, direction, line))

    def _send(self, lines: Sequence[str]) -> None:
        """Write the queued events with ``lines``, as a bot process writes them together."""
        for line in [*self._queued, *lines]:
            self._keep(TO_BOT, line)
        self._queued.clear()

    def _fail(self, reading: FaultReading) -> SeatFault:
        if self.failed is None:
            self.failed = reading
        return reading.fault()

    def _next_fault(self, phase: Stage) -> FaultReading | None:
        if self._faults and self._faults[0].phase is phase:
            return self._faults.pop(0)
        return None

    # -- the seat interface ---------------------------------------------------------------------

    def start(self) -> None:
        self.started = True
        reading = self._next_fault(Stage.START)
        if reading is not None:
            raise self._fail(reading)
        self._send([protocol.hello()])

    def read_handshake(self) -> bool:
        reading = self._next_fault(Stage.HANDSHAKE)
        if reading is not None:
            if reading.line is not None:
                self._keep(FROM_BOT, reading.line)
            raise self._fail(reading)
        if self.abandoned:
            raise SeatFault(FaultKind.CRASH, "not running")  # as a bot process that faulted at its start
        for line in self._handshake:
            self._keep(FROM_BOT, line)
        self._handshake = []
        return True

    def notify(self, lines: Sequence[str]) -> None:
        if not self.abandoned:
            self._queued += lines

    def ask(self, request: Request) -> None:
        go = protocol.request(request.kind, request.millis, request.moves, request.bank_us)
        if self._answered < len(self._moves):
            move, ms = self._moves[self._answered]
            self._answered += 1
            self._send(go)
            self._keep(FROM_BOT, f"move {move}")
            self._answer = Answer(move, ms / 1000)
            return
        reading = self._next_fault(Stage.MOVE)
        if reading is None:
            self._send(go)
            self.unanswered = True
            self._answer = Answer(None, 0.0, SeatFault(FaultKind.PROTOCOL, NO_MOVE_LEFT))
            return
        if reading.unasked:
            self._queued.clear()
        else:
            self._send(go)
        if reading.line is not None:
            self._keep(FROM_BOT, reading.line)
        if reading.move is not None:
            self.failed = self.failed or reading
            self._answer = Answer(reading.move, 0.0)  # the referee finds it illegal again
        else:
            self._answer = Answer(None, 0.0, self._fail(reading))

    def poll(self) -> Answer | None:
        answer, self._answer = self._answer, None
        return answer

    def request_quit(self) -> None:
        if self.started and not self.abandoned and not self._quit_sent:
            self._quit_sent = True
            self._send([protocol.quit_line()])

    def close(self, grace: float = 0.0) -> None:
        self._queued.clear()

    def abandon(self) -> None:
        self.abandoned = True
        self._queued.clear()


# -- the re-run -------------------------------------------------------------------------------


def handshake_lines(bot: Bot) -> list[str]:
    """The handshake a bot sent, as the record keeps it: ``id`` lines for the fields it gave
    (name, author, version: the record does not keep their order), its ``option`` lines in
    order, then ``ready``."""
    lines = []
    for field, value in (("name", bot.name), ("author", bot.author), ("version", bot.version)):
        if value is not None:
            lines.append(f"id {field} {value}" if value else f"id {field}")
    for name, value in bot.options:
        lines.append(f"option {name} {value}" if value else f"option {name}")
    lines.append("ready")
    return lines


def _as_recorded(entry: Seat) -> AsRecorded:
    """What the record's seat ``entry`` says the referee's lines to the seat depend on."""
    network = entry.network  # kept as written: the shape check leaves it unchecked
    grace = network.get("grace_ms") if type(network) is dict else None
    return AsRecorded(
        Identity(options=entry.bot.options),
        tuple((o.name, o.value) for o in entry.set_options),
        grace / 1000 if type(grace) is int and grace >= 0 else 0.0,
    )


def settings_of(record: Record) -> Settings:
    """The recorded settings; a field a record lacks takes the referee's default (not the
    model's, which stands for a field left out)."""
    recorded = record.settings
    if recorded.on_fault is not None and recorded.on_fault not in set(OnFault):
        raise VerificationError(printable(f"the record's fault policy {recorded.on_fault!r} is none the referee has",
                                          DETAIL_WIDTH))
    names = [field.name for field in attrs.fields(Settings)]
    return Settings(**{name: getattr(recorded, name) for name in names if name in recorded.present})


def derive(record: dict[str, Any], seat: int, where: str = "record") -> Derived:
    """The lines ``seat`` exchanged with the referee in the match ``record`` holds.

    Raises UsageError for a seat the match does not have, VerificationError for a record that
    does not verify or that the referee, given its moves, would not have written the same.
    """
    seats = record.get("seats")  # not shape-checked yet: a wrong --seat is said before the walk
    if isinstance(seats, list) and not 0 <= seat < len(seats):
        raise UsageError(f"--seat {seat}: the match has seats 0 to {len(seats) - 1}")
    read = verify(record, where).record  # checks the record's shape, and builds its model once
    for n, fault in enumerate(read.faults, start=1):
        if fault.kind not in FAULT_KINDS:
            raise VerificationError(printable(
                f"{where}: fault {n} is of kind {fault.kind!r}, which the referee never records", DETAIL_WIDTH))
    setup = registry.resolve(read.game, read.variant, read.options, read.players, read.seed)
    players = [
        ReplaySeat(
            entry.name,
            [(m.move, m.ms) for deal in read.deals for m in deal.moves if m.seat == place and m.by == "seat"],
            [FaultReading.of(f) for f in read.faults if f.seat == place],
            handshake_lines(entry.bot),
            keep=place == seat,
            recorded=_as_recorded(entry),
        )
        for place, entry in enumerate(read.seats)
    ]
    settings = settings_of(read)
    # A re-run that strays from the record is refused whatever it does next, so it need not play
    # on for the recorded deal limit (up to 2**63 in a made-up record): one deal past the record's
    # end settles it. A faithful re-run ends where the record does, the limit unreached (or
    # reached exactly there, for an adjudicated match); the limit is sent to no bot.
    settings = attrs.evolve(settings, max_deals=min(settings.max_deals, len(read.deals) + 1))
    referee = Referee(setup, players, settings)
    interrupted = read.status == Status.INTERRUPTED
    if interrupted:
        referee.listener = _stop_where(read, referee)
    try:
        written = referee.run(close=True).record
    except MatchInterrupted as stop:
        written = stop.result.record
    rerun = Record.from_json(written)
    if interrupted:
        rerun = _cut_to(rerun, read)
    difference = first_difference(read, rerun)
    if difference is not None:
        raise VerificationError(printable(f"{where}{difference}", DETAIL_WIDTH))
    mine = players[seat]
    assert mine.entries is not None
    info = read.info or {}
    return Derived(tuple(mine.entries), tuple(info.get(str(seat), ())), tuple(_notes(read, seat, mine)))


def _stop_where(record: Record, referee: Referee) -> Listener:
    """A listener that interrupts the re-run of an interrupted match where the record stops:
    once it has every recorded fault and has gone past the record's last move (dealt the next
    deal, or made a fallback move after a fault the record ends with), or right at that move
    when the record's last deal has no score (Ctrl-C came before the referee wrote it). The
    referee calls its listener after each deal and each move is written, before the score."""
    end = _end(record)
    unscored = bool(record.deals) and record.deals[-1].points is None
    faults = len(record.faults)

    def listener(events: Sequence[Event]) -> None:
        if len(referee.faults) < faults or not referee.deals:
            return
        here = (len(referee.deals), len(referee.deals[-1].moves))
        if here > end or (here == end and unscored):
            raise Interrupted("interrupted", 130)

    return listener


def _end(record: Record) -> tuple[int, int]:
    """Where a record stops: its number of deals, and of moves in its last deal."""
    deals = record.deals
    return len(deals), len(deals[-1].moves) if deals else 0


def _cut_to(rerun: Record, original: Record) -> Record:
    """The re-run of an interrupted match, cut to where the record stops: the re-run stops a
    step past it (see :func:`_stop_where`), or plays to the end where Ctrl-C came after the
    last move. Only the record's last deal is cut, so a re-run that strays or stops short
    anywhere is still found."""
    ours = original.deals
    deals: list[Deal] = list(rerun.deals[: len(ours)])
    if ours and len(deals) == len(ours):
        last, mine = deals[-1], ours[-1]
        last = attrs.evolve(last, moves=last.moves[: len(mine.moves)])
        if mine.points is None:
            last = attrs.evolve(last, points=None, totals=None, notes=mine.notes)
        deals[-1] = last
    end = _end(original)
    faults = tuple(f for f in rerun.faults if (f.deal, f.move) <= end)
    return attrs.evolve(rerun, deals=tuple(deals), faults=faults, status=Status.INTERRUPTED.value, result=None)


def first_difference(original: Record, rerun: Record) -> str | None:
    """Where the re-run's record first differs from the original, as ``, deal D, move M: what``
    (moves counted from 1, as ``verify`` counts them), or None. Compared: every deal's dealer,
    moves (seat, kind, token, and whether the fallback player made it), points, totals and
    notes; the faults (seat, kind, deal, move); the status and the result. Not the timings, the
    details or the seats' descriptions, which a re-run cannot make again."""
    ours, theirs = original.deals, rerun.deals
    for index, deal in enumerate(ours):
        number = index + 1
        if index >= len(theirs):
            return f", deal {number}: the referee, given the recorded moves, never deals it"
        again = theirs[index]
        if deal.dealer != again.dealer:
            return f", deal {number}: dealt by seat {deal.dealer}, the referee makes seat {again.dealer} deal"
        moves, remade = deal.moves, again.moves
        for m, move in enumerate(moves):
            if m >= len(remade):
                return f", deal {number}, move {m + 1}: the referee, given the recorded moves, stops before it"
            if move.played() != remade[m].played():
                return (f", deal {number}, move {m + 1}: the record has {_move_text(move)}, "
                        f"the referee, given the recorded moves, makes {_move_text(remade[m])}")
        if len(remade) > len(moves):
            return (f", deal {number}, move {len(moves) + 1}: the referee, given the recorded moves, goes on "
                    f"with {_move_text(remade[len(moves)])}")
        for key in ("points", "totals", "notes"):
            if getattr(deal, key) != getattr(again, key):
                return f", deal {number}: recorded {key} {_shown(deal, key)}, the re-run gives {_shown(again, key)}"
    if len(theirs) > len(ours):
        return f", deal {len(ours) + 1}: the referee, given the recorded moves, deals on"
    faults = [_fault_key(f) for f in original.faults]
    refaults = [_fault_key(f) for f in rerun.faults]
    for n in range(max(len(faults), len(refaults))):
        mine = faults[n] if n < len(faults) else None
        made = refaults[n] if n < len(refaults) else None
        if mine != made:
            deal, move = (mine or made)[2:]  # type: ignore[index]
            return (f", deal {deal}, move {move + 1}: the record has {_fault_text(mine)}, "
                    f"the referee, given the recorded faults, records {_fault_text(made)}")
    if original.status != rerun.status:
        return f": the match is {original.status}, the re-run's is {rerun.status}"
    result, again_result = _result_json(original), _result_json(rerun)
    if result != again_result:
        return f": recorded result {result}, the re-run's is {again_result}"
    return None


def _shown(deal: Deal, key: str) -> list[Any] | None:
    """A deal's ``points``, ``totals`` or ``notes`` as the record writes it, for a message: a
    list, or None where the record leaves the key out (the model's default for the notes is
    no notes, which the record does not say)."""
    return listed(getattr(deal, key)) if key in deal.present else None


def _result_json(record: Record) -> dict[str, Any] | None:
    """The result as written, compared whole: every key, as the record and the re-run hold it."""
    return None if record.result is None else record.result.to_json()


def _move_text(move: Move) -> str:
    by = "the fallback player's" if move.fallback else "the seat's own"
    return f"seat {move.seat} {move.kind} {move.move!r} ({by})"


def _fault_key(fault: Fault) -> tuple[Any, ...]:
    return fault.seat, fault.kind, fault.deal, fault.move


def _fault_text(key: tuple[Any, ...] | None) -> str:
    return "no fault" if key is None else f"a {key[1]} fault of seat {key[0]}"


def _notes(record: Record, seat: int, mine: ReplaySeat) -> list[str]:
    """What the reader of the lines should know of what they leave out."""
    notes = []
    entry = record.seats[seat]
    kind = entry.kind
    if "kind" in entry.present and kind not in ("process", "remote"):  # a seat without a kind was a bot's
        notes.append(f"seat {seat} was not a bot program (kind {printable(kind, 40)}): these are the lines "
                     "a bot in its place would have exchanged")
    if "tournament" in record.present:  # written null counts: the key says the match was a tournament's
        notes.append("a tournament keeps its bots alive from match to match: such a bot got 'cardcli 1' and "
                     "its handshake in its first match only, a match's last lines with the next 'game' "
                     "header, and 'quit' after its last match")
    ignored = entry.ignored_lines
    if ignored:
        notes.append(f"the bot sent {ignored} line(s) the protocol ignores in its session: they are counted, "
                     "not recorded, and not shown")
    reading = mine.failed
    if reading is not None:
        fault = next(f for f in record.faults if f.seat == seat)
        what = f"({reading.kind}: {reading.detail})"
        if reading.phase is Stage.START:
            text = f"seat {seat}'s program could not be started {what}: the referee wrote nothing to it"
        else:
            where = "in the handshake" if fault.deal == 0 else f"in deal {fault.deal}, move {fault.move + 1}"
            shown = "" if reading.line is not None else "; what the bot sent then, if anything, is not recorded"
            text = f"seat {seat} faulted {where} {what}; the referee wrote no more to it{shown}"
        notes.append(printable(text, DETAIL_WIDTH + 200))
    if mine.unanswered and record.status != Status.INTERRUPTED:
        notes.append(f"seat {seat}'s answer to its last request is not recorded: another seat's fault aborted "
                     "the match before the referee took it")
    if record.status == Status.INTERRUPTED:
        notes.append("the match was interrupted (Ctrl-C or SIGTERM): the lines go on to the first request whose "
                     "answer the record does not hold, and the last of them may not have reached the bot")
    return notes
