"""Pepper: 24-card bid-Euchre for 2, 3 or 4 players, bowers and the race to 30.

``docs/rules/pepper.md`` explains every rule and option with the seed sentence or RULES.md
item (R1..R14) it follows. Seats are numbered clockwise and Pepper is played clockwise: the
dealer's left, ``dealer+1``, bids first; partners (4 players) sit opposite. With 2 players a
third hand is dealt face down to nobody: it is in the record, and no seat is ever told it.

Moves come as protocol tokens (:meth:`PepperMatch.apply`) or as integer actions
(:meth:`PepperMatch.apply_action`) from one fixed space of :data:`NUM_ACTIONS`: the 24 cards in
canonical order, then the bids, then the trumps (:func:`action_text`, :func:`action_of`). Both
ways share every check.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import attrs

from ...cards import Card, french_24, sort_cards
from ...errors import IllegalMoveError, InvalidMoveError
from ...games import options as opt
from ...games.base import (
    DealScore,
    Decision,
    Event,
    MatchBase,
    Outcome,
    PhaseBase,
    Variant,
)
from ...games.sides import best, seats, side_map, sides_for, with_forfeits
from ...games.card_bits import TEXTS, DeckActions, cards, mask_of, texts
from ...games.notation import checked
from ...games.tricks import MaskHands, Ranking, TrickPlay

SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
TRUMPS = ("C", "D", "H", "S", "NT")
PEPPERS = ("small", "big")
BIDS = ("pass", "1", "2", "3", "4", "5", "6", "7", *PEPPERS)
"""Every bid token of any player count, lowest first (4 players never bid 6 or 7)."""
BID_FORM = "a bid is pass, a number, small or big"
TRUMP_FORM = "trump is C, D, H, S or NT"


@attrs.frozen
class PepperOptions:
    """Every Pepper house rule, with the defaults of RULES.md section 4."""

    first_dealer: str = opt.option(
        "random", "the first dealer: drawn from the seed, or a seat number", choices=("random", "0", "1", "2", "3")
    )
    left_bower_is_trump: bool = opt.option(
        True, "the jack of the trump's colour is a trump only, second to the right bower (R2)"
    )
    pass_is_final: bool = opt.option(True, "a player who passed never bids again in that auction (R4)")
    auction: str = opt.option(
        "multi_round", "the auction goes round until one bidder is left, or each player speaks once (R14)",
        choices=("multi_round", "single_round"),
    )
    all_pass: str = opt.option(
        "redeal_next_dealer",
        "when everybody passes: thrown in and the next dealer deals, the same dealer deals again, or the dealer must bid (R5)",
        choices=("redeal_next_dealer", "redeal_same_dealer", "stick_dealer"),
    )
    trump_must_be_held: bool = opt.option(False, "the declarer may only name a suit of which it holds a trump (R7)")
    target: int = opt.option(30, "points that end the game (R11)", minimum=1)
    deal_order: str = opt.option(
        "one_at_a_time", "cards are dealt one at a time, or a whole hand at a time (R12)",
        choices=("one_at_a_time", "hand_at_a_time"),
    )


VARIANTS = (Variant("standard", "the race to 30: 6 cards each with 4 players in partnerships, 8 with 2 or 3"),)


class Phase(PhaseBase):
    """Where a match stands (:class:`PhaseBase`); the constants below are its members."""

    DEAL = "deal"
    BID = "bid"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"


DEAL = Phase.DEAL
BID = Phase.BID
TRUMP = Phase.TRUMP
PLAY = Phase.PLAY
OVER = Phase.OVER


@attrs.frozen
class DealResult:
    """How a played deal was scored: what its ``made``/``set`` and ``score`` events tell."""

    made: bool
    tricks: int
    """The declaring side's tricks."""
    points: tuple[int, ...]
    """Each seat's points for the deal."""


class PepperMatch(MaskHands, MatchBase):
    """A whole game of Pepper, deal after deal, until a side reaches the target.

    Two ways in share one set of rules: the protocol's text moves (:meth:`decisions`,
    :meth:`apply`, which also produce the events) and integer actions for search and playouts
    (:meth:`current_player`, :meth:`legal_actions`, :meth:`apply_action`), which skip the
    events.
    """

    phase: Phase

    def __init__(self, options: PepperOptions, num_players: int = 4, first_dealer: int = 0):
        super().__init__()
        if num_players not in (2, 3, 4):
            raise ValueError("Pepper is played by 2, 3 or 4 players")
        self.options = options
        self.num_players = num_players
        self.sides = sides_for(num_players)
        sides_of = side_map(self.sides)
        self.side_of = tuple(sides_of[s] for s in range(num_players))
        """Each seat's side; a tuple, so clones share it."""
        self.hand_size = 6 if num_players == 4 else 8
        self.levels = tuple(str(i) for i in range(1, 6 if num_players == 4 else 8)) + PEPPERS
        self.dealer = first_dealer
        self.phase = DEAL
        self.side_totals = [0] * len(self.sides)
        self._next_same_dealer = False
        self._result: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self.hand_masks = [0] * num_players
        self.dead: list[Card] = []
        self._dealt: tuple[tuple[Card, ...], ...] = ()
        self.trump: str | None = None
        self.tricks = TrickPlay(self.hand_masks, 0, True, _no_points)
        self.bids: list[tuple[int, str]] = []
        self.passed: set[int] = set()
        self.spoken: set[int] = set()
        self.high: tuple[int, str] | None = None
        self.turn = -1
        """The seat to bid (during the auction)."""
        self.declarer = -1
        self.contract = ""

    # -- the protocol every game offers -------------------------------------------------------

    def deal_facts(self) -> dict[str, Any]:
        facts: dict[str, Any] = {"hands": [[c.text for c in h] for h in self._dealt]}
        if self.num_players == 2:
            facts["dead"] = [c.text for c in sort_cards(self.dead)]
        return facts

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        if self.phase is not DEAL:
            raise IllegalMoveError("no deal is due now")
        if len(deck) != 24 or set(deck) != set(french_24()):
            raise IllegalMoveError("a Pepper deal needs the 24 cards, each once")
        if self._deals_started and not self._next_same_dealer:
            self.dealer = (self.dealer + 1) % self.num_players
        self._next_same_dealer = False
        self._deals_started += 1
        n = self.num_players
        positions: list[int | None] = [(self.dealer + k) % n for k in range(1, n + 1)]
        if n == 2:
            positions.append(None)
        hands: dict[int | None, list[Card]] = {p: [] for p in positions}
        for k, card in enumerate(deck):
            if self.options.deal_order == "one_at_a_time":
                slot = k % len(positions)
            else:
                slot = k // self.hand_size
            hands[positions[slot]].append(card)
        self.hand_masks = [mask_of(hands[s]) for s in range(n)]
        self.dead = hands.get(None, [])
        self._dealt = tuple(cards(m) for m in self.hand_masks)
        self.trump = None
        self.bids = []
        self.passed = set()
        self.spoken = set()
        self.high = None
        self.turn = (self.dealer + 1) % n
        self.phase = BID
        events = [Event("deal", (str(self._deals_started), str(self.dealer)))]
        events += [Event("hand", texts(h), frozenset({s})) for s, h in enumerate(self.hand_masks)]
        return events

    def decisions(self) -> tuple[Decision, ...]:
        if self.phase is BID:
            return (Decision(self.turn, "bid", self._bid_moves(self.turn)),)
        if self.phase is TRUMP:
            return (Decision(self.declarer, "trump", self._trump_moves()),)
        if self.phase is PLAY:
            return (Decision(self.tricks.turn, "play", texts(self._turn_mask())),)
        return ()

    def acting(self) -> tuple[tuple[int, str], ...]:
        if self.phase is BID:
            return ((self.turn, "bid"),)
        if self.phase is TRUMP:
            return ((self.declarer, "trump"),)
        if self.phase is PLAY:
            return ((self.tricks.turn, "play"),)
        return ()

    def apply(self, seat: int, move: str) -> list[Event]:
        if self.phase is BID:
            self._check_bid(seat, move)
            self._bid(seat, move)
            events = [Event("bid", (str(seat), move))]
            return events if self.phase is BID else events + self._auction_events()
        if self.phase is TRUMP:
            self._check_trump(seat, move)
            self._name_trump(move)
            return [Event("trump", (str(self.declarer), move))] + self.tricks.start()
        if self.phase is PLAY:
            self.tricks.play(seat, checked(self._checked_card, seat, move))
            events = self.tricks.play_events()
            return events + self._result_events(self._score_deal()) if self.tricks.finished else events
        raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def apply_quietly(self, seat: int, move: str) -> None:
        if self.phase is BID:
            self._check_bid(seat, move)
            self._bid(seat, move)
        elif self.phase is TRUMP:
            self._check_trump(seat, move)
            self._name_trump(move)
        elif self.phase is PLAY:
            self._play(seat, checked(self._checked_card, seat, move))
        else:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def clone(self) -> "PepperMatch":
        """An independent copy: the totals, the auction, the hands and the trick play are
        copied, every immutable value (options, rankings, dealt hands, deal scores) is shared."""
        twin = self._twin()
        twin.side_totals = list(self.side_totals)
        twin.dead = list(self.dead)
        twin.bids = list(self.bids)
        twin.passed = set(self.passed)
        twin.spoken = set(self.spoken)
        self._clone_play(twin, self.tricks.trick_points)
        return twin

    # -- integer actions ----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to bid, to name trumps or to play, or -1 when a deal is due or the match is
        over. Every decision of Pepper is one seat's, so there is nothing to put in order."""
        if self.phase is PLAY:
            return self.tricks.turn
        if self.phase is BID:
            return self.turn
        if self.phase is TRUMP:
            return self.declarer
        return -1

    def legal_actions(self) -> tuple[int, ...]:
        """The actions of :meth:`current_player`, sorted: the same moves, in the same order, as
        the tokens :meth:`decisions` offers."""
        if self.phase is PLAY:
            return CARD_ACTIONS.actions(self._turn_mask())
        if self.phase is BID:
            return _actions(self._bid_moves(self.turn))
        if self.phase is TRUMP:
            return _actions(self._trump_moves())
        return ()

    def apply_action(self, action: int) -> None:
        """Apply ``action`` for :meth:`current_player`, without events; an illegal action is
        refused with IllegalMoveError and changes nothing."""
        phase = self.phase
        if phase not in PHASE_ACTIONS:
            raise IllegalMoveError(f"no move is due in phase {phase}")
        if action not in PHASE_ACTIONS[phase]:
            raise IllegalMoveError(f"action {action} is not a {phase} action")
        if phase is PLAY:
            seat, index = self.tricks.turn, CARD_ACTIONS.index_of[action]
            self._check_legal(index)
            self._play(seat, index)
        elif phase is BID:
            move = ACTION_TEXTS[action]
            self._check_bid(self.turn, move)
            self._bid(self.turn, move)
        else:
            move = ACTION_TEXTS[action]
            self._check_trump(self.declarer, move)
            self._name_trump(move)

    # -- trick play ---------------------------------------------------------------------------

    def _turn_mask(self) -> int:
        """The cards the seat to play may play, as a mask."""
        return self.tricks.legal(self.tricks.follow)

    def _checked_card(self, seat: int, move: str) -> int:
        """The index of the card a play token names, once the play is checked; changes nothing,
        so :func:`~cardcli.games.notation.checked` may try a respelt token with it."""
        index = self.tricks.index_for(seat, move)
        self._check_legal(index)
        return index

    def _check_legal(self, index: int) -> None:
        """Refuse a card of the seat to play's hand that it may not play now."""
        if not self._turn_mask() >> index & 1:
            raise IllegalMoveError(f"{TEXTS[index]} may not be played now: must follow suit")

    def _play(self, seat: int, index: int) -> None:
        """Play a checked card; score the deal, without its events, after the last trick."""
        self.tricks.play(seat, index)
        if self.tricks.finished:
            self._score_deal()

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers = self._result
        if forfeits:
            winners, losers = self._with_forfeits(forfeits)
        return Outcome(self.seat_totals(), winners, losers, (), tuple(sorted(forfeits)))

    def seat_totals(self) -> tuple[int, ...]:
        return tuple(self.side_totals[self.side_of[s]] for s in range(self.num_players))

    # -- the auction --------------------------------------------------------------------------

    def _check_bid(self, seat: int, move: str) -> None:
        self._check(seat, self.turn, move, self._bid_moves(seat), BID_FORM)

    def _check_trump(self, seat: int, move: str) -> None:
        self._check(seat, self.declarer, move, self._trump_moves(), TRUMP_FORM)

    def _check(self, seat: int, due: int, move: str, legal: tuple[str, ...], form: str) -> None:
        if seat != due:
            raise IllegalMoveError(f"it is seat {due}'s turn, not seat {seat}'s")
        if move not in legal:
            known = move in ("pass", *self.levels, *TRUMPS) or move.isdigit()
            if not known:
                raise InvalidMoveError(f"{form}: {move!r}")
            raise IllegalMoveError(f"{move} is not allowed now; allowed: {' '.join(legal)}")

    def _bid_moves(self, seat: int) -> tuple[str, ...]:
        above = self.levels.index(self.high[1]) + 1 if self.high else 0
        raises = self.levels[above:]
        stuck = (
            self.options.all_pass == "stick_dealer"
            and seat == self.dealer
            and self.high is None
            and len(self.passed) == self.num_players - 1
        )
        return raises if stuck else ("pass", *raises)

    def _bid(self, seat: int, move: str) -> None:
        """Make a checked bid; close the auction when it is over."""
        self.bids.append((seat, move))
        self.spoken.add(seat)
        if move == "pass":
            self.passed.add(seat)
        else:
            self.high = (seat, move)
            if not self.options.pass_is_final:
                self.passed = set()
        if self._auction_over():
            self._close_auction()
        else:
            self.turn = self._next_bidder(seat)

    def _auction_over(self) -> bool:
        n = self.num_players
        if self.high and self.high[1] == "big":
            return True
        if self.options.auction == "single_round":
            return len(self.spoken) == n
        others = [s for s in range(n) if self.high is None or s != self.high[0]]
        if self.high is None:
            return len(self.passed) == n
        return all(s in self.passed for s in others)

    def _next_bidder(self, seat: int) -> int:
        n = self.num_players
        nxt = (seat + 1) % n
        if self.options.pass_is_final and self.options.auction == "multi_round":
            while nxt in self.passed:
                nxt = (nxt + 1) % n
        return nxt

    def _close_auction(self) -> None:
        """The contract, or a thrown-in deal when everybody passed."""
        if self.high is None:
            self._next_same_dealer = self.options.all_pass == "redeal_same_dealer"
            zeros = tuple(0 for _ in range(self.num_players))
            self._scores.append(DealScore(self._deals_started, zeros, self.seat_totals(), ("all passed",)))
            self.phase = DEAL
            return
        self.declarer, self.contract = self.high
        self.phase = TRUMP

    def _auction_events(self) -> list[Event]:
        """The events of the auction :meth:`_close_auction` has just closed."""
        if self.phase is TRUMP:
            return [Event("contract", (str(self.declarer), self.contract))]
        return [Event("allpass", ())] + self._score_events(self._scores[-1].points)

    def _trump_moves(self) -> tuple[str, ...]:
        if not self.options.trump_must_be_held:
            return TRUMPS
        hand = cards(self.hand_masks[self.declarer])
        held = [s for s in TRUMPS[:4] if any(self._suit_under(c, s) == s for c in hand)]
        return (*held, "NT")

    def _name_trump(self, move: str) -> None:
        """Name a checked trump; the declarer leads the first trick."""
        self.trump = None if move == "NT" else move
        self.phase = PLAY
        ranking = _rankings(self.trump, self.options.left_bower_is_trump)
        self.tricks = TrickPlay(self.hand_masks, self.declarer, True, _no_points, ranking, self.trump)

    # -- cards under a trump ------------------------------------------------------------------

    def _suit_under(self, card: Card, trump: str | None) -> str:
        return suit_under(card, trump, self.options.left_bower_is_trump)

    # -- scoring ------------------------------------------------------------------------------

    def _score_deal(self) -> DealResult:
        """Score the played deal and decide whether the game is over."""
        won = [sum(self.tricks.tricks_won[s] for s in side) for side in self.sides]
        declaring = self.side_of[self.declarer]
        big = self.contract == "big"
        need = self.hand_size if self.contract in PEPPERS else int(self.contract)
        made = won[declaring] >= need
        set_penalty = 6 if self.num_players == 4 else 8
        side_points = list(won)
        if big:
            side_points[declaring] = 2 * set_penalty if made else -2 * set_penalty
        elif not made:
            side_points[declaring] = -set_penalty
        for i, p in enumerate(side_points):
            self.side_totals[i] += p
        points = tuple(side_points[self.side_of[s]] for s in range(self.num_players))
        note = f"{'made' if made else 'set'} {self.contract} by {self.declarer}: {won[declaring]} tricks"
        self._scores.append(DealScore(self._deals_started, points, self.seat_totals(), (note,)))
        self._result = self._game_result()
        self.phase = OVER if self._result is not None else DEAL
        return DealResult(made, won[declaring], points)

    def _result_events(self, result: DealResult) -> list[Event]:
        """The events of the deal :meth:`_score_deal` has just scored."""
        fate = "made" if result.made else "set"
        events = [Event(fate, (str(self.declarer), self.contract, str(result.tricks)))]
        return events + self._score_events(result.points)

    def _score_events(self, points: Sequence[int]) -> list[Event]:
        return [
            Event("score", (str(self._deals_started), *map(str, points))),
            Event("totals", tuple(map(str, self.seat_totals()))),
        ]

    def _game_result(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        reached = [i for i, t in enumerate(self.side_totals) if t >= self.options.target]
        return self._seats(best(self.side_totals, reached)) if reached else None

    def adjudicate(self) -> None:
        """End the game between deals (the referee's deal limit): the best total wins, ties
        share the win."""
        if self.phase is not DEAL:
            raise IllegalMoveError("a match is adjudicated only between deals")
        self._result = self._seats(best(self.side_totals, range(len(self.sides))))
        self.phase = OVER

    def _seats(self, winning_sides: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        winners = seats(self.sides, winning_sides)
        return winners, tuple(s for s in range(self.num_players) if s not in winners)

    def _with_forfeits(self, forfeits: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        assert self._result is not None
        won = {self.side_of[s] for s in self._result[0]}
        return self._seats(with_forfeits(self.sides, self.side_totals, sorted(won), [], forfeits)[0])


def _no_points(taken: int, last: bool) -> int:
    return 0


def suit_under(card: Card, trump: str | None, left_bower_is_trump: bool) -> str:
    """The suit ``card`` belongs to under ``trump``: the left bower is a trump when the
    option says so."""
    if trump is not None and left_bower_is_trump and card.rank == 11 and card.suit == SAME_COLOUR[trump]:
        return trump
    return card.suit


def power_under(card: Card, trump: str | None, left_bower_is_trump: bool) -> int:
    """Right bower 20, left bower 19, then A K Q (J) 10 9 by rank."""
    if trump is not None and card.rank == 11:
        if card.suit == trump:
            return 20
        if suit_under(card, trump, left_bower_is_trump) == trump:
            return 19
    return card.rank


CARD_ACTIONS = DeckActions(french_24())
"""Actions 0..23 play the 24 cards in canonical order (clubs, diamonds, hearts, spades; each 9,
10, J, Q, K, A): the printed suit, also for a left bower."""
FIRST_BID = CARD_ACTIONS.size
"""Actions 24..33 are the bids of :data:`BIDS`, ``pass`` first."""
FIRST_TRUMP = FIRST_BID + len(BIDS)
"""Actions 34..38 name the trumps of :data:`TRUMPS`, ``NT`` last."""
ACTION_TEXTS = (*CARD_ACTIONS.texts, *BIDS, *TRUMPS)
"""Each action's token."""
NUM_ACTIONS = len(ACTION_TEXTS)
"""39: the size of the action space, the same for every player count."""
PHASE_ACTIONS: dict[str, range] = {
    PLAY: range(FIRST_BID),
    BID: range(FIRST_BID, FIRST_TRUMP),
    TRUMP: range(FIRST_TRUMP, NUM_ACTIONS),
}
"""The actions each kind of decision draws from."""
_ACTION_OF_TEXT = {text: action for action, text in enumerate(ACTION_TEXTS)}


def action_text(action: int) -> str:
    """The token of ``action``: a card (``0`` is ``9C``), a bid (``24`` is ``pass``) or a trump
    (``38`` is ``NT``)."""
    if not 0 <= action < NUM_ACTIONS:
        raise InvalidMoveError(f"not an action of Pepper: {action} (actions are 0..{NUM_ACTIONS - 1})")
    return ACTION_TEXTS[action]


def action_of(token: str) -> int:
    """The action of a token: the inverse of :func:`action_text`. Cards, bids and trumps have
    distinct tokens, so the decision's kind is not needed."""
    action = _ACTION_OF_TEXT.get(token)
    if action is None:
        raise InvalidMoveError(f"not a Pepper move: {token!r}")
    return action


@lru_cache(maxsize=None)
def _actions(moves: tuple[str, ...]) -> tuple[int, ...]:
    """The actions of a bid or trump decision's tokens (a few dozen lists in all, each built
    once)."""
    return tuple(_ACTION_OF_TEXT[m] for m in moves)


@lru_cache(maxsize=None)
def _rankings(trump: str | None, left_bower_is_trump: bool) -> Ranking:
    """The trick ranking under each trump, built once."""
    return Ranking.build(
        power=lambda card: power_under(card, trump, left_bower_is_trump),
        suit_of=lambda card: suit_under(card, trump, left_bower_is_trump),
    )
