"""A legal move written otherwise than its token, and why the engines refuse it.

A bot that lower-cases its answer, writes the ten ``10`` or lists a pass's cards out of order
means a legal move; a bot that plays a card it does not hold does not. Each mistake gets its own
reason, from the engine (the referee's ``illegal`` fault quotes it), with the token to write,
and a refused move changes nothing. The texts of ``docs/records.md`` ("How cards are written")
are checked here as the engines produce them.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Sequence

import pytest

from cardcli.cards import Card, french_24, french_40, french_52, misspelling, token_card
from cardcli.errors import IllegalMoveError, InvalidMoveError, MoveError
from cardcli.games import registry
from cardcli.games.notation import MisorderedMove, respell, sentence

from peppa_deals import deal
from peppa_deals import new_match as new_peppa
from seep_deals import make_deck, moves
from seep_deals import new_match as new_seep
from seep_deals import start

DECKS = {"peppa": french_52, "pigugnin": french_40, "pepper": french_24}


def refusal(m: Any, seat: int, move: str) -> MoveError:
    """The engine's refusal of ``move``, checking that the state is left as it was."""
    before = copy.deepcopy(m)
    with pytest.raises(MoveError) as caught:
        m.apply(seat, move)
    assert m.decisions() == before.decisions() and m.hands == before.hands
    return caught.value


def dealt(game: str, seed: int = 3) -> Any:
    """A match of ``game`` at its first decision for the cards: Peppa's pass, or the first play."""
    m = registry.resolve(game, None, {}, None, seed).new_match()
    deck = list(DECKS[game]())
    random.Random(seed).shuffle(deck)
    m.deal(deck)
    while m.decisions()[0].kind not in ("pass", "play"):
        decision = m.decisions()[0]
        m.apply(decision.seat, decision.moves[-1])
    return m


def first_play(game: str) -> tuple[Any, int, Sequence[str]]:
    """A match at its first play (Peppa's passes made), the seat to play and its moves."""
    m = dealt(game)
    if m.decisions()[0].kind == "pass":
        for d in m.decisions():
            m.apply(d.seat, d.moves[0])
    (decision,) = m.decisions()
    return m, decision.seat, decision.moves


# -- the spelling of one card -------------------------------------------------------------------


def test_a_near_miss_names_its_rule_and_the_token() -> None:
    assert misspelling("QS") is None and misspelling("ZZ") is None and misspelling("1S") is None
    assert misspelling("qs") == (("card tokens are upper case",), "QS")
    assert misspelling("Qs") == (("card tokens are upper case",), "QS")
    assert misspelling("10S") == (("the ten is written T",), "TS")
    assert misspelling("10s") == (("the ten is written T", "card tokens are upper case"), "TS")
    assert token_card("TS") is Card.parse("TS")
    with pytest.raises(InvalidMoveError, match=r"^the ten is written T and card tokens are upper case: write 'TS'$"):
        token_card("10s")
    with pytest.raises(InvalidMoveError, match=r"^not a card: 'ZZ'$"):
        token_card("ZZ")


def test_people_s_spellings_still_parse_where_people_type_them() -> None:
    assert Card.parse("qs") is Card.parse("QS") and Card.parse("10h") is Card.parse("TH")
    assert Card.parse("TH").symbol() == "10♥" and Card.parse("TH").text == "TH"


def test_a_token_is_respelt_card_by_card() -> None:
    assert respell("take:js:10h+2c,h11") == ("take:JS:TH+2C,h11", ("card tokens are upper case", "the ten is written T"))
    assert respell("build:12:5C+3D+4H") == ("build:12:5C+3D+4H", ())
    assert respell("pass") == ("pass", ()) and respell("NT") == ("NT", ())
    assert sentence(["a"]) == "a" and sentence(["a", "b"]) == "a and b" and sentence(["a", "b", "c"]) == "a, b and c"


# -- Peppa's pass -------------------------------------------------------------------------------


def test_peppa_pass_mistakes_each_get_their_own_reason() -> None:
    m = dealt("peppa")
    seat, offered = m.decisions()[0].seat, m.decisions()[0].moves
    move = offered[0]
    backwards = "+".join(reversed(move.split("+")))
    not_held = next(c.text for c in french_52() if c not in m.hands[seat])
    cases = {
        move.lower(): (InvalidMoveError, f"card tokens are upper case: write '{move}'"),
        backwards: (IllegalMoveError, f"list the cards in canonical order: write '{move}'"),
        backwards.lower(): (InvalidMoveError,
                            f"card tokens are upper case and list the cards in canonical order: write '{move}'"),
        f"{move.split('+')[0]}+{move.split('+')[1]}+{not_held}": (IllegalMoveError, f"cannot pass {not_held}: not in hand"),
        "ZZ+AS+KS": (InvalidMoveError, "not a card: 'ZZ'"),
    }
    for bad, (kind, reason) in cases.items():
        err = refusal(m, seat, bad)
        assert isinstance(err, kind), (bad, err)
        assert str(err) == reason, bad
    assert isinstance(refusal(m, seat, backwards), MisorderedMove)


def test_a_pass_with_its_ten_written_10_is_told_the_ten_is_t() -> None:
    m = dealt("peppa")
    seat, with_ten = next((d.seat, p) for d in m.decisions() for p in d.moves if "T" in p)
    err = refusal(m, seat, with_ten.replace("T", "10"))
    assert str(err) == f"the ten is written T: write '{with_ten}'"


# -- plays in the trick games -------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(DECKS))
def test_a_play_in_lower_case_or_with_10_is_told_so(game: str) -> None:
    m, seat, offered = first_play(game)
    card = offered[0]
    assert str(refusal(m, seat, card.lower())) == f"card tokens are upper case: write '{card}'"
    tens = [c for c in offered if c.startswith("T")]
    if tens:
        assert str(refusal(m, seat, "10" + tens[0][1])) == f"the ten is written T: write '{tens[0]}'"
    held = set(offered)
    absent = next(c.text for c in DECKS[game]() if c.text not in held and c not in m.hands[seat])
    # two mistakes: both are named, the spelling first
    assert str(refusal(m, seat, absent.lower())) == (
        f"card tokens are upper case ('{absent}', not '{absent.lower()}'); even so, {absent} is not in seat {seat}'s hand")
    assert str(refusal(m, seat, absent)) == f"{absent} is not in seat {seat}'s hand"
    assert str(refusal(m, seat, "ZZ")) == "not a card: 'ZZ'"
    m.apply(seat, card)  # the same match goes on with the offered token


def test_a_lower_case_card_that_may_not_be_played_names_both_mistakes() -> None:
    m, seat, offered = first_play("peppa")
    m.apply(seat, offered[0])
    (decision,) = m.decisions()
    held = [c for c in m.hands[decision.seat] if c.text not in decision.moves]
    if not held:
        pytest.skip("the seat to play may play every card it holds")
    card = held[0].text
    err = refusal(m, decision.seat, card.lower())
    assert str(err).startswith(f"card tokens are upper case ('{card}', not '{card.lower()}'); even so, {card} may not be played now")


# -- Seep ---------------------------------------------------------------------------------------


def seep_opening() -> Any:
    """The bidder holds JS 9C 3H 4H, bids 11; the floor is 2C 6D 9D 5S."""
    m = new_seep()
    start(m, make_deck(4, "2C 6D 9D 5S", ["JS 9C 3H 4H"]), 11)
    assert moves(m) == ["take:JS:2C+9D,6D+5S", "build:11:9C+2C,6D+5S", "build:11:3H+2C+6D", "build:11:4H+2C+5S"]
    return m


@pytest.mark.parametrize("bad, reason", [
    ("take:js:2c+9d,6d+5s", "card tokens are upper case: write 'take:JS:2C+9D,6D+5S'"),
    ("take:JS:6D+5S,2C+9D", "list the cards in canonical order: write 'take:JS:2C+9D,6D+5S'"),
    ("take:JS:9D+2C,6D+5S", "list the cards in canonical order: write 'take:JS:2C+9D,6D+5S'"),
    ("take:JS:2C+6D+9D+5S", "group the cards as the offered move does: write 'take:JS:2C+9D,6D+5S'"),
    ("build:11:2C+3H+6D", "put the hand card first: write 'build:11:3H+2C+6D'"),
    ("build:11:6D+2C+3H", "put the hand card first and list the cards in canonical order: write 'build:11:3H+2C+6D'"),
    ("build:11:6d+2c+3h",
     "card tokens are upper case, put the hand card first and list the cards in canonical order: write 'build:11:3H+2C+6D'"),
    ("take:JS:2C+9D", "take:JS:2C+9D is not a legal move here"),
    ("throw:9c", "card tokens are upper case ('throw:9C', not 'throw:9c'); even so, throw:9C is not a legal move here"),
    ("TAKE:JS:2C+9D,6D+5S", "a Seep move is take:, build:, cement:, break: or throw: ...: 'TAKE:JS:2C+9D,6D+5S'"),
])
def test_seep_moves_written_otherwise_are_told_what_to_change(bad: str, reason: str) -> None:
    m = seep_opening()
    assert str(refusal(m, 0, bad)) == reason


def test_the_examples_of_the_docs_are_the_engines_details() -> None:
    """``docs/records.md`` ("How cards are written") and ``docs/tutorial.md`` quote these."""
    rest = [c.text for c in french_52() if c.text not in ("2C", "7D", "QS")]
    hands = [" ".join(rest[13 * k: 13 * k + 13]) for k in range(3)] + [" ".join(["2C", "7D", "QS", *rest[39:]])]
    m = new_peppa()
    deal(m, hands, "right", passes={0: "2C 7D QS"}, do_pass=False)  # seat 0 holds them, to pass right
    assert "2C+7D+QS" in m.decisions()[0].moves
    assert str(refusal(m, 0, "7D+2C+QS")) == "list the cards in canonical order: write '2C+7D+QS'"
    assert str(refusal(m, 0, "7d+2c+qs")) == \
        "card tokens are upper case and list the cards in canonical order: write '2C+7D+QS'"
    seep = new_seep()
    start(seep, make_deck(4, "TH KC KD KS", ["AC JC 2D 3D"]), 11)
    assert "build:11:AC+TH" in moves(seep)
    assert str(refusal(seep, 0, "build:11:TH+AC")) == "put the hand card first: write 'build:11:AC+TH'"
