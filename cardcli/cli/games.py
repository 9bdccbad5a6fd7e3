"""``cardcli games`` and ``cardcli rules``: what can be played, read from the registry."""

from __future__ import annotations

from typing import Any

import click

from ..games import options as opt
from ..games import registry
from ..games.base import GameSpec
from .common import print_json
from .options import json_option


def _by_variant(spec: GameSpec) -> dict[str, dict[str, opt.OptionSpec]]:
    """Each variant's option declarations, with that variant's defaults, by option name."""
    return {v.name: {s.name: s for s in opt.specs(spec.options_class, v.defaults)} for v in spec.variants}


def _options_json(spec: GameSpec) -> list[dict[str, Any]]:
    variants = _by_variant(spec)
    return [
        {
            "name": base.name,
            "type": base.describe_type(),
            "defaults": {v: _jsonable(specs[base.name].default) for v, specs in variants.items()},
            "help": base.help,
        }
        for base in opt.specs(spec.options_class)
    ]


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _default_text(spec: GameSpec, name: str) -> str:
    texts = [(v, specs[name].format(specs[name].default)) for v, specs in _by_variant(spec).items()]
    if len({t for _, t in texts}) == 1:
        return texts[0][1]
    return ", ".join(f"{t} ({v})" for v, t in texts)


@click.command("games")
@json_option
def games(as_json: bool) -> None:
    """List the games, their variants, player counts and options with defaults."""
    specs, problems = registry.available()
    for problem in problems:
        click.echo(f"cardcli: warning: {problem}", err=True)
    if as_json:
        print_json(
            [
                {
                    "name": s.name,
                    "title": s.title,
                    "players": list(s.player_counts),
                    "variants": [{"name": v.name, "description": v.description} for v in s.variants],
                    "options": _options_json(s),
                }
                for s in specs
            ]
        )
        return
    for spec in specs:
        counts = ", ".join(map(str, sorted(spec.player_counts)))
        click.echo(f"{spec.name}: {spec.title}, {counts} players")
        click.echo("  variants:")
        for v in spec.variants:
            mark = " (default)" if v is spec.default_variant else ""
            click.echo(f"    {v.name}{mark}: {v.description}")
        click.echo("  options (-o NAME=VALUE):")
        for s in opt.specs(spec.options_class):
            click.echo(f"    {s.name} = {_default_text(spec, s.name)}   [{s.describe_type()}]")
        click.echo("")


@click.command("rules")
@click.argument("game")
def rules(game: str) -> None:
    """Print a short summary of GAME's rules and its options."""
    spec = registry.get(game)
    click.echo(spec.title)
    click.echo("")
    click.echo(spec.summary)
    click.echo("")
    click.echo("Variants (--variant):")
    for v in spec.variants:
        click.echo(f"  {v.name}: {v.description}")
    click.echo("")
    click.echo("Options (-o NAME=VALUE), with defaults:")
    for s in opt.specs(spec.options_class):
        click.echo(f"  {s.name} = {_default_text(spec, s.name)}")
        click.echo(f"      {s.help} [{s.describe_type()}]")
