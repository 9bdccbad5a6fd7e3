"""One seat against built-in players: a game as a single-agent Gymnasium environment.

The other seats are played by the referee's own built-in players (``random``, ``heuristic``,
``ismcts``, with ``ismcts:`` parameters as ``--seat`` takes them), made as ``cardcli play``
makes them (:func:`cardcli.seating.builtin`, seeded from the match seed and the seat)
and told the match as a bot is: the header, then the lines of their seat only. So a built-in
opponent knows no more than it would under the referee, and ``reset(seed=S)`` with the same
actions plays what ``cardcli play --seed S`` plays with the same seats.

The observation is the seat's vector alone; its action mask is in ``info["action_mask"]``
and :meth:`SingleSeatEnv.action_masks` (the name masked-action learners such as
sb3-contrib's MaskablePPO look for). An illegal action ends the episode with reward -1, as the
AEC environments' wrapper does, so that an unmasked random action (Gymnasium's checker takes
those) is an answer, not a crash.
"""

from __future__ import annotations

from typing import Any, Sequence, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import protocol
from ..errors import CardcliError, UsageError
from ..games import options as opt
from ..games.base import Event
from ..games.registry import Setup
from ..referee import bot_rng
from ..seats.base import Request, Seat
from ..seating import builtin
from ..seats.builtin import builtin_name
from .aec import CardGameEnv
from .wrapping import ILLEGAL_REWARD

OPPONENTS = ("random", "heuristic", "ismcts", "house")
MOVE_MILLIS = 10_000
"""The time a built-in player is told it has (a search with an iteration budget ignores it)."""


class Opponents:
    """The built-in players of one match, following it as bots do."""

    def __init__(self, setup: Setup, specs: dict[int, str], names: Sequence[str]) -> None:
        self.seats: dict[int, Seat] = {}
        wire = opt.to_wire(setup.options)
        teams = setup.spec.teams(setup.num_players)
        order = setup.spec.play_order(setup.options)
        for seat, spec in specs.items():
            player = builtin(spec, spec, f"{setup.seed}/{seat}")
            player.notify(protocol.match_header(setup.spec.name, setup.variant.name, setup.num_players, seat, wire,
                                                names, order, teams, bot_rng(setup.seed, seat)))
            self.seats[seat] = player

    def __call__(self, events: Sequence[Event]) -> None:
        for seat, player in self.seats.items():
            lines = [event.line() for event in events if event.visible_to(seat)]
            if lines:
                player.notify(lines)

    def choose(self, seat: int, kind: str, moves: Sequence[str]) -> str:
        player = self.seats[seat]
        player.ask(Request(kind, tuple(moves), MOVE_MILLIS))
        answer = player.poll()
        if answer is not None and answer.fault is not None:
            raise answer.fault
        if answer is None or answer.move is None:
            raise CardcliError(f"the built-in player of seat {seat} gave no move")
        return answer.move


class SingleSeatEnv(gymnasium.Env):
    """``seat`` is the learner's; every other seat is played by ``opponents`` (one name for
    all, or one per other seat in seat order)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}
    """Rendering is text; the frame rate is the pace a watcher of ``human`` rendering is given
    (Gymnasium's checker asks every environment for one)."""

    def __init__(self, aec: CardGameEnv, seat: int = 0, opponents: str | Sequence[str] = "random") -> None:
        self.aec = aec
        n = aec.num_players
        if not 0 <= seat < n:
            raise UsageError(f"seat {seat}: the match has seats 0 to {n - 1}")
        others = [s for s in range(n) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise UsageError(f"{len(names)} opponents for the {len(others)} other seats")
        for name in names:
            if builtin_name(name) not in OPPONENTS:
                raise UsageError(f"opponent {name!r}: choose among {', '.join(OPPONENTS)}")
        self.seat = seat
        self.agent = aec.possible_agents[seat]
        self.specs = dict(zip(others, names))
        self.render_mode = aec.render_mode
        self.observation_space = cast(spaces.Dict, aec.observation_space(self.agent))["observation"]
        self.action_space = aec.action_space(self.agent)
        self.opponents: Opponents | None = None
        aec.followers.append(self._follow)

    def _follow(self, setup: Setup) -> Opponents:
        self.opponents = Opponents(setup, self.specs, self.aec.possible_agents)
        return self.opponents

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new match; ``seed`` as the AEC environment's (``cardcli play --seed``)."""
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._gained = 0.0
        self._play_others()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self.aec.table_now
        if table.over:
            raise UsageError("the match is over: reset() starts the next one")
        if int(action) not in self.aec.legal_actions():
            return self._observe(), ILLEGAL_REWARD, True, False, {**self._info(), "illegal_action": True}
        self._gained = 0.0
        self._move(int(action))
        self._play_others()
        truncated = table.over and table.truncated
        return self._observe(), self._gained, table.over and not truncated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """True for each action the learner may take now: a fresh, writable boolean array, as
        masked-action learners expect (sb3-contrib turns it into a tensor, which a read-only
        array would make PyTorch warn about)."""
        return np.array(self.aec.action_mask(self.agent), dtype=bool)

    def render(self) -> str | None:
        return self.aec.render()

    # -- the other seats ------------------------------------------------------------------------

    def _play_others(self) -> None:
        """Let the built-in players move until it is the learner's turn or the match is over."""
        aec = self.aec
        assert self.opponents is not None
        while not aec.table_now.over:
            decision = aec.decision()
            assert decision is not None
            if decision.seat == self.seat:
                return
            token = self.opponents.choose(decision.seat, decision.kind, decision.moves)
            for action in aec.actions_of(token):
                self._move(action)

    def _move(self, action: int) -> None:
        self.aec.step(action)
        self._gained += self.aec.rewards.get(self.agent, 0.0)

    def _observe(self) -> np.ndarray:
        return self.aec.observe(self.agent)["observation"]

    def _info(self) -> dict[str, Any]:
        """The AEC environment's infos for the seat, with a mask of its own (a caller may keep
        and change what it is given)."""
        info = dict(self.aec.infos[self.agent])
        info["action_mask"] = np.array(self.aec.action_mask(self.agent))
        return info


def single_agent_env(game: str, seat: int = 0, opponents: str | Sequence[str] = "random", **kwargs: Any) -> SingleSeatEnv:
    """``game``'s environment for ``seat`` against ``opponents``; ``kwargs`` as the AEC
    environment's (``variant``, ``options``, ``players``, ``max_deals``, ``render_mode``)."""
    import sys

    from . import GAMES

    if game not in GAMES:
        raise UsageError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    raw = sys.modules[f"cardcli.envs.{game}_v0"].raw_env(**kwargs)
    return SingleSeatEnv(raw, seat, opponents)
