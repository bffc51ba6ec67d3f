"""A table's audio queue: clips go in in any order and come out in speaking order, one speaker at a time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from lycan.voice.audio import AudioClip

Speaker = int | str


@dataclass(frozen=True, slots=True)
class QueuedClip:
    """One piece of audio in speaking order.

    Attributes:
        utterance: the utterance's number in the order utterances were opened (0, 1, ...).
        clause: the clause's number within the utterance.
        part: the chunk's number within the clause (streaming backends give several).
        speaker: who speaks (a seat number, or a name such as `narrator`).
        text: the clause's text.
        clip: the audio.
    """

    utterance: int
    clause: int
    part: int
    speaker: Speaker
    text: str
    clip: AudioClip


@dataclass(slots=True)
class Timing:
    """Moments in one utterance's life, in seconds of the queue's clock (`time.monotonic` by default).

    Attributes:
        opened: the utterance was opened (generation started).
        first_token: the first piece of text arrived.
        first_clause: the first clause was complete and sent to synthesis.
        first_audio: the first playable audio (clause 0, chunk 0) was ready.
        last_token: the text was complete.
        done: every clause was synthesized (or the utterance was cancelled).
        first_delivered: the listener got the first clip (after earlier speakers finished).
    """

    opened: float
    first_token: float | None = None
    first_clause: float | None = None
    first_audio: float | None = None
    last_token: float | None = None
    done: float | None = None
    first_delivered: float | None = None

    @property
    def to_first_audio(self) -> float | None:
        """Seconds from opening to the first playable audio."""
        return None if self.first_audio is None else self.first_audio - self.opened


@dataclass(slots=True)
class UtteranceState:
    """What the queue knows about one utterance."""

    id: int
    speaker: Speaker
    timing: Timing
    clips: dict[tuple[int, int], QueuedClip] = field(default_factory=dict)
    n_parts: dict[int, int] = field(default_factory=dict)
    n_clauses: int | None = None
    cancelled: bool = False


class AudioQueue:
    """Orders a table's speech: every clip of utterance 0 (clause by clause, chunk by chunk), then utterance 1, ...

    Producers `put` clips in any order; the consumer iterates and gets them strictly in order. A clip
    that is not the next one to play waits for room when `max_buffered` clips are already waiting
    (`wait_room`); the next one to play always gets in, so the queue cannot deadlock.

    Args:
        max_buffered: how many clips may wait before producers of later clips are held back.
        clock: the clock used for timings.
    """

    def __init__(self, max_buffered: int = 32, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_buffered = max_buffered
        self.clock = clock
        self._utterances: list[UtteranceState] = []
        self._cursor = (0, 0, 0)  # utterance, clause, part to deliver next
        self._buffered = 0
        self._admitted: set[tuple[int, int]] = set()  # clauses let in by wait_room, not yet ended
        self._closed = False
        self._changed = asyncio.Condition()

    # -- producers ---------------------------------------------------------------------------------

    def open(self, speaker: Speaker) -> UtteranceState:
        """Reserve the next place in speaking order for `speaker`.

        Raises:
            RuntimeError: the queue was closed.
        """
        if self._closed:
            raise RuntimeError("the audio queue is closed")
        state = UtteranceState(len(self._utterances), speaker, Timing(self.clock()))
        self._utterances.append(state)
        return state

    def utterance(self, utterance: int) -> UtteranceState:
        """The state of utterance number `utterance`."""
        return self._utterances[utterance]

    def is_next(self, utterance: int, clause: int, part: int = 0) -> bool:
        """Whether that clip is the one the listener needs next."""
        self._skip_finished()
        return self._cursor == (utterance, clause, part)

    async def wait_room(self, utterance: int, clause: int) -> None:
        """Wait until the queue has room for clips of `clause` (at once if it is the next to play).

        Room counts clips waiting plus clauses already let in and not yet ended (`end_clause`).
        """
        async with self._changed:
            await self._changed.wait_for(lambda: self._has_room(utterance, clause))
            self._admitted.add((utterance, clause))

    def _has_room(self, utterance: int, clause: int) -> bool:
        self._skip_finished()
        return (
            self._buffered + len(self._admitted) < self.max_buffered
            or self._utterances[utterance].cancelled
            or self._cursor[:2] == (utterance, clause)
        )

    async def put(self, utterance: int, clause: int, part: int, clip: AudioClip, text: str = "") -> bool:
        """Add a clip; False if its utterance was cancelled (the clip is dropped)."""
        state = self._utterances[utterance]
        if state.cancelled:
            return False
        key = (clause, part)
        if key in state.clips:
            raise ValueError(f"clip {key} of utterance {utterance} was already queued")
        now = self.clock()
        if key == (0, 0) and state.timing.first_audio is None:
            state.timing.first_audio = now
        state.clips[key] = QueuedClip(utterance, clause, part, state.speaker, text, clip)
        self._buffered += 1
        await self._notify()
        return True

    async def end_clause(self, utterance: int, clause: int, n_parts: int) -> None:
        """Say that `clause` has exactly `n_parts` chunks (0 if it produced no audio)."""
        state = self._utterances[utterance]
        state.n_parts[clause] = n_parts
        self._admitted.discard((utterance, clause))
        if clause == 0 and n_parts == 0 and state.timing.first_audio is None and state.clips:
            state.timing.first_audio = self.clock()
        await self._notify()

    async def end_utterance(self, utterance: int, n_clauses: int) -> None:
        """Say that the utterance has exactly `n_clauses` clauses."""
        state = self._utterances[utterance]
        state.n_clauses = n_clauses
        await self._notify()

    async def cancel(self, utterance: int) -> None:
        """Drop the utterance's clips, queued or still to come; the listener moves on to the next."""
        state = self._utterances[utterance]
        if state.cancelled:
            return
        state.cancelled = True
        self._admitted = {key for key in self._admitted if key[0] != utterance}
        self._buffered -= len(state.clips)
        state.clips.clear()
        if state.timing.done is None:
            state.timing.done = self.clock()
        await self._notify()

    async def cancel_all(self) -> None:
        """Cancel every utterance not yet fully delivered."""
        for state in self._utterances[self._cursor[0] :]:
            await self.cancel(state.id)

    async def close(self) -> None:
        """No more utterances will be opened: iteration ends once everything opened has been delivered."""
        self._closed = True
        await self._notify()

    # -- the listener ------------------------------------------------------------------------------

    async def get(self) -> QueuedClip | None:
        """The next clip in speaking order, waiting for it; None once the queue is closed and drained."""
        async with self._changed:
            while True:
                item = self._take()
                if item is not None:
                    self._changed.notify_all()
                    return item
                if self._closed and self._cursor[0] >= len(self._utterances):
                    return None
                await self._changed.wait()

    def __aiter__(self) -> AsyncIterator[QueuedClip]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[QueuedClip]:
        while (item := await self.get()) is not None:
            yield item

    @property
    def buffered(self) -> int:
        """Clips waiting to be delivered."""
        return self._buffered

    # -- internals ---------------------------------------------------------------------------------

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def _skip_finished(self) -> None:
        u, c, p = self._cursor
        while u < len(self._utterances):
            state = self._utterances[u]
            if state.cancelled:
                u, c, p = u + 1, 0, 0
            elif (c, p) in state.clips:
                break
            elif c in state.n_parts and p >= state.n_parts[c]:
                c, p = c + 1, 0
            elif state.n_clauses is not None and c >= state.n_clauses:
                u, c, p = u + 1, 0, 0
            else:
                break
        self._cursor = (u, c, p)

    def _take(self) -> QueuedClip | None:
        self._skip_finished()
        u, c, p = self._cursor
        if u >= len(self._utterances):
            return None
        state = self._utterances[u]
        item = state.clips.pop((c, p), None)
        if item is None:
            return None
        self._buffered -= 1
        if state.timing.first_delivered is None:
            state.timing.first_delivered = self.clock()
        self._cursor = (u, c, p + 1)
        return item
