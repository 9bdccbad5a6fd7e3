"""Made-up records for the tests of code that reads the typed record model."""

from __future__ import annotations

from typing import Any

from cardcli.records.io import FORMAT, FORMAT_VERSION
from cardcli.records.model import Record


def made_up(record: dict[str, Any]) -> Record:
    """A test's made-up record, which holds only what the code under test reads, as the typed
    model that code takes: the fields every record has and the test leaves out are filled in
    with neutral values (no seat name, deal, fault or group of the result is invented), so a
    test states what matters to it and nothing else."""
    full: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION, "game": "peppa", "variant": "",
                            "options": {}, "seed": 0, "status": "complete", "seats": [], "deals": [], "faults": [],
                            "settings": {}, "result": None, **record}
    full["seats"] = [{"name": f"seat {place}", **seat} for place, seat in enumerate(full["seats"])]
    full["deals"] = [{"number": number, "dealer": 0, "moves": [], **deal}
                     for number, deal in enumerate(full["deals"], start=1)]
    if full["result"] is not None:
        full["result"] = {"winners": [], "losers": [], "draws": [], "forfeits": [], **full["result"]}
    return Record.from_json(full)
