"""The PostgreSQL server the database tests start (tests/postgres.py) is real, keeps each test's
database apart, and listens on loopback only: the arena's tests rely on all three, so they are
checked here once, on their own, rather than found out through a failing arena test."""

from __future__ import annotations

from typing import Iterator

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError

from postgres import DATABASE, HOST, fresh_database


@pytest.fixture
def engine(fresh_postgres_url: str) -> Iterator[Engine]:
    made = create_engine(fresh_postgres_url)
    yield made
    made.dispose()


def test_the_server_is_a_real_postgresql(engine: Engine) -> None:
    with engine.connect() as connection:
        assert "PostgreSQL" in connection.execute(text("select version()")).scalar_one()


def test_a_table_keeps_what_is_written_and_a_rollback_leaves_nothing(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE entrants (id serial PRIMARY KEY, name text NOT NULL)"))
        connection.execute(text("INSERT INTO entrants (name) VALUES (:name)"), [{"name": "north"}, {"name": "east"}])
    with engine.connect() as connection:
        connection.execute(text("INSERT INTO entrants (name) VALUES ('south')"))
        connection.rollback()
    with engine.connect() as connection:
        names = connection.execute(text("SELECT name FROM entrants ORDER BY id")).scalars().all()
    assert names == ["north", "east"]


def test_each_fresh_database_is_its_own_and_is_dropped_after(fresh_postgres_url: str, postgres_url: str) -> None:
    first = create_engine(fresh_postgres_url)
    try:
        with fresh_database(postgres_url) as other_url:
            assert make_url(other_url).database != make_url(fresh_postgres_url).database
            other = create_engine(other_url)
            with first.begin() as connection:
                connection.execute(text("CREATE TABLE only_here (n int)"))
            with other.connect() as connection:
                assert connection.execute(text("SELECT to_regclass('only_here')")).scalar_one() is None
                # a connection the test leaves open does not keep the database from being dropped
                other_left_open = other.connect()
                other_left_open.execute(text("SELECT 1"))
        other.dispose()
        with first.connect() as connection:
            assert connection.execute(text("SELECT to_regclass('only_here')")).scalar_one() == "only_here"
            names = connection.execute(text("SELECT datname FROM pg_database")).scalars().all()
        assert make_url(other_url).database not in names
        assert DATABASE in names
    finally:
        first.dispose()


def test_a_fresh_database_starts_empty(engine: Engine) -> None:
    with engine.connect() as connection:
        tables = connection.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).all()
    assert tables == []


def test_the_server_listens_on_loopback_only_and_is_not_the_system_cluster(postgres_url: str, engine: Engine) -> None:
    url = make_url(postgres_url)
    assert url.host == HOST
    assert url.drivername == "postgresql+psycopg"
    assert url.port != 5432
    with engine.connect() as connection:
        assert connection.execute(text("SHOW listen_addresses")).scalar_one() == HOST
        assert connection.execute(text("SELECT host(inet_server_addr())")).scalar_one() == HOST
        data_directory = connection.execute(text("SHOW data_directory")).scalar_one()
    assert not data_directory.startswith("/var/lib/postgresql"), data_directory


def test_a_statement_error_is_postgresql_s_own(engine: Engine) -> None:
    """The driver reports the server's error, not an emulation's."""
    with engine.connect() as connection, pytest.raises(ProgrammingError, match="no_such_table"):
        connection.execute(text("SELECT * FROM no_such_table"))
