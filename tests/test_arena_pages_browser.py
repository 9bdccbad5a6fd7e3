"""The arena's web pages in a real headless Chromium (tests/browser.py), served by the arena's
own web server on loopback while a real ladder plays: the standings page changes as matches
are stored, without a reload; an entrant named ``<img src=x onerror=alert(1)>`` and a fault's
detail holding markup show as text and run nothing; the author's view refuses a wrong token and
opens with the right one, which no address or page shows; no page loads anything from anywhere but the arena, or breaks its policy;
the keyboard reaches every control; a link to a moment of a match opens the viewer there; and
no page is wider than a phone. Set ``CARDCLI_ARENA_SCREENSHOTS=docs`` to write the screenshots of
``docs/arena.md`` (``docs/arena-<page>.png`` and ``-phone.png``) while the tests run."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterator
from urllib.parse import quote

import pytest

from browser import PHONE, Browser, session
from cardcli.arena.api import WebServer, make_app
from cardcli.arena.config import ArenaConfig
from cardcli.arena.service import Policy, Service
from cardcli.arena.store import EntrantKind, Store
from cardcli.arena.workers import Workers
from cardcli.referee import Settings
from cardcli.seats.limits import Limits
from cardcli.seats.policy import SandboxMode, SandboxPolicy
from test_arena_pages import FAULT_MARKUP, store_fault_with_markup

CONFIG = ArenaConfig("peppa", "torino", {}, 4, 42, Settings(move_time=2.0), Limits(memory_mb=256),
                     SandboxPolicy(mode=SandboxMode.OFF))
MARKUP = "<img src=x onerror=alert(1)>"
WAIT = 120.0
"""Seconds a condition may take on a loaded machine."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from session()


class Arena:
    """A season on SQLite, its workers, its web server, and a ladder that plays in a thread
    when asked (:meth:`play`)."""

    def __init__(self, where: str) -> None:
        self.store = Store.create(f"sqlite:///{where}/arena.db", CONFIG)
        self.store.add_entrant("random", EntrantKind.PROGRAM, "random")
        self.store.add_entrant(MARKUP, EntrantKind.PROGRAM, "heuristic")
        self.workers = Workers(1)
        self.workers.start()  # before the web server's thread, as cardcli.arena.workers asks
        self.server = WebServer(make_app(self.store), "127.0.0.1", 0)
        self.server.start()
        self.url = f"http://127.0.0.1:{self.server.port}"
        self.service = Service(self.store, self.workers, Policy(standings_every=0.5))
        self._thread: threading.Thread | None = None

    def play(self, matches: int) -> None:
        """Play until ``matches`` more are stored (in a thread; :meth:`wait` joins it)."""
        target = self.service.stored + matches
        self.service.stop.clear()
        self._thread = threading.Thread(target=self.service.run,
                                        kwargs={"until": lambda: self.service.stored >= target}, daemon=True)
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join(WAIT)
            assert not self._thread.is_alive(), "the ladder did not finish its matches"

    def close(self) -> None:
        self.service.stop.set()
        if self._thread is not None:
            self._thread.join(WAIT)
        self.server.stop()
        self.workers.close()
        self.store.close()


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    made = Arena(str(tmp_path_factory.mktemp("arena")))
    try:
        yield made
    finally:
        made.close()


def until(condition: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    """Wait for ``condition()`` to be true (polling), failing with ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.1)


def _no_alert(browser: Browser) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    try:
        text = browser.driver.switch_to.alert.text
    except NoAlertPresentException:
        return
    raise AssertionError(f"a page raised an alert: {text}")


def test_the_standings_update_while_matches_are_played(arena: Arena, browser: Browser) -> None:
    browser.open(arena.url + "/")
    assert "0 rated matches" in browser.js("return document.querySelector('#standings .summary').textContent")
    browser.js("window.sameDocument = 'yes'")  # gone if the page reloads
    until(lambda: browser.js("return document.getElementById('live').textContent").startswith("Live"),
          "the page to listen to the stream")
    arena.play(4)
    names = until(lambda: browser.js(
        "return Array.from(document.querySelectorAll('#standings tbody th a')).map(a => a.textContent)"),
        "the standings to show the entrants without a reload")
    assert set(names) == {"random", MARKUP}
    arena.wait()
    stored = arena.store.match_count()
    until(lambda: f"{stored} rated" in browser.js("return document.querySelector('#standings .summary').textContent"),
          f"the page to show all {stored} matches")
    assert browser.js("return window.sameDocument") == "yes"
    assert int(browser.js("return document.getElementById('standings').dataset.updates")) >= 1
    assert browser.js("return document.querySelectorAll('#standings svg.chart polyline').length") >= 1
    arena.play(2)
    arena.wait()
    stored = arena.store.match_count()
    until(lambda: f"{stored} rated" in browser.js("return document.querySelector('#standings .summary').textContent"),
          f"the page to follow to {stored} matches")
    assert browser.js("return window.sameDocument") == "yes"
    assert not browser.console_errors()


def _pages(arena: Arena) -> list[str]:
    match = _played_match(arena)
    return ["/", "/entrants/random", f"/entrants/{quote(MARKUP, safe='')}", "/matches",
            f"/matches?entrant={quote(MARKUP, safe='')}&faults=without", f"/matches/{match}"]


def _played_match(arena: Arena) -> int:
    """The newest match as played (the one stored again with a made-up fault does not verify,
    and its viewer page says so)."""
    return next(m.id for m in arena.store.matches(10) if not m.faults)


def _played(arena: Arena) -> None:
    """At least 4 matches played, then one stored again with a fault whose detail holds markup."""
    if arena.store.match_count() < 4:
        arena.play(4)
        arena.wait()
        arena.service.refresh_standings()
    if not arena.store.entrant_faults(MARKUP, 1):
        store_fault_with_markup(arena.store)


def test_a_name_with_markup_shows_as_text_and_runs_nothing(arena: Arena, browser: Browser) -> None:
    _played(arena)
    for path in _pages(arena)[:5]:
        browser.open(arena.url + path)
        _no_alert(browser)
        assert browser.js("return document.querySelectorAll('img').length") == 0, path
        assert MARKUP in browser.js("return document.body.textContent"), path
    browser.open(arena.url + f"/entrants/{quote(MARKUP, safe='')}")
    assert browser.js("return document.querySelector('h1').textContent") == MARKUP
    # its fault's detail, markup too, is text: no script ran, no element was made of it
    assert FAULT_MARKUP in browser.js("return document.querySelector('main').textContent")
    assert browser.js("return document.querySelectorAll('main b, main script').length") == 0
    _no_alert(browser)


def test_no_page_loads_anything_from_elsewhere_nor_breaks_its_policy(arena: Arena, browser: Browser) -> None:
    _played(arena)
    for path in _pages(arena):
        browser.open(arena.url + path)
        until(lambda: browser.js("return document.readyState") == "complete", f"{path} to load")
        requests = browser.requests()
        assert requests, path
        outside = [url for url in requests if not url.startswith(arena.url + "/")]
        assert not outside, (path, outside)
        assert not browser.console_errors(), path


def test_a_link_to_a_moment_opens_the_viewer_there(arena: Arena, browser: Browser) -> None:
    _played(arena)
    match = _played_match(arena)
    browser.open(arena.url + f"/matches/{match}", "#m=0&s=5")
    position = until(lambda: browser.js("return window.cardcliViewer && window.cardcliViewer.position()"),
                     "the viewer to start")
    assert position["step"] == 5
    assert not browser.console_errors()


def _tab_through(browser: Browser, presses: int) -> list[str]:
    """What the Tab key focuses, press after press, from the top of the page."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    browser.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    seen = []
    for _ in range(presses):
        ActionChains(browser.driver).send_keys(Keys.TAB).perform()
        seen.append(browser.js(
            "const e = document.activeElement; return e.id || e.getAttribute('href') || e.tagName.toLowerCase()"))
    return seen


def test_the_keyboard_reaches_every_control(arena: Arena, browser: Browser) -> None:
    _played(arena)
    browser.open(arena.url + "/matches")
    seen = _tab_through(browser, 14)
    assert seen[0] == "#main"  # the skip link comes first
    for control in ("/", "/matches", "f-entrant", "f-version", "f-result", "f-faults", "button"):
        assert control in seen, (control, seen)
    assert any(s.startswith(("/matches/", "/entrants/")) for s in seen), seen
    # the filter works from the keyboard: choose an entrant, press Enter on the button
    browser.js("document.getElementById('f-entrant').focus()")
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(browser.driver).send_keys(Keys.END).perform()  # the last name: random (markup sorts first)
    browser.js("document.querySelector('form.filters button').focus()")
    ActionChains(browser.driver).send_keys(Keys.ENTER).perform()
    until(lambda: "entrant=random" in browser.driver.current_url, "the filtered page")
    assert browser.js("return document.getElementById('f-entrant').value") == "random"
    browser.open(arena.url + "/")
    seen = _tab_through(browser, 8)
    assert "/entrants/random" in seen, seen


def _sign_in(arena: Arena, browser: Browser, field: str) -> None:
    """Type ``field`` into the author's sign-in form and send it with Enter, as a person does."""
    from selenium.webdriver.common.keys import Keys

    browser.open(arena.url + "/author")
    if not browser.js("return !!document.getElementById('token')"):
        browser.js("document.querySelector('form.sign-out').submit()")
        until(lambda: browser.js("return !!document.getElementById('token')"), "the sign-in form")
    field_box = browser.driver.find_element("id", "token")
    field_box.send_keys(field)
    field_box.send_keys(Keys.ENTER)
    until(lambda: browser.js("return document.readyState") == "complete"
          and not browser.js("return !!document.getElementById('token') && document.getElementById('token').value"),
          "the answer to the sign-in")


def _author_token(arena: Arena) -> str:
    """A new token for the entrant named with markup (a program: the token opens its author's
    view only), replacing any before."""
    from cardcli.arena import secrets

    token, digest = secrets.new_pair()
    arena.store.set_token_hash(MARKUP, digest)
    return token


def test_the_author_s_view_refuses_a_wrong_token_and_opens_with_the_right_one(arena: Arena,
                                                                               browser: Browser) -> None:
    _played(arena)
    token = _author_token(arena)
    _sign_in(arena, browser, "a-wrong-token")
    assert "No entrant has that token" in browser.js("return document.querySelector('[role=alert]').textContent")
    assert not [c for c in browser.driver.get_cookies() if c["name"] == "cardcli_author"]
    browser.open(arena.url + f"/author/matches/{_played_match(arena)}")
    assert "Sign in to see this page" in browser.js("return document.body.textContent")
    _sign_in(arena, browser, f"{MARKUP} {token}")
    assert browser.driver.current_url == arena.url + "/author"
    assert browser.js("return document.querySelector('h1').textContent") == f"The author's view of {MARKUP}"
    _no_alert(browser)
    assert browser.js("return document.querySelectorAll('img').length") == 0
    assert browser.js("return document.querySelector('nav a[aria-current=page]').getAttribute('href')") == "/author"
    assert FAULT_MARKUP in browser.js("return document.querySelector('table.faults').textContent")
    browser.js("document.querySelector(arguments[0]).click()", f'table.think a[href="/author/matches/{_played_match(arena)}"]')
    until(lambda: "/author/matches/" in browser.driver.current_url, "the author's page of a match")
    until(lambda: browser.js("return document.querySelectorAll('svg.think-chart rect.bar').length") > 0,
          "the think time chart")
    assert "<< cardcli 1" in browser.js("return document.querySelector('pre.protocol').textContent")
    visited = browser.js("return performance.getEntriesByType('navigation').map(e => e.name)")
    assert all(token not in url for url in [browser.driver.current_url, *visited, *browser.requests()])
    assert token not in browser.driver.page_source
    assert not browser.console_errors()


SHOTS = ("standings", "entrant", "entrant-markup", "matches", "matches-filtered", "match")
"""The screenshots' names, one per page of :func:`_pages`."""
AUTHOR_SHOTS = ("author", "author-match")
"""The author's view's screenshots: its page and its page of a match."""


def test_no_page_is_wider_than_a_phone(arena: Arena, browser: Browser) -> None:
    _played(arena)
    _sign_in(arena, browser, _author_token(arena))
    pages = [*_pages(arena), "/author", f"/author/matches/{_played_match(arena)}"]
    shots = (*SHOTS, *AUTHOR_SHOTS)
    for path, name in zip(pages, shots):
        browser.open(arena.url + path)
        browser.docs_screenshot(name)
    try:
        browser.viewport(*PHONE, mobile=True)
        for path, name in zip(pages, shots):
            browser.open(arena.url + path)
            browser.docs_screenshot(f"{name}-phone")
            if name != "match":  # the viewer's own layout, tested by its own tests
                width = browser.js("return document.documentElement.scrollWidth")
                assert width <= PHONE[0], (path, width, browser.sticking_out())
    finally:
        browser.desktop()
