"""The heuristic player (``cardcli_briscola.heuristic``): each rule of its docstring on a
position told to it line by line, its hand kept from its own lines, and whole matches in
which it beats the random player."""

from __future__ import annotations

from cardcli.cards import Card
from cardcli.games import registry
from cardcli.players.heuristic import HeuristicPlayer, strategy_of
from cardcli.referee import Settings, play_match
from cardcli.seats.base import Request
from cardcli.seating import builtin

from briscola_table import decisions
from cardcli_briscola import SPEC
from cardcli_briscola.heuristic import BriscolaHeuristic


def strategy(seat: int = 0, players: int = 2, lines: str = "") -> BriscolaHeuristic:
    """The strategy of a heuristic player told the header of a match in which it is ``seat``,
    then ``lines`` (one event a line): the player keeps the seat's view from them, which the
    strategy reads."""
    player = HeuristicPlayer()
    player.notify([f"game briscola standard {players} {seat}", "begin", *lines.strip().splitlines()])
    assert isinstance(player.strategy, BriscolaHeuristic)
    return player.strategy


def choose(told: BriscolaHeuristic, moves: str) -> str:
    return told.choose("play", tuple(moves.split()))


DEAL = """
deal 1 1
hand 5H AD 2S
briscola 4C
trick 1 0
"""


def test_the_spec_names_the_strategy_the_heuristic_player_uses() -> None:
    assert SPEC.heuristic is not None and SPEC.heuristic.load() is BriscolaHeuristic
    assert strategy_of("briscola") is BriscolaHeuristic


def test_it_leads_a_plain_liscio_and_keeps_aces_threes_and_trumps() -> None:
    assert choose(strategy(lines=DEAL), "AD 5H 2S") == "2S"
    assert choose(strategy(lines=DEAL), "AD KH 2C") == "KH", "a plain figure before a trump"
    assert choose(strategy(lines=DEAL), "AD 3H 2C") == "2C", "a trump before a carico"
    assert choose(strategy(lines=DEAL), "AD 3H") == "3H", "the cheaper carico when nothing else is left"


def test_it_takes_a_trick_with_an_ace_or_three_on_it_with_its_cheapest_trump() -> None:
    told = strategy(1, lines=DEAL + "play 0 AH")
    assert choose(told, "2H 5C KC") == "5C"
    assert choose(told, "2H 3C AC") == "3C", "the ace and three of trumps too, for 11 points"


def test_it_spends_a_liscio_trump_on_a_king_but_keeps_a_figure_trump() -> None:
    assert choose(strategy(1, lines=DEAL + "play 0 KH"), "2H 5C AS") == "5C"
    assert choose(strategy(1, lines=DEAL + "play 0 KH"), "2H QC AS") == "2H"


def test_it_takes_with_the_suit_led_when_the_trick_carries_points() -> None:
    assert choose(strategy(1, lines=DEAL + "play 0 4H"), "AH 2S 6C") == "AH", "its own ace banks 11"
    assert choose(strategy(1, lines=DEAL + "play 0 JH"), "KH 2S") == "KH"
    assert choose(strategy(1, lines=DEAL + "play 0 4H"), "7H 2S 6C") == "2S", "a trick of nothing is not taken"


def test_it_throws_its_cheapest_card_on_a_trick_it_cannot_take() -> None:
    assert choose(strategy(1, lines=DEAL + "play 0 AH"), "KS 2D QD") == "2D"
    assert choose(strategy(1, lines=DEAL + "play 0 3C"), "KS AD QC") == "KS", "the ace is kept"


def test_with_a_partner_it_loads_a_trick_it_holds_and_else_throws_cheap() -> None:
    partner_first = "deal 1 3\nhand 2H 3D AS\nbriscola 4C\ntrick 1 2\nplay 2 AC\nplay 1 5H\n"
    assert choose(strategy(0, 4, partner_first), "2H 3D AS") == "2H", "an opponent plays after: throw"
    last = "deal 1 0\nhand 2H 3D AS\nbriscola 4C\ntrick 1 3\nplay 3 5H\nplay 2 AC\nplay 1 6H\n"
    assert choose(strategy(0, 4, last), "2H 3D AS KC") == "AS", "last: load the ace, never a trump"


def test_its_view_keeps_its_hand_from_its_own_lines() -> None:
    told = strategy(0, lines=DEAL + "play 0 2S\nplay 1 3S\ntaken 1 1 10\ndraw 1\ndraw 0 QH\ntrick 2 1\n")
    assert set(told.view.hand) == {Card.parse(t) for t in ("5H", "AD", "QH")} and told.trump == "C"
    assert told.trick == []


def test_its_hand_is_the_engines_at_every_decision() -> None:
    for players in (2, 4):
        players_told = [HeuristicPlayer() for _ in range(players)]
        for match, seat in decisions(players, 5, players_told, partners_see_hands=True):
            strategy_now = players_told[seat].strategy
            assert isinstance(strategy_now, BriscolaHeuristic)
            assert {c.text for c in strategy_now.view.hand} == set(match.decisions()[0].moves)
            move = players_told[seat].choose(Request("play", match.decisions()[0].moves, 1000))
            assert move in match.decisions()[0].moves


def test_it_beats_the_random_player() -> None:
    """Over 20 seeds with both seatings (2 players) and 10 (4 players): it wins at least 80%."""
    for players, seeds in ((2, 20), (4, 10)):
        wins = matches = 0
        for seed in range(seeds):
            for first in ("heuristic", "random"):
                names = [first, "random" if first == "heuristic" else "heuristic"] * (players // 2)
                setup = registry.resolve("briscola", None, {}, players, seed)
                seats = [builtin(name, f"{name}{s}", s) for s, name in enumerate(names)]
                result = play_match(setup, seats, Settings(move_time=30))
                assert result.outcome is not None
                wins += all(names[s] == "heuristic" for s in result.outcome.winners)
                matches += 1
        assert wins >= 0.8 * matches, (players, wins, matches)
