"""The local link between a remote seat and the listener that holds its connection.

The listener runs in the referee's main process (a thread); a match may run in a tournament
worker, another process. The two meet on a Unix socket in a private directory, and speak in
small frames: a 4-byte length, a 1-byte kind, a UTF-8 payload. Framing keeps the bot's lines
(any text) apart from what the listener says about the connection, which a line-based stream
could not do without escaping the bot's lines.
"""

from __future__ import annotations

import struct

from ..errors import CardcliError

CLAIM = b"C"
"""seat → listener, first frame: the entrant's name; bind me to one of its connections."""
LINE = b"L"
"""either way: one protocol line."""
END = b"E"
"""seat → listener: the session is over (payload ``quit`` or ``fault``)."""
BOUND = b"B"
"""listener → seat: a connection is bound; payload ``RTT_MS RECONNECTS``."""
STATUS = b"S"
"""listener → seat: new figures, as for BOUND (after a reconnection)."""
GONE = b"G"
"""listener → seat: the bot can no longer play; payload ``KIND DETAIL``, then the link ends."""

KINDS = (CLAIM, LINE, END, BOUND, STATUS, GONE)
_HEAD = struct.Struct(">IB")
MAX_PAYLOAD = (1 << 20) + 64
"""Longest payload: a referee line of the protocol's longest."""


class LinkError(CardcliError):
    """A link frame that breaks the format (only a bug or a foreign process can cause one)."""


def frame(kind: bytes, payload: str) -> bytes:
    data = payload.encode("utf-8")
    return _HEAD.pack(len(data), kind[0]) + data


class Reader:
    """Cuts a byte stream into link frames."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[bytes, str]]:
        self._buffer += data
        frames = []
        while len(self._buffer) >= _HEAD.size:
            size, kind = _HEAD.unpack_from(self._buffer)
            if size > MAX_PAYLOAD or bytes((kind,)) not in KINDS:
                raise LinkError(f"a link frame of kind {kind} and {size} bytes")
            if len(self._buffer) < _HEAD.size + size:
                break
            payload = bytes(self._buffer[_HEAD.size:_HEAD.size + size])
            del self._buffer[:_HEAD.size + size]
            try:
                frames.append((bytes((kind,)), payload.decode("utf-8")))
            except UnicodeDecodeError:
                raise LinkError("a link frame that is not UTF-8") from None
        return frames
