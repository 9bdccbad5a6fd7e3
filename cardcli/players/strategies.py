"""Imports every game's heuristic strategy so that each registers itself."""
