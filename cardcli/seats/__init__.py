"""Seats: anything that answers move requests (an external bot, a built-in player, a script)."""
