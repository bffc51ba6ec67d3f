"""Speech for the table: TTS backends, clause chunking, the ordered audio queue, and speech input.

Nothing here downloads anything: espeak-ng is a Debian package, Piper, Kokoro and Whisper models come
from PyPI packages (the `voice` and `kokoro` extras), and the HTTP clients talk to servers you run.

Typical use::

    tts = load_tts("piper")
    pipeline = SpeechPipeline(tts)
    pipeline.speak(3, model.stream(request))   # seat 3 speaks while the model writes
    pipeline.speak(4, text, voice_for_persona(tts, 4, persona))  # seat 4 in its persona's voice
    async for item in pipeline.queue:            # clips in speaking order
        ...
"""

from lycan.voice.asr import (
    ASRBackend,
    ASRError,
    OpenAITranscriptionASR,
    Transcript,
    WhisperASR,
    decode_audio,
)
from lycan.voice.audio import AudioClip, AudioError, concat
from lycan.voice.chunker import ClauseChunker
from lycan.voice.espeak import EspeakTTS
from lycan.voice.gptsovits import GptSovitsTTS, Reference
from lycan.voice.openai_speech import OpenAISpeechTTS
from lycan.voice.persona import voice_for_persona
from lycan.voice.pipeline import SpeechPipeline, Utterance
from lycan.voice.playback import AudioPlayer, PlaybackUnavailable, find_player
from lycan.voice.queue import AudioQueue, QueuedClip, Timing
from lycan.voice.registry import TTS_SPECS, load_tts
from lycan.voice.render import RenderedGame, render_game_audio, spoken_lines
from lycan.voice.style import styled
from lycan.voice.tts import BackendUnavailable, TTSBackend, TTSError, Voice, VoiceError

__all__ = [
    "TTS_SPECS",
    "ASRBackend",
    "ASRError",
    "AudioClip",
    "AudioError",
    "AudioPlayer",
    "AudioQueue",
    "BackendUnavailable",
    "ClauseChunker",
    "EspeakTTS",
    "GptSovitsTTS",
    "OpenAISpeechTTS",
    "OpenAITranscriptionASR",
    "PlaybackUnavailable",
    "QueuedClip",
    "Reference",
    "RenderedGame",
    "SpeechPipeline",
    "TTSBackend",
    "TTSError",
    "Timing",
    "Transcript",
    "Utterance",
    "Voice",
    "VoiceError",
    "WhisperASR",
    "concat",
    "decode_audio",
    "find_player",
    "load_tts",
    "render_game_audio",
    "spoken_lines",
    "styled",
    "voice_for_persona",
]
