"""The lazy pass list reads exactly like the tuple of tokens it stands for."""

from __future__ import annotations

from itertools import combinations

from cardcli.games.combos import Combinations

HAND = ("2C", "5C", "JC", "3D", "9D", "4H", "QH", "AH", "2S", "7S", "TS", "QS", "KS")
TOKENS = tuple("+".join(c) for c in combinations(HAND, 3))


def test_it_lists_every_pass_in_order() -> None:
    moves = Combinations(HAND, 3)
    assert len(moves) == 286
    assert tuple(moves) == TOKENS and moves == TOKENS and list(moves) == list(TOKENS)
    assert [moves[i] for i in (0, 1, 100, 285, -1)] == [TOKENS[i] for i in (0, 1, 100, 285, -1)]
    assert moves[10:13] == TOKENS[10:13]
    assert hash(moves) == hash(TOKENS)


def test_membership_accepts_exactly_the_listed_tokens() -> None:
    moves = Combinations(HAND, 3)
    assert all(token in moves for token in TOKENS)
    for token in ("QS+2C+5C", "2C+2C+5C", "2C+5C", "2C+5C+JC+3D", "2C+5C+XX", "2c+5C+JC", "", 3, None):
        assert token not in moves


def test_a_smaller_hand_and_another_separator() -> None:
    moves = Combinations(("A", "B", "C", "D"), 2, sep="/")
    assert tuple(moves) == ("A/B", "A/C", "A/D", "B/C", "B/D", "C/D")
    assert "B/D" in moves and "D/B" not in moves
