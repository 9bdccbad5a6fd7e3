"""Clones and integer actions of the trick games (Peppa, Il Pigugnìn, Pepper).

A search copies a state per simulation and moves by integer actions; both must be the very game
the referee plays. A clone is held to ``copy.deepcopy``: the same state, object for object
(aliasing included), the same playouts from it, and no mutable object shared with its
original. Actions are held to the protocol's tokens: the same legal moves in the same order,
the same state after either, and an illegal action refused without a trace.
"""

from __future__ import annotations

import copy
import random
import types
from typing import Any, Callable, Iterator

import attrs
import pytest

from cardcli.cards import Card
from cardcli.errors import IllegalMoveError, InvalidMoveError
from cardcli.games import registry
from cardcli.plugins.pepper import rules as pepper
from cardcli.plugins.pigugnin import rules as pigugnin
from cardcli.games.card_bits import TEXTS
from cardcli.games.dealing import shuffled
from cardcli.games.registry import Setup

Config = tuple[str, str, int, dict[str, str]]

OPTION_SETS: list[Config] = [
    ("peppa", "torino", 4, {"hearts_must_be_broken": "true", "queen_breaks_hearts": "true",
                            "no_points_first_trick": "true", "play_direction": "ccw"}),
    ("peppa", "standard", 4, {"two_of_clubs_leads": "true", "pass_cycle": "left,hold",
                              "deal_order": "thirteen_at_a_time"}),
    ("pigugnin", "standard", 4, {"first_hand_leader": "seven_of_coins", "first_trick_pigugnin_restriction": "true",
                                 "direction": "cw"}),
    ("pepper", "standard", 4, {"pass_is_final": "false", "all_pass": "redeal_same_dealer"}),
    ("pepper", "standard", 3, {"auction": "single_round", "all_pass": "stick_dealer", "trump_must_be_held": "true",
                               "left_bower_is_trump": "false", "deal_order": "hand_at_a_time"}),
    ("pepper", "standard", 2, {"trump_must_be_held": "true", "all_pass": "redeal_same_dealer"}),
]
"""House rules whose state the registry's defaults leave untouched (hearts broken, a leader
found by a card, passes that a new bid cancels, a thrown-in deal dealt again...)."""


def registry_configs() -> list[Config]:
    """Every game, variant and player count of the registry but Seep's."""
    return [
        (spec.name, variant.name, players, {})
        for spec in registry.GAMES.values()
        if spec.name != "seep"
        for variant in spec.variants
        for players in spec.player_counts
    ]


CONFIGS = [
    pytest.param(*config, id="-".join([config[0], config[1], str(config[2]), *config[3]]))
    for config in registry_configs() + OPTION_SETS
]


def setup_of(game: str, variant: str, players: int, options: dict[str, str], seed: int) -> Setup:
    return registry.resolve(game, variant, options, players, seed)


# -- looking into a state -----------------------------------------------------------------------


def _is_value(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str, Card, range))


def snapshot(root: Any) -> Any:
    """``root`` as nested plain values, compared by value: every attribute of the match and of
    the objects it holds, with a mutable object met twice written as the path where it was
    first met (so the aliasing of two states is compared too), and a function or method
    written as its name (a method's object by its path)."""
    seen: dict[int, str] = {}

    def walk(value: Any, path: str) -> Any:
        if _is_value(value):
            return value
        if isinstance(value, types.MethodType):
            return ("method", value.__func__.__qualname__, walk(value.__self__, path + ".__self__"))
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
            return ("function", value.__qualname__)
        if isinstance(value, tuple):
            return ("tuple", tuple(walk(v, f"{path}[{i}]") for i, v in enumerate(value)))
        if attrs.has(type(value)) and not hasattr(value, "__dict__"):
            return (type(value).__name__, tuple(walk(getattr(value, f.name), f"{path}.{f.name}")
                                                for f in attrs.fields(type(value))))
        if id(value) in seen:
            return ("alias", seen[id(value)])
        seen[id(value)] = path
        if isinstance(value, list):
            return ("list", tuple(walk(v, f"{path}[{i}]") for i, v in enumerate(value)))
        if isinstance(value, (set, frozenset)):
            return (type(value).__name__, tuple(sorted(value)))
        if isinstance(value, dict):
            return ("dict", tuple((k, walk(value[k], f"{path}[{k!r}]")) for k in sorted(value)))
        return (type(value).__name__, tuple((k, walk(v, f"{path}.{k}")) for k, v in sorted(vars(value).items())))

    return walk(root, "")


def mutable_parts(root: Any) -> dict[int, str]:
    """Every mutable object reachable from ``root`` (lists, dicts, sets and objects with
    attributes; a frozenset is not), by id, with a path to it."""
    found: dict[int, str] = {}

    def walk(value: Any, path: str) -> None:
        if _is_value(value) or isinstance(value, (frozenset, types.FunctionType, types.BuiltinFunctionType)):
            return
        if isinstance(value, types.MethodType):
            walk(value.__self__, path + ".__self__")
            return
        if isinstance(value, tuple):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]")
            return
        if attrs.has(type(value)) and not hasattr(value, "__dict__"):
            for f in attrs.fields(type(value)):
                walk(getattr(value, f.name), f"{path}.{f.name}")
            return
        if id(value) in found:
            return
        found[id(value)] = path
        if isinstance(value, (list, set, frozenset)):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]")
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}[{k!r}]")
        else:
            for k, v in vars(value).items():
                walk(v, f"{path}.{k}")

    walk(root, "")
    return found


def observed(match: Any) -> tuple[Any, ...]:
    """What a caller sees of a match: its open decisions, finished deals and result."""
    return (
        match.decisions(),
        match.deal_scores,
        match.outcome() if match.is_over() else None,
        match.current_player(),
        tuple(match.legal_actions()),
    )


# -- driving a match ----------------------------------------------------------------------------


class Driver:
    """Random moves through a match, deals from the setup's seed, a deal limit as the
    referee's. ``mixed`` moves alternate at random between tokens and actions; the random
    choices depend only on the driver's seed and the state, so two drivers with one seed play
    two equal states alike."""

    def __init__(self, setup: Setup, seed: int, mixed: bool = True, max_deals: int = 500) -> None:
        self.setup = setup
        self.rng = random.Random(seed)
        self.mixed = mixed
        self.max_deals = max_deals
        self.events: list[str] = []

    def step(self, match: Any) -> None:
        """One step of chance or one move."""
        if match.needs_deal():
            if match.deal_number >= self.max_deals:
                match.adjudicate()
            else:
                self.events += [e.line() for e in match.deal(shuffled(self.setup.seed, match.deal_number,
                                                                        self.setup.spec.deck()))]
            return
        decision = match.decisions()[0]
        k = self.rng.randrange(len(decision.moves))
        if self.mixed and self.rng.random() < 0.5:
            match.apply_action(match.legal_actions()[k])
            self.events.append(f"action {decision.seat} {decision.moves[k]}")
        else:
            self.events += [f"{sorted(e.audience or ())} {e.line()}" for e in match.apply(decision.seat, decision.moves[k])]

    def until(self, match: Any, stop: Callable[[Any], bool]) -> None:
        while not match.is_over() and not stop(match):
            self.step(match)

    def deals(self, match: Any, count: int) -> None:
        """Play on until ``count`` more deals have ended (or the match is over); then, between
        deals, adjudicate, so that every playout has an outcome to compare."""
        target = len(match.deal_scores) + count
        self.until(match, lambda m: len(m.deal_scores) >= target and m.needs_deal())
        if not match.is_over():
            match.adjudicate()


def situation(match: Any) -> str:
    """Where a match stands, to check that the sampled points cover every kind."""
    if match.is_over():
        return "over"
    if match.needs_deal():
        return "between deals" if match.deal_number else "before the first deal"
    seat, kind = match.acting()[0]
    if kind == "play":
        return "mid-trick" if match.tricks.trick else "trick lead"
    if kind == "pass":
        return "mid-pass" if match.passes else "pass"
    if kind == "bid":
        return "mid-bidding" if match.bids else "bid"
    return kind


def sample_points(setup: Setup, seed: int, deals: int, every: int) -> Iterator[Any]:
    """A match played at random for ``deals`` deals, yielded every ``every`` steps, at every
    step where a deal is due and at the first step of each :func:`situation`."""
    match: Any = setup.new_match()
    driver = Driver(setup, seed)
    steps = 0
    met: set[str] = set()
    while not match.is_over() and match.deal_number <= deals:
        if steps % every == 0 or match.needs_deal() or situation(match) not in met:
            met.add(situation(match))
            yield match
        driver.step(match)
        steps += 1
    yield match


EVERY_GAME_MEETS = frozenset({"between deals", "before the first deal"})
"""The situations every game's sampled points meet; a game's own (its tricks, its pass, its
auction) are added where ``EXPECTED`` has them."""
EXPECTED = {
    "peppa": {"between deals", "before the first deal", "mid-trick", "trick lead", "mid-pass", "pass"},
    "pigugnin": {"between deals", "before the first deal", "mid-trick", "trick lead"},
    "pepper": {"between deals", "before the first deal", "mid-trick", "trick lead", "mid-bidding", "bid", "trump"},
}


# -- clone ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game, variant, players, options", CONFIGS)
def test_a_clone_is_a_deepcopy_and_plays_out_alike(game: str, variant: str, players: int,
                                                   options: dict[str, str]) -> None:
    setup = setup_of(game, variant, players, options, 11)
    met = set()
    for point, match in enumerate(sample_points(setup, 11, deals=4, every=2)):
        met.add(situation(match))
        before = snapshot(match)
        twin, deep = match.clone(), copy.deepcopy(match)
        assert snapshot(twin) == snapshot(deep) == before
        shared = set(mutable_parts(twin)) & set(mutable_parts(match))
        assert not shared, [mutable_parts(match)[i] for i in shared]
        by_clone, by_deepcopy = Driver(setup, point), Driver(setup, point)
        by_clone.deals(twin, 2)
        by_deepcopy.deals(deep, 2)
        assert by_clone.events == by_deepcopy.events
        assert twin.deal_scores == deep.deal_scores and twin.outcome() == deep.outcome()
        assert snapshot(twin) == snapshot(deep)
        assert snapshot(match) == before
    expected = EXPECTED.get(game, EVERY_GAME_MEETS)
    assert expected <= met, expected - met


@pytest.mark.parametrize("game, variant, players, options", CONFIGS)
def test_a_clone_and_its_original_go_their_own_ways(game: str, variant: str, players: int,
                                                    options: dict[str, str]) -> None:
    setup = setup_of(game, variant, players, options, 5)
    for point, match in enumerate(sample_points(setup, 5, deals=2, every=7)):
        if match.is_over():
            continue
        original = match.clone()
        seen_before = observed(original)
        twin = original.clone()
        Driver(setup, point).deals(twin, 1)
        assert observed(original) == seen_before
        seen_twin = observed(twin)
        Driver(setup, point + 1000).deals(original, 1)
        assert observed(twin) == seen_twin
        assert observed(match) == seen_before


def test_a_clone_of_a_finished_match_keeps_its_result() -> None:
    setup = setup_of("pepper", "standard", 3, {"target": "5"}, 3)
    match: Any = setup.new_match()
    Driver(setup, 3).until(match, lambda m: False)
    twin = match.clone()
    assert twin.is_over() and twin.outcome() == match.outcome() and twin.deal_scores == match.deal_scores
    assert twin.outcome(frozenset({0})) == match.outcome(frozenset({0}))


# -- integer actions --------------------------------------------------------------------------


def tokens_of(game: str, match: Any, actions: Any, moves: Any) -> list[str]:
    """The token of each action, as the game's own encoding gives it (another game's: the
    offered tokens, in the order of its actions, which the states after each then check)."""
    if game not in ACTIONS:
        return list(moves)
    if game == "pigugnin":
        return [pigugnin.action_text(a) for a in actions]
    if game == "pepper":
        return [pepper.action_text(a) for a in actions]
    if match.acting()[0][1] == "play":
        return [TEXTS[a] for a in actions]
    return [moves[a] for a in actions]


ACTIONS = {"peppa": 286, "pigugnin": pigugnin.NUM_ACTIONS, "pepper": pepper.NUM_ACTIONS}
"""The size of each game's action space (Peppa's largest actions are its 286 passes), where
this module knows it; another game's is taken as reaching one past its largest legal action."""


def action_space(game: str, actions: Any = ()) -> range:
    """Every action of the game, and one beyond each end."""
    size = ACTIONS.get(game, max(actions, default=0) + 1)
    return range(-1, size + 1)


@pytest.mark.parametrize("game, variant, players, options", CONFIGS)
def test_actions_are_the_tokens(game: str, variant: str, players: int, options: dict[str, str]) -> None:
    """Over random matches (capped at 8 deals), at every decision: the seat, the legal actions
    one-to-one and in order onto the offered tokens, the same state after an action as after
    its token, and other actions (the ends of the space and ten drawn at random) refused with
    nothing changed."""
    for seed in range(2):
        setup = setup_of(game, variant, players, options, seed)
        match: Any = setup.new_match()
        driver = Driver(setup, seed, max_deals=8)
        while not match.is_over():
            if match.needs_deal():
                assert match.current_player() == -1 and tuple(match.legal_actions()) == ()
                refused_all(match, action_space(game))
                driver.step(match)
                continue
            decision = match.decisions()[0]
            actions = match.legal_actions()
            assert match.current_player() == decision.seat
            assert list(actions) == sorted(set(actions)) and len(actions) == len(decision.moves)
            assert tokens_of(game, match, actions, decision.moves) == list(decision.moves)
            k = driver.rng.randrange(len(actions))
            by_action, by_token = copy.deepcopy(match), copy.deepcopy(match)
            by_action.apply_action(actions[k])
            by_token.apply(decision.seat, decision.moves[k])
            assert snapshot(by_action) == snapshot(by_token)
            illegal = [a for a in action_space(game, actions) if a not in set(actions)]
            refused_all(match, {illegal[0], illegal[-1], *driver.rng.sample(illegal, min(10, len(illegal)))})
            driver.step(match)
        assert match.current_player() == -1 and tuple(match.legal_actions()) == ()
        refused_all(match, action_space(game))


def refused_all(match: Any, illegal: Any) -> None:
    """Each of ``illegal`` is refused with IllegalMoveError, and the state is as it was."""
    before = snapshot(match)
    for action in illegal:
        with pytest.raises(IllegalMoveError):
            match.apply_action(action)
    assert snapshot(match) == before


def test_pigugnin_actions_are_the_forty_cards_in_canonical_order() -> None:
    assert pigugnin.NUM_ACTIONS == 40
    texts = [pigugnin.action_text(a) for a in range(40)]
    assert texts[:10] == ["2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC", "KC", "AC"]
    assert texts[30:] == ["2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS", "AS"]
    assert texts == [c.text for c in registry.get("pigugnin").deck()]
    assert [pigugnin.action_of(t) for t in texts] == list(range(40))
    for bad in (-1, 40):
        with pytest.raises(InvalidMoveError):
            pigugnin.action_text(bad)
    for token in ("8C", "TS", "pass", "qs"):
        with pytest.raises(InvalidMoveError):
            pigugnin.action_of(token)


def test_pepper_actions_are_cards_then_bids_then_trumps() -> None:
    assert pepper.NUM_ACTIONS == 39
    texts = [pepper.action_text(a) for a in range(39)]
    assert texts[:6] == ["9C", "TC", "JC", "QC", "KC", "AC"]
    assert texts[:24] == [c.text for c in registry.get("pepper").deck()]
    assert texts[24:34] == ["pass", "1", "2", "3", "4", "5", "6", "7", "small", "big"]
    assert texts[34:] == ["C", "D", "H", "S", "NT"]
    assert [pepper.action_of(t) for t in texts] == list(range(39))
    for bad in (-1, 39):
        with pytest.raises(InvalidMoveError):
            pepper.action_text(bad)
    for token in ("2C", "8", "Pass", "nt"):
        with pytest.raises(InvalidMoveError):
            pepper.action_of(token)


def test_four_player_pepper_never_offers_six_or_seven() -> None:
    setup = setup_of("pepper", "standard", 4, {}, 0)
    match: Any = setup.new_match()
    match.deal(shuffled(0, 0, setup.spec.deck()))
    assert [pepper.action_text(a) for a in match.legal_actions()] == ["pass", "1", "2", "3", "4", "5", "small", "big"]
    for action in (30, 31):
        with pytest.raises(IllegalMoveError):
            match.apply_action(action)
