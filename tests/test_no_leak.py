"""No seat is ever told a card it could not know at that moment, checked line by line against
the full record, for every game and variant."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from cardcli.cards import RANKS, SUITS
from cardcli.games.notation import spent_card
from harness import Played, every_game_variant_and_count, play

CARD_TEXTS = {r + s for r in RANKS for s in SUITS}


def cards_in(line: str) -> set[str]:
    found = set()
    for word in line.split():
        found |= {part for part in word.split("+") if part in CARD_TEXTS}
    return found


def peppa_leaks(played: Played) -> None:
    record = played.result.record
    for seat, bot in enumerate(played.seats):
        deals = iter(record["deals"])
        deal: dict[str, Any] | None = None
        holding: set[str] = set()
        public: set[str] = set()
        for line in bot.lines:
            word, *args = line.split()
            if word == "deal":
                deal = next(deals)
                holding, public = set(), set()
                continue
            assert deal is not None or not cards_in(line), line
            if word == "hand":
                assert args == deal["hands"][seat], "a seat is told exactly its own dealt hand"
                holding = set(args)
            elif word == "passed":
                own = next(m["move"] for m in deal["moves"] if m["kind"] == "pass" and m["seat"] == seat)
                assert set(args[1:]) == set(own.split("+"))
                holding -= set(args[1:])
            elif word == "received":
                giver = int(args[0])
                given = next(m["move"] for m in deal["moves"] if m["kind"] == "pass" and m["seat"] == giver)
                assert set(args[1:]) == set(given.split("+")), "only the cards passed to this seat"
                holding |= set(args[1:])
            elif word == "go":
                assert cards_in(line) <= holding, f"a request names cards the seat does not hold: {line[:80]}"
            elif word == "play":
                public.add(args[1])
                holding.discard(args[1])
            else:
                assert cards_in(line) <= public | holding, f"seat {seat} told a hidden card: {line}"


def seep_leaks(played: Played) -> None:
    """No line names a card still hidden in another seat's hand (or, before the floor is turned
    up, a floor card); the void deal's reveal of the bidder's four cards is the one exception."""
    record = played.result.record
    floor_first = record["options"]["reveal_floor_before_bid"]
    for seat, bot in enumerate(played.seats):
        deals = iter(record["deals"])
        hidden: set[str] = set()
        floor: set[str] = set()
        own: set[str] = set()
        for line in bot.lines:
            word, *args = line.split()
            if word == "deal":
                deal = next(deals)
                own = set(deal["hands"][seat])
                hidden = {c for s, h in enumerate(deal["hands"]) if s != seat for c in h}
                floor = set() if floor_first else set(deal["floor"])
                continue
            if word == "void":
                continue
            if word == "bid":
                floor = set()
            if word == "play":
                hidden.discard(spent_card(args[1]))
            named = cards_in(line)
            if word == "hand":
                assert named <= own, "a seat is told only its own cards"
            assert not named & hidden, f"seat {seat} told a hidden card: {line[:100]}"
            assert not named & floor, f"seat {seat} told a face-down floor card: {line[:100]}"


def pepper_leaks(played: Played) -> None:
    """No seat is told another seat's unplayed card, and no seat ever hears of the dead hand."""
    record = played.result.record
    for seat, bot in enumerate(played.seats):
        deals = iter(record["deals"])
        hidden: set[str] = set()
        dead: set[str] = set()
        for line in bot.lines:
            word, *args = line.split()
            if word == "deal":
                deal = next(deals)
                hidden = {c for s, h in enumerate(deal["hands"]) if s != seat for c in h}
                dead = set(deal.get("dead", []))
                continue
            if word == "play":
                hidden.discard(args[1])
            named = cards_in(line)
            if word == "hand":
                assert args == deal["hands"][seat]
            assert not named & hidden, f"seat {seat} told a hidden card: {line}"
            assert not named & dead, f"seat {seat} told a dead-hand card: {line}"


LEAK_CHECKS: dict[str, Callable[[Played], None]] = {
    "pepper": pepper_leaks,
    "peppa": peppa_leaks,
    "seep": seep_leaks,
    "pigugnin": peppa_leaks,  # the same trick-game knowledge model, without a pass
}


@pytest.mark.parametrize("game, variant, players", every_game_variant_and_count())
def test_no_seat_learns_a_card_it_may_not_know(game: str, variant: str, players: int) -> None:
    assert game in LEAK_CHECKS, f"register the no-leak check of {game}"
    for seed in range(4):
        played = play(game, variant, seed=seed, num_players=players)
        assert any(line.startswith("go ") for bot in played.seats for line in bot.lines)
        LEAK_CHECKS[game](played)
