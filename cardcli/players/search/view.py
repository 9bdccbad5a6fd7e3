"""One seat's view of a match, built from its protocol lines alone, and the worlds that fit it.

The search player must know only what its seat is told, as an outside bot would. So it keeps
nothing from the referee's engine: it reads the lines its seat receives and keeps its own copy
of the match, :attr:`SeatView.start`, at the start of the current deal. A *world* is that copy
with the unseen cards dealt at random (consistently with what the seat inferred, see
:mod:`.worlds`) and the deal's moves so far replayed on it. Replaying through the rules is
also the last check of consistency: a world where some past move would have been illegal (a
seat that led hearts before they were broken must have held nothing else) is refused and
another one drawn.

At the end of each deal the copy is moved on to the next deal by one such world replayed to
the end. The deal's points depend only on what was played, which every world shares, so the
copy's totals must be the ones the referee announced: that is checked on every deal.

Fitting worlds are not all alike likely. A game's view may draw its unseen cards weighed by
what the deal shows of the hands (Pepper's bids); and a view with a model of the other seats'
plays (:attr:`SeatView.play_model`) weighs each world by how well it explains them, keeping one
of several candidates by its weight (:mod:`.weighing`).
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence

import attrs

from ...cards import Card
from ...games import registry
from ...games.view import view_for
from ...games.base import MatchState
from ...errors import MoveError
from .weighing import PlayModel, weighed_draw
from .worlds import ImpossibleView

WORLD_TRIES = 200
"""Worlds drawn before giving up; a refusal by the replay is rare (under 1% in the tests)."""


@attrs.frozen
class Header:
    """The match header a seat is sent (``game``, ``option``... lines, PROTOCOL.md §4)."""

    game: str
    variant: str
    players: int
    seat: int
    options: tuple[tuple[str, str], ...]
    rng: int

    @classmethod
    def parse(cls, lines: Sequence[Sequence[str]]) -> "Header":
        game = lines[0]
        options = tuple((w[1], w[2]) for w in lines if w[0] == "option" and len(w) > 2)
        rng = next((int(w[1]) for w in lines if w[0] == "rng" and len(w) > 1 and w[1].isdigit()), 0)
        return cls(game[1], game[2], int(game[3]), int(game[4]), options, rng)

    def setup(self) -> registry.Setup:
        return registry.resolve(self.game, self.variant, dict(self.options), self.players, 0)


@attrs.frozen
class Layout:
    """Where the cards of a deck go when dealt: the deck positions of each seat's cards (in
    the order they are dealt) and of any other place (Seep's floor, Pepper's dead hand).
    Found by dealing a deck in canonical order to a copy and reading the deal's facts."""

    places: Mapping[Hashable, tuple[int, ...]]
    size: int

    @classmethod
    def probe(cls, start: MatchState, deck: Sequence[Card]) -> "Layout":
        probe = start.clone()
        probe.deal(deck)
        facts = probe.deal_facts()
        position = {c.text: i for i, c in enumerate(deck)}
        places: dict[Hashable, tuple[int, ...]] = {
            seat: tuple(sorted(position[t] for t in hand)) for seat, hand in enumerate(facts["hands"])
        }
        for key, cards in facts.items():
            if key != "hands":
                places[key] = tuple(sorted(position[t] for t in cards))
        return cls(places, len(deck))

    def deck(self, dealt: Mapping[Hashable, Sequence[Card]]) -> list[Card]:
        deck: list[Card | None] = [None] * self.size
        for key, positions in self.places.items():
            cards = dealt[key]
            if len(cards) != len(positions):
                raise ImpossibleView(f"{len(cards)} cards for the {len(positions)} places of {key!r}")
            for position, card in zip(positions, cards):
                deck[position] = card
        return deck  # type: ignore[return-value]


class SeatView:
    """A seat's knowledge of the match; one subclass per game fills in what the game shows."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.setup = header.setup()
        self.seat = header.seat
        self.n = header.players
        self.deck: tuple[Card, ...] = self.setup.spec.deck()
        self.start: MatchState | None = None
        """The match at the start of the current deal, before its cards are dealt."""
        self.layout: Layout | None = None
        self.refused = 0
        """Worlds the replay refused so far (a measure of how well the view infers)."""
        self.deal_number = 0
        self.info = view_for(header.game)
        """The game's seat view: what the seat was told (its hand, the cards played, the
        moves, the voids they show), the one view every player reads. This class adds what a
        search needs besides: the match at the deal's start, and worlds that fit the view."""
        self.info.update(["game", header.game, header.variant, str(header.players), str(header.seat)])
        for name, value in header.options:
            self.info.update(["option", name, value])
        self.bid_weight = 1.0
        """Pepper's view weighs its worlds by the bids when this is below 1
        (:mod:`cardcli.plugins.pepper.bids`)."""
        self.play_model: PlayModel | None = None
        """The model of the other seats' plays that weighs the worlds (``ismcts:model=W``);
        None: every fitting world alike."""

    # -- lines ------------------------------------------------------------------------------

    def feed(self, words: list[str]) -> None:
        self.info.update(words)
        head = words[0]
        if head == "deal":
            self._begin_deal(int(words[1]), int(words[2]))
        self.on_event(words)
        if head == "totals" and self.start is not None:
            self._finish_deal([int(w) for w in words[1:]])

    def _begin_deal(self, number: int, dealer: int) -> None:
        if self.start is None:
            self.start = self.setup.spec.new_match(self.setup.options, self.n, dealer)
        self.deal_number = number
        self.layout = Layout.probe(self.start, self.deck)
        self.reset_deal()

    def _finish_deal(self, totals: list[int]) -> None:
        state, _ = self._replayed(random.Random(0))
        scores = state.deal_scores
        if not (state.needs_deal() or state.is_over()) or not scores or list(scores[-1].totals) != totals:
            raise ImpossibleView(f"deal {self.deal_number}: the replayed deal does not give the announced totals")
        self.start = state

    # -- worlds -----------------------------------------------------------------------------

    def world(self, rng: random.Random) -> MatchState:
        """The match now, in a world drawn at random among those that fit the seat's view;
        with a play model, the worlds that explain the other seats' plays drawn more often."""
        if self.play_model is None:
            return self._replayed(rng)[0]
        state, _ = weighed_draw(lambda r: self._replayed(r, weighed=True), lambda drawn: drawn[1], rng)
        return state

    def _replayed(self, rng: random.Random, weighed: bool = False) -> tuple[MatchState, float]:
        """A fitting world and, if ``weighed``, its weight: the product of the chances the
        play model gives the other seats' moves, each read just before it is replayed."""
        assert self.start is not None and self.layout is not None
        model = self.play_model if weighed else None
        for _ in range(WORLD_TRIES):
            dealt = self.deal_unseen(rng)
            state = self.start.clone()
            state.deal(self.layout.deck(dealt))
            weight = 1.0
            try:
                for seat, token in self.replay(dealt):
                    if model is not None and seat != self.seat:
                        weight *= model.weight(state, seat, token, rng)
                    state.apply_quietly(seat, token)
            except MoveError:
                self.refused += 1
                continue
            return state, weight
        raise ImpossibleView(f"no world fits the view of seat {self.seat} after {WORLD_TRIES} tries")

    # -- what each game fills in ------------------------------------------------------------

    def reset_deal(self) -> None:
        """Forget the last deal's facts."""

    def on_event(self, words: list[str]) -> None:
        """One line of the match (after the header)."""

    def deal_unseen(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        """Every place's cards as dealt at the start of this deal, in dealing order, the
        unseen ones drawn at random: the keys of :attr:`layout`'s places."""
        raise NotImplementedError

    def replay(self, dealt: Mapping[Hashable, Sequence[Card]]) -> list[tuple[int, str]]:
        """The deal's moves so far, in order, as (seat, token): hidden ones (another seat's
        pass) chosen to fit ``dealt``."""
        raise NotImplementedError


def other_seats(view: SeatView) -> list[int]:
    return [s for s in range(view.n) if s != view.seat]
