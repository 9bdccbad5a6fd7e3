"""The exception tree.

Every error the package raises on purpose derives from :class:`CardcliError`, so the CLI can
turn any of them into a one-line message without catching programming errors by accident.
"""

from __future__ import annotations


class CardcliError(Exception):
    """Root of every error raised on purpose by cardcli."""

    exit_code = 2


class UsageError(CardcliError):
    """The user asked for something that does not exist or is ill-formed (exit status 2)."""


class OptionError(UsageError):
    """An unknown or ill-typed game option."""


class MoveError(CardcliError):
    """A move was refused by the rules engine; the move was not applied."""


class InvalidMoveError(MoveError):
    """The move text is not a move of this game at all (syntax)."""


class IllegalMoveError(MoveError):
    """The move is well formed but the rules do not allow it now (legality)."""


class RecordError(CardcliError):
    """A record file cannot be read: missing, torn, not JSON, unknown format or game."""


class VerificationError(CardcliError):
    """A record does not match what the rules produce; names where it first differs."""

    exit_code = 1


class Interrupted(CardcliError):
    """The referee was told to stop (SIGTERM); its bots are ended on the way out."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code
