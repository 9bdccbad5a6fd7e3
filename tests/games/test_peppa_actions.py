"""Peppa's integer actions are the same game as its text moves: what search and playout code
uses, checked move for move against the protocol's moves."""

from __future__ import annotations

import random

import pytest

from cardcli.errors import IllegalMoveError
from cardcli.games import registry
from cardcli.games.card_bits import TEXTS
from cardcli.games.dealing import shuffled


@pytest.mark.parametrize("variant", ["torino", "standard"])
def test_actions_and_text_moves_play_the_same_match(variant: str) -> None:
    for seed in range(3):
        setup = registry.resolve("peppa", variant, {}, None, seed)
        by_action, by_text = setup.new_match(), setup.new_match()
        rng = random.Random(seed)
        while not by_action.is_over():
            if by_action.needs_deal():
                deck = shuffled(seed, by_action.deal_number, setup.spec.deck())
                by_action.deal(deck)
                by_text.deal(deck)
                continue
            seat = by_action.current_player()
            actions = by_action.legal_actions()
            decision = next(d for d in by_text.decisions() if d.seat == seat)
            assert len(actions) == len(decision.moves)
            if decision.kind == "play":
                assert [TEXTS[a] for a in actions] == list(decision.moves)
            k = rng.randrange(len(actions))
            by_action.apply_action(actions[k])
            by_text.apply(seat, decision.moves[k])
        assert by_text.is_over()
        assert by_action.deal_scores == by_text.deal_scores
        assert by_action.outcome() == by_text.outcome()


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    setup = registry.resolve("peppa", None, {}, None, 5)
    match = setup.new_match()
    assert match.current_player() == -1 and list(match.legal_actions()) == []
    match.deal(shuffled(5, 0, setup.spec.deck()))
    with pytest.raises(IllegalMoveError):
        match.apply_action(286)
    while match.acting()[0][1] == "pass":
        match.apply_action(0)
    seat, hands = match.current_player(), match.hands
    legal = set(match.legal_actions())
    for action in (-1, 52, *(a for a in range(52) if a not in legal)):
        with pytest.raises(IllegalMoveError):
            match.apply_action(action)
    assert (match.current_player(), match.hands, set(match.legal_actions())) == (seat, hands, legal)
