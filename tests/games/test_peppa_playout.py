"""Peppa's compact playout (cardcli/plugins/peppa/playout.py) against the full engine.

The fast loop is a second implementation of the trick play and the scoring, so it is trusted
only as far as it agrees with the engine. Each seeded case here draws an option set (every
option, each value reachable), drives the engine at random through its text moves for a
random number of moves (into the pass, the middle of a trick, a later deal), makes the state
compact, plays a whole playout with a seeded policy while recording its moves, and feeds those
moves to the engine through its normal API (``deal``, then ``apply`` move by move). The engine
refuses any illegal move; before each play its legal cards must equal the loop's; and the
scores must agree: the deal's points for :func:`play_deal`, the final totals and the end of
the match for :func:`play_match`.

Size: 800 cases of :func:`play_deal` (about 770 deals: some cases land on a finished match)
and 400 of :func:`play_match` with low thresholds (about 1,340 deals), so about 2,100 deals in
all, plus 480 rigged deals that make a cappotto happen, and two short searches through the
loop; 3 to 4 seconds on one core, most of it the engine's own moves (the cases are split in
blocks so that ``-n 2`` shares them out).
"""

from __future__ import annotations

import random

import pytest

from cardcli.games import registry
from cardcli.games.card_bits import DECK, TEXTS, indices, texts
from cardcli.plugins.peppa import playout
from cardcli.plugins.peppa.rules import PeppaMatch, PeppaOptions
from cardcli.players.search.ismcts import deal_rewards
from cardcli.players.search.playouts import TrickPolicy

import playout_checks
from playout_checks import searched_twice

import attrs

DEAL_CASES = 800
MATCH_CASES = 400
PASS_CYCLES = ("right", "left,right,across", "hold", "across,hold", "left,hold,right")


def drawn_options(rng: random.Random) -> tuple[str, dict[str, str]]:
    """A variant and a random set of options over it (as the command line gives them)."""
    variant = rng.choice(("torino", "standard"))
    given = {
        "play_direction": rng.choice(("cw", "ccw")),
        "dealer_rotation": rng.choice(("left", "play_direction")),
        "first_dealer": rng.choice(("random", "0", "1", "2", "3")),
        "two_of_clubs_leads": rng.choice(("true", "false")),
        "no_points_first_trick": rng.choice(("true", "false")),
        "hearts_must_be_broken": rng.choice(("true", "false")),
        "queen_breaks_hearts": rng.choice(("true", "false")),
        "deal_order": rng.choice(("one_at_a_time", "thirteen_at_a_time")),
        "end_inclusive": rng.choice(("true", "false")),
        "boundary_tie": rng.choice(("play_on", "shared_loss", "shared_win")),
    }
    for name, choices in (("pass_cycle", PASS_CYCLES), ("card_values", ("torino", "standard", "international")),
                          ("cappotto", ("all_penalty_cards", "all_tricks"))):
        if rng.random() < 0.5:
            given[name] = rng.choice(choices)
    return variant, given


def new_match(variant: str, given: dict[str, str], seed: int) -> PeppaMatch:
    match = registry.resolve("peppa", variant, given, None, seed).new_match()
    assert isinstance(match, PeppaMatch)
    return match


def advance(match: PeppaMatch, seed: int, moves: int, rng: random.Random) -> None:
    playout_checks.advance(match, seed, moves, rng, DECK)


def replay(match: PeppaMatch, trace: playout.Trace) -> None:
    """Feed the loop's moves to the engine through its normal API, checking each play's
    legal cards against the engine's."""
    for step in trace:
        if step[0] == "deal":
            match.deal([DECK[i] for i in step[1]])
        elif step[0] == "pass":
            _, seat, given = step
            match.apply(seat, "+".join(texts(given)))
        else:
            _, seat, card, legal = step
            assert match.current_player() == seat
            assert tuple(match.legal_actions()) == indices(legal), (TEXTS[card], texts(legal))
            match.apply(seat, TEXTS[card])


def policy_of(seed: int) -> str:
    return playout.GREEDY if seed % 3 == 0 else playout.RANDOM


@pytest.mark.parametrize("block", range(4))
def test_a_deal_played_by_the_loop_scores_as_the_engine_scores_it(block):
    for seed in range(block * DEAL_CASES // 4, (block + 1) * DEAL_CASES // 4):
        rng = random.Random(seed)
        variant, given = drawn_options(rng)
        match = new_match(variant, given, seed)
        advance(match, seed, rng.randrange(0, 4) if seed % 5 == 0 else rng.randrange(0, 120), rng)
        if match.is_over():
            continue
        state = playout.compact(match)
        trace: playout.Trace = []
        points = playout.play_deal(state, random.Random(seed), policy_of(seed), trace=trace)
        deals = match.deal_number
        replay(match, trace)
        assert match.needs_deal() or match.is_over()
        assert match.deal_number == max(deals, 1) or (deals and match.deal_number == deals + 1)
        assert points == match.deal_scores[-1].points, (seed, variant, given)


@pytest.mark.parametrize("block", range(3))
def test_a_match_played_by_the_loop_ends_as_the_engine_ends_it(block):
    for seed in range(10_000 + block * MATCH_CASES // 3, 10_000 + (block + 1) * MATCH_CASES // 3):
        rng = random.Random(seed)
        variant, given = drawn_options(rng)
        threshold = rng.randrange(20, 90) if given.get("card_values", variant) == "torino" else rng.randrange(100, 500)
        given["end_threshold"] = str(threshold)
        match = new_match(variant, given, seed)
        advance(match, seed, rng.randrange(0, 120), rng)
        state = playout.compact(match)
        trace: playout.Trace = []
        totals = playout.play_match(state, random.Random(seed), policy_of(seed), trace=trace, deal_limit=40)
        replay(match, trace)
        assert totals == tuple(match.totals), (seed, variant, given)
        assert match.is_over() or (match.needs_deal() and match.deal_number == 40)


def rigged_deck(leader_cards: set[int], rng: random.Random, one_at_a_time: bool) -> list[int]:
    """A deck dealing ``leader_cards`` (13) to the first leader, the rest at random."""
    rest = [i for i in range(52) if i not in leader_cards]
    rng.shuffle(rest)
    mine = sorted(leader_cards)
    rng.shuffle(mine)
    if not one_at_a_time:
        return mine + rest
    others = iter(rest)
    return [mine[k // 4] if k % 4 == 0 else next(others) for k in range(52)]


@pytest.mark.parametrize("cappotto", ["all_penalty_cards", "all_tricks"])
@pytest.mark.parametrize("table", ["torino", "standard"])
def test_a_cappotto_scores_as_the_engine_scores_it(cappotto, table):
    """A leader with 12 hearts and 2♣ and no pass: led last, the 2♣ loses a trick but the
    rest can still be a cappotto of penalty cards; with 13 spades every trick is the
    leader's. Both kinds must happen here, and score as the engine scores them."""
    hearts = {i for i in range(52) if DECK[i].suit == "H"}
    two_clubs = next(i for i in range(52) if TEXTS[i] == "2C")
    spades = {i for i in range(52) if DECK[i].suit == "S"}
    seen = set()
    for seed in range(120):
        rng = random.Random(seed)
        given = {"pass_cycle": "hold", "card_values": table, "cappotto": cappotto, "first_dealer": "1",
                 "play_direction": rng.choice(("cw", "ccw")),
                 "deal_order": rng.choice(("one_at_a_time", "thirteen_at_a_time"))}
        match = new_match("torino", given, seed)
        leader_cards = spades if seed % 4 == 0 else (hearts - {26}) | {two_clubs}
        deck = rigged_deck(leader_cards, rng, given["deal_order"] == "one_at_a_time")
        match.deal([DECK[i] for i in deck])
        state = playout.compact(match)
        trace: playout.Trace = []
        points = playout.play_deal(state, random.Random(seed), trace=trace)
        replay(match, trace)
        assert points == match.deal_scores[-1].points
        if match.deal_scores[-1].notes:
            seen.add(max(match.tricks.tricks_won))
    assert 13 in seen
    if cappotto == "all_penalty_cards":
        assert any(n < 13 for n in seen), "no cappotto of penalty cards without every trick"


def test_an_option_the_loop_does_not_know_is_refused():
    @attrs.frozen
    class Newer(PeppaOptions):
        jack_of_diamonds_minus_ten: bool = False

    with pytest.raises(playout.UnsupportedRules, match="jack_of_diamonds_minus_ten"):
        playout.compact(PeppaMatch(Newer()))
    with pytest.raises(playout.UnsupportedRules, match="pass_cycle"):
        playout.CompactRules.of(attrs.evolve(PeppaOptions(), pass_cycle=("sideways",)))
    with pytest.raises(playout.UnsupportedRules, match="policy"):
        playout.play_deal(playout.compact(PeppaMatch(PeppaOptions())), random.Random(0), "clever")


def test_a_finished_match_has_no_deal_to_play_and_keeps_its_totals():
    match = new_match("torino", {"end_threshold": "1"}, 3)
    advance(match, 3, 10_000, random.Random(3))
    assert match.is_over()
    state = playout.compact(match)
    assert playout.play_match(state, random.Random(0)) == tuple(match.totals)
    with pytest.raises(playout.UnsupportedRules):
        playout.play_deal(state, random.Random(0))


def test_a_deal_limit_stops_the_match_between_deals():
    match = new_match("torino", {"end_threshold": "10000"}, 5)
    trace: playout.Trace = []
    playout.play_match(playout.compact(match), random.Random(5), trace=trace, deal_limit=3)
    assert sum(1 for step in trace if step[0] == "deal") == 3


def test_the_greedy_choice_is_the_trick_policy_s():
    """With no randomness left (epsilon 0), the loop's greedy card is the one TrickPolicy
    picks on the engine, or one of the weakest cards it picks among when it leads."""
    policy = TrickPolicy(None, avoid=True, epsilon=0.0)
    checked = 0
    for seed in range(150):
        rng = random.Random(seed)
        variant, given = drawn_options(rng)
        match = new_match(variant, given, seed)
        advance(match, seed, rng.randrange(5, 60), rng)
        if match.phase != "play":
            continue
        trace: playout.Trace = []
        playout.play_deal(playout.compact(match), random.Random(seed), playout.GREEDY, epsilon=0.0, trace=trace)
        step = next(s for s in trace if s[0] == "play")
        legal = indices(step[3])
        if len(legal) == 1:
            continue
        expected = policy.choose(match, random.Random(seed))
        if match.tricks.trick:
            assert step[2] == expected, (seed, TEXTS[step[2]], TEXTS[expected])
        else:
            weakest = min(i % 13 for i in legal)
            assert step[2] % 13 == weakest == expected % 13
        checked += 1
    assert checked > 80


def test_the_search_finishes_its_peppa_playouts_in_the_loop_and_stays_deterministic():
    """The search player's playouts go through the loop (a WholePlayout for every kind), and a
    decision depends on the seed alone: the same seed, the same move and visits."""
    match = new_match("torino", {}, 7)
    advance(match, 7, 9, random.Random(7))
    assert match.phase == "play"
    result = searched_twice("peppa", match, 4, deal_rewards(4, True, ()), 60)
    left = playout.moves_left(playout.compact(match))
    assert result.simulated >= result.iterations * (left - 1)


def test_an_ismcts_seat_plays_the_same_peppa_match_twice():
    from cardcli.referee import Settings, play_match
    from cardcli.seating import builtin

    records = []
    for _ in range(2):
        setup = registry.resolve("peppa", None, {}, None, 11)
        seats = [builtin("ismcts:iterations=30,worlds=6", "i", 11),
                 *(builtin("heuristic", f"h{k}", 11) for k in range(3))]
        records.append(play_match(setup, seats, Settings(max_deals=1)).record)
        assert seats[0].player.failures == 0  # type: ignore[attr-defined]
    assert len(records[0]["deals"][0]["moves"]) == 56
    assert [m["move"] for m in records[0]["deals"][0]["moves"]] == [m["move"] for m in records[1]["deals"][0]["moves"]]
