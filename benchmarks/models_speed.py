"""Speed of the in-process local models: decode and prefill tokens/s, and KV-cache reuse per session.

Run: .venv/bin/python benchmarks/models_speed.py [local:tiny local ...] [--lines 60] [--threads N]

Prefix reuse is measured the way a game uses it: seat A's long prompt (cold), then seat B's
different prompt, then seat A again with one more message: with per-session KV caches A's prefix
is restored, without them (max_sessions=0) it is evaluated again from scratch.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from lycan.models import ChatRequest, load_model
from lycan.models.llamacpp import LlamaCppModel


def game_log(lines: int, word: str) -> str:
    return " ".join(f"Day {i % 3}: {word} {i % 5} accused {word} {(i * 3) % 5} of lying." for i in range(lines))


def request(system: str, user: str, session: str, max_tokens: int) -> ChatRequest:
    return ChatRequest(
        [{"role": "system", "content": system}, {"role": "user", "content": user}],
        max_tokens=max_tokens,
        temperature=0.0,
        session=session,
    )


async def timed(model: LlamaCppModel, chat: ChatRequest) -> tuple[float, int, int]:
    started = time.perf_counter()
    result = await model.chat(chat)
    return time.perf_counter() - started, result.usage.prompt_tokens, model.last_prompt_evaluated


async def measure(spec: str, lines: int, options: dict[str, Any]) -> None:
    seat_a = "You are seat A in a game of Werewolf. The log so far: " + game_log(lines, "player")
    seat_b = "You are seat B, a villager who trusts nobody. Your notes: " + game_log(lines, "seat")
    for max_sessions in (16, 0):
        model = load_model(spec, n_ctx=4096, max_sessions=max_sessions, **options)
        assert isinstance(model, LlamaCppModel)
        started = time.perf_counter()
        await model.load()
        load_s = time.perf_counter() - started
        if max_sessions:
            tell = [{"role": "user", "content": "Tell a long story about a wolf."}]
            story = await model.chat(ChatRequest(tell, max_tokens=96, temperature=0))  # type: ignore[arg-type]
            decode = story.usage.completion_tokens / story.usage.latency_s
            print(f"{spec}: load {load_s:.2f} s; {story.usage.completion_tokens} tokens at {decode:.1f} tok/s overall")
        cold_s, prompt, cold_eval = await timed(model, request(seat_a, "Who is the most suspicious?", "A", 1))
        await model.chat(request(seat_b, "Who do you vote for?", "B", 1))
        warm_s, _, warm_eval = await timed(model, request(seat_a, "Who do you vote for today?", "A", 1))
        label = "per-session KV cache" if max_sessions else "no session cache    "
        print(
            f"{spec}: {label}: {prompt}-token prompt cold {cold_s:.2f} s ({prompt / cold_s:.0f} tok/s prefill, "
            f"{cold_eval} evaluated); after another seat: {warm_s:.2f} s ({warm_eval} evaluated)"
        )
        model.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="*", default=["local:tiny", "local"])
    parser.add_argument("--lines", type=int, default=60, help="lines of fake game log in each seat's prompt")
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: its choice)")
    arguments = parser.parse_args()
    options = {} if arguments.threads is None else {"n_threads": arguments.threads}
    for spec in arguments.specs:
        asyncio.run(measure(spec, arguments.lines, options))


if __name__ == "__main__":
    main()
