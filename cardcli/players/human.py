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
from typing import IO, Any, Iterator, Mapping, Sequence

from ..cards import SUIT_SYMBOLS, Card, is_card, render_hand
from ..errors import UsageError
from ..games import registry
from ..games.notation import misordered, respell, spent_card
from ..games.trick_text import played
from ..safe_text import display_name
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
    parameters (``ismcts:iterations=100`` and ``builtin:random`` are ``ismcts`` and ``random``);
    any other name (a bot's own) as it is."""
    base = builtin_name(name.removeprefix("builtin:"))
    return base if base is not None else name


def move_label(move: str) -> str:
    """A move as a person reads it: a card with its suit symbol (``Q♠``), a pass's cards, a
    Seep move in words (``takes with J♠: 2♣ 3♦ 6♥ | house 11``), anything else (a bid, a
    trump) as its token."""
    if is_card(move):
        return Card.parse(move).symbol()
    if "+" in move and ":" not in move and all(is_card(c) for c in move.split("+")):
        return " ".join(Card.parse(c).symbol() for c in move.split("+"))
    if ":" in move:
        from ..games.seep.text import move_text

        return move_text(move)
    return move


def move_lines(moves: Sequence[str], width: int) -> list[str]:
    """The legal moves numbered in as few lines as fit in ``width`` columns (``1. 2♣   2. 7♦
    ...``), not one line per move, so the table stays on a small terminal. A move is never
    split between lines unless it is longer than a line by itself (a long Seep capture): then
    it is wrapped at spaces, its continuation indented under its text."""
    entries = [f"{number}. {move_label(move)}" for number, move in enumerate(moves, start=1)]
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


def captured_cards(token: str, table: Sequence[str]) -> list[str]:
    """The cards a Seep ``take:`` move captures: the hand card, the loose groups it names and
    the cards of the houses it names (``h11``), read from the floor before the move."""
    _, card, groups = (token.split(":", 2) + ["", ""])[:3]
    cards = [card]
    for group in filter(None, groups.split(",")):
        if group.startswith("h"):
            house = next((item for item in table if item.startswith(group + ":")), "")
            cards += house.split(":")[-1].split("+") if house else []
        else:
            cards += group.split("+")
    return cards


def paint(text: str, colour: bool) -> str:
    """``text`` with its red suit symbols in red on a colour terminal."""
    if colour:
        for suit in "HD":
            text = text.replace(SUIT_SYMBOLS[suit], RED + SUIT_SYMBOLS[suit] + RESET)
    return text


POINTS_WORD = {"peppa": "penalty points", "pigugnin": "card points"}
"""What a trick game's ``taken`` points are, as the deal's running line names them."""


class SeatView:
    """What one seat knows, kept up to date from its protocol lines: its hand, the trick or the
    floor, the deal so far, the totals. Shared by the human player; needs no game engine.

    A ``deal`` line starts the view of the deal afresh: the hand, the trick and the floor of
    the deal before are gone from the table, and showing them at the next deal's first
    decision (a Peppa pass, a Seep or Pepper bid) would mislead. Only the totals carry over.

    The deal so far is counted from public lines alone, as far as they tell it before the
    deal's ``score``: the points of the tricks each seat took (``taken``: Peppa's penalty
    points before any cappotto, Il Pigugnìn's card points before they become busche), the
    tricks taken (Pepper, with the contract: what a side scores is known when the deal ends),
    and in Seep each side's captured card points and seep bonuses (a majority bonus is known
    only at the deal's end)."""

    def __init__(self) -> None:
        self.seat = 0
        self.game = ""
        self.names: list[str] = []
        """Names as the ``player`` lines give them: a bot's text, escaped when shown."""
        self.hand: list[str] = []
        self.trick_number = 0
        """The trick in progress, counted from 1; 0 before the deal's first trick."""
        self.trick: list[tuple[int, str]] = []
        """The cards played to the trick in progress: (seat, card token) in play order."""
        self.table: list[str] | None = None
        """The Seep floor as the last ``table`` line gave it; None before it is turned up."""
        self.totals: list[str] = []
        self.options: dict[str, str] = {}
        """The match's rule options, from the header's ``option`` lines."""
        self.sides: list[tuple[int, ...]] = []
        """The partnerships, from the header's ``team`` lines; none when each seat plays alone."""
        self.tricks: list[int] = []
        """Tricks each seat has taken in this deal."""
        self.points: list[int] = []
        """Points each seat has taken in this deal: its tricks' points, or its captured cards'."""
        self.bonus: list[int] = []
        """Seep bonuses each seat has won in this deal."""
        self.contract: tuple[int, str] | None = None
        """Pepper's contract in this deal: (declarer, bid)."""

    def update(self, words: list[str]) -> None:
        kind, args = words[0], words[1:]
        if kind == "game" and len(args) >= 4:
            self.game, self.seat = args[0], int(args[3])
            self.names = [""] * int(args[2])
            self.totals, self.options, self.sides = [], {}, []
            self._new_deal()
        elif kind == "option" and len(args) >= 2:
            self.options[args[0]] = args[1]
        elif kind == "team" and args:
            self.sides.append(tuple(int(s) for s in args))
        elif kind == "player" and len(args) >= 2 and int(args[0]) < len(self.names):
            self.names[int(args[0])] = " ".join(args[1:])
        elif kind == "deal":
            self._new_deal()
        elif kind == "hand":
            self.hand = list(args)
        elif kind == "passed":
            self.hand = [c for c in self.hand if c not in args[1:]]
        elif kind == "received":
            self.hand += args[1:]
        elif kind == "trick" and args:
            self.trick_number, self.trick = int(args[0]), []
        elif kind == "play" and len(args) >= 2:
            if is_card(args[1]):
                self.trick.append((int(args[0]), args[1]))
            elif args[1].startswith("take:"):
                self._capture(int(args[0]), captured_cards(args[1], self.table or []))
            if int(args[0]) == self.seat:
                spent = spent_card(args[1])
                if spent in self.hand:
                    self.hand.remove(spent)
        elif kind == "table":
            self.table = list(args)
        elif kind == "taken" and len(args) >= 3 and int(args[1]) < len(self.tricks):
            self.tricks[int(args[1])] += 1
            self.points[int(args[1])] += int(args[2])
        elif kind == "contract" and len(args) >= 2:
            self.contract = (int(args[0]), args[1])
        elif kind == "seep" and len(args) >= 2 and int(args[0]) < len(self.bonus):
            self.bonus[int(args[0])] += int(args[1])
        elif kind == "leftover" and len(args) >= 1 and args[0].isdigit():
            self._capture(int(args[0]), args[1:])
        elif kind == "totals":
            self.totals = list(args)

    def _new_deal(self) -> None:
        self.hand, self.trick_number, self.trick, self.table = [], 0, [], None
        seats = len(self.names)
        self.tricks, self.points, self.bonus, self.contract = [0] * seats, [0] * seats, [0] * seats, None

    def _capture(self, seat: int, cards: Sequence[str]) -> None:
        """Seep: ``seat`` captured ``cards``, counted at their worth under the match's scoring."""
        from ..games.seep.rules import _card_worth  # the engine's own card values: one table of them

        if seat < len(self.points):
            scoring = self.options.get("scoring", "standard100")
            self.points[seat] += sum(_card_worth(Card.parse(c), scoring) for c in cards if is_card(c))

    def _side_tally(self, values: Sequence[int]) -> list[tuple[str, int, tuple[int, ...]]]:
        """``values`` added up per side, each with its label (``0+2``, or ``1:ann`` for a seat
        that plays alone) and its seats."""
        sides = self.sides or [(seat,) for seat in range(len(self.names))]
        return [("+".join(map(str, side)) if len(side) > 1 else self.who(side[0]),
                 sum(values[s] for s in side if s < len(values)), side) for side in sides]

    def deal_so_far(self) -> tuple[str, list[str]]:
        """The deal so far, as far as this seat's lines tell it (see the class docstring): a
        heading (``this deal, penalty points (tricks):``) and an entry per seat or side; no
        entries before there is anything to count (before the first trick, or the Seep floor)."""
        if self.game == "seep":
            if self.table is None:
                return "", []
            entries = []
            for label, points, side in self._side_tally(self.points):
                bonus = sum(self.bonus[s] for s in side)
                entries.append(f"{label} {points + bonus}" + (f" (seeps {bonus})" if bonus else ""))
            return "this deal, points:", entries
        if not self.trick_number:
            return "", []
        if self.contract is not None or self.game == "pepper":
            entries = [f"{label} {count}" for label, count, _ in self._side_tally(self.tricks)]
            if self.contract is not None:
                entries[-1] += ";"
                entries.append(f"contract {self.contract[1]} by {self.who(self.contract[0])}")
            return "this deal, tricks:", entries
        word = POINTS_WORD.get(self.game, "points")
        entries = [f"{self.who(seat)} {points} ({taken})"
                   for seat, (points, taken) in enumerate(zip(self.points, self.tricks))]
        return f"this deal, {word} (tricks):", entries

    def short_names(self) -> list[str]:
        """The names as shown: see :func:`short_name`."""
        return [short_name(n) for n in self.names]

    def who(self, seat: int) -> str:
        """A seat as every renderer writes it, ``2:ann``, its name shortened and escaped: a
        bot's name is never raw terminal text."""
        return f"{seat}:{display_name(short_name(self.names[seat])) if seat < len(self.names) else ''}"

    def hand_text(self, colour: bool) -> str:
        return paint(render_hand(Card.parse(c) for c in self.hand), colour)

    def trick_text(self, colour: bool) -> str:
        """The trick in progress as the replay writes a trick: who played each card, and the
        card with its suit symbol (``trick 3: 1:ann Q♠, 2:bob 10♠``); empty before the deal's
        first trick. Shown at this seat's own requests, so a trick with no card yet is its lead."""
        if not self.trick_number:
            return ""
        plays = ", ".join(played(self.who(seat), card) for seat, card in self.trick)
        return paint(f"trick {self.trick_number}: {plays or 'you lead'}", colour)


class HumanPlayer:
    """Plays from a terminal (prompts) or from lines (no prompts); see the module docstring."""

    def __init__(self, lines: Iterator[str] | None = None, out: IO[str] | None = None, interactive: bool = False):
        self.interactive = interactive
        self.lines = lines if lines is not None else iter(sys.stdin.readline, "")
        self.out = out if out is not None else sys.stderr
        self.colour = interactive and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        self.view = SeatView()
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
        self.say(paint(f"only one legal {what}: {move_label(move)}", self.colour))
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
        if view.game == "seep":
            from ..games.seep.text import table_text

            floor = table_text(view.table) if view.table is not None else "face down until the bid"
            self.say("floor: " + paint(floor, self.colour))
        elif view.trick_number:
            self.say(view.trick_text(self.colour))
        self.say(f"your hand: {view.hand_text(self.colour)}")
        head, entries = view.deal_so_far()
        if entries:
            for line in packed(entries, width, "  ", "  ", head):
                self.say(line)
        self.say(f"seat {view.seat}, your {request.kind}:")
        if len(request.moves) > 40 and all("+" in m and ":" not in m for m in request.moves):
            size = request.moves[0].count("+") + 1
            self.say(f"  choose {size} cards: type them in any order, e.g. {request.moves[0].replace('+', ' ')}")
            return
        for line in move_lines(request.moves, width):
            self.say(paint(line, self.colour))

    def _help(self) -> None:
        spec = registry.get(self.view.game)
        self.say("Type the number of a move, or the move itself: a card as shown (Q♠) or as a token (QS).")
        self.say("Cards are rank + suit: 2-9, T or 10 (ten), J, Q, K, A with C D H S, in either case")
        self.say("(QS or qs is the queen of spades; TS, 10s and 10S the ten of spades).")
        self.say("")
        self.say(spec.summary)
