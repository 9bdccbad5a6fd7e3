"""What the HTML replay viewer must show at every step of a record, read from the rules engine.

The steps are those of :func:`cardcli.replay.walk`: step 0 is the table before the first deal,
then each deal has one step at its start (the cards just dealt) and one per recorded move
(the table after that move). The match is rebuilt here the way ``walk`` rebuilds it (the
registry's setup for the record's game, variant, options, players and seed, each deal from
:func:`cardcli.games.dealing.shuffled`, each recorded move applied), and the state objects of
the games are read directly: ``hands`` (every game), ``tricks.trick`` (the trick games, while
cards are being played), ``loose`` and ``houses`` (Seep), the running totals (``totals`` for
the penalty games, ``seat_totals()`` for the games with sides), Peppa's pass (``passes``),
Pepper's auction and contract (``bids``, ``declarer``, ``contract``, ``trump``), and what no
seat may see yet (Pepper's ``dead`` hand, Seep's packets still to deal and its face-down floor).

The expectations come from the engine, not from the record's text nor from the viewer's own
code, so a page that draws what the record *says* rather than what the rules *did* fails.
"""

from __future__ import annotations

from typing import Any

import attrs

from cardcli.games import registry
from cardcli.games.card_bits import TEXTS, texts
from cardcli.games.dealing import shuffled
from cardcli.replay import walk


@attrs.frozen
class House:
    value: int
    cemented: bool
    owners: tuple[int, ...]
    """Sorted seat numbers."""
    cards: tuple[str, ...]
    """Card tokens, sorted."""


@attrs.frozen
class Expected:
    """The table at one step, for every seat (what the ``all`` view shows)."""

    step: int
    deal: int
    """The deal in progress (0 before the first deal)."""
    move: int | None
    """Index of the move just made in its deal, from 0; None at step 0 and at a deal's start."""
    hands: tuple[tuple[str, ...], ...]
    """Per seat, the card tokens held, sorted canonically. During the Peppa pass, the three
    cards a seat has passed are set aside (``passes``) until all four seats have passed and the
    engine exchanges them: they are no longer held, and are not in the hand here."""
    trick: tuple[tuple[int, str], ...]
    """The trick in progress, (seat, card) in play order; empty once a trick is complete and
    outside the play of the cards (the Peppa pass, the Pepper auction)."""
    totals: tuple[int, ...]
    """Running totals per seat after the last scored deal."""
    floor: tuple[str, ...] | None = None
    """Seep: the loose floor cards, sorted (empty before the floor is turned up); None for the
    trick games."""
    houses: tuple[House, ...] | None = None
    """Seep: the houses on the floor, by value; None for the trick games."""
    contract: tuple[int, str, str] | None = None
    """Pepper while its cards are played: (bidder, level, trump token, ``NT`` for no trump)."""
    auction: tuple[tuple[int, str], ...] | None = None
    """Pepper during its auction and the choice of trump: the bids so far, (seat, bid) in order."""
    passed: tuple[tuple[str, ...], ...] = ()
    """Peppa: per seat, the cards it has passed in this deal (empty before it passes)."""
    set_aside: tuple[str, ...] = ()
    """Peppa: the cards passed and not yet exchanged (every seat's), sorted."""
    held: tuple[int, ...] = ()
    """Per seat, how many cards the engine gives it, the ones set aside for the pass included:
    what a seat that may not see them is shown (it is not told that another seat has passed)."""
    hidden: tuple[frozenset[str], ...] = ()
    """Per seat, the cards that seat may not see at this step: every other seat's cards (held
    or set aside for the pass) except those it passed itself, and the cards nobody sees yet
    (Seep's packets still to be dealt and its floor face down, Pepper's dead hand)."""


SORT_KEY = {text: i for i, text in enumerate(TEXTS)}


def sort_tokens(tokens: Any) -> tuple[str, ...]:
    """Card tokens in canonical order (anything else that a page may show, after them)."""
    return tuple(sorted(tokens, key=lambda t: (SORT_KEY.get(t, len(SORT_KEY)), str(t))))


def expectations(record: dict[str, Any]) -> list[Expected]:
    """Every step of the record's match as the engine has it; also checks, through
    :func:`cardcli.replay.walk`, that the record verifies and has exactly these steps."""
    setup = registry.resolve(record["game"], record["variant"], record["options"], len(record["seats"]),
                             record["seed"])
    state: Any = setup.new_match()
    steps = [_snapshot(state, 0, 0, None)]
    for index, deal in enumerate(record["deals"]):
        state.deal(shuffled(setup.seed, index, setup.spec.deck()))
        steps.append(_snapshot(state, len(steps), index + 1, None))
        for m, move in enumerate(deal["moves"]):
            state.apply(move["seat"], move["move"])
            steps.append(_snapshot(state, len(steps), index + 1, m))
    walked = [(s.deal, s.move) for s in walk(record)]
    mine = [(e.deal, e.move) for e in steps[1:]]
    assert walked == mine, "the expectations' steps are not the replay's"
    return steps


def _snapshot(state: Any, step: int, deal: int, move: int | None) -> Expected:
    game = type(state).__name__
    held = [frozenset(c.text for c in hand) for hand in state.hands]
    n = len(held)
    passed = [frozenset(texts(state.passes.get(s, 0))) if game == "PeppaMatch" and state.phase in ("pass", "play")
              else frozenset() for s in range(n)]
    unseen = _unseen(state, game)
    hidden = tuple(frozenset().union(*(held[o] for o in range(n) if o != s)) - passed[s] | unseen for s in range(n))
    counts = tuple(len(h) for h in held)
    set_aside: frozenset[str] = frozenset()
    if game == "PeppaMatch" and state.phase == "pass":
        set_aside = frozenset().union(*passed)
        held = [h - p for h, p in zip(held, passed)]
    hands = tuple(sort_tokens(h) for h in held)
    totals = _totals(state)
    if game == "SeepMatch":
        houses = tuple(
            House(v, h.cemented, tuple(sorted(h.owners)), sort_tokens(c.text for c in h.cards))
            for v, h in sorted(state.houses.items())
        )
        return Expected(step, deal, move, hands, (), totals, sort_tokens(c.text for c in state.loose), houses,
                        held=counts, hidden=hidden)
    trick: tuple[tuple[int, str], ...] = ()
    if state.phase == "play":
        trick = tuple((seat, TEXTS[index]) for seat, index in state.tricks.trick)
    contract = auction = None
    if game == "PepperMatch" and state.phase == "play":
        contract = (state.declarer, state.contract, state.trump or "NT")
    if game == "PepperMatch" and state.phase in ("bid", "trump"):
        auction = tuple(state.bids)
    return Expected(step, deal, move, hands, trick, totals, contract=contract, auction=auction,
                    passed=tuple(sort_tokens(p) for p in passed) if any(passed) else (),
                    set_aside=sort_tokens(set_aside), held=counts, hidden=hidden)


def _unseen(state: Any, game: str) -> frozenset[str]:
    """The cards no seat may see at this step: Pepper's dead hand (two players), and in Seep
    the packets still to be dealt and the floor while it lies face down for the bid."""
    if game == "PepperMatch":
        return frozenset(c.text for c in state.dead)
    if game != "SeepMatch" or state.phase == "deal":
        return frozenset()
    later = frozenset(c.text for packets in state._later for cards in packets.values() for c in cards)
    if state.phase == "bid":
        later |= frozenset(c.text for c in state._floor_dealt) - frozenset(c.text for c in state.loose)
    return later


def _totals(state: Any) -> tuple[int, ...]:
    """The running totals the game keeps (per seat, or per side given to each of its seats),
    checked against the last deal score's."""
    seat_totals = getattr(state, "seat_totals", None)
    totals = tuple(seat_totals()) if callable(seat_totals) else tuple(state.totals)
    scores = state.deal_scores
    assert totals == (tuple(scores[-1].totals) if scores else (0,) * state.num_players)
    return totals
