"""Trick-taking mechanics shared by the trick games: seat order, following suit, the winner.

Games differ in which suit a card belongs to (Pepper's left bower is a trump) and in how cards
rank (Pigugnìn's 3 beats the ace), so both are parameters with plain defaults.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..cards import Card

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
