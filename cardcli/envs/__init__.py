"""Learning environments for every game: PettingZoo AEC environments in PettingZoo's own
layout (``from cardcli.envs import peppa_v0; env = peppa_v0.env()``), and a single-agent
Gymnasium environment with the other seats played by built-in players
(:mod:`cardcli.envs.single_agent`). docs/rl.md describes the encodings.

An optional extra, ``pip install 'cardcli[rl]'``: without PettingZoo, Gymnasium and NumPy the
import fails with a :class:`~cardcli.envs.errors.MissingExtraError` (an ImportError) that says
what to install; the rest of cardcli never imports this package.
"""

from __future__ import annotations

import sys

from .errors import MissingExtraError

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:
    raise MissingExtraError(
        f"cardcli.envs needs {missing.name or 'pettingzoo, gymnasium and numpy'}: "
        "pip install 'cardcli[rl]'"
    ) from missing

from . import game_modules

GAMES = game_modules.env_games()
"""The games with an environment (every registered game whose spec names an encoding);
``<game>_v0`` is each one's module."""
ENV_IDS = {game: f"cardcli/{game.capitalize()}-v0" for game in GAMES}
"""Each game's single-agent environment as Gymnasium knows it once this package is imported:
``gymnasium.make("cardcli/Peppa-v0", opponents="heuristic")`` takes the keyword arguments of
:func:`~cardcli.envs.single_agent.single_agent_env`, and so do the vector-environment helpers
that take an id (``gymnasium.make_vec``). ``gymnasium.make("cardcli.envs:cardcli/Peppa-v0")``
imports the package itself."""


def _register() -> None:
    for game, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="cardcli.envs.single_agent:single_agent_env",
                               kwargs={"game": game})


game_modules.install(sys.modules[__name__])
_register()
