"""Pepper, one folder: the rules (``rules.py``), the heuristic player (``heuristic.py``), the
search player's hooks (``search.py``, with ``bids.py``, the bidding model) and the learning
environments' encoding (``encoding.py``), declared in :data:`SPEC`, which the registry holds.
"""

from __future__ import annotations

from ...cards import french_24
from ...games.base import GameSpec, Part, first_dealer
from ...games.sides import sides_for
from ...games.trick_text import TricksOnlyRenderer
from .rules import VARIANTS, PepperMatch, PepperOptions


SUMMARY = """\
Pepper is bid-Euchre with 24 cards (9 to ace): 4 players in partnerships (partners
opposite) with 6 cards each, or 3 players with 8 each, or 2 players with 8 each and a dead
hand of 8 that nobody sees. Deal and play go clockwise. From the dealer's left each player
passes or bids higher: 1 to 5 tricks (2 or 3 players: 1 to 7), then Small Pepper and Big
Pepper (all the tricks); a pass is final, and the auction ends when one bidder is left. The
declarer names a trump suit or no-trump and leads. Trumps rank J of trumps (right bower), J of
the same colour (left bower, a trump only), A, K, Q, 10, 9; other suits A, K, Q, J, 10, 9.
Follow suit if you can; the best trump, or else the best card of the led suit, takes the
trick. The declarer's side scores 1 a trick when it makes its bid and loses 6 (2-3 players: 8)
when set; Big Pepper scores 12 or loses 12 (16). The others score 1 a trick. The first side
to reach 30 wins; if several do in one deal, the highest wins, and ties share the win."""

SPEC = GameSpec(
    name="pepper",
    title="Pepper",
    summary=SUMMARY,
    player_counts=(4, 2, 3),
    variants=VARIANTS,
    options_class=PepperOptions,
    deck=french_24,
    new_match=PepperMatch,
    first_dealer=first_dealer,
    decision_kinds=("bid", "trump", "play"),
    decision_notes={"trump": "asked only of the player who wins the auction: a bot that never bids "
                             "above the others is never asked to name trump"},
    teams=lambda n: sides_for(n) if n == 4 else (),
    play_order=lambda options: "cw",
    renderer=TricksOnlyRenderer,
    heuristic=Part(f"{__name__}.heuristic:PepperHeuristic"),
    search=Part(f"{__name__}.search:SEARCH"),
    encoding=Part(f"{__name__}.encoding:ENCODING"),
    viewer=f"{__name__}:viewer.js",
    viewer_style=f"{__name__}:viewer.css",
    view=Part(f"{__name__}.view:PepperView"),
)
