"""The Briscola rules engine: a whole match as a pure, deterministic state machine.

``docs/rules.md`` (beside this package) gives every rule with its source. In short: 2 players
each alone or 4 in partnerships (0+2 against 1+3); 3 cards each, the next card turned up names
the trump (the *briscola*) and is drawn last; no obligation to follow suit; the best trump, else
the best card of the suit led, takes the trick; its taker draws first and leads the next; a
deal is won with more than 60 of the 120 card points; the match goes to ``target`` deals won.

Seats are numbered clockwise, as everywhere in cardcli; play goes counter-clockwise by
default, so the player after seat ``i`` is ``i-1`` (:func:`~cardcli.games.tricks.step`).

Moves come as protocol tokens (:meth:`BriscolaMatch.apply`, with events, or
:meth:`BriscolaMatch.apply_quietly`) or as integer actions (:meth:`BriscolaMatch.apply_action`,
see :mod:`.deck`); all three share every check and every state change.

The trick mechanics are cardcli's :class:`~cardcli.games.tricks.TrickPlay`, on bit-mask hands.
Briscola adds what TrickPlay does not know: hands refilled from a stock after every trick (the
hands are the match's list of masks, which the trick play shares and reads in place), and
more tricks in a deal than cards in the first hand.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Sequence

import attrs

from cardcli.cards import Card, misspelling
from cardcli.errors import IllegalMoveError, InvalidMoveError
from cardcli.games.base import DealScore, Decision, Event, MatchBase, Outcome
from cardcli.games.card_bits import DECK, INDEX, TEXTS, mask_of, texts
from cardcli.games.sides import seats, side_map, sides_for, with_forfeits
from cardcli.games.tricks import MaskHands, TrickPlay, seat_order, step

from .deck import CARD_ACTIONS, DECK_40, DECK_POINTS, FULL_DECK, RANKING, points_of
from .options import BriscolaOptions, Direction, TieBreak

PLAYER_COUNTS = (2, 4)
HAND_SIZE = 3
DECK_TEXTS = frozenset(c.text for c in DECK_40)


class Phase(StrEnum):
    """Where a match stands. The values are the texts :class:`MatchBase` compares with."""

    DEAL = "deal"
    PLAY = "play"
    OVER = "over"


Standings = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""Winners, losers, draws (seat numbers)."""


@attrs.frozen
class DealTally:
    """How a finished deal was scored: what its closing events tell, worked out once, with the
    change of state, so that the quiet and the eventful ways in cannot differ."""

    card_points: tuple[int, ...]
    """Each side's card points (they add up to 120)."""
    winner: int | None
    """The side that won the deal, or None for a 60-60 deal that counts for nobody."""
    seat_points: tuple[int, ...]
    """What the deal scores for each seat: 1 for the seats of its winner, else 0."""


def trick_points(taken: int, last: bool) -> int:
    """A trick's card points, for the ``taken`` event: Briscola has no bonus for the last one."""
    return points_of(taken)


class BriscolaMatch(MaskHands, MatchBase):
    """A whole match of Briscola, deal after deal, until a side has won ``target`` deals.

    ``hand_masks`` are the hands as bit masks (cardcli's ``card_bits``), shared in place with
    the trick play; ``stock`` is the deal's stock in drawing order (card indices, the
    turned-up briscola last) and ``drawn`` how many of its cards have been drawn.
    """

    def __init__(self, options: BriscolaOptions, num_players: int = 2, first_dealer: int = 0):
        super().__init__()
        if num_players not in PLAYER_COUNTS:
            raise ValueError("Briscola is played by 2 players, or by 4 in partnerships")
        self.options = options
        self.num_players = num_players
        self.clockwise = options.direction == Direction.CW
        self.dealer = first_dealer
        self.phase = Phase.DEAL
        self.sides = sides_for(num_players)
        sides_of = side_map(self.sides)
        self.side_of = tuple(sides_of[s] for s in range(num_players))
        """Each seat's side: a tuple, so clones share it."""
        self._others = tuple(frozenset(range(num_players)) - {s} for s in range(num_players))
        """Each seat's audience for what it alone may see: every other seat."""
        self.side_totals = [0] * len(self.sides)
        """Deals won by each side."""
        self.hand_masks = [0] * num_players
        self.tricks = TrickPlay(self.hand_masks, 0, self.clockwise, trick_points, RANKING)
        self.briscola = -1
        """The card index of the turned-up card, whose suit is the trump (-1 before a deal)."""
        self.stock: tuple[int, ...] = ()
        self.drawn = 0
        self._dealt: tuple[int, ...] = ()
        self._result: Standings | None = None

    # -- the protocol every game offers -------------------------------------------------------

    def deal_facts(self) -> dict[str, Any]:
        """The hands as dealt and the stock in drawing order: the turned-up briscola is the
        stock's last card. Both follow from the deck alone, so ``verify`` recomputes them."""
        return {"hands": [list(texts(h)) for h in self._dealt], "stock": [TEXTS[i] for i in self.stock]}

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Deal ``deck`` (shuffled by the caller): three cards each, one at a time from the
        player after the dealer; the next card is turned up as the briscola; the rest is the
        stock, with the briscola under it. The player after the dealer leads."""
        if self.phase != Phase.DEAL:
            raise IllegalMoveError("no deal is due now")
        if len(deck) != len(DECK_40) or mask_of(deck) != FULL_DECK:
            raise IllegalMoveError("a Briscola deal needs the 40 cards, each once")
        n = self.num_players
        if self._deals_started:
            self.dealer = step(self.dealer, n, self.clockwise)
        self._deals_started += 1
        leader = step(self.dealer, n, self.clockwise)
        order = seat_order(leader, n, self.clockwise)
        cards = [INDEX[c] for c in deck]
        dealt = n * HAND_SIZE
        hands = [0] * n
        for k in range(dealt):
            hands[order[k % n]] |= 1 << cards[k]
        self.hand_masks = hands
        self._dealt = tuple(hands)
        self.briscola = cards[dealt]
        self.stock = (*cards[dealt + 1:], self.briscola)
        self.drawn = 0
        self.tricks = TrickPlay(hands, leader, self.clockwise, trick_points, RANKING, DECK[self.briscola].suit)
        self.tricks.total = len(DECK_40) // n  # TrickPlay counts the tricks of the first hand only
        self.phase = Phase.PLAY
        events = [Event("deal", (str(self._deals_started), str(self.dealer)))]
        events += [Event("hand", texts(h), frozenset({s})) for s, h in enumerate(hands)]
        events.append(Event("briscola", (TEXTS[self.briscola],)))
        return events + self.tricks.start()

    def decisions(self) -> tuple[Decision, ...]:
        """The seat to play may play any card it holds: Briscola has no duty to follow suit."""
        if self.phase != Phase.PLAY:
            return ()
        seat = self.tricks.turn
        return (Decision(seat, "play", texts(self.hand_masks[seat])),)

    def acting(self) -> tuple[tuple[int, str], ...]:
        return ((self.tricks.turn, "play"),) if self.phase == Phase.PLAY else ()

    def apply(self, seat: int, move: str) -> list[Event]:
        index = self._checked_card(seat, move)
        self.tricks.play(seat, index)
        events = self.tricks.play_events()
        if self.tricks.trick:
            return events
        if self.tricks.finished:
            return events + self._deal_events(self._score_deal())
        drawn = self._draw()
        if drawn:
            next_trick = events.pop()  # the next ``trick`` line comes after the drawing
            events += self._draw_events(drawn)
            events.append(next_trick)
        return events

    def apply_quietly(self, seat: int, move: str) -> None:
        self._play(seat, self._checked_card(seat, move))

    def clone(self) -> "BriscolaMatch":
        """An independent copy: the side totals, the hands and the trick play are copied; the
        options, the stock (a tuple read through ``drawn``), the dealt hands and the deal
        scores are immutable and shared."""
        twin = self._twin()
        twin.side_totals = list(self.side_totals)
        self._clone_play(twin, trick_points)
        return twin

    # -- integer actions ----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to play, or -1 when a deal is due or the match is over."""
        return self.tricks.turn if self.phase == Phase.PLAY else -1

    def legal_actions(self) -> tuple[int, ...]:
        """The cards :meth:`current_player` holds, as actions, sorted: the same cards in the
        same order as the tokens :meth:`decisions` offers."""
        if self.phase != Phase.PLAY:
            return ()
        return CARD_ACTIONS.actions(self.hand_masks[self.tricks.turn])

    def apply_action(self, action: int) -> None:
        """Play the card of ``action`` for :meth:`current_player`, without events; an illegal
        action is refused with IllegalMoveError and changes nothing."""
        self._check_phase()
        index = CARD_ACTIONS.index(action)
        if index < 0:
            raise IllegalMoveError(f"action {action} is not a card: actions are 0..{CARD_ACTIONS.size - 1}")
        seat = self.tricks.turn
        if not self.hand_masks[seat] >> index & 1:
            raise IllegalMoveError(f"{TEXTS[index]} is not in seat {seat}'s hand")
        self._play(seat, index)

    # -- checks and plays, shared by tokens and actions ---------------------------------------

    def _check_phase(self) -> None:
        if self.phase != Phase.PLAY:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def _checked_card(self, seat: int, move: str) -> int:
        """The card index a play token names, once checked for the phase, the turn, the
        spelling and the hand; changes nothing."""
        self._check_phase()
        if move not in DECK_TEXTS:
            wrong = misspelling(move)
            named = wrong[1] if wrong is not None else move
            if named in TEXTS and named not in DECK_TEXTS:
                raise InvalidMoveError(f"{move!r} is not a card of Briscola's 40 (there is no 8, 9 or 10)")
        return self.tricks.index_for(seat, move)

    def _play(self, seat: int, index: int) -> None:
        """Play a checked card; after a trick, draw or, after the last, score the deal."""
        self.tricks.play(seat, index)
        if self.tricks.trick:
            return
        if self.tricks.finished:
            self._score_deal()
        else:
            self._draw()

    def _draw(self) -> list[tuple[int, int]]:
        """After a trick, while the stock lasts, each seat draws one card, the taker first and
        then the others in the direction of play. Returns (seat, card index) in drawing order.

        The stock always runs out at the end of a round (34 cards for 2 players, 28 for 4), so
        every seat holds three cards until the stock is gone."""
        if self.drawn == len(self.stock):
            return []
        drawn = []
        hands = self.hand_masks
        for seat in seat_order(self.tricks.turn, self.num_players, self.clockwise):
            index = self.stock[self.drawn]
            self.drawn += 1
            hands[seat] |= 1 << index
            drawn.append((seat, index))
        return drawn

    def _draw_events(self, drawn: list[tuple[int, int]]) -> list[Event]:
        """``draw <seat> <card>`` for the drawer, ``draw <seat>`` for the others; the
        turned-up briscola is drawn in sight of all. With ``partners_see_hands``, the round
        that empties the stock is followed by each partner's hand, to its partner alone."""
        events = []
        for seat, index in drawn:
            who = str(seat)
            if index == self.briscola:
                events.append(Event("draw", (who, TEXTS[index])))
            else:
                events.append(Event("draw", (who, TEXTS[index]), frozenset({seat})))
                events.append(Event("draw", (who,), self._others[seat]))
        if self.drawn == len(self.stock) and self.num_players == 4 and self.options.partners_see_hands:
            for seat in range(self.num_players):
                partner = (seat + 2) % 4
                events.append(Event("partner", (str(partner), *texts(self.hand_masks[partner])), frozenset({seat})))
        return events

    # -- scoring ------------------------------------------------------------------------------

    def _score_deal(self) -> DealTally:
        """Count each side's card points, give the deal to the side with more than half of
        them (or as ``tie_break`` says at 60-60), and end the match at ``target`` deals."""
        taken = self.tricks.taken
        card_points = tuple(sum(points_of(taken[s]) for s in side) for side in self.sides)
        half = DECK_POINTS // 2
        winner = next((i for i, p in enumerate(card_points) if p > half), None)
        names = ["+".join(map(str, side)) for side in self.sides]
        notes = ["card points " + ", ".join(f"{name}: {p}" for name, p in zip(names, card_points))]
        if winner is None:
            if self.options.tie_break == TieBreak.LAST_TRICK:
                assert self.tricks.last_winner is not None
                winner = self.side_of[self.tricks.last_winner]
                notes.append(f"60-60: the last trick gives the deal to {names[winner]}")
            else:
                notes.append("60-60: the deal counts for nobody")
        if winner is not None:
            self.side_totals[winner] += 1
        seat_points = tuple(int(self.side_of[s] == winner) for s in range(self.num_players))
        self._scores.append(DealScore(self._deals_started, seat_points, self.seat_totals(), tuple(notes)))
        if winner is not None and self.side_totals[winner] >= self.options.target:
            self._result = self._standings([winner], [])
        self.phase = Phase.OVER if self._result is not None else Phase.DEAL
        return DealTally(card_points, winner, seat_points)

    def _deal_events(self, tally: DealTally) -> list[Event]:
        """``points`` (each seat's side's card points), ``score`` and ``totals`` (deals won)."""
        points = (tally.card_points[self.side_of[s]] for s in range(self.num_players))
        return [
            Event("points", tuple(map(str, points))),
            Event("score", (str(self._deals_started), *map(str, tally.seat_points))),
            Event("totals", tuple(map(str, self.seat_totals()))),
        ]

    def seat_totals(self) -> tuple[int, ...]:
        """Deals won, seat by seat (partners show their side's)."""
        return tuple(self.side_totals[self.side_of[s]] for s in range(self.num_players))

    def _standings(self, winning: list[int], drawing: list[int]) -> Standings:
        won = seats(self.sides, winning)
        drew = seats(self.sides, drawing)
        lost = tuple(s for s in range(self.num_players) if s not in won and s not in drew)
        return won, lost, drew

    def adjudicate(self) -> None:
        """End the match between deals (the referee's deal limit): the side with more deals
        won wins; with as many, both draw."""
        if self.phase != Phase.DEAL:
            raise IllegalMoveError("a match is adjudicated only between deals")
        first, second = self.side_totals
        if first == second:
            self._result = self._standings([], [0, 1])
        else:
            self._result = self._standings([0 if first > second else 1], [])
        self.phase = Phase.OVER

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        """The result; a side with a forfeited seat loses, whatever its deals."""
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers, draws = self._result
        if forfeits:
            won = sorted({self.side_of[s] for s in winners})
            drew = sorted({self.side_of[s] for s in draws})
            side_won, _, side_drew = with_forfeits(self.sides, self.side_totals, won, drew, forfeits)
            winners, losers, draws = self._standings(side_won, side_drew)
        return Outcome(self.seat_totals(), winners, losers, draws, tuple(sorted(forfeits)))
