"""Small statistics used by every results table."""

from __future__ import annotations

import math
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
