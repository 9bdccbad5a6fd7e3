"""The live games' pages in a real headless Chromium (tests/browser.py): a match's page changes
as its moves arrive, without a reload, and shows no card that a seat alone holds while its
deal is in progress; the hands appear once the deal is over. The list page shows the match and
an entrant named with markup as text. The pages load nothing from anywhere else, are in the
arena's frame (its navigation, "Live games" the current page) and are no wider than a phone,
checked while a match is played; ``CARDCLI_ARENA_SCREENSHOTS=docs`` writes their screenshots
(``docs/arena-live*.png``) then, as tests/test_arena_pages_browser.py does the other pages'.

The match is a real one (built-in players, every event the referee made, batch by batch), fed
to the hub as the service feeds it, one move at a time, so the test knows at each step which
cards are still secret."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest

from browser import PHONE, Browser, session
from cardcli.arena.api import WebServer, make_app
from cardcli.arena.config import ArenaConfig
from cardcli.arena.live import LiveHub, routes
from cardcli.arena.store import Store
from cardcli.arena.workers import Wire
from cardcli.games import registry
from cardcli.games.base import Event
from cardcli.referee import Settings, play_match
from cardcli.seats.builtin import fallback_player
from cardcli.seats.policy import SandboxMode, SandboxPolicy
from harness import cards_named

MARKUP = "<img src=x onerror=alert(1)>"
CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][CDHS](?![0-9A-Za-z])")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from session()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[LiveHub, str]]:
    """The live routes served as ``arena serve --web`` serves them: beside the arena's pages
    (an empty season's), whose frame, stylesheet and navigation the live pages share."""
    hub = LiveHub()
    store = Store.create(f"sqlite:///{tmp_path}/arena.db",
                         ArenaConfig("peppa", "torino", {}, 4, 1, sandbox=SandboxPolicy(mode=SandboxMode.OFF)))
    server = WebServer(make_app(store, more=routes(hub)), "127.0.0.1", 0)
    server.start()
    try:
        yield hub, f"http://127.0.0.1:{server.port}"
    finally:
        hub.close()
        server.stop()
        store.close()


def played(seed: int = 5) -> list[list[Wire]]:
    """One deal of Peppa by built-in players, as the referee's events, batch by batch."""
    setup = registry.resolve("peppa", "torino", {"end_threshold": 1}, 4, seed)
    batches: list[list[Wire]] = []

    def listen(events: Sequence[Event]) -> None:
        batches.append([(e.line(), None if e.audience is None else tuple(sorted(e.audience))) for e in events])

    play_match(setup, [fallback_player(seed, s) for s in range(4)], Settings(move_time=5), listener=listen)
    return batches


def wait(browser: Browser, condition: Any, what: str, limit: float = 20) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser.driver, limit, poll_frequency=0.02).until(lambda _: condition(), what)


def framed_and_phone_wide(browser: Browser, name: str) -> None:
    """The page open now is in the arena's frame, with "Live games" the current page of its
    navigation; it is no wider than a phone, whatever it shows at this moment; and its
    screenshots at 1280 and 390 pixels are written when asked (``arena-<name>.png`` and
    ``-phone.png``). The page keeps its document (and its stream) across the two sizes."""
    assert browser.js("return document.querySelector('header.top nav a[aria-current=page]').getAttribute('href')") \
        == "/live"
    assert browser.js("return getComputedStyle(document.querySelector('header.top')).display") == "flex", \
        "the arena's stylesheet"
    browser.docs_screenshot(name)
    try:
        browser.viewport(*PHONE, mobile=True)
        width = browser.js("return document.documentElement.scrollWidth")
        assert width <= PHONE[0], (name, width, browser.sticking_out())
        browser.docs_screenshot(f"{name}-phone")
    finally:
        browser.desktop()


def test_the_live_page_changes_as_moves_arrive_and_shows_no_hidden_card_of_the_deal(
        browser: Browser, served: tuple[LiveHub, str]) -> None:
    hub, base = served
    info = {"id": "9-0", "unit": 9, "rotation": 0, "rotations": 2, "game": "peppa", "variant": "torino",
            "seats": ["north", MARKUP, "south", "west"]}
    # the unit's other rotation is over: the duplicate gate holds nothing back
    hub.publish("9-1", {**info, "id": "9-1", "rotation": 1}, [])
    hub.ended("9-1")
    browser.desktop()
    browser.open(f"{base}/live/9-0")
    wait(browser, lambda: hub.subscribers == 1, "the page subscribes")
    browser.js("window.liveMarker = 42")
    counter, _ = hub.subscribe("9-0")  # a second spectator, to know what the page should have shown
    assert counter is not None
    shown = 0
    secret: set[str] = set()
    in_deal = False
    positions = set()
    scored = framed = False
    trick = 0
    for batch in played():
        hub.publish("9-0", info, batch)
        for line, audience in batch:
            if audience is None:
                if line.startswith("deal "):
                    secret, in_deal, trick = set(), True, 0
                elif line.startswith("score "):
                    in_deal, scored = False, True
                elif line.startswith("trick "):
                    trick = 0
                elif line.startswith("play "):
                    trick += 1
                secret -= cards_named([line])
            else:
                secret |= cards_named([line])
        chunk, _ = hub.take(counter)
        shown += chunk.count('"type":"event"')
        wait(browser, lambda: browser.js("return document.getElementById('live-page').dataset.last") == str(shown),
             f"the page shows event {shown}")
        text = browser.js("return document.body.innerText")
        positions.add(browser.js("return document.getElementById('position').textContent"))
        if in_deal:
            assert not set(CARD.findall(text)) & secret, "a card a seat alone holds is on the page"
            if scored and trick >= 3 and not framed:  # the second deal: totals, and cards on the table
                framed_and_phone_wide(browser, "live-match")
                framed = True
    assert framed, "the page was checked while a trick was on the table"
    hub.ended("9-0")
    wait(browser, lambda: browser.js("return document.getElementById('live-page').dataset.over") == "1", "the end")
    assert browser.js("return window.liveMarker") == 42, "the page was reloaded"
    assert len(positions) > 10, "the table moved on as the moves arrived"
    hands = browser.js("return Array.from(document.querySelectorAll('.seat .hand')).map(h => h.textContent)")
    assert all(h.startswith("hand: ") and len(h.split()) == 14 for h in hands), "the hands, after the deal"
    names = browser.js("return Array.from(document.querySelectorAll('.seat .name')).map(n => n.textContent)")
    assert names[1] == f"Seat 1: {MARKUP}"
    assert browser.js("return document.querySelectorAll('img').length") == 0
    assert all(url.startswith(base) for url in browser.requests())
    assert browser.console_errors() == []


def test_the_list_page_shows_the_matches_in_progress_as_text(browser: Browser,
                                                             served: tuple[LiveHub, str]) -> None:
    hub, base = served
    browser.desktop()
    browser.open(f"{base}/live")
    wait(browser, lambda: hub.subscribers == 1, "the page subscribes")
    info = {"id": "3-0", "game": "peppa", "variant": "torino", "rotations": 1, "seats": [MARKUP, "b", "c", "d"]}
    hub.publish("3-0", info, [("deal 1 0", None), ("hand 2C", (0,))])
    row = "document.querySelector('tr[data-match=\"3-0\"]')"
    wait(browser, lambda: browser.js(f"return {row} !== null"), "the match is listed")
    # a second match, far on, with a name that has no place to break: the list as a phone shows it
    hub.publish("4-0", {**info, "id": "4-0", "seats": ["a-name-with-no-break-anywhere-in-it-at-all@v12",
                                                      "random", "heuristic", "ismcts"]},
                [("deal 1 0", None), ("score 1 9 5 9 13", None), ("totals 9 5 9 13", None), ("deal 2 1", None)])
    wait(browser, lambda: browser.js("return document.getElementById('live-page').dataset.count") == "2",
         "both matches are listed")
    framed_and_phone_wide(browser, "live")
    assert browser.js(f"return {row}.querySelector('.seats').textContent") == f"{MARKUP}, b, c, d"
    assert browser.js(f"return {row}.querySelector('a').getAttribute('href')") == "/live/3-0"
    assert browser.js("return document.querySelectorAll('img').length") == 0
    hub.ended("3-0")
    wait(browser, lambda: browser.js(f"return {row} === null"), "the match leaves the list when it ends")
    assert all(url.startswith(base) for url in browser.requests())
    assert browser.console_errors() == []
