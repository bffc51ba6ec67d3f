"""Helpers shared by the HTTP speech clients: reachability, error messages, streamed WAV."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from lycan.voice.audio import AudioClip, AudioError, wav_data_size, wav_format, wav_header_length
from lycan.voice.tts import BackendUnavailable, TTSError


def require_httpx() -> Any:
    """The httpx module.

    Raises:
        BackendUnavailable: httpx is not installed.
    """
    try:
        import httpx
    except ImportError:
        raise BackendUnavailable(
            "httpx is not installed; install the voice extra: pip install 'lycan[voice]'"
        ) from None
    return httpx


def check_reachable(url: str, what: str, timeout: float = 2.0) -> None:
    """Open and close a TCP connection to the host and port of `url`.

    Raises:
        BackendUnavailable: nothing listens there, or the URL is malformed.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BackendUnavailable(f"{url!r} is not an http(s) URL for the {what}")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            pass
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise BackendUnavailable(f"cannot reach the {what} at {url} ({reason}); start it or fix the URL") from None


def error_message(status: int, body: bytes) -> str:
    """A short reason from an HTTP error answer (its JSON `message`/`error`, else its text)."""
    import json

    text = body.decode("utf-8", errors="replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        return f"HTTP {status}: {text[:200] or 'no details'}"
    if isinstance(data, dict):
        for key in ("message", "error", "detail"):
            value = data.get(key)
            if isinstance(value, dict):
                value = value.get("message", value)
            if value:
                extra = data.get("Exception")
                return f"HTTP {status}: {value}" + (f" ({extra})" if extra else "")
    return f"HTTP {status}: {text[:200]}"


async def stream_wav(chunks: AsyncIterator[bytes], min_bytes: int = 4096) -> AsyncIterator[AudioClip]:
    """Turn a WAV byte stream into clips as the bytes arrive (header first, then raw samples).

    Works for complete WAV files and for streaming headers whose size fields are unset.

    Raises:
        TTSError: the stream is not a 16-bit PCM WAV.
    """
    head = b""
    offset: int | None = None
    channels = rate = 0
    remaining: int | None = None
    pending = b""
    try:
        async for block in chunks:
            if offset is None:
                head += block
                offset = wav_header_length(head)
                if offset is None:
                    continue
                channels, rate = wav_format(head)
                remaining = wav_data_size(head)
                pending = head[offset:]
            else:
                pending += block
            if remaining is not None and len(pending) > remaining:
                pending = pending[:remaining]
            frame = 2 * channels
            usable = len(pending) - len(pending) % frame
            if usable >= min_bytes:
                yield AudioClip(pending[:usable], rate, channels)
                pending = pending[usable:]
                if remaining is not None:
                    remaining -= usable
    except AudioError as err:
        raise TTSError(f"the server did not send 16-bit PCM WAV audio: {err}") from err
    if offset is None:
        raise TTSError("the server's answer ended before any audio")
    frame = 2 * channels
    pending = pending[: len(pending) - len(pending) % frame]
    if pending:
        yield AudioClip(pending, rate, channels)
