"""The arena's web pages, rendered on the server: the standings (``/``), an entrant
(``/entrants/NAME``), the matches (``/matches``) and one match in the replay viewer
(``/matches/ID``).

Why server-rendered HTML (with one small same-origin script that only swaps in the standings
the server pushes, :mod:`.events`) rather than a front end built with npm: nothing to build or
fetch at install time, nothing fetched from outside when a page is viewed (so the pages work
offline on loopback and under a Content-Security-Policy that allows only the arena itself),
every page readable with scripts off, and one place that escapes what entrants write
(:func:`.markup.esc`). Each endpoint is a plain function that Starlette runs in its threadpool,
as the API's are: the store's calls never block the event loop.

Nothing secret is shown: an entrant appears by name, kind, state and versions, as in the API,
never with its token's hash, its seat spec or its options.
"""

from __future__ import annotations

import html
import json
import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, AbstractSet, Any, Callable, Protocol, Sequence
from urllib.parse import quote, urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from .. import viewer
from ..errors import CardcliError
from . import history, queries
from .params import ID_MAX, RECENT_MATCHES, integer, match_id_of
from .chart import LINES, chart
from .markup import HEADERS, NAV, esc, page, table, when
from .store import Store

if TYPE_CHECKING:
    from .api import Api

Presence = Callable[[str], "str | None"]
"""An entrant's name → what the serving process knows of its connection (``connected``,
``waiting``...), or None when it knows nothing (a program entrant, or no listener)."""



class Connections(Protocol):
    """What :func:`listener_presence` reads of a listener (:class:`cardcli.remote.hub.Listener`)."""

    tokens: dict[str, str]

    def sessions(self, name: str) -> int: ...


def listener_presence(listener: Connections) -> Presence:
    """The presence of the remote entrants a listener admits: ``connected`` with the number of
    its bot's connections, or ``waiting for its bot`` (it is scheduled only while connected);
    None for any other entrant (a program is always available)."""

    def presence(name: str) -> str | None:
        if name not in listener.tokens:
            return None
        count = listener.sessions(name)
        return f"connected ({count})" if count else "waiting for its bot"

    return presence


PAGE = 50
"""Matches in a page of ``/matches``."""
SCAN_BATCH = 100
"""Matches read at a time when a page is filtered by result (read in the database first)."""
SCAN_MOST = 2000
"""The most matches one page of ``/matches`` looks through for a result filter: a rare result
gives a short page with a link that searches on, never a request that reads the season."""
VIEWER_PAGES_KEPT = 32
"""Rendered viewer pages kept in memory (a stored record never changes)."""
RESULTS = ("won", "lost", "drew")
FAULTS = ("with", "without")


class Pages:
    """The pages over one store (one instance per app)."""

    def __init__(self, store: Store, api: Api, presence: Presence | None = None,
                 nav: Sequence[tuple[str, str]] = NAV):
        self.nav = nav
        """The navigation's links (with the live games' where they are served)."""
        self.store = store
        self.api = api
        self.presence = presence
        self._lock = threading.Lock()
        self._history: tuple[tuple[float, int] | None, dict[str, Any] | None, dict[int, list[history.Point]]] = (
            None, None, {})
        self._viewer: OrderedDict[int, tuple[str, str]] = OrderedDict()

    # -- the standings --------------------------------------------------------------------------

    def standings_data(self) -> tuple[tuple[float, int] | None, dict[str, Any] | None, dict[int, list[history.Point]]]:
        """The latest standings with their stamp and the chart's history, read again only when
        the stamp changed (a watcher polls this every second)."""
        stamp = self.store.standings_stamp()
        with self._lock:
            if stamp is not None and stamp == self._history[0]:
                return self._history
        table_ = self.store.standings() if stamp is not None else None
        drawn = [int(r["version_id"]) for r in (table_ or {}).get("rows", []) if r.get("matches")][:LINES]
        points = history.read(self.store.engine, drawn)
        with self._lock:
            self._history = (stamp, table_, points)
        return self._history

    def standings_fragment(self) -> str:
        """The live part of the standings page (the table and the chart): what is pushed to
        every watcher when it changes."""
        stamp, table_, points = self.standings_data()
        rows: list[dict[str, Any]] = list((table_ or {}).get("rows", []))
        entrants = {e.name: e for e in self.store.entrants()}
        newest: dict[str, int] = {}
        for row in rows:
            newest[row["entrant"]] = max(newest.get(row["entrant"], 0), int(row["version_id"]))
        groups: list[list[str]] = []
        separated = True
        for row in rows:
            entrant = entrants.get(row["entrant"])
            if entrant is not None and not entrant.enabled:
                state = f"disabled: {entrant.disabled_reason or 'by the organiser'}"
            elif newest[row["entrant"]] != int(row["version_id"]):
                state = "replaced by a newer version"
            else:
                state = (self.presence(row["entrant"]) if self.presence is not None else None) or "enabled"
            cls = "disabled" if state.startswith("disabled") else ""
            mark = ('' if separated else
                    ' <abbr class="tie" title="not separated from the row above by the paired results">=</abbr>')
            cells = (f'<td class="num">{int(row["rank"])}{mark}</td>'
                     f'<th scope="row"><a href="/entrants/{quote(row["entrant"], safe="")}">{esc(row["entrant"])}</a></th>'
                     f'<td class="label">{esc(row["version"])}</td>'
                     f'<td class="num">{_rating(row)}</td>'
                     f'<td class="num">{int(row["matches"])}</td>'
                     f'<td class="num">{_fault_rate(row)}</td>'
                     f'<td class="state">{esc(state)}</td>')
            line = f'<tr class="{cls}" data-version="{int(row["version_id"])}">{cells}</tr>'
            if separated:
                groups.append([line])
            else:
                groups[-1].append(line)
            following = row.get("next")
            separated = following is None or bool(following.get("separated"))
        head = "".join(f'<th scope="col">{h}</th>' for h in
                       ("Rank", "Entrant", "Version", "Rating (95%)", "Games", "Faults", "State"))
        bodies = "".join(f'<tbody class="group{" tied" if len(g) > 1 else ""}">{"".join(g)}</tbody>' for g in groups)
        if not groups:
            bodies = '<tbody><tr><td colspan="7" class="empty">No entrant has a version yet.</td></tr></tbody>'
        matches = int((table_ or {}).get("matches", 0))
        summary = (f'<p class="summary">{matches} rated {"match" if matches == 1 else "matches"}'
                   + (f", saved {when(stamp[0])}" if stamp is not None else ", no standings saved yet") + ".</p>")
        legend = ('<p class="note">Rows in one bracketed group, marked <abbr class="tie">=</abbr>, are not separated '
                  'by the paired duplicate results: their order is not established yet.</p>')
        by_version = {int(r["version_id"]): r for r in rows}
        lines = []
        for version, pts in points.items():
            found = by_version.get(version)
            if found is None:
                continue
            row = found
            now = (stamp[0] if stamp else 0.0, float(row["rating"]), float(row["rating_ci"]) / history.Z95)
            if not pts or (pts[-1][1], round(pts[-1][2], 2)) != (now[1], round(now[2], 2)) and now[0] > pts[-1][0]:
                pts = [*pts, now]
            lines.append((f'{row["entrant"]} {row["version"]}', pts))
        return (f'{summary}<div class="scroll" tabindex="0" role="region" aria-label="standings">'
                f'<table class="standings"><caption>Standings</caption><thead><tr>{head}</tr></thead>{bodies}'
                f'</table></div>{legend}<h2>Ratings over time</h2>{chart(lines)}')

    def standings(self, request: Request) -> Response:
        body = (f'<h1>Standings</h1><p id="live" class="live" role="status">Updates as matches are played.</p>'
                f'<div id="standings" data-events="/events/standings">{self.standings_fragment()}</div>')
        return page("Standings", body, "/", nav=self.nav)

    # -- an entrant -----------------------------------------------------------------------------

    def entrant(self, request: Request) -> Response:
        name = request.path_params["name"]
        try:
            row = self.store.entrant(name)
        except CardcliError:
            raise HTTPException(404, f"no entrant named {name}") from None
        _, table_, _ = self.standings_data()
        standing = {int(r["version_id"]): r for r in (table_ or {}).get("rows", [])}
        versions = [v for v in self.api.versions.reload() if v["entrant_id"] == row.id]
        own = {int(v["id"]) for v in versions}
        labels = {int(v["id"]): v for v in self.api.versions.reload()}
        state = "enabled" if row.enabled else f"disabled: {row.disabled_reason or 'by the organiser'}"
        if row.enabled and self.presence is not None:
            state = self.presence(row.name) or state
        faulted, played = self.store.recent_faults(row.id, self.api.fault_window)
        parts = [f'<h1>{esc(row.name)}</h1>',
                 f'<dl class="facts"><dt>Kind</dt><dd>{esc(row.kind.value)}</dd><dt>State</dt><dd>{esc(state)}</dd>'
                 f'<dt>Recent faults</dt><dd>faulted in {faulted} of its last {played} matches</dd></dl>',
                 '<h2>Versions</h2>']
        version_rows = []
        for v in reversed(versions):
            r = standing.get(int(v["id"]))
            version_rows.append(
                f'<tr><th scope="row" class="label">{esc(v["label"])}</th><td>{when(v["created"])}</td>'
                f'<td class="num">{int(r["rank"]) if r else ""}</td><td class="num">{_rating(r) if r else ""}</td>'
                f'<td class="num">{int(r["matches"]) if r else 0}</td>'
                f'<td class="num">{_fault_rate(r) if r else ""}</td></tr>')
        parts.append(table(("Version", "First seen", "Rank", "Rating (95%)", "Games", "Faults"), version_rows,
                           "Its versions, newest first"))
        parts.append('<h2>Against the others</h2><p class="note">Paired duplicate results: the mean difference '
                     'per deal from the same cards in the same seat, with its 95% interval, from this version\'s '
                     'side (more is better for it).</p>')
        pair_rows = []
        for pair in (table_ or {}).get("pairs", []):
            a, b = int(pair["a"]), int(pair["b"])
            if (a in own) == (b in own):
                continue
            mine, theirs = (a, b) if a in own else (b, a)
            flip = mine != a
            mean = pair["mean"]
            wins, losses = (pair["losses"], pair["wins"]) if flip else (pair["wins"], pair["losses"])
            better = pair.get("better")
            verdict = "not separated" if better is None else "better" if int(better) == mine else "worse"
            other = labels.get(theirs, {"name": "?", "label": "?"})
            difference = "" if mean is None else f"{-mean if flip else mean:+.3f}"
            if mean is not None and pair["ci"] is not None:
                difference += f" ± {pair['ci']:.3f}"
            pair_rows.append(
                f'<tr><td class="label">{esc(labels[mine]["label"])}</td>'
                f'<th scope="row"><a href="/entrants/{quote(other["name"], safe="")}">{esc(other["name"])}</a> '
                f'<span class="label">{esc(other["label"])}</span></th>'
                f'<td class="num">{int(pair["n"])}</td><td class="num">{esc(difference)}</td>'
                f'<td class="num">{wins}-{pair["draws"]}-{losses}</td><td class="verdict {verdict.split()[0]}">'
                f'{verdict}</td></tr>')
        parts.append(table(("Its version", "Against", "Deals", "Difference per deal", "W-D-L", "Verdict"),
                           pair_rows, "Paired results against every other version it met"))
        recent = self.store.entrant_matches(row.name, RECENT_MATCHES)
        summaries = self.api.summaries(recent)
        parts.append('<h2>Recent matches</h2>')
        parts.append(self._match_table(summaries, queries.placings(self.store, [m["id"] for m in summaries])))
        mine_faulted = [m["id"] for m in summaries if any(s["faulted"] and s["entrant"] == row.name for s in m["seats"])]
        details = queries.fault_details(self.store, mine_faulted)
        fault_rows = []
        for summary in summaries:
            seats = {s["seat"] for s in summary["seats"] if s["entrant"] == row.name}
            for fault in details.get(summary["id"], []):
                if fault.get("seat") in seats:
                    fault_rows.append(
                        f'<tr><td class="num"><a href="/matches/{summary["id"]}">{summary["id"]}</a></td>'
                        f'<td>{esc(fault.get("kind", ""))}</td><td class="detail">{esc(fault.get("detail", ""))}</td>'
                        f'<td class="num">{esc(fault.get("deal", ""))}</td><td class="num">{esc(fault.get("move", ""))}'
                        '</td></tr>')
        parts.append('<h2>Faults in its recent matches</h2>')
        parts.append(table(("Match", "Kind", "Why", "Deal", "Move"), fault_rows, "Its faults, with their reasons"))
        parts.append(f'<p><a href="/matches?{urlencode({"entrant": row.name})}">All its matches</a></p>')
        return page(row.name, "".join(parts), nav=self.nav)

    # -- matches --------------------------------------------------------------------------------

    def matches(self, request: Request) -> Response:
        query = request.query_params
        entrant = query.get("entrant") or None
        version = integer(query.get("version") or None, "version", 1, ID_MAX)
        result = query.get("result") or None
        faults = query.get("faults") or None
        after = integer(query.get("after") or None, "after", 1, ID_MAX)
        if result is not None and result not in RESULTS:
            raise HTTPException(400, f"result is one of {', '.join(RESULTS)}")
        if faults is not None and faults not in FAULTS:
            raise HTTPException(400, f"faults is one of {', '.join(FAULTS)}")
        every = self.api.versions.reload()
        names = sorted({v["name"] for v in every} | {e.name for e in self.store.entrants()})
        if entrant is not None and entrant not in names:
            raise HTTPException(404, f"no entrant named {entrant}")
        if version is not None and version not in {int(v["id"]) for v in every}:
            raise HTTPException(404, f"no version {version}")
        subject: list[int] | None = None
        if version is not None:
            subject = [version]
        elif entrant is not None:
            subject = [int(v["id"]) for v in every if v["name"] == entrant]
        notes = []
        if result is not None and subject is None:
            notes.append("A result is someone's: choose an entrant or a version to filter by it.")
            result = None
        faulted = None if faults is None else faults == "with"
        found, scanned_to = self._find(subject, faulted, result, after)
        summaries = self.api.summaries(found)
        placing = queries.placings(self.store, [m["id"] for m in summaries])
        kept = {k: v for k, v in (("entrant", entrant), ("version", version), ("result", result),
                                   ("faults", faults)) if v is not None}
        links = []
        if after is not None:
            links.append(f'<a href="/matches?{esc(urlencode(kept))}">Newest</a>')
        if scanned_to is not None:
            links.append(f'<a rel="next" href="/matches?{esc(urlencode({**kept, "after": scanned_to}))}">Older</a>')
        if scanned_to is not None and len(found) < PAGE:
            notes.append(f"Looked through {SCAN_MOST} matches for this result; the next page searches on.")
        form = self._filter_form(names, every, entrant, version, result, faults)
        body = (f'<h1>Matches</h1>{form}'
                + "".join(f'<p class="note">{esc(n)}</p>' for n in notes)
                + self._match_table(summaries, placing, set(subject or ()))
                + f'<nav class="pager" aria-label="pages">{" ".join(links)}</nav>')
        return page("Matches", body, "/matches", nav=self.nav)

    def _find(self, subject: list[int] | None, faulted: bool | None, result: str | None,
              after: int | None) -> tuple[list[Any], int | None]:
        """A page of matches, and the ``after`` of the next page (None when there is none)."""
        if result is None:
            found = queries.find_matches(self.store, PAGE, after, subject, faulted)
            return found, (found[-1].id if len(found) == PAGE else None)
        assert subject is not None
        wanted = set(subject)
        kept: list[Any] = []
        scanned = 0
        cursor = after
        while len(kept) < PAGE and scanned < SCAN_MOST:
            batch = queries.find_matches(self.store, SCAN_BATCH, cursor, subject, faulted)
            if not batch:
                return kept, None
            placing = queries.placings(self.store, [m.id for m in batch])
            for match in batch:
                scanned += 1
                cursor = match.id
                seats = {s for s, v in enumerate(match.seating) if v in wanted}
                if _result_of(seats, placing.get(match.id)) == result:
                    kept.append(match)
                    if len(kept) == PAGE:
                        break
            if len(batch) < SCAN_BATCH and len(kept) < PAGE:
                return kept, None
        return kept, cursor

    @staticmethod
    def _filter_form(names: Sequence[str], every: Sequence[dict[str, Any]], entrant: str | None, version: int | None,
                     result: str | None, faults: str | None) -> str:
        def options(pairs: Sequence[tuple[str, str]], chosen: str | None) -> str:
            return "".join(f'<option value="{esc(value)}"{" selected" if value == chosen else ""}>{esc(text)}</option>'
                           for value, text in pairs)

        fields = [
            ("f-entrant", "Entrant", "entrant", [("", "any"), *((n, n) for n in names)], entrant),
            ("f-version", "Version", "version", [("", "any"), *((str(v["id"]), f'{v["name"]}: {v["label"]}')
                                                              for v in every)],
             None if version is None else str(version)),
            ("f-result", "Its result", "result", [("", "any"), *((r, r) for r in RESULTS)], result),
            ("f-faults", "Faults", "faults", [("", "any"), ("with", "with a fault"), ("without", "without")], faults),
        ]
        inside = "".join(f'<div class="field"><label for="{i}">{label}</label><select id="{i}" name="{name}">'
                         f'{options(pairs, chosen)}</select></div>' for i, label, name, pairs, chosen in fields)
        return (f'<form class="filters" method="get" action="/matches" role="search" aria-label="filter the matches">'
                f'{inside}<div class="field"><button type="submit">Filter</button> <a href="/matches">Clear</a></div>'
                '</form>')

    @staticmethod
    def _match_table(summaries: Sequence[dict[str, Any]], placing: dict[int, queries.Placing],
                     subject: AbstractSet[int] = frozenset()) -> str:
        rows = []
        for m in summaries:
            place = placing.get(m["id"], queries.Placing())
            seats = []
            for s in m["seats"]:
                seat = s["seat"]
                score = "" if m["scores"] is None or seat >= len(m["scores"]) else f' {_number(m["scores"][seat])}'
                outcome = _result_of({seat}, place)
                flags = (f' <span class="result {outcome}">{outcome}</span>' if outcome else "") + (
                    ' <span class="fault">faulted</span>' if s["faulted"] else "")
                who = (f'<a href="/entrants/{quote(s["entrant"], safe="")}">{esc(s["entrant"])}</a>'
                       if s["entrant"] is not None else "?")
                mine = ' class="mine"' if s["version_id"] in subject else ""
                seats.append(f'<li{mine}>{who} <span class="label">{esc(s["version"] or "")}</span>'
                             f'<span class="score">{esc(score)}</span>{flags}</li>')
            rows.append(f'<tr><th scope="row" class="num"><a href="/matches/{m["id"]}" aria-label="match {m["id"]}">'
                        f'{m["id"]}</a></th><td>{when(m["finished"])}</td><td><ol class="seats" start="0">'
                        f'{"".join(seats)}</ol></td><td>{esc(m["status"] or "")}</td>'
                        f'<td>{"rated" if m["rated"] else "not rated"}</td></tr>')
        return table(("Match", "Finished", "Seats (from seat 0)", "Status", "Rated"), rows, "Matches, newest first",
                     "matches")

    # -- one match ------------------------------------------------------------------------------

    def match(self, request: Request) -> Response:
        """The replay viewer's page of the match's stored record (every hand shown: the match
        is over), served with the viewer's own policy, which allows its inline script and
        style by their hashes and nothing else. Links naming a moment (``#m=0&s=12``) work as
        in a page written by ``cardcli replay --html``."""
        match_id = match_id_of(request.path_params["id"])
        with self._lock:
            cached = self._viewer.get(match_id)
        if cached is None:
            line = self.store.record_line(match_id) if match_id <= ID_MAX else None
            if line is None:
                raise HTTPException(404, f"no match {match_id}")
            record = json.loads(line)
            record.pop("info", None)  # the bots' own info lines are for their authors
            cached = viewer_page(record, match_id)
            with self._lock:
                self._viewer[match_id] = cached
                while len(self._viewer) > VIEWER_PAGES_KEPT:
                    self._viewer.popitem(last=False)
        text, policy = cached
        return HTMLResponse(text, headers=dict(HEADERS, **{"Content-Security-Policy": policy}))


def viewer_page(record: dict[str, Any], match_id: int) -> tuple[str, str]:
    """The replay viewer's page of a stored match's ``record``, with links back to the arena,
    and the policy to send with it (its own, as strict as the arena's)."""
    try:
        text = viewer.render([record], wheres=[f"match {match_id}"], source=f"arena match {match_id}")
    except CardcliError as err:
        raise HTTPException(500, f"the record of match {match_id} cannot be shown: {err}") from None
    text = _with_way_back(text, match_id)
    return text, _meta_policy(text)


def _with_way_back(text: str, match_id: int) -> str:
    """The viewer's page with links back to the arena in its footer (plain links: its policy
    allows no other stylesheet)."""
    links = (f'<a href="/matches">all matches</a> · <a href="/">standings</a> · '
             f'<a href="/api/matches/{match_id}/record">the record</a> · ')
    return text.replace("<footer>", f"<footer>{links}", 1)


def _meta_policy(text: str) -> str:
    """The policy the viewer's page states in its ``<meta>``, sent as the header too."""
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text)
    if found is None:
        return "default-src 'none'"
    return html.unescape(found.group(1))


def _result_of(seats: set[int], placing: queries.Placing | None) -> str | None:
    """``won``, ``lost`` or ``drew`` for an entrant in ``seats``; None without a result."""
    if placing is None or not seats:
        return None
    if seats & set(placing.winners):
        return "won"
    if seats & set(placing.draws):
        return "drew"
    if seats & set(placing.losers):
        return "lost"
    return None


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _rating(row: dict[str, Any]) -> str:
    return f'{float(row["rating"]):.2f} <span class="ci">± {float(row["rating_ci"]):.2f}</span>'


def _fault_rate(row: dict[str, Any]) -> str:
    matches = int(row.get("matches") or 0)
    faults = sum(int(n) for n in (row.get("faults") or {}).values())
    if not matches:
        return "-"
    return f'{100 * faults / matches:.1f}% <span class="count">({faults})</span>'


def error_page(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """An error as a page of the arena."""
    titles = {400: "Bad request", 404: "Not found", 405: "Not allowed", 500: "Something went wrong"}
    title = titles.get(status, f"Error {status}")
    response = page(title, f'<h1>{esc(title)}</h1><p class="error">{esc(message)}</p>', status=status)
    response.headers.update(headers or {})
    return response
