"""Worlds weighed by a model of the other seats' plays (``ismcts:model=W``): the worlds drawn
still fit everything the seat was told, they favour the hands that explain what the others
played, the player stays deterministic at an iteration budget, and the option is off unless
asked for."""

from __future__ import annotations

import random
from typing import Hashable

from cardcli.cards import Card
from cardcli.games import registry
from cardcli.games.base import MatchState
from cardcli.games.card_bits import INDEX as CARD_INDEX
from cardcli.players.search.hooks import play_model
from cardcli.players.search.ismcts import moves_of
from cardcli.players.search.player import IsmctsPlayer, Settings
from cardcli.players.search.view import SeatView
from cardcli.players.search.weighing import RuleModel, weighed_draw
from cardcli.referee import Settings as MatchSettings
from cardcli.referee import play_match
from cardcli.seats.base import Request
from cardcli.seating import builtin
from cardcli.seats.builtin import PlayerSeat

SMALL = "iterations=24,worlds=6"
WORLDS = 24


def _misses(view: SeatView, rule: RuleModel, hands: list[list[str]], rng: random.Random) -> int:
    """The other seats' plays so far that the rule of thumb would not have made, in the deal
    whose hands as dealt are ``hands`` (a world's)."""
    assert view.start is not None and view.layout is not None
    dealt: dict[Hashable, list[Card]] = {s: [Card.parse(t) for t in hand] for s, hand in enumerate(hands)}
    state = view.start.clone()
    state.deal(view.layout.deck(dealt))
    model = RuleModel(rule.rule, 0.0)
    misses = 0
    for seat, token in view.replay(dealt):
        if seat != view.seat:
            misses += model.weight(state, seat, token, rng) == 0.0
        state.apply_quietly(seat, token)
    return misses


class Measuring(IsmctsPlayer):
    """An ismcts player with ``model=0.25`` that, at each of its plays once the others have
    played a while, draws worlds with the model and without it, checks each weighed world
    against what the seat was told, and counts how many of the others' plays each explains."""

    def __init__(self) -> None:
        super().__init__(Settings.parse(SMALL + ",model=0.25"))
        self.misses = {True: 0, False: 0}
        self.checked = 0

    def choose(self, request: Request) -> str:
        view = self.view
        assert view is not None, "the view was lost"
        played: list[list[Card]] = view.played  # type: ignore[attr-defined]
        others = sum(len(played[s]) for s in range(view.n) if s != view.seat)
        if request.kind == "play" and others >= 2 * view.n:
            model = view.play_model
            assert isinstance(model, RuleModel)
            for weighed in (True, False):
                view.play_model = model if weighed else None
                rng = random.Random(self.checked)
                for _ in range(WORLDS):
                    world = view.world(rng)
                    if weighed:
                        self._check_fits(view, world, request)
                    self.misses[weighed] += _misses(view, model, world.deal_facts()["hands"], random.Random(0))
            view.play_model = model
        return super().choose(request)

    def _check_fits(self, view: SeatView, world: MatchState, request: Request) -> None:
        assert moves_of(world, view.seat) == request.moves, "a weighed world offers the seat other moves"
        hands = world.deal_facts()["hands"]
        assert sorted(hands[view.seat]) == sorted(c.text for c in [*view.hand, *view.played[view.seat]])  # type: ignore[attr-defined]
        for seat in range(view.n):
            held = [Card.parse(t) for t in hands[seat] if Card.parse(t) not in view.played[seat]]  # type: ignore[attr-defined]
            voids = view.voids[seat]  # type: ignore[attr-defined]
            assert not {view.category(c) for c in held} & voids, "a weighed world gives a seat a suit it showed void"  # type: ignore[attr-defined]
        self.checked += 1


def test_weighed_worlds_fit_the_seat_s_view_and_explain_the_others_plays() -> None:
    """Over whole deals of Il Pigugnìn and Pepper against the heuristic, the worlds drawn with
    the model fit the seat's view exactly as the unweighed ones do (its hand and moves, every
    void shown), and the other seats' plays in them are the rule of thumb's markedly more
    often: a world in which an opponent ducked with the card the rule would duck with is
    favoured over one where it held a better card to duck with."""
    for game, players, seed in (("pigugnin", 4, 3), ("pepper", 3, 5)):
        player = Measuring()
        seats = [builtin("heuristic", f"h{i}", seed) for i in range(players)]
        seats[0] = PlayerSeat("ismcts", player)
        result = play_match(registry.resolve(game, None, {}, players, seed), seats, MatchSettings(max_deals=1))
        assert result.completed and player.failures == 0
        assert player.checked >= 3 * WORLDS, game
        weighed, plain = player.misses[True], player.misses[False]
        assert weighed < 0.93 * plain, (game, weighed, plain)


def test_the_rule_model_expects_the_game_s_own_rule() -> None:
    """The model is the game's own rule, not the shared one: in Il Pigugnìn's first trick a
    follower has no trick yet, and one that cannot win the trick keeps its strong cards, so
    the model expects its weakest card (the J♠ first, under a stronger spade), where the plain
    penalty rule would duck with its strongest losing card. That card keeps the whole chance of
    a world, any other card of the suit only the miss."""
    setup = registry.resolve("pigugnin", None, {}, 4, 0)
    hooks = setup.spec.search.load()  # type: ignore[union-attr]
    model = play_model(hooks, 4, 0.25)
    assert isinstance(model, RuleModel)
    rng = random.Random(1)
    found = 0
    for seed in range(200):
        state = setup.new_match()
        deck = list(setup.spec.deck())
        random.Random(seed).shuffle(deck)
        state.deal(deck)
        lead = state.decisions()[0]
        state.apply_quietly(lead.seat, lead.moves[0])
        decision = state.decisions()[0]
        led = Card.parse(lead.moves[0])
        power = state.tricks.ranking.power  # type: ignore[attr-defined]
        strength = {c: power[CARD_INDEX[c]] for c in map(Card.parse, decision.moves)}
        if len(strength) < 2 or any(c.suit != led.suit or s > power[CARD_INDEX[led]] for c, s in strength.items()):
            continue
        jack = Card.parse("JS")
        expected = jack if jack in strength else min(strength, key=strength.__getitem__)
        assert model.weight(state, decision.seat, expected.text, rng) == 1.0
        assert all(model.weight(state, decision.seat, c.text, rng) == 0.25 for c in strength if c != expected)
        found += 1
    assert found >= 3, "too few deals whose second seat could only duck, with two cards or more"


def test_the_player_with_the_model_is_deterministic_and_the_model_is_off_by_default() -> None:
    """Two runs of a Peppa and a Pepper deal with ``model=0.5`` at an iteration budget play the
    same moves; without ``model=`` no play model weighs the worlds, and Seep, whose playouts are
    uniformly random, has none to weigh them by."""
    for game, players in (("peppa", 4), ("pepper", 4)):
        runs = []
        for _ in range(2):
            setup = registry.resolve(game, None, {}, players, 9)
            seats = [builtin(f"ismcts:{SMALL},model=0.5", "i", 9),
                     *(builtin("heuristic", f"h{i}", 9) for i in range(1, players))]
            runs.append(play_match(setup, seats, MatchSettings(max_deals=1)).record["deals"])
        assert runs[0] == runs[1], game
    assert Settings.parse(SMALL).model == 1.0
    peppa = registry.GAMES["peppa"].search.load()  # type: ignore[union-attr]
    seep = registry.GAMES["seep"].search.load()  # type: ignore[union-attr]
    assert play_model(peppa, 4, 1.0) is None and play_model(seep, 4, 0.5) is None
    assert isinstance(play_model(peppa, 4, 0.5), RuleModel)


def test_a_weighed_draw_keeps_draws_in_proportion_to_their_weights() -> None:
    """Resampling keeps a candidate with chance proportional to its weight, so a kind of world
    three times likelier is kept about three times as often."""
    rng = random.Random(2)
    kept = [weighed_draw(lambda r: r.random() < 0.5, lambda heavy: 3.0 if heavy else 1.0, rng) for _ in range(4000)]
    share = sum(kept) / len(kept)
    assert 0.69 < share < 0.76  # 0.724 with 8 candidates (3/4 in the limit of many)
