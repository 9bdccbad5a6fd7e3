"""The errors of the learning environments, in the package's exception tree."""

from __future__ import annotations

from ..errors import IllegalMoveError, UsageError


class MissingExtraError(UsageError, ImportError):
    """``cardcli.envs`` needs the ``rl`` extra (PettingZoo, Gymnasium, NumPy). It is an
    ImportError too, so code that tries the import and falls back keeps working."""


class IllegalActionError(IllegalMoveError):
    """An action that is not legal for the agent to act now. The environments returned by
    ``env()`` never raise it: their wrapper ends the match with a penalty first, as
    PettingZoo's classic environments do. ``raw_env`` raises it and changes nothing."""


class UnencodedMoveError(IllegalMoveError):
    """A legal move that the environment's action encoding cannot name (a Seep move past the
    encoding's measured bound, docs/rl.md)."""
