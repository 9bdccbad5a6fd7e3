"""Seep (Sip, Siv): the Punjabi fishing game with houses, for 4 players in partnerships and the
2- and 3-player, 30-point, no-cementing and variable-target variants.

``docs/rules/seep.md`` explains every rule and option with the seed sentence or RULES.md item
(S1..S31) it follows. Seats are numbered clockwise and Seep is played counter-clockwise, so the
next player is ``seat-1``; the bidder (house builder) sits at the dealer's right, ``dealer-1``.

Every legal move is generated as a :data:`Move` that carries its whole effect (cards leaving
the floor, houses removed, the house made), so applying a move is the same few lines for every
kind of action, and a move is legal exactly when it is in the generated set.

Moves are generated over bit masks (:mod:`card_bits`, :mod:`seep_floor`) by a
:class:`_Turn`, once per position: the moves a card allows depend on its capture value only,
so each value's moves are found once and paired with each card of that value (nothing is
memoised from turn to turn: :mod:`seep_floor` says why), and the retention duty is settled
per value before any move is made. Two ways in share the rules: the protocol's text moves
(:meth:`SeepMatch.decisions`, :meth:`SeepMatch.apply`, with events) and integer actions for
search (:meth:`SeepMatch.current_player`, :meth:`SeepMatch.legal_actions`,
:meth:`SeepMatch.apply_action`), which are indices into the same canonical list and write
neither tokens nor events; :meth:`SeepMatch.clone` copies a state for a search.
"""

from __future__ import annotations

import random
from bisect import bisect, insort
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import Any, Sequence

import attrs

from ...cards import Card, french_52, is_card, sort_cards
from ...errors import IllegalMoveError, InvalidMoveError, MoveError, OptionError
from .. import options as opt
from ..base import (
    DealScore,
    Decision,
    Event,
    MatchBase,
    Outcome,
    Variant,
)
from ..card_bits import DECK, INDEX, TEXTS, mask_of
from ..card_bits import cards as mask_cards
from ..notation import checked, misordered, spent_card
from .floor import (
    EMPTY_PACKINGS,
    GROUP_TEXTS,
    VALUES,
    floor_groups,
    floor_sums,
    mask_packings,
    pack_groups,
    value,
)
from ..sides import best, seats, side_map, sides_for, with_forfeits
from ..tricks import seat_order, step

HOUSE_VALUES = range(9, 14)
VERBS = ("take", "build", "cement", "break", "throw")
VERB_RANK = {verb: rank for rank, verb in enumerate(VERBS)}
OPENING_KINDS = ("build_bid_value", "capture_with_bid_card", "throw_bid_card")
SWEEP_DEFAULTS = (50, 25, 0)
"""``sweep``, ``sweep_first`` and ``sweep_last`` as the seed scores them (S18)."""
SCORINGS = ("standard100", "thirty", "casual_ten_two")
"""The ways of counting a deal's card points (S29, S31)."""


@attrs.frozen
class SeepOptions:
    """Every Seep house rule, with the defaults of RULES.md section 2 (S-numbers in the docs)."""

    first_dealer: str = opt.option(
        "random", "the first dealer: drawn from the seed, or a seat number", choices=("random", "0", "1", "2", "3")
    )
    reveal_floor_before_bid: bool = opt.option(False, "turn the floor up before the bid instead of after it (S2)")
    bid_requires_floor_feasibility: bool = opt.option(
        False, "with the floor revealed, a bid must allow an opening build or capture of its value (S2)"
    )
    redeal_reveals_hand: bool = opt.option(True, "a bidder who cannot bid shows the four cards to all (S3)")
    opening_allowed: tuple[str, ...] = opt.option(
        OPENING_KINDS, "what the bidder's opening play may be (S4)", choices=OPENING_KINDS
    )
    capture_must_be_maximal: bool = opt.option(
        True, "a capture takes groups until no group of the card's value is left (S6)"
    )
    throw_rule: str = opt.option(
        "card_cannot_capture",
        "a card may be thrown when it captures nothing, or only when no other move exists (S7)",
        choices=("card_cannot_capture", "no_other_action"),
    )
    owner_may_throw: bool = opt.option(True, "a house owner may throw (S8)")
    last_key_capture_only: bool = opt.option(
        True, "after every move each owner still holds a card of the house value (S8); off: only the mover, for a house the move makes or changes"
    )
    retention_scope: str = opt.option(
        "player", "whose cards keep a house: each owner's own, or the owner's team's (S9)", choices=("player", "team")
    )
    opponent_cement_makes_coowner: bool = opt.option(True, "an opponent who cements a house becomes its co-owner (S12)")
    break_partner_house: bool = opt.option(True, "a player may break the partner's ordinary house (S13)")
    break_own_house: bool = opt.option(False, "a player may break a house they own (S13)")
    cementing: bool = opt.option(True, "houses can be cemented; off = the no-cementing variant (S30)")
    max_houses: int = opt.option(0, "most houses on the floor at once; 0 = no limit (S31)", minimum=0)
    sweep: int = opt.option(SWEEP_DEFAULTS[0], "bonus for a seep (a capture that empties the floor) (S18)", minimum=0)
    sweep_first: int = opt.option(SWEEP_DEFAULTS[1], "seep bonus on the bidder's opening play (S18)", minimum=0)
    sweep_last: int = opt.option(SWEEP_DEFAULTS[2], "seep bonus on the last play of the deal (S18)", minimum=0)
    min_deal_points: int = opt.option(
        9, "a side scoring fewer points in a deal loses the baazi at once; 0 = off (S20)", minimum=0
    )
    min_includes_sweeps: bool = opt.option(True, "seep bonuses count towards the minimum (S20)")
    baazi_target: int = opt.option(100, "the lead that wins the baazi (S21)", minimum=1)
    dealer_rotation: str = opt.option(
        "ccw_each_hand",
        "the next dealer: the previous bidder, or pagat's rule (the dealer deals again while their side is not ahead) (S22)",
        choices=("ccw_each_hand", "pagat_score_based"),
    )
    scoring: str = opt.option(
        "standard100",
        "card points: 100 a deal; the 30-point version; or 10♦ = 2 with 4 for most cards (S29, S31)",
        choices=SCORINGS,
    )
    majority_basis: str = opt.option(
        "spades", "30-point majority bonus for most spades (7+) or most cards (27+) (S29)", choices=("spades", "cards")
    )
    two_player_halves: bool = opt.option(
        True, "2 players: two half-deals of 12 cards onto the same floor; off: 24 cards dealt at once (S27)"
    )
    deal_packet: int = opt.option(4, "cards per packet when the rest of the pack is dealt (S5)", minimum=1)

    def __attrs_post_init__(self) -> None:
        """Refuse the option sets that cannot mean anything, with the reason, before a match
        starts (every command builds its options first)."""
        if self.scoring == "thirty" and (self.sweep, self.sweep_first, self.sweep_last) != SWEEP_DEFAULTS:
            raise OptionError("scoring=thirty scores a seep at the sweeping card's value (0 on the last play): "
                              "sweep, sweep_first and sweep_last do not apply to it")
        if (self.reveal_floor_before_bid and self.bid_requires_floor_feasibility
                and set(self.opening_allowed) == {"throw_bid_card"}):
            raise OptionError("bid_requires_floor_feasibility needs an opening build or capture of the bid, and "
                              "opening_allowed=throw_bid_card allows neither: every deal would be void")

    def warnings(self) -> tuple[str, ...]:
        """Options that are set but change nothing, said when a match starts."""
        if self.bid_requires_floor_feasibility and not self.reveal_floor_before_bid:
            return ("bid_requires_floor_feasibility has no effect while the floor is face down at the bid "
                    "(set reveal_floor_before_bid=true too)",)
        return ()


VARIANTS = (
    Variant("standard", "spades, aces and 10♦ make 100 a deal; seep 50; baazi at a lead of 100"),
    Variant(
        "thirty",
        "30-point version: 10♦ 12, 9♠ 9, 2♠ 1, aces 1, 4 for most spades; seep = the card's value",
        {"scoring": "thirty", "min_deal_points": 0},
    ),
    Variant("no_cementing", "houses can never be cemented and are always breakable", {"cementing": False}),
)


@attrs.frozen
class House:
    value: int
    cards: tuple[Card, ...]
    cemented: bool
    owners: frozenset[int]
    _text: str | None = attrs.field(default=None, init=False, eq=False, repr=False)
    """:meth:`describe`, written when first asked for: a house stays on the floor for many
    plays, and the floor is told after each (a plain slot, which costs less to read than a
    cached property of a slotted class)."""

    def describe(self) -> str:
        """``h12:c:0,2:5C+3D+4H+QC``: value, cemented (c) or ordinary (o), owners, cards."""
        text = self._text
        if text is None:
            kind = "c" if self.cemented else "o"
            owners = ",".join(map(str, sorted(self.owners)))
            text = f"h{self.value}:{kind}:{owners}:" + "+".join(map(_TEXT, self.cards))
            object.__setattr__(self, "_text", text)
        return text


Effect = tuple[str, int, tuple[int, ...], int, bool, "frozenset[int] | None", str, str]
"""What a legal move does to the floor, the same whichever card of its capture value plays
it: a turn finds each value's effects once and pairs them with each card of the value (a
:data:`Move`). A bare tuple, as a turn makes many and plays one; its fields, in order:

* ``verb``: ``take``, ``build``, ``cement``, ``break`` or ``throw``;
* ``floor``: the loose cards that leave the floor (captured, or built into a house), a mask;
* ``removed``: the values of the houses that leave the floor (captured, or broken into
  another house);
* ``made``: the value of the house made (0: none), ``cemented`` and ``owners`` (its owners;
  None for the mover alone, which lets a build be the same effect for every seat, and spares
  most effects a container the garbage collector would have to walk).
  The house itself is built only when the move is played: its cards are the hand card, the
  loose cards taken and the cards of the houses removed;
* ``head`` and ``tail``: the token around the hand card, ``head + card + tail``; the token is
  written only when asked for (the integer actions never ask).
"""

MADE, HEAD_AND_TAIL = 3, itemgetter(6, 7)
"""Where an :data:`Effect` keeps the value of the house made, and its token's sort key for any
one card."""

Move = tuple[int, Effect]
"""A legal move: the hand card (its index in ``card_bits.DECK``) and its effect."""


def token(move: Move) -> str:
    """The move's protocol token, ``take:JS:2C+3D+6H,h11``."""
    card, effect = move
    return effect[6] + TEXTS[card] + effect[7]


_THROWS: tuple[Move, ...] = tuple(
    (card, ("throw", 0, (), 0, False, None, "throw:", "")) for card in range(len(DECK))
)
"""The throw of each card: the same move in every position."""


_Result = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A match's result as seats: (winners, losers, draws)."""


class Phase:
    DEAL = "deal"
    BID = "bid"
    OPEN = "open"
    PLAY = "play"
    OVER = "over"


def _rounds(options: SeepOptions, num_players: int) -> list[int]:
    """Cards each player gets after the opening, round by round (a round is a half-deal)."""
    if num_players == 4:
        return [8]
    if num_players == 3:
        return [12]
    return [8, 12] if options.two_player_halves else [20]


class SeepMatch(MatchBase):
    """A whole baazi of Seep."""

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
        self.phase = Phase.DEAL
        self.side_totals = [0] * len(self.sides)
        self._same_dealer = False
        self._result: _Result | None = None
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
        self._moves_cache: _Turn | Known | None = None
        """The moves of the position (a :class:`_Turn`), found when first asked for. After
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
        if self.phase != Phase.DEAL:
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
        self.phase = Phase.BID
        return events

    def decisions(self) -> tuple[Decision, ...]:
        if self.phase == Phase.PLAY or self.phase == Phase.OPEN:
            return (Decision(self.turn, "play", self._tokens()),)
        if self.phase == Phase.BID:
            return (Decision(self.bidder, "bid", tuple(str(v) for v in self._bids())),)
        return ()

    def acting(self) -> tuple[tuple[int, str], ...]:
        if self.phase == Phase.BID:
            return ((self.bidder, "bid"),)
        if self.phase in (Phase.OPEN, Phase.PLAY):
            return ((self.turn, "play"),)
        return ()

    def apply(self, seat: int, move: str) -> list[Event]:
        if self.phase == Phase.PLAY or self.phase == Phase.OPEN:
            turn = self._moves_cache
            if seat == self.turn and isinstance(turn, _Turn) and turn.tokens is not None and turn.listed:
                # one of the moves decisions() offered, as a referee plays them
                try:
                    offered = turn.tokens.index(move)
                except ValueError:
                    pass
                else:
                    return self._play(seat, turn.listed[offered], move)
            return self._play(seat, self._checked(seat, move), move)
        if self.phase == Phase.BID:
            return self._apply_bid(seat, move)
        raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def apply_quietly(self, seat: int, move: str) -> None:
        if self.phase == Phase.BID:
            self._apply_bid(seat, move, tell=False)
        elif self.phase in (Phase.OPEN, Phase.PLAY):
            self._play(seat, self._checked(seat, move), tell=False)
        else:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers, draws = self._result
        if forfeits:
            winners, losers, draws = self._with_forfeits(forfeits)
        return Outcome(self.seat_totals(), winners, losers, draws, tuple(sorted(forfeits)))

    def seat_totals(self) -> tuple[int, ...]:
        return tuple(self.side_totals[self.side_of[s]] for s in range(self.num_players))

    # -- integer actions and clones, for search -------------------------------------------------

    def current_player(self) -> int:
        """The seat to act: the bidder during the bid, the player to play after it; -1 when a
        deal is due or the match is over."""
        if self.phase == Phase.BID:
            return self.bidder
        if self.phase in (Phase.OPEN, Phase.PLAY):
            return self.turn
        return -1

    def legal_actions(self) -> Sequence[int]:
        """The actions of :meth:`current_player`: ``k`` is the ``k``-th move :meth:`decisions`
        offers (a bid, or a play in the canonical order), so they are always ``range(n)``."""
        if self.phase == Phase.PLAY or self.phase == Phase.OPEN:
            return range(len(self._listed()))
        if self.phase == Phase.BID:
            return range(len(self._bids()))
        return ()

    def apply_action(self, action: int) -> None:
        """Apply an action of :meth:`current_player`, without events; refuse an illegal one
        with IllegalMoveError and change nothing."""
        if self.phase == Phase.PLAY or self.phase == Phase.OPEN:
            moves = self._listed()
            if not 0 <= action < len(moves):
                raise IllegalMoveError(f"action {action} is not legal now: there are {len(moves)} moves")
            self._play(self.turn, moves[action], tell=False)
        elif self.phase == Phase.BID:
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
        if self.phase == Phase.PLAY and self.options.throw_rule != "no_other_action":
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
            held = [v for v in held if self._opening_moves(turn, v, require_effect=True)]
        return held

    def _void_deal(self) -> list[Event]:
        """No bid is possible: the deal counts for nothing and the same dealer deals again."""
        shown = self.hands[self.bidder] if self.options.redeal_reveals_hand else []
        events = [Event("void", (str(self.bidder), *(c.text for c in shown)))]
        zeros = tuple(0 for _ in range(self.num_players))
        self._scores.append(DealScore(self._deals_started, zeros, self.seat_totals(), ("void",)))
        events += self._score_events(zeros)
        self._same_dealer = True
        self.phase = Phase.DEAL
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
        self.phase = Phase.OPEN
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

    def _new_turn(self, seat: int, known: Known | None = None) -> _Turn:
        if known is None:
            known = _read_known(self.hands, self.loose)
        return _Turn(self.options, self._keepers, self.sides[self.side_of[seat]], known, self.houses, seat)

    def _turn(self) -> _Turn:
        """The moves of the seat to play, found when first asked for in this position."""
        found = self._moves_cache
        if isinstance(found, _Turn):
            return found
        turn = self._moves_cache = self._new_turn(self.turn, found)
        return turn

    def _listed(self) -> list[Move]:
        """Every legal move of the open play decision, in the canonical order."""
        turn = self._moves_cache
        if not isinstance(turn, _Turn):
            turn = self._turn()
        listed = turn.listed
        if listed is None:
            listed = turn.listed = self._opening_moves(turn, self.bid) if self.phase == Phase.OPEN else turn.plays()
        return listed

    def _tokens(self) -> tuple[str, ...]:
        """The tokens of :meth:`_listed`, written once per position."""
        turn = self._moves_cache
        if not isinstance(turn, _Turn):
            turn = self._turn()
        tokens = turn.tokens
        if tokens is None:
            tokens = turn.tokens = tuple([f"{effect[6]}{TEXTS[card]}{effect[7]}" for card, effect in self._listed()])
        return tokens

    def _listed_move(self, move: str) -> Move | None:
        """The listed move whose token is ``move``, or None. A list is short, and searching its
        tokens costs less than building a dictionary of them for the one move played."""
        tokens = self._tokens()
        try:
            return self._listed()[tokens.index(move)]
        except ValueError:
            return None

    def _opening_moves(self, turn: _Turn, bid: int, require_effect: bool = False) -> list[Move]:
        """The bidder's opening play (S4), in the canonical order; with ``require_effect``,
        only builds and captures (the bid's feasibility, S2). When the kinds
        ``opening_allowed`` allows give no move, every kind is offered under the usual rules,
        the compulsory capture included (Svolgimento 7: "Se la carta giocata può catturare
        ... devi catturarla")."""
        allowed = set(self.options.opening_allowed)
        if require_effect:
            allowed.discard("throw_bid_card")
            return turn.openings(bid, allowed)
        return _canonical(turn.openings(bid, allowed) or turn.openings(bid, set(OPENING_KINDS)))

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
        listed = turn.listed if isinstance(turn, _Turn) else None
        if listed is not None and isinstance(turn, _Turn) and turn.tokens is not None:
            try:
                return listed[turn.tokens.index(move)]
            except ValueError:
                return None
        if listed is None and self.phase == Phase.PLAY:
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
        opening = self.phase == Phase.OPEN
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
            self.houses[made] = House(made, mask_cards(built), cemented, owners or _ALONE[seat])
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
                bonus = self._sweep_bonus(card, opening, emptied and self._deal_complete())
                self.bonus[self.side_of[seat]] += bonus
                if tell:
                    events.append(Event("seep", (str(seat), str(bonus))))
        elif verb == "throw":
            self.loose = [*self.loose]
            insort(self.loose, card, key=_SORT_KEY)
        if tell:
            events.append(self._table_event())
        self._moves_cache = None
        if isinstance(before, _Turn) and not emptied and not opening:
            self._moves_cache = _known_after(before.known, seat, index, taken_loose, verb == "throw")
        self.turn = (seat - 1) % self.num_players  # counter-clockwise: the next seat is seat-1
        if opening:
            self.phase = Phase.PLAY
            events += self._deal_more(tell)
        elif emptied:
            events += self._deal_more(tell) if self._later else self._end_deal(tell)
        return events

    def _deal_complete(self) -> bool:
        """True when no cards are still to be dealt in this deal (after the opening)."""
        return self.phase == Phase.PLAY and not self._later

    def _deal_more(self, tell: bool = True) -> list[Event]:
        packets = self._later.pop(0)
        for seat, cards in packets.items():
            self.hands[seat] = sort_cards([*self.hands[seat], *cards])
        return self._hand_events() if tell else []

    def _sweep_bonus(self, card: Card, opening: bool, last: bool) -> int:
        if self.options.scoring == "thirty":
            return 0 if last else value(card)
        if last:
            return self.options.sweep_last
        return self.options.sweep_first if opening else self.options.sweep

    def _end_deal(self, tell: bool = True) -> list[Event]:
        events = []
        leftover = [*self.loose, *(c for h in self.houses.values() for c in h.cards)]
        if leftover:
            who = "-" if self.last_capturer is None else str(self.last_capturer)
            if tell:
                events.append(Event("leftover", (who, *(c.text for c in sort_cards(leftover)))))
            if self.last_capturer is not None:
                self.piles[self.side_of[self.last_capturer]].extend(leftover)
        self.loose, self.houses = [], {}
        card_points = self._card_points()
        side_points = [p + b for p, b in zip(card_points, self.bonus)]
        for i, p in enumerate(side_points):
            self.side_totals[i] += p
        counted = side_points if self.options.min_includes_sweeps else card_points
        under = [i for i, p in enumerate(counted) if p < self.options.min_deal_points]
        points = tuple(side_points[self.side_of[s]] for s in range(self.num_players))
        notes = tuple(f"under {self.options.min_deal_points}: {self._side_name(i)}" for i in under)
        self._result = self._baazi_result(under)
        notes += self._tie_note()
        self._scores.append(DealScore(self._deals_started, points, self.seat_totals(), notes))
        if tell:
            events += self._score_events(points)
        self.phase = Phase.OVER if self._result is not None else Phase.DEAL
        return events

    def _side_name(self, side: int) -> str:
        return "+".join(map(str, self.sides[side]))

    def _card_points(self) -> list[int]:
        scoring = self.options.scoring
        worth = _CARD_POINTS[scoring].__getitem__
        points = [sum(map(worth, pile)) for pile in self.piles]
        if scoring in ("thirty", "casual_ten_two"):
            basis = self.options.majority_basis if scoring == "thirty" else "cards"
            counts = [sum(1 for c in pile if c.suit == "S") if basis == "spades" else len(pile) for pile in self.piles]
            need = 7 if basis == "spades" else 27
            for i, count in enumerate(counts):
                if count >= need and all(count > other for j, other in enumerate(counts) if j != i):
                    points[i] += 4
        return points

    def _baazi_result(self, under: list[int]) -> _Result | None:
        """Who won the baazi after this deal, as (winners, losers, draws) seats, or None.

        A side under the minimum loses (seed: "quella coppia perde"), every such side, so when
        all are under nobody wins. The others' best total wins and everyone else loses: a match
        has one winner. A tie for that best total is the seed's simultaneous end ("si gioca una
        mano aggiuntiva per rompere il pareggio"): extra deals are played, the sides already
        under staying out, until one side is ahead of the others left."""
        totals = self.side_totals
        count = len(self.sides)
        out = self._under | set(under)
        if out:
            rest = [i for i in range(count) if i not in out]
            if not rest:
                return self._seats([], list(range(count)), [])
            leaders = best(totals, rest)
            if len(leaders) > 1:
                self._under = out
                return None
            return self._seats(leaders, [i for i in range(count) if i != leaders[0]], [])
        target = self.options.baazi_target
        for i in range(count):
            if all(totals[i] - totals[j] >= target for j in range(count) if j != i):
                return self._seats([i], [j for j in range(count) if j != i], [])
        return None

    def _tie_note(self) -> tuple[str, ...]:
        """The note of a deal after which tied sides play on for the baazi."""
        if not self._under or self._result is not None:
            return ()
        rest = [i for i in range(len(self.sides)) if i not in self._under]
        tied = best(self.side_totals, rest)
        return (f"tied for the best total: {', '.join(self._side_name(i) for i in tied)}; another deal",)

    def adjudicate(self) -> None:
        """End the baazi between deals (the referee's deal limit): the best total wins, ties
        share the win, everybody draws when all totals are equal. Sides that fell under the
        minimum while a tie was played off stay losers."""
        if self.phase != Phase.DEAL:
            raise IllegalMoveError("a match is adjudicated only between deals")
        rest = [i for i in range(len(self.sides)) if i not in self._under]
        winners = best(self.side_totals, rest)
        others = [i for i in range(len(self.sides)) if i not in winners]
        self._result = self._seats(winners, others, []) if others else self._seats([], [], winners)
        self.phase = Phase.OVER

    def _seats(self, winners: list[int], losers: list[int], draws: list[int]) -> _Result:
        return seats(self.sides, winners), seats(self.sides, losers), seats(self.sides, draws)

    def _with_forfeits(self, forfeits: frozenset[int]) -> _Result:
        """A side with a forfeited seat loses; if no winner is left, the best total among the
        other sides wins (ties share the win)."""
        assert self._result is not None
        winners, _, draws = self._result
        return self._seats(
            *with_forfeits(
                self.sides,
                self.side_totals,
                sorted({self.side_of[s] for s in winners}),
                sorted({self.side_of[s] for s in draws}),
                forfeits,
            )
        )

    def _next_dealer(self) -> int:
        previous = step(self.dealer, self.num_players, clockwise=False)
        if self.options.dealer_rotation == "ccw_each_hand":
            return previous
        mine = self.side_totals[self.side_of[self.dealer]]
        ahead = all(mine > t for i, t in enumerate(self.side_totals) if i != self.side_of[self.dealer])
        return previous if ahead else self.dealer

    # -- events -------------------------------------------------------------------------------

    def _hand_events(self) -> list[Event]:
        return [Event("hand", tuple(map(_TEXT, h)), _ALONE[s]) for s, h in enumerate(self.hands)]

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

_THIRTY = {"TD": 12, "9S": 9, "2S": 1}
"""30-point card values beside the aces (1 each; the ace of spades counts once, as an ace)."""


def _card_worth(card: Card, scoring: str) -> int:
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
    scoring: {card: _card_worth(card, scoring) for card in french_52()}
    for scoring in SCORINGS
}
"""Each card's points under each scoring, as a deal's piles are counted."""


# -- the move generator ---------------------------------------------------------------------------

_INDEX_AND_VALUE_BIT = {card: (i, 1 << VALUES[i]) for i, card in enumerate(DECK)}
_VALUE_BIT = tuple(1 << v for v in VALUES)
"""The bit of each card's capture value, by the card's index."""
_VALUE_CARDS = tuple(sum(1 << i for i, v in enumerate(VALUES) if v == value) for value in range(14))
"""The mask of the four cards of each capture value."""
_HOUSE_VALUES_OF = tuple(tuple(9 + k for k in range(5) if bits >> k & 1) for bits in range(32))
"""The house values (9 to 13) whose bits are set, by the bits above 8 of a set of values."""
_HOUSE_BITS = sum(1 << v for v in HOUSE_VALUES)
_BUILD_HEADS = {target: f"build:{target}:" for target in HOUSE_VALUES}
_CEMENT_HEADS = {target: f"cement:{target}:" for target in HOUSE_VALUES}
_BREAK_HEADS = {target: f"break:{target}:" for target in HOUSE_VALUES}
_ONLY = tuple((value_,) for value_ in range(14))
"""The one-value tuple of each value, shared by every effect that removes that house."""
_TAKE_HOUSE: tuple[tuple[Effect], ...] = tuple(
    (("take", 0, _ONLY[value_], 0, False, None, "take:", f":h{value_}"),) for value_ in range(14)
)
"""The capture of the house of each value alone: a card's one capture when no loose group
makes its value."""
_ALONE = tuple(frozenset({seat}) for seat in range(4))
"""The owners of a house one seat made alone."""
_NONE: tuple[Effect, ...] = ()
"""No moves of a kind."""
ValueMoves = tuple[Sequence[Effect], Sequence[Effect], Sequence[Effect], Sequence[Effect]]
"""The moves of a card of one value by kind: its captures, builds, cements and breaks."""
_NOTHING: ValueMoves = (_NONE, _NONE, _NONE, _NONE)
"""No moves of any kind but the throw: what most cards of a hand allow."""


Holding = tuple[tuple[int, ...], int, int, int]
"""One seat's cards as a turn reads them: their indices in canonical order, their mask, the
values held (as bits; bit 0, which no value uses, marks a hand read) and the values held
twice or more."""


def _holding(cards: Sequence[Card]) -> Holding:
    """A hand read into a :data:`Holding`."""
    indices: list[int] = []
    mask = held = twice = 0
    for card in cards:
        index, bit = _INDEX_AND_VALUE_BIT[card]
        indices.append(index)
        mask |= 1 << index
        twice |= held & bit
        held |= bit
    indices.sort()
    return tuple(indices), mask, held | 1, twice


Known = tuple[Sequence[Holding], int, tuple[int, ...]]
"""The hands and the floor as a turn reads them: each seat's :data:`Holding`, and the floor's
cards as a mask and as indices in canonical order. Reading four hands costs more than a
turn's moves often do, and a play changes one card of one hand and a few of the floor:
:func:`_known_after` makes the next position's from this one. Never changed once made, so
clones share it; a bare tuple, as one is made on every move."""


def _read_known(hands: Sequence[Sequence[Card]], loose: Sequence[Card]) -> Known:
    """What the lists say."""
    floor = 0
    for card in loose:
        floor |= 1 << INDEX[card]
    return tuple(map(_holding, hands)), floor, tuple(sorted(INDEX[card] for card in loose))


def _known_after(known: Known, seat: int, card: int, taken: int, thrown: bool) -> Known:
    """The same once ``seat`` has played ``card``, taking the loose cards ``taken`` from the
    floor, or throwing the card onto it."""
    seats, floor, floor_cards = known
    indices, mask, held, twice = seats[seat]
    at = indices.index(card)
    mask ^= 1 << card
    bit = 1 << VALUES[card]
    if not twice & bit:
        held &= ~bit
    elif (mask & _VALUE_CARDS[VALUES[card]]).bit_count() < 2:
        twice &= ~bit
    seats = list(seats)
    seats[seat] = (indices[:at] + indices[at + 1:], mask, held, twice)
    if thrown:
        at = bisect(floor_cards, card)
        return seats, floor | 1 << card, floor_cards[:at] + (card,) + floor_cards[at:]
    if taken:
        return seats, floor & ~taken, tuple([i for i in floor_cards if not taken >> i & 1])
    return seats, floor, floor_cards


class _Turn:
    """The legal moves of one seat in one position, found from a snapshot of it.

    A card's captures, builds, cements and breaks depend on its capture value, not on the card,
    so they are found once per value as :data:`Effect` s (cached here) and each card of the
    value is paired with them. Before any is looked for, the position is read into bits by
    capture value (which values could capture, build, cement or break at all,
    :meth:`_bits_by_kind`), so a card that can only be thrown, most of a hand, costs a bit
    test. The retention duty (S8, S9, S24) is settled for a whole kind of effects at once,
    before any is made: every house a move leaves standing keeps its key exactly when
    spending a card of that value leaves each owner one (:meth:`_unkept`). A value's effects
    of one kind are kept sorted by ``(head, tail)``, which is the order of their tokens for any
    one card, so the canonical order needs no token written.

    Everything here is a snapshot (a :data:`Known`, masks, the houses, which the match replaces
    instead of changing), never the match's own lists, so a clone may share its original's
    turn until either moves.
    """

    __slots__ = (
        "options", "seat", "keepers", "side", "known", "seats", "floor", "floor_cards", "hand", "twice", "houses",
        "unkept", "unkept_if_spent", "target_values", "capture_values", "build_values", "cement_values",
        "break_values", "live", "listed", "tokens", "_groups", "_by_value", "_cementing",
    )

    def __init__(self, options: SeepOptions, keepers: tuple[tuple[int, ...], ...], side: tuple[int, ...],
                 known: Known, houses: dict[int, House], seat: int):
        self.options = options
        self.seat = seat
        self.keepers = keepers
        self.side = side
        self.known = known
        self.seats, self.floor, self.floor_cards = known
        self.hand, _, held, self.twice = self.seats[seat]
        """The seat's cards (indices, canonical order), and the values it holds two cards of
        or more, as bits: it may build a value with one card of it alone (keeping another),
        and still keep a house of it after spending one."""
        self.houses = houses
        self.unkept = self.unkept_if_spent = 0
        if houses and options.last_key_capture_only:
            self._duties()
        self._bits_by_kind(*floor_sums(self.floor_cards), held & ~1)  # bit 0 only marks the hand read
        self.listed: list[Move] | None = None
        self.tokens: tuple[str, ...] | None = None
        self._groups: Sequence[Sequence[int]] | None = None
        self._by_value: dict[int, ValueMoves] = {}
        self._cementing: dict[int, tuple[frozenset[int], bool, bool]] = {}

    def _bits_by_kind(self, values: int, mirrored: int, held_values: int) -> None:
        """For each kind of move, the capture values (as bits) of the cards that might make
        one: a superset (each finder still checks every rule), but a card of no such value is
        never looked at. A card completes a group to ``t`` when the floor holds a group worth
        ``t`` minus its value (``mirrored``, :func:`seep_floor.floor_sums`); the seat builds a
        value it holds (``held_values``) where no house stands."""
        options = self.options
        cementing = options.cementing
        houses = cement = raise_ = 0
        for value_, house in self.houses.items():
            houses |= 1 << value_
            if cementing:
                cement |= 1 << value_ | mirrored >> 13 - value_ & (1 << value_) - 2
            if not house.cemented:
                raise_ |= held_values >> value_ & ~1
        targets = held_values & ~houses & _HOUSE_BITS
        if options.max_houses and len(self.houses) >= options.max_houses:
            targets = 0
        self.target_values = targets
        """The values the seat could build, as bits: no house of it stands, and the seat
        holds one."""
        build = 0
        if targets:
            for target in _HOUSE_VALUES_OF[targets >> 9]:
                build |= mirrored >> 13 - target & (1 << target) - 2
            build |= targets & values & self.twice
        self.capture_values = values | houses
        """The values that would capture something: a loose group or a house of the value."""
        self.build_values = build
        self.cement_values = cement
        self.break_values = raise_
        self.live = values | houses | build | cement | raise_
        """The values of the cards that might capture, build, cement or break; a card of any
        other value can only be thrown."""

    def groups(self) -> Sequence[Sequence[int]]:
        """The floor's groups of each value (:func:`seep_floor.floor_groups`), found when a
        card first needs them (the finders called most read ``_groups`` first, to spare the
        call)."""
        found = self._groups
        if found is None:
            found = self._groups = floor_groups(self.floor_cards)
        return found

    # -- whole lists --------------------------------------------------------------------------

    def plays(self) -> list[Move]:
        """Every legal play, in the canonical order: by verb, then by the hand card, then by
        token text (each value's effects are sorted already)."""
        hand = self.hand
        live = self.live
        by_value = self._by_value
        # the values whose cards may not be thrown, each judged on its own (_may_throw); all
        # of them (-1) when the seat may throw nothing
        if self.unkept or self._owner_keeps_cards():
            barred = -1
        else:
            barred = self.unkept_if_spent
            if self.options.throw_rule != "no_other_action":
                barred |= self.capture_values
        takes: list[Move] = []
        builds: list[Move] = []
        cements: list[Move] = []
        breaks: list[Move] = []
        throws: list[Move] = []
        for card in hand:
            bit = _VALUE_BIT[card]
            if not barred & bit:
                throws.append(_THROWS[card])
            if live & bit:
                found = by_value.get(bit) or self._of_value(VALUES[card])
                if found is not _NOTHING:
                    same = repeat(card)
                    take, build, cement, break_ = found
                    if take:
                        takes += zip(same, take)
                    if build:
                        builds += zip(same, build)
                    if cement:
                        cements += zip(same, cement)
                    if break_:
                        breaks += zip(same, break_)
        moves = takes
        if builds:
            moves += builds
        if cements:
            moves += cements
        if breaks:
            moves += breaks
        if self.options.throw_rule == "no_other_action" and moves:
            return moves
        if not moves and not throws:
            # Some option sets (owners may not throw, the team keeps the key) can leave a player
            # with no legal move; the turn must still be played, so any card may be thrown.
            return [_THROWS[card] for card in hand]
        moves += throws
        return moves

    def card_moves(self, card: int) -> list[Move]:
        """The legal moves that spend ``card``, as far as the card alone tells: the captures,
        builds, cements and breaks it allows, and its throw when it may be thrown and the throw
        rule judges each card on its own (``no_other_action`` judges a throw against every
        other card's moves, which only the whole list knows)."""
        v = VALUES[card]
        found = [(card, effect) for effects in self._value_moves(v) for effect in effects]
        if self.options.throw_rule != "no_other_action" and self._may_throw(v):
            found.append(_THROWS[card])
        return found

    def openings(self, bid: int, allowed: set[str]) -> list[Move]:
        """The opening moves of the kinds ``allowed``: builds of the bid, captures with a card
        of the bid value, throws of such a card. A bid-value card is thrown only when it
        captures nothing, whatever the throw rule; under ``no_other_action`` only when no other
        opening move exists (moves the opening does not allow are no alternative)."""
        actions: list[Move] = []
        throws: list[Move] = []
        for card in self.hand:
            v = VALUES[card]
            takes, builds = self._value_moves(v)[:2]
            if "build_bid_value" in allowed:
                actions += [(card, effect) for effect in builds if effect[MADE] == bid]
            if v == bid and "capture_with_bid_card" in allowed:
                actions += [(card, effect) for effect in takes]
            if v == bid and "throw_bid_card" in allowed and not self.capture_values >> v & 1:
                throws.append(_THROWS[card])
        if self.options.throw_rule == "no_other_action" and actions:
            return actions
        return actions + throws

    # -- one value's moves --------------------------------------------------------------------

    def _value_moves(self, v: int) -> ValueMoves:
        """The captures, builds, cements and breaks of a card of value ``v``, each sorted;
        :data:`_NOTHING` when there is none."""
        return self._by_value.get(1 << v) or self._of_value(v)

    def _of_value(self, v: int) -> ValueMoves:
        """:meth:`_value_moves`, found (and cached). Each kind is looked for only when the
        position makes one possible (:meth:`_bits_by_kind`); each finder sorts what it finds
        by ``(head, tail)``."""
        bit = 1 << v
        found = (
            self._takes(v) if self.capture_values & bit else _NONE,
            self._builds(v) if self.build_values & bit else _NONE,
            self._cements(v) if self.cement_values & bit else _NONE,
            self._breaks(v) if self.break_values & bit else _NONE,
        )
        if not (found[0] or found[1] or found[2] or found[3]):
            found = _NOTHING
        self._by_value[bit] = found
        return found

    def _takes(self, v: int) -> Sequence[Effect]:
        """Captures with a card of value ``v`` (:func:`_take_effects`), when the houses left
        standing keep their keys."""
        house = v in self.houses
        if self.unkept or self.unkept_if_spent:
            unkept = self.unkept | self.unkept_if_spent & 1 << v
            if unkept & ~(1 << v if house else 0):
                return _NONE
        return _take_effects((self._groups or self.groups())[v], v, house, self.options.capture_must_be_maximal)

    def _builds(self, v: int) -> Sequence[Effect]:
        """Builds with a card of value ``v`` (:func:`_build_effects`) of the values the seat
        may build: where no house stands and the seat holds a card of the value besides the
        one it plays (:attr:`target_values`, :attr:`twice`); the houses standing must keep their
        keys."""
        if self.unkept or self.unkept_if_spent >> v & 1:
            return _NONE
        targets = self.target_values & -(1 << v)
        if not (self.twice >> v & 1 and self.options.cementing):
            targets &= ~(1 << v)
        if not targets:
            return _NONE
        return _build_effects(self.floor, self._groups or self.groups(), v, targets, self.options.cementing)

    def _cements(self, v: int) -> Sequence[Effect]:
        """Cements: one combination of a house's value (the card alone, or with loose cards)
        added to it; an opponent of every owner becomes a co-owner (S12)."""
        found: list[Effect] = []
        unkept = self.unkept | self.unkept_if_spent & 1 << v
        groups = None
        for target in self.houses:
            if v == target:
                combos: Sequence[int] = (0,)
            elif target > v:
                if groups is None:
                    groups = self.groups()
                combos = groups[target - v]
                if not combos:
                    continue
            else:
                continue
            if unkept & ~(1 << target):
                continue
            owners, kept, kept_if_spent = self._cementing.get(target) or self._cemented_by_seat(target)
            if not (kept_if_spent if v == target else kept):
                continue
            head = _CEMENT_HEADS[target]
            for combo in combos:
                tail = "+" + GROUP_TEXTS[combo] if combo else ""
                found.append(("cement", combo, _ONLY[target], target, True, owners, head, tail))
        if len(found) > 1:
            found.sort(key=HEAD_AND_TAIL)
        return found

    def _cemented_by_seat(self, target: int) -> tuple[frozenset[int], bool, bool]:
        """The owners of the house of ``target`` once the seat cements it (an opponent of every
        owner becomes a co-owner, S12), and whether they all keep a key afterwards when the
        card is of another value, and when it is of ``target``: the same for every value."""
        found = self._cementing.get(target)
        if found is None:
            owners = self.houses[target].owners
            if self.options.last_key_capture_only:
                kept, kept_if_spent = not self.unkept >> target & 1, not self.unkept_if_spent >> target & 1
            else:
                kept, kept_if_spent = self._kept(target, owners)
            if self.options.opponent_cement_makes_coowner and not owners.intersection(self.side):
                owners = owners | {self.seat}
                seat_kept, seat_kept_if_spent = self._kept(target, _ALONE[self.seat])
                kept, kept_if_spent = kept and seat_kept, kept_if_spent and seat_kept_if_spent
            found = self._cementing[target] = (owners, kept, kept_if_spent)
        return found

    def _breaks(self, v: int) -> Sequence[Effect]:
        """Breaks: the card raises an ordinary house to a new value, merging into the house of
        that value if one stands (cementing it), else taking in the loose groups of it. The
        breaker must hold a card of the new value."""
        options = self.options
        seat = self.seat
        held = self.seats[seat][2]
        unkept = self.unkept | self.unkept_if_spent & 1 << v
        found: list[Effect] = []
        for old, house in self.houses.items():
            target = old + v
            if house.cemented or target > 13 or not held >> target & 1:
                continue
            if seat in house.owners:
                if not options.break_own_house:
                    continue
            elif not options.break_partner_house and house.owners.intersection(self.side):
                continue
            head = _BREAK_HEADS[old]
            existing = self.houses.get(target)
            if existing is not None:
                owners = existing.owners | {seat}
                if (options.cementing and not unkept & ~(1 << old | 1 << target)
                        and self._kept(target, owners)[0]):
                    found.append(("break", 0, (old, target), target, True, owners, head, ""))
                continue
            if unkept & ~(1 << old):
                continue
            groups = self.groups()[target] if options.cementing else None
            packed = pack_groups(groups, True) if groups else EMPTY_PACKINGS  # every group is loose
            alone = _ALONE[seat]
            for taken, text in packed:
                found.append(("break", taken, _ONLY[old], target, bool(taken), alone, head, "," + text if text else ""))
        if len(found) > 1:
            found.sort(key=HEAD_AND_TAIL)
        return found

    # -- throws and the retention duty ----------------------------------------------------------

    def _may_throw(self, v: int) -> bool:
        """Whether a card of value ``v`` may be thrown (S7, S8), the houses keeping their
        keys after it."""
        if self._owner_keeps_cards():
            return False
        if self.options.throw_rule != "no_other_action" and self.capture_values >> v & 1:
            return False
        return not self._unkept(v)

    def _owner_keeps_cards(self) -> bool:
        """Whether the seat owns a house while owners may not throw (S8)."""
        return not self.options.owner_may_throw and any(self.seat in h.owners for h in self.houses.values())

    def _unkept(self, v: int) -> int:
        """The houses standing (as bits by value) that some owner could no longer keep once
        the seat spends a card of value ``v``; a move is legal only if it removes them all.

        Whoever builds or breaks must hold a card of the new value in their own hand afterwards
        (S24), whatever ``retention_scope`` says; then every owner's duty is checked under the
        scope in force (with ``team``, the owner's side still holds a card of the value): for
        every house after every move (``last_key_capture_only``, the houses here), or
        otherwise for the house the move makes or changes alone (:meth:`_kept`). The finders
        ask it inline, as ``unkept | unkept_if_spent & 1 << v``."""
        return self.unkept | self.unkept_if_spent & 1 << v

    def _duties(self) -> None:
        """:attr:`unkept`, the houses whose owners lack a key whatever the seat plays, and
        :attr:`unkept_if_spent`, those whose owners lack one if the seat spends a card of the
        house's value (bits by value): :meth:`_kept`."""
        for target, house in self.houses.items():
            kept, kept_if_spent = self._kept(target, house.owners)
            if not kept:
                self.unkept |= 1 << target
            if not kept_if_spent:
                self.unkept_if_spent |= 1 << target

    def _kept(self, target: int, owners: frozenset[int]) -> tuple[bool, bool]:
        """Whether every owner of a house of ``target`` still has a keeper holding a card of
        it once the seat plays a card of another value, and once it spends a card of
        ``target`` (then the seat keeps only with a second one)."""
        bit = 1 << target
        seat = self.seat
        seats = self.seats
        kept = kept_if_spent = True
        if self.options.retention_scope == "player":
            # each owner keeps alone: the seat spending its last card of the value is the one
            # way a holder stops holding
            for owner in owners:
                if not seats[owner][2] & bit:
                    return False, False
                if owner == seat and not self.twice & bit:
                    kept_if_spent = False
            return kept, kept_if_spent
        for owner in owners:
            found = found_if_spent = False
            for keeper in self.keepers[owner]:
                if seats[keeper][2] & bit:
                    found = True
                    if keeper != seat or self.twice & bit:
                        found_if_spent = True
                        break
            kept = kept and found
            kept_if_spent = kept_if_spent and found_if_spent
        return kept, kept_if_spent


def _take_effects(groups: Sequence[int], v: int, house: bool, maximal: bool) -> Sequence[Effect]:
    """Captures with a card of value ``v``: each packing of the loose ``groups`` of ``v``
    (the maximal ones unless ``maximal`` is off), with the house of ``v`` if there is one;
    sorted by ``(head, tail)``."""
    if not groups:
        return _TAKE_HOUSE[v]
    if len(groups) == 1 and not house and maximal:
        return (("take", groups[0], (), 0, False, None, "take:", ":" + GROUP_TEXTS[groups[0]]),)
    packed = pack_groups(groups, maximal)  # every group of the floor is there to take
    found: list[Effect]
    if not house:
        found = [("take", taken, (), 0, False, None, "take:", ":" + text) for taken, text in packed if taken]
    else:
        removed = _ONLY[v]
        found = [("take", taken, removed, 0, False, None, "take:", f":{text},h{v}" if text else f":h{v}")
                 for taken, text in packed]
    if len(found) > 1:
        found.sort(key=HEAD_AND_TAIL)
    return found


def _build_effects(floor: int, sums: Sequence[Sequence[int]], v: int, targets: int, cementing: bool) -> list[Effect]:
    """Builds with a card of value ``v`` of the house values ``targets`` (bits): the card with
    a loose group making the value (or alone, when it is worth it), taking in every loose
    group of the value as a maximal choice (none without ``cementing``); sorted by ``(head,
    tail)``. The same cards grouped otherwise are one build, written as first found. The
    builder alone owns the house: its owners are left empty, for the mover."""
    found: list[Effect] = []
    for target in _HOUSE_VALUES_OF[targets >> 9]:
        firsts: Sequence[int] = (0,) if target == v else sums[target - v]
        head = _BUILD_HEADS[target]
        groups = sums[target]
        if not cementing or not groups:
            for first in firsts:
                if first:
                    found.append(("build", first, (), target, target == v, None, head, "+" + GROUP_TEXTS[first]))
            continue
        seen: set[int] = set()
        for first in firsts:
            start = "+" + GROUP_TEXTS[first] if first else ""
            for taken, text in mask_packings(floor & ~first, target, True, groups):
                used = first | taken
                if not used or used in seen:
                    continue
                seen.add(used)
                found.append(("build", used, (), target, target == v or bool(taken), None, head,
                              start + "," + text if text else start))
    if len(found) > 1:
        found.sort(key=HEAD_AND_TAIL)
    return found


def _canonical(moves: list[Move]) -> list[Move]:
    """The canonical order of moves: by verb (take, build, cement, break, throw), then by the
    hand card in canonical card order, then by token text."""
    return sorted(moves, key=lambda move: (VERB_RANK[move[1][0]], move[0], token(move)))
