import asyncio
import math
import random
from collections.abc import AsyncIterator

from hypothesis import given, settings
from hypothesis import strategies as st

from lycan.voice import AudioClip, AudioQueue, EspeakTTS, SpeechPipeline, Voice
from lycan.voice.tts import BaseTTS, TTSError


def tone(text: str, rate: int = 8000) -> AudioClip:
    """A short tone whose length encodes the text, so tests can tell clips apart."""
    n = 40 * len(text)
    samples = bytearray()
    for i in range(n):
        samples += int(8000 * math.sin(i / 5)).to_bytes(2, "little", signed=True)
    return AudioClip(bytes(samples), rate)


class DelayedTTS(BaseTTS):
    """Synthesis that finishes after a random delay per clause, so clips arrive out of order."""

    name = "delayed"

    def __init__(self, seed: int, max_delay: float = 0.01, parts: int = 1, fail_on: str | None = None) -> None:
        self.rng = random.Random(seed)
        self.max_delay = max_delay
        self.parts = parts
        self.fail_on = fail_on
        self.active = 0
        self.max_active = 0

    def voice_for_seat(self, seat: int) -> Voice:
        return Voice(f"seat{seat}")

    async def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        try:
            for _ in range(self.parts):
                await asyncio.sleep(self.rng.random() * self.max_delay)
                if self.fail_on and self.fail_on in text:
                    raise TTSError(f"cannot say {text!r}")
                yield tone(text)
        finally:
            self.active -= 1


async def tokens(text: str, rng: random.Random, max_gap: float = 0.003) -> AsyncIterator[str]:
    i = 0
    while i < len(text):
        n = rng.randint(1, 6)
        await asyncio.sleep(rng.random() * max_gap)
        yield text[i : i + n]
        i += n


UTTERANCE = st.lists(
    st.sampled_from(["I am the seer.", "Player 2 lied, clearly.", "Vote for Carol now!", "Why me? Think again."]),
    min_size=1,
    max_size=4,
).map(" ".join)


@settings(max_examples=25, deadline=None)
@given(st.lists(UTTERANCE, min_size=1, max_size=4), st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 4))
def test_queue_delivers_in_utterance_and_clause_order(texts, seed, parts, buffered):
    async def scenario() -> None:
        rng = random.Random(seed)
        tts = DelayedTTS(seed, parts=parts)
        pipeline = SpeechPipeline(tts, AudioQueue(max_buffered=buffered), max_concurrency=3, min_chars=6)
        utterances = [pipeline.speak(seat, tokens(text, rng)) for seat, text in enumerate(texts)]
        received = []

        async def listen() -> None:
            async for item in pipeline.queue:
                received.append(item)
                await asyncio.sleep(rng.random() * 0.002)

        listener = asyncio.create_task(listen())
        await pipeline.aclose()
        await asyncio.wait_for(listener, 10)
        keys = [(r.utterance, r.clause, r.part) for r in received]
        expected = [(u.id, c, p) for u in utterances for c in range(len(u.clauses)) for p in range(parts)]
        assert keys == expected
        # one speaker at a time: the speaker only changes at an utterance boundary, never back
        speakers = [r.speaker for r in received]
        changes = [s for i, s in enumerate(speakers) if i == 0 or s != speakers[i - 1]]
        assert changes == list(range(len(texts)))
        assert [r.text for r in received if r.part == 0] == [c for u in utterances for c in u.clauses]
        assert pipeline.queue.buffered == 0
        for u in utterances:
            t = u.timing
            assert t.first_token is not None and t.first_clause is not None and t.first_audio is not None
            assert t.opened <= t.first_token <= t.first_clause <= t.first_audio <= t.done

    asyncio.run(scenario())


async def test_back_pressure_holds_later_clauses_but_never_the_next_one():
    queue = AudioQueue(max_buffered=1)
    state = queue.open(0)
    await queue.put(state.id, 2, 0, tone("x"))  # a later clause fills the buffer
    waiter = asyncio.create_task(queue.wait_room(state.id, 3))
    await asyncio.sleep(0.01)
    assert not waiter.done()  # clause 3 must wait
    await asyncio.wait_for(queue.wait_room(state.id, 0), 1)  # clause 0 is next: always admitted
    await queue.put(state.id, 0, 0, tone("a"))
    await queue.end_clause(state.id, 0, 1)
    assert (await queue.get()).clause == 0
    await queue.put(state.id, 1, 0, tone("b"))
    await queue.end_clause(state.id, 1, 1)
    assert (await queue.get()).clause == 1
    assert (await queue.get()).clause == 2
    await asyncio.wait_for(waiter, 1)  # room again


async def test_next_speaker_waits_for_the_previous_one():
    queue = AudioQueue()
    first, second = queue.open("alice"), queue.open("bob")
    await queue.put(second.id, 0, 0, tone("bob"))
    await queue.end_clause(second.id, 0, 1)
    await queue.end_utterance(second.id, 1)
    getter = asyncio.create_task(queue.get())
    await asyncio.sleep(0.01)
    assert not getter.done()  # bob is ready but alice has not finished
    await queue.put(first.id, 0, 0, tone("alice"))
    assert (await getter).speaker == "alice"
    await queue.end_clause(first.id, 0, 1)
    await queue.end_utterance(first.id, 1)
    assert (await queue.get()).speaker == "bob"
    await queue.close()
    assert await queue.get() is None


async def test_cancelling_an_utterance_skips_to_the_next_speaker():
    tts = DelayedTTS(1, max_delay=0.02)
    pipeline = SpeechPipeline(tts)

    async def endless() -> AsyncIterator[str]:
        while True:
            await asyncio.sleep(0.005)
            yield "and another thing, "

    talker = pipeline.speak(0, endless())
    nxt = pipeline.speak(1, "I am a simple villager.")
    await asyncio.sleep(0.1)
    talker.cancel()
    await pipeline.aclose()
    items = [item async for item in pipeline.queue]
    assert items[-1].speaker == 1
    assert {i.speaker for i in items} <= {0, 1}
    assert nxt.clauses == ["I am a simple villager."]
    assert talker.timing.done is not None


async def test_a_failed_clause_is_reported_and_the_rest_still_spoken():
    pipeline = SpeechPipeline(DelayedTTS(2, fail_on="wolf"))
    utt = pipeline.speak(0, "I am the seer, you are the wolf, and we both know it.")
    await pipeline.aclose()
    texts = [item.text async for item in pipeline.queue]
    assert texts == ["I am the seer,", "and we both know it."]
    assert len(utt.errors) == 1 and "wolf" in utt.errors[0]


async def test_concurrency_limit_is_respected():
    tts = DelayedTTS(3, max_delay=0.02)
    pipeline = SpeechPipeline(tts, max_concurrency=2, min_chars=4)
    for seat in range(4):
        pipeline.speak(seat, "One clause, two clauses, three clauses, four clauses.")
    await pipeline.aclose()
    assert [i async for i in pipeline.queue]
    assert tts.max_active == 2


async def test_streamed_espeak_starts_before_generation_ends():
    tts = EspeakTTS()
    pipeline = SpeechPipeline(tts)
    text = "Well, I think Player 3 is lying to all of us, because he voted for me yesterday. Vote him out!"
    # about 0.03 s a piece on average over 27 pieces, near the pace of the embedded model on this CPU class
    # (about 20 tokens/s); at 0.01 s a token the whole text arrived before espeak, on a loaded
    # machine, had synthesised its first clause (0.24 s)
    utt = pipeline.speak(3, tokens(text, random.Random(0), max_gap=0.06))
    await pipeline.aclose()
    clips = [item async for item in pipeline.queue]
    assert len(utt.clauses) >= 3
    t = utt.timing
    assert t.first_audio is not None and t.last_token is not None
    assert t.first_audio < t.last_token  # speech was ready while the text was still arriving
    assert sum(c.clip.duration for c in clips) > 3.0
    assert {c.clip.sample_rate for c in clips} == {22050}


async def test_back_pressure_holds_synthesis_until_someone_listens():
    tts = DelayedTTS(4, max_delay=0.001)
    pipeline = SpeechPipeline(tts, AudioQueue(max_buffered=2), max_concurrency=2, min_chars=4)
    utt = pipeline.speak(0, "One here, two here, three here, four here, five here, six here, seven here.")
    await asyncio.sleep(0.2)
    assert len(utt.clauses) == 7
    assert 2 <= pipeline.queue.buffered <= 2 + 2  # the limit, plus clauses already in synthesis
    assert utt.timing.done is None
    closing = asyncio.create_task(pipeline.aclose())
    items = [item async for item in pipeline.queue]
    await closing
    assert [i.clause for i in items] == list(range(7))
