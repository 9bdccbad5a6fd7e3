"""The protocol's logic on a scripted bot and a clock that moves only when told
(tests/scripted.py): the handshake, answers in time and late, the time budget and the time
bank, illegal moves, garbage, a closed stream, ``info`` lines. Every time here is exact: the
clock is at the deadline when a timeout is called, never a little after it, and a bot that
answers in 1.2 s has taken 1.2 s to the microsecond, so nothing depends on the machine's load
and nothing sleeps.

These are the timing cases the real-process tests used to wait out on the wall clock
(tests/test_hostile.py, tests/test_seat_timing.py, tests/test_time_bank.py); those keep the
few that show a real process being cut off by the real clock."""

from __future__ import annotations

from typing import Any, Sequence

import pytest

from cardcli.games import registry
from cardcli.referee import MatchResult, Settings, play_match
from cardcli.seats.base import FaultKind, Request, Seat
from cardcli.seats.builtin import random_seat
from cardcli.seats.gather import ask_all, wait_ready_all
from scripted import FakeClock, ScriptedBot, ScriptedSeat, answer_of

START = 1000.0
GO = "go play 1000 4H 5H QS"
PLAY = Request("play", ("4H", "5H", "QS"), 1000)


def ready_seat(*lines: str, clock: FakeClock | None = None,
               grace: float = 0.0) -> tuple[ScriptedSeat, ScriptedBot, FakeClock]:
    """A seat whose scripted bot has shaken hands (saying ``lines`` too); its script is to be
    continued. ``grace``: the seat's network grace."""
    clock = clock or FakeClock(START)
    bot = ScriptedBot(clock).handshake(*lines)
    seat = ScriptedSeat("s0", bot, grace)
    seat.start()
    seat.wait_ready(clock.now + 3)
    return seat, bot, clock


# -- the handshake ----------------------------------------------------------------------------


def test_the_handshake_takes_the_identity_and_the_declared_options() -> None:
    seat, bot, clock = ready_seat("id author Ann", "id version 2", "option depth 3", "info warming up")
    assert seat.identity.name == "scripted" and seat.identity.author == "Ann" and seat.identity.version == "2"
    assert seat.identity.options == (("depth", "3"),)
    assert clock.now == START, "a bot that greets at once costs no time"
    bot.assert_done()


def test_a_ready_just_before_the_deadline_counts_and_one_just_after_does_not() -> None:
    clock = FakeClock(START)
    early = ScriptedBot(clock).expect("cardcli 1", ["id name a"]).say("ready", after=2.999)
    seat = ScriptedSeat("a", early)
    seat.start()
    seat.wait_ready(START + 3)
    assert seat.identity.name == "a" and clock.now == pytest.approx(START + 2.999)

    clock = FakeClock(START)
    late = ScriptedBot(clock).expect("cardcli 1", ["id name b"]).say("ready", after=3.001)
    seat = ScriptedSeat("b", late)
    seat.start()
    with pytest.raises(Exception) as caught:
        seat.wait_ready(START + 3)
    fault: Any = caught.value
    assert fault.kind == FaultKind.TIMEOUT and clock.now == START + 3, "cut off at the deadline, not later"
    assert fault.detail == "no 'ready' during the handshake within 3 s; received: id name b"


@pytest.mark.parametrize("script, detail", [
    (lambda bot: bot, "nothing received"),
    (lambda bot: bot.expect("cardcli 1", [b"ready"]), "received only an incomplete line 'ready'"),
    (lambda bot: bot.expect("cardcli 1", ["id name x", "id author y"]), "no 'ready' during the handshake"),
])
def test_a_handshake_timeout_says_what_arrived(script: Any, detail: str) -> None:
    clock = FakeClock(START)
    bot = script(ScriptedBot(clock))
    seat = ScriptedSeat("s", bot)
    seat.start()
    faults = wait_ready_all({0: seat}, START + 5, 5, clock)
    assert faults[0].kind == FaultKind.TIMEOUT and detail in faults[0].detail
    assert clock.now == START + 5


def test_a_move_or_a_closed_stream_during_the_handshake_is_a_fault_at_once() -> None:
    clock = FakeClock(START)
    mover = ScriptedSeat("m", ScriptedBot(clock).expect("cardcli 1", ["move 4H"], after=0.1))
    closer = ScriptedSeat("c", ScriptedBot(clock).expect("cardcli 1", ["id name c"], after=0.2, close=True))
    waiter = ScriptedSeat("w", ScriptedBot(clock).expect("cardcli 1", ["id name w", "ready"], after=0.3))
    for seat in (mover, closer, waiter):
        seat.start()
    faults = wait_ready_all({0: mover, 1: closer, 2: waiter}, START + 10, 10, clock)
    assert (faults[0].kind, faults[1].kind) == (FaultKind.PROTOCOL, FaultKind.CRASH) and 2 not in faults
    assert "move during the handshake" in faults[0].detail
    assert clock.now == pytest.approx(START + 0.3), "nobody waited for a deadline"


@pytest.mark.parametrize("players, staller", [(players, staller) for players in (2, 4, 5) for staller in range(players)])
def test_a_stalling_handshake_faults_alone_whatever_its_seat(players: int, staller: int) -> None:
    """One deadline for all: each bot has the whole start-up time from its start, whoever sits
    before it; the staller is cut off exactly at the deadline, the others are ready when they
    say so (tests/test_seat_timing.py keeps real processes for this)."""
    clock = FakeClock(START)
    seats = []
    for seat in range(players):
        bot = ScriptedBot(clock)
        if seat == staller:
            bot.expect("cardcli 1", ["id name staller"])
        else:
            bot.expect("cardcli 1", [f"id name bot{seat}", "ready"], after=0.5 + 0.25 * seat)
        seats.append(ScriptedSeat(f"seat{seat}", bot))
        seats[-1].start()
    faults = wait_ready_all(dict(enumerate(seats)), START + 2, 2, clock)
    assert list(faults) == [staller] and faults[staller].kind == FaultKind.TIMEOUT
    assert clock.now == START + 2
    assert all(seats[s].identity.name == f"bot{s}" for s in range(players) if s != staller)


# -- answers and the time budget --------------------------------------------------------------


def test_a_move_in_time_takes_the_time_the_bot_took() -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["move 5H"], after=0.25)
    answer = answer_of(seat, PLAY)
    assert (answer.move, answer.elapsed, answer.fault) == ("5H", 0.25, None)
    assert clock.now == START + 0.25
    bot.assert_done()


def test_the_events_queued_go_out_with_the_request() -> None:
    seat, bot, clock = ready_seat()
    seat.notify(["hand 4H 5H QS", "trick 1 leader 0"])
    bot.expect("hand 4H 5H QS").expect("trick 1 leader 0").expect(GO, ["move 4H"])
    assert answer_of(seat, PLAY).move == "4H"
    bot.assert_done()


@pytest.mark.parametrize("after", [0.999, 1.0])
def test_an_answer_just_inside_the_limit_is_in_time(after: float) -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["move QS"], after=after)
    answer = answer_of(seat, PLAY)
    assert answer.fault is None and answer.move == "QS" and answer.elapsed == pytest.approx(after)


@pytest.mark.parametrize("after", [1.001, 1.5, 3600.0])
def test_an_answer_late_by_a_little_or_a_lot_is_a_timeout_at_the_limit(after: float) -> None:
    """However late the answer, the referee waits the limit and no more."""
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["move QS"], after=after)
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.TIMEOUT
    assert answer.elapsed == 1.0 and clock.now == START + 1.0
    assert answer.fault.detail.startswith("no answer in time (limit 1 s, waited 1.00 s); nothing received")


def test_a_late_answer_that_arrives_before_the_next_request_is_a_move_without_a_request() -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["move QS"], after=1.5)
    assert answer_of(seat, PLAY).fault is not None
    clock.advance(1.0)  # the referee goes on; the late answer arrives meanwhile
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.PROTOCOL
    assert answer.fault.detail == "move sent without a request: 'move QS'"
    assert [line for _, line in bot.received] == ["cardcli 1", GO], "the second request was never written"


def test_a_network_grace_extends_the_deadline_and_not_the_limit() -> None:
    seat, bot, clock = ready_seat(grace=0.4)
    bot.expect(GO, ["move QS"], after=1.3).expect(GO, ["move QS"], after=1.5)
    assert answer_of(seat, PLAY).move == "QS"
    late = answer_of(seat, PLAY)
    assert late.fault is not None and late.elapsed == pytest.approx(1.4)


def test_several_seats_are_waited_on_at_once_each_against_its_own_deadline() -> None:
    """A simultaneous decision: one wait for all, so three answers of 0.3, 0.6 and 0.9 s cost
    0.9 s, and a seat over its limit times out at its own deadline."""
    clock = FakeClock(START)
    seats = []
    for seat, after in enumerate((0.3, 0.6, 0.9, 2.0)):
        bot = ScriptedBot(clock).handshake().expect(GO, ["move QS"], after=after)
        seats.append(ScriptedSeat(f"s{seat}", bot))
        seats[-1].start()
    assert wait_ready_all(dict(enumerate(seats)), START + 3, 3, clock) == {}
    answers = ask_all({s: (seat, PLAY) for s, seat in enumerate(seats)}, [2, 0, 3, 1], clock)
    assert [answers[s].elapsed for s in range(4)] == pytest.approx([0.3, 0.6, 0.9, 1.0])
    assert [answers[s].move for s in range(3)] == ["QS"] * 3 and answers[3].fault is not None
    assert clock.now == START + 1.0


# -- what a bot may say wrong -----------------------------------------------------------------


def test_a_move_not_offered_is_the_referee_s_to_refuse_and_a_misread_field_is_named() -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["move 2C"]).expect(GO, ["move 1000"])
    assert answer_of(seat, PLAY).move == "2C", "an unoffered token goes to the referee, which calls it illegal"
    misread = answer_of(seat, PLAY)
    assert misread.fault is not None and misread.fault.kind == FaultKind.ILLEGAL
    assert "the request's time limit in milliseconds" in misread.fault.detail


def test_an_illegal_move_in_a_match_is_an_illegal_fault_and_the_fallback_plays_on() -> None:
    result, bot = scripted_match(lambda line: (0.01, ["move XX"]), seed=4, game="pigugnin")
    assert [(f.seat, f.kind) for f in result.faults] == [(0, "illegal")]
    assert "'XX' refused" in result.faults[0].detail and result.completed


@pytest.mark.parametrize("sent, kind, detail", [
    (["move"], FaultKind.MALFORMED, "a move is one token"),
    (["move 4H 5H"], FaultKind.MALFORMED, "a move is one token: 'move 4H 5H'"),
    (["4H"], FaultKind.MALFORMED, "'4H' on a line of its own"),
    ([b"move \xff\xfe\n"], FaultKind.MALFORMED, "UTF-8"),
    ([b"y" * 9000], FaultKind.MALFORMED, "longer than 8192 bytes"),
])
def test_garbage_in_place_of_an_answer_is_a_fault_at_once(sent: Sequence[str | bytes], kind: str,
                                                          detail: str) -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, sent, after=0.1)
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == kind and detail in answer.fault.detail
    assert clock.now == START + 0.1, "told at once, not at the deadline"


def test_lines_the_protocol_ignores_are_counted_and_quoted_by_the_timeout() -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["thinking...", "", "best QS", "move", b"move Q"], after=0.2)
    answer = answer_of(seat, Request("play", ("4H", "5H", "QS"), 1000))
    assert answer.fault is not None and answer.fault.kind == FaultKind.MALFORMED  # the bare 'move'
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["thinking...", "best QS", b"move Q"], after=0.2)
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.TIMEOUT and clock.now == START + 1.0
    assert answer.fault.detail == (
        "no answer in time (limit 1 s, waited 1.00 s); received 'thinking...', 'best QS', ignored: not protocol "
        "lines (debug output belongs on stderr); received an incomplete line 'move Q': end each line with a "
        "newline and flush after every line")
    assert seat.ignored_lines == 2 and seat.first_ignored == "thinking..."


def test_an_empty_line_then_silence_is_a_timeout_that_says_nothing_was_received() -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, [""], after=0.1)
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.TIMEOUT and clock.now == START + 1.0
    assert "nothing received" in answer.fault.detail and seat.ignored_lines == 0


@pytest.mark.parametrize("at", [1, 2, 3, 5])
def test_a_stale_second_move_waiting_before_the_next_request_is_a_protocol_fault(at: int) -> None:
    """The bot answers the ``at``-th request twice; the echo is waiting when the next request
    is due, and is never taken as its answer (tests/test_seat_timing.py races a real process
    around the request instead)."""
    seat, bot, clock = ready_seat()
    for n in range(1, at + 1):
        bot.expect(GO, ["move 4H", "move 4H"] if n == at else ["move 4H"], after=0.05)
    for _ in range(at):
        assert answer_of(seat, PLAY).move == "4H"
    clock.advance(0.5)
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.PROTOCOL
    assert answer.fault.detail == "move sent without a request: 'move 4H'"
    bot.assert_done()


def test_a_move_sent_before_the_request_is_a_protocol_fault() -> None:
    seat, bot, clock = ready_seat()
    bot.say("move 4H", after=0.1)
    clock.advance(0.5)
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.PROTOCOL
    assert answer.fault.detail == "move sent without a request: 'move 4H'"


@pytest.mark.parametrize("after", [0.0, 0.7])
def test_a_stream_closed_while_a_request_is_open_is_a_crash_when_it_closes(after: float) -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, close=True, after=after)
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.CRASH and answer.fault.detail == "ended"
    assert clock.now == START + after


def test_an_answer_then_a_closed_stream_still_counts() -> None:
    seat, bot, clock = ready_seat()
    bot.expect(GO, ["move 4H"], after=0.2, close=True)
    assert answer_of(seat, PLAY).move == "4H"


def test_info_lines_are_kept_and_do_not_stop_the_clock() -> None:
    seat, bot, clock = ready_seat()
    seat.keep_info_lines(True)
    bot.expect(GO, ["info depth 1"], after=0.3).say("info depth 2", after=0.3).say("move 5H", after=0.3)
    answer = answer_of(seat, PLAY)
    assert (answer.move, answer.elapsed) == ("5H", pytest.approx(0.9))
    assert seat.info == ["depth 1", "depth 2"] and seat.ignored_lines == 0


def test_a_bot_that_stops_reading_times_out_saying_so() -> None:
    seat, bot, clock = ready_seat()
    bot.reading = False
    seat.notify(["event " + "z" * 1000] * 100)  # more than the pipe takes: the rest waits
    answer = answer_of(seat, PLAY)
    assert answer.fault is not None and answer.fault.kind == FaultKind.TIMEOUT and clock.now == START + 1.0
    assert answer.fault.detail.endswith("the bot was not reading its input")


# -- the time bank, through the referee -------------------------------------------------------


def first_move(delays: Sequence[float], rest: float = 0.0) -> Any:
    """A responder that answers each ``go`` with its first move, the n-th after ``delays[n]``
    seconds (``rest`` once they run out)."""
    count = iter(range(1_000_000))

    def respond(line: str) -> tuple[float, list[str]] | None:
        if not line.startswith("go "):
            return None
        n = next(count)
        return (delays[n] if n < len(delays) else rest), [f"move {line.split()[3]}"]
    return respond


def scripted_match(responder: Any, *, seed: int = 5, game: str = "peppa", bank: float | None = None,
                   move_time: float = 0.2, seats: list[Seat] | None = None, clock: FakeClock | None = None,
                   close: bool = True) -> tuple[MatchResult, ScriptedBot]:
    """A match with a scripted bot in seat 0 and built-in players in the others, on a fake
    clock; the bot shakes hands and then answers with ``responder``."""
    clock = clock or FakeClock(START)
    setup = registry.resolve(game, None, {}, None, seed)
    if seats is None:
        bot = ScriptedBot(clock).handshake().respond(responder)
        seats = [ScriptedSeat("s0", bot)] + [random_seat(f"r{i}", i) for i in range(1, setup.num_players)]
    else:
        bot = seats[0].bot  # type: ignore[attr-defined]
    settings = Settings(move_time=move_time, time_bank=bank, max_deals=1, quit_grace=0.5)
    return play_match(setup, seats, settings, clock=clock, close=close), bot


def own(result: MatchResult, seat: int) -> list[dict[str, Any]]:
    return [m for deal in result.record["deals"] for m in deal["moves"] if m["seat"] == seat]


def banks_told(bot: ScriptedBot) -> list[int]:
    return [int(line.split()[1]) for _, line in bot.received if line.startswith("bank ")]


def test_time_over_the_limit_is_drawn_from_the_bank_to_the_microsecond() -> None:
    """Limit 200 ms, bank 2 s: answers of 450, 300 and 200 ms draw 250, 100 and nothing."""
    result, bot = scripted_match(first_move([0.45, 0.3, 0.2], rest=0.05), bank=2)
    assert result.faults == ()
    moves = own(result, 0)
    assert [m["ms"] for m in moves[:4]] == [450, 300, 200, 50]
    assert [m["bank_ms"] for m in moves[:4]] == [1750, 1650, 1650, 1650]
    assert {m["bank_ms"] for m in moves[3:]} == {1650}
    assert banks_told(bot) == [2000, 1750, 1650] + [1650] * (len(moves) - 3), "told before each request"
    assert {m["bank_ms"] for seat in (1, 2, 3) for m in own(result, seat)} == {2000}


def test_an_answer_over_the_limit_and_the_bank_left_is_a_timeout_naming_the_bank() -> None:
    """Limit 200 ms, bank 1 s: 800 ms draw 600, and the next answer may take 200 + 400 ms;
    800 ms more is a timeout at 600 ms exactly, and empties the bank."""
    result, bot = scripted_match(first_move([0.8, 0.8]), bank=1)
    (fault,) = result.faults
    assert fault.seat == 0 and fault.kind == "timeout"
    assert fault.detail.startswith("no answer in time (limit 0.2 s + time bank 0.400 s, waited 0.60 s)")
    moves = own(result, 0)
    assert (moves[0]["ms"], moves[0]["bank_ms"]) == (800, 400)
    assert [m["bank_ms"] for m in moves[1:]] == [0] * (len(moves) - 1), "a timeout spends the whole bank"
    assert banks_told(bot)[:2] == [1000, 400]


def test_an_answer_that_uses_the_whole_bank_to_the_microsecond_is_in_time() -> None:
    """Limit 200 ms, bank 1 s: 700 ms draw 500, and the next 700 ms the 500 left."""
    result, _ = scripted_match(first_move([0.7, 0.7]), bank=1)
    assert result.faults == ()
    assert [m["bank_ms"] for m in own(result, 0)[:2]] == [500, 0]


def test_in_a_simultaneous_decision_each_seat_draws_on_its_own_bank() -> None:
    """Peppa's pass is asked of all four at once: seats 0 and 1 take 400 and 900 ms on it, and
    each bank pays for its own seat only; the wait costs the slower of the two."""
    clock = FakeClock(START)
    bots = [ScriptedBot(clock).handshake().respond(first_move([d], rest=0.01)) for d in (0.4, 0.9)]
    seats: list[Seat] = [ScriptedSeat(f"s{i}", bot) for i, bot in enumerate(bots)]
    seats += [random_seat("r2", 2), random_seat("r3", 3)]
    result, _ = scripted_match(None, bank=2, seats=seats, clock=clock)
    assert result.faults == ()
    first = result.record["deals"][0]["moves"][:4]
    assert [m["kind"] for m in first] == ["pass"] * 4
    assert [m["bank_ms"] for m in first] == [1800, 1300, 2000, 2000]
    assert [banks_told(bot)[0] for bot in bots] == [2000, 2000]


def test_the_bank_is_full_again_at_the_next_match_of_a_bot_kept_alive() -> None:
    clock = FakeClock(START)
    bot = ScriptedBot(clock).handshake().respond(first_move([0.7], rest=0.01))
    seats: list[Seat] = [ScriptedSeat("s0", bot)] + [random_seat(f"r{i}", i) for i in (1, 2, 3)]
    first, _ = scripted_match(None, bank=1, seats=seats, clock=clock, close=False)
    told = len(banks_told(bot))
    second, _ = scripted_match(None, bank=1, seats=seats, clock=clock, seed=6)
    assert first.faults == second.faults == ()
    assert own(first, 0)[-1]["bank_ms"] == 500
    assert banks_told(bot)[told] == 1000 and own(second, 0)[0]["bank_ms"] == 1000, "a new match, a full bank"
    assert bot.opened == 1, "one stream for both matches"


# -- the end ----------------------------------------------------------------------------------


@pytest.mark.parametrize("script, left, took", [
    (lambda bot: bot.expect("result 1 2").expect("quit", close=True, after=0.01), None, 0.002),
    (lambda bot: bot.expect("result 1 2", close=True), "exited after 'result', before 'quit'", 0.002),
    (lambda bot: bot.expect("result 1 2", close=True, after=0.01), "exited after 'result', without reading 'quit'",
     0.02),
])
def test_quit_tells_a_bot_that_obeys_it_from_one_that_stopped_at_the_result(script: Any, left: str | None,
                                                                              took: float) -> None:
    """The match's last lines go first, ``quit`` once the bot has read them; the referee looks
    in steps growing from half a millisecond, here on the fake clock."""
    seat, bot, clock = ready_seat()
    script(bot)
    seat.notify(["result 1 2"])
    seat.request_quit()
    assert seat.left_before_quit == left
    assert clock.now - START < took, "waited only until the bot had read or left"
    clock.advance(1.0)
    bot.assert_done()


def test_the_wait_for_a_bot_to_read_its_last_lines_is_bounded() -> None:
    seat, bot, clock = ready_seat()
    bot.reading = False
    seat.notify(["result 1 2"])
    seat.request_quit()
    assert clock.now == pytest.approx(START + 0.5), "QUIT_READ_WAIT, and not a moment more"
    assert seat.left_before_quit is None
