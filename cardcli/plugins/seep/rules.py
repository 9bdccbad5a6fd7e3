"""Seep (Sip, Siv): the Punjabi fishing game with houses, for 4 players in partnerships and the
2- and 3-player, 30-point, no-cementing and variable-target variants.

``docs/rules/seep.md`` explains every rule and option with the seed sentence or RULES.md item
(S1..S31) it follows. Seats are numbered clockwise and Seep is played counter-clockwise, so the
next player is ``seat-1``; the bidder (house builder) sits at the dealer's right, ``dealer-1``.

This module holds the match, :class:`SeepMatch`: the deal, the bid, whose turn it is, the
hands, the floor and the captured cards, and the events of every change. What it plays is
found elsewhere in this folder, each concern in its own module:

* :mod:`.options`: the house rules (:class:`SeepOptions`) and the variants;
* :mod:`.effects`: what a move does (the houses, a move's effect on the floor, its token);
* :mod:`.moves`: the move generator, every legal move of a position with its whole effect
  (:class:`~.moves.Turn`), over the position as card indices and bits (:mod:`.position`);
* :mod:`.scoring`: card points, seeps, a deal's score and the end of the baazi.

Every legal move is generated with its whole effect (cards leaving the floor, houses removed,
the house made), so applying a move is the same few lines for every kind of action, and a move
is legal exactly when it is in the generated set. Two ways in share the rules: the protocol's
text moves (:meth:`SeepMatch.decisions`, :meth:`SeepMatch.apply`, with events) and integer
actions for search (:meth:`SeepMatch.current_player`, :meth:`SeepMatch.legal_actions`,
:meth:`SeepMatch.apply_action`), which are indices into the same canonical list and write
neither tokens nor events; :meth:`SeepMatch.clone` copies a state for a search.

The names of those modules that other code reads are imported here too (:data:`__all__`),
so ``from cardcli.plugins.seep.rules import HOUSE_VALUES, SeepOptions`` works as before.
"""

from __future__ import annotations

import random
from bisect import insort
from operator import attrgetter
from typing import Any, Sequence

from ...cards import Card, french_52, is_card, sort_cards
from ...errors import IllegalMoveError, InvalidMoveError, MoveError, OptionError
from ...games.base import DealScore, Decision, Event, MatchBase, Outcome, PhaseBase
from ...games.card_bits import DECK, INDEX, TEXTS, mask_of
from ...games.card_bits import cards as mask_cards
from ...games.notation import checked, misordered, spent_card
from ...games.sides import side_map, sides_for
from ...games.tricks import seat_order, step
from .effects import ALONE, HEAD, HEAD_AND_TAIL, HOUSE_VALUES, MADE, TAIL, VERB_RANK, VERBS, Effect, House, Move, token
from .floor import value
from .moves import Turn, ValueMoves
from .options import OPENING_KINDS, SCORINGS, SWEEP_DEFAULTS, VARIANTS, SeepOptions
from .position import Holding, Known, known_after, read_known
from .scoring import Result, adjudicated, baazi_result, deal_points, forfeited, side_name, sweep_bonus, tie_note
from .scoring import card_worth as _card_worth

__all__ = [
    # the match
    "Phase", "SeepMatch",
    # .options
    "OPENING_KINDS", "SCORINGS", "SWEEP_DEFAULTS", "VARIANTS", "SeepOptions",
    # .effects
    "HEAD_AND_TAIL", "HOUSE_VALUES", "MADE", "VERB_RANK", "VERBS", "Effect", "House", "Move", "token",
    # .moves and .position
    "Holding", "Known", "ValueMoves",
    # .scoring, under the name the seat view imports
    "_card_worth",
]


class Phase(PhaseBase):
    """Where a match stands (:class:`PhaseBase`); the constants below are its members."""

    DEAL = "deal"
    BID = "bid"
    OPEN = "open"
    PLAY = "play"
    OVER = "over"


DEAL = Phase.DEAL
BID = Phase.BID
OPEN = Phase.OPEN
PLAY = Phase.PLAY
OVER = Phase.OVER


def _rounds(options: SeepOptions, num_players: int) -> list[int]:
    """Cards each player gets after the opening, round by round (a round is a half-deal)."""
    if num_players == 4:
        return [8]
    if num_players == 3:
        return [12]
    return [8, 12] if options.two_player_halves else [20]


class SeepMatch(MatchBase):
    """A whole baazi of Seep."""

    phase: Phase

    def __init__(self, options: SeepOptions, num_players: int = 4, first_dealer: int = 0):
        super().__init__()
        if num_players not in (2, 3, 4):
            raise ValueError("Seep is played by 2, 3 or 4 players")
        bad = [n for n in _rounds(options, num_players) if n % options.deal_packet]
        if bad:
            raise OptionError(f"deal_packet {options.deal_packet} does not divide the {bad[0]} cards dealt later")
        self.options = options
        self.num_players = num_players
        self.sides = sides_for(num_players)
        self.side_of = side_map(self.sides)
        self.dealer = first_dealer
        self.phase = DEAL
        self.side_totals = [0] * len(self.sides)
        self._same_dealer = False
        self._result: Result | None = None
        self._under: set[int] = set()
        """Sides under the minimum while a tie for the best total among the others is played
        off with extra deals (they have lost; the tie decides who wins)."""
        self.hands: list[list[Card]] = [[] for _ in range(num_players)]
        self.loose: list[Card] = []
        self.houses: dict[int, House] = {}
        """The floor. Neither container is ever changed in place: a play that changes one puts
        a new one here, so a turn's snapshot and a clone share them for free."""
        self._told: tuple[dict[int, House], tuple[str, ...]] = ({}, ())
        """The houses the table event wrote last, and their texts in value order: the houses
        stay for several plays while the loose cards change on nearly every one, and a new
        dictionary of houses is a new floor of houses."""
        self.piles: list[list[Card]] = [[] for _ in self.sides]
        self.bonus = [0] * len(self.sides)
        self.last_capturer: int | None = None
        self.bid = 0
        self.bidder = self.turn = 0
        self._later: list[dict[int, list[Card]]] = []
        self._moves_cache: Turn | Known | None = None
        """The moves of the position (a :class:`Turn`), found when first asked for. After
        each of its plays the engine leaves here what it knows of the new position (a
        :data:`Known`: the hands and the floor as indices and bits) for the next turn to
        start from; any other change sets it to None, and so must whoever changes the
        position by hand: the next turn then reads the hands and the floor afresh."""
        team = options.retention_scope == "team"
        self._keepers = tuple(self.sides[self.side_of[s]] if team else (s,) for s in range(num_players))
        """Per seat, whose cards keep a house it owns (S9)."""

    # -- the protocol every game offers -------------------------------------------------------

    def deal_facts(self) -> dict[str, Any]:
        return {
            "hands": [[c.text for c in sort_cards(cards)] for cards in self._allocation],
            "floor": [c.text for c in sort_cards(self._floor_dealt)],
        }

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        if self.phase is not DEAL:
            raise IllegalMoveError("no deal is due now")
        if len(deck) != 52 or set(deck) != _DECK_SET:
            raise IllegalMoveError("a Seep deal needs the 52 cards, each once")
        if self._deals_started and not self._same_dealer:
            self.dealer = self._next_dealer()
        self._same_dealer = False
        self._deals_started += 1
        n = self.num_players
        self.bidder = (self.dealer - 1) % n
        self.order = seat_order(self.bidder, n, clockwise=False)
        dealt = 0

        def take(count: int) -> list[Card]:
            nonlocal dealt
            dealt += count
            return list(deck[dealt - count:dealt])

        first = {self.bidder: take(4)}
        self._floor_dealt = take(4)
        for seat in self.order[1:]:
            first[seat] = take(4)
        self._later = []
        packet = self.options.deal_packet
        for count in _rounds(self.options, n):
            packets: dict[int, list[Card]] = {s: [] for s in self.order}
            for _ in range(count // packet):
                for seat in self.order:
                    packets[seat] += take(packet)
            self._later.append(packets)
        self._allocation = [first[s] + [c for r in self._later for c in r[s]] for s in range(n)]
        self.hands = [sort_cards(first[s]) for s in range(n)]
        self.loose, self.houses = [], {}
        self.piles = [[] for _ in self.sides]
        self.bonus = [0] * len(self.sides)
        self.last_capturer = None
        self.bid = 0
        self.turn = self.bidder
        self._moves_cache = None
        events = [Event("deal", (str(self._deals_started), str(self.dealer), str(self.bidder)))]
        events += self._hand_events()
        if self.options.reveal_floor_before_bid:
            self.loose = sort_cards(self._floor_dealt)
            events.append(self._table_event())
        if not self._bids():
            return events + self._void_deal()
        self.phase = BID
        return events

    def decisions(self) -> tuple[Decision, ...]:
        if self.phase is PLAY or self.phase is OPEN:
            return (Decision(self.turn, "play", self._tokens()),)
        if self.phase is BID:
            return (Decision(self.bidder, "bid", tuple(str(v) for v in self._bids())),)
        return ()

    def acting(self) -> tuple[tuple[int, str], ...]:
        if self.phase is BID:
            return ((self.bidder, "bid"),)
        if self.phase is OPEN or self.phase is PLAY:
            return ((self.turn, "play"),)
        return ()

    def apply(self, seat: int, move: str) -> list[Event]:
        if self.phase is PLAY or self.phase is OPEN:
            turn = self._moves_cache
            if seat == self.turn and isinstance(turn, Turn) and turn.tokens is not None and turn.listed:
                # one of the moves decisions() offered, as a referee plays them
                try:
                    offered = turn.tokens.index(move)
                except ValueError:
                    pass
                else:
                    return self._play(seat, turn.listed[offered], move)
            return self._play(seat, self._checked(seat, move), move)
        if self.phase is BID:
            return self._apply_bid(seat, move)
        raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def apply_quietly(self, seat: int, move: str) -> None:
        if self.phase is BID:
            self._apply_bid(seat, move, tell=False)
        elif self.phase is OPEN or self.phase is PLAY:
            self._play(seat, self._checked(seat, move), tell=False)
        else:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers, draws = self._result
        if forfeits:
            winners, losers, draws = forfeited(self.sides, self.side_of, self.side_totals, self._result, forfeits)
        return Outcome(self.seat_totals(), winners, losers, draws, tuple(sorted(forfeits)))

    def seat_totals(self) -> tuple[int, ...]:
        return tuple(self.side_totals[self.side_of[s]] for s in range(self.num_players))

    # -- integer actions and clones, for search -------------------------------------------------

    def current_player(self) -> int:
        """The seat to act: the bidder during the bid, the player to play after it; -1 when a
        deal is due or the match is over."""
        if self.phase is BID:
            return self.bidder
        if self.phase is OPEN or self.phase is PLAY:
            return self.turn
        return -1

    def legal_actions(self) -> Sequence[int]:
        """The actions of :meth:`current_player`: ``k`` is the ``k``-th move :meth:`decisions`
        offers (a bid, or a play in the canonical order), so they are always ``range(n)``."""
        if self.phase is PLAY or self.phase is OPEN:
            return range(len(self._listed()))
        if self.phase is BID:
            return range(len(self._bids()))
        return ()

    def apply_action(self, action: int) -> None:
        """Apply an action of :meth:`current_player`, without events; refuse an illegal one
        with IllegalMoveError and change nothing."""
        if self.phase is PLAY or self.phase is OPEN:
            moves = self._listed()
            if not 0 <= action < len(moves):
                raise IllegalMoveError(f"action {action} is not legal now: there are {len(moves)} moves")
            self._play(self.turn, moves[action], tell=False)
        elif self.phase is BID:
            bids = self._bids()
            if not 0 <= action < len(bids):
                raise IllegalMoveError(f"action {action} is not legal now: there are {len(bids)} bids")
            self._bid(self.bidder, bids[action], tell=False)
        else:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def apply_random_card(self, rng: random.Random) -> None:
        """Play a random legal move drawn card first, without events: a card of the hand at
        random, then one of the moves it allows at random; for search playouts.

        A uniform choice among the moves plays the cards that allow many captures and builds
        far more often than the others; this one plays each card as often as the next. It
        also costs the moves of one card's value instead of the whole list. The moves of one
        card are the legal moves that spend it whenever the throw rule judges each card on its
        own (as :meth:`_find` relies on); otherwise, outside the play (bids, the opening), or
        when the card drawn allows nothing, the choice is uniform among all the moves."""
        if self.phase is PLAY and self.options.throw_rule != "no_other_action":
            turn = self._turn()
            hand = turn.hand
            found = turn.card_moves(hand[rng.randrange(len(hand))])
            if found:
                self._play(self.turn, found[rng.randrange(len(found))], tell=False)
                return
        self.apply_action(rng.randrange(len(self.legal_actions())))

    def clone(self) -> SeepMatch:
        """An independent copy, at a small fraction of the cost of ``copy.deepcopy``: the
        containers that moves change are copied, everything else is shared, for it is never
        changed in place (the options, the cards, the floor's loose cards and houses, the
        finished deal scores, the packets still to be dealt, the moves found for the
        position)."""
        twin = self._twin()
        twin.side_totals = list(self.side_totals)
        twin._under = set(self._under)
        twin.hands = [list(hand) for hand in self.hands]
        twin.piles = [list(pile) for pile in self.piles]
        twin.bonus = list(self.bonus)
        twin._later = list(self._later)
        return twin

    # -- bidding ------------------------------------------------------------------------------

    def _bids(self) -> list[int]:
        held = sorted({value(c) for c in self.hands[self.bidder] if value(c) in HOUSE_VALUES})
        if self.options.reveal_floor_before_bid and self.options.bid_requires_floor_feasibility:
            turn = self._new_turn(self.bidder)
            held = [v for v in held if turn.opening_moves(v, require_effect=True)]
        return held

    def _void_deal(self) -> list[Event]:
        """No bid is possible: the deal counts for nothing and the same dealer deals again."""
        shown = self.hands[self.bidder] if self.options.redeal_reveals_hand else []
        events = [Event("void", (str(self.bidder), *(c.text for c in shown)))]
        zeros = tuple(0 for _ in range(self.num_players))
        self._scores.append(DealScore(self._deals_started, zeros, self.seat_totals(), ("void",)))
        events += self._score_events(zeros)
        self._same_dealer = True
        self.phase = DEAL
        return events

    def _apply_bid(self, seat: int, move: str, tell: bool = True) -> list[Event]:
        if seat != self.bidder:
            raise IllegalMoveError(f"seat {self.bidder} bids, not seat {seat}")
        if not move.isdigit():
            raise InvalidMoveError(f"a bid is a number from 9 to 13: {move!r}")
        if int(move) not in self._bids() or move != str(int(move)):
            raise IllegalMoveError(f"cannot bid {move}: bid the value of a card you hold, 9 to 13")
        return self._bid(seat, int(move), tell)

    def _bid(self, seat: int, bid: int, tell: bool) -> list[Event]:
        """Make a legal bid and turn the floor up (when it is still face down)."""
        self.bid = bid
        self.phase = OPEN
        self._moves_cache = None
        if not self.options.reveal_floor_before_bid:
            self.loose = sort_cards(self._floor_dealt)
        if not tell:
            return []
        events = [Event("bid", (str(seat), str(bid)))]
        if not self.options.reveal_floor_before_bid:
            events.append(self._table_event())
        return events

    # -- legal moves --------------------------------------------------------------------------

    def _new_turn(self, seat: int, known: Known | None = None) -> Turn:
        if known is None:
            known = read_known(self.hands, self.loose)
        return Turn(self.options, self._keepers, self.sides[self.side_of[seat]], known, self.houses, seat)

    def _turn(self) -> Turn:
        """The moves of the seat to play, found when first asked for in this position."""
        found = self._moves_cache
        if isinstance(found, Turn):
            return found
        turn = self._moves_cache = self._new_turn(self.turn, found)
        return turn

    def _listed(self) -> list[Move]:
        """Every legal move of the open play decision, in the canonical order."""
        turn = self._moves_cache
        if not isinstance(turn, Turn):
            turn = self._turn()
        listed = turn.listed
        if listed is None:
            listed = turn.listed = turn.opening_moves(self.bid) if self.phase is OPEN else turn.plays()
        return listed

    def _tokens(self) -> tuple[str, ...]:
        """The tokens of :meth:`_listed`, written once per position."""
        turn = self._moves_cache
        if not isinstance(turn, Turn):
            turn = self._turn()
        tokens = turn.tokens
        if tokens is None:
            listed = self._listed()
            tokens = turn.tokens = tuple([f"{effect[HEAD]}{TEXTS[card]}{effect[TAIL]}" for card, effect in listed])
        return tokens

    def _listed_move(self, move: str) -> Move | None:
        """The listed move whose token is ``move``, or None. A list is short, and searching its
        tokens costs less than building a dictionary of them for the one move played."""
        tokens = self._tokens()
        try:
            return self._listed()[tokens.index(move)]
        except ValueError:
            return None

    def _find(self, seat: int, move: str) -> Move | None:
        """The legal move a token names, or None.

        Outside the opening, the moves of the one card the token spends are enough to find a
        legal move: every capture, build, cement or break a card allows (with the retention
        duty kept) is legal, and so is its throw when the throw rule judges each card on its
        own. The whole list is generated (and cached) only in the opening, when the move is
        not found that way (to refuse it, or for a throw allowed because nothing else is),
        or when it was listed already: ``verify`` checks a move at the cost of one card,
        where the referee lists every move anyway to offer them."""
        turn = self._moves_cache
        listed = turn.listed if isinstance(turn, Turn) else None
        if listed is not None and isinstance(turn, Turn) and turn.tokens is not None:
            try:
                return listed[turn.tokens.index(move)]
            except ValueError:
                return None
        if listed is None and self.phase is PLAY:
            spent = spent_card(move)
            card = Card.parse(spent) if spent is not None and is_card(spent) else None
            if card is not None and card in self.hands[seat]:
                found = self._turn().card_moves(INDEX[card])
                chosen = next((m for m in found if token(m) == move), None)
                if chosen is not None:
                    return chosen
        return self._listed_move(move)

    def _checked(self, seat: int, move: str) -> Move:
        """The legal move a play token names, or the refusal, with the misspellings of its
        cards named (:func:`~cardcli.games.notation.checked`, asked only once the token is
        refused, as the check changes nothing)."""
        try:
            return self._checked_move(seat, move)
        except MoveError:
            return checked(self._checked_move, seat, move)

    def _checked_move(self, seat: int, move: str) -> Move:
        """The legal move a play token names; changes nothing but caches, so
        :func:`~cardcli.games.notation.checked` may try a respelt token with it."""
        if seat != self.turn:
            raise IllegalMoveError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        chosen = self._find(seat, move)
        if chosen is None:
            raise self._refusal(move)
        return chosen

    def _refusal(self, move: str) -> IllegalMoveError | InvalidMoveError:
        """Why a token names no legal move: not a Seep move at all, a legal move with its cards
        ordered or grouped otherwise than offered, or a move the rules do not allow now."""
        verb, _, rest = move.partition(":")
        if verb not in VERBS or not rest:
            return InvalidMoveError(f"a Seep move is take:, build:, cement:, break: or throw: ...: {move!r}")
        return misordered(move, self._tokens()) or IllegalMoveError(f"{move} is not a legal move here")

    # -- playing ------------------------------------------------------------------------------

    def _play(self, seat: int, move: Move, told: str | None = None, tell: bool = True) -> list[Event]:
        """Play a legal move; with ``tell``, return its events (the integer actions skip them).
        ``told`` is its token when the caller has it."""
        opening = self.phase is OPEN
        before = self._moves_cache
        index, (verb, taken_loose, removed, made, cemented, owners, head, tail) = move
        card = DECK[index]
        self.hands[seat].remove(card)
        if taken_loose:
            self.loose = [c for c in self.loose if not taken_loose >> INDEX[c] & 1]
        taken_houses: list[House] = []
        if removed or made:
            houses = self.houses = dict(self.houses)
            if removed:
                taken_houses = [houses.pop(v) for v in removed if v in houses]
        if made:
            # the hand card, the loose cards taken in and the cards of the houses removed
            built = 1 << index | taken_loose
            for house in taken_houses:
                built |= mask_of(house.cards)
            self.houses[made] = House(made, mask_cards(built), cemented, owners or ALONE[seat])
        events = [Event("play", (_SEAT_TEXTS[seat], told or head + card.text + tail))] if tell else []
        emptied = not any(self.hands)
        if verb == "take":
            pile = self.piles[self.side_of[seat]]
            pile.append(card)
            if taken_loose:
                pile.extend(mask_cards(taken_loose))
            for house in taken_houses:
                pile.extend(house.cards)
            self.last_capturer = seat
            if not self.loose and not self.houses:
                bonus = sweep_bonus(self.options, card, opening, emptied and self._deal_complete())
                self.bonus[self.side_of[seat]] += bonus
                if tell:
                    events.append(Event("seep", (str(seat), str(bonus))))
        elif verb == "throw":
            self.loose = [*self.loose]
            insort(self.loose, card, key=_SORT_KEY)
        if tell:
            events.append(self._table_event())
        self._moves_cache = None
        if isinstance(before, Turn) and not emptied and not opening:
            self._moves_cache = known_after(before.known, seat, index, taken_loose, verb == "throw")
        self.turn = (seat - 1) % self.num_players  # counter-clockwise: the next seat is seat-1
        if opening:
            self.phase = PLAY
            events += self._deal_more(tell)
        elif emptied:
            events += self._deal_more(tell) if self._later else self._end_deal(tell)
        return events

    def _deal_complete(self) -> bool:
        """True when no cards are still to be dealt in this deal (after the opening)."""
        return self.phase is PLAY and not self._later

    def _deal_more(self, tell: bool = True) -> list[Event]:
        packets = self._later.pop(0)
        for seat, cards in packets.items():
            self.hands[seat] = sort_cards([*self.hands[seat], *cards])
        return self._hand_events() if tell else []

    # -- the deal's end and the baazi's -------------------------------------------------------

    def _end_deal(self, tell: bool = True) -> list[Event]:
        """Give the cards left on the floor to the last capturer, score the deal
        (:mod:`.scoring`) and end the baazi when a side has won it."""
        events = []
        leftover = [*self.loose, *(c for h in self.houses.values() for c in h.cards)]
        if leftover:
            who = "-" if self.last_capturer is None else str(self.last_capturer)
            if tell:
                events.append(Event("leftover", (who, *(c.text for c in sort_cards(leftover)))))
            if self.last_capturer is not None:
                self.piles[self.side_of[self.last_capturer]].extend(leftover)
        self.loose, self.houses = [], {}
        side_points, under = deal_points(self.options, self.piles, self.bonus)
        for i, p in enumerate(side_points):
            self.side_totals[i] += p
        points = tuple(side_points[self.side_of[s]] for s in range(self.num_players))
        notes = tuple(f"under {self.options.min_deal_points}: {side_name(self.sides, i)}" for i in under)
        out = self._under | set(under)
        self._result = baazi_result(self.sides, self.side_totals, out, self.options.baazi_target)
        if self._result is None and out:
            self._under = out
            notes += (tie_note(self.sides, self.side_totals, out),)
        self._scores.append(DealScore(self._deals_started, points, self.seat_totals(), notes))
        if tell:
            events += self._score_events(points)
        self.phase = OVER if self._result is not None else DEAL
        return events

    def adjudicate(self) -> None:
        """End the baazi between deals (the referee's deal limit): the best total wins, ties
        share the win (:func:`.scoring.adjudicated`)."""
        if self.phase is not DEAL:
            raise IllegalMoveError("a match is adjudicated only between deals")
        self._result = adjudicated(self.sides, self.side_totals, self._under)
        self.phase = OVER

    def _next_dealer(self) -> int:
        previous = step(self.dealer, self.num_players, clockwise=False)
        if self.options.dealer_rotation == "ccw_each_hand":
            return previous
        mine = self.side_totals[self.side_of[self.dealer]]
        ahead = all(mine > t for i, t in enumerate(self.side_totals) if i != self.side_of[self.dealer])
        return previous if ahead else self.dealer

    # -- events -------------------------------------------------------------------------------

    def _hand_events(self) -> list[Event]:
        return [Event("hand", tuple(map(_TEXT, h)), ALONE[s]) for s, h in enumerate(self.hands)]

    def _table_event(self) -> Event:
        told, texts = self._told
        houses = self.houses
        if houses is not told:
            texts = tuple([house.describe() for _, house in sorted(houses.items())])
            self._told = houses, texts
        return Event("table", (*map(_TEXT, self.loose), *texts))

    def _score_events(self, points: Sequence[int]) -> list[Event]:
        return [
            Event("score", (str(self._deals_started), *map(str, points))),
            Event("totals", tuple(map(str, self.seat_totals()))),
        ]


_DECK_SET = frozenset(french_52())
_SEAT_TEXTS = tuple(map(str, range(4)))
_SORT_KEY = attrgetter("sort_key")
"""Canonical card order."""
_TEXT = attrgetter("text")
