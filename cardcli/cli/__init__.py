"""The command line: a thin click layer over the referee, the records and the registry.

Every error raised on purpose becomes one line on stderr and an exit status (2 for bad input);
click's own usage errors are turned into the same one-line form.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from .. import __version__
from ..errors import CardcliError

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "play"),
    "replay": ("replay", "replay"),
    "verify": ("verify", "verify"),
    "games": ("games", "games"),
    "rules": ("games", "rules"),
    "tournament": ("tournament", "tournament"),
    "check-bot": ("check_bot", "check_bot"),
    "watch": ("watch", "watch"),
    "keys": ("keys", "keys"),
    "connect": ("connect", "connect"),
    "tokens": ("tokens", "tokens"),
}
"""Each command's module and object in this package. A command's module is imported only when
the command runs (or ``--help`` lists them all): importing every command costs about 0.3 s, a
large share of a short command, which shell scripts and tests start by the hundred."""


class CardcliGroup(click.Group):
    """A click group whose ``main`` prints errors as one line and maps them to exit codes, and
    whose commands are imported when first needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute = COMMANDS[name]
        command: click.Command = getattr(importlib.import_module(f".{module}", __name__), attribute)
        return command

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



def main() -> None:
    cli.main()
