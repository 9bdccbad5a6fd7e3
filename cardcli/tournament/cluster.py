"""Tournaments past one machine: every match is one task on a Dask cluster
(``tournament --cluster tcp://HOST:8786`` or ``--cluster local:N``).

The parent stays what it is with ``-j``: it makes the schedule, hands out the matches, and
appends (and fsyncs) each record as it arrives. Only the executor changes. A Dask task does
not play the match in the Dask worker itself: it hands it to a cardcli worker process of its
own (the very worker loop of ``-j``, :func:`.worker.serve`, started once per Dask worker thread and kept), so
that bots stay alive from match to match as they do locally, a bot's crash or flood can never
take the Dask worker down (a bot fault is a recorded fault, never a ``KilledWorker``), and the
bots die with their worker: the cardcli process ends when the thread that started it does
(``PR_SET_PDEATHSIG``), and closes its bots on the way out.

A worker that dies mid-match loses only that task, which Dask plays again on another worker;
the parent appends a record when a task's result arrives, once, so the records hold no
duplicate and no gap. The same seed gives the same records as ``-j`` (timings aside): a match
depends on its own seed alone.

Bot directories travel with ``--ship DIR`` (:class:`Shipment`), through a Dask worker plugin
of our own rather than ``distributed``'s ``UploadDirectory``: that one unpacks into the
nanny's directory, shared by every worker of a machine (they unpack over each other), drops
the executable bit (a shipped ``./mybot`` no longer starts), and silently leaves out any path
that contains ``tests`` or ``docs``. Ours unpacks into each worker's own directory, keeps
modes, and every worker proves the content hash of what it holds before the first match.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import attrs

from ..errors import CardcliError, UsageError
from .config import Config
from .executor import Executor, Store
from .schedule import MatchPlan
from .worker import Finished, serve, signed_here

MAX_SHIPMENT = 256 << 20
"""Bytes of bot directories a tournament ships, packed: beyond it, use a shared filesystem."""
MAX_BATCH = 8
"""Most matches one task carries."""
TASKS_PER_THREAD = 8
"""Fewest tasks per worker thread before matches are batched."""
STOP_GRACE = 10.0
"""Seconds a cardcli worker process has to close its bots when told to stop, then killed."""


class ClusterError(CardcliError):
    """The cluster cannot be used: not reachable, a shipment that did not arrive intact."""

    exit_code = 1


@attrs.frozen
class ClusterSpec:
    """``tcp://HOST:PORT`` (a running scheduler, or any address Dask's client takes) or
    ``local:N`` (a LocalCluster of N worker processes on this machine, started and stopped by
    this run)."""

    address: str | None = None
    local_workers: int = 0

    @classmethod
    def parse(cls, text: str) -> "ClusterSpec":
        if text.startswith("local:"):
            count = text[len("local:"):]
            if not count.isdigit() or not 1 <= int(count) <= 256:
                raise UsageError(f"--cluster {text!r}: local:N takes N from 1 to 256 worker processes")
            return cls(local_workers=int(count))
        if "://" not in text:
            raise UsageError(f"--cluster {text!r}: give a scheduler address (tcp://HOST:8786) or local:N")
        return cls(address=text)


@attrs.frozen
class Shipment:
    """A bot directory packed for the workers, with what proves its arrival: the SHA-256 of
    every file and its mode, in one digest."""

    name: str
    data: bytes
    digest: str

    @classmethod
    def pack(cls, path: Path) -> "Shipment":
        if not path.is_dir():
            raise UsageError(f"--ship {path}: not a directory")
        name = path.resolve().name
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            for file in sorted(_files(path)):
                tar.add(path / file, arcname=f"{name}/{file}", recursive=False)
        data = buffer.getvalue()
        if len(data) > MAX_SHIPMENT:
            raise UsageError(f"--ship {path}: {len(data) >> 20} MiB packed, over {MAX_SHIPMENT >> 20} MiB; "
                             "share the directory between the machines instead")
        return cls(name, data, manifest_digest(path))


def _files(root: Path) -> Iterable[str]:
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for file in files:
            full = Path(folder) / file
            if full.is_file() and not full.is_symlink():
                yield str(full.relative_to(root))


def manifest_digest(root: Path) -> str:
    """One SHA-256 over every regular file under ``root``: its path, whether it may be run
    (its execute bits: the other bits may differ by umask and by the unpacking, which clears
    group and other write), and its content. Two directories with the same digest hold the
    same bots, runnable alike."""
    total = hashlib.sha256()
    for file in sorted(_files(root)):
        full = root / file
        total.update(file.encode("utf-8") + b"\0")
        total.update(oct(full.stat().st_mode & 0o111).encode() + b"\0")
        total.update(hashlib.sha256(full.read_bytes()).digest())
    return total.hexdigest()


# -- on the workers -----------------------------------------------------------------------------


def ship_root(local_directory: str, key: str) -> str:
    """Where a worker keeps shipment ``key`` (its own directory, not its nanny's; one folder per
    set of contents, so a folder shipped again changed never lands over its old self)."""
    return os.path.join(local_directory, "cardcli-ship", key)


def shipment_key(shipments: Sequence[Shipment]) -> str:
    return hashlib.sha256(" ".join(f"{s.name}:{s.digest}" for s in shipments).encode()).hexdigest()[:24]


def __getattr__(name: str) -> Any:
    """``ShipPlugin`` is made on first use: it derives from Dask's ``WorkerPlugin``, and importing
    Dask (half a second) is for the runs that use a cluster, not for every tournament."""
    if name == "ShipPlugin":
        plugin = _make_ship_plugin()
        globals()["ShipPlugin"] = plugin
        return plugin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _make_ship_plugin() -> type:
    from distributed import WorkerPlugin

    class ShipPlugin(WorkerPlugin):
        """A Dask worker plugin (registered for this run, and given to every worker that joins
        later) that unpacks the shipments into a fresh folder of the worker's own directory,
        execute bits kept, then moves it into place."""

        idempotent = False

        def __init__(self, shipments: Sequence[Shipment]):
            self.shipments = tuple(shipments)
            self.key = shipment_key(shipments)
            self.name = f"cardcli-ship-{self.key}"

        def setup(self, worker: Any) -> None:
            unpack(self.shipments, ship_root(worker.local_directory, self.key))

    ShipPlugin.__module__ = __name__
    ShipPlugin.__qualname__ = "ShipPlugin"
    return ShipPlugin


def unpack(shipments: Sequence[Shipment], final: str) -> None:
    """Unpack ``shipments`` into a fresh folder beside ``final`` and move it into place (once:
    a folder already there holds the same contents, its name being their digest)."""
    if os.path.isdir(final):
        return
    os.makedirs(os.path.dirname(final), exist_ok=True)
    fresh = tempfile.mkdtemp(dir=os.path.dirname(final), prefix=".unpacking-")
    for shipment in shipments:
        with tarfile.open(fileobj=io.BytesIO(shipment.data), mode="r:gz") as tar:
            try:
                tar.extractall(fresh, filter="tar")
            except TypeError:  # a Python 3.11 before 3.11.4: no filters (the archive is ours)
                tar.extractall(fresh)
    try:
        os.rename(fresh, final)
    except OSError:  # another thread of this worker got there first
        shutil.rmtree(fresh, ignore_errors=True)


def check_shipments(dask_worker: Any, key: str, expected: dict[str, str]) -> str | None:
    """Run on each worker before the first match: None when every shipped directory is there
    with the digest it left with, else what is wrong."""
    root = ship_root(dask_worker.local_directory, key)
    for name, digest in expected.items():
        found = Path(root) / name
        if not found.is_dir():
            return f"{name} is not in {root}"
        if manifest_digest(found) != digest:
            return f"{name} arrived changed (its content hash differs)"
    return None


_LOCK = threading.Lock()
_PROCESSES: dict[tuple[int, str], tuple[subprocess.Popen[bytes], Connection]] = {}
"""On a Dask worker: the cardcli worker process of each (thread, tournament run)."""
_STOPPED: set[str] = set()
"""Runs told to stop on this worker: a task of theirs still running (Dask cannot interrupt a
thread) must not start a process again when it finds its own gone."""


def play_on_worker(config: Config, match: MatchPlan, run: str, cwd: str | None) -> Finished | None:
    """The task: play ``match`` in this thread's cardcli worker process (started on first use)
    and return its :class:`.worker.Finished`. A cardcli process that died
    (killed from outside) is replaced once before the task fails."""
    for attempt in (1, 2):
        conn = _process_for(config, run, cwd)
        if conn is None:
            return None  # the run has stopped: nobody waits for this result
        try:
            conn.send(match)
            return conn.recv()
        except (EOFError, OSError):
            _forget(run, threading.get_ident(), graceful=False)
            if attempt == 2:
                raise ClusterError(f"the cardcli worker process ended while playing match {match.index}") from None
    raise AssertionError("unreachable")


def _process_for(config: Config, run: str, cwd: str | None) -> Connection | None:
    """This thread's cardcli worker process for ``run``. A plain subprocess rather than a
    multiprocessing child: Dask's worker processes are daemonic, and multiprocessing refuses
    them children. It gets one end of a socket pair and speaks multiprocessing's pickled
    messages on it, so the ``-j`` worker loop runs in it unchanged. ``-P``: its working
    directory (the shipped bots' folder) is not put on its import path, so a shipped folder
    named like a package cannot shadow it."""
    key = (threading.get_ident(), run)
    with _LOCK:
        if run in _STOPPED:
            return None
        found = _PROCESSES.get(key)
        if found is not None and found[0].poll() is None:
            return found[1]
    mine, theirs = socket.socketpair()
    try:
        process = subprocess.Popen(
            [sys.executable, "-P", "-c", "from cardcli.tournament.cluster import child_main; child_main()",
             str(theirs.fileno()), str(os.getpid())],
            pass_fds=(theirs.fileno(),), cwd=cwd, stdin=subprocess.DEVNULL)
    finally:
        theirs.close()
    conn = Connection(mine.detach())
    with _LOCK:
        stopped = run in _STOPPED
        if not stopped:
            _PROCESSES[key] = (process, conn)
    if stopped:
        _end_process(process, conn, graceful=False)
        return None
    conn.send(config)
    return conn


def child_main() -> None:
    """The cardcli worker process on a Dask worker: the configuration first, then the
    ``-j`` worker loop (matches in, results out, bots kept alive, ended when told, on SIGTERM,
    or when the thread that started it ends)."""
    fd, parent = int(sys.argv[1]), int(sys.argv[2])
    conn = Connection(fd)
    try:
        config = conn.recv()
    except EOFError:
        return
    serve(config, conn, parent, ())


def _forget(run: str, thread: int, graceful: bool) -> None:
    with _LOCK:
        found = _PROCESSES.pop((thread, run), None)
    if found is not None:
        _end_process(*found, graceful=graceful)


def _end_process(process: subprocess.Popen[bytes], conn: Connection, graceful: bool) -> None:
    """Stop a cardcli worker process: told to stop (it closes its bots: quit, then their
    groups killed) or, when ``graceful`` is false, sent SIGTERM (the same, at once); killed
    if it has not exited after :data:`STOP_GRACE` seconds."""
    try:
        if graceful:
            conn.send(None)
        else:
            process.terminate()
    except OSError:
        pass
    try:
        process.wait(STOP_GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
    conn.close()


def stop_run(run: str, graceful: bool) -> int:
    """Run on every worker at the end of a run (or when it is interrupted): end this run's
    cardcli processes, and so their bots. Returns how many there were."""
    with _LOCK:
        _STOPPED.add(run)
        mine = [(key, value) for key, value in _PROCESSES.items() if key[1] == run]
        for key, _ in mine:
            del _PROCESSES[key]
    threads = [threading.Thread(target=_end_process, args=(*value, graceful)) for _, value in mine]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(mine)


def live_processes(run: str | None = None) -> list[int]:
    """The pids of the cardcli worker processes alive on this worker (of ``run``, or all)."""
    with _LOCK:
        return [process.pid for (_, r), (process, _) in _PROCESSES.items()
                if (run is None or r == run) and process.poll() is None]


# -- in the parent --------------------------------------------------------------------------------


class ClusterRun(Executor):
    """This run's connection to the cluster. :meth:`open` reaches the scheduler (or starts a
    LocalCluster), waits for a worker and ships the bot directories, before anything is
    written, so a wrong address leaves no tournament directory behind; :meth:`play` plays the
    matches; :meth:`close` ends this run's processes on every worker, and the cluster if it
    was started here."""

    def __init__(self, spec: ClusterSpec, shipments: Sequence[Shipment] = (), batch: int | None = None):
        self.spec = spec
        self.shipments = tuple(shipments)
        self.batch = batch
        """Matches per task; None: :func:`batch_size` decides."""
        self.threads = 1
        self.key = shipment_key(self.shipments) if self.shipments else None
        self.run = ""
        self._client: Any = None
        self._cluster: Any = None
        self._plugin: str | None = None
        self.completed = False

    def open(self, say: Callable[[str], None] = lambda _: None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--cluster needs Dask's distributed: pip install 'cardcli[cluster]'") from None
        import uuid

        self.run = uuid.uuid4().hex
        if self.spec.local_workers:
            self._cluster = LocalCluster(n_workers=self.spec.local_workers, threads_per_worker=1, processes=True,
                                         dashboard_address=":0" if _has_dashboard() else None, silence_logs=40)
            self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(self.spec.address, timeout=30)
            except (OSError, TimeoutError) as err:
                raise ClusterError(f"cannot reach the Dask scheduler at {self.spec.address}: {err}") from None
        client = self._client
        try:
            client.wait_for_workers(1, timeout=120)
        except TimeoutError:
            raise ClusterError(f"no worker joined the scheduler {client.scheduler.address} within 120 s") from None
        workers = client.scheduler_info()["workers"]
        self.threads = max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))
        served = client.run_on_scheduler(lambda: __import__("importlib.util").util.find_spec("bokeh") is not None)
        say(f"cluster: {len(workers)} worker(s), scheduler {client.scheduler.address}"
            + (f", dashboard {client.dashboard_link}" if served else ""))
        if self.shipments:
            plugin = (globals().get("ShipPlugin") or __getattr__("ShipPlugin"))(self.shipments)
            client.register_plugin(plugin)
            self._plugin = plugin.name
            problems = client.run(check_shipments, key=self.key,
                                  expected={s.name: s.digest for s in self.shipments})
            wrong = {worker: problem for worker, problem in problems.items() if problem is not None}
            if wrong:
                worker, problem = next(iter(wrong.items()))
                raise ClusterError(f"--ship: on {len(wrong)} worker(s), e.g. {worker}: {problem}")

    def play(self, config: Config, pending: Sequence[MatchPlan], store: Store) -> None:
        """Each task a small batch of consecutive matches (:func:`batch_size`), each record
        stored as its task's result arrives; the outstanding tasks are cancelled whatever stops
        this (the end, Ctrl-C, SIGTERM, a failure). The workers do not hold the signing key:
        the records are signed here, as they arrive."""
        if not pending:
            return
        from distributed import as_completed

        client = self._client
        sign_key = config.sign_key
        shared = client.scatter(attrs.evolve(config, sign_key=None), broadcast=True, hash=False)
        size = self.batch or batch_size(len(pending), self.threads)
        batches = [tuple(pending[i:i + size]) for i in range(0, len(pending), size)]
        futures = [client.submit(_task, shared, batch, self.run, self.key,
                                 key=f"cardcli-{self.run[:12]}-match-{batch[0].index}", pure=False,
                                 priority=len(batches) - k)
                   for k, batch in enumerate(batches)]
        try:
            results = as_completed(futures, with_results=True, raise_errors=False)
            for future, finished in results:
                if future.status == "error":
                    err = future.exception()
                    if isinstance(err, CardcliError):
                        raise err
                    raise ClusterError(f"a match could not be played on the cluster: {type(err).__name__}: "
                                       f"{err}")
                for one in finished:
                    if one is not None:
                        store(one if sign_key is None else signed_here(one, sign_key))
                future.release()
            self.completed = True
        finally:
            left = [f for f in futures if not f.done()]
            if left:
                client.cancel(left, force=True)

    def close(self) -> None:
        client = self._client
        if client is None:
            return
        try:
            client.run(stop_run, self.run, self.completed)
            if self._plugin is not None:
                client.unregister_worker_plugin(self._plugin)
        except (OSError, TimeoutError, ValueError):
            pass
        client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._client = None


def batch_size(matches: int, threads: int) -> int:
    """Matches per task: one while the schedule is short, up to :data:`MAX_BATCH` when it is
    long enough to give every worker thread :data:`TASKS_PER_THREAD` tasks still. A task costs
    the scheduler and the worker about 6 ms on a loaded 2-core machine (measured:
    docs/performance.md), as much as a short match: batches keep the cluster's throughput near
    the local pool's, and enough tasks remain to spread the work and to lose little when a
    worker dies (its batch is played again elsewhere)."""
    return max(1, min(MAX_BATCH, matches // (threads * TASKS_PER_THREAD)))


def _task(config: Config, batch: Sequence[MatchPlan], run: str, key: str | None) -> list[Finished | None]:
    """What a Dask worker runs for a batch of matches (see :func:`play_on_worker`)."""
    cwd = None
    if key is not None:
        from distributed import get_worker

        cwd = ship_root(get_worker().local_directory, key)
    return [play_on_worker(config, match, run, cwd) for match in batch]


def _has_dashboard() -> bool:
    """Whether this machine can serve Dask's dashboard (it needs bokeh)."""
    import importlib.util

    return importlib.util.find_spec("bokeh") is not None
