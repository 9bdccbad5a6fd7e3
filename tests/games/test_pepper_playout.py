"""Pepper's compact playout (cardcli/plugins/pepper/playout.py) against the full engine.

The fast loop is a second implementation of the auction, the trick play and the scoring, so
it is trusted only as far as it agrees with the engine. Each seeded case here draws a player
count and an option set (every option, each value reachable), drives the engine at random
through its text moves for a random number of moves (into the auction, the trump, the middle
of a trick, a later deal; a quarter of the cases mostly passing, so that auctions where
everybody passes, and the deals after them, are common), makes the state compact, plays a whole playout with a seeded
policy while recording its moves, and feeds those moves to the engine through its normal API
(``deal``, then ``apply`` move by move). The engine refuses any illegal move; before each
move its legal moves must equal the loop's; and the scores must agree: the deal's points for
:func:`play_deal`, the final totals and the end of the match for :func:`play_match`.

Size: 1,200 cases of :func:`play_deal` (1,200 deals across 2, 3 and 4 players) and 300 of
:func:`play_match` with low targets and a limit of 10 deals (about 2,350 deals), so about 3,550
deals in all, plus the greedy policy against TrickPolicy and two short searches through the
loop; about 3.5 seconds on one core, most of it the engine's own moves (the cases are split in
blocks so that ``-n 2`` shares them out).
"""

from __future__ import annotations

import random

import attrs
import pytest

from cardcli.cards import french_24
from cardcli.games import registry
from cardcli.games.card_bits import DECK, TEXTS
from cardcli.plugins.pepper import playout
from cardcli.plugins.pepper.rules import CARD_ACTIONS, PepperMatch, PepperOptions, action_text
from cardcli.plugins.pepper.search import PepperRulePolicy
from cardcli.players.search.ismcts import deal_rewards
from cardcli.players.search.playouts import TrickPolicy

import playout_checks
from playout_checks import searched_twice

DEAL_CASES = 1200
MATCH_CASES = 300
DEAL_BLOCKS = 4
MATCH_BLOCKS = 2


DECK24 = french_24()


def drawn_options(rng: random.Random) -> tuple[int, dict[str, str]]:
    """A player count and a random set of options (as the command line gives them)."""
    n = rng.choice((2, 3, 4))
    given = {
        "first_dealer": rng.choice(("random", *map(str, range(n)))),
        "deal_order": rng.choice(("one_at_a_time", "hand_at_a_time")),
    }
    for name, choices in (("left_bower_is_trump", ("true", "false")), ("pass_is_final", ("true", "false")),
                          ("auction", ("multi_round", "single_round")),
                          ("all_pass", ("redeal_next_dealer", "redeal_same_dealer", "stick_dealer")),
                          ("trump_must_be_held", ("true", "false"))):
        if rng.random() < 0.6:
            given[name] = rng.choice(choices)
    return n, given


def new_match(n: int, given: dict[str, str], seed: int) -> PepperMatch:
    match = registry.resolve("pepper", None, given, n, seed).new_match()
    assert isinstance(match, PepperMatch)
    return match


def advance(match: PepperMatch, seed: int, moves: int, rng: random.Random, passing: float = 0.0) -> None:
    playout_checks.advance(match, seed, moves, rng, DECK24, passing)


def replay(match: PepperMatch, trace: playout.Trace) -> int:
    """Feed the loop's moves to the engine through its normal API, checking each move's legal
    set against the engine's; the number of moves fed."""
    moves = 0
    for step in trace:
        if step[0] == "deal":
            match.deal([DECK[i] for i in step[1]])
            continue
        moves += 1
        if step[0] == "play":
            _, seat, card, legal = step
            assert match.current_player() == seat
            engine = tuple(CARD_ACTIONS.index_of[a] for a in match.legal_actions())
            assert engine == tuple(i for i in range(52) if legal >> i & 1), (TEXTS[card], engine)
            match.apply(seat, TEXTS[card])
        else:
            kind, seat, token, legal = step
            (decision,) = match.decisions()
            assert (decision.seat, decision.kind, decision.moves) == (seat, kind, legal)
            match.apply(seat, token)
    return moves


def policy_of(seed: int) -> str:
    return playout.GREEDY if seed % 3 == 0 else playout.RANDOM


@pytest.mark.parametrize("block", range(DEAL_BLOCKS))
def test_a_deal_played_by_the_loop_scores_as_the_engine_scores_it(block: int) -> None:
    for seed in range(block * DEAL_CASES // DEAL_BLOCKS, (block + 1) * DEAL_CASES // DEAL_BLOCKS):
        rng = random.Random(seed)
        n, given = drawn_options(rng)
        match = new_match(n, given, seed)
        passing = 0.9 if seed % 4 == 1 else 0.0
        advance(match, seed, rng.randrange(0, 4) if seed % 5 == 0 else rng.randrange(0, 80), rng, passing)
        if match.is_over():
            continue
        state = playout.compact(match)
        trace: playout.Trace = []
        points, played = playout.finish_deal(state, random.Random(seed), policy_of(seed), trace=trace)
        deals = match.deal_number
        assert replay(match, trace) == played
        assert match.needs_deal() or match.is_over()
        assert match.deal_number == max(deals, 1) or (deals and match.deal_number == deals + 1)
        assert points == match.deal_scores[-1].points, (seed, n, given)


@pytest.mark.parametrize("block", range(MATCH_BLOCKS))
def test_a_match_played_by_the_loop_ends_as_the_engine_ends_it(block: int) -> None:
    for seed in range(10_000 + block * MATCH_CASES // MATCH_BLOCKS, 10_000 + (block + 1) * MATCH_CASES // MATCH_BLOCKS):
        rng = random.Random(seed)
        n, given = drawn_options(rng)
        given["target"] = str(rng.randrange(3, 31))
        match = new_match(n, given, seed)
        advance(match, seed, rng.randrange(0, 60), rng, 0.9 if seed % 4 == 1 else 0.0)
        state = playout.compact(match)
        trace: playout.Trace = []
        limit = match.deal_number + 10
        totals = playout.play_match(state, random.Random(seed), policy_of(seed), trace=trace, deal_limit=limit)
        replay(match, trace)
        assert totals == match.seat_totals(), (seed, n, given)
        assert match.is_over() or (match.needs_deal() and match.deal_number == limit)


def test_an_option_the_loop_does_not_know_is_refused() -> None:
    @attrs.frozen
    class Newer(PepperOptions):
        no_trump_doubles: bool = False

    with pytest.raises(playout.UnsupportedRules, match="no_trump_doubles"):
        playout.compact(PepperMatch(Newer()))
    with pytest.raises(playout.UnsupportedRules, match="auction"):
        playout.compact(PepperMatch(attrs.evolve(PepperOptions(), auction="three_rounds")))
    with pytest.raises(playout.UnsupportedRules, match="policy"):
        playout.play_deal(playout.compact(PepperMatch(PepperOptions())), random.Random(0), "clever")


def test_a_finished_match_has_no_deal_to_play_and_keeps_its_totals() -> None:
    match = new_match(3, {"target": "1"}, 3)
    advance(match, 3, 10_000, random.Random(3))
    assert match.is_over()
    state = playout.compact(match)
    assert playout.play_match(state, random.Random(0)) == match.seat_totals()
    with pytest.raises(playout.UnsupportedRules):
        playout.play_deal(state, random.Random(0))


def test_a_deal_limit_stops_the_match_between_deals() -> None:
    match = new_match(4, {"target": "10000"}, 5)
    trace: playout.Trace = []
    playout.play_match(playout.compact(match), random.Random(5), trace=trace, deal_limit=3)
    assert sum(1 for step in trace if step[0] == "deal") == 3


def test_the_greedy_card_is_the_trick_policy_s() -> None:
    """With no randomness left (epsilon 0), the loop's greedy card is the one TrickPolicy
    picks on the engine, or one of the highest-powered cards it picks among when it leads."""
    checked = 0
    for seed in range(300):
        rng = random.Random(seed)
        n, given = drawn_options(rng)
        match = new_match(n, given, seed)
        advance(match, seed, rng.randrange(3, 40), rng)
        if match.phase != "play":
            continue
        trace: playout.Trace = []
        playout.play_deal(playout.compact(match), random.Random(seed), playout.GREEDY, epsilon=0.0, trace=trace)
        step = next(s for s in trace if s[0] == "play")
        if step[3].bit_count() == 1:
            continue
        partners = [(s + 2) % 4 for s in range(4)] if n == 4 else None
        policy = TrickPolicy(CARD_ACTIONS.index_of, avoid=False, partners=partners, epsilon=0.0)
        expected = CARD_ACTIONS.index_of[policy.choose(match, random.Random(seed))]
        if match.tricks.trick:
            assert step[2] == expected, (seed, TEXTS[step[2]], TEXTS[expected])
        else:
            power = match.tricks.ranking.power
            assert power[step[2]] == power[expected]
        checked += 1
    assert checked > 100


def test_the_greedy_bids_and_trumps_are_the_heuristic_s() -> None:
    """The rule's bids and trumps (``greedy_bid``, ``greedy_trump``) are the ones the heuristic
    player made in real matches under drawn options: the heuristic's own trick estimate, to
    the last float, and its bidding rule."""
    from cardcli.cards import Card
    from cardcli.plugins.pepper.heuristic import PepperHeuristic
    from cardcli.referee import Settings
    from cardcli.referee import play_match as referee_match
    from cardcli.seating import builtin

    bids = trumps = 0
    for seed in range(40):
        rng = random.Random(seed)
        n, given = drawn_options(rng)
        setup = registry.resolve("pepper", None, given, n, seed)
        record = referee_match(setup, [builtin("heuristic", f"h{i}", seed) for i in range(n)],
                               Settings(max_deals=4)).record
        options = setup.new_match().options
        left_bower = bool(options.left_bower_is_trump)
        levels = tuple(str(i) for i in range(1, 6 if n == 4 else 8))
        numbers = len(levels)
        for deal in record["deals"]:
            hands = [sum(1 << CARD_ACTIONS.texts.index(t) for t in hand) for hand in deal["hands"]]
            estimator = PepperHeuristic(0, n, dict(given))
            for hand, held in zip(hands, deal["hands"]):
                assert playout.estimates(hand, left_bower, n == 4) == tuple(
                    estimator.estimate(t, {Card.parse(c) for c in held}) for t in ("C", "D", "H", "S", None))
            level, high, passed = 0, -1, 0
            for move in deal["moves"]:
                seat, token = move["seat"], move["move"]
                if move["kind"] == "bid":
                    stuck = (options.all_pass == "stick_dealer" and seat == deal["dealer"] and level == 0
                             and passed.bit_count() == n - 1)
                    over_partner = n == 4 and high == (seat + 2) % 4
                    rule = playout.greedy_bid(hands[seat], level, numbers, stuck, over_partner, left_bower, n == 4)
                    assert (levels[rule - 1] if rule else "pass") == token, (seed, deal["number"], move)
                    if token == "pass":
                        passed |= 1 << seat
                    else:
                        level, high = levels.index(token) + 1, seat
                        if not options.pass_is_final:
                            passed = 0
                    bids += 1
                elif move["kind"] == "trump":
                    offered = [t for t in range(4) if hands[seat] & playout._held_masks(left_bower)[t]] + [4] \
                        if options.trump_must_be_held else list(range(5))
                    assert playout.greedy_trump(hands[seat], offered, left_bower) == ("C", "D", "H", "S", "NT").index(token)
                    trumps += 1
    assert bids > 300 and trumps > 60, (bids, trumps)


def test_the_loop_s_greedy_bid_and_trump_are_the_step_policy_s() -> None:
    """With no randomness left, the loop's first bid or trump is the one the move-by-move rule
    policy (:class:`PepperRulePolicy`) picks on the engine: the search's two ways of playing
    out play the same rule."""
    checked = 0
    for seed in range(300):
        rng = random.Random(seed)
        n, given = drawn_options(rng)
        match = new_match(n, given, seed)
        advance(match, seed, rng.randrange(0, 4), rng)
        if match.phase not in ("bid", "trump"):
            continue
        trace: playout.Trace = []
        playout.play_deal(playout.compact(match), random.Random(seed), playout.GREEDY, epsilon=0.0, trace=trace)
        step = next(s for s in trace if s[0] in ("bid", "trump"))
        policy = PepperRulePolicy(CARD_ACTIONS.index_of, avoid=False, epsilon=0.0)
        assert step[2] == action_text(policy.choose(match, random.Random(seed))), (seed, step)
        checked += 1
    assert checked > 150


def test_the_search_finishes_its_pepper_playouts_in_the_loop_and_stays_deterministic() -> None:
    """The search player's playouts go through the loop (a WholePlayout for every kind), and a
    decision depends on the seed alone: the same seed, the same move and visits."""
    for n, moves in ((4, 9), (3, 2)):
        match = new_match(n, {}, 7)
        advance(match, 7, moves, random.Random(7))
        result = searched_twice("pepper", match, n, deal_rewards(n, False, ((0, 2), (1, 3)) if n == 4 else ()), 60)
        assert result.simulated >= result.iterations * playout.moves_left(playout.compact(match)) // 2
