"""A client of OpenAI-compatible `/v1/audio/speech` servers (OpenAI, Kokoro-FastAPI, LocalAI, ...)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

from lycan.voice.audio import AudioClip
from lycan.voice.http import error_message, require_httpx, stream_wav
from lycan.voice.tts import BackendUnavailable, BaseTTS, TTSError, Voice, name_gender

#: The voices OpenAI's speech endpoint offers.
OPENAI_VOICES: tuple[str, ...] = (
    "alloy",
    "echo",
    "fable",
    "onyx",
    "nova",
    "shimmer",
    "ash",
    "coral",
    "sage",
    "ballad",
    "verse",
)
OPENAI_VOICE_GENDERS: dict[str, str] = {
    "alloy": "neutral",
    "ash": "male",
    "ballad": "male",
    "coral": "female",
    "echo": "male",
    "fable": "neutral",
    "nova": "female",
    "onyx": "male",
    "sage": "female",
    "shimmer": "female",
    "verse": "male",
}
"""How OpenAI's voices sound, for voices chosen by gender (Kokoro-style names say it themselves)."""
SPEEDS: tuple[float, ...] = (1.0, 1.1, 0.92)
WITHOUT_INSTRUCTIONS = frozenset({"tts-1", "tts-1-hd"})
"""OpenAI's speech models that take no `instructions` (a voice's instructions are left out for them)."""


def api_base(url: str) -> str:
    """`url` as an OpenAI-style base URL: `http://host:port` gains `/v1`; a trailing slash goes."""
    url = url.rstrip("/")
    path = url.split("://", 1)[-1].partition("/")[2]
    return url if path else f"{url}/v1"


class OpenAISpeechTTS(BaseTTS):
    """Text to speech through `POST {base_url}/audio/speech`, asking for WAV and reading it as it streams.

    A voice's `instructions` option (how to deliver the words: see `lycan.voice.styled`) is sent as
    the request's `instructions`, except to OpenAI's `tts-1` and `tts-1-hd`, which take none.

    Args:
        base_url: the server's API base, e.g. `http://127.0.0.1:8880/v1` (`/v1` is added to a bare host).
        voice: the default voice.
        model: the speech model name the server expects.
        api_key: the bearer token (from `api_key_env` when None; servers on your own machine need none).
        voices: the voices seats cycle through (OpenAI's when `voice` is one of them, else `voice` alone).
        timeout: seconds to wait for an answer.
        api_key_env: the environment variable holding the key.

    Raises:
        BackendUnavailable: httpx is not installed.
    """

    name = "openai"

    def __init__(
        self,
        base_url: str = "https://api.openai.com/v1",
        voice: str = "alloy",
        model: str = "tts-1",
        api_key: str | None = None,
        voices: tuple[str, ...] | None = None,
        timeout: float = 60.0,
        api_key_env: str = "OPENAI_API_KEY",
    ) -> None:
        httpx = require_httpx()
        self.base_url = api_base(base_url)
        self.default = Voice(voice)
        self.model = model
        key = api_key if api_key is not None else os.environ.get(api_key_env, "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        if voices is None:
            voices = (voice, *(v for v in OPENAI_VOICES if v != voice)) if voice in OPENAI_VOICES else (voice,)
        self.voices = voices
        self._client: Any = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout)

    def voice_for_seat(self, seat: int) -> Voice:
        """A stable voice for `seat`: the server's voices in turn, the pace varying once they repeat."""
        return Voice(self.voices[seat % len(self.voices)], speed=SPEEDS[(seat // len(self.voices)) % len(SPEEDS)])

    def voice_for_gender(self, seat: int, gender: str) -> Voice | None:
        """A stable voice for `seat` among the server's voices that sound `gender`, or None if none is known to.

        OpenAI's voices are known by name (`OPENAI_VOICE_GENDERS`), Kokoro-style ones (`af_bella`)
        by their second letter; the pace varies once a gender's voices repeat.
        """
        pool = [v for v in self.voices if (OPENAI_VOICE_GENDERS.get(v) or name_gender(v)) == gender]
        if not pool:
            return None
        return Voice(pool[seat % len(pool)], speed=SPEEDS[(seat // len(pool)) % len(SPEEDS)])

    async def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        """Yield the speech in chunks while the server is still sending it.

        Raises:
            TTSError: the server answered with an error or with something other than WAV.
            BackendUnavailable: the server cannot be reached.
        """
        httpx = require_httpx()
        voice = voice or self.default
        body: dict[str, Any] = {
            "model": voice.option("model", self.model),
            "input": text,
            "voice": voice.name or self.default.name,
            "response_format": "wav",
        }
        if voice.speed != 1.0:
            body["speed"] = voice.speed
        instructions = voice.option("instructions")
        if instructions and body["model"] not in WITHOUT_INSTRUCTIONS:
            body["instructions"] = instructions
        try:
            async with self._client.stream("POST", "/audio/speech", json=body) as response:
                if response.status_code >= 400:
                    detail = error_message(response.status_code, await response.aread())
                    raise TTSError(f"the speech server at {self.base_url} refused the request: {detail}")
                async for clip in stream_wav(response.aiter_bytes()):
                    yield clip
        except httpx.TransportError as err:
            raise BackendUnavailable(f"cannot reach the speech server at {self.base_url}: {err}") from err

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._client.aclose()
