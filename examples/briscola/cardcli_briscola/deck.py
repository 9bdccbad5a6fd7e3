"""Briscola's cards: the 40-card deck, what each card is worth, how cards rank in a trick, and
the integer actions that name them.

Everything here is a table computed once at import: the rules read card points and trick
power on every play, and cardcli's trick machinery (:class:`~cardcli.games.tricks.Ranking`)
wants them indexed by the shared 52-card bit index, not by card objects.

Italian cards map onto cardcli's French 40-card deck as every Italian game in cardcli maps
them: Asso = A, Re = K, Cavallo = Q, Fante = J, and the numerals as printed. Which French suit
stands for which Italian one changes nothing in Briscola, where no suit is special but the
one the turned-up card names for the deal.
"""

from __future__ import annotations

from cardcli.cards import Card, french_40
from cardcli.errors import InvalidMoveError
from cardcli.games.card_bits import DECK, DeckActions, indices, mask_of
from cardcli.games.tricks import Ranking

CARD_POINTS_BY_RANK = {14: 11, 3: 10, 13: 4, 12: 3, 11: 2}
"""Asso 11, tre 10, re 4, cavallo 3, fante 2; the 7, 6, 5, 4 and 2 (the *lisci*) nothing."""

POWER_BY_RANK = {14: 10, 3: 9, 13: 8, 12: 7, 11: 6, 7: 5, 6: 4, 5: 3, 4: 2, 2: 1}
"""Trick power within a suit, strongest first: A, 3, K, Q, J, 7, 6, 5, 4, 2."""

DECK_POINTS = 120
"""The card points of the whole deck: a deal is won with more than half of them."""


def card_points(card: Card) -> int:
    """What ``card`` counts when the tricks are scored."""
    return CARD_POINTS_BY_RANK.get(card.rank, 0)


DECK_40 = french_40()
"""The 40 cards in canonical order (clubs, diamonds, hearts, spades; each 2..7, J, Q, K, A)."""
FULL_DECK = mask_of(DECK_40)
"""The mask of the 40 cards: a deal's deck must be exactly these."""
CARD_POINTS = tuple(card_points(c) for c in DECK)
"""Card points by 52-card index (0 for the 8, 9 and 10, which are never dealt)."""
RANKING = Ranking.build(power=lambda card: POWER_BY_RANK.get(card.rank, 0))
"""Printed suits, ranked A, 3, K, Q, J, 7, 6, 5, 4, 2; the trump is given to the trick play."""

assert sum(CARD_POINTS) == DECK_POINTS


def points_of(mask: int) -> int:
    """The card points of a set of cards (a mask)."""
    return sum(CARD_POINTS[i] for i in indices(mask))


CARD_ACTIONS = DeckActions(DECK_40)
"""Action ``a`` plays the ``a``-th card of the 40 in canonical order: the same numbering as
Il Pigugnìn's, so a learner's card features carry over between the two games."""
NUM_ACTIONS = CARD_ACTIONS.size
"""40: the size of the action space (every decision of Briscola plays a card)."""
_ACTION_OF_TEXT = {text: action for action, text in enumerate(CARD_ACTIONS.texts)}


def action_text(action: int) -> str:
    """The play token of ``action`` (``0`` is ``2C``, ``39`` is ``AS``)."""
    if not 0 <= action < NUM_ACTIONS:
        raise InvalidMoveError(f"not an action of Briscola: {action} (actions are 0..{NUM_ACTIONS - 1})")
    return CARD_ACTIONS.texts[action]


def action_of(token: str) -> int:
    """The action of a play token (``QS`` is 37): the inverse of :func:`action_text`."""
    action = _ACTION_OF_TEXT.get(token)
    if action is None:
        raise InvalidMoveError(f"not a card of Briscola's 40: {token!r}")
    return action
