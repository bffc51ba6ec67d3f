"""A client of GPT-SoVITS's HTTP API (`api_v2.py`'s `/tts`, or the older `api.py`'s `/`).

GPT-SoVITS clones a voice from a short reference recording on the server's disk, so each voice is a
`Reference`: the recording's path on the server, what is said in it and its language.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from lycan.voice.audio import AudioClip
from lycan.voice.http import error_message, require_httpx, stream_wav
from lycan.voice.tts import BackendUnavailable, BaseTTS, TTSError, Voice

SPEEDS: tuple[float, ...] = (1.0, 1.08, 0.93)
_NOT_SENT = frozenset({"prompt_text", "prompt_lang", "text_lang", "instructions"})
"""Voice options that are not GPT-SoVITS request fields (`instructions` is for OpenAI-style servers)."""


@dataclass(frozen=True, slots=True)
class Reference:
    """A voice GPT-SoVITS clones: a reference clip (3-10 s) on the server and its transcript.

    Attributes:
        ref_audio_path: the clip's path as the server sees it.
        prompt_text: what is said in the clip.
        prompt_lang: the clip's language (`en`, `zh`, `ja`, `ko`, `yue`, ...).
        aux_ref_audio_paths: further clips of the same speaker to blend in (api_v2 only).
        gender: how the speaker sounds (`female`, `male`, `neutral`; None: not said), for voices
            chosen by gender (`GptSovitsTTS.voice_for_gender`). It is not sent to the server.
    """

    ref_audio_path: str
    prompt_text: str = ""
    prompt_lang: str = "en"
    aux_ref_audio_paths: tuple[str, ...] = ()
    gender: str | None = None


class GptSovitsTTS(BaseTTS):
    """Speech from a running GPT-SoVITS server.

    Args:
        base_url: the server, e.g. `http://127.0.0.1:9880`.
        references: named voices; a `Voice.name` picks one (or is itself a reference path on the server).
        text_lang: the language of the text to speak.
        api: `v2` for `api_v2.py` (`/tts`), `v1` for the older `api.py` (`POST /`).
        streaming_mode: api_v2's streaming mode (0/False off; 1-3 stream chunks as they are made).
        text_split_method: how the server cuts long text (`cut0` none ... `cut5` by punctuation).
        timeout: seconds to wait for an answer.
        params: further request fields (top_k, top_p, temperature, seed, batch_size, ...).

    Raises:
        BackendUnavailable: httpx is not installed.
    """

    name = "gptsovits"

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:9880",
        references: Mapping[str, Reference] | None = None,
        text_lang: str = "en",
        api: Literal["v1", "v2"] = "v2",
        streaming_mode: bool | int = False,
        text_split_method: str = "cut5",
        timeout: float = 120.0,
        **params: Any,
    ) -> None:
        httpx = require_httpx()
        self.base_url = base_url.rstrip("/")
        self.references = dict(references or {})
        self.text_lang = text_lang
        self.api = api
        self.streaming_mode = streaming_mode
        self.text_split_method = text_split_method
        self.params = params
        self._client: Any = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)

    def voice_for_seat(self, seat: int) -> Voice:
        """The references in turn (by name), the pace varying once they repeat.

        Raises:
            TTSError: no references were configured.
        """
        if not self.references:
            raise TTSError("GPT-SoVITS needs reference voices: pass references={'name': Reference(path, text, lang)}")
        names = sorted(self.references)
        return Voice(names[seat % len(names)], speed=SPEEDS[(seat // len(names)) % len(SPEEDS)])

    def voice_for_gender(self, seat: int, gender: str) -> Voice | None:
        """The references whose `gender` is `gender` in turn (by name), or None if none says it is."""
        names = sorted(name for name, ref in self.references.items() if ref.gender == gender)
        if not names:
            return None
        return Voice(names[seat % len(names)], speed=SPEEDS[(seat // len(names)) % len(SPEEDS)])

    def reference(self, voice: Voice) -> Reference:
        """The reference clip behind `voice`.

        Raises:
            TTSError: the voice names no reference.
        """
        if voice.name in self.references:
            return self.references[voice.name]
        if voice.name:
            return Reference(voice.name, voice.option("prompt_text", ""), voice.option("prompt_lang", self.text_lang))
        if len(self.references) == 1:
            return next(iter(self.references.values()))
        raise TTSError("GPT-SoVITS needs a reference voice: give Voice(name=...) a reference name or a path")

    def request_body(self, text: str, voice: Voice) -> dict[str, Any]:
        """The JSON body for `text` in `voice`, in the form the chosen API version expects."""
        ref = self.reference(voice)
        if self.api == "v1":
            body: dict[str, Any] = {
                "refer_wav_path": ref.ref_audio_path,
                "prompt_text": ref.prompt_text,
                "prompt_language": ref.prompt_lang,
                "text": text,
                "text_language": voice.option("text_lang", self.text_lang),
                "speed": voice.speed,
            }
        else:
            body = {
                "text": text,
                "text_lang": voice.option("text_lang", self.text_lang),
                "ref_audio_path": ref.ref_audio_path,
                "aux_ref_audio_paths": list(ref.aux_ref_audio_paths),
                "prompt_text": ref.prompt_text,
                "prompt_lang": ref.prompt_lang,
                "text_split_method": self.text_split_method,
                "speed_factor": voice.speed,
                "media_type": "wav",
                "streaming_mode": self.streaming_mode,
            }
        body.update(self.params)
        body.update({k: v for k, v in voice.options if k not in _NOT_SENT})
        return body

    async def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        """Yield the speech in chunks (as the server streams them in streaming mode).

        Raises:
            TTSError: the server refused the request or sent something other than WAV.
            BackendUnavailable: the server cannot be reached.
        """
        httpx = require_httpx()
        voice = voice or Voice()
        body = self.request_body(text, voice)
        path = "/" if self.api == "v1" else "/tts"
        try:
            async with self._client.stream("POST", path, json=body) as response:
                if response.status_code >= 400:
                    detail = error_message(response.status_code, await response.aread())
                    raise TTSError(f"GPT-SoVITS at {self.base_url} refused the request: {detail}")
                async for clip in stream_wav(response.aiter_bytes()):
                    yield clip
        except httpx.TransportError as err:
            raise BackendUnavailable(
                f"cannot reach GPT-SoVITS at {self.base_url} ({err}); start it with `python api_v2.py -p PORT`"
            ) from err

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._client.aclose()
