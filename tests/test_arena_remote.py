"""Remote entrants against an arena's listener, as strangers: a wrong token, a disabled
entrant and a replaced token are refused; the token reaches neither the server's output nor
the database; and a remote entrant that is not connected is not scheduled."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from websockets.sync.client import connect

from cardcli.arena import schema
from cardcli.remote import wire
from conftest import PYTHON_BOT, ROOT, run_cli, wait_for
from test_arena_season import ENV, add, init, listening_port, matches_of, relay, serving, store_of


def connect_once(port: int, name: str, token: str) -> subprocess.CompletedProcess[str]:
    """One relay that gives up at once: its exit status and what it says."""
    return subprocess.run([sys.executable, "-m", "cardcli", "connect", f"ws://127.0.0.1:{port}/", "--name", name,
                           "--once", "--retry-time", "0", "--", *PYTHON_BOT.split()],
                          cwd=ROOT, env={**ENV, "CARDCLI_TOKEN": token}, capture_output=True, text=True, timeout=60)


def admitted(port: int, name: str, token: str) -> bool:
    """Whether the listener welcomes ``name`` with ``token`` now. The probe leaves at once,
    idle, so that it never takes a seat: a relay admitted on a stale token would play a match
    before it could report anything."""
    with connect(f"ws://127.0.0.1:{port}/", open_timeout=10) as ws:
        ws.send(wire.auth(name, token))
        return str(ws.recv(timeout=10)).startswith("welcome ")


def test_strangers_are_refused_and_tokens_are_never_shown(tmp_path: Path) -> None:
    arena = init(tmp_path, None)
    add(arena, "house", "--command", "random")
    add(arena, "other", "--command", "first")
    token = add(arena, "alice", "--remote")
    store = store_of(arena)
    with serving(arena, "--listen", "127.0.0.1:0", "--connect-time", "20") as server:
        port = listening_port(server)
        wait_for(lambda: store.match_count() >= 4, "matches of the programs alone", 120)
        assert matches_of(store, "alice") == 0, "a remote entrant that never connected was scheduled"
        wrong = connect_once(port, "alice", token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
        assert wrong.returncode == 2 and "wrong name or token" in wrong.stderr, wrong.stderr
        unknown = connect_once(port, "mallory", token)
        assert unknown.returncode == 2, unknown.stderr
        with relay(port, "alice", token, PYTHON_BOT):
            wait_for(lambda: matches_of(store, "alice") >= 2, "alice's matches", 120)
        new = run_cli("arena", "entrant", "token", str(arena), "alice", check=True).stdout.split()[-1]
        wait_for(lambda: not admitted(port, "alice", token), "the old token refused", 60)
        old = connect_once(port, "alice", token)
        assert old.returncode == 2 and "wrong name or token" in old.stderr, old.stderr
        with relay(port, "alice", new, PYTHON_BOT):
            seen = matches_of(store, "alice")
            wait_for(lambda: matches_of(store, "alice") >= seen + 2, "alice's matches with the new token", 120)
        run_cli("arena", "entrant", "disable", str(arena), "alice", check=True)
        wait_for(lambda: not admitted(port, "alice", new), "a disabled entrant refused", 60)
        assert connect_once(port, "alice", new).returncode == 2
        server.terminate()
        out, err = server.communicate(timeout=60)
    for secret in (token, new):
        assert secret not in out + err, "a token in the server's output"
    with store.engine.connect() as conn:
        dumped = "\n".join(repr(tuple(row)) for table in schema.metadata.sorted_tables
                           for row in conn.execute(sa.select(table)))
    assert token not in dumped and new not in dumped
    store.close()
