"""Reading move tokens across games: which card from the hand a move spends."""

from __future__ import annotations

from ..cards import is_card


def spent_card(token: str) -> str | None:
    """The hand card a move token plays: the card itself (``QS``) or, for Seep, the card a
    ``take``/``throw``/``build``/``cement``/``break`` spends; None for moves that spend no
    card (bids, trumps, passes of several cards)."""
    if is_card(token):
        return token
    verb, _, rest = token.partition(":")
    if verb in ("take", "throw"):
        return rest.split(":")[0]
    if verb in ("build", "cement", "break"):
        return rest.split(":", 1)[1].split(",")[0].split("+")[0]
    return None
