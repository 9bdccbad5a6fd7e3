"""Peppa (Italian Hearts), one folder: the rules (``rules.py``), the heuristic player
(``heuristic.py``), the search player's hooks (``search.py``) and the learning environments'
encoding (``encoding.py``), declared in :data:`SPEC`, which the registry holds.
"""

from __future__ import annotations

from ...cards import french_52
from ...games.base import GameSpec, Part, first_dealer
from ...games.trick_text import TrickRenderer
from .rules import VARIANTS, PeppaMatch, PeppaOptions, NUM_PLAYERS


SUMMARY = """\
Peppa is Italian Hearts for four players, each for themselves, with a 52-card deck.
Each player gets 13 cards and passes three to another player; everybody passes at once
(Torino: always to the right; Standard: left, right, across in turn). The player at the
dealer's right leads any card; the others must follow suit if they can, otherwise play any
card. There are no trumps: the highest card of the led suit takes the trick, and its taker
leads next. Penalty points are taken with the cards: Torino counts Q♠ 13, A♥ 5, K♥ 4, Q♥ 3,
J♥ 2 and every other heart 1 (36 a deal); Standard counts Q♠ 60, A♥ 50, K♥ 40, Q♥ 30, J♥ 20,
10♥-7♥ 10, 6♥-2♥ 5 (265 a deal). Cappotto: a player who takes every penalty card (Torino) or
every trick (Standard) scores 0 and each other player scores a whole deal's points. When a
total exceeds 100 (Standard: 1000), the two highest totals lose and the two lowest win."""

SPEC = GameSpec(
    name="peppa",
    title="Peppa (Italian Hearts)",
    summary=SUMMARY,
    player_counts=(NUM_PLAYERS,),
    variants=VARIANTS,
    options_class=PeppaOptions,
    deck=french_52,
    new_match=PeppaMatch,
    first_dealer=first_dealer,
    decision_kinds=("pass", "play"),
    lower_is_better=True,
    play_order=lambda options: options.play_direction,
    renderer=TrickRenderer,
    heuristic=Part(f"{__name__}.heuristic:PeppaHeuristic"),
    search=Part(f"{__name__}.search:SEARCH"),
    encoding=Part(f"{__name__}.encoding:ENCODING"),
    viewer=f"{__name__}:viewer.js",
    viewer_style=f"{__name__}:viewer.css",
    view=Part(f"{__name__}.view:PeppaView"),
)
