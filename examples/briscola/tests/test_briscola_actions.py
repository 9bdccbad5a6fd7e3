"""Integer actions against text moves: a search or a learner that moves by actions must play
the very game the referee plays by tokens.

At every decision of random matches: the seat, the legal actions one-to-one and in order onto
the offered tokens, the same state after an action as after its token (and after the token
applied quietly), and every other action refused with nothing changed.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cardcli.errors import IllegalMoveError, InvalidMoveError
from cardcli.games.dealing import shuffled

from briscola_scripts import new_match, vars_of
from cardcli_briscola import SPEC, BriscolaMatch
from cardcli_briscola.deck import NUM_ACTIONS, action_of, action_text

ACTION_SPACE = range(-1, NUM_ACTIONS + 1)
"""Every action, and one beyond each end."""


def refused_all(match: BriscolaMatch, actions: set[int] | range) -> None:
    before = vars_of(match)
    for action in actions:
        with pytest.raises(IllegalMoveError):
            match.apply_action(action)
    assert vars_of(match) == before


@pytest.mark.parametrize("players, options", [(2, {}), (4, {"partners_see_hands": True}), (4, {"direction": "cw"})])
def test_actions_are_the_tokens(players: int, options: dict[str, Any]) -> None:
    for seed in range(4):
        match = new_match(players, **options)
        rng = random.Random(seed)
        while not match.is_over():
            if match.needs_deal():
                assert match.current_player() == -1 and match.legal_actions() == ()
                refused_all(match, ACTION_SPACE)
                match.deal(shuffled(seed, match.deal_number, SPEC.deck()))
                continue
            decision = match.decisions()[0]
            actions = match.legal_actions()
            assert match.current_player() == decision.seat
            assert list(actions) == sorted(set(actions))
            assert [action_text(a) for a in actions] == list(decision.moves)
            k = rng.randrange(len(actions))
            by_action, by_token, quietly = copy.deepcopy(match), copy.deepcopy(match), copy.deepcopy(match)
            by_action.apply_action(actions[k])
            by_token.apply(decision.seat, decision.moves[k])
            quietly.apply_quietly(decision.seat, decision.moves[k])
            assert vars_of(by_action) == vars_of(by_token) == vars_of(quietly)
            illegal = [a for a in ACTION_SPACE if a not in set(actions)]
            refused_all(match, {illegal[0], illegal[-1], *rng.sample(illegal, 10)})
            match.apply_action(actions[k])
            assert vars_of(match) == vars_of(by_token)
        assert match.current_player() == -1 and match.legal_actions() == ()
        refused_all(match, ACTION_SPACE)


def test_actions_are_the_forty_cards_in_canonical_order() -> None:
    texts = [action_text(a) for a in range(NUM_ACTIONS)]
    assert NUM_ACTIONS == 40
    assert texts[:10] == ["2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC", "KC", "AC"]
    assert texts == [c.text for c in SPEC.deck()]
    assert [action_of(t) for t in texts] == list(range(40))
    for bad in (-1, 40):
        with pytest.raises(InvalidMoveError):
            action_text(bad)
    for token in ("8C", "TS", "pass", "qs"):
        with pytest.raises(InvalidMoveError):
            action_of(token)
