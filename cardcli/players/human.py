"""A person at the terminal (``--seat human``), and seats that read their moves from a file or
a pipe (``script:PATH``, or ``--seat human`` with piped input).

The human player follows the game from exactly the protocol lines its seat is sent, so the
screen can never show more than the seat may know. Each event is printed as it comes with the
game's own renderer (the text ``replay`` uses), each card played to a trick on a line of its
own, and the screen rests a moment after another seat's move (``CARDCLI_HUMAN_DELAY``). At a
request it shows the totals, the trick or the floor, the hand, the deal so far (as far as the
seat's lines tell it) and the legal moves, numbered in as few lines as fit the terminal. A
forced move (one legal move) is played without asking. A move may be typed as its token or
its number; anything else re-prompts with the reason, never a fault. ``?`` shows help and the
rules. Cards are shown as people write them (``10♠``) and may be typed that way or as tokens,
in either case (``10s``, ``TS``). Built-in players are named without their parameters.

Without a terminal the same seat reads one move per line and prints nothing: ``printf 'QS\\n' |
cardcli play ...`` works. When the lines run out, or a line is not a legal move, the seat plays
the first offered move (the documented fallback) and says so once on stderr.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import time
from typing import IO, Any, Callable, Iterator, Mapping, Sequence

from ..cards import SUIT_SYMBOLS, Card, is_card
from ..errors import UsageError
from ..games import registry
from ..games.notation import misordered, respell
from ..games.view import SeatView, view_for
from ..seats.base import Request
from ..seats.builtin import builtin_name

RED = "\033[31m"
RESET = "\033[0m"

DELAY = 0.4
"""Seconds the screen rests after another seat's move, so a person sees each card land."""

DELAY_VARIABLE = "CARDCLI_HUMAN_DELAY"
"""The environment variable that sets the pause, in seconds (0 for none)."""

MOVE_EVENTS = frozenset({"play", "bid", "trump"})
"""Events that are a seat's move, its seat the first word after the event's."""


def pause_seconds(environ: Mapping[str, str] = os.environ) -> float:
    """The pause after another seat's move: :data:`DELAY_VARIABLE` in seconds (0 to 60), else
    :data:`DELAY`; any other value is a usage error rather than a game at a pace never asked for."""
    text = environ.get(DELAY_VARIABLE, "").strip()
    if not text:
        return DELAY
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 60:  # NaN fails too
        raise UsageError(f"{DELAY_VARIABLE}={text!r}: give the pause after each move in seconds, from 0 to 60")
    return seconds


def _is_terminal(out: IO[str]) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def match_input(text: str, moves: Sequence[str]) -> str | None:
    """The legal move a person meant: its number, or its token written in any case, with ``10``
    for the ten or a suit symbol for the suit (as the moves are shown), and its cards in any
    order; the cards of a pass may be separated by spaces, commas or '+'. A bot must write the
    token exactly; a person is not held to it, and the near misses are recognised by the same
    code that names them in a bot's fault."""
    text = text.strip()
    for suit, symbol in SUIT_SYMBOLS.items():  # a card typed as it is shown: Q♠, 10♥
        text = text.replace(symbol, suit)
    if text.isdigit() and 1 <= int(text) <= len(moves):
        return moves[int(text) - 1]
    token = text if ":" in text else "+".join(text.replace(",", " ").replace("+", " ").split())
    fixed = respell(token)[0]
    if fixed in moves:
        return fixed
    twin = misordered(fixed, moves)
    if twin is not None:
        return twin.token
    return next((m for m in moves if m.lower() == fixed.lower()), None)


def short_name(name: str) -> str:
    """A seat's name as the table shows it: a built-in player by its base name, without its
    parameters (``ismcts:iterations=100`` and ``builtin:random`` are ``ismcts`` and ``random``),
    except a house player, whose level is what it is (``house:3``); any other name (a bot's
    own) as it is."""
    plain = name.removeprefix("builtin:")
    base = builtin_name(plain)
    if base == "house":
        return plain
    return base if base is not None else name


def move_lines(moves: Sequence[str], width: int, label: Callable[[str], str] = SeatView().move_label) -> list[str]:
    """The legal moves numbered in as few lines as fit in ``width`` columns (``1. 2♣   2. 7♦
    ...``), each as ``label`` (the game's view) writes it for people, not one line per move,
    so the table stays on a small terminal. A move is never split between lines unless it is
    longer than a line by itself (a long capture in words): then it is wrapped at spaces, its
    continuation indented under its text."""
    entries = [f"{number}. {label(move)}" for number, move in enumerate(moves, start=1)]
    return packed(entries, width, "  ", "   ")


def packed(entries: Sequence[str], width: int, indent: str, gap: str, head: str = "") -> list[str]:
    """``head`` and then ``entries`` in as few lines of ``width`` columns as they fit, each line
    after the head's starting with ``indent``, the entries on a line separated by ``gap``. An
    entry is split only when it is longer than a line by itself, at spaces, its continuation
    indented under its text (past its first word: a number, ``12.``, or a seat)."""
    lines: list[str] = []
    line, after_head = head, bool(head)
    for entry in entries:
        joined = f"{line} {entry}" if after_head else f"{line}{gap}{entry}" if line else indent + entry
        if len(joined) <= width:
            line, after_head = joined, False
            continue
        if line:
            lines.append(line)
        hang = indent + " " * (len(entry.split(" ", 1)[0]) + 1)
        pieces = textwrap.wrap(entry, width, initial_indent=indent, subsequent_indent=hang, break_on_hyphens=False)
        lines += pieces[:-1]
        line, after_head = pieces[-1], False
    if line:
        lines.append(line)
    return lines


def terminal_width(out: IO[str]) -> int:
    """The columns a line may take: the terminal's width as ``shutil.get_terminal_size`` gives
    it (``COLUMNS`` first, then standard output), else the width of the terminal ``out`` writes
    to (standard output may be a pipe while the seat's screen is on standard error), else 80.
    One column is kept free, as some terminals wrap a line that fills the last one."""
    columns = shutil.get_terminal_size((0, 0)).columns
    if columns <= 0:
        try:
            columns = os.get_terminal_size(out.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
    return max(columns - 1, 20)


def paint(text: str, colour: bool) -> str:
    """``text`` with its red suit symbols in red on a colour terminal."""
    if colour:
        for suit in "HD":
            text = text.replace(SUIT_SYMBOLS[suit], RED + SUIT_SYMBOLS[suit] + RESET)
    return text


class HumanPlayer:
    """Plays from a terminal (prompts) or from lines (no prompts); see the module docstring."""

    def __init__(self, lines: Iterator[str] | None = None, out: IO[str] | None = None, interactive: bool = False):
        self.interactive = interactive
        self.lines = lines if lines is not None else iter(sys.stdin.readline, "")
        self.out = out if out is not None else sys.stderr
        self.colour = interactive and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        self.view = SeatView()
        """The seat's view of the match: the game's own, from each match's ``game`` line."""
        self.renderer: Any = None
        """The game's renderer (see ``GameSpec.renderer``), from the match's ``begin``."""
        self.warned = False
        self.delay = pause_seconds() if interactive and _is_terminal(self.out) else 0.0
        """Seconds to rest after another seat's move (or a forced move of this seat's): none
        without a terminal to watch, so a script runs at full speed."""

    def say(self, text: str) -> None:
        if self.interactive:
            self.out.write(text + "\n")
            self.out.flush()

    def notify(self, lines: Sequence[str]) -> None:
        """Follow the lines; on a terminal, show each event as it comes, and rest a moment
        after another seat's move (the referee sends a move's events together: a card, the
        trick it ends, a Seep floor) so a person sees it land before the next."""
        landed = False
        for line in lines:
            words = line.split()
            if not words:
                continue
            if words[0] == "game" and len(words) > 1:
                self.view = view_for(words[1])
                self.view.shorten = short_name
            self.view.update(words)
            if words[0] == "begin":
                spec = registry.get(self.view.game)
                self.renderer = spec.renderer(self.view.short_names()) if spec.renderer else None
                self.say(f"{spec.title}: you are seat {self.view.seat}. Type ? for help.")
            elif words[0] == "result":
                mine = words[1 + self.view.seat] if len(words) > 1 + self.view.seat else "?"
                self.say(f"The match is over: you {mine}.")
            elif self.renderer is not None and self.interactive:
                self._render(words)
            if words[0] in MOVE_EVENTS and len(words) > 1 and words[1] != str(self.view.seat):
                landed = True
        if landed:
            self._pause()

    def _render(self, words: list[str]) -> None:
        """One event as the replay writes it; a card played to a trick, which the replay shows
        only with the whole trick, gets a line of its own at once (``1:ann plays Q♠``)."""
        from ..games.base import Event

        shown = self.renderer.feed(Event(words[0], tuple(words[1:]), frozenset({self.view.seat})))
        if not shown and words[0] == "play" and len(words) >= 3 and is_card(words[2]) and words[1].isdigit():
            shown = [f"  {self.view.who(int(words[1]))} plays {Card.parse(words[2]).symbol()}"]
        for text in shown:
            self.say(paint(text, self.colour))

    def _pause(self) -> None:
        if self.interactive and self.delay > 0:
            time.sleep(self.delay)

    def choose(self, request: Request) -> str:
        if not self.interactive:
            return self._from_lines(request)
        if len(request.moves) == 1:
            return self._forced(request)
        while True:
            self._show(request)
            self.out.write("your move (number or token, ? for help): ")
            self.out.flush()
            text = next(self.lines, "")
            if text == "":
                self.say("(end of input: playing the first move)")
                return request.moves[0]
            text = text.strip()
            if text == "?":
                self._help()
                continue
            move = match_input(text, request.moves)
            if move is not None:
                return move
            self.say(f"{text!r} is not one of the {len(request.moves)} legal moves: type its number or its token")

    def _forced(self, request: Request) -> str:
        """The one legal move, played without asking: a person has nothing to decide, and a
        line says what was played for them (``only one legal move: 7♠``)."""
        move = request.moves[0]
        what = "move" if request.kind == "play" else request.kind
        self.say(paint(f"only one legal {what}: {self.view.move_label(move)}", self.colour))
        self._pause()
        return move

    def _from_lines(self, request: Request) -> str:
        text = next(self.lines, "")
        move = text.strip()
        chosen = match_input(move, request.moves)
        if chosen is not None:
            return chosen
        if not self.warned:
            why = "no more input" if text == "" else f"{move!r} is not a legal move"
            sys.stderr.write(f"cardcli: seat {self.view.seat}: {why}: playing the first offered move from now on\n")
            self.warned = True
        self.lines = iter(())
        return request.moves[0]

    def _show(self, request: Request) -> None:
        view = self.view
        width = terminal_width(self.out)
        self.say("")
        if view.totals:
            for line in packed([f"{view.who(i)} {t}" for i, t in enumerate(view.totals)], width, "  ", "  ", "totals:"):
                self.say(line)
        table = view.table_text()
        if table:
            self.say(paint(table, self.colour))
        self.say(f"your hand: {paint(view.hand_text(), self.colour)}")
        head, entries = view.deal_so_far()
        if entries:
            for line in packed(entries, width, "  ", "  ", head):
                self.say(line)
        self.say(f"seat {view.seat}, your {request.kind}:")
        if len(request.moves) > 40 and all("+" in m and ":" not in m for m in request.moves):
            size = request.moves[0].count("+") + 1
            self.say(f"  choose {size} cards: type them in any order, e.g. {request.moves[0].replace('+', ' ')}")
            return
        for line in move_lines(request.moves, width, view.move_label):
            self.say(paint(line, self.colour))

    def _help(self) -> None:
        spec = registry.get(self.view.game)
        self.say("Type the number of a move, or the move itself: a card as shown (Q♠) or as a token (QS).")
        self.say("Cards are rank + suit: 2-9, T or 10 (ten), J, Q, K, A with C D H S, in either case")
        self.say("(QS or qs is the queen of spades; TS, 10s and 10S the ten of spades).")
        self.say("")
        self.say(spec.summary)
