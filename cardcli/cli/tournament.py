"""``cardcli tournament``: many matches between entrants, with duplicate deals and ratings."""

from __future__ import annotations

import csv
import signal
import sys
from pathlib import Path
from typing import Any

import attrs
import click

from ..errors import Interrupted, UsageError
from ..games import registry
from ..safe_text import display_name
from ..tournament import results as tables
from ..tournament import runner
from ..tournament import schedule
from ..tournament.config import Config
from ..tournament.bundles import FAULTS, bundle_count
from ..tournament.cluster import ClusterRun
from ..seats.policy import SandboxMode, SandboxPolicy
from ..seats.visibility import View, crossings
from ..seating import remote_names
from .common import OptionWarnings, describe_views, guarded_by, print_json, referee_paths, sandbox_views
from .options import (bot_stderr_option, game_options, json_option, limit_options, max_deals_option, on_fault_option,
                      players_option, remote_options, sandbox_options, seed_option, sign_key_option, time_options)
from .requests import TournamentRequest, pairs_path


@click.command("tournament")
@click.argument("game", required=False)
@click.option("--bot", "bots", multiple=True, metavar="NAME=SPEC",
              help="An entrant: a name and a seat spec (a built-in player or a bot's command line). Repeatable; "
                   "replaces the --entrants file's entrant of that name.")
@click.option("--entrants", "entrants_path", type=click.Path(dir_okay=False), default=None, metavar="FILE.toml",
              help="The entrants from a TOML file: per [[entrant]] its name, command, dir, env and options "
                   "(docs/tournaments.md); relative paths are the file's directory's.")
@click.option("--bot-option", "bot_options", multiple=True, metavar="NAME:OPTION=VALUE",
              help="Set a bot option of entrant NAME: sent as 'setoption OPTION VALUE' after its handshake when the "
                   "bot declares the option. Repeatable; replaces the --entrants file's value.")
@game_options
@players_option("Seats at the table (default: the game's usual count).")
@click.option("--deal-sets", type=click.IntRange(min=1), default=10, show_default=True,
              help="Number of deal sets; with --duplicate each is played once per rotation of the seats.")
@seed_option("Master seed of the schedule and deals.")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Replay every deal set with the seats rotated so each entrant plays each hand from each seat.")
@click.option("--permutations", is_flag=True, help="With --duplicate: every permutation of the seats, not only rotations.")
@click.option("--gauntlet", default=None, metavar="NAME",
              help="Entrant NAME plays every match; the other entrants share the other seats in turn.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, help="Matches at once (default: number of cores).")
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=None,
              help="The tournament directory: configuration and all records.")
@click.option("--resume", type=click.Path(file_okay=False, exists=True), default=None,
              help="Continue the tournament in this directory with exactly the matches not yet finished.")
@click.option("--restart-bots", is_flag=True, help="Start bots afresh for every match instead of keeping them alive.")
@time_options
@max_deals_option
@on_fault_option
@limit_options
@sandbox_options(SandboxMode.AUTO)
@remote_options
@sign_key_option("Sign every record with this private key (keys new PREFIX writes PREFIX.key); the path is "
                 "kept in the configuration so --resume signs on. Needs pip install 'cardcli[sign]'.")
@bot_stderr_option("Save each bot process's stderr (first 1 MiB) in DIR as ENTRANT.match-N.ID.stderr. "
                   "Whatever is given, a faulty bot's stderr tail is kept in its failure bundle.", metavar="DIR")
@click.option("--cluster", "cluster_at", default=None, metavar="ADDRESS",
              help="Play every match as a task on a Dask cluster: a scheduler's address (tcp://HOST:8786) or "
                   "local:N, N worker processes on this machine (docs/cluster.md; pip install 'cardcli[cluster]').")
@click.option("--ship", "ship_dirs", multiple=True, type=click.Path(exists=True, file_okay=False), metavar="DIR",
              help="With --cluster: send this bot directory to every worker (checked by content hash before the "
                   "first match); bots there start in the directory that holds it. Repeatable.")
@click.option("--sprt", "sprt_text", default=None, metavar="A,B,D0,D1[,ALPHA,BETA]",
              help="A sequential test: is entrant A better than B by at least D1 points a deal (H1) or by at most "
                   "D0 (H0)? Updated after each finished deal set; the tournament stops when it decides "
                   "(error rates ALPHA and BETA, 0.05 each by default).")
@click.option("--cluster-batch", type=click.IntRange(1, 64), default=None, metavar="N",
              help="With --cluster: matches per task (default: 1 for short schedules, up to 8 for long ones).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the table as CSV, and the paired results beside it (NAME.pairs.csv).")
@click.option("--standings-every", type=click.IntRange(min=1), default=None, metavar="N",
              help="Print the standings so far (the table's rows, as the final table ranks them) on stderr every N "
                   "finished matches.")
@json_option
def tournament(**options: Any) -> int:
    """Play a tournament of GAME between the entrants (--bot, --entrants) and print the table.

    Every finished match is appended (and fsynced) to DIR/records.jsonl; an interrupted
    tournament continues with --resume DIR and ends with the table an uninterrupted run gives.
    Ctrl-C exits 130 and SIGTERM 143, after ending every worker and bot; finished matches are kept.
    """
    signal.signal(signal.SIGTERM, _terminated)
    return _run(TournamentRequest.from_options(**options))


def _run(request: TournamentRequest) -> int:
    """Play a checked tournament (or what is left of it) and print its table; the exit status."""
    given, config, path, guard, watch = request.given, request.config, request.path, request.guard, request.watch
    jobs = given.jobs or runner.default_jobs()
    hub, context = request.match.remote.open(remote_names([spec for _, spec in config.entrants]), seats_at_once=jobs)
    cluster = request.cluster
    on_cluster = ClusterRun(cluster, request.shipments, given.cluster_batch) if cluster is not None else None
    try:
        views = _check_views(config, guard, path, given.bot_stderr) if cluster is None else {}
        if on_cluster is not None:
            on_cluster.open(lambda text: click.echo(f"cardcli: {text}", err=True))
        if given.resume is None:
            runner.create(path, config)
        _warn_unbalanced(config)
        show = _with_option_warnings(runner.progress_printer(sys.stderr, config.names))
        if given.standings_every is not None:
            show = _with_standings(show, path, config.names, given.standings_every)
        stderr_dir = Path(given.bot_stderr) if given.bot_stderr is not None else None
        if stderr_dir is not None:
            stderr_dir.mkdir(parents=True, exist_ok=True)
        runner.run(path, attrs.evolve(config, remote=context), jobs, show, stderr_dir,
                   hub.start if hub is not None else None, on_cluster, watch)
    finally:
        if on_cluster is not None:
            on_cluster.close()
        if hub is not None:
            hub.close()
    table = tables.tabulate(config.names, runner.records_in_order(path, runner.finished(path)))
    csv_path = given.csv_path
    if csv_path:
        with open(csv_path, "w", newline="") as f:
            csv.writer(f).writerows(tables.to_csv_rows(table))
        with open(pairs_path(csv_path), "w", newline="") as f:
            csv.writer(f).writerows(tables.pairs_csv_rows(table))
    if given.as_json:
        print_json({"game": config.game, "matches": table.matches, "ranked_by": list(tables.ORDER_KEYS),
                    "entrants": list(table.rows), "first_place": table.first_place(),
                    "against_paired": [list(pair) for pair in table.against_paired],
                    "crosstable": table.crosstable,
                    "pairs": [pair.to_json() for pair in table.pairs],
                    **({"sprt": watch.to_json()} if watch is not None else {}),
                    "lower_is_better": table.lower_is_better, "directory": str(path),
                    "sandbox": guarded_by(guard), "sees": {name: view.to_json() for name, view in views.items()},
                    "failure_bundles": bundle_count(path)})
    else:
        click.echo(tables.render(table, config.names))
        if watch is not None:
            click.echo(watch.describe())
        click.echo(f"sandbox: {guarded_by(guard)}")
        for line in describe_views(views):
            click.echo(line)
        bundles = bundle_count(path)
        if bundles:
            click.echo(f"faults: {bundles} failure bundle(s), the protocol and stderr of each faulty bot, in "
                       f"{path / FAULTS}")
    return 0


def _check_views(config: Config, guard: SandboxPolicy | None, directory: Path,
                 stderr: str | None) -> dict[str, View]:
    """What each entrant's sandboxed bot may see, checked before the tournament starts: a view
    the sandbox refuses, or one entrant that would see another's directory, is a one-line
    error. The tournament and stderr directories are made first (the referee makes them before
    any bot starts anyway), so that they are masked, not refused as missing; a refusal removes
    them again."""
    if guard is None:
        return {}
    folders = [directory] + ([Path(stderr)] if stderr is not None else [])
    made = [folder for folder in folders if not folder.exists()]
    for folder in made:
        folder.mkdir(parents=True)
    try:
        policy = attrs.evolve(guard, hidden=guard.hidden + referee_paths(map(str, folders)))
        entrants = [config.entrant(k) for k in range(len(config.entrants))]
        views = sandbox_views(policy, ((e.name, e.spec, e.launch) for e in entrants))
        crossings(views)
    except UsageError:
        for folder in reversed(made):
            folder.rmdir()
        raise
    return views


def _with_option_warnings(show: runner.Progress) -> runner.Progress:
    """The progress printer, also saying once per entrant and option that an option was not
    sent (the bot did not declare it), from the records as they come in."""
    warnings = OptionWarnings()

    def progress(done: int, total: int, head: dict[str, Any]) -> None:
        show(done, total, head)
        names = head["tournament"]["entrants"]
        warnings.check(head.get("undeclared", []), lambda seat: f"entrant {display_name(names[seat])}")

    return progress


def _with_standings(show: runner.Progress, directory: Path, names: list[str], every: int) -> runner.Progress:
    """The progress printer, also printing the standings on stderr after every ``every``-th
    finished match (counted over the whole tournament, a resumed run's earlier matches
    included), as cutechess's ``-ratinginterval`` does: the rows of the table made from the
    records finished so far, in schedule order, as the final table is made. Not after the
    last match: the final table follows on stdout."""
    tty = sys.stderr.isatty()

    def progress(done: int, total: int, head: dict[str, Any]) -> None:
        show(done, total, head)
        if done % every or done >= total:
            return
        table = tables.tabulate(names, runner.records_in_order(directory, runner.finished_read_only(directory)))
        # on a terminal the progress line has no line break yet; the next update starts a new one
        click.echo(("\n" if tty else "") + f"standings after {done} of {total} matches:\n"
                   + tables.render(table, names, brief=True) + "\n", err=True)

    return progress


NAMES_SHOWN = 6
"""Entrants named in the unbalanced-schedule warning for the fewest and for the most matches;
a larger field is summed up as "and N more", so the warning stays one line."""


def _warn_unbalanced(config: Config) -> None:
    """One line on stderr, before anything is played, when the schedule does not give every
    entrant the same number of matches: the fewest and the most, who plays them, and the
    numbers of deal sets that would be even (:func:`cardcli.tournament.schedule.balance` says
    why a schedule can be uneven). It is a warning, not an error: a short trial run is
    legitimate. Said once per run, by this process alone, so ``--resume`` repeats it once."""
    spec = registry.get(config.game)
    found = schedule.balance(len(config.entrants), config.players, spec.teams(config.players), config.deal_sets,
                             config.duplicate, config.permutations, config.gauntlet_index)
    if found.even:
        return
    # a gauntlet's own entrant plays every match: the warning is about the others
    names = [config.names[e] for e in found.compared]
    matches = tuple(found.matches[e] for e in found.compared)
    least, most = min(matches), max(matches)
    even = f"{found.fewer} or {found.more}" if found.fewer is not None else f"{found.more}"
    who = "the entrants" if config.gauntlet is None else f"the entrants other than {display_name(config.gauntlet)}"
    click.echo(f"cardcli: warning: unbalanced schedule: with {config.deal_sets} deal sets {who} play "
               f"{least} to {most} matches each ({_who(names, matches, least)}: {least}; "
               f"{_who(names, matches, most)}: {most}); --deal-sets {even} would give every "
               f"{'entrant' if config.gauntlet is None else 'other entrant'} the same number of matches", err=True)


def _who(names: list[str], matches: tuple[int, ...], count: int) -> str:
    """The entrants that play ``count`` matches, as shown (:func:`display_name`), at most
    :data:`NAMES_SHOWN` of them."""
    found = [display_name(name) for name, played in zip(names, matches) if played == count]
    more = f" and {len(found) - NAMES_SHOWN} more" if len(found) > NAMES_SHOWN else ""
    return ", ".join(found[:NAMES_SHOWN]) + more


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM stops a tournament as Ctrl-C does: the exception unwinds through the runner,
    which ends the workers and their bots, and the CLI prints one line and exits 143."""
    raise Interrupted("terminated", 143)
