"""A match stopped by Ctrl-C or SIGTERM keeps what it played: the referee raises
MatchInterrupted with a record marked ``interrupted``, which ``verify`` checks deal by deal and
``replay --protocol`` re-runs, wherever the stop found the referee. The end-to-end half (a real
``cardcli play`` sent SIGINT and SIGTERM) is in test_hostile.py."""

from __future__ import annotations

import random
from typing import Any, Sequence

import pytest

from cardcli.errors import VerificationError
from cardcli.games import registry
from cardcli.games.base import Event
from cardcli.protocol_replay import derive
from cardcli.referee import MatchInterrupted, Referee, Settings
from cardcli.replay import verify
from cardcli.seats.base import Request
from cardcli.seats.builtin import InProcessSeat

GAMES = [("peppa", 4), ("seep", 4), ("seep", 2), ("pigugnin", 5), ("pepper", 3), ("pepper", 4)]


class Stop(KeyboardInterrupt):
    """Ctrl-C, as the referee meets it: raised wherever it happens to be."""


class StoppingSeat(InProcessSeat):
    """A random player that is interrupted while asked for its ``stop_at``-th move, or answers
    its ``illegal_at``-th with a move that was not offered and is interrupted while the referee
    ends it (after the fault is written, before the fallback player's move)."""

    def __init__(self, label: str, seed: str, stop_at: int = 0, illegal_at: int = 0):
        super().__init__(label, self._answer_for)
        self._rng = random.Random(seed)
        self._asked = 0
        self._stop_at, self._illegal_at = stop_at, illegal_at

    def _answer_for(self, request: Request) -> str:
        self._asked += 1
        if self._asked == self._stop_at:
            raise Stop()
        if self._asked == self._illegal_at:
            return "not-a-move"
        return self._rng.choice(request.moves)

    def abandon(self) -> None:
        super().abandon()
        if self._illegal_at:
            raise Stop()


def interrupted(game: str, players: int, seed: int, seats: Sequence[InProcessSeat] | None = None,
                stop_after_events: int = 0, stop_at_score: int = 0) -> dict[str, Any] | None:
    """The record of a match stopped as given: by a seat, or by Ctrl-C right after the
    referee's ``stop_after_events``-th batch of events (a move written, its score not yet), or
    after the move that ends deal ``stop_at_score`` (before the referee writes its score);
    None when the match ended first."""
    setup = registry.resolve(game, None, {}, players, seed)
    seats = seats or [StoppingSeat(f"s{k}", f"{seed}/{k}") for k in range(players)]
    batches = scores = 0

    def listener(events: Sequence[Event]) -> None:
        nonlocal batches, scores
        batches += 1
        scores += sum(1 for event in events if event.kind == "score")
        if batches == stop_after_events or (stop_at_score and scores == stop_at_score):
            raise Stop()

    try:
        Referee(setup, seats, Settings(), listener=listener).run()
    except MatchInterrupted as stopped:
        assert stopped.exit_code == 130
        record = stopped.result.record
    else:
        return None
    assert record["status"] == "interrupted" and record["result"] is None
    return record


def check(record: dict[str, Any], seats: Sequence[int] | None = None) -> None:
    """What verify and replay --protocol make of an interrupted record: valid, no result, and
    the lines of ``seats`` (all by default) derivable."""
    replayed = verify(record)
    assert replayed.outcome is None
    for seat in range(len(record["seats"])) if seats is None else seats:
        derived = derive(record, seat)
        assert any("interrupted" in note for note in derived.notes)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_match_stopped_anywhere_keeps_a_record_that_verifies(game: str, players: int) -> None:
    for stop in range(1, 2000, 41):
        record = interrupted(game, players, seed=stop, stop_after_events=stop)
        if record is not None:
            check(record, [stop % players])
    record = interrupted(game, players, seed=7, seats=[
        StoppingSeat(f"s{k}", f"7/{k}", stop_at=9 if k == 1 else 0) for k in range(players)])
    assert record is not None
    check(record)
    assert record["deals"] and record["deals"][-1]["points"] is None


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_match_stopped_after_a_deals_last_move_before_its_score_verifies(game: str, players: int) -> None:
    record = interrupted(game, players, seed=5, stop_at_score=2)
    assert record is not None and len(record["deals"]) == 2
    assert record["deals"][-1]["points"] is None
    assert len(verify(record).state.deal_scores) == 2, "the rules had scored the deal the record leaves unscored"
    check(record)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_match_stopped_between_a_fault_and_the_fallback_move_verifies(game: str, players: int) -> None:
    seats = [StoppingSeat(f"s{k}", f"3/{k}", illegal_at=5 if k == 0 else 0) for k in range(players)]
    record = interrupted(game, players, seed=3, seats=seats)
    assert record is not None
    assert [(f["seat"], f["kind"]) for f in record["faults"]] == [(0, "illegal")]
    fault = record["faults"][0]
    assert (fault["deal"], fault["move"]) == (len(record["deals"]), len(record["deals"][-1]["moves"]))
    check(record)


def test_an_interrupted_record_that_was_changed_is_refused() -> None:
    record = interrupted("peppa", 4, seed=11, stop_after_events=120)
    assert record is not None and len(record["deals"]) >= 2
    record["deals"][0]["points"] = [0, 0, 0, 26]
    with pytest.raises(VerificationError, match="recorded points"):
        verify(record)
    tampered = interrupted("peppa", 4, seed=11, stop_after_events=120)
    assert tampered is not None
    tampered["result"] = {"scores": [0, 0, 0, 0], "winners": [0], "losers": [], "draws": [], "forfeits": []}
    with pytest.raises(VerificationError, match="an interrupted match has a result"):
        verify(tampered)
