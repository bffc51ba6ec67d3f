"""Benchmark the web table's night clock and its event loop under big tables.

    python benchmarks/bench_web_hardening.py [--repeats 3] [--seconds 15]

1. The night clock: a person who is the seer, AI seats whose whisper turns take 40 ms each; the
   seconds from each night's start to the seer's divine request as the person's tab received
   them, over 20 nights with one living werewolf and 20 with two, with the clock off
   (`night_wait` 0: the request comes when the engine asks it) and on (`night_wait` 0.5 s). The
   nights and agents are those of `tests/test_web_hardening.py`, so the test and the figures
   measure the same thing.
2. The event loop: a table of AI players (heuristic, 10 ms AI pause) with three spectators runs
   for `--seconds`; a probe sleeps 10 ms in a loop and records how late it wakes. Each table is
   run twice in one process: with the meter read on the loop after every public event (as every
   table did before), and as it is now (read in a worker thread for big tables, none for 50 seats).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_web_hardening import delays_by_wolves, loop_lags


async def night_clock(repeats: int) -> None:
    print("night clock: median seconds from the night's start to the seer's request (20+ nights each)")
    for wait in (0.0, 0.5):
        gaps = []
        for _ in range(repeats):
            delays = await delays_by_wolves(wait, 0.04, games=2)
            one, two = statistics.median(delays[1]), statistics.median(delays[2])
            gaps.append(two - one)
            print(f"  night_wait {wait:.1f} s: one wolf {one * 1000:.0f} ms (N={len(delays[1])}), "
                  f"two wolves {two * 1000:.0f} ms (N={len(delays[2])}), gap {(two - one) * 1000:+.0f} ms")  # fmt: skip
        print(f"  night_wait {wait:.1f} s: median gap over {repeats} runs {statistics.median(gaps) * 1000:+.1f} ms")


async def stall(preset: str, inline: bool, seconds: float) -> tuple[float, float, float, int]:
    lags, events = await loop_lags(preset, seconds, inline_meter=inline)
    return lags[len(lags) // 2], lags[int(len(lags) * 0.99)], lags[-1], events


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    await night_clock(args.repeats)
    print(f"event loop lag with 3 spectators, {args.seconds:g} s of play (p50 / p99 / max, ms; public events)")
    for preset in ("witch50", "aiwolf13"):
        for inline in (True, False):
            p50, p99, worst, events = await stall(preset, inline, args.seconds)
            how = "meter on the loop (before)" if inline else "now"
            print(f"  {preset:8s} {how:27s} {p50 * 1000:7.1f} / {p99 * 1000:7.1f} / {worst * 1000:7.1f}  ({events})")


if __name__ == "__main__":
    asyncio.run(main())
