"""``cardcli connect``: the relay plays real bot processes against a fake referee, a small
WebSocket server on 127.0.0.1 scripted by each test, which checks every frame the relay sends
(numbers included) and drops connections on purpose."""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import os
import re
import signal
import socket
import ssl
import sys
from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable, TypeVar

import pytest
from websockets.asyncio.server import ServerConnection, serve

from cardcli.errors import UsageError
from cardcli.remote import wire
from cardcli.remote.relay import Backoff, Timing, exit_detail, run_relay

from conftest import ROOT, alive

TOKEN = "Zm9vYmFyYmF6cXV4cXV1eA"
SESSION = "k2Xq9pLm3vN8wR4tYb7c"
FAST = Timing(backoff=Backoff(0.01, 0.05))
"""Backoff in hundredths of a second: a reconnection costs the tests nothing."""
WAIT = 10.0
"""Seconds any single expected frame may take (generous: a loaded machine starts Python slowly)."""

BOT = """\
import os, sys
mode, marker = sys.argv[1], sys.argv[2]
with open(marker, "a") as f:
    f.write(f"{os.getpid()}\\n")
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "cardcli":
        print("id name t", flush=True)
        print("ready", flush=True)
    elif w[0] == "go":
        if mode == "crash":
            print("SECRET-STDERR", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "long":
            print("x" * 10000, flush=True)
            continue
        if mode == "cr":
            print("move", w[3] + "\\rmore", flush=True)
            continue
        print("move", w[3], flush=True)
    elif w[0] == "quit":
        break
"""


def bot(tmp_path: Path, mode: str = "play") -> tuple[list[str], Path]:
    """The command of the test bot and the file where each of its processes writes its pid."""
    script = tmp_path / "bot.py"
    script.write_text(BOT)
    marker = tmp_path / f"pids-{mode}"
    return [sys.executable, str(script), mode, str(marker)], marker


def pids(marker: Path) -> list[int]:
    return [int(p) for p in marker.read_text().split()] if marker.exists() else []


class Peer:
    """The referee's end of one connection: frames read with a timeout, ``ack`` frames kept
    aside in :attr:`acks` (their place in the stream is checked where it matters)."""

    def __init__(self, ws: ServerConnection):
        self.ws = ws
        self.acks: list[int] = []

    async def recv(self) -> str:
        raw = await asyncio.wait_for(self.ws.recv(), WAIT)
        assert isinstance(raw, str), raw
        return raw

    async def auth(self) -> wire.Auth:
        return wire.parse_auth(await self.recv())

    async def frame(self) -> wire.Frame:
        """The next frame other than an ``ack``."""
        while True:
            frame = wire.parse(await self.recv())
            if frame.kind != "ack":
                return frame
            self.acks.append(frame.seq)

    async def line(self) -> tuple[int, str]:
        frame = await self.frame()
        assert frame.kind == "line", frame
        return frame.seq, frame.text

    async def send(self, *frames: str) -> None:
        for frame in frames:
            await self.ws.send(frame)

    async def handshake(self) -> None:
        """The opening every session has: the hello and the bot's id and ready."""
        await self.send("1 cardcli 1")
        assert await self.line() == (1, "id name t")
        assert await self.line() == (2, "ready")


Handler = Callable[[Peer, int], Awaitable[None]]
T = TypeVar("T")


class Referee:
    """A fake referee running ``handler(peer, n)`` for its ``n``-th connection (from 1). A
    failed check inside a handler fails the test at once (it would otherwise only end that
    connection, and leave the relay waiting)."""

    def __init__(self, handler: Handler):
        self.handler = handler
        self.url = ""
        self.errors: list[BaseException] = []
        self.failed = asyncio.Event()
        self._count = itertools.count(1)

    async def handle(self, ws: ServerConnection) -> None:
        try:
            await self.handler(Peer(ws), next(self._count))
        except (AssertionError, TimeoutError, wire.WireError) as err:
            self.errors.append(err)
            self.failed.set()
            raise

    async def until(self, work: Awaitable[T]) -> T:
        """``work``'s result, unless a handler fails first (then its error)."""
        task = asyncio.ensure_future(work)
        failed = asyncio.ensure_future(self.failed.wait())
        await asyncio.wait({task, failed}, timeout=25, return_when=asyncio.FIRST_COMPLETED)
        failed.cancel()
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            raise self.errors[0] if self.errors else TimeoutError("the relay did not finish")
        return task.result()


@contextlib.asynccontextmanager
async def referee(handler: Handler, tls: ssl.SSLContext | None = None) -> AsyncIterator[Referee]:
    fake = Referee(handler)
    async with serve(fake.handle, "127.0.0.1", 0, compression=None, ssl=tls) as server:
        port = server.sockets[0].getsockname()[1]
        fake.url = f"{'wss' if tls else 'ws'}://{'localhost' if tls else '127.0.0.1'}:{port}"
        yield fake
    if fake.errors:
        raise fake.errors[0]


def play(handler: Handler, argv: list[str], **options: object) -> tuple[int, str]:
    """Run the relay in this process against ``handler``: its status and its stderr."""
    err = io.StringIO()

    async def main() -> int:
        async with referee(handler, options.pop("tls", None)) as fake:  # type: ignore[arg-type]
            return await fake.until(
                run_relay(fake.url, "alice", TOKEN, argv, timing=FAST, stderr=err, **options))  # type: ignore[arg-type]

    status = asyncio.run(main())
    return status, err.getvalue()


def test_a_whole_session_starts_the_bot_at_the_first_line_and_ends_it_after_quit(tmp_path: Path) -> None:
    argv, marker = bot(tmp_path)
    idle: list[bool] = []

    async def handler(peer: Peer, n: int) -> None:
        auth = await peer.auth()
        assert (auth.name, auth.token, auth.session) == ("alice", TOKEN, None)
        await peer.send(wire.welcome(SESSION, 0))
        await asyncio.sleep(0.3)  # an idle connection: nothing to wait for, hence the sleep
        idle.append(marker.exists())
        await peer.handshake()
        assert peer.acks == [], "an ack every 32 lines, not before every line"
        await peer.send(*(f"{seq} player 0 someone" for seq in range(2, 41)))
        await peer.send("41 go play 1000 2C 3D")
        assert await peer.line() == (3, "move 2C")
        assert peer.acks == [wire.ACK_EVERY], "every 32 lines"
        await peer.send("ack 3", "42 quit", "end quit")

    status, err = play(handler, argv, once=True, verbose=True)
    assert status == 0, err
    assert idle == [False], "no bot process before the session's first line"
    [pid] = pids(marker)
    assert not alive(pid)
    assert "alice#1 << cardcli 1" in err and "alice#1 >> move 2C" in err and "alice#1 << quit" in err


def test_a_dropped_connection_is_resumed_with_nothing_lost_or_repeated(tmp_path: Path) -> None:
    argv, marker = bot(tmp_path)
    sent = {1: "cardcli 1", 2: "go play 1000 AA BB"}

    async def handler(peer: Peer, n: int) -> None:
        auth = await peer.auth()
        if n == 1:
            assert auth.session is None
            await peer.send(wire.welcome(SESSION, 0))
            await peer.handshake()
            await peer.send(f"2 {sent[2]}")
            peer.ws.transport.abort()  # the network fails: no close frame, no end
            return
        assert (auth.name, auth.session) == ("alice", SESSION)
        assert auth.received in (1, 2), auth  # line 2 may die with the connection
        await peer.send(wire.welcome(SESSION, 1))  # as if the bot's "2 ready" had been lost
        for seq in range(auth.received, 3):  # one more than needed: the relay must drop it
            await peer.send(f"{seq} {sent[seq]}")
        assert [await peer.line(), await peer.line()] == [(2, "ready"), (3, "move AA")]
        await peer.send("3 go play 1000 CC DD")
        assert await peer.line() == (4, "move CC"), "a line given to the bot twice is answered twice"
        await peer.send("4 quit", "end quit")

    status, err = play(handler, argv, once=True)
    assert status == 0, err
    assert len(pids(marker)) == 1, "the same bot process plays on after the reconnection"
    assert "connection lost" in err and "reconnected: session resumed" in err


def test_a_session_the_referee_no_longer_holds_ends_its_bot_and_the_next_starts_afresh(tmp_path: Path) -> None:
    argv, marker = bot(tmp_path)

    async def handler(peer: Peer, n: int) -> None:
        auth = await peer.auth()
        if n == 1:
            await peer.send(wire.welcome(SESSION, 0))
            await peer.handshake()
            peer.ws.transport.abort()
        elif n == 2:
            assert auth.session == SESSION and auth.received == 1
            await peer.send(wire.refused("session", "the reconnect window has passed"))
            await peer.ws.close(wire.CLOSE_POLICY, "refused session")
        else:
            assert auth.session is None, "a fresh session, not the lost one"
            await peer.send(wire.welcome("freshfreshfreshfresh", 0), "end over")

    status, err = play(handler, argv)
    assert status == 0, err
    [pid] = pids(marker)
    assert not alive(pid)
    assert "alice#1: session 1 is lost (the referee no longer holds it); its bot is ended; no match finished" in err


def fault_after_go(argv: list[str]) -> tuple[int, str, list[wire.Frame]]:
    """One session in which the bot is asked one move and sends a ``fault`` frame instead:
    the relay's status, its stderr, and the frames the referee got in answer to ``go``."""
    faults: list[wire.Frame] = []

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        await peer.send(wire.welcome(SESSION, 0))
        await peer.handshake()
        await peer.send("2 go play 1000 AA")
        faults.append(await peer.frame())
        await peer.send("end fault")

    status, err = play(handler, argv, once=True)
    return status, err, faults


def test_a_bot_that_exits_mid_session_is_reported_as_a_crash_without_its_stderr(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    argv, marker = bot(tmp_path, "crash")
    status, err, faults = fault_after_go(argv)
    assert status == 1, err
    assert faults == [wire.Frame("fault", word="crash", text="exited with status 3")]
    assert "exited with status 3" in err
    assert "SECRET-STDERR" in capfd.readouterr().err, "the author sees the bot's stderr locally"


@pytest.mark.parametrize("mode, detail", [("long", "line longer than 8192 bytes")])
def test_a_line_that_cannot_travel_is_reported_as_malformed_and_the_bot_ended(
        tmp_path: Path, mode: str, detail: str) -> None:
    argv, marker = bot(tmp_path, mode)
    status, err, faults = fault_after_go(argv)
    assert status == 1, err
    [fault] = faults
    assert (fault.kind, fault.word) == ("fault", "malformed")
    assert fault.text.startswith(detail), fault
    [pid] = pids(marker)
    assert not alive(pid)


@pytest.mark.parametrize("frame", [b"binary", "hello there", "ack 99", "5 a line out of order"])
def test_a_referee_that_breaks_the_protocol_ends_the_session(tmp_path: Path, frame: str | bytes) -> None:
    argv, marker = bot(tmp_path)

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        await peer.send(wire.welcome(SESSION, 0))
        await peer.handshake()
        await peer.ws.send(frame)
        await peer.ws.wait_closed()
        closes.append(peer.ws.close_code)

    closes: list[int | None] = []

    status, err = play(handler, argv, once=True)
    assert status == 1, err
    said = [line for line in err.splitlines() if "the referee broke the protocol" in line]
    assert len(said) == 1 and said == err.splitlines()[-1:], err
    assert said[0].startswith("cardcli connect: alice#1: session 1 ended: the referee broke the protocol (")
    assert closes == [1002]
    [pid] = pids(marker)
    assert not alive(pid)


def test_two_slots_play_two_sessions_at_once_until_the_referee_is_over(tmp_path: Path) -> None:
    argv, marker = bot(tmp_path)
    both = asyncio.Event()
    welcomed: list[int] = []

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        await peer.send(wire.welcome(f"session-number-{n:04d}", 0))
        welcomed.append(n)
        if len(welcomed) == 2:
            both.set()
        await asyncio.wait_for(both.wait(), WAIT)  # both connections open at once
        await peer.handshake()
        await peer.send("2 quit", "end over")

    status, err = play(handler, argv, concurrency=2)
    assert status == 0, err
    assert sorted(welcomed) == [1, 2]
    found = pids(marker)
    assert len(set(found)) == 2 and not any(alive(p) for p in found)


def test_busy_and_taken_are_tried_again(tmp_path: Path) -> None:
    argv, marker = bot(tmp_path)

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        if n <= 2:
            word = ("taken", "busy")[n - 1]
            await peer.send(wire.refused(word, f"{word} for now"))
            await peer.ws.close(wire.CLOSE_POLICY, word)
        else:
            await peer.send(wire.welcome(SESSION, 0), "end over")

    status, err = play(handler, argv)
    assert status == 0 and "refused" not in err, "a refusal that passes at once is not worth a line"
    assert re.fullmatch(r"cardcli connect: connected to ws://127\.0\.0\.1:\d+ as alice\n", err), err
    assert not marker.exists()


def test_a_referee_not_up_is_waited_for_then_given_up(tmp_path: Path) -> None:
    argv, _ = bot(tmp_path)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    err = io.StringIO()
    status = asyncio.run(run_relay(f"ws://127.0.0.1:{port}", "alice", TOKEN, argv, retry_time=0.3,
                                   timing=FAST, stderr=err))
    assert status == 1
    assert err.getvalue().splitlines()[-1].startswith("cardcli connect: cannot reach the referee")


@pytest.mark.parametrize("url, name, token, message", [
    ("http://127.0.0.1:1", "alice", TOKEN, "ws:// or wss://"),
    ("ws://127.0.0.1:1", "al ice", TOKEN, "--name"),
    ("ws://127.0.0.1:1", "alice", "short", "--token"),
])
def test_what_cannot_work_is_refused_before_connecting(url: str, name: str, token: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        asyncio.run(run_relay(url, name, token, ["true"]))


def test_wss_with_the_organisers_certificate(tmp_path: Path) -> None:
    trustme = pytest.importorskip("trustme")
    authority = trustme.CA()
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost").configure_cert(server_tls)
    pem = tmp_path / "organiser.pem"
    authority.cert_pem.write_to_path(str(pem))
    argv, _ = bot(tmp_path)

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        await peer.send(wire.welcome(SESSION, 0))
        await peer.handshake()
        await peer.send("2 quit", "end quit")

    status, err = play(handler, argv, once=True, cafile=str(pem), tls=server_tls)
    assert status == 0, err

    async def unused(peer: Peer, n: int) -> None:
        await peer.ws.wait_closed()

    status, err = play(unused, argv, once=True, tls=server_tls)  # the system's trust store
    assert status == 2
    assert "certificate is not trusted" in err and "--cafile" in err


def test_exit_details() -> None:
    assert exit_detail(3) == "exited with status 3"
    assert exit_detail(-9) == "killed by signal SIGKILL"


# -- the command line ---------------------------------------------------------------------------


async def cli(url: str, argv: list[str], *options: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardcli", "connect", url, "--name", "alice", "--token", TOKEN, *options,
        "--", *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


def run_cli(handler: Handler, argv: list[str], *options: str,
            during: Callable[[asyncio.subprocess.Process], Awaitable[None]] | None = None) -> tuple[int, str]:
    """``cardcli connect`` as a user runs it, against ``handler``: its status and its stderr."""

    async def main() -> tuple[int, str]:
        async with referee(handler) as fake:
            relay = await cli(fake.url, argv, *options)
            try:
                if during is not None:
                    await fake.until(during(relay))
                _, err = await fake.until(relay.communicate())
            finally:
                if relay.returncode is None:
                    relay.kill()
                    await relay.wait()
            assert relay.returncode is not None
            return relay.returncode, err.decode()

    return asyncio.run(main())


def sessions_with_results() -> Handler:
    """A referee that plays two sessions of one match each with the bot in seat 2 (a win,
    then a loss), then says it is over."""

    async def handler(peer: Peer, n: int) -> None:
        auth = await peer.auth()
        assert auth.session is None
        await peer.send(wire.welcome(f"session-number-{n:04d}", 0))
        if n <= 2:
            await peer.handshake()
            await peer.send("2 game peppa torino 4 2", "3 go play 1000 QS")
            assert await peer.line() == (3, "move QS")
            standing = "win" if n == 1 else "lose"
            await peer.send(f"4 result lose lose {standing} lose", "5 quit", "end quit")
        else:
            await peer.send("end over")

    return handler


def test_cli_plays_session_after_session_until_the_referee_is_over_and_says_so(tmp_path: Path) -> None:
    argv, marker = bot(tmp_path)
    status, err = run_cli(sessions_with_results(), argv)
    assert status == 0, err
    found = pids(marker)
    assert len(set(found)) == 2, "a new bot process for each session"
    assert not any(alive(p) for p in found)
    expected = [
        r"cardcli connect: connected to ws://127\.0\.0\.1:\d+ as alice",
        rf"cardcli connect: alice#1: session 1 started \(bot process {found[0]}\)",
        r"cardcli connect: alice#1: session 1 ended after 'quit'; 1 match \(1 won\)",
        rf"cardcli connect: alice#1: session 2 started \(bot process {found[1]}\)",
        r"cardcli connect: alice#1: session 2 ended after 'quit'; 1 match \(1 lost\)",
    ]
    lines = err.splitlines()
    assert len(lines) == len(expected) and all(re.fullmatch(e, line) for e, line in zip(expected, lines)), err


def test_cli_quiet_says_nothing_and_verbose_every_line_too(tmp_path: Path) -> None:
    argv, _ = bot(tmp_path)
    assert run_cli(sessions_with_results(), argv, "-q") == (0, "")
    status, err = run_cli(sessions_with_results(), argv, "-v")
    assert status == 0, err
    assert "alice#1 << result lose lose win lose" in err and "alice#1 >> move QS" in err
    assert "session 2 ended after 'quit'; 1 match (1 lost)" in err
    status, err = run_cli(sessions_with_results(), argv, "-q", "-v")
    assert status == 2 and "give one of them" in err and err.count("\n") == 1, err


def test_a_session_counts_its_matches_by_result(tmp_path: Path) -> None:
    argv, _ = bot(tmp_path)

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        await peer.send(wire.welcome(SESSION, 0))
        await peer.handshake()
        lines = ["game seep standard 2 0", "result win lose", "game seep standard 2 1", "result draw draw",
                 "game seep standard 2 0", "result win lose", "quit"]
        await peer.send(*(f"{seq} {line}" for seq, line in enumerate(lines, start=2)), "end over")

    status, err = play(handler, argv)
    assert status == 0, err
    assert err.splitlines()[-1] == "cardcli connect: alice#1: session 1 ended: the referee has no more matches; " \
                                   "3 matches (2 won, 1 drawn)", err


def test_cli_refused_token_exits_2_with_one_line(tmp_path: Path) -> None:
    argv, marker = bot(tmp_path)

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        await peer.send(wire.refused("auth", "wrong name or token"))
        await peer.ws.close(wire.CLOSE_POLICY, "refused auth: wrong name or token")

    status, err = run_cli(handler, argv)
    assert (status, err) == (2, "cardcli connect: refused: wrong name or token\n")
    assert not marker.exists()


@pytest.mark.parametrize("signum, status, message", [(signal.SIGTERM, 143, "terminated"),
                                                     (signal.SIGINT, 130, "interrupted")])
def test_cli_a_signal_ends_the_bot_and_the_relay(tmp_path: Path, signum: int, status: int, message: str) -> None:
    argv, marker = bot(tmp_path)
    playing = asyncio.Event()

    async def handler(peer: Peer, n: int) -> None:
        await peer.auth()
        await peer.send(wire.welcome(SESSION, 0))
        await peer.handshake()
        playing.set()
        await peer.ws.wait_closed()
        closes.append(peer.ws.close_code)

    async def terminate(relay: asyncio.subprocess.Process) -> None:
        await asyncio.wait_for(playing.wait(), WAIT)
        relay.send_signal(signum)

    closes: list[int | None] = []
    code, err = run_cli(handler, argv, during=terminate)
    lines = err.splitlines()
    assert code == status and len(lines) == 3, err
    assert re.fullmatch(r"cardcli connect: connected to ws://127\.0\.0\.1:\d+ as alice", lines[0]), err
    assert re.fullmatch(r"cardcli connect: alice#1: session 1 started \(bot process \d+\)", lines[1]), err
    assert lines[2] == f"cardcli: error: {message}", "no end line: the session was interrupted, not ended"
    assert closes == [1001], "the relay says it is going away"
    [pid] = pids(marker)
    assert not alive(pid)
