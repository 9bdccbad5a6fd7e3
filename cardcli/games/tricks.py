"""Trick-taking mechanics shared by the trick games: seat order, following suit, the winner.

Hands are bit masks (:mod:`cardcli.games.card_bits`). Games differ in which suit a card
belongs to (Pepper's left bower is a trump) and in how cards rank (Pigugnìn's 3 beats the
ace): a :class:`Ranking` gives both for every card, computed once per game or per trump.
"""

from __future__ import annotations

from typing import Callable

import attrs

from ..cards import Card
from ..errors import IllegalMoveError, InvalidMoveError
from .base import Event, shallow_copy
from .card_bits import DECK, INDEX_OF_TEXT, TEXTS, cards

SuitOf = Callable[[Card], str]
Power = Callable[[Card], int]


def printed_suit(card: Card) -> str:
    return card.suit


def printed_rank(card: Card) -> int:
    return card.rank


def step(seat: int, num_players: int, clockwise: bool) -> int:
    """The seat that plays after ``seat``: seats are numbered clockwise, so cw is ``seat+1``."""
    return (seat + 1) % num_players if clockwise else (seat - 1) % num_players


def seat_order(first: int, num_players: int, clockwise: bool) -> list[int]:
    """All seats in playing order from ``first``."""
    order = [first]
    for _ in range(num_players - 1):
        order.append(step(order[-1], num_players, clockwise))
    return order


@attrs.frozen
class Ranking:
    """How every card behaves in a trick, by card index: the suit it belongs to, the mask of
    all the cards of that suit (what a card led asks the others to follow), and its power
    within the suit."""

    suit: tuple[str, ...]
    suit_mask: tuple[int, ...]
    power: tuple[int, ...]

    @classmethod
    def build(cls, power: Power = printed_rank, suit_of: SuitOf = printed_suit) -> "Ranking":
        suits = tuple(suit_of(c) for c in DECK)
        masks: dict[str, int] = {}
        for i, suit in enumerate(suits):
            masks[suit] = masks.get(suit, 0) | 1 << i
        return cls(suits, tuple(masks[s] for s in suits), tuple(power(c) for c in DECK))

    def mask(self, suit: str) -> int:
        """All the cards that belong to ``suit``."""
        return next((m for s, m in zip(self.suit, self.suit_mask) if s == suit), 0)


PRINTED = Ranking.build()
"""Printed suits, ace high: Peppa's ranking, the default."""


class MaskHands:
    """The hands of a trick game as card lists, read from its masks (``hand_masks``): for
    tests, views and anything that wants cards rather than bits."""

    hand_masks: list[int]
    tricks: "TrickPlay"

    @property
    def hands(self) -> list[list[Card]]:
        return [list(cards(m)) for m in self.hand_masks]

    def _clone_play(self, twin: "MaskHands", trick_points: Callable[[int, bool], int]) -> None:
        """Give ``twin``, a shallow copy of this match, hands and a trick play of its own. The
        trick play updates the match's list of hands in place, so the copies share one list
        exactly when the originals do (between a deal and its first trick the trick play
        still holds the last deal's). ``trick_points`` is the twin's own, since a game's
        may be a method of the match."""
        hands = list(self.hand_masks)
        twin.hand_masks = hands
        tricks = self.tricks
        twin.tricks = tricks.clone(hands if tricks.hands is self.hand_masks else list(tricks.hands), trick_points)


def popcount(mask: int) -> int:
    return bin(mask).count("1")


class TrickPlay:
    """The trick play of one deal, shared by the trick games: the hands, the trick in progress,
    whose turn it is, what each seat has taken, and the events each play produces.

    Games keep their own lead restrictions and scoring; this class owns the mechanics that are
    the same everywhere (turn order, follow suit, the trick winner, the ``trick``, ``play``
    and ``taken`` events). ``hands`` is the game's own list of masks, updated in place.
    ``trick_points(taken, last)`` gives the points of a trick (a mask) for the ``taken``
    event; ``last`` is true for the deal's last trick. A play is made in two steps,
    :meth:`play` and then, when the events are wanted, :meth:`play_events`, so that replays
    and playouts that want no events pay nothing for them.
    """

    def __init__(
        self,
        hands: list[int],
        leader: int,
        clockwise: bool,
        trick_points: Callable[[int, bool], int],
        ranking: Ranking = PRINTED,
        trump: str | None = None,
    ):
        self.hands = hands
        self.num_players = len(hands)
        self.total = popcount(hands[leader])
        """Tricks in the deal (the cards in a hand)."""
        self.turn = leader
        self._next = tuple(step(s, self.num_players, clockwise) for s in range(self.num_players))
        self.trick_points = trick_points
        self.ranking = ranking
        self.trump = trump
        self._trump_mask = ranking.mask(trump) if trump is not None else 0
        self.trick: list[tuple[int, int]] = []
        """The trick in progress: (seat, card index) in play order."""
        self.number = 0
        """Tricks completed so far."""
        self.taken = [0] * self.num_players
        """The cards each seat has taken, as masks."""
        self.tricks_won = [0] * self.num_players
        self.last_winner: int | None = None
        self.last_points = 0
        self._led = 0
        self._legal = -1
        self._last = (leader, 0)

    def clone(self, hands: list[int], trick_points: Callable[[int, bool], int]) -> "TrickPlay":
        """A copy playing on ``hands`` (the cloned match's list) with ``trick_points``, with
        its own trick and tallies; everything else is an immutable value and is shared."""
        twin = shallow_copy(self)
        twin.hands = hands
        twin.trick_points = trick_points
        twin.trick = list(self.trick)
        twin.taken = list(self.taken)
        twin.tricks_won = list(self.tricks_won)
        return twin

    def legal(self, rule: Callable[[int], int]) -> int:
        """The cards the seat to play may play, ``rule(seat)`` as a mask, worked out once per
        turn: a move is listed and then checked, and the answer only changes with a play."""
        mask = self._legal
        if mask < 0:
            mask = self._legal = rule(self.turn)
        return mask

    @property
    def finished(self) -> bool:
        return self.number == self.total

    def start(self) -> list[Event]:
        return [Event("trick", ("1", str(self.turn)))]

    def follow(self, seat: int) -> int:
        """What ``seat`` may play under follow-suit alone, as a mask."""
        hand = self.hands[seat]
        return hand & self._led or hand if self.trick else hand

    def holds_led_suit(self, seat: int) -> bool:
        return bool(self.trick) and bool(self.hands[seat] & self._led)

    def index_for(self, seat: int, move: str) -> int:
        """The card index a ``play`` move names, checked for turn, spelling and ownership."""
        if seat != self.turn:
            raise IllegalMoveError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        index = INDEX_OF_TEXT.get(move)
        if index is None:
            played = Card.parse(move)
            raise InvalidMoveError(f"write the card as {played.text}, not {move!r}")
        if not self.hands[seat] >> index & 1:
            raise IllegalMoveError(f"{move} is not in seat {seat}'s hand")
        return index

    def play(self, seat: int, index: int) -> None:
        """Play an already checked card; close the trick when it is complete."""
        self.hands[seat] ^= 1 << index
        self._legal = -1
        self._last = (seat, index)
        trick = self.trick
        if not trick:
            self._led = self.ranking.suit_mask[index]
        trick.append((seat, index))
        if len(trick) < self.num_players:
            self.turn = self._next[seat]
            return
        winner = self._winner()
        taken = 0
        for _, card in trick:
            taken |= 1 << card
        self.taken[winner] |= taken
        self.tricks_won[winner] += 1
        self.number += 1
        self.last_winner = winner
        self.last_points = self.trick_points(taken, self.finished)
        self.trick = []
        self.turn = winner

    def play_events(self) -> list[Event]:
        """The events of the play just made."""
        seat, index = self._last
        events = [Event("play", (str(seat), TEXTS[index]))]
        if self.trick:
            return events
        events.append(Event("taken", (str(self.number), str(self.last_winner), str(self.last_points))))
        if not self.finished:
            events.append(Event("trick", (str(self.number + 1), str(self.turn))))
        return events

    def _winner(self) -> int:
        return self.winning()[0]

    def winning(self) -> tuple[int, int]:
        """The seat and card index winning the trick in progress so far: the best trump if
        any was played, else the best card of the led suit. A card of any other suit never
        wins, whatever its rank."""
        power, suit_mask, trump = self.ranking.power, self.ranking.suit_mask, self._trump_mask
        best_seat, best = self.trick[0]
        best_suit = suit_mask[best]
        for seat, card in self.trick[1:]:
            suit = suit_mask[card]
            if suit == best_suit:
                if power[card] > power[best]:
                    best_seat, best = seat, card
            elif trump and suit == trump:
                best_seat, best, best_suit = seat, card, suit
        return best_seat, best

    @property
    def trump_mask(self) -> int:
        """All the trumps as a mask (0 without a trump): what a card's suit mask is compared to."""
        return self._trump_mask
