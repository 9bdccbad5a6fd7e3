"""Rebuilding a match from its record through the rules engine, checking it as it goes.

``verify`` and ``replay`` share this one walk: every deal is recomputed from the seed and
compared with the recorded hands, every move is checked against the decision that was open and
applied through the engine, and every deal score and the result are compared with the record.
The first difference stops the walk with a :class:`VerificationError` that names the deal and
move.

Faults are checked against the moves as well (:func:`fault_points`, :func:`_check_fallback`):
a fault's seat plays on through the referee's fallback player, which is seeded from the match,
so its moves are known exactly; a forged fault, an erased one whose fallback marks remain, or
fallback moves swapped for other legal ones all show.
"""

from __future__ import annotations

from typing import Any, Generator, TypeVar

import attrs

from .records import shape as record_shape
from .records.model import Deal, Move, Record
from .errors import MoveError, UsageError, VerificationError
from .games import registry
from .games.base import Event, MatchState, Outcome
from .games.driver import Driver, Next
from .records.io import OnFault
from .safe_text import printable
from .seats.base import Request, Seat
from .seats.builtin import fallback_player


@attrs.frozen
class Step:
    """One step of a replayed match: a deal or a move, with the events it produced."""

    deal: int
    move: int | None
    """Index of the move in the deal, or None for the deal itself."""
    events: tuple[Event, ...]
    dealt: Deal
    """The deal as recorded (typed): the walk has built the model, so a reader of the steps
    needs no dict."""
    played: Move | None
    """The move as recorded, or None for the deal itself."""


STOPPED = (record_shape.Status.ABORTED, record_shape.Status.INTERRUPTED)
"""The statuses of a match that stopped before its end: by the fault policy, or by Ctrl-C or
SIGTERM. Their last deal may be unfinished, and they have no result."""


@attrs.frozen
class Replayed:
    """The end of a walk: the rebuilt state and its outcome (None for a match that stopped
    before its end)."""

    state: MatchState
    outcome: Outcome | None
    record: Record
    """The record walked, as typed values."""


def model_of(record: dict[str, Any], where: str = "record") -> Record:
    """The record as typed values, once its shape is checked: what the walk reads. A reader that
    shows the match before walking it builds it here and hands it to :func:`walk`, so that it is
    built (and the shape checked) once. Raises VerificationError, with ``where`` in its message,
    for a malformed record."""
    malformed = record_shape.problem(record)
    if malformed is None:
        try:
            return Record.from_json(record)
        except TypeError as err:  # a format field missing from a record handed over directly
            malformed = str(err)
    # the message quotes the record: escaped, as every message of the walk (see walk's fail)
    raise VerificationError(printable(f"{where}: malformed record: {malformed}"))


def walk(record: dict[str, Any], where: str = "record", quiet: bool = False,
         read: Record | None = None) -> Generator[Step, None, Replayed]:
    """Yield each step of the match; after the last, the generator returns a :class:`Replayed`.

    With ``quiet`` the moves are checked and applied without their events and only the deals
    are yielded: what ``verify`` needs, at a fraction of the cost. Raises VerificationError
    (with ``where`` in its message) at the first difference. ``read`` is ``record`` as
    :func:`model_of` gives it, when the caller has it already: it is then not made again.
    """

    def fail(text: str, deal: int | None = None, move: int | None = None) -> VerificationError:
        at = where
        if deal is not None:
            at += f", deal {deal}"
        if move is not None:
            at += f", move {move + 1}"
        # the message quotes the record, which anybody may have written: `verify` and
        # `replay` print it, so it is escaped here, once, for both
        return VerificationError(printable(f"{at}: {text}"))

    if read is None:
        read = model_of(record, where)
    try:
        setup = registry.resolve(read.game, read.variant, read.options, read.players, read.seed)
        first = setup.first_dealer
        state = setup.new_match()  # checks the options that depend on the player count
    except UsageError as err:
        raise fail(str(err)) from None
    deals = read.deals
    status = read.status
    points = fault_points(read, fail)
    fallbacks: dict[int, Seat] = {}
    if read.first_dealer != first:
        raise fail(f"first dealer {read.first_dealer} is not the seed's {first}")
    driver = Driver(setup, read.settings.max_deals)
    for index, (deal, written) in enumerate(zip(deals, record["deals"])):
        number = index + 1
        due = driver.next(state)
        if due is Next.OVER:
            raise fail("the record goes on after the match ended", number)
        if due is Next.DECIDE:
            raise fail("the record starts a new deal before the previous one ended", number)
        if due is Next.ADJUDICATE:
            raise fail(f"the record deals past its deal limit ({driver.max_deals})", number)
        try:
            events = driver.deal(state)
            facts = state.deal_facts()
            if deal.number != number:
                raise fail(f"deal numbered {deal.number!r}, expected {number}", number)
            if deal.dealer != state.dealer:
                raise fail(f"dealer {deal.dealer!r}, but the rules make seat {state.dealer} deal", number)
            for key, value in facts.items():  # what is dealt is the game's to say: read as written
                if written.get(key) != value:
                    raise fail(f"the dealt {key} are not the ones the seed deals", number)
            yield Step(number, None, tuple(events), deal, None)
            if quiet:
                # the moves as written (their shape checked): the model's are not made at all
                for m, written_move in enumerate(written["moves"]):
                    seat, kind, text, by = (written_move["seat"], written_move["kind"], written_move["move"],
                                            written_move.get("by", "seat"))
                    if points or by != "seat":
                        _check_fallback(state, Move.from_json(written_move), points, fallbacks, setup.seed, fail,
                                        number, m)
                    _apply(state, seat, kind, text, fail, number, m, quiet)
            else:
                for m, move in enumerate(deal.moves):
                    seat, kind, text, by = move.played()
                    if points or by != "seat":
                        _check_fallback(state, move, points, fallbacks, setup.seed, fail, number, m)
                    yield Step(number, m, tuple(_apply(state, seat, kind, text, fail, number, m)), deal, move)
        except (KeyError, TypeError, AttributeError) as err:
            raise fail(f"a field is missing or malformed ({err})", number) from None
        scores = state.deal_scores
        last = index == len(deals) - 1
        if len(scores) < number:
            if last and status in STOPPED:
                break
            raise fail("the deal ends before all its moves were played", number)
        if last and status == record_shape.Status.INTERRUPTED and deal.points is None:
            break  # stopped after the deal's last move, before the referee wrote its score
        got = scores[number - 1]
        if (deal.points, deal.totals) != (tuple(got.points), tuple(got.totals)):
            raise fail(
                f"recorded points {listed(deal.points)} / totals {listed(deal.totals)}, "
                f"the rules give {list(got.points)} / {list(got.totals)}",
                number,
            )
        if deal.notes != tuple(got.notes):
            raise fail(f"recorded notes {list(deal.notes)}, the rules give {list(got.notes)}", number)
    return _finish(read, state, driver, fail)


_Item = TypeVar("_Item")


def listed(values: tuple[_Item, ...] | None) -> list[_Item] | None:
    """A list of the model's (points, totals, notes) as the record writes it: for a message,
    which shows it as the record does, and for JSON that readers compare with the record's
    lists."""
    return None if values is None else list(values)


def fault_points(record: Record, fail: Any) -> dict[int, tuple[int, int]]:
    """Seat → (deal, move index) of its fault, from which the fallback player makes its moves,
    after checking that the faults fit the record as the referee writes them:

    - a fault lies where the record goes (deal 0, move 0 is before the first deal: the start);
    - an aborted match has a fault, and every fault of it is where the record stops (the
      referee stops at the fault; several bots may fail to start at once);
    - in a complete match a seat faults at most once (its fallback player never faults), and a
      fault in a deal is at the very move the fallback player then made for that seat;
    - the fault policy recorded in the settings is the one the record follows.

    The moves themselves are checked by :func:`_check_fallback` as the walk reaches them.
    """
    deals = record.deals
    status = record.status
    on_fault = record.settings.on_fault
    end = (len(deals), len(deals[-1].moves)) if deals else (0, 0)
    points: dict[int, tuple[int, int]] = {}
    for n, fault in enumerate(record.faults, start=1):
        seat, deal, move = fault.seat, fault.deal, fault.move
        at = f"fault {n} (seat {seat}, deal {deal}, move {move + 1})"
        if deal > len(deals) or (deal == 0 and move != 0) or (deal > 0 and move > len(deals[deal - 1].moves)):
            raise fail(f"{at} is at a place the record never reaches")
        if status == record_shape.Status.ABORTED:
            if (deal, move) != end:
                raise fail(f"{at} is not where the aborted match stops")
            continue
        if seat in points:
            raise fail(f"{at}: seat {seat} faulted already; after a fault the fallback player makes its moves")
        if status == record_shape.Status.INTERRUPTED and (deal, move) == end:
            continue  # stopped at the fault, before the fallback player's move
        if deal > 0:
            moves = deals[deal - 1].moves
            if move == len(moves) or moves[move].seat != seat:
                raise fail(f"{at}: the fallback player must make seat {seat}'s move right there, "
                           "and the record has no such move")
        points[seat] = (deal, move)
    if status == record_shape.Status.ABORTED:
        if not record.faults:
            raise fail("the match is aborted, but no fault stopped it")
        if on_fault is not None and on_fault != OnFault.ABORT:
            raise fail(f"the match is aborted, but its fault policy is {on_fault!r}")
    elif points and on_fault == OnFault.ABORT:
        raise fail("a fault under the fault policy 'abort', yet the match went on")
    return points


def _check_fallback(
    state: MatchState, move: Move, points: dict[int, tuple[int, int]], players: dict[int, Seat],
    seed: int, fail: Any, deal: int, m: int,
) -> None:
    """A move is marked ``"by": "fallback"`` exactly when its seat has faulted at or before it,
    and a fallback move is the one the seeded fallback player chooses from the moves the rules
    offer (it is asked once per move of its seat, as the referee asks it)."""
    seat = move.seat
    point = points.get(seat)
    due = point is not None and (deal, m) >= point
    marked = move.fallback
    if marked and not due:
        raise fail(f"the move is marked as the fallback player's, but seat {seat} has "
                   f"{'not faulted yet' if point is not None else 'no fault'}", deal, m)
    if not due:
        return
    assert point is not None
    if not marked:
        raise fail(f"seat {seat} faulted (deal {point[0]}, move {point[1] + 1}), so its moves from there on are "
                   "the fallback player's, but this one is not marked so", deal, m)
    decision = next((d for d in state.decisions() if d.seat == seat), None)
    if decision is None:
        return  # not the seat's turn: _apply says so
    player = players.get(seat)
    if player is None:
        player = players[seat] = fallback_player(seed, seat)
    player.ask(Request(decision.kind, decision.moves, 1))
    answer = player.poll()
    chosen = answer.move if answer is not None else None
    if chosen != move.move:
        raise fail(f"seat {seat}'s fallback move is {move.move!r}, but the fallback player, seeded from the "
                   f"match, chooses {chosen!r}", deal, m)


def _apply(
    state: MatchState, seat: int, kind: str, text: str, fail: Any, deal: int, m: int, quiet: bool = False
) -> list[Event]:
    if (seat, kind) not in state.acting():
        open_ = dict(state.acting())
        if seat not in open_:
            raise fail(f"seat {seat} moves, but the decision is with seat(s) {sorted(open_)}", deal, m)
        raise fail(f"a {kind!r} move where a {open_[seat]!r} is due", deal, m)
    try:
        if quiet:
            state.apply_quietly(seat, text)
            return []
        return state.apply(seat, text)
    except MoveError as err:
        raise fail(f"illegal move {text!r} by seat {seat}: {err}", deal, m) from None


def _finish(record: Record, state: MatchState, driver: Driver, fail: Any) -> Replayed:
    status = record.status
    if status in STOPPED:
        if record.result is not None:
            raise fail(f"an {status} match has a result")
        return Replayed(state, None, record)
    if status != record_shape.Status.COMPLETE:
        raise fail(f"unknown status {status!r}")
    if record.adjudicated:
        if driver.next(state) is not Next.ADJUDICATE:
            raise fail(f"adjudicated, but the match did not stop at its deal limit ({driver.max_deals})")
        state.adjudicate()
    if not state.is_over():
        raise fail("the record ends before the match does")
    result = record.result.to_json() if record.result is not None else {}
    forfeits = frozenset(record.result.forfeits if record.result is not None else ())
    faulty = {f.seat for f in record.faults}
    if forfeits != faulty:
        raise fail(f"forfeits {sorted(forfeits)} do not match the faulty seats {sorted(faulty)}")
    outcome = state.outcome(forfeits)
    expected = outcome.to_json()
    if result != expected:
        raise fail(f"recorded result {result}, the rules give {expected}")
    return Replayed(state, outcome, record)


def verify(record: dict[str, Any], where: str = "record") -> Replayed:
    """Walk a whole record; return the rebuilt match or raise VerificationError."""
    steps = walk(record, where, quiet=True)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value
