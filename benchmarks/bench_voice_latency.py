"""Time from the start of a model's token stream to the first audio, streamed vs generate-then-speak.

Streamed: clauses are synthesized as soon as they end, while the model keeps writing.
Generate-then-speak: the whole text is awaited, then synthesized in one call (seed 001's linear process).

Tokens come from the embedded local model when `lycan.models.load_model('local')` is available,
otherwise from a simulated stream at the embedded model's measured decode rate (~50 tok/s).

Usage: python benchmarks/bench_voice_latency.py [--runs 5] [--tts espeak,piper] [--rate 50] [--json out.json]
Targets: streamed median <= 0.3 x generate-then-speak median, and < 1.5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from lycan.voice import SpeechPipeline, load_tts
from lycan.voice.tts import TTSBackend

UTTERANCE = (
    "Good morning, everyone. I have been thinking about yesterday's vote, and something does not add up. "
    "Player 3 pushed very hard to execute Bob, but when Bob turned out to be a villager, he went quiet. "
    "I am not saying he is a werewolf for sure; still, I would like to hear him explain himself before we vote."
)
PROMPT = "You are Alice in a game of Werewolf. In three sentences, tell the table who you suspect today and why."


def simulated_tokens(rate: float) -> Callable[[], AsyncIterator[str]]:
    """Pieces of about one token each (a word or a word fragment), arriving at `rate` per second."""
    pieces = [p for word in re.findall(r"\S+\s*", UTTERANCE) for p in re.findall(r".{1,5}", word, re.S)]

    async def stream() -> AsyncIterator[str]:
        start = time.perf_counter()
        for i, piece in enumerate(pieces):
            delay = start + (i + 1) / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            yield piece

    return stream


def model_tokens() -> tuple[Callable[[], AsyncIterator[str]], str] | None:
    """A real token stream from the embedded local model, if that backend is available."""
    try:
        from lycan.models import load_model  # type: ignore[attr-defined]
        from lycan.models.base import ChatRequest

        model = load_model("local")
    except Exception:  # the local model backend is optional
        return None

    def stream() -> AsyncIterator[str]:
        request = ChatRequest(messages=[{"role": "user", "content": PROMPT}], max_tokens=120, temperature=0.0, seed=1)
        return model.stream(request)

    return stream, f"model {getattr(model, 'name', 'local')}"


async def first_audio(tts: TTSBackend, tokens: Callable[[], AsyncIterator[str]], mode: str) -> dict[str, float]:
    pipeline = SpeechPipeline(tts, mode=mode)  # type: ignore[arg-type]
    utt = pipeline.speak(0, tokens())

    async def listen() -> None:
        async for _ in pipeline.queue:
            pass

    listener = asyncio.create_task(listen())
    await pipeline.aclose()
    await listener
    t = utt.timing
    assert t.first_audio is not None and t.last_token is not None
    return {
        "to_first_audio": t.first_audio - t.opened,
        "generation": t.last_token - t.opened,
        "clauses": float(len(utt.clauses)),
    }


async def bench(spec: str, tokens: Callable[[], AsyncIterator[str]], runs: int) -> dict[str, Any]:
    tts = load_tts(spec)
    await tts.synthesize("Warming up.", tts.voice_for_seat(0))
    results: dict[str, list[dict[str, float]]] = {"streamed": [], "whole": []}
    for _ in range(runs):
        results["streamed"].append(await first_audio(tts, tokens, "clauses"))
        results["whole"].append(await first_audio(tts, tokens, "whole"))
    streamed = statistics.median(r["to_first_audio"] for r in results["streamed"])
    whole = statistics.median(r["to_first_audio"] for r in results["whole"])
    return {
        "tts": spec,
        "runs": runs,
        "streamed_median_s": round(streamed, 3),
        "whole_median_s": round(whole, 3),
        "generation_median_s": round(statistics.median(r["generation"] for r in results["whole"]), 3),
        "ratio": round(streamed / whole, 3),
        "streamed_all_s": [round(r["to_first_audio"], 3) for r in results["streamed"]],
        "whole_all_s": [round(r["to_first_audio"], 3) for r in results["whole"]],
        "meets_target": streamed <= 0.3 * whole and streamed < 1.5,
    }


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tts", default="espeak,piper")
    parser.add_argument("--rate", type=float, default=50.0, help="simulated tokens per second")
    parser.add_argument("--simulate", action="store_true", help="use the simulated stream even if a model exists")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()
    real = None if args.simulate else model_tokens()
    tokens, source = real or (simulated_tokens(args.rate), f"simulated stream at {args.rate:g} tok/s")
    print(f"token source: {source}")
    rows = []
    for spec in args.tts.split(","):
        row = await bench(spec.strip(), tokens, args.runs)
        rows.append(row)
        print(
            f"{row['tts']:8} first audio: streamed {row['streamed_median_s']:.3f} s, "
            f"generate-then-speak {row['whole_median_s']:.3f} s (generation {row['generation_median_s']:.2f} s), "
            f"ratio {row['ratio']:.2f} -> {'meets' if row['meets_target'] else 'MISSES'} target "
            f"(<= 0.3x and < 1.5 s), medians of {row['runs']}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"source": source, "results": rows}, fh, indent=1)
    return 0 if all(r["meets_target"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
