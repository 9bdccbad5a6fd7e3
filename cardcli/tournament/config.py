"""A tournament's whole definition: what the runner stores in its directory (``config.json``)
and every executor hands, with each match, to where the match is played."""

from __future__ import annotations

from typing import Any

import attrs

from ..errors import UsageError
from ..games import registry
from ..referee import Settings
from ..remote.seat import RemoteContext
from ..seats.limits import Limits
from ..seats.policy import DEFAULT_DISK_MIB, SandboxMode, SandboxPolicy
from .entrants import Entrant
from .schedule import MatchPlan, plan


def _match_settings(value: Settings | dict[str, Any]) -> Settings:
    """The settings as given, or read from a stored configuration (whose ``settings`` object
    was checked by its shape before it is read: :func:`cardcli.records.shape.config_problem`)."""
    return value if isinstance(value, Settings) else Settings(**value)


def _limits(value: Limits | dict[str, Any]) -> Limits:
    """The limits as given, or read from a stored configuration (checked by its shape)."""
    return value if isinstance(value, Limits) else Limits(**value)


def _sandbox(value: SandboxPolicy | dict[str, Any]) -> SandboxPolicy:
    """The sandbox asked for, or read from a stored configuration (checked by its shape): a
    tournament made before the sandbox existed stored none and runs its bots as it did, unguarded;
    one made before ``--bot-disk`` has the default scratch."""
    if isinstance(value, SandboxPolicy):
        return attrs.evolve(value, hidden=())
    return SandboxPolicy(mode=value.get("mode", SandboxMode.OFF), network=bool(value.get("network", False)),
                         binds=tuple(value.get("binds", ())), disk_mib=int(value.get("disk_mib", DEFAULT_DISK_MIB)))


@attrs.frozen
class Config:
    """A tournament's whole definition; stored in its directory as JSON."""

    game: str
    variant: str | None
    options: dict[str, str]
    players: int
    entrants: tuple[tuple[str, str], ...]
    """(name, seat spec) of each entrant."""
    deal_sets: int
    seed: int
    duplicate: bool = True
    permutations: bool = False
    keep_alive: bool = True
    settings: Settings = attrs.field(factory=Settings, converter=_match_settings)
    """How each match is played (the referee's settings: times, the fault policy, the deal
    limit, the time bank); stored as the record's ``settings`` object is written."""
    limits: Limits = attrs.field(factory=Limits, converter=_limits)
    """Each bot's limits; stored as the four limits, None where there is none."""
    sandbox: SandboxPolicy = attrs.field(factory=SandboxPolicy, converter=_sandbox)
    """The sandbox asked for (``mode``, ``network``, ``binds``, ``disk_mib``); the referee's own
    paths it masks are this run's (:meth:`sandbox_policy`), never stored."""
    sign_key: str | None = None
    """The absolute path of the private key that signs every record (``--sign-key``), or None.
    Only the path is stored, never the key, so that ``--resume`` signs on with the same key."""
    gauntlet: str | None = None
    """The entrant that plays every match (``--gauntlet NAME``), or None for the ordinary
    schedule. Stored so that ``--resume`` rebuilds the same schedule; a configuration made
    before gauntlets existed has none."""
    entrant_settings: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    """Entrant name → how its bot starts and what it is set to: ``dir`` (absolute), ``env``
    and ``options`` (``--entrants``, ``--bot-option``; :class:`.entrants.Entrant`), for the
    entrants that have any. A configuration made before entrants files existed has none."""
    hidden: tuple[str, ...] = attrs.field(default=(), eq=False)
    """The tournament's own directory while it runs: never stored, masked from every bot."""
    remote: RemoteContext | None = attrs.field(default=None, eq=False)
    """Where this run's remote seats find their bots (``--listen``): never stored, since the
    listener lives as long as one run."""

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self, recurse=False, filter=lambda field, _: field.name not in ("hidden", "remote"))
        data["entrants"] = [list(e) for e in self.entrants]
        data["settings"] = self.settings.to_json()
        data["limits"] = attrs.asdict(self.limits)
        sandbox = self.sandbox
        data["sandbox"] = {"mode": sandbox.mode.value, "network": sandbox.network, "binds": list(sandbox.binds),
                           "disk_mib": sandbox.disk_mib}
        return data

    def sandbox_policy(self) -> SandboxPolicy:
        """The sandbox asked for, masking this run's own paths: the tournament's directory and
        the signing key."""
        return attrs.evolve(self.sandbox, hidden=self.hidden + ((self.sign_key,) if self.sign_key is not None else ()))

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Config":
        try:
            data = dict(data)
            data["entrants"] = tuple(tuple(e) for e in data["entrants"])
            return Config(**data)
        except (KeyError, TypeError, ValueError) as err:
            raise UsageError(f"not a tournament configuration: {err}") from None

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.entrants]

    def entrant(self, index: int) -> Entrant:
        name, spec = self.entrants[index]
        return Entrant.of(name, spec, self.entrant_settings.get(name, {}))

    def schedule(self) -> list[MatchPlan]:
        spec = registry.get(self.game)
        return list(
            plan(len(self.entrants), self.players, spec.teams(self.players), self.deal_sets, self.seed,
                 self.duplicate, self.permutations, self.gauntlet_index)
        )

    @property
    def gauntlet_index(self) -> int | None:
        """The index of the gauntlet's entrant, or None (a name that is no entrant's is refused
        when the configuration is made or loaded)."""
        return None if self.gauntlet is None else self.names.index(self.gauntlet)
