"""Briscola for learning (``cardcli.envs.briscola_v0``): the 40 card actions and an observation.

**Actions.** Action ``a`` plays the ``a``-th card of the 40 in canonical order (clubs,
diamonds, hearts, spades, each 2 to 7, then J, Q, K, A): the engine's own numbering
(:data:`.deck.CARD_ACTIONS`), the same as Il Pigugnìn's, so ``0`` is ``2C`` and ``39`` is
``AS``. Every decision is a play, and every card held may be played, so the legal actions are
exactly the hand.

**Observation.** The blocks every cardcli trick game shows
(:func:`cardcli.envs.trick_features.trick_blocks`: the hand, the trick, the cards each seat
played, the leader, the dealer, the tricks and card points taken, the totals, the player count),
sized for four seats, and Briscola's own:

* ``briscola``: the turned-up card, whose suit is the trump, public from the deal on;
* ``stock``: the cards left in the stock (a fraction of the two-player stock, 34 cards);
* ``briscola_holder``: the seat that drew the turned-up card, while it holds it (everybody
  sees it drawn, and played);
* ``partner``: with four players and ``partners_see_hands``, the partner's hand once it is
  shown, less the cards it plays after.

The totals are deals won divided by the ``target`` option: the match ends when a side reaches
it, so they stay between 0 and 1 however many deals are played. Like every cardcli
observation, it is built from the events the seat's bot would be sent, and only those
(:class:`cardcli.envs.seat_features.SeatFeatures`).
"""

from __future__ import annotations

from typing import Sequence

from cardcli.envs.encoding import GameEncoding
from cardcli.envs.seat_features import relative_block
from cardcli.envs.trick_features import TrickFeatures, TrickGame, trick_layout
from cardcli.envs.vector_layout import Block, Layout
from cardcli.games.base import Decision
from cardcli.games.registry import Setup

from .deck import CARD_ACTIONS, DECK_40, DECK_POINTS, NUM_ACTIONS, action_of, action_text
from .rules import HAND_SIZE, PLAYER_COUNTS

CARDS = {text: action for action, text in enumerate(CARD_ACTIONS.texts)}
"""Card token to its action (and its place in every card block)."""
PLACES = max(PLAYER_COUNTS)
LARGEST_STOCK = len(DECK_40) - HAND_SIZE * min(PLAYER_COUNTS)
"""34: the stock of two players, what the ``stock`` block is a fraction of."""


def _game(setup: Setup) -> TrickGame:
    return TrickGame(CARDS, PLACES, DECK_POINTS, setup.options.target, ("play",), PLAYER_COUNTS)


def extra_blocks() -> list[Block]:
    """Briscola's own blocks, after the trick games' ones."""
    size = len(CARDS)
    return [
        Block("briscola", size, "the turned-up card, whose suit is the trump: 1 for it"),
        Block("stock", 1, f"cards left in the stock / {LARGEST_STOCK}"),
        relative_block("briscola_holder", PLACES, "who drew the turned-up card, while it holds it"),
        Block("partner", size, "4 players with partners_see_hands: the partner's hand once shown, less its plays since"),
    ]


def layout(setup: Setup, max_deals: int) -> Layout:
    """The blocks; the totals (deals won / ``target``) never pass 1: the match ends there."""
    return trick_layout(_game(setup), (0.0, 1.0), extra_blocks())


class BriscolaFeatures(TrickFeatures):
    """The trick games' events, and Briscola's ``briscola``, ``draw`` and ``partner`` lines."""

    def __init__(self, seat: int, setup: Setup, layout: Layout) -> None:
        n = setup.num_players
        super().__init__(seat, n, layout, _game(setup), len(DECK_40) // n)
        self.partner = (seat + 2) % n if n == 4 else None
        self.stock_left = 0
        self.briscola = ""
        self._stock = layout.at("stock")

    def on_event(self, kind: str, args: tuple[str, ...]) -> None:
        if kind == "deal":
            self.stock_left = len(DECK_40) - HAND_SIZE * self.n
            self.briscola = ""
            self.vector[self._stock] = self.stock_left / LARGEST_STOCK
        elif kind == "briscola":
            self.briscola = args[0]
            self.set_cards("briscola", args, self.cards)
        elif kind == "draw":
            self.stock_left -= 1
            self.vector[self._stock] = self.stock_left / LARGEST_STOCK
            if len(args) == 2 and args[1] == self.briscola:
                self.one_hot("briscola_holder", self.place(args[0]))
            return
        elif kind == "partner":
            self.clear("partner")
            self.set_cards("partner", args[1:], self.cards)
            return
        elif kind == "play":
            self.set_cards("partner", args[1:], self.cards, to=0.0)
            if args[1] == self.briscola:
                self.clear("briscola_holder")
        super().on_event(kind, args)

    def new_deal(self) -> None:
        super().new_deal()
        self.clear("briscola", "briscola_holder", "partner")


class BriscolaActions:
    """The 40 card actions (:data:`.deck.CARD_ACTIONS`)."""

    size = NUM_ACTIONS

    def legal(self, decision: Decision, picked: tuple[int, ...]) -> Sequence[int]:
        return [CARDS[t] for t in decision.moves]

    def move(self, decision: Decision, picked: tuple[int, ...], action: int) -> str | None:
        return action_text(action)

    def action(self, decision: Decision, token: str) -> tuple[int, ...]:
        return (action_of(token),)

    def describe(self, action: int) -> str:
        return action_text(action)

    def unencoded(self, decision: Decision) -> int:
        return 0


ENCODING = GameEncoding("briscola", BriscolaActions(), layout, BriscolaFeatures)
"""What ``cardcli.envs`` reads through the spec's ``encoding`` part."""
