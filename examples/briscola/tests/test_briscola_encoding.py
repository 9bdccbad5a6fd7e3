"""The learning environments' encoding (``cardcli_briscola.encoding``): the 40 card actions,
PettingZoo's own API and seed tests on ``cardcli.envs.briscola_v0``, an observation that says
what the seat holds and sees, and one that does not change when cards it cannot see change
places. Skipped without cardcli's ``rl`` extra (PettingZoo, Gymnasium, NumPy)."""

from __future__ import annotations

import random
from importlib import import_module
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardcli.cards import Card  # noqa: E402
from cardcli.envs.aec import CardGameEnv  # noqa: E402
from cardcli.games.base import Decision  # noqa: E402
from cardcli.games.card_bits import TEXTS, texts  # noqa: E402
from cardcli.games.dealing import shuffled  # noqa: E402

from cardcli_briscola import SPEC, BriscolaMatch  # noqa: E402
from cardcli_briscola.encoding import CARDS, ENCODING, LARGEST_STOCK  # noqa: E402

PETTINGZOO_DICT_WARNINGS = ("ignore:Observation is not a NumPy array",
                            "ignore:Observation space for each agent probably should be")
"""api_test warns of dictionary observations unless the environment is one of PettingZoo's own."""


def module() -> Any:
    import cardcli.envs

    assert "briscola" in cardcli.envs.GAMES
    return import_module("cardcli.envs.briscola_v0")


def raw(players: int, **options: Any) -> CardGameEnv:
    env: CardGameEnv = module().raw_env(players=players, options=options)
    return env


def test_the_spec_names_the_encoding() -> None:
    assert SPEC.encoding is not None and SPEC.encoding.load() is ENCODING and ENCODING.game == "briscola"


def test_the_40_actions_are_the_cards_in_canonical_order() -> None:
    codec = ENCODING.actions
    assert codec.size == 40
    deck = [c.text for c in SPEC.deck()]
    assert [codec.describe(a) for a in range(40)] == deck and (deck[0], deck[-1]) == ("2C", "AS")
    decision = Decision(0, "play", ("4D", "QH", "AS"))
    assert list(codec.legal(decision, ())) == [CARDS["4D"], CARDS["QH"], CARDS["AS"]] == sorted(codec.legal(decision, ()))
    for token in decision.moves:
        (action,) = codec.action(decision, token)
        assert codec.move(decision, (), action) == token
    assert codec.unencoded(decision) == 0


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.filterwarnings(*PETTINGZOO_DICT_WARNINGS)
def test_pettingzoo_api_and_seed_tests_pass(players: int) -> None:
    api_test(module().env(players=players), num_cycles=300)
    seed_test(lambda: module().env(players=players), num_cycles=300)


def block(env: CardGameEnv, observation: np.ndarray, name: str) -> np.ndarray:
    part: np.ndarray = observation[env.layout.span(name)]
    return part


def cards_in(env: CardGameEnv, observation: np.ndarray, name: str) -> set[str]:
    return {TEXTS_40[i] for i in np.flatnonzero(block(env, observation, name))}


TEXTS_40 = [c.text for c in SPEC.deck()]


@pytest.mark.parametrize("players, options", [(2, {}), (4, {"partners_see_hands": True, "direction": "cw"})])
@pytest.mark.parametrize("how_often", [1.0, 0.15])
def test_the_observation_says_what_the_seat_holds_and_sees(players: int, options: dict[str, Any], how_often: float) -> None:
    """Every seat observed after every step, or now and then: a seat's observation is written
    when it is asked for, from all that seat was told since it was last asked, so a seat that
    draws and plays several cards between two observations must show the hand it holds."""
    env = raw(players, **options)
    space = env.layout.space()
    for seed in range(3):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not env.table_now.over:
            match = env.table_now.state
            assert isinstance(match, BriscolaMatch)
            for seat in range(players):
                if rng.random() >= how_often:
                    continue
                observation = env.observe(f"player_{seat}")["observation"]
                assert space.contains(observation)
                assert cards_in(env, observation, "hand") == set(texts(match.hand_masks[seat]))
                assert cards_in(env, observation, "briscola") == {TEXTS[match.briscola]}
                left = len(match.stock) - match.drawn
                assert block(env, observation, "stock")[0] == pytest.approx(left / LARGEST_STOCK)
                holder = next((s for s, h in enumerate(match.hand_masks) if h >> match.briscola & 1), None)
                drawn = holder is not None and match.drawn == len(match.stock)
                expected = [0.0] * 4
                if drawn and holder is not None:
                    expected[(holder - seat) % players] = 1.0
                assert list(block(env, observation, "briscola_holder")) == expected
                partner = cards_in(env, observation, "partner")
                if players == 4 and match.drawn == len(match.stock):
                    assert partner == set(texts(match.hand_masks[(seat + 2) % 4]))
                else:
                    assert partner == set()
            env.step(rng.choice(list(env.legal_actions())))


def first_deal_moves(players: int, seed: int, steps: int, decks: Any = None) -> tuple[CardGameEnv, list[np.ndarray]]:
    """An environment that played ``steps`` random actions of the first deal, and every
    observation of every seat on the way."""
    env = raw(players)
    env.decks = decks
    env.reset(seed=seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        seen.append(np.stack([env.observe(agent)["observation"] for agent in env.possible_agents]))
        env.step(rng.choice(list(env.legal_actions())))
    seen.append(np.stack([env.observe(agent)["observation"] for agent in env.possible_agents]))
    return env, seen


@pytest.mark.parametrize("players", [2, 4])
def test_an_observation_does_not_change_when_cards_the_seat_cannot_see_change_places(players: int) -> None:
    """A card another seat holds, never played, changes places in the deck with one still in
    the stock (not the briscola): every move stays legal, every observation of the other seats
    stays the same, and the holder's changes."""
    for seed in range(4):
        steps = random.Random(seed).randrange(players, 5 * players)
        env, before = first_deal_moves(players, seed, steps)
        match = env.table_now.state
        assert isinstance(match, BriscolaMatch) and match.deal_number == 1
        holder = (seed + 1) % players
        held = texts(match.hand_masks[holder])
        undrawn = [TEXTS[i] for i in match.stock[match.drawn:] if i != match.briscola]
        a, b = held[0], undrawn[0]
        deck: list[Card] = list(shuffled(seed, 0, SPEC.deck()))
        i, j = (next(k for k, c in enumerate(deck) if c.text == t) for t in (a, b))
        deck[i], deck[j] = deck[j], deck[i]
        _, after = first_deal_moves(players, seed, steps, lambda k: deck if k == 0 else shuffled(seed, k, SPEC.deck()))
        for seat in range(players):
            same = all(np.array_equal(x[seat], y[seat]) for x, y in zip(before, after))
            assert same == (seat != holder), (seat, holder, a, b)


def test_the_layout_is_469_numbers_with_briscolas_own_blocks_last() -> None:
    env = raw(2)
    names = [b.name for b in env.layout.blocks]
    assert env.layout.size == 469
    assert names[-5:] == ["briscola", "stock", "briscola_holder", "partner", "decision"]
