"""Seep's compact playout (cardcli/plugins/seep/playout.py) against the full engine.

The fast loop plays the deal, the bid, the throws, the houses' cards, the seeps and the
scores on masks of its own, so it is trusted only as far as it agrees with the engine. Each
seeded case here draws a variant, a player count and an option set (every option the loop
plays, each value reachable), drives the engine at random through its text moves for a random
number of moves (into the bid, the opening, the middle of a deal, the second half of a
2-player deal, a later deal), makes the state compact, plays a whole playout with a seeded
policy while recording its moves, and feeds those moves to the engine through its normal API
(``deal``, then ``apply`` move by move). The engine refuses any illegal move; before each
play its legal moves (each with its whole effect) must be the loop's; and the scores must
agree: the deal's points for :func:`play_deal`, the final totals and the end of the baazi for
:func:`play_match`.

Size: 1,000 cases of :func:`play_deal` (a deal each, about 31,000 plays) and 150 of
:func:`play_match` with low targets (about 700 deals, 26,000 plays), so about 1,700 deals and
57,000 plays whose legal moves are compared, across 3 variants and 3 player counts, with a
third of the cases played by each policy; and a short search through the loop. About 6
seconds on one core, most of it the engine's own moves (the cases are split in blocks so that
``-n 2`` shares them out).
"""

from __future__ import annotations

import itertools
import random

import attrs
import pytest

from cardcli.games import registry
from cardcli.games.card_bits import DECK
from cardcli.games.dealing import shuffled
from cardcli.plugins.seep import playout
from cardcli.plugins.seep.effects import CEMENTED, LOOSE, MADE, OWNERS, REMOVED, VERB, Move, token
from cardcli.plugins.seep.floor import floor_groups
from cardcli.plugins.seep.rules import SeepMatch, SeepOptions
from cardcli.players.search.ismcts import deal_rewards

from playout_checks import searched_twice

DEAL_CASES = 1000
MATCH_CASES = 150
OPENINGS = ("build_bid_value,capture_with_bid_card,throw_bid_card", "capture_with_bid_card",
            "build_bid_value,throw_bid_card", "throw_bid_card", "build_bid_value")


def drawn_options(rng: random.Random) -> tuple[str, int, dict[str, str]]:
    """A variant, a player count and a random set of options over them (as the command line
    gives them); about half the cases keep every default but the variant's."""
    variant = rng.choice(("standard", "thirty", "no_cementing"))
    players = rng.choice((4, 2, 3))
    given = {"first_dealer": rng.choice(("random", "0", "1"))}
    if rng.random() < 0.5:
        return variant, players, given
    flags = ("reveal_floor_before_bid", "capture_must_be_maximal", "owner_may_throw", "last_key_capture_only",
             "opponent_cement_makes_coowner", "break_partner_house", "break_own_house", "min_includes_sweeps",
             "two_player_halves", "cementing")
    for name in flags:
        if rng.random() < 0.3:
            given[name] = rng.choice(("true", "false"))
    for name, choices in (("throw_rule", ("card_cannot_capture", "no_other_action")),
                          ("retention_scope", ("player", "team")),
                          ("dealer_rotation", ("ccw_each_hand", "pagat_score_based")),
                          ("majority_basis", ("spades", "cards")),
                          ("opening_allowed", OPENINGS),
                          ("max_houses", ("0", "1", "2")),
                          ("deal_packet", ("4", "2", "1")),
                          ("min_deal_points", ("0", "9", "20"))):
        if rng.random() < 0.3:
            given[name] = rng.choice(choices)
    if variant != "thirty" and rng.random() < 0.3:
        given["scoring"] = "casual_ten_two"
        given["sweep"] = str(rng.choice((50, 10)))
        given["sweep_first"] = str(rng.choice((25, 5)))
        given["sweep_last"] = str(rng.choice((0, 7)))
    return variant, players, given


def new_match(variant: str, players: int, given: dict[str, str], seed: int) -> SeepMatch:
    match = registry.resolve("seep", variant, given, players, seed).new_match()
    assert isinstance(match, SeepMatch)
    return match


def advance(match: SeepMatch, seed: int, moves: int, rng: random.Random) -> None:
    """Up to ``moves`` random text moves (dealing as the referee does, a deal due first
    included, so that 0 moves stop at a bid); stops at the end."""
    while not match.is_over():
        if match.needs_deal():
            match.deal(shuffled(seed, match.deal_number, DECK))
            continue
        if moves <= 0:
            return
        decision = rng.choice(match.decisions())
        match.apply(decision.seat, rng.choice(decision.moves))
        moves -= 1


def effect_of(move: Move) -> tuple[object, ...]:
    """A move as what it does: the card, the verb, the loose cards moved, the houses removed,
    the house made (cemented, owners); the same whatever the grouping in its token."""
    card, effect = move
    owners = effect[OWNERS]
    return (card, effect[VERB], effect[LOOSE], tuple(sorted(effect[REMOVED])), effect[MADE], effect[CEMENTED],
            None if owners is None else tuple(sorted(owners)))


def replay(match: SeepMatch, trace: playout.Trace) -> None:
    """Feed the loop's moves to the engine through its normal API, checking each play's
    legal moves against the engine's."""
    for step in trace:
        if step[0] == "deal":
            match.deal([DECK[i] for i in step[1]])
        elif step[0] == "bid":
            _, seat, bid, bids = step
            (decision,) = match.decisions()
            assert decision.seat == seat and decision.moves == tuple(map(str, bids))
            match.apply(seat, str(bid))
        else:
            _, seat, move, legal, drawn = step
            assert match.current_player() == seat
            engine = match._listed()
            mine = sorted(map(effect_of, legal), key=repr)
            theirs = sorted(map(effect_of, engine), key=repr)
            assert mine == theirs, (seat, effect_of(move))
            if drawn:  # the card policy's moves of the card drawn: the engine's apply_random_card's
                card = drawn[0][0]
                assert sorted(map(effect_of, drawn), key=repr) == sorted(
                    map(effect_of, match._turn().card_moves(card)), key=repr)
            (played,) = [m for m in engine if effect_of(m) == effect_of(move)]
            match.apply(seat, token(played))


def policy_of(seed: int) -> str:
    return playout.POLICIES[seed % 3]


@pytest.mark.parametrize("block", range(4))
def test_a_deal_played_by_the_loop_scores_as_the_engine_scores_it(block):
    plays = 0
    for seed in range(block * DEAL_CASES // 4, (block + 1) * DEAL_CASES // 4):
        rng = random.Random(seed)
        variant, players, given = drawn_options(rng)
        match = new_match(variant, players, given, seed)
        if seed % 10:
            advance(match, seed, rng.randrange(0, 3) if seed % 5 == 0 else rng.randrange(0, 60), rng)
        if match.is_over():
            continue
        state = playout.compact(match)
        left = playout.moves_left(state)
        trace: playout.Trace = []
        points = playout.play_deal(state, random.Random(seed), policy_of(seed), trace=trace)
        deals = match.deal_number
        replay(match, trace)
        assert match.needs_deal() or match.is_over()
        assert match.deal_number == max(deals, 1) or (deals and match.deal_number == deals + 1)
        assert points == match.deal_scores[-1].points, (seed, variant, players, given)
        if state.phase != playout.PHASE_DEAL:
            assert left == sum(1 for step in trace if step[0] != "deal"), (seed, variant, players, given)
        plays += sum(1 for step in trace if step[0] == "play")
    assert plays > 5_000  # about 7,800 a block: the cases do reach the plays


@pytest.mark.parametrize("block", range(2))
def test_a_match_played_by_the_loop_ends_as_the_engine_ends_it(block):
    for seed in range(10_000 + block * MATCH_CASES // 2, 10_000 + (block + 1) * MATCH_CASES // 2):
        rng = random.Random(seed)
        variant, players, given = drawn_options(rng)
        given["baazi_target"] = str(rng.randrange(10, 120))
        match = new_match(variant, players, given, seed)
        advance(match, seed, rng.randrange(0, 60), rng)
        state = playout.compact(match)
        trace: playout.Trace = []
        totals = playout.play_match(state, random.Random(seed), policy_of(seed), trace=trace, deal_limit=12)
        replay(match, trace)
        assert totals == match.seat_totals(), (seed, variant, players, given)
        assert match.is_over() or (match.needs_deal() and match.deal_number == 12)


def test_a_playout_untraced_plays_what_the_traced_one_plays():
    """Untraced, the loop counts the throws and the moves of each value and draws one by its
    number, without listing them; traced, it lists them. The same draws must pick the same
    moves, so the checked playouts above speak for the fast ones too: the same points."""
    for seed in range(60):
        rng = random.Random(seed)
        variant, players, given = drawn_options(rng)
        match = new_match(variant, players, given, seed)
        advance(match, seed, rng.randrange(0, 40), rng)
        if match.is_over():
            continue
        state = playout.compact(match)
        for policy in playout.POLICIES:
            traced = playout.play_deal(state, random.Random(seed), policy, trace=[])
            assert playout.play_deal(state, random.Random(seed), policy) == traced, (seed, policy)


def test_the_groups_of_a_floor_of_up_to_three_cards_are_the_walk_s():
    """The loop finds the groups of the smallest floors without :func:`floor_groups`'s walk;
    they must be the same groups in the same order, as the order of the moves, and so the
    move a random draw picks, follows them."""
    for size in (0, 1, 2, 3):
        for cards in itertools.combinations(range(52), size):
            floor = sum(1 << card for card in cards)
            assert list(map(list, playout._small_groups(floor))) == list(map(list, floor_groups(cards))), cards


def test_an_option_the_loop_does_not_know_is_refused():
    @attrs.frozen
    class Newer(SeepOptions):
        jokers_wild: bool = False

    with pytest.raises(playout.UnsupportedRules, match="jokers_wild"):
        playout.compact(SeepMatch(Newer()))
    feasible = SeepOptions(reveal_floor_before_bid=True, bid_requires_floor_feasibility=True)
    with pytest.raises(playout.UnsupportedRules, match="feasible"):
        playout.compact(SeepMatch(feasible))
    with pytest.raises(playout.UnsupportedRules, match="policy"):
        playout.play_deal(playout.compact(SeepMatch(SeepOptions())), random.Random(0), "clever")


def test_a_finished_match_has_no_deal_to_play_and_keeps_its_totals():
    match = new_match("standard", 2, {"baazi_target": "1"}, 3)
    advance(match, 3, 10_000, random.Random(3))
    assert match.is_over()
    state = playout.compact(match)
    assert playout.play_match(state, random.Random(0)) == match.seat_totals()
    with pytest.raises(playout.UnsupportedRules):
        playout.play_deal(state, random.Random(0))


def test_a_deal_limit_stops_the_match_between_deals():
    match = new_match("standard", 4, {"baazi_target": "10000", "min_deal_points": "0"}, 5)
    trace: playout.Trace = []
    playout.play_match(playout.compact(match), random.Random(5), trace=trace, deal_limit=3)
    assert sum(1 for step in trace if step[0] == "deal") == 3


def test_the_greedy_playout_takes_points_when_it_can():
    """With no randomness left (epsilon 0), a greedy seat never throws a card while a capture
    of points is open to it, and always plays a capture that takes the most points."""
    worth = playout.CompactRules.of(SeepOptions(), 4).worth
    checked = 0
    for seed in range(40):
        match = new_match("standard", 4, {}, seed)
        match.deal(shuffled(seed, 0, DECK))
        trace: playout.Trace = []
        playout.play_deal(playout.compact(match), random.Random(seed), playout.GREEDY, epsilon=0.0, trace=trace)
        for step in trace:
            if step[0] != "play":
                continue
            _, _, move, legal, _ = step
            takes = [m for m in legal if m[1][VERB] == "take" and not m[1][REMOVED]]
            best = max((worth[card] + sum(worth[i] for i in range(52) if effect[LOOSE] >> i & 1)
                        for card, effect in takes), default=0)
            if best > 0:
                assert move[1][VERB] != "throw", effect_of(move)
                checked += 1
    assert checked > 200
def test_the_search_finishes_its_seep_playouts_in_the_loop_and_stays_deterministic():
    """The search player's playouts go through the loop (a WholePlayout), and a decision
    depends on the seed alone: the same seed, the same move and visits."""
    match = new_match("standard", 4, {}, 7)
    advance(match, 7, 6, random.Random(7))
    assert match.phase == "play"
    result = searched_twice("seep", match, 4, deal_rewards(4, False, ((0, 2), (1, 3))), 40)
    left = playout.moves_left(playout.compact(match))
    assert result.simulated >= result.iterations * (left - 1)
