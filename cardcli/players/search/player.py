"""The ``ismcts`` built-in player: information-set search over worlds its seat could be in.

It follows the match from its seat's protocol lines only (:mod:`.view`), like an outside bot,
and answers each request with :func:`.ismcts.search`. By default it thinks for a processor
time per decision (:data:`THINK_MS`), so its choices depend on the machine's speed; with an
iteration budget they depend only on its lines, its parameters and the ``rng`` line of the
header, so it is deterministic (the house levels, :mod:`cardcli.players.levels`).

Its parameters come in the seat spec after ``ismcts:``, separated by commas
(``ismcts:iterations=800,worlds=60``); docs/players.md lists them.
"""

from __future__ import annotations

import random
from typing import Sequence

import attrs

from ...errors import CardcliError, UsageError
from ...seats.base import Request
from ..heuristic import HeuristicPlayer
from .ismcts import Budget, Tree, deal_rewards, search
from .hooks import SearchHooks, play_model, policy_for
from .playouts import WholePlayout
from .view import Header, SeatView
from .worlds import ImpossibleView


PLAYOUTS = ("rule", "random", "card")
TREES = tuple(t.value for t in Tree)
NUMBERS = ("iterations", "ms", "cpu", "ceiling", "moves", "worlds", "c", "seed", "relative", "depth", "bids",
           "stepwise", "model")
KINDS = ("delegate", "flat")
"""Parameters that name decision kinds: ``bid+trump``, or ``none``."""
COUNTS = ("iterations", "ms", "cpu", "ceiling", "moves", "worlds")
"""Parameters that must be at least 1."""

THINK_MS = 500.0
"""The processor time a decision spends searching when the seat spec names no budget: a
faster machine, or a faster engine, makes a stronger player, as a chess engine's time control
does. A settled decision stops sooner (:class:`~.ismcts.Limits`)."""

CEILING_MS = 950.0
"""How far an unsettled decision may go past :data:`THINK_MS` when the seat spec names no
budget: the processor time a decision never exceeds, so that it stays under a second."""

DEFAULT_BUDGET = Budget(cpu_millis=THINK_MS, ceiling_millis=CEILING_MS)


@attrs.frozen
class Settings:
    budget: Budget = Budget()
    seed: int = 0
    playout: str = "rule"
    relative: float = 0.0
    delegate: frozenset[str] | None = None
    """Decision kinds left to the heuristic; None: those the game's search hooks name
    (:attr:`~cardcli.players.search.hooks.SearchHooks.delegated`)."""
    flat: frozenset[str] | None = None
    """Decision kinds searched one move deep; None: those the game's search hooks name
    (:attr:`~cardcli.players.search.hooks.SearchHooks.flat`)."""
    bids: float = 1.0
    """Below 1, Pepper's worlds are weighed by how well they fit the bids, keeping this
    much of a world's chance per trick a bid is off (:mod:`cardcli.plugins.pepper.bids`)."""
    tree: Tree = Tree.INFORMATION_SET
    """One tree over every world, or one per world (``tree=pimc``): :class:`~.ismcts.Tree`."""
    stepwise: bool = False
    """Play every playout move by move through the engine (``stepwise=1``), not by the game's
    whole-playout loop: the same policy, slower; the player as it was before the loops, for
    measuring what their speed is worth at equal time."""
    house: int | None = None
    """The house level this player is (4 or 5, :mod:`cardcli.players.levels`): its iterations
    are the game's for that level (:attr:`SearchHooks.house_iterations`), with no time ceiling,
    so that it plays the same on any machine."""
    model: float = 1.0
    """Below 1, the worlds are weighed by the other seats' plays in the deal: a play the
    game's model of them would not have made in a world keeps this much of its chance
    (:func:`~.hooks.play_model`; 1, every fitting world alike)."""

    @classmethod
    def parse(cls, text: str) -> "Settings":
        """``iterations=800,worlds=40`` and the like; a bad parameter is a usage error."""
        fields: dict[str, float] = {}
        playout = "rule"
        tree = Tree.INFORMATION_SET
        kinds: dict[str, frozenset[str]] = {}
        for item in filter(None, text.split(",")):
            name, sep, raw = (part.strip() for part in item.partition("="))
            if name in KINDS and sep:
                kinds[name] = frozenset() if raw == "none" else frozenset(filter(None, raw.split("+")))
            elif name == "playout" and sep:
                if raw not in PLAYOUTS:
                    raise UsageError(f"ismcts: playout must be one of {', '.join(PLAYOUTS)}, not {raw!r}")
                playout = raw
            elif name == "tree" and sep:
                if raw not in TREES:
                    raise UsageError(f"ismcts: tree must be one of {', '.join(TREES)}, not {raw!r}")
                tree = Tree(raw)
            elif name in NUMBERS and sep:
                fields[name] = _number(name, raw)
            else:
                known = ", ".join((*NUMBERS, "playout", "tree", *KINDS))
                raise UsageError(f"ismcts: unknown parameter {item!r}; parameters: {known}")
        default = Budget()
        budget = Budget(
            iterations=int(fields["iterations"]) if "iterations" in fields else None,
            millis=fields.get("ms"),
            cpu_millis=fields.get("cpu"),
            ceiling_millis=fields.get("ceiling"),
            worlds=int(fields.get("worlds", default.worlds)),
            exploration=fields.get("c", default.exploration),
            depth=int(fields.get("depth", 0)),
            moves=int(fields["moves"]) if "moves" in fields else None,
        )
        bids = fields.get("bids", 1.0)
        if bids > 1:
            raise UsageError(f"ismcts: bids={bids:g} is out of range (0 to 1)")
        model = fields.get("model", 1.0)
        if not 0 < model <= 1:
            raise UsageError(f"ismcts: model={model:g} is out of range (above 0, at most 1)")
        stepwise = fields.get("stepwise", 0)
        if stepwise not in (0, 1):
            raise UsageError(f"ismcts: stepwise must be 0 or 1, not {stepwise:g}")
        return cls(budget, int(fields.get("seed", 0)), playout, fields.get("relative", 0.0), kinds.get("delegate"),
                   kinds.get("flat"), bids, tree, stepwise == 1, model=model)


def _number(name: str, raw: str) -> float:
    try:
        number = float(raw)
    except ValueError:
        raise UsageError(f"ismcts: {name} must be a number, not {raw!r}") from None
    if not 0 <= number < 1e9 or (name in COUNTS and number < 1):
        raise UsageError(f"ismcts: {name}={raw} is out of range")
    return number


class IsmctsPlayer:
    """Follows its seat's lines, keeps a :class:`SeatView`, and searches at every request.

    The heuristic player follows the same lines alongside: if the view ever fails to fit what
    the seat was told (a bug, never a bot's doing), the heuristic finishes the match and the
    failure is counted in :attr:`failures` instead of breaking the referee.
    """

    def __init__(self, settings: Settings = Settings()) -> None:
        self.settings = settings
        self.view: SeatView | None = None
        self.hooks = SearchHooks(SeatView)
        """The game's search hooks, once the header names the game."""
        self.fallback = HeuristicPlayer()
        self.failures = 0
        self.decisions = 0
        self._header: list[list[str]] = []

    def notify(self, lines: Sequence[str]) -> None:
        self.fallback.notify(lines)
        for line in lines:
            words = line.split()
            if not words:
                continue
            head = words[0]
            if head == "game":
                self._header, self.view = [words], None
                self.decisions = 0
            elif head == "begin":
                self.view = self._start()
            elif self.view is not None:
                try:
                    self.view.feed(words)
                except ImpossibleView:
                    self._fail()
            elif head in ("option", "player", "order", "team", "rng"):
                self._header.append(words)

    def _start(self) -> SeatView | None:
        """The game's seat view from the header; None (the heuristic plays) for a game
        without search hooks or a header that names no game."""
        try:
            header = Header.parse(self._header)
            hooks = header.setup().spec.search
        except (KeyError, IndexError, ValueError, CardcliError):
            return None
        if hooks is None:
            return None
        self.hooks = hooks.load()
        view = self.hooks.view(header)
        view.bid_weight = self.settings.bids
        view.play_model = play_model(self.hooks, view.n, self.settings.model)
        return view

    def _delegated(self) -> frozenset[str]:
        chosen = self.settings.delegate
        return self.hooks.delegated if chosen is None else chosen

    def _flat(self) -> frozenset[str]:
        chosen = self.settings.flat
        return self.hooks.flat if chosen is None else chosen

    def _fail(self) -> None:
        self.failures += 1
        self.view = None

    def choose(self, request: Request) -> str:
        self.decisions += 1
        if len(request.moves) == 1:
            return request.moves[0]
        view = self.view
        if view is None or request.kind in self._delegated():
            return self.fallback.choose(request)
        header = view.header
        rng = random.Random(f"cardcli/ismcts/{self.settings.seed}/{header.rng}/{self.decisions}")
        spec = view.setup.spec
        budget = self.settings.budget
        if self.settings.house is not None:
            budget = attrs.evolve(budget, iterations=self.hooks.house_iterations[self.settings.house - 4])
        elif budget.iterations is None and budget.millis is None and budget.cpu_millis is None:
            budget = attrs.evolve(budget, cpu_millis=DEFAULT_BUDGET.cpu_millis,
                                  ceiling_millis=budget.ceiling_millis or DEFAULT_BUDGET.ceiling_millis)
        if request.kind in self._flat():
            budget = attrs.evolve(budget, depth=1)
        rewards = deal_rewards(view.n, spec.lower_is_better, spec.teams(view.n), self.settings.relative)
        try:
            policy = policy_for(self.hooks, view.n, self.settings.playout)
            if self.settings.stepwise and isinstance(policy, WholePlayout):
                policy = policy.step
            result = search(view.world, view.seat, request.moves, rewards, budget, rng, policy, self.settings.tree)
        except ImpossibleView:
            self._fail()
            return self.fallback.choose(request)
        return result.move
