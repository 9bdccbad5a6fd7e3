"""Paired duplicate results: how two entrants compare on the very same cards.

In a duplicate tournament every deal set is replayed with the seats rotated, so entrant A and
entrant B each play the same deals from the same seat, in different matches. Comparing A's
score from a seat with B's score from that seat, on that deal set, removes the luck of the
cards (the hand dealt to the seat is the same for both), which dominates a card game's scores:
the paired differences vary far less than the scores themselves, and their confidence interval
is correspondingly narrower than one from the two entrants' unpaired scores. That is the point
of duplicate deals; the table of :mod:`.results` compares entrants on their unpaired means.

**The observations.** For each pair of entrants (A, B), each deal set *d* and each seat *s*
that A played in some match of *d* and B in another match of *d*, one observation::

    difference(d, s) = A's score per deal from s in d  -  B's score per deal from s in d

negated when lower scores are better (Peppa), so that a positive difference always means A did
better. A seat's *score per deal* in a match is the sum of the seat's ``points`` over the
match's deals divided by the number of those deals: matches of one deal set may last different
numbers of deals (the game ends when a total is reached), and the score per deal puts them on
one scale, as the table's ``score_per_deal`` does. A forfeited seat's points count as recorded
(the fallback player's play is what the seat scored). Deals without points (only in an aborted
match) are left out of both sums.

**Several matches from one seat.** With ``--permutations`` (and with fewer entrants than
places, where an entrant fills several seats) an entrant may play a seat of a deal set in more
than one match. Its scores per deal from (d, s) are then averaged first, and (d, s) still
gives one difference. Pairing every A-match with every B-match instead would count one
(d, s) many times over, as if the repeats were independent evidence; they are not (same cards,
same seat), so the number of observations and with it the interval would overstate what the
tournament showed.

**The interval.** The 95% interval of the mean difference is Student's t with n - 1 degrees
of freedom over the n differences: the tournaments are short (a few dozen deal sets), where
the normal 1.96 would be too narrow. The observations of one deal set share its cards and are
not strictly independent, so the interval is a guide, not an exact coverage; the sequential
test (:mod:`.sprt`) averages them into one observation per deal set for that reason
(:meth:`PairedTally.deal_set_differences`). A pair is *separated* only when its interval
excludes zero.

**Which records.** Only complete records (``status == "complete"``) count: an aborted match
has no result and its last deal no points, and a score per deal over the deals it happened to
reach before the abort is not comparable with a whole match's. Leaving it out loses the
observations of that (deal set, seat) for the entrants of that match, nothing else.

**Matchpoints.** The same (deal set, seat) places also score each entrant as duplicate bridge
pairs are scored: at every place, 1 point for each other entrant who held those cards from that
seat and did worse, 1/2 for each who did as well, 0 for each who did better; the entrant's
matchpoints are its points as a percentage of its comparisons (:meth:`PairedTally.matchpoints`).
They are what the table is ranked by (:mod:`.results`): paired like the differences, so the luck
of the cards cancels, and counting who did better rather than by how much, so one freak deal
(a Seep of 50 points) weighs no more than any other.

**Memory.** Records are folded one at a time into a sum and a count per (deal set, seat,
entrant); the differences are made from those at the end. Memory grows with the number of deal
sets, never with the number of deals or the length of the records. A tournament's deal sets are
few; an arena's season has no end, so the arena *seals* each deal set (one unit) once it is
complete (:meth:`PairedTally.seal`): its differences and matchpoints go into per-pair and
per-entrant totals and its cells are dropped, so memory stays flat however long the season.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections import defaultdict
from fractions import Fraction
from typing import Any, Iterable, Iterator, Sequence

import attrs

from ..errors import RecordError
from ..records.model import Record, TournamentInfo

CONFIDENCE = 0.95
"""The two-sided level of the intervals."""

TIE = 1e-9
"""Differences within this of zero are draws: the scores per deal are quotients and two equal
performances may differ in the last bits."""

NOT_SEPARATED = "not separated"


# ---------------------------------------------------------------------------------------------
# Student's t quantile, without scipy: the distribution function through the regularized
# incomplete beta function (a continued fraction, as in Numerical Recipes' betacf, evaluated by
# the modified Lentz method), inverted by bisection. Exact forms for 1 and 2 degrees of freedom,
# and the normal quantile with the Cornish-Fisher correction for very large ones.


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            return h
    return h


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    # the fraction converges fast on this side of the mean; use the symmetry on the other
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df!r}")
    if t == 0.0:
        return 0.5
    t2 = t * t
    if t2 < df:
        # near the centre from the central mass: df / (df + t^2) would round to 1 there
        central = 0.5 * _regularized_beta(0.5, df / 2.0, t2 / (df + t2))
        return 0.5 + central if t > 0 else 0.5 - central
    tail = 0.5 * _regularized_beta(df / 2.0, 0.5, df / (df + t2))
    return 1.0 - tail if t > 0 else tail


@functools.lru_cache(maxsize=1024)
def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``t_quantile(0.975,
    10)`` = 2.2281...), to about 1e-10. Written here rather than taken from scipy, which
    cardcli does not otherwise need: a few dozen lines against a large dependency."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p!r}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df!r}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2.0 * p - 1.0) / math.sqrt(2.0 * p * (1.0 - p))
    if df > 1e5:
        # Cornish-Fisher (Abramowitz & Stegun 26.7.5): its error falls as df^-5, far below 1e-12
        # here, where the continued fraction would need many terms
        z = statistics.NormalDist().inv_cdf(p)
        g1 = (z**3 + z) / 4.0
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96.0
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384.0
        return z + g1 / df + g2 / df**2 + g3 / df**3
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low <= 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


def half_width(n: int, variance: float, confidence: float = CONFIDENCE) -> float:
    """The half-width of the two-sided t interval of a mean of ``n`` observations with sample
    variance ``variance``; infinite below 2 observations (nothing is known of the spread)."""
    if n < 2:
        return math.inf
    return t_quantile(0.5 + confidence / 2.0, n - 1) * math.sqrt(variance / n)


# ---------------------------------------------------------------------------------------------


@attrs.frozen
class Observation:
    """One paired difference: deal set, seat, and A's minus B's score per deal (positive when
    A did better)."""

    deal_set: int
    seat: int
    difference: float


@attrs.frozen
class PairResult:
    """How entrant ``a`` compares with entrant ``b`` (``a`` before ``b`` in entrant order) over
    their paired observations; positive differences favour ``a``."""

    a: str
    b: str
    n: int
    """The number of paired observations, (deal set, seat) played by both."""
    mean: float
    """The mean difference per deal; 0.0 when n is 0."""
    half_width: float
    """The half-width of the 95% t interval of the mean; infinite below 2 observations."""
    wins: int
    """Observations where ``a`` did better (difference above :data:`TIE`)."""
    draws: int
    losses: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def better(self) -> str | None:
        """The entrant the interval puts ahead (it excludes zero), else None. Never with fewer
        than 2 observations (no spread, no interval); with 2 or more identical differences the
        interval has no width and a nonzero mean separates: every paired comparison agreed."""
        if self.n >= 2 and self.low > 0.0:
            return self.a
        if self.n >= 2 and self.high < 0.0:
            return self.b
        return None

    @property
    def verdict(self) -> str:
        """``"<a> better"``, ``"<b> better"`` or :data:`NOT_SEPARATED`."""
        better = self.better
        return NOT_SEPARATED if better is None else f"{better} better"

    def to_json(self) -> dict[str, Any]:
        """The result for ``--json``: numbers rounded to 3 decimals as the table's are; the
        mean is null without observations and the interval null below 2."""
        finite = math.isfinite(self.half_width)
        return {
            "a": self.a,
            "b": self.b,
            "n": self.n,
            "mean": round(self.mean, 3) if self.n else None,
            "ci": round(self.half_width, 3) if finite else None,
            "low": round(self.low, 3) if finite else None,
            "high": round(self.high, 3) if finite else None,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "better": self.better,
            "verdict": self.verdict,
        }


def _outcome(difference: float) -> int:
    """1 when the difference favours the first entrant, -1 the second, 0 a draw (within
    :data:`TIE`): the one rule the signs and the matchpoints both count by."""
    return 1 if difference > TIE else -1 if difference < -TIE else 0


@attrs.define
class Running:
    """Welford's running mean and sum of squared deviations, and the signs, of one pair's
    differences: no list of them is kept."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)
        self._count(x)

    def _count(self, x: float) -> None:
        outcome = _outcome(x)
        if outcome > 0:
            self.wins += 1
        elif outcome < 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def variance(self) -> float:
        return self.m2 / (self.n - 1) if self.n >= 2 else 0.0

    def copy(self) -> "Running":
        return attrs.evolve(self)


@attrs.define
class _Exact(Running):
    """The sum and the sum of squares of one pair's differences, kept exactly (a float is a
    binary fraction, so :class:`~fractions.Fraction` adds them without rounding), and the signs.

    Why not Welford's running form, as a tournament's :meth:`PairedTally.results` uses: a
    sealing tally (the arena's) adds each deal set's differences when it seals it, and when a
    deal set is sealed depends on when the tally looked (a unit dropped, or finished with an
    unrated match, is sealed at the next look). A running mean rounds differently in another
    order; exact sums are the same in any order, so the standings kept match by match equal
    those folded from nothing, to the last bit. The mean and the variance are rounded once, at
    the end."""

    total: Fraction = Fraction(0)
    squares: Fraction = Fraction(0)

    def add(self, x: float) -> None:
        exact = Fraction(x)
        self.n += 1
        self.total += exact
        self.squares += exact * exact
        self.mean = float(self.total / self.n)
        self._count(x)

    @property
    def variance(self) -> float:
        if self.n < 2:
            return 0.0
        return float((self.squares - self.total * self.total / self.n) / (self.n - 1))

    def copy(self) -> "_Exact":
        return attrs.evolve(self)


def _unusable(key: str) -> RecordError:
    """The error for a tournament record that lacks ``key``, which folding it needs."""
    return RecordError(f"a tournament record without a usable tag or deals ({KeyError(key)!r})")


def tournament_tag(record: Record) -> TournamentInfo:
    """The record's place in its tournament: every reader of a tournament's records needs it,
    and a record without one (not a tournament's) is a RecordError rather than a crash."""
    if record.tournament is None:
        raise _unusable("tournament")
    return record.tournament


def deal_set_of(record: Record) -> int:
    """The deal set of a tournament record, which the paired results and the sequential test
    group its scores by; a RecordError for a record whose tag does not say it."""
    deal_set = tournament_tag(record).deal_set
    if deal_set is None:
        raise _unusable("deal_set")
    return deal_set


@attrs.define
class PairedTally:
    """Folds tournament records, one at a time, into the sums paired results need.

    ``cells[(deal_set, seat, entrant)] = [sum of the entrant's scores per deal from that seat
    of that deal set, number of its matches there]``: the one thing kept per record, until the
    deal set is sealed (:meth:`seal`, ``exact`` tallies only)."""

    names: tuple[str, ...]
    lower_is_better: bool
    exact: bool = False
    """Whether the pairs' totals are kept exactly (:class:`_Exact`), which :meth:`seal` needs;
    a tournament's tally keeps Welford's running form (:class:`Running`), as it always has, so
    its printed results do not move by a digit."""
    cells: dict[tuple[int, int, int], list[float]] = attrs.field(factory=dict)
    seats: set[int] = attrs.field(factory=set)
    """The seats seen, to walk one deal set's cells."""
    skipped: int = 0
    """Records left out because they are not complete."""
    sealed: dict[tuple[int, int], Running] = attrs.field(factory=dict)
    """(a, b) → the totals of the pair's differences over the sealed deal sets."""
    sealed_points: dict[int, list[float]] = attrs.field(factory=dict)
    """Entrant → [matchpoints, comparisons] over the sealed deal sets."""
    sealed_sets: int = 0
    """How many deal sets were sealed (a count, not their list: that would grow)."""

    def add(self, record: Record) -> bool:
        """Fold one record in; False (and counted in :attr:`skipped`) for one that is not
        complete. A RecordError for a record whose tag or points do not fit the tournament."""
        if record.status != "complete":
            self.skipped += 1
            return False
        tag = tournament_tag(record)
        deal_set = deal_set_of(record)
        points = [d.points for d in record.deals if d.points is not None]
        if any(not 0 <= e < len(self.names) for e in tag.seating):
            raise RecordError(f"record {tag.key!r} seats an entrant the tournament does not have")
        if not points:
            self.skipped += 1
            return False
        for seat, entrant in enumerate(tag.seating):
            try:
                total = sum(p[seat] for p in points)
            except IndexError:
                raise RecordError(f"record {tag.key!r}: a deal without points for seat {seat}") from None
            self.seats.add(seat)
            cell = self.cells.setdefault((deal_set, seat, entrant), [0.0, 0])
            cell[0] += total / len(points)
            cell[1] += 1
        return True

    def seal(self, deal_set: int) -> None:
        """Fold a complete deal set's places into the sealed totals (each pair's differences,
        each entrant's matchpoints) and drop its cells: what keeps an arena's memory flat over
        a season. :meth:`results` and :meth:`matchpoints` then count it as before, and
        :meth:`deal_set_difference` no longer sees it (the sequential test never seals). A
        record of the deal set folded after the seal opens it afresh, as a place of its own."""
        if not self.exact:
            raise ValueError("only an exact tally seals deal sets: a running mean would depend on when they were")
        sign = -1.0 if self.lower_is_better else 1.0
        for seat in sorted(self.seats):
            scores = {}
            for entrant in range(len(self.names)):
                cell = self.cells.pop((deal_set, seat, entrant), None)
                if cell is not None:
                    scores[entrant] = sign * cell[0] / cell[1]
            for a, b, difference in _pairs_at(scores):
                self.sealed.setdefault((a, b), _Exact()).add(difference)
                _award(self.sealed_points, a, b, difference)
        self.sealed_sets += 1

    def _by_place(self) -> dict[tuple[int, int], dict[int, float]]:
        """(deal set, seat) -> entrant -> its mean score per deal there, signed so that higher
        is better (the open deal sets only)."""
        sign = -1.0 if self.lower_is_better else 1.0
        places: dict[tuple[int, int], dict[int, float]] = defaultdict(dict)
        for (deal_set, seat, entrant), (total, count) in self.cells.items():
            places[(deal_set, seat)][entrant] = sign * total / count
        return places

    def observations(self, a: int, b: int) -> Iterator[Observation]:
        """The paired differences of entrant ``a`` against ``b`` (indexes), in (deal set, seat)
        order (of the open deal sets)."""
        places = self._by_place()
        for (deal_set, seat) in sorted(places):
            scores = places[(deal_set, seat)]
            if a in scores and b in scores:
                yield Observation(deal_set, seat, scores[a] - scores[b])

    def deal_set_differences(self, a: int, b: int) -> list[tuple[int, float]]:
        """One observation per deal set for the sequential test: (deal set, mean of the pair's
        differences over the seats both played in it), in deal set order. The seats of one
        deal set share its cards, so they are averaged rather than counted as independent."""
        found = ((d, self.deal_set_difference(a, b, d)) for d in sorted({key[0] for key in self.cells}))
        return [(d, difference) for d, difference in found if difference is not None]

    def deal_set_difference(self, a: int, b: int, deal_set: int) -> float | None:
        """The observation of one deal set (see :meth:`deal_set_differences`), or None when A and
        B share no seat of it. Read from that deal set's cells alone, so a test fed deal set by
        deal set costs the same at the thousandth as at the first."""
        sign = -1.0 if self.lower_is_better else 1.0
        differences = []
        for seat in sorted(self.seats):
            mine, theirs = self.cells.get((deal_set, seat, a)), self.cells.get((deal_set, seat, b))
            if mine is not None and theirs is not None:
                differences.append(sign * (mine[0] / mine[1] - theirs[0] / theirs[1]))
        return sum(differences) / len(differences) if differences else None

    def matchpoints(self) -> list["Matchpoints"]:
        """Each entrant's matchpoints, in entrant order: at every (deal set, seat) it played,
        1 for each other entrant that played it worse, 1/2 for each that played it as well
        (within :data:`TIE`), 0 for each that played it better. Every matchpoint is a
        multiple of 1/2, so the sums are exact, sealed or not."""
        points = {e: list(counts) for e, counts in self.sealed_points.items()}
        for scores in self._by_place().values():
            for a, b, difference in _pairs_at(scores):
                _award(points, a, b, difference)
        found = [points.get(e, [0.0, 0]) for e in range(len(self.names))]
        return [Matchpoints(total, int(comparisons)) for total, comparisons in found]

    def results(self) -> list[PairResult]:
        """One :class:`PairResult` per pair of entrants, (0, 1), (0, 2), ..., (1, 2), ...: every
        pair, those that never shared a (deal set, seat) with n = 0. The sealed totals, then
        the open places in (deal set, seat) order."""
        places = self._by_place()
        running = {pair: totals.copy() for pair, totals in self.sealed.items()}
        fresh = _Exact if self.exact else Running
        for key in sorted(places):
            for a, b, difference in _pairs_at(places[key]):
                running.setdefault((a, b), fresh()).add(difference)
        out = []
        count = len(self.names)
        for a in range(count):
            for b in range(a + 1, count):
                r = running.get((a, b), fresh())
                out.append(PairResult(self.names[a], self.names[b], r.n, r.mean, half_width(r.n, r.variance),
                                      r.wins, r.draws, r.losses))
        return out


def _pairs_at(scores: dict[int, float]) -> Iterator[tuple[int, int, float]]:
    """Each pair of the entrants at one place, (a, b) with a < b, and a's score minus b's."""
    present = sorted(scores)
    for i, a in enumerate(present):
        for b in present[i + 1:]:
            yield a, b, scores[a] - scores[b]


def _award(points: dict[int, list[float]], a: int, b: int, difference: float) -> None:
    """Add one comparison's matchpoints to ``points`` (entrant → [points, comparisons])."""
    won = (1.0 + _outcome(difference)) / 2.0
    mine = points.setdefault(a, [0.0, 0])
    theirs = points.setdefault(b, [0.0, 0])
    mine[0] += won
    theirs[0] += 1.0 - won
    mine[1] += 1
    theirs[1] += 1


@attrs.frozen
class Matchpoints:
    """An entrant's matchpoints: ``points`` out of ``comparisons`` (see the module's docstring)."""

    points: float
    comparisons: int

    @property
    def percent(self) -> float | None:
        """The points as a percentage of the comparisons; None without any."""
        return 100.0 * self.points / self.comparisons if self.comparisons else None


def paired_results(names: Sequence[str], records: Iterable[Record], lower_is_better: bool) -> list[PairResult]:
    """The paired duplicate results of every pair of entrants (see the module's docstring),
    from the tournament's records: ``names`` in entrant order, ``lower_is_better`` from the
    game (``registry.get(game).lower_is_better``). Incomplete records are skipped."""
    tally = PairedTally(tuple(names), lower_is_better)
    for record in records:
        tally.add(record)
    return tally.results()
