"""``cardcli tokens``: the secrets that let remote bots take their seats (``--tokens FILE``)."""

from __future__ import annotations

import click

from ..remote.tokens import new_lines


@click.group("tokens")
def tokens() -> None:
    """Make the tokens of remote bots (play/tournament --listen ... --tokens FILE)."""


@tokens.command("new")
@click.argument("names", nargs=-1, required=True)
def new(names: tuple[str, ...]) -> int:
    """Print one 'NAME TOKEN' line for each NAME, each token 192 random bits. Save them as the
    referee's tokens file (cardcli tokens new alice bob > tokens.txt) and give each author
    their own line only: a token is the whole proof that a connection is that entrant's bot."""
    for line in new_lines(names):
        click.echo(line)
    return 0
