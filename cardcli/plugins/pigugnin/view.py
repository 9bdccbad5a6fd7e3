"""Il Pigugnìn as one seat sees it: the trick games' view, counting card points (before they
become busche at the deal's end)."""

from __future__ import annotations

from ...games.view import SeatView


class PigugninView(SeatView):
    points_word = "card points"
