"""The registry: every game by name, with its variants, player counts and options.

The CLI, the protocol, the records and the docs read games from here and never repeat a
game's facts in a table of their own.
"""

from __future__ import annotations

import importlib
from typing import Any, Iterator, Mapping

import attrs

from ..errors import UsageError
from . import options as opt
from .base import GameSpec, MatchState, Variant
from .dealing import draw_seat

MODULES = ("peppa", "seep", "pigugnin", "pepper")
"""The games' modules in this package, in the order the games are listed; each has a ``SPEC``
named as its module."""


class _Games(Mapping[str, GameSpec]):
    """Every game by name, each module imported when its game is first asked for: a command
    that plays one game does not pay for importing the others (Seep's engine alone is a fifth
    of a short command's start-up)."""

    def __init__(self, names: tuple[str, ...]):
        self._names = names
        self._loaded: dict[str, GameSpec] = {}

    def __getitem__(self, name: str) -> GameSpec:
        spec = self._loaded.get(name)
        if spec is None:
            if name not in self._names:
                raise KeyError(name)
            spec = importlib.import_module(f"{__package__}.{name}").SPEC
            assert isinstance(spec, GameSpec) and spec.name == name, f"{name}.SPEC names {spec.name}"
            self._loaded[name] = spec
        return spec

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names


GAMES: Mapping[str, GameSpec] = _Games(MODULES)


def get(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        raise UsageError(f"unknown game {name!r}; games: {', '.join(sorted(GAMES))}") from None


@attrs.frozen
class Setup:
    """A fully resolved match: game, variant, options, player count and seed.

    Everything needed to reproduce a match's chance; the record stores it and ``verify``
    rebuilds the match from it.
    """

    spec: GameSpec
    variant: Variant
    options: Any
    num_players: int
    seed: int

    @property
    def first_dealer(self) -> int:
        return self.spec.first_dealer(self.options, self.num_players, draw_seat(self.seed, self.num_players))

    def new_match(self) -> MatchState:
        return self.spec.new_match(self.options, self.num_players, self.first_dealer)

    def warnings(self) -> tuple[str, ...]:
        """Options that are set but change nothing here, from the options class's own
        ``warnings()`` where it has one: said when a match starts, not refused."""
        said = getattr(self.options, "warnings", None)
        return tuple(said()) if callable(said) else ()


def resolve(
    game: str,
    variant: str | None,
    given: Mapping[str, Any],
    num_players: int | None,
    seed: int,
) -> Setup:
    """Check a user's choice of game, variant, options and player count, all at once."""
    spec = get(game)
    chosen = spec.variant(variant) if variant else spec.default_variant
    if chosen is None:
        names = ", ".join(v.name for v in spec.variants)
        raise UsageError(f"unknown variant {variant!r} of {game}; variants: {names}")
    count = spec.player_counts[0] if num_players is None else num_players
    if count not in spec.player_counts:
        ordered = [str(c) for c in sorted(spec.player_counts)]
        counts = ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " or " + ordered[-1]
        raise UsageError(f"{game} is played by {counts} players, not {count}")
    options = opt.build(spec.options_class, chosen.defaults, given)
    return Setup(spec, chosen, options, count, seed)
