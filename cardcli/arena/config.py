"""What ``arena init`` fixes for the whole season: the game and its options, the seat count,
how each match is played (the referee's settings, the bots' limits, the sandbox) and the
master seed every unit's deals come from. Stored in the database (so every ``serve`` process
sharing it plays by the same rules), not in a file beside it."""

from __future__ import annotations

import json
from typing import Any

import attrs

from ..errors import UsageError
from ..games import registry
from ..referee import Settings
from ..seats.limits import Limits
from ..seats.policy import SandboxPolicy
from ..tournament.config import Config
from ..tournament.schedule import places

FORMAT = "cardcli-arena"


@attrs.frozen
class ArenaConfig:
    """The season's rules. Each batch of matches is played as a tournament configuration
    made from this one (:meth:`tournament`), so the arena and ``cardcli tournament`` play a
    match by the same code."""

    game: str
    variant: str
    options: dict[str, str]
    players: int
    seed: int
    settings: Settings = attrs.field(factory=Settings)
    limits: Limits = attrs.field(factory=Limits)
    sandbox: SandboxPolicy = attrs.field(factory=SandboxPolicy)

    @property
    def group_size(self) -> int:
        """How many entrants a unit seats: one per place at the table (a side in a partnership
        game, else a seat)."""
        return len(places(self.players, registry.get(self.game).teams(self.players)))

    def tournament(self, entrants: tuple[tuple[str, str], ...], seed: int,
                   entrant_settings: dict[str, dict[str, Any]] | None = None) -> Config:
        """A tournament configuration for one unit: ``entrants`` (name, seat spec) in their
        order, one deal set from ``seed``, every rotation; its schedule is the unit's matches."""
        return Config(
            game=self.game, variant=self.variant, options=dict(self.options), players=self.players,
            entrants=entrants, deal_sets=1, seed=seed, duplicate=True, permutations=False, keep_alive=True,
            settings=self.settings, limits=self.limits, sandbox=self.sandbox,
            entrant_settings=dict(entrant_settings or {}),
        )

    def to_json(self) -> dict[str, Any]:
        base = self.tournament((), self.seed).to_json()
        data = {"format": FORMAT, "game": self.game, "variant": self.variant, "options": dict(self.options),
                "players": self.players, "seed": self.seed}
        data.update({key: base[key] for key in ("settings", "limits", "sandbox")})
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @staticmethod
    def loads(text: str) -> ArenaConfig:
        """The configuration stored by ``arena init``; a row that is not one is a one-line error."""
        try:
            data = json.loads(text)
            if data.get("format") != FORMAT:
                raise ValueError("not an arena's configuration")
            base = Config.from_json({"game": data["game"], "variant": data["variant"], "options": data["options"],
                                     "players": data["players"], "entrants": [], "deal_sets": 1,
                                     "seed": data["seed"], "settings": data["settings"],
                                     "limits": data["limits"], "sandbox": data["sandbox"]})
        except (ValueError, KeyError, TypeError, AttributeError, UsageError) as err:
            raise UsageError(f"the arena's configuration cannot be read: {err}") from None
        return ArenaConfig(base.game, str(base.variant), dict(base.options), base.players, base.seed,
                           base.settings, base.limits, base.sandbox)
