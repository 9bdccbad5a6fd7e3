"""The arena's read-only HTTP API over real sockets on loopback, on SQLite and on a real
PostgreSQL server, over matches actually played: the standings are the ones the records fold
to, the match pages page and filter, a served record verifies, errors are JSON with the right
status (never a 500), nothing but GET and HEAD is allowed, no token or its hash is ever
served, a bot's version label comes back as a JSON string, and the OpenAPI description names
exactly the routes served."""

from __future__ import annotations

import json
import socket
from contextlib import contextmanager
from typing import Iterator

import httpx
import pytest
from starlette.routing import Route

from cardcli.arena import secrets
from cardcli.arena.api import MATCHES_MAX, OPENAPI, WebServer, make_app
from cardcli.arena.config import ArenaConfig
from cardcli.arena.service import Service
from cardcli.arena.table import standings
from cardcli.arena.store import EntrantKind, Store
from cardcli.arena.workers import Workers
from cardcli.errors import UsageError
from cardcli.referee import Settings
from cardcli.replay import verify
from cardcli.seats.limits import Limits
from cardcli.seats.policy import SandboxMode, SandboxPolicy

CONFIG = ArenaConfig("peppa", "torino", {}, 4, 42, Settings(move_time=2.0), Limits(memory_mb=256),
                     SandboxPolicy(mode=SandboxMode.OFF))
PLAYED = 8
MARKUP = "<img src=x onerror=alert(1)>"


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    made = Store.create(db, CONFIG, now=1000.0)
    yield made
    made.close()


@pytest.fixture
def played(store: Store) -> Store:
    """The store after the ladder played ``PLAYED`` matches of two built-in players."""
    store.add_entrant("random", EntrantKind.PROGRAM, "random")
    store.add_entrant("heuristic", EntrantKind.PROGRAM, "heuristic")
    workers = Workers(1)
    workers.start()  # before the web server's thread, as cardcli.arena.workers asks
    try:
        service = Service(store, workers)
        service.run(until=lambda: service.stored >= PLAYED)
    finally:
        workers.close()
    return store


@contextmanager
def serving(store: Store, host: str = "127.0.0.1") -> Iterator[httpx.Client]:
    server = WebServer(make_app(store), host, 0)
    server.start()
    try:
        address = f"[{host}]" if ":" in host else host
        with httpx.Client(base_url=f"http://{address}:{server.port}", timeout=10) as client:
            yield client
    finally:
        server.stop()


@pytest.fixture
def api(played: Store) -> Iterator[httpx.Client]:
    with serving(played) as client:
        yield client


def _json(response: httpx.Response, status: int = 200) -> object:
    assert response.status_code == status, response.text
    _check_headers(response)
    return response.json()


def _check_headers(response: httpx.Response) -> None:
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-store"


def test_the_standings_are_what_the_stored_records_fold_to(played: Store, api: httpx.Client) -> None:
    served = _json(api.get("/api/standings"))
    assert served == json.loads(json.dumps(standings(played)))
    assert isinstance(served, dict) and served["matches"] == played.match_count() >= PLAYED
    assert {row["entrant"] for row in served["rows"]} == {"random", "heuristic"}
    entrants = _json(api.get("/api/entrants"))
    assert isinstance(entrants, dict)
    by_name = {e["name"]: e for e in entrants["entrants"]}
    assert set(by_name) == {"random", "heuristic"}
    for row in served["rows"]:
        entrant = by_name[row["entrant"]]
        assert entrant["kind"] == "program" and entrant["enabled"] and entrant["disabled_reason"] is None
        assert [v["label"] for v in entrant["versions"]] == [row["version"]]
        assert entrant["current"] == row
    one = _json(api.get("/api/entrants/heuristic"))
    assert isinstance(one, dict)
    assert {k: v for k, v in one.items() if k not in ("recent_matches", "recent_faults")} == by_name["heuristic"]
    assert one["recent_matches"] == [m.id for m in played.matches(20, entrant="heuristic")]
    assert one["recent_faults"] == {"faulted": 0, "matches": played.match_count(), "window": 50}


def test_the_standings_before_any_match_are_an_empty_table(store: Store) -> None:
    with serving(store) as api:
        assert _json(api.get("/api/standings")) == {"matches": 0, "lower_is_better": None, "rows": [],
                                                    "order": None}
        assert _json(api.get("/api/entrants")) == {"entrants": []}
        assert _json(api.get("/api/matches")) == {"matches": [], "next_after": None}


def test_matches_page_newest_first_filter_by_entrant_and_serve_records_that_verify(
        played: Store, api: httpx.Client) -> None:
    everything = _json(api.get("/api/matches"))
    assert isinstance(everything, dict)
    ids = [m["id"] for m in everything["matches"]]
    assert len(ids) == played.match_count() and ids == sorted(ids, reverse=True) and everything["next_after"] is None
    assert _paged(api, {}) == ids
    assert _paged(api, {"entrant": "heuristic"}) == [m.id for m in played.matches(500, entrant="heuristic")]
    assert [m["id"] for m in _json(api.get(f"/api/matches?after={ids[2]}&limit=2"))["matches"]] == ids[3:5]
    mine = _json(api.get("/api/matches?entrant=random"))["matches"]
    assert [m["id"] for m in mine] == [m.id for m in played.matches(entrant="random")]
    assert all("random" in {seat["entrant"] for seat in m["seats"]} for m in mine)
    for summary in everything["matches"]:
        line = api.get(f"/api/matches/{summary['id']}/record")
        assert line.status_code == 200
        _check_headers(line)
        assert line.text == played.record_line(summary["id"])
        record = json.loads(line.text)
        verify(record, "api")
        assert summary["status"] == record["status"]
        assert summary["scores"] == record["result"]["scores"]
        assert [s["entrant"] for s in summary["seats"]] == [seat["name"] for seat in record["seats"]]
        assert summary["faults"] == len(record["faults"])
        assert _json(api.get(f"/api/matches/{summary['id']}")) == summary
        assert api.head(f"/api/matches/{summary['id']}").status_code == 200


def _paged(api: httpx.Client, query: dict[str, str]) -> list[int]:
    """The ids of every match, read three at a time by following ``next_after``."""
    ids: list[int] = []
    after = None
    while True:
        page = _json(api.get("/api/matches", params={**query, "limit": 3, **({"after": after} if after else {})}))
        assert isinstance(page, dict) and len(page["matches"]) <= 3
        ids += [m["id"] for m in page["matches"]]
        after = page["next_after"]
        if after is None:
            return ids


BAD_QUERIES = ("limit=abc", "limit=0", f"limit={MATCHES_MAX + 1}", "limit=-5", "limit=1.5", "limit=", "after=x",
               "after=0", "after=-1", "after=99999999999999999999999999", "limit=" + "9" * 5000)


def test_bad_values_are_400_unknown_things_404_other_methods_405_all_json(api: httpx.Client) -> None:
    for query in BAD_QUERIES:
        body = _json(api.get(f"/api/matches?{query}"), 400)
        assert isinstance(body, dict) and set(body) == {"error"}, query
    for path in ("/api/entrants/nobody", "/api/matches/999999", "/api/matches/999999/record",
                 "/api/matches/99999999999999999999999999", "/api/matches?entrant=nobody", "/api/nothing"):
        body = _json(api.get(path), 404)
        assert isinstance(body, dict) and set(body) == {"error"}, path
    assert set(_json(api.get("/api/matches/abc"), 400)) == {"error"}  # type: ignore[arg-type]
    assert set(_json(api.get("/api/matches/-3/record"), 400)) == {"error"}  # type: ignore[arg-type]
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for path in ("/api/standings", "/api/matches", "/api/matches/1", "/api/entrants/random"):
            response = api.request(method, path)
            _json(response, 405)
            assert set(response.headers["allow"].split(", ")) == {"GET", "HEAD"}
    head = api.head("/api/standings")
    assert head.status_code == 200 and head.content == b""
    _check_headers(head)


def test_no_token_or_hash_is_ever_served_and_a_bot_s_label_is_a_json_string(played: Store,
                                                                              api: httpx.Client) -> None:
    token, digest = secrets.new_pair()
    remote = played.add_entrant("carol", EntrantKind.REMOTE, "remote:carol", {"Secret": "hush"}, digest)
    played.version_id(remote, MARKUP)
    bodies = [api.get(path) for path in
              ("/api/standings", "/api/entrants", "/api/entrants/carol", "/api/entrants/random", "/api/matches",
               "/api/matches?entrant=carol", "/api/matches/1", "/api/matches/1/record", "/openapi.json")]
    for response in bodies:
        assert response.status_code == 200, response.url
        _check_headers(response)
        for secret in (token, digest, digest.split(":")[1], "remote:carol", "hush"):
            assert secret not in response.text, f"{secret} served by {response.url}"
    carol = _json(api.get("/api/entrants/carol"))
    assert isinstance(carol, dict)
    assert carol["kind"] == "remote" and [v["label"] for v in carol["versions"]] == [MARKUP]
    raw = api.get("/api/entrants").text
    assert "<img" not in raw and MARKUP in [v["label"] for e in json.loads(raw)["entrants"] for v in e["versions"]]


def test_the_openapi_description_names_every_route_served_and_no_other(store: Store) -> None:
    app = make_app(store)
    served = {route.path: set(route.methods or ()) for route in app.routes
              if isinstance(route, Route) and (route.path.startswith("/api/") or route.path == "/openapi.json")}
    assert set(served) == set(OPENAPI["paths"])
    for path, methods in served.items():
        assert methods == {"GET", "HEAD"}, path
        assert set(OPENAPI["paths"][path]) == {"get"}, path
        for parameter in OPENAPI["paths"][path]["get"].get("parameters", []):
            if parameter["in"] == "path":
                assert "{" + parameter["name"] + "}" in path
    with serving(store) as api:
        assert _json(api.get("/openapi.json")) == json.loads(json.dumps(OPENAPI))


def test_the_server_listens_on_ipv6_loopback_and_a_taken_port_is_one_line(store: Store) -> None:
    with serving(store, "::1") as api:
        assert _json(api.get("/api/standings"))["matches"] == 0  # type: ignore[index]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = WebServer(make_app(store), "127.0.0.1", port)
        with pytest.raises(UsageError, match=f"cannot listen on 127.0.0.1 port {port}") as err:
            server.start()
        assert "\n" not in str(err.value)
