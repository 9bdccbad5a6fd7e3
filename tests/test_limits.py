"""The launcher that puts a bot in its control group and under its rlimits, through
``prlimit`` and through the Python fallback for machines without it: the same limits either
way, seen from inside the started program."""

from __future__ import annotations

import subprocess

import pytest

from cardcli.seats import cgroups, limits
from cardcli.seats.limits import Limits

REPORT = ["/bin/sh", "-c", "ulimit -t; ulimit -n; ulimit -v; cat /proc/self/cgroup"]


@pytest.mark.parametrize("prlimit", [True, False])
def test_the_launcher_applies_the_limits_and_the_group(prlimit: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    host = cgroups.host()
    assert host is not None, "the launcher test needs control groups the referee may create"
    if not prlimit:
        monkeypatch.setattr(limits.shutil, "which", lambda *args, **kwargs: None)
    group = host.new_group("launcher")
    try:
        grouped = Limits(cpu_seconds=3, open_files=50, memory_mb=64).launch(REPORT, group)
        alone = Limits(cpu_seconds=3, open_files=50, memory_mb=64).launch(REPORT)
        assert (grouped[0] == "/bin/sh") is prlimit
        cpu, files, memory, *groups = subprocess.run(grouped, capture_output=True, text=True, check=True).stdout.split()
        assert (cpu, files, memory) == ("4", "50", "unlimited"), "with a group: the watchdog first, memory the group's"
        name = next(iter(group.dirs.values())).name  # the same name in every hierarchy
        assert sum(line.endswith("/" + name) for line in groups) == len(group.dirs)
        cpu, files, memory, *_ = subprocess.run(alone, capture_output=True, text=True, check=True).stdout.split()
        assert (cpu, files, memory) == ("3", "50", str(64 << 10)), "without a group, an address-space limit"
    finally:
        group.remove()


def test_no_limits_and_no_group_start_the_bot_itself() -> None:
    assert Limits().launch(["bot", "--x"]) == ["bot", "--x"]
