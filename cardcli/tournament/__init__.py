"""Tournaments: schedules with duplicate deals, concurrent matches, durable records, results."""
