"""What plays a tournament's pending matches: the interface the runner hands its schedule to,
whichever executor it is (the runner's own worker processes, or a Dask cluster).

An executor plays each match where it plays matches (:mod:`.worker`) and gives each finished
match, signed when the configuration names a key, to ``store`` as it arrives; the runner
appends it durably. The executors depend on this interface and the runner on it alone, so
neither knows the other.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from .config import Config
from .schedule import MatchPlan
from .worker import Finished

Store = Callable[[Finished], None]
"""Takes one finished match, in the parent, as it arrives."""


class Executor(Protocol):
    def play(self, config: Config, pending: Sequence[MatchPlan], store: Store) -> None:
        """Play ``pending`` (in the order of the list as far as the executor can), storing
        each finished match as it arrives; whatever stops this, the executor's workers and
        bots are ended before it returns or raises."""
