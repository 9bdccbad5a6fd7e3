"""Tournament results: standings, scores with confidence intervals, faults, ratings, crosstable.

Results are computed from the records in schedule order, whatever order the matches finished
in, so an interrupted and resumed tournament ends with exactly the table of an uninterrupted
one. Ratings use OpenSkill's Plackett-Luce model, made for multiplayer free-for-all and teams.
Each entrant's time per move is summed up in a bounded histogram (:class:`MoveTimes`), so the
table's memory does not grow with the number of moves.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Iterable, Sequence

import attrs
from openskill.models import PlackettLuce

from ..games import registry
from ..safe_text import display_name, printable
from .paired import PairedTally, PairResult, paired_results

RANK_OF = {"win": 1, "draw": 2, "annulled": 2, "lose": 3}

RANKED_BY = "ordinal"
"""The column the table is ranked by: OpenSkill's ordinal, mu - 3 sigma, a cautious estimate
of the entrant's skill, three standard deviations below the likeliest. An entrant with few
matches has a wide sigma and so ranks below one as good who has shown it over many; ranking by
mu alone would put an entrant that has barely played (mu 25 at the start) above ones that lost
a little. It is shown, as the first numeric column: a table ranked by a value it does not show
looks out of order (mu, shown as the rating, can fall the other way)."""

ORDER = f"ranked by {RANKED_BY} = mu - 3 sigma, highest first (equal {RANKED_BY}s: by entrant name)"
"""The order of the rows, as the text table states it; ``--json`` and ``--csv`` list the rows
in the same order, each with its ``rank``."""


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
    per_deal: list[float] = attrs.field(factory=list)
    faults: Counter[str] = attrs.field(factory=Counter)
    times: MoveTimes = attrs.field(factory=MoveTimes)

    def mean_ci(self) -> tuple[float, float]:
        """Mean score per deal and the half-width of its 95% confidence interval."""
        n = len(self.per_deal)
        if n == 0:
            return 0.0, 0.0
        mean = sum(self.per_deal) / n
        if n == 1:
            return mean, math.inf
        var = sum((x - mean) ** 2 for x in self.per_deal) / (n - 1)
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


def tabulate(names: Sequence[str], records: Iterable[dict[str, Any]]) -> Table:
    """Fold the records (in schedule order) into the tournament's table."""
    stats = [EntrantStats(n) for n in names]
    model = PlackettLuce()
    ratings = [model.rating(name=n) for n in names]
    cross: dict[tuple[int, int], list[float]] = defaultdict(list)
    count = 0
    lower = False
    paired: PairedTally | None = None
    for record in records:
        count += 1
        if paired is None:
            paired = PairedTally(tuple(names), _lower_is_better(record))
        paired.add(record)
        seating: list[int] = record["tournament"]["seating"]
        result = record["result"] or {}
        lower = lower or _lower_is_better(record)
        standing = _standings(record)
        deals = max(1, len(record["deals"]))
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
            if result:
                st.per_deal.append(sum(result["scores"][s] for s in seats) / len(seats) / deals)
        for fault in record["faults"]:
            stats[seating[fault["seat"]]].faults[fault["kind"]] += 1
        for deal in record["deals"]:
            for move in deal["moves"]:
                # the referee's fallback player moved for a faulty bot: not the entrant's time
                if move.get("by", "seat") != "fallback":
                    stats[seating[move["seat"]]].times.add(move["ms"])
        if len(entrants) > 1:
            teams = [[ratings[e]] for e in entrants]
            updated = model.rate(teams, ranks=dense_ranks([rank[e] for e in entrants]))
            for e, team in zip(entrants, updated):
                ratings[e] = team[0]
            for a in entrants:
                for b in entrants:
                    if a != b:
                        cross[(a, b)].append(1.0 if rank[a] < rank[b] else 0.5 if rank[a] == rank[b] else 0.0)
    rows: list[dict[str, Any]] = []
    for e, st in enumerate(stats):
        mean, half = st.mean_ci()
        rows.append(
            {
                "entrant": st.name,
                "rating": round(ratings[e].mu, 2),
                "rating_ci": round(1.96 * ratings[e].sigma, 2),
                "ordinal": round(ratings[e].mu - 3 * ratings[e].sigma, 2),
                "matches": st.matches,
                "wins": st.wins,
                "draws": st.draws,
                "losses": st.losses,
                "score_per_deal": round(mean, 3) if st.per_deal else None,
                "score_per_deal_ci": round(half, 3) if st.per_deal and math.isfinite(half) else None,
                "faults": dict(sorted(st.faults.items())),
                "time_ms": st.times.summary().to_json(),
            }
        )
    # by the rounded value every output shows, so two entrants shown level are ordered by name
    rows.sort(key=lambda r: (-r[RANKED_BY], r["entrant"]))
    rows = [{"rank": rank, **row} for rank, row in enumerate(rows, start=1)]
    crosstable = {
        names[a]: {names[b]: f"{sum(v):g}/{len(v)}" for (a2, b), v in sorted(cross.items()) if a2 == a}
        for a in range(len(names))
    }
    pairs = paired.results() if paired is not None else paired_results(names, (), lower)
    return Table(tuple(rows), crosstable, count, lower, tuple(pairs))


def dense_ranks(places: Sequence[float]) -> list[float]:
    """The places of a match as the whole ranks OpenSkill reads: 1 for the best place, 2 for
    the next distinct one, and so on; equal places stay equal.

    Why: an entrant's place is the mean of its seats' (win 1, draw 2, lose 3), so an entrant in
    two seats that won one and drew the other is 1.5; OpenSkill's Plackett-Luce (checked with
    6.x, ``int(ranks[index])``) truncates ranks to integers, which would make that 1.5 a win
    level with a whole win, and 2.5 a draw. Dense ranks keep the order and the ties exactly."""
    order = {place: float(i) for i, place in enumerate(sorted(set(places)), start=1)}
    return [order[place] for place in places]


def _standings(record: dict[str, Any]) -> list[str]:
    result = record["result"]
    seats = len(record["seats"])
    if result is None or result.get("annulled"):
        return ["annulled"] * seats
    out = []
    for s in range(seats):
        out.append("win" if s in result["winners"] else "lose" if s in result["losers"] else "draw")
    return out


def _lower_is_better(record: dict[str, Any]) -> bool:
    return registry.get(record["game"]).lower_is_better


def render(table: Table, names: Sequence[str]) -> str:
    """The table as text for the terminal. Entrant names come from the tournament's
    configuration and fault kinds from its records, files anybody may have edited (``watch``
    shows a directory it did not write), so both are shown through :func:`display_name` and
    :func:`printable`."""
    better = "lower is better" if table.lower_is_better else "higher is better"
    lines = [
        f"{table.matches} matches, {ORDER}",
        f"rating = OpenSkill Plackett-Luce mu ± 95%; score per deal ({better})",
        f"{'#':>2} {'entrant':<16} {RANKED_BY:>8} {'rating':>14} {'matches':>7} {'W':>4} {'D':>4} {'L':>4} "
        f"{'score/deal':>18}  faults",
    ]
    for r in table.rows:
        ci = "n/a" if r["score_per_deal_ci"] is None else f"{r['score_per_deal_ci']:.2f}"
        # an entrant that played no deal has no score: 0.00 would read as the best in a penalty game
        score = "n/a" if r["score_per_deal"] is None else f"{r['score_per_deal']:.2f}"
        faults = ", ".join(f"{printable(k)} {v}" for k, v in r["faults"].items()) or "-"
        lines.append(
            f"{r['rank']:>2} {display_name(r['entrant']):<16} {r[RANKED_BY]:>8.2f} "
            f"{r['rating']:>7.2f} ± {r['rating_ci']:<5.2f}"
            f"{r['matches']:>7} {r['wins']:>4} {r['draws']:>4} {r['losses']:>4} "
            f"{score:>9} ± {ci:<6}  {faults}"
        )
    lines.append("")
    lines.append("crosstable (row's points against column: 1 a match ranked ahead, 1/2 level):")
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
        for r in timed:
            t = r["time_ms"]
            lines.append(f"  {shown.get(r['entrant'], display_name(r['entrant'])):<{width}} {t['mean']:>9.3f} "
                         f"{t['p95']:>9.3f} {t['max']:>9.3f} {t['moves']:>9}")
    return "\n".join(lines)


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
