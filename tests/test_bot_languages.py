"""The example bots in every language (Python, bash, C, JavaScript, Go, Rust, Java, Lua) play
every game together, replay their moves from their seeds, and play in the sandbox.

The compiled bots are built here from source, each with its compiler's warnings on, and any
warning fails: C with ``cc -Wall -Wextra``, Go with ``go vet`` and ``go build`` (GOPATH mode,
caches in a temporary directory, no module and no network), Rust with ``rustc -O`` (found on
``PATH`` or in ``~/.cargo/bin``), Java with ``javac -Xlint:all``. The others need ``node`` and
``lua5.4``. A missing toolchain is a failure, never a skip (``.ci/run`` installs them).

Each registered game is played at each of its player counts, seats taking the languages in
turn, and the record must verify. The C, Go, Rust, Java and Lua bots share one generator and
one way of seeding it, so from the same seeds they play the same moves as one another; the
JavaScript, Python and bash bots each replay their own moves from the same seeds. Each
language also plays a match with ``--sandbox on``, which needs bubblewrap (as
tests/test_sandbox.py does, a machine without it fails the test, saying why).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import BASH_BOT, PYTHON_BOT, ROOT, live_processes, read_records, run_cli, wait_until_gone

from cardcli.games import registry
from cardcli.seats.sandbox import support

C_SOURCE = ROOT / "bots/c/random_bot.c"
GO_SOURCE = ROOT / "bots/go/random_bot.go"
RUST_SOURCE = ROOT / "bots/rust/random_bot.rs"
JAVA_SOURCE = ROOT / "bots/java/RandomBot.java"
JS_BOT_PATH = ROOT / "bots/js/random_bot.js"
LUA_BOT_PATH = ROOT / "bots/lua/random_bot.lua"
LANGUAGES = ("python", "bash", "c", "js", "go", "rust", "java", "lua")
MAX_DEALS = "40"
BUILD_TIMEOUT = 300

SPLITMIX = ("c", "go", "rust", "java", "lua")
"""The bots with C's splitmix64 and its seeding: the same seeds, the same moves, whichever
of them sits in a seat."""
OWN_GENERATOR = ("js", "python", "bash", "js")
"""The seats of a match of the bots with generators of their own (JavaScript's mulberry32,
Python's random, bash's RANDOM), each of which replays its own moves."""
REPLAYED = [("peppa", ["-o", "end_threshold=40"]), ("seep", [])]
"""Games of the replay test: Peppa's pass offers 286 tokens (a long line, a wide choice),
Seep's play lists change with every move."""

GAMES = {name: registry.get(name) for name in registry.MODULES}
"""cardcli's own games: the shipped bots are tested on each of them in every language (a game
installed from another package tests the bots in its own suite)."""
# (game, player count) for every game of cardcli, in registry order.
CASES = [(name, count) for name, spec in GAMES.items() for count in spec.player_counts]


def seatings() -> list[tuple[str, int, list[str]]]:
    """Each case with the language of each of its seats. Seats take the languages in turn,
    continuing from one match to the next: the 2- and 3-player matches from one rotation, the
    4- and 5-player ones from another, so that every language sits in a short-handed match
    and plays every game that has several player counts."""
    turn = {True: 0, False: 0}
    result = []
    for game, count in CASES:
        short = count < 4
        languages = [LANGUAGES[(turn[short] + seat) % len(LANGUAGES)] for seat in range(count)]
        turn[short] += count
        result.append((game, count, languages))
    return result


SEATINGS = seatings()


def replay_lineups() -> list[tuple[str, ...]]:
    """The seats of the replay test's two matches of splitmix64 bots from the same seeds: the
    second is the first moved round by one language (c go rust java, then lua c go rust), so
    each seat compares a language with the next one in SPLITMIX, a chain through all five."""
    cycle = SPLITMIX + SPLITMIX
    return [cycle[:4], cycle[len(SPLITMIX) - 1:][:4]]


# -- building the bots ---------------------------------------------------------------------

def build(what: str, command: list[str], env: dict[str, str] | None = None) -> None:
    """Run a compiler (or a checker): it must succeed and print nothing, not even a warning."""
    proc = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False,
                          env={**os.environ, **(env or {})})
    output = (proc.stdout + proc.stderr).strip()
    assert proc.returncode == 0, f"{what} failed ({' '.join(command)}):\n{output}"
    assert output == "", f"{what} warned ({' '.join(command)}):\n{output}"


def open_to_others(folder: Path) -> None:
    """Make a build directory readable by every user (chmod -R o+rX): a sandboxed bot runs
    under a uid of its own when the referee is root."""
    for path in [folder, *folder.rglob("*")]:
        mode = path.stat().st_mode
        wanted = stat.S_IROTH | (stat.S_IXOTH if path.is_dir() or mode & stat.S_IXUSR else 0)
        path.chmod(mode | wanted)


def tool(name: str, purpose: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not on PATH: {purpose} (.ci/run installs it)"
    return found


def find_rustc() -> str | None:
    """rustc on PATH, or where rustup installs it (``$CARGO_HOME/bin``, ``~/.cargo/bin``),
    which a non-login shell's PATH often lacks."""
    found = shutil.which("rustc")
    if found:
        return found
    homes = [os.environ.get("CARGO_HOME"), str(Path.home() / ".cargo")]
    for home in filter(None, homes):
        candidate = Path(home) / "bin" / "rustc"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The C bot, compiled from source: a missing compiler or any warning fails."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "no C compiler (cc or gcc) on PATH: the C example bot cannot be built"
    folder = tmp_path_factory.mktemp("c_random_bot")
    build(compiler, [compiler, "-O2", "-Wall", "-Wextra", "-o", str(folder / "random_bot"), str(C_SOURCE)])
    open_to_others(folder)
    return str(folder / "random_bot")


@pytest.fixture(scope="module")
def go_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Go bot: ``go vet`` and ``go build`` of the one file, in GOPATH mode (no go.mod, no
    module download), with the build cache in a temporary directory."""
    go = tool("go", "the Go example bot cannot be built")
    folder = tmp_path_factory.mktemp("go_random_bot")
    with tempfile.TemporaryDirectory(prefix="go-cache-") as cache:
        env = {"GO111MODULE": "off", "GOFLAGS": "", "GOTOOLCHAIN": "local", "GOCACHE": f"{cache}/build",
               "GOPATH": f"{cache}/path"}
        build("go vet", [go, "vet", str(GO_SOURCE)], env)
        build("go build", [go, "build", "-o", str(folder / "random_bot"), str(GO_SOURCE)], env)
    open_to_others(folder)
    return str(folder / "random_bot")


@pytest.fixture(scope="module")
def rust_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Rust bot, built by rustc alone (no Cargo, no crates); rustc warns by default."""
    rustc = find_rustc()
    assert rustc, "rustc is neither on PATH nor in ~/.cargo/bin: the Rust example bot cannot be built"
    folder = tmp_path_factory.mktemp("rust_random_bot")
    build("rustc", [rustc, "-O", "--edition", "2021", "-o", str(folder / "random_bot"), str(RUST_SOURCE)])
    open_to_others(folder)
    return str(folder / "random_bot")


@pytest.fixture(scope="module")
def java_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Java bot: ``javac -Xlint:all`` (every warning on) into a class directory, run by
    ``java -cp``. The directory's name carries ``random_bot``, the mark the suite's leak
    checks look for."""
    javac = tool("javac", "the Java example bot cannot be built")
    java = tool("java", "the Java example bot cannot run")
    folder = tmp_path_factory.mktemp("java_random_bot")
    build("javac", [javac, "-Xlint:all", "-d", str(folder), str(JAVA_SOURCE)])
    open_to_others(folder)
    return f"{java} -cp {folder} RandomBot"


@pytest.fixture(scope="module")
def bots(c_bot: str, go_bot: str, rust_bot: str, java_bot: str) -> dict[str, str]:
    """Command line of each language's bot, without --seed."""
    node = tool("node", "the JavaScript example bot cannot run")
    lua = tool("lua5.4", "the Lua example bot cannot run")
    return {"python": PYTHON_BOT, "bash": BASH_BOT, "c": c_bot, "js": f"{node} {JS_BOT_PATH}",
            "go": go_bot, "rust": rust_bot, "java": java_bot, "lua": f"{lua} {LUA_BOT_PATH}"}


@pytest.fixture(scope="module", autouse=True)
def no_bot_outlives_the_module(bots: dict[str, str]):
    """Checked per module as well, so a leak is reported next to the tests that caused it.
    Each bot is known by the path in its command line (program, script or class directory)."""
    marks = tuple(word for command in bots.values() for word in command.split() if "random_bot" in word)
    assert len(marks) == len(bots), marks
    before = set(live_processes(marks))
    yield
    left = wait_until_gone(before, marks)
    assert not left, f"bot processes left running: {left}"


# -- helpers -------------------------------------------------------------------------------

def play_json(what: str, *args: str) -> dict[str, Any]:
    """``cardcli ... --json``'s summary; a failure says which bots were playing (``what``)."""
    proc = run_cli(*args, "--json")
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, f"{what}: cardcli failed ({proc.returncode}):\n{proc.stderr[-3000:]}"
    assert proc.returncode == 0, f"{what}: cardcli exited with {proc.returncode}:\n{proc.stderr[-3000:]}"
    summary: dict[str, Any] = json.loads(lines[0])
    return summary


def seat_args(bots: dict[str, str], languages: list[str] | tuple[str, ...], seed_base: int) -> list[str]:
    args: list[str] = []
    for seat, language in enumerate(languages):
        args += ["--seat", f"{bots[language]} --seed {seed_base + seat}"]
    return args


def moves_of(record: dict[str, Any]) -> list[tuple[int, int, str, str]]:
    return [(deal["number"], m["seat"], m["kind"], m["move"]) for deal in record["deals"] for m in deal["moves"]]


def first_difference(a: list[Any], b: list[Any]) -> str:
    index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return (f"first difference at move {index}: {a[index] if index < len(a) else 'nothing'} "
            f"against {b[index] if index < len(b) else 'nothing'}")


def faults_text(faults: list[dict[str, Any]], logs: Path | None = None) -> str:
    """The faults, one a line with their detail, and the end of each faulty seat's stderr."""
    lines = []
    for fault in faults:
        lines.append(f"seat {fault['seat']} {fault['kind']} (deal {fault.get('deal')}): {fault['detail']}")
        stderr = logs / f"seat{fault['seat']}.stderr" if logs is not None else None
        if stderr is not None and stderr.exists():
            lines.append(f"  its stderr ends: {stderr.read_text(errors='replace')[-1500:]!r}")
    return "\n".join(lines)


# -- tests ---------------------------------------------------------------------------------

def test_every_game_and_every_language_is_covered() -> None:
    assert {name for name, _ in CASES} == set(GAMES)
    assert [(game, count) for game, count, _ in SEATINGS] == CASES
    for game, count, languages in SEATINGS:
        assert languages == [LANGUAGES[(LANGUAGES.index(languages[0]) + seat) % len(LANGUAGES)] for seat in range(count)], (
            f"{game}-{count}p: the seats take the languages in turn")
    for language in LANGUAGES:
        assert any(language in languages for _, count, languages in SEATINGS if count < 4), (
            f"{language} bot never plays a 2- or 3-player match")
        for game, spec in GAMES.items():
            if len(spec.player_counts) > 1:
                assert any(language in languages for g, _, languages in SEATINGS if g == game), (
                    f"{language} bot never plays {game}")
    # Games played at one player count only (Peppa) meet every language in the replay test.
    replayed = {language for lineup in replay_lineups() for language in lineup} | set(OWN_GENERATOR)
    assert replayed == set(LANGUAGES)
    assert {game for game, spec in GAMES.items() if len(spec.player_counts) == 1} <= {g for g, _ in REPLAYED}


@pytest.mark.parametrize(
    "index, game, players, languages", [(i, g, n, langs) for i, (g, n, langs) in enumerate(SEATINGS)],
    ids=[f"{g}-{n}p" for g, n, _ in SEATINGS],
)
def test_bots_in_every_language_play_a_match_that_verifies(
    index: int, game: str, players: int, languages: list[str], bots: dict[str, str], tmp_path: Path
) -> None:
    record_path = tmp_path / "r.jsonl"
    summary = play_json(
        f"seats {languages}", "play", game, "--seed", str(100 + index), "--max-deals", MAX_DEALS,
        *seat_args(bots, languages, 10 * index + 1), "--record", str(record_path),
    )
    assert summary["faults"] == [], f"seats {languages}:\n{faults_text(summary['faults'])}"
    assert summary["status"] == "complete", summary
    assert [p["name"] for p in summary["players"]] == [f"{lang}-random" for lang in languages]
    assert not any(p["forfeit"] for p in summary["players"])

    record = read_records(record_path)[0]
    assert [s["kind"] for s in record["seats"]] == ["process"] * players
    played_by = {m[1] for m in moves_of(record)}
    assert played_by == set(range(players)), "every seat made at least one decision"

    verified = run_cli("verify", str(record_path))
    assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.mark.parametrize("game, options", REPLAYED, ids=[game for game, _ in REPLAYED])
def test_every_language_replays_the_same_moves_from_the_same_seeds(
    game: str, options: list[str], bots: dict[str, str], tmp_path: Path
) -> None:
    runs = 0

    def moves(languages: tuple[str, ...], seed_base: int) -> list[tuple[int, int, str, str]]:
        nonlocal runs
        runs += 1
        path = tmp_path / f"{runs}.jsonl"
        run_cli(
            "play", game, "--seed", "7", "--max-deals", MAX_DEALS, *options,
            *seat_args(bots, languages, seed_base), "--record", str(path), check=True,
        )
        record = read_records(path)[0]
        assert record["faults"] == [], f"{languages}:\n{faults_text(record['faults'])}"
        return moves_of(record)

    # The splitmix64 bots: whichever of them sits in a seat, the same moves.
    lineups = replay_lineups()
    first = moves(lineups[0], 5)
    assert len(first) > 20
    for lineup in lineups[1:]:
        again = moves(lineup, 5)
        assert again == first, (
            f"{lineup} and {lineups[0]} must play the same moves from the same seeds; "
            f"{first_difference(again, first)}")
    assert moves(lineups[0], 50) != first, "different bot seeds should give different moves"

    # The bots with generators of their own replay themselves.
    own = moves(OWN_GENERATOR, 5)
    assert len(own) > 20
    again = moves(OWN_GENERATOR, 5)
    assert again == own, f"{OWN_GENERATOR}: same seeds, other moves; {first_difference(again, own)}"
    assert moves(OWN_GENERATOR, 50) != own, "different bot seeds should give different moves"


@pytest.fixture
def sandbox_available() -> None:
    """As in tests/test_sandbox.py: where the machine refuses the sandbox the test fails and
    says why, it never skips."""
    assert support().bwrap is not None, f"the sandbox tests need bubblewrap: {support().detail}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_bot_plays_in_the_sandbox(
    language: str, sandbox_available: None, bots: dict[str, str], tmp_path: Path
) -> None:
    """One short match per language with --sandbox on, the bot in all four seats: whatever the
    sandbox forbids (its system-call filter, its view of the files), each language's runtime
    still starts, plays and ends cleanly."""
    logs = tmp_path / "logs"
    record_path = tmp_path / "r.jsonl"
    summary = play_json(
        f"{language} bot in the sandbox", "play", "peppa", "--seed", "11", "--max-deals", "2", "--sandbox", "on",
        *seat_args(bots, [language] * 4, 1), "--record", str(record_path), "--bot-stderr", str(logs),
    )
    assert summary["faults"] == [], f"{language} bot faulted in the sandbox:\n{faults_text(summary['faults'], logs)}"
    assert summary["status"] == "complete", f"{language} bot in the sandbox: {summary['status']}"
    assert [p["name"] for p in summary["players"]] == [f"{language}-random"] * 4

    record = read_records(record_path)[0]
    for seat in record["seats"]:
        assert (seat["sandbox"] or "").startswith("bubblewrap"), f"{language}: seat {seat['seat']} ran unsandboxed"
    assert {m[1] for m in moves_of(record)} == {0, 1, 2, 3}, f"{language}: every seat made a decision"
    verified = run_cli("verify", str(record_path))
    assert verified.returncode == 0, f"{language}: the record does not verify:\n{verified.stdout}{verified.stderr}"
