"""The command line: a thin click layer over the referee, the records and the registry.

Every error raised on purpose becomes one line on stderr and an exit status (2 for bad input);
click's own usage errors are turned into the same one-line form.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .. import __version__
from ..errors import CardcliError
from . import check_bot, connect, games, keys, play, replay, tokens, tournament, verify, watch


class CardcliGroup(click.Group):
    """A click group whose ``main`` prints errors as one line and maps them to exit codes."""

    def main(self, args: Any = None, prog_name: str | None = None, **extra: Any) -> Any:  # type: ignore[override]
        extra.pop("standalone_mode", None)
        try:
            code = super().main(args=args, prog_name=prog_name or "cardcli", standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as err:
            click.echo(err.ctx.get_help() if err.ctx else str(err))
            sys.exit(2)
        except click.UsageError as err:
            _fail(err.format_message(), 2)
        except click.ClickException as err:
            _fail(err.format_message(), err.exit_code)
        except click.Abort:
            _fail("interrupted", 130)
        except CardcliError as err:
            _fail(str(err), err.exit_code)
        except BrokenPipeError:
            sys.exit(0)
        sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int) -> None:
    first = message.strip().splitlines()[0] if message.strip() else "error"
    click.echo(f"cardcli: error: {first}", err=True)
    sys.exit(code)


@click.group(cls=CardcliGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardcli")
def cli() -> None:
    """A referee for multiplayer card games played by bots in any language."""


cli.add_command(play.play)
cli.add_command(replay.replay)
cli.add_command(verify.verify)
cli.add_command(games.games)
cli.add_command(games.rules)
cli.add_command(tournament.tournament)
cli.add_command(check_bot.check_bot)
cli.add_command(watch.watch)
cli.add_command(keys.keys)
cli.add_command(connect.connect)
cli.add_command(tokens.tokens)


def main() -> None:
    cli.main()
