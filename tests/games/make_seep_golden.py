#!/usr/bin/env python3
"""Seep's legal moves, events and refusals over thousands of seeded random positions, written
down by one engine so that another can be held to it move for move.

Usage: python3 tests/games/make_seep_golden.py [--out PATH]

Run it with the engine to record on the path: the golden file in ``tests/games/data`` was
made by the engine of commit 931c0af (before the move generator was rewritten for speed), as

    git worktree add --detach /tmp/seep-old 931c0af
    PYTHONPATH=/tmp/seep-old python3 tests/games/make_seep_golden.py

``test_seep_generator.py`` replays the same playouts on the engine of the checkout and
compares every line. A playout is a seeded match (every variant and player count, the
variable baazi target and the options that change which moves are legal), played with
random moves: uniformly, or preferring throws, which leaves long floors and long lists of
moves. Each step is written as one line:

* ``deal <events>``: a deal, with the digest of its events;
* ``move <count> <moves> <events>``: a decision, with the number of legal moves, the digest
  of their tokens in the order offered, and the digest of the events of the move chosen;
* ``over <result>``: the result, when the match ended within the steps recorded;
* ``refuse <seat> <token> <error> <message>``: a token that is not offered (a throw of a card that
  captures, a card not held, a misspelt or misordered token, another seat's turn...), with
  the error type and message it gets, on a copy of the state whose moves were never listed
  (as ``verify`` sees it).

A digest is the first 12 hex digits of the sha256 of the lines joined by newlines.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import attrs

from cardcli.errors import MoveError
from cardcli.games import registry
from cardcli.games.base import Decision, Event
from cardcli.games.dealing import shuffled

GOLDEN = Path(__file__).resolve().parent / "data" / "seep_golden.txt.gz"
DIGITS = 12
PROBE_EVERY = 23
"""Refusals are recorded at every 23rd decision of a playout (a prime, so they fall on every
kind of position rather than always on the same play of a round)."""
PLAIN, THROWER = 0.0, 0.75
"""Playout policies: the chance of choosing a throw when one is offered (0: uniform)."""


@attrs.frozen
class Config:
    """One kind of match to play out: a variant, a player count and options."""

    variant: str
    players: int
    options: tuple[tuple[str, str], ...] = ()
    seeds: int = 2
    steps: int = 80
    """Decisions recorded per playout: long matches (``thirty``) are cut short."""

    def name(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.variant}/{self.players}" + (f"/{extra}" if extra else "")


def _configs() -> tuple[Config, ...]:
    """Every variant and player count, then the options that change the legal moves or the
    end of a match (each with the player counts where it matters)."""
    plain = [
        Config(variant, n, seeds=3, steps=200 if variant == "thirty" else 420)
        for variant in ("standard", "thirty", "no_cementing")
        for n in (2, 3, 4)
    ]
    options: list[tuple[str, int, dict[str, str]]] = [
        ("standard", 4, {"baazi_target": "50"}),
        ("standard", 2, {"baazi_target": "150"}),
        ("standard", 3, {"baazi_target": "50", "min_deal_points": "0"}),
        ("standard", 4, {"throw_rule": "no_other_action"}),
        ("standard", 3, {"throw_rule": "no_other_action"}),
        ("no_cementing", 4, {"throw_rule": "no_other_action"}),
        ("standard", 4, {"capture_must_be_maximal": "false"}),
        ("standard", 2, {"capture_must_be_maximal": "false"}),
        ("no_cementing", 3, {"capture_must_be_maximal": "false"}),
        ("standard", 4, {"owner_may_throw": "false", "retention_scope": "team"}),
        ("standard", 3, {"owner_may_throw": "false"}),
        ("standard", 4, {"last_key_capture_only": "false"}),
        ("standard", 3, {"last_key_capture_only": "false", "owner_may_throw": "false"}),
        ("standard", 4, {"last_key_capture_only": "false", "retention_scope": "team"}),
        ("standard", 4, {"retention_scope": "team"}),
        ("standard", 4, {"opponent_cement_makes_coowner": "false", "break_partner_house": "false"}),
        ("standard", 4, {"break_own_house": "true"}),
        ("standard", 3, {"break_own_house": "true", "opponent_cement_makes_coowner": "false"}),
        ("no_cementing", 4, {"break_own_house": "true"}),
        ("standard", 4, {"max_houses": "1"}),
        ("standard", 3, {"max_houses": "2"}),
        ("standard", 4, {"reveal_floor_before_bid": "true", "bid_requires_floor_feasibility": "true"}),
        ("standard", 2, {"reveal_floor_before_bid": "true", "bid_requires_floor_feasibility": "true",
                         "opening_allowed": "build_bid_value"}),
        ("standard", 4, {"opening_allowed": "build_bid_value"}),
        ("standard", 3, {"opening_allowed": "throw_bid_card", "throw_rule": "no_other_action"}),
        ("standard", 4, {"opening_allowed": "capture_with_bid_card,throw_bid_card"}),
        ("standard", 4, {"reveal_floor_before_bid": "true", "redeal_reveals_hand": "false"}),
        ("standard", 2, {"two_player_halves": "false"}),
        ("standard", 4, {"deal_packet": "2", "dealer_rotation": "pagat_score_based"}),
        ("standard", 4, {"scoring": "casual_ten_two", "min_includes_sweeps": "false"}),
        ("thirty", 4, {"majority_basis": "cards"}),
        ("standard", 4, {"sweep": "30", "sweep_first": "10", "sweep_last": "5"}),
    ]
    return tuple(plain) + tuple(
        Config(variant, players, tuple(sorted(given.items()))) for variant, players, given in options
    )


CONFIGS = _configs()


def digest(lines: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:DIGITS]


def event_digest(events: Sequence[Event]) -> str:
    """The events with their audiences: the wire lines and who may see each."""
    return digest([f"{sorted(e.audience) if e.audience is not None else '*'} {e.line()}" for e in events])


def policy(config: Config, seed: int) -> float:
    """Odd seeds prefer throws: long floors and long lists of moves."""
    return THROWER if seed % 2 else PLAIN


def choose(rng: random.Random, moves: Sequence[str], bias: float) -> int:
    """The index of the move a playout plays: a throw with chance ``bias`` when one is
    offered, else any move."""
    if bias and rng.random() < bias:
        throws = [i for i, m in enumerate(moves) if m.startswith("throw:")]
        if throws:
            return rng.choice(throws)
    return rng.randrange(len(moves))


def new_match(config: Config, seed: int) -> tuple[Any, Any]:
    """The setup and a fresh match of ``config`` for ``seed``."""
    setup = registry.resolve("seep", config.variant, dict(config.options), config.players, seed)
    return setup, setup.new_match()


# -- tokens that are not offered ----------------------------------------------------------------


def _spoilt_tokens(rng: random.Random, match: Any, decision: Decision, earlier: Sequence[str]) -> list[str]:
    """Candidate tokens for a refusal: each kind of mistake a bot makes, made from the position
    (some may happen to be legal; the caller keeps the others)."""
    moves = list(decision.moves)
    if decision.kind == "bid":
        held = [str(v) for v in range(1, 15)]
        return ["8", "14", "09", "x", "", "10 ", rng.choice(held), rng.choice(moves) + "0"]
    hand = [c.text for c in match.hands[decision.seat]]
    floor = [c.text for c in match.loose]
    others = [c.text for h in match.hands for c in h if c.text not in hand] or ["2C"]
    token = rng.choice(moves)
    verb, _, rest = token.partition(":")
    found = [
        f"throw:{rng.choice(hand)}",
        token.lower(),
        token.replace("T", "10", 1) if "T" in rest else token + "+" + rng.choice(others),
        _with_card(token, rng.choice(others)),
        _reordered(rng, token),
        f"take:{rng.choice(hand)}:" + "+".join(sorted(rng.sample(floor, min(len(floor), rng.randint(1, 3))))),
        f"build:{rng.randint(8, 14)}:{rng.choice(hand)}"
        + "".join("+" + c for c in rng.sample(floor, min(len(floor), 2))),
        f"cement:{rng.randint(9, 13)}:{rng.choice(hand)}",
        f"break:{rng.randint(9, 13)}:{rng.choice(hand)}",
        rng.choice(["take", "throw:", "pass:2C", "throw:ZZ", "build:9:", "sweep:QS", ""]),
    ]
    if earlier:
        found.append(rng.choice(list(earlier)))
    return found


def _with_card(token: str, card: str) -> str:
    """``token`` spending ``card`` instead of its own hand card."""
    verb, _, rest = token.partition(":")
    if verb in ("take", "throw"):
        _, _, items = rest.partition(":")
        return f"{verb}:{card}" + (f":{items}" if items else "")
    target, _, items = rest.partition(":")
    return f"{verb}:{target}:{card}{items[2:]}"


def _reordered(rng: random.Random, token: str) -> str:
    """``token`` with its groups, or the cards of a group, in another order."""
    head, _, items = token.rpartition(":")
    groups = items.split(",")
    if len(groups) > 1 and rng.random() < 0.5:
        groups.reverse()
    else:
        k = rng.randrange(len(groups))
        cards = groups[k].split("+")
        cards.reverse()
        groups[k] = "+".join(cards)
    return f"{head}:{','.join(groups)}"


def refusals(rng: random.Random, cold: Any, decision: Decision, earlier: Sequence[str]) -> list[str]:
    """Up to five tokens that are not offered, each tried on its own copy of ``cold`` (the
    state before its moves were listed), and one legal token for the wrong seat."""
    offered = set(decision.moves)
    candidates = [t for t in _spoilt_tokens(rng, cold, decision, earlier) if t not in offered]
    chosen = rng.sample(candidates, min(5, len(candidates)))
    lines = [_refusal(cold, decision.seat, token) for token in chosen]
    if cold.num_players > 1:
        other = (decision.seat + 1) % cold.num_players
        lines.append(_refusal(cold, other, rng.choice(decision.moves)))
    return lines


def _refusal(cold: Any, seat: int, token: str) -> str:
    trial = copy.deepcopy(cold)
    try:
        trial.apply(seat, token)
    except MoveError as err:
        return f"refuse {seat} {token!r} {type(err).__name__} {err}"
    return f"refuse {seat} {token!r} accepted"


# -- playouts ------------------------------------------------------------------------------------


Watcher = Callable[[Any, str, Any], None]
"""Told of every step of a playout with the match: ``(match, "deal", deck)`` before a deal,
``(match, "move", (decision, index))`` before the move chosen is applied; the test uses it to
drive a second match through integer actions alongside."""


def playout(config: Config, seed: int, watch: Watcher | None = None) -> Iterator[str]:
    """The lines of one playout (see the module docstring)."""
    setup, match = new_match(config, seed)
    rng = random.Random(f"seep-golden/{seed}")
    spoil = random.Random(f"seep-golden/refusals/{seed}")
    bias = policy(config, seed)
    deck = setup.spec.deck()
    decided = 0
    earlier: list[str] = []
    while not match.is_over() and decided < config.steps:
        if match.needs_deal():
            dealt = shuffled(seed, match.deal_number, deck)
            if watch is not None:
                watch(match, "deal", dealt)
            yield f"deal {event_digest(match.deal(dealt))}"
            continue
        probe = decided % PROBE_EVERY == PROBE_EVERY - 1
        cold = copy.deepcopy(match) if probe else None
        (decision,) = match.decisions()
        index = choose(rng, decision.moves, bias)
        if watch is not None:
            watch(match, "move", (decision, index))
        events = match.apply(decision.seat, decision.moves[index])
        yield f"move {len(decision.moves)} {digest(decision.moves)} {event_digest(events)}"
        if cold is not None:
            yield from refusals(spoil, cold, decision, earlier[-40:])
        earlier += decision.moves
        decided += 1
    if match.is_over():
        yield f"over {json.dumps(match.outcome().to_json(), sort_keys=True)}"


def playouts() -> Iterator[tuple[Config, int]]:
    for config in CONFIGS:
        for seed in range(config.seeds):
            yield config, seed


def header(config: Config, seed: int) -> str:
    return f"# {config.name()} seed {seed}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=GOLDEN)
    args = parser.parse_args()
    lines: list[str] = []
    for config, seed in playouts():
        lines.append(header(config, seed))
        lines.extend(playout(config, seed))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0 and no file name in the header: the same lines make the same bytes
    with open(args.out, "wb") as raw:
        with gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as out:
            out.write(("\n".join(lines) + "\n").encode())
    moves = sum(1 for line in lines if line.startswith("move "))
    refused = sum(1 for line in lines if line.startswith("refuse "))
    print(f"{args.out}: {moves} positions, {refused} refusals, {args.out.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
