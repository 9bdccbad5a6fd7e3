"""The plugin's face to cardcli: the entry point, the spec, the options and the text renderer."""

from __future__ import annotations

import importlib
import importlib.metadata
import random
import tomllib
from pathlib import Path

import pytest

from cardcli.errors import OptionError
from cardcli.games import options as opt
from cardcli.games.base import GameSpec
from cardcli.games.dealing import shuffled

from briscola_scripts import new_match, play_script, suit_script
from conftest import STAND_IN
from cardcli_briscola import SPEC, BriscolaOptions
from cardcli_briscola.text import BriscolaRenderer

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_entry_point_names_the_spec() -> None:
    project = tomllib.loads(PYPROJECT.read_text())
    value = project["project"]["entry-points"]["cardcli.games"]["briscola"]
    module, _, attribute = value.partition(":")
    spec = getattr(importlib.import_module(module), attribute)
    assert spec is SPEC and isinstance(spec, GameSpec) and spec.name == "briscola"
    assert "cardcli" in project["project"]["dependencies"]


def test_the_installed_distribution_declares_the_entry_point() -> None:
    """Only when the package is installed (``pip install ./examples/briscola``), not with the
    tests' stand-in (conftest.py)."""
    found = [e for e in importlib.metadata.entry_points(group="cardcli.games") if e.name == "briscola"]
    if not found or found[0].dist is None or found[0].dist.name == STAND_IN:
        pytest.skip("cardcli-briscola is not installed")
    assert found[0].value == "cardcli_briscola:SPEC" and found[0].load() is SPEC


def test_the_spec() -> None:
    assert SPEC.player_counts == (2, 4)
    assert [v.name for v in SPEC.variants] == ["standard"]
    assert len(SPEC.deck()) == 40
    assert SPEC.teams(2) == () and SPEC.teams(4) == ((0, 2), (1, 3))
    assert SPEC.play_order(BriscolaOptions()) == "ccw"
    assert SPEC.play_order(BriscolaOptions(direction="cw")) == "cw"
    assert SPEC.decision_kinds == ("play",) and not SPEC.lower_is_better
    with pytest.raises(ValueError):
        SPEC.new_match(BriscolaOptions(), 3, 0)


def test_the_options_are_declared_with_defaults_and_parsed_as_cardcli_parses_them() -> None:
    specs = {s.name: s for s in opt.specs(BriscolaOptions)}
    assert list(specs) == ["first_dealer", "direction", "target", "tie_break", "partners_see_hands"]
    assert opt.to_json(BriscolaOptions()) == {
        "first_dealer": "random", "direction": "ccw", "target": 2, "tie_break": "none", "partners_see_hands": False,
    }
    built = opt.build(BriscolaOptions, {}, {"target": "3", "tie_break": "last_trick", "partners_see_hands": "yes"})
    assert (built.target, built.tie_break, built.partners_see_hands) == (3, "last_trick", True)
    assert ("tie_break", "last_trick") in opt.to_wire(built)
    for bad in ({"target": "0"}, {"direction": "left"}, {"tie_break": "replay"}, {"trumps": "C"}):
        with pytest.raises(OptionError):
            opt.build(BriscolaOptions, {}, bad)


def test_a_seat_named_first_dealer_must_exist() -> None:
    with pytest.raises(OptionError):
        new_match(2, first_dealer="3")
    assert new_match(4, first_dealer="3").dealer == 3


def test_the_renderer_writes_a_replay_with_every_hand_shown() -> None:
    match = new_match(2, dealer=1)
    events = play_script(match, suit_script({"H": 0, "D": 0, "S": 0, "C": 1}), "2C")
    renderer = BriscolaRenderer(["ann", "bob"])
    text = [line for e in events for line in renderer.feed(e)]
    assert text[:5] == [
        "",
        "Deal 1 - dealer 1:bob",
        "  hand of 0:ann: ♥ A K J",
        "  hand of 1:bob: ♥ Q 7 3",
        "  briscola 2♣: ♣ are trumps",
    ]
    assert text[5].startswith("  trick  1: 0 A♥, 1 3♥ ") and text[5].endswith("-> 0:ann takes 21")
    assert text[6] == "  draws:    0 6♥, 1 5♥"
    assert text[-7] == "  draws:    1 4♣, 0 2♣"  # the last round: the turned-up 2♣ comes last
    assert text[-3:] == ["  card points: 0:ann 90  1:bob 30", "  deal 1 won by 0:ann", "  deals won: 0:ann 1  1:bob 0"]


def test_the_renderer_for_one_seat_shows_the_others_draws_without_their_cards() -> None:
    match = new_match(4, dealer=0, partners_see_hands=True)
    match.deal(shuffled(7, 0, SPEC.deck()))
    rng = random.Random(7)
    events = []
    while match.decisions():
        decision = match.decisions()[0]
        events += match.apply(decision.seat, rng.choice(decision.moves))
    renderer = BriscolaRenderer(["a", "b", "c", "d"])
    text = [line for e in events if e.visible_to(0) for line in renderer.feed(e)]
    draws = [line for line in text if line.startswith("  draws:")]
    assert len(draws) == 7
    assert all(line.count("a card") in (2, 3) and "0 a card" not in line for line in draws)
    assert sum("sees the hand of partner 2:c" in line for line in text) == 1
    assert text[-2].startswith("  deal 1 won by") or text[-2] == "  deal 1 won by nobody (60-60)"
