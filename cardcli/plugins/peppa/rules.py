"""Peppa (Italian Hearts): the Torino rules and the "Standard" variant.

The seed text is the specification and ``docs/rules/peppa.md`` explains every rule and option
with the seed sentence it follows. In short: four players, 13 cards each, three cards passed
simultaneously, follow suit without trumps, penalty points for hearts and the queen of spades,
and the match ends when someone's total exceeds the threshold: the two highest lose, the two
lowest win.

Seats are numbered clockwise, so seat ``i+1`` sits on seat ``i``'s left; the first leader sits
at the dealer's right (``dealer-1``) in both directions of play.
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from ...cards import Card, french_52, sort_cards, token_card
from ...errors import IllegalMoveError, InvalidMoveError
from ...games import options as opt
from ...games.card_bits import DECK, SUIT_MASKS, bit, cards, indices, mask_of, texts
from ...games.combos import Combinations, positions
from ...games.notation import ORDER, MisorderedMove, checked
from ...games.base import (
    DealScore,
    Decision,
    Event,
    MatchBase,
    Outcome,
    PhaseBase,
    Variant,
)
from ...games.tricks import MaskHands, TrickPlay, seat_order, step

NUM_PLAYERS = 4
HAND_SIZE = 13
PASS_SIZE = 3
QUEEN_OF_SPADES = Card.parse("QS")

_TORINO_HEARTS = {14: 5, 13: 4, 12: 3, 11: 2}
_STANDARD_HEARTS = {14: 50, 13: 40, 12: 30, 11: 20, 10: 10, 9: 10, 8: 10, 7: 10}


def _values(queen: int, hearts: dict[int, int], other_heart: int) -> dict[Card, int]:
    table = dict.fromkeys(french_52(), 0)
    table[QUEEN_OF_SPADES] = queen
    for c in french_52():
        if c.suit == "H":
            table[c] = hearts.get(c.rank, other_heart)
    return table


CARD_VALUES: dict[str, dict[Card, int]] = {
    "torino": _values(13, _TORINO_HEARTS, 1),
    "standard": _values(60, _STANDARD_HEARTS, 5),
    "international": _values(13, {}, 1),
}
"""Penalty points per card under each table: 36 per deal (Torino), 265 (Standard), and 26 for
the Hearts that other programs and the literature play (every heart 1, Q♠ 13), which is in
neither seed: with it an outside Hearts program can be told the values it already plays, and
the house player measured against it on its own rules."""

PASS_OFFSETS = {"left": 1, "right": -1, "across": 2, "hold": 0}
SEATS_CHOICES = ("random", "0", "1", "2", "3")


@attrs.frozen
class PeppaOptions:
    """Every Peppa house rule. Defaults are Torino's; the Standard variant overrides four."""

    play_direction: str = opt.option(
        "cw",
        "direction of play: cw (clockwise, as the seed says) or ccw (the usual Italian way, dealer last)",
        choices=("cw", "ccw"),
    )
    dealer_rotation: str = opt.option(
        "left",
        "the next dealer: the seat on the dealer's left, or the next seat in the direction of play",
        choices=("left", "play_direction"),
    )
    first_dealer: str = opt.option(
        "random", "the first dealer: drawn from the seed, or a seat number", choices=SEATS_CHOICES
    )
    pass_cycle: tuple[str, ...] = opt.option(
        ("right",),
        "where the three cards go, hand by hand, repeating (hold = no pass)",
        choices=("left", "right", "across", "hold"),
    )
    card_values: str = opt.option(
        "torino",
        "penalty table: torino (Q♠ 13, A♥ 5 ... 36 a deal), standard (Q♠ 60, A♥ 50 ... 265 a deal) "
        "or international (Q♠ 13, each heart 1: 26 a deal, as most Hearts programs play; in no seed)",
        choices=("torino", "standard", "international"),
    )
    cappotto: str = opt.option(
        "all_penalty_cards",
        "what makes a cappotto (0 to its taker, a full deal's points to each other player)",
        choices=("all_penalty_cards", "all_tricks"),
    )
    end_threshold: int = opt.option(
        100, "the match ends when a total exceeds this", minimum=1
    )
    end_inclusive: bool = opt.option(
        False, "end when a total reaches the threshold, not only when it exceeds it"
    )
    boundary_tie: str = opt.option(
        "play_on",
        "2nd and 3rd highest totals equal at the end: play_on deals again; shared_loss: every seat at or above the 2nd-highest total loses; shared_win: every seat at or below the 3rd-highest wins",
        choices=("play_on", "shared_loss", "shared_win"),
    )
    two_of_clubs_leads: bool = opt.option(
        False, "the holder of 2♣ after the pass leads it to the first trick"
    )
    no_points_first_trick: bool = opt.option(
        False, "no heart and no Q♠ in the first trick unless nothing else is legal"
    )
    hearts_must_be_broken: bool = opt.option(
        False, "no heart led before a heart was played, unless the leader holds only hearts"
    )
    queen_breaks_hearts: bool = opt.option(
        False, "with hearts_must_be_broken, a played Q♠ breaks hearts too"
    )
    deal_order: str = opt.option(
        "one_at_a_time",
        "how the shuffled deck is dealt: one card or 13 cards at a time, from the dealer's right in the direction of play",
        choices=("one_at_a_time", "thirteen_at_a_time"),
    )


VARIANTS = (
    Variant("torino", "Circolo della Peppa, Torino: pass right every hand, 36 a deal, end over 100"),
    Variant(
        "standard",
        "pass left, right, across; 265 a deal; cappotto = all 13 tricks; end over 1000",
        {
            "pass_cycle": ("left", "right", "across"),
            "card_values": "standard",
            "cappotto": "all_tricks",
            "end_threshold": 1000,
        },
    ),
)


class Phase(PhaseBase):
    """Where a match stands (:class:`PhaseBase`); the constants below are its members."""

    DEAL = "deal"
    PASS = "pass"
    PLAY = "play"
    OVER = "over"


DEAL = Phase.DEAL
PASS = Phase.PASS
PLAY = Phase.PLAY
OVER = Phase.OVER


HEARTS = SUIT_MASKS["H"]
QUEEN_BIT = bit(QUEEN_OF_SPADES)
TWO_OF_CLUBS_BIT = bit(Card.parse("2C"))
FULL_DECK = mask_of(french_52())
SEAT_TEXTS = tuple(str(s) for s in range(NUM_PLAYERS))
_POINTS = {name: tuple(table[c] for c in DECK) for name, table in CARD_VALUES.items()}
"""Each penalty table by card index."""
_PENALTY_CARDS = {name: sum(1 << i for i, v in enumerate(points) if v) for name, points in _POINTS.items()}
_PASSES = positions(HAND_SIZE, PASS_SIZE)


def pass_token(items: Sequence[Card]) -> str:
    """The canonical token of a pass: its three cards in canonical order joined by ``+``."""
    return "+".join(c.text for c in sort_cards(items))


class PeppaMatch(MaskHands, MatchBase):
    """A whole Peppa match, deal after deal, until the end rule says who won and lost.

    Hands are bit masks (:mod:`cardcli.games.card_bits`). Two ways in share one set of rules:
    the text moves of the protocol (:meth:`decisions`, :meth:`apply`, which also produce the
    events), and integer actions for search and playouts (:meth:`current_player`,
    :meth:`legal_actions`, :meth:`apply_action`), in the manner of OpenSpiel, which skip the
    events. A play action is the card's index in ``card_bits.DECK``; a pass action is the
    index of the three-card combination in :meth:`decisions`' pass list.
    """

    phase: Phase

    num_players = NUM_PLAYERS

    def __init__(self, options: PeppaOptions, num_players: int = NUM_PLAYERS, first_dealer: int = 0):
        super().__init__()
        if num_players != NUM_PLAYERS:
            raise ValueError("Peppa is played by four players")
        self.options = options
        self._points = _POINTS[options.card_values]
        self._penalty_cards = _PENALTY_CARDS[options.card_values]
        self.deal_total = sum(self._points)
        self.clockwise = options.play_direction == "cw"
        self._two_of_clubs_leads = options.two_of_clubs_leads
        self._clean_first_trick = options.no_points_first_trick
        self._hearts_must_be_broken = options.hearts_must_be_broken
        self._breaking = HEARTS | QUEEN_BIT if options.queen_breaks_hearts else HEARTS
        self.phase = DEAL
        self.dealer = first_dealer
        self.totals = [0] * NUM_PLAYERS
        self.hand_masks = [0] * NUM_PLAYERS
        self._dealt = (0,) * NUM_PLAYERS
        self.pass_direction = "hold"
        self.passes: dict[int, int] = {}
        self.leader = 0
        self.tricks = TrickPlay(self.hand_masks, 0, self.clockwise, self._trick_points)
        self.hearts_broken = False
        self._result: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    # -- the protocol every game offers -------------------------------------------------------

    @property
    def dealt_hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(cards(m) for m in self._dealt)

    def deal_facts(self) -> dict[str, Any]:
        return {"hands": [list(texts(m)) for m in self._dealt]}

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        if self.phase is not DEAL:
            raise IllegalMoveError("no deal is due now")
        if len(deck) != 52 or mask_of(deck) != FULL_DECK:
            raise IllegalMoveError("a Peppa deal needs the 52 cards, each once")
        if self._deals_started:
            self.dealer = self._next_dealer()
        self._deals_started += 1
        leader = (self.dealer - 1) % NUM_PLAYERS
        order = seat_order(leader, NUM_PLAYERS, self.clockwise)
        hands = [0] * NUM_PLAYERS
        for slot, seat in enumerate(order):
            if self.options.deal_order == "one_at_a_time":
                hands[seat] = mask_of(deck[slot::NUM_PLAYERS])
            else:
                hands[seat] = mask_of(deck[slot * HAND_SIZE:(slot + 1) * HAND_SIZE])
        self.hand_masks = hands
        self._dealt = tuple(hands)
        self.leader = leader
        self.hearts_broken = False
        self.passes = {}
        cycle = self.options.pass_cycle
        self.pass_direction = cycle[(self._deals_started - 1) % len(cycle)]
        events = [Event("deal", (str(self._deals_started), str(self.dealer)))]
        events += [Event("hand", texts(h), frozenset({s})) for s, h in enumerate(hands)]
        events.append(Event("passing", (self.pass_direction,)))
        if self.pass_direction == "hold":
            events += self._start_play()
        else:
            self.phase = PASS
        return events

    def decisions(self) -> tuple[Decision, ...]:
        if self.phase is PASS:
            return tuple(
                Decision(s, "pass", Combinations(texts(self.hand_masks[s]), PASS_SIZE))
                for s in range(NUM_PLAYERS)
                if s not in self.passes
            )
        if self.phase is PLAY:
            return (Decision(self.tricks.turn, "play", texts(self._turn_mask())),)
        return ()

    def acting(self) -> tuple[tuple[int, str], ...]:
        if self.phase is PASS:
            return tuple((s, "pass") for s in range(NUM_PLAYERS) if s not in self.passes)
        if self.phase is PLAY:
            return ((self.tricks.turn, "play"),)
        return ()

    def apply(self, seat: int, move: str) -> list[Event]:
        if self.phase is PLAY:
            self._play(seat, checked(self._checked_card, seat, move))
            events = self.tricks.play_events()
            return events + self._score_events() if self.phase is not PLAY else events
        if self.phase is PASS:
            return self._apply_pass(seat, move)
        raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def apply_quietly(self, seat: int, move: str) -> None:
        if self.phase is PLAY:
            self._play(seat, checked(self._checked_card, seat, move))
        elif self.phase is PASS:
            self._pass(seat, checked(self._checked_pass, seat, move))
        else:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers = self._result
        if forfeits:
            winners, losers = self._with_forfeits(forfeits)
        return Outcome(
            scores=tuple(self.totals),
            winners=winners,
            losers=losers,
            forfeits=tuple(sorted(forfeits)),
            lower_is_better=True,
        )

    def clone(self) -> "PeppaMatch":
        """An independent copy: the totals, hands, passes and trick play are copied, every
        immutable value (options, point tables, deal scores) is shared."""
        twin = self._twin()
        twin.totals = list(self.totals)
        twin.passes = dict(self.passes)
        self._clone_play(twin, twin._trick_points)
        return twin

    # -- integer actions ----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act: during the simultaneous pass, the lowest seat that has not passed
        (nobody sees a pass before all four are made, so taking them in seat order is the same
        game); -1 when a deal is due or the match is over."""
        if self.phase is PLAY:
            return self.tricks.turn
        if self.phase is PASS:
            return next(s for s in range(NUM_PLAYERS) if s not in self.passes)
        return -1

    def legal_actions(self) -> Sequence[int]:
        """The actions of :meth:`current_player`: card indices to play, or pass indices."""
        if self.phase is PLAY:
            return indices(self._turn_mask())
        if self.phase is PASS:
            return range(len(_PASSES))
        return ()

    def apply_action(self, action: int) -> None:
        """Apply an action of :meth:`current_player`; refuse an illegal one and change nothing."""
        if self.phase is PLAY:
            if not 0 <= action < 52 or not self._turn_mask() >> action & 1:
                raise IllegalMoveError(f"action {action} is not legal now")
            self._play(self.tricks.turn, action)
        elif self.phase is PASS:
            if not 0 <= action < len(_PASSES):
                raise IllegalMoveError(f"action {action} is not legal now")
            seat = self.current_player()
            held = indices(self.hand_masks[seat])
            self._pass(seat, sum(1 << held[p] for p in _PASSES[action]))
        else:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    # -- rules --------------------------------------------------------------------------------

    def pass_target(self, seat: int) -> int:
        return (seat + PASS_OFFSETS[self.pass_direction]) % NUM_PLAYERS

    def _turn_mask(self) -> int:
        return self.tricks.legal(self._legal_mask)

    def _legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now, as a mask."""
        tricks = self.tricks
        first_trick = tricks.number == 0
        allowed = tricks.follow(seat)
        if not tricks.trick:
            if first_trick and self._two_of_clubs_leads:
                return allowed & TWO_OF_CLUBS_BIT
            if self._hearts_must_be_broken and not self.hearts_broken:
                allowed = allowed & ~HEARTS or allowed
        if first_trick and self._clean_first_trick:
            allowed = allowed & ~(HEARTS | QUEEN_BIT) or allowed
        return allowed

    def _apply_pass(self, seat: int, move: str) -> list[Event]:
        given = checked(self._checked_pass, seat, move)
        self._pass(seat, given)
        events = [Event("passed", (str(self.pass_target(seat)), *texts(given)), frozenset({seat}))]
        if self.phase is PASS:
            return events
        for giver, cards_given in sorted(self.passes.items()):
            events.append(
                Event("received", (str(giver), *texts(cards_given)), frozenset({self.pass_target(giver)}))
            )
        return events + self.tricks.start()

    def _checked_pass(self, seat: int, move: str) -> int:
        """The cards of a pass token as a mask, once the token is checked; changes nothing, so
        :func:`~cardcli.games.notation.checked` may try a respelt token with it."""
        if seat in self.passes or not 0 <= seat < NUM_PLAYERS:
            raise IllegalMoveError(f"seat {seat} has no pass to make")
        parts = move.split("+")
        chosen = tuple(token_card(p) for p in parts)
        if len(chosen) != PASS_SIZE or len(set(chosen)) != PASS_SIZE:
            raise InvalidMoveError(f"a pass is three different cards joined by '+': {move!r}")
        given = mask_of(chosen)
        missing = texts(given & ~self.hand_masks[seat])
        if missing:
            raise IllegalMoveError(f"cannot pass {' '.join(missing)}: not in hand")
        if "+".join(texts(given)) != move:
            raise MisorderedMove((ORDER,), pass_token(chosen))
        return given

    def _pass(self, seat: int, given: int) -> None:
        """Set aside a checked pass; exchange the cards once all four are made."""
        self.passes[seat] = given
        if len(self.passes) < NUM_PLAYERS:
            return
        hands = self.hand_masks
        for giver, cards_given in self.passes.items():
            hands[giver] &= ~cards_given
        for giver, cards_given in self.passes.items():
            hands[self.pass_target(giver)] |= cards_given
        self._start_play()

    def _start_play(self) -> list[Event]:
        self.phase = PLAY
        leader = self.leader
        if self._two_of_clubs_leads:
            leader = next(s for s, h in enumerate(self.hand_masks) if h & TWO_OF_CLUBS_BIT)
        self.tricks = TrickPlay(self.hand_masks, leader, self.clockwise, self._trick_points)
        return self.tricks.start()

    def _trick_points(self, taken: int, last: bool) -> int:
        taken &= self._penalty_cards
        return sum(self._points[i] for i in indices(taken)) if taken else 0

    def _checked_card(self, seat: int, move: str) -> int:
        """The index of the card a play token names, once the play is checked; changes nothing."""
        index = self.tricks.index_for(seat, move)
        if not self._turn_mask() >> index & 1:
            raise IllegalMoveError(f"{move} may not be played now: {self._why_not(seat)}")
        return index

    def _play(self, seat: int, index: int) -> None:
        """Play a checked card; score the deal after its last trick."""
        if 1 << index & self._breaking:
            self.hearts_broken = True
        tricks = self.tricks
        tricks.play(seat, index)
        if tricks.number == HAND_SIZE:
            self._end_deal()

    def _why_not(self, seat: int) -> str:
        first = self.tricks.number == 0
        if self.tricks.holds_led_suit(seat):
            return "must follow suit"
        if first and self._two_of_clubs_leads and not self.tricks.trick:
            return "the first trick is led with 2C"
        if first and self._clean_first_trick:
            return "no points in the first trick"
        return "hearts are not broken"

    def _end_deal(self) -> None:
        points = [self._trick_points(taken, True) for taken in self.tricks.taken]
        notes: tuple[str, ...] = ()
        hero = self._cappotto_seat()
        if hero is not None:
            points = [0 if s == hero else self.deal_total for s in range(NUM_PLAYERS)]
            notes = (f"cappotto {hero}",)
        self.totals = [t + p for t, p in zip(self.totals, points)]
        self._scores.append(DealScore(self._deals_started, tuple(points), tuple(self.totals), notes))
        self._result = self._match_result()
        self.phase = DEAL if self._result is None else OVER

    def _score_events(self) -> list[Event]:
        """The events of the deal :meth:`_end_deal` has just scored."""
        score = self._scores[-1]
        events = [Event("cappotto", (note.split()[1],)) for note in score.notes]
        events.append(Event("score", (str(score.number), *map(str, score.points))))
        events.append(Event("totals", tuple(map(str, score.totals))))
        return events

    def _cappotto_seat(self) -> int | None:
        if self.options.cappotto == "all_tricks":
            return next((s for s, n in enumerate(self.tricks.tricks_won) if n == HAND_SIZE), None)
        penalty = self._penalty_cards
        return next((s for s, t in enumerate(self.tricks.taken) if penalty & t == penalty), None)

    def _match_result(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Winners and losers if the match is over after this deal, else None."""
        threshold = self.options.end_threshold
        if self.options.end_inclusive:
            ended = max(self.totals) >= threshold
        else:
            ended = max(self.totals) > threshold
        if not ended:
            return None
        return self._ranking(self.options.boundary_tie)

    def adjudicate(self) -> None:
        """End the match between deals (the referee's deal limit): the two highest totals lose
        as if the threshold had been passed; a tie at the boundary cannot be played on, so the
        tied seats share the loss unless the option says they share the win."""
        if self.phase is not DEAL:
            raise IllegalMoveError("a match is adjudicated only between deals")
        tie = "shared_win" if self.options.boundary_tie == "shared_win" else "shared_loss"
        self._result = self._ranking(tie)
        self.phase = OVER

    def _ranking(self, tie: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Two highest totals lose, two lowest win; ``tie`` decides a tie at the boundary."""
        ranked = sorted(self.totals, reverse=True)
        second, third = ranked[1], ranked[2]
        seats = range(NUM_PLAYERS)
        if second != third:
            losers = tuple(s for s in seats if self.totals[s] >= second)
        elif tie == "play_on":
            return None
        elif tie == "shared_loss":
            losers = tuple(s for s in seats if self.totals[s] >= second)
        else:
            losers = tuple(s for s in seats if self.totals[s] > third)
        return tuple(s for s in seats if s not in losers), losers

    def _with_forfeits(self, forfeits: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A forfeited seat loses whatever its score; the rest of the two losing places go to
        the highest totals among the others, every seat tied for the last losing place losing."""
        others = [s for s in range(NUM_PLAYERS) if s not in forfeits]
        places = max(0, 2 - len(forfeits))
        losers = set(forfeits)
        if places and others:
            cut = sorted((self.totals[s] for s in others), reverse=True)[places - 1]
            losers |= {s for s in others if self.totals[s] >= cut}
        return tuple(s for s in range(NUM_PLAYERS) if s not in losers), tuple(sorted(losers))

    def _next_dealer(self) -> int:
        if self.options.dealer_rotation == "left":
            return (self.dealer + 1) % NUM_PLAYERS
        return step(self.dealer, NUM_PLAYERS, self.clockwise)
