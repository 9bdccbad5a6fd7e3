"""The author's view over real sockets on loopback, on SQLite and on a real PostgreSQL server,
over matches actually played by a program that makes an illegal move and writes markup to its
stderr: its author, signed in with the entrant's token, sees the fault, the failure bundle with
the stderr's end (as text), the protocol lines exactly as ``cardcli replay --protocol`` derives
them, its info lines and its think time; the token never shows in an address, a page or a
header; a wrong token, no session, another entrant's session, a form from another site and a
replaced token are all refused; and neither the public pages nor the API show any of it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator

import httpx
import pytest
import sqlalchemy as sa

from cardcli.arena import author, secrets
from cardcli.arena.config import ArenaConfig
from cardcli.arena.service import Service
from cardcli.arena.store import HEAD, EntrantKind, NewMatch, Store, engine_for, migrate
from cardcli.arena.workers import Workers
from cardcli.protocol_replay import derive
from cardcli.referee import Settings
from cardcli.seats.limits import Limits
from cardcli.seats.policy import SandboxMode, SandboxPolicy
from cardcli.transcript import write
from conftest import ROOT
from postgres import fresh_database
from test_arena_pages import serving

CONFIG = ArenaConfig("peppa", "torino", {}, 4, 42, Settings(move_time=2.0, keep_info=True), Limits(memory_mb=256),
                     SandboxPolicy(mode=SandboxMode.OFF))
STDERR = "<script>alert('stderr')</script>"
BOB = (f"{sys.executable} {ROOT / 'tests/bots/faulty_bot.py'} --illegal-at 3 --chatty "
       f"--stderr-text \"{STDERR}\"")
PLAYED = 2


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One database per module and kind: the matches are played once for every test here."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('author') / 'arena.db'}"
    else:
        with fresh_database(request.getfixturevalue("postgres_url")) as url:
            yield url


class Season:
    """A played season: ``bob`` faults in every match, ``house`` does not; both have tokens."""

    def __init__(self, url: str) -> None:
        self.store = Store.create(url, CONFIG, now=1000.0)
        self.store.add_entrant("bob", EntrantKind.PROGRAM, BOB)
        self.store.add_entrant("house", EntrantKind.PROGRAM, "random")
        self.tokens = {}
        for name in ("bob", "house"):
            token, digest = secrets.new_pair()
            self.store.set_token_hash(name, digest)
            self.tokens[name] = token
        workers = Workers(1)
        workers.start()
        try:
            service = Service(self.store, workers)
            service.run(until=lambda: service.stored >= PLAYED)
        finally:
            workers.close()
        self.match = self.store.matches(1)[0].id


@pytest.fixture(scope="module")
def season(db: str) -> Iterator[Season]:
    made = Season(db)
    yield made
    made.store.close()


@pytest.fixture
def site(season: Season) -> Iterator[httpx.Client]:
    with serving(season.store) as client:
        yield client


def sign_in(site: httpx.Client, field: str, **headers: str) -> httpx.Response:
    return site.post("/author", data={"token": field}, headers=headers, follow_redirects=False)


def test_the_author_sees_its_faults_bundle_stderr_protocol_and_think_time(season: Season,
                                                                         site: httpx.Client) -> None:
    token = season.tokens["bob"]
    signed = sign_in(site, f"bob {token}")  # the line `entrant token` prints
    assert signed.status_code == 303 and signed.headers["location"] == "/author"
    cookie = signed.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/author" in cookie
    home = site.get("/author")
    assert home.status_code == 200 and "The author's view of bob" in home.text
    assert f'href="/author/matches/{season.match}"' in home.text
    assert "illegal" in home.text and "Think time in its last matches" in home.text

    page = site.get(f"/author/matches/{season.match}")
    assert page.status_code == 200, page.text[:300]
    text = page.text
    assert "Failure bundle of seat" in text and "the end of its stderr" in text
    assert "</script> (on stderr)" not in text
    assert "&lt;script&gt;alert(&#x27;stderr&#x27;)&lt;/script&gt; (on stderr)" in text
    assert "Think time per move" in text and '<svg class="think-chart"' in text
    assert "thinking hard" in text  # its info lines (kept by the arena's settings)

    record = json.loads(season.store.record_line(season.match) or "{}")
    seats = season.store.seats_of("bob", season.match)
    assert seats and all(s in {f["seat"] for f in record["faults"]} for s in seats)
    lines = "".join(line + "\n" for line in write(derive(record, seats[0]).entries))
    download = site.get(f"/author/matches/{season.match}/protocol/{seats[0]}")
    assert download.status_code == 200 and download.text == lines
    assert "attachment" in download.headers["content-disposition"]
    assert "protocol-" in download.headers["content-disposition"]

    viewer = site.get(f"/author/matches/{season.match}/viewer")
    assert viewer.status_code == 200 and "thinking hard" in viewer.text
    assert "script-src 'sha256-" in viewer.headers["content-security-policy"]

    for response in (signed, home, page, download, viewer):
        assert token not in response.text and token not in str(response.url)
        assert all(token not in value for value in response.headers.values())
    assert site.post("/author/sign-out").status_code == 303
    assert "Sign in" in site.get("/author").text


def test_nobody_else_sees_them_and_the_public_pages_do_not_either(season: Season, site: httpx.Client) -> None:
    match = season.match
    bob_seats = season.store.seats_of("bob", match)
    # no session
    for path in (f"/author/matches/{match}", f"/author/matches/{match}/viewer",
                 f"/author/matches/{match}/protocol/{bob_seats[0]}"):
        refused = site.get(path)
        assert refused.status_code == 403 and "Sign in" in refused.text and not _shows_bob(refused.text)
    # a wrong token: refused, no session opened
    wrong = sign_in(site, "bob " + secrets.new_pair()[0])
    assert wrong.status_code == 403 and "No entrant has that token" in wrong.text
    assert "set-cookie" not in wrong.headers
    assert site.get(f"/author/matches/{match}").status_code == 403
    # a form posted from another site's page
    assert sign_in(site, season.tokens["bob"], origin="http://elsewhere.example").status_code == 403
    assert sign_in(site, season.tokens["bob"], **{"sec-fetch-site": "cross-site"}).status_code == 403
    assert sign_in(site, season.tokens["bob"], **{"sec-fetch-site": "same-site"}).status_code == 403
    # house's session: its own seats only, never bob's bundle, stderr or protocol
    assert sign_in(site, season.tokens["house"]).status_code == 303
    page = site.get(f"/author/matches/{match}")
    assert page.status_code == 200 and "The author's view" not in page.text
    assert not _shows_bob(page.text)
    assert site.get(f"/author/matches/{match}/protocol/{bob_seats[0]}").status_code == 404
    assert site.get("/author/matches/999999").status_code == 404
    viewer = site.get(f"/author/matches/{match}/viewer")
    assert "thinking hard" not in viewer.text  # bob's info lines are bob's
    # the public: no bundle, no stderr, no info lines
    for path in (f"/matches/{match}", f"/api/matches/{match}/record", "/matches", "/entrants/bob"):
        public = site.get(path)
        assert public.status_code == 200
        assert not _shows_bob(public.text)
        assert "thinking hard" not in public.text or path.startswith("/api/")  # the record is served whole


def _shows_bob(text: str) -> bool:
    """Whether a page shows anything of bob's failure bundle (its stderr, escaped or not; the
    record names the bot's command line, which holds the text without its suffix)."""
    return "Failure bundle" in text or "(on stderr)" in text


def test_a_new_token_closes_the_old_one_s_sessions_and_guessing_is_bounded(season: Season,
                                                                         site: httpx.Client) -> None:
    store = season.store
    assert sign_in(site, season.tokens["house"]).status_code == 303
    assert "The author's view of house" in site.get("/author").text
    token, digest = secrets.new_pair()
    store.set_token_hash("house", digest)
    season.tokens["house"] = token
    assert "Sign in" in site.get("/author").text  # the session ended with its token
    assert site.post("/author", content=b"token=" + b"x" * 5000,
                     headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413
    guesses = [sign_in(site, secrets.new_pair()[0]).status_code for _ in range(author.FAILURES_PER_MINUTE + 1)]
    assert guesses[:-1] == [403] * author.FAILURES_PER_MINUTE and guesses[-1] == 429
    # even the right token waits once the address has guessed too often
    assert sign_in(site, token).status_code == 429


def test_a_season_of_the_third_schema_is_upgraded_and_keeps_bundles(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = engine_for(url)
    with engine.begin() as conn:
        migrate(conn, "0003")
        conn.execute(sa.text("INSERT INTO arena (id, config, created) VALUES (1, :c, 0)"), {"c": CONFIG.dumps()})
    engine.dispose()
    assert Store.upgrade(url) == ("0003", HEAD)
    store = Store.open(url)
    try:
        entrant = store.add_entrant("e", EntrantKind.PROGRAM, "random")
        version = store.version_id(entrant, "1")
        unit = store.add_unit("ladder", [entrant], [None], 1)
        [stored] = store.store_matches([NewMatch(unit, 0, (version,) * 4, "{}", False, (1,), 5.0,
                                                 ((1, "the bundle"),))])
        assert stored is not None and store.bundles(stored) == {1: "the bundle"}
        assert store.entrant_faults("e", 10) == [(stored, 1)] and store.seats_of("e", stored) == [0, 1, 2, 3]
    finally:
        store.close()
