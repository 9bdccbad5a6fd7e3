"""``cardcli arena``: a season-long competition over a database (``docs/arena.md``).

The commands are thin: each opens the arena's store (:mod:`cardcli.arena.store`) and calls
one thing. The arena's code (SQLAlchemy, Alembic, the ASGI stack) loads only when an arena
command runs, and a missing ``cardcli[arena]`` extra is one line that says what to install.
"""

from __future__ import annotations

import importlib.util
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import Interrupted, UsageError
from ..games import registry
from ..games.dealing import new_seed
from ..referee import Settings
from ..safe_text import display_name
from ..seats.limits import Limits
from ..seats.policy import SandboxMode
from .common import parse_assignments, print_json, sandbox_policy, warn_options
from .options import json_option, limit_options, max_deals_option, on_fault_option, sandbox_options, time_options

if TYPE_CHECKING:
    from ..arena.webproc import WebProcess
    from ..arena.service import Remote
    from ..arena.store import Store
    from ..tournament.cluster import ClusterRun

EXTRA = ("sqlalchemy", "alembic")


def _need_extra() -> None:
    missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(f"the arena needs {', '.join(missing)}: pip install 'cardcli[arena]'")


def _open(directory: str) -> Store:
    _need_extra()
    from ..arena import directory as arena_dir
    from ..arena.store import Store

    return Store.open(arena_dir.url_of(Path(directory)))


@click.group("arena")
def arena() -> None:
    """A season-long competition: entrants join and update their bots while a ladder plays
    them continuously in duplicate units, every record kept in a database (SQLite in DIR by
    default, or PostgreSQL), with standings that say how sure they are."""


@arena.command("init")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--game", required=True, help="The game of the season (see `cardcli games`).")
@click.option("--variant", default=None, help="Rule variant (see `cardcli games`).")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE", help="Set a game option; repeatable.")
@click.option("--players", type=int, default=None, help="The seats at every table (default: the game's usual count).")
@click.option("--db", "url", default=None, metavar="URL",
              help="The database: default SQLite in DIR/arena.db; postgresql://USER@HOST/DB for larger seasons and "
                   "several serve processes.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="The season's master seed: every unit's deals follow from it and the unit's number.")
@click.option("--keep-info", is_flag=True, help="Keep the bots' info lines in each record (for their authors).")
@time_options
@max_deals_option
@on_fault_option
@limit_options
@sandbox_options(SandboxMode.AUTO)
def init(directory: str, game: str, variant: str | None, options: tuple[str, ...], players: int | None,
         url: str | None, seed: int | None, keep_info: bool, **match: Any) -> None:
    """Make a new arena in DIRECTORY: its configuration and its database."""
    _need_extra()
    from ..arena import directory as arena_dir
    from ..arena.config import ArenaConfig
    from ..arena.store import Store, display_url

    path = Path(directory)
    seed = new_seed() if seed is None else seed
    game_options = parse_assignments(options)
    setup = registry.resolve(game, variant, game_options, players, seed)
    setup.new_match()  # checks the options that depend on the player count
    warn_options(setup)
    settings = Settings(match["move_time"], match["startup_time"], match["quit_grace"], match["on_fault"], keep_info,
                        match["max_deals"], match["time_bank"])
    limits = Limits(match["bot_memory"], match["bot_cpu"], match["bot_files"], match["bot_procs"])
    policy = sandbox_policy(match["sandbox_mode"], match["bot_network"], match["sandbox_binds"], (),
                            match["bot_disk"])
    config = ArenaConfig(setup.spec.name, setup.variant.name, dict(game_options), setup.num_players, seed,
                         settings, limits, policy)
    url = url or arena_dir.default_url(path)
    if (path / arena_dir.POINTER).exists():
        raise UsageError(f"{directory} holds an arena already")
    path.mkdir(parents=True, exist_ok=True)
    Store.create(url, config).close()
    arena_dir.write(path, url)
    click.echo(f"arena {directory}: {setup.spec.name} ({setup.variant.name}), {setup.num_players} players, "
               f"seed {seed}, database {display_url(url)}")


@arena.command("upgrade")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
def upgrade(directory: str) -> None:
    """Bring the arena's database to this cardcli's schema (back it up first)."""
    _need_extra()
    from ..arena import directory as arena_dir
    from ..arena.store import Store

    before, after = Store.upgrade(arena_dir.url_of(Path(directory)))
    click.echo(f"schema {before or 'none'} -> {after}" if before != after else f"schema {after}: nothing to do")


@arena.group("entrant")
def entrant() -> None:
    """Add, list, disable and enable the arena's entrants, and give them new tokens."""


@entrant.command("add")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("name")
@click.option("--remote", is_flag=True, help="A bot that connects with `cardcli connect`: prints NAME TOKEN.")
@click.option("--command", "spec", default=None, metavar="SPEC",
              help="A program or built-in player the arena runs: any seat spec (heuristic, ismcts, a command line).")
@click.option("--option", "bot_options", multiple=True, metavar="OPT=VALUE",
              help="A protocol option set for the bot at every match; repeatable.")
def entrant_add(directory: str, name: str, remote: bool, spec: str | None, bot_options: tuple[str, ...]) -> None:
    """Add the entrant NAME: --remote (a token is printed, once, as NAME TOKEN) or --command SPEC."""
    from ..remote.tokens import check_name

    if remote == (spec is not None):
        raise UsageError("give --remote or --command SPEC (one of them)")
    check_name(name)
    store = _open(directory)
    options = parse_assignments(bot_options)
    from ..arena import secrets
    from ..arena.store import EntrantKind

    if remote:
        token, digest = secrets.new_pair()
        store.add_entrant(name, EntrantKind.REMOTE, f"remote:{name}", options, digest)
        click.echo(f"{name} {token}")
        return
    assert spec is not None
    from ..seating import make_seat

    make_seat(spec, 0, 0)  # an unknown player or a missing program is refused now, not mid-season
    store.add_entrant(name, EntrantKind.PROGRAM, spec, options)
    click.echo(f"{name}: {spec}")


@entrant.command("update")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("name")
@click.option("--command", "spec", required=True, metavar="SPEC", help="The program or built-in player that replaces it.")
def entrant_update(directory: str, name: str, spec: str) -> None:
    """Replace the program of the entrant NAME: from its next match it is a new version, rated
    afresh (its earlier versions keep their games)."""
    from ..seating import make_seat

    store = _open(directory)
    make_seat(spec, 0, 0)
    generation = store.replace_program(name, spec)
    click.echo(f"{name}: {spec} (program {generation + 1})")


@entrant.command("list")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@json_option
def entrant_list(directory: str, as_json: bool) -> None:
    """List the entrants: kind, state and what runs them (never a token)."""
    rows = _open(directory).entrants()
    if as_json:
        print_json([{"name": r.name, "kind": r.kind, "spec": r.spec, "options": r.options, "enabled": r.enabled,
                     "disabled_reason": r.disabled_reason} for r in rows])
        return
    for r in rows:
        state = "enabled" if r.enabled else f"disabled ({display_name(r.disabled_reason or 'by the organiser')})"
        click.echo(f"{display_name(r.name)}  {r.kind}  {state}  {display_name(r.spec)}")


@entrant.command("disable")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("name")
@click.option("--reason", default="by the organiser", help="Shown to the entrant and in the standings.")
def entrant_disable(directory: str, name: str, reason: str) -> None:
    """Stop scheduling NAME (its games are kept)."""
    _open(directory).set_enabled(name, False, reason)
    click.echo(f"{name}: disabled")


@entrant.command("enable")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("name")
def entrant_enable(directory: str, name: str) -> None:
    """Schedule NAME again."""
    _open(directory).set_enabled(name, True)
    click.echo(f"{name}: enabled")


@entrant.command("token")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("name")
def entrant_token(directory: str, name: str) -> None:
    """A new token for the entrant NAME, printed as NAME TOKEN; the old one stops working at once.

    It opens the author's view of the web pages (/author: faults, failure bundles, protocol
    lines, think time) for any entrant; a remote entrant's bot also connects with it."""
    from ..arena import secrets

    store = _open(directory)
    token, digest = secrets.new_pair()
    store.set_token_hash(name, digest)
    click.echo(f"{name} {token}")


@arena.command("serve")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Matches played at once, in worker processes.")
@click.option("--stop-after", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop once this server has stored N matches (default: run until stopped).")
@click.option("--lease", type=click.FloatRange(min=1.0), default=60.0, show_default=True, metavar="SECONDS",
              help="A unit claimed by a server that has not renewed its claim for this long is another's to play.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print each match as it is stored.")
@click.option("--cluster", "cluster_at", default=None, metavar="ADDRESS",
              help="Play the matches as tasks on a Dask cluster (tcp://HOST:8786, or local:N) instead of -j workers; "
                   "pip install 'cardcli[cluster]'.")
@click.option("--listen", metavar="[HOST:]PORT", default=None,
              help="Accept remote entrants (cardcli connect) on this address; a bare PORT listens on 127.0.0.1 only.")
@click.option("--cert", type=click.Path(dir_okay=False, exists=True), default=None, metavar="PEM",
              help="Serve wss:// (TLS) with this certificate chain; needs --key.")
@click.option("--key", "key_path", type=click.Path(dir_okay=False, exists=True), default=None, metavar="PEM",
              help="The private key of --cert.")
@click.option("--connections", type=click.IntRange(min=1, max=64), default=4, show_default=True, metavar="N",
              help="Connections each remote entrant may hold: the matches it plays at once (its relay's "
                   "--concurrency).")
@click.option("--connect-time", type=click.FloatRange(min=0.1), default=60.0, show_default=True, metavar="SECONDS",
              help="How long a match waits for a remote entrant's bot to take its seat.")
@click.option("--web", metavar="[HOST:]PORT", default=None,
              help="Serve the web pages (the standings as they change, entrants, matches in the replay viewer, live "
                   "games at /live) and the read-only HTTP API (JSON; its description at /openapi.json) on this "
                   "address; a bare PORT listens on 127.0.0.1 only.")
@click.option("--live-delay", type=click.FloatRange(min=0), default=0.0, show_default=True, metavar="SECONDS",
              help="With --web: hold back everything the live games' spectators see (/live) by this long, on top of "
                   "what the server hides anyway (a seat's cards until its deal is over, and a duplicate deal until "
                   "every rotation of its unit has played it).")
def serve(directory: str, jobs: int, stop_after: int | None, lease: float, quiet: bool, cluster_at: str | None,
          listen: str | None, cert: str | None, key_path: str | None, connections: int, connect_time: float,
          web: str | None, live_delay: float) -> None:
    """Play the ladder until stopped (Ctrl-C or SIGTERM: the matches under way end, the units
    not finished are given back). SIGKILL loses at most the matches under way, which are
    played again at the next start."""
    from ..arena.service import Policy, Service
    from ..arena.workers import Workers

    if (cert is None) != (key_path is None):
        raise UsageError("--cert and --key go together")
    if cluster_at is not None and listen is not None:
        raise UsageError("--cluster plays matches on other machines, which cannot reach this server's remote "
                         "entrants: serve them with -j instead")
    store = _open(directory)
    executor: Workers | ClusterRun
    if cluster_at is not None:
        from ..tournament.cluster import ClusterRun, ClusterSpec

        executor = ClusterRun(ClusterSpec.parse(cluster_at))
        executor.open(lambda text: click.echo(f"arena: {text}", err=True))
        jobs = executor.threads
    else:
        executor = Workers(jobs)
        executor.start()  # before any thread of this process: see cardcli.arena.workers
    remote = _listen(store, listen, cert, key_path, connections, connect_time) if listen is not None else None
    site = _serve_web(directory, web, remote, live_delay) if web is not None else None
    service = Service(store, executor, Policy(lease=lease), jobs=jobs, remote=remote,
                      report=None if quiet else (lambda text: click.echo(text)), hidden=_own_paths(directory),
                      live=site)
    signal.signal(signal.SIGTERM, _terminated)
    click.echo(f"arena {directory}: serving ({jobs} job{'s' if jobs > 1 else ''}); Ctrl-C stops", err=True)
    stopped = True
    try:
        service.run(until=(lambda: service.stored >= stop_after) if stop_after is not None else None)
        stopped = False
    except KeyboardInterrupt:
        raise Interrupted("interrupted", 130) from None
    finally:
        if isinstance(executor, Workers):
            executor.close(store.config.settings.quit_grace, now=stopped)
        else:
            executor.close()
        if remote is not None:
            remote.listener.close()
        if site is not None:
            site.stop()
        store.close()


def _serve_web(directory: str, web: str, remote: Remote | None, live_delay: float) -> WebProcess:
    """The web pages, the HTTP API and the live games (``/live``), served by a process of
    their own (:mod:`cardcli.arena.webproc`: spectators never slow the matches); the pages
    show whether each remote entrant's bot is connected to ``remote``'s listener."""
    from ..arena import directory as arena_dir
    from ..arena.pages import listener_presence
    from ..arena.webproc import WebProcess
    from ..remote.hub import Address

    address = Address.parse(web, "--web")
    listener = remote.listener if remote is not None else None
    site = WebProcess(arena_dir.url_of(Path(directory)), address.host, address.port, live_delay,
                      listener_presence(listener) if listener is not None else None,
                      (lambda: list(listener.tokens)) if listener is not None else None)
    port = site.start()
    host = f"[{address.host}]" if ":" in address.host else address.host
    click.echo(f"arena: the pages on http://{host}:{port}/ and the API at /api/standings", err=True)
    return site


def _own_paths(directory: str) -> tuple[str, ...]:
    from ..arena import directory as arena_dir

    return arena_dir.own_paths(Path(directory), arena_dir.url_of(Path(directory)))


def _listen(store: Store, listen: str, cert: str | None, key_path: str | None, connections: int,
            connect_time: float) -> Remote:
    """The listener for remote entrants, serving: it checks tokens against the stored hashes
    and admits the enabled remote entrants (the service keeps that list current)."""
    from ..arena import secrets
    from ..arena.service import Remote
    from ..arena.store import EntrantKind
    from ..remote.hub import Address, Listener, Tls
    from ..remote.seat import RemoteContext

    remote_names = [row.name for row in store.entrants() if row.kind == EntrantKind.REMOTE]
    tls = Tls(cert, key_path) if cert is not None and key_path is not None else None
    # room for the entrants added later in the season: the caps on connections are set here
    room = dict.fromkeys(remote_names or ["-"], connections)
    listener = Listener(Address.parse(listen), {}, room, tls, verify=secrets.matches)
    listener.bind()
    remote = Remote(listener, RemoteContext(listener.link_path, connect_time), connections)
    remote.admit(store.entrants(), store.token_hashes())
    listener.start()
    click.echo(f"arena: listening on {listener.url} for remote entrants", err=True)
    return remote


@arena.command("finals")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.option("--top", type=click.IntRange(min=2), required=True, metavar="K",
              help="The finalists: the K enabled entrants the ladder ranks highest, each in its current version.")
@click.option("--deal-sets", type=click.IntRange(min=1), required=True, metavar="N",
              help="Deal sets of the duplicate round robin (each played in every rotation).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="The finals' seed: the same seed and finalists play the same deals in the same seats.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Matches played at once, in worker processes.")
@click.option("--listen", metavar="[HOST:]PORT", default=None, help="Accept remote finalists on this address.")
@click.option("--connect-time", type=click.FloatRange(min=0.1), default=60.0, show_default=True, metavar="SECONDS",
              help="How long a match waits for a remote finalist's bot to take its seat.")
@json_option
def finals(directory: str, top: int, deal_sets: int, seed: int | None, jobs: int, listen: str | None,
           connect_time: float, as_json: bool) -> None:
    """Freeze the top K versions and play them a duplicate round robin; print the final
    standings (written to DIR/finals-N.json too), with the groups not separated."""
    import json

    from ..arena import finals as season_finals
    from ..arena.workers import Workers

    store = _open(directory)
    seed = new_seed() if seed is None else seed
    made = season_finals.prepare(store, top, deal_sets, seed)
    click.echo(f"{made.kind}: seed {seed}, {deal_sets} deal sets, finalists "
               f"{', '.join(f'{display_name(e)} {display_name(v)}' for e, v in made.finalists)}", err=True)
    workers = Workers(jobs)
    workers.start()
    remote = _listen(store, listen, None, None, jobs, connect_time) if listen is not None else None
    signal.signal(signal.SIGTERM, _terminated)
    try:
        table = season_finals.play(store, made, workers, jobs, remote=remote, hidden=_own_paths(directory))
    except KeyboardInterrupt:
        raise Interrupted("interrupted", 130) from None
    finally:
        workers.close(store.config.settings.quit_grace)
        if remote is not None:
            remote.listener.close()
    out = Path(directory) / f"{made.kind.replace('/', '-')}.json"
    out.write_text(json.dumps(table, indent=2) + "\n")
    if as_json:
        print_json(table)
    else:
        _print_table(table)
    store.close()


@arena.command("standings")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@json_option
@click.option("--recompute", is_flag=True, help="Fold every rated record now instead of reading the latest table.")
def standings(directory: str, as_json: bool, recompute: bool) -> None:
    """The standings: rank, entrant and version, rating with its interval, the groups the
    paired results do not separate, matches, faults and state."""
    from ..arena.table import standings as fold

    store = _open(directory)
    table = fold(store) if recompute or store.standings() is None else store.standings()
    assert table is not None
    if as_json:
        print_json(table)
        return
    _print_table(table)


def _print_table(table: dict[str, Any]) -> None:
    """A standings table as text: each row with its rating interval, and where the paired
    results do not separate it from its neighbours."""
    click.echo(f"{table['matches']} {'' if 'finals' in table else 'rated '}matches; {table['order']}")
    for row in table["rows"]:
        tied = row["next"] is not None and not row["next"]["separated"]
        state = "" if row["enabled"] else f"  disabled: {display_name(row['disabled_reason'] or '')}"
        faults = sum(row["faults"].values())
        click.echo(f"{row['rank']:>3}{'=' if _tied_above(table['rows'], row) else ' '} "
                   f"{display_name(row['entrant'])} {display_name(row['version'])}  "
                   f"rating {row['rating']:.1f} ± {row['rating_ci']:.1f}  {row['matches']} matches, "
                   f"{faults} faults{state}{'  (not separated from the next)' if tied else ''}")


def _tied_above(rows: list[dict[str, Any]], row: dict[str, Any]) -> bool:
    """Whether the paired results do not separate ``row`` from the row above it."""
    at = rows.index(row)
    return at > 0 and rows[at - 1]["next"] is not None and not rows[at - 1]["next"]["separated"]


@arena.command("export")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("out", type=click.Path(dir_okay=False))
@click.option("--since", type=float, default=None, metavar="EPOCH",
              help="Only the matches finished at or after this time (seconds since the epoch).")
def export(directory: str, out: str, since: float | None) -> None:
    """Write every stored record to OUT (JSON lines that `cardcli verify` checks)."""
    store = _open(directory)
    count = 0
    target = sys.stdout if out == "-" else open(out, "w", encoding="utf-8")
    try:
        for _, line in store.records(since=since):
            target.write(line.rstrip("\n") + "\n")
            count += 1
    finally:
        if target is not sys.stdout:
            target.close()
    click.echo(f"{count} records written to {out}", err=True)


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM stops the server as Ctrl-C does."""
    raise Interrupted("terminated", 143)
