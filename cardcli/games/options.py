"""Declared game options: one frozen attrs class per game, described by its own fields.

A game declares each house rule as an attrs field made with :func:`option`, carrying its help
text and allowed values. Everything else (the CLI's ``-o NAME=VALUE`` parser, ``cardcli games``,
the rules summary, the protocol's ``option`` lines, the record) reads those declarations, so a
new option is written exactly once.
"""

from __future__ import annotations

from typing import Any, Mapping, TypeVar

import attrs

from ..errors import OptionError

T = TypeVar("T")

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def option(
    default: Any,
    help: str,
    *,
    choices: tuple[str, ...] | None = None,
    minimum: int | None = None,
) -> Any:
    """Declare one option field. ``choices`` limits a text option (or each item of a list)."""
    return attrs.field(
        default=default, metadata={"help": help, "choices": choices, "minimum": minimum}
    )


@attrs.frozen
class OptionSpec:
    """What the CLI and docs need to know about one option."""

    name: str
    kind: str  # "bool" | "int" | "choice" | "list"
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    minimum: int | None = None

    def describe_type(self) -> str:
        if self.kind == "bool":
            return "true|false"
        if self.kind == "int":
            return "integer" if self.minimum is None else f"integer >= {self.minimum}"
        if self.kind == "choice":
            return "|".join(self.choices or ())
        return "comma-separated list of " + "|".join(self.choices or ())

    def parse(self, raw: Any) -> Any:
        """Turn a command-line text (or a JSON value from a record) into the option's value."""
        try:
            value = self._convert(raw)
        except (TypeError, ValueError):
            raise OptionError(
                f"option {self.name}: {raw!r} is not valid; expected {self.describe_type()}"
            ) from None
        return value

    def _convert(self, raw: Any) -> Any:
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ValueError(raw)
        if self.kind == "int":
            if isinstance(raw, bool):
                raise ValueError(raw)
            value = int(raw)
            if self.minimum is not None and value < self.minimum:
                raise ValueError(raw)
            return value
        if self.kind == "choice":
            if str(raw) not in (self.choices or ()):
                raise ValueError(raw)
            return str(raw)
        items = raw if isinstance(raw, (list, tuple)) else str(raw).split(",")
        values = tuple(str(i).strip() for i in items)
        if not values or any(v not in (self.choices or ()) for v in values):
            raise ValueError(raw)
        return values

    def format(self, value: Any) -> str:
        """The wire and display text of a value: the inverse of :meth:`parse`."""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "list":
            return ",".join(value)
        return str(value)


def _kind(field: attrs.Attribute[Any]) -> str:
    if field.metadata.get("choices") and isinstance(field.default, tuple):
        return "list"
    if field.metadata.get("choices"):
        return "choice"
    if isinstance(field.default, bool):
        return "bool"
    if isinstance(field.default, int):
        return "int"
    raise TypeError(f"option {field.name} has no usable type")


def specs(options_class: type, defaults: Mapping[str, Any] | None = None) -> tuple[OptionSpec, ...]:
    """The option declarations of a game, with a variant's defaults applied."""
    defaults = defaults or {}
    result = []
    for field in attrs.fields(options_class):
        result.append(
            OptionSpec(
                name=field.name,
                kind=_kind(field),
                default=defaults.get(field.name, field.default),
                help=field.metadata["help"],
                choices=field.metadata.get("choices"),
                minimum=field.metadata.get("minimum"),
            )
        )
    return tuple(result)


def build(
    options_class: type[T],
    defaults: Mapping[str, Any],
    given: Mapping[str, Any],
) -> T:
    """Build a game's option object from a variant's defaults and the user's values.

    Raises OptionError naming the valid options when a name is unknown.
    """
    by_name = {spec.name: spec for spec in specs(options_class, defaults)}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise OptionError(
            f"unknown option {unknown[0]!r}; valid options: {', '.join(sorted(by_name))}"
        )
    values = {name: spec.default for name, spec in by_name.items()}
    for name, raw in given.items():
        values[name] = by_name[name].parse(raw)
    return options_class(**values)


def to_wire(options: Any) -> list[tuple[str, str]]:
    """Every option as ``(name, text)`` pairs, in declaration order."""
    specs_ = specs(type(options))
    return [(s.name, s.format(getattr(options, s.name))) for s in specs_]


def to_json(options: Any) -> dict[str, Any]:
    """The options as JSON values (lists for list options), in declaration order."""
    result: dict[str, Any] = {}
    for field in attrs.fields(type(options)):
        value = getattr(options, field.name)
        result[field.name] = list(value) if isinstance(value, tuple) else value
    return result
