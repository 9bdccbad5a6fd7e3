#!/usr/bin/env python3
"""Random playouts through the rules engine alone: deals per second and microseconds per move.

Usage: python3 benchmarks/engine.py [--seconds S] [--against [REF] [--game G ...]] [--rounds N]

Each variant runs whole matches with uniformly random moves for about S seconds; then Peppa
and OpenSpiel's hearts (when open_spiel is installed) alternate for S seconds each, and
their ratio is printed.

With ``--against REF`` it measures one game's engine instead (Seep unless ``--game`` names
others, or ``--game all``), side by side with the engine of the git commit REF (by default
931c0af, the last commit before Seep's move generator was rewritten over bit masks): REF is
checked out in a temporary ``git worktree``, and two worker processes, one for this checkout
and one for REF, play seeded matches of every variant and player count
(the same seeds, from 0 on for the text moves and from 1,000,000 on for the integer actions,
each going on where it stopped in the round before), alternating
in short rounds. Each prints microseconds per move, and the ratio of the old figure to the
new. Run ``--against`` from a clean checkout of the commit to measure: the worker for it runs
its own files.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NamedTuple

ROOT = Path(__file__).resolve().parent.parent

ROUNDS = 5
"""The ratio to OpenSpiel alternates the two engines in short rounds: a shared machine's speed
drifts over a run, and measuring one engine after the other would put the drift in the
ratio."""

SEED_SPACING = 1_000_000
"""Where each way of playing starts its seeds: the text moves from 0, the integer actions from
here (an environment, in ``envs.py``, from twice this). Seep's engine remembers the texts of
the groups of cards it has met, so a way that replayed the matches another way had just played
in the same process would find that memo filled and measure faster than it is."""

MAX_DEALS = 500
"""The referee's default deal limit: random Pepper bidders would otherwise play for ever."""

BASELINE = "931c0af5f9fbaa7700885a0af100f504b40a342f"
"""The commit ``--against`` compares with by default: Seep's engine before its move generator
was rewritten (about 250-450 us a move in random playouts)."""


class Run(NamedTuple):
    """Playouts measured: how many deals and moves in how many seconds, and the seed to go on
    from (the next round plays new matches, not the same ones again)."""

    deals: int
    moves: int
    seconds: float
    next_seed: int


def playouts(game: str, variant: str, players: int, seconds: float, actions: bool = False, seed: int = 0) -> Run:
    """Whole matches with uniformly random moves for about ``seconds``, from ``seed`` on: through
    the text moves of the protocol (``decisions``/``apply``, with events), or with ``actions``
    through integer actions (``legal_actions``/``apply_action``, no events), the interface
    OpenSpiel's playouts use, for the games that offer it."""
    from cardcli.games import registry
    from cardcli.games.dealing import shuffled

    deals = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        setup = registry.resolve(game, variant, {}, players, seed)
        state = setup.new_match()
        rng = random.Random(seed)
        deck = setup.spec.deck()
        while not state.is_over():
            if state.needs_deal() and state.deal_number >= MAX_DEALS:
                state.adjudicate()
            elif state.needs_deal():
                state.deal(shuffled(seed, state.deal_number, deck))
                deals += 1
            elif actions:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            else:
                for decision in state.decisions():
                    state.apply(decision.seat, rng.choice(decision.moves))
                    moves += 1
        seed += 1
    return Run(deals, moves, time.perf_counter() - start, seed)


def playout(game: str, variant: str, players: int, seconds: float, actions: bool = False) -> tuple[int, int, float]:
    """:func:`playouts` from seed 0 (the actions from :data:`SEED_SPACING`): deals, moves and
    seconds."""
    run = playouts(game, variant, players, seconds, actions, SEED_SPACING if actions else 0)
    return run.deals, run.moves, run.seconds


def openspiel_hearts(seconds: float) -> tuple[int, int, float] | None:
    """OpenSpiel's hearts, random playouts through pyspiel, when open_spiel is installed
    (``pip install '.[bench]'``): the peer a researcher would use."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(0)
    deals = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        deals += 1
    return deals, moves, time.perf_counter() - start


def setup_class(game: str) -> type:
    """The match class of ``game``, to see which interfaces it offers."""
    from cardcli.games import registry

    return type(registry.resolve(game, None, {}, None, 0).new_match())


def every_game(seconds: float) -> None:
    """The table of every game, variant and player count, then Peppa against OpenSpiel."""
    from cardcli.games import registry

    print(f"{'game':<8} {'variant':<13} {'players':>7} {'deals/s':>9} {'us/move':>8}")
    for spec in registry.GAMES.values():
        for variant in spec.variants:
            for players in spec.player_counts:
                deals, moves, elapsed = playout(spec.name, variant.name, players, seconds)
                print(f"{spec.name:<8} {variant.name:<13} {players:>7} {deals / elapsed:>9.0f} "
                      f"{elapsed / moves * 1e6:>8.1f}")
                if hasattr(setup_class(spec.name), "apply_action"):
                    deals, moves, elapsed = playout(spec.name, variant.name, players, seconds, actions=True)
                    print(f"{spec.name:<8} {variant.name + ' (actions)':<13} {players:>7} "
                          f"{deals / elapsed:>9.0f} {elapsed / moves * 1e6:>8.1f}")
    peer = openspiel_hearts(seconds)
    if peer is None:
        print("OpenSpiel hearts: not installed (pip install '.[bench]') - no ratio")
        return
    deals, moves, elapsed = peer
    print(f"{'hearts':<8} {'openspiel':<13} {4:>7} {deals / elapsed:>9.0f} {elapsed / moves * 1e6:>8.1f}")
    print(f"Peppa against OpenSpiel hearts, interleaved in {ROUNDS} rounds of {seconds / ROUNDS:.1f} s each:")
    totals = {"text moves": [0, 0.0], "actions": [0, 0.0], "hearts": [0, 0.0]}
    for _ in range(ROUNDS):
        for how, run in (
            ("text moves", lambda: playout("peppa", "torino", 4, seconds / ROUNDS)),
            ("actions", lambda: playout("peppa", "torino", 4, seconds / ROUNDS, actions=True)),
            ("hearts", lambda: openspiel_hearts(seconds / ROUNDS)),
        ):
            got = run()
            assert got is not None
            totals[how][0] += got[0]
            totals[how][1] += got[2]
    hearts = totals["hearts"][0] / totals["hearts"][1]
    for how in ("text moves", "actions"):
        rate = totals[how][0] / totals[how][1]
        print(f"Peppa (torino, {how}) / OpenSpiel hearts, deals per second: {rate:.0f} / {hearts:.0f} = "
              f"{rate / hearts:.2f} (target: 2.00)")


# -- one game against an earlier commit -------------------------------------------------------------


def worker() -> None:
    """Serve playouts to :func:`against`, one per line read: ``game variant players seconds
    actions seed`` in, ``deals moves seconds next_seed`` out (``-`` when the engine has no
    integer actions). The engine is whichever ``cardcli`` the worker's ``PYTHONPATH`` gives."""
    import cardcli

    print(Path(cardcli.__file__).resolve().parent.parent, flush=True)
    for line in sys.stdin:
        game, variant, players, seconds, actions, seed = line.split()
        if actions == "1" and not hasattr(setup_class(game), "apply_action"):
            print("-", flush=True)
            continue
        run = playouts(game, variant, int(players), float(seconds), actions == "1", int(seed))
        print(run.deals, run.moves, run.seconds, run.next_seed, flush=True)


class Worker:
    """A worker process playing with the engines of one source tree."""

    def __init__(self, tree: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"], env=env, cwd=tree, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        found = Path(self.stdout.readline().strip())
        if found != tree.resolve():
            self.close()
            raise SystemExit(f"the worker for {tree} imported cardcli from {found}")
        self.seeds: dict[tuple[str, str, int, bool], int] = {}

    def run(self, game: str, variant: str, players: int, seconds: float, actions: bool) -> Run | None:
        """Playouts for about ``seconds``, going on from the seeds this worker played last
        time; None when its engine has no integer actions."""
        key = (game, variant, players, actions)
        seed = self.seeds.get(key, SEED_SPACING if actions else 0)
        self.stdin.write(f"{game} {variant} {players} {seconds} {int(actions)} {seed}\n")
        self.stdin.flush()
        answer = self.stdout.readline().split()
        if answer == ["-"]:
            return None
        deals, moves, elapsed, next_seed = answer
        self.seeds[key] = int(next_seed)
        return Run(int(deals), int(moves), float(elapsed), int(next_seed))

    def close(self) -> None:
        self.stdin.close()
        self.proc.wait(timeout=60)


@contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """A temporary checkout of ``ref``, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="cardcli-bench-"))
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), ref], check=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        folder.rmdir()


class Tally:
    """Moves and seconds summed over the rounds of one engine and one way in."""

    def __init__(self) -> None:
        self.moves = 0
        self.seconds = 0.0

    def add(self, run: Run | None) -> None:
        if run is not None:
            self.moves += run.moves
            self.seconds += run.seconds

    def per_move(self) -> float:
        return self.seconds / self.moves * 1e6 if self.moves else math.nan


def against(ref: str, games: list[str], seconds: float, rounds: int) -> None:
    """The engines of ``games`` in this checkout against those at ``ref``, every variant and
    player count, alternating the two in ``rounds`` short rounds of each way in."""
    sys.path.insert(0, str(ROOT))
    from cardcli.games import registry

    specs = list(registry.GAMES.values()) if games == ["all"] else [registry.get(name) for name in games]
    share = seconds / rounds
    with worktree(ref) as tree:
        old = Worker(tree)
        try:
            new = Worker(ROOT)
        except BaseException:
            old.close()
            raise
        try:
            print(f"This checkout against {ref[:12]}: {rounds} rounds of {share:.2f} s each, alternated")
            print(f"{'game':<8} {'variant':<13} {'players':>7} {'old us/move':>12} {'new us/move':>12} {'ratio':>6} "
                  f"{'old actions':>12} {'new actions':>12} {'ratio':>6}")
            ratios: list[float] = []
            action_ratios: list[float] = []
            for spec in specs:
                for variant in spec.variants:
                    for players in spec.player_counts:
                        tallies = {name: Tally() for name in ("old", "new", "old actions", "new actions")}
                        for _ in range(rounds):
                            for name, tally in tallies.items():
                                engine = old if name.startswith("old") else new
                                tally.add(engine.run(spec.name, variant.name, players, share, name.endswith("actions")))
                        before, after = tallies["old"].per_move(), tallies["new"].per_move()
                        old_quick, quick = tallies["old actions"].per_move(), tallies["new actions"].per_move()
                        ratios.append(before / after)
                        # Seep's old engine had no integer actions: its text moves are the baseline
                        quick_base = old_quick if math.isfinite(old_quick) else before
                        action_ratios.append(quick_base / quick)
                        print(f"{spec.name:<8} {variant.name:<13} {players:>7} {before:>12.1f} {after:>12.1f} "
                              f"{before / after:>6.2f} {old_quick:>12.1f} {quick:>12.1f} {quick_base / quick:>6.2f}")
            target = " (target: at least 5)" if ref == BASELINE else ""
            for how, found in (("the text moves", ratios), ("the integer actions", action_ratios)):
                found = [r for r in found if math.isfinite(r)]
                if found:
                    mean = math.exp(sum(map(math.log, found)) / len(found))
                    print(f"old / new through {how}: geometric mean {mean:.2f}, lowest {min(found):.2f}, "
                          f"highest {max(found):.2f}{target}")
        finally:
            old.close()
            new.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="per row; with --against, per engine and way in, for each variant and player count")
    parser.add_argument("--against", nargs="?", const=BASELINE, metavar="REF",
                        help=f"side by side with the engine of git commit REF (default {BASELINE[:7]})")
    parser.add_argument("--game", action="append", metavar="G",
                        help="with --against, the game to measure (repeatable; 'all' for every game; default seep)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds alternating the two engines")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
    elif args.against:
        against(args.against, args.game or ["seep"], args.seconds, args.rounds)
    else:
        every_game(args.seconds)


if __name__ == "__main__":
    main()
