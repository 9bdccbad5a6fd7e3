"""The referee with in-process seats: validation before effect, the fault policy, forfeits,
simultaneous decisions and routing."""

from __future__ import annotations

from cardcli.games import registry
from cardcli.referee import Settings, play_match
from cardcli.replay import verify
from cardcli.seats.builtin import first_seat, random_seat, scripted_seat
from harness import TranscriptSeat


def setup(seed: int = 1, **options):
    return registry.resolve("peppa", None, options, None, seed)


def test_an_illegal_answer_is_never_applied_and_the_seat_forfeits() -> None:
    game = setup()
    result = play_match(game, [scripted_seat("s", ["not-a-move"]), first_seat("a"), first_seat("b"), first_seat("c")])
    assert [(f.seat, f.kind) for f in result.faults] == [(0, "illegal")]
    assert "'not-a-move' refused" in result.faults[0].detail
    first_pass = result.record["deals"][0]["moves"][0]
    assert first_pass["seat"] == 0 and first_pass["by"] == "fallback"
    assert result.outcome is not None and 0 in result.outcome.losers and 0 in result.outcome.forfeits
    verify(result.record)


def test_a_move_not_in_the_offered_list_is_illegal_even_if_the_engine_could_read_it() -> None:
    game = setup(pass_cycle="hold")
    result = play_match(game, [scripted_seat("s", ["qs"]), first_seat("a"), first_seat("b"), first_seat("c")])
    assert result.faults and result.faults[0].kind == "illegal"


def test_abort_policy_ends_the_match_without_a_result() -> None:
    result = play_match(setup(), [scripted_seat("s", ["x"]), first_seat("a"), first_seat("b"), first_seat("c")],
                        Settings(on_fault="abort"))
    assert not result.completed
    assert result.record["status"] == "aborted" and result.record["result"] is None
    verify(result.record)


def test_other_seats_are_told_of_a_forfeit() -> None:
    watcher = TranscriptSeat("w", "1")
    play_match(setup(), [scripted_seat("s", []), watcher, first_seat("b"), first_seat("c")])
    assert "forfeit 0 protocol" in watcher.lines


def test_the_pass_is_simultaneous_nobody_receives_before_all_have_passed() -> None:
    seats = [TranscriptSeat(f"t{i}", str(i)) for i in range(4)]
    result = play_match(setup(), seats)
    first_deal_moves = result.record["deals"][0]["moves"]
    assert [m["seat"] for m in first_deal_moves[:4]] == [0, 1, 2, 3]
    for bot in seats:
        lines = bot.lines
        go_pass = next(i for i, line in enumerate(lines) if line.startswith("go pass"))
        received = next(i for i, line in enumerate(lines) if line.startswith("received"))
        assert go_pass < received
        assert not any(line.startswith("go pass") for line in lines[go_pass + 1 : received])


def test_each_seat_gets_the_match_header_and_the_result() -> None:
    seats = [TranscriptSeat(f"t{i}", str(i)) for i in range(4)]
    result = play_match(setup(seed=3), seats)
    for index, bot in enumerate(seats):
        assert bot.lines[0] == f"game peppa torino 4 {index}"
        assert "order cw" in bot.lines and "begin" in bot.lines
        assert bot.lines[-1].startswith("result ")
    standings = seats[0].lines[-1].split()[1:]
    assert {s for s, r in enumerate(standings) if r == "win"} == set(result.outcome.winners)


def test_built_in_random_players_are_reproducible_by_seed() -> None:
    a = play_match(setup(seed=9), [random_seat("r", f"9/{i}") for i in range(4)]).record
    b = play_match(setup(seed=9), [random_seat("r", f"9/{i}") for i in range(4)]).record
    moves_a = [[m["move"] for m in d["moves"]] for d in a["deals"]]
    moves_b = [[m["move"] for m in d["moves"]] for d in b["deals"]]
    assert moves_a and all(moves_a)
    assert moves_a == moves_b
