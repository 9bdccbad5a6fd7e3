"""Il Pigugnìn's compact playout (cardcli/plugins/pigugnin/playout.py) against the full engine.

The fast loop is a second implementation of the trick play, the busche and the end of the
match, so it is trusted only as far as it agrees with the engine. Each seeded case here draws
a seat count (4 or 5) and an option set (every option, each value reachable), drives the
engine at random through its text moves for a random number of moves (into the first deal,
the middle of a trick, a later deal), makes the state compact, plays a whole playout with a
seeded policy while recording its moves, and feeds those moves to the engine through its
normal API (``deal``, then ``apply`` card by card). The engine refuses any illegal move;
before each play its legal cards must equal the loop's; and the scores must agree: the deal's
busche for :func:`play_deal`, the final totals and the end of the match for
:func:`play_match`.

Size: 1,200 cases of :func:`play_deal` (about 1,150 deals: some cases land on a finished
match) and 400 of :func:`play_match` with low limits (about 1,900 deals), so about 3,000 deals
in all, plus 160 rigged deals that make a cappotto happen, and two short searches through the
loop; a few seconds on one core, most of it the engine's own moves (the cases are split in
blocks so that ``-n 2`` shares them out).
"""

from __future__ import annotations

import random

import attrs
import pytest

from cardcli.cards import french_40
from cardcli.games import registry
from cardcli.games.card_bits import DECK, INDEX, TEXTS, indices, texts
from cardcli.plugins.pigugnin import playout
from cardcli.plugins.pigugnin.rules import PigugninMatch, PigugninOptions
from cardcli.players.search.ismcts import deal_rewards

import playout_checks
from playout_checks import searched_twice

DEAL_CASES = 1200
MATCH_CASES = 400
DECK40 = french_40()


def drawn_options(rng: random.Random, players: int = 0) -> tuple[int, dict[str, str]]:
    """A seat count (``players`` if given) and a random set of options (as the command line
    gives them)."""
    players = players or rng.choice((4, 5))
    given = {
        "direction": rng.choice(("ccw", "cw")),
        "first_dealer": rng.choice(("random", *map(str, range(players)))),
        "first_hand_leader": rng.choice(("after_dealer", "seven_of_coins")),
        "first_trick_pigugnin_restriction": rng.choice(("true", "false")),
        "tie_scope": rng.choice(("all", "nonzero", "paying_only", "highest_only")),
        "cappotto_ends_match": rng.choice(("true", "false")),
        "boundary_tie": rng.choice(("shared_loss", "annul")),
        "winner_tie": rng.choice(("draw", "shared_win")),
    }
    return players, given


def new_match(players: int, given: dict[str, str], seed: int) -> PigugninMatch:
    match = registry.resolve("pigugnin", None, given, players, seed).new_match()
    assert isinstance(match, PigugninMatch)
    return match


def advance(match: PigugninMatch, seed: int, moves: int, rng: random.Random) -> None:
    playout_checks.advance(match, seed, moves, rng, DECK40)


def replay(match: PigugninMatch, trace: playout.Trace) -> None:
    """Feed the loop's moves to the engine through its normal API, checking each play's
    legal cards against the engine's."""
    for step in trace:
        if step[0] == "deal":
            match.deal([DECK[i] for i in step[1]])
        else:
            _, seat, card, legal = step
            assert match.current_player() == seat
            decision = match.decisions()[0]
            assert decision.moves == texts(legal), (TEXTS[card], texts(legal))
            match.apply(seat, TEXTS[card])


def policy_of(seed: int) -> str:
    return playout.GREEDY if seed % 3 == 0 else playout.RANDOM


@pytest.mark.parametrize("block", range(4))
def test_a_deal_played_by_the_loop_scores_as_the_engine_scores_it(block):
    for seed in range(block * DEAL_CASES // 4, (block + 1) * DEAL_CASES // 4):
        rng = random.Random(seed)
        players, given = drawn_options(rng)
        if seed % 4 == 0:
            given["lose_at"] = str(rng.randrange(1, 12))
        match = new_match(players, given, seed)
        advance(match, seed, rng.randrange(0, 4) if seed % 5 == 0 else rng.randrange(0, 100), rng)
        if match.is_over():
            continue
        state = playout.compact(match)
        held = sum(h.bit_count() for h in match.hand_masks)
        assert playout.moves_left(state) == (held if match.phase == "play" else 40)
        trace: playout.Trace = []
        busche = playout.play_deal(state, random.Random(seed), policy_of(seed), trace=trace)
        deals = match.deal_number
        replay(match, trace)
        assert match.needs_deal() or match.is_over()
        assert match.deal_number == max(deals, 1) or (deals and match.deal_number == deals + 1)
        assert busche == match.deal_scores[-1].points, (seed, players, given)


@pytest.mark.parametrize("block", range(3))
def test_a_match_played_by_the_loop_ends_as_the_engine_ends_it(block):
    for seed in range(10_000 + block * MATCH_CASES // 3, 10_000 + (block + 1) * MATCH_CASES // 3):
        rng = random.Random(seed)
        players, given = drawn_options(rng)
        lose_at = rng.randrange(2, 16)
        given["lose_at"] = str(lose_at)
        given["sole_loser_at"] = str(rng.randrange(1, 2 * lose_at + 4))
        match = new_match(players, given, seed)
        advance(match, seed, rng.randrange(0, 120), rng)
        state = playout.compact(match)
        trace: playout.Trace = []
        totals = playout.play_match(state, random.Random(seed), policy_of(seed), trace=trace, deal_limit=40)
        replay(match, trace)
        assert totals == tuple(match.totals), (seed, players, given)
        assert match.is_over() or (match.needs_deal() and match.deal_number == 40)


def rigged_deck(leader_cards: list[int], players: int, rng: random.Random) -> list[int]:
    """A 40-card deck (engine indices) dealing ``leader_cards`` to the first leader (one card
    at a time from the leader, as the engine deals), the rest at random."""
    rest = [INDEX[c] for c in DECK40 if INDEX[c] not in leader_cards]
    rng.shuffle(rest)
    mine = list(leader_cards)
    rng.shuffle(mine)
    others = iter(rest)
    return [mine[k // players] if k % players == 0 else next(others) for k in range(40)]


@pytest.mark.parametrize("players", [4, 5])
def test_a_cappotto_scores_and_ends_as_the_engine_says(players):
    """The leader holds only cards nobody can beat (the 3, 2 and ace of three suits and the 3
    of spades with four players, the 3 and 2 of each suit with five), so takes every trick:
    the others pay as trickless players, and the match ends or goes on as the option says."""
    top = ["3C", "2C", "3D", "2D", "3H", "2H", "3S", "2S"] if players == 5 else \
        ["3C", "2C", "AC", "3D", "2D", "AD", "3H", "2H", "AH", "3S"]
    leader_cards = [TEXTS.index(t) for t in top]
    for seed in range(80):
        rng = random.Random(seed)
        _, given = drawn_options(rng, players)
        given["first_hand_leader"] = "after_dealer"
        match = new_match(players, given, seed)
        dealer = match.dealer
        match.deal([DECK[i] for i in rigged_deck(leader_cards, players, rng)])
        leader = match.current_player()
        assert match.hand_masks[leader] == sum(1 << i for i in leader_cards) and match.dealer == dealer
        state = playout.compact(match)
        trace: playout.Trace = []
        if seed % 2:
            busche = playout.play_deal(state, random.Random(seed), policy_of(seed), trace=trace)
        else:
            totals = playout.play_match(state, random.Random(seed), policy_of(seed), trace=trace, deal_limit=3)
        replay(match, trace)
        assert match.deal_scores[0].notes[0] == f"cappotto {leader}"
        if seed % 2:
            assert busche == match.deal_scores[-1].points
        else:
            assert totals == tuple(match.totals)
            assert match.is_over() == (given["cappotto_ends_match"] == "true" or match.is_over())
            if given["cappotto_ends_match"] == "true":
                assert match.deal_number == 1 and match.outcome().winners == (leader,)


def test_an_option_the_loop_does_not_know_is_refused():
    @attrs.frozen
    class Newer(PigugninOptions):
        pigugnin_pays_double: bool = False

    with pytest.raises(playout.UnsupportedRules, match="pigugnin_pays_double"):
        playout.compact(PigugninMatch(Newer()))
    with pytest.raises(playout.UnsupportedRules, match="tie_scope"):
        playout.CompactRules.of(attrs.evolve(PigugninOptions(), tie_scope="lowest_only"), 4)
    with pytest.raises(playout.UnsupportedRules, match="seats"):
        playout.CompactRules.of(PigugninOptions(), 3)
    with pytest.raises(playout.UnsupportedRules, match="policy"):
        playout.play_deal(playout.compact(PigugninMatch(PigugninOptions())), random.Random(0), "clever")


def test_a_finished_match_has_no_deal_to_play_and_keeps_its_totals():
    match = new_match(4, {"lose_at": "1", "sole_loser_at": "1"}, 3)
    advance(match, 3, 10_000, random.Random(3))
    assert match.is_over()
    state = playout.compact(match)
    assert playout.play_match(state, random.Random(0)) == tuple(match.totals)
    with pytest.raises(playout.UnsupportedRules):
        playout.play_deal(state, random.Random(0))


def test_a_deal_limit_stops_the_match_between_deals():
    match = new_match(5, {"lose_at": "1000", "sole_loser_at": "1000", "cappotto_ends_match": "false"}, 5)
    trace: playout.Trace = []
    playout.play_match(playout.compact(match), random.Random(5), trace=trace, deal_limit=3)
    assert sum(1 for step in trace if step[0] == "deal") == 3


def test_the_compact_numbering_ranks_cards_as_the_engine_does():
    """Within a suit a higher compact number is a stronger card, and the numbering maps each
    of the 40 cards to itself and back."""
    from cardcli.plugins.pigugnin.rules import RANKING

    assert sorted(playout.ENGINE_INDEX) == sorted(INDEX[c] for c in DECK40)
    for c in range(39):
        if c % 10 != 9:
            assert RANKING.power[playout.ENGINE_INDEX[c]] < RANKING.power[playout.ENGINE_INDEX[c + 1]]
    hand = sum(1 << INDEX[c] for c in DECK40[::3])
    assert playout.engine_mask(playout.compact_mask(hand)) == hand


def test_the_greedy_choice_is_the_rule_policy_s():
    """With no randomness left (epsilon 0), the loop's greedy card is the one the search's
    move-by-move rule (PigugninPolicy) picks on the engine, or, where the rule takes the
    weakest card (a lead, a throw of a seat with no trick yet), one as weak. The cases reach
    every branch of the rule: seats with and without a trick, leading, following and void."""
    from cardcli.plugins.pigugnin.rules import CARD_ACTIONS, RANKING
    from cardcli.plugins.pigugnin.search import PigugninPolicy

    policy = PigugninPolicy(CARD_ACTIONS.index_of, avoid=True, epsilon=0.0)
    checked = {"lead": 0, "needy lead": 0, "follow": 0, "needy follow": 0, "void": 0, "needy void": 0}
    for seed in range(600):
        rng = random.Random(seed)
        players, given = drawn_options(rng)
        match = new_match(players, given, seed)
        if seed % 4 == 0:  # the first lead, the only one a seat with no trick makes
            match.deal(playout_checks.shuffled(seed, 0, DECK40))
        else:
            advance(match, seed, rng.randrange(1, 60), rng)
        if match.phase != "play":
            continue
        trace: playout.Trace = []
        playout.play_deal(playout.compact(match), random.Random(seed), playout.GREEDY, epsilon=0.0, trace=trace)
        step = next(s for s in trace if s[0] == "play")
        legal = indices(step[3])
        if len(legal) == 1:
            continue
        tricks = match.tricks
        expected = CARD_ACTIONS.index_of[policy.choose(match, random.Random(seed))]
        power = RANKING.power
        weakest = min(power[i] for i in legal)
        tied = power[step[2]] == power[expected] == weakest
        if not tricks.trick:
            kind = "lead"
        else:
            led = RANKING.suit_mask[tricks.trick[0][1]]
            kind = "follow" if all(RANKING.suit_mask[i] == led for i in legal) else "void"
        if not tricks.tricks_won[tricks.turn]:
            kind = "needy " + kind
        assert step[2] == expected or (tied and kind in ("lead", "needy lead", "needy void")), (
            seed, kind, TEXTS[step[2]], TEXTS[expected])
        checked[kind] += 1
    assert all(count >= 10 for count in checked.values()), checked


def test_the_search_finishes_its_pigugnin_playouts_in_the_loop_and_stays_deterministic():
    """The search player's playouts go through the loop (a WholePlayout for every kind), and a
    decision depends on the seed alone: the same seed, the same move and visits."""
    for players in (4, 5):
        match = new_match(players, {}, 7)
        advance(match, 7, 6, random.Random(7))
        assert match.phase == "play"
        result = searched_twice("pigugnin", match, players, deal_rewards(players, True, ()), 60)
        left = playout.moves_left(playout.compact(match))
        assert result.simulated >= result.iterations * (left - 1)


def test_an_ismcts_seat_plays_the_same_pigugnin_match_twice():
    from cardcli.referee import Settings, play_match
    from cardcli.seating import builtin

    records = []
    for _ in range(2):
        setup = registry.resolve("pigugnin", None, {}, 5, 11)
        seats = [builtin("ismcts:iterations=30,worlds=6", "i", 11),
                 *(builtin("heuristic", f"h{k}", 11) for k in range(4))]
        records.append(play_match(setup, seats, Settings(max_deals=1)).record)
        assert seats[0].player.failures == 0  # type: ignore[attr-defined]
    assert len(records[0]["deals"][0]["moves"]) == 40
    assert [m["move"] for m in records[0]["deals"][0]["moves"]] == [m["move"] for m in records[1]["deals"][0]["moves"]]
