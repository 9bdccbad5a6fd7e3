"""Seep's move generator: every legal move of one seat in one position, each with its whole
effect (:mod:`.effects`), in the canonical order of the protocol.

Moves are generated over bit masks (:mod:`..card_bits`, :mod:`.floor`) by a :class:`Turn`,
once per position: the moves a card allows depend on its capture value only, so each value's
moves are found once and paired with each card of that value (nothing is memoised from turn to
turn: :mod:`.floor` says why), and the retention duty is settled per value before any move is
made. A turn reads a snapshot of the position (:mod:`.position`), never the match's own
lists, so the match (:mod:`.rules`) and its clones may share one.
"""

from __future__ import annotations

from itertools import repeat
from typing import Sequence

from .effects import ALONE, HEAD_AND_TAIL, HOUSE_VALUES, MADE, THROWS, VERB, VERB_RANK, Effect, House, Move, token
from .floor import EMPTY_PACKINGS, GROUP_TEXTS, VALUES, floor_groups, floor_sums, mask_packings, pack_groups
from .options import OPENING_KINDS, SeepOptions
from .position import Known

_VALUE_BIT = tuple(1 << v for v in VALUES)
"""The bit of each card's capture value, by the card's index."""
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
_NONE: tuple[Effect, ...] = ()
"""No moves of a kind."""
ValueMoves = tuple[Sequence[Effect], Sequence[Effect], Sequence[Effect], Sequence[Effect]]
"""The moves of a card of one value by kind: its captures, builds, cements and breaks."""
_NOTHING: ValueMoves = (_NONE, _NONE, _NONE, _NONE)
"""No moves of any kind but the throw: what most cards of a hand allow."""

class Turn:
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
        ``t`` minus its value (``mirrored``, :func:`.floor.floor_sums`); the seat builds a
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
        """The floor's groups of each value (:func:`.floor.floor_groups`), found when a
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
                throws.append(THROWS[card])
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
            return [THROWS[card] for card in hand]
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
            found.append(THROWS[card])
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
                throws.append(THROWS[card])
        if self.options.throw_rule == "no_other_action" and actions:
            return actions
        return actions + throws

    def opening_moves(self, bid: int, require_effect: bool = False) -> list[Move]:
        """The bidder's opening play (S4), in the canonical order; with ``require_effect``,
        only builds and captures (the bid's feasibility, S2). When the kinds
        ``opening_allowed`` allows give no move, every kind is offered under the usual rules,
        the compulsory capture included (Svolgimento 7: "Se la carta giocata può catturare
        ... devi catturarla")."""
        allowed = set(self.options.opening_allowed)
        if require_effect:
            allowed.discard("throw_bid_card")
            return self.openings(bid, allowed)
        return canonical(self.openings(bid, allowed) or self.openings(bid, set(OPENING_KINDS)))

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
                seat_kept, seat_kept_if_spent = self._kept(target, ALONE[self.seat])
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
            alone = ALONE[seat]
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


def canonical(moves: list[Move]) -> list[Move]:
    """The canonical order of moves: by verb (take, build, cement, break, throw), then by the
    hand card in canonical card order, then by token text."""
    return sorted(moves, key=lambda move: (VERB_RANK[move[1][VERB]], move[0], token(move)))
