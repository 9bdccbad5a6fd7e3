"""The system-call filter of every sandboxed bot: what the namespaces leave open, closed.

Namespaces decide what a bot can *see*; the kernel's surface a bot can *call* is the other
half. Without a filter, an unprivileged bot may still create user and mount namespaces and
mount in them, read and clear the referee's session keyring, reach io_uring, BPF and
perf_event (the kernel's most exploited subsystems), and take file locks on the read-only files
every seat sees, which the other seats observe: a covert channel that lets partners tell each
other their hands. The filter refuses these calls, modelled on the default profile of
Docker/containerd (which the same languages' runtimes are known to live under):

- **namespaces and mounts**: ``unshare``, ``setns``, ``clone`` with a ``CLONE_NEW*`` flag, the
  mount API (``mount``, ``umount2``, ``pivot_root``, ``open_tree``, ``move_mount``,
  ``fsopen``/``fsconfig``/``fsmount``/``fspick``, ``mount_setattr``), ``chroot``;
  ``clone3`` answers ``ENOSYS`` (its flags lie in memory a filter cannot read), so the C
  library falls back to ``clone``, whose flags it can, as under Docker;
- **the kernel keyring**: ``keyctl``, ``add_key``, ``request_key``: nothing of the referee's
  keys is reachable, and a bot cannot keep keys of its own either;
- **kernel attack surface**: ``io_uring_*``, ``bpf``, ``perf_event_open``, ``userfaultfd``,
  kernel modules, ``kexec``, ``reboot``, swap, accounting, quotas, ``syslog``, the handle
  calls (``open_by_handle_at`` once let a container read the host's files), ``iopl``/``ioperm``;
- **the clocks**: setting the time or adjusting the clock;
- **signals between seats through shared files**: ``flock`` and the ``fcntl`` locks
  (``F_SETLK``, ``F_OFD_SETLK``, ... answer ``ENOLCK``, "no locks available", as a file
  system without locks would), leases, directory notification (``F_NOTIFY``), inotify and
  fanotify, each of which lets one seat see what another does to a file both can read.

``ptrace`` stays allowed, as in Docker's profile on current kernels: a bot's PID namespace
holds only its own tree, and under a uid of its own nothing else would be traceable anyway.

The filter is compiled by libseccomp (Debian's ``libseccomp2``, which ``apt`` itself depends
on) through the ``pyseccomp`` bindings, never hand-written BPF: libseccomp knows every
architecture's call numbers and closes the other ABIs of the machine (a 32-bit ``int 0x80``
call, an x32 call) by killing the caller. It is compiled once per process and handed to
bubblewrap, which installs it just before it runs the bot (after ``no_new_privs``).
"""

from __future__ import annotations

import errno
import functools
import tempfile
from typing import Any

from ..errors import CardcliError

REFUSED = (
    # namespaces, mounts and the root
    "unshare", "setns", "mount", "umount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    # the kernel keyring
    "keyctl", "add_key", "request_key",
    # kernel attack surface
    "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "perf_event_open", "userfaultfd",
    "init_module", "finit_module", "delete_module", "create_module", "get_kernel_syms", "query_module",
    "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd",
    "syslog", "lookup_dcookie", "name_to_handle_at", "open_by_handle_at", "iopl", "ioperm", "uselib",
    "ustat", "sysfs", "_sysctl", "nfsservctl", "vhangup", "sethostname", "setdomainname",
    "process_madvise",
    # the clocks
    "settimeofday", "stime", "clock_settime", "clock_adjtime", "adjtimex",
    # watching files another seat can read
    "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark",
)
"""Calls that answer ``EPERM`` (Docker's answer for what its profile does not allow)."""

LOCKS = ("flock",)
"""Calls that answer ``ENOLCK``."""

CLONE_NAMESPACES = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
"""``clone`` flags that make a namespace (``CLONE_NEWTIME`` shares its bit with the exit
signal in ``clone``, and exists only for ``unshare`` and ``clone3``, both refused whole)."""

FCNTL_LOCKS = {"F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37,
               "F_OFD_SETLKW": 38}
"""``fcntl`` commands that take or test a record lock: ``ENOLCK``."""
FCNTL_REFUSED = {"F_SETLEASE": 1024, "F_NOTIFY": 1026}
"""``fcntl`` commands that watch a file for another's use: ``EPERM``."""


class FilterUnavailable(CardcliError):
    """libseccomp (or its bindings) is missing: the sandbox cannot filter system calls."""


@functools.lru_cache(maxsize=1)
def program() -> bytes:
    """The compiled filter, as bubblewrap's ``--seccomp`` reads it (a ``sock_filter`` array).
    Raises :class:`FilterUnavailable` where libseccomp cannot be loaded."""
    try:
        import pyseccomp
    except (ImportError, OSError, RuntimeError, AttributeError) as err:
        raise FilterUnavailable(f"the system-call filter cannot be built ({err}): it needs the pyseccomp package "
                                "and the libseccomp2 library") from None
    seccomp: Any = pyseccomp
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    refuse, no_lock = seccomp.ERRNO(errno.EPERM), seccomp.ERRNO(errno.ENOLCK)
    native = seccomp.system_arch()
    for name in REFUSED:
        _add(rules, seccomp, native, refuse, name)
    for name in LOCKS:
        _add(rules, seccomp, native, no_lock, name)
    _add(rules, seccomp, native, seccomp.ERRNO(errno.ENOSYS), "clone3")
    for flag in CLONE_NAMESPACES.values():
        _add(rules, seccomp, native, refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    for command in FCNTL_LOCKS.values():
        _add(rules, seccomp, native, no_lock, "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    for command in FCNTL_REFUSED.values():
        _add(rules, seccomp, native, refuse, "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    with tempfile.TemporaryFile() as compiled:
        rules.export_bpf(compiled)
        compiled.seek(0)
        return compiled.read()


def _add(rules: Any, seccomp: Any, native: int, action: int, name: str, *conditions: Any) -> None:
    """One rule, where this architecture has the call at all (``stime`` and ``create_module``,
    say, exist only on some)."""
    if seccomp.resolve_syscall(native, name) < 0:
        return
    rules.add_rule(action, name, *conditions)
