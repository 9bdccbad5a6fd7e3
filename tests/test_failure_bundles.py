"""A tournament keeps, beside the record of a match with a fault, what the faulty bot was sent
and sent back and how its stderr ended; ``--bot-stderr`` keeps every bot process's stderr."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import faulty, run_cli


def test_a_fault_leaves_a_bundle_that_names_the_record_the_request_and_the_answer(tmp_path: Path) -> None:
    tour, logs = tmp_path / "t", tmp_path / "logs"
    proc = run_cli("tournament", "peppa", "--dir", str(tour), "--bot-stderr", str(logs), "--seed", "3",
                   "--deal-sets", "1", "-j", "2", "-o", "end_threshold=1", "--bot", "rand=random",
                   "--bot", f"bad={faulty('--chatty', '--illegal-at', '3')}", "--bot", "first=first",
                   "--bot", "rand2=random")
    assert proc.returncode == 0, proc.stderr
    lines = (tour / "records.jsonl").read_text().splitlines()
    faulted = {}
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        for fault in record["faults"]:
            faulted[(record["tournament"]["index"], fault["seat"])] = (number, fault)
    assert len(faulted) == 4  # the bad bot plays every rotation and faults in each
    bundles = sorted((tour / "faults").iterdir())
    assert len(bundles) == len(faulted)
    assert "faults: 4 failure bundle(s)" in proc.stdout
    for (index, seat), (number, fault) in faulted.items():
        text = (tour / "faults" / f"match-{index}-seat-{seat}.txt").read_text()
        assert text.startswith(f"record: line {number} of records.jsonl")
        assert f"--game {number} --seat {seat} --protocol" in text.splitlines()[0]
        assert f"seat {seat}, entrant bad" in text
        assert f"fault: illegal in deal {fault['deal']}, move {fault['move'] + 1}" in text
        request = text.split("last request and what the bot sent after it:\n")[1].splitlines()
        assert request[0].startswith("<< go ") and ">> move ZZ" in request[1:4]
        assert "<< cardcli 1" in text and ">> id name faulty" in text
        assert "noise noise" in text.split("the end of its stderr")[1]
    saved = sorted(logs.iterdir())
    assert saved and all(p.name.startswith("bad.match-") for p in saved)
    assert all("noise noise" in p.read_text() for p in saved)


def test_no_fault_no_bundle_and_hostile_names_stay_inside_the_stderr_folder(tmp_path: Path) -> None:
    tour, logs = tmp_path / "t", tmp_path / "logs"
    proc = run_cli("tournament", "peppa", "--dir", str(tour), "--bot-stderr", str(logs), "--deal-sets", "1",
                   "-o", "end_threshold=1", "--bot", f"../../evil={faulty('--chatty')}", "--bot", "b=random",
                   "--bot", "c=random", "--bot", "d=random", "-j", "1")
    assert proc.returncode == 0, proc.stderr
    assert not (tour / "faults").exists() and "failure bundle" not in proc.stdout
    saved = list(logs.iterdir())
    assert saved and all(p.parent == logs and p.name.startswith("_.._evil.match-") for p in saved), saved
    assert not list(tmp_path.glob("evil*"))
