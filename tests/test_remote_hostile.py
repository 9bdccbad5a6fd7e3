"""The referee's WebSocket listener (``cardcli.remote.hub``) against hostile peers.

Each test runs a real match in this thread, with a ``remote:NAME`` seat played over the
listener by a well-behaved bot that speaks ``protocol/REMOTE.md`` itself (:class:`Bot`, in a
thread), while other peers on 127.0.0.1 attack the listener: wrong tokens, silence, bad
frames, oversized and flooding messages, connection storms, a second connection for a seat,
TLS mistakes. Floods from many addresses (127.0.0.2 to 127.0.0.46, and ::1 for IPv6) go to a
referee in a subprocess with few descriptors, or to the listener's bookkeeping directly. Every
attack must be refused the documented way, and the match must go on
(or, for an attacker that holds a seat, record the attacker's fault and finish with the
fallback player).

Attacks that must happen *during* the match wait for the good bot's first request and hold
its answer until they are over (:func:`during_first_go`), so they are never run against a
referee that has already finished.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import random
import re
import resource
import selectors
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import attrs
import pytest
import trustme
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from cardcli.games import registry
from cardcli.protocol_replay import derive
from cardcli.referee import MatchResult, Settings, play_match
from cardcli.remote import wire
from cardcli.remote.hub import Address, Limits, Listener, Tls
from cardcli.remote.seat import RemoteContext
from cardcli.remote.tokens import new_token
from cardcli.seating import make_seat
from cardcli.transcript import FROM_BOT

from conftest import PYTHON_BOT, ROOT, command_line, descendants, read_records, records_written, run_cli, wait_for

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

TOKENS = {"alice": new_token(), "bob": new_token()}
AUTH_TIME = 0.5
WAIT = 15.0
"""Seconds any single expected event may take (generous: a loaded machine)."""
HOLD = 8.0
"""Longest a good bot holds its first answer for an attack (under the move time)."""
SETTINGS = Settings(move_time=10, startup_time=10)
QUICK = {
    "peppa": {"end_threshold": 1},
    "pepper": {"target": 5},
    "seep": {"baazi_target": 1},
    "pigugnin": {"lose_at": 1, "sole_loser_at": 1},
}
"""Options that end a match after a deal or two: whole matches, quickly."""


# -- the pieces -------------------------------------------------------------------------------


@pytest.fixture
def listen() -> Iterator[Callable[..., Listener]]:
    """Make a serving listener on 127.0.0.1, port 0; every one is closed after the test."""
    made: list[Listener] = []

    def make(limits: Limits = Limits(auth_time=AUTH_TIME), tls: Tls | None = None,
             capacity: dict[str, int] | None = None) -> Listener:
        listener = Listener(Address("127.0.0.1", 0), TOKENS, capacity or {"alice": 1, "bob": 1},
                            tls=tls, reconnect_time=1.0, limits=limits)
        made.append(listener)
        listener.bind()
        listener.start()
        return listener

    yield make
    for listener in made:
        listener.close(drain=0.5)


@pytest.fixture(autouse=True)
def no_error_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Nothing the peers do may make the listener's thread log an error: a handler that raised
    ("connection handler failed"), a task whose exception nobody took, ..."""
    yield
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


def nodelay_socket(url: str) -> socket.socket:
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=WAIT)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class Bot(threading.Thread):
    """A well-behaved remote bot speaking REMOTE.md directly: ``auth``, then line frames
    (numbered from 1, each checked to come next), an ``ack`` every 32 lines, and
    a random offered move for each ``go``. ``misbehave(bot, ws)``, when given, is called at
    each request instead of answering it (a bound attacker); ``hold`` makes the bot wait for
    :attr:`release` before its first answer."""

    def __init__(self, url: str, name: str, token: str | None = None, *, ssl_context: ssl.SSLContext | None = None,
                 misbehave: Callable[["Bot", ClientConnection], None] | None = None, hold: bool = False,
                 seed: int = 0, busy_retry: float = 0.0):
        super().__init__(daemon=True, name=f"bot-{name}")
        self.url, self.name, self.token = url, name, token if token is not None else TOKENS[name]
        self.ssl_context = ssl_context
        self.misbehave = misbehave
        self.busy_retry = busy_retry
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        """Every protocol line received, in order."""
        self.sent: list[str] = []
        """Every protocol line sent, in order."""
        self.others: list[str] = []
        """Every frame received other than a line frame (welcome, ack, end)."""
        self.busy_refusals = 0
        self.ended: str | None = None
        self.close_code: int | None = None
        self.close_reason: str | None = None
        self.error: BaseException | None = None
        self.welcomed = threading.Event()
        self.at_go = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()
        self._inbox = wire.Inbox()
        self._out = 0

    def run(self) -> None:
        try:
            with self._connect() as ws:
                self._play(ws)
        except BaseException as err:  # reported by finish()
            self.error = err

    def _connect(self) -> ClientConnection:
        deadline = time.monotonic() + self.busy_retry
        while True:
            try:
                return connect(self.url, sock=nodelay_socket(self.url), ssl=self.ssl_context, open_timeout=WAIT,
                               compression=None, max_size=wire.MAX_REFEREE_FRAME)
            except (InvalidStatus, InvalidMessage, ConnectionResetError) as err:
                busy = not isinstance(err, InvalidStatus) or err.response.status_code == 429  # 429, or reset at once
                if not busy or time.monotonic() > deadline:
                    raise
                self.busy_refusals += 1
                time.sleep(0.05)

    def _play(self, ws: ClientConnection) -> None:
        ws.send(wire.auth(self.name, self.token))
        welcome = ws.recv(timeout=WAIT)
        assert isinstance(welcome, str) and wire.parse(welcome).kind == "welcome", welcome
        self.others.append(welcome)
        self.welcomed.set()
        while True:
            try:
                raw = ws.recv(timeout=60)
            except ConnectionClosed as closed:
                if closed.rcvd is not None:
                    self.close_code, self.close_reason = closed.rcvd.code, closed.rcvd.reason
                return
            assert isinstance(raw, str), raw
            frame = wire.parse(raw)
            if frame.kind != "line":
                self.others.append(raw)
                if frame.kind == "end":
                    self.ended = frame.word
                continue
            assert self._inbox.take(frame.seq), f"line {frame.seq} twice without a reconnection"
            self.lines.append(frame.text)
            self._answer(ws, frame.text.split())

    def _answer(self, ws: ClientConnection, words: list[str]) -> None:
        if words[0] == "cardcli":
            self.send(ws, f"id name {self.name}-bot")
            self.send(ws, "ready")
        elif words[0] == "go":
            self.at_go.set()
            if not self.release.wait(HOLD):
                raise AssertionError("the attack was not over in time")
            if self.misbehave is not None:
                self.misbehave(self, ws)
            else:
                self.send(ws, f"move {self.rng.choice(words[3:])}")

    def send(self, ws: ClientConnection, line: str) -> None:
        ack = self._inbox.ack_due()
        if ack is not None:
            ws.send(ack)
        self._out += 1
        ws.send(wire.line(self._out, line))
        self.sent.append(line)

    def finish(self) -> "Bot":
        """Wait for the bot's connection to end; re-raise what went wrong in its thread."""
        self.join(WAIT)
        assert not self.is_alive(), f"{self.name}'s bot is still connected"
        if self.error is not None:
            raise self.error
        return self


def play(listener: Listener, specs: list[str], *, game: str = "peppa", seed: int = 7,
         connect_time: float = 5.0) -> MatchResult:
    """One whole match in this thread; ``remote:NAME`` seats are played through ``listener``."""
    context = RemoteContext(listener.link_path, connect_time=connect_time, grace=0.0)
    seats = [make_seat(spec, i, seed, remote=context) for i, spec in enumerate(specs)]
    setup = registry.resolve(game, None, QUICK[game], len(specs), seed)
    return play_match(setup, seats, SETTINGS)


def during_first_go(bot: Bot, attack: Callable[[], Any]) -> Callable[[], Any]:
    """Run ``attack`` in a thread as soon as ``bot`` has its first request (the match is under
    way, and the bot holds its answer until the attack is over). Returns a function that waits
    for the attack and gives its value (or raises what it raised)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            if not bot.at_go.wait(WAIT):
                raise AssertionError("the good bot never got a request")
            box["value"] = attack()
        except BaseException as err:
            box["error"] = err
        finally:
            bot.release.set()

    thread = threading.Thread(target=run, daemon=True, name="attack")
    thread.start()

    def result() -> Any:
        thread.join(WAIT + HOLD)
        assert not thread.is_alive(), "the attack did not end"
        if "error" in box:
            raise box["error"]
        return box["value"]

    return result


@attrs.frozen
class Outcome:
    """What a one-shot peer saw: the frames it received, then the close."""

    frames: list[str | bytes]
    code: int | None
    reason: str | None

    @property
    def text(self) -> str:
        assert len(self.frames) == 1 and isinstance(self.frames[0], str), self.frames
        return self.frames[0]


def attempt(url: str, first: str | bytes | None = None, *, delay: float = 0.0,
            ssl_context: ssl.SSLContext | None = None) -> Outcome:
    """Connect, wait ``delay``, send ``first`` (if any), and read until the listener closes."""
    with connect(url, sock=nodelay_socket(url), ssl=ssl_context, open_timeout=WAIT, compression=None) as ws:
        if delay:
            time.sleep(delay)
        if first is not None:
            try:
                ws.send(first)
            except ConnectionClosed:
                pass  # refused already: what it said is still queued for recv
        frames: list[str | bytes] = []
        while True:
            try:
                frames.append(ws.recv(timeout=WAIT))
            except ConnectionClosed as closed:
                rcvd = closed.rcvd
                return Outcome(frames, rcvd.code if rcvd else None, rcvd.reason if rcvd else None)


def refused_busy(url: str) -> InvalidStatus:
    """Connect and expect the HTTP 429 answer that comes before any WebSocket handshake."""
    with pytest.raises(InvalidStatus) as caught:
        with connect(url, sock=nodelay_socket(url), open_timeout=WAIT):
            pass
    assert caught.value.response.status_code == 429
    assert caught.value.response.body.startswith(b"refused busy: ")
    return caught.value


def faults_of(result: MatchResult) -> list[tuple[int, str, str]]:
    return [(f["seat"], f["kind"], f["detail"]) for f in result.record["faults"]]


def assert_clean_match(result: MatchResult, bot: Bot, seat: int = 0) -> None:
    """The match was played to its end without a fault, and ``bot`` played its seat from the
    greeting to ``quit``, its session ended normally."""
    assert result.record["status"] == "complete", result.record["status"]
    assert result.record["faults"] == []
    bot.finish()
    assert bot.lines[0] == "cardcli 1" and bot.lines[-1] == "quit"
    assert any(line.startswith("go ") for line in bot.lines)
    assert bot.ended == wire.END_QUIT and bot.close_code == wire.CLOSE_NORMAL
    entry = result.record["seats"][seat]
    assert entry["kind"] == "remote" and entry["bot"]["name"] == f"{bot.name}-bot"
    moves = [m for deal in result.record["deals"] for m in deal["moves"] if m["seat"] == seat]
    assert moves and all(m.get("by", "seat") == "seat" for m in moves), "every move the bot's own"


def play_attacked(listener: Listener, attack: Callable[[], Any], specs: list[str] | None = None,
                  connect_time: float = 5.0, **bot_options: Any) -> tuple[MatchResult, Bot, Any]:
    """A match with alice's good bot at seat 0 while ``attack`` runs at its first request."""
    bot = Bot(listener.url, "alice", hold=True, **bot_options)
    bot.start()
    assert bot.welcomed.wait(WAIT), bot.error
    attacked = during_first_go(bot, attack)
    result = play(listener, specs or ["remote:alice", "random", "random", "random"], connect_time=connect_time)
    value = attacked()
    return result, bot, value


# -- 1-3: refusals before any session ---------------------------------------------------------


def test_a_wrong_token_and_an_unknown_name_get_the_same_refusal_that_says_nothing_of_the_match(
        listen: Callable[..., Listener]) -> None:
    listener = listen()

    def attack() -> tuple[Outcome, Outcome]:
        wrong = attempt(listener.url, wire.auth("alice", new_token()))
        unknown = attempt(listener.url, wire.auth("mallory", TOKENS["alice"]))
        return wrong, unknown

    # bob's seat is in the match (a name a refusal could leak) but his bot never comes.
    result, bot, (wrong, unknown) = play_attacked(listener, attack, ["remote:alice", "random", "remote:bob", "random"],
                                                  connect_time=1.0)
    for outcome in (wrong, unknown):
        assert outcome.text.startswith("refused auth: ")
        assert outcome.code == wire.CLOSE_POLICY and outcome.reason == "refused auth"
        told = outcome.text.lower()
        for secret in ("alice", "bob", "mallory", "peppa", "random", "seat", "game", "match"):
            assert secret not in told, f"the refusal mentions {secret!r}: {outcome.text}"
        assert not re.search(r"\d", told), f"the refusal holds a number: {outcome.text}"
    assert wrong.text == unknown.text and wrong.reason == unknown.reason, "a name and a token are not told apart"
    # bob never connected: a fault of his own; alice is unharmed.
    assert [(s, k) for s, k, _ in faults_of(result)] == [(2, "disconnect")]
    assert result.record["status"] == "complete"
    bot.finish()
    assert bot.ended == wire.END_QUIT and bot.lines[-1] == "quit"


def test_a_peer_that_does_not_authenticate_in_time_is_refused_even_with_the_right_token(
        listen: Callable[..., Listener]) -> None:
    listener = listen()

    def attack() -> tuple[Outcome, float, Outcome, str]:
        started = time.monotonic()
        silent = attempt(listener.url)
        waited = time.monotonic() - started
        slow = attempt(listener.url, wire.auth("bob", TOKENS["bob"]), delay=AUTH_TIME + 0.4)
        prompt = attempt_welcome(listener.url, "bob")
        return silent, waited, slow, prompt

    result, bot, (silent, waited, slow, prompt) = play_attacked(listener, attack)
    assert silent.text == f"refused auth: no 'auth' within {AUTH_TIME:g} s"
    assert silent.code == wire.CLOSE_POLICY
    assert AUTH_TIME - 0.05 <= waited < AUTH_TIME + 5, waited
    assert slow.frames == [f"refused auth: no 'auth' within {AUTH_TIME:g} s"], "a late 'auth' is not welcomed"
    assert slow.code == wire.CLOSE_POLICY
    # The same token sent in time is welcomed: the refusal was about time, not the token.
    assert prompt.startswith("welcome ")
    assert_clean_match(result, bot)


def attempt_welcome(url: str, name: str) -> str:
    """Authenticate properly (a session no seat claims), check it stays silent, and leave:
    what the listener answered to ``auth``."""
    with connect(url, sock=nodelay_socket(url), open_timeout=WAIT) as ws:
        ws.send(wire.auth(name, TOKENS[name]))
        answer = ws.recv(timeout=WAIT)
        assert isinstance(answer, str)
        if answer.startswith("welcome "):
            with pytest.raises(TimeoutError):
                ws.recv(timeout=0.3)  # an idle session is silent
        return answer


@pytest.mark.parametrize(("first", "code"), [
    ("hello", wire.CLOSE_POLICY),
    (b"auth 1 alice " + TOKENS["alice"].encode(), wire.CLOSE_UNSUPPORTED),  # the right auth, but binary
    ("auth 2 bob " + TOKENS["bob"], wire.CLOSE_POLICY),
], ids=["hello", "binary", "version-2"])
def test_a_first_frame_that_is_not_a_text_auth_is_refused(listen: Callable[..., Listener], first: str | bytes,
                                                         code: int) -> None:
    listener = listen()
    result, bot, outcome = play_attacked(listener, lambda: attempt(listener.url, first))
    assert outcome.text.startswith("refused frame: "), outcome.text
    assert outcome.code == code and outcome.reason == "refused frame"
    assert TOKENS["alice"] not in outcome.text and TOKENS["bob"] not in outcome.text
    assert_clean_match(result, bot)


# -- 4-5: an attacker that holds a seat -------------------------------------------------------


def oversized(bot: Bot, ws: ClientConnection) -> None:
    """Answer a request with one message a byte over the limit (a line frame of an info line)."""
    head = f"{bot._out + 1} info "
    message = head + "x" * (wire.MAX_PEER_FRAME + 1 - len(head))
    assert len(message.encode()) == wire.MAX_PEER_FRAME + 1
    try:
        ws.send(message)
    except ConnectionClosed:
        pass


def flood(bot: Bot, ws: ClientConnection) -> None:
    """Answer a request with 20,000 frames as fast as they go: each one valid (``ack 0``)."""
    try:
        for _ in range(20000):
            ws.send("ack 0")
    except ConnectionClosed:
        pass


@pytest.mark.parametrize(("misbehave", "kind", "detail", "code"), [
    (oversized, "malformed", f"longer than {wire.MAX_PEER_FRAME} bytes", 1009),
    (flood, "protocol", "flooded", None),
], ids=["oversized", "flood"])
def test_a_bound_peer_that_breaks_the_transport_is_cut_off_and_its_seat_faults(
        listen: Callable[..., Listener], misbehave: Callable[[Bot, ClientConnection], None], kind: str, detail: str,
        code: int | None) -> None:
    listener = listen()
    good = Bot(listener.url, "alice", seed=1)
    bad = Bot(listener.url, "bob", misbehave=misbehave, seed=2)
    good.start()
    bad.start()
    result = play(listener, ["remote:alice", "remote:bob", "random", "random"])
    bad.finish()
    assert bad.close_code is not None, "the attacker's connection was closed"
    if code is not None:
        assert bad.close_code == code
    assert bad.lines[-1].startswith("go "), "cut off at the request it did not answer"
    assert not any(line.startswith("go ") for line in bad.lines[:-1])
    faults = faults_of(result)
    assert [(s, k) for s, k, _ in faults] == [(1, kind)], faults
    assert detail in faults[0][2], faults[0][2]
    assert result.record["status"] == "complete"
    assert any(m.get("by") == "fallback" for deal in result.record["deals"] for m in deal["moves"]
               if m["seat"] == 1), "the fallback player played bob's seat"
    # alice's bot played on, was told of the forfeit, and ended normally.
    good.finish()
    assert f"forfeit 1 {kind}" in good.lines
    assert good.ended == wire.END_QUIT and good.lines[-1] == "quit"
    assert all(s != 0 for s, _, _ in faults)


# -- 6-8: limits per address and per name -----------------------------------------------------


def test_a_storm_of_silent_connections_is_held_to_the_pending_limit_and_a_real_bot_then_plays(
        listen: Callable[..., Listener]) -> None:
    limits = Limits(auth_time=2.0)
    listener = listen(limits)
    url = listener.url

    async def one(started: float) -> tuple[str, float, Any]:
        try:
            async with aconnect(url, open_timeout=WAIT, compression=None) as ws:
                admitted = time.monotonic() - started
                try:
                    said = await asyncio.wait_for(ws.recv(), WAIT)
                except ConnectionClosed:
                    said = None
                return "in", admitted, said
        except (OSError, InvalidMessage) as err:  # reset as it was accepted: no HTTP answer
            return "cut", time.monotonic() - started, err

    async def storm() -> list[tuple[str, float, Any]]:
        started = time.monotonic()
        return await asyncio.gather(*(one(started) for _ in range(200)))

    outcomes = asyncio.run(storm())
    # No clock is read against the answer: on a loaded machine 200 connections can take longer
    # than the auth time to be made. That the extra ones cost nothing is the listener's own
    # count below: each was reset as it was accepted, never held until the auth time.
    admitted = [said for what, _, said in outcomes if what == "in"]
    cut = [err for what, _, err in outcomes if what == "cut"]
    assert len(admitted) == limits.pending_per_address, len(admitted)
    assert len(cut) == 200 - limits.pending_per_address, [o for o in outcomes if o[0] not in ("in", "cut")]
    assert all(said == f"refused auth: no 'auth' within {limits.auth_time:g} s" for said in admitted)
    assert listener._tcp is not None and listener._tcp.refused == len(cut), "each one reset as it was accepted"
    # They are gone: a real bot is let in (a relay retries a refusal briefly) and plays a whole match.
    bot = Bot(url, "alice", busy_retry=3.0)
    bot.start()
    assert bot.welcomed.wait(WAIT), bot.error
    result = play(listener, ["remote:alice", "random", "random", "random"])
    assert_clean_match(result, bot)
    # ... and the listener still serves.
    assert attempt_welcome(url, "bob").startswith("welcome ")


def test_a_second_connection_for_a_single_seat_is_refused_and_the_first_plays_on(
        listen: Callable[..., Listener]) -> None:
    listener = listen()
    taken = "refused taken: alice has as many connections as it has seats"

    def attack() -> Outcome:
        return attempt(listener.url, wire.auth("alice", TOKENS["alice"]))

    bot = Bot(listener.url, "alice", hold=True)
    bot.start()
    assert bot.welcomed.wait(WAIT), bot.error
    idle = attack()  # while the first waits for its match
    attacked = during_first_go(bot, attack)  # while it plays
    result = play(listener, ["remote:alice", "random", "random", "random"])
    playing = attacked()
    for outcome in (idle, playing):
        assert outcome.frames == [taken] and outcome.code == wire.CLOSE_POLICY
    assert_clean_match(result, bot)
    assert bot.others[0].startswith("welcome ") and sum(o.startswith("welcome ") for o in bot.others) == 1


def test_an_address_with_too_many_failed_auths_is_refused_even_with_the_right_token_until_the_window_passes(
        listen: Callable[..., Listener]) -> None:
    limits = Limits(auth_time=AUTH_TIME, failures_per_address=10, failure_window=2.0)
    listener = listen(limits)

    def attack() -> tuple[list[Outcome], InvalidStatus, float]:
        failed = [attempt(listener.url, wire.auth("bob", new_token()))]
        # The hub records the first failure before it answers, so the ban, which lasts
        # while the window still holds that failure, ends at the latest a window after this.
        first_answered = time.monotonic()
        failed += [attempt(listener.url, wire.auth("bob", new_token()))
                   for _ in range(limits.failures_per_address - 1)]
        refused = refused_busy(listener.url)  # bob's right token never gets to be sent
        assert time.monotonic() - first_answered < limits.failure_window, "too slow to show the window"
        return failed, refused, first_answered

    result, bot, (failed, refused, first_answered) = play_attacked(listener, attack)
    assert all(o.text == "refused auth: wrong name or token" for o in failed)
    assert b"too many failed attempts" in refused.response.body
    assert_clean_match(result, bot)  # alice, connected before, is not hurt by her address's ban
    # The ban lasts the window, then the right token is welcomed again.
    time.sleep(max(0.0, first_answered + limits.failure_window + 0.2 - time.monotonic()))
    assert attempt_welcome(listener.url, "bob").startswith("welcome ")


# -- 9: TLS -----------------------------------------------------------------------------------


def test_tls_a_trusting_bot_plays_and_plain_or_untrusting_clients_fail(
        listen: Callable[..., Listener], tmp_path: Path) -> None:
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    chain, key = tmp_path / "chain.pem", tmp_path / "key.pem"
    cert.cert_chain_pems[0].write_to_path(str(chain))
    for pem in cert.cert_chain_pems[1:]:
        pem.write_to_path(str(chain), append=True)
    cert.private_key_pem.write_to_path(str(key))
    listener = listen(tls=Tls(str(chain), str(key)))
    assert listener.url == f"wss://127.0.0.1:{listener.port}/"
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)

    def attack() -> tuple[BaseException, BaseException]:
        with pytest.raises(InvalidMessage) as plain:
            with connect(f"ws://127.0.0.1:{listener.port}/", open_timeout=WAIT):
                pass
        with pytest.raises(ssl.SSLCertVerificationError) as untrusting:
            with connect(listener.url, ssl=ssl.create_default_context(), open_timeout=WAIT):
                pass
        return plain.value, untrusting.value

    result, bot, _ = play_attacked(listener, attack, ssl_context=trusting)
    assert_clean_match(result, bot)


# -- 10: a bot that never comes ---------------------------------------------------------------


def test_a_remote_seat_whose_bot_never_connects_faults_disconnect_and_a_late_bot_gets_no_dead_seat(
        listen: Callable[..., Listener]) -> None:
    listener = listen()
    bot = Bot(listener.url, "alice")
    bot.start()
    started = time.monotonic()
    result = play(listener, ["remote:alice", "remote:bob", "random", "random"], connect_time=0.5)
    assert time.monotonic() - started < WAIT
    faults = faults_of(result)
    assert [(s, k) for s, k, _ in faults] == [(1, "disconnect")], faults
    assert faults[0][2].startswith("bob's bot did not connect within 0.5 s"), faults
    assert result.record["status"] == "complete"
    assert all(m.get("by") == "fallback" for deal in result.record["deals"] for m in deal["moves"]
               if m["seat"] == 1), "the fallback player played every move of bob's seat"
    bot.finish()
    assert "forfeit 1 disconnect" in bot.lines and bot.ended == wire.END_QUIT
    # bob arrives late: welcomed into an idle session, handed no line of the dead seat.
    late = Bot(listener.url, "bob")
    late.start()
    assert late.welcomed.wait(WAIT), late.error
    time.sleep(0.3)
    listener.close(drain=0.5)
    late.finish()
    assert late.lines == [] and late.ended == wire.END_OVER


# -- 11: a remote seat is told exactly what a local seat is told ------------------------------


@pytest.mark.parametrize(("game", "players", "seat"), [
    ("peppa", 4, 2), ("pepper", 3, 1), ("seep", 4, 3), ("pigugnin", 5, 1),
])
def test_a_remote_bot_receives_exactly_the_lines_a_local_seat_would(
        listen: Callable[..., Listener], tmp_path: Path, game: str, players: int, seat: int) -> None:
    listener = listen()
    bot = Bot(listener.url, "alice", seed=seat)
    bot.start()
    specs = ["random"] * players
    specs[seat] = "remote:alice"
    result = play(listener, specs, game=game, seed=11)
    assert result.record["status"] == "complete" and result.record["faults"] == []
    bot.finish()
    derived = derive(result.record, seat)
    assert bot.lines == derived.to_bot(), "the remote bot was told more, less or other than a local one"
    assert bot.sent == [e.line for e in derived.entries if e.direction == FROM_BOT]
    assert bot.lines[0] == "cardcli 1" and bot.lines[-1] == "quit"
    assert all(o.startswith(("welcome ", "ack ")) for o in bot.others[:-1]) and bot.others[-1] == "end quit"
    if game == "peppa":  # the CLI a bot author runs says the same
        record = tmp_path / "games.jsonl"
        record.write_text(json.dumps(result.record) + "\n")
        proc = run_cli("replay", str(record), "--seat", str(seat), "--protocol", "--to-bot")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines() == bot.lines


# -- latency ------------------------------------------------------------------------------------


def test_the_listener_turns_off_nagles_algorithm_on_every_connection(listen: Callable[..., Listener]) -> None:
    """With Nagle's algorithm on, a frame written right after another waits for the peer's
    delayed acknowledgement (40 ms on Linux): every request of a remote seat cost 40 ms of its
    move time, even on loopback. The socket option is checked rather than a time, which a
    loaded machine would blur (benchmarks/remote_overhead.py measures the time)."""
    listener = listen()
    with nodelay_socket(listener.url) as sock:
        with connect(listener.url, sock=sock) as ws:
            ws.send(f"auth 1 alice {TOKENS['alice']}")
            assert ws.recv(timeout=5).startswith("welcome ")
            assert listener._server is not None
            (server_side,) = listener._server.connections
            raw = server_side.transport.get_extra_info("socket")
            assert raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


# -- 12: the listener's tasks -----------------------------------------------------------------


def test_every_task_the_listener_starts_is_kept_until_it_ends(listen: Callable[..., Listener]) -> None:
    """asyncio holds a running task only weakly: a task that nothing else refers to may be
    collected mid-run (the one that turns a dropped connection into a ``disconnect`` fault,
    say). Every task the listener's code creates must be in its set of tasks until it is done,
    through a session, a reconnection, a match and a connection dropped for good."""
    listener = listen()
    loop = listener._loop
    assert loop is not None
    hub_file = Listener.__module__.replace(".", os.sep) + ".py"
    created: list[tuple[str, str]] = []
    """Where each task of the listener's was created, and what it runs."""
    unkept: list[str] = []

    def creator() -> str:
        """The file and function that asked for the task (asyncio's own steps skipped)."""
        frame = sys._getframe(2)
        while frame.f_code.co_name in ("create_task", "ensure_future", "_ensure_future"):
            assert frame.f_back is not None
            frame = frame.f_back
        return f"{frame.f_code.co_filename}:{frame.f_code.co_name}"

    def check(task: asyncio.Task[Any], where: str) -> None:
        if not task.done() and task not in getattr(listener, "_tasks", ()):
            unkept.append(f"{where} {task.get_coro()}")

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Task[Any]:
        task = asyncio.Task(coro, loop=loop, **options)
        where = creator()
        if where.split(":")[0].endswith(hub_file):
            created.append((where, getattr(coro, "__name__", "?")))
            loop.call_soon(check, task, where)  # the creator has had its turn to keep it
        return task

    async def install() -> None:
        asyncio.get_running_loop().set_task_factory(factory)

    asyncio.run_coroutine_threadsafe(install(), loop).result(WAIT)
    # a session, then a second connection that takes it over
    with connect(listener.url, open_timeout=WAIT) as first:
        first.send(wire.auth("alice", TOKENS["alice"]))
        welcome = wire.parse(str(first.recv(timeout=WAIT)))
        with connect(listener.url, open_timeout=WAIT) as second:
            second.send(wire.auth("alice", TOKENS["alice"], welcome.word, 0))
            assert str(second.recv(timeout=WAIT)).startswith(f"welcome {welcome.word}")
            with pytest.raises(ConnectionClosed):
                first.recv(timeout=WAIT)

    # a match in which alice's connection drops at her first request and does not come back
    def drop(bot: Bot, ws: ClientConnection) -> None:
        ws.close()

    bot = Bot(listener.url, "alice", misbehave=drop)
    bot.start()
    result = play(listener, ["remote:alice", "random", "random", "random"])
    bot.finish()
    assert [(s, k) for s, k, _ in faults_of(result)] == [(0, "disconnect")], faults_of(result)
    assert unkept == [], f"tasks not kept: {unkept}"
    ran = {name for _, name in created}
    assert {"_measure", "close", "_gone", "_claim", "read"} <= ran, created


# -- 13: floods from many addresses -----------------------------------------------------------


HOLD_BOT = '''\
"""A random bot whose first request, in whichever of its processes, is answered only once the
file RELEASE exists; it says that it got there with the file AT_GO."""
import os, random, sys, time
folder = sys.argv[1]
rng = random.Random(5)
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["cardcli"]:
        print("id name holder", "ready", sep="\\n", flush=True)
    elif words[:1] == ["go"]:
        try:
            os.close(os.open(os.path.join(folder, "AT_GO"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            while not os.path.exists(os.path.join(folder, "RELEASE")):
                time.sleep(0.02)
        except FileExistsError:
            pass
        print("move", rng.choice(words[3:]), flush=True)
    elif words[:1] == ["quit"]:
        break
'''
FLOOD_ADDRESSES = [f"127.0.0.{i}" for i in range(2, 47)]
"""45 source addresses, as one attacker with a handful of hosts (or one IPv6 /64) has."""
FLOOD_PER_ADDRESS = 8
FLOOD_MOST = 250_000
"""Connections a flood makes at most (the listener resets most of them at once)."""
FLOOD_TIME = 90.0
"""Seconds a flood lasts at most."""
OPEN_FILES = 256
"""The referee's limit on open descriptors, soft and hard: it cannot raise it."""


class Flood(threading.Thread):
    """Silent TCP connections to ``port`` (connect, send nothing) from every address of
    :data:`FLOOD_ADDRESSES`, :data:`FLOOD_PER_ADDRESS` at a time each: each one the listener
    closes is opened again at once, until :meth:`stop`, :data:`FLOOD_MOST` connections or
    :data:`FLOOD_TIME` seconds. Loopback only."""

    def __init__(self, port: int):
        super().__init__(daemon=True, name="flood")
        self.port = port
        self.made = 0
        self.closed = 0
        self.sources: set[str] = set()
        self.at_once = 0
        """The most connections open at the same time."""
        self._stop_now = threading.Event()
        self._selector = selectors.DefaultSelector()

    def stop(self) -> "Flood":
        self._stop_now.set()
        self.join(WAIT)
        assert not self.is_alive(), "the flood did not stop"
        return self

    def run(self) -> None:
        try:
            for address in FLOOD_ADDRESSES:
                for _ in range(FLOOD_PER_ADDRESS):
                    self._open(address)
            end = time.monotonic() + FLOOD_TIME
            while not self._stop_now.is_set() and time.monotonic() < end and self.made < FLOOD_MOST:
                for key, _ in self._selector.select(0.05):
                    self._closed_by_peer(key.fileobj, key.data)  # type: ignore[arg-type]
        finally:
            for key in list(self._selector.get_map().values()):
                key.fileobj.close()  # type: ignore[union-attr]
            self._selector.close()

    def _open(self, address: str) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.bind((address, 0))
        sock.connect_ex(("127.0.0.1", self.port))
        self._selector.register(sock, selectors.EVENT_READ, address)
        self.made += 1
        self.sources.add(address)
        self.at_once = max(self.at_once, len(self._selector.get_map()))

    def _closed_by_peer(self, sock: socket.socket, address: str) -> None:
        try:
            if sock.recv(4096):
                return  # the listener said something (it never should to a silent peer): keep it
        except BlockingIOError:
            return
        except OSError:
            pass  # reset: refused at once
        self._selector.unregister(sock)
        sock.close()
        self.closed += 1
        self._open(address)


def until(condition: Callable[[], bool], seconds: float) -> bool:
    """Wait until ``condition`` holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def limited_open_files() -> None:
    """In the referee's process, before it runs: a limit it cannot raise."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


class RefereeProcess:
    """``cardcli ARGS`` in a subprocess with :data:`OPEN_FILES` descriptors at most; its port
    read from the line it prints, its stderr kept."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "cardcli", *args], cwd=ROOT, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limited_open_files,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.err: list[str] = []
        self._listening = threading.Event()
        threading.Thread(target=self._read_err, daemon=True).start()
        assert self._listening.wait(60), f"the referee did not listen: {self.err}"
        line = next(line for line in self.err if "listening on ws" in line)
        self.port = int(line.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.append(line)
            if "listening on ws" in line:
                self._listening.set()
        self._listening.set()

    def finish(self, timeout: float = 240) -> tuple[int, str, str]:
        out, _ = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, out, "".join(self.err)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


def relay(port: int, token: str, folder: Path, *extra: str) -> subprocess.Popen[str]:
    """``cardcli connect`` for alice, with :data:`HOLD_BOT` as her bot."""
    return subprocess.Popen([sys.executable, "-m", "cardcli", "connect", f"ws://127.0.0.1:{port}/", "--name", "alice",
                             "--token", token, *extra, "--", sys.executable, str(folder / "hold_bot.py"), str(folder)],
                            cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def ended(process: subprocess.Popen[str]) -> tuple[int, str]:
    """A relay's exit status (-9 when it had to be killed) and its stderr."""
    try:
        process.wait(WAIT * 2)
    except subprocess.TimeoutExpired:
        process.kill()
    return process.wait(), process.communicate()[1]


def bot_processes(root: int, mark: str) -> set[int]:
    return {pid for pid in descendants(root) if mark in (command_line(pid) or "")}


def test_a_flood_of_silent_connections_from_many_addresses_leaves_the_referee_its_files_and_its_bots(
        tmp_path: Path) -> None:
    """What an attacker did to the listener when it counted connections only per address: 8
    silent connections from each of 40 addresses took every descriptor of a referee limited to
    256, so the local bot of the next match could not be started (or the record not written).

    A tournament of one match at a time, each with a fresh local bot (``--restart-bots``), in a
    referee that cannot have more than 256 descriptors: alice plays over ``cardcli connect``
    and holds her first answer while the flood starts, then plays on during it; the first
    match's record is written and the second match's local bot started during the flood; a
    relay that connects after the flood plays the remaining matches."""
    (tmp_path / "hold_bot.py").write_text(HOLD_BOT)
    token = new_token()
    tokens = tmp_path / "tokens.txt"
    tokens.write_text(f"alice {token}\n")
    cup = tmp_path / "cup"
    referee = RefereeProcess(
        "tournament", "peppa", "--bot", "alice=remote:alice", "--bot", f"carol={PYTHON_BOT}", "--bot", "dave=random",
        "--bot", "erin=random", "--deal-sets", "1", "--seed", "4", "-j", "1", "--restart-bots",
        "-o", "end_threshold=1", "--move-time", "60", "--startup-time", "60", "--connect-time", "180",
        "--dir", str(cup), "--listen", "127.0.0.1:0", "--tokens", str(tokens), "--json")
    relays = [relay(referee.port, token, tmp_path, "--once")]
    flood = Flood(referee.port)
    try:
        wait_for(lambda: (tmp_path / "AT_GO").exists(), "alice's first request", WAIT * 4)
        first_carol = bot_processes(referee.proc.pid, "random_bot.py")
        flood.start()
        until(lambda: flood.made >= 5000, 10)  # in full swing (the old listener made it hang instead)
        (tmp_path / "RELEASE").touch()
        # the first match ends, its record is written, the second match starts its own carol: all during the flood
        until(lambda: records_written(cup) >= 1
              and bool(bot_processes(referee.proc.pid, "random_bot.py") - first_carol), WAIT * 4)
        flood.stop()
        during = records_written(cup)
        relays.append(relay(referee.port, token, tmp_path))  # a bot that connects after the flood
        code, out, err = referee.finish()
        outcomes = [ended(r) for r in relays]
    finally:
        if flood.ident is not None:
            flood.stop()
        referee.kill()
        for r in relays:
            if r.poll() is None:
                r.kill()
                r.communicate()
    assert flood.sources == set(FLOOD_ADDRESSES) and flood.at_once >= len(FLOOD_ADDRESSES) * FLOOD_PER_ADDRESS
    assert flood.made > 2 * OPEN_FILES, flood.made
    tail = err[-2000:]
    assert code == 0, tail
    records = read_records(cup / "records.jsonl")
    assert [f for r in records for f in r["faults"]] == [], "no seat faulted: not alice's, not the local bot's"
    assert len(records) == json.loads(out)["matches"] == 4
    assert all(r["status"] == "complete" for r in records)
    assert all(any(seat.get("network", {}).get("remote") == "alice" for seat in r["seats"]) for r in records)
    verified = run_cli("verify", str(cup / "records.jsonl"))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert during >= 1, "the first match's record was written during the flood"
    assert [status for status, _ in outcomes] == [0, 0], outcomes
    assert "Too many open files" not in err and "Invalid file descriptor" not in err, tail
    assert "the listener refuses new connections" in err, "the flood reached the listener's cap"


def test_an_ipv6_flood_from_one_64_counts_as_one_address() -> None:
    """Whoever has one IPv6 address has its /64: every per-address count and ban is kept by
    /64, so 500 addresses of one /64 get no more than one address does."""
    from cardcli.remote.hub import Caps, _Book, address_key

    limits = Limits()
    book = _Book(limits, Caps(limit=65536, in_use=0, reserved=64, connections=4096, pending=1024))
    network = ipaddress.IPv6Network("2001:db8:7:1::/64")
    admitted = []
    for i in range(500):
        key = address_key(str(network[1 + i * 7_919_000_003]))
        if book.full() is None and book.crowded(key) is None:
            admitted.append(book.opened(key, fd=1000 + i))
    assert len(admitted) == limits.pending_per_address
    assert book.pending == {"2001:db8:7:1::/64": limits.pending_per_address}
    assert book.crowded(address_key("2001:db8:7:2::1")) is None, "the next /64 is another address"
    # authenticated connections stop counting as waiting; closed ones stop counting at all
    book.authenticated(admitted[0])
    assert book.crowded(address_key(str(network[12345]))) is None
    for slot in admitted:
        slot.release()
    assert (book.open, book.pending, book.total, book.total_pending, book.slots) == ({}, {}, 0, 0, {})
    # failures from anywhere in the /64 ban all of it, and nothing else
    for i in range(limits.failures_per_address):
        book.failed(address_key(str(network[99 + i * 1_000_003])))
    assert book.banned(address_key(str(network[-1])))
    assert not book.banned(address_key("2001:db8:7:2::1"))
    # an IPv4 peer of a dual-stack socket is its IPv4 address; a scope does not make another address
    assert address_key("::ffff:127.0.0.5") == address_key("127.0.0.5") == "127.0.0.5"
    assert address_key("fe80::1%lo") == address_key("fe80::2") == "fe80::/64"


def test_silent_connections_over_ipv6_loopback_are_counted_by_their_64_as_they_are_accepted() -> None:
    """The same, through a real listener on ::1: silent connections (no HTTP request) are
    counted from their accept, under the /64 of ::1; one over the address's limit is reset."""
    try:
        with socket.create_server(("::1", 0), family=socket.AF_INET6):
            pass
    except OSError:
        pytest.skip("no IPv6 loopback here")
    listener = Listener(Address("::1", 0), TOKENS, {"alice": 1}, reconnect_time=1.0, limits=Limits(auth_time=WAIT))
    listener.bind()
    listener.start()
    silent: list[socket.socket] = []
    book = listener._book
    assert book is not None and listener._tcp is not None
    try:
        for _ in range(Limits().pending_per_address):
            silent.append(socket.create_connection(("::1", listener.port), timeout=WAIT))
        wait_for(lambda: book.pending == {"::/64": Limits().pending_per_address}, "the silent ones counted", WAIT)
        try:
            ninth = socket.create_connection(("::1", listener.port), timeout=WAIT)
        except ConnectionResetError:
            pass  # reset before the connect call returned
        else:
            silent.append(ninth)
            try:
                said = ninth.recv(1)
            except ConnectionResetError:
                said = b""
            assert said == b"", "the ninth connection is closed without a word"
        wait_for(lambda: listener._tcp is not None and listener._tcp.refused == 1, "the ninth connection reset", WAIT)
        assert book.pending == {"::/64": Limits().pending_per_address} and book.total == len(book.slots) == 8
        for sock in silent:
            sock.close()
        wait_for(lambda: book.total == 0 and not book.slots, "the closes counted", WAIT)
        assert attempt_welcome(f"ws://[::1]:{listener.port}/", "alice").startswith("welcome ")
    finally:
        for sock in silent:
            sock.close()
        listener.close(drain=0.5)


STARVED_LISTENER = '''\
"""A listener whose process uses up every descriptor it has left when told "hog" (one line a
command on stdin, one line an answer on stdout)."""
import logging, os, sys, time
from cardcli.remote.hub import Address, Limits, Listener
logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
listener = Listener(Address("127.0.0.1", 0), {"alice": sys.argv[1]}, {"alice": 1}, limits=Limits(auth_time=30))
listener.bind()
listener.start()
print(listener.port, flush=True)
hog, seen = [], None
for command in sys.stdin:
    command = command.strip()
    if command == "hog":
        while True:
            try:
                hog.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                break
    elif command == "free":
        for fd in hog:
            os.close(fd)
        hog.clear()
    elif command == "failed":
        deadline = time.monotonic() + 15
        while listener._tcp.failed_at in (None, seen) and time.monotonic() < deadline:
            time.sleep(0.01)
        seen = listener._tcp.failed_at
        command = "failed" if seen is not None else "never failed"
    elif command == "close":
        listener.close(drain=0.1)
    print(command, flush=True)
'''


def test_an_accept_that_fails_for_want_of_descriptors_is_retried_and_the_listener_closes_cleanly(
        tmp_path: Path) -> None:
    """The accept of a listener that has no descriptor left fails (EMFILE). asyncio used to
    retry the failing accept a hundred times a turn, log each one as an error, and arm a retry
    for each; the retries outlived the listening socket and failed on it (``Invalid file
    descriptor: -1``). Now: one warning a failure, the listener serves again as soon as
    descriptors are free, and it closes without an error even right after a failure."""
    script = tmp_path / "starved.py"
    script.write_text(STARVED_LISTENER)
    proc = subprocess.Popen([sys.executable, str(script), TOKENS["alice"]], cwd=ROOT, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdin is not None and proc.stdout is not None

    def tell(command: str) -> str:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        return proc.stdout.readline().strip()

    waiting: list[socket.socket] = []
    try:
        port = int(proc.stdout.readline())
        url = f"ws://127.0.0.1:{port}/"
        assert tell("hog") == "hog"
        waiting.append(socket.create_connection(("127.0.0.1", port), timeout=WAIT))  # queued by the kernel
        assert tell("failed") == "failed"
        assert tell("free") == "free"
        assert attempt_welcome(url, "alice").startswith("welcome "), "it serves again"
        assert tell("hog") == "hog"
        waiting.append(socket.create_connection(("127.0.0.1", port), timeout=WAIT))
        assert tell("failed") == "failed"
        assert tell("close") == "close"  # within asyncio's retry delay of the failure
        proc.stdin.close()
        assert proc.wait(WAIT) == 0
        err = proc.stderr.read() if proc.stderr is not None else ""
    finally:
        for sock in waiting:
            sock.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    warnings = [line for line in err.splitlines() if "cannot accept a connection now (Too many open files)" in line]
    assert 2 <= len(warnings) <= 6, err[-3000:]
    assert all(line.startswith("WARNING ") for line in err.splitlines()), err[-3000:]
