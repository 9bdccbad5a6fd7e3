"""A real PostgreSQL server for the database tests, started by the tests themselves.

The arena's storage runs on SQLite and on PostgreSQL, and the two differ where it matters
(transactions, types, concurrent writers), so its tests talk to a real server, never a mock.
This plugin (registered in tests/conftest.py) gives two fixtures:

- ``postgres_url`` (one per session, hence one per pytest-xdist worker): a throwaway server
  from Debian's ``postgresql`` package (``initdb`` into a fresh temporary directory, then
  ``pg_ctl start``), listening on 127.0.0.1 only, on a free port, with its socket in that
  directory; it yields the SQLAlchemy URL of a database ``cardcli`` on it, and stops the
  server and removes the directory at the end of the session;
- ``fresh_postgres_url`` (one per test): a new empty database on that server, dropped after
  the test.

Nothing here depends on a cluster the distribution's package may have started on install
(port 5432, /var/lib/postgresql): each worker's server has its own directory, port and socket,
so workers never collide with it or with each other. PostgreSQL refuses to run as root, so a
root test process runs ``initdb`` and ``pg_ctl`` as the unprivileged user ``cardclitest``
(created when missing, as tests/fast_as_user.sh does) and gives it the directory.

Without the server's programs the fixtures fail, never skip: the suite's database tests are
meant to run wherever the whole suite runs (``bash tests/setup.sh`` installs them), and the
fast tier never asks for these fixtures.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

SUPERUSER = "cardcli"
"""The server's superuser (``initdb -U``), in every URL; ``trust`` authentication on loopback."""
DATABASE = "cardcli"
"""The database ``postgres_url`` names, made at start: the maintenance database ``postgres``
stays for creating and dropping the fresh ones."""
HOST = "127.0.0.1"
UNPRIVILEGED_USER = "cardclitest"
"""Who runs the server when the tests run as root (the user tests/fast_as_user.sh uses)."""
START_SECONDS = 60
"""How long ``pg_ctl -w`` waits for the server to accept connections: generous, for a loaded
machine starting one server per xdist worker at once."""
PORT_ATTEMPTS = 5
"""Starts tried on new ports when the free port found was taken before the server bound it."""
SETTINGS = {
    "listen_addresses": HOST,
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}
"""The server's settings beyond its port and socket directory: loopback only, and no waiting
for the disk, since the data is thrown away after the session."""


class PostgresStartError(RuntimeError):
    """The test server could not be set up or started; the message holds the log's tail."""


def server_bindir() -> Path:
    """The directory of ``initdb``, ``pg_ctl`` and ``postgres``: ``pg_config --bindir`` when it
    has them (libpq-dev's pg_config can exist without the server), else the newest version
    under /usr/lib/postgresql (Debian puts the server's programs there, off PATH). Fails,
    never skips, when there is none: the database tests are part of the whole suite."""
    if shutil.which("pg_config"):
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=False)
        bindir = Path(found.stdout.strip())
        if found.returncode == 0 and (bindir / "initdb").is_file():
            return bindir
    versions = sorted((path.parent for path in Path("/usr/lib/postgresql").glob("*/bin/initdb")),
                      key=lambda bindir: [int(part) for part in re.findall(r"\d+", bindir.parent.name)])
    if not versions:
        pytest.fail("PostgreSQL's server programs (initdb, pg_ctl) are not installed, and the database tests "
                    "start a real server: run `bash tests/setup.sh` (it installs Debian's postgresql package)",
                    pytrace=False)
    return versions[-1]


def unprivileged_user() -> pwd.struct_passwd:
    """The user that runs the server for a root test process, created when missing (several
    xdist workers may try at once: one ``useradd`` wins and the others find the user)."""
    try:
        return pwd.getpwnam(UNPRIVILEGED_USER)
    except KeyError:
        pass
    made = subprocess.run(["useradd", "-m", UNPRIVILEGED_USER], capture_output=True, text=True, check=False)
    try:
        return pwd.getpwnam(UNPRIVILEGED_USER)
    except KeyError:
        raise PostgresStartError(f"PostgreSQL refuses to run as root and the user {UNPRIVILEGED_USER} could not "
                                 f"be made (useradd -m {UNPRIVILEGED_USER}): {made.stderr.strip()}") from None


def free_port() -> int:
    """A loopback port nobody listens on now (the kernel picks it for a socket bound to port 0).
    Another process can take it before the server binds it; the start then tries another."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def url_of(port: int, database: str) -> str:
    return f"postgresql+psycopg://{SUPERUSER}@{HOST}:{port}/{database}"


@dataclass
class PostgresServer:
    """One throwaway server: its temporary directory holds the data directory (``data``), the
    Unix socket and the log (``server.log``). ``start`` and ``stop`` run the server's programs as
    ``owner`` (None: the test process's own user)."""

    bindir: Path
    directory: Path
    owner: pwd.struct_passwd | None
    port: int = 0
    postmaster: int | None = field(default=None, repr=False)

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def log(self) -> Path:
        return self.directory / "server.log"

    def url(self, database: str = DATABASE) -> str:
        return url_of(self.port, database)

    def run(self, *args: str, timeout: float = START_SECONDS + 30) -> subprocess.CompletedProcess[str]:
        """Run one of the server's programs as the directory's owner, in that directory, with
        none of the caller's ``PG*`` variables (a PGDATA or PGPORT would point elsewhere)."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "HOME": str(self.directory)}
        as_owner: dict[str, Any] = {}
        if self.owner is not None:
            as_owner = {"user": self.owner.pw_uid, "group": self.owner.pw_gid, "extra_groups": []}
        return subprocess.run([str(self.bindir / args[0]), *args[1:]], capture_output=True, text=True,
                              cwd=self.directory, env=env, timeout=timeout, check=False, **as_owner)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def initdb(self) -> None:
        made = self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", SUPERUSER, "--no-sync",
                        "-E", "UTF8", "--locale=C")
        if made.returncode != 0:
            raise PostgresStartError(f"initdb failed ({made.returncode}):\n{made.stdout}\n{made.stderr}")

    def start(self) -> None:
        """Start the server on a free port, waiting until it accepts connections (``pg_ctl -w``);
        a port taken in the meantime makes it try another."""
        for _ in range(PORT_ATTEMPTS):
            self.log.unlink(missing_ok=True)  # the tail read below is this attempt's alone
            self.port = free_port()
            options = {"port": str(self.port), "unix_socket_directories": str(self.directory), **SETTINGS}
            started = self.run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w",
                               "-t", str(START_SECONDS),
                               "-o", " ".join(f"-c {name}={shlex.quote(value)}" for name, value in options.items()))
            self.postmaster = self.read_postmaster()
            if started.returncode == 0:
                return
            tail = self.log_tail()
            self.stop()
            if "could not bind" not in tail and "Address already in use" not in tail:
                raise PostgresStartError(f"pg_ctl start failed ({started.returncode}): {started.stdout}"
                                         f"{started.stderr}\nthe server's log ends:\n{tail}")
        raise PostgresStartError(f"no free port after {PORT_ATTEMPTS} tries; the server's log ends:\n{self.log_tail()}")

    def read_postmaster(self) -> int | None:
        """The server's process id from its lock file, or None before it wrote one."""
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        """Stop the server at once (``-m immediate``: its data is thrown away) and wait for it.
        ``pg_ctl`` starts the server in a session of its own, and the suite's conftest makes the
        test process the subreaper of its orphans, so the ended server is this process's child:
        it is reaped here rather than left ``<defunct>``."""
        if self.data.exists() and (self.data / "postmaster.pid").exists():
            self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w", "-t", str(START_SECONDS))
        pid, self.postmaster = self.postmaster, None
        if pid is None:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    return
            except ChildProcessError:
                if not Path(f"/proc/{pid}").exists():
                    return
            time.sleep(0.05)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def start_server() -> PostgresServer:
    """A new server in a new directory under /tmp (short enough for the socket's path, which
    Unix limits to 107 bytes, and reachable by the unprivileged user, unlike root's own
    temporary directories), owned by whoever runs it."""
    bindir = server_bindir()
    owner = unprivileged_user() if os.geteuid() == 0 else None
    directory = Path(tempfile.mkdtemp(prefix="cardcli-pg-", dir="/tmp"))
    server = PostgresServer(bindir, directory, owner)
    try:
        if owner is not None:
            os.chown(directory, owner.pw_uid, owner.pw_gid)
        server.initdb()
        server.start()
        with admin(server.url()) as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{DATABASE}"')
    except BaseException:
        server.remove()
        raise
    return server


@contextlib.contextmanager
def admin(url: str) -> Iterator[Any]:
    """A connection to the server's maintenance database ``postgres``, outside any transaction
    (CREATE and DROP DATABASE refuse to run in one)."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    engine = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


@contextlib.contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A new empty database on the server of ``url``, under a name no other test or worker
    uses, yielding its URL; dropped afterwards, after ending the connections a test left open.
    Dropping is tidying: a failure there does not fail the test (the server goes at the
    session's end anyway)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    name = f"test_{uuid.uuid4().hex}"
    with admin(url) as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        try:
            with admin(url) as connection:
                connection.exec_driver_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                           "WHERE datname = %(name)s AND pid <> pg_backend_pid()", {"name": name})
                connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except SQLAlchemyError:
            pass


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of database ``cardcli`` on a throwaway PostgreSQL server of this session (of
    this xdist worker), stopped and removed at the session's end (and at exit, should the
    session end without its teardown)."""
    server = start_server()
    atexit.register(server.remove)
    try:
        yield server.url()
    finally:
        server.remove()
        atexit.unregister(server.remove)


@pytest.fixture
def fresh_postgres_url(postgres_url: str) -> Iterator[str]:
    """The URL of a new empty database for this test alone, on the session's server."""
    with fresh_database(postgres_url) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL for each test, on each database the arena runs on: SQLite in a
    file, or a new database on the session's PostgreSQL server. The parameter's name is what
    tests/tiers.py marks a PostgreSQL case by (``database``, outside the fast tier)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'arena.db'}"
    return str(request.getfixturevalue("fresh_postgres_url"))
