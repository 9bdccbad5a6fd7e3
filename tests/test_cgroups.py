"""Reading and writing control groups, v1 and v2, on directory trees laid out as the kernel
lays them out. The kernel's side is tested for real where this machine has it (v1: the limit
tests of test_sandbox.py and test_hostile.py); a v2 machine's files are checked here, since
this one binds every controller to v1."""

from __future__ import annotations

from pathlib import Path

from cardcli.seats import cgroups
from cardcli.seats.limits import Limits


def test_v2_is_found_where_the_referee_s_group_delegates_the_controllers(tmp_path: Path) -> None:
    parent = tmp_path / "user.slice" / "me"
    parent.mkdir(parents=True)
    (parent / "cgroup.subtree_control").write_text("cpu memory pids\n")
    mounts = [f"cgroup2 {tmp_path} cgroup2 rw,nosuid 0 0"]
    host = cgroups._v2(mounts, ["0::/user.slice/me"])
    assert host == cgroups.Host(2, (("unified", parent),))
    (parent / "cgroup.subtree_control").write_text("cpu\n")
    assert cgroups._v2(mounts, ["0::/user.slice/me"]) is None, "memory and pids must be delegated"


def test_v1_needs_every_controller_and_places_groups_under_the_referee_s_own(tmp_path: Path) -> None:
    mounts = [f"cgroup {tmp_path / c} cgroup rw,{c} 0 0" for c in ("memory", "pids", "cpuacct")]
    own = ["4:memory:/jobs/42", "8:pids:/", "2:cpuacct,cpu:/"]
    host = cgroups._v1(mounts, own)
    assert host is not None and dict(host.parents) == {
        "memory": tmp_path / "memory" / "jobs/42", "pids": tmp_path / "pids", "cpuacct": tmp_path / "cpuacct"}
    assert cgroups._v1(mounts[:2], own) is None


def test_a_v2_group_is_limited_read_and_killed_through_its_own_files(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    folder.mkdir()
    group = cgroups.Group(2, {"unified": folder})
    Limits(memory_mb=64, processes=20).setup(group)
    assert (folder / "memory.max").read_text() == str(64 << 20) and (folder / "pids.max").read_text() == "20"
    (folder / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\n")
    (folder / "pids.events").write_text("max 3\n")
    (folder / "cgroup.procs").write_text("")
    assert (group.cpu_seconds(), group.oom_kills(), group.forks_refused(), group.pids()) == (2.5, 1, 3, [])
    assert Limits(memory_mb=64).breach(None, group) == "memory limit of 64 MiB (the kernel killed 1 of its processes)"
    assert Limits(cpu_seconds=2).breach(None, group) == "CPU time limit of 2 s (its processes used 2.50 s)"
    (folder / "cgroup.kill").write_text("")
    group.kill()
    assert (folder / "cgroup.kill").read_text() == "1"


def test_a_v1_group_reads_each_controller_s_counters(tmp_path: Path) -> None:
    dirs = {c: tmp_path / c for c in ("memory", "pids", "cpuacct")}
    for folder in dirs.values():
        folder.mkdir()
    group = cgroups.Group(1, dirs)
    (dirs["memory"] / "memory.memsw.limit_in_bytes").write_text("")
    Limits(memory_mb=32, processes=8).setup(group)
    assert (dirs["memory"] / "memory.limit_in_bytes").read_text() == str(32 << 20)
    assert (dirs["memory"] / "memory.memsw.limit_in_bytes").read_text() == str(32 << 20)
    (dirs["cpuacct"] / "cpuacct.usage").write_text("1500000000\n")
    (dirs["memory"] / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    (dirs["pids"] / "pids.events").write_text("max 0\n")
    assert (group.cpu_seconds(), group.oom_kills(), group.forks_refused()) == (1.5, 2, 0)
    assert Limits(processes=8).breach(None, group) is None, "no fork was refused"
