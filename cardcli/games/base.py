"""What every game engine offers the referee, the records and the CLI.

A game is a pure state machine over a whole match (all its deals), in the spirit of
OpenSpiel's ``State``: whose decision it is (several seats at once for a simultaneous
decision), the legal moves of each as canonical text tokens, applying a move (refused with a
typed error, never half-applied), events with their audience, per-deal scores and the final
outcome. Chance is explicit: when :meth:`MatchState.needs_deal` is true the caller supplies the
shuffled deck, so the rules never touch a random generator and a record is just
"game + options + seed + moves".

States are mutable objects rather than frozen values: a match applies hundreds of moves and
copying a state per move would cost more than the rules themselves. Everything that crosses a
layer boundary (events, decisions, scores, outcomes, options) is a frozen value. A search that
needs a state to explore from asks for :meth:`MatchState.clone`, which copies only what moves
change.
"""

from __future__ import annotations

import importlib
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, Protocol, Self, Sequence, TypeVar

import attrs

from ..cards import Card
from ..errors import OptionError

if TYPE_CHECKING:  # the parts' types, which belong to the layers that use them
    from ..envs.encoding import GameEncoding
    from ..players.heuristic import Strategy
    from ..players.search.hooks import SearchHooks
    from .view import SeatView


@attrs.frozen(init=False)
class Event:
    """Something that happened, and who may know it.

    ``audience`` is None for a public event, else the seats that may see it. ``kind`` and
    ``args`` are the wire line (``play 2 QS``), so the referee routes events without knowing
    any game.

    Engines make a few events on every move, so ``__init__`` is written by hand: it fills the
    slots through their descriptors (:func:`_slot_setter`), a fifth cheaper than the frozen
    ``__init__`` attrs would write, which goes through ``object.__setattr__`` field by field.
    """

    kind: str
    args: tuple[str, ...] = ()
    audience: frozenset[int] | None = None

    def __init__(self, kind: str, args: tuple[str, ...] = (), audience: frozenset[int] | None = None) -> None:
        _set_kind(self, kind)
        _set_args(self, args)
        _set_audience(self, audience)

    def visible_to(self, seat: int) -> bool:
        return self.audience is None or seat in self.audience

    def line(self) -> str:
        return " ".join((self.kind, *self.args))


@attrs.frozen(init=False)
class Decision:
    """An open decision: ``seat`` must choose one of ``moves`` for a ``kind`` of decision.
    Made on every move, with a hand-written ``__init__`` as :class:`Event` has."""

    seat: int
    kind: str
    moves: Sequence[str]
    """A tuple, or a sequence that makes its items as they are read (Peppa's 286 passes are
    one object, not 286 strings made at every pass)."""

    def __init__(self, seat: int, kind: str, moves: Sequence[str]) -> None:
        _set_seat(self, seat)
        _set_decision_kind(self, kind)
        _set_moves(self, moves)


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of a slotted attrs class's field, which sets it even on a frozen instance:
    only the hand-written ``__init__`` of a frozen class may call it."""
    setter: Callable[[Any, Any], None] = cls.__dict__[name].__set__
    return setter


_set_kind, _set_args, _set_audience = (_slot_setter(Event, name) for name in ("kind", "args", "audience"))
_set_seat, _set_decision_kind, _set_moves = (_slot_setter(Decision, name) for name in ("seat", "kind", "moves"))


@attrs.frozen
class DealScore:
    """One finished deal: points scored in it, running totals after it, and notes (cappotto...)."""

    number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    notes: tuple[str, ...] = ()


@attrs.frozen
class Outcome:
    """The end of a match: final scores and who won, lost or drew (seat numbers)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    draws: tuple[int, ...] = ()
    forfeits: tuple[int, ...] = ()
    lower_is_better: bool = False
    annulled: bool = False
    """The match ended with no result for anybody (Il Pigugnìn's annulled match)."""

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of a record."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "losers": list(self.losers),
            "draws": list(self.draws),
            "forfeits": list(self.forfeits),
            "annulled": self.annulled,
        }

    def standing(self, seat: int) -> str:
        if self.annulled:
            return "annulled"
        if seat in self.winners:
            return "win"
        if seat in self.losers:
            return "lose"
        return "draw"


class MatchState(Protocol):
    """The live state of one match. Implemented once per game."""

    num_players: int
    dealer: int
    """The dealer of the current (or next) deal."""

    def needs_deal(self) -> bool:
        """True when the next step is chance: the caller must call :meth:`deal`."""

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Start the next deal from a shuffled deck."""

    def decisions(self) -> tuple[Decision, ...]:
        """The decisions open now: one seat, or several for a simultaneous decision."""

    def apply(self, seat: int, move: str) -> list[Event]:
        """Apply ``move`` for ``seat``; raise IllegalMoveError/InvalidMoveError and change nothing."""

    def acting(self) -> tuple[tuple[int, str], ...]:
        """(seat, kind) of each open decision, without listing the moves."""

    def apply_quietly(self, seat: int, move: str) -> None:
        """:meth:`apply` without the events: what ``verify`` needs, at less cost."""

    def is_over(self) -> bool: ...

    @property
    def deal_number(self) -> int:
        """How many deals have started (1 during the first deal)."""

    @property
    def deal_scores(self) -> tuple[DealScore, ...]: ...

    def deal_facts(self) -> dict[str, Any]:
        """What the current deal dealt, as JSON values for the record: at least ``hands``
        (each seat's cards as dealt, before any pass), plus what else the game deals (a floor,
        a dead hand). ``verify`` recomputes these from the seed and compares them."""

    def outcome(self, forfeits: frozenset[int] = frozenset()) -> Outcome:
        """The result; forfeited seats rank last whatever their score."""

    def adjudicate(self) -> None:
        """End the match now, between deals, by the standings the totals give: the referee's
        deal limit, for matches that would otherwise not end (random bidders in Pepper drift
        below zero for ever; a Peppa boundary tie can be played on without end)."""

    def clone(self) -> Self:
        """An independent copy of this state: moves applied to either leave the other as it
        was, and the copy plays on exactly as the original (or a ``copy.deepcopy`` of it)
        would. It copies only the containers that moves change and shares every immutable
        value (options, cards, rankings, finished deal scores), so it costs a small fraction
        of ``copy.deepcopy``, which would walk and copy all of them: what a search that copies
        a state per simulation needs."""


T = TypeVar("T")


def shallow_copy(obj: T) -> T:
    """A new object of ``obj``'s class whose attributes are ``obj``'s own values, shared: the
    first step of a clone, which then gives the copy fresh containers for what moves change.
    Copying the attribute dictionary skips ``copy.copy``'s ``__reduce_ex__`` round, which
    costs several times more for these plain objects."""
    twin = object.__new__(type(obj))
    twin.__dict__ = obj.__dict__.copy()
    return twin


class PhaseBase(StrEnum):
    """Where a match stands: each game's ``Phase`` extends it with its own members. The values
    are the texts :class:`MatchBase` compares with (``deal`` when chance is due, ``over`` at the
    end); a game's rules compare with module constants bound to the members, by identity (an
    enum's class attribute costs an engine's inner loop more than a module global)."""


class MatchBase:
    """The bookkeeping every game shares: its phase, how many deals started, the deal scores.

    A game sets ``phase`` to ``"deal"`` when chance is due and to ``"over"`` at the end, bumps
    ``_deals_started`` in ``deal()`` and appends to ``_scores`` when a deal is scored.
    """

    phase = "deal"

    def __init__(self) -> None:
        self._deals_started = 0
        self._scores: list[DealScore] = []

    def needs_deal(self) -> bool:
        return self.phase == "deal"

    def is_over(self) -> bool:
        return self.phase == "over"

    def acting(self) -> tuple[tuple[int, str], ...]:
        """The seats whose decision is open and its kind, without listing the moves: what
        ``verify`` needs to check a recorded move's turn, at a fraction of the cost. Games
        override it when listing their moves is expensive."""
        return tuple((d.seat, d.kind) for d in self.decisions())  # type: ignore[attr-defined]

    def apply_quietly(self, seat: int, move: str) -> None:
        """Apply a move without keeping its events: ``verify`` checks moves, not what each seat
        was told. Games override it when building the events costs much of a move."""
        self.apply(seat, move)  # type: ignore[attr-defined]

    def _twin(self) -> Self:
        """A shallow copy with its own list of deal scores (the scores themselves are frozen
        and shared): where every game's :meth:`MatchState.clone` starts."""
        twin = shallow_copy(self)
        twin._scores = list(self._scores)
        return twin

    @property
    def deal_number(self) -> int:
        return self._deals_started

    @property
    def deal_scores(self) -> tuple[DealScore, ...]:
        return tuple(self._scores)


def first_dealer(options: Any, num_players: int, drawn: int) -> int:
    """The first dealer: drawn from the seed, unless the ``first_dealer`` option names a seat
    (checked against the player count here, since the option's choices cannot know it)."""
    if options.first_dealer == "random":
        return drawn
    seat = int(options.first_dealer)
    if seat >= num_players:
        raise OptionError(f"first_dealer {seat}: there are only {num_players} seats")
    return seat


@attrs.frozen
class Variant:
    name: str
    description: str
    defaults: Any = attrs.field(factory=dict)


P = TypeVar("P")


@attrs.frozen
class Part(Generic[P]):
    """A part of a game that only some commands use (its heuristic player, its search hooks,
    its learning encoding), named ``module:attribute`` and imported when it is first asked
    for: a match of random players imports no heuristic, and a game's spec stays cheap to
    import (start-up is most of a short command's cost). A game outside cardcli names its
    parts the same way, from its own package."""

    path: str

    def load(self) -> P:
        module, _, name = self.path.partition(":")
        return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


@attrs.frozen
class GameSpec:
    """A registered game: its names, player counts, variants and option class, a factory, and
    the parts that the players, the environments and the viewer use.

    Everything cardcli knows of a game it learns here: nothing outside a game's folder keys a
    table or a test by the game's name, so a game is added (in cardcli, or from another
    package through the ``cardcli.games`` entry point) by writing its folder and its spec.
    """

    name: str
    title: str
    summary: str
    player_counts: tuple[int, ...]
    variants: tuple[Variant, ...]
    options_class: type
    deck: Callable[[], tuple[Card, ...]]
    new_match: Callable[[Any, int, int], MatchState]
    """``new_match(options, num_players, first_dealer)``."""
    first_dealer: Callable[[Any, int, int], int]
    """``first_dealer(options, num_players, drawn)``: the options may fix the first dealer;
    ``drawn`` is the seat drawn at random from the seed."""
    decision_kinds: tuple[str, ...] = ("play",)
    """Every kind of request the game makes (``check-bot`` asks a bot each of them)."""
    decision_notes: Mapping[str, str] = attrs.field(factory=dict)
    """For a kind of request that only some play brings about: when it is asked. ``check-bot``
    says it of a bot never asked that kind, where "try another seed" would not help."""
    lower_is_better: bool = False
    """True for penalty games (Peppa, Il Pigugnìn), where the lowest total is best."""
    teams: Callable[[int], tuple[tuple[int, ...], ...]] = lambda num_players: ()
    """``teams(num_players)``: the partnerships, or ``()`` when everyone plays alone."""
    play_order: Callable[[Any], str] = lambda options: "cw"
    """``play_order(options)``: ``cw`` or ``ccw``, the direction of play the header announces."""
    renderer: Callable[[Sequence[str]], Any] | None = None
    """``renderer(names)`` gives an object whose ``feed(event)`` returns lines for people."""
    heuristic: "Part[type[Strategy]] | None" = None
    """The heuristic player's strategy; None: the heuristic plays the first offered move."""
    search: "Part[SearchHooks] | None" = None
    """The search player's hooks; None: the search player leaves every decision to the
    heuristic."""
    encoding: "Part[GameEncoding] | None" = None
    """The learning environments' encoding; None: the game has no environment."""
    view: "Part[type[SeatView]] | None" = None
    """The view of one seat, built from its protocol lines alone (the human seat shows it);
    None: the trick games' generic view."""
    viewer: str | None = None
    """The game's part of the HTML viewer, a script in the game's package as
    ``package:file.js`` (its drawing hooks, registered with the viewer's core); None: the
    viewer draws the game with its generic table only."""
    viewer_style: str | None = None
    """The style of what the game's script draws, a stylesheet in the game's package as
    ``package:file.css``, added to the page's style after the core's; None: the core's style
    only."""

    @property
    def default_variant(self) -> Variant:
        return self.variants[0]

    def variant(self, name: str) -> Variant | None:
        return next((v for v in self.variants if v.name == name), None)
