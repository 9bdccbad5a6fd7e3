"""Playing matches in-process for the conformance and no-leak tests: every seat a seeded random
player that also keeps a transcript of every line it was sent."""

from __future__ import annotations

import random
from typing import Any, Sequence

import attrs

from cardcli import protocol
from cardcli.games import options as opt
from cardcli.games import registry
from cardcli.games.base import Event, GameSpec
from cardcli.referee import MatchResult, Settings, play_match
from cardcli.seats.base import Request
from cardcli.seats.builtin import InProcessSeat


class TranscriptSeat(InProcessSeat):
    """A random player that remembers every line it received, ``go`` requests included."""

    def __init__(self, label: str, seed: str):
        rng = random.Random(seed)
        super().__init__(label, self._choose)
        self._rng = rng
        self.lines: list[str] = []

    def notify(self, lines: Sequence[str]) -> None:
        self.lines.extend(lines)

    def _choose(self, request: Request) -> str:
        assert request.moves, "a request must offer at least one move"
        assert len(set(request.moves)) == len(request.moves), "offered moves must be distinct"
        self.lines.append(protocol.go(request.kind, request.millis, request.moves))
        return self._rng.choice(request.moves)


@attrs.frozen
class Played:
    result: MatchResult
    seats: tuple[TranscriptSeat, ...]
    events: tuple[Event, ...]


def random_options(spec: GameSpec, variant: str, rng: random.Random) -> dict[str, Any]:
    """Random values for the choice and boolean options of a game (integers keep defaults), so
    the conformance suite explores house-rule combinations as well as deals."""
    chosen: dict[str, Any] = {}
    for s in opt.specs(spec.options_class, spec.variant(variant).defaults):
        if rng.random() < 0.5 or s.name == "first_dealer":
            continue
        if s.kind == "bool":
            chosen[s.name] = rng.choice([True, False])
        elif s.kind == "choice":
            chosen[s.name] = rng.choice(s.choices)
        elif s.kind == "list":
            chosen[s.name] = tuple(rng.choice(s.choices) for _ in range(rng.randint(1, 3)))
    return chosen


def play(game: str, variant: str, seed: int, options: dict[str, Any] | None = None,
         num_players: int | None = None, max_deals: int = Settings().max_deals) -> Played:
    setup = registry.resolve(game, variant, options or {}, num_players, seed)
    seats = tuple(TranscriptSeat(f"t{i}", f"{seed}/{i}") for i in range(setup.num_players))
    events: list[Event] = []
    result = play_match(setup, seats, Settings(move_time=5, max_deals=max_deals), listener=events.extend)
    return Played(result, seats, tuple(events))


def every_game_variant_and_count() -> list[tuple[str, str, int]]:
    return [
        (spec.name, v.name, n)
        for spec in registry.GAMES.values()
        for v in spec.variants
        for n in spec.player_counts
    ]
