"""One game, one folder: outside ``cardcli/plugins/<game>/`` no code names a game.

A game's knowledge keyed by its name elsewhere (a table, an ``if game == ...``) is a place a
new game would have to be added by hand, and nothing fails when it is forgotten. The registry
lists cardcli's own games by name, and only that. Docstrings and comments may use a game as
an example; identifiers and string literals in code may not. The viewer's core script has its
own check (tests/test_viewer*.py)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from conftest import ROOT

from cardcli.games import registry

PACKAGE = ROOT / "cardcli"
GAME = re.compile(r"\b(" + "|".join(registry.MODULES) + r")\b", re.IGNORECASE)
ALLOWED = {PACKAGE / "games" / "registry.py"}
"""The one place that lists cardcli's own games by name."""


def named_games(path: Path) -> list[tuple[int, str]]:
    """Identifiers and string literals of ``path`` that name a game, with their lines; a
    string that is a statement by itself (a docstring) is prose, not code."""
    found = []
    before = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if token.type in (tokenize.COMMENT, tokenize.NL):
            continue
        prose = token.type == tokenize.STRING and before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        if token.type in (tokenize.NAME, tokenize.STRING) and not prose and GAME.search(token.string):
            found.append((token.start[0], token.string))
        before = token.type
    return found


def outside_the_game_folders() -> list[Path]:
    folders = {PACKAGE / "plugins" / name for name in registry.MODULES}
    return [path for path in sorted(PACKAGE.rglob("*.py"))
            if path not in ALLOWED and not any(folder in path.parents for folder in folders)]


def test_no_code_outside_a_game_s_folder_names_a_game() -> None:
    named = {str(path.relative_to(ROOT)): hits for path in outside_the_game_folders() if (hits := named_games(path))}
    assert named == {}, named


def test_the_check_finds_a_game_named_in_code(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Peppa\'s pass is prose."""\n# so is seep here\nif game == "seep":\n    pass\n'
                      "from .pepper import rules\n")
    assert named_games(sample) == [(3, '"seep"'), (5, "pepper")]


def test_the_viewer_s_core_style_names_no_game() -> None:
    """A game's look (Seep's houses, Pepper's auction) lives in its own stylesheet, which its
    spec names; the core's style is for every game. Comments may use a game as an example."""
    css = re.sub(r"/\*.*?\*/", "", (PACKAGE / "viewer" / "viewer.css").read_text(encoding="utf-8"), flags=re.S)
    assert GAME.findall(css) == []
