"""Each game's look is in its own stylesheet, which its spec names (``viewer_style``): a page
holds the core's style and the style of each of its games, once, under the page's policy."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import attrs
import pytest

from cardcli import viewer
from cardcli.errors import UsageError
from cardcli.games import registry
from test_viewer import invoke, match, write

GAMES = sorted(registry.MODULES)


def page_style(html: str) -> str:
    [css] = re.findall(r"<style>(.*?)</style>", html, re.S)
    return css


def style_of(game: str) -> str:
    text = viewer.game_style(registry.get(game))
    assert text, f"{game} has a stylesheet"
    return text


@pytest.mark.parametrize("game", GAMES)
def test_a_page_holds_the_core_s_style_and_its_game_s_and_no_other(tmp_path: Path, game: str) -> None:
    record, _ = match(game, registry.get(game).default_variant.name, registry.get(game).player_counts[-1])
    out = tmp_path / "page.html"
    assert invoke("replay", str(write(tmp_path, record)), "--html", str(out)).exit_code == 0
    html = out.read_text(encoding="utf-8")
    css = page_style(html)
    assert css.startswith(viewer._asset("viewer.css"))
    assert css.count(style_of(game)) == 1
    assert not any(style_of(other) in css for other in GAMES if other != game)
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii")
    assert f"style-src 'sha256-{digest}'" in html, "the page's policy allows exactly its style"


def test_a_page_of_several_games_holds_each_game_s_style_once() -> None:
    css = viewer.style(["seep", "pepper", "seep", "peppa"])
    for game in ("seep", "pepper", "peppa"):
        assert css.count(style_of(game)) == 1
    assert css.index(style_of("seep")) < css.index(style_of("pepper")) < css.index(style_of("peppa"))
    assert style_of("pigugnin") not in css


def test_a_game_without_a_stylesheet_gets_the_core_s_style(monkeypatch: pytest.MonkeyPatch) -> None:
    got = registry.get
    plain = attrs.evolve(got("seep"), viewer_style=None)
    monkeypatch.setattr(registry, "get", lambda name: plain if name == "seep" else got(name))
    assert viewer.style(["seep"]) == viewer._asset("viewer.css")


@pytest.mark.parametrize("content, problem", [
    (None, "cannot be read"),
    ("#floor { color: red; }\n</style><script>alert(1)</script>\n", "holds '</style'"),
])
def test_a_stylesheet_that_cannot_be_read_or_would_end_the_style_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | None, problem: str) -> None:
    """A game's stylesheet comes from another package: one that is missing, or that would end
    the page's style block and open markup of its own, is a usage error and no page is
    written."""
    name = f"hostile_style_{'missing' if content is None else 'closing'}"
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    if content is not None:
        (package / "viewer.css").write_text(content)
    monkeypatch.syspath_prepend(str(tmp_path))
    got = registry.get
    hostile = attrs.evolve(got("pigugnin"), viewer_style=f"{name}:viewer.css")
    monkeypatch.setattr(registry, "get", lambda name: hostile if name == "pigugnin" else got(name))
    with pytest.raises(UsageError, match=re.escape(problem)):
        viewer.style(["pigugnin"])
    record, _ = match("pigugnin", "standard", 4, seed=8, max_deals=2)
    out = tmp_path / "refused.html"
    result = invoke("replay", str(write(tmp_path, record)), "--html", str(out))
    assert result.exit_code == 2, result.output
    assert f"the viewer style of the game 'pigugnin' ({name}:viewer.css)" in result.output
    assert problem in result.output and "Traceback" not in result.output
    assert not out.exists()
