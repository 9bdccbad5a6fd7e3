#!/usr/bin/env python3
"""How much luck duplicate deals remove: identical entrants (one a place at the table)
play many small tournaments, with and without duplicate deals and with the same number of
matches; the spread (standard deviation across tournaments) of the difference between two
entrants' mean scores per deal is the luck left in a result. Its true value is 0.

Usage: python3 benchmarks/duplicate_variance.py [--game pigugnin] [--tournaments 40] [--matches 16]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from cardcli.games import registry
from cardcli.tournament import results, runner
from cardcli.tournament.config import Config


def spread(game: str, duplicate: bool, tournaments: int, matches: int, player: str) -> float:
    spec = registry.get(game)
    players = spec.player_counts[0]
    places = len(spec.teams(players)) or players
    deal_sets = matches // places if duplicate else matches
    entrants = tuple((f"e{i}", player) for i in range(places))
    diffs = []
    for t in range(tournaments):
        config = Config(game=game, variant=None, options={}, players=players,
                               entrants=entrants, deal_sets=deal_sets, seed=1000 + t,
                               duplicate=duplicate, settings={"max_deals": 60})
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp)
            runner.create(path, config)
            runner.run(path, config, 1, lambda *_: None)
            table = results.tabulate(config.names, runner.records_in_order(path, runner.finished(path)))
        by_name = {r["entrant"]: r["score_per_deal"] for r in table.rows}
        diffs.append(by_name["e0"] - by_name["e1"])
    return statistics.stdev(diffs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pigugnin")
    parser.add_argument("--tournaments", type=int, default=40)
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--player", default="heuristic", help="the built-in player every entrant is")
    args = parser.parse_args()
    plain = spread(args.game, False, args.tournaments, args.matches, args.player)
    dup = spread(args.game, True, args.tournaments, args.matches, args.player)
    print(f"{args.game}: {args.tournaments} tournaments of {args.matches} matches, "
          f"one identical {args.player} entrant a place")
    print(f"spread of the score-per-deal difference without duplicate: {plain:.3f}")
    print(f"spread of the score-per-deal difference with duplicate:    {dup:.3f}")
    print(f"variance removed by duplicate deals: {100 * (1 - (dup / plain) ** 2):.0f}%")


if __name__ == "__main__":
    main()
