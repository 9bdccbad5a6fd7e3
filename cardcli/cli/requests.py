"""What ``play`` and ``tournament`` are asked to do: the options as given (typed, frozen), the
checks of one option against another, and the settings the referee and the tournament runner
take, made from them. A command collects its options, builds its request here, runs it and
prints; every bad combination is a one-line error (exit 2) raised here, before any bot
starts, in the order the checks are written.

The options the two commands share are :class:`MatchOptions`; each command's own are
:class:`PlayOptions` and :class:`TournamentOptions`, whose fields are named as the commands'
parameters (cardcli/cli/options.py declares the shared ones), so an option added to a command
but not here is a TypeError the first time the command runs, not a value silently dropped."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import attrs

from ..errors import UsageError
from ..games import registry
from ..games.dealing import new_seed
from ..games.registry import Setup
from ..referee import Settings
from ..safe_text import display_name
from ..seats.limits import Limits
from ..records.io import OnFault
from ..seats.policy import SandboxMode, SandboxPolicy
from .common import RemoteArgs, announce_sandbox, option_assignment, parse_assignments, referee_paths, \
    sandbox_policy, warn_options

if TYPE_CHECKING:
    from ..records import signing
    from ..tournament.cluster import ClusterSpec, Shipment
    from ..tournament.config import Config
    from ..tournament.entrants import Entrant
    from ..tournament.stopping import SprtWatch


@attrs.frozen(kw_only=True)
class MatchOptions:
    """The options ``play`` and ``tournament`` share, as given: the game's variant and options,
    the time limits, the fault policy, the bots' limits, the sandbox and the remote seats."""

    variant: str | None
    options: tuple[str, ...]
    move_time: float
    time_bank: float | None
    startup_time: float
    quit_grace: float
    max_deals: int
    on_fault: OnFault
    bot_memory: int | None
    bot_cpu: int | None
    bot_files: int | None
    sandbox_mode: SandboxMode
    bot_network: bool
    sandbox_binds: tuple[str, ...]
    bot_disk: int
    bot_procs: int | None
    remote: RemoteArgs

    @classmethod
    def take(cls, given: dict[str, Any]) -> MatchOptions:
        """These options, taken out of ``given`` (a command's keyword arguments), which keeps
        the command's own."""
        remote = RemoteArgs(**_take(RemoteArgs, given))
        return cls(remote=remote, **_take(cls, given, but=("remote",)))

    def settings(self, keep_info: bool = False) -> Settings:
        return Settings(self.move_time, self.startup_time, self.quit_grace, self.on_fault, keep_info,
                        self.max_deals, self.time_bank)

    def limits(self) -> Limits:
        return Limits(self.bot_memory, self.bot_cpu, self.bot_files, self.bot_procs)

    def sandbox_policy(self, hidden: Iterable[str | None] = ()) -> SandboxPolicy:
        """The sandbox asked for; ``hidden`` are the referee's own paths."""
        return sandbox_policy(self.sandbox_mode, self.bot_network, self.sandbox_binds, hidden, self.bot_disk)


def _take(cls: type, given: dict[str, Any], but: Sequence[str] = ()) -> dict[str, Any]:
    return {field.name: given.pop(field.name) for field in attrs.fields(cls) if field.name not in but}


@attrs.frozen(kw_only=True)
class PlayOptions:
    """``play``'s own options, as given."""

    game: str
    seats: tuple[str, ...]
    seat_options: tuple[str, ...]
    players: int | None
    seed: int | None
    count_games: int
    record_path: str | None
    sign_key: str | None
    bot_stderr: str | None
    keep_info: bool
    events: bool
    verbose: bool
    as_json: bool


@attrs.frozen(kw_only=True)
class PlayRequest:
    """One ``play`` run, checked: the options, the seed, the game's setup, the bots' options
    by seat and the key that signs the records."""

    given: PlayOptions
    match: MatchOptions
    count: int | None
    """The players, from --seat or --players; None: the game's usual count."""
    seed: int
    game_options: dict[str, str]
    setup: Setup
    bot_options: dict[int, tuple[tuple[str, str], ...]]
    signer: signing.PrivateKey | None

    @classmethod
    def from_options(cls, **options: Any) -> PlayRequest:
        """The request of ``play``'s keyword arguments; warns on stderr of game options that
        change nothing."""
        match = MatchOptions.take(options)
        given = PlayOptions(**options)
        seats, players = given.seats, given.players
        if seats and players is not None and players != len(seats):
            raise UsageError(f"--players {players} but {len(seats)} --seat given")
        count = len(seats) if seats else players
        seed = new_seed() if given.seed is None else given.seed
        game_options = parse_assignments(match.options)
        setup = registry.resolve(given.game, match.variant, game_options, count, seed)
        warn_options(setup)
        bot_options = _seat_options(given.seat_options, setup.num_players)
        signer = _signer(given.sign_key, given.record_path)
        return cls(given=given, match=match, count=count, seed=seed, game_options=game_options, setup=setup,
                   bot_options=bot_options, signer=signer)

    def sandbox_policy(self) -> SandboxPolicy:
        """The sandbox asked for, hiding the referee's own files from the bots."""
        given, remote = self.given, self.match.remote
        return self.match.sandbox_policy((given.record_path, given.bot_stderr, given.sign_key, remote.tokens_path,
                                          remote.cert, remote.key_path))


def _seat_options(items: Sequence[str], seats: int) -> dict[int, tuple[tuple[str, str], ...]]:
    """``--seat-option SEAT:OPTION=VALUE`` items by seat, checked before any bot starts; a
    later item for the same seat and option wins."""
    chosen: dict[int, dict[str, str]] = {}
    for item in items:
        seat, name, value = option_assignment(item, "--seat-option", [str(s) for s in range(seats)], "seat")
        chosen.setdefault(int(seat), {})[name] = value
    return {seat: tuple(pairs.items()) for seat, pairs in chosen.items()}


def _signer(sign_key: str | None, record_path: str | None) -> signing.PrivateKey | None:
    """The key that signs the records, read before any bot starts, so a bad key costs no match."""
    if sign_key is None:
        return None
    if record_path is None:
        raise UsageError("--sign-key signs the record: give --record PATH too")
    from ..records import signing  # its key code loads only for a signed record

    return signing.private_key(sign_key)


@attrs.frozen(kw_only=True)
class TournamentOptions:
    """``tournament``'s own options, as given."""

    game: str | None
    bots: tuple[str, ...]
    entrants_path: str | None
    bot_options: tuple[str, ...]
    players: int | None
    deal_sets: int
    seed: int | None
    duplicate: bool
    permutations: bool
    gauntlet: str | None
    jobs: int | None
    directory: str | None
    resume: str | None
    restart_bots: bool
    sign_key: str | None
    bot_stderr: str | None
    cluster_at: str | None
    ship_dirs: tuple[str, ...]
    sprt_text: str | None
    cluster_batch: int | None
    csv_path: str | None
    standings_every: int | None
    as_json: bool


@attrs.frozen(kw_only=True)
class TournamentRequest:
    """One ``tournament`` run, checked: its directory and configuration (new, or stored there
    for ``--resume``), what guards the bots, and the cluster, shipments and sequential test
    asked for."""

    given: TournamentOptions
    match: MatchOptions
    path: Path
    config: Config
    guard: SandboxPolicy | None
    cluster: ClusterSpec | None
    shipments: list[Shipment]
    watch: SprtWatch | None

    @classmethod
    def from_options(cls, **options: Any) -> TournamentRequest:
        """The request of ``tournament``'s keyword arguments. Warns on stderr, as it checks, of
        game options that change nothing and of bots that will run unguarded."""
        from ..records import signing
        from ..seats.guard import resolve
        from ..tournament import runner
        from ..tournament.cluster import ClusterSpec, Shipment
        from ..tournament.sprt import parse_sprt
        from ..tournament.stopping import SprtWatch

        match = MatchOptions.take(options)
        given = TournamentOptions(**options)
        sign_key, gauntlet, time_bank = given.sign_key, given.gauntlet, match.time_bank
        key_path = str(Path(sign_key).resolve()) if sign_key is not None else None
        if given.resume is not None:
            path = Path(given.resume)
            config = runner.load(path)
            if key_path is not None and key_path != config.sign_key:
                raise UsageError(f"--resume continues {path} as it was made: its records are signed with "
                                 f"{config.sign_key or 'no key'}, not --sign-key {sign_key}")
            if gauntlet is not None and gauntlet != config.gauntlet:
                raise UsageError(f"--resume continues {path} as it was made: its schedule is "
                                 f"{'the gauntlet of ' + display_name(config.gauntlet) if config.gauntlet else 'no gauntlet'}, "
                                 f"not --gauntlet {display_name(gauntlet)}")
            if given.entrants_path is not None or given.bot_options:
                raise UsageError(f"--resume continues {path} with the entrants it was made with: "
                                 f"{'--entrants' if given.entrants_path is not None else '--bot-option'} is for a new "
                                 "tournament")
            banked = config.settings.time_bank
            if time_bank is not None and time_bank != banked:
                raise UsageError(f"--resume continues {path} as it was made: its time bank is "
                                 f"{f'{banked:g} s' if banked is not None else 'none'}, not --time-bank {time_bank:g}")
        else:
            if given.game is None or given.directory is None:
                raise UsageError("give GAME, --dir DIR and at least two entrants, --bot NAME=SPEC or --entrants FILE "
                                 "(or --resume DIR)")
            path = Path(given.directory)
            entrants = _entrants(given.entrants_path, given.bots, given.bot_options)
            config = _new_config(given.game, given, match, entrants, key_path)
        if config.sign_key is not None:
            signing.private_key(config.sign_key)  # can it be read? (kept for the workers, which sign)
        csv_path, remote = given.csv_path, match.remote
        config = attrs.evolve(config, hidden=referee_paths(
            [remote.tokens_path, remote.cert, remote.key_path, given.entrants_path,
             *(str(p) for p in (csv_path, csv_path and pairs_path(csv_path)) if p and Path(p).exists())]))
        guard = resolve(config.sandbox_policy())
        announce_sandbox(config.sandbox_policy(), guard)
        ship_dirs, cluster_batch = given.ship_dirs, given.cluster_batch
        cluster = ClusterSpec.parse(given.cluster_at) if given.cluster_at is not None else None
        if cluster is None and (ship_dirs or cluster_batch is not None):
            raise UsageError(f"{'--ship' if ship_dirs else '--cluster-batch'} is for a cluster's workers: "
                             "give --cluster too")
        if cluster is not None and remote.listen is not None:
            raise UsageError("--listen with --cluster: remote bots connect to this machine, so their matches are "
                             "played here; run them without --cluster")
        if cluster is not None and given.bot_stderr is not None:
            raise UsageError("--bot-stderr with --cluster: the bots run on the workers, where the files would stay; "
                             "a faulty bot's stderr tail is in its failure bundle")
        placed = [name for name, entry in config.entrant_settings.items() if "dir" in entry]
        if ship_dirs and placed:
            raise UsageError(f"--ship with an entrant that starts in a directory of this machine "
                             f"({display_name(placed[0])}, from its entrants file): a shipped bot starts where the "
                             "workers unpack it; give the shipped entrants with --bot NAME=SPEC")
        shipments = [Shipment.pack(Path(d)) for d in ship_dirs]
        watch = None
        if given.sprt_text is not None:
            watch = SprtWatch(parse_sprt(given.sprt_text), config.names, config.schedule(),
                              registry.get(config.game).lower_is_better)
        if len({s.name for s in shipments}) != len(shipments):
            raise UsageError("--ship: two directories with the same name would land in the same place")
        return cls(given=given, match=match, path=path, config=config, guard=guard, cluster=cluster,
                   shipments=shipments, watch=watch)


def pairs_path(csv_path: str) -> Path:
    """Where ``--csv PATH`` writes the paired results: beside the table, ``NAME.pairs.csv``
    (a file of their own, so that scripts reading the table's rows by position are unchanged)."""
    path = Path(csv_path)
    return path.with_name(f"{path.stem}.pairs{path.suffix or '.csv'}")


def _entrants(path: str | None, bots: tuple[str, ...], bot_options: tuple[str, ...]) -> list[Entrant]:
    """The entrants of the entrants file (if any) and of ``--bot``, which replaces the file's
    entrant of the same name, with the ``--bot-option`` values over the file's; all checked
    before anything starts."""
    from ..tournament import entrants as entrants_file

    given = []
    for item in bots:
        name, sep, spec = item.partition("=")
        if not sep or not name.strip() or not spec.strip():
            raise UsageError(f"--bot {item!r} must be written NAME=SPEC")
        given.append((name.strip(), spec.strip()))
    from_file = entrants_file.load(Path(path)) if path is not None else []
    names = list(dict.fromkeys([e.name for e in from_file] + [name for name, _ in given]))
    chosen = [option_assignment(item, "--bot-option", names, "name") for item in bot_options]
    return entrants_file.merge(from_file, given, chosen)


def _new_config(game: str, given: TournamentOptions, match: MatchOptions, entrants: list[Entrant],
                sign_key: str | None) -> Config:
    """A new tournament's configuration, every entrant's seat spec checked (an unknown player or
    a missing program is refused now, not mid-run)."""
    from ..seating import make_seat
    from ..tournament.config import Config

    if len(entrants) < 2:
        raise UsageError("a tournament needs at least two --bot entrants (or an --entrants FILE that adds them)")
    names = [e.name for e in entrants]
    gauntlet = given.gauntlet
    if gauntlet is not None and gauntlet not in names:
        raise UsageError(f"--gauntlet {display_name(gauntlet)}: not an entrant (the entrants are "
                         f"{', '.join(display_name(n) for n in names)})")
    seed = new_seed() if given.seed is None else given.seed
    game_options = parse_assignments(match.options)
    setup = registry.resolve(game, match.variant, game_options, given.players, seed)
    setup.new_match()  # checks the options that depend on the player count
    warn_options(setup)
    for i, entrant in enumerate(entrants):
        if not entrant.spec.startswith("remote:"):
            make_seat(entrant.spec, i, seed, launch=entrant.launch)
    return Config(
        game=setup.spec.name, variant=setup.variant.name, options=dict(game_options), players=setup.num_players,
        entrants=tuple((e.name, e.spec) for e in entrants), deal_sets=given.deal_sets, seed=seed,
        duplicate=given.duplicate, permutations=given.permutations,
        keep_alive=not given.restart_bots,
        settings=match.settings(),
        limits=match.limits(),
        sandbox=match.sandbox_policy(),
        sign_key=sign_key,
        gauntlet=gauntlet,
        entrant_settings={e.name: e.settings_json() for e in entrants if e.settings_json()},
    )
