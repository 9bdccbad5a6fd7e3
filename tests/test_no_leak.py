"""No seat is ever told a card it could not know at that moment, checked line by line against
the full record, for every game and variant; and no seat's view (cardcli.games.view: what the
human seat, the heuristics, the search player and the learning features read) shows one.

Every game, a plugin's included, gets the generic checks: its seat views fed exactly the lines
each seat received, every card they show checked against what the seat was told in the deal
(and its hand, trick and played cards against the deal's facts), and the views and lines of a
seat unchanged when two cards it was never told of change places in the deck. A game's own
line checker (``LEAK_CHECKS``) is added where it has one.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import pytest

from cardcli.cards import RANKS, SUITS, Card
from cardcli.games import registry
from cardcli.games.notation import spent_card
from cardcli.games.view import SeatView, view_for
from harness import (LineMatch, MoveMisfit, Played, cards_named, every_game_variant_and_count, hidden_swaps,
                     install_briscola, play, replayed, swapped_decks)

CARD_TEXTS = {r + s for r in RANKS for s in SUITS}


def cards_in(line: str) -> set[str]:
    found = set()
    for word in line.split():
        found |= {part for part in word.split("+") if part in CARD_TEXTS}
    return found


def peppa_leaks(played: Played) -> None:
    record = played.result.record
    for seat, bot in enumerate(played.seats):
        deals = iter(record["deals"])
        deal: dict[str, Any] | None = None
        holding: set[str] = set()
        public: set[str] = set()
        for line in bot.lines:
            word, *args = line.split()
            if word == "deal":
                deal = next(deals)
                holding, public = set(), set()
                continue
            assert deal is not None or not cards_in(line), line
            if word == "hand":
                assert args == deal["hands"][seat], "a seat is told exactly its own dealt hand"
                holding = set(args)
            elif word == "passed":
                own = next(m["move"] for m in deal["moves"] if m["kind"] == "pass" and m["seat"] == seat)
                assert set(args[1:]) == set(own.split("+"))
                holding -= set(args[1:])
            elif word == "received":
                giver = int(args[0])
                given = next(m["move"] for m in deal["moves"] if m["kind"] == "pass" and m["seat"] == giver)
                assert set(args[1:]) == set(given.split("+")), "only the cards passed to this seat"
                holding |= set(args[1:])
            elif word == "go":
                assert cards_in(line) <= holding, f"a request names cards the seat does not hold: {line[:80]}"
            elif word == "play":
                public.add(args[1])
                holding.discard(args[1])
            else:
                assert cards_in(line) <= public | holding, f"seat {seat} told a hidden card: {line}"


def seep_leaks(played: Played) -> None:
    """No line names a card still hidden in another seat's hand (or, before the floor is turned
    up, a floor card); the void deal's reveal of the bidder's four cards is the one exception."""
    record = played.result.record
    floor_first = record["options"]["reveal_floor_before_bid"]
    for seat, bot in enumerate(played.seats):
        deals = iter(record["deals"])
        hidden: set[str] = set()
        floor: set[str] = set()
        own: set[str] = set()
        for line in bot.lines:
            word, *args = line.split()
            if word == "deal":
                deal = next(deals)
                own = set(deal["hands"][seat])
                hidden = {c for s, h in enumerate(deal["hands"]) if s != seat for c in h}
                floor = set() if floor_first else set(deal["floor"])
                continue
            if word == "void":
                continue
            if word == "bid":
                floor = set()
            if word == "play":
                hidden.discard(spent_card(args[1]))
            named = cards_in(line)
            if word == "hand":
                assert named <= own, "a seat is told only its own cards"
            assert not named & hidden, f"seat {seat} told a hidden card: {line[:100]}"
            assert not named & floor, f"seat {seat} told a face-down floor card: {line[:100]}"


def pepper_leaks(played: Played) -> None:
    """No seat is told another seat's unplayed card, and no seat ever hears of the dead hand."""
    record = played.result.record
    for seat, bot in enumerate(played.seats):
        deals = iter(record["deals"])
        hidden: set[str] = set()
        dead: set[str] = set()
        for line in bot.lines:
            word, *args = line.split()
            if word == "deal":
                deal = next(deals)
                hidden = {c for s, h in enumerate(deal["hands"]) if s != seat for c in h}
                dead = set(deal.get("dead", []))
                continue
            if word == "play":
                hidden.discard(args[1])
            named = cards_in(line)
            if word == "hand":
                assert args == deal["hands"][seat]
            assert not named & hidden, f"seat {seat} told a hidden card: {line}"
            assert not named & dead, f"seat {seat} told a dead-hand card: {line}"


LEAK_CHECKS: dict[str, Callable[[Played], None]] = {
    "pepper": pepper_leaks,
    "peppa": peppa_leaks,
    "seep": seep_leaks,
    "pigugnin": peppa_leaks,  # the same trick-game knowledge model, without a pass
}
"""Each game's own line checker, against its deal facts; a game without one (another
package's) gets the generic checks of the views and the swaps below."""


# -- the seat views ------------------------------------------------------------------------------

ViewFactory = Callable[[str, int, Sequence[dict[str, Any]]], SeatView]
"""A seat view for (game, seat, the facts of each deal as the record keeps them): the game's
own (:func:`game_view`), or in the tests below one made to leak what the facts hold, to show
that the checks catch it."""


def game_view(game: str, seat: int, deals: Sequence[dict[str, Any]]) -> SeatView:
    return view_for(game)


NOT_CARDS = frozenset({"names", "options", "game"})
"""View fields of free text (bot names, option values), which can spell a card by chance."""


def plain(value: Any) -> Any:
    """A view's value as plain comparable data: a card as its text, a set sorted."""
    if isinstance(value, Card):
        return value.text
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def view_state(view: SeatView) -> dict[str, Any]:
    """Everything a view shows: its public fields (a game's own included) and ``seen()``."""
    fields = {k: v for k, v in vars(view).items() if not k.startswith("_") and not callable(v)}
    fields["seen()"] = view.seen()
    return plain(fields)


def view_cards(view: SeatView) -> set[str]:
    """Every card a view shows (:func:`view_state`), in any field but the free-text ones; read
    through one JSON text (a card as its text, a set as a list), the quick way to go through
    the whole view after every line of a match."""
    fields = {k: v for k, v in vars(view).items() if k not in NOT_CARDS and not k.startswith("_") and not callable(v)}
    fields["seen()"] = view.seen()
    try:
        text = json.dumps(fields, default=lambda o: o.text if isinstance(o, Card) else list(o))
    except TypeError:  # a field keyed by something JSON does not key by
        text = repr(plain(fields))
    return cards_named([text])


class SeatKnowledge:
    """What one seat may know at each point of the match, from the full record: the events
    the referee routed with their audiences (which, for a game with a line checker, that checker
    holds to the deal's facts) and the deal's facts."""

    def __init__(self, seat: int, record: dict[str, Any]) -> None:
        self.seat = seat
        self.deals = iter(record["deals"])
        self.facts: dict[str, Any] = {"hands": []}
        self.told: set[str] = set()
        """Cards named to this seat in the deal so far, in public lines or its own."""
        self.private: set[str] = set()
        """Cards named in lines for this seat alone (or a few seats): a pass received, a draw."""
        self.played: list[tuple[int, str]] = []
        """(seat, card) of every card played in the open in the deal so far."""
        self.trick: list[tuple[int, str]] = []

    def hear(self, event: Any) -> None:
        if event.kind == "deal":
            self.facts = next(self.deals)
            self.told, self.private, self.played, self.trick = set(), set(), [], []
        named = cards_named([event.line()])
        self.told |= named
        if event.audience is not None:
            self.private |= named
        elif event.kind == "trick":
            self.trick = []
        elif event.kind == "play" and len(event.args) >= 2:
            card = spent_card(event.args[1])
            if card is not None:
                self.played.append((int(event.args[0]), card))
                self.trick.append((int(event.args[0]), card))

    def others_cards(self) -> set[str]:
        return {c for s, hand in enumerate(self.facts["hands"]) if s != self.seat for c in hand}

    def check(self, view: SeatView, line: str) -> None:
        """Every card the view shows is one this seat was told in this deal; its hand holds no
        card played, nor another seat's unless a line for this seat alone passed it on; its
        trick and played cards are cards those seats played in the open."""
        where = f"seat {self.seat} after {line[:80]!r}"
        shown = view_cards(view)
        assert shown <= self.told, f"{where}: the view shows {sorted(shown - self.told)}, never told in this deal"
        hand = {c.text for c in view.hand}
        public_played = {card for _, card in self.played}
        assert not hand & public_played, f"{where}: played cards {sorted(hand & public_played)} still in hand"
        foreign = hand & self.others_cards() - self.private
        assert not foreign, f"{where}: another seat's cards {sorted(foreign)} in the hand"
        plays = set(self.played)
        trick = {(s, c.text) for s, c in view.trick}
        assert trick <= plays, f"{where}: the trick shows {sorted(trick - plays)}, never played"
        for s, cards in enumerate(view.played):
            mine = {(s, c.text) for c in cards}
            assert mine <= plays, f"{where}: seat {s} shown playing {sorted(mine - plays)}"


REFEREE_WORDS = frozenset({"go", "bank", "result", "forfeit", "quit"})
"""Lines of the referee's own after the header, which tell no event."""


def received(played: Played, seat: int) -> Iterator[tuple[str, Any]]:
    """The lines ``seat`` received, each with the event it tells (None for the header and
    requests), checked against the events the referee routed to the seat, in order."""
    visible = iter(e for e in played.events if e.visible_to(seat))
    lines = played.seats[seat].lines
    begun = False
    for line in lines:
        if not begun or line.split()[0] in REFEREE_WORDS:
            begun = begun or line == "begin"
            yield line, None
            continue
        event = next(visible, None)
        assert event is not None and event.line() == line, f"seat {seat} received {line!r}, routed {event}"
        yield line, event
    assert next(visible, None) is None, "every event routed to the seat reached it"


def check_views(played: Played, make_view: ViewFactory = game_view, deals: int | None = None) -> int:
    """Each seat's view, fed exactly the lines the seat received, checked after every line (up
    to the end of deal ``deals``, all by default); the number of checks."""
    record = played.result.record
    checks = 0
    for seat in range(len(played.seats)):
        view = make_view(record["game"], seat, record["deals"])
        knowledge = SeatKnowledge(seat, record)
        dealt = 0
        for line, event in received(played, seat):
            if event is not None:
                dealt += event.kind == "deal"
                if deals is not None and dealt > deals:
                    break
                knowledge.hear(event)
            view.update(line.split())
            knowledge.check(view, line)
            checks += 1
    return checks


def check_no_leak(game: str, variant: str, players: int, seeds: Sequence[int], make_view: ViewFactory = game_view,
                  max_deals: int | None = None, view_deals: int | None = None,
                  options: dict[str, Any] | None = None) -> None:
    """Matches (whole, or of ``max_deals`` deals) each checked by the game's own line checker
    where it has one, and every seat view by the generic checks (over the first ``view_deals``
    deals, all by default)."""
    for seed in seeds:
        played = play(game, variant, seed=seed, num_players=players, options=options,
                      **({"max_deals": max_deals} if max_deals is not None else {}))
        assert any(line.startswith("go ") for bot in played.seats for line in bot.lines)
        own_check = LEAK_CHECKS.get(game)
        if own_check is not None:
            own_check(played)
        assert check_views(played, make_view, view_deals) > 10


EVERY = every_game_variant_and_count()
SAMPLE = [combo for combo in EVERY if combo[1] == registry.get(combo[0]).default_variant.name
          and combo[2] == max(registry.get(combo[0]).player_counts)]
"""For the fast tier: each game's default variant at its largest table."""


@pytest.mark.parametrize("game, variant, players", EVERY)
def test_no_seat_learns_a_card_it_may_not_know(game: str, variant: str, players: int) -> None:
    """Whole matches: every line checked by the game's own checker, every view by the generic
    checks."""
    check_no_leak(game, variant, players, seeds=range(4), view_deals=12)


@pytest.mark.fast
@pytest.mark.parametrize("game, variant, players", SAMPLE)
def test_no_seat_view_shows_a_card_it_may_not_know(game: str, variant: str, players: int) -> None:
    check_no_leak(game, variant, players, seeds=(1,), max_deals=2)


def view_states(game: str, seat: int, lines: Sequence[str], deals: Sequence[dict[str, Any]],
                make_view: ViewFactory) -> list[dict[str, Any]]:
    """The state of ``seat``'s view after each of its ``lines``."""
    view = make_view(game, seat, deals)
    states = []
    for line in lines:
        view.update(line.split())
        states.append(view_state(view))
    return states


def check_swaps(game: str, variant: str, players: int, wanted: int = 3, make_view: ViewFactory = game_view,
                options: dict[str, Any] | None = None) -> None:
    """Matches played at random to a random point; then two cards a random seat was never told
    of change places in the deck of the deal in progress (between two other seats' hands, or
    with a card not dealt yet, a dead hand, a stock), and the same moves are made again. When
    they all still fit (the swap fits all that is public), the watching seat's lines and its
    view after every line are the same as before, while a seat that was told of the first card
    is told otherwise. ``wanted`` such swaps are found."""
    rng = random.Random(f"swap/{game}/{variant}/{players}")
    swaps = 0
    for _ in range(80):
        setup = registry.resolve(game, variant, options or {}, players, rng.randrange(1000))
        match = LineMatch(setup)
        for _ in range(rng.randrange(4, 60)):
            decision = match.decision()
            if decision is None:
                break
            match.play(rng.choice(decision.moves))
        if match.over or not match.moves or match.moves[-1][0] != len(match.deals):
            continue
        watch = rng.randrange(players)
        told = [match.told(s) for s in range(players)]
        pairs = hidden_swaps(match.deals[-1], told, watch)
        if not pairs:
            continue
        a, b = rng.choice(pairs)
        try:
            other = replayed(setup, match.moves, swapped_decks(setup, len(match.deals) - 1, a, b))
        except MoveMisfit:
            continue  # the swap contradicts a move made: it does not fit what is public
        holder = next(s for s, hand in enumerate(match.deals[-1]["hands"]) if a in hand)
        assert other.deals[-1] != match.deals[-1] and other.lines[holder] != match.lines[holder]
        assert other.lines[watch] == match.lines[watch], f"seat {watch} is told of the swap of {a} and {b}"
        before = view_states(game, watch, match.lines[watch], match.deals, make_view)
        after = view_states(game, watch, other.lines[watch], other.deals, make_view)
        for line, one, two in zip(match.lines[watch], before, after):
            differ = {k for k in one if one[k] != two.get(k)}
            assert not differ, f"seat {watch}'s view after {line[:60]!r} shows the swap of {a} and {b} in {differ}"
        assert view_states(game, holder, match.lines[holder], match.deals, make_view)[-1] != \
            view_states(game, holder, other.lines[holder], other.deals, make_view)[-1] or holder == watch
        swaps += 1
        if swaps == wanted:
            return
    raise AssertionError(f"only {swaps} consistent swaps found")


@pytest.mark.parametrize("game, variant, players", EVERY)
def test_a_seat_view_does_not_change_when_cards_it_was_never_told_of_are_swapped(
    game: str, variant: str, players: int,
) -> None:
    check_swaps(game, variant, players)


@pytest.mark.fast
@pytest.mark.parametrize("game, variant, players", SAMPLE)
def test_a_seat_view_does_not_change_when_hidden_cards_are_swapped_sample(game: str, variant: str, players: int) -> None:
    check_swaps(game, variant, players, wanted=1)


# -- the checks catch a leaky view -----------------------------------------------------------------

Leak = Callable[[SeatView, dict[str, Any]], None]
"""Something a leaky view does after each line, given the facts of the deal in progress."""


def leaky(leak: Leak) -> ViewFactory:
    """Views of the game's own class that also ``leak`` what the deal's facts hold."""

    def make(game: str, seat: int, deals: Sequence[dict[str, Any]]) -> SeatView:
        class Leaky(type(view_for(game))):  # type: ignore[misc]
            dealt = 0

            def update(self, words: list[str]) -> None:
                super().update(words)
                self.dealt += words[0] == "deal"
                if self.dealt and self.dealt <= len(deals):
                    leak(self, deals[self.dealt - 1])

        return Leaky()

    return make


def next_seats_card(view: SeatView, facts: dict[str, Any]) -> Card:
    """The last card dealt to the next seat: one this seat is not told of before it is played."""
    return Card.parse(facts["hands"][(view.seat + 1) % len(facts["hands"])][-1])


def into_hand(view: SeatView, facts: dict[str, Any]) -> None:
    card = next_seats_card(view, facts)
    if view.hand and card not in view.hand and card not in {c for cards in view.played for c in cards}:
        view.hand.append(card)


def into_seen(view: SeatView, facts: dict[str, Any]) -> None:
    card, seen = next_seats_card(view, facts), view.seen
    if getattr(seen, "__self__", None) is view:
        view.seen = lambda: set(seen()) | {card}  # type: ignore[method-assign]


def into_a_field(view: SeatView, facts: dict[str, Any]) -> None:
    view.peek = {s: hand for s, hand in enumerate(facts["hands"]) if s != view.seat}  # type: ignore[attr-defined]


def into_the_trick(view: SeatView, facts: dict[str, Any]) -> None:
    card, nxt = next_seats_card(view, facts), (view.seat + 1) % len(facts["hands"])
    if view.hand and (nxt, card) not in view.trick:
        view.trick.append((nxt, card))


@pytest.mark.fast
@pytest.mark.parametrize("make_view", [leaky(into_hand), leaky(into_seen), leaky(into_the_trick), leaky(into_a_field)],
                         ids=["hand", "seen", "trick", "a field of its own"])
@pytest.mark.parametrize("game, variant, players", SAMPLE)
def test_the_view_checks_catch_a_view_that_shows_a_card_it_may_not_know(
    game: str, variant: str, players: int, make_view: ViewFactory,
) -> None:
    with pytest.raises(AssertionError, match="never told in this deal"):
        check_no_leak(game, variant, players, seeds=(1,), make_view=make_view, max_deals=2)


@pytest.mark.fast
@pytest.mark.parametrize("game, variant, players", SAMPLE)
def test_the_swap_check_catches_a_view_that_reads_the_other_hands(game: str, variant: str, players: int) -> None:
    with pytest.raises(AssertionError, match="shows the swap of .* in {'peek'}"):
        check_swaps(game, variant, players, wanted=1, make_view=leaky(into_a_field))


# -- a game of another package --------------------------------------------------------------------


@pytest.mark.fast
def test_a_game_of_another_package_gets_the_generic_checks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """examples/briscola, found through the entry point as an installed package's game, has no
    line checker here: its views get the generic checks and the swaps (with partners shown
    their partner's hand, too), and a leak in its view is caught."""
    install_briscola(monkeypatch, tmp_path)
    combos = [combo for combo in every_game_variant_and_count() if combo[0] == "briscola"]
    assert combos and "briscola" not in LEAK_CHECKS
    for game, variant, players in combos:
        for options in [{}] + ([{"partners_see_hands": True}] if players == 4 else []):
            check_no_leak(game, variant, players, seeds=(1,), max_deals=2, options=options)
            check_swaps(game, variant, players, wanted=2, options=options)
    with pytest.raises(AssertionError, match="never told in this deal"):
        check_no_leak("briscola", combos[0][1], 2, seeds=(1,), max_deals=1, make_view=leaky(into_hand))
    with pytest.raises(AssertionError, match="shows the swap"):
        check_swaps("briscola", combos[0][1], 2, wanted=1, make_view=leaky(into_a_field))
