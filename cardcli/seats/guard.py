"""The sandbox policy in force: what the organiser asked (:mod:`.policy`) against what this
machine can give (:mod:`.sandbox`'s probe).

Apart from both, so that the policy stays a value the sandbox's machinery reads, and the
probe, with the machinery, is loaded only for a policy that may sandbox.
"""

from __future__ import annotations

from ..errors import UsageError
from .policy import SandboxMode, SandboxPolicy


def resolve(policy: SandboxPolicy) -> SandboxPolicy | None:
    """The policy in force: None when off, or when ``auto`` finds no sandbox here. ``on``
    without a usable sandbox is refused, since the user asked not to run bots unguarded."""
    if policy.mode is SandboxMode.OFF:
        return None
    from .sandbox import support  # the probe, for a policy that may sandbox only

    if support().bwrap is None:
        if policy.mode is SandboxMode.ON:
            raise UsageError(f"--sandbox on: {support().detail}")
        return None
    return policy
