"""Each game's seat view, by game name."""

from __future__ import annotations

from .seep_view import SeepView
from .trick_views import PeppaView, PepperView, PigugninView
from .view import Header, SeatView

VIEWS: dict[str, type[SeatView]] = {
    "peppa": PeppaView,
    "seep": SeepView,
    "pigugnin": PigugninView,
    "pepper": PepperView,
}


def view_for(header: Header) -> SeatView:
    """The view of ``header``'s game; KeyError for a game without one."""
    return VIEWS[header.game](header)
