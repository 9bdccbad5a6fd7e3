#!/usr/bin/env python3
"""A hostile entrant for the sandbox tests: it plays the first offered move, and at its first
request of every match tries what a stranger who wants to win would try, then reports what it
saw and what worked as one line on stderr: ``INTRUDER {json}`` (read from ``--bot-stderr``).

Every attack that could harm the machine outside a sandbox is aimed only at processes whose
command line holds a mark the test gives, so a sandbox that failed to start cannot turn the
test into an attack on the test runner. A mark is given with a ``+`` inside, which is taken
out (``victim+_x`` aims at ``victim_x``): the referee's own command line, which holds the
intruder's, never holds the mark itself.
"""

import argparse
import ctypes
import fcntl
import struct
import json
import os
import signal
import socket
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--probe", action="append", default=[], help="a path to try to read or list")
p.add_argument("--connect", type=int, default=0, help="a 127.0.0.1 port to try to connect to")
p.add_argument("--kill", action="append", default=[], help="SIGKILL visible processes whose command line has this")
p.add_argument("--stop", action="append", default=[], help="SIGSTOP visible processes whose command line has this")
p.add_argument("--escape", default=None, help="leave behind a setsid'd sleeper carrying this mark")
p.add_argument("--symlink", nargs=2, default=None, metavar=("DIR", "TARGET"),
               help="replace every seat*.stderr in DIR with a symlink to TARGET")
p.add_argument("--fork-cpu", type=int, default=0, help="start N helpers that spin on the CPU")
p.add_argument("--fork-memory", nargs=2, type=int, default=None, metavar=("N", "MIB"),
               help="start N helpers that each take MIB of memory and hold it")
p.add_argument("--fork-files", nargs=2, type=int, default=None, metavar=("N", "FILES"),
               help="start N helpers that each open FILES descriptors and hold them")
p.add_argument("--hold", type=float, default=0.0, help="wait this long after the attack before answering")
p.add_argument("--remember", action="store_true", help="keep each hand in a file and report files seen")
p.add_argument("--lock", default=None, metavar="PATH",
               help="signal through PATH: take a shared lock (flock and fcntl) on it and hold it")
p.add_argument("--watch-lock", default=None, metavar="PATH",
               help="listen on PATH: poll for another process's lock on it for up to 2 s")
p.add_argument("--keyring", default=None, metavar="DESC",
               help="look for the user key DESC in the session keyring, read it, then clear the keyring")
p.add_argument("--kernel", action="store_true",
               help="try what the namespaces leave open: unshare(CLONE_NEWUSER), add_key, io_uring_setup, mount")
p.add_argument("--fill", type=int, default=0, metavar="MIB", help="write MIB MiB into the scratch (/tmp)")
args = p.parse_args()
libc = ctypes.CDLL(None, use_errno=True)
SYS = {"keyctl": 250, "add_key": 248, "io_uring_setup": 425, "unshare": 272, "mount": 165}
"""x86_64 system call numbers."""

out = sys.stdout.buffer
helpers: list[int] = []
token = os.urandom(8).hex()
"""Tells this process apart from every other (pids repeat across sandboxes)."""


def send(text: str) -> None:
    out.write(text.encode() + b"\n")
    out.flush()


def cmdline(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def visible() -> dict[str, str]:
    return {pid: cmdline(pid) for pid in os.listdir("/proc") if pid.isdigit() and int(pid) != os.getpid()}


def probe(path: str) -> str:
    try:
        if os.path.isdir(path):
            return "listed: " + ",".join(sorted(os.listdir(path))[:20])
        with open(path, "rb") as f:
            return "read: " + f.read(200).decode(errors="replace")
    except OSError as err:
        return f"refused: {err.strerror}"


def signal_marked(marks: list[str], signum: int) -> list[str]:
    marks = [mark.replace("+", "") for mark in marks]
    hit = []
    for pid, line in visible().items():
        if any(mark in line for mark in marks):
            try:
                os.kill(int(pid), signum)
                hit.append(line[:80])
            except OSError:
                pass
    return hit


def helper(work) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            work()
        finally:
            os._exit(0)
    helpers.append(pid)


def spin() -> None:
    while True:
        pass


def hold_memory(mib: int) -> None:
    block = bytearray(mib << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    time.sleep(300)


def hold_files(count: int) -> None:
    kept = []
    try:
        for _ in range(count):
            kept.append(os.open("/dev/null", os.O_RDONLY))
    except OSError:
        pass
    time.sleep(300)


def escape(mark: str) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)", mark])
        os._exit(0)


def syscall(name: str, *arguments) -> str:
    result = libc.syscall(SYS[name], *arguments)
    if result < 0:
        return f"refused: {os.strerror(ctypes.get_errno())}"
    return f"ok: {result}"


def lock(path: str) -> dict:
    """Hold a lock on a file every seat can read: flock, and an fcntl read lock."""
    held = {}
    fd = os.open(path, os.O_RDONLY)
    for kind, take in (("flock", lambda: fcntl.flock(fd, fcntl.LOCK_SH)),
                       ("fcntl", lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB))):
        try:
            take()
            held[kind] = "ok"
        except OSError as err:
            held[kind] = f"refused: {err.strerror}"
    return held


def watch_lock(path: str) -> dict:
    """Whether another process holds a lock on ``path``: flock's exclusive try, and F_GETLK."""
    fd = os.open(path, os.O_RDONLY)
    seen = {"flock": False, "fcntl": False, "errors": []}
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and not (seen["flock"] and seen["fcntl"]):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            seen["flock"] = True
        except OSError as err:
            seen["errors"].append(f"flock: {err.strerror}")
        try:
            query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
            answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
            if struct.unpack("hhqqi", answer)[0] != fcntl.F_UNLCK:
                seen["fcntl"] = True
        except OSError as err:
            seen["errors"].append(f"fcntl: {err.strerror}")
        time.sleep(0.05)
    seen["errors"] = sorted(set(seen["errors"]))
    return seen


def keyring(description: str) -> dict:
    """Find a user key in the session keyring (-3), read it, then clear the keyring."""
    found = libc.syscall(SYS["keyctl"], 10, -3, b"user", description.encode(), 0)  # KEYCTL_SEARCH
    if found < 0:
        return {"found": f"refused: {os.strerror(ctypes.get_errno())}"}
    buffer = ctypes.create_string_buffer(256)
    size = libc.syscall(SYS["keyctl"], 11, found, buffer, 256)  # KEYCTL_READ
    read = buffer.raw[:size].decode(errors="replace") if size >= 0 else f"refused: {os.strerror(ctypes.get_errno())}"
    return {"found": "ok", "read": read, "cleared": syscall("keyctl", 7, -3)}  # KEYCTL_CLEAR


def kernel() -> dict:
    params = ctypes.create_string_buffer(120)
    return {
        "unshare_user": syscall("unshare", 0x10000000),
        "add_key": syscall("add_key", b"user", b"intruder", b"x", 1, -2),  # into the thread keyring
        "io_uring_setup": syscall("io_uring_setup", 4, params),
        "mount_tmpfs": syscall("mount", b"none", b"/tmp", b"tmpfs", 0, None),
    }


def fill(mib: int) -> dict:
    chunk = b"x" * (1 << 20)
    written = 0
    error = None
    try:
        with open("/tmp/fill", "wb") as f:
            for _ in range(mib):
                f.write(chunk)
                f.flush()
                written += 1
    except OSError as err:
        error = err.strerror
    found = os.statvfs("/tmp")
    return {"written_mib": written, "error": error, "size_mib": found.f_blocks * found.f_frsize >> 20}


def attack(hand: list[str], seat: str) -> dict:
    report: dict = {"uid": os.getuid(), "processes": visible(), "env": sorted(os.environ),
                    "cwd": os.getcwd(), "hostname": socket.gethostname()}
    report["probes"] = {path: probe(path) for path in args.probe}
    for path, seen in report["probes"].items():
        send(f"info probe {path} {seen[:40]!r}")
    planted = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"planted-{token}")
    try:
        with open(planted, "w") as f:
            f.write("x")
        os.unlink(planted)
        report["wrote_own_dir"] = True
    except OSError:
        report["wrote_own_dir"] = False
    if args.connect:
        try:
            socket.create_connection(("127.0.0.1", args.connect), timeout=2).close()
            report["connected"] = True
        except OSError:
            report["connected"] = False
    report["killed"] = signal_marked(args.kill, signal.SIGKILL)
    report["stopped"] = signal_marked(args.stop, signal.SIGSTOP)
    if args.escape:
        escape(args.escape)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not report.get("escaped"):
            report["escaped"] = any("time.sleep(300)" in line and args.escape in line for line in visible().values())
            time.sleep(0.02)
    if args.symlink:
        folder, target = args.symlink
        report["symlinked"] = 0
        try:
            for name in os.listdir(folder):
                if name.startswith("seat") and name.endswith(".stderr") and name != f"seat{seat}.stderr":
                    path = os.path.join(folder, name)
                    os.unlink(path)
                    os.symlink(target, path)
                    report["symlinked"] += 1
        except OSError:
            pass
    if args.remember:
        home = os.environ.get("TMPDIR", "/tmp")
        report["memories"] = sorted(n for n in os.listdir(home) if n.startswith("hand-"))
        send(f"info process {token}")
        send(f"info memories {len(report['memories'])}")
        with open(os.path.join(home, f"hand-{os.getpid()}-{time.monotonic_ns()}"), "w") as f:
            f.write(" ".join(hand))
    if args.lock:
        report["lock"] = LOCKED
    if args.watch_lock:
        report["watch_lock"] = watch_lock(args.watch_lock)
    if args.keyring:
        report["keyring"] = keyring(args.keyring)
    if args.kernel:
        report["kernel"] = kernel()
    if args.fill:
        report["fill"] = fill(args.fill)
    for _ in range(args.fork_cpu):
        helper(spin)
    if args.fork_memory:
        for _ in range(args.fork_memory[0]):
            helper(lambda: hold_memory(args.fork_memory[1]))
    if args.fork_files:
        for _ in range(args.fork_files[0]):
            helper(lambda: hold_files(args.fork_files[1]))
    return report


LOCKED = lock(args.lock) if args.lock else None
"""Taken at start, before any seat is asked anything, so a listener asked first still sees it."""


def main() -> None:
    hand: list[str] = []
    seat = ""
    attacked = False
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "cardcli":
            send("id name intruder")
            send("ready")
        elif words[0] == "game":
            attacked = False
            seat = words[4]
        elif words[0] == "hand":
            hand = words[1:]
        elif words[0] == "go":
            if not attacked:
                attacked = True
                sys.stderr.write("INTRUDER " + json.dumps(attack(hand, seat)) + "\n")
                sys.stderr.flush()
                time.sleep(args.hold)
            send(f"move {words[3]}")
        elif words[0] == "quit":
            break


main()
