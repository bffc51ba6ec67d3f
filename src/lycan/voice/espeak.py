"""espeak-ng through its command line: always available, very fast, many voice variants."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import AsyncIterator

from lycan.voice.audio import AudioClip, wav_format, wav_header_length
from lycan.voice.tts import BackendUnavailable, BaseTTS, TTSError, Voice

#: English accents espeak-ng ships with. Plain `en-gb` is not among them: espeak-ng 1.51 ignores a
#: variant given with it (`en-gb+f3` speaks in its default male voice), so Lancaster stands in.
ACCENTS: tuple[str, ...] = ("en-us", "en-gb-x-gbclan", "en-gb-scotland", "en-029", "en-gb-x-rp", "en-us-nyc")
#: Voice variants, alternating male and female so neighbouring seats differ most.
VARIANTS: tuple[str, ...] = ("m1", "f3", "m3", "f1", "m7", "f4", "m2", "f2", "m4", "f5", "m5", "klatt", "m6", "m8")
#: Pitches (0-99) and relative speeds, spread so that no two of the first seats coincide.
PITCHES: tuple[int, ...] = (50, 62, 38, 70, 44, 56, 32, 66, 48, 58)
SPEEDS: tuple[float, ...] = (1.0, 0.92, 1.08, 0.96, 1.04, 0.88, 1.12)

#: Variants by the gender they sound, for `voice_for_gender`. Each list's length is prime to the six
#: accents, so seats of one gender keep distinct (accent, variant) pairs: 30 female, 42 male seats.
GENDER_VARIANTS: dict[str, tuple[str, ...]] = {
    "female": ("f3", "f1", "f4", "f2", "f5"),
    "male": ("m3", "m1", "m7", "m2", "m4", "m5", "m6"),
}
#: Pitches (0-99) by gender: the female variants from the middle up, the male ones from the middle down.
GENDER_PITCHES: dict[str, tuple[int, ...]] = {
    "female": (54, 62, 48, 68, 58, 51, 65),
    "male": (46, 38, 52, 34, 44, 40, 49),
}

#: espeak-ng's default speaking rate in words per minute.
BASE_WPM = 175
_READ_SIZE = 8192


class EspeakTTS(BaseTTS):
    """espeak-ng in a subprocess (`--stdout`), reading its WAV output as it is written.

    Args:
        executable: the espeak-ng program (found on PATH when None).
        default: the voice used when none is given.
        chunk_seconds: how much audio each streamed chunk carries.

    Raises:
        BackendUnavailable: espeak-ng is not installed.
    """

    name = "espeak"

    def __init__(self, executable: str | None = None, default: Voice | None = None, chunk_seconds: float = 0.5) -> None:
        found = executable or shutil.which("espeak-ng")
        if not found:
            raise BackendUnavailable(
                "espeak-ng is not installed; install it with `apt-get install -y espeak-ng` (scripts/setup does)"
            )
        self.executable = found
        self.default = default or Voice("en-us")
        self.chunk_seconds = chunk_seconds

    def voice_for_seat(self, seat: int) -> Voice:
        """A stable voice for `seat`: accent, variant, pitch and speed all step with the seat number."""
        accent = ACCENTS[seat % len(ACCENTS)]
        variant = VARIANTS[seat % len(VARIANTS)]
        return Voice(
            name=f"{accent}+{variant}",
            pitch=PITCHES[seat % len(PITCHES)],
            speed=SPEEDS[seat % len(SPEEDS)],
        )

    def voice_for_gender(self, seat: int, gender: str) -> Voice:
        """A stable voice for `seat` that sounds `gender`: one of that gender's variants.

        For `neutral` (or anything else) it is the seat's own voice, whichever sex its variant has.
        Accent and speed step with the seat number as in `voice_for_seat`, so two seats share
        accent and speed only 42 seats apart, whatever their genders.
        """
        variants = GENDER_VARIANTS.get(gender)
        if variants is None:
            return self.voice_for_seat(seat)
        pitches = GENDER_PITCHES[gender]
        return Voice(
            name=f"{ACCENTS[seat % len(ACCENTS)]}+{variants[seat % len(variants)]}",
            pitch=pitches[seat % len(pitches)],
            speed=SPEEDS[seat % len(SPEEDS)],
        )

    def command(self, voice: Voice) -> list[str]:
        """The espeak-ng command line for `voice` (text goes to its standard input)."""
        cmd = [self.executable, "--stdout", "--stdin", "-v", voice.name or "en-us"]
        cmd += ["-s", str(max(80, min(450, round(BASE_WPM * voice.speed))))]
        if voice.pitch is not None:
            cmd += ["-p", str(max(0, min(99, voice.pitch)))]
        amplitude = voice.option("amplitude")
        if amplitude is not None:
            cmd += ["-a", str(int(amplitude))]
        gap = voice.option("word_gap")
        if gap is not None:
            cmd += ["-g", str(int(gap))]
        return cmd

    async def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        """Yield chunks of about `chunk_seconds` while espeak-ng is still speaking.

        Raises:
            TTSError: espeak-ng failed or wrote no audio.
        """
        voice = voice or self.default
        proc = await asyncio.create_subprocess_exec(
            *self.command(voice),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        try:
            # espeak-ng may exit before reading the text (an unknown voice does): the pipe then breaks,
            # and its own message on stderr, raised below with the empty output, says why.
            with contextlib.suppress(ConnectionError):
                proc.stdin.write(text.encode("utf-8"))
                await proc.stdin.drain()
                proc.stdin.close()
            head = b""
            offset: int | None = None
            while offset is None:
                block = await proc.stdout.read(_READ_SIZE)
                if not block:
                    break
                head += block
                offset = wav_header_length(head)
            if offset is None:
                err = (await proc.stderr.read()).decode(errors="replace").strip()
                await proc.wait()
                raise TTSError(f"espeak-ng wrote no audio for voice {voice.name!r}: {err or 'no output'}")
            channels, rate = wav_format(head)
            frame = 2 * channels
            want = max(frame, int(self.chunk_seconds * rate) * frame)
            pending = head[offset:]
            while True:
                while len(pending) >= want:
                    yield AudioClip(pending[:want], rate, channels)
                    pending = pending[want:]
                block = await proc.stdout.read(_READ_SIZE)
                if not block:
                    break
                pending += block
            pending = pending[: len(pending) - len(pending) % frame]
            if pending:
                yield AudioClip(pending, rate, channels)
            code = await proc.wait()
            if code != 0:
                err = (await proc.stderr.read()).decode(errors="replace").strip()
                raise TTSError(f"espeak-ng failed (exit {code}) for voice {voice.name!r}: {err}")
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
