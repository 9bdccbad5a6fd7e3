"""A seat's view of the match, kept up to date from its protocol lines alone.

What one seat knows: its hand, the trick, the deal so far, the totals. It is built only from
the lines that seat receives, so whatever reads it (the human seat's screen today) can never
show more than the seat may know; it needs no game engine. The facts every trick game shares
are here; a game's own facts (a pass, a floor, a contract) are kept by its subclass in the
game's folder (``view.py``), which the game's spec names (``view``). A game without one is
followed with this view alone.

A ``deal`` line starts the view of the deal afresh: the hand, the trick and whatever else the
deal before showed are gone from the table, and showing them at the next deal's first
decision would mislead. Only the totals carry over.
"""

from __future__ import annotations

from typing import AbstractSet, Callable, Sequence

from ..cards import Card, french_52, is_card, render_hand
from ..safe_text import display_name
from .notation import spent_card
from .trick_text import played


CARD_OF_TOKEN = {card.text: card for card in french_52()}
"""A card's token to the card: :func:`~cardcli.cards.is_card` and :meth:`Card.parse
<cardcli.cards.Card.parse>` in one lookup, on the path every seat's every move takes."""


class SeatView:
    points_word = "points"
    """What the points of the tricks a seat takes (``taken``) are, as the deal's running line
    names them (penalty points, card points)."""

    def __init__(self) -> None:
        self.seat = 0
        self.game = ""
        self.names: list[str] = []
        """Names as the ``player`` lines give them: a bot's text, escaped when shown."""
        self.hand: list[Card] = []
        """The seat's cards, in the order its lines gave them."""
        self.trick_number = 0
        """The trick in progress, counted from 1; 0 before the deal's first trick."""
        self.trick: list[tuple[int, Card]] = []
        """The cards played to the trick in progress: (seat, card) in play order. They stay
        after the trick is taken, until the next ``trick`` line (the human seat shows the trick
        just taken); :attr:`leader` says whether it is still in progress."""
        self.leader = -1
        """The seat that leads the trick in progress, from its ``trick`` line; -1 when no trick
        is in progress: before the deal's first ``trick`` line, and once a ``taken`` line has
        closed the trick (a learner's observation clears the trick there, not at the next
        lead)."""
        self.dealer = -1
        """Who dealt this deal, from its ``deal`` line; -1 before the first deal."""
        self.played: list[list[Card]] = []
        """The cards each seat has played in this deal, in order."""
        self.voids: list[set[str]] = []
        """The suits each seat has shown it holds none of in this deal, by not following them
        (suits as the game counts them when following: :meth:`category`)."""
        self.moves: list[tuple[int, str]] = []
        """The deal's moves that this seat saw made, in order, as (seat, token)."""
        self.totals: list[str] = []
        self.options: dict[str, str] = {}
        """The match's rule options, from the header's ``option`` lines."""
        self.sides: list[tuple[int, ...]] = []
        """The partnerships, from the header's ``team`` lines; none when each seat plays alone."""
        self.tricks: list[int] = []
        """Tricks each seat has taken in this deal."""
        self.points: list[int] = []
        """Points each seat has taken in this deal: its tricks' points (a game may count
        others, such as captured cards)."""
        self._printed_suits = type(self).category is SeatView.category
        """Whether cards follow their printed suits (:meth:`category` not overridden), read
        without a call on every play."""
        self.shorten: Callable[[str], str] = str
        """How a seat's name is shortened for the table (the human seat names built-in
        players without their parameters); as it is by default."""

    # -- lines ------------------------------------------------------------------------------

    def update(self, words: list[str]) -> None:
        """One line the seat received, split into words, which are read and never changed (a
        learning environment hands one list to every seat's view). The lines of play come
        first: every seat of a learning environment's match reads every move, so their branch
        is the hot one."""
        kind, count = words[0], len(words)
        if kind == "play" and count >= 3:
            seat, token = int(words[1]), words[2]
            self.moves.append((seat, token))
            self.on_play(seat, token)
            if seat == self.seat:
                spent = spent_card(token)
                if spent is not None:
                    card = Card.parse(spent)
                    if card in self.hand:
                        self.hand.remove(card)
            return
        if kind == "taken" and count >= 4 and int(words[2]) < len(self.tricks):
            taker = int(words[2])
            self.tricks[taker] += 1
            self.points[taker] += int(words[3])
            self.leader = -1
            return
        if kind == "trick" and count >= 2:
            self.trick_number, self.trick = int(words[1]), []
            self.leader = int(words[2]) if count >= 3 else -1
            return
        args = words[1:]
        if kind == "game" and len(args) >= 4:
            self.game, self.seat = args[0], int(args[3])
            self.names = [""] * int(args[2])
            self.totals, self.options, self.sides, self.dealer = [], {}, [], -1
            self.new_deal()
        elif kind == "option" and len(args) >= 2:
            self.options[args[0]] = args[1]
        elif kind == "team" and args:
            self.sides.append(tuple(int(s) for s in args))
        elif kind == "player" and len(args) >= 2 and int(args[0]) < len(self.names):
            self.names[int(args[0])] = " ".join(args[1:])
        elif kind == "deal":
            self.new_deal()
            if len(args) >= 2:
                self.dealer = int(args[1])
        elif kind == "hand":
            self.hand = [Card.parse(c) for c in args]
        elif kind == "totals":
            self.totals = list(args)
        else:
            self.on_event(kind, args)

    def new_deal(self) -> None:
        """Forget the deal before (its hand, its trick, whatever a game adds)."""
        self.hand, self.trick_number, self.trick, self.leader = [], 0, [], -1
        seats = len(self.names)
        self.tricks, self.points = [0] * seats, [0] * seats
        self.played = [[] for _ in range(seats)]
        self.voids = [set() for _ in range(seats)]
        self.moves = []

    def on_play(self, seat: int, token: str) -> None:
        """A move played by ``seat``: a card goes to the trick; a game whose moves are not
        single cards reads its own."""
        card = CARD_OF_TOKEN.get(token)
        if card is not None:
            trick = self.trick
            if trick and seat < len(self.voids):
                if self._printed_suits:
                    led = trick[0][1].suit
                    if card.suit != led:
                        self.voids[seat].add(led)
                else:
                    led = self.category(trick[0][1])
                    if self.category(card) != led:
                        self.voids[seat].add(led)
            trick.append((seat, card))
            if seat < len(self.played):
                self.played[seat].append(card)

    def category(self, card: Card) -> str:
        """The suit a card counts as when following: its own, unless the game says otherwise
        (a trump may take a card into its suit)."""
        return card.suit

    def on_event(self, kind: str, args: list[str]) -> None:
        """A line of the game's own, which this view does not follow."""

    # -- what it shows ----------------------------------------------------------------------

    def deal_so_far(self) -> tuple[str, list[str]]:
        """The deal so far, as far as this seat's lines tell it: a heading (``this deal,
        penalty points (tricks):``) and an entry per seat or side; no entries before there is
        anything to count. The trick games count the points of the tricks each seat took
        (``taken``), before the deal's end turns them into a score."""
        if not self.trick_number:
            return "", []
        entries = [f"{self.who(seat)} {points} ({taken})"
                   for seat, (points, taken) in enumerate(zip(self.points, self.tricks))]
        return f"this deal, {self.points_word} (tricks):", entries

    def table_text(self) -> str:
        """What lies on the table for all to see, in one line: the trick in progress as the
        replay writes a trick (``trick 3: 1:ann Q♠, 2:bob 10♠``); empty before the deal's
        first trick. Shown at this seat's own requests, so a trick with no card yet is its
        lead."""
        if not self.trick_number:
            return ""
        plays = ", ".join(played(self.who(seat), card.text) for seat, card in self.trick)
        return f"trick {self.trick_number}: {plays or 'you lead'}"

    def move_label(self, move: str) -> str:
        """A move as a person reads it: a card with its suit symbol (``Q♠``), several cards (a
        pass) likewise, anything else (a bid, a trump) as its token."""
        if is_card(move):
            return Card.parse(move).symbol()
        if "+" in move and ":" not in move and all(is_card(c) for c in move.split("+")):
            return " ".join(Card.parse(c).symbol() for c in move.split("+"))
        return move

    def hand_text(self) -> str:
        return render_hand(self.hand)

    # -- what strategies read ---------------------------------------------------------------

    def seen(self) -> AbstractSet[Card]:
        """The cards this seat has seen in this deal and knows to be in no other hand: in the
        trick games, every card played, by any seat (a game may know more: its floor)."""
        return {card for cards in self.played for card in cards}

    # -- helpers ----------------------------------------------------------------------------

    def side_tally(self, values: Sequence[int]) -> list[tuple[str, int, tuple[int, ...]]]:
        """``values`` added up per side, each with its label (``0+2``, or ``1:ann`` for a seat
        that plays alone) and its seats."""
        sides = self.sides or [(seat,) for seat in range(len(self.names))]
        return [("+".join(map(str, side)) if len(side) > 1 else self.who(side[0]),
                 sum(values[s] for s in side if s < len(values)), side) for side in sides]

    def who(self, seat: int) -> str:
        """A seat as every renderer writes it, ``2:ann``, its name shortened and escaped: a
        bot's name is never raw terminal text."""
        return f"{seat}:{display_name(self.shorten(self.names[seat])) if seat < len(self.names) else ''}"

    def short_names(self) -> list[str]:
        """The names as shown (see :attr:`shorten`)."""
        return [self.shorten(n) for n in self.names]


def view_for(game: str) -> SeatView:
    """A new view of a match of ``game``: the game's own (its spec's ``view``), or this
    module's for a game without one or a name no game has."""
    from . import registry

    spec = registry.GAMES.get(game) if game in registry.GAMES else None
    if spec is None or spec.view is None:
        return SeatView()
    return spec.view.load()()
