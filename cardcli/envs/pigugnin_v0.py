"""Il Pigugnìn as a PettingZoo AEC environment: ``env(players=..., ...)`` as PettingZoo's classic
environments build theirs (illegal actions end the match with a penalty, out-of-range actions
and calls out of order are refused), and ``raw_env`` without the wrappers. docs/rl.md
describes the observation and the actions.
"""

from __future__ import annotations

from typing import Any

from .aec import CardGameEnv
from .pigugnin_encoding import ENCODING
from .wrapping import classic_wrappers


class raw_env(CardGameEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    encoding = ENCODING
    metadata = {**CardGameEnv.metadata, "name": "pigugnin_v0"}


def env(**kwargs: Any) -> Any:
    """``raw_env(**kwargs)`` in PettingZoo's classic wrappers."""
    return classic_wrappers(raw_env(**kwargs))
