"""Stopping a tournament as soon as its question is answered: ``--sprt A,B,D0,D1[,ALPHA,BETA]``.

The sequential test (:mod:`.sprt`) is fed one observation per *finished deal set*: A's paired
difference with B over the seats of that deal set (:meth:`.paired.PairedTally.deal_set_difference`),
and only in deal-set order, each once every match of it is recorded. Matches finish in any
order with ``-j`` or on a cluster; feeding the deal sets in their own order makes the verdict,
and the deal set it came at, the same however the matches were spread. While a test runs, the
runner plays the schedule deal set by deal set (every rotation of a deal set before the next),
so that deal sets finish early and the test can stop the tournament early.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence

from ..errors import CardcliError
from ..records.model import Record
from .paired import PairedTally, deal_set_of
from .schedule import MatchPlan
from .sprt import CONTINUE, SprtSpec, SprtState


class Decided(CardcliError):
    """Raised by the runner's store when the test has decided: the tournament stops there."""


class SprtWatch:
    """The running test of one tournament run."""

    def __init__(self, spec: SprtSpec, names: Sequence[str], schedule: Iterable[MatchPlan], lower_is_better: bool):
        self.spec = spec
        self.a, self.b = spec.entrants(names)
        self.state: SprtState = spec.sprt.state()
        self.tally = PairedTally(tuple(names), lower_is_better)
        self.expected = Counter(match.deal_set for match in schedule)
        self.seen: Counter[int] = Counter()
        self.next_set = 0
        self.decided_after: int | None = None
        """The number of deal sets fed when the test decided."""

    def add(self, record: Record) -> bool:
        """Take one finished match's record; True once the test has decided."""
        self.tally.add(record)
        self.seen[deal_set_of(record)] += 1
        while self.state.verdict == CONTINUE and self.next_set in self.expected \
                and self.seen[self.next_set] >= self.expected[self.next_set]:
            difference = self.tally.deal_set_difference(self.a, self.b, self.next_set)
            if difference is not None:
                self.state.add(difference)
            self.next_set += 1
            if self.state.verdict != CONTINUE:
                self.decided_after = self.next_set
        return self.state.verdict != CONTINUE

    def to_json(self) -> dict[str, Any]:
        return {**self.spec.to_json(), **self.state.to_json(), "deal_sets": self.next_set,
                "decided_after_deal_sets": self.decided_after}

    def describe(self) -> str:
        """One line for the end of the table."""
        state = self.state
        lower, upper = state.bounds
        verdict = {"H1": f"H1: {self.spec.a} is better than {self.spec.b} by at least {self.spec.sprt.d1:g} a deal",
                   "H0": f"H0: {self.spec.a} is better than {self.spec.b} by at most {self.spec.sprt.d0:g} a deal",
                   CONTINUE: "no decision yet"}[state.verdict]
        return (f"sprt {self.spec.a} - {self.spec.b}: llr {state.llr:.3f} (bounds {lower:.3f}, {upper:.3f}) after "
                f"{state.n} deal set(s): {verdict}")
