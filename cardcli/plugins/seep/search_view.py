"""What a Seep seat can infer.

Every card that leaves a hand is named by its move, the floor is turned up after the bid, and
captured cards are public, so the unseen cards are the other hands and the cards still to be
dealt. On top of that a seat knows:

* **house keys**: a seat that built or broke into a house held a card of its value afterwards,
  and with the ``player`` retention scope every owner of a house holds a card of its value
  after every move while the house stands; a seat known to have held one then and that has
  played none since still holds one (with the ``team`` scope a partner's card may serve, which
  is left to the replay's check);
* **the bid card**: the bidder held a card of the bid value among its first four cards, so
  unless one has been played it is still in the bidder's hand;
* **when cards arrived**: a seat received its cards in rounds (four, then the rest after the
  opening, and with two players a second half), so a card it played in one round was among
  the cards it had been dealt by then;
* **a void deal**: the bidder's four cards held no 9 to king; they are shown unless
  ``redeal_reveals_hand=false``.
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence

from ...cards import Card
from ...games.notation import spent_card
from .rules import HOUSE_VALUES
from .floor import value
from ...players.search.view import Header, SeatView, other_seats
from ...players.search.worlds import ImpossibleView, Slot, allocate

FIRST_ROUND = 4


def _none(card: Card) -> str:
    return ""


def made_value(token: str) -> int:
    """The value of the house a ``build`` or ``break`` move leaves its maker holding a card of
    (0 for other moves): a break adds its hand card to the old value. A cement adds no duty of
    its own beyond the owners' (seep.md: "a builder or breaker always holds the new value
    personally")."""
    verb, _, rest = token.partition(":")
    if verb == "build":
        return int(rest.split(":")[0])
    if verb == "break":
        old, card = rest.split(":")[0], rest.split(":")[1].split(",")[0]
        return int(old) + value(Card.parse(card))
    return 0


class SeepView(SeatView):
    def __init__(self, header: Header) -> None:
        super().__init__(header)
        self.per_seat = (len(self.deck) - FIRST_ROUND) // self.n
        self.reset_deal()

    def reset_deal(self) -> None:
        self.bidder = -1
        self.bid = 0
        self.rounds: list[list[Card]] = []
        """This seat's cards as they arrived, round by round."""
        self.played: list[list[tuple[Card, int]]] = [[] for _ in range(self.n)]
        """Each seat's cards played this deal, with the round in which each was played."""
        self.floor_dealt: list[Card] | None = None
        self.owned: dict[tuple[int, int], int] = {}
        """(owner, house value) -> how many moves had been made when the floor last showed that
        seat owning a house of that value: it held a card of the value then."""
        self.shown: list[Card] | None = None
        self.voided = False

    @property
    def hand(self) -> list[Card]:
        return self.info.hand

    @property
    def moves(self) -> list[tuple[int, str]]:
        """The bid and the plays so far, from the game's seat view."""
        return self.info.moves

    # -- lines --------------------------------------------------------------------------------

    def on_event(self, words: list[str]) -> None:
        head = words[0]
        if head == "deal" and len(words) > 3:
            self.bidder = int(words[3])
        elif head == "hand":
            before = {c for r in self.rounds for c in r}
            self.rounds.append([c for c in (Card.parse(w) for w in words[1:]) if c not in before])
        elif head == "void":
            self.voided = True
            self.shown = [Card.parse(w) for w in words[2:]] or None
        elif head == "bid" and len(words) == 3:
            self.bid = int(words[2])
        elif head == "table":
            self._table(words[1:])
        elif head == "play" and len(words) == 3:
            seat, token = int(words[1]), words[2]
            spent = spent_card(token)
            if spent is None:
                raise ImpossibleView(f"a Seep move that spends no card: {token!r}")
            self.played[seat].append((Card.parse(spent), len(self.rounds)))

    def _table(self, items: list[str]) -> None:
        if self.floor_dealt is None and not any(self.played):
            self.floor_dealt = [Card.parse(w) for w in items if ":" not in w]
        for item in items:
            if ":" in item:
                head, _kind, owners, _cards = item.split(":")
                for owner in owners.split(","):
                    if owner:
                        self.owned[(int(owner), int(head[1:]))] = len(self.moves)

    # -- worlds -------------------------------------------------------------------------------

    def deal_unseen(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        received = sum(len(r) for r in self.rounds)
        spent = {c for plays in self.played for c, _ in plays}
        mine = {c for r in self.rounds for c in r}
        floor = set(self.floor_dealt or ())
        pool = [c for c in self.deck if c not in spent and c not in mine and c not in floor]
        holding = {s: received - len(self.played[s]) for s in other_seats(self)}
        keys = self._keys(pool, holding, rng)
        placed = {k for cards in keys.values() for k in cards}
        pool = [c for c in pool if c not in placed]
        slots = [Slot(s, holding[s] - len(keys.get(s, ()))) for s in other_seats(self)]
        slots.append(Slot("later", self.n * (self.per_seat - received)))
        if self.floor_dealt is None:
            slots.append(Slot("floor", FIRST_ROUND))
        dealt = allocate(pool, slots, _none, rng)
        later = dealt.pop("later")
        result: dict[Hashable, list[Card]] = {"floor": list(self.floor_dealt or dealt.pop("floor"))}
        for s in range(self.n):
            future = later[: self.per_seat - received]
            later = later[len(future) :]
            if s == self.seat:
                result[s] = [c for r in self.rounds for c in r] + future
            else:
                result[s] = self._in_rounds(s, dealt[s] + keys.get(s, []), rng) + future
        return result

    def _keys(self, pool: list[Card], holding: Mapping[int, int], rng: random.Random) -> dict[int, list[Card]]:
        """A card of the right value for each other seat that must hold one: house owners
        (with the ``player`` retention scope) and a bidder whose bid card is still unseen."""
        needs: dict[int, set[int]] = {}
        if self.voided:
            if self.bidder != self.seat:
                needs[self.bidder] = set()
        elif self.bid and self.bidder != self.seat and not any(value(c) == self.bid for c, _ in self.played[self.bidder]):
            needs.setdefault(self.bidder, set()).add(self.bid)
        for seat, house in self._still_held():
            needs.setdefault(seat, set()).add(house)
        keys: dict[int, list[Card]] = {}
        free = list(pool)
        rng.shuffle(free)
        for seat, values in needs.items():
            if self.voided:
                keys[seat] = self._void_hand(free)
                continue
            for wanted in sorted(values):
                card = next((c for c in free if value(c) == wanted), None)
                if card is None or len(keys.get(seat, ())) >= holding[seat]:
                    raise ImpossibleView(f"no unseen card of value {wanted} for seat {seat}")
                free.remove(card)
                keys.setdefault(seat, []).append(card)
        return keys

    def _still_held(self) -> list[tuple[int, int]]:
        """(seat, value) for each other seat known to have held a card of that value at some
        move and to have played none since, so that it still holds one: a builder or breaker
        holds the new value after its move (§2.6), and with the ``player`` retention scope every
        owner of a house holds its value after every move while the house stands (§2.7)."""
        since: dict[tuple[int, int], int] = {}
        for index, (seat, token) in enumerate(self.moves):
            house = made_value(token)
            if house:
                since[(seat, house)] = index + 1
        if dict(self.header.options).get("retention_scope", "player") == "player":
            for key, index in self.owned.items():
                since[key] = max(index, since.get(key, 0))
        held = []
        for (seat, house), index in since.items():
            if seat == self.seat:
                continue
            later = (spent_card(t) for s, t in self.moves[index:] if s == seat)
            if not any(spent is not None and value(Card.parse(spent)) == house for spent in later):
                held.append((seat, house))
        return held

    def _void_hand(self, free: list[Card]) -> list[Card]:
        """The bidder's four cards of a void deal: those shown, or four without a 9 to king."""
        if self.shown is not None:
            return list(self.shown)
        low = [c for c in free if value(c) not in HOUSE_VALUES][:FIRST_ROUND]
        for card in low:
            free.remove(card)
        return low

    def _in_rounds(self, seat: int, holding: list[Card], rng: random.Random) -> list[Card]:
        """A seat's received cards (those it played, and ``holding`` now) in the order they
        were dealt: each card it played in the round it was played or earlier (the latest
        with room, which leaves the early rounds free for the keys below), for the bidder a
        card of the bid value among the first four, and for each house it built or broke a
        card of the house's value by then (:meth:`_duties`)."""
        sizes = [len(r) for r in self.rounds]
        played = sorted(self.played[seat], key=lambda item: item[1])
        bidding = seat == self.bidder and bool(self.bid) and not self.voided
        shift = 0
        if bidding and sizes and sizes[0] > FIRST_ROUND:
            # this seat saw its first cards in one round; the bidder's were its four, then more
            sizes = [FIRST_ROUND, sizes[0] - FIRST_ROUND, *sizes[1:]]
            shift = 1
        rounds: list[list[Card]] = [[] for _ in sizes]
        rest = list(holding)
        rng.shuffle(rest)
        if bidding:
            opening = played.pop(0)[0] if played and played[0][1] == 1 else None
            if opening is not None:
                rounds[0].append(opening)
            if opening is None or value(opening) != self.bid:
                key = next((c for c, _ in played if value(c) == self.bid), None)
                if key is None:
                    key = next(c for c in rest if value(c) == self.bid)
                    rest.remove(key)
                else:
                    played = [item for item in played if item[0] is not key]
                rounds[0].append(key)
        fixed = set(rounds[0])
        for card, played_in in played:
            played_in += shift
            index = next((i for i in reversed(range(min(played_in, len(sizes)))) if len(rounds[i]) < sizes[i]), None)
            if index is None:
                raise ImpossibleView(f"seat {seat} played more cards than it had been dealt")
            rounds[index].append(card)
        when = {card: round_ + shift for card, round_ in played}
        for house, by_round, usable in self._duties(seat, bidding, shift):
            self._keep_key(rounds, sizes, rest, house, by_round, usable, when, fixed)
        for i, size in enumerate(sizes):
            while len(rounds[i]) < size:
                rounds[i].append(rest.pop())
        return [c for r in rounds for c in r]

    def _duties(self, seat: int, bidding: bool, shift: int) -> list[tuple[int, int, set[Card]]]:
        """(value, rounds, cards) for each build or break ``seat`` made: it held a card of the
        house's value after the move, so among the cards of its first ``rounds`` rounds, one of
        ``cards`` (those of the value it played later) or of those it holds now. The bidder's
        opening move is made on its first four cards, round 1; ``shift`` moves every other
        round on when those four are a round of their own."""
        plays = self.played[seat]
        found = []
        count = 0
        for mover, token in self.moves:
            if mover != seat or token.isdigit():
                continue
            house = made_value(token)
            count += 1
            if house:
                later = {c for c, _ in plays[count:] if value(c) == house}
                opening = bidding and count == 1
                found.append((house, 1 if opening else plays[count - 1][1] + shift, later))
        return found

    @staticmethod
    def _keep_key(rounds: list[list[Card]], sizes: list[int], rest: list[Card], house: int, by_round: int,
                  usable: set[Card], when: Mapping[Card, int], fixed: set[Card]) -> None:
        """Make sure a card of value ``house`` arrived within the first ``by_round`` rounds: one
        of ``usable`` already placed there, else one moved there from a later round (a card
        played later may have arrived earlier) or from ``rest`` (cards held now), into the
        earliest of those rounds with room, or in exchange for a card there that was played
        late enough to have come later (``when``: the round each played card was played in;
        ``fixed`` cards stay). When none can be, the replay refuses the world."""
        early = range(min(by_round, len(sizes)))
        if any(c in usable for i in early for c in rounds[i]):
            return
        room = next((i for i in early if len(rounds[i]) < sizes[i]), None)
        for j in range(len(early), len(rounds)):
            key = next((c for c in rounds[j] if c in usable), None)
            if key is None:
                continue
            if room is not None:
                rounds[j].remove(key)
                rounds[room].append(key)
                return
            # no room: exchange it with an early card that may as well have come in round j
            for i in early:
                other = next((c for c in rounds[i] if c not in fixed and when.get(c, 0) > j), None)
                if other is not None:
                    rounds[i][rounds[i].index(other)], rounds[j][rounds[j].index(key)] = key, other
                    return
        key = next((c for c in rest if value(c) == house), None)
        if key is not None and room is not None:
            rest.remove(key)
            rounds[room].append(key)

    def replay(self, dealt: Mapping[Hashable, Sequence[Card]]) -> list[tuple[int, str]]:
        return self.moves
