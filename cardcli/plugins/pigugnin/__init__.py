"""Il Pigugnìn (Busca Reggiana), one folder: the rules (``rules.py``), the heuristic player
(``heuristic.py``), the search player's hooks (``search.py``) and the learning environments'
encoding (``encoding.py``), declared in :data:`SPEC`, which the registry holds.
"""

from __future__ import annotations

from ...cards import french_40
from ...games.base import GameSpec, Part, first_dealer
from ...games.trick_text import TrickRenderer
from .rules import VARIANTS, PigugninMatch, PigugninOptions


SUMMARY = """\
Il Pigugnìn (Busca Reggiana) is a trick-avoiding game for 4 or 5 players, each for
themselves, with 40 cards (no 8, 9, 10): 10 cards each with 4 players, 8 with 5. Play goes
counter-clockwise; the player after the dealer leads; follow suit if you can; no trumps; the
trick goes to the best card of the led suit, ranked 3, 2, A, K, Q, J, 7, 6, 5, 4. Points: ace
3, every 2, 3 and figure 1, the last trick 3 (35 a deal). Busche are paid per deal: 12-14
points 1, 15-17 2, 18-20 3, 21-23 4, then one more a point from 24 (24 pays 5); if nobody
reaches 12, the highest pays 1; equal scores pay one busca less than the number of players
tied; the taker of the Pigugnìn (J♠) pays 1 more and deals next. If anybody takes no trick,
points are not counted and only the trickless pay (2, 3, 4, 5 each for 1, 2, 3, 4 of them).
At 10 busche a player is out; the match ends when two are out (or one reaches 20 alone):
they lose, the two with the fewest busche win, the rest draw. Taking every trick of a deal
(cappotto) wins the match outright."""

SPEC = GameSpec(
    name="pigugnin",
    title="Il Pigugnìn (Busca Reggiana)",
    summary=SUMMARY,
    player_counts=(4, 5),
    variants=VARIANTS,
    options_class=PigugninOptions,
    deck=french_40,
    new_match=PigugninMatch,
    first_dealer=first_dealer,
    lower_is_better=True,
    play_order=lambda options: options.direction,
    renderer=TrickRenderer,
    heuristic=Part(f"{__name__}.heuristic:PigugninHeuristic"),
    search=Part(f"{__name__}.search:SEARCH"),
    encoding=Part(f"{__name__}.encoding:ENCODING"),
    viewer=f"{__name__}:viewer.js",
    viewer_style=f"{__name__}:viewer.css",
    view=Part(f"{__name__}.view:PigugninView"),
)
