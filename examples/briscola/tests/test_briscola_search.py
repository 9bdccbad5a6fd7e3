"""The search player's hooks (``cardcli_briscola.search``): the worlds a seat's view draws fit
everything the seat was told and nothing else, the search plays whole matches on them without
a world refused, and the playouts are cardcli's trick-taking rule with the partners."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardcli.cards import Card
from cardcli.games import registry
from cardcli.games.card_bits import INDEX, texts
from cardcli.games.dealing import shuffled
from cardcli.players.search.player import IsmctsPlayer, Settings as SearchSettings
from cardcli.players.search.playouts import TrickPolicy
from cardcli.players.search.view import Header
from cardcli.referee import Settings, play_match
from cardcli.seats.base import Seat
from cardcli.seating import builtin
from cardcli.seats.builtin import PlayerSeat

from briscola_scripts import new_match
from briscola_table import decisions, header
from cardcli_briscola import SPEC, BriscolaMatch
from cardcli_briscola.search import SEARCH, BriscolaView


def test_the_spec_names_the_hooks_and_the_search_player_loads_them() -> None:
    assert SPEC.search is not None and SPEC.search.load() is SEARCH
    assert registry.get("briscola").search is SPEC.search
    assert SEARCH.view is BriscolaView and SEARCH.rule_policy is not None


def unseen(match: BriscolaMatch, seat: int) -> set[int]:
    """The cards ``seat`` cannot see: the other hands, the stock still to draw (as card
    indices)."""
    cards = {i for s, h in enumerate(match.hand_masks) if s != seat for i in _indices(h)}
    return cards | set(match.stock[match.drawn:])


def _indices(mask: int) -> list[int]:
    return [INDEX[Card.parse(t)] for t in texts(mask)]


def check_world(world: BriscolaMatch, match: BriscolaMatch, seat: int) -> None:
    """A world agrees with the match on all that is public or the seat's own, and puts the
    unseen cards in places of the real sizes."""
    assert world.current_player() == seat
    assert world.hand_masks[seat] == match.hand_masks[seat], "the seat's own hand"
    assert world.decisions() == match.decisions()
    assert world.tricks.trick == match.tricks.trick and world.tricks.taken == match.tricks.taken
    assert (world.dealer, world.deal_number, world.side_totals) == (match.dealer, match.deal_number, match.side_totals)
    assert (world.briscola, world.drawn, world.stock[-1]) == (match.briscola, match.drawn, match.briscola)
    assert [bin(h).count("1") for h in world.hand_masks] == [bin(h).count("1") for h in match.hand_masks]
    assert unseen(world, seat) == unseen(match, seat), "the unseen cards are the same cards, placed anew"
    briscola_holder = next((s for s, h in enumerate(match.hand_masks) if h >> match.briscola & 1), None)
    if briscola_holder is not None and match.drawn == len(match.stock):
        assert world.hand_masks[briscola_holder] >> match.briscola & 1, "the briscola was seen drawn"


@pytest.mark.parametrize("players, options", [
    pytest.param(2, {}, id="2"),
    pytest.param(4, {}, id="4"),
    pytest.param(4, {"partners_see_hands": True, "direction": "cw"}, id="4-partners-see-cw"),
    pytest.param(2, {"target": 3, "tie_break": "last_trick"}, id="2-target-3"),
])
def test_every_world_fits_what_the_seat_was_told(players: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        followers = [IsmctsPlayer() for _ in range(players)]
        rng = random.Random(seed)
        checked = 0
        for match, seat in decisions(players, seed, followers, **options):
            view = followers[seat].view
            assert isinstance(view, BriscolaView)
            for _ in range(3):
                world = view.world(rng)
                assert isinstance(world, BriscolaMatch)
                check_world(world, match, seat)
                if options.get("partners_see_hands") and match.drawn == len(match.stock):
                    partner = (seat + 2) % 4
                    assert world.hand_masks[partner] == match.hand_masks[partner], "the partner's hand was shown"
            checked += 1
        assert checked >= 40 // players * 2, "a whole match, of two deals or more"
        for follower in followers:
            assert follower.failures == 0 and follower.view is not None and follower.view.refused == 0


def test_the_unseen_cards_are_spread_evenly_between_the_other_hand_and_the_stock() -> None:
    """Nothing a seat is told makes an unseen card likelier in the other hand than in the
    stock (no duty to follow suit shows a void), so each is there in about 3 worlds of the
    number unseen but the briscola, which lies under the stock until drawn."""
    follower = IsmctsPlayer()
    position = None
    for match, seat in decisions(2, 11, [follower, IsmctsPlayer()]):
        if seat == 0 and match.tricks.number == 5:
            position = match
            break
    assert position is not None and follower.view is not None
    rng = random.Random(0)
    counts: Counter[int] = Counter()
    worlds = 3000
    for _ in range(worlds):
        world = follower.view.world(rng)
        assert isinstance(world, BriscolaMatch)
        counts.update(_indices(world.hand_masks[1]))
    free = unseen(position, 0) - {position.briscola}
    assert set(counts) == free
    expected = worlds * 3 / len(free)
    assert all(0.75 * expected < counts[c] < 1.25 * expected for c in free), (expected, counts)


def test_the_header_names_the_view_the_search_builds() -> None:
    match = new_match(4)
    view = SEARCH.view(Header.parse([line.split() for line in header(match, 1, 5)]))
    assert isinstance(view, BriscolaView) and view.seat == 1 and view.partner == 3 and view.stock_size == 28


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_plays_whole_matches_without_a_refused_world(players: int) -> None:
    setup = registry.resolve("briscola", None, {"target": "1"}, players, 3)
    searchers = [IsmctsPlayer(SearchSettings.parse("iterations=20,worlds=10")) for _ in range(players // 2)]
    seats: list[Seat] = [
        PlayerSeat(f"ismcts{s}", searchers[s // 2]) if s % 2 == 0 else builtin("heuristic", f"heuristic{s}", s)
        for s in range(players)
    ]
    result = play_match(setup, seats, Settings(move_time=30))
    assert result.record["status"] == "complete" and not result.record["faults"]
    for searcher in searchers:
        assert searcher.failures == 0 and searcher.decisions >= 10
        assert searcher.view is not None and searcher.view.refused == 0


# -- the playouts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_the_rule_playouts_are_cardclis_trick_taking_rule_with_the_partners(players: int) -> None:
    policy = SEARCH.rule_policy(players) if SEARCH.rule_policy is not None else None
    assert isinstance(policy, TrickPolicy) and not policy.avoid
    assert policy.partners == ([2, 3, 0, 1] if players == 4 else None)
    for seed in range(20):
        match = new_match(players, dealer=0)
        match.deal(shuffled(seed, 0, SPEC.deck()))
        rng = random.Random(seed)
        while not (match.needs_deal() or match.is_over()):
            policy(match, rng)  # an illegal card would be refused
        assert match.deal_scores and sum(match.deal_scores[-1].points) in (0, players // 2)
