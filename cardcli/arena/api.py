"""The arena's read-only HTTP API: the standings, the entrants and the stored matches as JSON,
for a season's web page, a bot author's scripts and the organiser's dashboards.

Why it is shaped so:

- **Read only.** Every route answers GET (and HEAD); anything else is 405, and no route
  writes: what changes an arena is the organiser's shell (``cardcli arena``), never the web.
  (The author's view, :mod:`.author`, takes a sign-in form by POST, which opens a session in
  memory and writes nothing either.)
- **Nothing secret, nothing local.** An entrant is shown by name, kind, state and versions:
  never its token's hash, nor its seat spec (a program's command line may name the
  organiser's paths). A record is served exactly as stored, since that is what
  ``cardcli verify`` checks.
- **JSON and nothing a browser could take for a page.** Every answer, errors included, is
  ``application/json; charset=utf-8`` with ``nosniff``; ``<``, ``>`` and ``&`` in generated
  JSON are written as ``\\u`` escapes (the same strings to a JSON reader), so a bot's version
  label such as ``<img onerror=...>`` cannot become markup even where a client mislabels it.
  Everything is live data, hence ``Cache-Control: no-store``.
- **The event loop never waits for the database.** The endpoints are plain functions, which
  Starlette runs in its threadpool; the store's SQLAlchemy calls block only that thread.
- **Cheap pages.** The standings are the table :class:`~.service.Service` saved, not folded
  per request; a page of matches is a few indexed queries (:meth:`.Store.matches` or
  :meth:`.Store.entrant_matches`, then :meth:`.Store.outcomes`, whose answers are kept, a
  stored match being final), and version
  ids are named from a cache (:class:`VersionNames`) that is read again only when a match
  names a version it does not hold.

:class:`WebServer` runs the app with uvicorn in a daemon thread of its process: for
``arena serve --web``, a process of its own at a lower priority (:mod:`.webproc`). The same
app serves the web pages (:mod:`.pages`, :func:`make_app`), whose errors are pages rather than
JSON.
"""

from __future__ import annotations

import socket
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Sequence

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from ..errors import UsageError
from .service import Policy
from .markup import json_text
from .params import ID_MAX, RECENT_MATCHES, error, integer, match_id_of
from .store import EntrantRow, MatchOutcome, StoredMatch, Store

MEDIA_TYPE = "application/json; charset=utf-8"
HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
"""On every answer: no content sniffing, and no cache keeps live data."""
MATCHES_LIMIT = 50
"""Matches in a page when ``limit`` is not given."""
MATCHES_MAX = 500
"""The largest ``limit``: a page is read in one query and summarised in memory."""
OUTCOMES_KEPT = 10_000
"""Match outcomes kept in memory (:meth:`Api.outcomes`): a few hundred kilobytes."""
START_SECONDS = 10.0
"""How long :meth:`WebServer.start` waits for uvicorn to listen."""

def dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON with ``<``, ``>`` and ``&`` escaped (the module's
    docstring says why); NaN is refused, as it is not JSON."""
    return json_text(value).encode("utf-8")


def answer(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Every response of the API goes through here, so none lacks its type and headers."""
    return Response(body, status, {**HEADERS, **(headers or {})}, MEDIA_TYPE)


class VersionNames:
    """Version id → its entrant's name and label. A version is never changed nor removed, so
    the mapping is read again only when a match names an id it lacks (a new version) or when
    a listing wants them all."""

    def __init__(self, store: Store):
        self._store = store
        self._lock = threading.Lock()
        self._by_id: dict[int, dict[str, Any]] = {}

    def reload(self) -> list[dict[str, Any]]:
        """Every version, oldest first, read now."""
        rows = self._store.versions()
        with self._lock:
            self._by_id = {int(row["id"]): row for row in rows}
        return rows

    def named(self, ids: set[int]) -> dict[int, dict[str, Any]]:
        """The versions ``ids`` (those that exist)."""
        with self._lock:
            by_id = self._by_id
        if not ids <= by_id.keys():
            self.reload()
            with self._lock:
                by_id = self._by_id
        return {i: by_id[i] for i in ids if i in by_id}


class Api:
    """The endpoints over one store (one instance per app)."""

    def __init__(self, store: Store):
        self.store = store
        self.versions = VersionNames(store)
        self.fault_window = Policy().fault_window
        self._lock = threading.Lock()
        self._outcomes: OrderedDict[int, MatchOutcome] = OrderedDict()

    # -- standings and entrants -----------------------------------------------------------------

    def standings(self, request: Request) -> Response:
        table = self.store.standings()
        return answer(dumps(table if table is not None else
                            {"matches": 0, "lower_is_better": None, "rows": [], "order": None}))

    def entrants(self, request: Request) -> Response:
        versions = self.versions.reload()
        rows = self._standing_rows()
        return answer(dumps({"entrants": [self._entrant(e, versions, rows) for e in self.store.entrants()]}))

    def entrant(self, request: Request) -> Response:
        name = request.path_params["name"]
        try:
            row = self.store.entrant(name)
        except UsageError:
            raise error(404, f"no entrant named {name}") from None
        body = self._entrant(row, self.versions.reload(), self._standing_rows())
        faulted, played = self.store.recent_faults(row.id, self.fault_window)
        body["recent_matches"] = [m.id for m in self.store.entrant_matches(row.name, RECENT_MATCHES)]
        body["recent_faults"] = {"faulted": faulted, "matches": played, "window": self.fault_window}
        return answer(dumps(body))

    def _standing_rows(self) -> dict[int, dict[str, Any]]:
        """Version id → its row of the latest standings."""
        table = self.store.standings() or {}
        return {int(row["version_id"]): row for row in table.get("rows", [])}

    @staticmethod
    def _entrant(row: EntrantRow, versions: list[dict[str, Any]], standing: dict[int, dict[str, Any]]
                 ) -> dict[str, Any]:
        """An entrant as the API shows it: never its spec, options or token's hash."""
        own = [{"id": v["id"], "label": v["label"], "created": v["created"]}
               for v in versions if v["entrant_id"] == row.id]
        return {"name": row.name, "kind": row.kind, "enabled": row.enabled, "disabled_reason": row.disabled_reason,
                "versions": own, "current": standing.get(own[-1]["id"]) if own else None}

    # -- matches --------------------------------------------------------------------------------

    def matches(self, request: Request) -> Response:
        query = request.query_params
        limit = integer(query.get("limit"), "limit", 1, MATCHES_MAX) or MATCHES_LIMIT
        after = integer(query.get("after"), "after", 1, ID_MAX)
        entrant = query.get("entrant")
        if entrant is not None:
            try:
                self.store.entrant(entrant)
            except UsageError:
                raise error(404, f"no entrant named {entrant}") from None
        page = (self.store.matches(limit, after) if entrant is None
                else self.store.entrant_matches(entrant, limit, after))
        return answer(dumps({"matches": self.summaries(page),
                             "next_after": page[-1].id if len(page) == limit else None}))

    def match(self, request: Request) -> Response:
        match_id = match_id_of(request.path_params["id"])
        found = self.store.matches(1, after=match_id + 1) if match_id <= ID_MAX else []
        if not found or found[0].id != match_id:
            raise error(404, f"no match {match_id}")
        return answer(dumps(self.summaries(found)[0]))

    def record(self, request: Request) -> Response:
        match_id = match_id_of(request.path_params["id"])
        line = self.store.record_line(match_id) if match_id <= ID_MAX else None
        if line is None:
            raise error(404, f"no match {match_id}")
        return answer(line.encode("utf-8"))

    def outcomes(self, ids: list[int]) -> dict[int, MatchOutcome]:
        """The outcomes of matches ``ids``, from a cache of the latest :data:`OUTCOMES_KEPT`:
        a stored record never changes, and reading two fields out of it is the dearest part
        of a page on PostgreSQL (the database parses each record's JSON to find them)."""
        with self._lock:
            known = {i: self._outcomes[i] for i in ids if i in self._outcomes}
        missing = [i for i in ids if i not in known]
        if missing:
            read = self.store.outcomes(missing)
            known.update(read)
            with self._lock:
                self._outcomes.update(read)
                while len(self._outcomes) > OUTCOMES_KEPT:
                    self._outcomes.popitem(last=False)
        return known

    def summaries(self, page: list[StoredMatch]) -> list[dict[str, Any]]:
        outcomes = self.outcomes([m.id for m in page])
        named = self.versions.named({v for m in page for v in m.seating})
        out = []
        for m in page:
            outcome = outcomes.get(m.id)
            faulted = outcome.faulted if outcome is not None else ()
            seats = [{"seat": seat, "entrant": named[v]["name"] if v in named else None,
                      "version": named[v]["label"] if v in named else None, "version_id": v,
                      "faulted": seat in faulted} for seat, v in enumerate(m.seating)]
            out.append({"id": m.id, "unit": m.unit_id, "rotation": m.rotation, "finished": m.finished,
                        "rated": m.rated, "faults": m.faults,
                        "status": outcome.status if outcome is not None else None,
                        "scores": list(outcome.scores) if outcome is not None and outcome.scores is not None
                        else None,
                        "seats": seats})
        return out

    # -- the description ------------------------------------------------------------------------

    def openapi(self, request: Request) -> Response:
        return answer(dumps(OPENAPI))


def make_app(store: Store, presence: Callable[[str], str | None] | None = None,
             more: Sequence[BaseRoute] = ()) -> Starlette:
    """The API over ``store`` (GET and HEAD only, JSON always, errors too) and the web pages
    (:mod:`.pages`: HTML, the standings pushed as they change by :mod:`.events`, the static
    files they use). ``presence`` gives what the serving process knows of an entrant's
    connection (``connected``, ``waiting``...), shown in the standings' state column; ``more``
    are routes served beside them (the live games', :func:`.live.routes`). The author's view
    (:mod:`.author`) is served with them. ``app.state.feed`` is the standings' feed, which
    :meth:`WebServer.stop` closes."""
    from . import author
    from .events import Feed
    from .markup import LIVE, NAV, SecurityHeaders
    from .pages import Pages

    api = Api(store)
    live = any(getattr(route, "path", None) == LIVE[0] for route in more)
    nav = (*NAV, LIVE, author.NAV_LINK) if live else (*NAV, author.NAV_LINK)
    pages = Pages(store, api, presence, nav)
    authors = author.Authors(store, nav)
    feed = Feed(pages.standings_fragment)
    routes: list[tuple[str, Callable[[Request], Response]]] = [
        ("/api/standings", api.standings),
        ("/api/entrants", api.entrants),
        ("/api/entrants/{name}", api.entrant),
        ("/api/matches", api.matches),
        ("/api/matches/{id}", api.match),
        ("/api/matches/{id}/record", api.record),
        ("/openapi.json", api.openapi),
    ]
    page_routes: list[tuple[str, Callable[[Request], Response]]] = [
        ("/", pages.standings),
        ("/entrants/{name}", pages.entrant),
        ("/matches", pages.matches),
        ("/matches/{id}", pages.match),
    ]
    app = Starlette(routes=[*(Route(path, endpoint, methods=["GET"]) for path, endpoint in routes + page_routes),
                            Route("/events/standings", feed.endpoint, methods=["GET"]), *more,
                            *author.routes(authors),
                            Mount("/static", StaticFiles(directory=STATIC), name="static")],
                    middleware=[Middleware(SecurityHeaders)],
                    exception_handlers={HTTPException: _http_error, 500: _server_error})
    app.state.feed = feed
    app.state.nav = pages.nav  # the live games' pages show the same (cardcli.arena.live)
    return app


STATIC = Path(__file__).parent / "static"
"""The pages' stylesheet and script (package data)."""


def _is_api(request: Request) -> bool:
    path = request.url.path
    return path.startswith("/api/") or path == "/api" or path == "/openapi.json"


def _http_error(request: Request, exc: Exception) -> Response:
    """An HTTP error (a route's, or Starlette's 404 and 405, whose ``Allow`` is kept): JSON
    under ``/api``, a page of the arena elsewhere."""
    assert isinstance(exc, HTTPException)
    if not _is_api(request):
        from .pages import error_page

        return error_page(exc.status_code, str(exc.detail), dict(exc.headers or {}))
    return answer(dumps({"error": exc.detail}), exc.status_code, dict(exc.headers or {}))


def _server_error(request: Request, exc: Exception) -> Response:
    """An unexpected failure (the database gone, say) that names no internals."""
    if not _is_api(request):
        from .pages import error_page

        return error_page(500, "internal error")
    return answer(dumps({"error": "internal error"}), 500)


# -- OpenAPI ------------------------------------------------------------------------------------

def _ok(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERROR = _ok("An error, in one line.", {"$ref": "#/components/schemas/Error"})
_ID = {"name": "id", "in": "path", "required": True, "description": "A match id.",
       "schema": {"type": "integer", "minimum": 1}}
_NULLABLE_STRING = {"type": ["string", "null"]}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "cardcli arena", "version": "1",
             "description": "The arena's read-only API: standings, entrants and stored matches. Every answer is "
                            "application/json; charset=utf-8, never cached (Cache-Control: no-store). Only GET "
                            "and HEAD are allowed."},
    "paths": {
        "/api/standings": {"get": {
            "summary": "The latest standings",
            "description": "The table saved after the latest matches were stored, one row per version; before "
                           "any, an empty table with matches 0.",
            "responses": {"200": _ok("The standings.", {"$ref": "#/components/schemas/Standings"})}}},
        "/api/entrants": {"get": {
            "summary": "Every entrant",
            "responses": {"200": _ok("The entrants, in the order they joined.", {
                "type": "object", "required": ["entrants"],
                "properties": {"entrants": {"type": "array", "items": {"$ref": "#/components/schemas/Entrant"}}}})}}},
        "/api/entrants/{name}": {"get": {
            "summary": "One entrant, with its recent matches and faults",
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {"200": _ok("The entrant.", {"$ref": "#/components/schemas/EntrantDetail"}),
                          "404": _ERROR}}},
        "/api/matches": {"get": {
            "summary": "Stored matches, newest first",
            "parameters": [
                {"name": "limit", "in": "query", "description": f"Matches in the page (default {MATCHES_LIMIT}).",
                 "schema": {"type": "integer", "minimum": 1, "maximum": MATCHES_MAX, "default": MATCHES_LIMIT}},
                {"name": "after", "in": "query",
                 "description": "Only matches with a smaller id: the next_after of the page before.",
                 "schema": {"type": "integer", "minimum": 1, "maximum": ID_MAX}},
                {"name": "entrant", "in": "query", "description": "Only the matches this entrant played.",
                 "schema": {"type": "string"}},
            ],
            "responses": {"200": _ok("A page of match summaries.", {"$ref": "#/components/schemas/MatchPage"}),
                          "400": _ERROR, "404": _ERROR}}},
        "/api/matches/{id}": {"get": {
            "summary": "One match's summary",
            "parameters": [_ID],
            "responses": {"200": _ok("The summary.", {"$ref": "#/components/schemas/MatchSummary"}),
                          "400": _ERROR, "404": _ERROR}}},
        "/api/matches/{id}/record": {"get": {
            "summary": "One match's record, exactly as stored",
            "description": "A cardcli record (docs/records.md, docs/record.schema.json) that cardcli verify checks.",
            "parameters": [_ID],
            "responses": {"200": _ok("The record.", {"type": "object"}), "400": _ERROR, "404": _ERROR}}},
        "/openapi.json": {"get": {
            "summary": "This description",
            "responses": {"200": _ok("OpenAPI 3.1.", {"type": "object"})}}},
    },
    "components": {"schemas": {
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
        "StandingRow": {
            "type": "object", "additionalProperties": True,
            "required": ["rank", "entrant", "version", "version_id", "rating", "rating_ci", "matchpoints", "matches",
                         "wins", "draws", "losses", "faults", "next", "enabled", "disabled_reason"],
            "properties": {
                "rank": {"type": "integer"}, "entrant": {"type": "string"}, "version": {"type": "string"},
                "version_id": {"type": "integer"}, "rating": {"type": "number"},
                "rating_ci": {"type": "number", "description": "Half the width of the rating's 95% interval."},
                "matchpoints": {"type": "number"}, "matches": {"type": "integer"}, "wins": {"type": "integer"},
                "draws": {"type": "integer"}, "losses": {"type": "integer"},
                "faults": {"type": "object", "additionalProperties": {"type": "integer"},
                           "description": "Fault kind → count."},
                "next": {"type": ["object", "null"], "additionalProperties": True,
                         "description": "The paired comparison with the row below; separated says whether the "
                                        "results put this row above it."},
                "enabled": {"type": "boolean"}, "disabled_reason": _NULLABLE_STRING}},
        "Standings": {
            "type": "object", "required": ["matches", "rows"],
            "properties": {"matches": {"type": "integer", "description": "Rated matches folded."},
                           "lower_is_better": {"type": ["boolean", "null"]},
                           "order": {**_NULLABLE_STRING, "description": "How the rows are ordered."},
                           "rows": {"type": "array", "items": {"$ref": "#/components/schemas/StandingRow"}}}},
        "Version": {"type": "object", "required": ["id", "label", "created"],
                    "properties": {"id": {"type": "integer"},
                                   "label": {"type": "string", "description": "As the bot said it: text to escape."},
                                   "created": {"type": "number", "description": "Seconds since the epoch."}}},
        "Entrant": {
            "type": "object", "required": ["name", "kind", "enabled", "disabled_reason", "versions", "current"],
            "properties": {
                "name": {"type": "string"}, "kind": {"type": "string", "enum": ["remote", "program"]},
                "enabled": {"type": "boolean"}, "disabled_reason": _NULLABLE_STRING,
                "versions": {"type": "array", "items": {"$ref": "#/components/schemas/Version"}},
                "current": {"oneOf": [{"$ref": "#/components/schemas/StandingRow"}, {"type": "null"}],
                            "description": "The standings row of its newest version, if it has one."}}},
        "EntrantDetail": {"allOf": [{"$ref": "#/components/schemas/Entrant"}, {
            "type": "object", "required": ["recent_matches", "recent_faults"],
            "properties": {
                "recent_matches": {"type": "array", "items": {"type": "integer"},
                                   "description": f"The ids of its last {RECENT_MATCHES} matches, newest first."},
                "recent_faults": {"type": "object", "required": ["faulted", "matches", "window"],
                                  "properties": {"faulted": {"type": "integer"}, "matches": {"type": "integer"},
                                                 "window": {"type": "integer"}}}}}]},
        "Seat": {"type": "object", "required": ["seat", "entrant", "version", "version_id", "faulted"],
                 "properties": {"seat": {"type": "integer"}, "entrant": _NULLABLE_STRING,
                                "version": _NULLABLE_STRING, "version_id": {"type": "integer"},
                                "faulted": {"type": "boolean"}}},
        "MatchSummary": {
            "type": "object",
            "required": ["id", "unit", "rotation", "finished", "rated", "faults", "status", "scores", "seats"],
            "properties": {
                "id": {"type": "integer"}, "unit": {"type": "integer"}, "rotation": {"type": "integer"},
                "finished": {"type": "number", "description": "Seconds since the epoch."},
                "rated": {"type": "boolean"}, "faults": {"type": "integer"},
                "status": {**_NULLABLE_STRING, "description": "The record's status."},
                "scores": {"type": ["array", "null"], "items": {"type": "number"},
                           "description": "Each seat's score; null without a result."},
                "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}}}},
        "MatchPage": {
            "type": "object", "required": ["matches", "next_after"],
            "properties": {
                "matches": {"type": "array", "items": {"$ref": "#/components/schemas/MatchSummary"}},
                "next_after": {"type": ["integer", "null"],
                               "description": "The after of the next page; null when this one is the last."}}},
    }},
}
"""The API's OpenAPI 3.1 description, served at ``/openapi.json``; ``tests/test_arena_api.py``
holds it to the routes the app serves."""


# -- serving ------------------------------------------------------------------------------------

class WebServer:
    """The API served by uvicorn in a daemon thread, beside the arena's own work. The socket
    is bound here, before uvicorn starts, so that a port already taken is a one-line error at
    once instead of a log line in a thread."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0):
        self.app = app
        self.host = host
        self._asked = port
        self._socket: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port it listens on (the one chosen when 0 was asked)."""
        if self._socket is None:
            raise UsageError("the web server is not started")
        return int(self._socket.getsockname()[1])

    def start(self) -> None:
        """Listen, and return once uvicorn serves."""
        self._socket = _listen(self.host, self._asked)
        config = uvicorn.Config(self.app, host=self.host, port=self.port, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=2)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]},
                                        name="arena-api", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise UsageError(f"the web server on {self.host} port {self._asked} did not start")
            time.sleep(0.01)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving (the requests under way are finished first, the event streams ended)
        and close the socket."""
        feed = getattr(getattr(self.app, "state", None), "feed", None)
        if feed is not None:
            feed.close()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        if self._socket is not None:
            self._socket.close()
        self._server = self._thread = None


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port``, IPv4 or IPv6 as ``host`` is; a one-line
    :class:`UsageError` when it cannot be (the port taken, an unknown host)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as err:
        raise UsageError(f"cannot listen on {host} port {port}: {err.strerror or err}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host} port {port}: {err.strerror or err}") from None
    return sock
