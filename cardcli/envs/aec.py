"""The PettingZoo AEC environment every game shares; ``<game>_v0.raw_env`` fixes the game
(:mod:`.game_modules` makes one such module per game whose spec names an encoding).

Agents are ``player_0`` ... ``player_{n-1}``, the seats. The agent to act is the seat whose
decision is open (the lowest seat during Peppa's pass, which is taken in seat order); chance
is dealt inside :meth:`CardGameEnv.step`, from the match seed as ``cardcli play`` deals it.

Rewards: when a deal is scored, each agent gets its seat's points for the deal, negated in
the games where lower is better (Peppa, Il Pigugnìn); when the match ends, +1 to the winners,
-1 to the losers, 0 for a draw or an annulled match. The match's end is a termination; the
deal limit (``max_deals``) is a truncation, with no result reward, since the match was cut
rather than decided: the standings it is adjudicated to are in ``infos`` (``standing``), as
at a termination.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Callable, Sequence

import attrs
import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ..cards import Card
from ..games import registry
from ..games.base import DealScore, Decision, Outcome
from ..games.dealing import new_seed
from ..errors import UsageError
from ..games.registry import Setup
from ..referee import Settings
from .encoding import GameEncoding
from .errors import IllegalActionError
from .match_text import MatchText
from .seat_features import SeatFeatures, feed_all, seat_view
from .table import Follower, Table

DEFAULT_MAX_DEALS = Settings().max_deals
"""The referee's deal limit, 500 deals, unless the environment is given another."""
RESULT_REWARD = {"win": 1.0, "lose": -1.0, "draw": 0.0, "annulled": 0.0}


class CardGameEnv(AECEnv, EzPickle):
    """A match of one game as a PettingZoo AEC environment."""

    game_name: str
    """Set by each game's ``raw_env``: the game whose spec gives the encoding."""
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "cardcli", "is_parallelizable": False}

    def __init__(
        self,
        variant: str | None = None,
        options: dict[str, Any] | None = None,
        players: int | None = None,
        max_deals: int = DEFAULT_MAX_DEALS,
        render_mode: str | None = None,
    ) -> None:
        """``variant``, ``options`` (the names and values of ``cardcli play -o``; a value may
        be given as the command line's text or as a Python value) and ``players`` as
        ``cardcli play`` takes them; the defaults are the game's."""
        EzPickle.__init__(self, variant, options, players, max_deals, render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode {render_mode!r}: choose one of {', '.join(self.metadata['render_modes'])}")
        if max_deals < 1:
            raise UsageError(f"max_deals must be at least 1, not {max_deals}")
        game = self.game_name
        part = registry.get(game).encoding
        if part is None:
            raise UsageError(f"{game} has no learning environment")
        self.encoding: GameEncoding = part.load()
        self.setup: Setup = registry.resolve(game, variant, options or {}, players, 0)
        self.setup.new_match()  # refuses the options that do not fit the player count, now
        self.max_deals = max_deals
        self.render_mode = render_mode
        self.codec = self.encoding.actions
        self.layout = self.encoding.layout(self.setup, max_deals)
        self.num_players = self.setup.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(self.num_players)]
        size = self.codec.size
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": self.layout.space(),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.followers: list[Callable[[Setup], Follower]] = []
        """Makers of more followers of each match (the opponents of :mod:`.single_agent`),
        called at every reset with the match's setup."""
        self.decks: Callable[[int], Sequence[Card]] | None = None
        """The deck of each deal (by its 0-based index) instead of the seed's, for studies of
        chosen deals; None deals as ``cardcli play`` does."""
        self._seeds: random.Random | None = None
        self._no_mask = np.zeros(size, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self.table: Table | None = None
        self.match_seed: int | None = None
        """The seed of the match in play (``cardcli play --seed``)."""
        self.seat_features: list[SeatFeatures] = []
        self.text: MatchText | None = None

    # -- the AEC interface ----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a match. ``seed`` is the match seed of ``cardcli play --seed``; without one, the
        next match seed is drawn from the last seed given (so a run of resets after
        ``reset(seed=S)`` is reproducible), or at random when none was. ``options`` is not
        used: the game's options are the constructor's."""
        if seed is not None:
            self._seeds = random.Random(f"cardcli/env-seeds/{seed}")
            match_seed = seed
        elif self._seeds is not None:
            match_seed = self._seeds.randrange(2**63)
        else:
            match_seed = new_seed()
        self.match_seed = match_seed
        self.table = self._new_table(attrs.evolve(self.setup, seed=match_seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {"action_mask": self._no_mask} for agent in self.agents}
        self.picked: tuple[int, ...] = ()
        self._legal: Sequence[int] | None = None
        self._mask: np.ndarray | None = None
        self.agent_selection = self.agents[0]
        self._after_move(self.table.advance())

    def _new_table(self, setup: Setup) -> Table:
        names = list(self.possible_agents)
        self.seat_features = [self.encoding.features(seat, setup, self.layout) for seat in range(self.num_players)]
        for seat, features in enumerate(self.seat_features):
            if not features.view_given:
                features.take_view(seat_view(seat, setup))
        self.text = MatchText(setup, names) if self.render_mode is not None else None
        followers: list[Follower] = [partial(feed_all, self.seat_features)]
        if self.text is not None:
            followers.append(self.text)
        followers += [make(setup) for make in self.followers]
        return Table(setup, self.max_deals, followers, self.decks)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is an action only once its match is over")
        action = int(action)
        decision = self._open()
        if action not in self.legal_actions():
            named = self.codec.describe(action) if 0 <= action < self.codec.size else "out of range"
            raise IllegalActionError(f"action {action} ({named}) is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        token = self.codec.move(decision, self.picked, action)
        self._legal = self._mask = None
        if token is None:
            self.picked = (*self.picked, action)
            finished: list[DealScore] = []
        else:
            self.picked = ()
            finished = self.table_now.play(token)
        self._after_move(finished)
        if self.render_mode == "human":
            self.render()

    def _after_move(self, finished: Sequence[DealScore]) -> None:
        """Rewards for the deals just scored; the next agent, or the end."""
        table = self.table_now
        sign = -1.0 if self.setup.spec.lower_is_better else 1.0
        for score in finished:
            for seat, points in enumerate(score.points):
                self.rewards[self.possible_agents[seat]] += sign * points
        if table.over:
            outcome = table.state.outcome()
            for seat, agent in enumerate(self.possible_agents):
                standing = outcome.standing(seat)
                if not table.truncated:
                    self.rewards[agent] += RESULT_REWARD[standing]
                self.infos[agent] = {"action_mask": self._no_mask, "standing": standing,
                                     "scores": list(outcome.scores)}
            flags = self.truncations if table.truncated else self.terminations
            for agent in self.agents:
                flags[agent] = True
            if self.text is not None:
                self.text.finish(outcome)
        else:
            decision = self._open()
            acting = self.possible_agents[decision.seat]
            if acting != self.agent_selection:
                self.infos[self.agent_selection] = {"action_mask": self._no_mask}
            self.agent_selection = acting
            self.infos[acting] = {"action_mask": self.action_mask(acting)}
            left_out = self.codec.unencoded(decision)
            if left_out:
                self.infos[acting]["unencoded_moves"] = left_out
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        acting = self._acting(agent)
        kind = self._open().kind if acting else None
        observation = self.seat_features[seat].observe(kind, self.picked if acting else ())
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    def render(self) -> str | None:
        """The lines of the match since the last call, as ``cardcli replay`` writes them:
        returned with ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: nothing to show")
            return None
        lines = self.text.take() if self.text is not None else []
        text = "\n".join(lines)
        if self.render_mode == "human":
            if lines:
                print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the match lives in this process."""

    # -- for users and wrappers -----------------------------------------------------------------

    def legal_actions(self) -> Sequence[int]:
        """The actions the agent to act may take now, sorted (empty once the match is over)."""
        if self._legal is None:
            decision = self.table_now.decision()
            self._legal = () if decision is None else self.codec.legal(decision, self.picked)
        return self._legal

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each action ``agent`` may take now; all 0 when it is not its turn."""
        if not self._acting(agent):
            return self._no_mask
        if self._mask is None:
            mask = np.zeros(self.codec.size, dtype=np.int8)
            mask[list(self.legal_actions())] = 1
            mask.flags.writeable = False  # shared by the observation and the infos: read only
            self._mask = mask
        return self._mask

    def decision(self) -> Decision | None:
        """The open decision (its seat, kind and move tokens), None once the match is over."""
        return self.table_now.decision()

    def actions_of(self, token: str) -> tuple[int, ...]:
        """The actions that make the move ``token`` now (one, or three for a Peppa pass)."""
        return self.codec.action(self._open(), token)

    @property
    def table_now(self) -> Table:
        if self.table is None:
            raise UsageError("the environment must be reset before it is used")
        return self.table

    @property
    def outcome(self) -> Outcome | None:
        """The result once the match is over (adjudicated at the deal limit), else None."""
        table = self.table_now
        return table.state.outcome() if table.over else None

    def _open(self) -> Decision:
        decision = self.table_now.decision()
        if decision is None:
            raise IllegalActionError("the match is over: no decision is open")
        return decision

    def _acting(self, agent: str) -> bool:
        table = self.table_now
        decision = table.decision()
        return decision is not None and self.possible_agents[decision.seat] == agent
