"""One PettingZoo module per game, ``cardcli.envs.<game>_v0``, made from the game's spec.

PettingZoo's own games are modules with ``env()`` and ``raw_env`` (``from
pettingzoo.classic import connect_four_v3``); cardcli's follow that layout without a file per
game: every registered game whose spec names an encoding, a game from another package
included, gets its module when :mod:`cardcli.envs` is imported. Each is entered in
``sys.modules``, so ``import cardcli.envs.peppa_v0`` and pickling an environment (which names
its class by module) work as for a module on disk.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from ..games import registry
from .aec import CardGameEnv
from .wrapping import classic_wrappers


def env_games() -> tuple[str, ...]:
    """The registered games that have a learning environment, in the registry's order (a game
    of another package that fails to load has none)."""
    return tuple(spec.name for spec in registry.available()[0] if spec.encoding is not None)


def game_module(package: str, game: str) -> ModuleType:
    """The module ``<package>.<game>_v0``: ``raw_env`` (the environment) and ``env()`` (it in
    PettingZoo's classic wrappers: an illegal action ends the match with a penalty,
    out-of-range actions and calls out of order are refused)."""
    spec = registry.get(game)
    name = f"{package}.{game}_v0"
    module = ModuleType(name, f"{spec.title} as a PettingZoo AEC environment (docs/rl.md).")
    raw_env = type("raw_env", (CardGameEnv,), {
        "__module__": name,
        "__doc__": f"{spec.title} as a PettingZoo AEC environment, without the wrappers.",
        "game_name": game,
        "metadata": {**CardGameEnv.metadata, "name": f"{game}_v0"},
    })

    def env(**kwargs: Any) -> Any:
        """``raw_env(**kwargs)`` in PettingZoo's classic wrappers."""
        return classic_wrappers(raw_env(**kwargs))

    env.__module__ = name
    module.raw_env = raw_env  # type: ignore[attr-defined]
    module.env = env  # type: ignore[attr-defined]
    return module


def install(package: ModuleType) -> None:
    """Make ``<game>_v0`` of every game with an environment, as attributes of ``package`` and
    entries of ``sys.modules``."""
    for game in env_games():
        module = game_module(package.__name__, game)
        sys.modules[module.__name__] = module
        setattr(package, f"{game}_v0", module)
