"""Following games from the shell: --events, replay --step / --from-deal, and watch."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pexpect

from conftest import ROOT, run_cli


def test_events_are_json_lines_of_public_events_then_the_summary() -> None:
    proc = run_cli("play", "peppa", "--seed", "4", "--events", check=True)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    events, summary = lines[:-1], lines[-1]
    assert summary["game"] == "peppa" and summary["status"] == "complete"
    kinds = {e["event"] for e in events}
    assert {"deal", "trick", "play", "taken", "score", "totals"} <= kinds
    assert not kinds & {"hand", "passed", "received"}, "nothing private to a seat"
    plays = [e for e in events if e["event"] == "play"]
    assert len(plays) == 52 * summary["deals"]
    assert all(e["deal"] >= 1 and e["match"] == 1 for e in events)


def test_replay_from_a_deal_skips_the_earlier_ones(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run_cli("play", "peppa", "--seed", "2", "--record", str(path), check=True)
    out = run_cli("replay", str(path), "--from-deal", "3").stdout
    assert "Deal 3 -" in out and "Deal 1 -" not in out and "Deal 2 -" not in out
    assert "winners:" in out


def test_replay_step_waits_for_a_key_on_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run_cli("play", "pigugnin", "--seed", "2", "--record", str(path), check=True)
    child = pexpect.spawn(sys.executable, ["-m", "cardcli", "replay", str(path), "--step"], cwd=str(ROOT),
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, encoding="utf-8", timeout=10)
    child.expect("hand of 3:")
    time.sleep(0.3)
    assert child.expect([r"trick  1:", pexpect.TIMEOUT], timeout=0.5) == 1, "nothing more before a key"
    child.send("\r")
    child.expect(r"trick  1:")
    assert child.expect([r"trick  2:", pexpect.TIMEOUT], timeout=0.5) == 1
    child.send("\r")
    child.expect("trick  2:")
    child.terminate(force=True)


def test_watch_follows_a_record_file_as_games_are_appended(tmp_path: Path) -> None:
    """Each game is waited for as it shows up (with a generous limit for a loaded machine),
    not for a set time after the last one was written."""
    path = tmp_path / "games.jsonl"
    path.write_text("")
    watcher = pexpect.spawn(sys.executable, ["-m", "cardcli", "watch", str(path), "--interval", "0.1"],
                            cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)}, encoding="utf-8",
                            timeout=60)
    try:
        run_cli("play", "pigugnin", "--seed", "1", "--record", str(path), check=True)
        watcher.expect("game 1: pigugnin standard seed 1")
        watcher.expect("standings:")
        run_cli("play", "pigugnin", "--seed", "2", "--record", str(path), check=True)
        watcher.expect("game 2: pigugnin standard seed 2")
        watcher.expect("standings:")
    finally:
        watcher.terminate(force=True)


def test_watch_shows_a_tournament_table(tmp_path: Path) -> None:
    directory = tmp_path / "t"
    run_cli("tournament", "pigugnin", "--bot", "a=random", "--bot", "b=heuristic", "--deal-sets", "2",
            "--dir", str(directory), "-j", "1", check=True)
    out = run_cli("watch", str(directory), "--once", check=True).stdout
    assert "game 1:" in out and "rating" in out and "crosstable" in out
