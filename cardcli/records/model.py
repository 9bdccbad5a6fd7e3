"""The record as typed values: frozen classes for a record and its parts, built from a record
that passed the shape check (:func:`cardcli.records.shape.problem`).

``docs/records.md`` documents every field. Each class names the fields of one JSON object of
the format (the record, a seat, a deal, a move, a fault, the result, ...) with their types;
``tests/test_record_model.py`` checks them against the JSON Schema (``docs/record.schema.json``)
both ways, so neither can drift from the other.

``from_json`` takes a checked record's object and ``to_json`` gives back an equal object with
its keys in the same order: which optional keys were there (``present``) and any key this
version of cardcli does not know (``extra``, as records are open) are kept, so a record read
and written again is the same bytes. Lists become tuples and go back to lists; a record's
``options`` and a seat's ``network`` are kept as read.

Building the model costs about a microsecond per move (a move is one small object, see
:class:`Move`): the verification walk
(:func:`cardcli.replay.walk`) builds it once per record, and another reader asks for it
(:func:`cardcli.records.io.read_models`, :attr:`cardcli.records.io.Loaded.model`) only where it
uses it.
"""

from __future__ import annotations

import types
from typing import Any, Callable, ClassVar, Iterator, Mapping, Sequence, TypeVar, cast, overload

import attrs

_Part = TypeVar("_Part", bound="_Object")


def _same(value: Any) -> Any:
    return value


def _ints(value: list[int]) -> tuple[int, ...]:
    return tuple(value)


def _texts(value: list[str]) -> tuple[str, ...]:
    return tuple(value)


def _hands(value: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(hand) for hand in value)


def _optional_ints(value: list[int] | None) -> tuple[int, ...] | None:
    return None if value is None else tuple(value)


def _optional_texts(value: list[str] | None) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def _dump_value(value: Any) -> Any:
    """A model value as JSON: a part by its ``to_json``, a tuple as a list (deeply)."""
    if isinstance(value, (_Object, Move, Moves)):
        return value.to_json()
    if isinstance(value, tuple):
        return [_dump_value(v) for v in value]
    return value


@attrs.frozen
class _Object:
    """What every class of the model shares: reading and writing its JSON object, with the
    keys in the order they were read and the keys the class does not know kept aside."""

    present: tuple[str, ...] = attrs.field(default=(), kw_only=True, repr=False, eq=False)
    """The keys of the object read, in their order."""
    extra: Mapping[str, Any] = attrs.field(factory=dict, kw_only=True, repr=False, eq=False)
    """The keys this version of cardcli does not know, with their values as read."""

    @classmethod
    def from_json(cls: type[_Part], data: Mapping[str, Any]) -> _Part:
        """The object ``data`` (of a record that passed the shape check) as this class."""
        known = _fields(cls)
        values: dict[str, Any] = {}
        for name, field in known.items():
            if name in data:
                values[name] = field.metadata["load"](data[name])
        values["present"] = tuple(data)
        values["extra"] = {key: value for key, value in data.items() if key not in known}
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """The JSON object this was read from (or one made the same way): the keys in the order
        they were read, the ones the model does not know included."""
        known = _fields(type(self))
        out: dict[str, Any] = {}
        for key in self.present:
            if key in known:
                out[key] = known[key].metadata["dump"](getattr(self, key))
            else:
                out[key] = self.extra[key]
        return out


_FIELDS: dict[type[_Object], dict[str, Any]] = {}


def _fields(cls: type[_Object]) -> dict[str, Any]:
    """The fields of a class of the model that are keys of its JSON object, by name."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = {f.name: f for f in attrs.fields(cast(Any, cls)) if "load" in f.metadata}
    return found


def _field(load: Callable[[Any], Any] = _same, dump: Callable[[Any], Any] | None = None, **kwargs: Any) -> Any:
    """A field read from the JSON object's key of the same name, converted by ``load`` (and
    written back by ``dump``, by default a part by its ``to_json`` and a tuple as a list)."""
    return attrs.field(metadata={"load": load, "dump": dump or _dump_value}, **kwargs)


def _part(kind: type[_Part]) -> Callable[[Any], _Part]:
    return kind.from_json


def _parts(kind: type[_Part]) -> Callable[[Any], tuple[_Part, ...]]:
    def load(values: list[Mapping[str, Any]]) -> tuple[_Part, ...]:
        return tuple(kind.from_json(v) for v in values)
    return load


def _optional_part(kind: type[_Part]) -> Callable[[Any], _Part | None]:
    def load(value: Mapping[str, Any] | None) -> _Part | None:
        return None if value is None else kind.from_json(value)
    return load


class Move:
    """One move of a deal: a read-only view of a copy of its JSON object.

    Not an attrs class like the others, for speed: a long record holds 14,000 moves and the
    verification walk reads each. A class with a field per key made three objects per move,
    and the garbage collector's passes over them made ``cardcli verify`` a third slower than
    reading the dicts; one small object holding a copy costs a third of that
    (``docs/performance.md``). It keeps the others' contract: ``from_json``, ``to_json`` with
    the keys in their order, ``present`` and ``extra``, equality by the known fields."""

    __slots__ = ("_data",)
    _data: dict[str, Any]

    DEFAULTS: ClassVar[Mapping[str, Any]] = types.MappingProxyType({"by": "seat", "bank_ms": None})
    """The keys a move may leave out, with the value that stands for each."""
    KEYS: ClassVar[tuple[str, ...]] = ("seat", "kind", "move", "ms", "by", "bank_ms")
    """Every key the model knows, in the order cardcli writes them."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        """The move ``data`` (of a record that passed the shape check), copied."""
        move = _new(cls)
        _set(move, "_data", dict(data))
        return move

    def to_json(self) -> dict[str, Any]:
        return dict(self._data)

    @property
    def seat(self) -> int:
        return cast(int, self._data["seat"])

    @property
    def kind(self) -> str:
        return cast(str, self._data["kind"])

    @property
    def move(self) -> str:
        """The wire token exactly as the bot sent it."""
        return cast(str, self._data["move"])

    @property
    def ms(self) -> float:
        """The time charged, in milliseconds."""
        return cast(float, self._data["ms"])

    @property
    def by(self) -> str:
        """``seat``, or ``fallback`` for the referee's random player after the seat's fault."""
        return cast(str, self._data.get("by", "seat"))

    @property
    def bank_ms(self) -> float | None:
        """What was left of the seat's time bank after the move; None without a time bank."""
        return cast("float | None", self._data.get("bank_ms"))

    @property
    def fallback(self) -> bool:
        return self.by == "fallback"

    def played(self) -> tuple[int, str, str, str]:
        """The seat, kind, token and ``by`` at once: one call where the verification walk's
        loop would make four."""
        data = self._data
        return data["seat"], data["kind"], data["move"], data.get("by", "seat")

    @property
    def present(self) -> tuple[str, ...]:
        """The keys of the object read, in their order."""
        return tuple(self._data)

    @property
    def extra(self) -> Mapping[str, Any]:
        """The keys this version of cardcli does not know, with their values as read."""
        return {key: value for key, value in self._data.items() if key not in _MOVE_KEYS}

    def _known(self) -> tuple[Any, ...]:
        return (self.seat, self.kind, self.move, self.ms, self.by, self.bank_ms)

    def __eq__(self, other: object) -> bool:
        return self._known() == other._known() if isinstance(other, Move) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._known())

    def __setattr__(self, name: str, value: Any) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __repr__(self) -> str:
        return "Move(" + ", ".join(f"{key}={value!r}" for key, value in zip(self.KEYS, self._known())) + ")"


class Moves(Sequence[Move]):
    """A deal's moves, made into :class:`Move` values when first asked for (then kept).

    ``cardcli verify`` walks a record's moves from the record it was given and never asks the
    model for them, so a long record's 14,000 moves are not made at all there; everything else
    that reads the moves (a replay, the protocol replay, a tournament's time table) makes them
    once. The moves are read from the objects of the record the model was built from: a record
    is not changed once its model is built (nothing in cardcli does)."""

    __slots__ = ("_raw", "_made")

    def __init__(self, raw: Sequence[Any]):
        self._raw = list(raw)
        self._made: tuple[Move, ...] | None = None

    def _all(self) -> tuple[Move, ...]:
        if self._made is None:
            self._made = tuple(m if isinstance(m, Move) else Move.from_json(m) for m in self._raw)
        return self._made

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> Moves: ...

    def __getitem__(self, index: int | slice) -> Move | Moves:
        if isinstance(index, slice):
            return Moves(self._all()[index])
        return self._all()[index]

    def __iter__(self) -> Iterator[Move]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Moves, tuple)):
            return self._all() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return f"Moves({list(self._all())!r})"

    def to_json(self) -> list[dict[str, Any]]:
        return [move.to_json() for move in self._all()]


def _moves(values: list[Mapping[str, Any]]) -> Moves:
    return Moves(values)


def _as_moves(value: Sequence[Any]) -> Moves:
    """A deal's moves as given to the class (a slice of another deal's, a list of moves)."""
    return value if isinstance(value, Moves) else Moves(value)


_new = object.__new__
_set = object.__setattr__
_MOVE_KEYS = frozenset(Move.KEYS)


@attrs.frozen
class Deal(_Object):
    """One deal: what was dealt, its moves in order, its score."""

    number: int = _field()
    dealer: int = _field()
    moves: Sequence[Move] = _field(_moves, converter=_as_moves)
    hands: tuple[tuple[str, ...], ...] = _field(_hands, default=())
    floor: tuple[str, ...] | None = _field(_optional_texts, default=None)
    """Seep's four floor cards; None in the other games."""
    dead: tuple[str, ...] | None = _field(_optional_texts, default=None)
    points: tuple[int, ...] | None = _field(_optional_ints, default=None)
    totals: tuple[int, ...] | None = _field(_optional_ints, default=None)
    notes: tuple[str, ...] = _field(_texts, default=())

    @property
    def finished(self) -> bool:
        """Whether the deal was played to its end (it has its totals)."""
        return self.totals is not None


@attrs.frozen
class Fault(_Object):
    """A seat's fault: where it was due (``deal`` 0 before the first deal, ``move`` counted from
    0 in that deal's moves), of which kind, and the detail."""

    seat: int = _field()
    kind: str = _field()
    detail: str = _field()
    deal: int = _field()
    move: int = _field()


@attrs.frozen
class Bot(_Object):
    """What a bot said of itself in its handshake."""

    name: str | None = _field(default=None)
    author: str | None = _field(default=None)
    version: str | None = _field(default=None)
    options: tuple[tuple[str, str], ...] = _field(_hands, default=())
    """The options it declared, as [name, value] pairs."""


@attrs.frozen
class SetOption(_Object):
    """An option the organiser set for a seat, and whether the bot was sent it."""

    name: str = _field()
    value: str = _field()
    sent: bool = _field()


@attrs.frozen
class Seat(_Object):
    """One seat: who sat there and how it ran."""

    name: str = _field()
    seat: int | None = _field(default=None)
    """Its place in the record's seats, when written (the shape check makes it so)."""
    spec: str = _field(default="")
    kind: str = _field(default="")
    command: tuple[str, ...] | None = _field(_optional_texts, default=None)
    ignored_lines: int = _field(default=0)
    sandbox: str | None = _field(default=None)
    network: Mapping[str, Any] | None = _field(default=None)
    """A remote seat's connection, as written (the shape check leaves it unchecked)."""
    bot: Bot = _field(_part(Bot), factory=Bot)
    set_options: tuple[SetOption, ...] = _field(_parts(SetOption), default=())


@attrs.frozen
class Settings(_Object):
    """The match settings (times in seconds)."""

    move_time: float | None = _field(default=None)
    startup_time: float | None = _field(default=None)
    quit_grace: float | None = _field(default=None)
    on_fault: str | None = _field(default=None)
    keep_info: bool = _field(default=False)
    max_deals: int | None = _field(default=None)
    time_bank: float | None = _field(default=None)
    """Seconds per seat and match; None without a time bank."""


@attrs.frozen
class Result(_Object):
    """The outcome: final scores and the seats in each group."""

    scores: tuple[int, ...] = _field(_ints)
    winners: tuple[int, ...] = _field(_ints)
    losers: tuple[int, ...] = _field(_ints)
    draws: tuple[int, ...] = _field(_ints)
    forfeits: tuple[int, ...] = _field(_ints)
    annulled: bool = _field(default=False)


@attrs.frozen
class TournamentInfo(_Object):
    """Where a tournament's match sits in it: its index, deal set and rotation, and the
    entrant in each seat."""

    index: int = _field()
    seating: tuple[int, ...] = _field(_ints)
    """The entrant number in each seat."""
    key: str | None = _field(default=None)
    deal_set: int | None = _field(default=None)
    rotation: int | None = _field(default=None)
    entrants: tuple[str, ...] | None = _field(_optional_texts, default=None)


@attrs.frozen
class Signature(_Object):
    """A record's Ed25519 signature (``cardcli.records.signing``); its shape only."""

    alg: str = _field()
    key: str = _field()
    sig: str = _field()


def _info(value: Mapping[str, list[str]] | None) -> Mapping[str, tuple[str, ...]] | None:
    return None if value is None else {seat: tuple(texts) for seat, texts in value.items()}


def _dump_info(value: Mapping[str, tuple[str, ...]] | None) -> Any:
    return None if value is None else {seat: list(texts) for seat, texts in value.items()}


@attrs.frozen
class Record(_Object):
    """One match, complete."""

    format: str = _field()
    format_version: int = _field()
    game: str = _field()
    variant: str = _field()
    options: Mapping[str, Any] = _field()
    """Every option of the game with its value (a list of texts as a JSON array)."""
    seed: int = _field()
    status: str = _field()
    """``complete``, ``aborted`` or ``interrupted``."""
    seats: tuple[Seat, ...] = _field(_parts(Seat))
    deals: tuple[Deal, ...] = _field(_parts(Deal))
    faults: tuple[Fault, ...] = _field(_parts(Fault))
    settings: Settings = _field(_part(Settings))
    result: Result | None = _field(_optional_part(Result))
    """None when the match was aborted or interrupted."""
    software: str = _field(default="")
    adjudicated: bool = _field(default=False)
    first_dealer: int | None = _field(default=None)
    """The seat that dealt first; None in a record that does not say."""
    started: str = _field(default="")
    finished: str = _field(default="")
    info: Mapping[str, tuple[str, ...]] | None = _field(_info, _dump_info, default=None)
    """Each seat's info lines (``--keep-info``), by seat number as text."""
    signature: Signature | None = _field(_optional_part(Signature), default=None)
    tournament: TournamentInfo | None = _field(_optional_part(TournamentInfo), default=None)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def moves(self) -> int:
        """How many moves the record holds, over all its deals."""
        return sum(len(deal.moves) for deal in self.deals)


PARTS: tuple[type[_Object] | type[Move], ...] = (Record, Settings, Seat, Bot, SetOption, Deal, Move, Fault, Result,
                                    TournamentInfo, Signature)
"""Every class of the model."""
