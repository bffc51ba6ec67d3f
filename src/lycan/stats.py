"""Small statistics used by every results table."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Returns (0.0, 1.0) when n is 0.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Rate:
    """A proportion with its N and Wilson 95% interval."""

    wins: int
    n: int

    @property
    def value(self) -> float:
        """The proportion (0 when N is 0)."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval."""
        return wilson(self.wins, self.n)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.value:6.1%} [{lo:5.1%}, {hi:5.1%}] (N={self.n})"


@dataclass(frozen=True, slots=True)
class Difference:
    """The mean of paired differences with its normal 95% interval and N."""

    mean: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        return f"{self.mean:+.1%} [{self.low:+.1%}, {self.high:+.1%}] (N={self.n})"


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = 1.959964) -> Difference:
    """Mean of `a[i] - b[i]` over paired outcomes (e.g. wins of two agents on the same deals), 95% interval.

    The interval is the normal one of the mean difference (sample variance over N); it is 0 wide
    when every difference is the same, and undefined (0, 0) for no pairs.

    Raises:
        ValueError: `a` and `b` differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"paired outcomes need the same length, got {len(a)} and {len(b)}")
    n = len(a)
    if n == 0:
        return Difference(0.0, 0.0, 0.0, 0)
    diffs = [float(x) - float(y) for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
    half = z * math.sqrt(var / n)
    return Difference(mean, mean - half, mean + half, n)
