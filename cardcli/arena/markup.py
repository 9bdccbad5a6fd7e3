"""What every HTML page of the arena shares: the frame (navigation, the one stylesheet and the
one script, both served from ``/static``, beside a page's own where it has them, as the live
games' pages do), the security headers, and the escaping of text.

Why so strict: an entrant chooses its name (through the organiser), its version label and the
details of its faults, and a spectator's browser renders them. Every such text goes through
:func:`esc` (``&``, ``<``, ``>``, ``"`` and ``'`` as entities) and nothing else builds markup
from data; and the Content-Security-Policy (:data:`CSP`) allows scripts and styles only from
the arena itself, no inline script, no inline style, no frames, no form posted elsewhere, so a
text that escaped escaping still could not run or load anything. Nothing is fetched from
outside: the pages work offline on loopback.
"""

from __future__ import annotations

import html
import json
import time
from typing import Any, Iterable, Sequence

from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The policy of every page but a match's (whose viewer page brings its own, as strict)."""
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
"""On every answer, with :data:`CSP` where the answer set no policy of its own."""
JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}
"""What JSON the arena sends writes of ``<``, ``>`` and ``&``: escaped, a value an entrant controls
can never close a script block or open markup wherever the text ends up."""
STATIC_VERSION = "1"
"""Appended to the static files' URLs, so that a browser that kept an older copy asks again
after an upgrade that changes them."""


def json_text(value: Any) -> str:
    """``value`` as compact JSON with the markup characters escaped (:data:`JSON_ESCAPES`); NaN is
    refused, as it is not JSON."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).translate(JSON_ESCAPES)


def esc(value: object) -> str:
    """Text for HTML content or a quoted attribute."""
    return html.escape(str(value), quote=True)


def when(epoch: float | None) -> str:
    """A time as a ``<time>`` element in UTC (the arena's servers may be anywhere)."""
    if epoch is None:
        return ""
    stamp = time.gmtime(epoch)
    return (f'<time datetime="{time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp)}">'
            f'{time.strftime("%Y-%m-%d %H:%M:%S", stamp)} UTC</time>')


NAV = (("/", "Standings"), ("/matches", "Matches"))
"""The navigation's links; :data:`LIVE` joins them where the live games are served."""
LIVE = ("/live", "Live games")


def page(title: str, body: str, current: str = "", status: int = 200,
         nav: Sequence[tuple[str, str]] = NAV, styles: Sequence[str] = (),
         scripts: Sequence[str] = ()) -> Response:
    """A whole page: ``body`` (markup made here, its texts escaped) in the arena's frame.

    ``styles`` and ``scripts`` are the URLs (on the arena, as the policy wants) of a page's own
    stylesheets and scripts, loaded after the arena's: the live games' pages keep theirs for
    what only they show, and take everything else from the frame, so that every page looks and
    navigates alike."""
    current_mark = ' aria-current="page"'
    links = "".join(f'<a href="{href}"{current_mark if href == current else ""}>{esc(text)}</a>'
                    for href, text in nav)
    own = "".join(f'\n<link rel="stylesheet" href="{esc(url)}">' for url in styles)
    own += "".join(f'\n<script src="{esc(url)}" defer></script>' for url in scripts)
    text = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} - cardcli arena</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/arena.css?v={STATIC_VERSION}">
<script src="/static/arena.js?v={STATIC_VERSION}" defer></script>{own}
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="top"><span class="brand">cardcli arena</span><nav aria-label="arena">{links}</nav></header>
<main id="main" tabindex="-1">
{body}
</main>
<footer class="bottom">Read only. The same data as JSON: <a href="/openapi.json">the API</a>.</footer>
</body>
</html>
"""
    return HTMLResponse(text, status, dict(HEADERS, **{"Content-Security-Policy": CSP}))


def table(headers: Iterable[str], rows: Iterable[str], caption: str = "", cls: str = "") -> str:
    """A table of ``rows`` (each a ``<tr>``, made by the caller), scrolling sideways by itself
    on a narrow screen rather than widening the page."""
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in headers)
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    body = "".join(rows) or f'<tr><td colspan="{len(list(headers)) or 1}" class="empty">none yet</td></tr>'
    return (f'<div class="scroll" tabindex="0" role="region" aria-label="{esc(caption or "table")}">'
            f'<table class="{esc(cls)}">{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>')


class SecurityHeaders:
    """ASGI middleware: every answer (the static files and the event stream included) gets
    :data:`HEADERS`, and :data:`CSP` unless it set a policy of its own; the API's JSON gets
    the policy too, which costs nothing and forbids a browser to run anything opened from it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                for name, value in HEADERS.items():
                    if name.lower().encode() not in names:
                        headers.append((name.lower().encode(), value.encode()))
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
