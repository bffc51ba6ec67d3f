"""From a model's token stream to ordered audio: clauses are spoken while the model is still writing."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from lycan.rules.text import for_terminal
from lycan.voice.chunker import ClauseChunker
from lycan.voice.queue import AudioQueue, Speaker, Timing
from lycan.voice.style import styled
from lycan.voice.tts import TTSBackend, Voice, VoiceError

log = logging.getLogger(__name__)

Tokens = AsyncIterable[str] | Iterable[str] | str
Mode = Literal["clauses", "whole"]


@dataclass(slots=True)
class Utterance:
    """One speaker's turn going through the pipeline.

    Attributes:
        id: its place in the table's speaking order.
        speaker: who speaks.
        voice: the voice used.
        timing: when the first token, first clause and first audio came (see `Timing`).
        clauses: the clauses sent to synthesis, in order.
        errors: one sentence per clause that could not be spoken (the rest still is).
    """

    id: int
    speaker: Speaker
    voice: Voice
    timing: Timing
    clauses: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    @property
    def text(self) -> str:
        """The whole text spoken so far."""
        return " ".join(self.clauses)

    async def wait(self) -> Utterance:
        """Wait until every clause has been synthesized (or the utterance was cancelled)."""
        if self.task is not None:
            try:
                await asyncio.shield(self.task)
            except asyncio.CancelledError:
                if not self.task.cancelled():
                    raise
        return self

    def cancel(self) -> None:
        """Stop reading tokens and synthesizing; drop this utterance's audio from the queue."""
        if self.task is not None:
            self.task.cancel()


class SpeechPipeline:
    """Token streams in, ordered audio out through `queue`, synthesis running alongside generation.

    Each call to `speak` takes the next place in the table's speaking order. Its tokens are cut into
    clauses as they arrive and each clause is synthesized at once (up to `max_concurrency` at a time
    across the table); the queue hands the audio to the listener in order, one speaker at a time.

    Args:
        tts: the speech backend.
        queue: the table's audio queue (a new one when None).
        max_concurrency: how many clauses may be synthesized at once.
        mode: `clauses` speaks clause by clause while text streams in, each clause's audio streamed
            in chunks; `whole` waits for the whole text and synthesizes it in one call
            (generate-then-speak, for comparison).
        min_chars: the chunker's shortest clause.
        max_chars: the chunker's longest wait for punctuation.
        first_words: cut an utterance's first clause after this many words when no punctuation
            came yet, so its audio starts sooner (0: wait for punctuation).
    """

    def __init__(
        self,
        tts: TTSBackend,
        queue: AudioQueue | None = None,
        *,
        max_concurrency: int = 2,
        mode: Mode = "clauses",
        min_chars: int = 12,
        first_words: int = 4,
        max_chars: int = 240,
    ) -> None:
        self.tts = tts
        self.queue = queue or AudioQueue()
        self.mode = mode
        self.min_chars = min_chars
        self.first_words = first_words
        self.max_chars = max_chars
        self._slots = asyncio.Semaphore(max_concurrency)
        self._utterances: list[Utterance] = []

    @property
    def utterances(self) -> list[Utterance]:
        """Every utterance started, in speaking order."""
        return list(self._utterances)

    def speak(self, speaker: Speaker, tokens: Tokens, voice: Voice | None = None) -> Utterance:
        """Start speaking `tokens` (an async or plain iterable of text pieces, or a string) as `speaker`.

        Returns at once; the utterance's place in the speaking order is fixed by this call. Must be
        called with an event loop running. A voice with a manner of its own (a persona's voice, see
        `lycan.voice.persona`) speaks the whole utterance in it.
        """
        if voice is None:
            voice = self.tts.voice_for_seat(speaker) if isinstance(speaker, int) else Voice()
        voice = styled(voice, None)
        state = self.queue.open(speaker)
        utterance = Utterance(state.id, speaker, voice, state.timing)
        utterance.task = asyncio.create_task(self._run(utterance, tokens), name=f"speak-{state.id}")
        self._utterances.append(utterance)
        return utterance

    async def say(self, speaker: Speaker, text: str, voice: Voice | None = None) -> Utterance:
        """Speak a finished text and wait until it is synthesized."""
        return await self.speak(speaker, text, voice).wait()

    async def drain(self) -> None:
        """Wait until every utterance started so far has been synthesized."""
        for utterance in list(self._utterances):
            await utterance.wait()

    async def aclose(self, cancel: bool = False) -> None:
        """Close the queue to new utterances and finish (or with `cancel`, abandon) those in flight.

        A listener must be draining the queue meanwhile (e.g. `async for item in pipeline.queue` in
        another task): back-pressure holds synthesis once `queue.max_buffered` clips are waiting.
        """
        await self.queue.close()
        if cancel:
            for utterance in self._utterances:
                utterance.cancel()
        await asyncio.gather(*(u.wait() for u in self._utterances), return_exceptions=True)

    async def _run(self, utt: Utterance, tokens: Tokens) -> None:
        clock = self.queue.clock
        # A finished text gains nothing from an early first cut; only a stream does.
        eager = 0 if isinstance(tokens, str) else self.first_words
        chunker = ClauseChunker(self.min_chars, self.max_chars, first_words=eager)
        jobs: list[asyncio.Task[None]] = []

        def start(text: str) -> None:
            if utt.timing.first_clause is None:
                utt.timing.first_clause = clock()
            index = len(utt.clauses)
            utt.clauses.append(text)
            jobs.append(asyncio.create_task(self._synthesize(utt, index, text)))

        try:
            whole: list[str] = []
            async for piece in _pieces(tokens):
                if not piece:
                    continue
                if utt.timing.first_token is None:
                    utt.timing.first_token = clock()
                if self.mode == "whole":
                    whole.append(piece)
                    continue
                for clause in chunker.feed(piece):
                    start(clause)
            utt.timing.last_token = clock()
            if self.mode == "whole":
                text = " ".join("".join(whole).split())
                if text:
                    start(text)
            else:
                for clause in chunker.flush():
                    start(clause)
            await self.queue.end_utterance(utt.id, len(utt.clauses))
            await asyncio.gather(*jobs)
        except asyncio.CancelledError:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            await self.queue.cancel(utt.id)
            raise
        finally:
            if utt.timing.done is None:
                utt.timing.done = clock()

    async def _synthesize(self, utt: Utterance, clause: int, text: str) -> None:
        queue = self.queue
        n_parts = 0
        try:
            await queue.wait_room(utt.id, clause)
            async with self._slots:
                if self.mode == "whole":
                    clip = await self.tts.synthesize(text, utt.voice)
                    if await queue.put(utt.id, clause, 0, clip, text):
                        n_parts = 1
                    return
                async for clip in self.tts.stream(text, utt.voice):
                    if not clip.pcm:
                        continue
                    if not await queue.put(utt.id, clause, n_parts, clip, text):
                        return
                    n_parts += 1
        except VoiceError as err:
            utt.errors.append(f"clause {clause}: {err}")
            log.warning("speech for %s failed: %s", for_terminal(str(utt.speaker)), for_terminal(str(err)))
        finally:
            await asyncio.shield(queue.end_clause(utt.id, clause, n_parts))


async def _pieces(tokens: Tokens) -> AsyncIterable[str]:
    if isinstance(tokens, str):
        yield tokens
    elif isinstance(tokens, AsyncIterable):
        async for piece in tokens:
            yield piece
    else:
        for piece in tokens:
            yield piece
