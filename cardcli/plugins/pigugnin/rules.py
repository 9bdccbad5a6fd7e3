"""Il Pigugnìn (Busca Reggiana): 40 cards, 4 or 5 players, avoid points, pay busche.

``docs/rules/pigugnin.md`` explains every rule and option with the seed sentence or RULES.md
item (G1..G16) it follows. Seats are numbered clockwise; play goes counter-clockwise by
default, so the leader, the player after the dealer, is ``dealer-1``. The Italian suits map to
French ones with Spade = spades and Denari (coins) = diamonds, so the Pigugnìn is J♠ and the
settebello 7♦.

Moves come as protocol tokens (:meth:`PigugninMatch.apply`) or as integer actions
(:meth:`PigugninMatch.apply_action`): action ``a`` plays the ``a``-th card of the 40-card deck in
canonical order (:func:`action_text`, :func:`action_of`). Both ways share every check.
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from ...cards import Card, french_40
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
from ...games.card_bits import DECK, TEXTS, DeckActions, bit, indices, mask_of, texts
from ...games.notation import checked
from ...games.tricks import MaskHands, Ranking, TrickPlay, seat_order, step

PIGUGNIN = Card.parse("JS")
SETTEBELLO = Card.parse("7D")
POWER = {3: 10, 2: 9, 14: 8, 13: 7, 12: 6, 11: 5, 7: 4, 6: 3, 5: 2, 4: 1}
"""Trick rank, strongest first: 3, 2, A, K, Q (Cavallo), J (Fante), 7, 6, 5, 4."""
LAST_TRICK = 3
NO_TRICK_BUSCHE = {1: 2, 2: 3, 3: 4, 4: 5}
REASONS = ("no_trick", "threshold", "highest", "tie", "pigugnin")
"""Why a busca is paid, in the order they are charged and shown."""


def card_points(card: Card) -> int:
    """Ace 3; two, three and the figures 1; the rest 0 (35 a deal with the last trick)."""
    if card.rank == 14:
        return 3
    return 1 if card.rank in (2, 3, 11, 12, 13) else 0


def threshold_busche(points: int) -> int:
    """12-14 pay 1, 15-17 2, 18-20 3, 21-23 4, and from 24 one more per point (24 pays 5)."""
    if points < 12:
        return 0
    if points >= 24:
        return points - 19
    return (points - 12) // 3 + 1


@attrs.frozen
class PigugninOptions:
    """Every Pigugnìn house rule, with the defaults of RULES.md section 3."""

    direction: str = opt.option("ccw", "direction of deal and play (G1)", choices=("ccw", "cw"))
    first_dealer: str = opt.option(
        "random", "the first dealer: drawn from the seed, or a seat number", choices=("random", "0", "1", "2", "3", "4")
    )
    first_hand_leader: str = opt.option(
        "after_dealer",
        "who leads the first deal: the player after the dealer, or the holder of 7♦, the settebello (G2)",
        choices=("after_dealer", "seven_of_coins"),
    )
    first_trick_pigugnin_restriction: bool = opt.option(
        False, "J♠ may be played in the first trick only when it is the only legal card (G3)"
    )
    tie_scope: str = opt.option(
        "all",
        "which equal scores pay: every group, groups above 0, groups that pay already, or the top group only (G7)",
        choices=("all", "nonzero", "paying_only", "highest_only"),
    )
    cappotto_ends_match: bool = opt.option(True, "taking every trick of a deal wins the match at once (G10)")
    lose_at: int = opt.option(10, "busche at which a player is out (G11)", minimum=1)
    sole_loser_at: int = opt.option(20, "busche at which the only player out loses alone (G11)", minimum=1)
    boundary_tie: str = opt.option(
        "shared_loss", "a tie for the second losing place: all tied lose, or the match is annulled (G12)",
        choices=("shared_loss", "annul"),
    )
    winner_tie: str = opt.option(
        "draw", "a tie for the second winning place: the tied players draw, or all win (G13)",
        choices=("draw", "shared_win"),
    )


VARIANTS = (Variant("standard", "Busca Reggiana as the seed plays it: 4 players with 10 cards or 5 with 8"),)


class Phase(PhaseBase):
    """Where a match stands (:class:`PhaseBase`); the constants below are its members."""

    DEAL = "deal"
    PLAY = "play"
    OVER = "over"


DEAL = Phase.DEAL
PLAY = Phase.PLAY
OVER = Phase.OVER


Standings = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]
"""Winners, losers, draws, annulled."""


@attrs.frozen
class DealTally:
    """How a deal was scored: what its events tell, computed once with the state change."""

    points: list[int] | None
    """Each seat's card points, or None when somebody took no trick."""
    charges: dict[int, list[tuple[str, int]]]
    """Each seat's busche, with their reasons."""
    busche: list[int]
    capper: int | None
    """The seat that took every trick."""


class PigugninMatch(MaskHands, MatchBase):
    """A whole match of Pigugnìn, deal after deal, until two players are out.

    Two ways in share one set of rules: the protocol's text moves (:meth:`decisions`,
    :meth:`apply`, which also produce the events) and integer actions for search and playouts
    (:meth:`current_player`, :meth:`legal_actions`, :meth:`apply_action`), which skip the
    events and the texts.
    """

    phase: Phase

    def __init__(self, options: PigugninOptions, num_players: int = 4, first_dealer: int = 0):
        super().__init__()
        if num_players not in (4, 5):
            raise ValueError("Il Pigugnìn is played by 4 or 5 players")
        self.options = options
        self.num_players = num_players
        self.clockwise = options.direction == "cw"
        self.dealer = first_dealer
        self.phase = DEAL
        self.totals = [0] * num_players
        self.out: list[int] = []
        """Players out (at ``lose_at`` busche or more), in the order they went out."""
        self._dealt: tuple[int, ...] = ()
        self.hand_masks = [0] * num_players
        self.tricks = TrickPlay(self.hand_masks, 0, self.clockwise, self._trick_points)
        self._result: Standings | None = None
        self._capper: int | None = None

    # -- the protocol every game offers -------------------------------------------------------

    def deal_facts(self) -> dict[str, Any]:
        return {"hands": [list(texts(h)) for h in self._dealt]}

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        if self.phase is not DEAL:
            raise IllegalMoveError("no deal is due now")
        if len(deck) != 40 or mask_of(deck) != FULL_DECK:
            raise IllegalMoveError("a Pigugnìn deal needs the 40 cards, each once")
        if self._deals_started:
            self.dealer = self.next_dealer
        self._deals_started += 1
        n = self.num_players
        leader = step(self.dealer, n, self.clockwise)
        order = seat_order(leader, n, self.clockwise)
        hands = [0] * n
        for slot, seat in enumerate(order):
            hands[seat] = mask_of(deck[slot::n])
        self.hand_masks = hands
        self._dealt = tuple(hands)
        if self._deals_started == 1 and self.options.first_hand_leader == "seven_of_coins":
            leader = next(s for s, h in enumerate(hands) if h & SETTEBELLO_BIT)
        self.tricks = TrickPlay(hands, leader, self.clockwise, self._trick_points, RANKING)
        self.phase = PLAY
        events = [Event("deal", (str(self._deals_started), str(self.dealer)))]
        events += [Event("hand", texts(h), frozenset({s})) for s, h in enumerate(hands)]
        return events + self.tricks.start()

    @property
    def next_dealer(self) -> int:
        """Whoever took the Pigugnìn in the last deal deals the next one."""
        return next(s for s, taken in enumerate(self.tricks.taken) if taken & PIGUGNIN_BIT)

    def decisions(self) -> tuple[Decision, ...]:
        if self.phase is not PLAY:
            return ()
        return (Decision(self.tricks.turn, "play", texts(self.tricks.legal(self._legal_mask))),)

    def acting(self) -> tuple[tuple[int, str], ...]:
        return ((self.tricks.turn, "play"),) if self.phase is PLAY else ()

    def apply(self, seat: int, move: str) -> list[Event]:
        self.tricks.play(seat, checked(self._checked_card, seat, move))
        events = self.tricks.play_events()
        return events + self._deal_events(self._score_deal()) if self.tricks.finished else events

    def apply_quietly(self, seat: int, move: str) -> None:
        self._play(seat, checked(self._checked_card, seat, move))

    def clone(self) -> "PigugninMatch":
        """An independent copy: the totals, the players out, the hands and the trick play are
        copied, every immutable value (options, rankings, deal scores) is shared."""
        twin = self._twin()
        twin.totals = list(self.totals)
        twin.out = list(self.out)
        self._clone_play(twin, twin._trick_points)
        return twin

    # -- integer actions ----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to play, or -1 when a deal is due or the match is over. Every decision of
        Il Pigugnìn is one seat's, so there is nothing to put in order."""
        return self.tricks.turn if self.phase is PLAY else -1

    def legal_actions(self) -> tuple[int, ...]:
        """The cards :meth:`current_player` may play, as actions (sorted): the same cards, in
        the same order, as the tokens :meth:`decisions` offers."""
        if self.phase is not PLAY:
            return ()
        return CARD_ACTIONS.actions(self.tricks.legal(self._legal_mask))

    def apply_action(self, action: int) -> None:
        """Play the card of ``action`` for :meth:`current_player`, without events; an illegal
        action is refused with IllegalMoveError and changes nothing."""
        self._check_phase()
        index = CARD_ACTIONS.index(action)
        if index < 0:
            raise IllegalMoveError(f"action {action} is not a card: actions are 0..{NUM_ACTIONS - 1}")
        seat = self.tricks.turn
        self._check_legal(seat, index)
        self._play(seat, index)

    # -- checks and plays, shared by tokens and actions ---------------------------------------

    def _check_phase(self) -> None:
        if self.phase is not PLAY:
            raise IllegalMoveError(f"no move is due in phase {self.phase}")

    def _checked_card(self, seat: int, move: str) -> int:
        """The index of the card a play token names, once the play is checked; changes nothing,
        so :func:`~cardcli.games.notation.checked` may try a respelt token with it."""
        self._check_phase()
        index = self.tricks.index_for(seat, move)
        self._check_legal(seat, index)
        return index

    def _check_legal(self, seat: int, index: int) -> None:
        """Refuse a card of ``seat``'s, whose turn it is, that the rules do not let it play now."""
        if not self.tricks.legal(self._legal_mask) >> index & 1:
            follows = self.tricks.follow(seat) >> index & 1
            reason = "J♠ may not be played in the first trick" if follows else "must follow suit"
            raise IllegalMoveError(f"{TEXTS[index]} may not be played now: {reason}")

    def _play(self, seat: int, index: int) -> None:
        """Play a checked card; score the deal, without its events, after the last trick."""
        self.tricks.play(seat, index)
        if self.tricks.finished:
            self._score_deal()

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        if self._result is None:
            raise IllegalMoveError("the match is not over")
        winners, losers, draws, annulled = self._result
        if forfeits:
            winners, losers, draws, annulled = self._with_forfeits(forfeits)
        return Outcome(
            tuple(self.totals), winners, losers, draws, tuple(sorted(forfeits)), lower_is_better=True, annulled=annulled
        )

    # -- rules --------------------------------------------------------------------------------

    def _legal_mask(self, seat: int) -> int:
        allowed = self.tricks.follow(seat)
        if self.options.first_trick_pigugnin_restriction and self.tricks.number == 0:
            allowed = allowed & ~PIGUGNIN_BIT or allowed
        return allowed

    def _trick_points(self, taken: int, last: bool) -> int:
        return sum(CARD_POINTS[i] for i in indices(taken)) + (LAST_TRICK if last else 0)

    def deal_busche(self) -> tuple[list[int] | None, dict[int, list[tuple[str, int]]]]:
        """The card points (None when they are not counted) and each seat's busche with reasons."""
        n = self.num_players
        taken, won = self.tricks.taken, self.tricks.tricks_won
        charges: dict[int, list[tuple[str, int]]] = {s: [] for s in range(n)}
        trickless = [s for s in range(n) if won[s] == 0]
        points: list[int] | None = None
        if trickless:
            for s in trickless:
                charges[s].append(("no_trick", NO_TRICK_BUSCHE.get(len(trickless), len(trickless) + 1)))
        else:
            points = [self._trick_points(taken[s], False) for s in range(n)]
            points[self.tricks.last_winner or 0] += LAST_TRICK
            paying = set()
            for s in range(n):
                if threshold_busche(points[s]):
                    charges[s].append(("threshold", threshold_busche(points[s])))
                    paying.add(s)
            if not paying:
                top = max(points)
                for s in range(n):
                    if points[s] == top:
                        charges[s].append(("highest", 1))
                        paying.add(s)
            for group in self._tie_groups(points, paying):
                for s in group:
                    charges[s].append(("tie", len(group) - 1))
        pigugnin_taker = self.next_dealer
        charges[pigugnin_taker].append(("pigugnin", 1))
        return points, charges

    def _tie_groups(self, points: list[int], paying: set[int]) -> list[list[int]]:
        groups: dict[int, list[int]] = {}
        for s, p in enumerate(points):
            groups.setdefault(p, []).append(s)
        tied = {p: g for p, g in groups.items() if len(g) >= 2}
        scope = self.options.tie_scope
        if scope == "nonzero":
            tied = {p: g for p, g in tied.items() if p > 0}
        elif scope == "paying_only":
            tied = {p: g for p, g in tied.items() if set(g) <= paying}
        elif scope == "highest_only":
            top = max(points)
            tied = {p: g for p, g in tied.items() if p == top}
        return [tied[p] for p in sorted(tied, reverse=True)]

    def _score_deal(self) -> DealTally:
        """Score the finished deal and decide whether the match is over."""
        n = self.num_players
        points, charges = self.deal_busche()
        busche = [sum(count for _, count in charges[s]) for s in range(n)]
        before = list(self.totals)
        self.totals = [t + b for t, b in zip(self.totals, busche)]
        capper = next((s for s in range(n) if self.tricks.tricks_won[s] == self.tricks.total), None)
        notes = [f"{s}: " + ", ".join(f"{why} {count}" for why, count in charges[s]) for s in range(n) if charges[s]]
        if capper is not None:
            notes.insert(0, f"cappotto {capper}")
        self._scores.append(DealScore(self._deals_started, tuple(busche), tuple(self.totals), tuple(notes)))
        if capper is not None and self.options.cappotto_ends_match:
            self._capper = capper
        self._result = self._match_result(capper, before)
        self.phase = OVER if self._result is not None else DEAL
        return DealTally(points, charges, busche, capper)

    def _deal_events(self, tally: DealTally) -> list[Event]:
        """The events of the deal :meth:`_score_deal` has just scored."""
        n = self.num_players
        events: list[Event] = []
        if tally.points is None:
            trickless = [s for s in range(n) if self.tricks.tricks_won[s] == 0]
            events.append(Event("notricks", tuple(map(str, trickless))))
        else:
            events.append(Event("points", tuple(map(str, tally.points))))
        for s in range(n):
            for reason in REASONS:
                for why, count in tally.charges[s]:
                    if why == reason:
                        events.append(Event("busca", (str(s), reason, str(count))))
        if tally.capper is not None:
            events.append(Event("cappotto", (str(tally.capper),)))
        events.append(Event("score", (str(self._deals_started), *map(str, tally.busche))))
        events.append(Event("totals", tuple(map(str, self.totals))))
        return events

    def _match_result(self, capper: int | None, before: list[int]) -> Standings | None:
        """The end of the match after a deal, checked in the order RULES.md section 6 gives."""
        n = self.num_players
        lose_at = self.options.lose_at
        if self._capper is not None:
            return (self._capper,), tuple(s for s in range(n) if s != self._capper), (), False
        if all(t >= lose_at for t in self.totals):
            return (), (), (), True
        newly = [s for s in range(n) if self.totals[s] >= lose_at and before[s] < lose_at and s not in self.out]
        newly.sort(key=lambda s: -self.totals[s])
        free = 2 - len(self.out)
        if len(newly) > free:
            cut = self.totals[newly[free - 1]]
            if self.totals[newly[free]] == cut:
                # a tie for the second losing place
                if self.options.boundary_tie == "annul":
                    return (), (), (), True
                newly = [s for s in newly if self.totals[s] >= cut]
            else:
                newly = newly[:free]
        self.out += newly
        if len(self.out) >= 2 or (self.out and max(self.totals[s] for s in self.out) >= self.options.sole_loser_at):
            return self._standings(set(self.out))
        return None

    def adjudicate(self) -> None:
        """End the match between deals (the referee's deal limit): players already out lose,
        the two with the fewest busche win, the rest draw."""
        if self.phase is not DEAL:
            raise IllegalMoveError("a match is adjudicated only between deals")
        self._result = self._standings(set(self.out))
        self.phase = OVER

    def _standings(self, losers: set[int], may_annul: bool = True) -> Standings:
        """Winners are the two non-losers with the fewest busche; the other non-losers draw.
        With no possible winner the match is annulled, unless ``may_annul`` is false (a seat
        forfeited: it must lose, so the others draw)."""
        rest = sorted((s for s in range(self.num_players) if s not in losers), key=lambda s: self.totals[s])
        if len(rest) <= 2:
            winners = rest
        else:
            second, third = self.totals[rest[1]], self.totals[rest[2]]
            if second < third:
                winners = rest[:2]
            elif self.options.winner_tie == "shared_win":
                winners = [s for s in rest if self.totals[s] <= second]
            else:
                winners = [s for s in rest if self.totals[s] < second]
        if not winners and may_annul:
            return (), (), (), True
        draws = [s for s in rest if s not in winners]
        return tuple(sorted(winners)), tuple(sorted(losers)), tuple(sorted(draws)), False

    def _with_forfeits(self, forfeits: frozenset[int]) -> Standings:
        """A forfeited seat always loses. A cappotto winner who did not forfeit keeps the win;
        otherwise the losers by the rules and the forfeited seats lose, and the others are
        ranked as usual (a match the rules would annul gets a result, since somebody lost)."""
        assert self._result is not None
        winners, losers, _, _ = self._result
        if self._capper is not None and self._capper not in forfeits:
            return winners, losers, (), False
        return self._standings(set(losers) | set(forfeits), may_annul=False)


RANKING = Ranking.build(power=lambda card: POWER.get(card.rank, 0))
"""Printed suits, ranked 3, 2, A, K, Q, J, 7, 6, 5, 4 (the 8, 9 and 10 are not dealt)."""
CARD_POINTS = tuple(card_points(c) for c in DECK)
PIGUGNIN_BIT = bit(PIGUGNIN)
SETTEBELLO_BIT = bit(SETTEBELLO)
FULL_DECK = mask_of(french_40())

CARD_ACTIONS = DeckActions(french_40())
"""Action ``a`` plays the ``a``-th card of the 40 in canonical order (clubs, diamonds, hearts,
spades; each 2 to 7, then J, Q, K, A)."""
NUM_ACTIONS = CARD_ACTIONS.size
"""40: the size of the action space."""
_ACTION_OF_TEXT = {text: action for action, text in enumerate(CARD_ACTIONS.texts)}


def action_text(action: int) -> str:
    """The play token of ``action`` (``0`` is ``2C``, ``39`` is ``AS``)."""
    if not 0 <= action < NUM_ACTIONS:
        raise InvalidMoveError(f"not an action of Il Pigugnìn: {action} (actions are 0..{NUM_ACTIONS - 1})")
    return CARD_ACTIONS.texts[action]


def action_of(token: str) -> int:
    """The action of a play token (``QS`` is 37): the inverse of :func:`action_text`."""
    action = _ACTION_OF_TEXT.get(token)
    if action is None:
        raise InvalidMoveError(f"not a card of Il Pigugnìn's 40: {token!r}")
    return action
