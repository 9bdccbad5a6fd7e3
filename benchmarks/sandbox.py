#!/usr/bin/env python3
"""What the bot sandbox costs: start-up, each request and whole matches, sandbox off against on.

The sandbox (bubblewrap namespaces, a uid per bot, a control group watched by the watchdog)
is on by default in tournaments where the machine allows it, so its price must be known:
a bot pays it once per start (new namespaces, a launcher that joins the control group, a
scratch directory and a uid slot), and, possibly, on every request (the watchdog thread
competing for the interpreter, the control group's accounting). Three configurations are
measured side by side in one run, interleaved so that the machine's drift falls on all of
them alike:

- ``off``: the bot started as it is;
- ``limits``: ``Limits(cpu_seconds=60)`` only, which gives the bot a control group, the
  launcher that joins it (``sh`` and ``prlimit``), and the watchdog, but no namespaces;
- ``on``: ``--sandbox on`` (namespaces, a uid of its own, the control group, the watchdog).

The request and match figures reuse ``benchmarks/referee_pipe.py``'s own functions, with its
``ProcessSeat`` swapped for one that carries the limits or the sandbox, so the two scripts
measure exactly the same loop.

Usage: python3 benchmarks/sandbox.py [--starts N] [--requests N] [--rounds N] [--matches N]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import referee_pipe
from cardcli.seats import cgroups
from cardcli.seats.limits import Limits
from cardcli.seats.process import ProcessSeat
from cardcli.seats.sandbox import UID_BASE, Jail, SandboxPolicy, resolve, support

ROOT = referee_pipe.HERE.parent
PYTHON_BOT = [sys.executable, str(ROOT / "bots/python/random_bot.py"), "--seed", "1"]
GRACE = 0.5
"""Seconds a bot has to exit after ``quit``, as in referee_pipe.py's matches."""

Config = dict[str, Any]
"""Keyword arguments of ``ProcessSeat`` beyond its label and command."""


def configs() -> dict[str, Config]:
    """The three ways of running a bot, by name, or exit when this machine cannot sandbox:
    a figure for ``on`` that silently measured ``off`` would be worse than none."""
    if support().bwrap is None:
        sys.exit(f"sandbox benchmark: {support().detail}")
    if cgroups.host() is None:
        sys.exit("sandbox benchmark: this process may not create control groups (run as root, "
                 "with cgroup v1 memory, pids and cpuacct, or a delegated cgroup v2 subtree)")
    return {
        "off": {},
        "limits": {"limits": Limits(cpu_seconds=60)},
        "on": {"sandbox": resolve(SandboxPolicy("on"))},
    }


@contextlib.contextmanager
def seats_made_with(config: Config) -> Iterator[None]:
    """Make referee_pipe.py's functions start their bots with ``config``: they look
    ``ProcessSeat`` up in their module at each call, so a partial put there is what they use."""
    original = referee_pipe.ProcessSeat
    referee_pipe.ProcessSeat = functools.partial(ProcessSeat, **config)  # type: ignore[misc]
    try:
        yield
    finally:
        referee_pipe.ProcessSeat = original  # type: ignore[misc]


def build_echo_bot(folder: Path) -> list[str]:
    """Compile benchmarks/echo_bot.c into ``folder``, readable by the uid a sandboxed bot gets
    (a fresh temporary directory is closed to other users, and the sandbox refuses it)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("sandbox benchmark: a C compiler is needed for the echo bot")
    folder.chmod(0o755)
    binary = folder / "echo_bot"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(referee_pipe.HERE / "echo_bot.c")], check=True)
    return [str(binary)]


# -- start-up ------------------------------------------------------------------------------------


def one_start(bot: list[str], config: Config) -> tuple[float, float]:
    """Milliseconds from ``start()`` to ``wait_ready`` returning, and to ``close()`` returning:
    the whole life of a bot that plays nothing, which is what a restarted bot adds to a match."""
    seat = ProcessSeat("bench", bot, **config)
    begin = time.perf_counter()
    seat.start()
    seat.wait_ready(time.monotonic() + 10)
    ready = time.perf_counter()
    seat.close(GRACE)
    done = time.perf_counter()
    return (ready - begin) * 1e3, (done - begin) * 1e3


def start_up(bots: dict[str, list[str]], modes: dict[str, Config], starts: int) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """``starts`` samples of :func:`one_start` per bot and configuration, interleaved: each
    round starts every bot once in every configuration."""
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {(b, m): [] for b in bots for m in modes}
    for _ in range(starts):
        for bot_name, bot in bots.items():
            for mode, config in modes.items():
                samples[bot_name, mode].append(one_start(bot, config))
    return samples


def p90(values: Sequence[float]) -> float:
    """The 90th percentile: a start-up's tail matters as much as its median, since a
    tournament waits for the slowest bot of every match."""
    if len(values) < 2:
        return max(values)
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def timed_run(argv: list[str], times: int, prepare: Callable[[], tuple[list[str], Callable[[], None], dict[str, Any]]] | None = None) -> float:
    """Median milliseconds of running ``argv`` to its end (``prepare`` may instead give a fresh
    command, a clean-up and Popen arguments per run; its own work is not timed)."""
    samples = []
    for _ in range(times):
        command, cleanup, extra = prepare() if prepare else (argv, lambda: None, {})
        begin = time.perf_counter()
        subprocess.run(command, check=True, stdin=subprocess.DEVNULL, **extra)
        samples.append((time.perf_counter() - begin) * 1e3)
        cleanup()
    return statistics.median(samples)


def timed_call(action: Callable[[], None], times: int) -> float:
    """Median milliseconds of ``action``."""
    samples = []
    for _ in range(times):
        begin = time.perf_counter()
        action()
        samples.append((time.perf_counter() - begin) * 1e3)
    return statistics.median(samples)


def jailed(policy: SandboxPolicy, argv: list[str], own_uid: bool = True) -> Callable[[], tuple[list[str], Callable[[], None], dict[str, Any]]]:
    """A ``prepare`` for :func:`timed_run`: ``argv`` inside the sandbox exactly as a bot starts
    there (the jail's own bubblewrap options, passed through a descriptor), with the
    ``setpriv`` step that drops to the bot's uid, or without it (``own_uid`` False: the
    namespaces alone)."""

    def prepare() -> tuple[list[str], Callable[[], None], dict[str, Any]]:
        jail = Jail(policy, argv)
        read_end, write_end = os.pipe()
        command, data = jail.command(read_end)
        with open(write_end, "wb") as args:
            args.write(data)
        if not own_uid:
            command = command[: command.index("--") + 1] + jail.argv

        def cleanup() -> None:
            os.close(read_end)
            jail.destroy()

        return command, cleanup, {"pass_fds": (read_end,), "env": Jail.environment()}

    return prepare


def joining(host: cgroups.Host, argv: list[str]) -> Callable[[], tuple[list[str], Callable[[], None], dict[str, Any]]]:
    """A ``prepare`` for :func:`timed_run`: ``argv`` started by the limits launcher inside a
    fresh control group, as a bot with limits starts (the group is made before, not timed)."""

    def prepare() -> tuple[list[str], Callable[[], None], dict[str, Any]]:
        group = host.new_group("bench")
        return Limits(cpu_seconds=60).launch(argv, group), group.remove, {}

    return prepare


def breakdown(policy: SandboxPolicy, times: int) -> list[tuple[str, float]]:
    """Median milliseconds of each step a sandboxed start adds, each alone: what the launcher,
    the control group, the jail's bookkeeping, the namespaces and the change of uid cost."""
    true = shutil.which("true") or "/bin/true"
    host = cgroups.host()
    assert host is not None
    uid = support().own_uid
    setpriv = ["setpriv", f"--reuid={UID_BASE}", f"--regid={UID_BASE}", "--clear-groups",
               "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--", true]
    steps = [
        ("fork and exec of `true` (the floor)", timed_run([true], times)),
        ("the launcher's rlimits alone (`prlimit ... true`)", timed_run(Limits(cpu_seconds=60).launch([true]), times)),
        ("control group created, limited, removed", timed_call(lambda: group_cycle(host), times)),
        ("the launcher joining a new group, then `true`", timed_run([], times, joining(host, [true]))),
        ("jail made and destroyed (uid slot, scratch)", timed_call(lambda: Jail(policy, [true]).destroy(), times)),
        ("`bwrap ... true`, the namespaces alone", timed_run([], times, jailed(policy, [true], own_uid=False))),
    ]
    if uid:
        steps.append(("`setpriv ... true` alone, outside bubblewrap", timed_run(setpriv, times)))
        steps.append(("`bwrap ... setpriv ... true`, as a bot starts", timed_run([], times, jailed(policy, [true]))))
    steps.append(("`python3 -c pass` (the Python bot's interpreter)", timed_run([sys.executable, "-c", "pass"], times)))
    steps.append(("the same inside `bwrap ... setpriv`", timed_run([], times, jailed(policy, [sys.executable, "-c", "pass"]))))
    return steps


def group_cycle(host: cgroups.Host) -> None:
    """One bot's control group life outside its process: created, limited, removed."""
    group = host.new_group("bench")
    try:
        Limits(processes=256).setup(group)
    finally:
        group.remove()


def watchdog_tick(host: cgroups.Host, times: int) -> float:
    """Median µs of the watchdog's reading of one bot's group (what it does for every watched
    bot every 50 ms), with the limits a sandboxed bot has by default and a CPU limit: its cost
    to the referee is that reading, taken from the interpreter 20 times a second per bot."""
    group = host.new_group("bench")
    limits = Limits(cpu_seconds=60, processes=256)
    try:
        return timed_call(lambda: limits.breach(None, group) or limits.files_breach(group), times) * 1e3
    finally:
        group.remove()


# -- per request and whole matches ---------------------------------------------------------------


def per_request(bot: list[str], modes: dict[str, Config], requests: int, rounds: int) -> dict[str, float]:
    """Best of ``rounds`` µs per request of referee_pipe.py's seat-layer loop, per
    configuration, the configurations alternating round by round, and under ``raw`` the plain
    pipe round trip measured in the same rounds (the floor, without the seat layer)."""
    best = {mode: float("inf") for mode in ("raw", *modes)}
    for _ in range(rounds):
        best["raw"] = min(best["raw"], referee_pipe.raw_round_trip(bot, requests))
        for mode, config in modes.items():
            with seats_made_with(config):
                best[mode] = min(best[mode], referee_pipe.seat_per_request(bot, requests))
    return best


def matches_per_second(bot: list[str], modes: dict[str, Config], matches: int, rounds: int) -> dict[tuple[str, bool], tuple[float, float]]:
    """Best of ``rounds`` (matches per second, µs per request) of referee_pipe.py's whole Peppa
    matches with four ``bot`` processes, started for every match or kept alive across them."""
    best: dict[tuple[str, bool], tuple[float, float]] = {}
    for _ in range(rounds):
        for keep in (False, True):
            for mode, config in modes.items():
                with seats_made_with(config):
                    micros, requests = referee_pipe.referee_per_request(bot, matches, keep_alive=keep)
                rate = matches / (micros * requests / 1e6)
                if rate > best.get((mode, keep), (0.0, 0.0))[0]:
                    best[mode, keep] = (rate, micros)
    return best


# -- report --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=30, help="starts of each bot in each configuration")
    parser.add_argument("--requests", type=int, default=20000, help="requests per per-request measurement")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the best is kept")
    parser.add_argument("--matches", type=int, default=20, help="Peppa matches per measurement")
    args = parser.parse_args()
    modes = configs()
    started = time.perf_counter()
    policy = modes["on"]["sandbox"]
    host = cgroups.host()
    assert host is not None
    print(f"sandbox: {support().detail}, {'a uid per bot' if support().own_uid else 'user namespace'}, "
          f"{host.label}; {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        echo = build_echo_bot(Path(tmp))
        bots = {"C echo bot": echo, "Python random_bot.py": PYTHON_BOT}

        print(f"\n1. start-up per bot, start() to ready (and through close()), ms, {args.starts} starts interleaved")
        samples = start_up(bots, modes, args.starts)
        print(f"{'bot':22} {'sandbox':8} {'median':>8} {'p90':>8} {'with close':>11} {'median - off':>13}")
        for bot_name in bots:
            off = statistics.median(s[0] for s in samples[bot_name, "off"])
            for mode in modes:
                ready = [s[0] for s in samples[bot_name, mode]]
                total = [s[1] for s in samples[bot_name, mode]]
                extra = statistics.median(ready) - off
                print(f"{bot_name:22} {mode:8} {statistics.median(ready):8.1f} {p90(ready):8.1f} "
                      f"{statistics.median(total):11.1f} {extra:+13.1f}")
        print("\n   where a sandboxed start goes, each step alone (median ms):")
        times = max(5, args.starts // 2)
        for label, millis in breakdown(policy, times):
            print(f"   {label:52} {millis:7.1f}")

        print(f"\n2. per request through the seat layer, C echo bot, best of {args.rounds} x {args.requests} requests")
        micros = per_request(echo, modes, args.requests, args.rounds)
        print(f"   raw pipe round trip (no seat, no sandbox):  {micros['raw']:7.1f} us")
        print(f"   off:                                        {micros['off']:7.1f} us")
        print(f"   limits only (control group, watchdog):      {micros['limits']:7.1f} us  ({micros['limits'] / micros['off']:.2f} x off)")
        print(f"   sandbox on (namespaces, group, watchdog):   {micros['on']:7.1f} us  ({micros['on'] / micros['off']:.2f} x off)")
        tick = watchdog_tick(host, 1000)
        print(f"   the watchdog's reading of one bot's group:  {tick:7.1f} us every 50 ms "
              f"({tick / 50e3 * 400:.2f}% of a core for 4 bots)")

        print(f"\n3. whole Peppa matches, 4 C echo bots, best of {args.rounds} x {args.matches} matches")
        rates = matches_per_second(echo, modes, args.matches, args.rounds)
        for keep, how in ((False, "started per match"), (True, "kept alive")):
            off_rate = rates["off", keep][0]
            for mode in modes:
                rate, per = rates[mode, keep]
                extra = (1 / rate - 1 / off_rate) * 1e3
                print(f"   {how:18} {mode:7} {rate:7.1f} matches/s  {per:7.1f} us/request  "
                      f"({rate / off_rate:.2f} x off, {extra:+6.1f} ms a match)")
    print(f"\n{time.perf_counter() - started:.0f} s; load average at the end {os.getloadavg()[0]:.1f} "
          f"(another process at work during the run inflates every figure, the ratios least)")


if __name__ == "__main__":
    main()
