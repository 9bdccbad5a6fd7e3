"""Imports every game's heuristic strategy so that each registers itself."""

from . import peppa_heuristic, pepper_heuristic, pigugnin_heuristic, seep_heuristic  # noqa: F401
