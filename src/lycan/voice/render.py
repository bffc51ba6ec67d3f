"""Write a finished game's speech to WAV files: one per utterance, and the whole game in one file."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lycan.engine.events import Died, Event, Executed, GameOver, NoExecution, PeacefulNight, Talk
from lycan.engine.record import GameRecord
from lycan.voice.audio import AudioClip, concat
from lycan.voice.style import styled
from lycan.voice.tts import TTSBackend, Voice, VoiceError

NARRATOR = "narrator"


@dataclass(frozen=True, slots=True)
class RenderedLine:
    """One utterance written to disk."""

    event_id: int
    speaker: int | str
    text: str
    path: Path
    duration: float


@dataclass(frozen=True, slots=True)
class RenderedGame:
    """What `render_game_audio` wrote."""

    lines: tuple[RenderedLine, ...]
    game_wav: Path | None
    errors: tuple[str, ...]

    @property
    def duration(self) -> float:
        """Seconds of speech in all lines."""
        return sum(line.duration for line in self.lines)


def spoken_lines(
    record: GameRecord, *, whispers: bool = False, narrate: bool = False
) -> list[tuple[int, int | str, str]]:
    """(event id, speaker, text) for every utterance of the game, in log order.

    Args:
        record: the finished game.
        whispers: include the werewolves' whispers (hidden information: off by default).
        narrate: add a narrator's lines for executions, deaths and the result.
    """
    names = record.names
    lines: list[tuple[int, int | str, str]] = []
    for event in record.events:
        if isinstance(event, Talk):
            if event.over or event.skip or not event.text.strip():
                continue
            if event.channel == "whisper" and not whispers:
                continue
            lines.append((event.id, event.actor, event.text))
        elif narrate and event.audience is None:
            line = _narration(event, names)
            if line:
                lines.append((event.id, NARRATOR, line))
    return lines


def _narration(event: Event, names: tuple[str, ...]) -> str | None:
    if isinstance(event, Executed):
        return f"{names[event.target]} is executed."
    if isinstance(event, NoExecution):
        return "Nobody is executed today."
    if isinstance(event, Died):
        return f"{names[event.target]} was found dead." if event.cause == "night" else None
    if isinstance(event, PeacefulNight):
        return "The night was peaceful."
    if isinstance(event, GameOver):
        result = {"village": "The village wins.", "werewolf": "The werewolves win.", "draw": "It is a draw."}
        return f"The game is over. {result[event.winner]}"
    return None


async def render_game_audio(
    record: GameRecord,
    out_dir: str | os.PathLike[str],
    tts: TTSBackend,
    *,
    voices: Mapping[int | str, Voice] | None = None,
    whispers: bool = False,
    narrate: bool = False,
    gap: float = 0.35,
    concurrency: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> RenderedGame:
    """Speak every utterance of a game into `out_dir`.

    Writes `NNNN.wav` per utterance (NNNN = the event id), `game.wav` with all of them in order and
    `gap` seconds between, and `lines.json` listing event id, speaker, text, file and duration. An
    utterance with a manner in the record is spoken in it (`lycan.voice.style.styled`). An
    utterance that cannot be synthesized is listed in `errors` and left out.

    Args:
        record: the finished game.
        out_dir: the folder to write (created if missing).
        tts: the speech backend.
        voices: a voice per seat (and for `narrator`); `tts.voice_for_seat` otherwise.
        whispers: include werewolf whispers.
        narrate: add narrator lines for executions, deaths and the result.
        gap: seconds of silence between utterances in game.wav.
        concurrency: utterances synthesized at once.
        progress: called with (done, total) after each utterance.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    lines = spoken_lines(record, whispers=whispers, narrate=narrate)
    voices = dict(voices or {})
    narrator = voices.get(NARRATOR) or tts.voice_for_seat(len(record.names))
    manners = {e.id: e.manner for e in record.events if isinstance(e, Talk) and e.manner is not None}
    slots = asyncio.Semaphore(concurrency)
    done = 0

    async def one(event_id: int, speaker: int | str, text: str) -> AudioClip | str:
        nonlocal done
        voice = voices.get(speaker) or (tts.voice_for_seat(speaker) if isinstance(speaker, int) else narrator)
        voice = styled(voice, manners.get(event_id))
        async with slots:
            try:
                clip = await tts.synthesize(text, voice)
            except VoiceError as err:
                result: AudioClip | str = f"event {event_id}: {err}"
            else:
                clip.write(str(out / f"{event_id:04d}.wav"))
                result = clip
        done += 1
        if progress is not None:
            progress(done, len(lines))
        return result

    results = await asyncio.gather(*(one(*line) for line in lines))
    rendered: list[RenderedLine] = []
    errors: list[str] = []
    clips: list[AudioClip] = []
    for (event_id, speaker, text), result in zip(lines, results, strict=True):
        if isinstance(result, str):
            errors.append(result)
            continue
        clips.append(result)
        rendered.append(RenderedLine(event_id, speaker, text, out / f"{event_id:04d}.wav", result.duration))
    game_wav: Path | None = None
    if clips:
        game_wav = out / "game.wav"
        concat(clips, gap=gap).write(str(game_wav))
    index = [
        {"event_id": r.event_id, "speaker": r.speaker, "text": r.text, "file": r.path.name, "seconds": r.duration}
        for r in rendered
    ]
    (out / "lines.json").write_text(json.dumps(index, indent=1, ensure_ascii=False), encoding="utf-8")
    return RenderedGame(tuple(rendered), game_wav, tuple(errors))
