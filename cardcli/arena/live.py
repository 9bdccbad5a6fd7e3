"""Live games: the arena's matches in progress, watched as they are played.

The workers tell the server each move's events while anyone watches
(:mod:`cardcli.arena.workers`); the service hands them to a :class:`LiveHub`, named by unit and
rotation (``12-3``: a match has no id until it is stored). The hub applies the leak rule
(:class:`LeakRule`) before anything is kept or queued, so a spectator, who may be an entrant
watching its own match, learns nothing a seat alone was told while the deal is in progress:
public events pass at once, an event told to some seats only (a hand, a pass) is held until
its deal is over, and an organiser's ``delay`` holds everything back by as many seconds more.

Then the duplicate gate: the arena's units are duplicate, every rotation of a unit playing the
same deals at about the same time, so what one rotation shows of deal k (its public plays
included) would tell the hands still hidden in another rotation playing deal k, or yet to. So
everything of deal k of a match (its events as the leak rule releases them, and the list's
deal and totals) is shown only once every other rotation of its unit has finished deal k (its
public ``score k``, or a later ``deal``) or ended (:meth:`LiveHub.ended`: finished, or stopped
before reaching deal k; a rotation stored before the service claimed the unit again is named
in ``info["stored"]``). A rotation not heard of has finished nothing, and a rotation's progress
comes from its public lines, which its worker sends while its unit is watched (:meth:`LiveHub.level`),
so the gate errs on the side of holding. The start message names no card and passes. The
service gives each match's ``info["rotations"]`` (without it a match is its unit's only
rotation). What the gate holds is bounded: at most :attr:`LiveHub.hold_limit` events a match
(the oldest dropped, never shown), and a unit none of whose rotations was heard of for
:attr:`LiveHub.hold_seconds` (a dropped unit, whose other rotations never start) is forgotten,
its ended matches ending for their spectators without what was held; a unit all of whose
rotations ended and showed what they held is kept among the last :attr:`LiveHub.max_matches`
such, for a rotation played again after its worker died.

What is kept for spectators is bounded too: a match in progress keeps its current deal's events (and the last
running totals) for spectators who join late, at most :attr:`LiveHub.log_limit` of them; a
finished match keeps a short tail, and only the last :attr:`LiveHub.tail_matches` finished
matches are kept at all. Each spectator has a bounded queue: one that does not keep up is
dropped (its browser reconnects and starts again from the kept events), so a slow reader never
holds up the server, which only appends to queues under a lock (each batch made into
server-sent events once, for every spectator) and wakes each event loop at most every
:attr:`LiveHub.wake_every` seconds, its streams then writing all that came meanwhile at once.

The pages (:func:`routes`) are same-origin and script-driven: a small body in the arena's frame
(:func:`.markup.page`: its navigation, stylesheet and strict Content-Security-Policy), with one
script and one style sheet of their own served from this package (``live_static/``), and a server-sent events stream per match (``/events/live/{id}``) and for
the list (``/events/live``) that pushes only new events. Every text a bot or an entrant
controls (names, lines) reaches the page as JSON and is set as text, never as markup.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import re
import threading
import time
from collections import OrderedDict, deque
from importlib import resources
from typing import Any, AsyncIterator, Callable, Container, Mapping, Sequence

import attrs
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from . import markup
from .workers import LISTED, QUIET, WATCHED, Wire

KEY = re.compile(r"[0-9]{1,15}-[0-9]{1,6}")
"""A live match's name: its unit and rotation."""
HEADERS = {**markup.HEADERS, "Content-Security-Policy": markup.CSP}
"""The arena's pages' headers and policy (:mod:`.markup`), set on every answer here, since these
routes may be served without its middleware."""
STATIC = {"live.js": "text/javascript; charset=utf-8", "live.css": "text/css; charset=utf-8"}
"""The files of ``live_static/`` the pages load, and their types: nothing else is served."""
KEEPALIVE = 15.0
"""Seconds of silence after which a stream sends a comment, so that a proxy keeps it open and a
spectator who left is noticed."""
_json = markup.json_text


# -- the leak rule ---------------------------------------------------------------------------------


@attrs.frozen
class Shown:
    """An event as spectators may see it: ``to`` is None for a public event, else the seats it
    was told to, shown only once its deal is over."""

    line: str
    to: tuple[int, ...] | None = None


class LeakRule:
    """What of one match's events spectators may see, and when: public events at once; an
    event told to some seats only is held until its deal is over, which is at the public
    ``score N`` of the deal ``deal N`` began (the line every built-in game ends a deal with),
    at the next ``deal``, or at the end of the match (a plugin game that ends its deals
    otherwise is shown its hidden events one deal late, never early)."""

    def __init__(self) -> None:
        self.held: list[Shown] = []
        self.deal: str | None = None

    def feed(self, events: Sequence[Wire]) -> list[Shown]:
        shown: list[Shown] = []
        for line, audience in events:
            if audience is not None:
                self.held.append(Shown(line, tuple(audience)))
                continue
            words = line.split(" ", 2)
            if words[0] == "deal":
                shown += self.release()
                self.deal = words[1] if len(words) > 1 else None
                shown.append(Shown(line))
            elif words[0] == "score" and len(words) > 1 and words[1] == self.deal:
                shown.append(Shown(line))
                shown += self.release()
            else:
                shown.append(Shown(line))
        return shown

    def release(self) -> list[Shown]:
        """The hidden events held: the deal is over."""
        held, self.held = self.held, []
        return held


# -- the hub ---------------------------------------------------------------------------------------


class Subscriber:
    """One spectator's bounded queue of messages, for one match or, with ``key`` None, for the
    list of matches. It is counted in batches: a worker sends a batch of events at most every
    :data:`~cardcli.arena.workers.BATCH` seconds, and the whole of a fast match may be one.
    A batch is queued as the text of its server-sent events, made once for every spectator
    (:func:`sse`). ``loop`` is the event loop its stream runs in (None for a reader that polls
    :meth:`LiveHub.take`, as the tests do)."""

    def __init__(self, key: str | None, size: int, loop: asyncio.AbstractEventLoop | None = None,
                 chars: int = 1 << 18):
        self.key = key
        self.size = size
        self.chars = chars
        """The most characters queued at once (the bound on a spectator's memory)."""
        self.queued = 0
        self.loop = loop
        self.items: deque[str] = deque()
        """Batches of messages as server-sent events: what one batch of a worker's events
        made, or one change of the list."""
        self.dropped = False
        """Fell behind by more than ``size`` batches or ``chars`` characters, and was let go."""
        self.done = False
        """Its match is over: nothing more will come."""
        self.ready = asyncio.Event()


@attrs.define
class _Match:
    info: dict[str, Any]
    rule: LeakRule = attrs.Factory(LeakRule)
    log: list[tuple[str, str]] = attrs.Factory(list)
    """(event kind, message) for late joiners: the current deal's (and the last totals)."""
    seq: int = 0
    deal: str | None = None
    moves: int = 0
    totals: str | None = None
    started: float = 0.0
    over: bool = False
    unit: str = ""
    rotation: int = 0
    tag: int = 0
    """The deal the match's latest events belong to (0 before its first deal)."""
    gated: deque[tuple[int, str, tuple[Any, ...]]] = attrs.Factory(deque)
    """What the duplicate gate holds back, in order: (deal, "events" or "summary", what)."""
    gated_count: int = 0
    ending: bool = False
    """Ended, but the gate still holds some of it: it ends for its spectators once shown."""

    def summary(self) -> dict[str, Any]:
        return {**self.info, "deal": self.deal, "moves": self.moves, "totals": self.totals, "over": self.over}


@attrs.define
class _Unit:
    """A duplicate unit's rotations as the gate knows them: how far each has played."""

    rotations: int
    passed: dict[int, int] = attrs.Factory(dict)
    """Rotation → the last deal it is known to have finished (a rotation not here has
    finished none: not started, or not heard of yet)."""
    ended: set[int] = attrs.Factory(set)
    """Rotations over (finished, or stopped): they count as past every deal."""
    matches: dict[int, _Match] = attrs.Factory(dict)
    touched: float = 0.0

    def past(self, rotation: int, deal: int) -> bool:
        """Whether every other rotation has finished ``deal`` or ended."""
        return all(r in self.ended or self.passed.get(r, 0) >= deal
                   for r in range(self.rotations) if r != rotation)


def level_of(key: str, watched: Container[str | None], units: Container[str]) -> int:
    """How much of a match its worker is to tell: every event while the match has spectators
    (``key`` in ``watched``), its deals and scores while the list (None in ``watched``) or a
    spectator of another rotation of its unit (in ``units``: the gate needs them) is open,
    else nothing."""
    if key in watched:
        return WATCHED
    return LISTED if None in watched or key.partition("-")[0] in units else QUIET


@attrs.frozen
class Watching:
    """What a hub's spectators watch: the matches, whether the list, and the units."""

    matches: frozenset[str] = frozenset()
    listed: bool = False
    units: frozenset[str] = frozenset()
    _watched: frozenset[str | None] = attrs.field(init=False, eq=False, repr=False)

    @_watched.default
    def _every(self) -> frozenset[str | None]:
        return frozenset({*self.matches, None}) if self.listed else frozenset(self.matches)

    def level(self, key: str) -> int:
        return level_of(key, self._watched, self.units)


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 10 else None


def sse(messages: Sequence[str]) -> str:
    """Messages (JSON texts) as server-sent events, each its own ``data:`` line."""
    return "".join(f"data: {message}\n\n" for message in messages)


def messages_of(chunk: str) -> list[str]:
    """The messages of server-sent events made by :func:`sse` (what a browser's
    ``EventSource`` hands its page, one by one)."""
    return [part[len("data: "):] for part in chunk.split("\n\n") if part.startswith("data: ")]


class LiveHub:
    """The live games of one server process: fed by the service's thread (:meth:`publish`,
    :meth:`ended`), read by the web server's streams (:meth:`subscribe`, :meth:`take`). One
    lock guards it; nothing under it waits for a reader."""

    def __init__(self, delay: float = 0.0, queue_size: int = 256, queue_chars: int = 1 << 18,
                 log_limit: int = 2000, tail: int = 60,
                 tail_matches: int = 16, max_subscribers: int = 1000, max_matches: int = 1000,
                 hold_limit: int = 20000, hold_seconds: float = 3600.0, wake_every: float = 0.25,
                 clock: Callable[[], float] = time.monotonic):
        if delay < 0:
            raise ValueError("the delay is a number of seconds, 0 or more")
        self.delay = delay
        """Seconds every event waits before spectators see it (on top of the leak rule)."""
        self.queue_size = queue_size
        self.queue_chars = queue_chars
        """Characters a spectator's queue holds at most (256 Ki by default: a thousand
        spectators, the most served, hold a quarter of a gigabyte at worst)."""
        self.log_limit = log_limit
        self.tail = tail
        """Messages a finished match keeps for late joiners."""
        self.tail_matches = tail_matches
        self.max_subscribers = max_subscribers
        self.max_matches = max_matches
        self.hold_limit = hold_limit
        """Events the duplicate gate holds per match at most; beyond, the oldest are dropped
        (never shown), so a unit whose other rotations never start holds bounded memory."""
        self.hold_seconds = hold_seconds
        """Seconds after which a unit none of whose rotations was heard of is forgotten: what
        its ended matches still hold is dropped, never shown (a dropped unit's rotations
        never start, and showing it could leak a deal a late rotation still plays)."""
        self.wake_every = wake_every
        """Seconds between two wakings of an event loop's streams, at least: a spectator's
        stream writes what came meanwhile at once, so the cost of a crowd follows the number
        of spectators, not the rate of events (a fast match sends many batches a second)."""
        self.clock = clock
        self._units: dict[str, _Unit] = {}
        self._ended_unheard: OrderedDict[str, set[int]] = OrderedDict()
        """Unit → its rotations that ended while nobody watched it (the hub never heard of
        them), for the last :attr:`max_matches` such units: a spectator who comes later to
        another rotation of the unit finds them over, rather than waited for by the gate."""
        self._retired: OrderedDict[str, _Unit] = OrderedDict()
        """The last units all of whose rotations ended (at most :attr:`max_matches`): one of
        them played again from its start (its worker died) finds the others over."""
        self._unit_subs: dict[str, int] = {}
        """Unit → spectators of its matches: its other rotations tell their deals and scores,
        which the gate needs."""
        self._swept = 0.0
        self._lock = threading.Lock()
        self._live: dict[str, _Match] = {}
        self._over: OrderedDict[str, _Match] = OrderedDict()
        self._subs: dict[str | None, list[Subscriber]] = {}
        self._count = 0
        self._waking: dict[asyncio.AbstractEventLoop, set[Subscriber]] = {}
        self._pending: dict[asyncio.AbstractEventLoop, set[Subscriber]] = {}
        """Per event loop, the streams with news whose waking is scheduled (:meth:`_flush_wakes`)."""
        self._last_wake: dict[asyncio.AbstractEventLoop, float] = {}
        self._delayed: deque[tuple[float, Callable[[], None]]] = deque()
        self._timer = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._closed = False

    # -- the server's side ---------------------------------------------------------------------

    def watched(self) -> bool:
        """Whether anyone watches at all."""
        return self._count > 0

    def level(self, key: str) -> int:
        """How much of a match its worker is to tell (:func:`level_of`). (Read without the
        lock: a dictionary's membership, asked at every pump.)"""
        return level_of(key, self._subs, self._unit_subs)

    def watching(self) -> Watching:
        """What is watched now, for a server whose hub is in another process
        (:mod:`.webproc`), to answer :meth:`level` there."""
        with self._lock:
            return Watching(frozenset(k for k in self._subs if k is not None), None in self._subs,
                            frozenset(self._unit_subs))

    def publish(self, key: str, info: Mapping[str, Any], events: Sequence[Wire]) -> None:
        """Take a match's next events: the leak rule decides at once what spectators may see,
        and that is shown (after the duplicate gate, and the delay)."""
        with self._lock:
            match = self._match(key, info)
            if match is None:
                return
            unit = self._units[match.unit]
            for line, audience in events:
                if audience is None:
                    self._progress(unit, match.rotation, line)
            shown = match.rule.feed(events)
            for tag, part in self._by_deal(match, shown):
                self._hold(match, tag, "events", tuple(part))
            self._release(unit)
            self._sweep()

    def summary(self, key: str, info: Mapping[str, Any], lines: Sequence[str]) -> None:
        """Take a match's public deal starts, scores and totals, which only the list shows (and
        the gate counts)."""
        with self._lock:
            match = self._match(key, info)
            if match is None:
                return
            unit = self._units[match.unit]
            for line in lines:
                self._progress(unit, match.rotation, line)
                kind, _, rest = line.partition(" ")
                if kind == "deal":
                    match.tag = _number(rest.split(" ")[0]) or match.tag
                self._hold(match, match.tag, "summary", (line,))
            self._release(unit)
            self._sweep()

    def _match(self, key: str, info: Mapping[str, Any]) -> _Match | None:
        match = self._live.get(key)
        if match is not None and match.ending:  # played again from its start: a new match
            match.gated.clear()
            match.gated_count = 0
            self._finish(self._units[match.unit], match)
            match = None
        if match is None:
            if len(self._live) >= self.max_matches:
                return None
            name, _, rotation = key.partition("-")
            unit = self._units.get(name) or self._retired.pop(name, None)
            if unit is None:
                unit = _Unit(max(1, int(info.get("rotations", 1))))
                unit.ended |= self._ended_unheard.pop(name, set())
            self._units[name] = unit
            made = match = self._live[key] = _Match(dict(info), started=time.time(), unit=name,
                                                    rotation=int(rotation or 0))
            # a match played again from its start (its worker died) has passed nothing yet
            unit.ended.discard(made.rotation)
            unit.passed.pop(made.rotation, None)
            unit.matches[made.rotation] = made
            unit.ended |= {r for r in info.get("stored", ()) if isinstance(r, int) and r != made.rotation}
            self._later(lambda: self._start(key, made))
        self._units[match.unit].touched = self.clock()
        return match

    @staticmethod
    def _progress(unit: _Unit, rotation: int, line: str) -> None:
        """What a public line says of how far its rotation has played: ``score N`` ends deal
        N, and ``deal N`` begins it, so deal N-1 is over (a deal made void has no score)."""
        words = line.split(" ", 2)
        number = _number(words[1]) if len(words) > 1 else None
        if number is None or words[0] not in ("deal", "score"):
            return
        done = number if words[0] == "score" else number - 1
        if done > unit.passed.get(rotation, 0):
            unit.passed[rotation] = done

    @staticmethod
    def _by_deal(match: _Match, shown: Sequence[Shown]) -> list[tuple[int, list[Shown]]]:
        """The events released by the leak rule, cut by the deal they belong to: a ``deal N``
        line and what follows it (its score and totals, and its hidden events released at the
        next deal or the end) are deal N's; what comes before the first deal, deal 0's."""
        parts: list[tuple[int, list[Shown]]] = []
        for event in shown:
            if event.to is None and event.line.startswith("deal "):
                match.tag = _number(event.line.split(" ")[1] if " " in event.line else "") or match.tag
            if not parts or parts[-1][0] != match.tag:
                parts.append((match.tag, []))
            parts[-1][1].append(event)
        return parts

    def _hold(self, match: _Match, deal: int, kind: str, what: tuple[Any, ...]) -> None:
        match.gated.append((deal, kind, what))
        match.gated_count += len(what)
        while match.gated_count > self.hold_limit:  # the oldest go (a whole match may be one batch)
            first, kind, held = match.gated[0]
            excess = match.gated_count - self.hold_limit
            if len(held) <= excess:
                match.gated.popleft()
                match.gated_count -= len(held)
            else:
                match.gated[0] = (first, kind, held[excess:])
                match.gated_count -= excess

    def _release(self, unit: _Unit) -> None:
        """Show what the duplicate gate may let go of the unit's matches: deal k of a
        rotation once every other rotation has finished deal k or ended."""
        for match in list(unit.matches.values()):
            shown: list[Shown] = []
            lines: list[str] = []
            while match.gated and (match.gated[0][0] == 0 or unit.past(match.rotation, match.gated[0][0])):
                _, kind, what = match.gated.popleft()
                match.gated_count -= len(what)
                if kind == "events":
                    shown += what
                else:
                    lines += what
            key = f"{match.unit}-{match.rotation}"
            if shown:
                self._later(functools.partial(self._show, key, match, shown))
            if lines:
                self._later(functools.partial(self._listed, match, lines))
            if match.ending and not match.gated:
                self._finish(unit, match)

    def _finish(self, unit: _Unit, match: _Match) -> None:
        key = f"{match.unit}-{match.rotation}"
        if unit.matches.get(match.rotation) is match:
            del unit.matches[match.rotation]
        if self._live.get(key) is match:
            del self._live[key]
        self._later(lambda: self._end(key, match))
        if not unit.matches and len(unit.ended) >= unit.rotations and match.unit in self._units:
            # kept a while: a rotation whose worker died is played again after it ended
            self._retired[match.unit] = self._units.pop(match.unit)
            while len(self._retired) > self.max_matches:
                self._retired.popitem(last=False)

    def _sweep(self) -> None:
        """Forget, at most once a second, the units not heard of for :attr:`hold_seconds`:
        their ended matches end for their spectators without what the gate still holds."""
        now = self.clock()
        if now - self._swept < 1.0:
            return
        self._swept = now
        for name, unit in list(self._units.items()):
            if now - unit.touched < self.hold_seconds:
                continue
            for match in list(unit.matches.values()):
                if match.ending:
                    match.gated.clear()
                    match.gated_count = 0
                    self._finish(unit, match)
            if not unit.matches:
                self._units.pop(name, None)

    def ended(self, key: str) -> None:
        """The match is over (stored, or to be played again from its start): it counts as past
        every deal for the gate; what it held is shown as the gate allows, then it leaves the
        list of matches in progress."""
        with self._lock:
            match = self._live.get(key)
            if match is None:
                self._ended_unseen(key)
                return
            if match.ending:
                return
            unit = self._units[match.unit]
            unit.ended.add(match.rotation)
            unit.touched = self.clock()
            match.ending = True
            shown = match.rule.release()
            if shown:
                self._hold(match, match.tag, "events", tuple(shown))
            self._release(unit)
            self._sweep()

    def _ended_unseen(self, key: str) -> None:
        """A match nobody watched is over: a rotation its unit's gate need not wait for."""
        name, _, rotation = key.partition("-")
        number = _number(rotation)
        if number is None:
            return
        unit = self._units.get(name)
        if unit is not None:
            unit.ended.add(number)
            unit.touched = self.clock()
            self._release(unit)
            return
        self._ended_unheard.setdefault(name, set()).add(number)
        self._ended_unheard.move_to_end(name)
        while len(self._ended_unheard) > self.max_matches:
            self._ended_unheard.popitem(last=False)

    def close(self) -> None:
        """Stop the delay's thread; spectators' streams end."""
        with self._lock:
            self._closed = True
            for subs in self._subs.values():
                for sub in subs:
                    sub.done = True
                    self._wake(sub)
            self._timer.notify_all()
            self._flush_wakes()

    # -- the spectators' side ------------------------------------------------------------------

    def subscribe(self, key: str | None, loop: asyncio.AbstractEventLoop | None = None
                  ) -> tuple[Subscriber | None, list[str]]:
        """Follow a match (``key``) or the list (None): the messages kept so far (a match's
        current deal, a finished match's tail, or the list as it is), and the queue of what
        comes next (None when nothing will: the match is over, or too many watch already)."""
        with self._lock:
            if key is None:
                snapshot = [_json({"type": "matches", "matches": [m.summary() for m in self._live.values()]})]
            else:
                match = self._live.get(key) or self._over.get(key)
                snapshot = [message for _, message in match.log] if match is not None else []
                if match is not None and match.over:
                    return None, snapshot
            if self._count >= self.max_subscribers or self._closed:
                return None, snapshot
            sub = Subscriber(key, self.queue_size, loop, self.queue_chars)
            self._subs.setdefault(key, []).append(sub)
            self._count += 1
            self._unit_sub(key, 1)
            return sub, snapshot

    def take(self, sub: Subscriber) -> tuple[str, bool]:
        """What is queued for ``sub``, as server-sent events (:func:`messages_of` reads them
        back), and whether its stream is finished (its match is over, or it was dropped for
        falling behind)."""
        with self._lock:
            chunk = "".join(sub.items)
            sub.items.clear()
            sub.queued = 0
            return chunk, sub.done or sub.dropped

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            self._remove(sub)

    def matches(self) -> list[dict[str, Any]]:
        """The matches in progress, as the list's stream describes them."""
        with self._lock:
            return [m.summary() for m in self._live.values()]

    @property
    def subscribers(self) -> int:
        return self._count

    # -- under the lock ------------------------------------------------------------------------

    def _later(self, action: Callable[[], None]) -> None:
        if self.delay <= 0:
            action()
            self._flush_wakes()
            return
        self._delayed.append((self.clock() + self.delay, action))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run_delayed, name="arena-live-delay", daemon=True)
            self._thread.start()
        self._timer.notify()

    def _run_delayed(self) -> None:
        with self._lock:
            while not self._closed:
                if not self._delayed:
                    self._timer.wait()
                    continue
                due, action = self._delayed[0]
                wait = due - self.clock()
                if wait > 0:
                    self._timer.wait(wait)
                    continue
                self._delayed.popleft()
                action()
                self._flush_wakes()

    def _listed(self, match: _Match, lines: Sequence[str]) -> None:
        for line in lines:
            kind, _, rest = line.partition(" ")
            if kind == "deal":
                match.deal = rest.split(" ")[0]
            elif kind == "totals":
                match.totals = rest
        self._send(self._subs.get(None, ()), _json({"type": "match", "match": match.summary()}))

    def _start(self, key: str, match: _Match) -> None:
        self._over.pop(key, None)  # a match played again from its start (its worker died)
        message = _json({"type": "start", "match": match.info})
        match.log.append(("start", message))
        self._send(self._subs.get(key, ()), message)
        self._send(self._subs.get(None, ()), _json({"type": "match", "match": match.summary()}))

    def _show(self, key: str, match: _Match, shown: Sequence[Shown]) -> None:
        listed = False
        out = []
        for event in shown:
            match.seq += 1
            kind = event.line.split(" ", 1)[0]
            to = "null" if event.to is None else "[" + ",".join(map(str, event.to)) + "]"
            # as _json would write it, for a fraction of its time: this runs for every event
            message = '{"type":"event","n":%d,"line":%s,"to":%s}' % (
                match.seq, json.dumps(event.line, ensure_ascii=False).translate(markup.JSON_ESCAPES), to)
            out.append(message)
            if event.to is None:
                if kind == "deal":
                    match.deal = event.line.split(" ")[1] if " " in event.line else None
                    # a late joiner is shown the current deal from its start, and the totals
                    match.log = [entry for entry in match.log if entry[0] in ("start", "totals")][-2:]
                    listed = True
                elif kind == "play":
                    match.moves += 1
                elif kind == "totals":
                    match.log = [entry for entry in match.log if entry[0] != "totals"]
                    match.totals = event.line.partition(" ")[2]
                    listed = True
            match.log.append((kind, message))
        if len(match.log) > self.log_limit:
            del match.log[1:len(match.log) - self.log_limit + 1]
        self._send(self._subs.get(key, ()), *out)
        if listed:
            self._send(self._subs.get(None, ()), _json({"type": "match", "match": match.summary()}))

    def _end(self, key: str, match: _Match) -> None:
        match.over = True
        message = _json({"type": "end"})
        match.log = match.log[:1] + match.log[1:][-(self.tail - 2):] + [("end", message)]
        self._over[key] = match
        self._over.move_to_end(key)
        while len(self._over) > self.tail_matches:
            self._over.popitem(last=False)
        chunk = sse((message,))
        for sub in self._subs.pop(key, []):
            if self._offer(sub, chunk):
                sub.done = True
            self._count -= 1
            self._unit_sub(key, -1)
            self._wake(sub)
        self._send(self._subs.get(None, ()), _json({"type": "gone", "id": key}))

    def _send(self, subs: Sequence[Subscriber], *messages: str) -> None:
        if not subs:
            return
        chunk = sse(messages)
        for sub in list(subs):
            self._offer(sub, chunk)
            self._wake(sub)

    def _offer(self, sub: Subscriber, batch: str) -> bool:
        """Queue a batch of messages; a subscriber whose queue is full is dropped instead."""
        if sub.dropped:
            return False
        if len(sub.items) >= sub.size or sub.queued + len(batch) > sub.chars:
            sub.dropped = True
            sub.items.clear()
            sub.queued = 0
            self._remove(sub)
            return False
        sub.items.append(batch)
        sub.queued += len(batch)
        return True

    def _remove(self, sub: Subscriber) -> None:
        subs = self._subs.get(sub.key)
        if subs is not None and sub in subs:
            subs.remove(sub)
            self._count -= 1
            self._unit_sub(sub.key, -1)
            if not subs:
                del self._subs[sub.key]

    def _unit_sub(self, key: str | None, change: int) -> None:
        if key is None:
            return
        unit = key.partition("-")[0]
        count = self._unit_subs.get(unit, 0) + change
        if count > 0:
            self._unit_subs[unit] = count
        else:
            self._unit_subs.pop(unit, None)

    def _wake(self, sub: Subscriber) -> None:
        if sub.loop is not None:
            self._waking.setdefault(sub.loop, set()).add(sub)

    def _flush_wakes(self) -> None:
        """Wake each event loop that has spectators with news, at most once every
        :attr:`wake_every` seconds: the loop's own thread then sets the events their streams
        wait on (an ``asyncio.Event`` is not for other threads to set). News that comes while a
        waking is scheduled joins it."""
        waking, self._waking = self._waking, {}
        for loop, subs in waking.items():
            pending = self._pending.get(loop)
            if pending is not None:
                pending |= subs
                continue
            self._pending[loop] = set(subs)
            try:
                loop.call_soon_threadsafe(self._schedule_wake, loop)
            except RuntimeError:  # the loop is closed: its streams are gone
                self._pending.pop(loop, None)

    def _schedule_wake(self, loop: asyncio.AbstractEventLoop) -> None:
        """On ``loop``'s thread: wake its streams now, or once :attr:`wake_every` has passed
        since the last time."""
        wait = self._last_wake.get(loop, 0.0) + self.wake_every - time.monotonic()
        if wait > 0:
            loop.call_later(wait, self._wake_now, loop)
        else:
            self._wake_now(loop)

    def _wake_now(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            subs = self._pending.pop(loop, set())
        self._last_wake[loop] = time.monotonic()
        for sub in subs:
            sub.ready.set()


# -- the pages -------------------------------------------------------------------------------------


def _page(request: Request, title: str, body: str) -> Response:
    """A live page in the arena's frame (:func:`.markup.page`: its header, skip link, footer,
    stylesheet and icon), with the live games' own script and stylesheet beside the arena's.

    The navigation is the one the app's other pages show (``app.state.nav``, which
    :func:`.api.make_app` sets), so that a link added there appears here too; served without
    the arena's pages (bare routes, in a test), it is the arena's with the live games'."""
    nav = getattr(request.app.state, "nav", None) or (*markup.NAV, markup.LIVE)
    version = f"?v={markup.STATIC_VERSION}"
    return markup.page(title, body, markup.LIVE[0], nav=nav, styles=[f"/live/static/live.css{version}"],
                       scripts=[f"/live/static/live.js{version}"])


def _not_found() -> Response:
    return Response("not found\n", 404, HEADERS, "text/plain; charset=utf-8")


def routes(hub: LiveHub) -> list[Route]:
    """The live games' pages and streams, to be added to the arena's web app:

    - ``/live``: the matches in progress, updated as they start, deal and end;
    - ``/live/{id}``: one match's table, changing as its moves arrive;
    - ``/events/live`` and ``/events/live/{id}``: their server-sent events;
    - ``/live/static/{name}``: the pages' script and style sheet."""

    async def list_page(request: Request) -> Response:
        matches = markup.table(("Match", "Seats", "Deal", "Totals"), (), "Matches in progress", "live-matches")
        return _page(request, "Live games", "<div id=\"live-page\" data-page=\"list\"><h1>Live games</h1>"
                                            f"<p id=\"status\" role=\"status\">connecting</p>{matches}</div>")

    async def match_page(request: Request) -> Response:
        key = request.path_params["id"]
        if not KEY.fullmatch(key):
            return _not_found()
        safe = html.escape(key, quote=True)
        return _page(request, f"Live game {key}",
                     f"<div id=\"live-page\" data-page=\"match\" data-match=\"{safe}\">"
                     "<p><a href=\"/live\">All live games</a></p>"
                     f"<h1>Live game <span id=\"title\">{safe}</span></h1>"
                     "<p id=\"status\" role=\"status\">connecting</p>"
                     "<p id=\"position\"></p><div id=\"seats\"></div>"
                     "<section id=\"table-area\" aria-label=\"table\"><h2>Table</h2>"
                     "<div id=\"trick\"></div><div id=\"floor\"></div></section>"
                     "<section aria-label=\"moves\"><h2>Moves</h2><ol id=\"log\" tabindex=\"0\"></ol>"
                     "</section></div>")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return _not_found()
        body = resources.files("cardcli.arena").joinpath("live_static", name).read_bytes()
        return Response(body, 200, {**HEADERS, "Cache-Control": "max-age=300"}, STATIC[name])

    async def events(request: Request) -> Response:
        key = request.path_params.get("id")
        if key is not None and not KEY.fullmatch(key):
            return _not_found()
        sub, snapshot = hub.subscribe(key, asyncio.get_running_loop())
        if sub is None and key is None:
            return Response("too many spectators\n", 503, {**HEADERS, "Retry-After": "10"},
                            "text/plain; charset=utf-8")
        return StreamingResponse(_events(hub, sub, snapshot), 200,
                                 {**HEADERS, "X-Accel-Buffering": "no"}, "text/event-stream")

    return [
        Route("/live", list_page, methods=["GET"]),
        Route("/live/static/{name}", static, methods=["GET"]),
        Route("/live/{id}", match_page, methods=["GET"]),
        Route("/events/live", events, methods=["GET"]),
        Route("/events/live/{id}", events, methods=["GET"]),
    ]


async def _events(hub: LiveHub, sub: Subscriber | None, snapshot: list[str]) -> AsyncIterator[str]:
    """A spectator's stream: what is kept so far, then each new message as it is queued. It
    ends when the match does, or when the spectator falls too far behind (the browser's
    ``EventSource`` then reconnects and starts again from what is kept)."""
    try:
        yield "retry: 2000\n\n" + sse(snapshot)
        if sub is None:
            return
        while True:
            try:
                await asyncio.wait_for(sub.ready.wait(), KEEPALIVE)
            except asyncio.TimeoutError:
                yield ": keepalive\n\n"
                continue
            sub.ready.clear()
            chunk, finished = hub.take(sub)
            if chunk:
                yield chunk
            if finished:
                return
    finally:
        if sub is not None:
            hub.unsubscribe(sub)
