"""Briscola's hooks for the search player (``--seat ismcts``): a seat view for a game whose
hands refill from a stock, and the playout rule that measured best.

**The view.** cardcli's search player (:class:`~cardcli.players.search.view.SeatView`) draws a
*world* by dealing a whole deck at the start of the deal (``deal_unseen``, placed by the
:class:`~cardcli.players.search.view.Layout` read from :meth:`~.rules.BriscolaMatch.deal_facts`)
and replaying the deal's moves on it through the rules. In Briscola the deck is the three
cards of each hand *and the stock in drawing order*, and the drawing is the rules' own: after
each trick the taker draws first, then the others in the direction of play. So a world must
put in each seat's hand, at the start of the deal or at the right place of the stock, every
card that seat later played, early enough to have held it when it played it; the rest is
free. What a seat knows (its lines alone, docs/protocol.md):

* its own three cards and every card it drew (its ``hand`` and ``draw <seat> <card>`` lines),
  so its own places in the deck are known;
* every card played (``play``), and which seat drew the stock's ``i``-th card (the order of the
  ``draw`` lines, one a seat and round);
* the turned-up briscola, the stock's last card, seen drawn by whoever draws it;
* with ``partners_see_hands``, its partner's hand once the stock is gone (``partner``).

The cards it has not seen are spread uniformly over the other hands *now* and the stock still
to draw (:meth:`BriscolaView.current`): nothing a seat is told makes one of them likelier in one
place than in another, since there is no duty to follow suit that would show a void. Then
each other seat's history is rebuilt (:meth:`BriscolaView.received`): its places in the deck
are its three dealt cards and its draws, in time order; the briscola, if it drew it, takes
the place it was drawn in; each card it played takes the earliest free place it had received
by the trick it played it in; the cards it holds now fill the places left. Any card it
played fits: by trick ``t`` a seat has received ``t+2`` cards (three, and one a trick) and has
played ``t-1`` before. The replay through the rules is the last check of that construction.

**The playouts** are cardcli's rule of thumb for trick-taking games
(:class:`~cardcli.players.search.playouts.TrickPolicy`, over the engine's card actions, with the
partners of four players): lead the strongest card, take the trick as cheaply as possible
unless a partner holds it, else play the weakest card, a non-trump first. A rule of
Briscola's own, the heuristic's rules in integer operations (lead a liscio, take only a trick
worth taking, load a partner's trick), was tried first and measured against it, the same
search at its default budget with one rule or the other, 20 seeds each played from both seats
(two players): the Briscola rule won 12 matches, this one 28. Playouts that contest every
trick judge a position better than playouts that play as cautiously as the heuristic does.
Uniformly random playouts (``playout=random``) won 18 of 30 matches against the heuristic
where these won 21 (the package's README).
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence

from cardcli.cards import Card
from cardcli.players.search.hooks import SearchHooks
from cardcli.players.search.playouts import Policy, TrickPolicy
from cardcli.players.search.view import Header, SeatView, other_seats
from cardcli.players.search.worlds import ImpossibleView, Slot, allocate

from .deck import CARD_ACTIONS
from .rules import HAND_SIZE

STOCK = "stock"
"""The key of the stock in :meth:`~.rules.BriscolaMatch.deal_facts` and so in the layout."""


def _no_category(card: Card) -> str:
    """Briscola has no duty to follow suit, so no seat is ever known void: one category."""
    return ""


class BriscolaView(SeatView):
    """A Briscola seat's knowledge: its hand and draws, the plays, who drew what, the briscola."""

    def __init__(self, header: Header) -> None:
        super().__init__(header)
        self.stock_size = len(self.deck) - HAND_SIZE * self.n
        self.partner = (self.seat + 2) % 4 if self.n == 4 else None
        self.reset_deal()

    def reset_deal(self) -> None:
        self.dealt: list[Card] = []
        """This seat's three cards as dealt."""
        self.hand: set[Card] = set()
        """This seat's cards now."""
        self.briscola: Card | None = None
        self.draws: list[tuple[int, Card | None]] = []
        """The stock's cards drawn so far, in drawing order: the drawer, and the card when this
        seat saw it (its own draws, and the briscola, drawn in sight of all)."""
        self.played: list[list[Card]] = [[] for _ in range(self.n)]
        self.known: list[set[Card]] = [set() for _ in range(self.n)]
        """Cards known to be in another seat's hand now (the briscola it drew, a partner's
        hand shown)."""
        self.moves: list[tuple[int, str]] = []
        self._stock_order: tuple[int, ...] | None = None

    # -- lines --------------------------------------------------------------------------------

    def on_event(self, words: list[str]) -> None:
        head = words[0]
        if head == "hand":
            self.dealt = [Card.parse(w) for w in words[1:]]
            self.hand = set(self.dealt)
        elif head == "briscola" and len(words) == 2:
            self.briscola = Card.parse(words[1])
        elif head == "draw" and len(words) in (2, 3):
            seat = int(words[1])
            card = Card.parse(words[2]) if len(words) == 3 else None
            self.draws.append((seat, card))
            if card is not None:
                if seat == self.seat:
                    self.hand.add(card)
                else:
                    self.known[seat].add(card)
        elif head == "partner" and len(words) > 2:
            self.known[int(words[1])] = {Card.parse(w) for w in words[2:]}
        elif head == "play" and len(words) == 3:
            seat, card = int(words[1]), Card.parse(words[2])
            self.played[seat].append(card)
            self.known[seat].discard(card)
            self.hand.discard(card)
            self.moves.append((seat, card.text))

    # -- worlds -------------------------------------------------------------------------------

    def holding(self, seat: int) -> int:
        """How many cards ``seat`` holds now: three, one more a draw, one less a play."""
        drew = sum(1 for drawer, _ in self.draws if drawer == seat)
        return HAND_SIZE + drew - len(self.played[seat])

    def current(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        """Every hand now and the stock still to draw (in drawing order, the briscola last),
        the cards this seat has not seen spread at random over the other hands and the stock."""
        if self.briscola is None:
            raise ImpossibleView("a Briscola deal without its briscola line")
        mine = set(self.dealt) | {c for seat, c in self.draws if seat == self.seat and c is not None}
        gone = {c for cards in self.played for c in cards}
        placed = set().union(*self.known)
        undrawn = len(self.draws) < self.stock_size
        pool = [c for c in self.deck
                if c not in mine and c not in gone and c not in placed and not (undrawn and c == self.briscola)]
        slots = [Slot(s, self.holding(s) - len(self.known[s])) for s in other_seats(self)]
        slots.append(Slot(STOCK, self.stock_size - len(self.draws) - int(undrawn)))
        dealt = allocate(pool, slots, _no_category, rng)
        for s in other_seats(self):
            dealt[s] += sorted(self.known[s], key=lambda c: c.sort_key)
        dealt[self.seat] = sorted(self.hand, key=lambda c: c.sort_key)
        if undrawn:
            dealt[STOCK].append(self.briscola)
        return dealt

    def received(self, seat: int, holding: Sequence[Card]) -> list[Card]:
        """The cards ``seat`` received this deal in time order, its three dealt cards and then
        its draws, given the cards it holds now: a history that fits its plays (see the
        module's docstring). This seat's own is known; another's is built."""
        draws = [i for i, (drawer, _) in enumerate(self.draws) if drawer == seat]
        if seat == self.seat:
            return self.dealt + [self.draws[i][1] for i in draws]  # type: ignore[misc]
        places: list[Card | None] = [None] * (HAND_SIZE + len(draws))
        # the trick from which each place's card is in the hand: a draw of round r (the
        # stock's cards r*n to r*n+n-1, counted from 0) comes after trick r+1
        ready = [1] * HAND_SIZE + [i // self.n + 2 for i in draws]
        for k, i in enumerate(draws):
            if self.draws[i][1] is not None:
                places[HAND_SIZE + k] = self.draws[i][1]
        fixed = {c for c in places if c is not None}
        for trick, card in enumerate(self.played[seat], start=1):
            if card in fixed:
                continue
            free = next((k for k, c in enumerate(places) if c is None and ready[k] <= trick), None)
            if free is None:
                raise ImpossibleView(f"seat {seat} played {card.text} in trick {trick} before it could hold it")
            places[free] = card
        rest = [c for c in holding if c not in fixed]
        free_places = [k for k, c in enumerate(places) if c is None]
        if len(rest) != len(free_places):
            raise ImpossibleView(f"seat {seat} holds {len(rest)} cards for {len(free_places)} places")
        for k, card in zip(free_places, rest):
            places[k] = card
        return places  # type: ignore[return-value]

    def deal_unseen(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        """The deal as dealt in a world: each seat's three cards, and the stock in the layout's
        order, built from :meth:`current` and each seat's :meth:`received` cards."""
        now = self.current(rng)
        received = {s: self.received(s, now[s]) for s in range(self.n)}
        drawn = [0] * self.n
        stock: list[Card] = []
        for seat, _ in self.draws:
            stock.append(received[seat][HAND_SIZE + drawn[seat]])
            drawn[seat] += 1
        stock += now[STOCK]
        dealt: dict[Hashable, list[Card]] = {s: received[s][:HAND_SIZE] for s in range(self.n)}
        dealt[STOCK] = [stock[i] for i in self.stock_order()]
        return dealt

    def stock_order(self) -> tuple[int, ...]:
        """For each of the layout's stock places (deck positions, in increasing order), the
        drawing index of the card that goes there. The layout sorts a place's positions, while
        the stock is drawn in another order (the briscola is dealt before the stock yet drawn
        last), so the order is read from a probe deal, as the layout itself was."""
        if self._stock_order is None:
            assert self.start is not None and self.layout is not None
            probe = self.start.clone()
            probe.deal(self.deck)
            position = {c.text: i for i, c in enumerate(self.deck)}
            drawing = [position[t] for t in probe.deal_facts()[STOCK]]
            self._stock_order = tuple(drawing.index(p) for p in self.layout.places[STOCK])
        return self._stock_order

    def replay(self, dealt: Mapping[Hashable, Sequence[Card]]) -> list[tuple[int, str]]:
        """The plays so far: the rules draw from the world's stock after each trick."""
        return self.moves


def rule_policy(num_players: int) -> Policy:
    """cardcli's trick-taking playout rule, with each seat's partner when four play."""
    partners = [(seat + 2) % 4 for seat in range(4)] if num_players == 4 else None
    return TrickPolicy(CARD_ACTIONS.index_of, avoid=False, partners=partners)


SEARCH = SearchHooks(view=BriscolaView, rule_policy=rule_policy)
"""The search player's hooks: the view above, the trick-taking playouts, the shared default
budget (a decision takes about 0.1 s of processor time, at most 0.2 s: the README)."""
