"""The learning environments (cardcli.envs, docs/rl.md): PettingZoo's own API and seed tests
for every game and player count, whole matches with random masked actions, observations that
hold only the seat's own information, seeds that deal as ``cardcli play`` deals, the text of
``cardcli replay``, the fixed action encodings, and the single-agent environment."""

from __future__ import annotations

import random
import re
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from cardcli.cli.replay import render as replay_render
from cardcli.plugins.seep import actions as seep_actions
from cardcli.envs.aec import CardGameEnv
from cardcli.envs.errors import IllegalActionError, MissingExtraError
from cardcli.envs.single_agent import single_agent_env
from cardcli.errors import CardcliError, UsageError
from cardcli.games import registry
from cardcli.games.card_bits import INDEX_OF_TEXT, TEXTS
from cardcli.games.base import Event
from cardcli.games.dealing import shuffled
from cardcli.games.notation import spent_card
from cardcli.referee import Settings, play_match
from cardcli.seating import builtin
from cardcli.seats.builtin import scripted_seat
from harness import hidden_swaps, swapped_decks

ROOT = Path(__file__).resolve().parent.parent
CASES = [(spec.name, n) for spec in registry.GAMES.values() for n in sorted(spec.player_counts)]
"""Every game and player count."""
PETTINGZOO_DICT_WARNINGS = [
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
]
"""api_test warns of dictionary observations unless the environment is one of PettingZoo's own
classic ones (its list of names); they have the same shape as ours."""
API_CYCLES = 300
"""Turns of every agent in PettingZoo's tests (its default is 1000): whole matches of every game
but Pepper, whose random bidders play on for hundreds of deals, within the file's time budget."""
CARD = re.compile(r"[2-9TJQKA][CDHS]")


def raw(game: str, players: int, **kwargs: Any) -> CardGameEnv:
    return import_module(f"cardcli.envs.{game}_v0").raw_env(players=players, **kwargs)


def wrapped(game: str, players: int, **kwargs: Any) -> Any:
    return import_module(f"cardcli.envs.{game}_v0").env(players=players, **kwargs)


def random_action(env: CardGameEnv, rng: random.Random) -> int:
    return rng.choice(list(env.legal_actions()))


# -- PettingZoo's own tests -----------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.filterwarnings(*PETTINGZOO_DICT_WARNINGS)
def test_pettingzoo_api_and_seed_tests_pass(game: str, players: int) -> None:
    api_test(wrapped(game, players), num_cycles=API_CYCLES)
    seed_test(lambda: wrapped(game, players), num_cycles=API_CYCLES)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_masked_actions_play_whole_matches_and_rewards_add_up_to_the_result(game: str, players: int) -> None:
    """Each agent's rewards over a match add up to its seat's final total (negated where lower
    is better) and, when the match ends by its rules, +1 for a win and -1 for a loss; the deal
    limit truncates instead, without a result reward."""
    max_deals = 40
    env = wrapped(game, players, max_deals=max_deals)
    rng = np.random.default_rng(7)
    for seed in (1, 2):
        env.reset(seed=seed)
        gained = dict.fromkeys(env.possible_agents, 0.0)
        ends: dict[str, tuple[bool, bool, dict[str, Any]]] = {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            gained[agent] += reward
            if terminated or truncated:
                ends[agent] = (terminated, truncated, info)
                env.step(None)
                continue
            assert np.array_equal(observation["action_mask"], info["action_mask"])
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert set(ends) == set(env.possible_agents) and not env.agents
        unwrapped = env.unwrapped
        outcome = unwrapped.outcome
        sign = -1 if unwrapped.setup.spec.lower_is_better else 1
        cut = unwrapped.table_now.truncated
        assert not cut or unwrapped.table_now.state.deal_number == max_deals
        assert not cut or game == "pepper"  # random bidders in Pepper can play on for hundreds of deals
        for seat, agent in enumerate(env.possible_agents):
            terminated, truncated, info = ends[agent]
            assert (terminated, truncated) == (not cut, cut)
            standing = outcome.standing(seat)
            assert info["standing"] == standing
            result = 0.0 if cut else {"win": 1.0, "lose": -1.0}.get(standing, 0.0)
            assert gained[agent] == pytest.approx(sign * outcome.scores[seat] + result)


def test_an_illegal_action_ends_the_match_with_a_penalty_or_is_refused_by_the_raw_env(
    caplog: pytest.LogCaptureFixture,
) -> None:
    env = wrapped("pigugnin", 4)
    env.reset(seed=3)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert "Illegal move" in caplog.text
    assert all(env.terminations.values()) and env.rewards[agent] == -1.0
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)

    plain = raw("seep", 3)
    plain.reset(seed=3)
    before = plain.observe(plain.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal") as refused:
        plain.step(illegal)
    assert isinstance(refused.value, CardcliError)
    after = plain.observe(plain.agent_selection)
    assert np.array_equal(before["observation"], after["observation"]) and not plain.table_now.moves


# -- what a seat is told, and only that ---------------------------------------------------------


class EventLog:
    """The events each seat was told in the current deal (a follower of the match)."""

    def __init__(self, players: int) -> None:
        self.told: list[list[Event]] = [[] for _ in range(players)]

    def follower(self, setup: Any) -> Any:
        return self.follow

    def follow(self, events: Any) -> None:
        for event in events:
            for seat, told in enumerate(self.told):
                if event.kind == "deal":
                    told.clear()
                if event.visible_to(seat):
                    told.append(event)

    def cards_told(self, seat: int) -> set[str]:
        """Every card named in an event ``seat`` was told in the current deal."""
        return {card for event in self.told[seat] for card in CARD.findall(event.line())}


def seat_view(env: CardGameEnv, seat: int) -> np.ndarray:
    observed = env.observe(env.possible_agents[seat])
    return np.concatenate([observed["observation"], observed["action_mask"]])


def replay_deal(game: str, players: int, seed: int, decks: Any, moves: list[Any], deal: int,
                picked: tuple[int, ...], watch: int) -> tuple[list[np.ndarray], CardGameEnv]:
    """The match of ``seed`` dealt from ``decks``, its ``moves`` made again by their tokens and
    then the ``picked`` cards of a pass in progress; every observation of ``watch`` from the
    start of the deal of index ``deal``. IllegalActionError when a move does not fit."""
    env = raw(game, players)
    env.decks = decks
    env.reset(seed=seed)
    views = []
    for move in moves:
        if move.deal == deal + 1 and not views:
            views.append(seat_view(env, watch))
        decision = env.decision()
        if decision is None or decision.seat != move.seat or move.move not in decision.moves:
            raise IllegalActionError(f"{move.move} does not fit this deal")
        for action in env.actions_of(move.move):
            env.step(action)
            if views:
                views.append(seat_view(env, watch))
    for action in picked:
        env.step(action)
        views.append(seat_view(env, watch))
    return views, env


@pytest.mark.parametrize(("game", "players"), CASES)
def test_an_observation_does_not_change_when_the_other_seats_hidden_cards_are_swapped(game: str, players: int) -> None:
    """Two cards the watching seat has never been told of change places in the deck
    (:func:`harness.hidden_swaps`): one dealt to another seat, which was told of it, the other
    in another place (a third seat's hand, a packet not dealt yet, Pepper's dead hand). When
    every move of the deal so far is still legal (the swap fits all that is public), every
    observation of the watching seat from the deal's start on is the
    same, while the seat dealt the first card sees a change. tests/test_no_leak.py checks the
    seat views themselves, and the lines, the same way."""
    rng = random.Random(f"{game}/{players}")
    swaps = 0
    for _ in range(40):
        seed = rng.randrange(1000)
        env = raw(game, players)
        log = EventLog(players)
        env.followers.append(log.follower)
        env.reset(seed=seed)
        for _ in range(rng.randrange(4, 40)):
            if env.table_now.over:
                break
            env.step(random_action(env, rng))
        if env.table_now.over or not env.table_now.moves:
            continue
        table, watch = env.table_now, rng.randrange(players)
        deal = table.state.deal_number - 1
        pairs = hidden_swaps(table.deals[-1], [log.cards_told(s) for s in range(players)], watch)
        if not pairs or table.moves[-1].deal != deal + 1:
            continue
        card_a, card_b = rng.choice(pairs)
        holder = next(s for s, hand in enumerate(table.deals[-1]["hands"]) if card_a in hand)
        same, _ = replay_deal(game, players, seed, None, table.moves, deal, env.picked, watch)
        try:
            swapped, other = replay_deal(game, players, seed, swapped_decks(table.setup, deal, card_a, card_b),
                                         table.moves, deal, env.picked, watch)
        except IllegalActionError:
            continue  # the swap contradicts a move made: it does not fit what is public
        assert other.table_now.deals[-1] != table.deals[-1]
        assert len(same) == len(swapped) > 1
        for before, after in zip(same, swapped):
            assert np.array_equal(before, after)
        assert not np.array_equal(seat_view(other, holder), seat_view(env, holder))
        swaps += 1
        if swaps == 3:
            break
    assert swaps == 3, f"only {swaps} consistent swaps found"


# -- seeds, records and the text of replay ------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("peppa", 4), ("seep", 3), ("pigugnin", 5), ("pepper", 2)])
def test_reset_with_a_seed_deals_what_cardcli_play_deals_and_renders_what_replay_prints(
    game: str, players: int, capsys: pytest.CaptureFixture[str],
) -> None:
    """The environment's match, its moves made again by scripted seats under the referee with
    the same seed: the record has the same dealer, the same hands (and floor, dead hand) in
    every deal, the same moves and result, and ``cardcli replay`` of it prints exactly the text
    the environment rendered."""
    max_deals, seed = 6, 20261202
    env = raw(game, players, max_deals=max_deals, render_mode="ansi")
    env.reset(seed=seed)
    rng = random.Random(seed)
    text = [env.render()]
    while not env.table_now.over:
        env.step(random_action(env, rng))
        text.append(env.render())
    moves = env.table_now.moves
    setup = registry.resolve(game, None, {}, players, seed)
    seats = [scripted_seat(f"player_{s}", [m.move for m in moves if m.seat == s]) for s in range(players)]
    record = play_match(setup, seats, Settings(max_deals=max_deals)).record
    assert record["first_dealer"] == setup.first_dealer and not record["faults"]
    assert [{k: v for k, v in d.items() if k in ("hands", "floor", "dead")} for d in record["deals"]] == env.table_now.deals
    assert [(d["number"], m["seat"], m["kind"], m["move"]) for d in record["deals"] for m in d["moves"]] == \
        [(m.deal, m.seat, m.kind, m.move) for m in moves]
    assert record["result"] == env.outcome.to_json()
    assert record["adjudicated"] == env.table_now.truncated
    capsys.readouterr()
    replay_render(record, None, "record")
    printed = capsys.readouterr().out
    assert "\n".join(filter(None, text)) + "\n" == printed


def test_resets_without_a_seed_follow_the_last_seed_given() -> None:
    one, two = raw("pepper", 4), raw("pepper", 4)
    one.reset(seed=5)
    two.reset(seed=5)
    one.reset()
    two.reset()
    assert one.match_seed == two.match_seed != 5
    assert one.table_now.deals == two.table_now.deals


def test_human_render_prints_the_new_lines(capsys: pytest.CaptureFixture[str]) -> None:
    env = raw("pigugnin", 4, render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    shown = capsys.readouterr().out
    assert shown.startswith("Il Pigugnìn (Busca Reggiana) - variant standard - seed 1 - all hands shown")
    for _ in range(4):
        env.step(env.legal_actions()[0])
    shown = capsys.readouterr().out
    assert shown.startswith("  trick  1: ") and "all hands shown" not in shown  # only what is new


# -- the action encodings -----------------------------------------------------------------------


def test_peppa_actions_name_cards_in_the_pass_as_in_the_play() -> None:
    """A pass is three picks of cards by their index, shown in ``picked`` as they are made;
    the pass made is those three cards, and in the play the same index plays the same card."""
    env = raw("peppa", 4)
    env.reset(seed=11)
    seat = env.decision().seat
    hand = [c.text for c in env.table_now.state.hands[seat]]
    chosen = ["QS", "AH", "2C"] if {"QS", "AH", "2C"} <= set(hand) else hand[-3:]
    for number, card in enumerate(chosen):
        assert env.agent_selection == f"player_{seat}" and env.decision().kind == "pass"
        picked = env.observe(env.agent_selection)["observation"][env.layout.span("picked")]
        assert sorted(np.flatnonzero(picked)) == sorted(INDEX_OF_TEXT[c] for c in chosen[:number])
        assert INDEX_OF_TEXT[card] in env.legal_actions()
        env.step(INDEX_OF_TEXT[card])
    assert env.table_now.moves[-1].move == "+".join(sorted(chosen, key=INDEX_OF_TEXT.__getitem__))
    passed = env.observe(f"player_{seat}")["observation"][env.layout.span("passed")]
    assert sorted(np.flatnonzero(passed)) == sorted(INDEX_OF_TEXT[c] for c in chosen)
    while env.decision().kind == "pass":
        env.step(env.legal_actions()[0])
    card = env.legal_actions()[-1]
    env.step(card)
    assert env.table_now.moves[-1].move == TEXTS[card]


@pytest.mark.parametrize("variant", ["standard", "thirty", "no_cementing"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_seep_encoding_gives_every_legal_move_its_own_action(variant: str, players: int) -> None:
    """Over the positions of random matches and of matches where every seat throws when it may
    (which fills the floor), each legal move gets an action that names its card, kind and value,
    no two moves share one, and the action gives the move back."""
    spec = registry.get("seep")
    checked = 0
    for seed, throw_first in ((1, False), (2, True)):
        state = registry.resolve("seep", variant, {}, players, seed).new_match()
        rng = random.Random(seed)
        while not state.is_over() and state.deal_number <= 3:
            if state.needs_deal():
                state.deal(shuffled(seed, state.deal_number, spec.deck()))
                continue
            decision = state.decisions()[0]
            encoded = seep_actions.encode(decision.kind, decision.moves)
            assert -1 not in encoded.actions and len(set(encoded.actions)) == len(decision.moves)
            for action, move in zip(encoded.actions, decision.moves):
                assert encoded.token(action) == move
                if decision.kind == "play":
                    name = seep_actions.NAME_OF_ACTION[action][0]
                    assert name == seep_actions.MoveName.of(move)
                    assert spent_card(move) in seep_actions.describe(action)
                    checked += 1
            throws = [m for m in decision.moves if m.startswith("throw:")] if throw_first else []
            state.apply(decision.seat, rng.choice(throws or decision.moves))
    assert checked > 300


def test_seep_moves_past_the_bound_are_left_out_not_given_another_moves_action() -> None:
    ways = seep_actions.WAYS["take"]
    moves = [f"take:5C:{i}" for i in range(ways + 2)]  # one card, one kind, one value: ways + 2 ways
    encoded = seep_actions.encode("play", moves)
    assert encoded.unencoded == 2 and encoded.actions[-2:] == (-1, -1)
    assert len(set(encoded.actions[:-2])) == ways and encoded.token(-1) is None
    assert seep_actions.describe(encoded.actions[0]) == "take with 5C, way 1"


# -- one seat against built-in players ---------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "opponents"), [
    ("peppa", 4, "heuristic"), ("seep", 2, "heuristic"), ("pigugnin", 5, "random"), ("pepper", 3, "heuristic"),
])
def test_the_single_agent_environment_passes_gymnasiums_checker_and_plays_as_the_referee(
    game: str, players: int, opponents: str,
) -> None:
    """Gymnasium's checker passes; whole matches run with random masked actions; and the match
    is the one ``cardcli play`` plays with the learner's moves and the same built-in players."""
    env = single_agent_env(game, seat=1, opponents=opponents, players=players, max_deals=8)
    check_env(env, skip_render_check=True)
    rng = np.random.default_rng(3)
    for seed in (4, 5):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            assert env.observation_space.contains(observation)
            assert np.array_equal(info["action_mask"], env.action_masks()) and info["action_mask"].any()
            observation, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = terminated or truncated
        assert info["standing"] in ("win", "lose", "draw", "annulled")
        moves = env.aec.table_now.moves
        setup = registry.resolve(game, None, {}, players, seed)
        seats = [scripted_seat("learner", [m.move for m in moves if m.seat == 1]) if s == 1
                 else builtin(opponents, opponents, f"{seed}/{s}") for s in range(players)]
        record = play_match(setup, seats, Settings(max_deals=8)).record
        assert [m["move"] for d in record["deals"] for m in d["moves"]] == [m.move for m in moves]


def test_an_ismcts_opponent_plays_and_a_wrong_setting_is_a_usage_error() -> None:
    env = single_agent_env("pigugnin", seat=0, opponents="ismcts:iterations=20,worlds=4", players=4, max_deals=1)
    observation, info = env.reset(seed=2)
    for _ in range(3):
        observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert len(env.aec.table_now.moves) >= 12 and not terminated
    for wrong in ({"opponents": "first"}, {"seat": 4}, {"opponents": ["random"]}):
        with pytest.raises(UsageError):
            single_agent_env("pigugnin", **{"players": 4, **wrong})


def test_house_players_at_their_levels_are_opponents_and_a_missing_level_is_a_usage_error() -> None:
    env = single_agent_env("peppa", seat=0, opponents=["house:1", "house:2", "house:3"], max_deals=1)
    _, info = env.reset(seed=4)
    while True:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert len(env.aec.table_now.moves) == 4 + 52
    with pytest.raises(UsageError):
        single_agent_env("peppa", opponents="house:9").reset(seed=1)


def test_an_illegal_action_ends_the_single_agent_episode_with_a_penalty() -> None:
    env = single_agent_env("pepper", opponents="random", players=4)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)


# -- the optional extra and the documentation --------------------------------------------------


def test_without_the_rl_extra_the_import_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "cardcli.envs" or m.startswith("cardcli.envs.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(ImportError, match=r"needs pettingzoo: pip install 'cardcli\[rl\]'") as missing:
        import_module("cardcli.envs")
    assert isinstance(missing.value, CardcliError) and type(missing.value).__name__ == MissingExtraError.__name__


def test_the_python_examples_of_rl_md_run(capsys: pytest.CaptureFixture[str]) -> None:
    found = re.findall(r"```python\n(.*?)```", (ROOT / "docs/rl.md").read_text(), flags=re.S)
    assert found
    for code in found:
        exec(compile(code, "docs/rl.md", "exec"), {})
        assert capsys.readouterr().out.strip(), "each example prints its result"


@pytest.mark.parametrize("game", registry.MODULES)  # docs/rl.md documents cardcli's own games
def test_rl_md_shows_each_observation_layout_as_the_code_lays_it_out(game: str) -> None:
    page = (ROOT / "docs/rl.md").read_text()
    env = raw(game, max(registry.get(game).player_counts))
    assert env.layout.markdown() in page
    assert f"Discrete({env.codec.size})" in page


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_observation_says_what_the_match_holds(game: str, players: int) -> None:
    """At random points of random matches, the acting seat's vector shows its own hand, the
    totals and, seat by seat from this one, the trick on the table, the tricks won and Pepper's
    trump and declarer, or Seep's floor, houses and their owners, captures and how many cards
    each seat holds, as the engine has them."""
    rng = random.Random(f"holds/{game}/{players}")
    env = raw(game, players)
    env.reset(seed=rng.randrange(1000))
    checked = 0
    while checked < 30:
        if env.table_now.over:
            env.reset(seed=rng.randrange(1000))
        for _ in range(rng.randrange(1, 8)):
            if not env.table_now.over:
                env.step(random_action(env, rng))
        if env.table_now.over or env.picked:
            continue
        state, seat = env.table_now.state, env.decision().seat
        vector = env.observe(env.agent_selection)["observation"]
        cards = env.seat_features[seat].cards if game != "seep" else INDEX_OF_TEXT

        def block(name: str, part: int | None = None, width: int = 0) -> np.ndarray:
            span = vector[env.layout.span(name)]
            return span if part is None else span[part * width:(part + 1) * width]

        def places(seats_to_values: Any) -> list[Any]:
            return [seats_to_values((seat + k) % players) for k in range(players)]

        assert sorted(np.flatnonzero(block("hand"))) == sorted(cards[c.text] for c in state.hands[seat])
        totals = state.deal_scores[-1].totals if state.deal_scores else (0,) * players
        scale = env.seat_features[seat].scale if game == "seep" else env.seat_features[seat].game.total_scale
        assert list(block("totals")[:players]) == pytest.approx(places(lambda s: totals[s] / scale))
        if game == "seep":
            assert sorted(np.flatnonzero(block("floor"))) == sorted(cards[c.text] for c in state.loose)
            assert list(block("held")[:players]) == pytest.approx(places(lambda s: len(state.hands[s]) / 24))
            for number, value in enumerate(range(9, 14)):
                house = state.houses.get(value)
                shown = sorted(np.flatnonzero(block("houses", number, 52)))
                assert shown == (sorted(cards[c.text] for c in house.cards) if house else [])
                owners = sorted(np.flatnonzero(block("owners", number, 4)))
                assert owners == (sorted((o - seat) % players for o in house.owners) if house else [])
            for side, pile in zip(state.sides, state.piles):
                captured = {c for s in side for c in np.flatnonzero(block("captured", (s - seat) % players, 52))}
                assert captured == {cards[c.text] for c in pile}
        elif state.phase == "play":  # before the play, the engine's trick play is still the last deal's
            size = len(cards)
            for k in range(players):
                played = [card for s, card in state.tricks.trick if s == (seat + k) % players]
                shown = np.flatnonzero(block("trick", k, size))
                assert [env.seat_features[seat].cards[TEXTS[c]] for c in played] == list(shown)
            hand_size = env.seat_features[seat].hand_size
            assert list(block("won")[:players]) == pytest.approx(places(lambda s: state.tricks.tricks_won[s] / hand_size))
            if game == "pepper":
                assert np.flatnonzero(block("trump")).tolist() == [("C", "D", "H", "S", None).index(state.trump)]
                assert np.flatnonzero(block("declarer")).tolist() == [(state.declarer - seat) % players]
        checked += 1


@pytest.mark.parametrize(("game", "players"), [("pigugnin", 4), ("pepper", 3), ("peppa", 4)])
def test_a_seat_that_takes_every_trick_stays_inside_the_observation_space(game: str, players: int) -> None:
    """Tricks and card points are fractions of a deal's; a seat that takes all of them must
    read exactly 1, not a float32 sum of fractions that passes it (found by api_test's random
    play: ten tenths summed to 1.0000001)."""
    env = import_module(f"cardcli.envs.{game}_v0").raw_env(players=players)
    env.reset(seed=1)
    features = env.seat_features[0]
    tricks = features.hand_size
    points = getattr(features.game, "points_per_deal", 0)
    for number in range(1, tricks + 1):
        share = points // tricks + (points % tricks if number == tricks else 0)
        features.feed([Event("taken", (str(number), "0", str(share)))])
    observation = features.observe(None)
    assert env.observation_space("player_0")["observation"].contains(observation)
    assert observation[features.layout.span("won")][0] == 1.0


@pytest.mark.parametrize("game", ["peppa", "seep", "pigugnin", "pepper"])
def test_every_game_is_registered_with_gymnasium_and_passes_its_checker_without_a_warning(game: str) -> None:
    """``gymnasium.make("cardcli/Peppa-v0", ...)`` takes the keyword arguments of
    ``single_agent_env``; the environment has a spec (the checker's warning without one), and
    the vector helpers that take an id work."""
    import warnings

    import gymnasium

    from cardcli.envs import ENV_IDS

    env_id = ENV_IDS[game]
    assert env_id == f"cardcli/{game.capitalize()}-v0"
    env = gymnasium.make(env_id, opponents="heuristic", seat=1)
    assert env.spec is not None and env.spec.id == env_id and env.unwrapped.seat == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    observation, info = env.reset(seed=5)
    direct = single_agent_env(game, seat=1, opponents="heuristic")
    expected, _ = direct.reset(seed=5)
    assert np.array_equal(observation, expected), "make() builds what single_agent_env() builds"
    vector = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    observations, _ = vector.reset(seed=1)
    assert observations.shape == (2, *env.observation_space.shape)
    vector.close()


def test_action_masks_are_writable_booleans_a_masked_learner_can_turn_into_a_tensor() -> None:
    env = single_agent_env("peppa")
    env.reset(seed=2)
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and mask.flags.writeable
    assert np.array_equal(mask, env.aec.action_mask(env.agent).astype(bool)) and mask.any()
    mask[:] = False
    assert env.action_masks().any(), "the caller's copy is its own"
