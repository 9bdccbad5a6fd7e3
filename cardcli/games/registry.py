"""The registry: every game by name, with its variants, player counts and options.

The CLI, the protocol, the records and the docs read games from here and never repeat a
game's facts in a table of their own. The games are cardcli's own (a folder each in this
package, with a ``SPEC``) and those other installed packages declare through the entry point
group ``cardcli.games`` (``briscola = "cardcli_briscola:SPEC"``): docs/adding-a-game.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Iterator, Mapping

import attrs

from ..errors import UsageError
from . import options as opt
from .base import GameSpec, MatchState, Variant
from .dealing import draw_seat

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

MODULES = ("peppa", "seep", "pigugnin", "pepper")
"""cardcli's own games, a package each in :data:`PLUGINS`, in the order the games are listed."""

PLUGINS = "cardcli.plugins"
"""The package of cardcli's own games' folders, loaded by name when a game is first asked for:
they fill in the frameworks above this layer (players, learning encodings), so nothing here
imports them."""

ENTRY_POINTS = "cardcli.games"
"""The entry point group through which another package adds a game: each entry names a
:class:`GameSpec` (``module:attribute``) under the game's name."""


class _Games(Mapping[str, GameSpec]):
    """Every game by name, each imported when it is first asked for: a command that plays one
    game does not pay for importing the others (Seep's engine alone is a fifth of a short
    command's start-up), nor for looking through the installed packages' entry points unless
    it asks for a game that is not cardcli's own, or for the list of all games."""

    def __init__(self, names: tuple[str, ...]):
        self._names = names
        self._loaded: dict[str, GameSpec] = {}
        self._plugins: dict[str, EntryPoint] | None = None

    def _found(self) -> dict[str, EntryPoint]:
        """The games of other packages, by name; one that takes a name of cardcli's own is
        not listed (cardcli's game keeps its name)."""
        if self._plugins is None:
            from importlib.metadata import entry_points

            self._plugins = {}
            for point in sorted(entry_points(group=ENTRY_POINTS), key=lambda p: p.name):
                if point.name not in self._names:
                    self._plugins.setdefault(point.name, point)
        return self._plugins

    def __getitem__(self, name: str) -> GameSpec:
        loaded = self._loaded.get(name)
        if loaded is not None:
            return loaded
        spec: object
        if name in self._names:
            spec = importlib.import_module(f"{PLUGINS}.{name}").SPEC
        else:
            point = self._found().get(name)
            if point is None:
                raise KeyError(name)
            spec = _plugin(point)
        if not isinstance(spec, GameSpec) or spec.name != name:
            raise UsageError(f"the game {name!r} is declared as {getattr(spec, 'name', spec)!r}, not a game of that name")
        self._loaded[name] = spec
        return spec

    def __iter__(self) -> Iterator[str]:
        yield from self._names
        yield from self._found()

    def __len__(self) -> int:
        return len(self._names) + len(self._found())

    def __contains__(self, name: object) -> bool:
        return name in self._names or (isinstance(name, str) and name in self._found())


def _plugin(point: EntryPoint) -> object:
    """The spec an entry point names; a package that fails to import is a one-line error
    naming it, not a traceback."""
    try:
        return point.load()
    except (ImportError, AttributeError) as err:
        raise UsageError(f"the game {point.name!r} of {point.value} cannot be loaded: {err}") from None


GAMES: Mapping[str, GameSpec] = _Games(MODULES)


def available() -> tuple[tuple[GameSpec, ...], tuple[str, ...]]:
    """Every game that loads, and a one-line problem for each that does not (another
    package's game that fails to import): a listing shows the games that work and says which
    do not, rather than failing for all of them."""
    specs: list[GameSpec] = []
    problems: list[str] = []
    for name in GAMES:
        try:
            specs.append(GAMES[name])
        except UsageError as err:
            problems.append(str(err))
    return tuple(specs), tuple(problems)


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
    options: Any = opt.build(spec.options_class, chosen.defaults, given)
    return Setup(spec, chosen, options, count, seed)
