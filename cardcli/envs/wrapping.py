"""The wrappers PettingZoo's classic environments put around theirs, in the same order."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

ILLEGAL_REWARD = -1.0
"""What an illegal action costs its agent: the match ends at once, the others get 0."""


def classic_wrappers(env: Any) -> Any:
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=ILLEGAL_REWARD)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
