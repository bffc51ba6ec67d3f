"""Means with bootstrap intervals, and significance tests for comparing two proportions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Mean:
    """A sample mean with its N and a bootstrap 95% percentile interval."""

    value: float
    lo: float
    hi: float
    n: int

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval."""
        return self.lo, self.hi

    def __str__(self) -> str:
        return f"{self.value:.3g} [{self.lo:.3g}, {self.hi:.3g}] (N={self.n})"


def bootstrap_mean(values: Sequence[float], n_boot: int = 1000, seed: int = 0) -> Mean:
    """The mean of `values` with a percentile bootstrap 95% interval (resampling `n_boot` times).

    An empty sample gives `Mean(nan, nan, nan, 0)`; a single value gives a zero-width interval.
    The resampling uses its own seeded generator, so the interval is reproducible.
    """
    n = len(values)
    if n == 0:
        return Mean(math.nan, math.nan, math.nan, 0)
    arr = np.asarray(values, dtype=float)
    mean = float(arr.mean())
    if n == 1 or float(arr.min()) == float(arr.max()):
        return Mean(mean, mean, mean, n)
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    chunk = max(1, 2_000_000 // n)
    for start in range(0, n_boot, chunk):
        stop = min(n_boot, start + chunk)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = arr[idx].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return Mean(mean, float(lo), float(hi), n)


@dataclass(frozen=True, slots=True)
class ProportionTest:
    """A two-sided two-proportion z-test: difference (a - b), z statistic and p-value."""

    diff: float
    z: float
    p_value: float

    @property
    def significant(self) -> bool:
        """Whether p < 0.05."""
        return self.p_value < 0.05


def two_proportion_test(wins_a: int, n_a: int, wins_b: int, n_b: int) -> ProportionTest:
    """Compare the proportions wins_a/n_a and wins_b/n_b with a pooled two-sided z-test.

    When either N is 0, or the pooled proportion is 0 or 1 (no variance), the p-value is 1.
    """
    if n_a == 0 or n_b == 0:
        return ProportionTest(0.0, 0.0, 1.0)
    pa, pb = wins_a / n_a, wins_b / n_b
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return ProportionTest(pa - pb, 0.0, 1.0)
    z = (pa - pb) / se
    return ProportionTest(pa - pb, z, math.erfc(abs(z) / math.sqrt(2)))
