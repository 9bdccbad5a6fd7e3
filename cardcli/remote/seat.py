"""A seat whose bot plays from another machine: ``--seat remote:NAME``.

It is a :class:`cardcli.seats.line_seat.LineSeat`, so its bot is judged by the very code that
judges a local one (framing, handshake, time, unasked-for lines); only the stream differs: a
local link to the referee's listener (:mod:`cardcli.remote.hub`), which holds the bot's
WebSocket connection. The move time runs at the referee, from the moment the request is
written to the link to the moment the answer arrives: the network is part of it, plus the
network grace the organiser grants (:attr:`grace`).
"""

from __future__ import annotations

import socket
import time
from typing import Any

import attrs

from .. import protocol
from ..seats.base import FAULT_KINDS, FaultKind, SeatFault
from ..seats.line_seat import LineSeat
from . import link, wire


@attrs.frozen
class RemoteContext:
    """What a ``remote:NAME`` seat needs: where the listener's link is, how long a bot has to
    connect, and the grace added to each request."""

    link_path: str
    connect_time: float = 60.0
    grace: float = 0.0


class RemoteSeat(LineSeat):
    kind = "remote"

    def __init__(self, label: str, name: str, context: RemoteContext):
        super().__init__(label)
        self.name = name
        self.context = context
        self.grace = context.grace
        self._sock: socket.socket | None = None
        self._frames = link.Reader()
        self._bound_at: float | None = None
        self._gone: SeatFault | None = None
        self.rtt_ms: float | None = None
        self.reconnects = 0
        self._retired = False

    @property
    def command(self) -> None:
        return None

    @property
    def usable(self) -> bool:
        return not self.started or self._sock is not None

    @property
    def network(self) -> dict[str, Any]:
        """The seat entry's ``network`` field: the connection as the referee measured it, with
        the listener's latest figures taken in first (a reconnection near the end of a match is
        counted even when no request followed it)."""
        if self._sock is not None:
            try:
                self._read_available()
            except SeatFault:
                pass
        return {"remote": self.name, "rtt_ms": self.rtt_ms, "reconnects": self.reconnects,
                "grace_ms": round(self.grace * 1000)}

    def start(self) -> None:
        self.started = True
        self._frames = link.Reader()
        self._bound_at = None
        self._gone = None
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.context.link_path)
        except OSError as err:
            sock.close()
            raise SeatFault(FaultKind.DISCONNECT, f"the referee's listener is not running ({err.strerror})") from None
        self._sock = sock
        self._open(sock.fileno(), sock.fileno(), sock)
        try:
            sock.sendall(link.frame(link.CLAIM, self.name))
        except OSError as err:
            raise SeatFault(FaultKind.DISCONNECT, f"the referee's listener is not running ({err.strerror})") from None
        self._send([protocol.hello()], strict=False)

    # -- the stream ------------------------------------------------------------------------------

    def _receive(self, data: bytes) -> None:
        try:
            frames = self._frames.feed(data)
        except link.LinkError as err:
            raise SeatFault(FaultKind.PROTOCOL, f"the listener's link broke: {err}") from None
        for kind, payload in frames:
            if kind == link.LINE:
                super()._receive(payload.encode("utf-8") + b"\n")
            elif kind in (link.BOUND, link.STATUS):
                if kind == link.BOUND:
                    self._bound_at = time.monotonic()
                rtt, _, reconnects = payload.partition(" ")
                self.rtt_ms = float(rtt) if not rtt.startswith("-") else None
                self.reconnects = int(reconnects)
            elif kind == link.GONE:
                what, _, detail = payload.partition(" ")
                self._gone = SeatFault(FaultKind(what) if what in FAULT_KINDS else FaultKind.DISCONNECT, detail)

    def _encode(self, lines: Any) -> bytes:
        return b"".join(link.frame(link.LINE, line) for line in lines)

    def _alive(self) -> bool:
        return self._gone is None

    def death(self) -> SeatFault:
        if self._gone is not None:
            return self._gone
        return SeatFault(FaultKind.DISCONNECT, "the referee's listener ended the connection")

    # -- the handshake ---------------------------------------------------------------------------

    def handshake_deadline(self, deadline: float, limit: float) -> float:
        """Up to the connect time for a bot to connect; then the start-up time from then."""
        if self._bound_at is None:
            return self._started_at + self.context.connect_time
        return self._bound_at + limit

    def handshake_timeout(self, limit: float) -> SeatFault:
        if self._bound_at is None:
            return SeatFault(FaultKind.DISCONNECT, f"{self.name}'s bot did not connect within "
                                                   f"{self.context.connect_time:g} s")
        return super().handshake_timeout(limit)

    # -- the end ---------------------------------------------------------------------------------

    def retire(self) -> None:
        self._retired = True

    def close(self, grace: float = 0.0) -> None:
        """``quit`` (with a grace), then the end of the session: the listener tells the bot's
        end and closes its connection (``over`` when the seat was retired: ``cardcli connect``
        then stops instead of coming back). A remote bot's exit cannot be watched from here."""
        if grace > 0:
            self.request_quit()
        ending = wire.END_OVER if self._retired else wire.END_QUIT
        self._finish(ending if grace > 0 else wire.END_FAULT)

    def abandon(self) -> None:
        self._finish(wire.END_FAULT)

    def _finish(self, reason: str) -> None:
        sock = self._sock
        if sock is None:
            return
        self._sock = self._link = None
        try:
            sock.setblocking(True)
            sock.settimeout(2.0)
            if self._pending_input:
                sock.sendall(bytes(self._pending_input))
                self._pending_input.clear()
            sock.sendall(link.frame(link.END, reason))
        except OSError:
            pass
        finally:
            try:
                self._readable.unregister(sock.fileno())
            except (KeyError, ValueError, OSError):
                pass
            sock.close()
