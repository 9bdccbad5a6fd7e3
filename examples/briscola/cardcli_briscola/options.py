"""Briscola's options: the few house rules on which the rule texts differ, each declared once.

Every field is made with :func:`cardcli.games.options.option`, so ``cardcli rules``, the
``-o NAME=VALUE`` parser, the protocol's ``option`` lines and the record all read it from here.
cardcli's options carry text choices, so a closed set of choices is an enum of ``str`` values
(:class:`enum.StrEnum`): the option holds the plain text the command line gave, and the rules
compare it with the enum member, which equals its text.

``docs/rules.md`` gives the source of every default and of every alternative.
"""

from __future__ import annotations

from enum import StrEnum

import attrs

from cardcli.games import options as opt


class Direction(StrEnum):
    """The direction of deal and play, as cardcli's ``order`` header line writes it."""

    CCW = "ccw"
    """Counter-clockwise, the Italian way: the player on the dealer's right plays first."""
    CW = "cw"


class TieBreak(StrEnum):
    """Who wins a deal that ends 60 to 60."""

    NONE = "none"
    """Nobody: the deal counts for neither side, and the match goes on."""
    LAST_TRICK = "last_trick"
    """The side that took the last trick."""


def _choices(kind: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in kind)


@attrs.frozen
class BriscolaOptions:
    """Every Briscola option, with the default ``docs/rules.md`` argues for."""

    first_dealer: str = opt.option(
        "random", "the first dealer: drawn from the seed, or a seat number", choices=("random", "0", "1", "2", "3")
    )
    direction: str = opt.option(
        Direction.CCW.value, "direction of deal, play and drawing: ccw is the Italian way",
        choices=_choices(Direction),
    )
    target: int = opt.option(
        2, "deals a side must win to win the match (2: the best of three); a deal that nobody wins counts for nobody",
        minimum=1,
    )
    tie_break: str = opt.option(
        TieBreak.NONE.value, "a deal that ends 60-60: won by nobody, or by the side that took the last trick",
        choices=_choices(TieBreak),
    )
    partners_see_hands: bool = opt.option(
        False, "4 players: once the stock is used up, each player is shown its partner's hand"
    )
