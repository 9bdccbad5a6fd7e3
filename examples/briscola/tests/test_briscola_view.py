"""The seat view (``cardcli_briscola.view``, the spec's ``view``, which the human seat shows):
kept from a seat's lines alone, it holds the engine's hand at every decision, counts the stock,
infers no void, and the human seat's screen shows the briscola, the stock and card points."""

from __future__ import annotations

import io
from typing import Any, Sequence

import pytest

from cardcli.cards import Card
from cardcli.games import registry
from cardcli.games.card_bits import TEXTS, texts
from cardcli.games.view import view_for
from cardcli.players.human import HumanPlayer
from cardcli.referee import Settings, play_match
from cardcli.seats.builtin import PlayerSeat, random_seat

from briscola_table import decisions
from cardcli_briscola import SPEC
from cardcli_briscola.view import BriscolaView


class Follower:
    """A seat's view, told the seat's lines as the referee sends them."""

    def __init__(self) -> None:
        self.view = BriscolaView()

    def notify(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.view.update(line.split())


def told(lines: str, seat: int = 0, players: int = 2) -> BriscolaView:
    view = BriscolaView()
    for line in [f"game briscola standard {players} {seat}", *lines.strip().splitlines()]:
        view.update(line.split())
    return view


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def names(held: Sequence[Card] | str) -> list[str]:
    """Cards, or a text of cards, as their sorted tokens: a hand compared in any order."""
    return sorted(held.split() if isinstance(held, str) else (c.text for c in held))


def test_the_spec_names_the_view_and_the_human_seat_gets_it() -> None:
    assert SPEC.view is not None and SPEC.view.load() is BriscolaView
    assert type(view_for("briscola")) is BriscolaView


@pytest.mark.parametrize("players, seed, options", [
    (2, 1, {}), (2, 2, {"direction": "cw"}), (4, 3, {}), (4, 4, {"partners_see_hands": True}),
])
def test_every_seat_s_view_holds_the_engine_s_hand_at_every_decision(
        players: int, seed: int, options: dict[str, Any]) -> None:
    followers = [Follower() for _ in range(players)]
    checked = 0
    for match, seat in decisions(players, seed, followers, **options):
        for s, follower in enumerate(followers):
            view = follower.view
            assert names(view.hand) == names(" ".join(texts(match.hand_masks[s]))), (s, match.drawn)
            assert view.stock == len(match.stock) - match.drawn
            assert view.briscola == Card.parse(TEXTS[match.briscola])
            assert [(p, c.text) for p, c in view.trick] == [(p, TEXTS[i]) for p, i in match.tricks.trick]
            assert all(not voids for voids in view.voids), "no duty to follow suit: no void"
            if view.partner is not None:
                partner, held = view.partner
                assert names(held) == names(" ".join(texts(match.hand_masks[partner])))
        checked += 1
    assert checked >= 40 * 2, "two deals at least"


def test_the_deal_s_card_points_are_those_the_deal_s_end_tells() -> None:
    class Checker(Follower):
        def __init__(self) -> None:
            super().__init__()
            self.checked = 0

        def notify(self, lines: Sequence[str]) -> None:
            for line in lines:
                words = line.split()
                if words[0] == "points":
                    view = self.view
                    by_seat = [sum(view.points[p] for p in side) for side in (view.sides or [(0,), (1,)])]
                    told_points = [int(w) for w in words[1:]]
                    assert [told_points[side[0]] for side in (view.sides or [(0,), (1,)])] == by_seat
                    assert sum(view.points) == 120
                    self.checked += 1
                self.view.update(words)

    for players in (2, 4):
        checkers = [Checker() for _ in range(players)]
        for _ in decisions(players, 9, checkers):
            pass
        assert all(c.checked >= 2 for c in checkers)


def test_a_card_of_another_suit_shows_no_void_and_the_hand_refills() -> None:
    view = told("""
        deal 1 1
        hand 5H AD 2S
        briscola 4C
        trick 1 0
        play 0 5H
        play 1 2C
        taken 1 1 0
        draw 1
        draw 0 KH
        trick 2 1
    """)
    assert view.voids == [set(), set()]
    assert view.played == [cards("5H"), cards("2C")]
    assert names(view.hand) == names("AD 2S KH")
    assert view.stock == 32 and view.trump == "C"
    assert view.table_text() == "trick 2: you lead | briscola 4♣ (♣ trumps), stock 32 cards"
    assert view.deal_so_far() == ("this deal, card points (tricks):", ["0: 0 (0)", "1: 0 (1)"])


def test_the_briscola_drawn_is_seen_by_all_and_joins_only_its_drawer_s_hand() -> None:
    # 34 cards in the stock with 2 players: 32 drawn (counted alike, whoever draws), then the
    # last round, whose second card is the briscola
    lines = ["player 0 ann", "player 1 bob", "deal 1 1", "hand 5H AD 2S", "briscola 4C", "trick 1 0"]
    lines += ["draw 1"] * 32
    mine = told("\n".join(lines + ["draw 1", "draw 0 4C"]))
    assert mine.stock == 0 and names(mine.hand) == names("5H AD 2S 4C")
    assert mine.table_text() == "trick 1: you lead | briscola 4♣ (♣ trumps), drawn by 0:ann, stock empty"
    theirs = told("\n".join(lines + ["draw 0 AS", "draw 1 4C"]))
    assert names(theirs.hand) == names("5H AD 2S AS")
    assert theirs.table_text().endswith("drawn by 1:bob, stock empty")
    assert told("\n".join(lines + ["deal 2 0"])).briscola is None, "a deal starts afresh"


def test_the_human_seat_shows_the_briscola_the_stock_and_card_points() -> None:
    for players in (2, 4):
        out = io.StringIO()
        human = HumanPlayer(lines=iter(["1\n"] * 40), out=out, interactive=True)
        human.delay = 0
        seats = [PlayerSeat("human", human), *(random_seat("random", f"{i}") for i in range(1, players))]
        play_match(registry.resolve("briscola", None, {"partners_see_hands": "true"} if players == 4 else {},
                                    players, 5), seats, Settings(max_deals=1))
        screen = out.getvalue()
        assert isinstance(human.view, BriscolaView)
        assert "trumps), stock " in screen and "stock empty" in screen
        assert "this deal, card points (tricks):" in screen
        assert (" | partner 2:" in screen) == (players == 4)
