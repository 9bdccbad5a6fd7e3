"""The HTML replay viewer (``cardcli replay FILE --html OUT``) in a real headless Chromium.

One short match of every game and player count is recorded, turned into a page, and walked
step by step through the page's own interface (``window.cardcliViewer``); at every step the
page must show exactly what the rules engine holds at that step (``tests/viewer_expect.py``):
each seat's hand, the trick in progress or Seep's floor and houses, and the running totals.
A seat's page (``--seat N``) must show no card of another seat's hand at any step. Then the
page's other promises: the URL fragment reopens a position, the keys move as documented, the
page loads nothing from anywhere, a record it cannot read is an error on the page rather than
a blank one, a tournament's records get a match picker, and the layout holds on a desktop
and on a phone. Then the parts that help a bot's author: a seed past 2**53 shown to the digit,
each move's think time, the kept info lines and the faults at their place (markup in them
shown as text), the per-seat time chart, the jumps to each kind of moment, the motion of cards
with prefers-reduced-motion off and on, partners paired, Seep's houses inside their row on a
phone, and a tournament directory's standings.

The DOM contract the page follows:

- ``window.cardcliViewer``: ``matches()``, ``steps(m)``, ``goto(m, s)`` (synchronous),
  ``position()`` giving ``{match, step, deal, move}`` and ``view(v)`` with ``v`` ``'all'`` or
  a seat number;
- one ``section.seat[data-seat=N]`` per seat with ``.name``, ``.total`` (an integer) and
  ``.hand``, whose cards are ``.card[data-card=QS]`` face up and ``.card.back`` (without
  ``data-card``) face down;
- ``#trick`` with ``.card[data-card][data-seat]`` in play order, empty once a trick is
  complete; for Seep ``#floor`` with the loose ``.card[data-card]`` as direct children and
  ``.house[data-value][data-cemented][data-owners]`` holding their ``.card[data-card]``;
- ``#position``, ``#log`` (``.fault[data-kind]``, ``.fallback``), ``#scores``, ``#chart`` (an
  SVG), ``#error`` (hidden unless there is a problem), Pepper's ``#auction`` (its
  ``.bid[data-seat][data-bid]`` in order) and ``#contract[data-trump][data-bidder][data-level]``,
  Peppa's ``#pass``;
- the URL fragment ``#m=<match>&s=<step>&v=<all|seat>``.

Steps are those of :func:`cardcli.replay.walk`: 0 before the first deal, then per deal one at
its start and one per move. Set ``CARDCLI_VIEWER_SCREENSHOTS=docs`` to write the screenshots
of ``docs/viewer.md`` (``docs/viewer-<game>.png`` and ``-phone.png``) while the tests run.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qs

import attrs
import pytest

from browser import HEIGHT, PHONE, WIDTH, Browser, session
from cardcli.cards import Card
from conftest import FAULTY_BOT, ROOT, read_records
from viewer_expect import Expected, expectations, sort_tokens


@attrs.frozen
class Match:
    """One recorded match to view: a game at one player count, kept short by its options."""

    key: str
    game: str
    players: int
    args: tuple[str, ...]
    seed: int
    seats: tuple[str, ...] = ()
    """``--seat`` specs; every seat ``random`` when empty."""

    def play_args(self, record: Path) -> list[str]:
        seats = self.seats or ("random",) * self.players
        return ["play", self.game, *(a for s in seats for a in ("--seat", s)), "--seed", str(self.seed),
                *self.args, "--record", str(record)]


MATCHES = (
    Match("peppa-4", "peppa", 4, ("-o", "end_threshold=1"), 11),
    Match("seep-2", "seep", 2, ("--max-deals", "1"), 7),  # both half-deals of 12 cards
    Match("seep-3", "seep", 3, ("--max-deals", "1"), 7),
    Match("seep-4", "seep", 4, ("--max-deals", "1"), 7),
    Match("pigugnin-4", "pigugnin", 4, ("--max-deals", "2"), 7,
          seats=("random", "random", f"{FAULTY_BOT} --crash-at 4", "random")),
    Match("pigugnin-5", "pigugnin", 5, ("--max-deals", "1"), 7),
    Match("pepper-2", "pepper", 2, ("--max-deals", "2"), 7),
    Match("pepper-3", "pepper", 3, ("--max-deals", "2"), 7),
    Match("pepper-4", "pepper", 4, ("--max-deals", "2"), 9, seats=("heuristic",) * 4),  # no trump, then clubs
)
"""Every game at every player count. Their records are collected in one file, in this order,
and the page of that file shows them all, as the page of any file of several matches does."""
SEAT = 1
"""The seat whose page (``--seat 1``) is checked: a seat every game has."""
SCREENSHOT_MATCHES = {"peppa": "peppa-4", "seep": "seep-4", "pigugnin": "pigugnin-4", "pepper": "pepper-4"}
"""The match each game's screenshots show, on a page of its own."""


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cardcli", *args]


def run_all(commands: list[list[str]], cwd: Path = ROOT, timeout: float = 120) -> None:
    """Run CLI commands two at a time (the machines have two cores); fail on the first that
    fails, with its error output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    pending = list(commands)
    while pending:
        batch, pending = pending[:2], pending[2:]
        procs = [(c, subprocess.Popen(c, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True)) for c in batch]
        for command, proc in procs:
            _, err = proc.communicate(timeout=timeout)
            if proc.returncode != 0:
                raise AssertionError(f"{' '.join(command[2:])} failed ({proc.returncode}):\n{err}")


def html_args(record: Path, page: Path, seat: int | None = None) -> list[str]:
    return cli("replay", str(record), "--html", str(page), *(("--seat", str(seat)) if seat is not None else ()))


@attrs.frozen
class Built:
    """A recorded match, where its page shows it, and what the engine says of every step."""

    match: Match
    m: int
    """Its index among the page's matches."""
    record: dict[str, Any]
    steps: list[Expected]
    page: Path
    """The page of every match, every hand shown."""
    seat_page: Path
    """The page of every match as seat SEAT saw it (``--seat``)."""
    own_page: Path | None
    """A page of this match alone (the matches of SCREENSHOT_MATCHES)."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    """Every match of MATCHES recorded into one file, its pages made by the CLI."""
    where = tmp_path_factory.mktemp("viewer")
    run_all([cli(*m.play_args(where / f"{m.key}.jsonl")) for m in MATCHES])
    every = where / "every-game.jsonl"
    every.write_text("".join((where / f"{m.key}.jsonl").read_text() for m in MATCHES))
    run_all([html_args(every, where / "every-game.html"), html_args(every, where / "every-game-seat.html", SEAT)])
    # pages for the screenshots, made where the records are: they name the file as "seep-4.jsonl"
    own = {key: where / f"{key}.html" for key in SCREENSHOT_MATCHES.values()}
    run_all([html_args(Path(f"{key}.jsonl"), Path(page.name)) for key, page in own.items()], cwd=where)
    records = read_records(every)
    return {m.key: Built(m, i, records[i], expectations(records[i]), where / "every-game.html",
                         where / "every-game-seat.html", own.get(m.key))
            for i, m in enumerate(MATCHES)}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for every test of the session (tests/browser.py)."""
    yield from session()


# -- reading the page -------------------------------------------------------------------------------

READ = """
const [m, s, go, withText] = arguments;
const V = window.cardcliViewer;
if (go) V.goto(m, s);
const attr = (e, name) => e ? e.getAttribute(name) : null;
const shown = e => !!e && e.checkVisibility({visibilityProperty: true, opacityProperty: true});
const tokens = els => Array.from(els, c => c.getAttribute('data-card'));
const seats = Array.from(document.querySelectorAll('section.seat'), sec => {
  const hand = sec.querySelector('.hand');
  const total = sec.querySelector('.total');
  return {
    seat: attr(sec, 'data-seat'),
    name: sec.querySelector('.name') ? sec.querySelector('.name').textContent : null,
    total: total ? total.textContent.trim() : null,
    up: hand ? tokens(hand.querySelectorAll('.card[data-card]')) : null,
    backs: hand ? hand.querySelectorAll('.card.back').length : null,
  };
});
const trickEl = document.getElementById('trick');
const trick = trickEl ? Array.from(trickEl.querySelectorAll('.card'),
                                   c => [attr(c, 'data-seat'), attr(c, 'data-card')]) : null;
const floorEl = document.getElementById('floor');
const loose = floorEl ? tokens(Array.from(floorEl.children).filter(c => c.matches('.card'))) : null;
const houses = floorEl ? Array.from(floorEl.querySelectorAll('.house'), h => ({
  value: attr(h, 'data-value'), cemented: attr(h, 'data-cemented'), owners: attr(h, 'data-owners'),
  cards: tokens(h.querySelectorAll('.card'))})) : null;
const contract = document.getElementById('contract');
const auction = document.getElementById('auction');
// every card shown face up anywhere, with the section or id it is shown in
const anywhere = Array.from(document.querySelectorAll('.card[data-card]')).filter(shown).map(c => {
  const sec = c.closest('section.seat');
  const hand = c.closest('.hand');
  const place = sec && hand ? 'hand ' + attr(sec, 'data-seat')
    : (c.closest('#trick') ? 'trick' : (c.closest('#floor') ? 'floor'
      : '#' + ((c.closest('[id]') || {}).id || 'body')));
  return [attr(c, 'data-card'), place];
});
const error = document.getElementById('error');
// the text shown, but Pepper's contract: it names the bowers, cards of the rules, not of a hand
let text = withText ? document.body.innerText : null;
if (text !== null && contract && contract.innerText) text = text.replace(contract.innerText, '');
return {
  position: V.position(), hash: location.hash, seats, trick, loose, houses, anywhere,
  contract: contract ? {bidder: attr(contract, 'data-bidder'), level: attr(contract, 'data-level'),
                        trump: attr(contract, 'data-trump')} : null,
  auction: shown(auction) ? Array.from(auction.querySelectorAll('.bid'),
                                      b => [attr(b, 'data-seat'), attr(b, 'data-bid')]) : null,
  error: shown(error) ? error.textContent : null,
  text,
};
"""


def read(browser: Browser, m: int, s: int, go: bool = True, text: bool = False) -> dict[str, Any]:
    """The page at match ``m``, step ``s`` (after ``goto`` unless ``go`` is false), in one call;
    with ``text``, all the text it shows as well."""
    return browser.js(READ, m, s, go, text)


def written(card: str) -> re.Pattern[str]:
    """A card as the page writes it for people (``Q♠``, ``10♠``), not part of a longer word."""
    return re.compile(r"(?<![0-9A-Za-z])" + re.escape(Card.parse(card).symbol()))


def count(value: Any) -> int:
    """``matches()`` and ``steps(m)`` give a number (an array is taken as its length)."""
    return len(value) if isinstance(value, list) else int(value)


def mismatches(got: dict[str, Any], want: Expected, view: int | str, m: int, game: str) -> list[str]:
    """What the page shows differently from the engine at one step, in the given view."""
    problems = []
    n = len(want.hands)
    position = got["position"] or {}
    where = {"match": position.get("match"), "step": position.get("step"), "deal": position.get("deal"),
             "move": position.get("move")}
    wanted = {"match": m, "step": want.step, "deal": want.deal, "move": want.move}
    if where != wanted:
        problems.append(f"position() is {where}, expected {wanted}")
    seats = {s["seat"]: s for s in got["seats"]}
    if sorted(seats) != [str(i) for i in range(n)] or len(got["seats"]) != n:
        problems.append(f"seat sections {[s['seat'] for s in got['seats']]}, expected one for each of 0..{n - 1}")
        return problems
    for seat in range(n):
        shown = seats[str(seat)]
        if shown["total"] is None or not re.fullmatch(r"-?\d+", shown["total"]) or int(shown["total"]) != want.totals[seat]:
            problems.append(f"seat {seat} total shows {shown['total']!r}, the engine has {want.totals[seat]}")
        hand = want.hands[seat]
        if shown["up"] is None:
            problems.append(f"seat {seat} has no .hand")
        elif view == "all" or view == seat:
            if sort_tokens(shown["up"]) != hand or shown["backs"]:
                problems.append(f"seat {seat} hand shows {shown['up']} and {shown['backs']} backs, "
                                f"the engine has {list(hand)}")
        elif shown["up"] or shown["backs"] != want.held[seat]:
            problems.append(f"seat {seat} hand (hidden from seat {view}) shows {shown['up']} face up and "
                            f"{shown['backs']} backs, expected {want.held[seat]} backs")
    trick = [(int(s) if s is not None and s.isdigit() else s, c) for s, c in got["trick"] or []]
    if want.floor is None:
        if got["trick"] is None:
            problems.append("no #trick")
        elif trick != list(want.trick):
            problems.append(f"#trick shows {trick}, the engine's trick is {list(want.trick)}")
        if got["loose"] or got["houses"]:
            problems.append(f"#floor shows {got['loose']} {got['houses']} in {game}")
    else:
        if trick:
            problems.append(f"#trick shows {trick} in Seep")
        if got["loose"] is None:
            problems.append("no #floor")
        else:
            if sort_tokens(c for c in got["loose"] if c) != want.floor or None in got["loose"]:
                problems.append(f"#floor loose cards {got['loose']}, the engine has {list(want.floor)}")
            houses = []
            for h in got["houses"]:
                owners = tuple(int(o) for o in (h["owners"] or "").split(",") if o.strip().isdigit())
                value = int(h["value"]) if (h["value"] or "").isdigit() else h["value"]
                cemented = {"true": True, "false": False}.get(h["cemented"], h["cemented"])
                houses.append((value, cemented, owners, sort_tokens(c for c in h["cards"] if c)))
            wanted_houses = [(h.value, h.cemented, h.owners, h.cards) for h in want.houses or ()]
            if sorted(houses, key=str) != sorted(wanted_houses, key=str):
                problems.append(f"#floor houses {houses}, the engine has {wanted_houses}")
    if want.contract is not None:
        bidder, level, trump = want.contract
        if got["contract"] != {"bidder": str(bidder), "level": level, "trump": trump}:
            problems.append(f"#contract is {got['contract']}, the engine's contract is seat {bidder} "
                            f"bidding {level} in {trump}")
    if want.auction is not None:
        bids = [(int(s) if s and s.isdigit() else s, b) for s, b in got["auction"] or []]
        if got["auction"] is None or bids != list(want.auction):
            problems.append(f"#auction shows {got['auction']}, the bids so far are {list(want.auction)}")
    if got["error"] is not None:
        problems.append(f"#error shows {got['error']!r}")
    if want.set_aside and view == "all":
        shown_aside = sort_tokens(c for c, place in got["anywhere"] if place == "#pass")
        if shown_aside != want.set_aside:
            problems.append(f"#pass shows {list(shown_aside)}, the cards set aside are {list(want.set_aside)}")
    if isinstance(view, int):
        hidden = want.hidden[view]
        leaks = [(c, place) for c, place in got["anywhere"] if c in hidden]
        if leaks:
            problems.append(f"cards of other seats' hands shown face up to seat {view}: {leaks}")
        if got["text"] is not None:
            named = sorted(c for c in hidden if written(c).search(got["text"]))
            if named:
                problems.append(f"cards seat {view} may not see are written on the page: {named}")
    return problems


def walk_page(browser: Browser, b: Built, view: int | str) -> None:
    """Go to every step of the match through ``goto`` and compare the page with the engine;
    fail at the first step that differs, with everything that differs there."""
    steps = count(browser.js("return window.cardcliViewer.steps(arguments[0])", b.m))
    assert steps == len(b.steps), f"steps({b.m}) is {steps}, the record has {len(b.steps)} steps"
    for want in b.steps:
        problems = mismatches(read(browser, b.m, want.step, text=view != "all"), want, view, b.m, b.match.game)
        if problems:
            at = f"deal {want.deal}" + (f", move {want.move + 1}" if want.move is not None else ", its start")
            pytest.fail(f"{b.match.key}, view {view}, step {want.step} ({at}):\n  " + "\n  ".join(problems),
                        pytrace=False)


def check(browser: Browser, b: Built, want: Expected, view: int | str = "all", go: bool = True) -> dict[str, Any]:
    """The page at one step (after going there unless ``go`` is false) is the engine's."""
    got = read(browser, b.m, want.step, go)
    problems = mismatches(got, want, view, b.m, b.match.game)
    assert not problems, f"{b.match.key}, view {view}, step {want.step}: {problems}"
    return got


def only_the_page(browser: Browser, url: str) -> None:
    """The page asked for nothing but itself (``data:`` and ``blob:`` URLs are the page's own
    bytes), and threw no error."""
    requests = browser.requests()
    others = [u for u in requests if u != url and not u.startswith(("data:", "blob:"))]
    assert not others, f"the page made network requests: {others}"
    errors = browser.console_errors()
    assert not errors, f"the page logged errors: {errors}"


def open_viewer(browser: Browser, page: Path, fragment: str = "") -> str:
    """Open a page and wait until its viewer is ready."""
    from selenium.webdriver.support.ui import WebDriverWait

    url = browser.open(page, fragment)
    WebDriverWait(browser.driver, 30).until(
        lambda d: d.execute_script("return document.readyState === 'complete' && !!window.cardcliViewer"),
        message=f"{page.name}: window.cardcliViewer never appeared",
    )
    return url


# -- every step, every game ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", [m.key for m in MATCHES])
def test_every_step_shows_the_engines_table(browser: Browser, built: dict[str, Built], key: str) -> None:
    b = built[key]
    url = open_viewer(browser, b.page)
    assert count(browser.js("return window.cardcliViewer.matches()")) == len(MATCHES)
    names = [s["name"] for s in read(browser, b.m, 0)["seats"]]
    for seat, recorded in enumerate(b.record["seats"]):
        assert names[seat] is not None and recorded["name"] in names[seat], (seat, names[seat], recorded["name"])
    walk_page(browser, b, "all")
    parts = browser.js("""
        const s = id => document.getElementById(id);
        return {position: s('position') ? s('position').textContent.trim() : null, scores: !!s('scores'),
                chart: s('chart') ? s('chart').tagName.toLowerCase() : null, log: !!s('log')}""")
    assert parts["position"] and parts["scores"] and parts["chart"] == "svg" and parts["log"], parts
    only_the_page(browser, url)


@pytest.mark.parametrize("key", [m.key for m in MATCHES])
def test_a_seats_page_hides_the_other_hands(browser: Browser, built: dict[str, Built], key: str) -> None:
    b = built[key]
    url = open_viewer(browser, b.seat_page)
    walk_page(browser, b, SEAT)
    only_the_page(browser, url)


def test_view_switches_between_every_hand_and_one_seat(browser: Browser, built: dict[str, Built]) -> None:
    b = built["seep-4"]
    open_viewer(browser, b.page)
    want = b.steps[len(b.steps) // 3]
    browser.js("window.cardcliViewer.goto(arguments[0], arguments[1])", b.m, want.step)
    for view in (2, "all", 0):
        browser.js("window.cardcliViewer.view(arguments[0])", view)
        got = check(browser, b, want, view, go=False)
        assert fragment_of(got).get("v") == str(view), got["hash"]


# -- the fragment, the keys, the network --------------------------------------------------------------


def fragment_of(got: dict[str, Any]) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(got["hash"].lstrip("#")).items()}


@pytest.mark.parametrize("key,view", [("seep-4", "all"), ("pepper-4", 2), ("peppa-4", "all")])
def test_the_fragment_reopens_the_same_position(browser: Browser, built: dict[str, Built], key: str,
                                                view: int | str) -> None:
    b = built[key]
    open_viewer(browser, b.page)
    want = next(e for e in b.steps[len(b.steps) // 2:] if e.trick or e.houses or e.move == 0)
    browser.js("window.cardcliViewer.goto(arguments[0], arguments[1])", b.m, want.step)
    browser.js("window.cardcliViewer.view(arguments[0])", view)
    got = check(browser, b, want, view, go=False)
    assert fragment_of(got) == {"m": str(b.m), "s": str(want.step), "v": str(view)}, got["hash"]
    open_viewer(browser, b.page, got["hash"])
    again = read(browser, b.m, want.step, go=False)
    problems = mismatches(again, want, view, b.m, b.match.game)
    assert not problems, f"reopened at {got['hash']}: {problems}"


def test_the_keys_move_through_the_steps(browser: Browser, built: dict[str, Built]) -> None:
    """Right and Left: a step on or back; End: the match's last step; Home: its first; no key
    goes past either end."""
    from selenium.webdriver.common.keys import Keys

    b = built["pepper-3"]
    open_viewer(browser, b.page)
    browser.js("window.cardcliViewer.goto(arguments[0], 0)", b.m)
    last = len(b.steps) - 1
    pressed = ([Keys.RIGHT], [Keys.RIGHT] * 3, [Keys.LEFT], [Keys.END], [Keys.RIGHT], [Keys.LEFT], [Keys.HOME],
               [Keys.LEFT])
    where = []
    for keys in pressed:
        browser.keys(*keys)
        got = read(browser, b.m, 0, go=False)
        where.append(got["position"]["step"])
        check(browser, b, b.steps[got["position"]["step"]], go=False)
        assert got["position"]["match"] == b.m
    assert where == [1, 4, 3, last, last, last - 1, 0, 0], where


def test_the_page_loads_nothing(browser: Browser, built: dict[str, Built]) -> None:
    """A ``file://`` page with no network access at all: every request the browser saw was
    the page itself, while loading and while stepping through every match."""
    b = built["peppa-4"]
    url = open_viewer(browser, b.page)
    for other in built.values():
        for s in (0, len(other.steps) // 2, len(other.steps) - 1):
            browser.js("window.cardcliViewer.goto(arguments[0], arguments[1])", other.m, s)
    requests = browser.requests()
    assert url in requests, f"the network log did not see the page itself: {requests}"
    others = [u for u in requests if u != url and not u.startswith(("data:", "blob:"))]
    assert not others, f"the page made network requests: {others}"
    external = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//[^"'\s>]+""", b.page.read_text())
    assert not external, f"the page refers to other sites: {external[:5]}"


# -- what the page shows besides the table --------------------------------------------------------------


def test_a_newer_record_format_is_an_error_on_the_page(browser: Browser, built: dict[str, Built],
                                                       tmp_path: Path) -> None:
    """The page's data edited as a newer referee would write it: the page says why it cannot
    show it, rather than drawing nothing (or drawing it wrong)."""
    from selenium.webdriver.support.ui import WebDriverWait

    b = built["pigugnin-5"]
    edited, found = re.subn(r'("format_version"\s*:\s*)1\b', r"\g<1>99", b.page.read_text())
    assert found, "the page does not hold the record's format_version, so a newer record could not be told"
    page = tmp_path / "newer.html"
    page.write_text(edited)
    browser.open(page)
    WebDriverWait(browser.driver, 30).until(lambda d: d.execute_script("return document.readyState === 'complete'"))
    error = browser.js("""
        const e = document.getElementById('error');
        return e && e.checkVisibility({visibilityProperty: true, opacityProperty: true}) ? e.textContent.trim() : null""")
    assert error, "a record of format_version 99 shows no #error"
    assert "99" in error and "version" in error.lower(), f"the error does not say what is wrong: {error!r}"


def test_a_fault_and_the_fallback_moves_show_in_the_log(browser: Browser, built: dict[str, Built]) -> None:
    b = built["pigugnin-4"]
    (fault,) = b.record["faults"]
    assert fault["kind"] == "crash" and fault["deal"] >= 1, fault
    at = next(e for e in b.steps if e.deal == fault["deal"] and e.move == fault["move"])
    open_viewer(browser, b.page)
    check(browser, b, at)
    log = browser.js("""
        const log = document.getElementById('log');
        return log && {faults: Array.from(log.querySelectorAll('.fault'), f => f.getAttribute('data-kind')),
                       fallbacks: log.querySelectorAll('.fallback').length}""")
    assert log is not None, "no #log"
    assert "crash" in log["faults"], f"the crash at step {at.step} is not in the log: {log}"
    assert log["fallbacks"] >= 1, f"the fallback move at step {at.step} is not marked in the log: {log}"


# -- a tournament --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    where = tmp_path_factory.mktemp("tournament")
    run_all([cli("tournament", "pepper", "--bot", "a=random", "--bot", "b=heuristic", "--deal-sets", "2",
                 "--max-deals", "2", "--seed", "5", "-j", "1", "--dir", str(where / "t"))])
    run_all([html_args(where / "t" / "records.jsonl", where / "t.html")])
    return where / "t.html", read_records(where / "t" / "records.jsonl")


PICKER = """
const shown = e => e.checkVisibility({visibilityProperty: true, opacityProperty: true});
const about = e => [e.id, e.name, e.getAttribute('aria-label'), e.closest('label') && e.closest('label').textContent]
  .join(' ');
const select = Array.from(document.querySelectorAll('select')).filter(shown).find(e => /match/i.test(about(e)));
if (select) return {kind: 'select', choices: select.options.length, element: select};
const items = Array.from(document.querySelectorAll('[data-match]')).filter(shown);
return items.length ? {kind: 'items', choices: items.length, element: null} : null;
"""


def test_a_tournament_file_has_a_match_picker(browser: Browser, tournament: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.support.ui import Select

    page, records = tournament
    assert len(records) >= 3
    url = open_viewer(browser, page)
    assert count(browser.js("return window.cardcliViewer.matches()")) == len(records)
    picker = browser.js(PICKER)
    assert picker is not None, "no visible match picker (a <select> about matches, or elements with data-match)"
    assert picker["choices"] == len(records), f"the picker offers {picker['choices']} of {len(records)} matches"
    chosen = len(records) - 2
    if picker["kind"] == "select":
        Select(picker["element"]).select_by_index(chosen)
    else:
        [e for e in browser.driver.find_elements("css selector", "[data-match]") if e.is_displayed()][chosen].click()
    got = read(browser, 0, 0, go=False)
    assert got["position"]["match"] == chosen, f"picking match {chosen} shows {got['position']}"
    for m, record in enumerate(records):
        steps = expectations(record)
        assert count(browser.js("return window.cardcliViewer.steps(arguments[0])", m)) == len(steps)
        for want in (steps[0], steps[len(steps) // 2], steps[-1]):
            problems = mismatches(read(browser, m, want.step), want, "all", m, "pepper")
            assert not problems, f"match {m}, step {want.step}: {problems}"
    only_the_page(browser, url)


def test_a_page_of_one_match_has_no_picker(browser: Browser, built: dict[str, Built]) -> None:
    page = built["seep-4"].own_page
    assert page is not None
    open_viewer(browser, page)
    assert count(browser.js("return window.cardcliViewer.matches()")) == 1
    picker = browser.js(PICKER)
    assert picker is None, f"a page of one match offers a match picker: {picker['kind']}"


# -- screenshots and layout ----------------------------------------------------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def showcase(b: Built) -> Expected:
    """A step in mid-match worth a picture: a trick half played, or houses on Seep's floor."""
    for want in b.steps[len(b.steps) // 4:]:
        if want.houses and want.floor or len(want.trick) >= 2:
            return want
    return b.steps[len(b.steps) // 2]


SIZES = (("", (WIDTH, HEIGHT), False), ("-phone", PHONE, True))
"""Screenshot name suffix, viewport, and whether it is a phone."""


@pytest.mark.parametrize("game", sorted(SCREENSHOT_MATCHES))
def test_screenshots_at_desktop_and_phone_size(browser: Browser, built: dict[str, Built], game: str,
                                               tmp_path: Path) -> None:
    """Each game's page at a mid-match step, on a desktop and a phone: taken into
    ``$CARDCLI_VIEWER_SCREENSHOTS`` (``docs`` for the pictures of docs/viewer.md) when it is
    set. The page is the engine's there too, and lays out within the viewport: nothing scrolls
    sideways and no card is drawn too small to read."""
    b = built[SCREENSHOT_MATCHES[game]]
    assert b.own_page is not None
    out = Path(os.environ.get("CARDCLI_VIEWER_SCREENSHOTS") or tmp_path)
    out = out if out.is_absolute() else ROOT / out
    out.mkdir(parents=True, exist_ok=True)
    want = showcase(b)
    own = attrs.evolve(b, m=0)
    layouts = {}
    try:
        for suffix, (width, height), mobile in SIZES:
            browser.viewport(width, height, mobile)
            open_viewer(browser, b.own_page)
            check(browser, own, want)
            browser.js("window.scrollTo(0, 0)")
            path = out / f"viewer-{game}{suffix}.png"
            browser.screenshot(path)
            assert png_size(path.read_bytes()) == (width, height)
            layouts[width] = browser.js("""
                const small = Array.from(document.querySelectorAll('.card[data-card]')).filter(c => {
                  const r = c.getBoundingClientRect(); return r.width < 12 || r.height < 12; });
                return {laid_out: Math.max(window.innerWidth, document.documentElement.scrollWidth),
                        small_cards: small.length}""")
    finally:
        browser.desktop()
    # checked once both pictures are taken, so that a layout that fails can be seen
    for width, layout in layouts.items():
        assert layout["laid_out"] <= width, f"{game} at {width}px wide is laid out {layout['laid_out']}px wide"
        assert not layout["small_cards"], f"{game} at {width}px draws {layout['small_cards']} cards under 12px"


# -- a game's part of the viewer -------------------------------------------------------------------------


def test_a_game_without_a_viewer_script_shows_the_core_s_table(browser: Browser, built: dict[str, Built],
                                                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec with ``viewer=None`` (as a game of another package may have): its page holds no
    script of the game, and the core's table is the engine's at every step, without an error;
    the game's own panel is not there."""
    from cardcli import viewer
    from cardcli.games import registry

    b = built["pigugnin-4"]
    got = registry.get
    bare = attrs.evolve(got("pigugnin"), viewer=None)
    monkeypatch.setattr(registry, "get", lambda name: bare if name == "pigugnin" else got(name))
    page = viewer.write_html([b.record], tmp_path / "bare.html")
    assert viewer.game_script(got("pigugnin")) not in page.read_text()
    url = open_viewer(browser, page)
    walk_page(browser, attrs.evolve(b, m=0, page=page), "all")
    shown = browser.js("""
        return {busche: document.getElementById('busche'),
                scored: !document.getElementById('deal-end').hidden,
                log: document.getElementById('log').textContent}""")
    assert shown["busche"] is None and shown["scored"] and "plays" in shown["log"], shown
    only_the_page(browser, url)


def test_a_game_script_that_fails_is_said_on_the_page(browser: Browser, built: dict[str, Built], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's script that throws as the page runs it: the page says which script failed, in
    its red box, and still draws the table with the core."""
    from cardcli import viewer
    from cardcli.games import registry

    package = tmp_path / "broken_viewer"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "viewer.js").write_text('throw new Error("boom");\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    b = built["pigugnin-5"]
    got = registry.get
    broken = attrs.evolve(got("pigugnin"), viewer="broken_viewer:viewer.js")
    monkeypatch.setattr(registry, "get", lambda name: broken if name == "pigugnin" else got(name))
    page = viewer.write_html([b.record], tmp_path / "broken.html")
    open_viewer(browser, page)
    want = b.steps[len(b.steps) // 2]
    got_page = read(browser, 0, want.step)
    assert got_page["error"] == "the viewer script broken_viewer:viewer.js failed: boom", got_page["error"]
    problems = [p for p in mismatches(got_page, want, "all", 0, "pigugnin") if not p.startswith("#error")]
    assert not problems, problems


# -- exact numbers -------------------------------------------------------------------------------------

BIG_SEED = 2844675396372846042
"""A seed past 2**53: as a JavaScript number it would be shown 2844675396372846000."""


def test_a_seed_beyond_2_to_the_53_is_shown_to_the_digit(browser: Browser, tmp_path: Path) -> None:
    """The page's own words about the match (the line under the chart, the match picker) give
    the seed's exact digits."""
    record = tmp_path / "big.jsonl"
    match = Match("big", "pigugnin", 4, ("--max-deals", "1"), BIG_SEED)
    run_all([cli(*match.play_args(record))])
    record.write_text(record.read_text() * 2)  # two matches: the picker names each by its seed
    page = tmp_path / "big.html"
    run_all([html_args(record, page)])
    open_viewer(browser, page)
    shown = browser.js("""
        const pick = document.getElementById('match');
        return {about: document.getElementById('about').textContent,
                picker: Array.from(pick.options, o => o.textContent)}""")
    assert re.search(rf"seed {BIG_SEED}\b", shown["about"]), shown["about"]
    assert all(f"seed {BIG_SEED}" in label for label in shown["picker"]), shown["picker"]
    assert "2844675396372846000" not in shown["about"] + " ".join(shown["picker"])


# -- think time, info lines, faults ------------------------------------------------------------------

MARKUP = "<img src=x onerror=alert(1)>"
"""Markup a bot controls (an info line) or a record carries (a fault's detail): shown as text."""


@pytest.fixture(scope="module")
def chatty(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """A Pigugnìn match whose seat 2 sends info lines (kept with --keep-info) and crashes at its
    fourth move; markup added to one of its info lines and to its fault's detail. Its page."""
    from cardcli import viewer

    where = tmp_path_factory.mktemp("chatty")
    record_path = where / "chatty.jsonl"
    match = Match("chatty", "pigugnin", 4, ("--max-deals", "1", "--keep-info"), 7,
                  seats=("random", "random", f"{FAULTY_BOT} --chatty --crash-at 4", "random"))
    run_all([cli(*match.play_args(record_path))])
    [record] = read_records(record_path)
    assert record["info"]["2"], record.get("info")
    record["info"]["2"].insert(1, f"thinking {MARKUP} hard")
    record["faults"][0]["detail"] = f"the bot said {MARKUP}"
    page = viewer.write_html([record], where / "chatty.html")
    return record, page


def test_think_time_info_lines_and_faults_are_shown_at_their_place(
        browser: Browser, chatty: tuple[dict[str, Any], Path]) -> None:
    """Each move's line in the log carries its think time as recorded and the position line
    says it; each seat's bar of the time chart has its recorded total; the info lines are listed
    under their seat; the fault is at its move with its detail; markup in any of them is text."""
    record, page = chatty
    (fault,) = record["faults"]
    deal = record["deals"][fault["deal"] - 1]
    steps = expectations(record)
    at = next(e for e in steps if e.deal == fault["deal"] and e.move == fault["move"])
    url = open_viewer(browser, page)
    browser.js("window.cardcliViewer.goto(0, arguments[0])", at.step)
    got = browser.js("""
        const q = s => Array.from(document.querySelectorAll(s));
        const shown = e => !!e && e.checkVisibility({visibilityProperty: true, opacityProperty: true});
        return {
          ms: q('#log li.move').map(li => [li.getAttribute('data-step'), li.getAttribute('data-ms'),
                                          li.querySelector('.ms') && li.querySelector('.ms').textContent]),
          position: document.getElementById('position').textContent,
          faults: q('#log li.fault').map(f => [f.getAttribute('data-step'), f.textContent]),
          atFault: q('#log li.move.at-fault').map(li => li.getAttribute('data-step')),
          totals: q('#times .seat-time').map(g => [g.getAttribute('data-seat'), +g.getAttribute('data-total')]),
          info: shown(document.getElementById('info-lines')) ?
            q('#info-lines details').map(d => [d.getAttribute('data-seat'),
                                              Array.from(d.querySelectorAll('li'), li => li.textContent)]) : null,
          images: document.querySelectorAll('img').length,
        }""")
    moves = deal["moves"][: fault["move"] + 1]
    first = at.step - fault["move"]
    assert [(int(s), float(ms)) for s, ms, _ in got["ms"]] == [(first + i, mv["ms"]) for i, mv in enumerate(moves)]
    assert all(text and re.search(r"\d( ms| s)$", text) for _, _, text in got["ms"]), got["ms"]
    mover = moves[-1]["seat"]
    assert f"{mover}:" in got["position"] and "thought" in got["position"], got["position"]
    assert MARKUP in got["position"], got["position"]
    assert [int(s) for s, _ in got["faults"]] == [at.step] and MARKUP in got["faults"][0][1], got["faults"]
    assert got["atFault"] == [str(at.step)], got["atFault"]
    for seat, total in got["totals"]:
        recorded = sum(mv["ms"] for d in record["deals"] for mv in d["moves"] if mv["seat"] == int(seat))
        assert total == pytest.approx(recorded), (seat, total, recorded)
    assert got["info"] is not None, "the info lines are not shown"
    info = dict(got["info"])
    assert info["2"] == record["info"]["2"], info
    assert f"thinking {MARKUP} hard" in info["2"]
    assert got["images"] == 0, "markup from the record was made into elements"
    # the chart's dark bars grow with the steps: at the last step each is its seat's total
    browser.js("window.cardcliViewer.goto(0, window.cardcliViewer.steps(0) - 1)")
    so_far = browser.js("""return Array.from(document.querySelectorAll('#times .seat-time'),
                                  g => [+g.getAttribute('data-so-far'), +g.getAttribute('data-total')])""")
    assert all(a == pytest.approx(b) for a, b in so_far), so_far
    only_the_page(browser, url)


# -- jumps to what matters ---------------------------------------------------------------------------

def lines_at(record: dict[str, Any], word: str) -> list[int]:
    """The steps of a record's page whose event lines include ``word ...`` (any audience)."""
    from cardcli import viewer

    [m] = viewer.page_data([record])["matches"]
    out, s = [], 1
    for deal in m["deals"]:
        for i, text in enumerate(deal["steps"]):
            lines = [line.split(" ", 1)[1] if line.startswith("@") else line for line in text.split("\n")]
            if any(line.startswith(word + " ") for line in lines):
                out.append(s + i)
        s += len(deal["steps"])
    return out


JUMPS = {"pigugnin-4": {"busca": "busca", "deal-end": "score"}, "pepper-3": {"set": "set", "deal-end": "score"},
         "seep-seeps": {"seep": "seep"}}
"""Per match, moment kinds to jump through and the event line each stops at."""
SEEPS = Match("seep-seeps", "seep", 4, ("--max-deals", "1"), 3)
"""A Seep match with a seep (none of MATCHES has one)."""


def built_alone(where: Path, match: Match) -> Built:
    """A match recorded and made into a page of its own."""
    record = where / f"{match.key}.jsonl"
    page = where / f"{match.key}.html"
    run_all([cli(*match.play_args(record))])
    run_all([html_args(record, page)])
    [got] = read_records(record)
    return Built(match, 0, got, expectations(got), page, page, page)


@pytest.mark.parametrize("key", sorted(JUMPS))
def test_the_jumps_stop_at_each_moment_of_the_chosen_kind(browser: Browser, built: dict[str, Built], key: str,
                                                          tmp_path: Path) -> None:
    """Choosing a kind in the labelled list and pressing ] (or the labelled "next" button, by
    the keyboard) visits each of its moments in order, then stays and says there is none later;
    [ goes back. The fault of the Pigugnìn match is a moment too."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    b = built_alone(tmp_path, SEEPS) if key == SEEPS.key else built[key]
    open_viewer(browser, b.page)
    browser.js("window.cardcliViewer.goto(arguments[0], 0)", b.m)
    kinds = dict(JUMPS[key])
    wanted = {kind: lines_at(b.record, word) for kind, word in kinds.items()}
    if b.record["faults"]:
        wanted["fault"] = [e.step for f in b.record["faults"] for e in b.steps
                           if e.deal == f["deal"] and e.move == f["move"]]
    labelled = browser.js("""
        const s = document.getElementById('moment'), p = document.getElementById('prev-moment'),
              n = document.getElementById('next-moment');
        return {label: s.closest('label') ? s.closest('label').textContent : null,
                buttons: [p.textContent.trim(), n.textContent.trim()], tab: [p.tabIndex, n.tabIndex, s.tabIndex],
                kinds: Array.from(s.options, o => o.value)}""")
    assert labelled["label"] and "jump" in labelled["label"], labelled
    assert "previous" in labelled["buttons"][0] and "next" in labelled["buttons"][1], labelled
    assert all(t >= 0 for t in labelled["tab"]), labelled
    assert set(wanted) <= set(labelled["kinds"]), labelled
    for kind, steps in wanted.items():
        assert steps, f"{key} has no {kind}: the test's match should have one"
        browser.js("window.cardcliViewer.goto(arguments[0], 0)", b.m)
        Select(browser.driver.find_element("id", "moment")).select_by_value(kind)
        browser.driver.find_element("id", "next-moment").send_keys(Keys.ENTER)  # the button, by the keyboard
        visited = [read(browser, b.m, 0, go=False)["position"]["step"]]
        browser.driver.execute_script("document.activeElement.blur()")
        for _ in steps[1:]:
            browser.keys("]")
            visited.append(read(browser, b.m, 0, go=False)["position"]["step"])
        assert visited == steps, f"{key}: the {kind} jumps visit {visited}, its moments are at {steps}"
        browser.keys("]")
        after = browser.js("return [window.cardcliViewer.position().step, document.getElementById('moment-status').textContent]")
        assert after[0] == steps[-1] and "no later" in after[1], after
        if len(steps) > 1:
            browser.keys("[")
            assert read(browser, b.m, 0, go=False)["position"]["step"] == steps[-2]
        check(browser, b, b.steps[steps[0]])


# -- motion --------------------------------------------------------------------------------------------

MOTION = """
return {motions: +(document.body.dataset.motions || 0), last: document.body.dataset.lastMotion || null,
        running: document.getAnimations().length, ghosts: document.querySelectorAll('#motion .card').length,
        reduced: matchMedia('(prefers-reduced-motion: reduce)').matches,
        step: window.cardcliViewer.position().step}"""


def motion_steps(b: Built) -> tuple[Expected, Expected]:
    """A step that plays the second card of a trick, and a step that completes a trick (it is
    taken at once)."""
    n = b.match.players
    play = next(e for e in b.steps[1:] if e.move is not None and len(e.trick) == 2)
    taken = next(e for e in b.steps[1:] if e.move is not None and not e.trick
                 and len(b.steps[e.step - 1].trick) == n - 1 and b.steps[e.step - 1].deal == e.deal)
    return play, taken


def step_on(browser: Browser, b: Built, want: Expected) -> dict[str, Any]:
    """From the step before ``want``, one step on with the Right key, as a reader steps."""
    from selenium.webdriver.common.keys import Keys

    browser.js("window.cardcliViewer.goto(0, arguments[0]); document.activeElement.blur()", want.step - 1)
    browser.keys(Keys.RIGHT)
    got = browser.js(MOTION)
    check(browser, attrs.evolve(b, m=0), want, go=False)  # the table is at the new step at once
    return got


def test_a_card_travels_to_the_table_and_a_trick_to_its_taker_unless_motion_is_reduced(
        browser: Browser, built: dict[str, Built]) -> None:
    """Stepping on: the card played moves from its seat's hand to its place in the trick, in
    the time of the chosen speed (shorter at 10 moves a second), and the cards of a trick taken
    travel to the seat that took it. With prefers-reduced-motion: reduce (emulated through the
    DevTools protocol) nothing moves at all, and the table is the same."""
    from selenium.webdriver.support.ui import Select

    b = built["peppa-4"]
    assert b.own_page is not None
    play, taken = motion_steps(b)
    open_viewer(browser, b.own_page)
    got = step_on(browser, b, play)
    assert not got["reduced"]
    assert got["motions"] == 1 and got["step"] == play.step, got
    mover, card = play.trick[-1]
    kind, what, _, seat, offset, ms = got["last"].split(" ")
    assert (kind, what, seat) == ("play", card, str(mover)) and int(ms) == 350, got
    dx, dy = map(int, offset.split(","))
    assert abs(dx) + abs(dy) > 40, f"the card hardly moves: {got['last']}"
    Select(browser.driver.find_element("id", "speed")).select_by_value("100")  # 10 moves a second
    got = step_on(browser, b, play)
    assert got["motions"] == 2 and got["last"].endswith(" 70"), got
    Select(browser.driver.find_element("id", "speed")).select_by_value("500")
    got = step_on(browser, b, taken)
    last = browser.js("return window.cardcliViewer.state().last")
    assert got["motions"] == 3 and got["last"] == f"taken trick {last['n']} to {last['winner']} 350", got
    assert got["ghosts"] == b.match.players or got["running"] == 0, got  # copies on their way, or already there
    try:
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        for want in (play, taken):
            got = step_on(browser, b, want)
            assert got["reduced"], "the emulated media feature did not reach the page"
            assert got["motions"] == 3 and got["running"] == 0 and got["ghosts"] == 0, got
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# -- partners, and Seep's houses in their row -------------------------------------------------------

@pytest.mark.parametrize("key", ["pepper-4", "seep-4", "pepper-3", "seep-3"])
def test_partners_are_visibly_paired(browser: Browser, built: dict[str, Built], key: str) -> None:
    """With 4 players in Pepper and Seep, seats 0 and 2 play against 1 and 3: each seat shows
    its side and names its partner, and partners share a colour that the other side does not.
    With 3 players nobody has a partner and no seat says so."""
    b = built[key]
    open_viewer(browser, b.page)
    browser.js("window.cardcliViewer.goto(arguments[0], 1)", b.m)
    seats = browser.js("""
        return Array.from(document.querySelectorAll('section.seat'), sec => {
          const mark = sec.querySelector('.side-mark');
          return {seat: +sec.dataset.seat, side: sec.dataset.side || null,
                  mark: mark && mark.checkVisibility() ? mark.textContent : null,
                  band: getComputedStyle(sec).borderLeftColor, width: getComputedStyle(sec).borderLeftWidth};
        })""")
    if b.match.players == 3:
        assert all(s["side"] is None and s["mark"] is None for s in seats), seats
        return
    names = [s["name"] for s in b.record["seats"]]
    by_seat = {s["seat"]: s for s in seats}
    for seat, partner in ((0, 2), (1, 3), (2, 0), (3, 1)):
        got = by_seat[seat]
        assert got["side"] == by_seat[partner]["side"] and got["side"] is not None, seats
        assert got["mark"] and f"with {partner}:{names[partner]}" in got["mark"], got
        assert got["band"] == by_seat[partner]["band"] and float(got["width"].rstrip("px")) >= 4, seats
    assert by_seat[0]["band"] != by_seat[1]["band"] and by_seat[0]["side"] != by_seat[1]["side"], seats


LONG_NAME = "a" * 20 + "Bot" + "b" * 17
"""A seat name of 40 characters without a space to break it at (names are cut at 40)."""


def test_seep_houses_stay_in_their_row_at_phone_width(browser: Browser, built: dict[str, Built], tmp_path: Path) -> None:
    """A floor of many houses, one of 14 cards, owned by seats with long names that no space
    breaks, on a phone: every house stays inside the floor, every card and label inside its
    house, and nothing makes the page scroll sideways. The floor is written into the page's
    data (a step's ``table`` line), as the script reads it; the script does not check rules."""
    b = built["seep-4"]
    assert b.own_page is not None
    html = b.own_page.read_text()
    found = re.search(r'(<script type="application/json" id="cardcli-data">)(.*?)(</script>)', html, re.S)
    assert found
    data = json.loads(found.group(2))
    [m] = data["matches"]
    m["names"] = [LONG_NAME + str(i) for i in range(4)][:4]
    steps = m["deals"][0]["steps"]
    at = next(i for i, text in enumerate(steps) if any(line.startswith("table ") for line in text.split("\n")))
    many = "+".join(r + "S" for r in "23456789TJQKA") + "+AH"
    floor = f"table 2C 3D h9:c:0,1,2,3:{many} h10:o:1:4C+6D h11:c:0,2:5H+6H+KC h12:o:3:QD h13:c:1,3:KD+AD+2D+3H"
    steps[at] = "\n".join(floor if line.startswith("table ") else line for line in steps[at].split("\n"))
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    page = tmp_path / "houses.html"
    page.write_text(html[: found.start(2)] + text + html[found.end(2):])
    width, height = PHONE
    try:
        browser.viewport(width, height, True)
        open_viewer(browser, page)
        browser.js("window.cardcliViewer.goto(0, arguments[0])", 1 + at)
        got = browser.js("""
            const box = e => e.getBoundingClientRect();
            const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
            const floor = document.getElementById('floor');
            const houses = Array.from(floor.querySelectorAll('.house'));
            const out = [];
            houses.forEach(h => {
              if (!inside(box(h), box(floor))) out.push('house ' + h.dataset.value + ' leaves the floor');
              h.querySelectorAll('.card, .house-label').forEach(c => {
                if (!inside(box(c), box(h))) out.push((c.dataset.card || 'label') + ' leaves house ' + h.dataset.value);
              });
            });
            if (!inside(box(floor), box(document.getElementById('table')))) out.push('the floor leaves the table');
            return {houses: houses.length, cards: floor.querySelectorAll('.house .card').length, out,
                    wide: document.documentElement.scrollWidth, error: document.getElementById('error').hidden ? null
                      : document.getElementById('error').textContent}""")
    finally:
        browser.desktop()
    assert got["error"] is None, got["error"]
    assert got["houses"] == 5 and got["cards"] == 14 + 2 + 3 + 1 + 4, got
    assert not got["out"], got["out"]
    assert got["wide"] <= width, f"the page is {got['wide']}px wide on a {width}px phone"


# -- a tournament directory's standings ------------------------------------------------------------------

@pytest.fixture(scope="module")
def tournament_page(tournament: tuple[Path, list[dict[str, Any]]]) -> tuple[Path, Path]:
    """The page of the tournament's directory (not of its records file), and the directory."""
    page, _ = tournament
    directory = page.parent / "t"
    run_all([html_args(directory, page.parent / "t-dir.html")])
    return page.parent / "t-dir.html", directory


STANDINGS = """
const shown = e => !!e && e.checkVisibility({visibilityProperty: true, opacityProperty: true});
const s = id => document.getElementById(id);
return {standings: shown(s('standings')), table: shown(s('standings-table')) ? s('standings-table').textContent : null,
        main: shown(s('main')), controls: shown(s('controls')),
        links: Array.from(document.querySelectorAll('#match-list a[data-match]')).filter(shown)
          .map(a => [a.getAttribute('data-match'), a.closest('li').textContent]),
        back: shown(s('to-standings')), view: shown(s('view')), wide: document.documentElement.scrollWidth}"""


def test_a_tournament_directory_opens_on_its_standings_then_each_match(
        browser: Browser, tournament: tuple[Path, list[dict[str, Any]]], tournament_page: tuple[Path, Path]) -> None:
    """The page of a tournament directory opens on the tournament's table exactly as the
    tournament prints it (the standings, the crosstable, the paired results), and a list of
    every match naming its seats and its outcome; a match opens the table at it, and the
    standings link comes back. On a phone nothing scrolls sideways."""
    from cardcli.tournament import results, runner

    _, records = tournament
    page, directory = tournament_page
    names = runner.load(directory).names
    printed = results.render(results.tabulate(names, runner.records_in_order(directory, runner.finished_read_only(directory))),
                             names)
    url = open_viewer(browser, page)
    got = browser.js(STANDINGS)
    assert got["standings"] and not got["main"] and not got["controls"] and not got["view"], got
    assert got["table"] == printed, f"the page's table differs from the tournament's:\n{got['table']}\n---\n{printed}"
    assert "paired duplicate results" in got["table"]
    assert len(got["links"]) == len(records), got["links"]
    listed = [records[int(m)] for m, _ in got["links"]]
    assert [r["tournament"]["index"] for r in listed] == sorted(r["tournament"]["index"] for r in records), \
        "the matches are not listed in the schedule's order"
    for (_, text), record in zip(got["links"], listed):
        index = record["tournament"]["index"]
        assert f"match {index}" in text and all(s["name"] in text for s in record["seats"]), (text, index)
        winners = record["result"]["winners"]
        assert "won by " + ", ".join(f"{w}:{record['seats'][w]['name']}" for w in winners) in text, text
    chosen = len(records) - 2
    browser.driver.find_element("css selector", f'#match-list a[data-match="{chosen}"]').click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser.driver, 30).until(lambda d: d.execute_script(
        "return window.cardcliViewer.position().match === arguments[0] && "
        "!document.getElementById('main').hidden", chosen), message="the match link did not open the match")
    opened = browser.js(STANDINGS)
    assert not opened["standings"] and opened["main"] and opened["controls"] and opened["back"], opened
    steps = expectations(records[chosen])
    problems = mismatches(read(browser, chosen, steps[1].step, go=False), steps[1], "all", chosen, "pepper")
    assert not problems, problems
    browser.driver.find_element("id", "to-standings").click()
    WebDriverWait(browser.driver, 30).until(lambda d: d.execute_script(
        "return !document.getElementById('standings').hidden"), message="the standings link did not come back")
    only_the_page(browser, url)
    try:
        browser.viewport(*PHONE, True)
        open_viewer(browser, page)
        phone = browser.js(STANDINGS)
    finally:
        browser.desktop()
    assert phone["standings"] and phone["wide"] <= PHONE[0], phone


def test_a_records_file_or_one_match_of_a_tournament_has_no_standings(
        browser: Browser, tournament: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    """The standings are the directory's: a page of its records file, or of one match of it
    (--game), is the table at once, without them."""
    page, _ = tournament
    one = tmp_path / "one.html"
    run_all([[*html_args(page.parent / "t", one), "--game", "2"]])
    for shown_page in (page, one):
        open_viewer(browser, shown_page)
        got = browser.js(STANDINGS)
        assert not got["standings"] and got["main"] and not got["back"], (shown_page.name, got)
