"""Briscola's part of the HTML viewer (``cardcli_briscola/viewer.js``, the spec's ``viewer``):
the page's script (cardcli's core, this script, the page's script, as ``replay --html`` puts them
in a page) run by node over the page's data of played matches. At every step, by steps and by
jumps, in every view of a page of every hand and of a seat's page, its table is the rules
engine's: every hand the view may see card for card, the number of cards of every other hand,
the trick, the stock and the briscola; and the page's hooks say the draws, the briscola and the
deal won. No browser: the page's hooks are given stand-in helpers that keep text."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cardcli import viewer
from cardcli.cards import Card
from cardcli.games import registry
from cardcli.games.card_bits import TEXTS, texts
from cardcli.games.dealing import shuffled
from cardcli.referee import Settings, play_match
from cardcli.seats.builtin import random_seat

from cardcli_briscola import SPEC

PACKAGE = Path(__file__).resolve().parent.parent
NODE = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

HARNESS = r"""
const core = require(process.argv[2]);
const data = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const g = core.hooksOf("briscola");
// stand-ins for the page's helpers: each element keeps its text
const el = (tag, cls, text) => ({tag, cls, text: text === undefined ? "" : String(text), dataset: {}, kids: [],
                                 appendChild(k) { this.kids.push(k); return k; }});
const textOf = (e) => typeof e === "string" ? e : e.text + e.kids.map(textOf).join("");
const panels = {};
const ui = {
  el, card: (t) => el("span", "card", core.cardText(t)), back: () => el("span", "back", "?"),
  cards: (p, ts) => { ts.forEach((t, i) => p.appendChild(el("span", "sym", (i ? " " : "") + core.cardText(t)))); return p; },
  suit: (s) => el("span", "sym", core.SYMBOL[s]), text: (p, t) => { p.appendChild(String(t)); return p; },
  who: (m, s) => s + ":" + m.names[s], signed: (n) => (n > 0 ? "+" : "") + n,
  panel: (id, show) => (panels[id] = Object.assign(el("div", "panel"), {hidden: !show})), colour: () => "",
};
const problems = [];
const tables = {};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const m = data.matches[0];
core.prepare(m);
const views = data.seat === null ? ["all"].concat([...Array(m.players).keys()]) : [data.seat];
views.forEach((view) => {
  let st = null;
  tables[view] = [];
  for (let s = 0; s < m.nsteps; s++) {
    st = core.stateAt(m, s, view, st);
    const at = `view ${view} step ${s}`;
    st.problems.forEach((p) => problems.push(`${at}: ${p}`));
    st.problems = [];
    if (s % 5 === 2) {
      const fresh = core.stateAt(m, s, view, null);
      fresh.problems = [];
      if (!same(fresh, st)) problems.push(`${at}: a jump gives another state than stepping`);
    }
    g.draw(ui, m, st, view);
    let move = null, notes = [], end = null;
    if (st.move) {
      const out = el("span", "what");
      move = g.moveText(ui, m, st.move, out) ? textOf(out) : null;
      notes = st.move.notes.map((w) => g.noteText(ui, m, w)).filter((t) => typeof t === "string");
    }
    if (st.dealScore) {
      const box = el("div", "deal-end");
      g.dealEnd(ui, m, st, box);
      end = textOf(box);
    }
    tables[view].push({
      deal: st.deal, move: st.move ? st.move.index : null, totals: st.totals,
      hands: st.hands.map((h) => h === null ? null : core.sortCards(h)), counts: st.counts,
      trick: st.trick.map((p) => [p.seat, p.card]), stock: st.stock === undefined ? null : st.stock,
      briscola: st.briscola === undefined ? null : st.briscola,
      panel: panels.briscola.hidden ? null : textOf(panels.briscola),
      info: st.deal ? g.dealInfo(ui, m, st) : [], said: move, notes, end,
    });
  }
});
console.log(JSON.stringify({problems, scriptProblems: core.scriptProblems, tables}));
"""


def played(players: int, seed: int, options: dict[str, Any] | None = None, deals: int = 3) -> dict[str, Any]:
    """A match of seeded random players (adjudicated after ``deals`` deals), as recorded."""
    setup = registry.resolve("briscola", None, options or {}, players, seed)
    seats = [random_seat(f"p{s}", f"{seed}/{s}") for s in range(players)]
    return play_match(setup, seats, Settings(move_time=5, max_deals=deals)).record


def engine_table(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The table at every step as the engine holds it: each seat's cards, the trick, the stock
    still to draw, the briscola, the totals, and each seat's partner's hand shown to it."""
    setup = registry.resolve("briscola", record["variant"], record["options"], len(record["seats"]), record["seed"])
    match: Any = setup.new_match()

    def table(deal: int, move: int | None) -> dict[str, Any]:
        hands = [[c.text for c in sorted(map(Card.parse, texts(mask)), key=lambda c: c.sort_key)]
                 for mask in match.hand_masks]
        dealt = deal > 0
        return {"deal": deal, "move": move, "totals": list(match.seat_totals()), "hands": hands,
                "held": [len(h) for h in hands], "trick": [[s, TEXTS[i]] for s, i in match.tricks.trick] if dealt else [],
                "stock": len(match.stock) - match.drawn if dealt else 0,
                "briscola": TEXTS[match.briscola] if dealt else None}

    steps = [table(0, None)]
    for index, deal in enumerate(record["deals"]):
        match.deal(shuffled(setup.seed, index, SPEC.deck()))
        steps.append(table(index + 1, None))
        for number, move in enumerate(deal["moves"]):
            match.apply(move["seat"], move["move"])
            steps.append(table(index + 1, number))
    return steps


def run(tmp_path: Path, record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The harness over the page's script, kept where no game's script is beside the core for it
    to require: Briscola's hooks are those the page itself holds."""
    folder = tmp_path / "viewer"
    folder.mkdir(exist_ok=True)
    (folder / "page.js").write_text(viewer.script(["briscola"]))
    (tmp_path / "harness.js").write_text(HARNESS)
    (tmp_path / "data.json").write_text(json.dumps(viewer.page_data([record], seat)))
    proc = subprocess.run(["node", str(tmp_path / "harness.js"), str(folder / "page.js"), str(tmp_path / "data.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    assert not out["problems"], out["problems"][:10]
    assert not out["scriptProblems"], out["scriptProblems"]
    return out


def test_the_spec_names_the_script_and_the_package_ships_it() -> None:
    assert SPEC.viewer == "cardcli_briscola:viewer.js"
    script = viewer.game_script(SPEC)
    assert script is not None and 'V.register("briscola"' in script
    assert script == (PACKAGE / "cardcli_briscola" / "viewer.js").read_text()
    data = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "viewer.js" in data["cardcli_briscola"]
    assert script in viewer.script(["briscola"])


@NODE
@pytest.mark.parametrize("players, seed, options", [
    (2, 8, {}), (2, 9, {"direction": "cw"}), (4, 8, {}), (4, 10, {"partners_see_hands": "true"}),
])
def test_the_page_keeps_the_engine_s_table_in_every_view(
        tmp_path: Path, players: int, seed: int, options: dict[str, Any]) -> None:
    record = played(players, seed, options)
    engine = engine_table(record)
    partner_shown = options.get("partners_see_hands") == "true"
    for seat in (None, players - 1):
        out = run(tmp_path, record, seat)
        assert sorted(out["tables"]) == sorted(["all", *map(str, range(players))] if seat is None else [str(seat)])
        for view, tables in out["tables"].items():
            assert len(tables) == len(engine)
            for step, (got, want) in enumerate(zip(tables, engine)):
                at = f"page {'of every hand' if seat is None else f'of seat {seat}'}, view {view}, step {step}"
                for key in ("deal", "move", "totals", "trick", "stock", "briscola"):
                    assert got[key] == want[key], f"{at}: {key} {got[key]}, the engine has {want[key]}"
                for p in range(players):
                    known = got["hands"][p]
                    if view in ("all", str(p)):
                        shown = known if known is not None else ([] if got["counts"][p] == 0 else None)
                        assert shown == want["hands"][p], f"{at}: seat {p} holds {shown}, the engine {want['hands'][p]}"
                    elif known is not None:  # only a partner's hand, shown once the stock is gone
                        assert partner_shown and p == (int(view) + 2) % 4 and got["stock"] == 0, f"{at}: seat {p}"
                        assert known == want["hands"][p], f"{at}: partner {p} holds {known}, the engine {want['hands'][p]}"
                    else:
                        assert got["counts"][p] == want["held"][p], f"{at}: seat {p} shows {got['counts'][p]} backs"
                if got["deal"]:
                    assert got["panel"].startswith(f"briscola {got['briscola'][0]}")
                    assert ("under the stock" in got["panel"]) == (want["stock"] > 0)
                    stock = want["stock"]
                    assert got["info"] == [f"stock {stock} card{'s' if stock != 1 else ''}" if stock else "stock empty"]
                else:
                    assert got["panel"] is None


@NODE
def test_the_page_says_the_draws_the_briscola_drawn_a_trump_played_and_the_deal_won(tmp_path: Path) -> None:
    record = played(2, 8, deals=2)
    out = run(tmp_path, record, None)
    every, mine = out["tables"]["all"], out["tables"]["1"]
    draws = [n for t in every for n in t["notes"] if n.startswith("draws: ")]
    assert len(draws) == 2 * 17, "one note a round of drawing, the stock lasting 17 tricks"
    assert all("a card" not in n for n in draws), "a page of every hand names every card drawn"
    seen = [n for t in mine for n in t["notes"] if n.startswith("draws: ")]
    assert len(seen) == len(draws) and all(n.count("a card") == 1 for n in seen[:16]), "the other seat's draw, unseen"
    assert any(", drawn by " in (t["panel"] or "") for t in every)
    trump = [t for t in every if t["said"] and t["said"].endswith(", a trump")]
    assert trump and all(t["said"].startswith("plays ") for t in every if t["said"])
    ends = [t["end"] for t in every if t["end"]]
    assert len(ends) == len(record["deals"]), "the deal's score shows at its last step"
    for end, deal in zip(ends, record["deals"]):
        points = [int(p) for p in re.findall(r"\d:p\d (\d+)", end.partition("won by")[0])]
        assert len(points) == 2 and sum(points) == 120, end
        won = [f"{s}:p{s}" for s, v in enumerate(deal["points"]) if v == 1]
        assert end.endswith("won by " + ", ".join(won) if won else "60-60: won by nobody"), end
