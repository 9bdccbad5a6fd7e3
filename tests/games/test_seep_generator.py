"""Seep's move generator against the one it replaced, position by position, and its integer
actions and clones against the text moves and ``copy.deepcopy``.

``data/seep_golden.txt.gz`` was written by the engine of commit 931c0af, before the generator
was rewritten over bit masks (``make_seep_golden.py`` says how): for thousands of seeded random
positions of every variant, player count and option that changes the legal moves, the digest
of the legal moves in the order offered, of the events of each move, and the refusal of
tokens that are not offered. Every line must come out the same today. Alongside, a second
match plays the same moves by integer actions (and from clones of itself), and must stay in
the same state.
"""

from __future__ import annotations

import copy
import gzip
import random
from functools import cache
from typing import Any

import pytest

from cardcli.errors import IllegalMoveError, MoveError
from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.seep.rules import Phase, SeepMatch

import make_seep_golden as golden

CLONE_EVERY = 7
"""The action match is replaced by a clone of itself every 7th decision, so clones are
played on as much as originals."""


@cache
def recorded() -> dict[str, list[str]]:
    """The golden lines of each playout, by its header."""
    found: dict[str, list[str]] = {}
    with gzip.open(golden.GOLDEN, "rt", encoding="utf-8") as lines:
        current: list[str] = []
        for line in lines:
            line = line.rstrip("\n")
            if line.startswith("# "):
                current = found[line] = []
            else:
                current.append(line)
    return found


def state(match: SeepMatch) -> tuple[Any, ...]:
    """Everything a move changes, as plain values."""
    return (
        match.phase, match.turn, match.current_player(), [list(h) for h in match.hands], list(match.loose),
        dict(match.houses), [sorted(p, key=lambda c: c.sort_key) for p in match.piles], list(match.bonus),
        list(match.side_totals), match.deal_scores, match.last_capturer, match.dealer, match.deal_number,
    )


class ByActions:
    """A second match that follows a playout through integer actions, checked against the
    text match at every step, and replaced by its own clone from time to time."""

    def __init__(self, config: golden.Config, seed: int) -> None:
        self.match: SeepMatch = golden.new_match(config, seed)[1]
        self.steps = 0
        self.text: SeepMatch | None = None

    def __call__(self, text: SeepMatch, kind: str, payload: Any) -> None:
        self.text = text
        assert state(self.match) == state(text)
        if kind == "deal":
            self.match.deal(payload)
            return
        decision, index = payload
        assert self.match.current_player() == decision.seat
        assert self.match.legal_actions() == range(len(decision.moves))
        self.steps += 1
        if self.steps % CLONE_EVERY == 0:
            self.match = self.match.clone()
        self.match.apply_action(index)


@pytest.mark.parametrize("config", golden.CONFIGS, ids=lambda c: c.name())
def test_every_position_is_as_the_old_generator_left_it(config: golden.Config) -> None:
    for seed in range(config.seeds):
        expected = recorded()[golden.header(config, seed)]
        follower = ByActions(config, seed)
        got = list(golden.playout(config, seed, follower))
        for k, (line, want) in enumerate(zip(got, expected)):
            assert line == want, f"{golden.header(config, seed)}, line {k + 1}"
        assert len(got) == len(expected), golden.header(config, seed)
        assert follower.text is not None
        assert state(follower.match) == state(follower.text)
        if follower.text.is_over():
            assert follower.match.outcome() == follower.text.outcome()


def test_the_golden_file_holds_thousands_of_positions() -> None:
    lines = [line for playout in recorded().values() for line in playout]
    assert sum(line.startswith("move ") for line in lines) >= 5000
    assert sum(line.startswith("refuse ") for line in lines) >= 1000
    assert set(recorded()) == {golden.header(c, s) for c, s in golden.playouts()}


# -- integer actions --------------------------------------------------------------------------


def new_seep(seed: int, players: int = 4, **options: str) -> tuple[Any, SeepMatch]:
    setup = registry.resolve("seep", None, options, players, seed)
    match = setup.new_match()
    assert isinstance(match, SeepMatch)
    return setup, match


def dealt(seed: int, players: int = 4, **options: str) -> tuple[Any, SeepMatch]:
    setup, match = new_seep(seed, players, **options)
    match.deal(shuffled(seed, 0, setup.spec.deck()))
    return setup, match


def test_actions_are_the_moves_offered_and_refused_out_of_range() -> None:
    setup, match = new_seep(3)
    assert match.current_player() == -1 and list(match.legal_actions()) == []
    with pytest.raises(IllegalMoveError):
        match.apply_action(0)
    rng = random.Random(3)
    checked = 0
    while checked < 120:
        if match.needs_deal():
            match.deal(shuffled(3, match.deal_number, setup.spec.deck()))
            continue
        (decision,) = match.decisions()
        before = state(match)
        actions = match.legal_actions()
        for action in (-1, len(actions), len(actions) + 7):
            with pytest.raises(IllegalMoveError):
                match.apply_action(action)
        assert state(match) == before and match.legal_actions() == actions
        k = rng.randrange(len(actions))
        by_text = match.clone()
        by_text.apply(decision.seat, decision.moves[k])
        match.apply_action(k)
        assert state(match) == state(by_text)
        checked += 1


def test_actions_write_no_tokens() -> None:
    """The integer actions list the moves (to number them) but write none of their tokens."""
    setup, match = dealt(5)
    rng = random.Random(5)
    for _ in range(80):
        if match.needs_deal():
            match.deal(shuffled(5, match.deal_number, setup.spec.deck()))
            continue
        actions = match.legal_actions()
        if match.phase == Phase.PLAY:
            assert match._turn().tokens is None
        match.apply_action(rng.randrange(len(actions)))


def test_apply_quietly_changes_the_state_as_apply_does() -> None:
    for seed, options in ((1, {}), (2, {"throw_rule": "no_other_action"}), (4, {"cementing": "false"})):
        setup, loud = new_seep(seed, 3, **options)
        quiet = new_seep(seed, 3, **options)[1]
        rng = random.Random(seed)
        for _ in range(150):
            if loud.is_over():
                break
            if loud.needs_deal():
                deck = shuffled(seed, loud.deal_number, setup.spec.deck())
                loud.deal(deck)
                quiet.deal(deck)
                continue
            (decision,) = loud.decisions()
            move = rng.choice(decision.moves)
            loud.apply(decision.seat, move)
            quiet.apply_quietly(decision.seat, move)
            assert state(quiet) == state(loud)


# -- clones -----------------------------------------------------------------------------------


def random_playout(match: SeepMatch, seed: int, rng: random.Random) -> tuple[Any, ...]:
    """Play ``match`` to its end (at most 40 deals) with random actions: its final state and
    result."""
    deck = registry.get("seep").deck()
    while not match.is_over():
        if match.needs_deal():
            if match.deal_number >= 40:
                match.adjudicate()
            else:
                match.deal(shuffled(seed, match.deal_number, deck))
            continue
        match.apply_action(rng.randrange(len(match.legal_actions())))
    return state(match), match.outcome()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_playout_from_a_clone_is_the_playout_from_a_deepcopy(players: int) -> None:
    setup, match = dealt(11, players)
    rng = random.Random(11)
    for _ in range(30):
        match.apply_action(rng.randrange(len(match.legal_actions())))
    match.decisions()  # the moves of the position are found: a clone shares them
    cloned, deep = match.clone(), copy.deepcopy(match)
    assert state(cloned) == state(deep) == state(match)
    assert random_playout(cloned, 11, random.Random(5)) == random_playout(deep, 11, random.Random(5))


def test_a_clone_and_its_original_go_their_own_ways() -> None:
    setup, match = dealt(8)
    rng = random.Random(8)
    for _ in range(20):
        match.apply_action(rng.randrange(len(match.legal_actions())))
    before = state(match)
    twin = match.clone()
    moves = match.decisions()
    while twin.current_player() >= 0:
        twin.apply_action(len(twin.legal_actions()) - 1)
    assert state(match) == before and match.decisions() == moves
    assert state(twin) != before
    again = match.clone()
    while match.current_player() >= 0:
        match.apply_action(0)
    assert state(again) == before and again.decisions() == moves


@pytest.mark.parametrize("token", ["build:9", "cement:11", "break:9", "build:", "take:"])
def test_a_truncated_token_in_an_unlisted_position_is_refused_not_a_crash(token: str) -> None:
    """``verify`` checks a recorded move without listing the moves first; a tampered record's
    token cut short must be refused like any other illegal move."""
    setup = registry.resolve("seep", None, {}, 4, 1)
    match = setup.new_match()
    match.deal(shuffled(1, 0, setup.spec.deck()))
    bid = match.decisions()[0]
    match.apply_quietly(bid.seat, bid.moves[0])
    opening = match.decisions()[0]
    match.apply_quietly(opening.seat, opening.moves[0])
    seat = match.acting()[0][0]
    with pytest.raises(MoveError):
        match.clone().apply_quietly(seat, token)


# -- card-first random moves ------------------------------------------------------------------


@pytest.mark.parametrize("config", golden.CONFIGS, ids=lambda c: c.name())
def test_a_card_first_random_move_is_always_one_of_the_legal_moves(config: golden.Config) -> None:
    """Search playouts draw a card, then one of its moves, instead of listing every move: in
    every variant and option set that changes the legal moves, the state it leaves must be
    the state one of the offered moves leaves. The playouts go on from the move drawn, so the
    positions are those such playouts meet."""
    drawn_cards: set[str] = set()
    for seed in range(2):
        setup, match = golden.new_match(config, seed)
        rng = random.Random(seed)
        for _ in range(150):
            if match.is_over():
                break
            if match.needs_deal():
                match.deal(shuffled(seed, match.deal_number, setup.spec.deck()))
                continue
            (decision,) = match.decisions()
            drawn = match.clone()
            drawn.apply_random_card(rng)
            after = state(drawn)
            offered = []
            for move in decision.moves:
                by_token = match.clone()
                by_token.apply_quietly(decision.seat, move)
                if state(by_token) == after:
                    offered.append(move)
            assert offered, (config.name(), seed, decision.moves)
            if decision.kind == "play":
                drawn_cards.add(offered[0].split(":")[1])
            match = drawn
    assert len(drawn_cards) > 20, "the playouts met too few positions"
