"""The live games' pages in a real headless Chromium (tests/browser.py): a match's page changes
as its moves arrive, without a reload, and shows no card that a seat alone holds while its
deal is in progress; the hands appear once the deal is over. The list page shows the match and
an entrant named with markup as text. The pages load nothing from anywhere else.

The match is a real one (built-in players, every event the referee made, batch by batch), fed
to the hub as the service feeds it, one move at a time, so the test knows at each step which
cards are still secret."""

from __future__ import annotations

import re
from typing import Any, Iterator, Sequence

import pytest
from starlette.applications import Starlette

from browser import Browser, session
from cardcli.arena.api import WebServer
from cardcli.arena.live import LiveHub, routes
from cardcli.arena.workers import Wire
from cardcli.games import registry
from cardcli.games.base import Event
from cardcli.referee import Settings, play_match
from cardcli.seats.builtin import fallback_player
from harness import cards_named

MARKUP = "<img src=x onerror=alert(1)>"
CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][CDHS](?![0-9A-Za-z])")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from session()


@pytest.fixture
def served() -> Iterator[tuple[LiveHub, str]]:
    hub = LiveHub()
    server = WebServer(Starlette(routes=routes(hub)), "127.0.0.1", 0)
    server.start()
    try:
        yield hub, f"http://127.0.0.1:{server.port}"
    finally:
        hub.close()
        server.stop()


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
    for batch in played():
        hub.publish("9-0", info, batch)
        for line, audience in batch:
            if audience is None:
                if line.startswith("deal "):
                    secret, in_deal = set(), True
                elif line.startswith("score "):
                    in_deal = False
                secret -= cards_named([line])
            else:
                secret |= cards_named([line])
        items, _ = hub.take(counter)
        shown += sum(1 for item in items if '"type":"event"' in item)
        wait(browser, lambda: browser.js("return document.querySelector('main').dataset.last") == str(shown),
             f"the page shows event {shown}")
        text = browser.js("return document.body.innerText")
        positions.add(browser.js("return document.getElementById('position').textContent"))
        if in_deal:
            assert not set(CARD.findall(text)) & secret, "a card a seat alone holds is on the page"
    hub.ended("9-0")
    wait(browser, lambda: browser.js("return document.querySelector('main').dataset.over") == "1", "the end")
    assert browser.js("return window.liveMarker") == 42, "the page was reloaded"
    assert len(positions) > 10, "the table moved on as the moves arrived"
    hands = browser.js("return Array.from(document.querySelectorAll('.seat .hand')).map(h => h.textContent)")
    assert all(h.startswith("hand: ") and len(h.split()) == 14 for h in hands), "the hands, after the deal"
    names = browser.js("return Array.from(document.querySelectorAll('.seat .name')).map(n => n.textContent)")
    assert names[1] == f"Seat 1: {MARKUP}"
    assert browser.js("return document.querySelectorAll('img').length") == 0
    assert all(url.startswith(base) for url in browser.requests())
    assert [e for e in browser.console_errors() if "favicon.ico" not in e] == []  # the app's icon is not here


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
    assert browser.js(f"return {row}.querySelector('.seats').textContent") == f"{MARKUP}, b, c, d"
    assert browser.js(f"return {row}.querySelector('a').getAttribute('href')") == "/live/3-0"
    assert browser.js("return document.querySelectorAll('img').length") == 0
    hub.ended("3-0")
    wait(browser, lambda: browser.js(f"return {row} === null"), "the match leaves the list when it ends")
    assert all(url.startswith(base) for url in browser.requests())
