"""Playing matches in-process for the conformance and no-leak tests: every seat a seeded random
player that also keeps a transcript of every line it was sent; and a match driven move by move
with each seat's lines kept, dealt from the seed's decks or from decks with two hidden cards
swapped, for the tests that a seat's information does not change when only what it was never
told changes."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs

from cardcli import protocol
from cardcli.cards import Card
from cardcli.games import options as opt
from cardcli.games import registry
from cardcli.games.base import Decision, Event, GameSpec
from cardcli.games.dealing import shuffled
from cardcli.games.driver import Driver, Next
from cardcli.games.registry import Setup
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


# -- what a seat was told, and swaps of what it was not -------------------------------------------

CARD_WORD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][CDHS](?![0-9A-Za-z])")
"""A card's text inside a line or a move token (``take:5C:2D+3H,h11`` names 5C, 2D and 3H)."""


def cards_named(lines: Iterable[str]) -> set[str]:
    """Every card named in ``lines``."""
    return {card for line in lines for card in CARD_WORD.findall(line)}


def hidden_swaps(facts: Mapping[str, Any], told: Sequence[set[str]], watch: int) -> list[tuple[str, str]]:
    """The pairs of cards of a deal (its facts as the record keeps them: ``hands`` and the
    other places it dealt, Seep's floor, Pepper's dead hand, a stock) that can change places
    in the deck without seat ``watch`` being told of it: neither was ever named to ``watch``
    (``told[seat]``: the cards named to each seat so far in the deal), the two lie in
    different places, and the first was dealt to another seat and named to that seat, the
    second not (a card it draws later, say), so the swap shows in what that seat was told."""
    places = {("seat", s): cards for s, cards in enumerate(facts["hands"])}
    places.update({(key, 0): cards for key, cards in facts.items()
                   if key != "hands" and isinstance(cards, list) and all(isinstance(c, str) for c in cards)})
    hidden = [(place, card) for place, cards in places.items() for card in cards if card not in told[watch]]
    return [(a, b) for pa, a in hidden for pb, b in hidden
            if pa != pb and pa[0] == "seat" and pa[1] != watch and a in told[pa[1]] and b not in told[pa[1]]]


def swapped_decks(setup: Setup, deal: int, a: str, b: str) -> Callable[[int], Sequence[Card]]:
    """The seed's decks, with cards ``a`` and ``b`` changing places in the deck of the deal of
    index ``deal`` (0-based)."""
    deck = list(shuffled(setup.seed, deal, setup.spec.deck()))
    i, j = (next(k for k, c in enumerate(deck) if c.text == t) for t in (a, b))
    deck[i], deck[j] = deck[j], deck[i]
    return lambda k: deck if k == deal else shuffled(setup.seed, k, setup.spec.deck())


class MoveMisfit(Exception):
    """A move replayed where it is not the open decision's: a swap contradicts a move made."""


class LineMatch:
    """A match driven in-process by the referee's driver (chance as ``cardcli play`` deals it,
    or ``decks``), a move at a time, with the lines each seat's bot would be sent: its match
    header, every event it may see, and its own ``go`` requests. Several open decisions (Peppa's
    pass) are taken in seat order."""

    def __init__(self, setup: Setup, decks: Callable[[int], Sequence[Card]] | None = None,
                 max_deals: int = Settings().max_deals) -> None:
        self.setup = setup
        self.state = setup.new_match()
        self.driver = Driver(setup, max_deals, decks)
        spec, n = setup.spec, setup.num_players
        self.lines: list[list[str]] = [
            protocol.match_header(spec.name, setup.variant.name, n, seat, opt.to_wire(setup.options),
                                  [f"t{s}" for s in range(n)], spec.play_order(setup.options), spec.teams(n))
            for seat in range(n)]
        self.deals: list[dict[str, Any]] = []
        """What each deal dealt, as the record keeps it."""
        self.moves: list[tuple[int, int, str]] = []
        """The moves made: (deal number, seat, move)."""
        self._deal_starts = [0] * n
        self._advance()

    @property
    def over(self) -> bool:
        return self.state.is_over()

    def decision(self) -> Decision | None:
        decisions = () if self.over or self.state.needs_deal() else self.state.decisions()
        return min(decisions, key=lambda d: d.seat) if decisions else None

    def play(self, move: str) -> None:
        decision = self.decision()
        if decision is None or move not in decision.moves:
            raise MoveMisfit(f"{move} is not a move of the open decision {decision}")
        self.lines[decision.seat].append(protocol.go(decision.kind, 1000, decision.moves))
        events = self.state.apply(decision.seat, move)
        self.moves.append((self.state.deal_number, decision.seat, move))
        self._tell(events)
        self._advance()

    def told(self, seat: int) -> set[str]:
        """The cards named to ``seat`` in the current deal (its ``go`` requests included)."""
        return cards_named(self.lines[seat][self._deal_starts[seat]:])

    def _advance(self) -> None:
        while (due := self.driver.next(self.state)) is Next.DEAL or due is Next.ADJUDICATE:
            if due is Next.ADJUDICATE:
                self.state.adjudicate()
                break
            events = self.driver.deal(self.state)
            self.deals.append(self.state.deal_facts())
            self._deal_starts = [len(lines) for lines in self.lines]
            self._tell(events)

    def _tell(self, events: Sequence[Event]) -> None:
        for event in events:
            for seat, lines in enumerate(self.lines):
                if event.visible_to(seat):
                    lines.append(event.line())


def replayed(setup: Setup, moves: Sequence[tuple[int, int, str]],
             decks: Callable[[int], Sequence[Card]] | None = None) -> LineMatch:
    """The match of ``setup`` dealt from ``decks``, ``moves`` made again; MoveMisfit when one
    does not fit."""
    match = LineMatch(setup, decks)
    for deal, seat, move in moves:
        decision = match.decision()
        if decision is None or decision.seat != seat:
            raise MoveMisfit(f"seat {seat} is not to move")
        match.play(move)
        if match.moves[-1][0] != deal:
            raise MoveMisfit("the deals end elsewhere")
    return match


# -- a game of another package ---------------------------------------------------------------------

BRISCOLA = Path(__file__).resolve().parent.parent / "examples" / "briscola"


def install_briscola(monkeypatch: Any, folder: Path) -> None:
    """Make the registry find examples/briscola as an installed package's game, for one test:
    its folder on ``sys.path`` and, in ``folder``, a distribution that declares it through the
    ``cardcli.games`` entry point; the registry looks through the entry points again, and
    forgets the game once the test is over (``monkeypatch`` undoes it all)."""
    info = folder / "cardcli_briscola_stand_in-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cardcli-briscola-stand-in\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINTS}]\nbriscola = cardcli_briscola:SPEC\n")
    monkeypatch.syspath_prepend(str(BRISCOLA))
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry.GAMES, "_plugins", None)
    monkeypatch.setattr(registry.GAMES, "_loaded", dict(registry.GAMES._loaded))
