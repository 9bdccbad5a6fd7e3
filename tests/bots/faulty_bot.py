#!/usr/bin/env python3
"""A scripted misbehaving bot for fault tests: plays the first offered move, except where a
flag makes it fail in one chosen way at the N-th request (counted from 1)."""

import argparse
import os
import re
import select
import signal
import subprocess
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--crash-at", type=int, default=0, help="exit with status 3 instead of answering")
p.add_argument("--kill-self-at", type=int, default=0, help="die by SIGKILL instead of answering")
p.add_argument("--stall-at", type=int, default=0, help="never answer")
p.add_argument("--slow-at", type=int, default=0, help="answer after --delay seconds")
p.add_argument("--delay", type=float, default=0.0)
p.add_argument("--slow-log", default=None, help="append 'slow N' to this file as the slow answer begins")
p.add_argument("--think", type=float, default=0.0, help="take this long (seconds) over every answer")
p.add_argument("--illegal-at", type=int, default=0, help="answer a move that was not offered")
p.add_argument("--garbage-at", type=int, default=0, help="answer a line that is not a move")
p.add_argument("--two-words-at", type=int, default=0, help="answer 'move A B'")
p.add_argument("--double-at", type=int, default=0, help="answer twice")
p.add_argument("--echo-at", type=int, default=0,
               help="answer, then send the same answer again in a write of its own (a stale move)")
p.add_argument("--echo-delay", type=float, default=0.0, help="seconds between the answer and its echo")
p.add_argument("--echo-after-request", action="store_true",
               help="send the echo only once the referee's next line is waiting, unread, on stdin")
p.add_argument("--echo-hold", type=float, default=0.0,
               help="after the echo, wait this long before reading stdin again (a busy bot)")
p.add_argument("--echo-log", default=None,
               help="append 'before' or 'after' to this file: whether the referee's next line was "
                    "already waiting when the echo was written")
p.add_argument("--long-at", type=int, default=0, help="answer a line of 100 kB")
p.add_argument("--bad-utf8-at", type=int, default=0, help="answer bytes that are not UTF-8")
p.add_argument("--no-ready", action="store_true", help="never finish the handshake")
p.add_argument("--ready-delay", type=float, default=0.0, help="wait this long before 'ready'")
p.add_argument("--ready-then-endless", action="store_true",
               help="write 'ready' and 40 MiB without a newline in one single write")
p.add_argument("--exit-zero-at", type=int, default=0, help="exit with status 0 instead of answering")
p.add_argument("--empty-at", type=int, default=0, help="answer an empty line, then nothing")
p.add_argument("--endless-at", type=int, default=0, help="write 40 MiB without a newline")
p.add_argument("--stop-reading-at", type=int, default=0, help="answer, then never read stdin again")
p.add_argument("--close-stdout-at", type=int, default=0, help="close stdout and keep running")
p.add_argument("--eat-cpu-at", type=int, default=0, help="spin on the CPU instead of answering")
p.add_argument("--eat-memory-at", type=int, default=0, help="allocate memory until it fails")
p.add_argument("--open-files-at", type=int, default=0, help="open files until it fails")
p.add_argument("--stderr-flood", type=int, default=0, help="write this many MiB of stderr per request")
p.add_argument("--report-fds", default=None, help="write the bot's open file descriptors to this file")
p.add_argument("--exit-at-start", action="store_true", help="exit before the handshake")
p.add_argument("--chatty", action="store_true", help="send info and unknown lines and stderr noise")
p.add_argument("--stderr-text", default=None, help="write this text and ' (on stderr)' to stderr before each answer")
p.add_argument("--spawn-child", action="store_true", help="start a child process that sleeps forever")
p.add_argument("--ignore-quit", action="store_true", help="keep running after quit")
p.add_argument("--quit-delay", type=float, default=0.0, help="take this long to exit after quit")
p.add_argument("--quit-log", default=None, help="append 'quit PID' on quit and 'exit PID' on leaving to this file")
p.add_argument("--pidfile", default=None, help="append a line with own pid (and child's) to this file")
p.add_argument("--no-flush", action="store_true", help="never flush stdout (its lines stay in a 64 KiB buffer)")
p.add_argument("--id-no-ready", action="store_true", help="send 'id name' and 'id author', never 'ready'")
p.add_argument("--bare-move-at", type=int, default=0, help="answer the move without 'move ' in front")
p.add_argument("--time-as-move-at", type=int, default=0,
               help="answer the go line's time field (its third word) as the move")
p.add_argument("--debug-stdout", action="store_true", help="print debug lines on stdout at every request")
p.add_argument("--traceback-at", type=int, default=0, help="raise an exception (a traceback, status 1)")
p.add_argument("--exit-after-result", action="store_true", help="exit with status 0 on 'result'")
p.add_argument("--lowercase-at", type=int, default=0, help="answer the first offered move in lower case")
p.add_argument("--ten-as-10-at", type=int, default=0,
               help="at the first request from the N-th on that offers a move with a ten, answer "
                    "that move with the ten written 10 instead of T")
p.add_argument("--misorder-at", type=int, default=0,
               help="answer the first offered move of several cards, its cards in reverse order")
args = p.parse_args()

out = sys.stdout.buffer
if args.no_flush:
    out = open(1, "wb", buffering=1 << 16, closefd=False)


def send(text: str) -> None:
    out.write(text.encode() + b"\n")
    if not args.no_flush:
        out.flush()


TEN = re.compile(r"(^|[:,+])T([CDHS])")
"""A ten in a move token."""


def choose(moves: list[str]) -> str:
    """The move to play; with --traceback-at, the bug a new bot has; with --lowercase-at,
    --ten-as-10-at and --misorder-at, a legal move written otherwise than offered."""
    if n == args.traceback_at:
        return moves[len(moves) + 7]
    if n == args.lowercase_at:
        return moves[0].lower()
    with_ten = [m for m in moves if TEN.search(m)] if 0 < args.ten_as_10_at <= n else []
    if with_ten:
        args.ten_as_10_at = 0  # once
        return TEN.sub(r"\g<1>10\2", with_ten[0])
    if n == args.misorder_at:
        several = next(m for m in moves if "+" in m)
        head, sep, cards = several.rpartition(":")
        return head + sep + "+".join(reversed(cards.split("+")))
    return moves[0]


if args.exit_at_start:
    sys.exit(0)
if args.report_fds:
    fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
    with open(args.report_fds, "w") as f:
        f.write(" ".join(map(str, fds)))
if args.ignore_quit:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
pids = [os.getpid()]
if args.spawn_child:
    child = subprocess.Popen(["sleep", "300"])
    pids.append(child.pid)
if args.pidfile:
    with open(args.pidfile, "a") as f:
        f.write(" ".join(map(str, pids)) + "\n")

requests = 0
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "cardcli":
        if args.no_ready:
            continue
        if args.id_no_ready:
            send("id name mybot")
            send("id author me")
            continue
        if args.ready_then_endless:
            out.write(b"ready\n" + b"y" * (40 << 20))  # one write: 'ready' and the flood arrive together
            out.flush()
            time.sleep(300)
        send("id name faulty")
        time.sleep(args.ready_delay)
        send("ready")
    elif words[0] == "go":
        requests += 1
        n = requests
        moves = words[3:]
        if args.debug_stdout:
            send(f"considering {len(moves)} moves")
            send(f"best so far: {moves[0]}")
        if n == args.bare_move_at:
            send(moves[0])
            continue
        if n == args.time_as_move_at:
            send(f"move {words[2]}")
            continue
        if args.chatty:
            send("info thinking hard")
            send("whatever this is")
            sys.stderr.write("noise " * 1000 + "\n")
            sys.stderr.flush()
        if args.stderr_text is not None:
            sys.stderr.write(args.stderr_text + " (on stderr)\n")
            sys.stderr.flush()
        if args.stderr_flood:
            chunk = b"x" * (1 << 20)
            for _ in range(args.stderr_flood):
                sys.stderr.buffer.write(chunk)
            sys.stderr.flush()
        if n == args.crash_at:
            sys.exit(3)
        if n == args.exit_zero_at:
            sys.exit(0)
        if n == args.empty_at:
            out.write(b"\n")
            out.flush()
            time.sleep(300)
        if n == args.endless_at:
            piece = b"y" * (1 << 20)
            for _ in range(40):
                out.write(piece)
            out.flush()
            time.sleep(300)
        if n == args.close_stdout_at:
            os.close(1)
            time.sleep(300)
        if n == args.eat_cpu_at:
            while True:
                pass
        if n == args.eat_memory_at:
            hoard = []
            while True:
                hoard.append(bytearray(16 << 20))
        if n == args.open_files_at:
            handles = []
            while True:
                handles.append(open(os.devnull))
        if n == args.kill_self_at:
            os.kill(os.getpid(), signal.SIGKILL)
        if n == args.stall_at:
            time.sleep(300)
        time.sleep(args.think)
        if n == args.slow_at:
            if args.slow_log:
                with open(args.slow_log, "a") as f:
                    f.write(f"slow {n}\n")
            time.sleep(args.delay)
        if n == args.illegal_at:
            send("move ZZ")
        elif n == args.garbage_at:
            send("hello there")
            send("move")
        elif n == args.two_words_at:
            send(f"move {moves[0]} {moves[0]}")
        elif n == args.double_at:
            send(f"move {moves[0]}\nmove {moves[0]}")  # one write, so both lines arrive together
        elif n == args.long_at:
            send("info " + "x" * 100_000)
        elif n == args.bad_utf8_at:
            out.write(b"move \xff\xfe\n")
            out.flush()
        else:
            send(f"move {choose(moves)}")
        if n == args.echo_at:
            if args.echo_after_request:
                select.select([sys.stdin], [], [])
            else:
                time.sleep(args.echo_delay)
            waiting = bool(select.select([sys.stdin], [], [], 0)[0])
            if args.echo_log:  # written first: the referee may end the bot as soon as the echo is seen
                with open(args.echo_log, "a") as log:
                    log.write("after\n" if waiting else "before\n")
            send(f"move {moves[0]}")
            time.sleep(args.echo_hold)
        if n == args.stop_reading_at:
            time.sleep(300)
    elif words[0] == "result" and args.exit_after_result:
        break
    elif words[0] == "quit":
        if args.ignore_quit:
            time.sleep(300)
        if args.quit_log:
            with open(args.quit_log, "a") as log:
                log.write(f"quit {os.getpid()}\n")
        time.sleep(args.quit_delay)
        if args.quit_log:
            with open(args.quit_log, "a") as log:
                log.write(f"exit {os.getpid()}\n")
        break
