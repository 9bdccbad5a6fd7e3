"""``cardcli connect``: play an unchanged stdin/stdout bot from this machine against a remote
referee (``protocol/REMOTE.md``). A thin layer: the relay is :mod:`cardcli.remote.relay`."""

from __future__ import annotations

import click

from ..errors import UsageError


@click.command("connect")
@click.argument("url")
@click.option("--name", required=True, help="The entrant's name, as the organiser's tokens file gives it.")
@click.option("--token", required=True, envvar="CARDCLI_TOKEN", show_envvar=True,
              help="The token the organiser gave that name (the environment variable keeps it out "
                   "of the process list).")
@click.option("--concurrency", type=click.IntRange(1, 64), default=1, show_default=True, metavar="N",
              help="Sessions at once, one bot process each (as many as the referee has seats for the name).")
@click.option("--once", is_flag=True,
              help="Play one session (per slot) and exit: 0 when it ended normally, 1 after a fault or a lost session.")
@click.option("--cafile", type=click.Path(exists=True, dir_okay=False), metavar="PEM",
              help="Trust only this certificate for a wss:// referee (an organiser's self-signed one).")
@click.option("--retry-time", type=click.FloatRange(min=0), default=300.0, show_default=True, metavar="S",
              help="Seconds to keep trying to reach the referee for a new session.")
@click.option("--reconnect-window", type=click.FloatRange(min=0), default=60.0, show_default=True, metavar="S",
              help="Seconds to keep trying to resume a session after its connection dropped.")
@click.option("-v", "--verbose", is_flag=True, help="Log every line relayed on stderr (<< to the bot, >> from it).")
@click.option("-q", "--quiet", is_flag=True, help="Say nothing on stderr but the error that stops the relay.")
@click.argument("bot", nargs=-1, required=True, type=click.UNPROCESSED)
def connect(url: str, name: str, token: str, concurrency: int, once: bool, cafile: str | None,
            retry_time: float, reconnect_window: float, verbose: bool, quiet: bool, bot: tuple[str, ...]) -> int:
    """Connect to the referee at URL (ws:// or wss://) and play BOT there: the command after
    --, an unchanged bot that reads the protocol on stdin and answers on stdout.

    The bot is started when a match needs it (one process per session, its stderr shown
    here), and the relay connects again for the next session until the referee says it is
    over. A dropped connection is resumed without the bot noticing.

    On stderr, one line each: connected (once), each session started and ended with the
    results of its matches, connections lost and resumed, and what went wrong; -q for
    nothing but a fatal error, -v for every line relayed as well.

    Exit status: 0 when the referee is over (or, with --once, the session ended normally), 1
    after a fault or a lost session with --once, or when the referee cannot be reached within
    --retry-time, 2 for a refused name or token or bad input, 130 on Ctrl-C and 143 on SIGTERM.
    """
    import asyncio

    try:
        from ..remote import relay
    except ImportError as err:
        raise UsageError(f"cardcli connect needs the websockets package ({err.name} is missing)") from None
    return asyncio.run(relay.run_relay(url, name, token, bot, concurrency=concurrency, once=once, cafile=cafile,
                                       retry_time=retry_time, reconnect_window=reconnect_window,
                                       verbose=verbose, quiet=quiet, handle_signals=True))
