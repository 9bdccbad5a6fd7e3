"""Scripted Briscola deals for the tests: a deck stacked so that a given sequence of tricks is
playable, and a driver that plays it through the engine.

A script lists the tricks of a deal, each as ``{seat: card}``. The builder works out, with a
small trick judge of its own (independent of the engine, so the two check each other), who
leads and takes each trick, and then stacks the deck the one way the script allows: each seat
holds the next three cards it will play, and draws, after trick ``t``, the card it plays in
trick ``t+3``, the taker first and then the others in the direction of play. If the engine
dealt, drew or chose a leader in any other order, the script would ask a seat for a card it
does not hold, and the play would be refused.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardcli.cards import Card, french_40
from cardcli.games import options as opt
from cardcli.games.base import Event
from cardcli.games.tricks import seat_order, step

from cardcli_briscola import SPEC, BriscolaMatch

STRENGTH = "A3KQJ76542"
"""Ranks from the strongest, as the rule texts give them."""

Trick = Mapping[int, str]


def new_match(players: int = 2, dealer: int = 0, **options: Any) -> BriscolaMatch:
    """A match built as cardcli's registry builds one: the options through their declared
    fields (as ``-o NAME=VALUE`` texts), the first dealer by the spec from the seat ``dealer``
    drawn at random (the ``first_dealer`` option may name another)."""
    given = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}
    built: Any = opt.build(SPEC.options_class, {}, given)
    match = SPEC.new_match(built, players, SPEC.first_dealer(built, players, dealer))
    assert isinstance(match, BriscolaMatch)
    return match


def next_dealer(match: BriscolaMatch) -> int:
    """The dealer of the match's next deal (the first dealer, then one seat on in the
    direction of play each deal)."""
    return step(match.dealer, match.num_players, match.clockwise) if match.deal_number else match.dealer


def taker(trick: Sequence[tuple[int, str]], trump: str) -> int:
    """The seat that takes a trick given as (seat, card) in play order: the strongest trump,
    else the strongest card of the suit led."""
    def key(item: tuple[int, str]) -> tuple[int, int]:
        card = item[1]
        rank = -STRENGTH.index(card[0])
        if card[1] == trump:
            return (2, rank)
        return (1, rank) if card[1] == trick[0][1][1] else (0, rank)
    return max(trick, key=key)[0]


def stacked_deck(
    script: Sequence[Trick], briscola: str, players: int, dealer: int, clockwise: bool = False
) -> tuple[Card, ...]:
    """The deck that deals and draws so that ``script`` can be played, with ``briscola`` turned
    up. A script may stop before the end of the deal: the cards it does not name fill the
    places it leaves open, in canonical order. A full script must have the last drawer of the
    last round play ``briscola`` in its last trick (it is the stock's last card)."""
    n = players
    plays: dict[int, list[str]] = {s: [] for s in range(n)}
    takers = []
    leader = step(dealer, n, clockwise)
    for trick in script:
        order = seat_order(leader, n, clockwise)
        assert set(trick) == set(order), "a trick has one card from each seat"
        for seat in order:
            plays[seat].append(trick[seat])
        leader = taker([(s, trick[s]) for s in order], briscola[1])
        takers.append(leader)
    first = seat_order(step(dealer, n, clockwise), n, clockwise)
    hands = [plays[s][:3] + [None] * (3 - len(plays[s][:3])) for s in range(n)]
    dealt: list[str | None] = [hands[first[k % n]][k // n] for k in range(3 * n)]
    rounds = (40 - 3 * n) // n
    drawn: list[str | None] = []
    for t in range(rounds):
        if t < len(takers):
            for seat in seat_order(takers[t], n, clockwise):
                drawn.append(plays[seat][t + 3] if t + 3 < len(plays[seat]) else None)
        else:
            drawn += [None] * n
    if drawn[-1] is None:
        drawn[-1] = briscola
    assert drawn[-1] == briscola, f"the last card drawn must be the briscola {briscola}, not {drawn[-1]}"
    named = [c for c in dealt + drawn if c is not None]
    assert len(named) == len(set(named)), "every card once"
    spare = iter(c.text for c in french_40() if c.text not in named)
    deck = [c if c is not None else next(spare) for c in dealt] + [briscola]
    deck += [c if c is not None else next(spare) for c in drawn[:-1]]
    assert next(spare, None) is None
    return tuple(Card.parse(c) for c in deck)


def play_script(match: BriscolaMatch, script: Sequence[Trick], briscola: str) -> list[Event]:
    """Deal the stacked deck and play ``script`` through :meth:`BriscolaMatch.apply`; every
    event, in order."""
    deck = stacked_deck(script, briscola, match.num_players, next_dealer(match), match.clockwise)
    events = match.deal(deck)
    for trick in script:
        for _ in range(match.num_players):
            seat = match.current_player()
            events += match.apply(seat, trick[seat])
    return events


PAIRS = (("A", "3"), ("K", "Q"), ("J", "7"), ("6", "5"), ("4", "2"))
"""Each suit in five tricks of two cards of that suit, the stronger card first."""


def suit_script(winner_of: Mapping[str, int], suits: str = "HDSC") -> list[dict[int, str]]:
    """A two-player deal of 20 tricks, each of two cards of one suit, suit by suit in the order
    given: every trick of suit ``x`` goes to ``winner_of[x]`` (who holds the stronger card),
    whoever leads. Each suit is worth 30 card points. With clubs last and trumps, the 2♣ is the
    briscola: the loser of the clubs tricks draws it last and plays it in the last trick."""
    script = []
    for suit in suits:
        for strong, weak in PAIRS:
            winner = winner_of[suit]
            script.append({winner: strong + suit, 1 - winner: weak + suit})
    return script


def vars_of(match: BriscolaMatch) -> Any:
    """The state as plain values: the match's and its trick play's attributes (functions by
    name), compared by value."""
    def plain(value: Any) -> Any:
        if callable(value) and hasattr(value, "__qualname__"):
            return value.__qualname__
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if hasattr(value, "__dict__"):
            return {k: plain(v) for k, v in sorted(vars(value).items())}
        return value
    return plain(match)
