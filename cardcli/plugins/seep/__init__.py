"""Seep, one folder: the rules (``rules.py``), the floor's arithmetic (``floor.py``), its events
as text (``text.py``), the heuristic player (``heuristic.py``), the search player's hooks
(``search.py``, ``search_view.py``) and the learning environments' encoding and actions
(``encoding.py``, ``actions.py``), declared in :data:`SPEC`, which the registry holds.
"""

from __future__ import annotations

from ...cards import french_52
from ...games.base import GameSpec, Part, first_dealer
from ...games.sides import sides_for
from .rules import VARIANTS, SeepMatch, SeepOptions
from .text import SeepRenderer


SUMMARY = """\
Seep is a Punjabi fishing game: 4 players in two partnerships (partners opposite), or 2 or 3
each for themselves, with a 52-card deck, played counter-clockwise. Capture values: ace 1,
2-10 face value, J 11, Q 12, K 13. The player at the dealer's right gets 4 cards and bids a
value from 9 to 13 that they hold; the 4 floor cards are turned up and the bidder opens by
building a house of the bid, capturing with a card of the bid, or throwing one. The rest of
the pack is dealt in packets of 4 (12 cards each in all; 2 players: two halves of 12; 3
players: 16 each). On a turn a player plays one card to capture (every group of loose cards
summing to its value, as many as possible, and the house of that value), build a house (9-13,
keeping a card to capture it), cement a house (add a second combination of its value), break
an ordinary house (raise it with one card), or throw it to the floor when it captures
nothing. Spades count their value, other aces 1, 10♦ 6: 100 a deal; a capture that empties
the floor (a seep) scores 50 (25 on the opening, 0 on the last play). The last capturer takes
what is left. A side that scores under 9 in a deal loses the baazi; otherwise the first side
to lead by 100 wins."""

SPEC = GameSpec(
    name="seep",
    title="Seep (Sip, Siv)",
    summary=SUMMARY,
    player_counts=(4, 2, 3),
    variants=VARIANTS,
    options_class=SeepOptions,
    deck=french_52,
    new_match=SeepMatch,
    first_dealer=first_dealer,
    decision_kinds=("bid", "play"),
    teams=lambda n: sides_for(n) if n == 4 else (),
    play_order=lambda options: "ccw",
    renderer=SeepRenderer,
    heuristic=Part(f"{__name__}.heuristic:SeepHeuristic"),
    search=Part(f"{__name__}.search:SEARCH"),
    encoding=Part(f"{__name__}.encoding:ENCODING"),
    viewer=f"{__name__}:viewer.js",
    viewer_style=f"{__name__}:viewer.css",
    view=Part(f"{__name__}.view:SeepView"),
)
