"""The frames of a remote seat's WebSocket connection (``protocol/REMOTE.md``), as pure
functions and two small buffers: the referee's listener and ``cardcli connect`` both use them,
so the two ends cannot disagree on the format.

Every frame is one WebSocket text message. After authentication, each protocol line travels
alone in a *line frame*, ``SEQ LINE``: the line's number in its direction (from 1) and the
line exactly as a bot reads or writes it on a pipe, without its newline. The numbers are what
makes a reconnection lose and repeat nothing: each end keeps what it sent until the other end
acknowledges it (``ack SEQ``), and after a reconnection each end sends again what the other has
not received. A frame that starts with a digit is a line frame; every other frame starts with
a word that says what it is.
"""

from __future__ import annotations

import hmac
import re
from collections import deque
from typing import Iterator

import attrs

from .. import protocol
from ..errors import CardcliError

VERSION = 1
"""The version a client names in its ``auth`` frame."""

MAX_LINE = protocol.MAX_BOT_LINE - 1
"""Longest protocol line (bytes, no newline) a peer may send: a bot's line limit."""
MAX_PEER_FRAME = MAX_LINE + 24
"""Longest frame a peer may send: a line, its number and a space (and room for a control
frame, which is shorter). WebSocket messages over it end the connection."""
MAX_REFEREE_FRAME = protocol.MAX_REFEREE_LINE + 24
"""Longest frame the referee sends: one of its longest lines with its number."""

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A remote entrant's name, as the tokens file and ``auth`` give it: letters, digits and
``_.-``, so it is safe in a log line, a file name and a shell word."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
"""A token: URL-safe base64 characters, at least 16 of them."""
SESSION = re.compile(r"[A-Za-z0-9_-]{16,64}")

FAULT_KINDS = ("crash", "malformed")
"""What a relay may report about its own bot: it exited, or it wrote a line that breaks the
framing (too long, invalid UTF-8). Anything else a relay cannot know better than the referee."""

END_QUIT = "quit"
"""The session ended normally: the bot was sent ``quit``."""
END_FAULT = "fault"
"""The session ended after a fault: the referee stopped listening to this bot."""
END_OVER = "over"
"""The referee has no more matches: a relay stops instead of connecting again."""
ENDS = (END_QUIT, END_FAULT, END_OVER)

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
"""WebSocket close code of every refusal (with the same one-line reason as the frame)."""
CLOSE_UNSUPPORTED = 1003
"""WebSocket close code for a binary frame."""

KEPT_LINES = 20000
"""Lines an end keeps for sending again when they are not acknowledged; older ones are
dropped (memory stays bounded against a peer that never acknowledges), and a reconnection
that would need them is refused."""
KEPT_BYTES = 8 << 20
"""Bytes of such lines an end keeps, at most."""
ACK_EVERY = 32
"""An end acknowledges every this many lines it receives."""


class WireError(CardcliError):
    """A frame that breaks the format: the connection is closed with this reason."""


@attrs.frozen
class Auth:
    name: str
    token: str
    session: str | None = None
    received: int = 0
    """With a session: how many of the referee's lines the client has received."""


@attrs.frozen
class Frame:
    """A parsed frame other than ``auth``: ``kind`` is ``line`` (``seq``, ``text``), ``ack``
    (``seq``), ``fault`` (``word`` is the kind, ``text`` the detail), ``end`` (``word``),
    ``welcome`` (``word`` the session, ``seq`` the count received) or ``refused`` (``word``,
    ``text``)."""

    kind: str
    seq: int = 0
    word: str = ""
    text: str = ""


def auth(name: str, token: str, session: str | None = None, received: int = 0) -> str:
    if session is None:
        return f"auth {VERSION} {name} {token}"
    return f"auth {VERSION} {name} {token} {session} {received}"


def welcome(session: str, received: int) -> str:
    return f"welcome {session} {received}"


def refused(word: str, reason: str) -> str:
    return f"refused {word}: {reason}"


def line(seq: int, text: str) -> str:
    return f"{seq} {text}"


def ack(seq: int) -> str:
    return f"ack {seq}"


def fault(kind: str, detail: str) -> str:
    return f"fault {kind} {' '.join(detail.split())}"


def end(reason: str) -> str:
    return f"end {reason}"


def parse_auth(text: str) -> Auth:
    """The first frame of a connection; WireError when it is not a well-formed ``auth``."""
    words = text.split(" ")
    if len(words) not in (4, 6) or words[0] != "auth":
        raise WireError("the first frame must be 'auth 1 NAME TOKEN'")
    if words[1] != str(VERSION):
        raise WireError(f"unsupported version {words[1][:10]!r}: this referee speaks {VERSION}")
    name, token = words[2], words[3]
    if not NAME.fullmatch(name) or not TOKEN.fullmatch(token):
        raise WireError("a name or token that cannot be one")
    if len(words) == 4:
        return Auth(name, token)
    session, received = words[4], words[5]
    if not SESSION.fullmatch(session) or not _count(received):
        raise WireError("a session or count that cannot be one")
    return Auth(name, token, session, int(received))


def parse(text: str) -> Frame:
    """A frame after ``auth``; WireError for anything else."""
    if text[:1].isdigit():
        seq, sep, rest = text.partition(" ")
        if not sep or not _count(seq) or int(seq) == 0:
            raise WireError("a line frame is 'SEQ LINE' with SEQ from 1")
        if "\n" in rest:
            raise WireError("a line frame holds one line: no newline inside")
        return Frame("line", seq=int(seq), text=rest)
    word, _, rest = text.partition(" ")
    if word == "ack" and _count(rest):
        return Frame("ack", seq=int(rest))
    if word == "fault":
        kind, _, detail = rest.partition(" ")
        if kind in FAULT_KINDS:
            return Frame("fault", word=kind, text=detail)
    if word == "end" and rest in ENDS:
        return Frame("end", word=rest)
    if word == "welcome":
        session, _, count = rest.partition(" ")
        if SESSION.fullmatch(session) and _count(count):
            return Frame("welcome", seq=int(count), word=session)
    if word == "refused":
        why, _, reason = rest.partition(": ")
        return Frame("refused", word=why, text=reason)
    raise WireError(f"not a frame: {text[:40]!r}")


def _count(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 18


def same_secret(given: str, expected: str) -> bool:
    """Whether two secrets are equal, in time that does not depend on where they differ (nor
    on their lengths, which would tell an attacker how long a token is)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


class Outbox:
    """The lines one end has sent, numbered, kept until acknowledged so that they can be sent
    again after a reconnection; bounded by :data:`KEPT_LINES` and :data:`KEPT_BYTES`."""

    def __init__(self) -> None:
        self.sent = 0
        """Number of the last line sent."""
        self.acked = 0
        self._kept: deque[tuple[int, str]] = deque()
        self._bytes = 0
        self._lost = 0
        """Lines up to this number were dropped unacknowledged: a resume before it fails."""

    def push(self, text: str) -> str:
        """Number the next line and keep it; returns its frame."""
        self.sent += 1
        frame = line(self.sent, text)
        self._kept.append((self.sent, frame))
        self._bytes += len(frame)
        while len(self._kept) > KEPT_LINES or self._bytes > KEPT_BYTES:
            seq, dropped = self._kept.popleft()
            self._bytes -= len(dropped)
            self._lost = seq
        return frame

    def ack(self, seq: int) -> None:
        """The other end has received every line up to ``seq``; WireError for a number
        never sent."""
        if seq > self.sent:
            raise WireError(f"ack {seq} of a line never sent (last sent {self.sent})")
        self.acked = max(self.acked, seq)
        while self._kept and self._kept[0][0] <= seq:
            _, dropped = self._kept.popleft()
            self._bytes -= len(dropped)

    def resend(self, received: int) -> Iterator[str]:
        """The frames the other end has not received, given that it received ``received``
        lines; WireError when some of them were dropped or ``received`` was never sent."""
        if received > self.sent:
            raise WireError(f"received {received} lines, but only {self.sent} were sent")
        if received < self._lost:
            raise WireError("the lines to send again are no longer kept")
        self.ack(received)
        return (frame for _, frame in list(self._kept))


class Inbox:
    """The numbers of the lines one end has received: each line is taken once, in order."""

    def __init__(self) -> None:
        self.received = 0
        self.acked = 0
        """The last number this end acknowledged."""

    def take(self, seq: int) -> bool:
        """True for the next line in order; False for one already received (sent again after
        a reconnection); WireError for a gap."""
        if seq <= self.received:
            return False
        if seq != self.received + 1:
            raise WireError(f"line {seq} after line {self.received}: a line is missing")
        self.received = seq
        return True

    def ack_due(self) -> str | None:
        """An ``ack`` frame once :data:`ACK_EVERY` lines are unacknowledged. Rarely enough to
        cost nothing per request (a frame of its own before each answer would add a write to
        every round trip), often enough to keep the other end's copies few."""
        if self.received - self.acked >= ACK_EVERY:
            self.acked = self.received
            return ack(self.received)
        return None
