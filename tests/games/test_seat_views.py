"""The seat views' facts that the learning environments' observations read (cardcli/games/view.py
and each game's view.py): the leader of the trick in progress, the dealer, Peppa's pass, Pepper's
latest bids, Seep's bid, bidder, seeps, captures, last capturer and cards held. Each is told line
by line, as a seat receives them."""

from __future__ import annotations

from typing import TypeVar

from cardcli.cards import Card
from cardcli.plugins.peppa.view import PeppaView
from cardcli.plugins.pepper.view import PepperView
from cardcli.plugins.seep.view import SeepView
from cardcli.games.view import SeatView


View = TypeVar("View", bound=SeatView)


def told(view: View, *lines: str) -> View:
    """``view`` after ``lines``, told one at a time as the seat receives them."""
    for line in lines:
        view.update(line.split())
    return view


def cards(*texts: str) -> list[Card]:
    return [Card.parse(t) for t in texts]


def test_the_leader_is_the_trick_in_progress_s_and_none_once_it_is_taken() -> None:
    view = told(SeatView(), "game pigugnin standard 4 1", "deal 1 3", "hand 2C 3C 4C")
    assert (view.dealer, view.leader) == (3, -1)
    told(view, "trick 1 0", "play 0 5C", "play 1 2C")
    assert view.leader == 0 and [c.text for _, c in view.trick] == ["5C", "2C"]
    told(view, "play 2 6C", "play 3 7C", "taken 1 3 0")
    assert view.leader == -1
    assert [c.text for _, c in view.trick] == ["5C", "2C", "6C", "7C"], "the cards stay until the next lead"
    told(view, "trick 2 3")
    assert (view.leader, view.trick) == (3, [])
    told(view, "deal 2 0")
    assert (view.dealer, view.leader) == (0, -1)
    told(view, "game pigugnin standard 4 1")
    assert view.dealer == -1


def test_peppas_view_keeps_the_pass() -> None:
    view = told(PeppaView(), "game peppa torino 4 0", "deal 1 2", "hand 2C 3C 4C 5C 6C", "passing left")
    assert (view.passing, view.passed, view.received) == ("left", [], [])
    told(view, "passed 1 2C 3C 4C", "received 3 AS KS QS")
    assert view.passed == cards("2C", "3C", "4C") and view.received == cards("AS", "KS", "QS")
    assert view.hand == cards("5C", "6C", "AS", "KS", "QS")
    told(view, "deal 2 3")
    assert (view.passing, view.passed, view.received) == (None, [], [])


def test_peppers_view_keeps_each_seats_latest_bid() -> None:
    view = told(PepperView(), "game pepper standard 3 0", "deal 1 0", "hand 9C TC JC")
    assert view.latest_bids == [None, None, None]
    told(view, "bid 1 2", "bid 2 pass", "bid 0 3", "bid 1 4")
    assert view.latest_bids == ["3", "4", "pass"]
    assert view.declarer == -1 and view.trump is None, "no trump named yet"
    told(view, "contract 1 4", "trump 1 NT")
    assert (view.contract, view.declarer, view.trump) == ((1, "4"), 1, None)
    told(view, "deal 2 1")
    assert view.latest_bids == [None, None, None] and view.declarer == -1


def test_seeps_view_keeps_the_bid_the_captures_the_seeps_and_the_cards_held() -> None:
    view = told(SeepView(), "game seep standard 2 0", "deal 1 1 0", "hand 9C KD 2H 3S")
    assert (view.dealer, view.bidder, view.bid, view.held) == (1, 0, None, [4, 4])
    told(view, "bid 0 9", "table 4C 5D 7H 8S")
    assert view.bid == 9
    told(view, "play 0 take:9C:4C+5D", "table 7H 8S")
    assert view.captured == [cards("9C", "4C", "5D"), []] and view.capturer == 0 and view.held == [3, 4]
    told(view, "play 1 build:11:3H+8S", "table 7H h11:o:1:3H+8S")
    assert view.capturer == 0 and view.held == [3, 3]
    told(view, "seep 0 50", "seep 0 13")
    assert view.seeps == [[50, 13], []] and view.bonus == [63, 0]
    told(view, "hand 2H 3S 4S 5S 6S 7S 8S")
    assert view.held == [7, 7], "every seat is dealt as many cards as this one"
    told(view, "play 1 take:JH:h11", "leftover 1 7H")
    assert view.captured[1] == cards("JH", "3H", "8S", "7H") and view.capturer == 1
    told(view, "deal 2 1 0")
    assert (view.bid, view.capturer, view.held, view.captured, view.seeps) == (None, -1, [0, 0], [[], []], [[], []])
