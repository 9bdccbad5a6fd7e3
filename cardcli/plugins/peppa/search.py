"""Peppa's hooks for the search player: what its seat learns from the pass, the penalty
games' playouts (played by the compact loop of :mod:`.playout`, whole deals at a time), and
the pass left to the heuristic.

The heuristic makes Peppa's pass by default: 286 choices, each judged by whole-deal playouts,
are more than the search's budget can tell apart (measured in docs/players.md).
"""

from __future__ import annotations

import random
from typing import Hashable, Mapping, Sequence

from ...cards import Card
from ...players.search.hooks import SearchHooks
from ...players.search.playouts import Finish, Policy, TrickPolicy, compact_finish
from ...players.search.trick_view import TrickView
from ...players.search.worlds import ImpossibleView
from .playout import GREEDY, RANDOM, UnsupportedRules, compact, moves_left, play_deal
from .rules import PeppaMatch, pass_token


QUEEN = Card.parse("QS")
QUEEN_KIND = "QS"
"""The one card Peppa's refusals tell apart from its suit: a seat may be shown to hold no
spade but Q♠."""
NOT_POINTS = frozenset({"C", "D", "S"})


class PeppaView(TrickView):
    """Peppa: the pass adds what this seat gave and received to what it knows, and so do the
    optional rules on leading hearts and on the first trick. A heart led before hearts are
    broken says its leader holds only hearts; a heart or Q♠ in the first trick, where the rule
    forbids them, says its player had nothing else it could play. Without these a search draws
    worlds the replay refuses, and may find none that fits."""

    def reset_deal(self) -> None:
        super().reset_deal()
        self.broken = False
        """Whether hearts are broken (a heart played, or Q♠ when it breaks them)."""
        self.shown: list[set[str]] = [set() for _ in range(self.n)]
        """Kinds of card (:meth:`kind`) each seat was shown to lack by a rule, besides voids."""
        self.direction = "hold"
        self.gave: list[Card] = []
        self.target: int | None = None
        self.got: list[Card] = []
        self.giver: int | None = None
        self._pass_targets: list[int] | None = None
        self._passes: dict[int, list[Card]] = {}
        """The passes of the world last drawn, for :meth:`replay`."""

    def on_event(self, words: list[str]) -> None:
        head = words[0]
        if head == "passing":
            self.direction = words[1]
        elif head == "passed":
            self.target = int(words[1])
            self.gave = [Card.parse(w) for w in words[2:]]
            self.known[self.target] |= set(self.gave)
        elif head == "received":
            self.giver = int(words[1])
            self.got = [Card.parse(w) for w in words[2:]]
        else:
            super().on_event(words)
            if head == "play" and len(words) == 3:
                self._infer(int(words[1]), Card.parse(words[2]))

    def _infer(self, seat: int, card: Card) -> None:
        """What ``card``, just played by ``seat``, says of its hand under the rules in play
        (the engine's ``_legal_mask``: a rule that would leave nothing playable is skipped)."""
        options = self.setup.options
        trick = self.info.trick
        lead, first = len(trick) == 1, self.trick_number == 1
        forced_lead = lead and first and options.two_of_clubs_leads
        if card.suit == "H" and lead and not forced_lead and not self.broken and options.hearts_must_be_broken:
            self.shown[seat] |= NOT_POINTS | {QUEEN_KIND}
        elif first and options.no_points_first_trick and (card.suit == "H" or card == QUEEN):
            if lead or card.suit != trick[0][1].suit:
                self.shown[seat] |= NOT_POINTS
            elif card == QUEEN:
                self.shown[seat] |= {"S", QUEEN_KIND}
        if card.suit == "H" or (card == QUEEN and options.queen_breaks_hearts):
            self.broken = True

    def kind(self, card: Card) -> str:
        return QUEEN_KIND if card == QUEEN else self.category(card)

    def refusals(self, seat: int) -> frozenset[str]:
        voids = self.voids[seat]
        return frozenset(voids) | self.shown[seat] | ({QUEEN_KIND} if "S" in voids else set())

    def _passing_done(self) -> bool:
        return self.direction != "hold" and self.giver is not None

    def deal_unseen(self, rng: random.Random) -> dict[Hashable, list[Card]]:
        if self.direction != "hold" and not self._passing_done():
            if self.target is not None:
                raise ImpossibleView("this seat has no decision between its pass and the cards it receives")
            return self.current(rng)
        after = super().deal_unseen(rng)
        if self.direction == "hold":
            return after
        targets = self._targets()
        received: dict[int, list[Card]] = {}
        for s in range(self.n):
            if s == self.seat:
                received[s] = list(self.got)
            elif s == self.target:
                received[s] = list(self.gave)
            else:
                received[s] = rng.sample(list(after[s]), 3)
        dealt: dict[Hashable, list[Card]] = {}
        for s in range(self.n):
            kept = [c for c in after[s] if c not in received[s]]
            dealt[s] = kept + received[targets[s]]
        self._passes = {s: received[targets[s]] for s in range(self.n)}
        return dealt

    def _targets(self) -> list[int]:
        if self._pass_targets is None:
            assert self.start is not None
            probe = self.start.clone()
            probe.deal(self.deck)
            self._pass_targets = [probe.pass_target(s) for s in range(self.n)]  # type: ignore[attr-defined]
        return self._pass_targets

    def replay(self, dealt: Mapping[Hashable, Sequence[Card]]) -> list[tuple[int, str]]:
        if not self._passing_done():
            return self.moves
        passes = [(s, pass_token(self._passes[s])) for s in range(self.n)]
        return passes + self.moves


def rule_policy(num_players: int) -> Policy:
    return TrickPolicy(None, avoid=True)


def whole_playout(playout: str) -> Finish:
    """The compact loop of :mod:`.playout` playing what :func:`policy_for` gives for
    ``playout``: TrickPolicy's penalty-game rule (same epsilon) for ``rule``, uniformly random
    moves otherwise (Peppa has no card-first policy: ``card`` is random too)."""
    policy = GREEDY if playout == "rule" else RANDOM
    epsilon = TrickPolicy(None, avoid=True).epsilon

    return compact_finish(PeppaMatch, compact, UnsupportedRules, lambda start, rng: (play_deal(start, rng, policy, epsilon), moves_left(start)))


SEARCH = SearchHooks(view=PeppaView, delegated=frozenset({"pass"}), rule_policy=rule_policy,
                     whole_playout=whole_playout)
