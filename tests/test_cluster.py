"""Tournaments on a Dask cluster (``tournament --cluster``): the same records and table as ``-j``,
bot faults that stay recorded faults, a worker lost mid-tournament that costs nothing, resuming
across executors, interruptions that leave nothing running on the workers, shipped bot
directories, and one-line usage errors.

One real ``LocalCluster`` (two worker processes, one thread each, loopback only) serves the
whole module: its start-up is paid once. Every tournament runs as a user runs it, ``python -m
cardcli tournament ... --cluster ADDRESS`` in a process of its own. The workers are children of
this test process, so the cardcli processes they start and their bots are found by walking the
process tree from here (``conftest.live_processes``), never by name across the machine.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator

import pytest

pytest.importorskip("distributed")

from cardcli.tournament import cluster as cardcli_cluster
from cardcli.tournament import runner
from cardcli.tournament.cluster import (ShipPlugin, Shipment, check_shipments, manifest_digest,
                                        ship_root, shipment_key)
from conftest import (standings, BOT_MARKS, PYTHON_BOT, ROOT, alive, answered_before_fault, command_line,
                      descendants as all_below, faulty, live_processes, read_records, records_written as records,
                      run_cli, wait_for, wait_until_gone)
from record_check import record_schema_check

DEADLINE = 60.0
"""Seconds any awaited condition may take on a slow, busy two-core machine."""

RUN_TIME = 120.0
"""Seconds a whole (small) tournament may take, cluster start-up included."""

EXIT_TIME = 20.0
"""Seconds an interrupted tournament may take to exit, its cluster clean-up included."""

CARDCLI_MARKS = ("child_main",)
"""The command-line mark of the cardcli worker process a Dask worker starts per thread."""

GAMES = {
    "peppa": ["peppa", "-o", "end_threshold=20"],
    "seep": ["seep", "--players", "3", "-o", "baazi_target=20"],
    "pigugnin": ["pigugnin", "-o", "lose_at=3", "-o", "sole_loser_at=5"],
    "pepper": ["pepper", "--players", "3", "-o", "target=10"],
}
"""Every game, with options that keep a match to a few deals."""

ENTRANTS = ["--bot", f"py={PYTHON_BOT} --seed 3", "--bot", "r=random", "--bot", "f=first"]
"""A kept-alive bot process (it reseeds from each match, so its play depends on the match alone)
and two built-in players."""

SLOW = ["peppa", "-o", "end_threshold=50", "--bot", f"py={PYTHON_BOT} --seed 3", "--bot", "r=random",
        "--bot", f"slow={faulty('--slow-at', '2', '--delay', '0.5')}", "--restart-bots",
        "--deal-sets", "2", "--seed", "7"]
"""Eight matches of at least half a second each (every match starts the slow bot afresh, and it
answers its second request after 0.5 s, well within the move time): a tournament that is still
running a moment after its first record, with bots alive in the middle of every match."""


# -- the cluster --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared_cluster() -> Iterator[SimpleNamespace]:
    """One LocalCluster for the module: two worker processes of one thread, on 127.0.0.1 only.
    Its workers' ``PYTHONPATH`` names this tree (the cardcli processes they start import this
    cardcli, whatever directory they start in) and the schema spool (their records are checked
    like every other record the suite writes)."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1", silence_logs=logging.ERROR,
                           env={"PYTHONPATH": record_schema_check.pythonpath(str(ROOT))})
    try:
        client = Client(cluster)
        try:
            client.wait_for_workers(2, timeout=DEADLINE)
            yield SimpleNamespace(address=cluster.scheduler_address, client=client)
        finally:
            client.close()
    finally:
        cluster.close()


@pytest.fixture
def cluster(shared_cluster: SimpleNamespace) -> SimpleNamespace:
    """The module's cluster (``address``, ``client``) with both its workers up (a test may have
    killed one: its nanny starts another)."""
    deadline = time.monotonic() + DEADLINE
    while len(shared_cluster.client.run(os.getpid)) < 2:
        assert time.monotonic() < deadline, "the cluster did not get its two workers back"
        shared_cluster.client.wait_for_workers(2, timeout=DEADLINE)
        time.sleep(0.1)
    return shared_cluster


@pytest.fixture(scope="module", autouse=True)
def unreachable_scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    """A tournament given a scheduler address where nothing listens, started when the module
    starts: it waits for the connection to time out while the other tests run, and the last test
    of the module reads how it ended. Ended here if no test did."""
    directory = tmp_path_factory.mktemp("unreachable") / "t"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcli", "tournament", "peppa", "--bot", "a=random", "--bot", "b=first",
         "--deal-sets", "1", "--seed", "1", "--dir", str(directory), "--cluster", "tcp://127.0.0.1:1"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    started = time.monotonic()
    ended: list[float] = []
    watch = threading.Thread(target=lambda: (proc.wait(), ended.append(time.monotonic())), daemon=True)
    watch.start()
    yield SimpleNamespace(proc=proc, started=started, ended=ended, watch=watch, directory=directory)
    if proc.poll() is None:
        proc.kill()
    proc.communicate(timeout=DEADLINE)


# -- helpers ------------------------------------------------------------------------------------


def play(directory: Path, *args: str) -> tuple[dict[str, Any], subprocess.CompletedProcess[str]]:
    """A whole tournament in ``directory``: its ``--json`` table, and the finished process."""
    proc = run_cli("tournament", *args, "--dir", str(directory), "--json", timeout=RUN_TIME)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc


def play_side_by_side(*runs: tuple[Path | None, list[str]]) -> list[tuple[dict[str, Any], str]]:
    """Whole tournaments played at the same time (``play`` each, with its table and stderr): the
    machine has two cores, and a cluster run spends much of its time waiting on its workers."""
    procs = [start(directory, *args, "--json") for directory, args in runs]
    try:
        ended = [finish(proc) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    for proc, (_, err) in zip(procs, ended):
        assert proc.returncode == 0, err
    return [(json.loads(out), err) for out, err in ended]


def start(directory: Path | None, *args: str, cwd: Path = ROOT) -> subprocess.Popen[str]:
    """A tournament in a process of its own, as a user starts one in a terminal (in
    ``directory``; None: ``args`` say where, ``--resume DIR``)."""
    where = ["--dir", str(directory)] if directory is not None else []
    return subprocess.Popen(
        [sys.executable, "-m", "cardcli", "tournament", *args, *where],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def comparable(directory: Path) -> dict[int, dict[str, Any]]:
    """The tournament's records by schedule index, without what depends on the clock (when a
    match started and finished, how long each move took); a second record of one match fails."""
    found: dict[int, dict[str, Any]] = {}
    for record in read_records(directory / runner.RECORDS):
        index = record["tournament"]["index"]
        assert index not in found, f"match {index} is recorded twice"
        del record["started"], record["finished"]
        for deal in record["deals"]:
            for move in deal["moves"]:
                move.pop("ms", None)
        found[index] = record
    return found


def every_match_once(directory: Path) -> dict[int, dict[str, Any]]:
    """``comparable``, after checking that every match of the schedule has exactly one record."""
    found = comparable(directory)
    scheduled = len(runner.load(directory).schedule())
    assert sorted(found) == list(range(scheduled)), f"records of matches {sorted(found)}, of {scheduled} scheduled"
    return found


def descendants(root: int) -> dict[int, str]:
    """Every live descendant of ``root``: pid → command line."""
    found = {pid: command_line(pid) for pid in all_below(root)}
    return {pid: cmd for pid, cmd in found.items() if cmd is not None}


def bots_below(pid: int) -> dict[int, str]:
    return {p: cmd for p, cmd in descendants(pid).items() if any(mark in cmd for mark in BOT_MARKS)}


def own_lines(stderr: str) -> list[str]:
    """What the command said on stderr besides its progress lines and where it played."""
    return [line for line in stderr.splitlines()
            if line.strip() and not line.startswith("match ") and not line.startswith("cardcli: cluster: ")]


def finish(proc: subprocess.Popen[str], seconds: float = RUN_TIME) -> tuple[str, str]:
    """Wait for a tournament started with ``start``; killed (and the test failed) if it hangs."""
    try:
        return proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"the tournament still ran after {seconds:.0f} s:\n{err}") from None


@pytest.fixture(scope="module")
def slow_reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """The records and the table of the SLOW tournament played whole with ``-j 2``."""
    directory = tmp_path_factory.mktemp("slow-reference") / "t"
    table, _ = play(directory, *SLOW, "-j", "2")
    return every_match_once(directory), table


# -- 1. the same tournament, whatever plays it ------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_a_cluster_tournament_gives_the_records_and_table_of_a_local_one(game: str, cluster: SimpleNamespace,
                                                                         tmp_path: Path) -> None:
    """The same tournament (seed, entrants, options) played with -j 2 and on the cluster: every
    match recorded once, the same records but for their timings, the same table. For seep the
    cluster is ``local:2``, started and stopped by the run itself (nothing of it left after);
    for pepper the matches go three to a task (``--cluster-batch 3``)."""
    args = [*GAMES[game], *ENTRANTS, "--deal-sets", "1", "--seed", "5"]
    own_cluster = game == "seep"  # one game starts a LocalCluster of its own: the local:N path
    batched = ["--cluster-batch", "3"] if game == "pepper" else []
    marks = ("spawn_main", "resource_tracker", *CARDCLI_MARKS, *BOT_MARKS)
    before = set(live_processes(marks))
    (local, _), (remote, err) = play_side_by_side(
        (tmp_path / "local", [*args, "-j", "2"]),
        (tmp_path / "cluster", [*args, *batched, "--cluster", "local:2" if own_cluster else cluster.address]))

    if own_cluster:
        assert "cardcli: cluster: 2 worker(s)" in err, err
        left = wait_until_gone(before, marks, DEADLINE)
        assert not left, f"the cluster local:2 started (or its bots) still running: {left}"
    else:
        assert f"cardcli: cluster: 2 worker(s), scheduler {cluster.address}" in err, err
    assert "Traceback" not in err
    expected = every_match_once(tmp_path / "local")
    assert len(expected) == local["matches"] >= 3
    assert any(seat["kind"] == "process" for record in expected.values() for seat in record["seats"])
    assert every_match_once(tmp_path / "cluster") == expected
    assert standings(remote["entrants"]) == standings(local["entrants"])
    assert remote["crosstable"] == local["crosstable"]


def test_the_run_names_a_dashboard_only_where_one_is_served(cluster: SimpleNamespace) -> None:
    """``cardcli: cluster: ...`` names Dask's dashboard only "when the bokeh package is installed,
    where the dashboard can be served" (docs/cluster.md): a link it prints must answer. Checked
    on the line alone: the run is opened and closed, and plays nothing."""
    said: list[str] = []
    run = cardcli_cluster.ClusterRun(cardcli_cluster.ClusterSpec(address=cluster.address))
    try:
        run.open(said.append)
    finally:
        run.close()
    assert len(said) == 1 and said[0].startswith(f"cluster: 2 worker(s), scheduler {cluster.address}"), said
    if ", dashboard " in said[0]:
        link = said[0].split(", dashboard ", 1)[1]
        try:
            with urllib.request.urlopen(link, timeout=10) as answer:
                assert answer.status == 200
        except urllib.error.HTTPError as err:
            pytest.fail(f"the run names the dashboard {link}, which answers {err.code} {err.reason}")


# -- 2. a bot fault on a worker --------------------------------------------------------------------


def test_a_bot_that_crashes_on_a_worker_is_a_recorded_fault_and_the_workers_live_on(cluster: SimpleNamespace,
                                                                                      tmp_path: Path) -> None:
    """Every bad bot crashes at its third request: each crash is a fault in the record of its
    match, with its failure bundle, the tournament completes, and both Dask workers are the very
    processes they were before (a bot fault never reaches Dask)."""
    workers = cluster.client.run(os.getpid)
    directory = tmp_path / "t"
    table, proc = play(directory, "pigugnin", "--bot", f"bad={faulty('--crash-at', '3')}", "--bot", "rand=random",
                       "--deal-sets", "1", "--seed", "3", "--move-time", "2", "--cluster", cluster.address)

    found = every_match_once(directory)
    faults = 0
    for index, record in found.items():
        entrants = record["tournament"]["entrants"]
        bad = {seat for seat, name in enumerate(entrants) if name == "bad"}
        assert {f["seat"] for f in record["faults"]} == bad, (index, record["faults"])
        for seat in bad:
            assert answered_before_fault(record, seat), "the bad bot played until its crash"
        faults += len(bad)
    rows = {row["entrant"]: row for row in table["entrants"]}
    assert rows["bad"]["faults"] == {"crash": faults} and rows["rand"]["faults"] == {}
    bundles = sorted((directory / "faults").iterdir())
    assert len(bundles) == faults == table["failure_bundles"]
    assert all("entrant bad" in bundle.read_text() for bundle in bundles)
    assert cluster.client.run(os.getpid) == workers, "a bot's crash took a Dask worker down"


# -- 3. a worker lost mid-tournament -------------------------------------------------------------------


def test_a_worker_killed_mid_tournament_costs_nothing(cluster: SimpleNamespace, slow_reference, tmp_path: Path) -> None:
    """SIGKILL to a Dask worker in the middle of a match: the tournament still exits 0 with every
    match recorded exactly once, the records and table of a -j 2 run; the killed worker's
    cardcli process and bots do not outlive it."""
    expected, reference = slow_reference
    before = set(live_processes())
    workers = cluster.client.run(os.getpid)
    directory = tmp_path / "t"
    proc = start(directory, *SLOW, "--cluster", cluster.address, "--json")
    try:
        victim: dict[str, Any] = {}

        def a_worker_in_a_match() -> bool:
            if proc.poll() is not None or records(directory) < 1:
                return proc.poll() is not None
            for address, pid in workers.items():
                below = descendants(pid)
                if any(any(mark in cmd for mark in BOT_MARKS) for cmd in below.values()):
                    victim.update(address=address, pid=pid, below=below)
                    return True
            return False

        wait_for(a_worker_in_a_match, "a record, and a worker with a match in play")
        assert proc.poll() is None, "the tournament ended before a worker could be killed"
        done = records(directory)
        assert 1 <= done < len(expected)
        os.kill(victim["pid"], signal.SIGKILL)
        out, err = finish(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()

    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert every_match_once(directory) == expected
    table = json.loads(out)
    assert standings(table["entrants"]) == standings(reference["entrants"]) and table["crosstable"] == reference["crosstable"]
    # the killed worker's cardcli process and its bots died with it (they got SIGTERM, not orphaned)
    deadline = time.monotonic() + EXIT_TIME
    while any(alive(pid) for pid in victim["below"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = {pid: cmd[:120] for pid, cmd in victim["below"].items() if alive(pid)}
    assert not left, f"processes of the killed worker still running: {left}"
    assert not wait_until_gone(before)


# -- 4. resuming on the other executor ----------------------------------------------------------------


def test_an_interrupted_tournament_resumes_on_the_other_executor(cluster: SimpleNamespace, slow_reference,
                                                                  tmp_path: Path) -> None:
    """Both ways at once: one tournament started with -j 2 and resumed on the cluster, another
    started on the cluster and resumed with -j 2; each interrupted with Ctrl-C after its first
    record. Each ends with the records and table of the uninterrupted run."""
    expected, reference = slow_reference
    executor = {"-j": ["-j", "2"], "--cluster": ["--cluster", cluster.address]}
    ways = {"-j": "--cluster", "--cluster": "-j"}
    procs = {first: start(tmp_path / first, *SLOW, *executor[first]) for first in ways}
    try:
        for first, proc in procs.items():
            wait_for(lambda: records(tmp_path / first) >= 1 or proc.poll() is not None, f"a first record ({first})")
            proc.send_signal(signal.SIGINT)
        for first, proc in procs.items():
            _, err = finish(proc, EXIT_TIME)
            if proc.returncode == 0:
                pytest.fail(f"the tournament ({first}) finished before it could be interrupted")
            assert proc.returncode == 130, (first, err)
            assert 1 <= records(tmp_path / first) < len(expected), first
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.communicate()

    resumed = play_side_by_side(*[(None, ["--resume", str(tmp_path / first), *executor[then]])
                                  for first, then in ways.items()])
    for first, (table, _) in zip(ways, resumed):
        assert standings(table["entrants"]) == standings(reference["entrants"]), first
        assert table["crosstable"] == reference["crosstable"], first
        assert every_match_once(tmp_path / first) == expected, first


# -- 5. interrupting the parent -------------------------------------------------------------------------


@pytest.mark.parametrize("signum, status, said", [(signal.SIGINT, 130, "interrupted"),
                                                  (signal.SIGTERM, 143, "terminated")])
def test_interrupting_a_cluster_tournament_leaves_nothing_running_on_the_workers(
        signum: int, status: int, said: str, cluster: SimpleNamespace, tmp_path: Path) -> None:
    """Ctrl-C or SIGTERM to the parent while the workers play: it exits 130 or 143 with one line,
    and no cardcli process nor bot of the run is left on any worker."""
    before = set(live_processes((*CARDCLI_MARKS, *BOT_MARKS)))
    directory = tmp_path / "t"
    proc = start(directory, *SLOW, "--cluster", cluster.address)
    try:
        wait_for(lambda: proc.poll() is not None or (records(directory) >= 1 and any(
            bots_below(pid) for pid in cluster.client.run(os.getpid).values())), "a record and a match in play")
        assert proc.poll() is None, proc.communicate()[1]
        running = cluster.client.run(cardcli_cluster.live_processes)
        assert any(running.values()), "no cardcli process on the workers: nothing to stop"
        stopped = time.monotonic()
        proc.send_signal(signum)
        _, err = finish(proc, EXIT_TIME)
        took = time.monotonic() - stopped
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()

    assert proc.returncode == status, err
    assert own_lines(err) == [f"cardcli: error: {said}"], err
    assert records(directory) < len(runner.load(directory).schedule()), "stopped, not finished"
    assert took < EXIT_TIME
    # nothing of the run on the workers: at once, and still a moment later (a cancelled task whose
    # match was cut short must not start its cardcli process again)
    for pause in (0.0, 0.5):
        time.sleep(pause)
        assert cluster.client.run(cardcli_cluster.live_processes) == {address: [] for address in running}
    left = wait_until_gone(before, (*CARDCLI_MARKS, *BOT_MARKS))
    assert not left, f"still running after the tournament exited: {left}"


# -- 6. shipping bot directories ----------------------------------------------------------------------


def make_bots(folder: Path) -> Path:
    """A bot directory as a user keeps one: an executable script, and a ``tests/`` subfolder
    (which Dask's own UploadDirectory would silently leave out)."""
    (folder / "tests").mkdir(parents=True)
    source = (ROOT / "bots/python/random_bot.py").read_text()
    if source.startswith("#!"):
        source = source.split("\n", 1)[1]
    bot = folder / "bot.py"
    bot.write_text("#!/usr/bin/env python3\n" + source)
    bot.chmod(0o755)
    (folder / "tests" / "positions.txt").write_text("the bot's own test data\n")
    return folder


def test_a_shipped_bot_directory_plays_on_the_workers(cluster: SimpleNamespace, tmp_path: Path) -> None:
    """``--ship DIR``: an executable script in a folder with a ``tests/`` subfolder, run as
    ``./mybots/bot.py`` on the workers: it plays every match without a fault, and every worker
    holds the folder whole (subfolder and modes)."""
    mybots = make_bots(tmp_path / "mybots")
    directory = tmp_path / "t"
    # run where the user keeps the folder: the bot's path is relative to the folder that holds it
    proc = start(directory, "peppa", "-o", "end_threshold=20", "--bot", "a=./mybots/bot.py --seed 2",
                 "--bot", "r=random", "--bot", "f=first", "--deal-sets", "1", "--seed", "4",
                 "--ship", str(mybots), "--cluster", cluster.address, "--json", cwd=tmp_path)
    out, err = finish(proc)
    assert proc.returncode == 0, err

    table = json.loads(out)
    assert all(row["faults"] == {} for row in table["entrants"]), table["entrants"]
    found = every_match_once(directory)
    seats = [seat for record in found.values() for seat in record["seats"] if seat["spec"] == "a"]
    assert seats and all(seat["bot"]["name"] == "python-random" for seat in seats), "the shipped bot ran"
    # every worker holds the whole folder, its tests/ subfolder and modes included
    shipment = Shipment.pack(mybots)
    held = cluster.client.run(check_shipments, key=shipment_key([shipment]), expected={"mybots": shipment.digest})
    assert held == dict.fromkeys(held)


def shipped(source: Path, worker_dir: Path) -> tuple[Callable[[], str | None], Path]:
    """``source`` packed and unpacked on a stand-in worker as the plugin does it: the check a
    worker makes before the first match, and where the folder landed."""
    shipment = Shipment.pack(source)
    worker = SimpleNamespace(local_directory=str(worker_dir))
    ShipPlugin([shipment]).setup(worker)
    key = shipment_key([shipment])
    expected = {shipment.name: shipment.digest}
    return (lambda: check_shipments(worker, key, expected)), Path(ship_root(str(worker_dir), key)) / shipment.name


@pytest.mark.parametrize("change, problem", [
    (lambda folder: (folder / "bot.py").write_text("print('not the bot that was shipped')\n"), "arrived changed"),
    (lambda folder: (folder / "bot.py").chmod(0o644), "arrived changed"),
    (lambda folder: shutil.rmtree(folder / "tests"), "arrived changed"),
    (lambda folder: shutil.rmtree(folder), "is not in"),
], ids=["content", "mode", "subfolder", "folder"])
def test_a_shipment_that_did_not_arrive_intact_is_reported(change: Callable[[Path], Any], problem: str,
                                                            tmp_path: Path) -> None:
    """What a worker holds is checked against the digest the folder left with: a changed file,
    a changed mode, a missing subfolder, a missing folder are each reported."""
    source = make_bots(tmp_path / "src" / "mybots")
    check, landed = shipped(source, tmp_path / "worker")
    assert check() is None
    assert os.access(landed / "bot.py", os.X_OK) and (landed / "tests" / "positions.txt").is_file()
    assert manifest_digest(landed) == manifest_digest(source)
    change(landed)
    found = check()
    assert found is not None and problem in found and "mybots" in found


def test_a_group_writable_bot_directory_arrives_intact(tmp_path: Path) -> None:
    """Files made under umask 002 (the default of many Linux users) are 0664 and 0775. Shipped,
    they must pass the workers' check, and stay runnable: the check is about what arrived and
    can run, not about the sender's umask (the unpacking clears group and other write bits)."""
    source = make_bots(tmp_path / "src" / "mybots")
    (source / "bot.py").chmod(0o775)
    (source / "tests" / "positions.txt").chmod(0o664)
    check, landed = shipped(source, tmp_path / "worker")
    assert os.access(landed / "bot.py", os.X_OK)
    assert check() is None


def test_shipping_a_changed_folder_again_to_the_same_workers(tmp_path: Path) -> None:
    """A long-lived cluster, a bot folder edited between two tournaments (a file removed): the
    second shipment arrives as it is now (each set of contents lands in a folder of its own)."""
    source = make_bots(tmp_path / "src" / "mybots")
    (source / "tests" / "old.txt").write_text("to be removed\n")
    check, _ = shipped(source, tmp_path / "worker")
    assert check() is None
    (source / "tests" / "old.txt").unlink()
    check, landed = shipped(source, tmp_path / "worker")
    assert not (landed / "tests" / "old.txt").exists()
    assert check() is None


# -- 7. usage errors ----------------------------------------------------------------------------------


USAGE_ERRORS = {
    "--ship without --cluster": (["--ship", "bots"], "--ship is for a cluster's workers: give --cluster too"),
    "--cluster nonsense": (["--cluster", "nonsense"], "give a scheduler address (tcp://HOST:8786) or local:N"),
    "--cluster local:0": (["--cluster", "local:0"], "local:N takes N from 1 to 256 worker processes"),
    "--cluster with --listen": (["--cluster", "tcp://127.0.0.1:8786", "--listen", "127.0.0.1:0"],
                                "--listen with --cluster"),
}


def test_cluster_usage_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    """Each refused before anything starts (no cluster is contacted, no tournament directory
    made); the four run side by side."""
    procs = {case: start(tmp_path / f"t{k}", "peppa", "--bot", "a=random", "--bot", "b=first", "--deal-sets", "1",
                         *extra)
             for k, (case, (extra, _)) in enumerate(USAGE_ERRORS.items())}
    for k, (case, proc) in enumerate(procs.items()):
        _, err = finish(proc, DEADLINE)
        message = USAGE_ERRORS[case][1]
        assert proc.returncode == 2, (case, err)
        assert err.strip().splitlines() == [err.strip()] and err.startswith("cardcli: error: "), (case, err)
        assert message in err, (case, err)
        assert not (tmp_path / f"t{k}").exists(), f"{case}: a refused command leaves no tournament behind"


def test_a_scheduler_nobody_listens_at_is_a_one_line_error(unreachable_scheduler: SimpleNamespace) -> None:
    """Started with the module (see ``unreachable_scheduler``): Dask's client retries until its
    connection timeout (30 s in cluster.py) before cardcli reports it."""
    proc = unreachable_scheduler.proc
    _, err = finish(proc, DEADLINE + 30)
    unreachable_scheduler.watch.join(DEADLINE)
    took = unreachable_scheduler.ended[0] - unreachable_scheduler.started
    kept = (unreachable_scheduler.directory / runner.CONFIG).exists()
    print(f"--cluster tcp://127.0.0.1:1: status {proc.returncode} after {took:.1f} s "
          f"(tournament directory {'left behind' if kept else 'not made'}): {err.strip()}")
    assert proc.returncode == 1, err
    assert not kept, "a scheduler that cannot be reached leaves no tournament directory behind"
    assert err.strip().splitlines() == [err.strip()] and err.startswith("cardcli: error: "), err
    assert "tcp://127.0.0.1:1" in err and "Traceback" not in err
    assert took < DEADLINE


def test_short_schedules_go_one_match_to_a_task_and_long_ones_in_small_batches() -> None:
    """One match a task while there are few, so that every worker gets some and a lost worker
    costs one match; batches of up to 8 only when every worker thread still gets 8 tasks."""
    from cardcli.tournament.cluster import MAX_BATCH, batch_size

    assert batch_size(12, 2) == 1 and batch_size(31, 2) == 1
    assert batch_size(40, 2) == 2
    assert batch_size(240, 2) == MAX_BATCH == batch_size(10**6, 64)
    assert batch_size(0, 4) == 1


def test_a_signed_cluster_tournament_is_signed_by_the_parent(cluster: SimpleNamespace, tmp_path: Path) -> None:
    """The workers do not hold the signing key: the parent signs each record as it arrives, and
    every record verifies against the public key."""
    assert run_cli("keys", "new", str(tmp_path / "referee")).returncode == 0
    directory = tmp_path / "t"
    play(directory, "peppa", "-o", "end_threshold=20", "--bot", "r=random", "--bot", "f=first", "--bot",
         "h=heuristic", "--deal-sets", "1", "--seed", "3", "--sign-key", str(tmp_path / "referee.key"),
         "--cluster", cluster.address)
    records = read_records(directory / "records.jsonl")
    assert records and all("signature" in record for record in records)
    proc = run_cli("verify", str(directory / "records.jsonl"), "--public-key", str(tmp_path / "referee.pub"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
