"""The learning environments' observations are an encoding of the game's seat view
(cardcli/envs/seat_features.py): each seat's features keep the game's own view, told the seat's
lines, and the vector, which is written again only where the view changed, is at every step the
one a fresh encoding of that view gives. A game's features written before they read a view (the
way examples/briscola keeps its own blocks from its own lines) still work."""

from __future__ import annotations

import copy
import random
from importlib import import_module
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from cardcli.envs.aec import CardGameEnv
from cardcli.envs.seat_features import SeatFeatures
from cardcli.envs.trick_features import TrickFeatures, TrickGame, trick_layout
from cardcli.envs.vector_layout import Block
from cardcli.games.base import Event
from cardcli.games.card_bits import INDEX_OF_TEXT
from cardcli.games.view import view_for

CASES = [("peppa", 4), ("seep", 2), ("seep", 3), ("seep", 4), ("pigugnin", 4), ("pigugnin", 5),
         ("pepper", 2), ("pepper", 3), ("pepper", 4)]


def raw(game: str, players: int, **kwargs: Any) -> CardGameEnv:
    env: CardGameEnv = import_module(f"cardcli.envs.{game}_v0").raw_env(players=players, **kwargs)
    return env


def afresh(env: CardGameEnv, features: SeatFeatures) -> SeatFeatures:
    """Features of the same seat with nothing written yet, over a copy of ``features``' view."""
    fresh = env.encoding.features(features.seat, env.table_now.setup, env.layout)
    fresh.view = copy.deepcopy(features.view)
    return fresh


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_observation_is_what_a_fresh_encoding_of_the_seats_view_gives(game: str, players: int) -> None:
    """Every seat, at every step of whole matches (a few deals each, so deals and matches end),
    observed as the acting seat is and with no decision: the vector kept up to date block by
    block is the vector encoded from nothing but the view."""
    env = raw(game, players, max_deals=2)
    rng = random.Random(f"afresh/{game}/{players}")
    for seed in range(2):
        env.reset(seed=seed)
        while True:
            decision = env.decision()
            for features in env.seat_features:
                fresh = afresh(env, features)
                acting = decision is not None and decision.seat == features.seat
                kind = decision.kind if decision is not None and acting else None
                picked = env.picked if acting else ()
                assert np.array_equal(features.observe(kind, picked), fresh.observe(kind, picked))
                assert np.array_equal(features.observe(None), fresh.observe(None))
            if env.table_now.over:
                break
            env.step(rng.choice(list(env.legal_actions())))


@pytest.mark.parametrize(("game", "players"), [("peppa", 4), ("seep", 3), ("pigugnin", 5), ("pepper", 2)])
def test_the_features_keep_the_games_own_view_told_the_match_header(game: str, players: int) -> None:
    env = raw(game, players, options={"pepper": {"target": 20}}.get(game, {}))
    env.reset(seed=5)
    for seat, features in enumerate(env.seat_features):
        view = features.view
        assert type(view) is type(view_for(game))
        assert (view.game, view.seat, len(view.names)) == (game, seat, players)
        assert view.dealer == env.table_now.state.dealer
        if game == "pepper":
            assert view.options["target"] == "20"


CARDS = dict(INDEX_OF_TEXT.items())
GAME = TrickGame(CARDS, 4, 0, 10.0, ("play",), (4,))
LAYOUT = trick_layout(GAME, (0.0, 1.0), [Block("marked", 52, "cards a line of the game's own marked")])


class MarkingFeatures(TrickFeatures):
    """A game's features in the way written before they read a view: a block of its own, kept
    from a line of its own (``mark <card>``) and cleared at each deal."""

    def on_event(self, kind: str, args: tuple[str, ...]) -> None:
        if kind == "mark":
            self.set_cards("marked", args, self.cards)
        super().on_event(kind, args)

    def new_deal(self) -> None:
        super().new_deal()
        self.clear("marked")


def test_features_with_lines_of_their_own_keep_their_blocks_beside_the_views() -> None:
    features = MarkingFeatures(1, 4, LAYOUT, GAME, 13)

    def feed(*lines: str) -> None:
        features.feed([Event(line.split()[0], tuple(line.split()[1:])) for line in lines])

    def shown(block: str) -> list[int]:
        return np.flatnonzero(features.observe("play")[LAYOUT.span(block)]).tolist()

    feed("deal 1 0", "mark QS", "trick 1 0", "play 0 2C")
    seat_0 = 3 * 52  # seat 0 is the third after seat 1
    assert shown("marked") == [CARDS["QS"]]
    assert shown("trick") == shown("played") == [seat_0 + CARDS["2C"]]
    assert shown("leader") == shown("dealer") == [3]
    feed("deal 2 1")
    assert shown("marked") == shown("trick") == shown("played") == [] and shown("dealer") == [0]


def test_an_environment_gives_features_made_without_a_view_the_games_own() -> None:
    """Features whose factory passes no view (a game's features written before they read one,
    as examples/briscola's) are given the game's seat view before the first line: they show what
    the game's own features show."""
    from cardcli.envs.encoding import GameEncoding
    from cardcli.plugins.pigugnin import encoding as pigugnin

    plain = raw("pigugnin", 4)
    viewless = raw("pigugnin", 4)
    viewless.encoding = GameEncoding("pigugnin", pigugnin.ENCODING.actions, pigugnin.layout,
                                     lambda seat, setup, layout: TrickFeatures(
                                         seat, 4, layout, pigugnin._game(setup), 10))
    rng = random.Random(3)
    for env in (plain, viewless):
        env.reset(seed=3)
    assert all(type(f.view) is type(view_for("pigugnin")) and f.view_given for f in viewless.seat_features)
    for _ in range(60):
        for agent in plain.possible_agents:
            assert np.array_equal(plain.observe(agent)["observation"], viewless.observe(agent)["observation"])
        action = rng.choice(list(plain.legal_actions()))
        plain.step(action)
        viewless.step(action)
