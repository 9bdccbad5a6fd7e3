"""Seep's decided rules hold in every position random play reaches, in each configuration they
concern: no build or break without a card of the new value in the mover's own hand; no opening
throw of a card that could capture, under any opening setting; after a house changes, each of
its owners (or their side, with the team scope) still holds its key; and a 2- or 3-player match
that ends has one winner and everybody else loses.

Each configuration plays at least ``CARDCLI_SEEP_DEALS`` deals (default 120, two seconds or so
each); set it higher for a longer run (``docs/rules/seep.md`` gives the figures of one).
"""

from __future__ import annotations

import os
import random

import pytest

from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.plugins.seep.rules import Phase
from cardcli.cards import Card
from cardcli.plugins.seep.floor import sum_groups, value

from seep_deals import card_of

DEALS = int(os.environ.get("CARDCLI_SEEP_DEALS", "120"))
MAX_DEALS = 40
"""Deals after which a random match is left unfinished (its result is then not checked)."""

CONFIGS = [
    (4, {}),
    (3, {}),
    (2, {}),
    (4, {"min_deal_points": "55"}),
    (3, {"min_deal_points": "40"}),
    (4, {"retention_scope": "team"}),
    (4, {"retention_scope": "team", "last_key_capture_only": "false"}),
    (4, {"opening_allowed": "build_bid_value"}),
    (4, {"opening_allowed": "capture_with_bid_card"}),
    (4, {"opening_allowed": "throw_bid_card"}),
    (4, {"opening_allowed": "throw_bid_card", "throw_rule": "no_other_action"}),
    (2, {"opening_allowed": "build_bid_value", "throw_rule": "no_other_action"}),
    (4, {"reveal_floor_before_bid": "true", "bid_requires_floor_feasibility": "true",
         "opening_allowed": "build_bid_value,throw_bid_card"}),
    (3, {"scoring": "thirty", "min_deal_points": "0", "baazi_target": "30"}),
]


def new_value(token: str) -> int | None:
    """The value of the house a build or break makes, read from its token."""
    verb, _, rest = token.partition(":")
    if verb == "build":
        return int(rest.split(":")[0])
    if verb == "break":
        old, card = rest.split(":")[:2]
        return int(old) + value(Card.parse(card.split(",")[0]))
    return None


def check_offered(m, seat: int, offered: tuple[str, ...]) -> None:
    hand = m.hands[seat]
    for token in offered:
        spent = card_of(token)
        made = new_value(token)
        if made is not None:
            keys = sum(1 for c in hand if value(c) == made) - (value(spent) == made)
            assert keys >= 1, f"{token}: seat {seat} holds no {made} afterwards ({hand})"
        if token.startswith("throw:"):
            v = value(spent)
            captures = v in m.houses or bool(sum_groups(m.loose, v))
            if m.phase == Phase.OPEN:
                assert not captures, f"opening throw of a card that captures: {token} on {m.loose}"
            elif m.options.throw_rule == "card_cannot_capture":
                assert not captures or all(t.startswith("throw:") for t in offered), token


def check_owners_keep_keys(m, token: str) -> None:
    """After a move that made or changed a house, its owners (their side with the team scope)
    hold a card of its value."""
    verb, _, rest = token.partition(":")
    if verb not in ("build", "cement", "break"):
        return
    made = new_value(token) if verb != "cement" else int(rest.split(":")[0])
    house = m.houses[made]
    for owner in house.owners:
        keepers = m.sides[m.side_of[owner]] if m.options.retention_scope == "team" else (owner,)
        assert any(value(c) == made for k in keepers for c in m.hands[k]), (token, owner, made)


@pytest.mark.parametrize("players, given", CONFIGS, ids=[f"{n}p-" + "-".join(f"{k}={v}" for k, v in g.items())
                                                         for n, g in CONFIGS])
def test_the_decided_invariants_hold_under_random_play(players: int, given: dict[str, str]) -> None:
    rng = random.Random(f"seep-invariants/{players}/{sorted(given.items())}")
    deals = ended = 0
    seed = 0
    while deals < DEALS:
        seed += 1
        setup = registry.resolve("seep", None, given, players, seed)
        m = setup.new_match()
        played = 0
        while not m.is_over() and played < MAX_DEALS:
            if m.needs_deal():
                m.deal(shuffled(seed, played, setup.spec.deck()))
                played += 1
                continue
            (decision,) = m.decisions()
            if decision.kind == "play":
                check_offered(m, decision.seat, decision.moves)
            token = rng.choice(decision.moves)
            m.apply(decision.seat, token)
            if decision.kind == "play" and m.phase != Phase.DEAL and not m.is_over():
                check_owners_keep_keys(m, token)
        deals += played
        if not m.is_over():
            continue
        ended += 1
        out = m.outcome()
        assert not out.draws, (seed, out)
        assert set(out.winners) | set(out.losers) == set(range(players))
        if players < 4:
            everyone_under = not out.winners
            assert len(out.winners) == 1 or everyone_under, (seed, out)
    assert ended, "no match ended: the invariants of the result were never checked"
