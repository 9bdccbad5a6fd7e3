"""Tournament results: standings, scores with confidence intervals, faults, ratings, crosstable.

Results are computed from the records in schedule order, whatever order the matches finished
in, so an interrupted and resumed tournament ends with exactly the table of an uninterrupted
one. Ratings use OpenSkill's Plackett-Luce model, made for multiplayer free-for-all and teams.
Each entrant's time per move is summed up in a bounded histogram (:class:`MoveTimes`), so the
table's memory does not grow with the number of moves.

**The order of the table** (:func:`order_rows`) is what the duplicate deals support: an entrant
the paired results separate as better than another (:mod:`.paired`) is always above it; within
that, by matchpoints (:meth:`.paired.PairedTally.matchpoints`), then by ordinal, then by name.
Each row carries its paired comparison with the row below (``next``), so the table says where
its order is established and where it is not.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Iterable, Sequence

import attrs
from openskill.models import PlackettLuce

from ..games import registry
from ..records.model import Record
from ..safe_text import display_name, printable
from .paired import PairedTally, PairResult, Running, paired_results, tournament_tag

RANK_OF = {"win": 1, "draw": 2, "annulled": 2, "lose": 3}

RANKED_BY = "ordinal"
"""The rating column the order falls back on, shown and written under this name: OpenSkill's
ordinal, mu - 3 sigma, a cautious estimate of the entrant's skill, three standard deviations
below the likeliest. An entrant with few matches has a wide sigma and so ranks below one as
good who has shown it over many; ranking by mu alone would put an entrant that has barely
played (mu 25 at the start) above ones that lost a little."""

ORDER_KEYS = ("paired", "matchpoints", RANKED_BY, "entrant")
"""What the rows are ordered by, first to last (``ranked_by`` in ``--json``): a separated
paired result, then matchpoints (highest first; an entrant without any comparison after those
with), then the ordinal (highest first), then the entrant's name."""

ORDER = ("ranked by the paired duplicate results (a pair they separate is never out of order), "
         "then by matchpoints (MP), ordinal, name")
"""The order of the rows, as the text table's first line states it; ``--json`` and ``--csv``
list the rows in the same order, each with its ``rank``."""

ORDER_WITHOUT_PAIRS = (f"ranked by {RANKED_BY} = mu - 3 sigma, highest first (equal {RANKED_BY}s: by entrant name); "
                       "no paired results, so no order is established")
"""The first line when no two entrants ever held the same cards from the same seat (without
duplicate deals): the paired results and the matchpoints are empty, and the order is the
rating's alone."""

NOT_SEPARATED_MARK = "="
"""Printed after the rank of a row whose paired result with the row above does not separate
them: the order of those two is not established."""


BUCKETS_PER_DOUBLING = 16
"""Histogram buckets per doubling of the time per move: bucket *i* holds the times in
[2**(i/16), 2**((i+1)/16)) microseconds, each a factor of 2**(1/16) (4.4%) wide."""

TOP_BUCKET = 40 * BUCKETS_PER_DOUBLING
"""The last bucket: times from 2**40 microseconds (about 12.7 days, far above any move time
limit) up are counted in it (the maximum is still exact)."""


@attrs.frozen
class TimeSummary:
    """An entrant's time per move, in milliseconds (``time_ms`` of a table row)."""

    mean: float | None
    p95: float | None
    """The 95th percentile by the nearest-rank method, read from the histogram (see
    :meth:`MoveTimes.percentile`)."""
    max: float | None
    moves: int

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "p95": self.p95, "max": self.max, "moves": self.moves}


@attrs.define
class MoveTimes:
    """The times of one entrant's moves: count, sum, maximum and a histogram of log-spaced
    buckets, each with the smallest and largest time it has seen.

    Why a histogram: a tournament may have millions of moves, and keeping them all to find
    the 95th percentile would make the table's memory grow with them. The histogram has at
    most ``TOP_BUCKET + 2`` buckets (a zero bucket for the moves timed at 0, as built-in players'
    are, and 642 others) whatever the number of moves, and the percentile it gives is within
    a factor 2**(1/32) (2.2%) of the exact one: the reported value is the middle (geometric)
    of the bucket that holds it, kept within the smallest and largest times that bucket has
    seen, so it is exact whenever those are equal (all the zero times of a built-in player).
    Times are kept in microseconds, the resolution of a record's ``ms``."""

    count: int = 0
    total: float = 0.0
    largest: float = 0.0
    buckets: dict[int, list[float]] = attrs.field(factory=dict)
    """Bucket index → [count, smallest, largest], the times in microseconds; -1 is time 0."""

    def add(self, ms: float) -> None:
        us = max(0.0, float(ms)) * 1000.0  # a hand-edited record may hold a negative time
        self.count += 1
        self.total += us
        self.largest = max(self.largest, us)
        key = -1 if us < 1.0 else min(TOP_BUCKET, int(math.log2(us) * BUCKETS_PER_DOUBLING))
        bucket = self.buckets.get(key)
        if bucket is None:
            self.buckets[key] = [1, us, us]
        else:
            bucket[0] += 1
            bucket[1] = min(bucket[1], us)
            bucket[2] = max(bucket[2], us)

    def percentile(self, fraction: float) -> float | None:
        """The nearest-rank percentile, in microseconds: the value of the ceil(fraction * n)-th
        smallest time (at least the first), read from the histogram; None without moves."""
        if not self.count:
            return None
        rank = max(1, math.ceil(fraction * self.count))
        seen = 0.0
        for key in sorted(self.buckets):
            n, low, high = self.buckets[key]
            seen += n
            if seen >= rank:
                middle = 0.0 if key < 0 else 2 ** ((key + 0.5) / BUCKETS_PER_DOUBLING)
                return min(high, max(low, middle))
        return self.largest  # not reached: the counts add up to count

    def summary(self) -> TimeSummary:
        if not self.count:
            return TimeSummary(None, None, None, 0)
        p95 = self.percentile(0.95)
        assert p95 is not None
        return TimeSummary(round(self.total / self.count / 1000, 3), round(p95 / 1000, 3),
                           round(self.largest / 1000, 3), self.count)


@attrs.define
class EntrantStats:
    name: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    per_deal: list[float] | None = attrs.field(factory=list)
    """The entrant's score per deal in each match; None when :attr:`running` sums them up."""
    running: Running | None = None
    """The same scores as a count, a mean and a sum of squared deviations (Welford), for a fold
    that never ends (the arena's season): a list would grow with every match."""
    faults: Counter[str] = attrs.field(factory=Counter)
    times: MoveTimes = attrs.field(factory=MoveTimes)

    @classmethod
    def summed(cls, name: str) -> "EntrantStats":
        """Stats whose scores per deal are running sums rather than a list."""
        return cls(name, per_deal=None, running=Running())

    def add_score(self, score: float) -> None:
        if self.per_deal is not None:
            self.per_deal.append(score)
        if self.running is not None:
            self.running.add(score)

    @property
    def scored(self) -> bool:
        """Whether any match gave the entrant a score."""
        return bool(self.per_deal) or (self.running is not None and self.running.n > 0)

    def mean_ci(self) -> tuple[float, float]:
        """Mean score per deal and the half-width of its 95% confidence interval. From the list
        by the two-pass formula (a tournament's table, to the digit it has always printed), or
        from the running sums (whose last bits may differ from the list's)."""
        if self.per_deal is not None:
            n = len(self.per_deal)
            mean = sum(self.per_deal) / n if n else 0.0
            var = sum((x - mean) ** 2 for x in self.per_deal) / (n - 1) if n > 1 else 0.0
        else:
            assert self.running is not None
            n, mean, var = self.running.n, self.running.mean, self.running.variance
        if n == 0:
            return 0.0, 0.0
        if n == 1:
            return mean, math.inf
        return mean, 1.96 * math.sqrt(var / n)


@attrs.frozen
class Table:
    """The final results of a tournament."""

    rows: tuple[dict[str, Any], ...]
    """One per entrant, in the table's order (:data:`ORDER`), each with its ``rank`` (from 1)."""
    crosstable: dict[str, dict[str, str]]
    matches: int
    lower_is_better: bool
    pairs: tuple[PairResult, ...] = ()
    """Paired duplicate results of every pair of entrants (:mod:`.paired`)."""
    against_paired: tuple[tuple[str, str], ...] = ()
    """(upper, lower) pairs of entrants ordered against their separated paired result: only
    when those results go round in a circle (a above b above c above a), which no order can
    follow (:func:`order_rows`)."""

    @property
    def paired(self) -> bool:
        """Whether any two entrants held the same cards from the same seat."""
        return any(pair.n for pair in self.pairs)

    def first_place(self) -> dict[str, Any] | None:
        """Whether the paired results establish the first row as first: ``{"entrant",
        "established", "not_separated_from"}``, established when the paired results put it
        ahead of every other entrant; None for a table without rows."""
        if not self.rows:
            return None
        first = self.rows[0]["entrant"]
        unsettled = []
        for row in self.rows[1:]:
            pair = self.pair(first, row["entrant"])
            if pair is None or pair.better != first:
                unsettled.append(row["entrant"])
        return {"entrant": first, "established": not unsettled, "not_separated_from": unsettled}

    def pair(self, a: str, b: str) -> PairResult | None:
        """The paired result of entrants ``a`` and ``b``, in either order."""
        for pair in self.pairs:
            if {pair.a, pair.b} == {a, b} and a != b:
                return pair
        return None


class Tally:
    """The table's fold, one record at a time: :func:`tabulate` folds a whole tournament, and
    the arena folds each new record into the standings it keeps (:meth:`add_name` makes room
    for an entrant that joins the season) instead of folding the whole season again."""

    def __init__(self, names: Sequence[str], times: bool = True, season: bool = False):
        self.times = times
        """Whether each entrant's time per move is summed up (reading every move of every
        record); the arena's live standings leave it out, and fold records without moves."""
        self.season = season
        """A fold without end (the arena's): each entrant's scores per deal are running sums
        (:meth:`EntrantStats.summed`) and the paired tally is exact, so that complete deal
        sets can be sealed (:meth:`.paired.PairedTally.seal`); memory then stays flat however
        many matches are folded. A tournament keeps the list, so its printed intervals keep
        the two-pass formula's last digit."""
        self.names: list[str] = list(names)
        self.stats = [self._stats(n) for n in self.names]
        self.model = PlackettLuce()
        self.ratings = [self.model.rating(name=n) for n in self.names]
        self.cross: dict[tuple[int, int], list[float]] = {}
        """(a, b) → [a's points against b, matches]: every point is 0, 1/2 or 1, so the sum is
        exact in any order and needs no list."""
        self.count = 0
        self.lower = False
        self.paired: PairedTally | None = None

    def add_name(self, name: str) -> int:
        """Make room for a new entrant; its index."""
        self.names.append(name)
        self.stats.append(self._stats(name))
        self.ratings.append(self.model.rating(name=name))
        if self.paired is not None:
            self.paired.names = tuple(self.names)
        return len(self.names) - 1

    def _stats(self, name: str) -> EntrantStats:
        return EntrantStats.summed(name) if self.season else EntrantStats(name)

    def add(self, record: Record) -> None:
        """Fold one record in (its tag's seating indexes :attr:`names`)."""
        names, stats, ratings, cross = self.names, self.stats, self.ratings, self.cross
        self.count += 1
        if self.paired is None:
            self.paired = PairedTally(tuple(names), _lower_is_better(record), exact=self.season)
        self.paired.add(record)
        seating = tournament_tag(record).seating
        result = record.result
        self.lower = self.lower or _lower_is_better(record)
        standing = _standings(record)
        deals = max(1, len(record.deals))
        entrants = sorted(set(seating))
        rank = {}
        for e in entrants:
            seats = [s for s, who in enumerate(seating) if who == e]
            rank[e] = sum(RANK_OF[standing[s]] for s in seats) / len(seats)
            st = stats[e]
            st.matches += 1
            # an entrant in several seats wins only if all of them win, loses only if all lose
            st.wins += rank[e] == 1
            st.losses += rank[e] == 3
            st.draws += 1 < rank[e] < 3
            if result is not None:
                st.add_score(sum(result.scores[s] for s in seats) / len(seats) / deals)
        for fault in record.faults:
            stats[seating[fault.seat]].faults[fault.kind] += 1
        untimed = {s.seat for s in record.seats if s.kind == "builtin"}
        for deal in record.deals if self.times else ():
            for move in deal.moves:
                # the referee's fallback player moved for a faulty bot: not the entrant's time;
                # a built-in player's moves are not timed (the record says 0): no false zero
                if not move.fallback and move.seat not in untimed:
                    stats[seating[move.seat]].times.add(move.ms)
        if len(entrants) > 1:
            place = match_places(record, rank)
            teams = [[ratings[e]] for e in entrants]
            updated = self.model.rate(teams, ranks=dense_ranks([place[e] for e in entrants]))
            for e, team in zip(entrants, updated):
                ratings[e] = team[0]
            for a in entrants:
                for b in entrants:
                    if a != b:
                        cell = cross.setdefault((a, b), [0.0, 0])
                        cell[0] += 1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0.0
                        cell[1] += 1

    def table(self) -> Table:
        """The table of what was folded so far."""
        names, stats, ratings, paired = self.names, self.stats, self.ratings, self.paired
        points = paired.matchpoints() if paired is not None else []
        rows: list[dict[str, Any]] = []
        for e, st in enumerate(stats):
            mean, half = st.mean_ci()
            mp = points[e].percent if points else None
            rows.append(
                {
                    "entrant": st.name,
                    "rating": round(ratings[e].mu, 2),
                    "rating_ci": round(1.96 * ratings[e].sigma, 2),
                    "ordinal": round(ratings[e].mu - 3 * ratings[e].sigma, 2),
                    "matchpoints": round(mp, 2) if mp is not None else None,
                    "comparisons": points[e].comparisons if points else 0,
                    "matches": st.matches,
                    "wins": st.wins,
                    "draws": st.draws,
                    "losses": st.losses,
                    "score_per_deal": round(mean, 3) if st.scored else None,
                    "score_per_deal_ci": round(half, 3) if st.scored and math.isfinite(half) else None,
                    "faults": dict(sorted(st.faults.items())),
                    "time_ms": st.times.summary().to_json(),
                }
            )
        pairs = tuple(paired.results() if paired is not None else paired_results(names, (), self.lower))
        ordered, against = order_rows(rows, pairs)
        crosstable = {
            names[a]: {names[b]: f"{total:g}/{int(n)}" for (a2, b), (total, n) in sorted(self.cross.items()) if a2 == a}
            for a in range(len(names))
        }
        return Table(tuple(ordered), crosstable, self.count, self.lower, pairs, tuple(against))


def tabulate(names: Sequence[str], records: Iterable[Record]) -> Table:
    """Fold the records (in schedule order) into the tournament's table."""
    tally = Tally(names)
    for record in records:
        tally.add(record)
    return tally.table()


def match_places(record: Record, standing: dict[int, float]) -> dict[int, tuple[float, float]]:
    """Each entrant's place in one match, best first, as the rating and the crosstable read it:
    its standing (win 1, draw 2, lose 3, averaged over its seats; ``standing``), then, between
    entrants of the same standing, its score (averaged over its seats, the sign turned where
    higher is better so that lower always comes first).

    Why the score: in Peppa two seats of four win every match, so two good entrants both win
    almost every match, and places of win and lose alone cannot tell them apart where their
    points can; the standing stays first, so a forfeited seat still loses and the W, D and L
    columns agree with the places. An annulled or aborted match has no scores: standing alone."""
    result = record.result
    scores = result.scores if result is not None and not result.annulled else None
    seating = tournament_tag(record).seating
    sign = 1.0 if _lower_is_better(record) else -1.0
    places = {}
    for e, place in standing.items():
        seats = [s for s, who in enumerate(seating) if who == e]
        score = sign * sum(scores[s] for s in seats) / len(seats) if scores else 0.0
        places[e] = (place, score)
    return places


def dense_ranks(places: Sequence[Any]) -> list[float]:
    """The places of a match as the whole ranks OpenSkill reads: 1 for the best place, 2 for
    the next distinct one, and so on; equal places stay equal. A place is a number or a tuple
    of numbers (:func:`match_places`), compared as Python compares them.

    Why: an entrant's place is the mean of its seats' (win 1, draw 2, lose 3), so an entrant in
    two seats that won one and drew the other is 1.5; OpenSkill's Plackett-Luce (checked with
    6.x, ``int(ranks[index])``) truncates ranks to integers, which would make that 1.5 a win
    level with a whole win, and 2.5 a draw. Dense ranks keep the order and the ties exactly."""
    order = {place: float(i) for i, place in enumerate(sorted(set(places)), start=1)}
    return [order[place] for place in places]


def order_rows(rows: Sequence[dict[str, Any]], pairs: Sequence[PairResult]
               ) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """The rows in the table's order (:data:`ORDER_KEYS`), each with its ``rank`` and its
    paired comparison with the row below (``next``); and the pairs placed against their
    separated paired result, (upper, lower), which is only ever forced by a circle.

    How: the rows are taken one at a time, each time the first, by matchpoints, then ordinal,
    then name (:func:`_preference`), of those that no remaining entrant beats in a separated
    paired result. So no entrant is ever below one it is separated as better than, and two
    neighbours out of the preference's order always are such a pair, the upper the better:
    when the lower one could have been taken first, it would have been. When every remaining
    entrant is beaten by another (a circle of separated results), the first by preference is
    taken all the same and its wrongly ordered pairs are returned."""
    beats: dict[str, set[str]] = defaultdict(set)
    for pair in pairs:
        if pair.better is not None:
            beats[pair.better].add(pair.b if pair.better == pair.a else pair.a)
    left = sorted(rows, key=_preference)
    ordered: list[dict[str, Any]] = []
    against: list[tuple[str, str]] = []
    while left:
        names = {row["entrant"] for row in left}
        beaten = {loser for winner in names for loser in beats[winner]}
        free = [row for row in left if row["entrant"] not in beaten]
        pick = free[0] if free else left[0]
        if not free:
            against += [(pick["entrant"], winner) for winner in sorted(names) if pick["entrant"] in beats[winner]]
        ordered.append(pick)
        left.remove(pick)
    by_pair = {frozenset((pair.a, pair.b)): pair for pair in pairs}
    out = []
    for rank, row in enumerate(ordered, start=1):
        below = ordered[rank]["entrant"] if rank < len(ordered) else None
        beside = by_pair.get(frozenset((row["entrant"], below))) if below is not None else None
        out.append({"rank": rank, **row, "next": neighbour(beside, row["entrant"], below)})
    return out, against


def _preference(row: dict[str, Any]) -> tuple[Any, ...]:
    """The order where the paired results do not decide: matchpoints, highest first (without
    any comparison: after every entrant that has some), then the ordinal, highest first, then
    the name; by the rounded values every output shows, so two entrants shown level are in
    the order of what is shown next."""
    mp = row.get("matchpoints")
    return (mp is None, -(mp or 0.0), -row[RANKED_BY], row["entrant"])


def neighbour(pair: PairResult | None, upper: str, lower: str | None) -> dict[str, Any] | None:
    """The paired comparison of a row with the row below, from the upper row's side (+ means
    the upper one did better): ``{"entrant", "n", "mean", "ci", "wins", "draws", "losses",
    "separated"}``; None for the last row. Without a pair (never in a table: every pair has
    one) the comparison is empty."""
    if lower is None:
        return None
    if pair is None:
        return {"entrant": lower, "n": 0, "mean": None, "ci": None, "wins": 0, "draws": 0, "losses": 0,
                "separated": False}
    data = pair.to_json()
    flip = pair.a != upper
    mean = data["mean"]
    return {
        "entrant": lower,
        "n": pair.n,
        "mean": (-mean if flip else mean) if mean is not None else None,
        "ci": data["ci"],
        "wins": pair.losses if flip else pair.wins,
        "draws": pair.draws,
        "losses": pair.wins if flip else pair.losses,
        "separated": pair.better is not None,
    }


def _standings(record: Record) -> list[str]:
    result = record.result
    seats = record.players
    if result is None or result.annulled:
        return ["annulled"] * seats
    out = []
    for s in range(seats):
        out.append("win" if s in result.winners else "lose" if s in result.losers else "draw")
    return out


def _lower_is_better(record: Record) -> bool:
    return registry.get(record.game).lower_is_better


def render(table: Table, names: Sequence[str], brief: bool = False) -> str:
    """The table as text for the terminal; ``brief``: the standings alone (the heading, the
    rows and the first place), without the crosstable, the paired results and the times.
    Entrant names come from the tournament's configuration and fault kinds from its records,
    files anybody may have edited (``watch`` shows a directory it did not write), so both are
    shown through :func:`display_name` and :func:`printable`."""
    better = "lower is better" if table.lower_is_better else "higher is better"
    lines = [f"{table.matches} matches, {ORDER if table.paired else ORDER_WITHOUT_PAIRS}"]
    if table.rows:
        lines.append(f"'{NOT_SEPARATED_MARK}' after a rank: not separated from the row above by the paired results, "
                     "so the order of the two is not established")
    if table.paired and not brief:
        lines.append("MP = % of the comparisons won (1/2 level) with each entrant that held the same cards from the "
                     "same seat; vs next = the paired result with the row below (+: this row did better)")
    if not brief:
        lines.append(f"rating = OpenSkill Plackett-Luce mu ± 95%, each match's places by standing, then score; "
                     f"score per deal ({better})")
    lines.append(f"{'#':>2}  {'entrant':<16} {'MP':>6} {RANKED_BY:>8} {'rating':>14} {'matches':>7} {'W':>4} {'D':>4} "
                 f"{'L':>4} {'score/deal':>18}  {'vs next (paired)':<{VS_NEXT_WIDTH}}  faults")
    above_separated = True
    for r in table.rows:
        ci = "n/a" if r["score_per_deal_ci"] is None else f"{r['score_per_deal_ci']:.2f}"
        # an entrant that played no deal has no score: 0.00 would read as the best in a penalty game
        score = "n/a" if r["score_per_deal"] is None else f"{r['score_per_deal']:.2f}"
        faults = ", ".join(f"{printable(k)} {v}" for k, v in r["faults"].items()) or "-"
        mp = "n/a" if r.get("matchpoints") is None else f"{r['matchpoints']:.2f}"
        mark = " " if above_separated else NOT_SEPARATED_MARK
        following = r.get("next")
        above_separated = following is None or following["separated"]
        lines.append(
            f"{r['rank']:>2}{mark} {display_name(r['entrant']):<16} {mp:>6} {r[RANKED_BY]:>8.2f} "
            f"{r['rating']:>7.2f} ± {r['rating_ci']:<5.2f}"
            f"{r['matches']:>7} {r['wins']:>4} {r['draws']:>4} {r['losses']:>4} "
            f"{score:>9} ± {ci:<6}  {_vs_next(following):<{VS_NEXT_WIDTH}}  {faults}"
        )
    first = table.first_place()
    if first is not None and len(table.rows) > 1:
        lines.append(_first_place_line(first, table.paired))
    for upper, lower in table.against_paired:
        lines.append(f"note: {display_name(upper)} is above {display_name(lower)} against their paired result: the "
                     "paired results go round in a circle, which no order can follow")
    if brief:
        return "\n".join(lines)
    lines.append("")
    lines.append("crosstable (row's points against column: 1 a match placed ahead by standing, then score; "
                 "1/2 level):")
    shown = {n: display_name(n) for n in names}
    width = max(8, *(len(n) for n in shown.values()))
    lines.append(" " * (width + 1) + " ".join(f"{shown[n]:>{width}}" for n in names))
    for a in names:
        cells = [table.crosstable.get(a, {}).get(b, "-") if a != b else "x" for b in names]
        lines.append(f"{shown[a]:<{width}} " + " ".join(f"{c:>{width}}" for c in cells))
    if table.pairs:
        lines.append("")
        lines.append("paired duplicate results (row minus column, score per deal on the same hands from the same "
                     f"seat, {'sign turned so that + is better' if table.lower_is_better else '+ is better'}; "
                     "95% interval; better only when it excludes 0):")
        for pair in table.pairs:
            mean = "n/a" if not pair.n else f"{pair.mean:+.2f}"
            ci = "n/a" if not math.isfinite(pair.half_width) else f"{pair.half_width:.2f}"
            verdict = pair.verdict if pair.better is None else f"{display_name(pair.better)} better"
            lines.append(f"  {shown.get(pair.a, pair.a):>{width}} - {shown.get(pair.b, pair.b):<{width}} "
                         f"{mean:>7} ± {ci:<6} n {pair.n:<5} W-D-L {pair.wins}-{pair.draws}-{pair.losses}  {verdict}")
    timed = [r for r in table.rows if (r.get("time_ms") or {}).get("moves")]
    if timed:
        lines.append("")
        lines.append("time per move in ms (fallback moves left out; p95 by nearest rank, within 2.2%):")
        lines.append(f"  {'entrant':<{width}} {'mean':>9} {'p95':>9} {'max':>9} {'moves':>9}")
        for r in table.rows:
            t = r.get("time_ms") or {}
            name = shown.get(r["entrant"], display_name(r["entrant"]))
            if not t.get("moves"):
                lines.append(f"  {name:<{width}} {'n/a':>9} {'n/a':>9} {'n/a':>9} {'n/a':>9}  (no timed move: a "
                             "built-in player's are not timed)")
                continue
            lines.append(f"  {name:<{width}} {t['mean']:>9.3f} {t['p95']:>9.3f} {t['max']:>9.3f} {t['moves']:>9}")
    return "\n".join(lines)


VS_NEXT_WIDTH = 29
"""The width of the "vs next" column: ``+12.34 ± 10.56 not separated``."""


def _vs_next(following: dict[str, Any] | None) -> str:
    """The "vs next" cell: the paired mean against the row below, its interval, the verdict."""
    if following is None:
        return ""
    if not following["n"]:
        return "n/a (never the same cards)"
    mean = f"{following['mean']:+.2f}"
    ci = "n/a" if following["ci"] is None else f"{following['ci']:.2f}"
    return f"{mean:>6} ± {ci:<5} {'separated' if following['separated'] else 'not separated'}"


NAMES_LISTED = 6
"""Entrants named in the first-place line when the first is not separated from them; a larger
field is summed up as "and N more"."""


def _first_place_line(first: dict[str, Any], paired: bool) -> str:
    name = display_name(first["entrant"])
    if first["established"]:
        return f"first place: {name}, separated from every other entrant by the paired results"
    if not paired:
        return (f"first place not established: no paired results (without duplicate deals no two entrants play "
                f"the same cards); {name} leads by {RANKED_BY}")
    others = [display_name(n) for n in first["not_separated_from"]]
    more = f" and {len(others) - NAMES_LISTED} more" if len(others) > NAMES_LISTED else ""
    return (f"first place not established: {name} is not separated from {', '.join(others[:NAMES_LISTED])}{more} "
            "by the paired results")


def pairs_csv_rows(table: Table) -> list[list[str]]:
    """The paired results as CSV rows, a header first (written beside the table's CSV)."""
    header = ["a", "b", "n", "mean", "ci", "low", "high", "wins", "draws", "losses", "better", "verdict"]
    rows = [header]
    for pair in table.pairs:
        data = pair.to_json()
        rows.append(["" if data[k] is None else str(data[k]) for k in header])
    return rows


TIME_COLUMNS = {"time_mean_ms": "mean", "time_p95_ms": "p95", "time_max_ms": "max"}
"""The CSV columns of the time per move (appended after ``faults``) and the ``time_ms`` keys
they come from."""


def to_csv_rows(table: Table) -> list[list[str]]:
    """The table as CSV rows, a header first, in the table's order (:data:`ORDER`). The columns
    keep the order they have always had, for the scripts that read them by position; the time
    per move comes after them (:data:`TIME_COLUMNS`), empty for an entrant without moves."""
    header = ["rank", "entrant", "rating", "rating_ci", RANKED_BY, "matches", "wins", "draws", "losses",
              "score_per_deal", "score_per_deal_ci", "faults"]
    rows = [header + list(TIME_COLUMNS)]
    for r in table.rows:
        faults = ";".join(f"{k}={v}" for k, v in r["faults"].items())
        times = r.get("time_ms") or {}
        rows.append([str(r[k]) if r[k] is not None else "" for k in header[:-1]] + [faults]
                    + ["" if times.get(key) is None else str(times[key]) for key in TIME_COLUMNS.values()])
    return rows
