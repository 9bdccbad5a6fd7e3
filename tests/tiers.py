"""What each test module needs, in one place: tests/conftest.py marks every collected test from
this table, and tests/test_tiers.py fails when a module is missing from it.

A module's kind says what it needs to run (at least one; pyproject.toml declares each marker):

- ``unit``: pure, in this process (rules, records, tables, pages);
- ``process``: starts real subprocesses (bots, ``python -m cardcli``, node, pexpect);
- ``sandbox``: runs bots in bubblewrap, with control groups (root for a uid per bot);
- ``browser``: drives a headless Chromium;
- ``cluster``: starts a Dask ``LocalCluster``;
- ``database``: talks to a real PostgreSQL server that the tests start (tests/postgres.py).

``slow`` marks the long runs (whole tournaments, sweeps over every game, hostile bots), and
``fast`` is the tier everyday work runs (``pytest -m fast``, about a minute on two cores): no
root, bubblewrap, browser, database server, cluster or long run, so it passes as an ordinary
user on a machine without them (tests/fast_as_user.sh). The whole suite runs everything.
"""

from __future__ import annotations

from typing import Iterable

KINDS = ("unit", "process", "sandbox", "browser", "cluster", "database")
"""The markers that say what a module needs: each module has at least one."""
MARKERS = (*KINDS, "slow", "fast")
"""Every marker this table gives (pyproject.toml declares them all)."""
NOT_FAST = frozenset({"sandbox", "browser", "cluster", "database", "slow"})
"""What the fast tier never needs."""

MODULES: dict[str, frozenset[str]] = {name: frozenset(marks.split()) for name, marks in {
    # in-process
    "test_cgroups": "unit",
    "test_conformance": "unit",
    "test_docs": "unit fast",
    "test_envs": "unit",
    "test_examples": "unit fast",
    "test_game_folders": "unit fast",
    "test_golden": "unit fast",
    "test_heuristic": "unit",
    "test_no_leak": "unit slow",
    "test_observation_view": "unit",
    "test_openskill_ties": "unit fast",
    "test_properties": "unit fast",
    "test_protocol_scripted": "unit fast",
    "test_record_model": "unit fast",
    "test_referee": "unit fast",
    "test_search_time": "unit fast",
    "test_seat_state": "unit fast",
    "test_strength_oracle": "unit fast",
    "test_viewer_style": "unit",
    # real subprocesses: bots, the command line, node
    "test_briscola_plugin": "process",
    "test_check_bot": "process",
    "test_cli": "process",
    "test_closing": "process fast",
    "test_compiled": "process slow",
    "test_competition": "process",
    "test_display_and_tokens": "process",
    "test_e2e": "process slow",
    "test_entrants": "process",
    "test_failure_bundles": "process fast",
    "test_fault_messages": "process",
    "test_faults": "process",
    "test_game_plugins": "process fast",
    "test_gauntlet": "process fast",
    "test_human": "process",
    "test_interrupted": "process fast",
    "test_ismcts": "process",
    "test_world_model": "unit",
    "test_house_levels": "process",
    "test_layers": "process fast",
    "test_static": "process",
    "test_tournament_config": "unit fast",
    "test_arena_store": "unit fast",
    "test_arena_ladder": "unit fast",
    "test_arena_table": "unit fast",
    "test_arena_api": "process",
    "test_arena_pages": "process",
    "test_arena_author": "process",
    "test_arena_live": "unit",
    "test_arena_live_play": "process",
    "test_arena_live_browser": "process browser",
    "test_paired_stats": "process fast",
    "test_protocol": "process fast",
    "test_record_attacks": "process",
    "test_record_integrity": "process",
    "test_record_schema": "process fast",
    "test_relay": "process fast",
    "test_remote": "process slow",
    "test_remote_hostile": "process slow",
    "test_replay_protocol": "process",
    "test_seat_timing": "process",
    "test_setoption": "process fast",
    "test_sprt": "process",
    "test_terminal_safety": "process fast",
    "test_time_bank": "process fast",
    "test_time_stats": "process fast",
    "test_verify": "process fast",
    "test_tournament": "process slow",
    "test_tournament_presentation": "process fast",
    "test_tournament_signals": "process",
    "test_viewer": "process fast",
    "test_watch": "process fast",
    # the machine's own parts for real
    "test_bot_languages": "process sandbox slow",
    "test_hostile": "process sandbox slow",
    "test_limits": "process sandbox",
    "test_reaping": "process sandbox",
    "test_sandbox": "process sandbox slow",
    "test_viewer_browser": "process browser",
    "test_arena_pages_browser": "process browser",
    "test_cluster": "process cluster slow",
    "test_arena_season": "process slow",
    "test_arena_sandbox": "process sandbox slow",
    "test_arena_cluster": "process cluster slow",
    "test_arena_remote": "process",
    "test_arena_cli": "process",
    "test_postgres_fixture": "database",
    "test_tiers": "unit fast",
}.items()}
"""Each module of tests/ by name; tests/games/ is below."""

GAME_MODULES = "unit fast"
"""The rules' tests of tests/games/: in-process and quick, all in the fast tier but these."""
SLOW_GAME_MODULES = {name: frozenset({"unit", "slow"}) for name in
                     ("test_clone_and_actions", "test_seep_generator", "test_seep_invariants")}
"""The long generated ones of tests/games/."""

VIEWER_SWEEPS = frozenset({
    "test_the_script_keeps_the_engine_s_table_in_every_view",
    "test_a_seat_page_s_script_knows_what_the_seat_view_knows",
    "test_a_long_match_s_seat_page_s_script_knows_what_the_seat_view_knows",
})
"""The sweeps of tests/test_viewer.py over every game (and variant and player count), which run
the page's script under node once per case: the fast tier keeps one case per game, the first
collected, and the rest are ``slow``."""


def module_marks(folder: str, name: str) -> frozenset[str] | None:
    """The markers of test module ``name`` in tests/ or tests/games/ (``folder``); None for a
    module the table does not know."""
    if folder == "games":
        return SLOW_GAME_MODULES.get(name, frozenset(GAME_MODULES.split()))
    return MODULES.get(name)


def marks_of(folder: str, module: str, function: str, params: dict[str, object] | None,
               seen: set[tuple[str, object]]) -> frozenset[str] | None:
    """The markers of one test: its module's, less ``fast`` for a viewer sweep's case beyond
    the first of its game (``seen`` holds the sweeps and games met so far), and ``database``
    instead of ``fast`` for a case run on PostgreSQL (a ``db`` parameter of ``postgresql``: the
    arena's tests run each case on SQLite, in the fast tier, and on the suite's server)."""
    marks = module_marks(folder, module)
    if marks is not None and params is not None and params.get("db") == "postgresql":
        return (marks - {"fast"}) | {"database"}
    if marks is None or module != "test_viewer" or function not in VIEWER_SWEEPS or params is None:
        return marks
    key = (function, params.get("game"))
    if key in seen:
        return (marks - {"fast"}) | {"slow"}
    seen.add(key)
    return marks


def unknown(modules: Iterable[tuple[str, str]]) -> list[str]:
    """The modules (folder, name) this table does not give a kind."""
    return [f"{folder}/{name}.py" for folder, name in modules
            if not (module_marks(folder, name) or frozenset()) & set(KINDS)]
