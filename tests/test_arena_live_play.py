"""Live games with real workers: the arena's service plays matches in its forkserver workers
while a spectator follows the list of matches in progress and then one match over the live
routes (cardcli.arena.live.routes mounted on a small app, over a real socket on loopback). The
spectator gets the match's public events while it is played (its first card played arrives
before the match is stored), the cards played are the record's, a seat's hand is shown only
after its deal's score, and the match's stream ends when it does."""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
from starlette.applications import Starlette

from cardcli.arena.api import WebServer
from cardcli.arena.config import ArenaConfig
from cardcli.arena.live import LiveHub, messages_of, routes
from cardcli.arena.service import Service
from cardcli.arena.store import EntrantKind, Store
from cardcli.arena.workers import Workers
from cardcli.referee import Settings
from cardcli.seats.limits import Limits
from cardcli.seats.policy import SandboxMode, SandboxPolicy
from conftest import FAULTY_BOT

CONFIG = ArenaConfig("peppa", "torino", {"end_threshold": 1}, 4, 42, Settings(move_time=5.0), Limits(memory_mb=256),
                     SandboxPolicy(mode=SandboxMode.OFF))
"""One deal a match (a deal of Peppa ends the match past a threshold of 1 point)."""
SLOW = f"{FAULTY_BOT} --think 0.04"
"""A bot that takes 40 ms per answer: a match lasts about a second, so that a spectator who
picks it from the list (which shows a deal's start within the workers' 50 ms batch and the
stream's quarter-second wake) still finds it being played."""


def messages(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The messages of a server-sent events stream, as they arrive."""
    for line in response.iter_lines():
        if line.startswith("data: "):
            yield json.loads(line[len("data: "):])


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[tuple[Store, Service, httpx.Client]]:
    store = Store.create(f"sqlite:///{tmp_path / 'arena.db'}", CONFIG, now=1000.0)
    store.add_entrant("slow", EntrantKind.PROGRAM, SLOW)
    store.add_entrant("random", EntrantKind.PROGRAM, "random")
    hub = LiveHub()
    workers = Workers(1)
    workers.start()  # before any thread, as cardcli.arena.workers asks
    server = WebServer(Starlette(routes=routes(hub)), "127.0.0.1", 0)
    server.start()
    service = Service(store, workers, live=hub)
    playing = threading.Thread(target=service.run, kwargs={"until": lambda: service.stored >= 4}, daemon=True)
    try:
        playing.start()
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=60) as client:
            yield store, service, client
    finally:
        service.stop.set()
        playing.join(timeout=120)
        workers.close()
        server.stop()
        hub.close()
        store.close()
    assert not playing.is_alive()


def test_a_spectator_gets_a_match_s_public_events_as_it_is_played(
        arena: tuple[Store, Service, httpx.Client]) -> None:
    store, service, client = arena
    with client.stream("GET", "/events/live") as listing:
        assert listing.headers["content-type"].startswith("text/event-stream")
        key = None
        for message in messages(listing):
            # the last rotation of its unit: one worker plays the others first, so the
            # duplicate gate holds nothing of it back (their deals are over)
            if (message["type"] == "match" and not message["match"]["over"]
                    and message["match"]["rotation"] == message["match"]["rotations"] - 1):
                key = message["match"]["id"]
                assert message["match"]["seats"] and set(message["match"]["seats"]) <= {"slow", "random"}
                break
    assert key is not None
    unit, rotation = map(int, key.split("-"))
    got: list[dict[str, Any]] = []
    stored_at_first_play = None
    with client.stream("GET", f"/events/live/{key}") as stream:
        for message in messages(stream):
            got.append(message)
            line = message.get("line", "")
            if stored_at_first_play is None and line.startswith("play "):
                stored_at_first_play = rotation in store.played_rotations_of([unit]).get(unit, set())
            if message["type"] == "end":
                break
    assert got[0]["type"] == "start" and got[0]["match"]["id"] == key
    assert got[-1] == {"type": "end"}
    assert stored_at_first_play is False, "the first card played reached the spectator before the match was stored"

    pause = threading.Event()
    for _ in range(600):  # the match is committed with the others finished within a tenth of a second
        if rotation in store.played_rotations_of([unit]).get(unit, set()):
            break
        pause.wait(0.05)
    record = next(json.loads(line) for match, line in store.records()
                  if (match.unit_id, match.rotation) == (unit, rotation))
    events = [m for m in got if m["type"] == "event"]
    assert [m["n"] for m in events] == sorted(m["n"] for m in events)
    first_deal = int(next(m["line"].split()[1] for m in events if m["line"].startswith("deal ")))
    deals = record["deals"][first_deal - 1:]
    plays = [f"play {m['seat']} {m['move']}" for deal in deals for m in deal["moves"] if m["kind"] == "play"]
    assert [m["line"] for m in events if m["line"].startswith("play ")] == plays
    scored = False
    for m in events:
        if m["line"].startswith("deal "):
            scored = False
        elif m["line"].startswith("score "):
            scored = True
        elif m["to"] is not None:
            assert scored, f"{m['line']} was shown while its deal was in progress"
            if m["line"].startswith("hand "):
                assert m["line"].split()[1:] == deals[-1]["hands"][m["to"][0]]
    assert any(m["to"] is not None for m in events), "the hands are shown once the deal is over"
    assert not any(m["to"] is None and m["line"].startswith(("hand ", "passed ", "received ")) for m in events)


@pytest.fixture
def served() -> Iterator[tuple[LiveHub, httpx.Client]]:
    hub = LiveHub()
    server = WebServer(Starlette(routes=routes(hub)), "127.0.0.1", 0)
    server.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as client:
            yield hub, client
    finally:
        hub.close()
        server.stop()


def test_the_pages_are_same_origin_under_a_strict_policy_and_unknown_paths_are_404(
        served: tuple[LiveHub, httpx.Client]) -> None:
    _, client = served
    for path in ("/live", "/live/12-3"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        policy = page.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy and "connect-src 'self'" in policy
        assert page.headers["x-content-type-options"] == "nosniff"
        assert "http" not in page.text  # nothing from anywhere else
    assert 'data-match="12-3"' in client.get("/live/12-3").text
    script = client.get("/live/static/live.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert "innerHTML" not in script.text  # texts are set as text
    assert client.get("/live/static/live.css").headers["content-type"].startswith("text/css")
    for path in ("/live/static/../live.py", "/live/static/other.js", "/live/<b>", "/live/1-2-3",
                 "/events/live/x", "/live/9999999999999999-1"):
        assert client.get(path).status_code == 404, path


def test_a_finished_match_s_stream_gives_its_tail_and_ends_and_a_spectator_who_leaves_is_let_go(
        served: tuple[LiveHub, httpx.Client]) -> None:
    hub, client = served
    hub.subscribe(None)
    hub.publish("5-0", {"id": "5-0", "seats": ["a"], "rotations": 1}, [("deal 1 0", None), ("hand 2C", (0,)), ("play 0 2C", None)])
    hub.ended("5-0")
    with client.stream("GET", "/events/live/5-0") as stream:
        got = list(messages(stream))  # the stream ends by itself
    assert [m["type"] for m in got] == ["start", "event", "event", "event", "end"]
    assert [m["line"] for m in got if m["type"] == "event"] == ["deal 1 0", "play 0 2C", "hand 2C"]
    before = hub.subscribers
    with client.stream("GET", "/events/live/6-0") as stream:
        reading = stream.iter_lines()  # kept: a reader dropped closes the connection
        assert next(reading) == "retry: 2000"
        assert hub.subscribers == before + 1
    pause = threading.Event()
    for _ in range(400):  # the server notices the closed connection at its next write or keepalive
        hub.publish("6-0", {"id": "6-0", "rotations": 1}, [("play 0 3C", None)])
        if hub.subscribers == before:
            break
        pause.wait(0.05)
    assert hub.subscribers == before


def test_a_match_whose_worker_dies_ends_for_its_spectators_and_is_shown_again_from_its_start(
        tmp_path: Path) -> None:
    store = Store.create(f"sqlite:///{tmp_path / 'arena.db'}", CONFIG, now=1000.0)
    store.add_entrant("slow", EntrantKind.PROGRAM, SLOW)
    store.add_entrant("random", EntrantKind.PROGRAM, "random")
    hub = LiveHub()
    workers = Workers(1)
    workers.start()
    service = Service(store, workers, live=hub)
    playing = threading.Thread(target=service.run, kwargs={"until": lambda: service.stored >= 2}, daemon=True)
    pause = threading.Event()

    def follow(key: str, until: Any) -> list[dict[str, Any]]:
        sub, kept = hub.subscribe(key)
        got = [json.loads(m) for m in kept]
        for _ in range(1200):  # up to a minute
            if sub is None or until(got):
                break
            chunk, finished = hub.take(sub)
            got += [json.loads(m) for m in messages_of(chunk)]
            if finished:
                break
            pause.wait(0.05)
        if sub is not None:
            hub.unsubscribe(sub)
        return got

    try:
        playing.start()
        # the unit's last rotation (one worker plays it after the first, so the duplicate gate
        # holds nothing of it back)
        first = follow("1-1", lambda got: any(m.get("line", "").startswith("play ") for m in got))
        assert any(m.get("line", "").startswith("play ") for m in first)
        listing, _ = hub.subscribe(None)  # the list is watched: the match played again is listed
        watching, _ = hub.subscribe("1-1")
        assert watching is not None
        os.kill(workers._workers[0].pid or 0, signal.SIGKILL)
        told = []
        for _ in range(1200):
            chunk, finished = hub.take(watching)
            told += [json.loads(m) for m in messages_of(chunk)]
            if finished:
                break
            pause.wait(0.05)
        assert told and told[-1] == {"type": "end"}, "the spectators of the lost match were told it ended"
        for _ in range(1200):  # until it is played again
            if "1-1" in [m["id"] for m in hub.matches()]:
                break
            pause.wait(0.05)
        again = follow("1-1", lambda got: any(m["type"] == "end" for m in got))
        assert again[0]["type"] == "start" and again[-1] == {"type": "end"}
        replayed = [m for m in again if m["type"] == "event"]
        assert replayed[0]["line"].startswith("deal 1 ") and replayed[0]["n"] == 1, "shown again from its start"
        assert listing is not None
    finally:
        service.stop.set()
        playing.join(timeout=120)
        workers.close()
        hub.close()
    assert [(m.unit_id, m.rotation) for m, _ in store.records()].count((1, 1)) == 1
    store.close()


def _descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (read from /proc): the serving process's web process is a
    child of its fork server."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, of in parents.items() if of == parent]
        found += children
        frontier += children
    return found


def test_serve_with_web_serves_the_live_games(tmp_path: Path) -> None:
    """``cardcli arena serve --web`` serves the live games beside the pages, from a process of
    its own at a lower priority (so spectators never take the matches' processor time), fed by
    its service: the list, and a match's every event once a spectator watches it (the workers
    learn that from the web process). It stops cleanly (the live streams end before the web
    server stops)."""
    import subprocess
    import sys

    from conftest import ROOT, run_cli

    arena = tmp_path / "arena"
    run_cli("arena", "init", str(arena), "--game", "peppa", "--seed", "3", "--sandbox", "off", check=True)
    thinking = f"{sys.executable} {ROOT / 'tests/bots/faulty_bot.py'} --think 0.01"  # a match lasts seconds
    for name in ("north", "south"):
        run_cli("arena", "entrant", "add", str(arena), name, "--command", thinking, check=True)
    proc = subprocess.Popen([sys.executable, "-m", "cardcli", "arena", "serve", str(arena), "-q", "-j", "1",
                             "--web", "127.0.0.1:0", "--live-delay", "0"], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, text=True, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert proc.stderr is not None
        port = None
        for _ in range(8):
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stderr.readline())
            if found:
                port = int(found.group(1))
                break
        assert port is not None, "serve did not say where its pages are"
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            page = client.get("/live")
            assert page.status_code == 200 and 'data-page="list"' in page.text
            assert 'href="/live"' in client.get("/").text  # the navigation links to them
            with client.stream("GET", "/events/live") as listing:
                listed = next(m for m in messages(listing) if m["type"] == "match")
            assert set(listed["match"]["seats"]) <= {"north", "south"} and listed["match"]["rotations"] >= 1
            with client.stream("GET", f"/events/live/{listed['match']['id']}") as watched:
                # every public event of the match, or its end if it finished before the crowd came
                first = next(m for m in messages(watched) if m["type"] in ("event", "end"))
            assert first["type"] == "end" or "line" in first
            # a watched match sends its plays (the web process told the workers): the last rotation
            # of a unit, which the duplicate gate holds nothing of, as it is played
            with client.stream("GET", "/events/live") as listing:
                last = next(m["match"] for m in messages(listing) if m["type"] == "match"
                            and m["match"]["rotation"] == m["match"]["rotations"] - 1 and not m["match"]["over"])
            with client.stream("GET", f"/events/live/{last['id']}") as watched:
                kinds = []
                for m in messages(watched):
                    kinds.append(m.get("line", m["type"]).split(" ")[0])
                    if kinds[-1] in ("play", "end"):
                        break
            assert "play" in kinds, kinds
        niced = [pid for pid in _descendants(proc.pid) if os.getpriority(os.PRIO_PROCESS, pid) >= 10]
        assert niced, "no process of the server runs at a lower priority"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
