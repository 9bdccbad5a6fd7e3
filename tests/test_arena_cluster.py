"""An arena whose matches are tasks on a real Dask cluster (``serve --cluster local:2``): the
same records, stored as they arrive, and a clear refusal of remote entrants the cluster's
machines could not reach."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli


def test_an_arena_plays_its_ladder_on_a_dask_cluster(tmp_path: Path) -> None:
    arena = tmp_path / "arena"
    run_cli("arena", "init", str(arena), "--game", "pepper", "--seed", "4", "--sandbox", "off", check=True)
    for name, spec in (("a", "random"), ("b", "heuristic"), ("c", "first")):
        run_cli("arena", "entrant", "add", str(arena), name, "--command", spec, check=True)
    done = run_cli("arena", "serve", str(arena), "--cluster", "local:2", "--stop-after", "6", "-q", timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "cluster: 2 worker(s)" in done.stderr
    out = tmp_path / "export.jsonl"
    run_cli("arena", "export", str(arena), str(out), check=True)
    assert out.read_text().count("\n") >= 6
    verified = run_cli("verify", str(out), timeout=300)
    assert verified.returncode == 0, verified.stdout[-2000:]


def test_remote_entrants_are_refused_with_a_cluster_in_one_line(tmp_path: Path) -> None:
    arena = tmp_path / "arena"
    run_cli("arena", "init", str(arena), "--game", "peppa", check=True)
    done = run_cli("arena", "serve", str(arena), "--cluster", "local:1", "--listen", "127.0.0.1:0")
    assert done.returncode == 2 and "--cluster" in done.stderr and len(done.stderr.strip().splitlines()) == 1
