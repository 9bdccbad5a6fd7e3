#!/usr/bin/env python3
"""What the bot sandbox costs: start-up, each request and whole matches, sandbox off against on.

The sandbox (bubblewrap namespaces, a uid per bot, a system-call filter, a size-limited tmpfs
scratch, a control group watched by the watchdog) is on by default in tournaments where the
machine allows it, so its price must be known: a bot pays it once per start (new namespaces,
the filter compiled once per referee and installed by bubblewrap, a launcher that joins the
control group, a uid slot), and, possibly, on every request (each of the bot's system calls
checked by the filter, the referee's ``fstatvfs`` of the scratch before each request, the
watchdog thread competing for the interpreter, the control group's accounting). Four
configurations are measured side by side in one run, interleaved so that the machine's drift
falls on all of them alike:

- ``off``: the bot started as it is;
- ``limits``: ``Limits(cpu_seconds=60)`` only, which gives the bot a control group, the
  launcher that joins it (``sh`` and ``prlimit``), and the watchdog, but no namespaces;
- ``on``: ``--sandbox on`` (namespaces, a uid of its own, the filter, the scratch, the
  control group, the watchdog);
- ``nofilter``: the same sandbox without its system-call filter (bubblewrap's ``--seccomp FD``
  pair taken out of its options by this script's :class:`UnfilteredJail`; cardcli itself has
  no such switch).

The request and match figures reuse ``benchmarks/referee_pipe.py``'s own functions, with its
``ProcessSeat`` swapped for one that carries the limits or the sandbox, so the two scripts
measure exactly the same loop; the processor time of the referee and of the bot is taken
over that loop too, since on a loaded machine it varies far less than the wall time. The
filter's own price is measured three ways more: at start-up, ``bwrap ... true`` and
``bwrap ... python3 -c pass`` with and without it, alternated; the kernel's time to install
it on a process; and per system call, by a C loop run inside the sandbox without a filter,
under one that allows everything and under cardcli's (``getppid``, which every rule lets
through, and ``fcntl(F_GETFD)``, whose arguments the filter reads). The scratch check is timed
call by call on a running sandboxed bot.

A Python outside the system's directories (pyenv, a virtual environment) is bound into the
sandbox as an organiser binds it (``--sandbox-bind``): its installation, plus anything in
``CARDCLI_SANDBOX_BIND``.

Usage: python3 benchmarks/sandbox.py [--starts N] [--requests N] [--rounds N] [--matches N] [--syscalls N]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import referee_pipe
from cardcli.seats import cgroups, process, seccomp
from cardcli.seats.limits import Limits
from cardcli.seats.process import ProcessSeat
from cardcli.seats.guard import resolve
from cardcli.seats.policy import SandboxPolicy
from cardcli.seats.sandbox import UID_BASE, Jail, support

ROOT = referee_pipe.HERE.parent
PYTHON_BOT = [sys.executable, str(ROOT / "bots/python/random_bot.py"), "--seed", "1"]
GRACE = 0.5
"""Seconds a bot has to exit after ``quit``, as in referee_pipe.py's matches."""

MakeSeat = Callable[..., ProcessSeat]
"""How a configuration makes a seat from a label and a command."""

SYSCALL_LOOP = r"""
/* "loop N": cheap system calls in a loop, timed from inside: nanoseconds per call (the best of
   five rounds of N calls), with the seccomp mode and the number of filters this process runs
   under. "install FILE": microseconds the kernel takes to install the filter in FILE (a
   sock_filter array, as bubblewrap reads it) on this process. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int install(const char *path)
{
    static struct sock_filter rules[4096];
    FILE *file = fopen(path, "rb");
    if (!file)
        return 1;
    size_t size = fread(rules, 1, sizeof rules, file);
    fclose(file);
    struct sock_fprog program = {(unsigned short)(size / sizeof rules[0]), rules};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return 1;
    double t0 = now();
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
        return 1;
    printf("%.1f\n", (now() - t0) / 1e3);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "install") == 0)
        return install(argv[2]);
    long calls = argc > 2 ? atol(argv[2]) : 100000;
    int rounds = 5;
    int mode = -1, filters = -1;
    char line[256];
    FILE *status = fopen("/proc/self/status", "r");
    while (status && fgets(line, sizeof line, status)) {
        sscanf(line, "Seccomp: %d", &mode);
        sscanf(line, "Seccomp_filters: %d", &filters);
    }
    if (status)
        fclose(status);
    double ppid = 1e30, flags = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        for (long i = 0; i < calls; i++)
            syscall(SYS_getppid);
        double t1 = now();
        for (long i = 0; i < calls; i++)
            syscall(SYS_fcntl, 1, F_GETFD);
        double t2 = now();
        if ((t1 - t0) / calls < ppid)
            ppid = (t1 - t0) / calls;
        if ((t2 - t1) / calls < flags)
            flags = (t2 - t1) / calls;
    }
    printf("%d %d %.1f %.1f\n", mode, filters, ppid, flags);
    return 0;
}
"""


class UnfilteredJail(Jail):
    """The same sandbox without its system-call filter: bubblewrap's ``--seccomp FD`` pair
    taken out of its options, and no filter to write. This benchmark's alone: cardcli has no
    way to start a sandboxed bot unfiltered."""

    def command(self, args_fd: int, filter_fd: int) -> tuple[list[str], bytes, bytes]:
        command, args, _ = super().command(args_fd, filter_fd)
        return command, without_filter(args, filter_fd), b""


def without_filter(args: bytes, filter_fd: int) -> bytes:
    """Bubblewrap's NUL-separated options less the one ``--seccomp FD`` pair."""
    words = args.split(b"\0")[:-1]
    pair = [b"--seccomp", str(filter_fd).encode()]
    at = next(k for k in range(len(words) - 1) if words[k:k + 2] == pair)
    del words[at:at + 2]
    return b"".join(w + b"\0" for w in words)


class AllowAllJail(Jail):
    """The same sandbox under a filter that allows every call: what having a filter at all
    costs a system call (the kernel's slower path into every call), apart from what the rules
    of cardcli's filter add."""

    def command(self, args_fd: int, filter_fd: int) -> tuple[list[str], bytes, bytes]:
        command, args, _ = super().command(args_fd, filter_fd)
        return command, args, allow_all()


@functools.lru_cache(maxsize=1)
def allow_all() -> bytes:
    """A filter of no rules but "allow", compiled by libseccomp as cardcli's own is."""
    import pyseccomp

    rules = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    with tempfile.TemporaryFile() as compiled:
        rules.export_bpf(compiled)
        compiled.seek(0)
        return compiled.read()


class UnfilteredSeat(ProcessSeat):
    """A ``ProcessSeat`` whose sandbox has no system-call filter: its start makes an
    :class:`UnfilteredJail` where it would make a ``Jail``, and is otherwise the same."""

    def start(self) -> None:
        original = process.Jail
        process.Jail = UnfilteredJail  # type: ignore[misc]
        try:
            super().start()
        finally:
            process.Jail = original  # type: ignore[misc]


def sandbox_policy() -> SandboxPolicy:
    """``--sandbox on`` with the running Python's installation bound (the Python bot's
    interpreter needs its libraries), or exit when this machine cannot sandbox: a figure for
    ``on`` that silently measured ``off`` would be worse than none."""
    if support().bwrap is None:
        sys.exit(f"sandbox benchmark: {support().detail}")
    if cgroups.host() is None:
        sys.exit("sandbox benchmark: this process may not create control groups (run as root, "
                 "with cgroup v1 memory, pids and cpuacct, or a delegated cgroup v2 subtree)")
    binds = [os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)]
    binds += [p for p in os.environ.get("CARDCLI_SANDBOX_BIND", "").split(os.pathsep) if p]
    policy = resolve(SandboxPolicy("on", binds=tuple(dict.fromkeys(binds))))
    assert policy is not None
    return policy


def configs(policy: SandboxPolicy) -> dict[str, MakeSeat]:
    """The four ways of running a bot, by name."""
    return {
        "off": ProcessSeat,
        "limits": functools.partial(ProcessSeat, limits=Limits(cpu_seconds=60)),
        "on": functools.partial(ProcessSeat, sandbox=policy),
        "nofilter": functools.partial(UnfilteredSeat, sandbox=policy),
    }


@contextlib.contextmanager
def seats_made_with(make: MakeSeat) -> Iterator[None]:
    """Make referee_pipe.py's functions start their bots with ``make``: they look
    ``ProcessSeat`` up in their module at each call, so what is put there is what they use."""
    original = referee_pipe.ProcessSeat
    referee_pipe.ProcessSeat = make  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        referee_pipe.ProcessSeat = original  # type: ignore[misc]


def compile_c(folder: Path, name: str, source: Path) -> list[str]:
    """Compile ``source`` into ``folder``, readable by the uid a sandboxed bot gets (a fresh
    temporary directory is closed to other users, and the sandbox refuses it)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("sandbox benchmark: a C compiler is needed for the echo bot and the system-call loop")
    folder.chmod(0o755)
    binary = folder / name
    subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True)
    binary.chmod(0o755)
    return [str(binary)]


# -- start-up ------------------------------------------------------------------------------------


def one_start(bot: list[str], make: MakeSeat) -> tuple[float, float]:
    """Milliseconds from ``start()`` to ``wait_ready`` returning, and to ``close()`` returning:
    the whole life of a bot that plays nothing, which is what a restarted bot adds to a match."""
    seat = make("bench", bot)
    begin = time.perf_counter()
    seat.start()
    seat.wait_ready(time.monotonic() + 10)
    ready = time.perf_counter()
    seat.close(GRACE)
    done = time.perf_counter()
    return (ready - begin) * 1e3, (done - begin) * 1e3


def start_up(bots: dict[str, list[str]], modes: dict[str, MakeSeat], starts: int) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """``starts`` samples of :func:`one_start` per bot and configuration, interleaved: each
    round starts every bot once in every configuration, in an order shuffled round by round.
    On a loaded machine a start that follows a pause (a slower start, a sleep) takes longer
    than one that follows a quick start at once, so a fixed order would charge that to
    whichever configuration comes after the slow ones."""
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {(b, m): [] for b in bots for m in modes}
    order = list(samples)
    shuffle = random.Random(1).shuffle
    for _ in range(starts):
        shuffle(order)
        for bot_name, mode in order:
            samples[bot_name, mode].append(one_start(bots[bot_name], modes[mode]))
    return samples


def p90(values: Sequence[float]) -> float:
    """The 90th percentile: a start-up's tail matters as much as its median, since a
    tournament waits for the slowest bot of every match."""
    if len(values) < 2:
        return max(values)
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


Prepare = Callable[[], tuple[list[str], Callable[[], None], dict[str, Any]]]
"""A fresh command, its clean-up and its Popen arguments, made before a timed run."""


def run_once(argv: list[str], prepare: Prepare | None = None) -> float:
    """Milliseconds of running ``argv`` (or what ``prepare`` gives, its own work not timed) to
    its end."""
    command, cleanup, extra = prepare() if prepare else (argv, lambda: None, {})
    try:
        begin = time.perf_counter()
        subprocess.run(command, check=True, stdin=subprocess.DEVNULL, **extra)
        return (time.perf_counter() - begin) * 1e3
    finally:
        cleanup()


def timed_run(argv: list[str], times: int, prepare: Prepare | None = None) -> float:
    """Median milliseconds of :func:`run_once`."""
    return statistics.median(run_once(argv, prepare) for _ in range(times))


def timed_call(action: Callable[[], object], times: int) -> float:
    """Median milliseconds of ``action``."""
    samples = []
    for _ in range(times):
        begin = time.perf_counter()
        action()
        samples.append((time.perf_counter() - begin) * 1e3)
    return statistics.median(samples)


def jailed(policy: SandboxPolicy, argv: list[str], own_uid: bool = True, filtered: bool = True,
           capture: bool = False, kind: type[Jail] | None = None) -> Prepare:
    """A ``prepare`` for :func:`timed_run`: ``argv`` inside the sandbox exactly as a bot starts
    there (the jail's own bubblewrap options and filter, passed through descriptors), with the
    ``setpriv`` step that drops to the bot's uid, or without it (``own_uid`` False: the
    namespaces alone); without the filter when ``filtered`` is False, or with the jail
    ``kind``; its output captured when ``capture``."""

    def prepare() -> tuple[list[str], Callable[[], None], dict[str, Any]]:
        jail = (kind or (Jail if filtered else UnfilteredJail))(policy, argv)
        args_fd, args_write = os.pipe()
        filter_fd, filter_write = os.pipe()
        command, data, rules = jail.command(args_fd, filter_fd)
        with open(args_write, "wb") as args, open(filter_write, "wb") as filtering:
            args.write(data)
            filtering.write(rules)
        if not own_uid:
            command = command[: command.index("--") + 1] + jail.argv

        def cleanup() -> None:
            os.close(args_fd)
            os.close(filter_fd)
            jail.destroy()

        extra: dict[str, Any] = {"pass_fds": (args_fd, filter_fd), "env": Jail.environment()}
        if capture:
            extra.update(capture_output=True, text=True)
        return command, cleanup, extra

    return prepare


def joining(host: cgroups.Host, argv: list[str]) -> Prepare:
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
        ("jail made and destroyed (its view, a uid slot)", timed_call(lambda: Jail(policy, [true]).destroy(), times)),
        ("`bwrap ... true`, namespaces and filter", timed_run([], times, jailed(policy, [true], own_uid=False))),
    ]
    if uid:
        steps.append(("`setpriv ... true` alone, outside bubblewrap", timed_run(setpriv, times)))
        steps.append(("`bwrap ... setpriv ... true`, as a bot starts", timed_run([], times, jailed(policy, [true]))))
    steps.append(("`python3 -c pass` (the Python bot's interpreter)", timed_run([sys.executable, "-c", "pass"], times)))
    steps.append(("the same inside `bwrap ... setpriv`", timed_run([], times, jailed(policy, [sys.executable, "-c", "pass"]))))
    return steps


def filter_at_start(policy: SandboxPolicy, argv: list[str], pairs: int) -> tuple[list[float], list[float]]:
    """Milliseconds of ``argv`` started in the sandbox as a bot starts, with the filter and
    without it, ``pairs`` times each, alternated (which goes first alternates too)."""
    samples: dict[bool, list[float]] = {True: [], False: []}
    for k in range(pairs):
        for filtered in ((True, False) if k % 2 == 0 else (False, True)):
            samples[filtered].append(run_once([], jailed(policy, argv, filtered=filtered)))
    return samples[True], samples[False]


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


# -- per request, per system call, the scratch check, whole matches ------------------------------


class Account:
    """Processor time between a seat's ``wait_ready`` and its ``close``, which in
    referee_pipe.py's seat loop is the timed loop: the referee's (every thread of this
    process: the seat layer, the scratch check, the watchdog) and the bot's own process's,
    with the time the bot spent runnable but waiting for a core (the machine's other work)."""

    def __init__(self) -> None:
        self.referee = self.bot = self.waited = 0.0
        self._pid = 0
        self._begun = (0.0, 0.0, 0.0)

    def begin(self, seat: ProcessSeat) -> None:
        self._pid = bot_process(seat)
        self._begun = (time.process_time(), *schedstat(self._pid))

    def end(self) -> None:
        ran, waited = schedstat(self._pid)
        self.referee = time.process_time() - self._begun[0]
        self.bot, self.waited = ran - self._begun[1], waited - self._begun[2]


def accounted(make: MakeSeat, account: Account) -> MakeSeat:
    """``make``, with the seats it makes keeping ``account`` from ``wait_ready`` to ``close``."""

    def factory(*args: Any, **kwargs: Any) -> ProcessSeat:
        seat = make(*args, **kwargs)
        ready, close = seat.wait_ready, seat.close

        def wait_ready(deadline: float) -> Any:
            answer = ready(deadline)
            account.begin(seat)
            return answer

        def closing(grace: float = 0.0) -> None:
            account.end()
            close(grace)

        seat.wait_ready = wait_ready  # type: ignore[method-assign]
        seat.close = closing  # type: ignore[method-assign]
        return seat

    return factory


def bot_process(seat: ProcessSeat) -> int:
    """The bot's own process: the seat's, or in the sandbox the last of bubblewrap's line."""
    assert seat._proc is not None
    pid = seat._proc.pid
    while True:
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as listing:
                children = listing.read().split()
        except OSError:
            return pid
        if not children:
            return pid
        pid = int(children[-1])


def schedstat(pid: int) -> tuple[float, float]:
    """Seconds ``pid`` has run on a core, and has waited for one while runnable."""
    try:
        with open(f"/proc/{pid}/schedstat") as stats:
            ran, waited, _ = stats.read().split()
    except (OSError, ValueError):
        return 0.0, 0.0
    return int(ran) / 1e9, int(waited) / 1e9


RequestFigures = tuple[float, float, float, float]
"""µs per request: wall time (the best round), the referee's and the bot's processor time
(each the least over rounds), and the bot's wait for a core (the median over rounds)."""


def per_request(bot: list[str], modes: dict[str, MakeSeat], requests: int, rounds: int) -> dict[str, RequestFigures]:
    """µs per request of referee_pipe.py's seat-layer loop, ``rounds`` times per configuration,
    the configurations alternating round by round, and under ``raw`` the plain pipe round trip
    measured in the same rounds (the floor, without the seat layer: wall time only)."""
    samples: dict[str, list[tuple[float, float, float, float]]] = {mode: [] for mode in ("raw", *modes)}
    for _ in range(rounds):
        samples["raw"].append((referee_pipe.raw_round_trip(bot, requests), 0.0, 0.0, 0.0))
        for mode, make in modes.items():
            account = Account()
            with seats_made_with(accounted(make, account)):
                wall = referee_pipe.seat_per_request(bot, requests)
            per = 1e6 / requests
            samples[mode].append((wall, account.referee * per, account.bot * per, account.waited * per))
    return {mode: (min(s[0] for s in got), min(s[1] for s in got), min(s[2] for s in got),
                   statistics.median(s[3] for s in got)) for mode, got in samples.items()}


SyscallFigures = tuple[str, float, float]
"""The seccomp mode and filter count seen inside, ns per ``getppid``, ns per ``fcntl``."""


def syscall_costs(policy: SandboxPolicy, loop: list[str], calls: int, runs: int) -> dict[str, SyscallFigures]:
    """The system-call loop run outside any sandbox, in the sandbox without a filter, under a
    filter that allows everything, and under cardcli's, alternated ``runs`` times: per way, the
    best over runs of each run's best round (the least disturbed by the machine's other work)."""
    argv = [*loop, "loop", str(calls)]
    ways: dict[str, Prepare | None] = {
        "off": None,
        "nofilter": jailed(policy, argv, filtered=False, capture=True),
        "allow-all": jailed(policy, argv, capture=True, kind=AllowAllJail),
        "on": jailed(policy, argv, capture=True),
    }
    seen: dict[str, list[list[str]]] = {way: [] for way in ways}
    for _ in range(runs):
        for way, prepare in ways.items():
            command, cleanup, extra = prepare() if prepare else (argv, lambda: None,
                                                                   {"capture_output": True, "text": True})
            try:
                done = subprocess.run(command, check=True, stdin=subprocess.DEVNULL, **extra)
            finally:
                cleanup()
            seen[way].append(done.stdout.split())
    figures = {}
    for way, outputs in seen.items():
        mode, filters = outputs[-1][0], outputs[-1][1]
        figures[way] = (f"seccomp {mode}, {filters} filter(s)",
                        min(float(o[2]) for o in outputs), min(float(o[3]) for o in outputs))
    return figures


def installing(loop: list[str], folder: Path, times: int) -> dict[str, float]:
    """Median µs the kernel takes to install cardcli's filter, and the allow-all one, on a
    fresh process (bubblewrap installs it twice at each start: on the sandbox's first process
    and on the bot's), ``times`` each, alternated."""
    files = {"cardcli's filter": folder / "filter.bpf", "allow-all filter": folder / "allow-all.bpf"}
    files["cardcli's filter"].write_bytes(seccomp.program())
    files["allow-all filter"].write_bytes(allow_all())
    samples: dict[str, list[float]] = {name: [] for name in files}
    for _ in range(times):
        for name, path in files.items():
            done = subprocess.run([*loop, "install", str(path)], check=True, capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL)
            samples[name].append(float(done.stdout))
    return {name: statistics.median(values) for name, values in samples.items()}


def micros_per_call(action: Callable[[], object], calls: int, rounds: int = 5) -> float:
    """Best of ``rounds`` µs per call of ``action``, called ``calls`` times a round."""
    best = float("inf")
    for _ in range(rounds):
        begin = time.perf_counter()
        for _ in range(calls):
            action()
        best = min(best, (time.perf_counter() - begin) / calls * 1e6)
    return best


def scratch_check(policy: SandboxPolicy, bot: list[str], calls: int, finds: int) -> list[tuple[str, float]]:
    """µs of each part of the scratch check on a running sandboxed ``bot``: the per-request
    check as ``ProcessSeat.ask`` makes it, its two steps (``Jail.attach`` once attached, and
    ``Jail.scratch_breach``, one ``fstatvfs``), a bare ``fstatvfs`` of the same descriptor, and
    the first ``attach`` of a jail (finding the scratch through ``/proc``, once per start)."""
    seat = ProcessSeat("bench", bot, sandbox=policy)
    seat.start()
    try:
        seat.wait_ready(time.monotonic() + 10)
        jail, proc = seat._jail, seat._proc
        assert jail is not None and proc is not None
        if not jail.attach(proc.pid):
            sys.exit("sandbox benchmark: the scratch of a running sandboxed bot was not found")
        scratch = jail._scratch
        assert scratch is not None
        pid = proc.pid
        firsts = []
        for _ in range(finds):
            fresh = Jail(policy, bot)
            try:
                begin = time.perf_counter()
                found = fresh.attach(pid)
                firsts.append((time.perf_counter() - begin) * 1e6)
                assert found
            finally:
                fresh.destroy()
        return [
            ("the whole check before a request (`_scratch_breach`)", micros_per_call(seat._scratch_breach, calls)),
            ("`Jail.attach`, once attached", micros_per_call(lambda: jail.attach(pid), calls)),
            ("`Jail.scratch_breach` (one `fstatvfs`, under its lock)", micros_per_call(jail.scratch_breach, calls)),
            ("a bare `os.fstatvfs` of the scratch", micros_per_call(lambda: os.fstatvfs(scratch), calls)),
            (f"the first `Jail.attach` (finding the scratch), median of {finds}", statistics.median(firsts)),
        ]
    finally:
        seat.close(GRACE)


def matches_per_second(bot: list[str], modes: dict[str, MakeSeat], matches: int, rounds: int) -> dict[tuple[str, bool], tuple[float, float]]:
    """Best of ``rounds`` (matches per second, µs per request) of referee_pipe.py's whole Peppa
    matches with four ``bot`` processes, started for every match or kept alive across them."""
    best: dict[tuple[str, bool], tuple[float, float]] = {}
    for _ in range(rounds):
        for keep in (False, True):
            for mode, make in modes.items():
                with seats_made_with(make):
                    micros, requests = referee_pipe.referee_per_request(bot, matches, keep_alive=keep)
                rate = matches / (micros * requests / 1e6)
                if rate > best.get((mode, keep), (0.0, 0.0))[0]:
                    best[mode, keep] = (rate, micros)
    return best


# -- report --------------------------------------------------------------------------------------


def print_requests(figures: dict[str, RequestFigures], labels: dict[str, str]) -> None:
    """One section 2 block: the floor, then each configuration (wall time against ``off``, and
    processor time), and the sandbox with its filter against the same sandbox without."""
    print(f"   {'':42} {'wall':>7} {'x off':>6} {'referee cpu':>12} {'bot cpu':>8} {'bot waited':>11}")
    print(f"   {'raw pipe round trip (no seat, no sandbox)':42} {figures['raw'][0]:7.1f}")
    for mode, label in labels.items():
        wall, referee, bot, waited = figures[mode]
        print(f"   {label:42} {wall:7.1f} {wall / figures['off'][0]:6.2f} {referee:12.2f} {bot:8.2f} {waited:11.1f}")
    if "nofilter" in figures:
        on, bare = figures["on"], figures["nofilter"]
        print(f"   {'the filter (on - nofilter)':42} {on[0] - bare[0]:+7.1f} {on[0] / bare[0]:6.2f} "
              f"{on[1] - bare[1]:+12.2f} {on[2] - bare[2]:+8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=30, help="starts of each bot in each configuration")
    parser.add_argument("--requests", type=int, default=20000, help="requests per per-request measurement")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the best is kept")
    parser.add_argument("--matches", type=int, default=10, help="Peppa matches per measurement")
    parser.add_argument("--syscalls", type=int, default=100000, help="system calls per round of the C loop")
    args = parser.parse_args()
    policy = sandbox_policy()
    modes = configs(policy)
    started = time.perf_counter()
    host = cgroups.host()
    assert host is not None
    print(f"sandbox: {support().detail}, {'a uid per bot' if support().own_uid else 'user namespace'}, "
          f"{host.label}; {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        echo = compile_c(folder, "echo_bot", referee_pipe.HERE / "echo_bot.c")
        (folder / "syscall_loop.c").write_text(SYSCALL_LOOP)
        loop = compile_c(folder, "syscall_loop", folder / "syscall_loop.c")
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
        print("\n   the filter at start-up, as a bot starts (`bwrap ... setpriv ...`), ms, pairs alternated:")
        print(f"   {'program':18} {'filter':>8} {'median':>8} {'p90':>8} {'pairs: median of with - without':>33}")
        true = shutil.which("true") or "/bin/true"
        for name, argv, pairs in (("true", [true], 2 * args.starts),
                                  ("python3 -c pass", [sys.executable, "-c", "pass"], args.starts)):
            with_filter, without = filter_at_start(policy, argv, pairs)
            for label, values in (("with", with_filter), ("without", without)):
                print(f"   {name:18} {label:>8} {statistics.median(values):8.2f} {p90(values):8.2f}")
            differences = [a - b for a, b in zip(with_filter, without)]
            print(f"   {name:18} {'':8} {statistics.median(with_filter) - statistics.median(without):+8.2f} "
                  f"{'':8} {statistics.median(differences):+33.2f}   ({pairs} pairs)")

        print(f"\n2. per request through the seat layer, us, {args.rounds} rounds x {args.requests} requests (wall: "
              "the best round; processor time: the least; waited: the median)")
        print("   C echo bot:")
        echo_micros = per_request(echo, modes, args.requests, args.rounds)
        print_requests(echo_micros, {"off": "off", "limits": "limits only (control group, watchdog)",
                                     "on": "sandbox on (with the filter)", "nofilter": "sandbox on without the filter"})
        print("   Python random_bot.py:")
        python_modes = {mode: modes[mode] for mode in ("off", "on", "nofilter")}
        python_micros = per_request(PYTHON_BOT, python_modes, args.requests, args.rounds)
        print_requests(python_micros, {"off": "off", "on": "sandbox on (with the filter)",
                                       "nofilter": "sandbox on without the filter"})
        tick = watchdog_tick(host, 1000)
        print(f"   the watchdog's reading of one bot's group:  {tick:7.1f} us every 50 ms "
              f"({tick / 50e3 * 400:.2f}% of a core for 4 bots)")

        runs = 7
        print(f"\n3. the filter itself: installing it, us (median of 30, alternated; {len(seccomp.program()) // 8} "
              f"instructions, the allow-all {len(allow_all()) // 8})")
        for name, micros in installing(loop, folder, 30).items():
            print(f"   {name:18} {micros:7.1f}")
        print(f"   one system call, C loop, ns per call (best of {runs} runs alternated, each the best of 5 x "
              f"{args.syscalls} calls)")
        costs = syscall_costs(policy, loop, args.syscalls, runs)
        print(f"   {'':10} {'getppid':>8} {'fcntl(F_GETFD)':>15}   seen inside")
        for way in ("off", "nofilter", "allow-all", "on"):
            seen, ppid, flags = costs[way]
            print(f"   {way:10} {ppid:8.1f} {flags:15.1f}   {seen}")
        for column, name in ((1, "getppid"), (2, "fcntl")):
            on, bare, allow = (float(costs[way][column]) for way in ("on", "nofilter", "allow-all"))
            print(f"   the filter's price for {name:8} {on - bare:+7.1f} ns ({on / bare:.2f} x), "
                  f"of which any filter at all {allow - bare:+.1f} ns")

        print(f"\n4. the scratch check, us per call (best of 5 x {args.requests} calls), C echo bot in the sandbox")
        checks = scratch_check(policy, echo, args.requests, 50)
        for label, micros in checks:
            print(f"   {label:62} {micros:7.2f}")
        print(f"   the check against one request, C echo bot sandboxed:  {checks[0][1] / echo_micros['on'][0] * 100:.1f}% "
              f"of its wall time, {checks[0][1] / echo_micros['on'][1] * 100:.1f}% of the referee's processor time")

        print(f"\n5. whole Peppa matches, 4 C echo bots, best of {args.rounds} x {args.matches} matches")
        rates = matches_per_second(echo, modes, args.matches, args.rounds)
        for keep, how in ((False, "started per match"), (True, "kept alive")):
            off_rate = rates["off", keep][0]
            for mode in modes:
                rate, per = rates[mode, keep]
                extra = (1 / rate - 1 / off_rate) * 1e3
                print(f"   {how:18} {mode:8} {rate:7.1f} matches/s  {per:7.1f} us/request  "
                      f"({rate / off_rate:.2f} x off, {extra:+6.1f} ms a match)")
    print(f"\n{time.perf_counter() - started:.0f} s; load average at the end {os.getloadavg()[0]:.1f} "
          f"(another process at work during the run inflates every figure, the ratios least)")


if __name__ == "__main__":
    main()
