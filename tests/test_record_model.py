"""The typed record model (``cardcli/records/model.py``): it gives back every record exactly as
read, key order and unknown fields included, and it agrees with the published JSON Schema
(``docs/record.schema.json``) field for field, both ways: every field of every model class is a
property of the schema's matching object, of a compatible JSON type, and every property the
schema names is a field of the model (docs/records.md, "The typed model", says why the schema
is checked rather than generated)."""

from __future__ import annotations

import json
import types
import collections.abc
import typing
from typing import Any, Mapping, Union

import attrs
import pytest

from conftest import ROOT
from cardcli.games import registry
from cardcli.records import io as records
from cardcli.records import model
from cardcli.referee import Settings, play_match
from cardcli.seats.builtin import first_seat, random_seat, scripted_seat

SCHEMA = json.loads((ROOT / "docs/record.schema.json").read_text())

EVERY_SETUP = [(game, variant.name, players) for game, spec in registry.GAMES.items()
               for variant in spec.variants for players in sorted(spec.player_counts)]


def round_trip(record: dict[str, Any]) -> model.Record:
    """The record read as a file's line is, made a model, and written back: the same bytes."""
    line = records.dump(record)
    read = model.Record.from_json(records.decode(line.encode("utf-8")))
    assert records.dump(read.to_json()) == line
    return read


@pytest.mark.parametrize("game, variant, players", EVERY_SETUP)
def test_a_record_of_every_game_variant_and_player_count_comes_back_the_same(
        game: str, variant: str, players: int) -> None:
    setup = registry.resolve(game, variant, {}, players, 5)
    seats = [random_seat(f"r{s}", f"5/{s}") for s in range(players - 1)] + [first_seat("first")]
    record = play_match(setup, seats, Settings(max_deals=3, time_bank=30.0)).record
    read = round_trip(record)
    assert read.game == game and read.variant == variant and read.players == players
    assert [deal.number for deal in read.deals] == list(range(1, len(record["deals"]) + 1))
    assert read.moves == sum(len(deal["moves"]) for deal in record["deals"])
    assert all(move.bank_ms is not None for deal in read.deals for move in deal.moves)
    assert read.result is not None and list(read.result.scores) == record["result"]["scores"]


def test_every_optional_field_and_an_unknown_one_come_back_in_their_place() -> None:
    setup = registry.resolve("seep", None, {}, 4, 21)
    seats = [scripted_seat("script", ["9"]), *(random_seat(f"r{s}", f"21/{s}") for s in range(1, 4))]
    record = play_match(setup, seats, Settings(max_deals=2)).record
    record["info"] = {"2": ["depth 3", "score 12"]}
    record["tournament"] = {"index": 3, "key": "1.1", "deal_set": 1, "rotation": 1, "seating": [1, 0, 1, 0],
                            "entrants": ["a", "b", "a", "b"], "later": {"x": [1]}}
    record["seats"][1] = {"future": True, **record["seats"][1], "set_options": [
        {"name": "depth", "value": "3", "sent": False}]}
    record["deals"][0]["moves"][0]["why"] = "a field of a later version"
    record = {"comment": "first", **record, "signature": {"alg": "ed25519", "key": "A" * 44, "sig": "B" * 88}}
    read = round_trip(record)
    assert read.faults and read.faults[0].seat == 0
    assert any(move.fallback for move in read.deals[0].moves)
    assert read.deals[0].floor is not None and len(read.deals[0].floor) == 4
    assert read.info == {"2": ("depth 3", "score 12")}
    assert read.tournament is not None and read.tournament.seating == (1, 0, 1, 0)
    assert read.tournament.extra == {"later": {"x": [1]}}
    assert read.seats[1].set_options == (model.SetOption("depth", "3", False),)
    assert read.signature is not None and read.signature.alg == "ed25519"
    assert read.extra == {"comment": "first"}


def test_an_aborted_record_has_no_result_and_a_deal_without_totals() -> None:
    setup = registry.resolve("peppa", None, {}, 4, 3)
    seats = [scripted_seat("script", []), *(random_seat(f"r{s}", f"3/{s}") for s in range(1, 4))]
    read = round_trip(play_match(setup, seats, Settings(max_deals=1, on_fault="abort")).record)
    assert read.status == "aborted" and read.result is None
    assert read.faults[0].kind == "protocol" or read.faults[0].kind
    assert not read.deals[-1].finished


def test_the_reader_gives_the_model(tmp_path: Any) -> None:
    setup = registry.resolve("pigugnin", None, {}, 4, 8)
    record = play_match(setup, [random_seat(f"r{s}", f"8/{s}") for s in range(4)], Settings(max_deals=1)).record
    path = tmp_path / "records.jsonl"
    records.append(path, record)
    records.append(path, record)
    loaded = list(records.read(path))
    assert [line for line, _ in records.read_models(path)] == [1, 2]
    assert loaded[1].model == model.Record.from_json(record)
    assert loaded[1].model.to_json() == record


# -- the model against the schema ---------------------------------------------------------------


def resolved(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """A schema node with its ``$ref`` (to ``#/$defs/...``) followed, and its own keys over it."""
    if "$ref" not in node:
        return node
    target = SCHEMA["$defs"][node["$ref"].removeprefix("#/$defs/")]
    return {**resolved(target), **{k: v for k, v in node.items() if k != "$ref"}}


def schema_types(node: Mapping[str, Any]) -> set[str]:
    """The JSON types a schema node allows (from ``type``, or a ``const``'s or ``enum``'s values)."""
    node = resolved(node)
    if "type" in node:
        kinds = node["type"]
        return {kinds} if isinstance(kinds, str) else set(kinds)
    values = [node["const"]] if "const" in node else node["enum"]
    return {json_type(type(value)) for value in values}


def json_type(kind: Any) -> str:
    """The JSON type a Python type of the model is written as."""
    origin = typing.get_origin(kind) or kind
    if attrs.has(origin) or origin in (dict, Mapping) or origin is typing.get_origin(Mapping[str, Any]):
        return "object"
    found = {bool: "boolean", int: "integer", float: "number", str: "string", tuple: "array",
             collections.abc.Sequence: "array", type(None): "null"}.get(origin)
    assert found is not None, f"no JSON type for {kind!r}"
    return found


def model_types(kind: Any) -> set[str]:
    if typing.get_origin(kind) in (Union, types.UnionType):
        return {json_type(k) for k in typing.get_args(kind)}
    return {json_type(kind)}


def item_object(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """The object schema of the items of an array node: its ``items``, or for the seats (one
    schema per place, each the seat's with its number fixed) the seat's."""
    node = resolved(node)
    item = node["items"] if node.get("items") is not False else node["prefixItems"][0]
    return resolved({"$ref": item["$ref"]} if "$ref" in item else item)


def matching_objects() -> dict[type, Mapping[str, Any]]:
    """Each class of the model with the schema's object it reads."""
    props = SCHEMA["properties"]
    seat = SCHEMA["$defs"]["seat"]
    deal = SCHEMA["$defs"]["deal"]
    return {
        model.Record: SCHEMA,
        model.Settings: props["settings"],
        model.Seat: seat,
        model.Bot: seat["properties"]["bot"],
        model.SetOption: item_object(seat["properties"]["set_options"]),
        model.Deal: deal,
        model.Move: item_object(deal["properties"]["moves"]),
        model.Fault: SCHEMA["$defs"]["fault"],
        model.Result: props["result"],
        model.TournamentInfo: props["tournament"],
        model.Signature: props["signature"],
    }


def json_fields(cls: type) -> dict[str, Any]:
    """The fields of a model class that are keys of its JSON object, with their types (a
    Move's are its properties, as it is a view rather than an attrs class)."""
    if cls is model.Move:
        return {name: typing.get_type_hints(getattr(cls, name).fget, vars(model))["return"] for name in cls.KEYS}
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in attrs.fields(cls) if "load" in f.metadata}


def has_default(cls: type, name: str) -> bool:
    if cls is model.Move:
        return name in model.Move.DEFAULTS
    return attrs.fields_dict(cls)[name].default is not attrs.NOTHING


def test_every_class_of_the_model_has_its_object_in_the_schema() -> None:
    assert set(matching_objects()) == set(model.PARTS)


@pytest.mark.parametrize("cls", model.PARTS, ids=lambda cls: cls.__name__)
def test_the_model_and_the_schema_name_the_same_fields_with_compatible_types(cls: type) -> None:
    """Both ways: a field the schema does not have would be read from nowhere, and a property
    the model does not have would be kept only as an unknown field. A type is compatible when
    the JSON types agree, ``null`` aside: where the schema allows null the model allows None,
    and where only the model does, None stands for a key the schema does not require (absent)."""
    schema = resolved(matching_objects()[cls])
    properties = {name: resolved(node) for name, node in schema["properties"].items()}
    fields = json_fields(cls)
    assert set(fields) == set(properties), f"{cls.__name__}: model and schema differ"
    required = set(schema.get("required", ()))
    for name, kind in fields.items():
        ours, theirs = model_types(kind), schema_types(properties[name])
        assert ours - {"null"} == theirs - {"null"} or (ours == {"number"} and theirs == {"integer", "number"}), \
            f"{cls.__name__}.{name}: {sorted(ours)} against the schema's {sorted(theirs)}"
        if "null" in theirs:
            assert "null" in ours, f"{cls.__name__}.{name} cannot be None, which the schema allows"
        elif "null" in ours:
            assert name not in required, f"{cls.__name__}.{name} may be None, which the schema does not allow"
        if name in required:
            assert not has_default(cls, name), \
                f"{cls.__name__}.{name} is required by the schema, so the model has no default for it"


@pytest.mark.parametrize("cls", model.PARTS, ids=lambda cls: cls.__name__)
def test_a_field_of_parts_holds_the_class_the_schema_s_items_are(cls: type) -> None:
    """A field holding model objects (one, or a tuple of them) reads the schema object that
    :func:`matching_objects` pairs with that class."""
    schema = resolved(matching_objects()[cls])
    objects = matching_objects()
    for name, kind in json_fields(cls).items():
        union = typing.get_origin(kind) in (Union, types.UnionType)
        for arg in [a for a in typing.get_args(kind) if a is not type(None)] if union else [kind]:
            listed = typing.get_origin(arg) in (tuple, collections.abc.Sequence)
            inner = typing.get_args(arg)[0] if listed else arg
            if inner in objects:
                node = resolved(schema["properties"][name])
                found = item_object(node) if listed else node
                assert found == resolved(objects[inner]), f"{cls.__name__}.{name}"


@pytest.mark.parametrize("data", [
    {"seat": 1, "kind": "play", "move": "QS", "ms": 1.5},
    {"kind": "pass", "seat": 0, "move": "2C+3C+4C", "ms": 3, "by": "fallback", "bank_ms": 0.0},
    {"seat": 2, "kind": "bid", "move": "9", "ms": 0.25, "by": "seat", "later": [1]},
])
def test_a_move_keeps_its_object_as_read_and_cannot_be_changed(data: dict[str, Any]) -> None:
    move = model.Move.from_json(data)
    assert move.to_json() == data and list(move.to_json()) == list(data)
    assert move.present == tuple(data)
    assert move.extra == {key: value for key, value in data.items() if key not in model.Move.KEYS}
    assert (move.by, move.bank_ms) == (data.get("by", "seat"), data.get("bank_ms"))
    data["move"] = "changed"
    assert move.move != "changed", "the move shares the object it was read from"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        move.seat = 3  # type: ignore[misc]
    same = model.Move.from_json({**move.to_json(), "later": 2})
    assert same == move and hash(same) == hash(move), "equality is by the known fields"


def test_a_deal_s_moves_are_made_when_first_asked_for_and_compare_as_a_tuple() -> None:
    data = {"number": 1, "dealer": 0, "moves": [{"seat": 0, "kind": "play", "move": "QS", "ms": 1.0},
                                                {"seat": 1, "kind": "play", "move": "2C", "ms": 2.0, "by": "fallback"}]}
    deal = model.Deal.from_json(data)
    assert len(deal.moves) == 2 and deal.moves._made is None, "counted without being made"
    assert [m.move for m in deal.moves] == ["QS", "2C"] and deal.moves[1].fallback
    assert deal.moves == tuple(deal.moves) and deal.moves[:1] == (deal.moves[0],)
    assert model.Deal.from_json(data) == deal and hash(model.Deal.from_json(data).moves) == hash(deal.moves)
    assert deal.to_json() == data and list(deal.to_json()) == list(data)
