"""Random playouts to the end of the match, with the invariants checked on every event: the
conformance the repository's suite asks of its own games, for a game from outside.

Decks come from cardcli's own seeded shuffle (:func:`cardcli.games.dealing.shuffled`), as the
referee deals them, and moves from a seeded random player, so each match is reproducible.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cardcli.games.base import Event
from cardcli.games.card_bits import texts
from cardcli.games.dealing import shuffled
from cardcli.games.tricks import step

from briscola_scripts import new_match, vars_of
from cardcli_briscola import SPEC, BriscolaMatch
from cardcli_briscola.deck import CARD_POINTS_BY_RANK

CONFIGS = [
    pytest.param(2, {}, id="2-defaults"),
    pytest.param(4, {}, id="4-defaults"),
    pytest.param(2, {"tie_break": "last_trick", "target": 3}, id="2-last-trick-target-3"),
    pytest.param(4, {"direction": "cw", "partners_see_hands": True, "first_dealer": "2"}, id="4-cw-partners-see"),
]
SEEDS = range(25)
DECK = frozenset(c.text for c in SPEC.deck())


def points(card: str) -> int:
    return CARD_POINTS_BY_RANK.get("23456789TJQKA".index(card[0]) + 2, 0)


def play_random(match: BriscolaMatch, seed: int, max_deals: int = 40) -> list[tuple[list[Event], dict[str, Any]]]:
    """Play a whole match with random moves; each step's events, with what the checks need to
    know of the state just after it (every hand, the undrawn stock)."""
    rng = random.Random(seed)
    steps = []
    while not match.is_over():
        if match.needs_deal():
            if match.deal_number >= max_deals:
                match.adjudicate()
                break
            events = match.deal(shuffled(seed, match.deal_number, SPEC.deck()))
        else:
            decision = match.decisions()[0]
            events = match.apply(decision.seat, rng.choice(decision.moves))
        state = {"hands": [set(texts(h)) for h in match.hand_masks],
                 "stock": {c for c in match.deal_facts()["stock"][match.drawn:]}}
        steps.append((events, state))
    return steps


@pytest.mark.parametrize("players, options", CONFIGS)
def test_random_matches_keep_every_rule(players: int, options: dict[str, Any]) -> None:
    for seed in SEEDS:
        match = new_match(players, **options)
        steps = play_random(match, seed)
        check_match(match, steps, options)


def check_match(match: BriscolaMatch, steps: list[tuple[list[Event], dict[str, Any]]], options: dict[str, Any]) -> None:
    n = match.num_players
    clockwise = options.get("direction") == "cw"
    partners_see = bool(options.get("partners_see_hands")) and n == 4
    deals: list[dict[str, Any]] = []
    deal: dict[str, Any] = {}
    expected: int | None = None
    briscola = ""
    for events, state in steps:
        for e in events:
            check_no_leak(e, state, n, briscola, partners_see)
            if e.kind == "deal":
                deal = {"played": [], "taken": 0, "tricks": 0, "dealer": int(e.args[1]), "draws": 0}
                deals.append(deal)
            elif e.kind == "briscola":
                briscola = e.args[0]
            elif e.kind == "trick":
                expected = int(e.args[1])
            elif e.kind == "play":
                assert expected is not None and int(e.args[0]) == expected, "turn order"
                expected = step(expected, n, clockwise)
                deal["played"].append(e.args[1])
            elif e.kind == "taken":
                deal["taken"] += int(e.args[2])
                deal["tricks"] += 1
                expected = int(e.args[1])
            elif e.kind == "draw" and len(e.args) == 2:  # the drawer's own line, or the public briscola
                deal["draws"] += 1
            elif e.kind == "points":
                values = [int(v) for v in e.args]
                sides = [(0, 2), (1, 3)] if n == 4 else [(0,), (1,)]
                assert all(values[a] == values[side[0]] for side in sides for a in side), "partners show one total"
                assert sum(values[side[0]] for side in sides) == 120, "120 card points a deal"
                deal["points"] = values
    scores = match.deal_scores
    assert len(scores) == len(deals)
    dealers = [d["dealer"] for d in deals]
    assert all(b == step(a, n, clockwise) for a, b in zip(dealers, dealers[1:])), "the deal passes on"
    for deal, facts_score in zip(deals, scores):
        assert sorted(deal["played"]) == sorted(DECK), "every card played once a deal"
        assert deal["taken"] == 120 and deal["tricks"] == 40 // n
        assert deal["draws"] == 40 - 3 * n, "every stock card drawn once"
        values = deal["points"]
        side_points = {values[s] for s in range(n)}
        winners = {s for s in range(n) if facts_score.points[s] == 1}
        if max(values) > 60:
            assert winners == {s for s in range(n) if values[s] > 60}
        elif options.get("tie_break") != "last_trick":
            assert winners == set() and side_points == {60}
    totals = [0] * n
    for s in scores:
        totals = [t + p for t, p in zip(totals, s.points)]
        assert list(s.totals) == totals
    target = int(options.get("target", 2))
    outcome = match.outcome()
    if max(totals) >= target:
        assert set(outcome.winners) == {s for s in range(n) if totals[s] == max(totals)}
        assert sorted(outcome.winners + outcome.losers) == list(range(n))
    assert max(totals) <= target


def check_no_leak(event: Event, state: dict[str, Any], n: int, briscola: str, partners_see: bool) -> None:
    """No seat is ever shown a card that another seat holds, or one still in the stock, but
    the turned-up briscola (public from the deal on) and, with the option, a partner's hand
    once the stock is gone."""
    hands: list[set[str]] = state["hands"]
    for seat in range(n):
        if not event.visible_to(seat):
            continue
        for word in event.args:
            if word not in DECK or word == briscola or (event.kind == "briscola"):
                continue
            holder = next((s for s in range(n) if word in hands[s]), None)
            if holder is not None and holder != seat:
                assert partners_see and event.kind == "partner" and holder == (seat + 2) % 4 and not state["stock"], (
                    f"seat {seat} is shown {word} of seat {holder}'s hand: {event.line()}"
                )
            assert word not in state["stock"], f"seat {seat} is shown {word}, still in the stock"


@pytest.mark.parametrize("players", [2, 4])
def test_each_seat_sees_exactly_its_own_hand_and_draws(players: int) -> None:
    """Rebuilt from its events alone, each seat's hand is the engine's, before every move."""
    for seed in range(10):
        match = new_match(players, target=1)
        rng = random.Random(seed)
        known: list[set[str]] = [set() for _ in range(players)]
        events = match.deal(shuffled(seed, 0, SPEC.deck()))
        while True:
            for e in events:
                for seat in range(players):
                    if not e.visible_to(seat):
                        continue
                    if e.kind == "hand":
                        known[seat] = set(e.args)
                    elif e.kind == "draw" and int(e.args[0]) == seat:
                        known[seat].add(e.args[1])
                    elif e.kind == "play" and int(e.args[0]) == seat:
                        known[seat].discard(e.args[1])
            if not match.decisions():
                break
            assert known == [set(texts(h)) for h in match.hand_masks]
            decision = match.decisions()[0]
            events = match.apply(decision.seat, rng.choice(decision.moves))
        assert known == [set()] * players


@pytest.mark.parametrize("players", [2, 4])
def test_deal_facts_are_the_deck_and_a_fresh_match_recomputes_them(players: int) -> None:
    for seed in range(5):
        deck = shuffled(seed, 0, SPEC.deck())
        match, again = new_match(players), new_match(players)
        match.deal(deck)
        again.deal(deck)
        facts = match.deal_facts()
        assert facts == again.deal_facts()
        dealt = [c for hand in facts["hands"] for c in hand] + facts["stock"]
        assert len(dealt) == 40 and set(dealt) == DECK
        assert facts["stock"][-1] == deck[3 * players].text, "the turned-up card is drawn last"


@pytest.mark.parametrize("players", [2, 4])
def test_a_clone_plays_on_as_the_original_and_apart_from_it(players: int) -> None:
    for seed in range(6):
        match = new_match(players, partners_see_hands=True)
        rng = random.Random(seed)
        match.deal(shuffled(seed, 0, SPEC.deck()))
        for _ in range(rng.randrange(1, 30)):
            decision = match.decisions()[0]
            match.apply(decision.seat, rng.choice(decision.moves))
        before = copy.deepcopy(match)
        twin = match.clone()
        assert twin.tricks.hands is twin.hand_masks, "the trick play reads the clone's own hands"
        assert twin.hand_masks is not match.hand_masks and twin.side_totals is not match.side_totals
        deep = copy.deepcopy(match)
        moves: list[str | None] = []
        while not twin.is_over() and len(moves) < 60:
            if twin.needs_deal():
                twin.deal(shuffled(seed, twin.deal_number, SPEC.deck()))
                deep.deal(shuffled(seed, deep.deal_number, SPEC.deck()))
                moves.append(None)
                continue
            decision = twin.decisions()[0]
            move = rng.choice(decision.moves)
            assert twin.apply(decision.seat, move) == deep.apply(decision.seat, move)
            moves.append(move)
        assert vars_of(twin) == vars_of(deep)
        assert vars_of(match) == vars_of(before), "moves on the clone left the original as it was"

