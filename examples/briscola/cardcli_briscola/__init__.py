"""Briscola for cardcli, as a package of its own: the proof that a game is a plugin.

cardcli finds the game through the ``cardcli.games`` entry point this distribution declares
(``briscola = "cardcli_briscola:SPEC"``), and learns everything of it from :data:`SPEC`. The
rules are in :mod:`.rules`, the cards' values and actions in :mod:`.deck`, the options in
:mod:`.options` and the text for people in :mod:`.text`.
"""

from __future__ import annotations

from .options import BriscolaOptions, Direction, TieBreak
from .rules import BriscolaMatch
from .spec import SPEC

__all__ = ["SPEC", "BriscolaMatch", "BriscolaOptions", "Direction", "TieBreak"]
