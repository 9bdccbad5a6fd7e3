"""A tournament's configuration holds typed values (the referee's settings, the bots' limits,
the sandbox asked for): a configuration stored before they were typed (a plain object without
``keep_info``, or without limits and sandbox at all) still loads, and what is stored reads back
the same, byte for byte."""

from __future__ import annotations

import json

import attrs

from cardcli.records.io import OnFault
from cardcli.referee import Settings
from cardcli.seats.limits import Limits
from cardcli.seats.policy import DEFAULT_DISK_MIB, SandboxMode, SandboxPolicy
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


WITH_GUARDS = {
    **STORED_BEFORE,
    "limits": {"memory_mb": 512, "cpu_seconds": None, "open_files": 64, "processes": None},
    "sandbox": {"mode": "auto", "network": False, "binds": ["/opt/data"], "disk_mib": 64},
}


def test_a_configuration_from_before_the_sandbox_runs_its_bots_as_it_did() -> None:
    config = Config.from_json(dict(STORED_BEFORE))
    assert config.limits == Limits()
    assert config.sandbox.mode is SandboxMode.OFF and config.sandbox.disk_mib == DEFAULT_DISK_MIB


def test_stored_limits_and_sandbox_are_typed_and_read_back_byte_for_byte() -> None:
    config = Config.from_json(json.loads(json.dumps(WITH_GUARDS)))
    assert config.limits == Limits(memory_mb=512, open_files=64)
    assert config.sandbox == SandboxPolicy(mode=SandboxMode.AUTO, binds=("/opt/data",), disk_mib=64)
    stored = json.loads(json.dumps(config.to_json()))
    assert json.dumps(stored["limits"]) == json.dumps(WITH_GUARDS["limits"])
    assert json.dumps(stored["sandbox"]) == json.dumps(WITH_GUARDS["sandbox"])
    assert Config.from_json(stored) == config


def test_the_run_s_own_paths_are_masked_but_never_stored() -> None:
    config = Config.from_json({**WITH_GUARDS, "sign_key": "/keys/org.key"})
    run = attrs.evolve(config, hidden=("/t/dir",))
    assert run.sandbox_policy().hidden == ("/t/dir", "/keys/org.key")
    assert "hidden" not in run.to_json()["sandbox"] and run.to_json() == config.to_json()
