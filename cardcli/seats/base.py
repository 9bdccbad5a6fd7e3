"""The one small interface every kind of seat implements, and the values it exchanges.

A request is asked in two steps, :meth:`Seat.ask` then :meth:`Seat.poll`, so the referee can
ask several seats at once (a simultaneous pass) and wait on all their pipes with one selector.
In-process seats answer inside ``ask``; external processes answer when their line arrives.
"""

from __future__ import annotations

import select
from enum import StrEnum
from typing import Any, Protocol, Self, Sequence

import attrs

from ..errors import CardcliError


class FaultKind(StrEnum):
    """The kinds of bot misbehaviour, each recorded with a detail text. The values are what
    records, ``forfeit`` lines and the remote link carry."""

    CRASH = "crash"
    """The process exited, was killed, or closed its output."""
    TIMEOUT = "timeout"
    """No complete answer within the time limit (handshake or move)."""
    ILLEGAL = "illegal"
    """A well-formed answer naming a move that was not offered."""
    MALFORMED = "malformed"
    """A line that breaks the framing: too long, invalid UTF-8, ``move`` without a token."""
    PROTOCOL = "protocol"
    """A line out of place: a move nobody asked for, a bad handshake, input not being read."""
    LIMIT = "limit"
    """The bot died on one of its resource limits (CPU time, memory, open files)."""
    DISCONNECT = "disconnect"
    """A remote bot did not connect in time, or its connection stayed down past the
    reconnect window."""


FAULT_KINDS: frozenset[str] = frozenset(kind.value for kind in FaultKind)
"""Every kind's text, for checking a kind read from a record or the remote link."""


FLUSH_HINT = "flush after every line"
"""What to do about the commonest silent timeout: a bot's line waiting in its own output
buffer. One text, shared by the fault details and ``check-bot``'s hints."""

DEBUG_HINT = "debug output belongs on stderr"
"""What to do about lines on stdout that the protocol ignores."""

HINTS: dict[str, str] = {
    FaultKind.TIMEOUT: f"too slow, or the answer is stuck in the bot's output buffer: {FLUSH_HINT}",
    FaultKind.ILLEGAL: "answer with one of the moves the 'go' line lists, exactly as written",
    FaultKind.MALFORMED: "answer 'move <token>' on one line, UTF-8, under 8192 bytes",
    FaultKind.PROTOCOL: "send 'move' only in answer to 'go', once",
    FaultKind.CRASH: "the bot stopped: see its stderr",
    FaultKind.LIMIT: "the bot went over a resource limit",
    FaultKind.DISCONNECT: "keep 'cardcli connect' running (it reconnects by itself) and the network up",
}
"""What a bot's author can do about each kind of fault: kept here, next to the kinds, so the
referee's details and ``check-bot``'s checklist say the same thing in the same words."""


class SeatFault(CardcliError):
    """Raised by a seat that can no longer play; the referee records it and applies the policy."""

    def __init__(self, kind: FaultKind, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def clip(text: str, limit: int = 200) -> str:
    """Offending text cut to a length that fits a log line and a record."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


@attrs.frozen
class Request:
    kind: str
    moves: Sequence[str]
    """The decision's moves (:attr:`~cardcli.games.base.Decision.moves`)."""
    millis: int
    """The per-move limit the ``go`` line states."""
    bank_us: int | None = None
    """What is left of the seat's time bank, in microseconds; None when the match has none."""

    @property
    def allowed(self) -> float:
        """Seconds the answer may take: the per-move limit and whatever is left in the bank."""
        return self.millis / 1000.0 + (self.bank_us or 0) / 1e6


@attrs.frozen
class Answer:
    """A seat's answer: the move text as sent, or a fault; ``elapsed`` in seconds."""

    move: str | None
    elapsed: float
    fault: SeatFault | None = None


@attrs.frozen
class Identity:
    """What a bot said about itself in the handshake."""

    name: str | None = None
    author: str | None = None
    version: str | None = None
    options: tuple[tuple[str, str], ...] = ()


class Seat(Protocol):
    """What the referee, the gathering of answers and handshakes (:mod:`cardcli.seats.gather`),
    the tournament's pool of bots and replay use of a seat: every member is a method or a
    property only the seat itself writes. What a seat is told from outside comes in as a
    constructor argument or through a method of :class:`SeatBase` that says what it sets
    (:meth:`SeatBase.named`, :meth:`SeatBase.given_options`), or through one of the methods
    below (:meth:`keep_info_lines`, :meth:`mark_warned_ignored`, :meth:`mark_options_sent`).

    :class:`SeatBase` documents each member; every seat derives from it."""

    @property
    def label(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def grace(self) -> float: ...
    @property
    def identity(self) -> Identity: ...
    @property
    def info(self) -> Sequence[str]: ...
    @property
    def ignored_lines(self) -> int: ...
    @property
    def first_ignored(self) -> str | None: ...
    @property
    def warned_ignored(self) -> bool: ...
    @property
    def options_asked(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def options_sent(self) -> frozenset[str] | None: ...
    @property
    def started(self) -> bool: ...
    @property
    def usable(self) -> bool: ...
    @property
    def isolation(self) -> str | None: ...
    @property
    def command(self) -> list[str] | None: ...
    @property
    def network(self) -> dict[str, Any] | None: ...

    def keep_info_lines(self, keep: bool) -> None: ...
    def mark_warned_ignored(self) -> None: ...
    def mark_options_sent(self, names: frozenset[str]) -> None: ...
    def start(self) -> None: ...
    def begin_match(self) -> None: ...
    def handshake_deadline(self, deadline: float, limit: float) -> float: ...
    def handshake_fileno(self) -> int | None: ...
    def read_handshake(self) -> bool: ...
    def handshake_timeout(self, limit: float) -> SeatFault: ...
    def notify(self, lines: Sequence[str]) -> None: ...
    def ask(self, request: Request) -> None: ...
    def fileno(self) -> int | None: ...
    def wait_readable(self, timeout: float) -> None: ...
    def poll(self) -> Answer | None: ...
    def wants_write(self) -> bool: ...
    def on_writable(self) -> None: ...
    def expire(self) -> Answer: ...
    def retire(self) -> None: ...
    def request_quit(self) -> None: ...
    def close(self, grace: float = 0.0) -> None: ...
    def abandon(self) -> None: ...


class SeatBase:
    """Base class of every seat, implementing :class:`Seat`. Subclasses override what they
    need; only the seat's own class writes its attributes."""

    kind = "seat"
    """What the seat is, for the record (``process``, ``builtin``, ``scripted``...): a class's
    own, or given at construction."""
    grace = 0.0
    """Seconds added to the deadline of every request, beyond the move time the request states:
    a remote seat's network grace."""
    keep_info = False
    """Whether ``info`` lines are kept for the record (:meth:`keep_info_lines`)."""

    def __init__(self, label: str, kind: str | None = None):
        self.label = label
        """The seat's name in the record until its bot says its own (the spec, or an entrant's
        name: :meth:`named`)."""
        if kind is not None:
            self.kind = kind
        self.tag = label
        """A short name for log lines and a bot's control group (``seat2``): :meth:`named`."""
        self.identity = Identity()
        self.info: list[str] = []
        self.ignored_lines = 0
        """Lines from the bot that the protocol ignores (unknown first word): counted, recorded."""
        self.first_ignored: str | None = None
        """The first ignored line of the current match (clipped), quoted by the referee's
        warning; :meth:`begin_match` clears it when a match starts."""
        self.warned_ignored = False
        """Whether the referee has warned about this bot's ignored lines: once per bot
        process, so a kept-alive bot in a long tournament does not repeat it every match
        (:meth:`mark_warned_ignored`)."""
        self.options_asked: tuple[tuple[str, str], ...] = ()
        """The bot options the organiser set for this seat (name, value), in order: the
        referee sends those the bot declares (``setoption``) after its handshake."""
        self.options_sent: frozenset[str] | None = None
        """The names of :attr:`options_asked` that were sent; None until the handshake has
        been completed (the options of a bot that never became ready were not sent):
        :meth:`mark_options_sent`."""

    started = False
    """True once :meth:`start` has run: a seat is started once and may play many matches."""

    def named(self, label: str | None = None, tag: str | None = None) -> Self:
        """Name the seat (its :attr:`label`, its :attr:`tag`), before it starts; returns it."""
        if label is not None:
            self.label = label
        if tag is not None:
            self.tag = tag
        return self

    def given_options(self, options: Sequence[tuple[str, str]]) -> Self:
        """Set the bot options the organiser asks for this seat (:attr:`options_asked`), before
        it starts; returns it."""
        self.options_asked = tuple(options)
        return self

    def keep_info_lines(self, keep: bool) -> None:
        """Whether to keep the bot's ``info`` lines for the record: set by the referee before it
        starts the seat."""
        self.keep_info = keep

    def mark_warned_ignored(self) -> None:
        """The referee has warned about this bot's ignored lines (:attr:`warned_ignored`)."""
        self.warned_ignored = True

    def mark_options_sent(self, names: frozenset[str]) -> None:
        """The names of :attr:`options_asked` the referee sent after the handshake
        (:attr:`options_sent`)."""
        self.options_sent = names

    def start(self) -> None:
        """Start playing (start the process and greet it). Raise SeatFault on failure."""
        self.started = True

    @property
    def usable(self) -> bool:
        """False once the seat was closed or abandoned: the next match needs a new seat."""
        return True

    def begin_match(self) -> None:
        """A new match starts for a seat that may have played before (kept alive): forget what
        belongs to the last one (its ``info`` lines, its first ignored line, a sandboxed bot's
        scratch files). A subclass that overrides it calls it too."""
        self.info = []
        self.first_ignored = None

    @property
    def isolation(self) -> str | None:
        """What guards the seat's program, for the record; None for a seat that runs no
        program."""
        return None

    def wait_ready(self, deadline: float) -> None:
        """Finish the handshake of this seat alone by ``deadline`` (a ``time.monotonic``
        value), or raise SeatFault. A match waits on all its seats at once instead
        (:func:`cardcli.seats.gather.wait_ready_all`, built on the two methods below), so one
        slow bot never eats into the start-up time of another.
        """

    def handshake_deadline(self, deadline: float, limit: float) -> float:
        """When this seat's handshake times out, given the match's ``deadline`` for it (and
        ``limit``, the start-up time in seconds): a seat that must first wait for its bot to
        connect moves it. Asked again at every wake-up, since the answer may change."""
        return deadline

    def handshake_fileno(self) -> int | None:
        """While the handshake is open, a descriptor that turns readable when the seat has
        more to say; None when there is nothing to wait on (an in-process seat is ready at
        once)."""
        return None

    def read_handshake(self) -> bool:
        """Take in whatever the seat has said so far, without blocking; True once it has said
        ``ready``. Raise SeatFault for a handshake that went wrong. Called when
        :meth:`handshake_fileno` is readable, and once more at the deadline, so a ``ready``
        already waiting is never mistaken for a timeout."""
        return True

    def handshake_timeout(self, limit: float) -> SeatFault:
        """The fault for a seat that did not say ``ready`` within ``limit`` seconds. A seat that
        knows what it received says so, since the cure differs: nothing at all points at an
        unflushed output buffer, ``id`` lines without ``ready`` at a missing ``ready``."""
        return SeatFault(FaultKind.TIMEOUT, f"no answer during the handshake within {limit:g} s")

    def notify(self, lines: Sequence[str]) -> None:
        """Tell the seat what it may know. Never blocks. ``lines`` may be the very list other
        seats are given (public events are formatted once for all): read it, never change it."""

    def ask(self, request: Request) -> None:
        raise NotImplementedError

    def fileno(self) -> int | None:
        """A descriptor to wait on for the answer, or None when ``poll`` answers at once."""
        return None

    def wait_readable(self, timeout: float) -> None:
        """Block up to ``timeout`` seconds until :meth:`fileno` has something to read."""
        fd = self.fileno()
        if fd is not None:
            select.select([fd], [], [], timeout)

    def poll(self) -> Answer | None:
        """The answer if it is complete; reads whatever is available without blocking."""
        raise NotImplementedError

    def wants_write(self) -> bool:
        """True while part of a request is still waiting to be written to the seat."""
        return False

    def on_writable(self) -> None:
        """Try again to write what the seat has not yet read."""

    def expire(self) -> Answer:
        """Called when the deadline of the open request has passed."""
        return Answer(None, 0.0, SeatFault(FaultKind.TIMEOUT, "no answer in time"))

    def retire(self) -> None:
        """This referee will not need the seat's bot again (the last match is over): a remote
        seat's ``quit`` then also tells ``cardcli connect`` not to come back. Called before
        :meth:`close`."""

    def request_quit(self) -> None:
        """Ask the seat to end (``quit``) without waiting: the referee asks every seat first and
        then closes each, so the bots exit side by side."""

    def close(self, grace: float = 0.0) -> None:
        """End the seat for good (quit, then kill the process group)."""

    def abandon(self) -> None:
        """End the seat at once, after a fault: no quit, no grace."""
        self.close(0.0)

    @property
    def command(self) -> list[str] | None:
        return None

    @property
    def network(self) -> dict[str, Any] | None:
        """For a seat whose bot plays from another machine, the record's account of its
        connection (round trip, reconnections, grace); None for every other seat."""
        return None


def close_all(seats: Sequence[Seat], grace: float, last: bool = False) -> None:
    """Close several seats: ``quit`` goes to all of them first, then each gets up to ``grace``
    seconds to exit, so the bots exit side by side rather than one after another. ``last``:
    no further match will need these bots (:meth:`Seat.retire`)."""
    if last:
        for seat in seats:
            seat.retire()
    if grace > 0:
        for seat in seats:
            seat.request_quit()
    for seat in seats:
        seat.close(grace)
