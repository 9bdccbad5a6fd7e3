"""Bots that play from another machine, end to end: a referee that listens (``play`` and
``tournament --listen``), ``cardcli connect`` relaying an unchanged bot, and a TCP proxy between
them that the tests cut, as a network would. Loopback addresses only."""

from __future__ import annotations

import json
import queue
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import PYTHON_BOT, ROOT, read_records, run_cli

BOT = PYTHON_BOT.split()


class Proxy:
    """A TCP proxy on 127.0.0.1 that a test can cut: :meth:`cut` resets every connection it
    carries; while :attr:`refusing`, it closes new connections at once (a network that stays
    down)."""

    def __init__(self, upstream: int):
        self.upstream = upstream
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.refusing = False
        self.accepted = 0
        self.to_client = 0
        """Bytes carried from the referee to the relay so far."""
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.accepted += 1
            if self.refusing:
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                _reset(client)
                continue
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, downstream: bool) -> None:
        try:
            while data := source.recv(65536):
                if downstream:
                    self.to_client += len(data)
                target.sendall(data)
        except OSError:
            pass
        for s in (source, target):
            _reset(s)

    def cut(self) -> None:
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for client, upstream in pairs:
            _reset(client)
            _reset(upstream)

    def close(self) -> None:
        self.server.close()
        self.cut()


def _reset(sock: socket.socket) -> None:
    """Drop a connection at once. The shutdown is what wakes the pump blocked in ``recv`` on
    it: a close alone would leave the socket open until that ``recv`` returned."""
    for step in (lambda: sock.shutdown(socket.SHUT_RDWR), sock.close):
        try:
            step()
        except OSError:
            pass


class Referee:
    """``cardcli play|tournament ... --listen 127.0.0.1:0`` in a subprocess, its port read from
    the line it prints."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "cardcli", *args], cwd=ROOT, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.err: queue.Queue[str] = queue.Queue()
        self.err_lines: list[str] = []
        threading.Thread(target=self._read_err, daemon=True).start()
        self.port = self._port()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.put(line)

    def _port(self) -> int:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                line = self.err.get(timeout=1)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            self.err_lines.append(line)
            if "listening on ws" in line:
                return int(line.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
        raise AssertionError(f"the referee did not listen: {self.err_lines}")

    def finish(self, timeout: float = 120) -> tuple[int, str, str]:
        out, _ = self.proc.communicate(timeout=timeout)
        while not self.err.empty():
            self.err_lines.append(self.err.get())
        return self.proc.returncode, out, "".join(self.err_lines)


def connect(port: int, name: str, token: str, *extra: str, bot: list[str] = BOT) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cardcli", "connect", f"ws://127.0.0.1:{port}/", "--name", name,
                             "--token", token, *extra, "--", *bot],
                            cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.fixture
def tokens(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    proc = run_cli("tokens", "new", "alice", "bob", check=True)
    pairs = dict(line.split() for line in proc.stdout.splitlines())
    path = tmp_path / "tokens.txt"
    path.write_text(proc.stdout)
    return path, pairs


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record with what differs between a local and a remote run taken out: timings, and how
    each seat was reached."""
    data = json.loads(json.dumps(record))
    for key in ("started", "finished"):
        data.pop(key, None)
    for deal in data["deals"]:
        for move in deal["moves"]:
            move.pop("ms", None)
    for seat in data["seats"]:
        for key in ("spec", "kind", "command", "sandbox", "network"):
            seat.pop(key, None)
    return data


def test_a_remote_bot_through_connect_plays_the_match_a_local_bot_plays(tmp_path: Path, tokens: Any) -> None:
    path, pairs = tokens
    local = tmp_path / "local.jsonl"
    run_cli("play", "peppa", "--seed", "11", "--seat", PYTHON_BOT, "--seat", "random", "--seat", PYTHON_BOT,
            "--seat", "random", "--record", str(local), check=True)
    remote = tmp_path / "remote.jsonl"
    referee = Referee("play", "peppa", "--seed", "11", "--listen", "127.0.0.1:0", "--tokens", str(path),
                      "--seat", "remote:alice", "--seat", "random", "--seat", "remote:bob", "--seat", "random",
                      "--record", str(remote))
    relays = [connect(referee.port, "alice", pairs["alice"]), connect(referee.port, "bob", pairs["bob"])]
    code, out, err = referee.finish()
    assert code == 0, err
    for relay in relays:
        assert relay.wait(30) == 0, relay.communicate()[1]
    (mine,), (theirs,) = read_records(local), read_records(remote)
    assert comparable(theirs) == comparable(mine)
    for seat in (0, 2):
        entry = theirs["seats"][seat]
        assert entry["kind"] == "remote"
        assert entry["network"]["remote"] == ("alice", "bob")[seat // 2]
        assert entry["network"]["rtt_ms"] is not None and entry["network"]["rtt_ms"] >= 0
        assert entry["network"]["reconnects"] == 0
    assert not theirs["faults"]


def test_a_cut_connection_comes_back_and_the_match_completes_unchanged(tmp_path: Path, tokens: Any) -> None:
    path, pairs = tokens
    local = tmp_path / "local.jsonl"
    run_cli("play", "seep", "--seed", "5", "--seat", PYTHON_BOT, "--seat", "random", "--seat", "random",
            "--seat", "random", "--record", str(local), check=True)
    remote = tmp_path / "remote.jsonl"
    referee = Referee("play", "seep", "--seed", "5", "--listen", "127.0.0.1:0", "--tokens", str(path),
                      "--seat", "remote:alice", "--seat", "random", "--seat", "random", "--seat", "random",
                      "--record", str(remote), "--reconnect-time", "30")
    proxy = Proxy(referee.port)
    try:
        relay = connect(proxy.port, "alice", pairs["alice"])
        cuts = 0
        for threshold in (3000, 9000):
            while proxy.to_client < threshold and referee.proc.poll() is None:
                time.sleep(0.005)
            if referee.proc.poll() is not None:
                break
            proxy.cut()
            cuts += 1
        code, out, err = referee.finish()
    finally:
        proxy.close()
    assert code == 0, err
    assert cuts == 2, "the match ended before the connection could be cut twice"
    relay.wait(30)
    (mine,), (theirs,) = read_records(local), read_records(remote)
    assert not theirs["faults"], theirs["faults"]
    assert comparable(theirs) == comparable(mine)
    assert theirs["seats"][0]["network"]["reconnects"] == cuts


def test_a_connection_down_past_the_window_is_a_disconnect_and_the_match_goes_on(tmp_path: Path,
                                                                               tokens: Any) -> None:
    path, pairs = tokens
    remote = tmp_path / "remote.jsonl"
    referee = Referee("play", "peppa", "--seed", "3", "--listen", "127.0.0.1:0", "--tokens", str(path),
                      "--seat", "remote:alice", "--seat", "random", "--seat", "random", "--seat", "random",
                      "--record", str(remote), "--reconnect-time", "1", "--move-time", "30")
    proxy = Proxy(referee.port)
    try:
        relay = connect(proxy.port, "alice", pairs["alice"])
        while proxy.to_client < 2000 and referee.proc.poll() is None:
            time.sleep(0.005)
        proxy.refusing = True
        proxy.cut()
        code, out, err = referee.finish()
    finally:
        proxy.close()
        relay.kill()
        relay.wait(10)
    assert code == 0, err
    (record,) = read_records(remote)
    assert record["status"] == "complete"
    (fault,) = record["faults"]
    assert fault["seat"] == 0 and fault["kind"] == "disconnect"
    assert "did not come back within 1 s" in fault["detail"]
    assert 0 in record["result"]["forfeits"]


def test_a_tournament_with_remote_entrants_and_concurrent_sessions(tmp_path: Path, tokens: Any) -> None:
    path, pairs = tokens
    referee = Referee("tournament", "peppa", "--bot", "alice=remote:alice", "--bot", f"carol={PYTHON_BOT}",
                      "--bot", "dave=random", "--bot", "erin=random", "--deal-sets", "2", "--seed", "4", "-j", "2",
                      "--dir", str(tmp_path / "t"), "--listen", "127.0.0.1:0", "--tokens", str(path), "--json")
    relay = connect(referee.port, "alice", pairs["alice"], "--concurrency", "2")
    code, out, err = referee.finish(timeout=180)
    assert code == 0, err
    assert relay.wait(30) == 0, relay.communicate()[1]
    table = json.loads(out)
    assert table["matches"] == 8
    records = read_records(tmp_path / "t" / "records.jsonl")
    assert len(records) == 8
    assert not [f for r in records for f in r["faults"]]
    alice = [seat for r in records for seat in r["seats"] if seat.get("kind") == "remote"]
    assert len(alice) == 8 and all(seat["network"]["remote"] == "alice" for seat in alice)
    local = tmp_path / "local"
    run_cli("tournament", "peppa", "--bot", f"alice={PYTHON_BOT}", "--bot", f"carol={PYTHON_BOT}",
            "--bot", "dave=random", "--bot", "erin=random", "--deal-sets", "2", "--seed", "4", "-j", "2",
            "--dir", str(local), "--json", check=True)
    by_index = {r["tournament"]["index"]: comparable(r) for r in read_records(local / "records.jsonl")}
    assert {r["tournament"]["index"]: comparable(r) for r in records} == by_index


def test_a_remote_seat_needs_a_listener_and_a_token(tmp_path: Path, tokens: Any) -> None:
    path, _ = tokens
    proc = run_cli("play", "peppa", "--seat", "remote:alice", "--seat", "random", "--seat", "random",
                   "--seat", "random")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "--listen" in proc.stderr
    proc = run_cli("play", "peppa", "--listen", "127.0.0.1:0", "--tokens", str(path), "--seat", "remote:carol",
                   "--seat", "random", "--seat", "random", "--seat", "random")
    assert proc.returncode == 2 and "remote:carol has no token" in proc.stderr
    proc = run_cli("play", "peppa", "--listen", "127.0.0.1:0", "--tokens", str(path))
    assert proc.returncode == 2 and "no remote:NAME seat" in proc.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("alice short\n")
    proc = run_cli("play", "peppa", "--listen", "127.0.0.1:0", "--tokens", str(bad), "--seat", "remote:alice",
                   "--seat", "random", "--seat", "random", "--seat", "random")
    assert proc.returncode == 2 and f"{bad}:1" in proc.stderr


def test_a_port_in_use_is_a_one_line_error(tokens: Any) -> None:
    path, _ = tokens
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        proc = run_cli("play", "peppa", "--listen", f"127.0.0.1:{port}", "--tokens", str(path),
                       "--seat", "remote:alice", "--seat", "random", "--seat", "random", "--seat", "random")
    assert proc.returncode == 2
    assert proc.stderr.startswith("cardcli: error: --listen 127.0.0.1:") and proc.stderr.count("\n") == 1


def test_tokens_new_makes_distinct_strong_tokens() -> None:
    proc = run_cli("tokens", "new", "alice", "bob", "carol", check=True)
    lines = [line.split() for line in proc.stdout.splitlines()]
    assert [name for name, _ in lines] == ["alice", "bob", "carol"]
    tokens = [token for _, token in lines]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)
    assert run_cli("tokens", "new", "alice", "alice").returncode == 2
    assert run_cli("tokens", "new", "../evil").returncode == 2


def test_the_network_grace_is_added_to_the_move_time_and_recorded(tmp_path: Path, tokens: Any) -> None:
    """A bot 0.6 s late on a 0.5 s move time: no fault with 400 ms of grace, and the record
    says so; without the grace the same answer is a timeout."""
    path, pairs = tokens
    slow = [sys.executable, str(ROOT / "tests/bots/faulty_bot.py"), "--slow-at", "2", "--delay", "0.6"]
    for grace, faults in (("400", []), ("0", ["timeout"])):
        record_file = tmp_path / f"grace{grace}.jsonl"
        referee = Referee("play", "peppa", "--seed", "8", "--listen", "127.0.0.1:0", "--tokens", str(path),
                          "--seat", "remote:alice", "--seat", "random", "--seat", "random", "--seat", "random",
                          "--move-time", "0.5", "--network-grace", grace, "--record", str(record_file),
                          "--max-deals", "2")
        relay = connect(referee.port, "alice", pairs["alice"], bot=slow)
        code, out, err = referee.finish()
        relay.wait(30)
        assert code == 0, err
        (record,) = read_records(record_file)
        assert [f["kind"] for f in record["faults"]] == faults
        assert record["seats"][0]["network"]["grace_ms"] == int(grace)
        if not faults:
            late = [m["ms"] for d in record["deals"] for m in d["moves"] if m["seat"] == 0 and m["ms"] > 500]
            assert late, "the slow answer was taken within the grace"


def test_wss_with_a_certificate_of_the_organisers_own(tmp_path: Path, tokens: Any) -> None:
    trustme = pytest.importorskip("trustme")
    path, pairs = tokens
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    chain, key, authority = tmp_path / "chain.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    cert.private_key_pem.write_to_path(str(key))
    chain.write_bytes(b"".join(blob.bytes() for blob in cert.cert_chain_pems))
    ca.cert_pem.write_to_path(str(authority))
    record_file = tmp_path / "tls.jsonl"
    referee = Referee("play", "peppa", "--seed", "2", "--listen", "127.0.0.1:0", "--tokens", str(path),
                      "--cert", str(chain), "--key", str(key), "--seat", "remote:alice", "--seat", "random",
                      "--seat", "random", "--seat", "random", "--record", str(record_file), "--max-deals", "2")
    assert any("wss://127.0.0.1:" in line for line in referee.err_lines)
    untrusting = subprocess.run(
        [sys.executable, "-m", "cardcli", "connect", f"wss://127.0.0.1:{referee.port}/", "--name", "alice",
         "--token", pairs["alice"], "--once", "--", *BOT], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert untrusting.returncode == 2 and "certificate" in untrusting.stderr
    relay = subprocess.Popen([sys.executable, "-m", "cardcli", "connect", f"wss://127.0.0.1:{referee.port}/",
                              "--name", "alice", "--token", pairs["alice"], "--cafile", str(authority), "--", *BOT],
                             cwd=ROOT, text=True, stderr=subprocess.PIPE)
    code, out, err = referee.finish()
    assert code == 0, err
    assert relay.wait(30) == 0
    (record,) = read_records(record_file)
    assert not record["faults"] and record["seats"][0]["kind"] == "remote"


def test_a_remote_record_replays_and_verifies_like_any_other(tmp_path: Path, tokens: Any) -> None:
    path, pairs = tokens
    record_file = tmp_path / "r.jsonl"
    referee = Referee("play", "pepper", "--seed", "6", "--players", "3", "--listen", "127.0.0.1:0",
                      "--tokens", str(path), "--seat", "remote:alice", "--seat", "random", "--seat", "random",
                      "--record", str(record_file), "--max-deals", "3")
    relay = connect(referee.port, "alice", pairs["alice"], "-v")
    code, out, err = referee.finish()
    _, relayed = relay.communicate(timeout=30)
    assert code == 0, err
    run_cli("verify", str(record_file), check=True)
    lines = run_cli("replay", str(record_file), "--seat", "0", "--protocol", "--to-bot", check=True).stdout
    to_bot = [line.split(" << ", 1)[1] for line in relayed.splitlines() if " << " in line]
    assert lines.splitlines() == to_bot, "the bot got exactly the lines the record says a seat gets"
    notes = run_cli("replay", str(record_file), "--seat", "0", "--protocol", check=True).stdout
    assert "was not a bot program" not in notes


def test_a_bare_port_listens_on_loopback_only() -> None:
    from cardcli.errors import UsageError
    from cardcli.remote.hub import Address

    assert Address.parse("7000") == Address("127.0.0.1", 7000)
    assert Address.parse("0.0.0.0:7000") == Address("0.0.0.0", 7000)
    assert Address.parse("[::1]:7000") == Address("::1", 7000)
    for bad in ("host", "::1:7000", "127.0.0.1:99999", "[::1]7000"):
        with pytest.raises(UsageError):
            Address.parse(bad)


def test_a_bot_that_crashes_on_its_authors_machine_is_a_crash_fault_with_its_stderr_kept_home(
        tmp_path: Path, tokens: Any) -> None:
    path, pairs = tokens
    crashing = [sys.executable, str(ROOT / "tests/bots/faulty_bot.py"), "--crash-at", "3"]
    record_file = tmp_path / "crash.jsonl"
    referee = Referee("play", "peppa", "--seed", "9", "--listen", "127.0.0.1:0", "--tokens", str(path),
                      "--seat", "remote:alice", "--seat", "random", "--seat", "random", "--seat", "random",
                      "--record", str(record_file))
    relay = connect(referee.port, "alice", pairs["alice"], "--once", bot=crashing)
    code, out, err = referee.finish()
    relay.wait(30)
    assert code == 0, err
    (record,) = read_records(record_file)
    (fault,) = record["faults"]
    assert fault["kind"] == "crash" and fault["detail"].startswith("reported by alice's relay: exited with status 3")
    assert record["status"] == "complete" and 0 in record["result"]["forfeits"]


def test_a_tournament_takes_cert_and_key_for_its_listener_apart_from_its_signing_key(
        tmp_path: Path, tokens: Any) -> None:
    """``--key`` is the listener's TLS key and ``--sign-key`` the records' signing key: with
    ``--cert`` and ``--key`` given (and with a signing key beside them) the tournament goes on
    to its next check, here a remote entrant without a token, rather than taking one key for
    the other."""
    trustme = pytest.importorskip("trustme")
    path, _ = tokens
    cert = trustme.CA().issue_cert("127.0.0.1")
    chain, key = tmp_path / "chain.pem", tmp_path / "key.pem"
    cert.private_key_pem.write_to_path(str(key))
    chain.write_bytes(b"".join(blob.bytes() for blob in cert.cert_chain_pems))
    assert run_cli("keys", "new", str(tmp_path / "referee")).returncode == 0
    for extra in ((), ("--sign-key", str(tmp_path / "referee.key"))):
        proc = run_cli("tournament", "peppa", "--bot", "carol=remote:carol", "--bot", "dave=random",
                       "--bot", "erin=random", "--bot", "fred=random", "--dir", str(tmp_path / f"t{len(extra)}"),
                       "--listen", "127.0.0.1:0", "--tokens", str(path), "--cert", str(chain), "--key", str(key),
                       *extra)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "remote:carol has no token" in proc.stderr, proc.stderr
