"""Train sb3-contrib's MaskablePPO on one seat against built-in players, for a wall-clock
budget, then compare it with a uniformly random masked policy on held-out match seeds.

    pip install 'cardcli[rl]' torch==2.13.0 sb3-contrib
    python3 examples/maskable_ppo.py --game peppa --minutes 4 --seed 0 --eval-seeds 500

MaskablePPO finds the environment's ``action_masks()`` by itself (docs/rl.md, "One seat
against the built-in players"), so it only ever samples legal actions. Training matches use
seeds drawn below ``HELD_OUT`` (10**6); evaluation plays the seeds ``HELD_OUT``,
``HELD_OUT + 1``, ... once with the trained policy (deterministic, masked) and once with the
random masked policy: the same deals for both, so each seed gives a paired difference.

Only the training needs torch and sb3-contrib; :func:`evaluate`, :func:`random_policy` and
:func:`compare` need the ``rl`` extra alone (a test runs them).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Sequence, cast

import gymnasium
import numpy as np

from cardcli.envs import ENV_IDS, GAMES  # importing cardcli.envs registers cardcli/<Game>-v0
from cardcli.envs.single_agent import SingleSeatEnv

HELD_OUT = 10**6
"""Evaluation seeds start here; training seeds are drawn below it, so none is ever trained on."""
REWARD_SCALE = {"peppa": 0.1, "seep": 0.01, "pigugnin": 1.0, "pepper": 0.1}
"""What the training rewards are multiplied by, so that a match's rewards add up to a few
units (docs/rl.md: Peppa's deals give 36 points, Seep's 100, Il Pigugnìn's a few busche).
Evaluation reports the game's own rewards."""
LEARNER_PACKAGES = ("torch", "stable-baselines3", "sb3-contrib")
INSTALL = "pip install torch==2.13.0 sb3-contrib"

Policy = Callable[[np.ndarray, np.ndarray], int]
"""Chooses an action from the observation and the boolean mask."""


# -- evaluation (no torch) ---------------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    seed: int
    reward: float
    """The learner's rewards over the match, unscaled."""
    standing: str
    """``info["standing"]`` at the end: win, lose, draw or annulled."""
    steps: int
    truncated: bool

    @property
    def won(self) -> float:
        return 1.0 if self.standing == "win" else 0.0


def make_env(game: str, opponents: str = "random", **kwargs: Any) -> gymnasium.Env:
    return gymnasium.make(ENV_IDS[game], opponents=opponents, **kwargs)


def masks_of(env: gymnasium.Env) -> np.ndarray:
    """The mask MaskablePPO reads: ``action_masks()`` of the seat's environment."""
    return cast(SingleSeatEnv, env.unwrapped).action_masks()


def random_policy(seed: int) -> Policy:
    """A uniformly random legal action, from its own seeded generator."""
    rng = np.random.default_rng(seed)
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


def evaluate(policy: Policy, game: str, seeds: Sequence[int], opponents: str = "random",
             **env_kwargs: Any) -> list[MatchResult]:
    """One match per seed with ``policy`` in the learner's seat; the mask is
    ``action_masks()``, as MaskablePPO reads it."""
    env = make_env(game, opponents, **env_kwargs)
    results = []
    for seed in seeds:
        observation, info = env.reset(seed=int(seed))
        total, steps, terminated, truncated = 0.0, 0, False, False
        while not (terminated or truncated):
            mask = masks_of(env)
            observation, reward, terminated, truncated, info = env.step(policy(observation, mask))
            if info.get("illegal_action"):
                raise AssertionError(f"seed {seed}: the policy chose an action outside the mask")
            total += float(reward)
            steps += 1
        results.append(MatchResult(int(seed), total, info["standing"], steps, bool(truncated)))
    env.close()
    return results


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation: fine for the
    hundreds of seeds an evaluation plays, too narrow below some 30)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    z = statistics.NormalDist().inv_cdf(0.975)
    return mean, z * statistics.stdev(values) / math.sqrt(len(values))


@dataclass(frozen=True)
class Comparison:
    seeds: int
    reward: tuple[tuple[float, float], tuple[float, float]]
    """(mean, half-width) of the match reward, for the first policy and the second."""
    wins: tuple[float, float]
    reward_difference: tuple[float, float]
    """(mean, half-width) of first minus second, seed by seed."""
    win_difference: tuple[float, float]


def compare(first: Sequence[MatchResult], second: Sequence[MatchResult]) -> Comparison:
    """Paired by seed: both lists must hold the same seeds in the same order."""
    if [r.seed for r in first] != [r.seed for r in second]:
        raise ValueError("the two evaluations were not played on the same seeds")
    return Comparison(
        seeds=len(first),
        reward=(interval([r.reward for r in first]), interval([r.reward for r in second])),
        wins=(statistics.fmean(r.won for r in first), statistics.fmean(r.won for r in second)),
        reward_difference=interval([a.reward - b.reward for a, b in zip(first, second)]),
        win_difference=interval([a.won - b.won for a, b in zip(first, second)]),
    )


def report(comparison: Comparison, names: tuple[str, str] = ("trained", "random")) -> str:
    c = comparison
    lines = [f"held-out seeds: {c.seeds} (from {HELD_OUT}), each played by both policies"]
    for name, (mean, half), wins in zip(names, c.reward, c.wins):
        lines.append(f"  {name:8} mean match reward {mean:8.3f} ± {half:.3f}   win rate {wins:6.1%}")
    mean, half = c.reward_difference
    lines.append(f"  {names[0]} - {names[1]}, per seed: reward {mean:+.3f} (95% interval "
                 f"{mean - half:+.3f} to {mean + half:+.3f})")
    mean, half = c.win_difference
    lines.append(f"  {names[0]} - {names[1]}, per seed: win rate {mean:+.1%} (95% interval "
                 f"{mean - half:+.1%} to {mean + half:+.1%})")
    return "\n".join(lines)


# -- what the learner costs to install ---------------------------------------------------------


def _installed_bytes(name: str) -> int:
    files = metadata.distribution(name).files or []
    total = 0
    for file in files:
        path = Path(file.locate())
        if path.is_file():
            total += path.stat().st_size
    return total


def _is_installed(name: str) -> bool:
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def _requirements(name: str) -> list[str]:
    """The distributions ``name`` needs (no extras), as installed here."""
    from packaging.requirements import Requirement

    needed = []
    for text in metadata.requires(name) or []:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        needed.append(requirement.name)
    return needed


def _closure(names: Sequence[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        try:
            key = metadata.distribution(name).metadata["Name"].lower().replace("_", "-")
        except metadata.PackageNotFoundError:
            continue
        if key in seen:
            continue
        seen.add(key)
        todo.extend(_requirements(name))
    return seen


def install_cost() -> str:
    """The installed sizes of the learner's packages, and of what they add to ``cardcli[rl]``."""
    lines = [f"install: {INSTALL}"]
    missing = [name for name in LEARNER_PACKAGES if not _is_installed(name)]
    if missing:
        lines.append(f"  not installed here: {', '.join(missing)}")
        return "\n".join(lines)
    total = 0
    for name in LEARNER_PACKAGES:
        size = _installed_bytes(name)
        total += size
        lines.append(f"  {name:20} {metadata.version(name):14} {size / 1e6:8.1f} MB")
    lines.append(f"  {'together':35} {total / 1e6:8.1f} MB")
    rl_extra = _closure(["pettingzoo", "gymnasium", "numpy", "cardcli"])
    added = sorted(_closure(LEARNER_PACKAGES) - rl_extra - set(LEARNER_PACKAGES))
    extra = sum(_installed_bytes(name) for name in added)
    lines.append(f"  and what they need beyond cardcli[rl] ({', '.join(added)}): {extra / 1e6:.1f} MB")
    lines.append(f"  in all {(total + extra) / 1e6:.1f} MB")
    lines.append("  (torch's default wheels for Linux are CUDA builds that depend on NVIDIA's libraries, "
                 "several GB installed: a plain `pip install sb3-contrib` may pull one; a `+cpu` version "
                 "above is the CPU-only build)")
    return "\n".join(lines)


# -- training (torch, sb3-contrib) -------------------------------------------------------------


class TrainingSeeds(gymnasium.Wrapper):
    """Every match from a seed drawn below ``HELD_OUT``, and rewards scaled for training."""

    def __init__(self, env: gymnasium.Env, seed: int, scale: float) -> None:
        super().__init__(env)
        self.rng = np.random.default_rng(seed)
        self.scale = scale
        self.matches = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        self.matches += 1
        return self.env.reset(seed=int(self.rng.integers(HELD_OUT)), options=options)

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        return observation, float(reward) * self.scale, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return masks_of(self.env)


def train(game: str, minutes: float, seed: int, envs: int, opponents: str, env_kwargs: dict[str, Any]) -> Any:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)

    class Deadline(BaseCallback):
        """Stops the training at the deadline (checked at every step)."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.deadline = time.monotonic() + seconds
            self.last_report = time.monotonic()

        def _on_step(self) -> bool:
            now = time.monotonic()
            if now - self.last_report >= 30:
                self.last_report = now
                left = max(0.0, self.deadline - now)
                print(f"  {self.num_timesteps} steps, {left:.0f} s left", flush=True)
            return now < self.deadline

    scale = REWARD_SCALE[game]
    def factory(i: int) -> Callable[[], gymnasium.Env]:
        return lambda: TrainingSeeds(make_env(game, opponents, **env_kwargs), seed * 1000 + i, scale)

    vec = DummyVecEnv([factory(i) for i in range(envs)])
    model = MaskablePPO("MlpPolicy", vec, seed=seed, n_steps=2048 // envs, batch_size=256,
                        n_epochs=5, policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)
    started = time.monotonic()
    model.learn(total_timesteps=10**12, callback=Deadline(minutes * 60))
    elapsed = time.monotonic() - started
    matches = sum(cast(TrainingSeeds, env).matches for env in vec.envs)
    print(f"trained {model.num_timesteps} steps in {elapsed:.0f} s ({model.num_timesteps / elapsed:.0f} "
          f"steps/s), about {matches} matches", flush=True)
    return model


def trained_policy(model: Any) -> Policy:
    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)
    return choose


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, default="peppa")
    parser.add_argument("--players", type=int, help="the player count (the game's first if omitted)")
    parser.add_argument("--max-deals", type=int, help="deals after which a match is cut (500 if omitted)")
    parser.add_argument("--opponents", default="random", help="the built-in player of every other seat")
    parser.add_argument("--minutes", type=float, default=4.0, help="wall-clock training budget")
    parser.add_argument("--seed", type=int, default=0, help="the learner's and the training matches' seed")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together in training")
    parser.add_argument("--eval-seeds", type=int, default=500, help="held-out matches per policy")
    args = parser.parse_args(argv)

    env_kwargs: dict[str, Any] = {}
    if args.players is not None:
        env_kwargs["players"] = args.players
    if args.max_deals is not None:
        env_kwargs["max_deals"] = args.max_deals

    print(install_cost())
    print(f"training MaskablePPO on {' '.join([args.game, *(f'{k}={v}' for k, v in env_kwargs.items())])} "
          f"against {args.opponents} "
          f"for {args.minutes:g} min, seed {args.seed}", flush=True)
    model = train(args.game, args.minutes, args.seed, args.envs, args.opponents, env_kwargs)

    seeds = range(HELD_OUT, HELD_OUT + args.eval_seeds)
    started = time.monotonic()
    trained = evaluate(trained_policy(model), args.game, seeds, args.opponents, **env_kwargs)
    baseline = evaluate(random_policy(args.seed), args.game, seeds, args.opponents, **env_kwargs)
    print(f"evaluated in {time.monotonic() - started:.0f} s")
    print(report(compare(trained, baseline)))
    cut = sum(r.truncated for r in trained + baseline)
    if cut:
        print(f"  ({cut} of {2 * len(seeds)} matches cut at the deal limit)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
