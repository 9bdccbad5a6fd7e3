#!/usr/bin/env python3
"""How much better one player scores than another, on duplicate deals.

Usage: python3 benchmarks/strength.py [--player SPEC] [--field SPEC] [--deals N] [--jobs J]
                                      [--only GAME:PLAYERS,...] [--out FILE.jsonl [--summary]]
                                      [--compare SPEC] [-o NAME=VALUE ...]

For every game and player count (or those ``--only`` names), each of N deals is played once
with the field in every seat (the baseline) and once more for every seat with the player in
that seat and the field in the others, so the player meets every deal from every seat, as a
duplicate tournament rotates them. The figure is the player's points in the deal minus the
field's points in the same seat on the same deal (sign flipped in the penalty games, so more
is better), averaged over the seats of a deal and then over the deals, with a 95% confidence
interval from the spread of the per-deal differences (the deals are independent; the seats
of one deal are not). Each deal is a one-deal match, so every deal starts from the same
totals and dealer.

Also printed: the player's time per decision (its mean, 95th and 99th percentiles, maximum and
how many decisions were timed, in processor time, which other work on the machine does not
inflate, over the deals that
recorded it; by the clock when none did) and how often its search could not fit its view (must be 0).

The player and the field are built-in players (``ismcts:cpu=100``) or a bot program's command
line: an outside program to judge against (``benchmarks/judges/``), whose faults are counted as
failures. The player may also be ``oracle:ismcts:...``, the search told every hand (a bound,
not a player: :data:`ORACLE`). ``-o`` sets game options for every match (Peppa's
international Hearts, for one).

With ``--compare SPEC``, a second line per row gives the player's figure minus that of SPEC
(kept in the same ``--out`` file, or in ``--compare-from FILE``, against the same field), deal
by deal: whether one version of a player beats another is better told on the same deals than
from two separate intervals. A player measured before a change of behaviour keeps its rows in
the file of that time, under the same spec, and ``--compare-from`` pairs the two.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.referee import Settings, play_match
from cardcli.seating import builtin, make_seat
from cardcli.seats.base import Request, Seat
from cardcli.cards import Card
from cardcli.players.search.player import IsmctsPlayer, Settings as SearchSettings
from cardcli.players.search.trick_view import TrickView
from cardcli.seats.builtin import InProcessSeat, PlayerSeat, builtin_name

CONFIGS = [(spec.name, n) for spec in registry.GAMES.values() for n in spec.player_counts]
MOVE_TIME = 10.0
"""Seconds a bot program has for a move (``--move-time``, set in every worker process): a
judge such as ``benchmarks/judges/xinxin`` thinks for seconds at times, and a timeout would
put a random player in its seat."""


def _set_move_time(seconds: float) -> None:
    global MOVE_TIME
    MOVE_TIME = seconds


class Timed(InProcessSeat):
    """A built-in seat whose every decision is timed (only decisions with a choice)."""

    def __init__(self, inner: InProcessSeat):
        super().__init__(inner.label, self._choose)
        self.inner = inner
        self.times: list[float] = []
        self.cpu: list[float] = []

    def notify(self, lines: Sequence[str]) -> None:
        self.inner.notify(lines)

    def _choose(self, request: Request) -> str:
        start, cpu = time.perf_counter(), time.process_time()
        self.inner.ask(request)
        answer = self.inner.poll()
        if len(request.moves) > 1:
            self.times.append(time.perf_counter() - start)
            self.cpu.append(time.process_time() - cpu)
        assert answer is not None and answer.move is not None
        return answer.move


ORACLE = "oracle:"
"""``oracle:ismcts:...``: the search player told every hand of the deal, so that the only
world it draws is the true one. A player that cheats, for benchmarks only: how far it scores
above the honest search is the room a better search of the hidden cards could still win.
Games without a pass only (Il Pigugnìn, Pepper): after Peppa's pass the dealt hands are no
longer the hands held, and every world would fail its replay (counted as failures)."""


class Oracle(IsmctsPlayer):
    """:data:`ORACLE`: at each decision the other seats' unseen cards are placed where they
    truly are, as the seat view places a card a rule revealed."""

    def __init__(self, settings: SearchSettings, dealt: Sequence[Sequence[str]]) -> None:
        super().__init__(settings)
        self.dealt = [{Card.parse(c) for c in hand} for hand in dealt]

    def choose(self, request: Request) -> str:
        view = self.view
        if isinstance(view, TrickView):
            for s in range(view.n):
                if s != view.seat:
                    view.known[s] = self.dealt[s] - set(view.played[s])
        return super().choose(request)


def _seat(spec: str, index: int, seed: int, dealt: Sequence[Sequence[str]] = ()) -> Seat:
    """A built-in player, timed; or a bot program (an outside player to judge against, such
    as ``benchmarks/judges/``), whose time is its own and not measured here."""
    if spec.startswith(ORACLE):
        search = spec[len(ORACLE):]
        if builtin_name(search) != "ismcts" or not dealt:
            raise SystemExit(f"{spec}: an oracle is a search player (oracle:ismcts:...) told the deal")
        return Timed(PlayerSeat(f"s{index}", Oracle(SearchSettings.parse(search.partition(":")[2]), dealt)))
    if builtin_name(spec) is not None:
        return Timed(builtin(spec, f"s{index}", f"{seed}/{index}"))
    return make_seat(spec, index, seed)


def _points(game: str, players: int, seed: int, specs: Sequence[str], options: dict[str, str],
            dealt: Sequence[Sequence[str]] = ()) -> tuple[list[int], list[tuple[list[float], list[float]]], int,
                                                          list[list[str]]]:
    """Each seat's points in a one-deal match (more is better), each built-in seat's decision
    times, how often something went wrong (a searching seat that failed to fit its view, or a
    fault: a bot program that crashed, timed out or answered what was not offered), and the
    hands dealt (what an oracle is told, ``dealt``)."""
    setup = registry.resolve(game, None, options, players, seed)
    seats = [_seat(spec, i, seed, dealt) for i, spec in enumerate(specs)]
    result = play_match(setup, seats, Settings(max_deals=1, move_time=MOVE_TIME))
    deal = result.record["deals"][-1]
    sign = -1 if setup.spec.lower_is_better else 1
    timed = [s if isinstance(s, Timed) else None for s in seats]
    failures = sum(getattr(getattr(s.inner, "player", None), "failures", 0) for s in timed if s is not None)
    failures += len(result.record["faults"])
    return ([sign * p for p in deal["points"]], [(s.times, s.cpu) if s is not None else ([], []) for s in timed],
            failures, deal["hands"])


def one_deal(job: tuple[str, int, int, str, str, tuple[tuple[str, str], ...]]) -> dict[str, object]:
    """One deal played from every seat: the row ``--out`` keeps. ``diff`` is the mean over
    the seats of the player's points minus the field's in that seat; ``player`` and ``field``
    are the mean points of each; ``ms`` and ``cpu_ms`` the player's decision times, by the
    clock and in processor time (which another load on the machine does not inflate)."""
    game, players, seed, player, field, option_pairs = job
    options = dict(option_pairs)
    base, _, _, dealt = _points(game, players, seed, [field] * players, options)
    diffs, mine, times, cpu, failures = [], [], [], [], 0
    for seat in range(players):
        specs = [field] * players
        specs[seat] = player
        points, seat_times, failed, _ = _points(game, players, seed, specs, options, dealt)
        diffs.append(points[seat] - base[seat])
        mine.append(points[seat])
        failures += failed
        times += seat_times[seat][0]
        cpu += seat_times[seat][1]
    return {
        "game": game, "players": players, "seed": seed, "player_spec": player, "field_spec": field,
        **({"options": options} if options else {}),
        "diff": statistics.mean(diffs), "player": statistics.mean(mine), "field": statistics.mean(base),
        "ms": [round(1000 * t, 1) for t in times], "cpu_ms": [round(1000 * t, 1) for t in cpu],
        "failures": failures,
    }


def _key(row: dict[str, object]) -> tuple[object, ...]:
    options = row.get("options") or {}
    return (row["game"], row["players"], row["seed"], row["player_spec"], row["field_spec"],
            tuple(sorted(options.items())))  # type: ignore[attr-defined]


def _load(path: Path | None) -> dict[tuple[object, ...], dict[str, object]]:
    if path is None or not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {_key(row): row for row in rows}


def _summary(game: str, players: int, rows: list[dict[str, object]], seconds: float) -> str:
    diffs = [float(r["diff"]) for r in rows]  # type: ignore[arg-type]
    mean, half = _interval(diffs)
    timed = [r for r in rows if "cpu_ms" in r]
    clock = "cpu_ms" if timed else "ms"
    times = sorted(t for r in timed or rows for t in r[clock])  # type: ignore[attr-defined]
    ms = statistics.mean(times) if times else 0.0
    p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
    p99 = times[int(0.99 * (len(times) - 1))] if times else 0.0
    return (f"{game:9} {players:>5} {len(diffs):>6} {mean:>+7.2f} [{mean - half:>+7.2f}, {mean + half:>+7.2f}] "
            f"{statistics.mean(float(r['player']) for r in rows):>7.2f} "  # type: ignore[arg-type]
            f"{statistics.mean(float(r['field']) for r in rows):>7.2f} "  # type: ignore[arg-type]
            f"{ms:>7.1f} {p95:>7.1f} {p99:>7.1f} {max(times, default=0.0):>7.1f} {len(times):>6} "
            f"{sum(int(r['failures']) for r in rows):>5} {seconds:>6.0f}")  # type: ignore[call-overload]


def _interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval."""
    mean = statistics.mean(values)
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf


def _compared(rows: list[dict[str, object]], other: list[dict[str, object]], spec: str) -> str:
    """The player's figure minus ``spec``'s against the same field, deal by deal over the
    deals both played: a paired comparison, far tighter than the two intervals side by side,
    as a deal's luck weighs on both alike."""
    theirs = {r["seed"]: float(r["diff"]) for r in other}  # type: ignore[arg-type]
    paired = [float(r["diff"]) - theirs[r["seed"]] for r in rows if r["seed"] in theirs]  # type: ignore[arg-type]
    if not paired:
        return f"{'':15} no deal played by both this player and {spec}"
    mean, half = _interval(paired)
    return f"{'':15} {len(paired):>6} {mean:>+7.2f} [{mean - half:>+7.2f}, {mean + half:>+7.2f}]  minus {spec}, deal by deal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="ismcts")
    parser.add_argument("--field", default="heuristic")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="e.g. peppa:4,seep:2")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option for every match (as cardcli play -o); repeatable")
    parser.add_argument("--out", type=Path, help="keep every deal's result in this JSON-lines file; "
                        "deals already in it are not played again, so a long run can be stopped and resumed")
    parser.add_argument("--summary", action="store_true", help="only print the rows from --out's deals")
    parser.add_argument("--compare", metavar="SPEC", help="also print the player's figure minus that of SPEC "
                        "against the same field, deal by deal, over the deals of --out both played")
    parser.add_argument("--compare-from", type=Path, metavar="FILE", help="take --compare's deals from this "
                        "JSON-lines file rather than from --out: a player measured before a change, in the file "
                        "of that time")
    parser.add_argument("--move-time", type=float, default=MOVE_TIME,
                        help="seconds a bot program has for each move (the referee's default: 10)")
    args = parser.parse_args()
    configs = [(g, int(n)) for g, n in (c.split(":") for c in args.only.split(",") if c)] or CONFIGS
    options = tuple(sorted(tuple(o.split("=", 1)) for o in args.option))  # type: ignore[misc]
    done = _load(args.out)
    print(f"player {args.player} against field {args.field}, {args.deals} duplicate deals per row")
    print(f"{'game':9} {'seats':>5} {'deals':>6} {'diff':>7} {'95% CI':>17} {'player':>7} {'field':>7} "
          f"{'ms/dec':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} {'decs':>6} {'fails':>5} {'s':>6}")
    with multiprocessing.Pool(args.jobs, initializer=_set_move_time, initargs=(args.move_time,)) as pool:
        for game, players in configs:
            start = time.perf_counter()
            jobs = [(game, players, args.first_seed + k, args.player, args.field, options) for k in range(args.deals)]
            todo = [] if args.summary else [job for job in jobs if job not in done]
            for row in pool.imap_unordered(one_deal, todo, chunksize=1):
                done[_key(row)] = row
                if args.out is not None:
                    with args.out.open("a") as out:
                        out.write(json.dumps(row) + "\n")
            rows = [done[job] for job in jobs if job in done]
            if rows:
                print(_summary(game, players, rows, time.perf_counter() - start), flush=True)
                if args.compare:
                    pool_of = _load(args.compare_from) if args.compare_from is not None else done
                    other = [r for key, r in pool_of.items() if key[:2] == (game, players)
                             and key[3:] == (args.compare, args.field, options)]
                    print(_compared(rows, other, args.compare), flush=True)


if __name__ == "__main__":
    main()
