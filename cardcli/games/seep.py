"""Seep (Sip, Siv): the Punjabi fishing game with houses, for 4 players in partnerships and the
2- and 3-player, 30-point, no-cementing and variable-target variants.

``docs/rules/seep.md`` explains every rule and option with the seed sentence or RULES.md item
(S1..S31) it follows. Seats are numbered clockwise and Seep is played counter-clockwise, so the
next player is ``seat-1``; the bidder (house builder) sits at the dealer's right, ``dealer-1``.

Every legal move is generated as a :class:`Move` that carries its whole effect (cards leaving
the floor, houses removed, the house made), so applying a move is the same few lines for every
kind of action, and a move is legal exactly when it is in the generated set.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence

import attrs

from ..cards import Card, french_52, is_card, sort_cards
from ..errors import IllegalMoveError, InvalidMoveError, OptionError
from . import options as opt
from .base import (
    DealScore,
    Decision,
    Event,
    GameSpec,
    MatchBase,
    Outcome,
    Variant,
    first_dealer,
)
from .notation import checked, misordered, spent_card
from .seep_floor import Group, Packing, all_sums, packings, text, value
from .seep_text import SeepRenderer
from .sides import best, seats, side_map, sides_for, with_forfeits
from .tricks import seat_order, step

HOUSE_VALUES = range(9, 14)
VERBS = ("take", "build", "cement", "break", "throw")
OPENING_KINDS = ("build_bid_value", "capture_with_bid_card", "throw_bid_card")
SWEEP_DEFAULTS = (50, 25, 0)
"""``sweep``, ``sweep_first`` and ``sweep_last`` as the seed scores them (S18)."""


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
        choices=("standard100", "thirty", "casual_ten_two"),
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

    def describe(self) -> str:
        """``h12:c:0,2:5C+3D+4H+QC``: value, cemented (c) or ordinary (o), owners, cards."""
        kind = "c" if self.cemented else "o"
        owners = ",".join(map(str, sorted(self.owners)))
        return f"h{self.value}:{kind}:{owners}:" + "+".join(c.text for c in self.cards)


@attrs.frozen
class Move:
    """A legal move and its whole effect on the floor."""

    token: str
    verb: str
    card: Card
    floor: frozenset[Card] = frozenset()
    """Loose cards that leave the floor (captured, or built into a house)."""
    removed: tuple[int, ...] = ()
    """Values of the houses that leave the floor (captured, or broken into another house)."""
    made: House | None = None


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
        self._result: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
        self._under: set[int] = set()
        """Sides under the minimum while a tie for the best total among the others is played
        off with extra deals (they have lost; the tie decides who wins)."""
        self.hands: list[list[Card]] = [[] for _ in range(num_players)]
        self.loose: list[Card] = []
        self.houses: dict[int, House] = {}
        self._moves_cache: dict[str, Move] | None = None
        self._sums_of: tuple[tuple[Card, ...] | None, dict[int, list[Group]]] = (None, {})
        """The floor the groups were found for, and its groups by sum."""
        self._packings_cache: dict[tuple[int, bool, tuple[Card, ...]], list[Packing]] = {}
        self._held: list[Counter[int]] = []
        """Per seat, how many cards of each value it holds: the retention duty asks it of
        every candidate move, so :meth:`_moves` counts once."""

    # -- the protocol every game offers -------------------------------------------------------

    def deal_facts(self) -> dict[str, Any]:
        return {
            "hands": [[c.text for c in sort_cards(cards)] for cards in self._allocation],
            "floor": [c.text for c in sort_cards(self._floor_dealt)],
        }

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        if self.phase != Phase.DEAL:
            raise IllegalMoveError("no deal is due now")
        if len(deck) != 52 or set(deck) != set(french_52()):
            raise IllegalMoveError("a Seep deal needs the 52 cards, each once")
        if self._deals_started and not self._same_dealer:
            self.dealer = self._next_dealer()
        self._same_dealer = False
        self._deals_started += 1
        n = self.num_players
        self.bidder = (self.dealer - 1) % n
        self.order = seat_order(self.bidder, n, clockwise=False)
        cards = iter(deck)

        def take(count: int) -> list[Card]:
            return [next(cards) for _ in range(count)]

        first = {self.bidder: take(4)}
        self._floor_dealt = take(4)
        for seat in self.order[1:]:
            first[seat] = take(4)
        self._later: list[dict[int, list[Card]]] = []
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
        self.piles: list[list[Card]] = [[] for _ in self.sides]
        self.bonus = [0] * len(self.sides)
        self.last_capturer: int | None = None
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
        if self.phase == Phase.BID:
            return (Decision(self.bidder, "bid", tuple(str(v) for v in self._bids())),)
        if self.phase in (Phase.OPEN, Phase.PLAY):
            return (Decision(self.turn, "play", tuple(self._legal())),)
        return ()

    def acting(self) -> tuple[tuple[int, str], ...]:
        if self.phase == Phase.BID:
            return ((self.bidder, "bid"),)
        if self.phase in (Phase.OPEN, Phase.PLAY):
            return ((self.turn, "play"),)
        return ()

    def apply(self, seat: int, move: str) -> list[Event]:
        if self.phase == Phase.BID:
            return self._apply_bid(seat, move)
        if self.phase not in (Phase.OPEN, Phase.PLAY):
            raise IllegalMoveError(f"no move is due in phase {self.phase}")
        return self._play(seat, checked(self._checked_move, seat, move))

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers, draws = self._result
        if forfeits:
            winners, losers, draws = self._with_forfeits(forfeits)
        return Outcome(self.seat_totals(), winners, losers, draws, tuple(sorted(forfeits)))

    def seat_totals(self) -> tuple[int, ...]:
        return tuple(self.side_totals[self.side_of[s]] for s in range(self.num_players))

    # -- bidding ------------------------------------------------------------------------------

    def _bids(self) -> list[int]:
        held = sorted({value(c) for c in self.hands[self.bidder] if value(c) in HOUSE_VALUES})
        if self.options.reveal_floor_before_bid and self.options.bid_requires_floor_feasibility:
            held = [v for v in held if self._opening_moves(v, require_effect=True)]
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

    def _apply_bid(self, seat: int, move: str) -> list[Event]:
        if seat != self.bidder:
            raise IllegalMoveError(f"seat {self.bidder} bids, not seat {seat}")
        if not move.isdigit():
            raise InvalidMoveError(f"a bid is a number from 9 to 13: {move!r}")
        if int(move) not in self._bids() or move != str(int(move)):
            raise IllegalMoveError(f"cannot bid {move}: bid the value of a card you hold, 9 to 13")
        self.bid = int(move)
        self.phase = Phase.OPEN
        self._moves_cache = None
        events = [Event("bid", (str(seat), move))]
        if not self.options.reveal_floor_before_bid:
            self.loose = sort_cards(self._floor_dealt)
            events.append(self._table_event())
        return events

    # -- legal moves --------------------------------------------------------------------------

    def _legal(self) -> dict[str, Move]:
        if self._moves_cache is None:
            if self.phase == Phase.OPEN:
                moves = self._opening_moves(self.bid)
            else:
                moves = self._moves(self.turn)
            self._moves_cache = {m.token: m for m in _canonical(moves)}
        return self._moves_cache

    def _opening_moves(self, bid: int, require_effect: bool = False) -> list[Move]:
        """The bidder's opening play (S4); with ``require_effect``, only builds and captures
        (the bid's feasibility, S2). When the kinds ``opening_allowed`` allows give no move,
        every kind is offered under the usual rules, the compulsory capture included
        (Svolgimento 7: "Se la carta giocata può catturare ... devi catturarla")."""
        allowed = set(self.options.opening_allowed)
        if require_effect:
            allowed.discard("throw_bid_card")
            return self._openings(bid, allowed)
        return self._openings(bid, allowed) or self._openings(bid, set(OPENING_KINDS))

    def _openings(self, bid: int, allowed: set[str]) -> list[Move]:
        """The opening moves of the kinds ``allowed``. A bid-value card is thrown only when it
        captures nothing, whatever the throw rule; under ``no_other_action`` only when no other
        opening move exists (moves the opening does not allow are no alternative)."""
        seat = self.bidder
        self._fresh_turn()
        actions: list[Move] = []
        throws: list[Move] = []
        for card in self.hands[seat]:
            found, _ = self._card_moves(seat, card)
            for move in found:
                if move.verb == "build" and move.made is not None and move.made.value == bid:
                    if "build_bid_value" in allowed:
                        actions.append(move)
                elif move.verb == "take" and value(move.card) == bid and "capture_with_bid_card" in allowed:
                    actions.append(move)
            if value(card) == bid and "throw_bid_card" in allowed and not self._can_capture(card):
                throws.append(Move(f"throw:{card.text}", "throw", card))
        if self.options.throw_rule == "no_other_action" and actions:
            return actions
        return actions + throws

    def _sums(self, target: int) -> list[Group]:
        """Groups of loose cards summing to ``target``: every target's groups are found in one
        walk of the floor, once per floor."""
        floor = tuple(self.loose)
        if self._sums_of[0] != floor:
            self._sums_of = (floor, all_sums(floor))
        return self._sums_of[1].get(target, [])

    def _packings(self, cards: list[Card], target: int, maximal: bool = True) -> list[Packing]:
        """Packings of ``cards`` for ``target`` (only the maximal ones unless ``maximal`` is
        false), computed once per set of cards: cards of one value share them."""
        key = (target, maximal, tuple(cards))
        found = self._packings_cache.get(key)
        if found is None:
            within = set(cards)
            groups = [g for g in self._sums(target) if within.issuperset(g)]
            found = self._packings_cache[key] = packings(cards, target, maximal, groups)
        return found

    def _find(self, seat: int, move: str) -> Move | None:
        """The legal move a token names, or None.

        Outside the opening, the moves of the one card the token spends are enough to find a
        legal move: every capture, build, cement or break a card allows (with the retention
        duty kept) is legal, and so is its throw when the throw rule judges each card on its
        own. The whole list is generated (and cached) only in the opening, when the move is
        not found that way (to refuse it, or for a throw allowed because nothing else is),
        or when it was listed already: ``verify`` checks a move at the cost of one card,
        where the referee lists every move anyway to offer them."""
        if self._moves_cache is None and self.phase == Phase.PLAY:
            spent = spent_card(move)
            card = Card.parse(spent) if spent is not None and is_card(spent) else None
            if card is not None and card in self.hands[seat]:
                self._fresh_turn()
                found, throw = self._card_moves(seat, card)
                if throw is not None and self.options.throw_rule != "no_other_action":
                    found.append(throw)
                chosen = {m.token: m for m in found}.get(move)
                if chosen is not None:
                    return chosen
        return self._legal().get(move)

    def _fresh_turn(self) -> None:
        """Empty the caches of the last floor, and count each seat's values for the retention
        duty, before moves are generated for this turn."""
        self._packings_cache = {}
        self._held = [Counter(value(c) for c in h) for h in self.hands]

    def _card_moves(self, seat: int, card: Card) -> tuple[list[Move], Move | None]:
        """The captures, builds, cements and breaks ``card`` allows, and its throw when the
        card may be thrown by the throw rule on its own."""
        candidates = (
            self._captures(card)
            + self._builds(seat, card)
            + self._cements(seat, card)
            + self._breaks(seat, card)
        )
        moves = [m for m in candidates if self._keeps_houses(seat, m)]
        throw = Move(f"throw:{card.text}", "throw", card)
        if self._may_throw(seat, card) and self._keeps_houses(seat, throw):
            return moves, throw
        return moves, None

    def _moves(self, seat: int) -> list[Move]:
        self._fresh_turn()
        hand = self.hands[seat]
        moves: list[Move] = []
        throws: list[Move] = []
        for card in hand:
            found, throw = self._card_moves(seat, card)
            moves += found
            if throw is not None:
                throws.append(throw)
        if self.options.throw_rule == "no_other_action" and moves:
            return moves
        if not moves and not throws:
            # Some option sets (owners may not throw, the team keeps the key) can leave a player
            # with no legal move; the turn must still be played, so any card may be thrown.
            return [Move(f"throw:{card.text}", "throw", card) for card in hand]
        return moves + throws

    def _captures(self, card: Card) -> list[Move]:
        v = value(card)
        house = self.houses.get(v)
        result = []
        for packing in self._packings(self.loose, v, self.options.capture_must_be_maximal):
            if not packing.cards and house is None:
                continue
            items = text(packing.groups)
            if house is not None:
                items = f"{items},h{v}" if items else f"h{v}"
            removed = (v,) if house is not None else ()
            result.append(Move(f"take:{card.text}:{items}", "take", card, packing.cards, removed))
        return result

    def _room_for_a_house(self) -> bool:
        return not self.options.max_houses or len(self.houses) < self.options.max_houses

    def _builds(self, seat: int, card: Card) -> list[Move]:
        v = value(card)
        result = []
        seen: set[tuple[int, frozenset[Card]]] = set()
        if not self._room_for_a_house():
            return result
        for target in HOUSE_VALUES:
            if target in self.houses or target < v:
                continue
            firsts: list[Group] = [()] if target == v else self._sums(target - v)
            for first in firsts:
                if target == v and not self.options.cementing:
                    continue
                rest = [c for c in self.loose if c not in first]
                absorbed = self._packings(rest if self.options.cementing else [], target)
                for packing in absorbed:
                    used = frozenset(first) | packing.cards
                    if not used or (target, used) in seen:
                        continue
                    seen.add((target, used))
                    cemented = target == v or bool(packing.cards)
                    house = House(target, _pile(card, used), cemented, frozenset({seat}))
                    groups = text(((card, *first), *packing.groups))
                    result.append(Move(f"build:{target}:{groups}", "build", card, used, (), house))
        return result

    def _cements(self, seat: int, card: Card) -> list[Move]:
        if not self.options.cementing:
            return []
        v = value(card)
        result = []
        for target, house in self.houses.items():
            if v > target:
                continue
            combos: list[Group] = [()] if v == target else self._sums(target - v)
            owners = self._owners_after_cement(seat, house.owners)
            for combo in combos:
                made = House(target, _pile(card, (*house.cards, *combo)), True, owners)
                token = f"cement:{target}:" + "+".join(c.text for c in (card, *combo))
                result.append(Move(token, "cement", card, frozenset(combo), (target,), made))
        return result

    def _owners_after_cement(self, seat: int, owners: frozenset[int]) -> frozenset[int]:
        partners = set(self.sides[self.side_of[seat]])
        if owners & partners or not self.options.opponent_cement_makes_coowner:
            return owners
        return owners | {seat}

    def _breaks(self, seat: int, card: Card) -> list[Move]:
        v = value(card)
        result = []
        partners = set(self.sides[self.side_of[seat]]) - {seat}
        for old_value, house in self.houses.items():
            target = old_value + v
            if house.cemented or target > 13:
                continue
            if seat in house.owners and not self.options.break_own_house:
                continue
            if seat not in house.owners and house.owners & partners and not self.options.break_partner_house:
                continue
            base = f"break:{old_value}:{card.text}"
            existing = self.houses.get(target)
            if existing is not None:
                if not self.options.cementing:
                    continue
                made = House(target, _pile(card, (*existing.cards, *house.cards)), True, existing.owners | {seat})
                result.append(Move(base, "break", card, frozenset(), (old_value, target), made))
                continue
            absorbed = self._packings(self.loose if self.options.cementing else [], target)
            for packing in absorbed:
                made = House(
                    target, _pile(card, (*house.cards, *packing.cards)), bool(packing.cards), frozenset({seat})
                )
                token = f"{base},{text(packing.groups)}" if packing.cards else base
                result.append(Move(token, "break", card, packing.cards, (old_value,), made))
        return result

    def _may_throw(self, seat: int, card: Card) -> bool:
        if not self.options.owner_may_throw and any(seat in h.owners for h in self.houses.values()):
            return False
        if self.options.throw_rule == "no_other_action":
            return True
        return not self._can_capture(card)

    def _can_capture(self, card: Card) -> bool:
        """Whether ``card`` would capture something: a loose group or the house of its value."""
        v = value(card)
        return v in self.houses or bool(self._sums(v))

    def _keeps_houses(self, seat: int, move: Move) -> bool:
        """The retention duty (S8, S9, S24).

        Whoever builds or breaks must hold a card of the new value in their own hand
        afterwards, whatever ``retention_scope`` says (Svolgimento 3: "Puoi creare una casa
        solo se sei in grado di catturarla in seguito con una carta ancora in mano"). Then every
        owner's duty is checked under the scope in force (with ``team``, the owner's side still
        holds a card of the value): for every house after every move, or, with
        ``last_key_capture_only`` off, for the house the move makes or changes."""
        played = value(move.card)
        made = move.made
        if move.verb in ("build", "break") and made is not None and not self._held[seat][made.value] > (
            played == made.value
        ):
            return False
        if not self.houses and made is None:
            return True
        if self.options.last_key_capture_only:
            houses = [h for v, h in self.houses.items() if v not in move.removed]
            if made is not None:
                houses.append(made)
        else:
            houses = [made] if made is not None else []
        for house in houses:
            for owner in house.owners:
                keepers = self.sides[self.side_of[owner]] if self.options.retention_scope == "team" else (owner,)
                if not any(
                    self._held[keeper][house.value] > (keeper == seat and played == house.value)
                    for keeper in keepers
                ):
                    return False
        return True

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
        return misordered(move, self._legal()) or IllegalMoveError(f"{move} is not a legal move here")

    # -- playing ------------------------------------------------------------------------------

    def _play(self, seat: int, move: Move) -> list[Event]:
        opening = self.phase == Phase.OPEN
        self.hands[seat].remove(move.card)
        self.loose = [c for c in self.loose if c not in move.floor]
        taken_houses = [self.houses.pop(v) for v in move.removed if v in self.houses]
        if move.made is not None:
            self.houses[move.made.value] = move.made
        events = [Event("play", (str(seat), move.token))]
        last = not any(self.hands) and self._deal_complete()
        if move.verb == "take":
            pile = self.piles[self.side_of[seat]]
            pile.append(move.card)
            pile.extend(move.floor)
            for house in taken_houses:
                pile.extend(house.cards)
            self.last_capturer = seat
            if not self.loose and not self.houses:
                bonus = self._sweep_bonus(move.card, opening, last)
                self.bonus[self.side_of[seat]] += bonus
                events.append(Event("seep", (str(seat), str(bonus))))
        elif move.verb == "throw":
            self.loose = sort_cards(self.loose + [move.card])
        events.append(self._table_event())
        self._moves_cache = None
        self.turn = step(seat, self.num_players, clockwise=False)
        if opening:
            self.phase = Phase.PLAY
            events += self._deal_more()
        elif not any(self.hands):
            events += self._deal_more() if self._later else self._end_deal()
        return events

    def _deal_complete(self) -> bool:
        """True when no cards are still to be dealt in this deal (after the opening)."""
        return self.phase == Phase.PLAY and not self._later

    def _deal_more(self) -> list[Event]:
        packets = self._later.pop(0)
        for seat, cards in packets.items():
            self.hands[seat] = sort_cards(self.hands[seat] + cards)
        return self._hand_events()

    def _sweep_bonus(self, card: Card, opening: bool, last: bool) -> int:
        if self.options.scoring == "thirty":
            return 0 if last else value(card)
        if last:
            return self.options.sweep_last
        return self.options.sweep_first if opening else self.options.sweep

    def _end_deal(self) -> list[Event]:
        events = []
        leftover = self.loose + [c for h in self.houses.values() for c in h.cards]
        if leftover:
            who = "-" if self.last_capturer is None else str(self.last_capturer)
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
        events += self._score_events(points)
        self.phase = Phase.OVER if self._result is not None else Phase.DEAL
        return events

    def _side_name(self, side: int) -> str:
        return "+".join(map(str, self.sides[side]))

    def _card_points(self) -> list[int]:
        scoring = self.options.scoring
        points = []
        for pile in self.piles:
            if scoring == "thirty":
                p = sum(_THIRTY.get(c.text, 1 if c.rank == 14 else 0) for c in pile)
            else:
                ten = 6 if scoring == "standard100" else 2
                p = sum(value(c) if c.suit == "S" else (1 if c.rank == 14 else (ten if c.text == "TD" else 0)) for c in pile)
            points.append(p)
        if scoring in ("thirty", "casual_ten_two"):
            basis = self.options.majority_basis if scoring == "thirty" else "cards"
            counts = [sum(1 for c in pile if c.suit == "S") if basis == "spades" else len(pile) for pile in self.piles]
            need = 7 if basis == "spades" else 27
            for i, count in enumerate(counts):
                if count >= need and all(count > other for j, other in enumerate(counts) if j != i):
                    points[i] += 4
        return points

    def _baazi_result(self, under: list[int]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
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

    def _seats(self, winners: list[int], losers: list[int], draws: list[int]) -> tuple[tuple[int, ...], ...]:
        return seats(self.sides, winners), seats(self.sides, losers), seats(self.sides, draws)

    def _with_forfeits(self, forfeits: frozenset[int]) -> tuple[tuple[int, ...], ...]:
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
        return [Event("hand", tuple(c.text for c in h), frozenset({s})) for s, h in enumerate(self.hands)]

    def _table_event(self) -> Event:
        items = [c.text for c in self.loose] + [self.houses[v].describe() for v in sorted(self.houses)]
        return Event("table", tuple(items))

    def _score_events(self, points: Sequence[int]) -> list[Event]:
        return [
            Event("score", (str(self._deals_started), *map(str, points))),
            Event("totals", tuple(map(str, self.seat_totals()))),
        ]


_THIRTY = {"TD": 12, "9S": 9, "2S": 1}
"""30-point card values beside the aces (1 each; the ace of spades counts once, as an ace)."""


def _pile(card: Card, others: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sort_cards([card, *others]))


def _canonical(moves: list[Move]) -> list[Move]:
    """The canonical order of moves: by verb (take, build, cement, break, throw), then by the
    hand card in canonical card order, then by token text."""
    return sorted(moves, key=lambda m: (VERBS.index(m.verb), m.card.sort_key, m.token))



SUMMARY = """\
Seep is a Punjabi fishing game: 4 players in two partnerships (partners opposite), or 2 or 3
each for themselves, with a 52-card deck, played counter-clockwise. Capture values: ace 1,
2-10 face value, J 11, Q 12, K 13. The player at the dealer's right gets 4 cards and bids a
value from 9 to 13 that they hold; the 4 floor cards are turned up and the bidder opens by
building a house of the bid, capturing with a card of the bid, or throwing one. The rest of
the pack is dealt in packets of 4 (12 cards each in all; 2 players: two halves of 12; 3
players: 16 each). On a turn a player plays one card to capture (every group of loose cards
summing to its value, as many as possible, and the house of that value), build a house (9-13,
keeping a card to capture it), cement a house (add a second combination of its value), break
an ordinary house (raise it with one card), or throw it to the floor when it captures
nothing. Spades count their value, other aces 1, 10♦ 6: 100 a deal; a capture that empties
the floor (a seep) scores 50 (25 on the opening, 0 on the last play). The last capturer takes
what is left. A side that scores under 9 in a deal loses the baazi; otherwise the first side
to lead by 100 wins."""


SPEC = GameSpec(
    name="seep",
    title="Seep (Sip, Siv)",
    summary=SUMMARY,
    player_counts=(4, 2, 3),
    variants=VARIANTS,
    options_class=SeepOptions,
    deck=french_52,
    new_match=SeepMatch,
    first_dealer=first_dealer,
    decision_kinds=("bid", "play"),
    teams=lambda n: sides_for(n) if n == 4 else (),
    play_order=lambda options: "ccw",
    renderer=SeepRenderer,
)
