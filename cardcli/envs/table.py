"""One match played for an environment: the engine's state, chance as ``cardcli play`` deals
it, the deal limit, and the events passed on to whoever follows the match.

Chance and the deal limit come from the referee's own driver
(:class:`~cardcli.games.driver.Driver`): :func:`cardcli.games.registry.resolve` gives the
match (its first dealer drawn from the seed), and each deal's deck is the seed's for the
deal's index, so ``reset(seed=S)`` deals what ``cardcli play --seed S`` deals. Moves are made as the protocol's tokens through
:meth:`MatchState.apply`, which gives the events with their audiences: the observations are
built from those (:mod:`.seat_features`), the text from all of them (:mod:`.match_text`).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import attrs

from ..cards import Card
from ..games.base import DealScore, Decision, Event, MatchState
from ..games.driver import Driver, Next
from ..games.registry import Setup

Follower = Callable[[Sequence[Event]], None]
"""Something told every event of the match as it happens (each filters by audience)."""


@attrs.frozen
class Played:
    """A move made, as the record keeps it."""

    deal: int
    seat: int
    kind: str
    move: str


class Table:
    def __init__(
        self,
        setup: Setup,
        max_deals: int,
        followers: Sequence[Follower] = (),
        decks: Callable[[int], Sequence[Card]] | None = None,
    ) -> None:
        """``decks(index)`` is the deck of the deal ``index`` (0-based); by default the
        seed's, as the referee deals."""
        self.setup = setup
        self.state: MatchState = setup.new_match()
        self.max_deals = max_deals
        self.followers = list(followers)
        self.driver = Driver(setup, max_deals, decks)
        self.deals: list[dict[str, Any]] = []
        """What each deal dealt, as a record's ``deals`` show it (``hands``, Seep's ``floor``)."""
        self.moves: list[Played] = []
        self.truncated = False
        """True when the deal limit ended the match (it is then adjudicated, as the referee's
        ``--max-deals`` does)."""
        self._scored = 0
        self._decision: Decision | None = None

    @property
    def over(self) -> bool:
        return self.state.is_over()

    def advance(self) -> list[DealScore]:
        """Deal while chance is due, until a decision is open or the match is over; the deals
        finished on the way (a void Seep deal)."""
        state = self.state
        while (step := self.driver.next(state)) is not Next.DECIDE and step is not Next.OVER:
            if step is Next.ADJUDICATE:
                state.adjudicate()
                self.truncated = True
                break
            self._tell(self.driver.deal(state))
            self.deals.append(state.deal_facts())
        self._decision = None
        return self._finished()

    def decision(self) -> Decision | None:
        """The decision to make now: the lowest seat's when several are open (Peppa's pass is
        made in seat order, as the engine's integer actions take it: nobody sees a pass
        before all four are made)."""
        if self._decision is None:
            acting = self.state.acting()
            if not acting:
                return None
            seat = min(acting)[0]
            self._decision = next(d for d in self.state.decisions() if d.seat == seat)
        return self._decision

    def play(self, token: str) -> list[DealScore]:
        """Make the open decision's move; the deals it finished."""
        decision = self.decision()
        if decision is None:
            raise ValueError("no decision is open")
        events = self.state.apply(decision.seat, token)
        self.moves.append(Played(self.state.deal_number, decision.seat, decision.kind, token))
        self._decision = None
        self._tell(events)
        return self._finished() + self.advance()

    def _tell(self, events: Sequence[Event]) -> None:
        for follower in self.followers:
            follower(events)

    def _finished(self) -> list[DealScore]:
        scores = self.state.deal_scores
        new = list(scores[self._scored:])
        self._scored = len(scores)
        return new
