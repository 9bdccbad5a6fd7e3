"""The arena's web pages over real sockets on loopback, on SQLite and on a real PostgreSQL
server, over matches actually played: every page answers with what a spectator looks for, an
entrant named with markup and a fault's detail holding markup are shown as text, every answer
carries a policy that lets nothing be fetched from outside the arena, unknown things are pages
that say 404, the match list filters and pages, the standings stream pushes the table when the
saved standings change, and a watcher that stops reading is dropped instead of slowing the
others."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Iterator
from urllib.parse import quote

import httpx
import pytest

from cardcli.arena import events
from cardcli.arena.api import WebServer, make_app
from cardcli.arena.config import ArenaConfig
from cardcli.arena.service import Service
from cardcli.arena.store import EntrantKind, Store
from cardcli.arena.workers import Workers
from cardcli.referee import Settings
from cardcli.seats.limits import Limits
from cardcli.seats.policy import SandboxMode, SandboxPolicy

CONFIG = ArenaConfig("peppa", "torino", {}, 4, 42, Settings(move_time=2.0), Limits(memory_mb=256),
                     SandboxPolicy(mode=SandboxMode.OFF))
PLAYED = 8
MARKUP = "<img src=x onerror=alert(1)>"
FAULT_MARKUP = "<script>alert('fault')</script><b>bold</b>"
PAGES = ("/", "/entrants/random", f"/entrants/{quote(MARKUP, safe='')}", "/matches", "/matches?faults=with",
         f"/matches?entrant={quote(MARKUP, safe='')}")


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    made = Store.create(db, CONFIG, now=1000.0)
    yield made
    made.close()


@pytest.fixture
def played(store: Store) -> Store:
    """The store after the ladder played ``PLAYED`` matches of ``random`` and an entrant
    named with markup (the heuristic player), then one more match stored with a fault whose
    detail holds markup (the record of a played match, with that fault added)."""
    store.add_entrant("random", EntrantKind.PROGRAM, "random")
    store.add_entrant(MARKUP, EntrantKind.PROGRAM, "heuristic")
    workers = Workers(1)
    workers.start()
    try:
        service = Service(store, workers)
        service.run(until=lambda: service.stored >= PLAYED)
    finally:
        workers.close()
    store_fault_with_markup(store)
    return store


def store_fault_with_markup(store: Store) -> int:
    """Store the last match again (unrated, in a unit of its own) with a fault of the entrant
    named with markup whose detail holds markup too; its id."""
    last = store.matches(1)[0]
    hostile = {v["id"] for v in store.versions() if v["name"] == MARKUP}
    seat = next(s for s, v in enumerate(last.seating) if v in hostile)
    record = json.loads(store.record_line(last.id) or "{}")
    record["faults"] = [*record.get("faults", []), {"seat": seat, "kind": "crash", "detail": FAULT_MARKUP,
                                                    "deal": 1, "move": 2}]
    unit = store.add_unit("ladder", [1, 2], [None, None], 4)
    stored = store.store_match(unit, 0, last.seating, json.dumps(record), False, [seat])
    assert stored is not None
    return stored


@pytest.fixture
def site(played: Store) -> Iterator[httpx.Client]:
    with serving(played) as client:
        yield client


class serving:
    """The app on a free port of 127.0.0.1, with a client for it."""

    def __init__(self, store: Store, **options: object) -> None:
        self.server = WebServer(make_app(store, **options), "127.0.0.1", 0)  # type: ignore[arg-type]

    def __enter__(self) -> httpx.Client:
        self.server.start()
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.server.port}", timeout=20)
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        self.server.stop()


def _page(response: httpx.Response, status: int = 200) -> str:
    assert response.status_code == status, (response.url, response.text[:500])
    assert response.headers["content-type"].startswith("text/html")
    _check_policy(response)
    return response.text


def _check_policy(response: httpx.Response) -> None:
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "frame-ancestors" in policy or "sha256-" in policy, policy
    assert "http:" not in policy and "https:" not in policy and "*" not in policy and "unsafe" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"


def _nav(text: str) -> str:
    """The arena's navigation on a page (its header's)."""
    found = re.search(r'<header class="top">.*?<nav aria-label="arena">(.*?)</nav>', text, re.S)
    assert found, text[:500]
    return found.group(1)


def _sources(text: str) -> list[str]:
    """Every URL the page would load (scripts, styles, icons, images, frames)."""
    return re.findall(r'<(?:script|link|img|iframe|source|embed|object)\b[^>]*?(?:src|href|data)="([^"]*)"', text)


def test_every_page_shows_what_a_spectator_looks_for_under_a_strict_policy(played: Store, site: httpx.Client) -> None:
    standings = _page(site.get("/"))
    table = played.standings()
    assert table is not None
    for row in table["rows"]:
        assert f'data-version="{row["version_id"]}"' in standings
        assert f'{row["rating"]:.2f}' in standings and f'{row["rating_ci"]:.2f}' in standings
    assert '<a href="/entrants/random">random</a>' in standings
    assert "<svg" in standings and "Ratings over time" in standings and 'data-events="/events/standings"' in standings
    assert f"{table['matches']} rated matches" in standings
    entrant = _page(site.get("/entrants/random"))
    assert "<h1>random</h1>" in entrant and "Against the others" in entrant and "Recent matches" in entrant
    for match in played.entrant_matches("random", 20):
        assert f'href="/matches/{match.id}"' in entrant
    assert table["pairs"], "the standings hold the paired results"
    matches = _page(site.get("/matches"))
    ids = [m.id for m in played.matches(50)]
    assert [int(i) for i in re.findall(r'aria-label="match (\d+)"', matches)] == ids
    for label in ('for="f-entrant"', 'for="f-version"', 'for="f-result"', 'for="f-faults"'):
        assert label in matches
    for path in PAGES:
        text = _page(site.get(path))
        assert all(src.startswith("/") and not src.startswith("//") for src in _sources(text)), path
    for static in ("/static/arena.css", "/static/arena.js", "/static/favicon.svg"):
        response = site.get(static)
        assert response.status_code == 200 and response.headers["x-content-type-options"] == "nosniff"
    assert site.head("/").status_code == 200


def test_a_name_and_a_fault_detail_with_markup_are_shown_as_text(played: Store, site: httpx.Client) -> None:
    escaped = "&lt;img src=x onerror=alert(1)&gt;"
    for path in PAGES:
        text = _page(site.get(path))
        assert "<img" not in text and "<script>alert" not in text, path
    assert escaped in _page(site.get("/"))
    page = _page(site.get(f"/entrants/{quote(MARKUP, safe='')}"))
    assert f"<h1>{escaped}</h1>" in page
    faulted = played.matches(1)[0].id
    assert "&lt;script&gt;alert(&#x27;fault&#x27;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in page
    assert f'href="/matches/{faulted}"' in page
    listed = _page(site.get("/matches?faults=with"))
    assert f'aria-label="match {faulted}"' in listed and '<span class="fault">faulted</span>' in listed


def test_no_token_or_seat_spec_is_shown(played: Store, site: httpx.Client) -> None:
    from cardcli.arena import secrets

    token, digest = secrets.new_pair()
    carol = played.add_entrant("carol", EntrantKind.REMOTE, "remote:carol", {"Secret": "hush"}, digest)
    played.version_id(carol, "1")
    for path in (*PAGES, "/entrants/carol", "/matches?entrant=carol"):
        text = _page(site.get(path))
        for secret in (token, digest, digest.split(":")[1], "remote:carol", "hush"):
            assert secret not in text, (secret, path)


def test_unknown_things_are_pages_that_say_so(site: httpx.Client) -> None:
    for path in ("/entrants/nobody", "/matches/999999", "/nothing", "/matches?entrant=nobody", "/matches?version=999"):
        assert "Not found" in _page(site.get(path), 404), path
    for path in ("/matches/abc", "/matches?after=x", "/matches?result=maybe", "/matches?faults=lots"):
        assert "Bad request" in _page(site.get(path), 400), path
    assert site.post("/").status_code == 405
    api = site.get("/api/nothing")
    assert api.status_code == 404 and api.json() == {"error": "Not Found"}


def test_the_matches_filter_by_entrant_version_faults_and_result_and_page(played: Store, site: httpx.Client) -> None:
    def listed(query: str) -> list[int]:
        return [int(i) for i in re.findall(r'aria-label="match (\d+)"', _page(site.get(f"/matches?{query}")))]

    everything = [m.id for m in played.matches(500)]
    assert listed("") == everything
    assert listed("entrant=random") == [m.id for m in played.matches(500, entrant="random")]
    versions = played.versions()
    mine = next(v for v in versions if v["name"] == MARKUP)
    assert listed(f"version={mine['id']}") == [m.id for m in played.matches(500) if mine["id"] in m.seating]
    assert listed("faults=with") == [m.id for m in played.matches(500) if m.faults]
    assert listed("faults=without") == [m.id for m in played.matches(500) if not m.faults]
    won, lost = listed("entrant=random&result=won"), listed("entrant=random&result=lost")
    drew = listed("entrant=random&result=drew")
    assert sorted(won + lost + drew, reverse=True) == [m.id for m in played.matches(500, entrant="random")]
    assert not set(won) & set(lost)
    note = _page(site.get("/matches?result=won"))
    assert "choose an entrant or a version" in note
    # paging: fifty to a page, the next page from the last id shown
    from cardcli.arena import pages

    assert len(everything) < pages.PAGE and 'rel="next"' not in _page(site.get("/matches"))
    second = listed(f"after={everything[2]}")
    assert second == everything[3:]


def test_the_standings_draw_groups_the_paired_results_do_not_separate(played: Store, site: httpx.Client) -> None:
    table = played.standings()
    assert table is not None
    rows = table["rows"]
    rows[0]["next"] = {**(rows[0]["next"] or {}), "separated": False}
    played.save_standings(table, table["matches"])
    text = _page(site.get("/"))
    assert '<tbody class="group tied">' in text and 'class="tie"' in text
    rows[0]["next"]["separated"] = True
    played.save_standings(table, table["matches"])
    assert '<tbody class="group tied">' not in _page(site.get("/"))


def test_the_state_shows_the_presence_the_server_gives_and_why_an_entrant_is_disabled(played: Store) -> None:
    with serving(played, presence=lambda name: "connected" if name == "random" else None) as site:
        text = _page(site.get("/"))
        assert '<td class="state">connected</td>' in text
        played.set_enabled(MARKUP, False, "faulted in 9 of its last 50 matches <b>")
        text = _page(site.get("/"))
        assert "disabled: faulted in 9 of its last 50 matches &lt;b&gt;" in text


def test_a_match_page_is_the_replay_viewer_under_its_own_policy(played: Store, site: httpx.Client) -> None:
    match_id = played.matches(2)[1].id
    response = site.get(f"/matches/{match_id}")
    text = _page(response)
    assert 'id="cardcli-data"' in text and f"arena match {match_id}" in text
    meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text)
    assert meta is not None and "script-src 'sha256-" in response.headers["content-security-policy"]
    assert '<a href="/matches">all matches</a>' in text
    assert site.get(f"/matches/{match_id}").text == text  # kept, not rendered again


def test_the_stream_sends_the_standings_and_again_when_they_change(played: Store, site: httpx.Client) -> None:
    head = site.head("/events/standings")
    assert head.status_code == 200 and head.headers["content-type"].startswith("text/event-stream")
    with site.stream("GET", "/events/standings") as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        first = _event(lines)
        assert first["event"] == "standings" and "<table" in first["data"] and "&lt;img" in first["data"]
        table = played.standings()
        assert table is not None
        table["matches"] = 4242
        played.save_standings(table, 4242)
        second = _event(lines)
        assert "4242 rated matches" in second["data"] and int(second["id"]) > int(first["id"])


def _event(lines: Iterator[str]) -> dict[str, str]:
    """The next event of a server-sent stream (its fields; data lines joined)."""
    fields: dict[str, str] = {}
    data: list[str] = []
    deadline = time.monotonic() + 30
    for line in lines:
        assert time.monotonic() < deadline, "no event within 30 s"
        if line == "":
            if data:
                fields["data"] = "\n".join(data)
                return fields
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(": ")
        if name == "data":
            data.append(value)
        else:
            fields[name] = value
    raise AssertionError("the stream ended")


def test_a_watcher_that_stops_reading_is_dropped_and_the_others_keep_their_updates() -> None:
    async def scenario() -> None:
        feed = events.Feed(lambda: "x")
        slow, quick = events.Subscriber(), events.Subscriber()
        feed._subscribers |= {slow, quick}
        for n in range(events.QUEUE + 1):
            feed.publish(events.message("standings", f"update {n}", n))
            if n < events.QUEUE:
                assert await quick.queue.get() == events.message("standings", f"update {n}", n)
        assert slow.dropped and feed.subscribers == 1
        assert slow.queue.get_nowait() is None  # its stream ends
        assert (await quick.queue.get()).endswith(f"data: update {events.QUEUE}\n\n")

    asyncio.run(scenario())
    assert events.message("e", "a\nb\r\nc") == "event: e\ndata: a\ndata: b\ndata: c\n\n"


def test_watchers_beyond_the_limit_are_refused_and_a_stop_ends_every_stream(store: Store) -> None:
    app = make_app(store)
    app.state.feed.most = 1
    server = WebServer(app, "127.0.0.1", 0)
    server.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=20) as client:
            with client.stream("GET", "/events/standings") as stream:
                lines = stream.iter_lines()  # kept: a dropped iterator closes the stream
                assert _event(lines)["event"] == "standings"
                refused = httpx.get(f"http://127.0.0.1:{server.port}/events/standings", timeout=20)
                assert refused.status_code == 503 and refused.headers["retry-after"]
                started = time.monotonic()
                server.stop()
                assert time.monotonic() - started < 4
                assert list(lines) == []  # the stream ended with the server
    finally:
        server.stop()


def test_serve_shows_a_remote_entrant_connected_or_waiting_from_its_listener() -> None:
    from cardcli.arena.pages import listener_presence
    from cardcli.remote.hub import Address, Listener

    listener = Listener(Address("127.0.0.1", 0), {"alice": "hash"}, {"alice": 2})
    presence = listener_presence(listener)
    assert presence("alice") == "waiting for its bot"
    assert presence("house") is None  # a program entrant: always available
    listener._live["alice"] = 2  # two connections held, as the listener counts them
    assert presence("alice") == "connected (2)"


def test_the_navigation_names_the_live_games_where_they_are_served(store: Store) -> None:
    from cardcli.arena.live import LiveHub, routes

    with serving(store) as site:
        assert 'href="/live"' not in _page(site.get("/"))
    hub = LiveHub()
    try:
        with serving(store, more=routes(hub)) as site:
            for path in ("/", "/matches"):
                assert '<a href="/live">Live games</a>' in _page(site.get(path)), path
            # the live pages are in the same frame, with the same links, theirs the current one
            links = re.findall(r'<a href="([^"]*)"', _nav(_page(site.get("/"))))
            for path in ("/live", "/live/12-3"):
                nav = _nav(_page(site.get(path)))
                assert re.findall(r'<a href="([^"]*)"', nav) == links, path
                assert '<a href="/live" aria-current="page">Live games</a>' in nav, path
    finally:
        hub.close()
