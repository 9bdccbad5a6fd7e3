"""Peppa: dealing, passing, turn order, following suit and the lead options, on scripted deals.

Rules: ../shared/RULES.md section 1 (Peppa) and section 6 "Precisions"; seed 000.
Deals are written by play position (see peppa_deals.py); with first_dealer=1 and clockwise
play the first leader is seat 0 and positions are seats.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from cardcli.cards import Card, cards, french_52
from cardcli.errors import IllegalMoveError, InvalidMoveError, MoveError
from cardcli.games import registry
from cardcli.games.base import Decision
from cardcli.games.dealing import draw_seat

from peppa_deals import (
    BASE,
    BASE_TORINO,
    BASE_WINNERS,
    OFFSET,
    canonical,
    deal,
    finish_deal,
    new_match,
    of_kind,
    play_deal,
    seat_points,
    taken,
    token,
)


def texts(s: str) -> tuple[str, ...]:
    """Card texts in canonical order (suit C D H S, then rank), as moves are listed."""
    return tuple(c.text for c in canonical(cards(s)))


def snapshot(m):
    """What a refused move must leave untouched."""
    return (
        m.decisions(),
        [tuple(h) for h in m.hands],
        m.dealt_hands,
        list(m.totals),
        m.deal_number,
    )


def received_from(events) -> dict[int, tuple[int, tuple[str, ...]]]:
    """receiver -> (giver, cards) from the private ``received`` events."""
    got = {}
    for e in events:
        if e.kind == "received":
            (receiver,) = e.audience
            got[receiver] = (int(e.args[0]), e.args[1:])
    return got


# -- dealing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "direction, order",
    [
        # first_dealer 0: the first leader is the dealer's right, seat 3; then in play direction
        ("cw", [3, 0, 1, 2]),
        ("ccw", [3, 2, 1, 0]),
    ],
)
def test_deal_order_options(direction, order):
    deck = french_52()  # 2C..AC, 2D..AD, 2H..AH, 2S..AS
    m = new_match(first_dealer=0, play_direction=direction, deal_order="one_at_a_time")
    events = m.deal(deck)
    # one at a time: card k goes to the (k mod 4)-th seat of the order
    for k, seat in enumerate(order):
        assert m.dealt_hands[seat] == tuple(canonical(deck[k::4]))
    # every seat sees its own hand and nobody else's
    hands = [e for e in events if e.kind == "hand"]
    assert [(e.audience, e.args) for e in hands] == [
        (frozenset({s}), tuple(c.text for c in m.dealt_hands[s])) for s in range(4)
    ]

    m = new_match(first_dealer=0, play_direction=direction, deal_order="thirteen_at_a_time")
    m.deal(deck)
    # thirteen at a time: the k-th seat of the order gets the k-th block of 13 = a whole suit
    for k, seat in enumerate(order):
        assert m.dealt_hands[seat] == deck[13 * k : 13 * k + 13]
        assert {c.suit for c in m.dealt_hands[seat]} == {"CDHS"[k]}


def test_one_at_a_time_is_the_default():
    m = registry.resolve("peppa", None, {}, None, 0).new_match()
    assert m.options.deal_order == "one_at_a_time"


def test_deal_refuses_a_bad_deck_and_an_untimely_deal():
    m = new_match()
    deck = french_52()
    with pytest.raises(IllegalMoveError):
        m.deal(deck[:51])
    with pytest.raises(IllegalMoveError):
        m.deal(deck[:51] + deck[:1])  # 2C twice, AS missing
    assert m.needs_deal() and m.deal_number == 0
    m.deal(deck)
    with pytest.raises(IllegalMoveError):
        m.deal(deck)  # the pass is due, not a deal


def test_first_dealer_option():
    for seed in range(8):
        setup = registry.resolve("peppa", None, {}, None, seed)
        assert setup.first_dealer == draw_seat(seed, 4)  # random: drawn from the seed
        for fixed in range(4):
            setup = registry.resolve("peppa", None, {"first_dealer": str(fixed)}, None, seed)
            assert setup.first_dealer == fixed
            assert setup.new_match().dealer == fixed


# -- passing --------------------------------------------------------------------------------


def test_torino_passes_to_the_right_every_hand():
    m = new_match()
    for number in range(1, 6):
        t = deal(m, BASE.hands, "right", do_pass=False)
        assert {d.seat for d in m.decisions()} == {0, 1, 2, 3}
        assert {d.kind for d in m.decisions()} == {"pass"}
        events = t.pass_all()
        # seat i gives to its right, i-1; so seat r receives from r+1
        got = received_from(events)
        assert got == {
            r: ((r + 1) % 4, tuple(t.passes[(r + 1) % 4].split("+"))) for r in range(4)
        }
        for e in events:
            if e.kind == "passed":
                (giver,) = e.audience
                assert e.args == (str((giver - 1) % 4), *t.passes[giver].split("+"))
        t.play(*BASE.tricks)
        assert m.deal_number == number
    # 5 deals of BASE rotate the 17/11/1/7 around: no total can pass 100 yet
    assert not m.is_over()


def test_passing_is_simultaneous():
    m = new_match()
    t = deal(m, BASE.hands, "right", do_pass=False)
    seat1_moves = next(d for d in m.decisions() if d.seat == 1).moves
    dealt = [tuple(h) for h in m.hands]
    for n, seat in enumerate((2, 0, 3), start=1):
        events = m.apply(seat, t.passes[seat])
        # only the private confirmation to the giver: nothing is received yet
        assert [e.kind for e in events] == ["passed"]
        assert events[0].audience == frozenset({seat})
        # a seat that passed has no further decision, and cannot pass or play again
        assert {d.seat for d in m.decisions()} == {0, 1, 2, 3} - set((2, 0, 3)[:n])
        with pytest.raises(IllegalMoveError):
            m.apply(seat, t.passes[seat])
        assert [tuple(h) for h in m.hands] == dealt  # no card has moved
    # the last seat still chooses from its dealt hand, without having seen anything
    assert m.decisions() == (Decision(1, "pass", seat1_moves),)
    events = m.apply(1, t.passes[1])
    assert [e.kind for e in events] == ["passed"] + ["received"] * 4 + ["trick"]
    for e in events[1:5]:
        assert len(e.audience) == 1  # each receiver alone sees what it got
    assert of_kind(events, "trick") == [("1", "0")]
    assert [frozenset(h) for h in m.hands] == t.hands


def test_pass_moves_are_the_canonical_triples_of_the_hand():
    m = new_match()
    t = deal(m, BASE.hands, "right", do_pass=False)
    for d in m.decisions():
        hand = canonical(t.dealt[d.seat])
        expected = {"+".join(c.text for c in trio) for trio in combinations(hand, 3)}
        assert len(d.moves) == 286 == len(set(d.moves))  # C(13, 3)
        assert set(d.moves) == expected


def _bad_passes(hand, other):
    """Ill-formed or illegal passes for a seat holding ``hand`` (canonical order)."""
    a, b, c = hand[0], hand[5], hand[12]
    return [
        ("not in hand", token([a, b, other]), IllegalMoveError),
        ("non-canonical order", f"{c.text}+{b.text}+{a.text}", IllegalMoveError),
        ("two cards", f"{a.text}+{b.text}", MoveError),
        ("four cards", f"{a.text}+{b.text}+{c.text}+{hand[6].text}", MoveError),
        ("same card three times", f"{a.text}+{a.text}+{a.text}", MoveError),
        ("not cards", "XX+YY+ZZ", InvalidMoveError),
        ("lower case", token([a, b, c]).lower(), MoveError),
        ("a single card", a.text, MoveError),
        ("empty", "", MoveError),
    ]


def test_illegal_passes_raise_and_change_nothing():
    m = new_match()
    t = deal(m, BASE.hands, "right", do_pass=False)
    hand = canonical(t.dealt[0])
    other = next(c for c in french_52() if c not in hand)
    before = snapshot(m)
    for why, move, error in _bad_passes(hand, other):
        with pytest.raises(error):
            m.apply(0, move)
        assert snapshot(m) == before, why
    with pytest.raises(MoveError):
        m.apply(4, t.passes[0])  # no such seat
    assert snapshot(m) == before
    # seat 0 already passed: a second (otherwise legal) pass is refused, nothing changes
    m.apply(0, t.passes[0])
    after_one = snapshot(m)
    with pytest.raises(IllegalMoveError):
        m.apply(0, token(hand[3:6]))
    assert snapshot(m) == after_one
    for seat in (1, 2, 3):
        m.apply(seat, t.passes[seat])
    assert [frozenset(h) for h in m.hands] == t.hands


def test_standard_pass_cycle_left_right_across():
    m = new_match("standard")
    expected = ["left", "right", "across", "left", "right", "across", "left"]
    for number, direction in enumerate(expected, start=1):
        t = deal(m, BASE.hands, direction, do_pass=False)  # checks the `passing` event
        got = received_from(t.pass_all())
        # seat g gives to g + offset; so receiver r got from r - offset
        assert {r: g for r, (g, _) in got.items()} == {
            r: (r - OFFSET[direction]) % 4 for r in range(4)
        }
        t.play(*BASE.tricks)
        assert m.deal_number == number
    # each seat took at most 100+95+65+5 per 4 deals: nowhere near 1000
    assert not m.is_over()


def test_pass_cycle_option_and_hold():
    m = new_match(pass_cycle="across,hold")
    for direction in ("across", "hold", "across", "hold"):
        t = deal(m, BASE.hands, direction, do_pass=False)
        if direction == "hold":
            # no pass at all: the first trick is open at once, led by the dealer's right
            assert of_kind(t.events, "trick") == [("1", str(t.leader))]
            assert m.decisions()[0].kind == "play"
            assert [frozenset(h) for h in m.hands] == t.hands
        else:
            got = received_from(t.pass_all())
            assert {r: g for r, (g, _) in got.items()} == {r: (r + 2) % 4 for r in range(4)}
        t.play(*BASE.tricks)

    m = new_match("standard", pass_cycle="right")
    for _ in range(3):
        play_deal(m, BASE, "right")


# -- leaders, turn order, dealer rotation ----------------------------------------------------


@pytest.mark.parametrize("direction, step", [("cw", 1), ("ccw", -1)])
@pytest.mark.parametrize("first_dealer", [0, 1, 2, 3])
def test_first_leader_is_the_dealers_right_and_turn_order(direction, step, first_dealer):
    m = new_match(first_dealer=first_dealer, play_direction=direction)
    t = deal(m, BASE.hands, "right")  # Torino pass first: the leader is not changed by it
    leader = (first_dealer - 1) % 4
    assert t.leader == leader
    assert of_kind(t.events, "trick") == [("1", str(leader))]
    seats = []
    for card_text in BASE.tricks[0].split():
        (d,) = m.decisions()
        seats.append(d.seat)
        t.play(card_text)
    assert seats == [(leader + k * step) % 4 for k in range(4)]


def test_ccw_full_deal():
    # ccw, dealer 1: positions p0..p3 are seats 0, 3, 2, 1 (leader 0, then 0-1 = 3, ...)
    m = new_match(play_direction="ccw")
    t = play_deal(m, BASE, "right")
    assert t.order == [0, 3, 2, 1]
    assert [w for w, _ in taken(t.events)] == [t.order[p] for p in BASE_WINNERS]
    # BASE_TORINO by position (17, 11, 1, 7) -> by seat: seat0 17, seat3 11, seat2 1, seat1 7
    assert seat_points(BASE_TORINO, t) == (17, 7, 1, 11)
    assert tuple(m.totals) == (17, 7, 1, 11)


@pytest.mark.parametrize(
    "direction, rotation, dealers",
    [
        ("cw", "left", [0, 1, 2, 3, 0]),
        ("cw", "play_direction", [0, 1, 2, 3, 0]),
        ("ccw", "left", [0, 1, 2, 3, 0]),  # left is dealer+1 whatever the direction
        ("ccw", "play_direction", [0, 3, 2, 1, 0]),  # one seat in play direction: dealer-1
    ],
)
def test_dealer_rotation(direction, rotation, dealers):
    m = new_match(first_dealer=0, play_direction=direction, dealer_rotation=rotation,
                  pass_cycle="hold")
    for number, dealer in enumerate(dealers, start=1):
        t = play_deal(m, BASE)
        assert of_kind(t.events, "deal") == [(str(number), str(dealer))]
        # the first leader is always the dealer's right, dealer-1
        assert of_kind(t.events, "trick")[0] == ("1", str((dealer - 1) % 4))


def test_default_options_follow_the_seed():
    m = new_match()
    o = m.options
    assert (o.play_direction, o.dealer_rotation, o.pass_cycle) == ("cw", "left", ("right",))
    assert not (o.two_of_clubs_leads or o.no_points_first_trick or o.hearts_must_be_broken
                or o.queen_breaks_hearts or o.end_inclusive)
    assert (o.end_threshold, o.boundary_tie, o.cappotto) == (100, "play_on", "all_penalty_cards")
    s = new_match("standard").options
    assert s.pass_cycle == ("left", "right", "across")
    assert (s.card_values, s.cappotto, s.end_threshold) == ("standard", "all_tricks", 1000)
    assert s.play_direction == "cw"


# -- following suit and winning tricks --------------------------------------------------------

FOLLOW = (
    "2C 3C 4C 5C 6C 7C 8C 2D 4D 5D 6D 7D 8D",
    "9C TC JC QC KC AC 3D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)


def test_follow_suit_and_the_trick_winner():
    m = new_match(pass_cycle="hold")
    t = deal(m, FOLLOW)
    # the first leader may lead any card
    assert m.decisions() == (Decision(0, "play", texts(FOLLOW[0])),)
    t.play("2D")
    # seat 1 holds diamonds: only diamonds are legal
    assert m.decisions() == (Decision(1, "play", texts("3D 9D TD JD QD KD AD")),)
    before = snapshot(m)
    with pytest.raises(IllegalMoveError):
        m.apply(1, "9C")  # revoke refused
    with pytest.raises(IllegalMoveError):
        m.apply(2, "AS")  # out of turn
    with pytest.raises(IllegalMoveError):
        m.apply(1, "2D")  # not in hand (already played by seat 0)
    for bad in ("qd", "10D", "ZZ", "", "QD QD"):
        with pytest.raises(InvalidMoveError):
            m.apply(1, bad)  # not the canonical text of a card
    assert snapshot(m) == before
    t.play("3D")
    # seats 2 and 3 have no diamond: any card is legal
    assert m.decisions() == (Decision(2, "play", texts(FOLLOW[2])),)
    t.play("AS")
    assert m.decisions() == (Decision(3, "play", texts(FOLLOW[3])),)
    events = t.play("AH")
    # 3D is the highest diamond; AS and AH are off-suit and never win. AH = 5 points.
    assert of_kind(events, "taken") == [("1", "1", "5")]
    assert of_kind(events, "trick") == [("2", "1")]
    # the winner leads, any card
    assert m.decisions() == (Decision(1, "play", texts("9C TC JC QC KC AC 9D TD JD QD KD AD")),)
    t.play("9C")
    t.play("2S", "2H")
    assert m.decisions() == (Decision(0, "play", texts("2C 3C 4C 5C 6C 7C 8C")),)
    events = t.play("8C")
    assert of_kind(events, "taken") == [("2", "1", "1")]  # 9C beats 8C; 2H = 1 point


def test_full_deal_winners_lead():
    m = new_match()
    t = play_deal(m, BASE, "right")
    # BASE_WINNERS was worked out by hand trick by trick (see peppa_deals.BASE)
    assert [w for w, _ in taken(t.events)] == BASE_WINNERS
    leaders = [int(a[1]) for a in of_kind(t.events, "trick")]
    assert leaders == [0] + BASE_WINNERS[:-1]
    assert [a[0] for a in of_kind(t.events, "taken")] == [str(n) for n in range(1, 14)]


# -- lead options ---------------------------------------------------------------------------


def test_two_of_clubs_leads():
    # Final hands: seat 2 holds BASE p0's hand, with the 2C. Seat 3 was dealt the 2C and
    # passes it right to seat 2 (Torino pass), so seat 2 is not the dealer's right (seat 0).
    hands = (BASE.hands[1], BASE.hands[2], BASE.hands[0], BASE.hands[3])
    m = new_match(two_of_clubs_leads=True)
    t = deal(m, hands, "right", passes={3: "2C 3C 6C"}, do_pass=False)
    assert Card.parse("2C") in t.dealt[3]
    events = t.pass_all()
    assert of_kind(events, "trick") == [("1", "2")]
    assert m.decisions() == (Decision(2, "play", ("2C",)),)
    before = snapshot(m)
    with pytest.raises(IllegalMoveError):
        m.apply(2, "QS")
    with pytest.raises(IllegalMoveError):
        m.apply(0, "4C")  # the dealer's right does not lead with this option
    assert snapshot(m) == before
    t.play("2C")
    assert m.decisions()[0].seat == 3  # clockwise from the 2C's holder

    # ccw: the same, the next seat is 2-1 = 1
    m = new_match(two_of_clubs_leads=True, play_direction="ccw")
    # ccw dealer 1: positions are seats 0, 3, 2, 1; put BASE p0's hand (with 2C) at seat 2
    t = deal(m, (hands[0], hands[3], hands[2], hands[1]), "right", passes={3: "2C 3C 6C"})
    assert m.decisions() == (Decision(2, "play", ("2C",)),)
    t.play("2C")
    assert m.decisions()[0].seat == 1

    # without the option: the dealer's right leads any card
    m = new_match()
    t = deal(m, hands, "right", passes={3: "2C 3C 6C"})
    assert of_kind(t.events, "trick") == [("1", "0")]
    assert m.decisions() == (Decision(0, "play", tuple(c.text for c in canonical(t.hands[0]))),)


def test_two_of_clubs_leads_without_a_pass():
    m = new_match(two_of_clubs_leads=True, pass_cycle="hold")
    hands = (BASE.hands[3], BASE.hands[0], BASE.hands[1], BASE.hands[2])  # 2C at seat 1
    t = deal(m, hands)
    assert of_kind(t.events, "trick") == [("1", "1")]
    assert m.decisions() == (Decision(1, "play", ("2C",)),)


NO_POINTS = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2H 2S",
    "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "KC AC 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH AD",
)


def test_no_points_first_trick():
    m = new_match(no_points_first_trick=True, pass_cycle="hold")
    t = deal(m, NO_POINTS)
    # the lead is restricted too: no 2H
    assert m.decisions() == (Decision(0, "play", texts("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2S")),)
    with pytest.raises(IllegalMoveError):
        m.apply(0, "2H")
    t.play("2S")
    # seat 1's only spade is QS: it must follow with it, nothing else is legal
    assert m.decisions() == (Decision(1, "play", ("QS",)),)
    t.play("QS")
    t.play("AS")
    # seat 3 has no spade; its hearts are refused while it holds a non-point card (AD)
    assert m.decisions() == (Decision(3, "play", ("AD",)),)
    with pytest.raises(IllegalMoveError):
        m.apply(3, "AH")
    events = t.play("AD")
    assert of_kind(events, "taken") == [("1", "2", "13")]  # AS wins; QS = 13
    # from the second trick on there is no restriction
    t.play("KC")
    assert m.decisions() == (Decision(3, "play", texts("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")),)

    # the same deal without the option: hearts may be led and discarded on trick 1
    m = new_match(pass_cycle="hold")
    t = deal(m, NO_POINTS)
    assert "2H" in m.decisions()[0].moves
    t.play("2S", "QS", "AS")
    assert m.decisions() == (Decision(3, "play", texts("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH AD")),)


ONLY_POINTS = (
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


@pytest.mark.parametrize(
    "option", ["no_points_first_trick", "hearts_must_be_broken", "both"]
)
def test_a_leader_with_only_hearts_may_lead_one(option):
    given = {"no_points_first_trick": "true", "hearts_must_be_broken": "true"}
    if option != "both":
        given = {option: "true"}
    m = new_match(pass_cycle="hold", **given)
    t = deal(m, ONLY_POINTS)
    assert m.decisions() == (Decision(0, "play", texts(ONLY_POINTS[0])),)
    t.play("2H")
    if "no_points_first_trick" in given:
        # seat 1 is void in hearts; QS is refused while it holds diamonds
        assert m.decisions() == (Decision(1, "play", texts("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD")),)
        with pytest.raises(IllegalMoveError):
            m.apply(1, "QS")
    else:
        assert m.decisions() == (Decision(1, "play", texts(ONLY_POINTS[1])),)


def test_no_points_first_trick_when_void_holding_only_points():
    # ALL_SUITS-like deal: seat 2 holds the 13 hearts and is void in the led clubs
    m = new_match(no_points_first_trick=True, pass_cycle="hold")
    hands = (
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )
    t = deal(m, hands)
    t.play("2C", "2D")
    assert m.decisions() == (Decision(2, "play", texts(hands[2])),)  # nothing else is legal
    t.play("AH")
    # seat 3 is void in clubs with spades: every spade but QS
    assert m.decisions() == (Decision(3, "play", texts("2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS")),)


HEARTS = (
    "QC KC AC 2D 3D 4D 5D 6D 7D 8D 2H 3H 4H",
    "9D TD JD QD KD AD 5H 6H 7H 2S 3S 4S QS",
    "2C 3C 4C 5C 6C 8H 9H TH 5S 6S 7S 8S 9S",
    "7C 8C 9C TC JC JH QH KH AH TS JS KS AS",
)


@pytest.mark.parametrize("queen_breaks", [False, True])
def test_hearts_must_be_broken(queen_breaks):
    m = new_match(hearts_must_be_broken=True, queen_breaks_hearts=queen_breaks,
                  pass_cycle="hold")
    t = deal(m, HEARTS)
    no_hearts = texts("QC KC AC 2D 3D 4D 5D 6D 7D 8D")
    assert m.decisions() == (Decision(0, "play", no_hearts),)
    with pytest.raises(IllegalMoveError):
        m.apply(0, "2H")
    t.play("AC")
    # discarding a heart or the queen is not restricted by this option
    assert m.decisions() == (Decision(1, "play", texts(HEARTS[1])),)
    events = t.play("QS", "2C", "7C")
    assert of_kind(events, "taken") == [("1", "0", "13")]
    # trick 2: only Q♠ has been played
    if queen_breaks:
        assert m.decisions() == (Decision(0, "play", texts("QC KC 2D 3D 4D 5D 6D 7D 8D 2H 3H 4H")),)
    else:
        assert m.decisions() == (Decision(0, "play", texts("QC KC 2D 3D 4D 5D 6D 7D 8D")),)
        with pytest.raises(IllegalMoveError):
            m.apply(0, "2H")
    events = t.play("KC", "5H", "3C", "8C")  # seat 1, void in clubs, throws a heart
    assert of_kind(events, "taken") == [("2", "0", "1")]
    # trick 3: a heart was played in an earlier trick, hearts are broken
    assert m.decisions() == (Decision(0, "play", texts("QC 2D 3D 4D 5D 6D 7D 8D 2H 3H 4H")),)
    t.play("2H")
    assert m.decisions() == (Decision(1, "play", texts("6H 7H")),)

    # the next deal starts unbroken again
    finish_deal(m)
    t = deal(m, HEARTS)  # dealer 2 now: positions are seats 1, 2, 3, 0
    assert m.decisions() == (Decision(1, "play", no_hearts),)


def test_queen_breaks_hearts_alone_changes_nothing():
    # without hearts_must_be_broken there is no restriction for Q♠ to lift
    m = new_match(queen_breaks_hearts=True, pass_cycle="hold")
    deal(m, HEARTS)
    assert m.decisions() == (Decision(0, "play", texts(HEARTS[0])),)
