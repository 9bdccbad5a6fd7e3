"""Each rule of docs/rules.md on a scripted deal: a known deck, known moves, known scores."""

from __future__ import annotations

import pytest

from cardcli.errors import IllegalMoveError, InvalidMoveError
from cardcli.games.base import Event

from briscola_scripts import new_match, next_dealer, play_script, stacked_deck, suit_script

HEARTS_DIAMONDS_TO_0 = {"H": 0, "D": 0, "S": 1, "C": 1}
"""A 60-60 deal: seat 0 takes hearts and diamonds, seat 1 spades and clubs."""


def lines(events: list[Event], seat: int | None = None) -> list[str]:
    """The events' lines, all of them or those ``seat`` sees."""
    return [e.line() for e in events if seat is None or e.visible_to(seat)]


# -- one trick ------------------------------------------------------------------------------


def test_a_trump_beats_the_ace_of_the_suit_led() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, [{0: "AH", 1: "2C"}], "4C")
    assert "taken 1 1 11" in lines(events)
    assert match.current_player() == 1


def test_a_card_of_another_suit_never_wins_whatever_its_rank() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, [{0: "5H", 1: "AS"}], "4C")
    assert "taken 1 0 11" in lines(events)


def test_the_best_card_of_the_suit_led_wins_ranked_ace_three_king() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, [{0: "3H", 1: "AH"}, {1: "KD", 0: "3D"}, {0: "7S", 1: "KS"}], "4C")
    taken = [line for line in lines(events) if line.startswith("taken")]
    assert taken == ["taken 1 1 21", "taken 2 0 14", "taken 3 1 4"]


def test_the_higher_trump_wins_and_no_suit_need_be_followed() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, [{0: "3C", 1: "AC"}, {1: "5H", 0: "2S"}], "4C")
    assert [line for line in lines(events) if line.startswith("taken")] == ["taken 1 1 21", "taken 2 1 0"]


def test_every_card_in_hand_is_offered() -> None:
    match = new_match(2, dealer=1)
    match.deal(stacked_deck([{0: "5H", 1: "AS"}], "4C", 2, 1))
    decision = match.decisions()[0]
    assert decision.seat == 0 and decision.kind == "play"
    assert decision.moves == tuple(t for t in decision.moves) and len(decision.moves) == 3
    match.apply(0, "5H")
    assert len(match.decisions()[0].moves) == 3


def test_wrong_moves_are_refused_and_change_nothing() -> None:
    match = new_match(2, dealer=1)
    match.deal(stacked_deck([{0: "5H", 1: "AS"}], "4C", 2, 1))
    hand = match.decisions()[0].moves
    with pytest.raises(IllegalMoveError):
        match.apply(1, "AS")  # not seat 1's turn
    with pytest.raises(IllegalMoveError):
        match.apply(0, "AS")  # not in seat 0's hand
    with pytest.raises(InvalidMoveError):
        match.apply(0, "TS")  # the ten is not in the 40 cards
    with pytest.raises(InvalidMoveError):
        match.apply(0, "5h")
    with pytest.raises(InvalidMoveError):
        match.apply(0, "pass")
    assert match.decisions()[0].moves == hand and match.current_player() == 0


# -- the deal, the stock and the drawing ------------------------------------------------------


def test_the_deal_the_turned_up_briscola_and_the_first_leader() -> None:
    match = new_match(2, dealer=0)
    deck = stacked_deck([{1: "5H", 0: "AS"}], "4C", 2, 0)
    events = match.deal(deck)
    assert lines(events)[0] == "deal 1 0"
    assert "briscola 4C" in lines(events)
    assert lines(events)[-1] == "trick 1 1"  # the player after the dealer leads
    facts = match.deal_facts()
    assert facts["stock"][-1] == "4C" and len(facts["stock"]) == 34
    assert sorted(facts["hands"][0] + facts["hands"][1] + facts["stock"]) == sorted(c.text for c in deck)
    hand_events = [e for e in events if e.kind == "hand"]
    assert [e.audience for e in hand_events] == [frozenset({0}), frozenset({1})]


def test_the_taker_draws_first_then_leads() -> None:
    match = new_match(2, dealer=1)
    script = [{0: "5H", 1: "2C"}, {1: "AD", 0: "3D"}, {1: "7S", 0: "6S"}, {1: "QH", 0: "KH"}]
    events = play_script(match, script, "4C")
    draws_seen_by_1 = [line for line in lines(events, 1) if line.startswith("draw")]
    # after trick 1, taken by seat 1: seat 1 draws first (its own card shown to it), then seat 0
    assert draws_seen_by_1[:2] == ["draw 1 QH", "draw 0"]
    assert lines(events).index("taken 1 1 0") < lines(events).index("trick 2 1")
    assert match.current_player() == 0  # seat 0 took trick 4 (K beats Q) and leads trick 5


def test_four_players_draw_from_the_taker_counter_clockwise() -> None:
    match = new_match(4, dealer=0)
    # dealer 0: seat 3 leads; play goes 3, 2, 1, 0; seat 1 trumps
    script = [{3: "AH", 2: "3H", 1: "2C", 0: "KH"}, {1: "5S", 0: "6S", 3: "7S", 2: "4S"}]
    events = play_script(match, script, "4C")
    seen_by_0 = [e.args[:1] if e.kind == "draw" else e.line() for e in events if e.visible_to(0)]
    at = seen_by_0.index("taken 1 1 25")
    assert seen_by_0[at:at + 6] == ["taken 1 1 25", ("1",), ("0",), ("3",), ("2",), "trick 2 1"]
    assert [len(e.args) for e in events if e.kind == "draw" and e.visible_to(0)][:4] == [1, 2, 1, 1]
    assert "taken 2 3 0" in lines(events)


def test_a_seat_sees_its_own_draw_and_only_that_the_others_drew() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, [{0: "5H", 1: "2C"}, {1: "AD", 0: "3D"}, {1: "7S", 0: "6S"}, {1: "QH", 0: "KH"}], "4C")
    for e in events:
        if e.kind == "draw":
            assert e.audience is not None and (len(e.args) == 2) == (int(e.args[0]) in e.audience)


# -- the end of the stock, the last trick and the deal score --------------------------------


def test_the_briscola_is_drawn_last_in_sight_of_all_and_the_hands_are_played_out() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, suit_script({"H": 0, "D": 0, "S": 0, "C": 1}), "2C")
    public_draws = [e.line() for e in events if e.kind == "draw" and e.audience is None]
    assert public_draws == ["draw 0 2C"]  # seat 0 lost trick 17 (K♣ against Q♣), so drew second
    all_lines = lines(events)
    last_draw = max(i for i, line in enumerate(all_lines) if line.startswith("draw"))
    assert all_lines[last_draw + 1] == "trick 18 1"
    assert not any(line.startswith("draw") for line in all_lines[last_draw + 1:])
    assert [line for line in all_lines if line.startswith("taken")][-1] == "taken 20 1 0"
    assert all_lines[-3:] == ["points 90 30", "score 1 1 0", "totals 1 0"]
    assert match.hand_masks == [0, 0] and match.needs_deal()


def test_more_than_60_wins_the_deal() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, suit_script({"H": 1, "D": 1, "S": 1, "C": 0}), "2C")
    assert lines(events)[-3:] == ["points 30 90", "score 1 0 1", "totals 0 1"]
    assert match.deal_scores[0].notes == ("card points 0: 30, 1: 90",)


def test_a_60_60_deal_counts_for_nobody() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, suit_script(HEARTS_DIAMONDS_TO_0), "2C")
    assert lines(events)[-3:] == ["points 60 60", "score 1 0 0", "totals 0 0"]
    assert match.deal_scores[0].notes == ("card points 0: 60, 1: 60", "60-60: the deal counts for nobody")
    assert match.needs_deal()


def test_tie_break_last_trick_gives_a_60_60_deal_to_the_taker_of_the_last_trick() -> None:
    match = new_match(2, dealer=1, tie_break="last_trick")
    events = play_script(match, suit_script(HEARTS_DIAMONDS_TO_0), "2C")
    assert "taken 20 1 0" in lines(events)
    assert lines(events)[-3:] == ["points 60 60", "score 1 0 1", "totals 0 1"]
    assert match.deal_scores[0].notes[-1] == "60-60: the last trick gives the deal to 1"


# -- the match ------------------------------------------------------------------------------


def test_the_match_goes_to_two_deals_won_and_ties_win_nothing() -> None:
    match = new_match(2, dealer=0)
    plan = [
        ({"H": 0, "D": 0, "S": 0, "C": 0}, "1 0"),  # seat 0 takes all 120
        (HEARTS_DIAMONDS_TO_0, "0 0"),  # 60-60
        ({"H": 1, "D": 1, "S": 1, "C": 0}, "0 1"),
    ]
    dealers = []
    for winners, score in plan:
        dealers.append(next_dealer(match))
        events = play_script(match, suit_script(winners), "2C")
        assert lines(events)[-2] == f"score {match.deal_number} {score}"
        assert not match.is_over()
    assert match.seat_totals() == (1, 1)
    with pytest.raises(IllegalMoveError):
        match.outcome()
    dealers.append(next_dealer(match))
    play_script(match, suit_script({"H": 0, "D": 0, "S": 0, "C": 1}), "2C")
    assert match.is_over() and dealers == [0, 1, 0, 1]  # the deal passes on each time
    outcome = match.outcome()
    assert (outcome.scores, outcome.winners, outcome.losers, outcome.draws) == ((2, 1), (0,), (1,), ())
    assert [s.totals for s in match.deal_scores] == [(1, 0), (1, 0), (1, 1), (2, 1)]


def test_target_one_is_a_single_deal() -> None:
    match = new_match(2, dealer=0, target=1)
    play_script(match, suit_script({"H": 1, "D": 1, "S": 1, "C": 0}), "2C")
    assert match.is_over() and match.outcome().winners == (1,)
    with pytest.raises(IllegalMoveError):
        match.deal(stacked_deck([], "2C", 2, 1))


def test_adjudication_and_forfeits() -> None:
    match = new_match(2, dealer=1)
    play_script(match, suit_script({"H": 0, "D": 0, "S": 0, "C": 1}), "2C")
    match.adjudicate()
    assert match.outcome().winners == (0,)
    assert match.outcome(frozenset({0})).winners == (1,) and match.outcome(frozenset({0})).forfeits == (0,)
    even = new_match(2, dealer=1)
    play_script(even, suit_script(HEARTS_DIAMONDS_TO_0), "2C")
    even.adjudicate()
    outcome = even.outcome()
    assert (outcome.winners, outcome.losers, outcome.draws) == ((), (), (0, 1))
    assert even.outcome(frozenset({1})).winners == (0,)


def test_adjudication_only_between_deals() -> None:
    match = new_match(2, dealer=1)
    match.deal(stacked_deck([], "2C", 2, 1))
    with pytest.raises(IllegalMoveError):
        match.adjudicate()


# -- four players in partnerships -------------------------------------------------------------


def four_suit_script() -> list[dict[int, str]]:
    """A four-player deal of 10 tricks, each of one card of every suit and of one rank: the
    seat that plays the club (the trump) takes the trick. Dealer 0, so seat 3 leads.

    Trick ranks and takers: A 0, 3 1, K 2, Q 3, J 0, then 7 1, 6 2, 5 3, 4 0, 2 3. Seats 0+2
    take the aces (44), kings (16) and jacks (8): 68; seats 1+3 the threes (40) and queens
    (12): 52. The last round of drawing starts with seat 2 (taker of trick 7), so seat 3 draws
    last, the turned-up 2♣, and plays it in the last trick."""
    takers = {"A": 0, "3": 1, "K": 2, "Q": 3, "J": 0, "7": 1, "6": 2, "5": 3, "4": 0, "2": 3}
    script = []
    for rank, taker in takers.items():
        others = [s for s in (0, 1, 2, 3) if s != taker]
        trick = {taker: rank + "C"}
        trick.update({seat: rank + suit for seat, suit in zip(others, "DHS")})
        script.append(trick)
    return script


def test_partners_score_together() -> None:
    match = new_match(4, dealer=0)
    events = play_script(match, four_suit_script(), "2C")
    assert [line for line in lines(events) if line.startswith("taken")][:5] == [
        "taken 1 0 44", "taken 2 1 40", "taken 3 2 16", "taken 4 3 12", "taken 5 0 8",
    ]
    assert lines(events)[-3:] == ["points 68 52 68 52", "score 1 1 0 1 0", "totals 1 0 1 0"]
    assert [e.line() for e in events if e.kind == "draw" and e.audience is None] == ["draw 3 2C"]
    assert match.deal_scores[0].notes == ("card points 0+2: 68, 1+3: 52",)


def test_a_partnership_match_is_won_by_both_partners() -> None:
    match = new_match(4, dealer=3, target=1)
    play_script(match, [_rotated(t) for t in four_suit_script()], "2C")
    outcome = match.outcome()
    assert outcome.winners == (1, 3) and outcome.losers == (0, 2)
    assert match.outcome(frozenset({3})).winners == (0, 2)


def _rotated(trick: dict[int, str]) -> dict[int, str]:
    """The same trick one seat further on clockwise (dealer 3 instead of 0)."""
    return {(seat + 3) % 4: card for seat, card in trick.items()}


def test_partners_see_each_others_hands_once_the_stock_is_gone_when_the_option_says_so() -> None:
    for option in (False, True):
        match = new_match(4, dealer=0, partners_see_hands=option)
        events = play_script(match, four_suit_script(), "2C")
        shown = [e for e in events if e.kind == "partner"]
        if not option:
            assert shown == []
            continue
        told = [(sorted(e.audience or ()), e.args[0]) for e in shown]
        assert told == [([0], "2"), ([1], "3"), ([2], "0"), ([3], "1")]
        # shown after the last draw, before trick 8; seat 2 holds what it plays in tricks 8 to 10
        at = events.index(shown[0])
        assert events[at - 1].kind == "draw" and events[at + 4].line() == "trick 8 2"
        assert shown[0].args[1:] == ("4H", "2S", "5S")  # canonical order: clubs, diamonds, hearts, spades


def test_partners_see_hands_changes_nothing_with_two_players() -> None:
    match = new_match(2, dealer=1, partners_see_hands=True)
    events = play_script(match, suit_script(HEARTS_DIAMONDS_TO_0), "2C")
    assert not any(e.kind == "partner" for e in events)


def test_clockwise_play_moves_the_lead_and_the_drawing_the_other_way() -> None:
    match = new_match(4, dealer=0, direction="cw")
    script = [{1: "AH", 2: "3H", 3: "2C", 0: "KH"}]
    events = play_script(match, script, "4C")
    assert lines(events)[-1] == "trick 2 3" and lines(events)[:1] == ["deal 1 0"]
    assert "trick 1 1" in lines(events) and "taken 1 3 25" in lines(events)
    assert [e.args[0] for e in events if e.kind == "draw" and e.visible_to(0)] == ["3", "0", "1", "2"]
