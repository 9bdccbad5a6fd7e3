"""Recorded matches as one self-contained HTML page: ``cardcli replay PATH --html OUT.html``.

The page shows each match as a card table that can be stepped through move by move. Its data is
made here, from :func:`cardcli.replay.walk`, so every step it shows has been checked against the
rules: a record that does not verify is refused (VerificationError, exit status 1), as ``replay``
refuses it. For each step the page holds the protocol event lines the step produced, with their
audience; the script keeps the table's state by applying those lines, for every seat at once or
for one seat. With ``seat=N`` only the lines seat N was sent are written into the page at all, so
no view of that page can show another seat's hidden cards. The script is the viewer's core
(``viewer.js``, ``page.js``), which names no game, with the script of each game of the page,
named by its spec (``GameSpec.viewer``), which registers the game's hooks with the core
(:func:`script`).

Everything is inline (data, script, style, card faces drawn as text), nothing is fetched, and a
Content-Security-Policy forbids any fetch: the file opens from disk, offline. ``docs/viewer.md``
describes the page; the data layout is documented in :func:`match_data`.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..errors import UsageError
from ..games import registry
from ..games.base import Event, GameSpec
from ..records.io import FORMAT_VERSION, software
from ..records.model import Move, Record
from ..replay import listed, walk
from ..safe_text import DETAIL_WIDTH, display_name, printable
from ..seat_names import seat_names

DATA_VERSION = 1
"""The layout of the page's data (``cardcli_viewer`` in it); ``viewer.js`` checks it."""

DATA_ID = "cardcli-data"


CORE_SCRIPTS = ("viewer.js", "page.js")
"""The viewer's core, in this package: the table's state and the games' hooks (``viewer.js``),
then the page (``page.js``). A page's one script is the first, the scripts of its games, then
the second (:func:`script`)."""


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _game_part(spec: GameSpec, ref: str | None, what: str) -> str | None:
    """The text of a file in a game's package that its spec names as ``package:file``, or None
    when it names none. A file that cannot be read is a usage error naming the game and the
    file, and so is one that holds the tag that would end the page's block it goes into."""
    if ref is None:
        return None
    package, colon, name = ref.partition(":")
    try:
        if not (colon and package and name):
            raise ValueError(f"not package:file.{'js' if what == 'script' else 'css'}")
        text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (ImportError, OSError, UnicodeDecodeError, ValueError) as err:
        raise UsageError(f"the viewer {what} of the game {spec.name!r} ({ref}) cannot be read: {err}") from None
    if f"</{what}" in text.lower():
        raise UsageError(f"the viewer {what} of the game {spec.name!r} ({ref}) holds '</{what}', "
                         f"which would end the page's {what}")
    return text


def game_script(spec: GameSpec) -> str | None:
    """The game's part of the viewer: the text of the script its spec names (``viewer``,
    ``package:file.js``, read from that package's files), or None for a game that has none."""
    return _game_part(spec, spec.viewer, "script")


def game_style(spec: GameSpec) -> str | None:
    """The style of the game's part of the viewer (``viewer_style``, ``package:file.css``), or
    None for a game that has none."""
    return _game_part(spec, spec.viewer_style, "style")


def _game_parts(games: Iterable[str], read: Callable[[GameSpec], tuple[str | None, str | None]]) -> list[tuple[str, str]]:
    """``(reference, text)`` of the part ``read`` gives for each of ``games`` (names), once per
    file (two games may share one) in the order given, leaving out the games without one."""
    parts: dict[str, str] = {}
    for name in dict.fromkeys(games):
        ref, text = read(registry.get(name))
        if ref is not None and text is not None:
            parts.setdefault(ref, text)
    return list(parts.items())


def _joined(parts: Iterable[str]) -> str:
    return "".join(p if p.endswith("\n") else p + "\n" for p in parts)


def script(games: Iterable[str]) -> str:
    """The page's one script for matches of ``games`` (names): the core's ``viewer.js``, the
    script of each game that has one (each once, in the order given; a game's script that
    fails as the page runs it is shown on the page as an error, and its matches get the core's
    table), then ``page.js``, which draws the page. The core names no game: each game's script
    registers its hooks with it (docs/viewer.md)."""
    parts = [_asset(CORE_SCRIPTS[0])]
    for ref, text in _game_parts(games, lambda spec: (spec.viewer, game_script(spec))):
        label = json.dumps(ref).replace("<", "\\u003c")
        parts.append(f"try {{\n{text}\n}} catch (err) {{ cardcliViewer.failed({label}, err); }}\n")
    parts.append(_asset(CORE_SCRIPTS[1]))
    return _inline(_joined(parts), "script")


def style(games: Iterable[str]) -> str:
    """The page's one style for matches of ``games`` (names): the core's ``viewer.css``, then
    the stylesheet of each game that has one (each once, in the order given), so that a game's
    rules may refine the core's."""
    parts = [_asset("viewer.css")]
    for ref, text in _game_parts(games, lambda spec: (spec.viewer_style, game_style(spec))):
        parts.append(f"/* {ref.replace('*/', '* /')} */\n{text}")
    return _inline(_joined(parts), "style")


def _step_text(events: Sequence[Event], move: Move | None, seat: int | None) -> str:
    """One step as text: its event lines, one a line; a private line starts ``@S,T `` (its
    audience), a public line is written as is. Lines ``seat`` may not see are left out.

    A move step starts with the move, ``>S KIND TOKEN``, unless its first line is the public
    event ``KIND S TOKEN`` that says it already (``play 2 QS``, ``bid 0 4``, ``trump 1 H``): then
    the header is implied. TOKEN is ``?`` when it is hidden from ``seat`` (another seat's pass).
    """
    lines: list[str] = []
    for event in events:
        if event.audience is None:
            lines.append(event.line())
        elif seat is None or seat in event.audience:
            lines.append("@" + ",".join(map(str, sorted(event.audience))) + " " + event.line())
    if move is not None:
        who, kind, token = move.seat, move.kind, move.move
        if not (lines and lines[0] == f"{kind} {who} {token}"):
            public = any(e.audience is None and token in e.args for e in events)
            shown = token if seat is None or seat == who or public else "?"
            lines.insert(0, f">{who} {kind} {shown}")
    return "\n".join(lines)


EXACT = 2**53 - 1
"""The largest integer a JavaScript number holds exactly: any larger one goes into the page's
data as its decimal digits (a string), so that the script, which reads the data with
``JSON.parse``, shows it exactly (a seed ``2844675396372846042`` read as a number would be
shown ``2844675396372846000``)."""


def exact(value: Any) -> Any:
    """``value`` with every integer beyond :data:`EXACT` (either sign), at any depth, written
    as a string of its digits; everything else as it is."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if abs(value) > EXACT else value
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(v) for v in value]
    return value


def match_data(record: dict[str, Any], where: str = "record", seat: int | None = None) -> dict[str, Any]:
    """One match as the page holds it, built from the verified walk over its record.

    Fields: the record's ``format_version``, ``software``, ``game``, ``variant``, ``options``,
    ``seed`` (always a string of its digits: seeds go up to 2**63 - 1, beyond what a JavaScript
    number holds), ``status``, ``adjudicated``, ``first_dealer`` and ``result``; ``where`` (file and
    line); ``title``; ``players``; ``names`` (escaped as every command shows them);
    ``lower_is_better``; ``teams``; ``order``; ``tournament`` (its schedule index or null);
    ``faults`` (``seat``, ``kind``, ``detail``, ``deal``, ``move`` as recorded, and ``step``,
    the step it is shown at, with ``after`` when it came after that step: where an aborted match
    stopped); ``fallback_from`` (per seat, the first step whose moves of that
    seat are the fallback player's, or null) and ``deals``: per deal ``number``, ``dealer``,
    ``points``, ``totals``, ``notes``, ``dead`` (Pepper with 2 players, only in a page of every
    hand), ``steps``, the deal's start then one per move (see :func:`_step_text`), and ``ms``,
    the think time of each move as recorded (the time charged, in milliseconds); ``info``, each
    seat's info lines kept with ``--keep-info`` (:func:`_info`), or null.

    Any other integer beyond 2**53 - 1 (an option's value, a score) is written as a string of its
    digits too (:func:`exact`). Steps are counted over the match: step 0 is the match before its first deal, then each
    deal's steps in order. Raises VerificationError where the record does not verify.
    """
    # a wrong --seat is said before the walk: the record is not shape-checked yet, so its seats
    # are counted as they came (the walk checks the record and builds its model)
    seats = len(record.get("seats", []))
    if seat is not None and seats and not 0 <= seat < seats:
        raise UsageError(f"--seat {seat}: {where} has seats 0 to {seats - 1}")
    deals: list[dict[str, Any]] = []
    index: dict[tuple[int, int | None], int] = {}
    count = 1  # step 0: before the first deal
    steps = walk(record, where)
    try:
        while True:
            step = next(steps)
            if step.played is None:
                dealt = step.dealt
                deal: dict[str, Any] = {
                    "number": step.deal, "dealer": dealt.dealer, "points": listed(dealt.points),
                    "totals": listed(dealt.totals), "notes": [printable(n) for n in dealt.notes],
                }
                if seat is None and dealt.dead is not None:
                    deal["dead"] = list(dealt.dead)
                deal["steps"] = [_step_text(step.events, None, seat)]
                deal["ms"] = []
                deals.append(deal)
            else:
                deals[-1]["steps"].append(_step_text(step.events, step.played, seat))
                deals[-1]["ms"].append(step.played.ms)
            index[(step.deal, step.move)] = count
            count += 1
    except StopIteration as stop:
        read: Record = stop.value.record
    last = count - 1
    players = read.players
    setup = registry.resolve(read.game, read.variant, read.options, players, read.seed)
    spec = setup.spec
    faults = []
    fallback: list[int | None] = [None] * players
    for fault in read.faults:
        deal_no, move_no = fault.deal, fault.move
        at = 0 if deal_no == 0 else index.get((deal_no, move_no))
        shown_at = last if at is None else at
        shown: dict[str, Any] = {"seat": fault.seat, "kind": printable(fault.kind),
                                 "detail": printable(fault.detail, DETAIL_WIDTH), "deal": deal_no, "move": move_no,
                                 "step": shown_at}
        if at is None:
            shown["after"] = True  # where a match stopped at a fault: after the last step
        faults.append(shown)
        if read.status != "aborted":
            fallback[fault.seat] = shown_at
    return {
        "format_version": read.format_version,
        "software": printable(read.software),
        "where": printable(where),
        "game": spec.name,
        "title": spec.title,
        "variant": read.variant,
        "options": exact(read.options),
        "seed": str(read.seed),
        "status": read.status,
        "adjudicated": read.adjudicated,
        "players": players,
        "names": [display_name(n) for n in seat_names(read)],
        "lower_is_better": spec.lower_is_better,
        "teams": [list(t) for t in spec.teams(players)],
        "order": spec.play_order(setup.options),
        "first_dealer": read.first_dealer,
        "tournament": read.tournament.index if read.tournament is not None else None,
        "result": exact(read.result.to_json()) if read.result is not None else None,
        "faults": faults,
        "info": _info(read, seat),
        "fallback_from": fallback,
        "deals": deals,
    }


def _info(read: Record, seat: int | None) -> list[list[str]] | None:
    """Each seat's info lines kept with ``--keep-info`` (escaped as every command shows text
    from a bot), or None when the record kept none. The record keeps them per seat, without
    the move they came at, so they are shown per seat. A page of one seat (``--seat``) holds
    that seat's lines only: another bot's thoughts are its author's."""
    if read.info is None:
        return None
    lines: list[list[str]] = [[] for _ in range(read.players)]
    for key, texts in read.info.items():
        if key.isdigit() and int(key) < read.players and (seat is None or int(key) == seat):
            lines[int(key)] = [printable(t, DETAIL_WIDTH) for t in texts]
    return lines


def page_data(records: Iterable[dict[str, Any]], seat: int | None = None,
              wheres: Sequence[str] | None = None, source: str = "",
              tournament: dict[str, Any] | None = None) -> dict[str, Any]:
    """The data of a page: every match (:func:`match_data`), what wrote it, and for a
    tournament directory its standings (made from the tournament's own table by the command
    line, :func:`cardcli.cli.replay.tournament_standings`; else null), which the page opens
    on."""
    matches = []
    for i, record in enumerate(records):
        where = wheres[i] if wheres is not None else f"number {i + 1}"
        matches.append(match_data(record, where, seat))
    if not matches:
        raise UsageError("no record to show")
    return {
        "cardcli_viewer": DATA_VERSION,
        "software": software(),
        "format_version": FORMAT_VERSION,
        "seat": seat,
        "source": printable(source),
        "standings": tournament,
        "matches": matches,
    }


def _script_json(data: Any) -> str:
    """JSON for a ``<script type="application/json">`` block: every ``<`` written ``\\u003c``,
    so no text from a record (a name holding ``</script>`` or ``<!--``) can end the block."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _inline(text: str, tag: str) -> str:
    if f"</{tag}" in text.lower():
        raise ValueError(f"the viewer's {tag} may not hold '</{tag}'")
    return text


def render(records: Iterable[dict[str, Any]], seat: int | None = None, wheres: Sequence[str] | None = None,
           source: str = "", tournament: dict[str, Any] | None = None) -> str:
    """The whole page, as text: the verified data of every record, the script and the style."""
    data = page_data(records, seat, wheres, source, tournament)
    games = [m["game"] for m in data["matches"]]
    code = script(games)
    css = style(games)
    made = f"{software()}, record format {FORMAT_VERSION}"
    matches = data["matches"]
    if len(matches) == 1:
        m = matches[0]
        title = f"{m['title']} - seed {m['seed']}"
    else:
        title = f"{len(matches)} matches"
    if tournament is not None:
        title = f"a tournament of {title}"
    if seat is not None:
        title += f" - as seat {seat} saw it"
    csp = (f"default-src 'none'; script-src {_hash(code)}; style-src {_hash(css)}; "
           "base-uri 'none'; form-action 'none'")
    esc = html.escape
    return PAGE.format(
        csp=esc(csp, quote=False), generator=esc(software()), title=esc(f"cardcli replay: {title}"), heading=esc(title),
        made=esc(made), style=css, data_id=DATA_ID, data=_script_json(data), script=code,
    )


def write_html(records: Iterable[dict[str, Any]], out_path: str | Path, seat: int | None = None,
               wheres: Sequence[str] | None = None, source: str = "",
               tournament: dict[str, Any] | None = None) -> Path:
    """Write the page for ``records`` to ``out_path`` (every record verified first: nothing is
    written for a record that does not verify) and return its path. ``tournament``: the
    standings of a tournament directory (:func:`standings`), which the page then opens on."""
    text = render(records, seat, wheres, source, tournament)
    path = Path(out_path)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {out_path}: {err.strerror}") from None
    return path


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{generator}">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header id="top">
  <h1 id="heading">{heading}</h1>
  <a id="to-standings" href="#standings" hidden>standings</a>
  <label id="match-pick" hidden>match <select id="match"></select></label>
  <label id="view-pick">view <select id="view"></select></label>
  <span id="made">made by {made}</span>
</header>
<div id="error" role="alert" hidden></div>
<noscript><p class="noscript">This page draws the table with its own inline script: allow scripts for this file to see it.</p></noscript>
<nav id="controls" aria-label="navigation">
  <button type="button" id="first" title="first step (Home)"><span class="ic">|&#x25C0;</span> <span class="word narrow-only">first</span></button>
  <button type="button" id="prev-deal" title="previous deal (Up, PageUp)"><span class="ic">&#x25C0;&#x25C0;</span> <span class="word">deal</span></button>
  <button type="button" id="prev-trick" title="previous trick (Shift+Left)"><span class="ic">&#x25C0;</span> <span class="word">trick</span></button>
  <button type="button" id="prev" title="previous move (Left)"><span class="ic">&#x25C0;</span> <span class="word">move</span></button>
  <button type="button" id="play" title="play / pause (Space)"><span class="ic">&#x25B6;</span> <span class="word">play</span></button>
  <button type="button" id="next" title="next move (Right)"><span class="word">move</span> <span class="ic">&#x25B6;</span></button>
  <button type="button" id="next-trick" title="next trick (Shift+Right)"><span class="word">trick</span> <span class="ic">&#x25B6;</span></button>
  <button type="button" id="next-deal" title="next deal (Down, PageDown)"><span class="word">deal</span> <span class="ic">&#x25B6;&#x25B6;</span></button>
  <button type="button" id="last" title="last step (End)"><span class="word narrow-only">last</span> <span class="ic">&#x25B6;|</span></button>
  <label>speed <select id="speed">
    <option value="2000">0.5 moves/s</option><option value="1000">1 move/s</option>
    <option value="500" selected>2 moves/s</option><option value="250">4 moves/s</option>
    <option value="100">10 moves/s</option></select></label>
  <label>deal <select id="deal"></select></label>
  <input type="range" id="slider" min="0" max="0" value="0" aria-label="step">
  <span id="jumps" role="group" aria-label="jump to a moment">
    <label>jump to <select id="moment"></select></label>
    <button type="button" id="prev-moment" title="the previous moment of the chosen kind ([)"><span class="ic">&#x25C0;</span> <span class="word">previous</span></button>
    <button type="button" id="next-moment" title="the next moment of the chosen kind (])"><span class="word">next</span> <span class="ic">&#x25B6;</span></button>
    <span id="moment-status" role="status"></span>
  </span>
</nav>
<div id="position" aria-live="polite"></div>
<section id="standings" aria-labelledby="standings-head" hidden>
  <h2 id="standings-head">Standings</h2>
  <p class="why">The tournament's table as <code>cardcli tournament</code> prints it, made by the same code
  from the same records: the standings, the crosstable and the paired duplicate results. Then every
  match: open one to step through it.</p>
  <pre id="standings-table" tabindex="0" aria-label="the tournament's table"></pre>
  <h2>Matches</h2>
  <ol id="match-list"></ol>
</section>
<main id="main">
  <div id="board">
  <div id="table">
    <div id="corner">
      <div id="deal-info"></div>
    </div>
    <div id="center">
      <div id="trick"></div>
    </div>
  </div>
  <div id="panels">
    <div id="last-trick" class="panel" hidden></div>
    <div id="deal-end" class="panel" hidden></div>
  </div>
  </div>
  <aside id="side">
    <h2>Moves of the deal</h2>
    <ol id="log"></ol>
    <h2>Scores</h2>
    <div id="scores-box"><table id="scores"></table></div>
    <h2>Totals across deals</h2>
    <svg id="chart" viewBox="0 0 360 200" role="img" aria-label="running totals by deal"></svg>
    <h2>Think time</h2>
    <svg id="times" viewBox="0 0 360 40" role="img" aria-label="think time per seat: so far and over the match"></svg>
    <section id="info-lines" aria-labelledby="info-head" hidden>
      <h2 id="info-head">Info lines (--keep-info)</h2>
      <p class="why">The record keeps each bot's info lines in the order it sent them, not the move
      each came at: they are listed per seat.</p>
    </section>
    <div id="result"></div>
    <p id="about"></p>
  </aside>
</main>
<div id="motion" aria-hidden="true"></div>
<footer>made by {made}; every step checked against the rules when the page was made.</footer>
<script type="application/json" id="{data_id}">{data}</script>
<script>{script}</script>
</body>
</html>
"""
