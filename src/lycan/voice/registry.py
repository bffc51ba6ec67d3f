"""Choose a speech backend by a short spec string."""

from __future__ import annotations

from typing import Any

from lycan.voice.tts import BackendUnavailable, TTSBackend

#: The spec forms `load_tts` understands.
TTS_SPECS = ("espeak", "piper", "kokoro", "openai:VOICE@URL", "gptsovits@URL")


def load_tts(spec: str, *, check: bool = True, **options: Any) -> TTSBackend:
    """Make a TTS backend from a spec.

    Specs: `espeak`, `piper`, `kokoro`, `openai:VOICE@URL` (e.g. `openai:alloy@http://127.0.0.1:8880/v1`;
    `openai:VOICE` alone talks to api.openai.com), `gptsovits@URL` (e.g. `gptsovits@http://127.0.0.1:9880`).

    Args:
        spec: the backend spec.
        check: for server backends, check at once that the server accepts connections.
        **options: passed on to the backend's constructor (e.g. `references=` for GPT-SoVITS).

    Raises:
        BackendUnavailable: the spec is unknown, a package or program is missing, or a server is unreachable.
    """
    spec = spec.strip()
    kind, _, rest = spec.partition("@")
    kind, _, arg = kind.partition(":")
    kind = kind.lower()
    if kind == "espeak" and not rest:
        from lycan.voice.espeak import EspeakTTS

        return EspeakTTS(**options)
    if kind == "piper" and not rest:
        from lycan.voice.piper import PiperTTS

        return PiperTTS(**options)
    if kind == "kokoro" and not rest:
        from lycan.voice.kokoro import KokoroTTS

        return KokoroTTS(**options)
    if kind == "openai":
        from lycan.voice.http import check_reachable
        from lycan.voice.openai_speech import OpenAISpeechTTS

        url = rest or "https://api.openai.com/v1"
        if check and rest:
            check_reachable(url, "speech server")
        return OpenAISpeechTTS(url, voice=arg or "alloy", **options)
    if kind == "gptsovits":
        from lycan.voice.gptsovits import GptSovitsTTS
        from lycan.voice.http import check_reachable

        url = rest or "http://127.0.0.1:9880"
        if check:
            check_reachable(url, "GPT-SoVITS server")
        return GptSovitsTTS(url, **options)
    raise BackendUnavailable(f"unknown TTS backend {spec!r}; use one of: {', '.join(TTS_SPECS)}")
