"""Audio clips as 16-bit PCM, WAV encoding and decoding, loudness and concatenation.

Everything here uses the standard library only, so the core package can write and read speech
without numpy or any audio library.
"""

from __future__ import annotations

import io
import math
import struct
import wave
from array import array
from collections.abc import Iterable
from dataclasses import dataclass


class AudioError(ValueError):
    """Bytes that are not usable audio (empty, too large, not a sound file, or silent)."""


@dataclass(frozen=True, slots=True)
class AudioClip:
    """A piece of speech: signed 16-bit little-endian PCM samples, interleaved if stereo.

    Attributes:
        pcm: the raw samples.
        sample_rate: samples per second per channel.
        channels: 1 (mono) or 2 (stereo).
    """

    pcm: bytes
    sample_rate: int
    channels: int = 1

    @property
    def n_frames(self) -> int:
        """Number of sample frames (samples per channel)."""
        return len(self.pcm) // (2 * self.channels)

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.n_frames / self.sample_rate if self.sample_rate else 0.0

    def wav_bytes(self) -> bytes:
        """The clip as a complete WAV file."""
        buf = io.BytesIO()
        with wave.open(buf, "wb") as out:
            out.setnchannels(self.channels)
            out.setsampwidth(2)
            out.setframerate(self.sample_rate)
            out.writeframes(self.pcm)
        return buf.getvalue()

    def samples(self) -> array[int]:
        """The samples as a signed 16-bit array (interleaved channels)."""
        data = array("h")
        data.frombytes(self.pcm[: len(self.pcm) - len(self.pcm) % 2])
        return data

    def rms(self) -> float:
        """Root-mean-square level in [0, 1] (0 for silence)."""
        data = self.samples()
        if not data:
            return 0.0
        return math.sqrt(sum(s * s for s in data) / len(data)) / 32768.0

    def write(self, path: str) -> None:
        """Write the clip to `path` as a WAV file."""
        with open(path, "wb") as fh:
            fh.write(self.wav_bytes())

    @staticmethod
    def silence(seconds: float, sample_rate: int, channels: int = 1) -> AudioClip:
        """A clip of `seconds` of silence."""
        return AudioClip(bytes(2 * channels * round(seconds * sample_rate)), sample_rate, channels)

    @staticmethod
    def from_wav(data: bytes) -> AudioClip:
        """Parse a WAV file, tolerating the size fields that streaming writers leave unset.

        Streaming writers (espeak-ng `--stdout`, GPT-SoVITS in streaming mode) write a header whose
        RIFF and data sizes are 0 or 0xFFFFFFFF; the data then runs to the end of the bytes.

        Raises:
            AudioError: the bytes are not a 16-bit PCM WAV file.
        """
        fmt, offset, size = _parse_wav_header(data)
        channels, rate = fmt
        end = len(data) if _unset(size) or offset + size > len(data) else offset + size
        pcm = data[offset:end]
        return AudioClip(pcm[: len(pcm) - len(pcm) % (2 * channels)], rate, channels)


def wav_header_length(data: bytes) -> int | None:
    """Where the samples start in a (possibly partial) WAV stream, or None if the header is not complete yet.

    Raises:
        AudioError: the bytes cannot be the start of a 16-bit PCM WAV file.
    """
    try:
        _, offset, _ = _parse_wav_header(data)
    except _Incomplete:
        return None
    return offset


def wav_data_size(data: bytes) -> int | None:
    """The size of the data chunk a WAV header declares, or None when a streaming writer left it unset.

    Raises:
        AudioError: the bytes are not the start of a 16-bit PCM WAV file.
    """
    try:
        _, _, size = _parse_wav_header(data)
    except _Incomplete:
        raise AudioError("the WAV header is cut short") from None
    return None if _unset(size) else size


def wav_format(data: bytes) -> tuple[int, int]:
    """(channels, sample_rate) from a WAV header.

    Raises:
        AudioError: the bytes are not the start of a 16-bit PCM WAV file.
    """
    try:
        fmt, _, _ = _parse_wav_header(data)
    except _Incomplete:
        raise AudioError("the WAV header is cut short") from None
    return fmt


def _unset(size: int) -> bool:
    # Streaming writers leave 0, 0xFFFFFFFF or a value near 2**31 (espeak-ng) in the size fields.
    return size == 0 or size >= 0x7FFF0000


class _Incomplete(AudioError):
    """The data ended before a complete audio header."""


def _parse_wav_header(data: bytes) -> tuple[tuple[int, int], int, int]:
    if len(data) < 12:
        if data and not (b"RIFF".startswith(data[:4]) or data[:4] == b"RIFF"):
            raise AudioError("not a WAV file: it does not start with RIFF")
        raise _Incomplete("the WAV header is cut short")
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise AudioError("not a WAV file: it does not start with RIFF....WAVE")
    pos = 12
    fmt: tuple[int, int] | None = None
    while True:
        if pos + 8 > len(data):
            raise _Incomplete("the WAV header is cut short")
        chunk_id = data[pos : pos + 4]
        (chunk_size,) = struct.unpack("<I", data[pos + 4 : pos + 8])
        body = pos + 8
        if chunk_id == b"fmt ":
            if body + 16 > len(data):
                raise _Incomplete("the WAV header is cut short")
            tag, channels, rate, _, _, bits = struct.unpack("<HHIIHH", data[body : body + 16])
            if tag not in (1, 0xFFFE) or bits != 16:
                raise AudioError(f"unsupported WAV encoding (format {tag}, {bits} bits); 16-bit PCM is needed")
            if channels not in (1, 2) or rate <= 0:
                raise AudioError(f"unsupported WAV layout ({channels} channels at {rate} Hz)")
            fmt = (channels, rate)
        elif chunk_id == b"data":
            if fmt is None:
                raise AudioError("malformed WAV file: data comes before its format")
            return fmt, body, chunk_size
        pos = body + chunk_size + (chunk_size & 1)


def clip_from_float(samples: Iterable[float], sample_rate: int) -> AudioClip:
    """A mono clip from float samples in [-1, 1] (clipped)."""
    data = array("h", (max(-32767, min(32767, round(s * 32767))) for s in samples))
    return AudioClip(data.tobytes(), sample_rate)


def to_mono(clip: AudioClip) -> AudioClip:
    """The clip mixed down to one channel."""
    if clip.channels == 1:
        return clip
    data = clip.samples()
    mixed = array("h", ((data[i] + data[i + 1]) // 2 for i in range(0, len(data) - 1, 2)))
    return AudioClip(mixed.tobytes(), clip.sample_rate, 1)


def resample(clip: AudioClip, sample_rate: int) -> AudioClip:
    """The clip at another sample rate (mono, linear interpolation: fine for speech playback)."""
    clip = to_mono(clip)
    if not clip.pcm:
        return AudioClip(b"", sample_rate)
    if clip.sample_rate == sample_rate:
        return clip
    src = clip.samples()
    n_out = max(1, round(len(src) * sample_rate / clip.sample_rate))
    step = (len(src) - 1) / max(1, n_out - 1)
    out = array("h", bytes(2 * n_out))
    last = len(src) - 1
    for i in range(n_out):
        x = i * step
        j = int(x)
        frac = x - j
        nxt = src[j + 1] if j < last else src[last]
        out[i] = int(src[j] + (nxt - src[j]) * frac)
    return AudioClip(out.tobytes(), sample_rate)


def concat(clips: Iterable[AudioClip], gap: float = 0.0) -> AudioClip:
    """Join clips one after another, with `gap` seconds of silence between them.

    Clips at other sample rates than the first are resampled to it; stereo is mixed to mono
    when the clips disagree on channels.

    Raises:
        AudioError: there are no clips.
    """
    items = list(clips)
    if not items:
        raise AudioError("nothing to join: no clips")
    rate = items[0].sample_rate
    channels = items[0].channels
    if any(c.channels != channels for c in items):
        items = [to_mono(c) for c in items]
        channels = 1
    pause = AudioClip.silence(gap, rate, channels).pcm if gap > 0 else b""
    parts: list[bytes] = []
    for i, c in enumerate(items):
        if i and pause:
            parts.append(pause)
        parts.append((c if c.sample_rate == rate else resample(c, rate)).pcm)
    return AudioClip(b"".join(parts), rate, channels)
