"""Benchmark the browser perceiver on generated camera clips, in headless Chromium on this machine.

    python benchmarks/bench_perception.py [--seeds 6] [--fps 15 30]

For each seed, one clip of each kind (still, nod, shake, turn to the speaker's left, to the right;
`tests/_clips.py`: scikit-image's astronaut photograph moved, amplitude, speed, zoom, place and
noise varied by the seed) is played by Chromium's fake camera into the table page's perceiver
(Human on TensorFlow.js's WebAssembly backend, software only). Reported:
- nod / shake / still told apart (share of those clips whose gesture is the clip's own);
- head-turn direction (share of turn clips read as a turn the right way);
- frames looked at per second while a clip plays at `--fps` (each new camera frame is looked at
  once), and the milliseconds one look takes;
- milliseconds from the end of the utterance to the description (`describe()`).
Clips are drawn afresh from seeds 100 and up, never the ones the tests use.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from playwright.sync_api import sync_playwright

from _clips import KINDS, make_clip
from lycan.web import create_app
from test_web_perception import gesture, perceive
from web_helpers import live_server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--fps", type=int, nargs="+", default=[15, 30])
    args = parser.parse_args()
    app = create_app(None)
    with tempfile.TemporaryDirectory() as tmp, live_server(app) as base, sync_playwright() as pw:
        for fps in args.fps:
            results: list[tuple[str, str]] = []
            rates, looks, latencies = [], [], []
            for seed in range(100, 100 + args.seeds):
                for kind in KINDS:
                    clip = make_clip(kind, Path(tmp), seed=seed, seconds=5.0, fps=fps)
                    r = perceive(pw, base, clip.path, 4.2)
                    got = gesture(r["d"])
                    results.append((kind, got))
                    rates.append(r["fps"])
                    looks.append(r["per"])
                    latencies.append(r["ms"])
                    print(f"  {fps} fps seed {seed} {kind:10s} -> {got:10s} {r['fps']:5.1f} frames/s "
                          f"{r['per']:5.1f} ms/frame", flush=True)  # fmt: skip
            three = [(k, g) for k, g in results if k in ("still", "nod", "shake")]
            turns = [(k, g) for k, g in results if k.startswith("turn")]
            right3 = sum(k == g for k, g in three)
            right_turns = sum(k == g for k, g in turns)
            print(f"camera at {fps} fps, {args.seeds} seeds x {len(KINDS)} kinds:")
            print(f"  nod / shake / still told apart: {right3}/{len(three)} ({right3 / len(three):.0%})")
            print(f"  head-turn direction right: {right_turns}/{len(turns)} ({right_turns / len(turns):.0%})")
            print(f"  frames looked at per second: median {statistics.median(rates):.1f} (min {min(rates):.1f})")
            print(f"  ms per look: median {statistics.median(looks):.1f} (max {max(looks):.1f})")
            print(f"  description ready after: median {statistics.median(latencies):.1f} ms (max {max(latencies):.1f})")


if __name__ == "__main__":
    main()
