"""examples/maskable_ppo.py: the evaluation it reports, played with a random masked policy
(no torch or sb3-contrib needed), and the training matches' seeds kept off the held-out ones."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_example() -> ModuleType:
    name = "cardcli_example_maskable_ppo"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples/maskable_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["peppa", "pigugnin"])
def test_the_evaluation_plays_held_out_seeds_with_masked_actions_and_pairs_them(game: str) -> None:
    example = load_example()
    seeds = range(example.HELD_OUT, example.HELD_OUT + 4)
    first = example.evaluate(example.random_policy(1), game, seeds)  # raises on an illegal action
    again = example.evaluate(example.random_policy(1), game, seeds)
    other = example.evaluate(example.random_policy(2), game, seeds)
    assert first == again, "a seed and the policy's seed fix the match"
    assert [r.seed for r in first] == list(seeds)
    for result in first + other:
        assert result.standing in {"win", "lose", "draw", "annulled"}
        assert result.steps > 0 and not result.truncated

    same = example.compare(first, again)
    assert same.reward_difference == (0.0, 0.0) and same.win_difference == (0.0, 0.0)
    diff = example.compare(first, other)
    assert diff.reward_difference[0] == pytest.approx(
        sum(a.reward - b.reward for a, b in zip(first, other)) / len(first))
    assert diff.wins == (sum(r.won for r in first) / 4, sum(r.won for r in other) / 4)
    text = example.report(diff)
    assert "95% interval" in text and "win rate" in text
    with pytest.raises(ValueError, match="same seeds"):
        example.compare(first, other[::-1])


def test_training_matches_never_use_a_held_out_seed() -> None:
    example = load_example()
    env = example.TrainingSeeds(example.make_env("pigugnin"), seed=0, scale=1.0)
    for asked in (example.HELD_OUT, None, example.HELD_OUT + 1):
        env.reset(seed=asked)
        assert env.unwrapped.aec.match_seed < example.HELD_OUT
        assert env.action_masks().dtype == bool and env.action_masks().any()
    assert env.matches == 3
