"""An arena's sandboxed program against a hostile entrant (tests/bots/intruder_bot.py): it
names the arena's own files on its command line (the database with every record, the file
with the database's URL and its password) and cannot read them in the sandbox; without it the
same bot reads them, so the attack is real."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cardcli.arena import directory as arena_dir
from cardcli.arena.store import Store
from conftest import ROOT, run_cli

INTRUDER = f"{sys.executable} {ROOT / 'tests/bots/intruder_bot.py'}"


@pytest.mark.parametrize("sandbox", ["on", "off"])
def test_an_entrant_cannot_read_the_arena_s_database_or_its_url(tmp_path: Path, sandbox: str) -> None:
    arena = tmp_path / "arena"
    run_cli("arena", "init", str(arena), "--game", "peppa", "--seed", "3", "--sandbox", sandbox, "--keep-info",
            "--move-time", "5", check=True)
    secrets = [arena / "arena.db", arena / "arena.json", arena]
    spy = " ".join([INTRUDER, *(f"--probe={p}" for p in secrets)])
    for name, spec in (("spy", spy), ("house", "random"), ("other", "heuristic")):
        run_cli("arena", "entrant", "add", str(arena), name, "--command", spec, check=True)
    done = run_cli("arena", "serve", str(arena), "-j", "2", "--stop-after", "4", "-q", timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    store = Store.open(arena_dir.url_of(arena))
    probes = [line for _, raw in store.records() for lines in (json.loads(raw).get("info") or {}).values()
              for line in lines if line.startswith("probe ")]
    programs = [seat for _, raw in store.records() for seat in json.loads(raw)["seats"] if seat["kind"] == "process"]
    store.close()
    assert len(probes) >= len(secrets) and programs, probes
    if sandbox == "on":
        assert all("refused" in line for line in probes), probes
        assert all((seat.get("sandbox") or "").startswith("bubblewrap") for seat in programs), programs
    else:
        assert any("arena.json 'read: {" in line for line in probes), probes
