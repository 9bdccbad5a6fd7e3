"""The sandbox around a bot: bubblewrap namespaces, a uid of its own, a private scratch.

A competition runs code written by strangers. Without a sandbox a bot shares the referee's
user, filesystem and process table: it can read the seed from the referee's command line, the
records of earlier rotations of the deal it is playing, signal the other bots, or leave
processes behind. Each sandboxed bot instead runs in:

- its own **PID namespace** (it sees no other process; when the namespace's first process
  ends, the kernel ends every process in it, so ``setsid`` is no escape), **network**
  namespace (no network but its own loopback unless ``--bot-network``), **IPC**, **UTS** and
  **mount** namespaces;
- a **uid of its own** when the referee runs as root (bubblewrap sets up the namespaces with
  root's rights, then ``setpriv`` drops to a uid allocated for this bot alone, with no
  capabilities and ``no_new_privs``); an unprivileged referee gets bubblewrap's user
  namespace instead, where the bot's processes keep the referee's uid outside but cannot see
  or reach any process outside their PID namespace;
- a filesystem that is the system's directories **read-only**, what the bot may see
  (:mod:`.visibility`: its program's directory, the directories its command line names, what
  the organiser binds) read-only, and a **scratch** at ``/tmp`` (also ``$HOME``): a tmpfs of
  ``--bot-disk`` MiB inside the sandbox, emptied between matches and gone with the bot; the
  tournament directory, records, the referee's configuration, tokens and keys, and other bots'
  files are not there at all (and are masked where they lie inside a directory the bot may
  see);
- a **system-call filter** (:mod:`.seccomp`): no new namespaces, mounts, keyrings, io_uring,
  BPF, file locks or file watches;
- a clean environment (``PATH``, ``HOME``, ``TMPDIR``, ``LANG``).

Bubblewrap (Debian's ``bubblewrap``) is used rather than our own namespace code: it is small,
audited, used by Flatpak, and handles the subtle parts (mount propagation, ``/proc`` for the new
PID namespace, dying with its parent). Its arguments go through a file descriptor
(``--args``), so even its own command line, visible inside as process 1, tells nothing.
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import os
import shutil
import stat
import subprocess
import threading
import time
import zlib
from pathlib import Path
from typing import Callable, Iterable, Mapping

import attrs

from ..errors import CardcliError, UsageError
from . import seccomp
from .policy import SandboxPolicy
from .visibility import SYSTEM_DIRS

UID_BASE = 1_990_000_000
UID_SLOTS = 1 << 16
"""Bots get uids from UID_BASE on, far above any a system hands out to its users."""
UID_LOCKS = Path("/run/cardcli-uids")


class SandboxError(CardcliError):
    """A bot that cannot be started in the sandbox as it stands (recorded as its crash)."""


@attrs.frozen
class Support:
    """Whether this machine can sandbox, and how."""

    bwrap: str | None
    detail: str
    """The tool and its version, or why the sandbox is unavailable."""
    own_uid: bool = False
    """True when each bot gets a uid of its own (the referee runs as root)."""


@functools.lru_cache(maxsize=None)
def support() -> Support:
    """Probe once per process: is bubblewrap installed, and may it create the namespaces?"""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Support(None, "bubblewrap (bwrap) is not installed")
    try:
        rules = seccomp.program()
    except seccomp.FilterUnavailable as err:
        return Support(None, str(err))
    own_uid = os.geteuid() == 0 and shutil.which("setpriv", path="/usr/bin:/bin") is not None
    adopt_orphans()
    read_end, write_end = os.pipe()
    probe = [bwrap, *_namespaces(own_uid, False), "--die-with-parent", *_system_binds(), "--proc", "/proc",
             "--dev", "/dev", "--size", str(1 << 20), "--tmpfs", "/tmp", "--seccomp", str(read_end), "--", "true"]
    try:
        with open(write_end, "wb") as pipe:
            pipe.write(rules)
        done = subprocess.run(probe, capture_output=True, timeout=20, stdin=subprocess.DEVNULL, pass_fds=(read_end,))
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as err:
        return Support(None, f"bubblewrap cannot run: {err}")
    finally:
        os.close(read_end)
        reap_adopted()
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return Support(None, f"the kernel refuses the namespaces bubblewrap needs: {why[-1] if why else done.returncode}")
    return Support(bwrap, version or "bubblewrap", own_uid)


def describe(policy: SandboxPolicy | None, tree_limits: str | None) -> str:
    """One line for the output and the record: what guards the bots. ``off`` asks nothing of
    the machine (no probe for a referee that runs bots unguarded); where ``auto`` found no
    sandbox, the command has said why on stderr."""
    if policy is None:
        return "off"
    uid = "a uid per bot" if support().own_uid else "the referee's uid in a user namespace"
    limits = tree_limits or "per-process limits (no control groups)"
    return (f"{support().detail}, {uid}, {'network' if policy.network else 'no network'}, system-call filter, "
            f"scratch {policy.disk_mib} MiB, {limits}")


class Jail:
    """The sandbox of one bot process: its uid, what it may see, its bubblewrap command, and
    its scratch. Made when the bot starts, destroyed when it ends; the scratch is emptied
    between matches.

    The scratch is a tmpfs that bubblewrap mounts at ``/tmp`` inside the sandbox with the
    size of ``--bot-disk``: the kernel bounds it, and ``statvfs`` inside shows that size, not
    the host's free space. The referee reaches it through the bot's own ``/proc/PID/root``
    and keeps a descriptor of it (:meth:`attach`), so that it can measure and empty it
    whatever the bot does to its paths, and measure it still after the bot died."""

    def __init__(self, policy: SandboxPolicy, argv: list[str], workdir: str | None = None,
                 env: Mapping[str, str] | None = None, binds: Iterable[str] = (), show_workdir: bool = False):
        self.policy = policy
        self.env = dict(env or {})
        """Variables added to the clean environment (an entrants file's ``env``)."""
        try:
            self.view = policy.view(argv, workdir, self.env, binds, show_workdir)
        except UsageError as err:
            raise SandboxError(str(err)) from None
        self.argv = list(self.view.argv)
        self.own_uid = support().own_uid
        self._uid_lock: int | None = None
        self._scratch: int | None = None
        """A descriptor of the scratch's root, once found (:meth:`attach`)."""
        self._scratch_lock = threading.Lock()
        """The watchdog's thread measures the scratch while the referee's empties or closes it."""
        self.uid: int | None = self._allocate_uid() if self.own_uid else None
        if self.own_uid:
            for path in [*self.view.paths, *(a for a in self.argv if os.path.isfile(a))]:
                if not _open_to_others(path):
                    self.destroy()
                    raise SandboxError(f"{path} is not readable by other users, and a sandboxed bot runs under "
                                       "a uid of its own: make it readable (chmod o+rX) or use --sandbox off")

    @property
    def tool(self) -> str:
        """The sandbox's own program (its processes hold the bot, they are not the bot)."""
        return support().bwrap or "bwrap"

    @property
    def disk_bytes(self) -> int:
        return self.policy.disk_mib << 20

    def command(self, args_fd: int, filter_fd: int) -> tuple[list[str], bytes, bytes]:
        """The command that starts the sandbox, with bubblewrap reading its options from
        ``args_fd`` and its system-call filter from ``filter_fd``; those options (NUL-separated)
        and the filter, for the caller to write there (the command itself must stand on
        bubblewrap's own command line)."""
        args = [*_namespaces(self.own_uid, self.policy.network), "--die-with-parent", "--new-session",
                "--hostname", "cardcli"]
        args += _system_binds()
        args += ["--proc", "/proc", "--dev", "/dev",
                 "--perms", "1777", "--size", str(self.disk_bytes), "--tmpfs", "/tmp"]
        made: set[str] = set()
        for path in self.view.paths:
            args += [*_parents(path, made), "--ro-bind", path, path]
        for path in self.view.masked:
            args += (["--size", "4096", "--tmpfs", path, "--remount-ro", path] if os.path.isdir(path)
                     else ["--ro-bind", "/dev/null", path])
        args += ["--seccomp", str(filter_fd), "--chdir", self.view.workdir or "/tmp", "--clearenv"]
        for name, value in {**self.environment(), **self.env}.items():
            args += ["--setenv", name, value]
        command = [self.tool, "--args", str(args_fd), "--"]
        if self.uid is not None:
            command += ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                        "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--"]
        return command + self.argv, b"".join(a.encode() + b"\0" for a in args), seccomp.program()

    @staticmethod
    def environment() -> dict[str, str]:
        """All the environment a sandboxed bot gets (the referee's may hold secrets)."""
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}

    def attach(self, sandbox_pid: int) -> bool:
        """Find the scratch of the sandbox that bubblewrap ``sandbox_pid`` runs, once it is
        mounted, and keep a descriptor of it. True once attached. The scratch is recognised by
        its size: bubblewrap's other mounts are not of that size, and the bot can mount
        nothing (the filter)."""
        with self._scratch_lock:
            if self._scratch is None:
                self._scratch = _find_scratch(sandbox_pid, self.disk_bytes)
            return self._scratch is not None

    def scratch_breach(self) -> str | None:
        """The scratch's limit, when the bot filled it (the kernel refused it a write)."""
        with self._scratch_lock:
            if self._scratch is None:
                return None
            try:
                found = os.fstatvfs(self._scratch)
            except OSError:
                return None
        if found.f_bavail * found.f_frsize >= 1 << 16:
            return None
        used = (found.f_blocks - found.f_bfree) * found.f_frsize
        return f"scratch disk limit of {self.policy.disk_mib} MiB (it wrote {used / (1 << 20):.1f} MiB)"

    def reset(self, sandbox_pid: int) -> None:
        """Empty the scratch, so nothing a bot wrote survives into its next match. The mount
        points bubblewrap made for shown paths stay (removing one would unmount that path
        under the running bot); only what the bot wrote goes."""
        if self.attach(sandbox_pid):
            with self._scratch_lock:
                if self._scratch is not None:
                    _empty(self._scratch)

    def destroy(self) -> None:
        with self._scratch_lock:
            if self._scratch is not None:
                os.close(self._scratch)
                self._scratch = None
        if self._uid_lock is not None:
            os.close(self._uid_lock)
            self._uid_lock = None

    def _allocate_uid(self) -> int:
        """A uid no other live bot on this machine has: each slot is a lock file held (flock)
        while its bot lives; the kernel releases it when the holder dies, however it dies."""
        UID_LOCKS.mkdir(mode=0o700, exist_ok=True)
        start = zlib.crc32(f"{os.getpid()}/{id(self)}".encode()) % UID_SLOTS
        for k in range(UID_SLOTS):
            slot = (start + k) % UID_SLOTS
            fd = os.open(UID_LOCKS / str(slot), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self._uid_lock = fd
            return UID_BASE + slot
        raise UsageError("no free uid for another sandboxed bot")


def _namespaces(own_uid: bool, network: bool) -> list[str]:
    """Every namespace but, with ``--bot-network``, the network. With a uid of its own the bot
    needs no user namespace (one would leave that uid unmapped); without, the user namespace
    is what lets an unprivileged bubblewrap create the others."""
    spaces = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if not network:
        spaces.append("--unshare-net")
    if not own_uid:
        spaces.append("--unshare-user")
    return spaces


def _system_binds() -> list[str]:
    args = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


def _parents(path: str, made: set[str]) -> list[str]:
    """Options that make the directories leading to ``path`` inside the sandbox, searchable by
    the bot (bubblewrap would make them with mode 0700, closed to a bot of another uid)."""
    args = []
    parts = Path(path).parts
    for k in range(2, len(parts)):
        folder = str(Path(*parts[:k]))
        if folder not in made and folder != "/tmp":
            made.add(folder)
            args += ["--perms", "0755", "--dir", folder]
    return args


def _open_to_others(path: str) -> bool:
    """Whether a user with no relation to the file's owner may read it (and enter it, for a
    directory): what a bot under its own uid needs of its program and its directory."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True
    needed = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & needed == needed


def _find_scratch(sandbox_pid: int, size: int) -> int | None:
    """A descriptor of the scratch of the sandbox run by bubblewrap ``sandbox_pid``, once it is
    mounted (None before). The scratch is told by its size: bubblewrap's other mounts are not
    of that size, and the bot can mount nothing (the filter)."""
    for pid in _children(sandbox_pid):
        try:
            fd = os.open(f"/proc/{pid}/root/tmp", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            found = os.fstatvfs(fd)
            if found.f_blocks * found.f_frsize == size and os.fstat(fd).st_dev != os.stat(f"/proc/{pid}/root").st_dev:
                fd, kept = -1, fd
                return kept
        except OSError:
            pass
        finally:
            if fd >= 0:
                os.close(fd)
    return None


PR_SET_CHILD_SUBREAPER = 36


_adopter: int | None = None
"""The process that made itself a subreaper (a forked child does not inherit that)."""


def adopt_orphans() -> None:
    """Make this process the reaper of the orphans its children leave (``prctl``'s
    ``PR_SET_CHILD_SUBREAPER``), once per process: a tournament's forked workers do not inherit
    it. Bubblewrap's first process exits as soon as the bot does, while the sandbox's own init
    (the PID namespace's process 1, which bubblewrap forked) is still ending: that init is
    orphaned every time. Without this it goes to the nearest subreaper above the referee, which
    may never wait for it (a test runner, a service manager's user instance) and keeps it as a
    ``<defunct>`` process for good; with it, the referee adopts it and :func:`reap_adopted`
    waits for it (when a bot is closed, and when the process exits)."""
    global _adopter
    if _adopter == os.getpid():
        return
    _adopter = os.getpid()
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        return  # no prctl: the orphans go to init, which reaps them
    atexit.register(reap_adopted, seconds=1.0)


def reap_adopted(session: int | None = None, seconds: float = 5.0) -> int:
    """Wait for the children this process adopted (see :func:`adopt_orphans`) that are a
    sandbox's init, and those of bot session ``session`` (an unguarded bot's children, orphaned
    when it ended): by now they have been killed, so each ends within moments. Only those: a
    child this process started itself is its ``subprocess.Popen``'s to wait for. Returns how
    many were reaped."""
    own = os.getpid()
    left = [pid for pid in _adopted(own) if _sandbox_init(pid) or (session is not None and _session(pid) == session != pid)]
    reaped = 0
    deadline = time.monotonic() + seconds
    while left:
        for pid in list(left):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid  # reaped meanwhile by another seat's close
            if done:
                left.remove(pid)
                reaped += 1
        if left and time.monotonic() > deadline:
            break
        if left:
            time.sleep(0.005)
    return reaped


def _adopted(own: int) -> list[int]:
    """The children of process ``own`` (of every one of its threads)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{own}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{own}/task/{task}/children") as listing:
                found += [int(word) for word in listing.read().split()]
        except (OSError, ValueError):
            continue
    return found


def _sandbox_init(pid: int) -> bool:
    """Whether ``pid`` is bubblewrap's process 1 of a PID namespace below this one."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    spaces = fields.get("NSpid", "").split()
    return len(spaces) > 1 and spaces[-1] == "1" and fields.get("Name", "").strip() == "bwrap"


def _session(pid: int) -> int | None:
    """The session of process ``pid`` (None once gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[3])
    except (OSError, IndexError, ValueError):
        return None


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (bubblewrap's: the sandbox's first process)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(word) for word in listing.read().split()]
    except (OSError, ValueError):
        return []


def _empty(folder: int) -> None:
    """Remove everything in the directory open as ``folder`` but mount points (the shown and
    masked paths bubblewrap placed under /tmp, and the directories that lead to them, which
    stay because they are not empty). Every step is relative to an open descriptor and follows
    no link, so a bot that swaps a directory for a link while this runs makes it remove nothing
    outside its scratch."""
    try:
        device = os.fstat(folder).st_dev
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            found = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if found.st_dev != device:
            continue
        if stat.S_ISDIR(found.st_mode):
            try:
                inner = _open_dir(entry.name, folder)
            except OSError:
                continue
            try:
                _empty(inner)
            finally:
                os.close(inner)
            _quietly(os.rmdir, entry.name, folder)
        else:
            _quietly(os.unlink, entry.name, folder)


def _open_dir(name: str, folder: int) -> int:
    """Open the directory ``name`` in ``folder`` without following a link; a directory its bot
    closed to its owner (an unprivileged referee's bot shares its uid) is opened up first,
    through a descriptor that cannot be a link."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.open(name, flags, dir_fd=folder)
    except PermissionError:
        handle = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=folder)
        try:
            os.chmod(f"/proc/self/fd/{handle}", stat.S_IRWXU)
        finally:
            os.close(handle)
        return os.open(name, flags, dir_fd=folder)


def _quietly(remove: Callable[..., None], name: str, folder: int) -> None:
    """Remove, where the kernel lets us: a directory that leads to a mount point is not empty,
    and what the bot removed itself meanwhile is gone already."""
    try:
        remove(name, dir_fd=folder)
    except OSError:
        pass
