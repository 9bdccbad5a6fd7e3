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
- a filesystem that is the system's directories **read-only**, the bot's own program and the
  directories named in its command line read-only, a writable **scratch** directory at
  ``/tmp`` (also ``$HOME``) that the referee empties between matches, and nothing else: the
  tournament directory, records, the referee's configuration and other bots' files are not
  there at all (and are masked where they lie inside a directory the bot may see);
- a clean environment (``PATH``, ``HOME``, ``TMPDIR``, ``LANG``).

Bubblewrap (Debian's ``bubblewrap``) is used rather than our own namespace code: it is small,
audited, used by Flatpak, and handles the subtle parts (mount propagation, ``/proc`` for the new
PID namespace, dying with its parent). Its arguments go through a file descriptor
(``--args``), so even its own command line, visible inside as process 1, tells nothing.
"""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Mapping, Sequence

import attrs

from ..errors import CardcliError, UsageError

MODES = ("auto", "on", "off")
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
"""Visible read-only to every sandboxed bot: the system's programs, libraries and settings."""
UID_BASE = 1_990_000_000
UID_SLOTS = 1 << 16
"""Bots get uids from UID_BASE on, far above any a system hands out to its users."""
UID_LOCKS = Path("/run/cardcli-uids")
DEFAULT_PROCESSES = 256
"""The process (and thread) limit of a sandboxed tree when none is given: a fork bomb stops
there instead of at the machine's end."""


class SandboxError(CardcliError):
    """A bot that cannot be started in the sandbox as it stands (recorded as its crash)."""


@attrs.frozen
class SandboxPolicy:
    """What was asked for: ``--sandbox``, ``--bot-network``, ``--sandbox-bind`` and the
    referee's own paths that no bot may see."""

    mode: str = "off"
    network: bool = False
    binds: tuple[str, ...] = ()
    """Further paths every bot may read (data a bot needs outside its own directory)."""
    hidden: tuple[str, ...] = ()
    """The referee's own paths (tournament directory, records, stderr files), masked where
    they lie inside a directory a bot may see."""


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
    own_uid = os.geteuid() == 0 and shutil.which("setpriv", path="/usr/bin:/bin") is not None
    probe = [bwrap, *_namespaces(own_uid, False), "--die-with-parent", *_system_binds(), "--proc", "/proc",
             "--dev", "/dev", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as err:
        return Support(None, f"bubblewrap cannot run: {err}")
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return Support(None, f"the kernel refuses the namespaces bubblewrap needs: {why[-1] if why else done.returncode}")
    return Support(bwrap, version or "bubblewrap", own_uid)


def resolve(policy: SandboxPolicy) -> SandboxPolicy | None:
    """The policy in force: None when off, or when ``auto`` finds no sandbox here. ``on``
    without a usable sandbox is refused, since the user asked not to run bots unguarded."""
    if policy.mode == "off":
        return None
    if support().bwrap is None:
        if policy.mode == "on":
            raise UsageError(f"--sandbox on: {support().detail}")
        return None
    return policy


def describe(policy: SandboxPolicy | None, tree_limits: str | None) -> str:
    """One line for the output and the record: what guards the bots. ``off`` asks nothing of
    the machine (no probe for a referee that runs bots unguarded); where ``auto`` found no
    sandbox, the command has said why on stderr."""
    if policy is None:
        return "off"
    uid = "a uid per bot" if support().own_uid else "the referee's uid in a user namespace"
    limits = tree_limits or "per-process limits (no control groups)"
    return f"{support().detail}, {uid}, {'network' if policy.network else 'no network'}, {limits}"


class Jail:
    """The sandbox of one bot process: its uid, its scratch directory, its bubblewrap command.
    Made when the bot starts, destroyed when it ends; the scratch is emptied between matches."""

    def __init__(self, policy: SandboxPolicy, argv: Sequence[str], workdir: str | None = None,
                 env: Mapping[str, str] | None = None):
        self.policy = policy
        self.env = dict(env or {})
        """Variables added to the clean environment (an entrants file's ``env``)."""
        self.own_uid = support().own_uid
        self._uid_lock: int | None = None
        self.uid: int | None = self._allocate_uid() if self.own_uid else None
        self.scratch = Path(tempfile.mkdtemp(prefix="cardcli-bot-"))
        if self.uid is not None:
            os.chown(self.scratch, self.uid, self.uid)
            os.chmod(self.scratch, 0o711)  # bubblewrap enters it as root without DAC override
        self.argv, named = _bot_argv(argv, workdir, self.env.get("PATH"))
        self._visible: list[str] = []
        own = [workdir] if workdir is not None else []
        for path in [*own, *named, *(str(Path(extra).resolve()) for extra in policy.binds)]:
            secret = any(_inside(path, hidden) for hidden in policy.hidden)
            if path not in self._visible and not secret and not _under_any(path, SYSTEM_DIRS):
                self._visible.append(path)
        self.workdir = workdir if workdir is not None and (workdir in self._visible
                                                           or _under_any(workdir, SYSTEM_DIRS)) else None
        """Where the bot starts: its working directory, read-only, when it has one the sandbox
        may show; else its scratch, ``/tmp``."""
        self._keep = _mount_chains(self._visible, policy.hidden)
        if self.own_uid:
            for path in [*self._visible, *(a for a in self.argv if os.path.isfile(a))]:
                if not _open_to_others(path):
                    self.destroy()
                    raise SandboxError(f"{path} is not readable by other users, and a sandboxed bot runs under "
                                       "a uid of its own: make it readable (chmod o+rX) or use --sandbox off")

    @property
    def tool(self) -> str:
        """The sandbox's own program (its processes hold the bot, they are not the bot)."""
        return support().bwrap or "bwrap"

    def command(self, args_fd: int) -> tuple[list[str], bytes]:
        """The command that starts the sandbox, with bubblewrap reading its options from
        ``args_fd``, and those options, NUL-separated, for the caller to write there (the
        command itself must stand on bubblewrap's own command line)."""
        args = [*_namespaces(self.own_uid, self.policy.network), "--die-with-parent", "--new-session",
                "--hostname", "cardcli"]
        args += _system_binds()
        args += ["--proc", "/proc", "--dev", "/dev", "--bind", str(self.scratch), "/tmp"]
        made: set[str] = set()
        for path in self._visible:
            args += [*_parents(path, made), "--ro-bind", path, path]
        for path in self.policy.hidden:
            if os.path.exists(path) and any(_inside(path, seen) and path != seen for seen in self._visible):
                args += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
        args += ["--chdir", self.workdir or "/tmp", "--clearenv"]
        for name, value in {**self.environment(), **self.env}.items():
            args += ["--setenv", name, value]
        command = [self.tool, "--args", str(args_fd), "--"]
        if self.uid is not None:
            command += ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                        "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--"]
        return command + self.argv, b"".join(a.encode() + b"\0" for a in args)

    @staticmethod
    def environment() -> dict[str, str]:
        """All the environment a sandboxed bot gets (the referee's may hold secrets)."""
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}

    def reset(self) -> None:
        """Empty the scratch directory, so nothing a bot wrote survives into its next match.
        The directories bubblewrap made as mount points for bound paths stay (removing one
        would unmount that path under the running bot); only what the bot wrote goes."""
        _empty(self.scratch, self._keep, self.scratch)

    def destroy(self) -> None:
        shutil.rmtree(self.scratch, onerror=_force)
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


def _bot_argv(argv: Sequence[str], workdir: str | None = None,
              search: str | None = None) -> tuple[list[str], list[str]]:
    """The command with every path made absolute (the bot may start in its scratch directory),
    and the directories it needs to see: its program's installation (the directory above a
    ``bin``, so an interpreter finds its libraries), and the directory of every argument that
    names a path (a script, a data file; an argument names a path when it holds a ``/`` or is
    a file in the working directory: ``workdir``, else the referee's). A bare program name is
    looked up on ``search`` (a ``PATH``; None: the referee's). A directory that is, or lies
    in, one of the referee's own paths is never shown, even when the command names it."""
    here = workdir or os.getcwd()
    program = argv[0]
    found = program if os.sep in program else (shutil.which(program, path=search) or program)
    found = os.path.abspath(os.path.join(here, found))
    visible = [_installation(found), _installation(os.path.realpath(found))]
    result = [found]
    for arg in argv[1:]:
        named = os.path.join(here, arg)
        if (os.sep in arg or os.path.isfile(named)) and os.path.exists(named):
            path = os.path.abspath(named)
            visible.append(path if os.path.isdir(path) else os.path.dirname(path))
            result.append(path)
        else:
            result.append(arg)
    return result, visible


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


def _installation(program: str) -> str:
    folder = os.path.dirname(program)
    return os.path.dirname(folder) if os.path.basename(folder) == "bin" else folder


def _open_to_others(path: str) -> bool:
    """Whether a user with no relation to the file's owner may read it (and enter it, for a
    directory): what a bot under its own uid needs of its program and its directory."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True
    needed = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & needed == needed


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _under_any(path: str, folders: Sequence[str]) -> bool:
    return any(_inside(os.path.realpath(path) if os.path.exists(path) else path, f) for f in folders)


def _mount_chains(visible: Sequence[str], hidden: Sequence[str]) -> set[str]:
    """Every path under /tmp that is, or leads to, a mount point inside the sandbox (bound and
    masked paths lie at the same place inside as outside, and the scratch is /tmp inside)."""
    chains = set()
    for path in [*visible, *hidden]:
        if _inside(path, "/tmp") and path != "/tmp":
            parts = Path(path).relative_to("/tmp").parts
            for k in range(1, len(parts) + 1):
                chains.add("/".join(parts[:k]))
    return chains


def _empty(folder: Path, keep: set[str], root: Path) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        relative = os.path.relpath(entry.path, root)
        if relative in keep:
            if entry.is_dir(follow_symlinks=False):
                _empty(Path(entry.path), keep, root)
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, onerror=_force)
        else:
            try:
                os.unlink(entry.path)
            except OSError:
                pass


def _force(function: object, path: str, exc_info: object) -> None:
    """rmtree's error handler: a bot may leave directories without write or search permission
    (its own files, to make them stick); the referee owns them or is root, so it opens them
    up and tries again."""
    try:
        parent = os.path.dirname(path)
        os.chmod(parent, stat.S_IRWXU)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, stat.S_IRWXU)
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        print(f"cardcli: could not remove {path}", file=sys.stderr)
