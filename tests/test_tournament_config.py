"""A tournament's configuration holds the referee's typed settings: a configuration stored
before they were typed (a plain object without ``keep_info``) still loads, and what is stored
reads back the same."""

from __future__ import annotations

import json

from cardcli.records.io import OnFault
from cardcli.referee import Settings
from cardcli.tournament.config import Config

STORED_BEFORE = {
    "game": "peppa", "variant": "torino", "options": {}, "players": 4,
    "entrants": [["a", "random"], ["b", "heuristic"]], "deal_sets": 2, "seed": 7,
    "settings": {"move_time": 3.0, "startup_time": 4.0, "quit_grace": 0.5, "on_fault": "abort",
                 "max_deals": 40, "time_bank": 1.5},
}


def test_a_configuration_stored_before_loads_with_typed_settings() -> None:
    config = Config.from_json(json.loads(json.dumps(STORED_BEFORE)))
    assert config.settings == Settings(3.0, 4.0, 0.5, OnFault.ABORT, False, 40, 1.5)
    assert config.settings.quit_grace == 0.5 and config.settings.on_fault is OnFault.ABORT


def test_stored_settings_read_back_the_same() -> None:
    config = Config.from_json(dict(STORED_BEFORE))
    stored = json.loads(json.dumps(config.to_json()))
    assert stored["settings"] == {**STORED_BEFORE["settings"], "keep_info": False}
    assert Config.from_json(stored) == config


def test_without_a_time_bank_none_is_stored() -> None:
    settings = {k: v for k, v in STORED_BEFORE["settings"].items() if k != "time_bank"}
    config = Config.from_json({**STORED_BEFORE, "settings": settings})
    assert config.settings.time_bank is None
    assert "time_bank" not in config.to_json()["settings"]
