"""The sandbox against a hostile entrant (tests/bots/intruder_bot.py), each attack with a real
process: what it can see, whom it can harm, what it leaves behind, and the limits of its
whole process tree. These tests need bubblewrap and control groups (``.ci/run`` installs
bubblewrap); where the machine refuses them they fail and say why, they never skip."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import socket
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

import pytest

from cardcli.seats import cgroups
from cardcli.seats.sandbox import support
from conftest import ROOT, answered_before_fault, live_processes, read_records, run_cli, run_json

INTRUDER = f"{sys.executable} {ROOT / 'tests/bots/intruder_bot.py'}"
FAST = ["--move-time", "5", "--startup-time", "10", "--quit-grace", "0.5"]


@pytest.fixture(scope="module", autouse=True)
def sandbox_available() -> None:
    assert support().bwrap is not None, f"the sandbox tests need bubblewrap: {support().detail}"
    assert cgroups.host() is not None, "the sandbox tests need control groups the referee may create"


def intruder(*flags: str) -> str:
    return " ".join((INTRUDER, *flags))


def victim(tmp_path: Path) -> tuple[str, str]:
    """A well-behaved bot whose process carries a mark no other process has, not even the
    referee, whose command line holds the victim's: its launcher builds the mark from two
    halves and starts the shipped bot under it."""
    half = uuid.uuid4().hex
    tmp_path.chmod(0o755)  # a sandboxed bot runs under a uid of its own: its files must be readable
    shutil.copy(ROOT / "bots/python/random_bot.py", tmp_path / "bot.py")
    launcher = tmp_path / "launcher.py"
    launcher.write_text("import os, sys\n"
                        f"os.execv(sys.executable, ['victim' + '_{half}', os.path.join(os.path.dirname(__file__), 'bot.py')])\n")
    return f"{sys.executable} {launcher}", f"victim_{half}"


def aim(mark: str) -> str:
    """The mark as the intruder takes it (see tests/bots/intruder_bot.py)."""
    return f"{mark[:3]}+{mark[3:]}"


def reports(stderr: Path) -> list[dict[str, Any]]:
    lines = [line for line in stderr.read_text().splitlines() if line.startswith("INTRUDER ")]
    assert lines, f"the intruder never reported: {stderr.read_text()[-2000:]}"
    return [json.loads(line[len("INTRUDER "):]) for line in lines]


def play(game: str, seats: list[str], tmp_path: Path, *extra: str) -> tuple[dict[str, Any], Path]:
    logs = tmp_path / "logs"
    record = tmp_path / "games.jsonl"
    args = ["play", game, "--seed", "3", *FAST, "--record", str(record), "--bot-stderr", str(logs), *extra]
    for seat in seats:
        args += ["--seat", seat]
    return run_json(*args), logs


def test_a_sandboxed_bot_sees_nothing_of_the_referee_or_the_others(tmp_path: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    record = tmp_path / "games.jsonl"
    secret = tmp_path / "logs"
    probes = [str(record), str(secret), str(tmp_path), str(ROOT / "cardcli"), "/etc/shadow", "/proc/1/environ",
              "/sys"]
    spy = intruder("--connect", str(port), *[f"--probe={p}" for p in probes])
    other, mark = victim(tmp_path)
    with listener:
        summary, logs = play("peppa", [spy, other, spy, other], tmp_path, "--sandbox", "on")
    assert summary["status"] == "complete" and summary["faults"] == []
    seen = reports(logs / "seat0.stderr")[0]
    twin = reports(logs / "seat2.stderr")[0]
    # no process but its own sandbox's: not the referee (and its --seed), not the other bots
    assert all(int(pid) < 10 for pid in seen["processes"]), seen["processes"]
    assert not any("--seed" in line or mark in line for line in seen["processes"].values())
    assert seen["env"] == ["HOME", "LANG", "PATH", "PWD", "TMPDIR"] and seen["hostname"] == "cardcli"
    assert seen["uid"] not in (0, twin["uid"]), "each bot runs under an unprivileged uid of its own"
    assert seen["connected"] is False and seen["wrote_own_dir"] is False
    for path in probes:
        assert seen["probes"][path].startswith("refused"), (path, seen["probes"][path])
    assert seen["cwd"] == "/tmp"


def test_the_spy_is_real_outside_the_sandbox(tmp_path: Path) -> None:
    """The same intruder without a sandbox learns the referee's seed: the attack is real."""
    other, mark = victim(tmp_path)
    summary, logs = play("peppa", [intruder(), other, "random", "random"], tmp_path, "--sandbox", "off")
    seen = reports(logs / "seat0.stderr")[0]
    assert any("--seed 3" in line for line in seen["processes"].values())
    assert any(mark in line for line in seen["processes"].values())


def test_referee_paths_inside_a_visible_directory_are_masked(tmp_path: Path) -> None:
    """The record and stderr files kept in the bot's own directory, even named on its command
    line, are not there for the bot."""
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    shutil.copy(ROOT / "tests/bots/intruder_bot.py", home / "bot.py")
    record, logs = home / "games.jsonl", home / "logs"
    record.write_text("")
    spy = f"{sys.executable} {home / 'bot.py'} --probe={record} --probe={logs} --probe={home}"
    summary = run_json("play", "peppa", "--seed", "5", *FAST, "--sandbox", "on", "--seat", spy,
                       "--seat", "random", "--seat", "random", "--seat", "random",
                       "--record", str(record), "--bot-stderr", str(logs))
    assert summary["faults"] == []
    seen = reports(logs / "seat0.stderr")[0]["probes"]
    assert seen[str(record)] in ("read: ", "refused: Permission denied") and seen[str(logs)] == "listed: "
    assert "bot.py" in seen[str(home)]


def test_signals_reach_no_one_from_the_sandbox(tmp_path: Path) -> None:
    """SIGKILL to every other bot and SIGSTOP to the referee: nobody is hurt, the match ends."""
    other, mark = victim(tmp_path)
    attacker = intruder("--kill", aim(mark), "--kill", "cardcli", "--stop", "cardcli", "--stop", aim(mark))
    summary, logs = play("peppa", [attacker, other, other, other], tmp_path, "--sandbox", "on")
    assert summary["status"] == "complete" and summary["faults"] == []
    seen = reports(logs / "seat0.stderr")[0]
    assert seen["killed"] == [] and seen["stopped"] == []
    names = [seat["bot"]["name"] for seat in read_records(tmp_path / "games.jsonl")[0]["seats"]]
    assert names == ["intruder"] + ["python-random"] * 3, "the victims were there to be attacked"


def test_the_kill_is_real_outside_the_sandbox(tmp_path: Path) -> None:
    other, mark = victim(tmp_path)
    summary, logs = play("peppa", [intruder("--kill", aim(mark)), other, other, other], tmp_path, "--sandbox", "off")
    assert {f["seat"] for f in summary["faults"]} == {1, 2, 3}
    assert {f["kind"] for f in summary["faults"]} == {"crash"}
    assert all("killed by signal SIGKILL" in f["detail"] for f in summary["faults"])
    assert len(reports(logs / "seat0.stderr")[0]["killed"]) == 3
    names = [seat["bot"]["name"] for seat in read_records(tmp_path / "games.jsonl")[0]["seats"]]
    assert names == ["intruder"] + ["python-random"] * 3, "each victim was killed after its handshake"


def test_a_tournament_with_a_hostile_entrant_finishes_and_its_victims_do_not_fault(tmp_path: Path) -> None:
    other, mark = victim(tmp_path)
    attacker = intruder("--kill", aim(mark), "--kill", "cardcli", "--stop", "cardcli", "--escape", f"escapee_{mark}")
    directory = tmp_path / "t"
    done = run_json("tournament", "peppa", "--dir", str(directory), "--seed", "9", "--deal-sets", "2", "-j", "2",
                    "--bot", f"intruder={attacker}", "--bot", f"victim={other}", "--bot", "house=random",
                    *FAST, timeout=300)
    assert done["sandbox"].startswith("bubblewrap")
    records = read_records(directory / "records.jsonl")
    assert len(records) == done["matches"] and all(r["status"] == "complete" for r in records)
    assert not [f for r in records for f in r["faults"]]
    names = {entrant: seat["bot"]["name"] for r in records
             for entrant, seat in zip(r["tournament"]["entrants"], r["seats"])}
    assert names == {"intruder": "intruder", "victim": "python-random", "house": None}, "all of them played"
    assert not live_processes((mark,))


def test_a_setsid_escapee_dies_with_its_bot(tmp_path: Path) -> None:
    """A double-forked, setsid'd child, alive while the match runs (the bot saw it), is gone
    when the match ends: with the sandbox its PID namespace ends, without it the bot's control
    group still holds what left its session."""
    mark = f"escapee_{uuid.uuid4().hex}"
    for sandbox in ("on", "off"):
        summary, logs = play("peppa", [intruder("--escape", mark), "random", "random", "random"], tmp_path,
                             "--sandbox", sandbox)
        assert summary["faults"] == []
        assert reports(logs / "seat0.stderr")[0]["escaped"] is True, "the escapee ran"
        assert not live_processes((mark,)), sandbox


def test_planted_symlinks_never_redirect_the_referee(tmp_path: Path) -> None:
    """A bot swaps the other seats' stderr files for links to a file elsewhere; the referee
    opens the next stderr file without following them (tested without the sandbox, where the
    bot can reach the directory at all), and in the sandbox the directory is not even there."""
    tmp_path.chmod(0o755)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    logs = tmp_path / "logs"
    crashing = f"{sys.executable} {ROOT / 'tests/bots/faulty_bot.py'} --crash-at 2"
    for sandbox in ("off", "on"):
        proc = run_cli("play", "peppa", "--seed", "4", *FAST, "--games", "2", "--sandbox", sandbox,
                       "--seat", intruder("--symlink", str(logs), str(precious)), "--seat", crashing,
                       "--seat", "random", "--seat", "random", "--bot-stderr", str(logs), check=True)
        assert "seat 1 crash" in proc.stdout and "seat 0" not in proc.stdout.split("fault:", 1)[1]
        seen = reports(logs / "seat0.stderr")
        assert (seen[0]["symlinked"] > 0) is (sandbox == "off")
        assert precious.read_text() == "keep me"
    assert not (logs / "seat1.stderr").is_symlink(), "the referee made its file afresh, the bot could not reach it"


@pytest.mark.parametrize(
    "attack, limit, detail",
    [
        (("--fork-cpu", "3"), ("--bot-cpu", "2"), r"CPU time limit of 2 s \(its processes used [2-9]\.\d\d s\)"),
        (("--fork-memory", "4", "100"), ("--bot-memory", "256"),
         r"memory limit of 256 MiB \(the kernel killed [1-9]\d* of its processes\)"),
        (("--fork-files", "4", "30"), ("--bot-files", "40"), r"open files limit of 40 \(its processes held \d+\)"),
        (("--fork-files", "40", "1"), ("--bot-procs", "16"), r"process limit of 16 \(the kernel refused [1-9]\d* forks\)"),
    ],
)
@pytest.mark.parametrize("sandbox", ["on", "off"])
def test_helpers_cannot_spread_a_tree_past_its_limits(attack, limit, detail, sandbox: str, tmp_path: Path) -> None:
    """Each helper stays under the per-process limit; together they go over, and the tree gets
    its limit fault, decided from the kernel's account; the other seats play on."""
    summary, _ = play("pigugnin", [intruder(*attack, "--hold", "15"), "random", "random", "random"], tmp_path,
                      "--sandbox", sandbox, *limit, "--move-time", "20")
    assert summary["status"] == "complete"
    assert [(f["seat"], f["kind"]) for f in summary["faults"]] == [(0, "limit")], summary["faults"]
    assert re.search(detail, summary["faults"][0]["detail"]), "the detail names what the kernel measured"
    assert answered_before_fault(read_records(tmp_path / "games.jsonl")[0], 0, "intruder") == [], \
        "the tree went over its limit during the attack, at the intruder's first request"


def test_the_sandbox_s_own_descriptors_do_not_count_against_the_bot(tmp_path: Path) -> None:
    """A tree just under --bot-files stays in the game: bubblewrap's own processes, which hold
    a few descriptors of their own, are not the bot's (counting them made a bot at its limit a
    limit fault or a crash depending on when the watchdog looked)."""
    summary, logs = play("pigugnin", [intruder("--fork-files", "1", "30", "--hold", "1"), "random", "random",
                                      "random"], tmp_path, "--sandbox", "on", "--bot-files", "40")
    assert summary["faults"] == [], summary["faults"]
    assert reports(logs / "seat0.stderr")[0]["uid"] != 0, "the intruder ran, in the sandbox"


def test_a_bot_that_prints_memory_error_is_a_crash_not_a_limit(tmp_path: Path) -> None:
    """A limit fault is the kernel's word, not the bot's: words on stderr prove nothing."""
    tmp_path.chmod(0o755)
    liar = tmp_path / "liar.py"
    liar.write_text("import sys\nprint('ready', flush=True)\nsys.stdin.readline()\n"
                    "print('MemoryError: Too many open files', file=sys.stderr)\nsys.exit(1)\n")
    summary, _ = play("peppa", [f"{sys.executable} {liar}", "random", "random", "random"], tmp_path,
                      "--bot-memory", "256", "--bot-files", "40", "--sandbox", "on")
    assert [(f["seat"], f["kind"]) for f in summary["faults"]] == [(0, "crash")]
    assert "exited with status 1" in summary["faults"][0]["detail"], "the liar ran to its own exit"
    assert answered_before_fault(read_records(tmp_path / "games.jsonl")[0], 0, None) == []


def test_no_bot_process_plays_two_rotations_of_one_deal_set_and_no_file_survives(tmp_path: Path) -> None:
    """With duplicate deals a bot that kept its hands would know the other seats' cards when
    the deal set comes back rotated: each process meets a deal set once, and in the sandbox
    its scratch is empty at every match."""
    from cardcli.tournament import runner
    from cardcli.tournament.config import Config

    directory = tmp_path / "t"
    config = Config(
        game="peppa", variant=None, options={}, players=4, deal_sets=3, seed=5,
        entrants=(("intruder", intruder("--remember")), ("house", "random")),
        settings={"move_time": 5.0, "startup_time": 10.0, "quit_grace": 0.5, "keep_info": True},
        sandbox={"mode": "on"},
    )
    runner.create(directory, config)
    runner.run(directory, config, 1, lambda *_: None)
    records = read_records(directory / "records.jsonl")
    assert len(records) == len(config.schedule()) == 3 * 2
    played: dict[str, set[int]] = {}
    for record in records:
        for _seat, lines in record["info"].items():
            token, memories = lines[0].split()[1], int(lines[1].split()[1])
            assert memories == 0, "a file from an earlier match survived"
            deal_set = record["tournament"]["deal_set"]
            assert deal_set not in played.setdefault(token, set()), "one process met a deal set twice"
            played[token].add(deal_set)
    assert any(len(sets) > 1 for sets in played.values()), "processes were kept alive between deal sets"


@pytest.mark.parametrize("sandbox", ["on", "off"])
def test_a_tournament_bot_cannot_read_the_tournament_even_naming_its_files(sandbox: str, tmp_path: Path) -> None:
    """The master seed in config.json and the earlier rotations of the deal being played in
    records.jsonl: named on the bot's own command line, and still not there (without the
    sandbox the same bot reads them: the attack is real)."""
    from cardcli.tournament import runner
    from cardcli.tournament.config import Config

    directory = tmp_path / "t"
    directory.mkdir()
    secrets = [directory / "config.json", directory / "records.jsonl", directory]
    config = Config(
        game="peppa", variant=None, options={}, players=4, deal_sets=2, seed=5,
        entrants=(("intruder", intruder(*[f"--probe={p}" for p in secrets])), ("house", "random")),
        settings={"move_time": 5.0, "startup_time": 10.0, "quit_grace": 0.5, "keep_info": True},
        sandbox={"mode": sandbox},
    )
    runner.create(directory, config)
    runner.run(directory, config, 1, lambda *_: None)
    records = read_records(directory / "records.jsonl")
    probes = [line for record in records[1:] for lines in record["info"].values() for line in lines
              if line.startswith("probe ")]
    assert len(probes) >= 3 * 2, "the intruder probed every secret in every match after the first"
    if sandbox == "on":
        assert all("refused" in line for line in probes), probes
    else:
        assert any("config.json 'read: {" in line for line in probes), probes
        assert any("records.jsonl 'read: {" in line for line in probes), probes


def test_the_sandbox_changes_nothing_a_fair_bot_sees(tmp_path: Path) -> None:
    """Deterministic bots give the same records with the sandbox on and off (timings and the
    sandbox's own description aside)."""
    def records(sandbox: str) -> list[dict[str, Any]]:
        directory = tmp_path / sandbox
        run_cli("tournament", "seep", "--dir", str(directory), "--seed", "21", "--deal-sets", "2", "-j", "2",
                "--bot", f"py={sys.executable} {ROOT / 'bots/python/random_bot.py'} --seed 4",
                "--bot", f"sh=bash {ROOT / 'bots/bash/random_bot.sh'}", "--sandbox", sandbox, check=True, timeout=300)
        found = read_records(directory / "records.jsonl")
        for record in found:
            for key in ("started", "finished"):
                record.pop(key)
            for seat in record["seats"]:
                seat.pop("sandbox")
            for deal in record["deals"]:
                for move in deal["moves"]:
                    move.pop("ms")
        return sorted(found, key=lambda r: r["tournament"]["index"])

    on, off = records("on"), records("off")
    assert len(on) == 2 * 2  # two deal sets, each in two rotations of the two partnerships
    assert on == off


def test_sandbox_on_refuses_to_run_unguarded(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    proc = run_cli("play", "peppa", "--sandbox", "on", "--seat", INTRUDER, "--seat", "random", "--seat", "random",
                   "--seat", "random", env_path=str(empty))
    assert proc.returncode == 2 and "bubblewrap" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    auto = run_cli("play", "peppa", "--sandbox", "auto", "--seat", INTRUDER, "--seat", "random", "--seat", "random",
                   "--seat", "random", env_path=str(empty))
    assert auto.returncode == 0 and "unguarded" in auto.stderr


def test_an_unprivileged_referee_sandboxes_in_a_user_namespace() -> None:
    """A referee run by an ordinary user (here uid 65534, with the system's Python of the same
    version and a world-readable copy of cardcli and its packages) gets bubblewrap's user
    namespace instead of a uid per bot: the bot still sees no other process, no environment,
    no path of the referee's."""
    python = shutil.which(f"python{sys.version_info.major}.{sys.version_info.minor}", path="/usr/bin:/bin")
    assert python is not None, "this test needs the system's Python of the suite's version in /usr/bin"
    tmp_path = Path(tempfile.mkdtemp(prefix="cardcli-unprivileged-"))  # pytest's own are closed to others
    try:
        run_unprivileged(python, tmp_path)
    finally:
        shutil.rmtree(tmp_path)


def run_unprivileged(python: str, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    import attr
    import attrs
    import click
    import openskill
    import cardcli
    import pyseccomp

    site = Path(click.__file__).parent.parent
    for package in (click, attrs, attr, openskill, cardcli):
        folder = Path(package.__file__).parent
        shutil.copytree(folder, tree / folder.name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(pyseccomp.__file__, tree)
    for compiled in site.glob("*__mypyc*.so"):
        shutil.copy(compiled, tree)
    shutil.copy(ROOT / "tests/bots/intruder_bot.py", tree)
    logs = tmp_path / "logs"  # writable by the referee's uid: its record and the stderr files
    secret = logs / "games.jsonl"
    logs.mkdir()
    for path in (tmp_path, tree, logs, *tree.rglob("*")):
        path.chmod(0o777 if path == logs else 0o755)
    spy = f"{python} {tree / 'intruder_bot.py'} --probe={secret} --probe={logs}"
    proc = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env", "-i", "PATH=/usr/bin:/bin",
         f"PYTHONPATH={tree}", "HOME=/tmp", python, "-m", "cardcli", "play", "peppa", "--sandbox", "on", "--seed", "3",
         "--seat", spy, "--seat", "random", "--seat", "random", "--seat", "random", "--bot-stderr", str(logs),
         "--record", str(secret)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "the referee's uid in a user namespace" in proc.stderr
    seen = reports(logs / "seat0.stderr")[0]
    assert list(seen["processes"]) == ["1"] and "--seed" not in seen["processes"]["1"]
    assert seen["env"] == ["HOME", "LANG", "PATH", "PWD", "TMPDIR"]
    assert all(result.startswith("refused") for result in seen["probes"].values()), seen["probes"]
    assert read_records(secret)[0]["seats"][0]["sandbox"].startswith("bubblewrap")


# -- the gaps a hostile entrant found: each attack real, each refused ---------------------------


def own_dir(tmp_path: Path, name: str = "bot") -> Path:
    """A directory of the bot's own holding the intruder, readable by other users."""
    folder = tmp_path / name
    folder.mkdir(mode=0o755, parents=True)
    tmp_path.chmod(0o755)
    shutil.copy(ROOT / "tests/bots/intruder_bot.py", folder / "bot.py")
    return folder


def test_a_tokens_file_beside_the_bot_is_masked(tmp_path: Path) -> None:
    """The referee's tokens, key and certificate kept in the bot's own directory are not there
    for the bot, whether or not it names them."""
    home = own_dir(tmp_path)
    tokens, key = home / "tokens.txt", home / "server.key"
    tokens.write_text("rival 0123456789abcdef0123456789abcdef\n")
    key.write_text("-----BEGIN PRIVATE KEY-----\n")
    spy = f"{sys.executable} {home / 'bot.py'} --probe={tokens} --probe={key} --probe={home}"
    summary, logs = play("peppa", [spy, "random", "random", "random"], tmp_path, "--sandbox", "on",
                         "--tokens", str(tokens), "--key", str(key), "--cert", str(key))
    assert summary["faults"] == []
    seen = reports(logs / "seat0.stderr")[0]["probes"]
    assert "0123456789abcdef" not in seen[str(tokens)] and "PRIVATE" not in seen[str(key)], seen
    assert "bot.py" in seen[str(home)]


def test_a_bot_installed_in_a_bin_directory_sees_only_that_directory(tmp_path: Path) -> None:
    """A program at DIR/bin/BOT sees DIR/bin, never DIR: a bot at ~/bin/mybot once saw the
    whole home."""
    home = tmp_path / "home"
    program = own_dir(home, "bin") / "bot.py"
    program.write_text("#!/usr/bin/python3\n" + program.read_text())
    program.chmod(0o755)
    secret = home / "secret"
    secret.write_text("the master seed")
    secret.chmod(0o644)
    home.chmod(0o755)
    summary, logs = play("peppa", [f"{program} --probe={secret} --probe={home}", "random", "random", "random"],
                         tmp_path, "--sandbox", "on")
    assert summary["faults"] == []
    seen = reports(logs / "seat0.stderr")[0]["probes"]
    assert seen[str(secret)].startswith("refused") and seen[str(home)] == "listed: bin", seen
    proc = run_cli("check-bot", "peppa", "--players", "4", "--sandbox", "on", "--", str(program))
    sees, _, note = next(line for line in proc.stdout.splitlines() if line.startswith("[sees] ")).partition("; note: ")
    assert f"{home / 'bin'} (its program)" in sees and f"{home} (" not in sees, proc.stdout
    assert note.endswith(f"add --sandbox-bind {home}"), "the organiser is told what would show the rest"


def test_an_entrants_dir_that_climbs_to_the_root_is_refused(tmp_path: Path) -> None:
    home = own_dir(tmp_path)
    entrants = home / "entrants.toml"
    entrants.write_text(f'[[entrant]]\nname = "climber"\ncommand = "{sys.executable} bot.py"\n'
                        f'dir = "{"../" * (len(home.parts) + 2)}"\n'
                        '[[entrant]]\nname = "r"\ncommand = "random"\n')
    proc = run_cli("tournament", "peppa", "--entrants", str(entrants), "--bot", "s=random", "--bot", "t=random",
                   "--dir", str(tmp_path / "t"), "--deal-sets", "1", "--sandbox", "on")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "/ (its working directory)" in proc.stderr
    assert "the whole file system" in proc.stderr and not (tmp_path / "t").exists()


def test_an_entrant_that_would_see_another_entrant_s_directory_is_refused(tmp_path: Path) -> None:
    """An entrant started in the directory that holds another's (``dir = "."``) would read its
    code and its files."""
    league = tmp_path / "league"
    own_dir(league, "a")
    own_dir(league, "b")
    entrants = league / "entrants.toml"
    entrants.write_text(f'[[entrant]]\nname = "a"\ncommand = "{sys.executable} a/bot.py"\ndir = "."\n'
                        f'[[entrant]]\nname = "b"\ncommand = "{sys.executable} bot.py"\ndir = "b"\n')
    proc = run_cli("tournament", "peppa", "--entrants", str(entrants), "--bot", "r=random", "--bot", "s=random",
                   "--dir", str(tmp_path / "t"), "--deal-sets", "1", "--sandbox", "on")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"holds entrant b's {league / 'b'}" in proc.stderr
    entrants.write_text(entrants.read_text().replace('dir = "."', 'dir = "a"').replace("a/bot.py", "bot.py"))
    table = run_json("tournament", "peppa", "--entrants", str(entrants), "--bot", "r=random", "--bot", "s=random",
                     "--dir", str(tmp_path / "t2"), "--deal-sets", "1", "--max-deals", "1", "--sandbox", "on",
                     *FAST, "--json")
    assert str(league / "a") in [shown["path"] for shown in table["sees"]["a"]["shown"]]
    assert str(league / "b") not in [shown["path"] for shown in table["sees"]["a"]["shown"]]


@pytest.mark.parametrize("sandbox", ["on", "off"])
def test_two_seats_cannot_signal_through_file_locks(sandbox: str, tmp_path: Path) -> None:
    """Partners who see the same read-only file (the program both run) could pass one bit per
    file and poll through a lock on it. Outside the sandbox the channel is real."""
    home = own_dir(tmp_path)
    shared = str(home / "bot.py")
    talker = f"{sys.executable} {shared} --lock {shared}"
    listener = f"{sys.executable} {shared} --watch-lock {shared}"
    summary, logs = play("peppa", [talker, "random", listener, "random"], tmp_path, "--sandbox", sandbox)
    assert summary["faults"] == []
    held = reports(logs / "seat0.stderr")[0]["lock"]
    seen = reports(logs / "seat2.stderr")[0]["watch_lock"]
    if sandbox == "off":
        assert held == {"flock": "ok", "fcntl": "ok"} and seen["flock"] and seen["fcntl"], (held, seen)
    else:
        assert held == {"flock": "refused: No locks available", "fcntl": "refused: No locks available"}, held
        assert not seen["flock"] and not seen["fcntl"], seen


KEYRING_REFEREE = """
import ctypes, os, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
assert libc.syscall(250, 1, b"cardcli-test") >= 0, "cannot join a new session keyring"  # KEYCTL_JOIN_SESSION_KEYRING
key = libc.syscall(248, b"user", b"referee-secret", b"the master seed", 15, -3)  # add_key to the session keyring
assert key >= 0, os.strerror(ctypes.get_errno())
done = subprocess.run(sys.argv[1:])
buffer = ctypes.create_string_buffer(64)
size = libc.syscall(250, 11, key, buffer, 64)  # KEYCTL_READ
print("REFEREE-KEY", buffer.raw[:size].decode() if size >= 0 else os.strerror(ctypes.get_errno()), file=sys.stderr)
sys.exit(done.returncode)
"""


def test_the_referee_s_session_keyring_is_out_of_a_bot_s_reach(tmp_path: Path) -> None:
    """A referee started in a session keyring that holds a key: the bot can neither read it nor
    clear it (the filter refuses every keyring call)."""
    home = own_dir(tmp_path)
    launcher = tmp_path / "keyring_referee.py"
    launcher.write_text(KEYRING_REFEREE)
    logs, record = tmp_path / "logs", tmp_path / "games.jsonl"
    proc = subprocess.run(
        [sys.executable, str(launcher), sys.executable, "-m", "cardcli", "play", "peppa", "--seed", "3", *FAST,
         "--sandbox", "on", "--seat", f"{sys.executable} {home / 'bot.py'} --keyring referee-secret",
         "--seat", "random", "--seat", "random", "--seat", "random", "--bot-stderr", str(logs),
         "--record", str(record), "--json"],
        capture_output=True, text=True, timeout=120, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    seen = reports(logs / "seat0.stderr")[0]["keyring"]
    assert seen == {"found": "refused: Operation not permitted"}, seen
    assert "REFEREE-KEY the master seed" in proc.stderr


def test_the_kernel_s_open_surface_is_closed_to_a_sandboxed_bot(tmp_path: Path) -> None:
    """New user namespaces (and mounts in them), keys, io_uring: refused by the filter."""
    home = own_dir(tmp_path)
    summary, logs = play("peppa", [f"{sys.executable} {home / 'bot.py'} --kernel", "random", "random", "random"],
                         tmp_path, "--sandbox", "on")
    assert summary["faults"] == []
    seen = reports(logs / "seat0.stderr")[0]["kernel"]
    assert all(result == "refused: Operation not permitted" for result in seen.values()), seen


def test_a_bot_that_fills_its_scratch_is_a_limit_fault_and_the_host_keeps_its_space(tmp_path: Path) -> None:
    """A bot writing 1 GiB into its scratch stops at --bot-disk (256 MiB by default), sees that
    size and not the host's free space, and is a 'limit' fault with what it wrote."""
    home = own_dir(tmp_path)
    free_before = shutil.disk_usage(tempfile.gettempdir()).free
    summary, logs = play("peppa", [f"{sys.executable} {home / 'bot.py'} --fill 1024", "random", "random", "random"],
                         tmp_path, "--sandbox", "on", "--on-fault", "replace")
    faults = summary["faults"]
    assert [(f["seat"], f["kind"]) for f in faults] == [(0, "limit")], faults
    assert "scratch disk limit of 256 MiB" in faults[0]["detail"] and "MiB)" in faults[0]["detail"], faults
    assert shutil.disk_usage(tempfile.gettempdir()).free > free_before - (128 << 20)


def test_a_smaller_scratch_is_what_the_bot_sees(tmp_path: Path) -> None:
    home = own_dir(tmp_path)
    summary, logs = play("peppa", [f"{sys.executable} {home / 'bot.py'} --fill 4", "random", "random", "random"],
                         tmp_path, "--sandbox", "on", "--bot-disk", "16")
    assert summary["faults"] == []
    seen = reports(logs / "seat0.stderr")[0]["fill"]
    assert seen == {"written_mib": 4, "error": None, "size_mib": 16}, seen
