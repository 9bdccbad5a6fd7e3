"""Every test module says what it needs (tests/tiers.py), so a new one cannot be left out of a
tier, and the fast tier asks for nothing it promises not to need."""

from __future__ import annotations

import tomllib

import pytest

import tiers
from conftest import ROOT


def modules() -> list[tuple[str, str]]:
    return [(path.parent.name, path.stem) for folder in (ROOT / "tests", ROOT / "tests/games")
            for path in sorted(folder.glob("test_*.py"))]


def test_every_test_module_has_a_marker_that_says_what_it_needs() -> None:
    missing = tiers.unknown(modules())
    assert not missing, (f"add these to tests/tiers.py's MODULES with what they need ({', '.join(tiers.KINDS)}; "
                         f"fast when they belong to the fast tier): {missing}")


def test_every_collected_test_has_a_marker_that_says_what_it_needs(request: pytest.FixtureRequest) -> None:
    unmarked = [item.nodeid for item in request.session.items
                if not any(item.get_closest_marker(kind) for kind in tiers.KINDS)]
    assert not unmarked, f"tests without a kind (tests/tiers.py): {unmarked[:20]}"


def test_the_table_names_only_modules_that_exist() -> None:
    present = {name for folder, name in modules() if folder == "tests"}
    assert not set(tiers.MODULES) - present, f"tests/tiers.py names modules that are gone: {set(tiers.MODULES) - present}"


def test_the_fast_tier_needs_no_root_sandbox_browser_cluster_or_long_run() -> None:
    tables = [*tiers.MODULES.items(), *tiers.SLOW_GAME_MODULES.items(), ("games", frozenset(tiers.GAME_MODULES.split()))]
    wrong = {name: sorted(marks & tiers.NOT_FAST) for name, marks in tables if "fast" in marks and marks & tiers.NOT_FAST}
    assert not wrong, wrong


def test_pyproject_declares_every_marker_once() -> None:
    declared = [line.split(":", 1)[0] for line in
                tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]]
    assert sorted(declared) == sorted(tiers.MARKERS)


def test_a_viewer_sweep_keeps_one_case_per_game_in_the_fast_tier() -> None:
    seen: set[tuple[str, object]] = set()
    sweep = next(iter(sorted(tiers.VIEWER_SWEEPS)))
    marks = [tiers.marks_of("tests", "test_viewer", sweep, {"game": game}, seen) for game in ("peppa", "seep", "peppa")]
    assert [m is not None and "fast" in m for m in marks] == [True, True, False]
    assert marks[2] is not None and "slow" in marks[2]
    assert tiers.marks_of("tests", "test_viewer", "test_html_with_protocol_is_a_usage_error", None, seen) == \
        tiers.MODULES["test_viewer"]
