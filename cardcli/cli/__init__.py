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

COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("play", "play", "Play a whole match of a game (or several) and print who won."),
    "replay": ("replay", "replay", "Show recorded matches as text, an HTML page or protocol lines."),
    "verify": ("verify", "verify", "Re-check every recorded match against the rules."),
    "games": ("games", "games", "List the games, their variants, player counts and options."),
    "rules": ("games", "rules", "Print a summary of a game's rules and options."),
    "tournament": ("tournament", "tournament", "Play a tournament between entrants and print the table."),
    "check-bot": ("check_bot", "check_bot", "Check a bot program against the protocol before a competition."),
    "watch": ("watch", "watch", "Follow a record file or a tournament directory as games finish."),
    "keys": ("keys", "keys", "Make the key pairs that sign records."),
    "connect": ("connect", "connect", "Play a bot on this machine in a referee's match elsewhere."),
    "tokens": ("tokens", "tokens", "Make the tokens remote bots authenticate with."),
    "arena": ("arena", "arena", "Run a season-long competition over a database, with a live ladder."),
}
"""Each command's module and object in this package, and its one-line summary. A command's
module is imported only when the command runs: importing them all costs several times a short
command's whole start-up, which shell scripts and tests pay by the hundred. So ``--help``
lists the commands from these summaries (which become each command's ``short_help``, the one
place they are written) without importing any."""


class CardcliGroup(click.Group):
    """A click group whose ``main`` prints errors as one line and maps them to exit codes, and
    whose commands are imported when first needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, summary = COMMANDS[name]
        command: click.Command = getattr(importlib.import_module(f".{module}", __name__), attribute)
        command.short_help = summary
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help``, from the summaries, importing no command."""
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

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
