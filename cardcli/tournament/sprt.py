"""A sequential probability ratio test on paired duplicate differences.

Chess engine testing (fastchess, cutechess-cli, fishtest) stops a match between two engines as
soon as the evidence says one of two hypotheses with the error rates asked for, instead of
playing a fixed number of games chosen in advance. Here the same: the observations are the
paired differences between two entrants, one per deal set (the mean over the seats both played
of that deal set, :meth:`cardcli.tournament.paired.PairedTally.deal_set_differences`), positive
when entrant A did better, and the test is

* H0: the mean difference is at most ``d0``;
* H1: the mean difference is at least ``d1`` (``d1 > d0``);

with ``alpha`` the chance of accepting H1 when H0 holds and ``beta`` the chance of accepting H0
when H1 holds (Wald's bounds, both 0.05 unless asked otherwise).

**Why a normal approximation, and why on deal-set differences.** The score of a card game has
no simple parametric law (Peppa's penalties come in lumps, a whole 36 at a time), but the mean
paired difference over one whole deal set is a sum over several deals and seats, so it is far
closer to normal than one deal's score, and pairing the same cards removes most of the luck of
the deal, which is what keeps the variance and so the test's length down. Observations from
different deal sets are independent (each has its own seed), which the SPRT needs; the seats
of one deal set share their cards and are not, which is why they are averaged into one
observation rather than fed one by one.

**Why the generalized SPRT with the variance estimated.** The variance of the differences is
not known in advance, so the log-likelihood ratio of the two normal models is taken with the
variance at its estimate from the data (the normal approximation of the generalized SPRT
that fishtest's tests use, after Michel Van den Bergh)::

    LLR = n ((m - d0)^2 - (m - d1)^2) / (2 v) = (d1 - d0) n (m - (d0 + d1) / 2) / v

with ``n`` observations of mean ``m`` and sample variance ``v`` (unbiased, divided by n - 1);
Wald's bounds are ``log(beta / (1 - alpha))`` below and ``log((1 - beta) / alpha)`` above.

**Why a minimum number of observations.** With few observations the variance estimate is
itself very uncertain and often far too small, which inflates the LLR: the plug-in test then
crosses a bound on a lucky start much more often than the error rates say. No verdict is
therefore given before :data:`MIN_OBSERVATIONS` observations (16 by default, a field of
:class:`Sprt`). Measured by simulation (normal differences of standard deviation 1, d0 = 0,
alpha = beta = 0.05, 4000 runs per cell; the rate of accepting H1 when the mean is d0)::

    d1 - d0       min 2   min 8   min 16   min 30
    0.15          0.138   0.060   0.059    0.057
    0.25          0.176   0.070   0.067    0.058
    0.35          0.172   0.076   0.059    0.044
    0.50          0.184   0.073   0.049    0.027
    0.75          0.154   0.044   0.022    0.009

(the rate of accepting H0 when the mean is d1 is alike; each cell has a standard error of
about 0.0035). A minimum of 2 more than triples the error; 8 still lets it reach 7.6%; from 16
on it stays within about a point of the nominal 5% over the whole range (with 8000 runs at
0.2, 0.25, 0.3, 0.4: 5.7%, 6.0%, 5.8%, 4.8%; with 40,000 at 0.25: 5.8%, and 6.0% for the other
error), at the price of a longer test when the gap is wide (an average of 18 observations
instead of 13 at 0.75, where the test would otherwise stop early and err less than asked
anyway). Only the gap in standard deviations matters: the test is unchanged by shifting and
scaling the differences. The point or so that remains over
small gaps is the plug-in variance's, which no minimum removes. ``tests/test_sprt.py`` checks
the error rates and the minimum's effect again.

**Why the first verdict is kept.** Wald's error rates are those of the rule "stop at the first
crossing". A tournament may go on playing after the test has decided; the state keeps the
verdict of the first crossing (and when it came) rather than re-deciding later, which would be
a different test with larger error rates.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import attrs

from ..errors import UsageError

MIN_OBSERVATIONS = 16
"""The default minimum number of observations before a verdict (see the module's docstring)."""

DEFAULT_ERROR = 0.05
"""Alpha and beta unless given: 5%, the usual setting of engine testing (fishtest's)."""

H0 = "H0"
H1 = "H1"
CONTINUE = "continue"


def _finite(value: float, what: str) -> None:
    if not math.isfinite(value):
        raise UsageError(f"SPRT {what} must be a finite number, not {value!r}")


@attrs.frozen
class Sprt:
    """The test's configuration: the hypotheses, the error rates and the minimum sample.

    Refused with a :class:`~cardcli.errors.UsageError` (a one-line message for the CLI):
    ``d1 <= d0`` (no gap between the hypotheses, so no test could tell them apart), ``alpha``
    or ``beta`` outside (0, 0.5) (an error rate of a half or more is a coin toss, and the bounds
    would be on the wrong side of zero), a ``min_n`` below 2 (no variance before 2
    observations)."""

    d0: float
    d1: float
    alpha: float = DEFAULT_ERROR
    beta: float = DEFAULT_ERROR
    min_n: int = MIN_OBSERVATIONS
    _bounds: tuple[float, float] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        for name in ("d0", "d1", "alpha", "beta"):
            _finite(getattr(self, name), name)
        if not self.d1 > self.d0:
            raise UsageError(f"SPRT needs D1 > D0, got D0={self.d0:g} and D1={self.d1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise UsageError(f"SPRT {name.upper()} must lie strictly between 0 and 0.5, got {value:g}")
        if isinstance(self.min_n, bool) or not isinstance(self.min_n, int) or self.min_n < 2:
            raise UsageError(f"SPRT minimum number of observations must be an integer of at least 2, "
                             f"got {self.min_n!r}")
        # once, not at every observation
        bounds = math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)
        object.__setattr__(self, "_bounds", bounds)

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds (lower, upper) on the LLR: ``log(beta / (1 - alpha))`` and
        ``log((1 - beta) / alpha)``."""
        return self._bounds

    def llr(self, n: int, mean: float, variance: float) -> float:
        """The generalized log-likelihood ratio of H1 against H0 after ``n`` observations of
        mean ``mean`` and sample variance ``variance``. 0.0 (no evidence either way) when it is
        undefined: fewer than 2 observations, or a variance of zero, which means the normal
        model does not fit (two deterministic entrants that always score alike) and no verdict
        should come from it."""
        if n < 2 or not variance > 0.0:
            return 0.0
        return (self.d1 - self.d0) * n * (mean - (self.d0 + self.d1) / 2.0) / variance

    def decide(self, n: int, llr: float) -> str:
        """The verdict for an LLR after ``n`` observations: :data:`H1` at or above the upper
        bound, :data:`H0` at or below the lower one, else :data:`CONTINUE`; always CONTINUE
        before ``min_n`` observations."""
        if n < self.min_n:
            return CONTINUE
        lower, upper = self._bounds
        if llr >= upper:
            return H1
        if llr <= lower:
            return H0
        return CONTINUE

    def state(self) -> SprtState:
        """A fresh test state for this configuration."""
        return SprtState(self)

    def to_json(self) -> dict[str, Any]:
        return {"d0": self.d0, "d1": self.d1, "alpha": self.alpha, "beta": self.beta, "min_n": self.min_n}


@attrs.frozen
class SprtSpec:
    """What ``--sprt A,B,D0,D1[,ALPHA,BETA]`` asks for: test entrant ``a`` against ``b``."""

    a: str
    b: str
    sprt: Sprt

    def entrants(self, names: Sequence[str]) -> tuple[int, int]:
        """The entrant indexes of A and B among ``names``; a UsageError for a name that is not
        an entrant (checked here, against the tournament, since parsing does not know it)."""
        out = []
        for name in (self.a, self.b):
            if name not in names:
                raise UsageError(f"--sprt names {name!r}, which is not an entrant ({', '.join(names)})")
            out.append(list(names).index(name))
        return out[0], out[1]

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, **self.sprt.to_json()}


def _number(text: str, what: str, spec: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--sprt {spec!r}: {what} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise UsageError(f"--sprt {spec!r}: {what} must be a finite number, not {text!r}")
    return value


def parse_sprt(text: str) -> SprtSpec:
    """Parse the CLI form ``A,B,D0,D1[,ALPHA,BETA]``: two entrant names, the hypotheses' mean
    differences per deal set, and optionally the error rates (both or neither: one alone would
    leave the reader guessing which it is). Anything malformed is a UsageError with a one-line
    message. Fields are split on commas and stripped, so an entrant whose name holds a comma
    cannot be named here."""
    spec = text.strip()
    fields = [f.strip() for f in spec.split(",")]
    if len(fields) not in (4, 6):
        raise UsageError(f"--sprt {text!r}: write A,B,D0,D1 or A,B,D0,D1,ALPHA,BETA "
                         f"(got {len(fields)} comma-separated fields)")
    a, b = fields[0], fields[1]
    if not a or not b:
        raise UsageError(f"--sprt {text!r}: the entrant names A and B must not be empty")
    if a == b:
        raise UsageError(f"--sprt {text!r}: A and B must be two different entrants")
    d0 = _number(fields[2], "D0", text)
    d1 = _number(fields[3], "D1", text)
    alpha = _number(fields[4], "ALPHA", text) if len(fields) == 6 else DEFAULT_ERROR
    beta = _number(fields[5], "BETA", text) if len(fields) == 6 else DEFAULT_ERROR
    try:
        sprt = Sprt(d0, d1, alpha, beta)
    except UsageError as err:
        raise UsageError(f"--sprt {text!r}: {err}") from None
    return SprtSpec(a, b, sprt)


@attrs.define
class SprtState:
    """The running test: the observations' count, mean and sum of squared deviations, updated
    one at a time by Welford's algorithm (numerically stable, unlike a running sum of squares,
    whose difference of two large numbers loses the variance when the mean is large, and
    needing no list of the observations), and the first verdict."""

    sprt: Sprt
    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    """The sum of squared deviations from the mean."""
    decided: str = CONTINUE
    """The verdict of the first crossing of a bound, kept once given; CONTINUE until then."""
    decided_at: int | None = None
    """The number of observations at that first crossing."""

    def add(self, x: float) -> str:
        """Add one observation (a paired difference, positive when A did better) and return
        the verdict. A non-finite observation is a ValueError: it would poison every later
        statistic."""
        if not math.isfinite(x):
            raise ValueError(f"an SPRT observation must be finite, not {x!r}")
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)
        if self.decided == CONTINUE:
            now = self.sprt.decide(self.n, self.llr)
            if now != CONTINUE:
                self.decided, self.decided_at = now, self.n
        return self.decided

    @property
    def variance(self) -> float:
        """The unbiased sample variance (0.0 before two observations)."""
        return self.m2 / (self.n - 1) if self.n >= 2 else 0.0

    @property
    def llr(self) -> float:
        """The log-likelihood ratio now (see :meth:`Sprt.llr`)."""
        return self.sprt.llr(self.n, self.mean, self.variance)

    @property
    def bounds(self) -> tuple[float, float]:
        return self.sprt.bounds

    @property
    def verdict(self) -> str:
        """:data:`H1` (A better by at least D1), :data:`H0` (A better by at most D0) or
        :data:`CONTINUE`: the first crossing's, kept (see the module's docstring)."""
        return self.decided

    def to_json(self) -> dict[str, Any]:
        lower, upper = self.bounds
        return {
            **self.sprt.to_json(),
            "n": self.n,
            "mean": self.mean,
            "variance": self.variance,
            "llr": self.llr,
            "lower": lower,
            "upper": upper,
            "verdict": self.verdict,
            "decided_at": self.decided_at,
        }
