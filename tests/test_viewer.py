"""``cardcli replay PATH --html OUT``: one self-contained page per record file, for every game,
variant and player count. No browser here: the page's text is checked from Python, and the
script's table logic (``viewer.js`` needs no page to keep a table's state) with node when it is
installed. The page in a browser is tested elsewhere."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path
from typing import Any, Sequence

import attrs
import pytest
from click.testing import CliRunner

from cardcli import __version__, viewer
from cardcli.cli import cli
from cardcli.records.io import FORMAT_VERSION, dump
from cardcli.referee import Settings, play_match
from cardcli.games import registry
from cardcli.games.card_bits import TEXTS, texts
from cardcli.games.dealing import shuffled
from cardcli.plugins.peppa.view import PeppaView
from cardcli.plugins.pepper.view import PepperView
from cardcli.plugins.seep.view import SeepView
from cardcli.games.view import SeatView, view_for
from cardcli.replay import walk
from cardcli.seats.base import Request, SeatFault
from cardcli.seats.builtin import InProcessSeat
from harness import TranscriptSeat, every_game_variant_and_count
from viewer_expect import sort_tokens

ROOT = Path(__file__).resolve().parent.parent
COMBOS = every_game_variant_and_count()
HEADER_WORDS = {"game", "option", "player", "order", "team", "rng", "begin", "go", "result", "forfeit", "quit"}


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def match(game: str, variant: str, players: int, seed: int = 3, max_deals: int = 3,
          seats: list[Any] | None = None, on_fault: str = "replace") -> tuple[dict[str, Any], list[Any]]:
    """A short match between seeded random players (adjudicated after ``max_deals`` deals),
    each of which keeps every line it was sent."""
    setup = registry.resolve(game, variant, {}, players, seed)
    chosen = seats or [TranscriptSeat(f"p{i}", f"{seed}/{i}") for i in range(players)]
    result = play_match(setup, chosen, Settings(move_time=5, max_deals=max_deals, on_fault=on_fault))
    return result.record, chosen


def write(tmp_path: Path, *records: dict[str, Any], name: str = "games.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(dump(r) + "\n" for r in records), encoding="utf-8")
    return path


def page(tmp_path: Path, records_file: Path, *extra: str, name: str = "out.html") -> str:
    out = tmp_path / name
    result = invoke("replay", str(records_file), "--html", str(out), *extra)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out)
    return out.read_text(encoding="utf-8")


def embedded(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="cardcli-data">(.*?)</script>', html, re.S)
    assert found, "the page embeds its data"
    return json.loads(found.group(1))


def loads_nothing(html: str) -> None:
    """No reference that would load anything: no URL at all, no src or href to one, no
    @import, no url(...) outside a data: URL."""
    assert "http://" not in html and "https://" not in html
    assert not re.search(r"""\b(src|href|action|srcset|poster|data)\s*=\s*["']?\s*(//|[a-z][a-z0-9+.-]*:)""", html, re.I)
    assert "@import" not in html
    assert not re.search(r"url\(\s*['\"]?(?!data:)", html)
    assert not re.search(r"<(link|img|iframe|object|embed|audio|video|source)\b", html, re.I)
    assert not re.search(r"<script\b[^>]*\bsrc\s*=", html, re.I)


def event_lines(step: str) -> list[tuple[str | None, str]]:
    """A step's event lines as (audience, line), the move header left out."""
    out = []
    for line in step.split("\n") if step else []:
        if line.startswith(">"):
            continue
        if line.startswith("@"):
            audience, _, rest = line[1:].partition(" ")
            out.append((audience, rest))
        else:
            out.append((None, line))
    return out


@pytest.mark.parametrize("game, variant, players", COMBOS)
def test_every_game_makes_a_page_that_loads_nothing_and_states_its_versions(
        tmp_path: Path, game: str, variant: str, players: int) -> None:
    record, _ = match(game, variant, players)
    html = page(tmp_path, write(tmp_path, record))
    loads_nothing(html)
    assert f"cardcli {__version__}" in html and f"record format {FORMAT_VERSION}" in html
    data = embedded(html)
    assert data["cardcli_viewer"] == viewer.DATA_VERSION
    assert data["software"] == f"cardcli {__version__}" and data["format_version"] == FORMAT_VERSION
    assert data["seat"] is None
    [m] = data["matches"]
    assert m["game"] == game and m["variant"] == variant and m["players"] == players
    assert m["format_version"] == record["format_version"]
    assert [d["number"] for d in m["deals"]] == [d["number"] for d in record["deals"]]
    for deal, recorded in zip(m["deals"], record["deals"]):
        assert len(deal["steps"]) == 1 + len(recorded["moves"]), "one step per deal start and one per move"
        assert deal["totals"] == recorded["totals"] and deal["points"] == recorded["points"]
        assert ("dead" in deal) == ("dead" in recorded)
    # the steps hold the events walk yields, in order, with their audiences
    steps = [s for d in m["deals"] for s in d["steps"]]
    walked = list(walk(record))
    # a record that does not verify is refused (exit 1, as replay and verify refuse it), no page
    for field, value in (("seed", record["seed"] + 1), ("totals", None)):
        forged = json.loads(json.dumps(record))
        if field == "seed":
            forged["seed"] = value
        else:
            forged["deals"][0]["totals"] = [t + 1 for t in forged["deals"][0]["totals"]]
        out = tmp_path / f"forged-{field}.html"
        result = invoke("replay", str(write(tmp_path, forged, name=f"forged-{field}.jsonl")), "--html", str(out))
        assert result.exit_code == 1, (field, result.output)
        assert not out.exists()
    assert len(steps) == len(walked)
    for text, step in zip(steps, walked):
        expected = [(None if e.audience is None else ",".join(map(str, sorted(e.audience))), e.line())
                    for e in step.events]
        assert event_lines(text) == expected


@pytest.mark.parametrize("game, variant, players", COMBOS)
def test_a_seat_page_holds_exactly_the_lines_that_seat_was_sent(
        tmp_path: Path, game: str, variant: str, players: int) -> None:
    record, seats = match(game, variant, players)
    path = write(tmp_path, record)
    for seat in range(players):
        html = page(tmp_path, path, "--seat", str(seat), name=f"seat{seat}.html")
        loads_nothing(html)
        data = embedded(html)
        assert data["seat"] == seat
        [m] = data["matches"]
        others = [s for s in range(players) if s != seat]
        for other in others:
            for word in ("hand", "passed", "received"):
                assert f"@{other} {word}" not in html, f"seat {other}'s {word} line is in seat {seat}'s page"
        lines = [line for deal in m["deals"] for step in deal["steps"] for _, line in event_lines(step)]
        told = [line for line in seats[seat].lines if line.split()[0] not in HEADER_WORDS]
        assert lines == told, "the page's lines are the very lines the seat was sent"
        assert all("dead" not in deal for deal in m["deals"])
        # another seat's hidden move (a Peppa pass) is in the page as a move without its token
        for deal, recorded in zip(m["deals"], record["deals"]):
            for step, move in zip(deal["steps"][1:], recorded["moves"]):
                if move["kind"] == "pass" and move["seat"] != seat:
                    assert step.startswith(f">{move['seat']} pass ?")
                    assert move["move"] not in step
        if game == "pepper" and players == 2:
            for deal, recorded in zip(m["deals"], record["deals"]):
                words = set(re.findall(r"\b[2-9TJQKA][CDHS]\b", json.dumps(deal)))
                assert not set(recorded["dead"]) & words, "no card of the dead hand is in a seat's page"


def test_a_long_match_and_its_seat_pages_are_exact_in_the_engine_s_terms(tmp_path: Path) -> None:
    """Without a deal limit: a whole Seep match, whose houses and bids the page must carry."""
    record, _ = match("seep", "standard", 4, seed=11, max_deals=500)
    html = page(tmp_path, write(tmp_path, record))
    text = json.dumps(embedded(html))
    assert "h1" in text and "table " in text and "bid " in text


def test_a_record_that_does_not_verify_is_refused_and_no_page_is_written(tmp_path: Path) -> None:
    record, _ = match("peppa", "torino", 4)
    moves = record["deals"][0]["moves"]
    play = next(m for m in moves if m["kind"] == "play")
    other = next(c for c in record["deals"][0]["hands"][(play["seat"] + 1) % 4] if c != play["move"])
    play["move"] = other
    out = tmp_path / "out.html"
    result = invoke("replay", str(write(tmp_path, record)), "--html", str(out))
    assert result.exit_code == 1, result.output
    assert not out.exists()


def test_html_with_protocol_is_a_usage_error(tmp_path: Path) -> None:
    record, _ = match("peppa", "torino", 4)
    path = write(tmp_path, record)
    for flags in (["--protocol", "--seat", "1"], ["--to-bot", "--seat", "1"], ["--step"], ["--from-deal", "2"]):
        proc = subprocess.run(
            ["python3", "-m", "cardcli", "replay", str(path), "--html", str(tmp_path / "x.html"), *flags],
            capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert proc.returncode == 2, (flags, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith("cardcli: error: ")
        assert not (tmp_path / "x.html").exists()
    result = invoke("replay", str(path), "--html", str(tmp_path / "x.html"), "--seat", "4")
    assert result.exit_code == 2


def test_a_tournament_directory_gives_one_page_with_every_match(tmp_path: Path) -> None:
    first, _ = match("peppa", "torino", 4, seed=1)
    second, _ = match("peppa", "torino", 4, seed=2)
    for index, record in enumerate((first, second)):
        record["tournament"] = {"index": index, "key": "k", "deal_set": index, "rotation": 0,
                                "seating": [0, 1, 0, 1], "entrants": ["ann", "bob", "ann", "bob"]}
    directory = tmp_path / "t1"
    directory.mkdir()
    write(directory, first, second, name="records.jsonl")
    data = embedded(page(tmp_path, directory))
    assert [m["tournament"] for m in data["matches"]] == [0, 1]
    assert data["matches"][0]["names"] == ["ann", "bob", "ann", "bob"]
    assert '<select id="match">' in page(tmp_path, directory, name="again.html")
    # --game K still picks one match
    data = embedded(page(tmp_path, directory, "--game", "2", name="one.html"))
    assert [m["seed"] for m in data["matches"]] == ["2"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert invoke("replay", str(empty), "--html", str(tmp_path / "e.html")).exit_code == 2


def test_a_seed_beyond_a_javascript_number_is_written_exactly(tmp_path: Path) -> None:
    """A seed (0 to 2**63 - 1) or any integer past 2**53 - 1 goes into the page's data as its
    digits: the script reads the data with JSON.parse, which would round it as a number."""
    big = 2844675396372846042
    record, _ = match("pigugnin", "standard", 4, seed=big, max_deals=1)
    html = page(tmp_path, write(tmp_path, record))
    [m] = embedded(html)["matches"]
    assert m["seed"] == str(big)
    assert f"seed {big}" in html  # the page's title, made here
    assert viewer.exact({"a": [2**53 - 1, 2**53, -(2**60)], "b": True, "c": 1.5}) == \
        {"a": [2**53 - 1, str(2**53), str(-(2**60))], "b": True, "c": 1.5}


def test_the_page_holds_each_move_s_think_time_and_the_kept_info_lines() -> None:
    """Think time per move, beside the steps; info lines per seat (the record does not place
    them at a move), escaped, and in a seat's page only that seat's."""
    record, _ = match("peppa", "torino", 4, seed=4, max_deals=1)
    [m] = viewer.page_data([record])["matches"]
    for deal, recorded in zip(m["deals"], record["deals"]):
        assert deal["ms"] == [mv["ms"] for mv in recorded["moves"]]
        assert len(deal["steps"]) == len(deal["ms"]) + 1
    assert m["info"] is None
    record["info"] = {"0": ["plan: lead low"], "2": ["\x1b[31mred\x1b[0m <b>bold</b>"]}
    [m] = viewer.page_data([record])["matches"]
    assert m["info"] == [["plan: lead low"], [], ["\\x1b[31mred\\x1b[0m <b>bold</b>"], []]
    [mine] = viewer.page_data([record], seat=2)["matches"]
    assert mine["info"] == [[], [], ["\\x1b[31mred\\x1b[0m <b>bold</b>"], []]


def test_text_from_a_record_cannot_end_the_data_block(tmp_path: Path) -> None:
    record, _ = match("pigugnin", "standard", 4)
    record["seats"][1]["name"] = "</script><script>alert(1)</script>"
    record["seats"][2]["name"] = "<!--<script>\u202eann"
    html = page(tmp_path, write(tmp_path, record))
    assert html.count("</script>") == 2, "only the data block and the script end a script"
    assert "<!--" not in html
    names = embedded(html)["matches"][0]["names"]
    assert names[1] == "</script><script>alert(1)</script>"
    assert names[2] == "<!--<script>\\u202eann", "a name is escaped as every command shows it"


def test_the_page_s_policy_allows_its_own_script_and_style_and_nothing_else(tmp_path: Path) -> None:
    record, _ = match("pepper", "standard", 3)
    html = page(tmp_path, write(tmp_path, record))
    policy = unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1))
    assert "default-src 'none'" in policy and "unsafe" not in policy
    script = re.findall(r"<script>(.*?)</script>", html, re.S)
    style = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert len(script) == 1 and len(style) == 1

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert f"script-src {digest(script[0])}" in policy and f"style-src {digest(style[0])}" in policy
    assert "innerHTML" not in script[0] and "insertAdjacentHTML" not in script[0] and "document.write" not in script[0]


def test_the_script_reads_the_record_format_this_package_writes() -> None:
    script = (ROOT / "cardcli/viewer/viewer.js").read_text()
    assert re.search(rf"SUPPORTED_FORMAT_VERSION = {FORMAT_VERSION};", script)
    assert re.search(rf"DATA_VERSION = {viewer.DATA_VERSION};", script)


def faulty(label: str, seed: int, at: int, fault: str | None = None) -> InProcessSeat:
    """A random player that answers ``ZZ`` (or raises ``fault``) at its ``at``-th request."""
    random_seat = TranscriptSeat(label, f"{seed}/{label}")
    asked = [0]

    def choose(request: Request) -> str:
        asked[0] += 1
        if asked[0] == at:
            if fault is not None:
                raise SeatFault(fault, "gone")
            return "ZZ"
        return random_seat._choose(request)

    return InProcessSeat(label, choose)


def test_faults_and_fallback_moves_are_placed_at_their_step(tmp_path: Path) -> None:
    seats = [faulty("f", 5, 7)] + [TranscriptSeat(f"p{i}", f"5/{i}") for i in range(1, 4)]
    record, _ = match("peppa", "torino", 4, seed=5, seats=seats)
    [fault] = record["faults"]
    data = embedded(page(tmp_path, write(tmp_path, record)))
    [m] = data["matches"]
    [shown] = m["faults"]
    assert (shown["seat"], shown["kind"], shown["deal"], shown["move"]) == (0, "illegal", fault["deal"], fault["move"])
    before = 1 + sum(len(d["steps"]) for d in m["deals"][: fault["deal"] - 1])
    assert shown["step"] == before + 1 + fault["move"], "at the move the fallback player made"
    assert m["fallback_from"] == [shown["step"], None, None, None]
    assert "after" not in shown

    seats = [faulty("f", 6, 4, "crash")] + [TranscriptSeat(f"p{i}", f"6/{i}") for i in range(1, 4)]
    record, _ = match("pepper", "standard", 4, seed=6, seats=seats, on_fault="abort")
    assert record["status"] == "aborted"
    [m] = embedded(page(tmp_path, write(tmp_path, record, name="aborted.jsonl"), name="aborted.html"))["matches"]
    [shown] = m["faults"]
    steps = 1 + sum(len(d["steps"]) for d in m["deals"])
    assert shown["step"] == steps - 1 and shown["after"] is True
    assert m["fallback_from"] == [None] * 4 and m["result"] is None


HARNESS = r"""
const core = require(process.argv[2]);
(process.env.CARDCLI_GAME_SCRIPTS || "").split(require("path").delimiter).filter(Boolean).forEach((f) => require(f));
const pages = [].concat(JSON.parse(require("fs").readFileSync(process.argv[3], "utf8")));
const problems = [];
const tables = {};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const whole = process.argv[4] === "state";
const stateOf = (st) => ({...st, move: undefined, log: st.log.map((mv) => [mv.seat, mv.kind, mv.token])});
pages.forEach((data) => data.matches.forEach((m, k) => {
  core.prepare(m);
  const views = data.seat === null ? ["all"].concat([...Array(m.players).keys()]) : [data.seat];
  views.forEach((view) => {
    let st = null;
    tables[view] = tables[view] || [];
    for (let s = 0; s < m.nsteps; s++) {
      st = core.stateAt(m, s, view, st);
      const at = `${k ? `match ${k} ` : ""}view ${view} step ${s}`;
      st.problems.forEach((p) => problems.push(`${at}: ${p}`));
      st.problems = [];
      if (s % 7 === 3) {
        const fresh = core.stateAt(m, s, view, null);
        fresh.problems = [];
        if (!same(fresh, st)) problems.push(`${at}: a jump gives another state than stepping`);
      }
      const floor = st.floor && st.deal ? st.floor : {loose: [], houses: []};
      tables[view].push({
        deal: st.deal, move: st.move ? st.move.index : null, totals: st.totals,
        hands: st.hands.map((h, p) => h === null ? null : core.sortCards(h)), counts: st.counts,
        trick: st.trick.map((p) => [p.seat, p.card]),
        loose: core.sortCards(floor.loose),
        houses: floor.houses.map((h) => [h.value, h.cemented, h.owners.slice().sort(), core.sortCards(h.cards)])
          .sort((a, b) => a[0] - b[0]),
        ...(whole ? {state: stateOf(st)} : {}),
      });
    }
  });
}));
console.log(JSON.stringify({problems, tables}));
"""

VIEWER_JS = ROOT / "cardcli/viewer/viewer.js"


def other_games_scripts(tmp_path: Path, data: dict[str, Any] | list[dict[str, Any]]) -> str:
    """The viewer scripts of the page's games that come from other packages (installed beside
    cardcli, found through the entry point), written to files for node to require after the
    core, which requires cardcli's own games' scripts itself; joined by the path separator."""
    games = {m["game"] for page_data in ([data] if isinstance(data, dict) else data) for m in page_data["matches"]}
    paths = []
    for game in sorted(games):
        spec = registry.get(game)
        text = viewer.game_script(spec)
        if text is not None and spec.viewer is not None and not spec.viewer.startswith("cardcli."):
            path = tmp_path / f"game-{game}.js"
            path.write_text(text)
            paths.append(str(path))
    return os.pathsep.join(paths)


def node_harness(tmp_path: Path, data: dict[str, Any] | list[dict[str, Any]], script: Path = VIEWER_JS,
                 harness: str = HARNESS, *flags: str) -> dict[str, Any]:
    """``harness`` run by node over a page's ``data`` (or the data of several seats' pages, in
    one run) with ``script`` as the viewer (the core alone, with the scripts of the page's games
    of other packages: :func:`other_games_scripts`; or a page's whole script). HARNESS goes through every step of each match of
    the page (in the order of the matches), in each of its views, by steps and by jumps, and
    gives each view's tables; with the flag ``state``, each step's table also holds the
    script's state of the table (its log's moves as [seat, kind, token], without the step's
    move)."""
    (tmp_path / "harness.js").write_text(harness)
    (tmp_path / "data.json").write_text(json.dumps(data))
    proc = subprocess.run(["node", str(tmp_path / "harness.js"), str(script), str(tmp_path / "data.json"), *flags],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ,
                               "CARDCLI_GAME_SCRIPTS": other_games_scripts(tmp_path, data) if script == VIEWER_JS else ""})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def engine_table(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The table at every step as the rules engine holds it: each seat's cards (during the
    Peppa pass without the three it has set aside) and how many it holds, the trick in progress,
    Seep's floor, the totals."""
    setup = registry.resolve(record["game"], record["variant"], record["options"], len(record["seats"]),
                             record["seed"])
    state: Any = setup.new_match()

    def table(deal: int, move: int | None) -> dict[str, Any]:
        held = [sorted(hand, key=lambda c: c.sort_key) for hand in state.hands]
        hands = [[c.text for c in hand] for hand in held]
        if type(state).__name__ == "PeppaMatch" and state.phase == "pass":
            hands = [[c for c in hand if c not in texts(state.passes.get(s, 0))] for s, hand in enumerate(hands)]
        trick = []
        if state.phase == "play" and hasattr(state, "tricks"):
            trick = [[seat, TEXTS[index]] for seat, index in state.tricks.trick]
        totals = state.seat_totals() if hasattr(state, "seat_totals") else state.totals
        loose, houses = [], []
        if hasattr(state, "houses"):
            loose = [c.text for c in sorted(state.loose, key=lambda c: c.sort_key)]
            houses = [[v, h.cemented, sorted(h.owners), [c.text for c in sorted(h.cards, key=lambda c: c.sort_key)]]
                      for v, h in sorted(state.houses.items())]
        return {"deal": deal, "move": move, "totals": list(totals), "hands": hands, "held": [len(h) for h in held],
                "trick": trick, "loose": loose, "houses": houses}

    steps = [table(0, None)]
    for index, deal in enumerate(record["deals"]):
        state.deal(shuffled(setup.seed, index, setup.spec.deck()))
        steps.append(table(index + 1, None))
        for m, move in enumerate(deal["moves"]):
            state.apply(move["seat"], move["move"])
            steps.append(table(index + 1, m))
    return steps


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("game, variant, players", COMBOS)
def test_the_script_keeps_the_engine_s_table_in_every_view(
        tmp_path: Path, game: str, variant: str, players: int) -> None:
    """At every step, by steps and by jumps, in every view of a page of every hand and of a
    seat's page, the script's table (viewer.js run by node, no page needed) is the rules
    engine's: every hand the view may see card for card, the number of cards of every other
    hand, the trick in progress, Seep's floor and houses, the totals; and a view never knows a
    hand it may not see."""
    record, _ = match(game, variant, players, seed=8, max_deals=6)
    engine = engine_table(record)
    for seat in (None, players - 1):
        out = node_harness(tmp_path, viewer.page_data([record], seat))
        assert not out["problems"], out["problems"][:10]
        assert sorted(out["tables"]) == sorted(["all", *map(str, range(players))] if seat is None else [str(seat)])
        for view, tables in out["tables"].items():
            assert len(tables) == len(engine)
            for step, (got, want) in enumerate(zip(tables, engine)):
                at = f"page {'of every hand' if seat is None else f'of seat {seat}'}, view {view}, step {step}"
                for key in ("deal", "move", "totals", "trick", "loose", "houses"):
                    assert got[key] == want[key], f"{at}: {key} {got[key]}, the engine has {want[key]}"
                for p in range(players):
                    if view in ("all", str(p)):
                        shown = got["hands"][p] if got["hands"][p] is not None else ([] if got["counts"][p] == 0 else None)
                        assert shown == want["hands"][p], f"{at}: seat {p} holds {shown}, the engine {want['hands'][p]}"
                    else:
                        assert got["hands"][p] is None, f"{at}: seat {p}'s hand is known to seat {view}"
                        assert got["counts"][p] == want["held"][p], f"{at}: seat {p} shows {got['counts'][p]} backs"


# -- a seat's page against the Python seat view -------------------------------------------------------


def seat_view_steps(lines: list[str], m: dict[str, Any]) -> list[dict[str, Any]]:
    """What the game's seat view (``view_for``, as the human seat keeps it) knows at every step
    of a match ``m`` of a seat's page, fed the lines that seat was sent, in order: at each step
    up to the last line the step holds (and the header and request lines that follow it). The
    page's lines are checked to be the seat's own on the way."""
    page_lines = [[line for _, line in event_lines(step)] for deal in m["deals"] for step in deal["steps"]]
    view, at, known = SeatView(), 0, []

    def feed_headers() -> None:
        nonlocal view, at
        while at < len(lines) and lines[at].split()[0] in HEADER_WORDS:
            words = lines[at].split()
            if words[0] == "game":
                view = view_for(words[1])
            view.update(words)
            at += 1

    for step, told in enumerate([[], *page_lines]):
        feed_headers()
        for line in told:
            assert at < len(lines) and lines[at] == line, f"step {step}: the page has {line!r}, the seat was sent " \
                f"{lines[at] if at < len(lines) else 'nothing more'!r}"
            view.update(line.split())
            at += 1
            feed_headers()
        known.append(seat_view_knows(view))
    assert at == len(lines), f"the seat was sent {lines[at:]} after the page's last step"
    return known


def seat_view_knows(view: SeatView) -> dict[str, Any]:
    """What a seat view keeps that the viewer's script keeps too, in common terms: the dealer
    and the leader (-1 for none), the seat's hand (sorted), the trick in progress (once taken,
    none) and the trick just taken until the next is led, the deal's moves the seat saw (but
    Peppa's pass, which the view keeps apart), the running totals (zeros before the first
    ``totals`` line), the tricks and points taken in this deal; Peppa's pass; Pepper's auction,
    contract and trump; Seep's bidder, bid, floor, the cards each seat holds, the cards each
    has captured and its seeps."""
    n = len(view.names)
    known: dict[str, Any] = {
        "dealer": view.dealer, "hand": list(sort_tokens(c.text for c in view.hand)),
        "trick number": view.trick_number, "leader": view.leader,
        "trick": [[seat, card.text] for seat, card in view.trick] if view.leader >= 0 else [],
        "trick just taken": [[seat, card.text] for seat, card in view.trick] if view.leader < 0 and view.trick else None,
        "moves": [list(move) for move in view.moves],
        "totals": [int(t) for t in view.totals] or [0] * n, "tricks": list(view.tricks),
    }
    if isinstance(view, SeepView):
        known["bidder"], known["bid"], known["held"] = view.bidder, view.bid, list(view.held)
        known["floor"] = None if view.table is None else floor_of(view.table)
        known["captured"] = [len(cards) for cards in view.captured]
        known["seeps"] = [len(seeps) for seeps in view.seeps]
        return known
    known["points"] = list(view.points)
    if isinstance(view, PeppaView):
        known["passing"] = view.passing
        known["passed"], known["received"] = [c.text for c in view.passed], [c.text for c in view.received]
    if isinstance(view, PepperView):
        known["bids"], known["high bidder"] = list(view.latest_bids), view.high_bidder
        known["contract"] = None if view.contract is None else list(view.contract)
        known["trump"] = None if view.declarer < 0 else [view.declarer, view.trump or "NT"]
    return known


def floor_of(items: list[str]) -> dict[str, Any]:
    """A Seep ``table`` line's items as the floor: the loose cards, and the houses (value,
    cemented, owners, cards; each sorted, the houses by value)."""
    loose = [item for item in items if not item.startswith("h")]
    houses = []
    for item in items:
        if item.startswith("h"):
            value, kind, owners, cards = item[1:].split(":")
            houses.append([int(value), kind == "c", sorted(int(o) for o in owners.split(",") if o),
                           list(sort_tokens(cards.split("+")))])
    return {"loose": list(sort_tokens(loose)), "houses": sorted(houses)}


def script_knows(st: dict[str, Any], seat: int) -> dict[str, Any]:
    """The script's state of a seat's table (HARNESS's ``state``) in the terms of
    :func:`seat_view_knows`."""
    n = st["n"]
    known: dict[str, Any] = {
        "dealer": -1 if st["dealer"] is None else st["dealer"],
        "hand": list(sort_tokens(st["hands"][seat] or [])),
        "trick number": st["trickNo"], "leader": -1 if st["leader"] is None else st["leader"],
        "trick": [[p["seat"], p["card"]] for p in st["trick"]],
        "trick just taken": [[p["seat"], p["card"]] for p in st["last"]["cards"]]
        if st["leader"] is None and st["last"] else None,
        "moves": [[seat, token] for seat, kind, token in st["log"] if kind != "pass"],
        "totals": st["totals"], "tricks": st["tricks"],
    }
    if st["game"] == "seep":
        known["bidder"] = -1 if st["bidder"] is None else st["bidder"]
        known["bid"] = None if st["bid"] is None else st["bid"]["value"]
        known["held"] = st["counts"]
        floor = st["floor"]
        known["floor"] = None if floor is None else floor_of(
            [*floor["loose"], *(f"h{h['value']}:{'c' if h['cemented'] else 'o'}:{','.join(map(str, h['owners']))}:"
                                f"{'+'.join(h['cards'])}" for h in floor["houses"])])
        known["captured"], known["seeps"] = st["captured"], st["seeps"]
        return known
    known["points"] = st["taken"]
    if st["game"] == "peppa":
        known["passing"] = st["passing"]
        known["passed"] = [c for p in st["passes"] if p["from"] == seat for c in p["cards"]]
        known["received"] = [c for r in st["received"] if r["seat"] == seat for c in r["cards"]]
    if st["game"] == "pepper":
        bids: list[str | None] = [None] * n
        for b in st["auction"]:
            bids[b["seat"]] = b["bid"]
        known["bids"] = bids
        known["high bidder"] = next((b["seat"] for b in reversed(st["auction"]) if b["bid"] != "pass"), -1)
        contract = st["contract"]
        known["contract"] = None if contract is None else [contract["seat"], contract["bid"]]
        known["trump"] = None if st["trump"] is None else [contract["seat"] if contract else -1, st["trump"]]
    return known


def script_against_seat_view(tmp_path: Path, played: list[tuple[dict[str, Any], list[list[str]]]],
                              seats: Sequence[int]) -> int:
    """At every step of each of ``seats``' pages of the records of ``played`` (each with the
    lines every seat was sent in it), what the script (under node, one run for every page)
    knows is what the game's seat view, fed the lines that seat was sent, knows; the number of
    steps compared."""
    pages = [viewer.page_data([record for record, _ in played], seat) for seat in seats]
    out = node_harness(tmp_path, pages, VIEWER_JS, HARNESS, "state")
    assert not out["problems"], out["problems"][:10]
    compared = 0
    for seat, data in zip(seats, pages):
        tables = iter(out["tables"][str(seat)])
        for (record, lines), m in zip(played, data["matches"], strict=True):
            for step, want in enumerate(seat_view_steps(lines[seat], m)):
                got = script_knows(next(tables)["state"], seat)
                assert got.keys() == want.keys()
                for key in want:
                    assert got[key] == want[key], \
                        f"{record['game']} seed {record['seed']}, seat {seat}'s page, step {step}: the script's " \
                        f"{key} {got[key]}, the seat view's {want[key]}"
                compared += 1
        assert next(tables, None) is None, "the script has more steps than the matches"
    return compared


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("game, variant, players", COMBOS)
def test_a_seat_page_s_script_knows_what_the_seat_view_knows(
        tmp_path: Path, game: str, variant: str, players: int) -> None:
    """The script's table (viewer.js under node) and the game's seat view (the human seat's,
    the players' and the learners' Python view), told the same lines, agree at every step of
    every seat's page, for several seeds: the seat's hand, the trick in progress, the tricks
    and points taken, the dealer, the leader, the totals and each game's own (Peppa's pass,
    Pepper's bids, contract and trump, Seep's bid, floor and houses, cards held and captured,
    seeps)."""
    played = []
    for seed in (1, 2, 3):
        record, seats = match(game, variant, players, seed=seed, max_deals=3)
        played.append((record, [seat.lines for seat in seats]))
    assert script_against_seat_view(tmp_path, played, range(players)) > 3 * players


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("game", registry.MODULES)
def test_a_long_match_s_seat_page_s_script_knows_what_the_seat_view_knows(tmp_path: Path, game: str) -> None:
    """Long matches, their totals carried over every deal: whole matches (Pepper, whose random
    players seldom reach its target, for 40 deals)."""
    spec = registry.get(game)
    record, seats = match(game, spec.default_variant.name, spec.player_counts[0], seed=11, max_deals=40)
    assert len(record["deals"]) > 6 and (game == "pepper" or not record["adjudicated"])
    assert script_against_seat_view(tmp_path, [(record, [seat.lines for seat in seats])], [1]) > 300


# -- the core and the games' scripts -------------------------------------------------------------------

OWN_GAMES = registry.MODULES
"""cardcli's own games, each with its part of the viewer in its folder (``viewer.js``)."""


def js_code(text: str) -> str:
    """A script without its comments: string literals are kept whole (so a name in a string is
    still found, and a ``//`` in a string does not start a comment)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text[i] in "'\"":
            j = i + 1
            while j < n and text[j] != text[i]:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def page_script(html: str) -> str:
    [code] = re.findall(r"<script>(.*?)</script>", html, re.S)
    return code


def test_the_viewer_s_core_names_no_game() -> None:
    """Neither the core's scripts (outside their comments: in no string, identifier or
    property) nor the page's markup name any game: what a game adds to the table is in its own
    script, so a game of another package is drawn the same way."""
    names = re.compile("|".join(map(re.escape, OWN_GAMES)), re.I)
    assert names.search(js_code((ROOT / "cardcli/plugins/seep/viewer.js").read_text())), "the check finds a name"
    for name in viewer.CORE_SCRIPTS:
        code = js_code((ROOT / "cardcli/viewer" / name).read_text())
        found = sorted({m.group(0) for m in names.finditer(code)})
        assert not found, f"cardcli/viewer/{name} names {found}"
    assert not names.search(viewer.PAGE), "the page's markup names a game"


def test_a_page_holds_the_script_of_each_of_its_games_and_no_other(tmp_path: Path) -> None:
    scripts = {game: viewer.game_script(registry.get(game)) for game in OWN_GAMES}
    assert all(scripts.values()), "every game of cardcli has its part of the viewer"
    records = {}
    for game in OWN_GAMES:
        spec = registry.get(game)
        records[game], _ = match(game, spec.default_variant.name, spec.player_counts[0])
        code = page_script(page(tmp_path, write(tmp_path, records[game], name=f"{game}.jsonl"), name=f"{game}.html"))
        for other, text in scripts.items():
            assert (text in code) == (other == game), f"the page of a {game} match and {other}'s script"
        for core in viewer.CORE_SCRIPTS:
            assert (ROOT / "cardcli/viewer" / core).read_text() in code
    # a file of two games: both scripts, each once, after the core and before the page
    code = page_script(page(tmp_path, write(tmp_path, records["seep"], records["pepper"], records["seep"],
                                            name="two.jsonl"), name="two.html"))
    places = [code.index((ROOT / "cardcli/viewer/viewer.js").read_text()), code.index(scripts["seep"]),
              code.index(scripts["pepper"]), code.index((ROOT / "cardcli/viewer/page.js").read_text())]
    assert places == sorted(places) and code.count(scripts["seep"]) == 1
    assert scripts["peppa"] not in code and scripts["pigugnin"] not in code


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_each_game_s_script_registers_its_hooks_under_its_name() -> None:
    """Required by node, the core requires its own games' scripts: each registers under the
    name of its game's spec, which its matches have in the page's data."""
    probe = ("const v = require(process.argv[1]);"
             "console.log(JSON.stringify(process.argv.slice(2).map(g => Object.keys(v.hooksOf(g)).length)));")
    proc = subprocess.run(["node", "-e", probe, str(ROOT / "cardcli/viewer/viewer.js"), *OWN_GAMES, "no-such-game"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    *counts, none = json.loads(proc.stdout)
    assert all(counts) and none == 0, dict(zip([*OWN_GAMES, "no-such-game"], [*counts, none]))


def run_harness(tmp_path: Path, code: str, data: dict[str, Any], harness: str = HARNESS) -> dict[str, Any]:
    """``harness`` over the script of a page (its core and games' scripts as the page has
    them), kept where no game's script is beside it for the core to require."""
    (tmp_path / "viewer").mkdir(exist_ok=True)
    (tmp_path / "viewer" / "page.js").write_text(code)
    return node_harness(tmp_path, data, tmp_path / "viewer" / "page.js", harness)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_game_without_a_viewer_script_gets_the_core_s_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec with ``viewer=None`` (as a game of another package may have): its page holds the
    core alone, under a policy that allows it, and the core's table is the engine's at every
    step in every view (Il Pigugnìn's table is all tricks: its busche are what it loses)."""
    got = registry.get
    bare = {name: attrs.evolve(got(name), viewer=None) for name in ("pigugnin", "peppa")}
    monkeypatch.setattr(registry, "get", lambda name: bare.get(name) or got(name))
    record, _ = match("pigugnin", "standard", 4, seed=8, max_deals=6)
    html = page(tmp_path, write(tmp_path, record))
    code = page_script(html)
    assert code == viewer.script([]) == "".join((ROOT / "cardcli/viewer" / name).read_text() for name in viewer.CORE_SCRIPTS)
    policy = unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1))
    assert f"script-src {viewer._hash(code)};" in policy
    out = run_harness(tmp_path, code, viewer.page_data([record]))
    assert not out["problems"], out["problems"][:10]
    engine = engine_table(record)
    for view, tables in out["tables"].items():
        assert len(tables) == len(engine)
        for step, (shown, want) in enumerate(zip(tables, engine)):
            for key in ("deal", "move", "totals", "trick"):
                assert shown[key] == want[key], f"view {view}, step {step}: {key} {shown[key]}, the engine has {want[key]}"
            for p in range(4):
                if view in ("all", str(p)):
                    held = shown["hands"][p] if shown["hands"][p] is not None else ([] if not shown["counts"][p] else None)
                    assert held == want["hands"][p], f"view {view}, step {step}, seat {p}"
                else:
                    assert shown["hands"][p] is None and shown["counts"][p] == want["held"][p]
    # Peppa without its script: a page all the same, without Peppa's part
    record, _ = match("peppa", "torino", 4)
    code = page_script(page(tmp_path, write(tmp_path, record, name="peppa.jsonl"), name="peppa.html"))
    assert viewer.game_script(got("peppa")) not in code and code == viewer.script([])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_game_script_that_fails_is_a_problem_on_the_page_not_a_blank_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's script that throws as the page runs it: the core and the page still run (its
    matches get the core's table) and the problem is recorded for the page's error box; a
    script that cannot be read is a usage error naming it, and no page is written."""
    package = tmp_path / "broken_viewer"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "viewer.js").write_text('(function (V) { V.register("pigugnin", {}); throw new Error("boom"); })'
                                       "(cardcliViewer);\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    got = registry.get
    broken = attrs.evolve(got("pigugnin"), viewer="broken_viewer:viewer.js")
    monkeypatch.setattr(registry, "get", lambda name: broken if name == "pigugnin" else got(name))
    record, _ = match("pigugnin", "standard", 4, seed=8, max_deals=2)
    code = page_script(page(tmp_path, write(tmp_path, record)))
    assert "boom" in code
    probe = HARNESS.replace("console.log(JSON.stringify({problems, tables}));",
                            "console.log(JSON.stringify({problems: core.scriptProblems, tables}));")
    out = run_harness(tmp_path, code, viewer.page_data([record]), probe)
    assert out["problems"] == ["the viewer script broken_viewer:viewer.js failed: boom"]
    assert len(out["tables"]["all"]) == len(engine_table(record))
    for named in ("broken_viewer:missing.js", "no_such_package:viewer.js", "viewer.js"):
        monkeypatch.setattr(registry, "get", lambda name, named=named: (
            attrs.evolve(got(name), viewer=named) if name == "pigugnin" else got(name)))
        out = tmp_path / "unread.html"
        result = invoke("replay", str(write(tmp_path, record)), "--html", str(out))
        assert result.exit_code == 2, result.output
        assert f"the viewer script of the game 'pigugnin' ({named}) cannot be read" in result.output
        assert not out.exists()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_documented_game_script_runs_with_the_core(tmp_path: Path) -> None:
    """docs/viewer.md's example of a game's script, as written, registers with the core, and
    the core applies its line and tells it after the move."""
    [example] = re.findall(r"```js\n(.*?)```", (ROOT / "docs/viewer.md").read_text(), re.S)
    (tmp_path / "mygame.js").write_text(example)
    probe = r"""
const core = require(process.argv[2]);
require(process.argv[3]);
const m = {format_version: 1, game: "mygame", players: 2, names: ["a", "b"], faults: [], fallback_from: [null, null],
           deals: [{number: 1, steps: ["deal 1 0\n@0 hand 2C 3C\n@1 hand 4C 5C\ntrick 1 1", "play 1 4C\nturned QS"]}]};
const st = core.stateAt(m, 2, "all");
console.log(JSON.stringify({turned: st.turned, notes: st.move.notes, hands: st.hands, trick: st.trick,
                            problems: st.problems}));
"""
    (tmp_path / "probe.js").write_text(probe)
    proc = subprocess.run(["node", str(tmp_path / "probe.js"), str(ROOT / "cardcli/viewer/viewer.js"),
                           str(tmp_path / "mygame.js")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"turned": "QS", "notes": [["turned", "QS"]], "hands": [["2C", "3C"], ["5C"]],
                                       "trick": [{"seat": 1, "card": "4C"}], "problems": []}


MOMENT_LINES = {"seep": {"seep": "seep"}, "pepper": {"set": "set"}, "pigugnin": {"busca": "busca", "cappotto": "cappotto"},
                "peppa": {"cappotto": "cappotto"}}
"""Per game, the moments its viewer script names (key: the event line that makes one)."""


def moment_steps(m: dict[str, Any], word: str) -> list[int]:
    """The steps of a match's page data with an event line ``word ...`` (for any audience)."""
    out, s = [], 1
    for deal in m["deals"]:
        for i, text in enumerate(deal["steps"]):
            lines = [line.split(" ", 1)[1] if line.startswith("@") else line for line in text.split("\n")]
            if any(line.startswith(word + " ") for line in lines):
                out.append(s + i)
        s += len(deal["steps"])
    return out


def deal_ends(m: dict[str, Any]) -> list[int]:
    out, s = [], 1
    for deal in m["deals"]:
        scored = moment_steps({"deals": [deal]}, "score")
        out.append(s - 1 + (scored[0] if scored else len(deal["steps"])))
        s += len(deal["steps"])
    return out


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_moments_to_jump_to_are_the_core_s_and_each_game_s(tmp_path: Path) -> None:
    """The core's moments (each deal's end, each fault) and those each game's script names
    (Seep's seeps, Pepper's sets, Il Pigugnìn's busche and cappotti, Peppa's cappotti) are the
    steps whose event lines say so. A Peppa cappotto is rare between random players: a line is
    added to a step's text, as the script reads it (the core does not check the rules)."""
    records = [match("seep", "standard", 4, seed=7, max_deals=1)[0],
               match("pepper", "standard", 4, seed=1, max_deals=2)[0],
               match("pigugnin", "standard", 4, seed=7, max_deals=1,
                     seats=[TranscriptSeat("p0", "7/0"), TranscriptSeat("p1", "7/1"), faulty("p2", 7, 5),
                            TranscriptSeat("p3", "7/3")])[0],
               match("peppa", "torino", 4, seed=4, max_deals=1)[0]]
    data = viewer.page_data(records)
    peppa = data["matches"][3]
    peppa["deals"][0]["steps"][-1] += "\ncappotto 2"
    (tmp_path / "data.json").write_text(json.dumps(data))
    script = ("const V = require(process.argv[1]); const data = require(process.argv[2]);"
              "console.log(JSON.stringify(data.matches.map(m => V.prepare(m).moments)));")
    proc = subprocess.run(["node", "-e", script, str(VIEWER_JS), str(tmp_path / "data.json")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    for m, kinds in zip(data["matches"], got):
        want = {"deal-end": deal_ends(m), "fault": sorted({f["step"] for f in m["faults"]})}
        want.update({key: moment_steps(m, word) for key, word in MOMENT_LINES[m["game"]].items()})
        assert {k["key"]: k["steps"] for k in kinds} == want, m["game"]
        assert all(k["label"] for k in kinds)
    counts = {m["game"]: {k["key"]: len(k["steps"]) for k in kinds} for m, kinds in zip(data["matches"], got)}
    assert counts["seep"]["seep"] and counts["pepper"]["set"] and counts["pigugnin"]["busca"], counts
    assert counts["pigugnin"]["fault"] == 1 and counts["peppa"]["cappotto"] == 1, counts


def test_a_tournament_directory_s_page_holds_the_tournament_s_own_table(tmp_path: Path) -> None:
    """The page of a tournament directory holds the table ``cardcli tournament`` prints, from
    the same code and records; a page of its records file, or of one of its matches, none."""
    from cardcli.tournament import results, runner

    directory = tmp_path / "t"
    result = invoke("tournament", "peppa", "--bot", "a=random", "--bot", "b=random", "--deal-sets", "1",
                    "--max-deals", "1", "--seed", "3", "-j", "1", "--dir", str(directory))
    assert result.exit_code == 0, result.output
    names = runner.load(directory).names
    printed = results.render(results.tabulate(names, runner.records_in_order(directory, runner.finished(directory))),
                             names)
    assert printed in result.output
    data = embedded(page(tmp_path, directory))
    assert data["standings"]["text"] == printed and data["standings"]["entrants"] == ["a", "b"]
    assert data["standings"]["matches"] == len(data["matches"])
    assert embedded(page(tmp_path, directory / "records.jsonl", name="file.html"))["standings"] is None
    assert embedded(page(tmp_path, directory, "--game", "1", name="one.html"))["standings"] is None
