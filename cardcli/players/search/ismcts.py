"""Information-set Monte Carlo tree search (single observer), after Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG, 2012).

Plain determinization searches each imagined world separately and averages the answers, which
lets the search assume it knows the hidden cards ("strategy fusion"). ISMCTS instead grows one
tree over the moves, shared by every world: each iteration draws a world, walks down the tree
using only the moves legal in that world, and scores the moves by UCB with *availability*
counts (how often a move could have been chosen) in place of the parent's visits, so a move
legal in few worlds is not starved. Determinized search (perfect-information Monte Carlo,
PIMC, as Ginsberg's GIB played Bridge) is here too, for comparison (:class:`Tree`): one tree
per world, and the root's visits summed over the trees.

Each node scores the move that leads to it from the point of view of the seat that made it
(max-n), so opponents in the tree play for themselves. A playout finishes the deal with random
moves through the engines' integer actions (or a game's whole-playout loop, the same policy in
one call: :class:`~.playouts.WholePlayout`); the reward of a seat is its points in the deal
minus the mean of its opponents' (sign flipped in the penalty games), so every game rewards
doing better than the others rather than a raw score whose scale differs by game.
"""

from __future__ import annotations

import enum
import math
import random
import time
from typing import Callable, Sequence

import attrs

from ...games.base import MatchState
from .playouts import Finish, Policy, WholePlayout, random_policy


DEFAULT_ITERATIONS = 400


@attrs.frozen
class Budget:
    """How much to search per decision: a number of iterations, or a time (then the result
    depends on the machine's speed), and optionally caps on the moves simulated and on the
    processor time; the search stops at whichever limit comes first. ``worlds`` is how many
    distinct worlds are drawn per decision; the iterations cycle over them."""

    iterations: int | None = None
    """None: no limit on the iterations where a time is given (:attr:`millis`,
    :attr:`cpu_millis`); otherwise :data:`DEFAULT_ITERATIONS`."""
    millis: float | None = None
    """A time budget by the clock, in milliseconds."""
    cpu_millis: float | None = None
    """A budget of processor time for the decision's thread, in milliseconds. Processor time,
    not the clock, so that other work on the machine does not shorten the search. The search
    may end sooner, once the move it would choose can no longer change in the time left (at
    the rate it has searched so far), and later, up to :attr:`ceiling_millis`, while the
    decision is unsettled (:meth:`RootStats.unsettled`)."""
    ceiling_millis: float | None = None
    """A hard limit on the decision's processor time, in milliseconds, that nothing extends.
    None: :attr:`cpu_millis`. With an iteration budget alone, a ceiling changes nothing but the
    rare decision that would run long on a slow or busy machine: a bound on the time that
    keeps the search deterministic wherever it is not reached."""
    worlds: int = 40
    exploration: float = 0.7
    depth: int = 0
    """How many moves deep the tree grows (0: no limit); below it the playout decides."""
    moves: int | None = None
    """A cap on the moves one decision simulates, the tree's and the playouts' together (None:
    no cap); the search stops at whichever of the iterations and the cap comes first. An
    iteration costs about the moves left in the deal, so the first decisions of a deal take
    several times as long as the last: the cap bounds them, as a time budget would, yet stays
    deterministic."""


class Tree(enum.Enum):
    """How the search's trees share the worlds."""

    INFORMATION_SET = "ismcts"
    """One tree for every world (Cowling, Powley and Whitehouse): the moves are judged over
    all the worlds at once, so the search cannot plan on knowing the hidden cards."""
    DETERMINIZED = "pimc"
    """One tree per world, each searched as if its cards were seen, and the root's visits
    summed over the trees (perfect-information Monte Carlo): deeper trees for the same
    iterations in every world, but each plans as if it knew the hidden cards ("strategy
    fusion", Frank and Basin)."""


class Node:
    """One move's statistics, from the point of view of the seat that made it."""

    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0


@attrs.frozen
class Result:
    move: str
    iterations: int
    worlds: int
    visits: dict[str, int]
    simulated: int = 0
    """Moves simulated, the tree's and the playouts' (what :attr:`Budget.moves` caps)."""
    cpu_millis: float = attrs.field(default=0.0, eq=False)
    """The processor time the search took, in milliseconds: not part of what two searches
    must share to be the same search."""


Rewards = Callable[[MatchState], Sequence[float]]


class DealRewards:
    """Each seat's points in the deal just finished, less ``relative`` times its opponents'
    mean (0: its own points alone): from a finished world, or (:meth:`of_points`) from the
    points a whole playout gives without finishing the world itself."""

    def __init__(self, num_players: int, lower_is_better: bool, teams: Sequence[Sequence[int]],
                 relative: float = 0.0) -> None:
        side = {s: frozenset(team) for team in teams for s in team}
        self.opponents = [[o for o in range(num_players) if o not in side.get(s, {s})] for s in range(num_players)]
        self.sign = -1.0 if lower_is_better else 1.0
        self.relative = relative

    def __call__(self, state: MatchState) -> list[float]:
        return self.of_points(state.deal_scores[-1].points)

    def of_points(self, points: Sequence[int]) -> list[float]:
        sign, relative = self.sign, self.relative
        return [
            sign * (points[s] - relative * sum(points[o] for o in others) / len(others))
            for s, others in enumerate(self.opponents)
        ]


def deal_rewards(num_players: int, lower_is_better: bool, teams: Sequence[Sequence[int]], relative: float = 0.0) -> Rewards:
    """The :class:`DealRewards` of a game and seat count."""
    return DealRewards(num_players, lower_is_better, teams, relative)


def moves_of(state: MatchState, seat: int) -> Sequence[str]:
    for decision in state.decisions():
        if decision.seat == seat:
            return decision.moves
    return ()


def search(
    world: Callable[[random.Random], MatchState],
    seat: int,
    moves: Sequence[str],
    rewards: Rewards,
    budget: Budget,
    rng: random.Random,
    policy: Policy = random_policy,
    tree: Tree = Tree.INFORMATION_SET,
) -> Result:
    """The move to make among ``moves`` for ``seat``, searching worlds drawn by ``world``.

    The search stops as soon as the most visited move leads every other by more visits than
    there are iterations left: no outcome of those could change the move chosen (the most
    visited), so they would cost time and change nothing. Every iteration adds one visit to
    one of the root's moves, which makes the lead easy to keep. Under a time budget the
    iterations left are estimated from the rate so far (:class:`Limits`)."""
    roots: list[Node] = []
    worlds: list[MatchState] = []
    stats = RootStats()
    limits = Limits(budget)
    low, high = math.inf, -math.inf
    iterations = simulated = 0
    # a game's whole playout finishes a deal in one call, given rewards that read points
    finish: Finish | None = None
    of_points: Callable[[Sequence[int]], Sequence[float]] | None = None
    if isinstance(policy, WholePlayout) and isinstance(rewards, DealRewards):
        finish, of_points = policy.finish, rewards.of_points
    while True:
        if simulated >= limits.cap:
            break
        left = limits.left(iterations, stats)
        if left <= 0 or stats.margin() > left:
            break
        if len(worlds) < budget.worlds:
            drawn = world(rng)
            moves_of(drawn, seat)  # its root moves, found once: the iterations' copies share them
            worlds.append(drawn)
            if tree is Tree.DETERMINIZED or not roots:
                roots.append(Node())
        index = iterations % len(worlds)
        state = worlds[index].clone()
        spread = high - low if high > low else 1.0
        root = roots[index if tree is Tree.DETERMINIZED else 0]
        first, path = _descend(root, state, seat, moves, budget.exploration * spread, rng, budget.depth)
        simulated += len(path)
        finished = None
        if finish is not None and not (state.needs_deal() or state.is_over()):
            finished = finish(state, rng)
        if finished is not None and of_points is not None:
            points, played = finished
            simulated += played
            scores = of_points(points)
        else:
            while not (state.needs_deal() or state.is_over()):
                policy(state, rng)
                simulated += 1
            scores = rewards(state)
        for node, mover in path:
            node.visits += 1
            node.reward += scores[mover]
        stats.record(first, scores[seat])
        low = min(low, *scores)
        high = max(high, *scores)
        iterations += 1
    visits = {m: stats.visits.get(m, 0) for m in moves}
    best = max(moves, key=lambda m: (visits[m], stats.mean(m)))
    return Result(best, iterations, len(worlds), visits, simulated, limits.spent())


class RootStats:
    """The root's moves over every tree (one tree, or one per world): their visits and
    rewards, from the searching seat's point of view, and the lead of the most visited."""

    __slots__ = ("visits", "reward", "leader", "lead", "runner_up")

    def __init__(self) -> None:
        self.visits: dict[str, int] = {}
        self.reward: dict[str, float] = {}
        self.leader: str | None = None
        self.lead = 0
        """The visits of the most visited move."""
        self.runner_up = 0
        """The most visits of any other move."""

    def record(self, move: str, reward: float) -> None:
        visits = self.visits[move] = self.visits.get(move, 0) + 1
        self.reward[move] = self.reward.get(move, 0.0) + reward
        if move == self.leader:
            self.lead = visits
        elif visits > self.lead:
            self.leader, self.lead, self.runner_up = move, visits, self.lead
        elif visits > self.runner_up:
            self.runner_up = visits

    def margin(self) -> int:
        return self.lead - self.runner_up

    def mean(self, move: str) -> float:
        visits = self.visits.get(move, 0)
        return self.reward[move] / visits if visits else -math.inf

    def unsettled(self) -> bool:
        """Whether a move with a fair share of the visits scores better on average than the
        most visited one, which the search would choose: the decision is not made yet, and
        more iterations may change it."""
        if self.leader is None:
            return True
        floor = self.lead * UNSETTLED_SHARE
        best = self.mean(self.leader)
        return any(v >= floor and self.mean(m) > best for m, v in self.visits.items() if m != self.leader)


UNSETTLED_SHARE = 0.25
"""A move counts against the most visited one only with at least this share of its visits:
a move tried a few times can look best by luck."""


class Limits:
    """When a decision's search must stop, and how many iterations it has left.

    The time limits follow Baier and Winands, "Time Management for Monte Carlo Tree Search"
    (IEEE TCIAIG, 2016), whose strategies a searching player for games with a clock wants:

    * **stop early** (their EARLY): the iterations left are estimated from the rate so far,
      and the search stops once no outcome of that many could change the move chosen;
    * **go on while unsettled** (UNST): at the end of the processor-time budget the search goes
      on, up to the ceiling, while another move looks better than the one most visited.

    With an iteration budget, every time is a ceiling only, so the search stays deterministic
    wherever no time is reached. The clock (``millis``) and the ceiling are hard: nothing
    extends them. Processor time is the decision thread's (``time.thread_time``), so the
    referee's other seats, playing in other threads or processes, neither take from nor add
    to it."""

    def __init__(self, budget: Budget, cpu: Callable[[], float] = time.thread_time,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.cpu, self.clock = cpu, clock
        """The processor time and the clock, in seconds: injected so that a test can run the
        rules on a clock of its own."""
        self.cpu_start = cpu()
        self.clock_start = clock()
        timed = budget.millis is not None or budget.cpu_millis is not None
        if budget.iterations is not None:
            self.iterations: float = budget.iterations
        else:
            self.iterations = math.inf if timed else DEFAULT_ITERATIONS
        self.cap: float = math.inf if budget.moves is None else budget.moves
        self.clock_end = math.inf if budget.millis is None else self.clock_start + budget.millis / 1000
        self.soft = math.inf if budget.cpu_millis is None else self.cpu_start + budget.cpu_millis / 1000
        ceiling = budget.ceiling_millis if budget.ceiling_millis is not None else budget.cpu_millis
        self.hard = math.inf if ceiling is None else self.cpu_start + ceiling / 1000
        self.timed = timed or budget.ceiling_millis is not None

    def left(self, done: int, stats: RootStats) -> float:
        """The iterations the search may still make: those of its budget, or as many as its
        rate so far fits in the time it has left; 0 to stop now."""
        left = self.iterations - done
        if not self.timed or not done:
            return left
        cpu, clock = self.cpu(), self.clock()
        if clock >= self.clock_end or cpu >= self.hard:
            return 0
        if self.iterations < math.inf:  # the times are ceilings on an iteration budget
            return left if cpu < self.soft else 0
        end = self.soft
        if cpu >= end:
            if self.hard <= end or not stats.unsettled():
                return 0
            end = self.hard
        rate = done / max(cpu - self.cpu_start, 1e-9)
        left = min(left, rate * (end - cpu))
        if self.clock_end < math.inf:
            left = min(left, done / max(clock - self.clock_start, 1e-9) * (self.clock_end - clock))
        return max(left, 1.0)

    def spent(self) -> float:
        """The processor time the decision spent, in milliseconds."""
        return (self.cpu() - self.cpu_start) * 1000


def _descend(
    root: Node, state: MatchState, seat: int, moves: Sequence[str], scale: float, rng: random.Random, depth: int
) -> tuple[str, list[tuple[Node, int]]]:
    """Select down the tree and expand one move; the root's move chosen, and the nodes
    walked, each with its mover."""
    path: list[tuple[Node, int]] = []
    node, mover, legal = root, seat, moves
    first = ""
    while True:
        children = node.children
        fresh = [m for m in legal if m not in children]
        for m in legal:
            child = children.get(m)
            if child is not None:
                child.available += 1
        if fresh:
            move = rng.choice(fresh)
            child = children[move] = Node()
            child.available = 1
            state.apply_quietly(mover, move)
            path.append((child, mover))
            return first or move, path
        move = max(legal, key=lambda m: _ucb(children[m], scale))
        state.apply_quietly(mover, move)
        node = children[move]
        path.append((node, mover))
        first = first or move
        if state.needs_deal() or state.is_over() or len(path) == depth:
            return first, path
        mover = state.current_player()  # type: ignore[attr-defined]
        legal = moves_of(state, mover)


def _ucb(node: Node, scale: float) -> float:
    return node.reward / node.visits + scale * math.sqrt(math.log(node.available) / node.visits)
