"""Seep's scores: what captured cards and seeps are worth, a deal's points, and who wins the
baazi, when, and how a forfeit or the deal limit ends it (S18-S21, S29, S31).

Pure functions of the options, the sides and their totals: the match (:mod:`.rules`) keeps
the totals and calls these once a deal or the match ends, so the rules of the count can be
read, and tested, without playing a deal.
"""

from __future__ import annotations

from typing import Sequence

from ...cards import Card, french_52
from ...games.sides import Sides, best, seats, with_forfeits
from .floor import value
from .options import SCORINGS, SeepOptions

Result = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A match's result as seats: (winners, losers, draws)."""

_THIRTY = {"TD": 12, "9S": 9, "2S": 1}
"""30-point card values beside the aces (1 each; the ace of spades counts once, as an ace)."""


def card_worth(card: Card, scoring: str) -> int:
    """What a captured card scores under ``scoring`` (S29, S31): with ``standard100`` every
    spade its capture value, the other aces 1 and the 10 of diamonds 6 (2 with
    ``casual_ten_two``); with ``thirty``, :data:`_THIRTY` and the aces."""
    if scoring == "thirty":
        return _THIRTY.get(card.text, 1 if card.rank == 14 else 0)
    if card.suit == "S":
        return value(card)
    if card.rank == 14:
        return 1
    return (6 if scoring == "standard100" else 2) if card.text == "TD" else 0


_CARD_POINTS = {
    scoring: {card: card_worth(card, scoring) for card in french_52()}
    for scoring in SCORINGS
}
"""Each card's points under each scoring, as a deal's piles are counted."""


def card_points(options: SeepOptions, piles: Sequence[Sequence[Card]]) -> list[int]:
    """Each side's card points in a deal from the cards it captured: the cards' worth, and
    the majority bonus of 4 under the scorings that have one (S29, S31)."""
    scoring = options.scoring
    worth = _CARD_POINTS[scoring].__getitem__
    points = [sum(map(worth, pile)) for pile in piles]
    if scoring in ("thirty", "casual_ten_two"):
        basis = options.majority_basis if scoring == "thirty" else "cards"
        counts = [sum(1 for c in pile if c.suit == "S") if basis == "spades" else len(pile) for pile in piles]
        need = 7 if basis == "spades" else 27
        for i, count in enumerate(counts):
            if count >= need and all(count > other for j, other in enumerate(counts) if j != i):
                points[i] += 4
    return points


def sweep_bonus(options: SeepOptions, card: Card, opening: bool, last: bool) -> int:
    """What a seep with ``card`` scores (S18): on the bidder's opening play, on the deal's last
    play, or on any other; under ``thirty``, the card's value (nothing on the last play)."""
    if options.scoring == "thirty":
        return 0 if last else value(card)
    if last:
        return options.sweep_last
    return options.sweep_first if opening else options.sweep


def deal_points(options: SeepOptions, piles: Sequence[Sequence[Card]],
                bonus: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each side's points in a deal (its card points and seep bonuses), and the sides that
    scored under the minimum, counting the bonuses or not as the options say (S20)."""
    cards = card_points(options, piles)
    points = [p + b for p, b in zip(cards, bonus)]
    counted = points if options.min_includes_sweeps else cards
    return points, [i for i, p in enumerate(counted) if p < options.min_deal_points]


def side_name(sides: Sides, side: int) -> str:
    """A side as the notes of a deal name it: its seats, ``0+2``."""
    return "+".join(map(str, sides[side]))


def _seats(sides: Sides, winners: Sequence[int], losers: Sequence[int], draws: Sequence[int]) -> Result:
    return seats(sides, winners), seats(sides, losers), seats(sides, draws)


def baazi_result(sides: Sides, totals: Sequence[int], under: set[int], target: int) -> Result | None:
    """Who won the baazi after a deal, as (winners, losers, draws) seats, or None; ``under``
    are the sides that have fallen under the minimum, in this deal or in the deals that broke
    a tie before it.

    A side under the minimum loses (seed: "quella coppia perde"), every such side, so when
    all are under nobody wins. The others' best total wins and everyone else loses: a match
    has one winner. A tie for that best total is the seed's simultaneous end ("si gioca una
    mano aggiuntiva per rompere il pareggio"): None, and extra deals are played, the sides
    already under staying out, until one side is ahead of the others left. With no side
    under, the first side to lead every other by ``target`` wins."""
    count = len(sides)
    if under:
        rest = [i for i in range(count) if i not in under]
        if not rest:
            return _seats(sides, [], list(range(count)), [])
        leaders = best(totals, rest)
        if len(leaders) > 1:
            return None
        return _seats(sides, leaders, [i for i in range(count) if i != leaders[0]], [])
    for i in range(count):
        if all(totals[i] - totals[j] >= target for j in range(count) if j != i):
            return _seats(sides, [i], [j for j in range(count) if j != i], [])
    return None


def tie_note(sides: Sides, totals: Sequence[int], under: set[int]) -> str:
    """The note of a deal after which the sides tied for the best total, beside those
    ``under`` the minimum, play on for the baazi."""
    tied = best(totals, [i for i in range(len(sides)) if i not in under])
    return f"tied for the best total: {', '.join(side_name(sides, i) for i in tied)}; another deal"


def adjudicated(sides: Sides, totals: Sequence[int], under: set[int]) -> Result:
    """The result of a baazi ended between deals (the referee's deal limit): the best total
    wins, ties share the win, everybody draws when all totals are equal. Sides ``under`` the
    minimum while a tie was played off stay losers."""
    rest = [i for i in range(len(sides)) if i not in under]
    winners = best(totals, rest)
    others = [i for i in range(len(sides)) if i not in winners]
    return _seats(sides, winners, others, []) if others else _seats(sides, [], [], winners)


def forfeited(sides: Sides, side_of: dict[int, int], totals: Sequence[int], result: Result,
              forfeits: frozenset[int]) -> Result:
    """``result`` once the seats ``forfeits`` have forfeited: a side with a forfeited seat
    loses; if no winner is left, the best total among the other sides wins (ties share the
    win)."""
    winners, _, draws = result
    return _seats(
        sides,
        *with_forfeits(
            sides,
            totals,
            sorted({side_of[s] for s in winners}),
            sorted({side_of[s] for s in draws}),
            forfeits,
        ),
    )
