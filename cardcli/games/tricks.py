"""Trick-taking mechanics shared by the trick games: seat order, following suit, the winner.

Games differ in which suit a card belongs to (Pepper's left bower is a trump) and in how cards
rank (Pigugnìn's 3 beats the ace), so both are parameters with plain defaults.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..cards import Card
from ..errors import IllegalMoveError, InvalidMoveError
from .base import Event

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


def followers(hand: Sequence[Card], led_suit: str, suit_of: SuitOf = printed_suit) -> list[Card]:
    """The cards a player may play to a trick led in ``led_suit``: that suit if held, else all."""
    same = [c for c in hand if suit_of(c) == led_suit]
    return same if same else list(hand)


def trick_winner(
    plays: Sequence[tuple[int, Card]],
    trump: str | None = None,
    suit_of: SuitOf = printed_suit,
    power: Power = printed_rank,
) -> int:
    """The seat that wins a trick: the best trump if any was played, else the best card of the
    led suit. A card of any other suit never wins, whatever its rank."""
    best_seat, best_card = plays[0]
    for seat, card in plays[1:]:
        suit, best_suit = suit_of(card), suit_of(best_card)
        if suit == best_suit:
            if power(card) > power(best_card):
                best_seat, best_card = seat, card
        elif trump is not None and suit == trump and best_suit != trump:
            best_seat, best_card = seat, card
    return best_seat


class TrickPlay:
    """The trick play of one deal, shared by the trick games: the hands, the trick in progress,
    whose turn it is, what each seat has taken, and the events each play produces.

    Games keep their own lead restrictions and scoring; this class owns the mechanics that are
    the same everywhere (turn order, follow suit, the trick winner, the ``trick``, ``play``
    and ``taken`` events). ``trick_points(cards, last)`` gives the points of a trick for the
    ``taken`` event (``last`` is true for the deal's last trick).
    """

    def __init__(
        self,
        hands: list[list[Card]],
        leader: int,
        clockwise: bool,
        trick_points: Callable[[Sequence[Card], bool], int],
        power: Power = printed_rank,
        suit_of: SuitOf = printed_suit,
        trump: str | None = None,
    ):
        self.hands = hands
        self.num_players = len(hands)
        self.total = len(hands[leader])
        self.turn = leader
        self.clockwise = clockwise
        self.trick_points = trick_points
        self.power = power
        self.suit_of = suit_of
        self.trump = trump
        self.trick: list[tuple[int, Card]] = []
        self.number = 0
        """Tricks completed so far."""
        self.taken: list[list[Card]] = [[] for _ in hands]
        self.tricks_won = [0] * len(hands)
        self.last_winner: int | None = None
        self._legal: tuple[int, list[Card]] | None = None

    def cached(self, seat: int) -> list[Card] | None:
        """The legal cards a game computed for ``seat`` since the last play, if any: a move is
        listed and then checked, and the list only changes when a card is played."""
        return self._legal[1] if self._legal is not None and self._legal[0] == seat else None

    def remember(self, seat: int, cards: list[Card]) -> list[Card]:
        self._legal = (seat, cards)
        return cards

    @property
    def finished(self) -> bool:
        return self.number == self.total

    @property
    def led_suit(self) -> str | None:
        return self.suit_of(self.trick[0][1]) if self.trick else None

    def start(self) -> list[Event]:
        return [Event("trick", ("1", str(self.turn)))]

    def follow(self, seat: int) -> list[Card]:
        """What ``seat`` may play under follow-suit alone."""
        led = self.led_suit
        hand = self.hands[seat]
        return followers(hand, led, self.suit_of) if led is not None else list(hand)

    def card_for(self, seat: int, move: str) -> Card:
        """The card a ``play`` move names, checked for turn, spelling and ownership."""
        if seat != self.turn:
            raise IllegalMoveError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        played = Card.parse(move)
        if played.text != move:
            raise InvalidMoveError(f"write the card as {played.text}, not {move!r}")
        if played not in self.hands[seat]:
            raise IllegalMoveError(f"{move} is not in seat {seat}'s hand")
        return played

    def play(self, seat: int, card: Card) -> list[Event]:
        """Play an already checked card; close the trick when it is complete."""
        self._legal = None
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events = [Event("play", (str(seat), card.text))]
        if len(self.trick) < self.num_players:
            self.turn = step(seat, self.num_players, self.clockwise)
            return events
        winner = trick_winner(self.trick, self.trump, self.suit_of, self.power)
        cards = [c for _, c in self.trick]
        self.taken[winner].extend(cards)
        self.tricks_won[winner] += 1
        self.number += 1
        self.last_winner = winner
        points = self.trick_points(cards, self.finished)
        events.append(Event("taken", (str(self.number), str(winner), str(points))))
        self.trick = []
        self.turn = winner
        if not self.finished:
            events.append(Event("trick", (str(self.number + 1), str(winner))))
        return events
