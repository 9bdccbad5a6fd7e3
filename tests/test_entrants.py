"""An entrants file (``tournament --entrants FILE.toml``): each entrant's command, working
directory, environment and options, relative paths taken from the file's directory, the
command line's ``--bot`` and ``--bot-option`` over the file, and every mistake in a hostile
file a one-line error (exit status 2) naming the file, the entrant and the key."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cardcli.errors import UsageError
from cardcli.tournament.entrants import MAX_KEY_PARTS, deepest_key, load
from conftest import ROOT, read_records, run_cli

CLOCK = ROOT / "tests/bots/clock_bot.py"


def tournament(entrants: Path, directory: Path, *extra: str) -> dict:
    proc = run_cli("tournament", "pigugnin", "--entrants", str(entrants), "--deal-sets", "1", "--max-deals", "1",
                   "--seed", "6", "--dir", str(directory), "-j", "1", "--json", *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_an_entrants_file_gives_each_bot_its_command_directory_environment_and_options(tmp_path: Path) -> None:
    """The file lies in a folder of its own, away from where the tournament is started
    (the repository): ``dir`` and the log paths are relative to the file."""
    home = tmp_path / "league"
    (home / "clock").mkdir(parents=True)
    (home / "entrants.toml").write_text(f"""
# a list command, a relative dir, an environment and options
[[entrant]]
name = "clock"
command = ["{sys.executable}", "{CLOCK}", "--log", "bot.log", "--show-env", "LEAGUE", "--declare", "level=1"]
dir = "clock"
env = {{ LEAGUE = "spring 2027" }}
options = {{ level = 4 }}

# a seat spec, without dir: it starts in the file's directory
[[entrant]]
name = "spec"
command = "{sys.executable} {CLOCK} --log spec.log --declare fast=false"
options = {{ fast = true }}

[[entrant]]
name = "heur"
command = "heuristic"
""")
    table = tournament(home / "entrants.toml", tmp_path / "t", "--bot", "r=random", "--sandbox", "off")
    assert [row["entrant"] for row in table["entrants"]] and {r["entrant"] for r in table["entrants"]} == {
        "clock", "spec", "heur", "r"}
    log = (home / "clock" / "bot.log").read_text().splitlines()
    assert f"cwd {home / 'clock'}" in log and "env LEAGUE=spring 2027" in log and "setoption level 4" in log
    assert "setoption fast true" in (home / "spec.log").read_text().splitlines()
    config = json.loads((tmp_path / "t" / "config.json").read_text())
    assert [name for name, _ in config["entrants"]] == ["clock", "spec", "heur", "r"]
    assert config["entrant_settings"]["clock"] == {"dir": str(home / "clock"), "dir_shown": True,
                                                   "env": {"LEAGUE": "spring 2027"}, "options": {"level": "4"}}
    assert config["entrant_settings"]["spec"]["dir"] == str(home) and "dir_shown" not in config["entrant_settings"]["spec"]
    assert "heur" not in config["entrant_settings"]


def test_a_sandboxed_bot_starts_in_its_directory_with_its_environment(tmp_path: Path) -> None:
    """With the sandbox (where the machine has one), the working directory is shown to the bot
    read-only and it starts there; its variables are added to the clean environment. The bot
    reports on its stderr, kept with ``--bot-stderr``."""
    home = tmp_path / "league"
    (home / "bin").mkdir(parents=True)
    for folder in (tmp_path, home, home / "bin"):
        folder.chmod(0o755)  # a sandboxed bot may run under a uid of its own
    (home / "clock.py").write_text(CLOCK.read_text())
    (home / "entrants.toml").write_text(f"""
[[entrant]]
name = "clock"
command = "{sys.executable} ../clock.py --log - --show-env LEAGUE"
dir = "bin"
env = {{ LEAGUE = "autumn" }}
""")
    stderr_dir = tmp_path / "stderr"
    tournament(home / "entrants.toml", tmp_path / "t", "--bot", "r=random", "--bot-stderr", str(stderr_dir))
    reports = [path.read_text().splitlines() for path in stderr_dir.glob("clock.*")]
    assert reports and all(f"cwd {home / 'bin'}" in r and "env LEAGUE=autumn" in r for r in reports), reports


def test_the_command_line_overrides_the_file(tmp_path: Path) -> None:
    """``--bot NAME=SPEC`` replaces the file's entrant of that name (its command, run as any
    --bot is); ``--bot-option`` replaces one of its options; others are added after the
    file's."""
    (tmp_path / "entrants.toml").write_text(f"""
[[entrant]]
name = "a"
command = "{sys.executable} {CLOCK} --log {tmp_path / 'a.log'} --declare level=1"
options = {{ level = 1 }}

[[entrant]]
name = "b"
command = "{sys.executable} {CLOCK} --log {tmp_path / 'b-file.log'} --declare level=1"
options = {{ level = 2 }}
""")
    tournament(tmp_path / "entrants.toml", tmp_path / "t", "--bot",
               f"b={sys.executable} {CLOCK} --log {tmp_path / 'b-cli.log'} --declare level=0", "--bot", "c=first",
               "--bot-option", "a:level=9", "--sandbox", "off")
    assert "setoption level 9" in (tmp_path / "a.log").read_text()
    assert not (tmp_path / "b-file.log").exists()
    assert "setoption level 2" in (tmp_path / "b-cli.log").read_text()
    config = json.loads((tmp_path / "t" / "config.json").read_text())
    assert [name for name, _ in config["entrants"]] == ["a", "b", "c"]
    record = read_records(tmp_path / "t" / "records.jsonl")[0]
    assert {s["spec"] for s in record["seats"]} <= {"a", "b", "c"}


GOOD = '[[entrant]]\nname = "a"\ncommand = "random"\n'
"""A first entrant that is fine, so each hostile case below is about the second."""


@pytest.mark.parametrize("text, message", [
    ('entrant = "random"', "'entrant' must be an array of tables ([[entrant]]), not a text"),
    ("[entrant]\nname = 'a'\ncommand = 'random'", "'entrant' must be an array of tables ([[entrant]]), not a table"),
    ('title = "spring"\n' + GOOD, "unknown key 'title' (an entrants file holds [[entrant]] tables)"),
    ("", "no [[entrant]] table"),
    (GOOD + '[[entrant]]\nname = "b"\ncmd = "random"', "entrant 'b': unknown key 'cmd' (the keys are name, command"),
    (GOOD + "[[entrant]]\nname = 3\ncommand = 'random'", "entrant 2: name: must be a text, not an integer"),
    (GOOD + "[[entrant]]\ncommand = 'random'", "entrant 2: name: missing"),
    (GOOD + "[[entrant]]\nname = 'a'\ncommand = 'first'", "entrant 'a': name: given twice (entrants 1 and 2)"),
    (GOOD + "[[entrant]]\nname = 'b'", "entrant 'b': command: missing"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = { run = 'x' }",
     "entrant 'b': command: must be a text (a seat spec) or an array of texts (a program and its arguments), "
     "not a table"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = []", "entrant 'b': command: an empty program name"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'no-such-program-xyz'",
     "entrant 'b': command: 'no-such-program-xyz' is neither a built-in player"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = './missing.py'", "entrant 'b': command: no such program: ./missing.py"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\ndir = 'nowhere'", "entrant 'b': dir: no such directory: "),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\ndir = 'entrants.toml'", "entrant 'b': dir: not a directory: "),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\ndir = ['x']",
     "entrant 'b': dir: must be a text (a directory), not an array"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\nenv = 'A=1'",
     "entrant 'b': env: must be a table of texts (NAME = \"value\"), not a text"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\nenv = { A = 1 }", "entrant 'b': env: A: must be a text, not an integer"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\nenv = { '1A' = 'x' }", "entrant 'b': env: '1A' is not a variable name"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\noptions = 'level=1'",
     "entrant 'b': options: must be a table (NAME = value), not a text"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\noptions = { level = 'a b' }",
     "entrant 'b': options: the value of level 'a b' holds a space or a line break"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'python3'\noptions = { level = [1] }",
     "entrant 'b': options: 'level': must be a text, a number or a boolean, not an array"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'heuristic'\nenv = { A = 'x' }",
     "entrant 'b': env: the command 'heuristic' runs no program"),
    (GOOD + "[[entrant]]\nname = 'b'\ncommand = 'random'\nunknown = ", "not TOML: "),
    ("x = " + "[" * 5000 + "]" * 5000, "arrays or tables nested too deeply"),
    ("a" + ".a" * 100_000 + " = 1", "a key of 100001 parts; an entrants file has none deeper than 16"),
], ids=lambda value: value[:40] if isinstance(value, str) else None)
def test_every_mistake_in_a_hostile_file_is_one_line_naming_the_file(tmp_path: Path, text: str, message: str) -> None:
    """Read in this process (the command's own handling of the error is the next test's)."""
    path = tmp_path / "entrants.toml"
    path.write_text(text)
    with pytest.raises(UsageError) as caught:
        load(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: ") and "\n" not in text and message in text, text


@pytest.mark.parametrize("text, message", [
    ('entrant = "random"', "'entrant' must be an array of tables ([[entrant]]), not a text"),
    (GOOD + '[[entrant]]\nname = "b"\ncommand = "random"\nenv = { A = "x" }', "entrant 'b': env: the command"),
])
def test_the_command_refuses_a_hostile_file_in_one_line_before_anything_starts(tmp_path: Path, text: str,
                                                                               message: str) -> None:
    path = tmp_path / "entrants.toml"
    path.write_text(text)
    refused(path, message, tmp_path)


def refused(path: Path, message: str, tmp_path: Path) -> None:
    proc = run_cli("tournament", "pigugnin", "--entrants", str(path), "--bot", "z=random", "--dir",
                   str(tmp_path / "t"), timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"cardcli: error: {path}: "), lines[0]
    assert message in lines[0], lines[0]
    assert not (tmp_path / "t").exists(), "nothing was started"


def test_a_file_that_is_not_utf8_or_too_long_or_not_a_file(tmp_path: Path) -> None:
    path = tmp_path / "entrants.toml"
    path.write_bytes(GOOD.encode() + b'[[entrant]]\nname = "\xff\xfe"\ncommand = "random"\n')
    refused(path, f"not UTF-8 text (line 5, byte {len(GOOD) + len('[[entrant]]' + chr(10) + 'name = ' + chr(34))})",
            tmp_path)
    path.write_bytes(b"# " + b"x" * (10 << 20) + b"\n" + GOOD.encode())
    refused(path, "longer than 1048576 bytes, not an entrants file", tmp_path)
    proc = run_cli("tournament", "pigugnin", "--entrants", str(tmp_path / "missing.toml"), "--dir", str(tmp_path / "t"))
    assert proc.returncode == 2 and proc.stderr.strip() == f"cardcli: error: {tmp_path / 'missing.toml'}: no such file"


def test_resume_keeps_the_entrants_it_was_made_with(tmp_path: Path) -> None:
    (tmp_path / "entrants.toml").write_text(GOOD + '[[entrant]]\nname = "b"\ncommand = "first"\n')
    tournament(tmp_path / "entrants.toml", tmp_path / "t")
    again = run_cli("tournament", "--resume", str(tmp_path / "t"), "--entrants", str(tmp_path / "entrants.toml"))
    assert again.returncode == 2
    assert "--entrants is for a new tournament" in again.stderr


@pytest.mark.parametrize("text, parts", [
    ('a.b.c = 1', 3),
    ('"a.b.c" = "x.y.z"', 1),
    ("[entrant.options]\nx = 1.5  # a.b.c.d.e", 2),
    ("x = '''a.b\n.c.d'''\ny.z = 1", 2),
    ('a = "q\\".b.c"', 1),
])
def test_the_key_depth_guard_reads_keys_not_strings_or_comments(text: str, parts: int) -> None:
    assert deepest_key(text) == parts <= MAX_KEY_PARTS


def test_shipping_bots_whose_file_places_them_on_this_machine_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "entrants.toml").write_text(GOOD + f'[[entrant]]\nname = "b"\ncommand = "{sys.executable}"\n')
    proc = run_cli("tournament", "pigugnin", "--entrants", str(tmp_path / "entrants.toml"), "--dir",
                   str(tmp_path / "t"), "--cluster", "local:1", "--ship", str(tmp_path / "bots"))
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "cardcli: error: --ship with an entrant that starts in a directory of this machine (b, from its entrants "
        "file): a shipped bot starts where the workers unpack it; give the shipped entrants with --bot NAME=SPEC"]
    assert not (tmp_path / "t").exists()


def test_a_damaged_entrant_settings_in_the_configuration_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "entrants.toml").write_text(GOOD + '[[entrant]]\nname = "b"\ncommand = "first"\noptions = { x = 1 }\n')
    tournament(tmp_path / "entrants.toml", tmp_path / "t")
    config_path = tmp_path / "t" / "config.json"
    config = json.loads(config_path.read_text())
    assert config["entrant_settings"] == {"b": {"options": {"x": "1"}}}
    config["entrant_settings"] = {"nobody": {"options": {"x": "1"}}}
    config_path.write_text(json.dumps(config))
    again = run_cli("tournament", "--resume", str(tmp_path / "t"))
    assert again.returncode == 2
    assert again.stderr.splitlines() == [
        f"cardcli: error: {config_path}: not a tournament configuration: 'entrant_settings' must be an object of "
        "entrant names, each an object of 'dir' (a text), 'env' and 'options' (objects of texts)"]


def test_built_in_players_and_remote_bots_are_commands_too(tmp_path: Path) -> None:
    path = tmp_path / "entrants.toml"
    path.write_text('[[entrant]]\nname = "far"\ncommand = "remote:alice"\noptions = { depth = 2 }\n'
                    '[[entrant]]\nname = "h"\ncommand = "heuristic"\n')
    far, heur = load(path)
    assert (far.spec, far.workdir, far.options) == ("remote:alice", None, (("depth", "2"),))
    assert (heur.spec, heur.workdir, heur.settings_json()) == ("heuristic", None, {})
