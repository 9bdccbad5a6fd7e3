"""Bots that play from other machines: the WebSocket transport (``protocol/REMOTE.md``), the
referee's listener, the remote seat, and ``cardcli connect``."""
