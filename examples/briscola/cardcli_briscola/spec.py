"""Briscola as cardcli sees it: the :class:`~cardcli.games.base.GameSpec` that the
``cardcli.games`` entry point names (``cardcli_briscola:SPEC``).

The spec is everything cardcli learns of a game: names, player counts, the one variant, the
options class, the deck, the factory of a match, the partnerships, the direction of play, the
text renderer, and the parts only some commands use, each named ``module:attribute`` and
imported when first asked for (a match of random players imports none of them): the
heuristic player's strategy (:mod:`.heuristic`), the search player's hooks (:mod:`.search`),
the learning environments' encoding (:mod:`.encoding`) and the seat view the human seat
shows (:mod:`.view`); the HTML viewer's script (``viewer.js``, package data) is named as
``package:file``. The parts are named from ``__package__`` (``cardcli_briscola``), since
this module is not the package itself. Nothing in cardcli keys a table by the game's name, so
this is the whole of the plugin's contract.
"""

from __future__ import annotations

from cardcli.cards import french_40
from cardcli.games.base import GameSpec, Part, Variant, first_dealer
from cardcli.games.sides import Sides, sides_for

from .options import BriscolaOptions
from .rules import PLAYER_COUNTS, BriscolaMatch
from .text import BriscolaRenderer

SUMMARY = """\
Briscola is the most played Italian card game: 40 cards (no 8, 9, 10), 2 players each alone
or 4 in partnerships (partners opposite: 0+2 against 1+3). Deal and play go counter-clockwise.
Each player gets 3 cards; the next card is turned up and its suit is the trump (the briscola);
it lies under the stock and is the last card drawn. There is no duty to follow suit or to win:
play any card. The best trump, or else the best card of the suit led, takes the trick; cards
rank A, 3, K, Q, J, 7, 6, 5, 4, 2. The taker draws first from the stock, then the others in
turn, and leads the next trick; once the stock is gone the hands are played out. Card points:
ace 11, three 10, king 4, queen 3, jack 2 (120 in all); more than 60 wins the deal, and a
60-60 deal counts for nobody. The first side to win 2 deals (the target option) wins."""

VARIANTS = (Variant("standard", "2 players each alone, or 4 in partnerships (0+2 against 1+3)"),)


def teams(num_players: int) -> Sides:
    """The partnerships: 0+2 against 1+3 with 4 players; none with 2."""
    return sides_for(num_players) if num_players == 4 else ()


def play_order(options: BriscolaOptions) -> str:
    """The ``order`` header line: ``ccw`` unless the ``direction`` option says ``cw``."""
    return options.direction


SPEC = GameSpec(
    name="briscola",
    title="Briscola",
    summary=SUMMARY,
    player_counts=PLAYER_COUNTS,
    variants=VARIANTS,
    options_class=BriscolaOptions,
    deck=french_40,
    new_match=BriscolaMatch,
    first_dealer=first_dealer,
    teams=teams,
    play_order=play_order,
    renderer=BriscolaRenderer,
    heuristic=Part(f"{__package__}.heuristic:BriscolaHeuristic"),
    search=Part(f"{__package__}.search:SEARCH"),
    encoding=Part(f"{__package__}.encoding:ENCODING"),
    view=Part(f"{__package__}.view:BriscolaView"),
    viewer=f"{__package__}:viewer.js",
)
