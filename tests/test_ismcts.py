"""The ``ismcts`` player: it knows only what its seat is told, its worlds never contradict what
the seat saw, it is deterministic with an iteration budget, and its parameters are checked."""

from __future__ import annotations

import random
from typing import Sequence

import pytest

from cardcli.games import driver
from cardcli.cards import Card
from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.games.notation import spent_card
from cardcli.players.search.ismcts import Budget, DealRewards, Tree, deal_rewards, moves_of, search
from cardcli.players.search.player import IsmctsPlayer, Settings
from cardcli.players.search.hooks import policy_for
from cardcli.players.search.worlds import ImpossibleView, Slot, allocate
from cardcli.referee import Settings as MatchSettings
from cardcli.referee import play_match
from cardcli.seats.base import Request
from cardcli.seating import builtin
from cardcli.seats.builtin import InProcessSeat, PlayerSeat

from conftest import run_cli

SMALL = "iterations=24,worlds=6"

EVERY_COUNT = [(spec.name, n) for spec in registry.GAMES.values() for n in spec.player_counts]


class CheckingPlayer(IsmctsPlayer):
    """An ismcts player that, at every request, draws worlds and checks each against what its
    seat was told: the same legal moves, and the same lines since the deal began."""

    def __init__(self, worlds_per_request: int = 3, params: str = SMALL) -> None:
        super().__init__(Settings.parse(params))
        self.deal_lines: list[str] = []
        self.checked = 0
        self.per_request = worlds_per_request

    def notify(self, lines: Sequence[str]) -> None:
        for line in lines:
            if line.startswith("deal "):
                self.deal_lines = []
            if self.view is not None:
                self.deal_lines.append(line)
        super().notify(lines)

    def choose(self, request: Request) -> str:
        view = self.view
        assert view is not None, "the view was lost"
        rng = random.Random(self.checked)
        for _ in range(self.per_request):
            dealt = view.deal_unseen(rng)
            assert view.layout is not None and view.start is not None
            state = view.start.clone()
            events = state.deal(view.layout.deck(dealt))
            for seat, token in view.replay(dealt):
                events += state.apply(seat, token)
            seen = [e.line() for e in events if e.visible_to(view.seat)]
            assert seen == self.deal_lines, "a world tells the seat other lines than it was told"
            assert moves_of(state, view.seat) == request.moves, "a world offers the seat other moves"
            self.checked += 1
        return super().choose(request)


@pytest.mark.parametrize("game,players", EVERY_COUNT)
def test_every_world_fits_what_the_seat_was_told(game: str, players: int) -> None:
    setup = registry.resolve(game, None, {}, players, 11)
    player = CheckingPlayer()
    seats = [builtin("heuristic", f"h{i}", 11) for i in range(players)]
    seats[1] = PlayerSeat("ismcts", player)
    result = play_match(setup, seats, MatchSettings(max_deals=2))
    assert result.completed and not result.faults
    assert player.failures == 0 and player.view is not None, "the view stopped fitting the match"
    assert player.checked >= 3 * 4


INTERNATIONAL = {"card_values": "international", "pass_cycle": "left,right,across,hold",
                 "two_of_clubs_leads": "true", "no_points_first_trick": "true",
                 "hearts_must_be_broken": "true", "queen_breaks_hearts": "true"}
"""Peppa as international Hearts (docs/rules/peppa.md, 2.4): the optional rules on leading
hearts and on the first trick, whose plays say more of a hand than voids do."""


@pytest.mark.parametrize("leads", ["true", "false"])
def test_every_world_fits_under_peppa_s_rules_on_hearts_and_the_first_trick(leads: str) -> None:
    setup = registry.resolve("peppa", None, {**INTERNATIONAL, "two_of_clubs_leads": leads}, 4, 11)
    player = CheckingPlayer(worlds_per_request=2)
    seats = [builtin("heuristic", f"h{i}", 11) for i in range(4)]
    seats[1] = PlayerSeat("ismcts", player)
    result = play_match(setup, seats, MatchSettings(max_deals=3))
    assert result.completed and not result.faults
    assert player.failures == 0 and player.checked >= 3 * 3 * 4


DEAL_1104 = [
    "2C+7C+AS KC KD TS 9S 9D 5C 3H 2H KS QC TC 4C 3C",
    "QH+KH+AH 2C 6D 8S 7S QD 7C 4H AS 6S 5D 3S 2D 2S",
    "TH+JH+QS JC 8D 4S JD AD 9C AH KH QH 9H 8H 7H 5H",
    "TC+9D+KS AC 7D 5S JS TD 8C JH TH 6H QS 4D 3D 6C",
]
"""Deal 1104 of international Hearts, each seat's moves as an outside Hearts program and a
search seat played them: seat 2, left with only hearts, leads A♥ at trick 7 before hearts are
broken."""


class CheckingReplayer(CheckingPlayer):
    """Checks its worlds and searches at every request, as :class:`CheckingPlayer` does, then
    plays the recorded move, so that the deal goes as it went."""

    def __init__(self, moves: list[str]) -> None:
        super().__init__(worlds_per_request=4)
        self.script = list(moves)

    def choose(self, request: Request) -> str:
        super().choose(request)
        return self.script.pop(0)


def _check_worlds_of_deal(options: dict[str, str], seed: int, deal: list[str]) -> None:
    """Play Peppa's ``deal`` as recorded, seat 1 checking its worlds and searching at every
    decision: the deal must go as it went, and every world fit."""
    player = CheckingReplayer(deal[1].split())
    seats: list[InProcessSeat] = [Replaying(moves.split()) for moves in deal]
    seats[1] = PlayerSeat("ismcts", player)
    result = play_match(registry.resolve("peppa", None, options, 4, seed), seats, MatchSettings(max_deals=1))
    assert [_seat_moves(result.record, s) for s in range(4)] == [m.split() for m in deal]
    assert player.failures == 0 and player.checked >= 4 * 10


def test_a_heart_led_before_hearts_are_broken_says_its_leader_holds_only_hearts() -> None:
    """Worlds that give the leader anything but hearts make its lead illegal: drawn at random
    they are almost all of them, and the search once found none that fitted and lost its view."""
    _check_worlds_of_deal(INTERNATIONAL, 1104, DEAL_1104)


DEAL_46 = [
    "TC+JC+8H 3S 8C TD 7D AS 4S AH 7C JH 6S 8S 9S KS",
    "KC+AC+TH JS QC QD 5D TS 5S 2H JC 7H 9H 8H TC 9D",
    "QH+KH+QS 7S AC 2D AD 2S TH 5H 9C KC JD 8D 4D 3C",
    "JH+AH+KS QS 2C KD 3D KH QH 4H 6C 6H 3H 6D 5C 4C",
]
"""Deal 46 of international Hearts with a free first lead, as heuristic seats played it: seat
0 leads 3♠ to the first trick and seat 3 follows with Q♠, which the rule on the first trick
allows only as its last spade."""


def test_q_spades_following_the_first_trick_was_its_player_s_last_spade() -> None:
    _check_worlds_of_deal({**INTERNATIONAL, "two_of_clubs_leads": "false"}, 46, DEAL_46)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seep_bidder_that_opened_with_a_house_held_its_key_among_its_first_four(seat: int) -> None:
    """Seat 2 bids 11 and opens by building 11 with its jack, so another card worth 11 was
    among its first four cards, although it played that card only among its later ones; late
    in the deal a world must still deal it that way (it once failed to, and the view was lost)."""
    setup = registry.resolve("seep", None, {}, 4, 1021)
    player = CheckingPlayer(worlds_per_request=2)
    seats = [builtin("heuristic", f"s{i}", f"1021/{i}") for i in range(4)]
    seats[seat] = PlayerSeat("ismcts", player)
    result = play_match(setup, seats, MatchSettings(max_deals=1))
    assert result.record["deals"][0]["moves"][1]["move"] == "build:11:JC,2D+9S"
    assert result.completed and player.failures == 0 and player.checked >= 20


@pytest.mark.parametrize("game", ["seep", "pepper"])
def test_a_partner_in_the_search_plays_for_the_seat_s_side(game: str) -> None:
    """The tree scores each move for the seat that made it (max-n). In the partnership games
    a partner's reward is the seat's own, on every deal the engine scores and with any weight
    on the opponents' points, so the partner's moves in the tree are chosen for the side: the
    search models it as cooperating, and the opponents as playing against both."""
    setup = registry.resolve(game, None, {}, 4, 11)
    teams = setup.spec.teams(4)
    assert sorted(map(sorted, teams)) == [[0, 2], [1, 3]]
    record = play_match(setup, [builtin("heuristic", f"h{i}", 11) for i in range(4)],
                        MatchSettings(max_deals=4)).record
    assert len(record["deals"]) >= 2
    for relative in (0.0, 0.5, 1.0):
        rewards = DealRewards(4, setup.spec.lower_is_better, teams, relative)
        for deal in record["deals"]:
            scores = rewards.of_points(deal["points"])
            assert scores[0] == scores[2] and scores[1] == scores[3], deal["points"]
        mine, theirs = rewards.of_points([10, 0, 10, 0]), rewards.of_points([0, 10, 0, 10])
        assert mine[0] > theirs[0] and mine[1] < theirs[1]


def test_worlds_weighed_by_pepper_bids_still_fit_and_favour_the_bidder() -> None:
    """Weighing Pepper's worlds by the bids keeps every world true to the seat's lines, and
    gives a seat that bid more the stronger hands the bid speaks of."""
    from cardcli.plugins.pepper.rules import BIDS
    from cardcli.plugins.pepper.bids import BidModel

    class Measuring(CheckingPlayer):
        def __init__(self) -> None:
            # the seat bids as the heuristic does, so that the auctions measured are the
            # heuristic seats' (a searched bid outbids them, leaving few to measure)
            super().__init__(params=SMALL + ",bids=0.35,delegate=bid")
            self.gains: list[float] = []

        def choose(self, request: Request) -> str:
            view = self.view
            bids = [(s, t) for s, t in getattr(view, "moves", []) if t in BIDS and t != "pass"]
            if request.kind == "play" and bids and bids[-1][0] != view.seat and not view.played[view.seat]:
                bidder, model = bids[-1][0], BidModel(view.n, view.hand_size, {}, 0.35)
                mean = {}
                for weight in (1.0, 0.35):
                    view.bid_weight = weight
                    rng = random.Random(7)
                    mean[weight] = sum(model.tricks(bidder, view.deal_unseen(rng)[bidder]) for _ in range(60)) / 60
                view.bid_weight = 0.35
                self.gains.append(mean[0.35] - mean[1.0])
            return super().choose(request)

    gains: list[float] = []
    for seed in (21, 22):
        player = Measuring()
        seats = [builtin("heuristic", f"h{i}", seed) for i in range(3)]
        seats[1] = PlayerSeat("ismcts", player)
        result = play_match(registry.resolve("pepper", None, {}, 3, seed), seats, MatchSettings(max_deals=16))
        assert result.completed and player.failures == 0
        gains += player.gains
    assert len(gains) >= 4 and sum(gains) / len(gains) > 0.2, gains


def _seat_moves(record: dict, seat: int) -> list[str]:
    return [m["move"] for m in record["deals"][0]["moves"] if m["seat"] == seat]


class Replaying(InProcessSeat):
    """Plays a recorded seat's moves in order, then (or when one is not legal) the first."""

    def __init__(self, moves: list[str]):
        self.script = list(moves)
        super().__init__("replaying", self._next)

    def _next(self, request: Request) -> str:
        move = self.script.pop(0) if self.script else request.moves[0]
        return move if move in request.moves else request.moves[0]


def _swap_for(game: str, record: dict, cut: int, seat: int, deck: list[Card], players: int) -> list[Card]:
    """The deck with two cards of two other seats exchanged, both still unplayed at move
    ``cut`` and alike for every rule that past moves depended on (the same suit, or in Seep the
    same value): a world the seat cannot tell from the first one."""
    deal = record["deals"][0]
    spent = {spent_card(m["move"]) for m in deal["moves"][:cut]}
    passed = {t for m in deal["moves"] if m["kind"] == "pass" for t in m["move"].split("+")}
    owner = {t: s for s, hand in enumerate(deal["hands"]) for t in hand}

    def alike(card: Card) -> object:
        return card.rank if game == "seep" else card.suit

    candidates = [
        c for c in deck if owner.get(c.text, seat) != seat and c.text not in spent and c.text not in passed
        and not (game == "pepper" and c.rank == 11)
    ]
    for x in candidates:
        for y in candidates:
            if owner[x.text] < owner[y.text] and alike(x) == alike(y) and x is not y:
                swapped = list(deck)
                i, j = swapped.index(x), swapped.index(y)
                swapped[i], swapped[j] = y, x
                return swapped
    raise AssertionError("no two cards to exchange")


@pytest.mark.parametrize("game,players,seed", [("peppa", 4, 5), ("seep", 4, 3), ("pigugnin", 4, 5), ("pepper", 3, 5)])
def test_decisions_do_not_change_when_hidden_cards_are_scrambled(game: str, players: int, seed: int, monkeypatch) -> None:
    setup = registry.resolve(game, None, {}, players, seed)
    others = [builtin("heuristic", f"h{i}", seed) for i in range(1, players)]
    first = play_match(setup, [builtin(f"ismcts:{SMALL}", "i", seed), *others], MatchSettings(max_deals=1))
    moves = first.record["deals"][0]["moves"]
    assert "void" not in first.record["deals"][0]["notes"]
    mine = [i for i, m in enumerate(moves) if m["seat"] == 0 and m["kind"] == "play"]
    cut = mine[min(3, len(mine) - 1)]
    deck = list(shuffled(seed, 0, setup.spec.deck()))
    scrambled = _swap_for(game, first.record, cut, 0, deck, players)
    assert scrambled != deck
    monkeypatch.setattr(driver, "shuffled", lambda s, index, cards: scrambled if index == 0 else shuffled(s, index, cards))
    replaying = [Replaying(_seat_moves(first.record, s)) for s in range(1, players)]
    second = play_match(setup, [builtin(f"ismcts:{SMALL}", "i", seed), *replaying], MatchSettings(max_deals=1))
    assert second.record["deals"][0]["hands"] != first.record["deals"][0]["hands"]
    decided = sum(1 for m in moves[: cut + 1] if m["seat"] == 0)
    assert _seat_moves(second.record, 0)[:decided] == _seat_moves(first.record, 0)[:decided]
    assert second.record["deals"][0]["moves"][:cut] == first.record["deals"][0]["moves"][:cut]


def test_an_iteration_budget_gives_the_same_moves_every_time() -> None:
    setup = registry.resolve("pigugnin", None, {}, 4, 8)

    def moves() -> list:
        seats = [builtin(f"ismcts:{SMALL}", "i", 8), *(builtin("heuristic", "h", 8) for _ in range(3))]
        return play_match(setup, seats, MatchSettings(max_deals=2)).record["deals"]

    assert [d["moves"] for d in moves()] == [d["moves"] for d in moves()]


def _first_seep_play() -> tuple[object, int, tuple[str, ...]]:
    """A 4-player Seep deal at its first play after the opening: 47 moves left in the deal."""
    setup = registry.resolve("seep", None, {}, 4, 5)
    state = setup.new_match()
    state.deal(shuffled(5, 0, setup.spec.deck()))
    while state.phase != "play":
        decision = state.decisions()[0]
        state.apply(decision.seat, decision.moves[0])
    decision = state.decisions()[0]
    return state, decision.seat, decision.moves


def test_a_move_cap_stops_the_search_before_its_iterations() -> None:
    state, seat, moves = _first_seep_play()
    rewards = deal_rewards(4, False, ((0, 2), (1, 3)))
    capped = search(lambda rng: state.clone(), seat, moves, rewards, Budget(iterations=1000, moves=600),
                    random.Random(1))
    assert 600 <= capped.simulated < 600 + 48
    assert capped.iterations < 20
    free = search(lambda rng: state.clone(), seat, moves, rewards, Budget(iterations=20), random.Random(1))
    assert free.iterations == 20 and free.simulated > 600


def test_the_search_stops_early_only_when_no_iteration_left_could_change_the_move() -> None:
    stopped = 0
    for seed in range(6):
        state, seat, moves = _first_seep_play()
        rewards = deal_rewards(4, False, ((0, 2), (1, 3)))
        result = search(lambda rng: state.clone(), seat, moves, rewards, Budget(iterations=300), random.Random(seed))
        counts = sorted(result.visits.values(), reverse=True)
        assert sum(counts) == result.iterations <= 300
        assert result.visits[result.move] == counts[0]
        if result.iterations < 300:
            stopped += 1
            assert counts[0] - counts[1] > 300 - result.iterations
    assert stopped, "no search ever stopped early"


def test_card_first_playouts_finish_seep_deals_with_legal_moves_from_the_seat_spec() -> None:
    """``playout=card`` (Seep's card-first random moves, each one of the legal moves: the
    generator tests check that) reaches every playout's end, and its seat plays a whole deal."""
    state, seat, moves = _first_seep_play()
    rewards = deal_rewards(4, False, ((0, 2), (1, 3)))
    result = search(lambda rng: state.clone(), seat, moves, rewards, Budget(iterations=20), random.Random(2),
                    policy_for(registry.get("seep").search.load(), 4, "card"))
    assert result.iterations == 20 and result.move in moves and result.simulated >= 20 * 40
    setup = registry.resolve("seep", None, {}, 4, 6)
    seats = [builtin("ismcts:iterations=20,playout=card", "i", 6), *(builtin("heuristic", "h", 6) for _ in range(3))]
    record = play_match(setup, seats, MatchSettings(max_deals=1)).record
    assert len(record["deals"]) == 1 and record["deals"][0]["points"]
    assert seats[0].player.failures == 0


def test_the_default_budget_is_processor_time_under_a_ceiling_and_a_named_budget_is_kept(monkeypatch) -> None:
    """With no budget named, a decision thinks for half a second of processor time, under a
    ceiling of 950 ms, in every game; iterations or a time named in the seat spec are searched
    as asked."""
    from cardcli.players.search import player as player_module

    budgets: list[Budget] = []
    real = player_module.search

    def spy(world, seat, moves, rewards, budget, rng, policy, tree):  # type: ignore[no-untyped-def]
        budgets.append(budget)
        return real(world, seat, moves, rewards, Budget(iterations=2), rng, policy, tree)

    monkeypatch.setattr(player_module, "search", spy)
    for game, players, spec, expected in (
        ("seep", 2, "ismcts", (None, None, 500, 950, None)),
        ("pigugnin", 4, "ismcts", (None, None, 500, 950, None)),
        ("peppa", 4, "ismcts:worlds=20", (None, None, 500, 950, None)),
        ("seep", 2, "ismcts:iterations=200", (200, None, None, None, None)),
        ("seep", 2, "ismcts:ms=300", (None, 300, None, None, None)),
        ("seep", 2, "ismcts:moves=900", (None, None, 500, 950, 900)),
        ("seep", 2, "ismcts:cpu=300", (None, None, 300, None, None)),
        ("seep", 2, "ismcts:ceiling=700", (None, None, 500, 700, None)),
        ("seep", 2, "ismcts:iterations=400,ceiling=700", (400, None, None, 700, None)),
    ):
        budgets.clear()
        setup = registry.resolve(game, None, {}, players, 3)
        seats = [builtin(spec, "i", 3), *(builtin("heuristic", "h", 3) for _ in range(players - 1))]
        play_match(setup, seats, MatchSettings(max_deals=1))
        assert budgets
        found = {(b.iterations, b.millis, b.cpu_millis, b.ceiling_millis, b.moves) for b in budgets}
        assert found == {expected}, spec


def test_pepper_searches_its_bids_one_move_deep_and_the_seat_spec_chooses_otherwise(monkeypatch) -> None:
    """Pepper's bids are the search's own, searched one move deep (the tree stops at the root's
    moves), its other decisions in the whole tree; ``flat=`` and ``delegate=`` choose
    otherwise, and a bid left to the heuristic is not searched at all."""
    from cardcli.players.search import player as player_module

    depths: dict[str, set[int]] = {}
    real = player_module.search

    def spy(world, seat, moves, rewards, budget, rng, policy, tree):  # type: ignore[no-untyped-def]
        kind = "bid" if "pass" in moves or all(m.isdigit() for m in moves) else "other"
        depths.setdefault(kind, set()).add(budget.depth)
        return real(world, seat, moves, rewards, Budget(iterations=4), rng, policy, tree)

    monkeypatch.setattr(player_module, "search", spy)
    for spec, expected in (
        ("ismcts:iterations=4", {"bid": {1}, "other": {0}}),
        ("ismcts:iterations=4,flat=none", {"bid": {0}, "other": {0}}),
        ("ismcts:iterations=4,flat=bid+trump+play", {"bid": {1}, "other": {1}}),
        ("ismcts:iterations=4,delegate=bid", {"other": {0}}),
    ):
        depths.clear()
        for seed in (3, 4, 5):
            setup = registry.resolve("pepper", None, {}, 3, seed)
            seats = [builtin(spec, "i", seed), *(builtin("heuristic", "h", seed) for _ in range(2))]
            play_match(setup, seats, MatchSettings(max_deals=2))
        assert depths == expected, spec
    assert Settings.parse("flat=bid+trump").flat == frozenset({"bid", "trump"})
    assert Settings.parse("flat=none").flat == frozenset() and Settings.parse("").flat is None


def test_the_processor_time_ceiling_stops_a_long_search() -> None:
    state, seat, moves = _first_seep_play()
    rewards = deal_rewards(4, False, ((0, 2), (1, 3)))
    result = search(lambda rng: state.clone(), seat, moves, rewards, Budget(iterations=100_000, ceiling_millis=50),
                    random.Random(1))
    assert 1 <= result.iterations < 100_000


def test_a_processor_time_budget_searches_until_its_time_is_spent() -> None:
    """Half a second's worth of Seep iterations in 60 ms would be absurd: the budget ends the
    search, not an iteration count (the rules themselves, on a clock of the test's own, are in
    tests/test_search_time.py)."""
    state, seat, moves = _first_seep_play()
    rewards = deal_rewards(4, False, ((0, 2), (1, 3)))
    result = search(lambda rng: state.clone(), seat, moves, rewards, Budget(cpu_millis=60), random.Random(1))
    assert result.iterations > 1
    assert result.cpu_millis >= 60 or sorted(result.visits.values())[-1] > sorted(result.visits.values())[-2]
    assert result.cpu_millis < 60 + 500


def test_determinized_search_keeps_a_tree_per_world_and_is_one_search_in_one_world() -> None:
    """With one world, one tree per world is the information-set tree: the same move, visits
    and iterations. With several, the trees differ, and every iteration still counts once."""
    state, seat, moves = _first_seep_play()
    rewards = deal_rewards(4, False, ((0, 2), (1, 3)))
    policy = policy_for(registry.GAMES["seep"].search.load(), 4, "random")  # type: ignore[union-attr]
    for worlds, same in ((1, True), (8, False)):
        found = [search(lambda rng: state.clone(), seat, moves, rewards, Budget(iterations=120, worlds=worlds),
                        random.Random(4), policy, tree) for tree in Tree]
        if same:
            assert found[0] == found[1]
        else:
            assert found[0].visits != found[1].visits
        for result in found:
            assert sum(result.visits.values()) == result.iterations


def test_the_determinized_and_stepwise_players_play_whole_matches(monkeypatch) -> None:
    """``tree=pimc`` and ``stepwise=1`` (no whole-playout loop: the playouts go move by move)
    finish a match in every trick game and Seep, each deterministic at an iteration budget."""
    from cardcli.players.search import playouts

    whole_calls = 0
    real = playouts.WholePlayout.__init__

    def counted(self, step, finish):  # type: ignore[no-untyped-def]
        def finish_counted(state, rng):  # type: ignore[no-untyped-def]
            nonlocal whole_calls
            whole_calls += 1
            return finish(state, rng)
        real(self, step, finish_counted)

    monkeypatch.setattr(playouts.WholePlayout, "__init__", counted)
    for game, players in (("peppa", 4), ("seep", 2), ("pepper", 3), ("pigugnin", 4)):
        for spec, whole in ((f"ismcts:{SMALL},tree=pimc", True), (f"ismcts:{SMALL},stepwise=1", False)):
            whole_calls = 0
            runs = []
            for _ in range(2):
                setup = registry.resolve(game, None, {}, players, 7)
                seats = [builtin(spec, "i", 7), *(builtin("heuristic", "h", 7) for _ in range(players - 1))]
                runs.append(play_match(setup, seats, MatchSettings(max_deals=1)).record["deals"])
            assert runs[0] == runs[1], spec
            assert (whole_calls > 0) == whole, spec


def test_worlds_respect_voids_even_when_they_leave_one_way() -> None:
    cards = [Card.parse(t) for t in ("2H", "3H", "4H", "5S", "6S", "7S")]
    slots = [Slot("a", 3, frozenset({"S"})), Slot("b", 3, frozenset({"H"}))]
    for seed in range(50):
        dealt = allocate(cards, slots, lambda c: c.suit, random.Random(seed))
        assert {c.suit for c in dealt["a"]} == {"H"} and {c.suit for c in dealt["b"]} == {"S"}


def test_random_constrained_worlds_always_fill_every_place() -> None:
    deck = [Card(rank, suit) for suit in "CDHS" for rank in range(2, 15)]
    rng = random.Random(3)
    for _ in range(300):
        pool = rng.sample(deck, 24)
        owner = [rng.randrange(4) for _ in pool]
        sizes = [owner.count(k) for k in range(4)]
        held = [{c.suit for c, o in zip(pool, owner) if o == k} for k in range(4)]
        slots = [Slot(k, sizes[k], frozenset(set("CDHS") - held[k] - set(rng.sample("CDHS", 1)))) for k in range(4)]
        dealt = allocate(pool, slots, lambda c: c.suit, rng)
        assert sorted(c.sort_key for cards in dealt.values() for c in cards) == sorted(c.sort_key for c in pool)
        for slot in slots:
            assert len(dealt[slot.name]) == slot.size
            assert not {c.suit for c in dealt[slot.name]} & slot.refuses


def test_a_view_that_cannot_be_filled_says_so() -> None:
    cards = [Card.parse(t) for t in ("2H", "3H")]
    with pytest.raises(ImpossibleView):
        allocate(cards, [Slot("a", 2, frozenset({"H"}))], lambda c: c.suit, random.Random(1))


@pytest.mark.parametrize("spec,message", [
    ("ismcts:iterations=lots", "iterations must be a number"),
    ("ismcts:bids=2", "bids=2 is out of range"),
    ("ismcts:model=0", "model=0 is out of range"),
    ("ismcts:model=1.5", "model=1.5 is out of range"),
    ("ismcts:height=3", "unknown parameter"),
    ("ismcts:playout=smart", "playout must be one of"),
    ("ismcts:tree=oracle", "tree must be one of"),
    ("ismcts:stepwise=2", "stepwise must be 0 or 1"),
    ("ismcts:worlds=0", "out of range"),
    ("ismcts:moves=0", "out of range"),
])
def test_bad_parameters_are_a_one_line_usage_error(spec: str, message: str) -> None:
    result = run_cli("play", "pigugnin", "--seat", spec, "--seat", "random", "--seat", "random", "--seat", "random")
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_the_player_seats_from_the_command_line_and_finishes_a_match() -> None:
    result = run_cli("play", "seep", "--seat", "ismcts:iterations=16,worlds=4", "--seat", "heuristic",
                     "--max-deals", "1", "--seed", "4", "--json")
    assert result.returncode == 0, result.stderr
    assert '"ismcts:iterations=16,worlds=4"' in result.stdout
