"""The author's view: what an entrant's author needs to debug its bot, and nobody else may see.

``/author`` asks for the entrant's token (the one ``cardcli arena entrant token`` prints; a
remote bot's is also its key to its seats). Behind it: the matches the entrant faulted in, with
each fault's kind and detail; its think time per move in its recent matches; and per match
(``/author/matches/ID``) the failure bundle the worker kept (the last protocol lines with their
times, the end of its stderr: only for a program the arena runs, whose stderr the arena sees),
the protocol lines its seat exchanged with the referee, re-derived from the record exactly as
``cardcli replay --protocol`` does (:func:`cardcli.protocol_replay.derive`), the bot's own
``info`` lines, and its think time move by move.

How the token is kept out of URLs and logs, and what the session is:

- **Only in a POST body.** The sign-in form posts the token; it is hashed at once and compared
  with the stored hash (:mod:`.secrets`: only hashes are stored). It never appears in a URL, a
  page, a redirect or a log line (uvicorn's access log is off, and no error echoes a form).
- **Then a session, not the token.** Signing in sets a cookie holding a random 256-bit session
  id (``HttpOnly``, ``SameSite=Strict``, ``Path=/author``, ``Secure`` over HTTPS), kept in this
  process's memory only: a restart signs everyone out, and the database never holds it. A
  session names the entrant and the token's hash it was opened with, checked again on every
  page: a new token (``entrant token``) closes every session opened with the old one at once.
- **Guessing is pointless and bounded.** A token is 192 random bits; still, a client address
  has :data:`FAILURES_PER_MINUTE` failed sign-ins a minute, the body is at most
  :data:`BODY_MAX` bytes, and a sign-in from another site's page (``Sec-Fetch-Site``, or else
  ``Origin``, not this server's) is refused, so no page elsewhere can sign a visitor in as
  someone else.
- **Nobody else sees them.** Every page under ``/author`` answers only a session, and only
  about the session's entrant: a match it did not play is 404, as one that does not exist.

The failure bundles and stderr tails are written by the workers with each match
(:class:`cardcli.arena.store.NewMatch`); the public pages and the API never read them.
"""

from __future__ import annotations

import json
import secrets as random_ids
import statistics
import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Sequence
from urllib.parse import parse_qs

import attrs
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ..errors import CardcliError
from ..protocol_replay import Derived, derive
from ..transcript import write
from . import secrets
from .markup import HEADERS, esc, page, table, when
from .params import ID_MAX, match_id_of
from .store import EntrantRow, Store

PATH = "/author"
NAV_LINK = (PATH, "Authors")
"""The navigation's link to the sign-in page."""
COOKIE = "cardcli_author"
SESSION_SECONDS = 8 * 3600
"""How long a session lasts from its sign-in."""
SESSIONS_MAX = 10_000
"""Sessions kept at once; the oldest is closed to open another."""
FAILURES_PER_MINUTE = 10
"""Failed sign-ins a client address may make in a minute before it is told to wait."""
CLIENTS_TRACKED = 10_000
"""Client addresses whose failures are counted at once (the oldest forgotten first)."""
BODY_MAX = 4096
"""Bytes of a sign-in form: a token is 32 characters."""
FAULTS_SHOWN = 50
"""Faulted matches in a page of the author's list."""
THINK_MATCHES = 10
"""Recent matches whose think time the author's page summarises."""
TRANSCRIPT_SHOWN = 2000
"""Protocol lines shown in a match's page (the last ones); the whole is a download."""
DERIVED_KEPT = 16
"""Derived protocol transcripts kept in memory (deriving one replays the match)."""


@attrs.frozen
class Session:
    entrant: str
    token_hash: str
    expires: float


class Sessions:
    """The open sessions, by their random id: in memory only, bounded, each expiring."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._open: OrderedDict[str, Session] = OrderedDict()

    def open(self, entrant: str, token_hash: str) -> str:
        sid = random_ids.token_urlsafe(32)
        with self._lock:
            self._open[sid] = Session(entrant, token_hash, self._clock() + SESSION_SECONDS)
            while len(self._open) > SESSIONS_MAX:
                self._open.popitem(last=False)
        return sid

    def get(self, sid: str | None) -> Session | None:
        if not sid:
            return None
        with self._lock:
            session = self._open.get(sid)
            if session is not None and session.expires <= self._clock():
                del self._open[sid]
                session = None
        return session

    def close(self, sid: str | None) -> None:
        with self._lock:
            self._open.pop(sid or "", None)


class Failures:
    """Failed sign-ins per client address over the last minute."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, list[float]] = OrderedDict()

    def _recent(self, client: str, now: float) -> list[float]:
        return [t for t in self._seen.get(client, ()) if now - t < 60.0]

    def allowed(self, client: str) -> bool:
        with self._lock:
            return len(self._recent(client, self._clock())) < FAILURES_PER_MINUTE

    def failed(self, client: str) -> None:
        with self._lock:
            now = self._clock()
            self._seen[client] = [*self._recent(client, now), now]
            self._seen.move_to_end(client)
            while len(self._seen) > CLIENTS_TRACKED:
                self._seen.popitem(last=False)


def token_of(field: str) -> str:
    """The token in what was pasted: ``entrant token`` prints ``NAME TOKEN``, and either that
    line or the token alone is accepted."""
    words = field.split()
    return words[-1] if words else ""


def think_times(record: dict[str, Any], seats: Sequence[int]) -> list[dict[str, Any]]:
    """Every move the ``seats`` made themselves (not the fallback player after a fault), in
    order: its deal (from 1), its number in the deal (from 1), the move and its milliseconds."""
    out = []
    for d, deal in enumerate(record.get("deals") or [], start=1):
        for n, move in enumerate(deal.get("moves") or [], start=1):
            if move.get("seat") in seats and move.get("by", "seat") == "seat":
                out.append({"deal": d, "number": n, "move": str(move.get("move")), "ms": int(move.get("ms") or 0)})
    return out


def summary(times: Sequence[int]) -> tuple[int, int, int, int] | None:
    """Moves, median, 95th percentile and most milliseconds; None without a move."""
    if not times:
        return None
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return len(ordered), round(statistics.median(ordered)), p95, ordered[-1]


def think_chart(moves: Sequence[dict[str, Any]], limit_ms: int) -> str:
    """Each move's think time as a bar, in the order played: an SVG drawn here (nothing to
    fetch), with the same numbers in the table below it. The scale is the slowest move's, so a
    bot far inside its limit still shows which moves cost it most; the limit is drawn as a line
    when it falls within the scale (a move near it is what times out next)."""
    if not moves:
        return ""
    width, height, left, top, bottom = 640, 160, 44, 8, 18
    slowest = max(m["ms"] for m in moves)
    scale = max(slowest * 1.1, 1.0)
    if limit_ms <= scale * 1.5:
        scale = max(scale, float(limit_ms))
    step = (width - left - 4) / len(moves)
    plot = height - top - bottom
    bars = []
    for i, move in enumerate(moves):
        h = max(1.0, plot * move["ms"] / scale)
        bars.append(f'<rect class="bar" x="{left + i * step:.1f}" y="{top + plot - h:.1f}" '
                    f'width="{max(step - 0.5, 0.5):.1f}" height="{h:.1f}"><title>deal {move["deal"]} move '
                    f'{move["number"]}: {move["ms"]} ms</title></rect>')
    if limit_ms <= scale:
        limit_y = top + plot - plot * limit_ms / scale
        marks = (f'<line class="limit" x1="{left}" y1="{limit_y:.1f}" x2="{width}" y2="{limit_y:.1f}"/>'
                 f'<text x="0" y="{limit_y + 4:.1f}">{limit_ms} ms</text>')
    else:
        marks = f'<text x="0" y="{top + 8}">{scale:.0f} ms</text>'
    return (f'<svg class="think-chart" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="think time of each move, in milliseconds (the limit is {limit_ms} ms)">'
            f'<line class="axis" x1="{left}" y1="{top + plot}" x2="{width}" y2="{top + plot}"/>'
            f'{"".join(bars)}{marks}'
            f'<text x="0" y="{top + plot + 4}">0</text>'
            f'<text x="{left}" y="{height - 2}">move 1</text>'
            f'<text x="{width}" y="{height - 2}" text-anchor="end">move {len(moves)}</text></svg>')


class Authors:
    """The author's pages over one store."""

    def __init__(self, store: Store, nav: Sequence[tuple[str, str]],
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.nav = tuple(nav)
        self.sessions = Sessions(clock)
        self.failures = Failures()
        self._lock = threading.Lock()
        self._derive_one = threading.Semaphore(1)
        self._derived: OrderedDict[tuple[int, int], Derived | str] = OrderedDict()
        self.limit_ms = store.config.settings.move_millis

    # -- signing in and out ---------------------------------------------------------------------

    def _page(self, title: str, body: str, status: int = 200) -> Response:
        return page(title, body, PATH, status, self.nav)

    def _sign_in_page(self, message: str = "", status: int = 200) -> Response:
        said = f'<p class="error" role="alert">{esc(message)}</p>' if message else ""
        return self._page("Authors", f"""<h1>The author's view</h1>
<p>An entrant's author sees here, with the entrant's token, what the public does not: the
matches it faulted in, the failure bundles with the end of its bot's stderr, the protocol lines
of each match, its bot's info lines and its think time per move.</p>
{said}<form class="sign-in" method="post" action="{PATH}">
<label for="token">Token of your entrant (the line <code>arena entrant token</code> printed, or the token alone)</label>
<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required>
<button type="submit">Sign in</button>
</form>
<p class="hint">The token is sent in the form's body only, never in an address; the server keeps
a session for {SESSION_SECONDS // 3600} hours in its memory, and a new token ends it.</p>""", status)

    async def sign_in(self, request: Request) -> Response:
        _same_origin(request)
        client = request.client.host if request.client is not None else "?"
        if not self.failures.allowed(client):
            return self._sign_in_page("Too many wrong tokens from here: wait a minute.", 429)
        field = (await _form(request)).get("token", "")
        digest = secrets.token_hash(token_of(field))
        holder = await run_in_threadpool(self.store.holder_of, digest)
        if holder is None:
            self.failures.failed(client)
            return self._sign_in_page("No entrant has that token.", 403)
        sid = self.sessions.open(holder.name, digest)
        response = RedirectResponse(PATH, 303, headers=dict(HEADERS))
        response.set_cookie(COOKIE, sid, max_age=SESSION_SECONDS, path=PATH, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")
        return response

    async def sign_out(self, request: Request) -> Response:
        _same_origin(request)
        self.sessions.close(request.cookies.get(COOKIE))
        response = RedirectResponse(PATH, 303, headers=dict(HEADERS))
        response.delete_cookie(COOKIE, path=PATH, httponly=True, samesite="strict")
        return response

    def _entrant(self, request: Request) -> EntrantRow | None:
        """The signed-in entrant, if the session is open and its token still the entrant's."""
        session = self.sessions.get(request.cookies.get(COOKIE))
        if session is None:
            return None
        holder = self.store.holder_of(session.token_hash)
        if holder is None or holder.name != session.entrant:
            self.sessions.close(request.cookies.get(COOKIE))
            return None
        return holder

    # -- the pages ------------------------------------------------------------------------------

    def home(self, request: Request) -> Response:
        entrant = self._entrant(request)
        if entrant is None:
            return self._sign_in_page()
        state = "enabled" if entrant.enabled else f"disabled: {entrant.disabled_reason or 'by the organiser'}"
        faults = self._fault_rows(entrant)
        think = self._think_rows(entrant)
        return self._page(f"Author: {entrant.name}", f"""<h1>The author's view of {esc(entrant.name)}</h1>
<p class="state">{esc(entrant.kind)} entrant, {esc(state)}.</p>
<form class="sign-out" method="post" action="{PATH}/sign-out"><button type="submit">Sign out</button></form>
<section aria-labelledby="faults"><h2 id="faults">Matches it faulted in</h2>
{faults}</section>
<section aria-labelledby="think"><h2 id="think">Think time in its last matches</h2>
<p>Milliseconds per move of its own (the move time limit is {self.limit_ms} ms).</p>
{think}</section>""")

    def _fault_rows(self, entrant: EntrantRow) -> str:
        found = self.store.entrant_faults(entrant.name, FAULTS_SHOWN)
        if not found:
            return "<p>None.</p>"
        rows = []
        for match_id in dict.fromkeys(m for m, _ in found):
            seats = [s for m, s in found if m == match_id]
            record = self._record(match_id)
            for fault in record.get("faults") or []:
                if isinstance(fault, dict) and fault.get("seat") in seats:
                    rows.append(f'<tr><th scope="row"><a href="{PATH}/matches/{match_id}">{match_id}</a></th>'
                                f'<td>{esc(fault.get("seat"))}</td><td>{esc(fault.get("kind"))}</td>'
                                f'<td>{_place(fault)}</td><td class="detail">{esc(fault.get("detail", ""))}</td></tr>')
        return table(("Match", "Seat", "Fault", "Where", "Detail"), rows, cls="faults")

    def _think_rows(self, entrant: EntrantRow) -> str:
        rows = []
        for match in self.store.entrant_matches(entrant.name, THINK_MATCHES):
            seats = self.store.seats_of(entrant.name, match.id)
            stats = summary([m["ms"] for m in think_times(self._record(match.id), seats)])
            cells = "".join(f"<td>{n}</td>" for n in stats) if stats else '<td colspan="4">no move</td>'
            rows.append(f'<tr><th scope="row"><a href="{PATH}/matches/{match.id}">{match.id}</a></th>'
                        f'<td>{when(match.finished)}</td>{cells}</tr>')
        if not rows:
            return "<p>No match yet.</p>"
        return table(("Match", "Finished", "Moves", "Median", "95th percentile", "Most"), rows, cls="think")

    def match(self, request: Request) -> Response:
        entrant = self._entrant(request)
        if entrant is None:
            return self._sign_in_page("Sign in to see this page.", 403)
        match_id, seats, record = self._own_match(entrant, request)
        bundles = self.store.bundles(match_id)
        parts = [f"""<h1>Match {match_id}: {esc(entrant.name)} in seat{"s" if len(seats) > 1 else ""}
{esc(", ".join(map(str, seats)))}</h1>
<p><a href="{PATH}">Back to the author's view</a> · <a href="{PATH}/matches/{match_id}/viewer">this match in the
viewer, with your bot's info lines</a> · <a href="/matches/{match_id}">the public view</a></p>"""]
        faults = [f for f in record.get("faults") or [] if isinstance(f, dict) and f.get("seat") in seats]
        if faults:
            parts.append("<h2>Faults</h2>" + table(("Seat", "Fault", "Where", "Detail"), [
                f'<tr><td>{esc(f.get("seat"))}</td><td>{esc(f.get("kind"))}</td><td>{_place(f)}</td>'
                f'<td class="detail">{esc(f.get("detail", ""))}</td></tr>' for f in faults], cls="faults"))
        for seat in seats:
            if seat in bundles:
                parts.append(f'<h2>Failure bundle of seat {seat}</h2><p>As the worker kept it: the command, the '
                             f'fault, the last request, the last protocol lines with their times, the end of its '
                             f'stderr.</p><pre class="bundle">{esc(bundles[seat])}</pre>')
        moves = think_times(record, seats)
        stats = summary([m["ms"] for m in moves])
        parts.append("<h2>Think time per move</h2>")
        if stats is None:
            parts.append("<p>It made no move of its own.</p>")
        else:
            parts.append(f"<p>{stats[0]} moves: median {stats[1]} ms, 95th percentile {stats[2]} ms, most {stats[3]} "
                         f"ms (the limit is {self.limit_ms} ms).</p>{think_chart(moves, self.limit_ms)}"
                         "<details><summary>Every move</summary>" + table(
                             ("Deal", "Move", "Played", "ms"),
                             [f'<tr><td>{m["deal"]}</td><td>{m["number"]}</td><td>{esc(m["move"])}</td>'
                              f'<td>{m["ms"]}</td></tr>' for m in moves], cls="moves") + "</details>")
        for seat in seats:
            parts.append(self._protocol_section(match_id, seat, record))
        return self._page(f"Match {match_id} for {entrant.name}", "\n".join(parts))

    def _protocol_section(self, match_id: int, seat: int, record: dict[str, Any]) -> str:
        derived = self._derived_lines(match_id, seat, record)
        head = f"<h2>Protocol lines of seat {seat}</h2>"
        if isinstance(derived, str):
            return head + f'<p class="error">They cannot be derived from the record: {esc(derived)}</p>'
        lines = list(write(derived.entries))
        shown = lines[-TRANSCRIPT_SHOWN:]
        cut = (f"<p>The last {len(shown)} of {len(lines)} lines; "
               if len(shown) < len(lines) else f"<p>{len(lines)} lines; ")
        notes = "".join(f"<li>{esc(n)}</li>" for n in derived.notes)
        info = "".join(f"<li>{esc(i)}</li>" for i in derived.info)
        return (head + cut + f'all of them as text: <a href="{PATH}/matches/{match_id}/protocol/{seat}">'
                f'protocol-{match_id}-{seat}.txt</a> (<code>&lt;&lt;</code> sent to the bot, <code>&gt;&gt;</code> '
                f'sent by it, as <code>cardcli replay --protocol</code> prints them).</p>'
                + (f"<ul class=\"notes\">{notes}</ul>" if notes else "")
                + f'<pre class="protocol">{esc(chr(10).join(shown))}</pre>'
                + (f"<h3>Its info lines</h3><ul class=\"info\">{info}</ul>" if info else ""))

    def protocol(self, request: Request) -> Response:
        entrant = self._entrant(request)
        if entrant is None:
            return self._sign_in_page("Sign in to see this page.", 403)
        match_id, seats, record = self._own_match(entrant, request)
        try:
            seat = int(request.path_params["seat"])
        except ValueError:
            seat = -1
        if seat not in seats:
            raise HTTPException(404, f"no seat {request.path_params['seat']} of yours in match {match_id}")
        derived = self._derived_lines(match_id, seat, record)
        if isinstance(derived, str):
            raise HTTPException(500, f"the lines cannot be derived from the record: {derived}")
        return PlainTextResponse("".join(line + "\n" for line in write(derived.entries)), headers={
            **HEADERS, "Content-Disposition": f'attachment; filename="protocol-{match_id}-{seat}.txt"'})

    def viewer_page(self, request: Request) -> Response:
        """The match in the replay viewer, with the info lines of the author's seats only."""
        from .pages import viewer_page

        entrant = self._entrant(request)
        if entrant is None:
            return self._sign_in_page("Sign in to see this page.", 403)
        match_id, seats, record = self._own_match(entrant, request)
        info = record.get("info")
        if isinstance(info, dict):
            record["info"] = {k: v for k, v in info.items() if k in {str(s) for s in seats}}
        text, policy = viewer_page(record, match_id)
        return HTMLResponse(text, headers=dict(HEADERS, **{"Content-Security-Policy": policy}))

    # -- reading --------------------------------------------------------------------------------

    def _own_match(self, entrant: EntrantRow, request: Request) -> tuple[int, list[int], dict[str, Any]]:
        """The match of the request's path, the entrant's seats in it and its record; 404 when
        the entrant did not play it (the same answer as for a match that does not exist)."""
        match_id = match_id_of(request.path_params["id"])
        seats = self.store.seats_of(entrant.name, match_id) if match_id <= ID_MAX else []
        if not seats:
            raise HTTPException(404, f"no match {match_id} of yours")
        return match_id, seats, self._record(match_id)

    def _record(self, match_id: int) -> dict[str, Any]:
        line = self.store.record_line(match_id)
        return json.loads(line) if line is not None else {}

    def _derived_lines(self, match_id: int, seat: int, record: dict[str, Any]) -> Derived | str:
        """The seat's protocol lines (or why they cannot be derived), kept for the next page;
        one derivation at a time, as each replays a whole match through the referee."""
        key = (match_id, seat)
        with self._lock:
            kept = self._derived.get(key)
        if kept is not None:
            return kept
        with self._derive_one:
            try:
                made: Derived | str = derive(record, seat, f"match {match_id}")
            except CardcliError as err:
                made = str(err)
        with self._lock:
            self._derived[key] = made
            while len(self._derived) > DERIVED_KEPT:
                self._derived.popitem(last=False)
        return made


def _place(fault: dict[str, Any]) -> str:
    deal, move = fault.get("deal"), fault.get("move")
    if isinstance(deal, int) and isinstance(move, int):
        return f"deal {deal}, move {move + 1}"
    return esc(f"deal {deal}" if deal is not None else "")


def _same_origin(request: Request) -> None:
    """Refuse a form posted from any page but the arena's own. A browser says where a request
    comes from in ``Sec-Fetch-Site``; one too old to send it names the page's origin in
    ``Origin``, except as ``null`` (which the pages' ``no-referrer`` policy makes it send for
    its own forms too). A client that is not a browser sends neither, and has no visitor to
    sign in as someone else."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        if site not in ("same-origin", "none"):
            raise HTTPException(403, "a form from another site")
        return
    origin = request.headers.get("origin")
    if origin not in (None, "null") and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise HTTPException(403, "a form from another site")


async def _form(request: Request) -> dict[str, str]:
    """The fields of a small urlencoded form (the first value of each), read up to
    :data:`BODY_MAX` bytes."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise HTTPException(415, "a form is expected")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_MAX:
            raise HTTPException(413, "the form is too long")
    try:
        fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=8)
    except ValueError:
        raise HTTPException(400, "too many fields") from None
    return {name: values[0] for name, values in fields.items() if values}


def routes(authors: Authors) -> list[Route]:
    return [
        Route(PATH, authors.home, methods=["GET"]),
        Route(PATH, authors.sign_in, methods=["POST"]),
        Route(f"{PATH}/sign-out", authors.sign_out, methods=["POST"]),
        Route(f"{PATH}/matches/{{id}}", authors.match, methods=["GET"]),
        Route(f"{PATH}/matches/{{id}}/viewer", authors.viewer_page, methods=["GET"]),
        Route(f"{PATH}/matches/{{id}}/protocol/{{seat}}", authors.protocol, methods=["GET"]),
    ]
