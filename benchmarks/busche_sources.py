#!/usr/bin/env python3
"""Where Il Pigugnìn's busche come from: in the search's playouts, and for a player.

Usage: python3 benchmarks/busche_sources.py [--playouts N] [--deals D] [--player SPEC] [--players 4|5]

A playout is worth what it tells the search, and it can only tell what its own deals look
like. Two figures:

* **Playouts**: N whole deals from a deal's start by each policy of the compact loop
  (:mod:`cardcli.plugins.pigugnin.playout`): how often a seat ends with no trick (then no
  points are counted and only the trickless seats pay), and the busche a deal. Beside them,
  the same for D deals played by four (or five) ``heuristic`` seats, the players the search
  meets in ``benchmarks/strength.py``: a playout unlike real play misleads the search.
* **A player's busche, by cause**: SPEC in every seat of D held-back deals (seeds from 1,000,
  one-deal matches, the other seats ``heuristic``), and ``heuristic`` likewise, each seat's
  busche split by the reason the deal's notes give (threshold, tie, the J♠, no trick,
  highest): what the search still pays for, and what the heuristic pays for.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcli.games import registry
from cardcli.plugins.pigugnin import playout
from cardcli.plugins.pigugnin.rules import PigugninMatch, PigugninOptions
from cardcli.referee import Settings, play_match
from cardcli.seating import builtin

FIRST_SEED = 1000


def playout_figures(players: int, deals: int) -> None:
    """Trickless deals and busche a deal, by policy, over ``deals`` playouts from a deal's start."""
    start = playout.compact(PigugninMatch(PigugninOptions(), players))
    print(f"{'playouts from a deal start':32} {'deals':>7} {'a seat without a trick':>23} {'busche a deal':>14}")
    for policy in playout.POLICIES:
        rng = random.Random(1)
        trickless = busche = 0
        for _ in range(deals):
            trace: playout.Trace = []
            paid = playout.play_deal(start, rng, policy, trace=trace)
            won = _tricks_won(trace, players)
            trickless += 0 in won
            busche += sum(paid)
        print(f"{'compact ' + policy:32} {deals:>7} {trickless / deals:>22.1%} {busche / deals:>14.2f}")


def _tricks_won(trace: playout.Trace, players: int) -> list[int]:
    """Each seat's tricks in a traced deal, from the order of its plays (a trick's winner
    leads the next; the last trick's winner is the seat that would lead a next one)."""
    from cardcli.plugins.pigugnin.rules import RANKING

    plays = [(seat, card) for kind, *rest in trace if kind == "play" for seat, card, _ in [rest]]
    won = [0] * players
    for t in range(0, len(plays), players):
        trick = plays[t:t + players]
        led = RANKING.suit_mask[trick[0][1]]
        winner = max((p for p in trick if RANKING.suit_mask[p[1]] == led), key=lambda p: RANKING.power[p[1]])[0]
        won[winner] += 1
    return won


def causes(spec: str, players: int, deals: int) -> tuple[collections.Counter[str], int]:
    """``spec``'s busche by cause, summed over every seat of ``deals`` deals."""
    paid: collections.Counter[str] = collections.Counter()
    seats_played = 0
    for k in range(deals):
        seed = FIRST_SEED + k
        setup = registry.resolve("pigugnin", None, {}, players, seed)
        for seat in range(players):
            specs = ["heuristic"] * players
            specs[seat] = spec
            seats = [builtin(s, f"s{i}", f"{seed}/{i}") for i, s in enumerate(specs)]
            deal = play_match(setup, seats, Settings(max_deals=1)).record["deals"][-1]
            seats_played += 1
            paid["all"] += deal["points"][seat]
            paid["trickless deals"] += any(" no_trick " in f" {n} " for n in deal["notes"])
            for note in deal["notes"]:
                who, _, text = note.partition(": ")
                if int(who) == seat:
                    paid[text.split()[0]] += int(text.split()[-1])
    return paid, seats_played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--player", default="ismcts:cpu=50")
    parser.add_argument("--players", type=int, default=4, choices=(4, 5))
    args = parser.parse_args()
    playout_figures(args.players, args.playouts)
    kinds = ("threshold", "tie", "pigugnin", "no_trick", "highest")
    print(f"\n{'busche a seat and deal, by cause':32} {'seats':>7} {'all':>6} "
          + " ".join(f"{k:>9}" for k in kinds) + f" {'deals with a seat without a trick':>34}")
    for spec in ("heuristic", args.player):
        paid, seats = causes(spec, args.players, args.deals)
        print(f"{spec:32} {seats:>7} {paid['all'] / seats:>6.3f} " + " ".join(f"{paid[k] / seats:>9.3f}" for k in kinds)
              + f" {paid['trickless deals'] / seats:>34.1%}")


if __name__ == "__main__":
    main()
