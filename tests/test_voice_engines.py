"""Real engines: espeak-ng, Piper, faster-whisper (and Kokoro when its extra is installed)."""

import asyncio
import importlib.util
import json
import re
import wave

import numpy as np
import pytest

from lycan.agents import HeuristicAgent, make_agent
from lycan.engine import run_sync
from lycan.engine.actions import Action, Request
from lycan.engine.manner import Manner
from lycan.engine.view import View
from lycan.rules import get_preset
from lycan.voice import (
    AudioClip,
    AudioError,
    EspeakTTS,
    Voice,
    WhisperASR,
    decode_audio,
    load_tts,
    render_game_audio,
    spoken_lines,
    styled,
)
from lycan.voice.piper import PiperTTS
from lycan.voice.tts import TTSError


@pytest.fixture(scope="module")
def piper() -> PiperTTS:
    return PiperTTS()


@pytest.fixture(scope="module")
def whisper() -> WhisperASR:
    return WhisperASR(cpu_threads=2)


def f0(clip: AudioClip) -> float:
    """Median fundamental frequency of the voiced 40 ms frames (autocorrelation)."""
    x = np.frombuffer(clip.pcm, "<i2").astype(float)
    sr = clip.sample_rate
    n = int(0.04 * sr)
    floor = 0.3 * np.sqrt((x**2).mean())
    found = []
    for i in range(0, len(x) - n, n):
        frame = x[i : i + n] - x[i : i + n].mean()
        if np.sqrt((frame**2).mean()) < floor:
            continue
        ac = np.correlate(frame, frame, "full")[n - 1 :]
        lo, hi = int(sr / 400), int(sr / 60)
        lag = lo + int(np.argmax(ac[lo:hi]))
        if ac[lag] > 0.3 * ac[0]:
            found.append(sr / lag)
    return float(np.median(found))


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def word_error_rate(ref: str, hyp: str) -> float:
    r, h = words(ref), words(hyp)
    d = list(range(len(h) + 1))
    for i, rw in enumerate(r, 1):
        prev, d[0] = d[0], i
        for j, hw in enumerate(h, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (rw != hw))
    return d[len(h)] / max(1, len(r))


async def test_espeak_speaks_a_sentence_to_wav(tmp_path):
    tts = load_tts("espeak")
    clip = await tts.synthesize("Good morning everyone. I was the seer last night.")
    assert clip.sample_rate == 22050
    assert 2.0 < clip.duration < 6.0
    assert clip.rms() > 0.02
    path = tmp_path / "line.wav"
    clip.write(str(path))
    with wave.open(str(path)) as wav:
        assert wav.getframerate() == 22050 and wav.getnframes() == clip.n_frames


async def test_espeak_streams_chunks_that_add_up_to_the_whole():
    tts = EspeakTTS(chunk_seconds=0.25)
    text = "Listen carefully, because I will only say this once."
    chunks = [c async for c in tts.stream(text, Voice("en-us+f2"))]
    whole = await tts.synthesize(text, Voice("en-us+f2"))
    assert len(chunks) > 4
    assert b"".join(c.pcm for c in chunks) == whole.pcm


async def test_espeak_bad_voice_is_a_clear_error():
    with pytest.raises(Exception, match="espeak-ng") as info:
        await EspeakTTS().synthesize("hello", Voice("xx-nonexistent"))
    assert "xx-nonexistent" in str(info.value)


async def test_espeak_that_exits_before_reading_the_text_is_still_a_clear_error(tmp_path):
    # espeak-ng leaves at once on an unknown voice; the text then meets a closed pipe. A program that
    # exits without reading, given more text than a pipe holds, makes that race certain.
    program = tmp_path / "espeak-ng"
    program.write_text("#!/bin/sh\necho 'Voice does not exist' >&2\nexit 1\n")
    program.chmod(0o755)
    with pytest.raises(TTSError, match="espeak-ng wrote no audio for voice 'xx-gone': Voice does not exist"):
        await EspeakTTS(executable=str(program)).synthesize("hello " * 50_000, Voice("xx-gone"))


async def test_espeak_seats_get_distinct_voices_that_really_differ():
    tts = EspeakTTS()
    voices = [tts.voice_for_seat(s) for s in range(13)]
    assert len(set(voices)) == 13
    assert voices == [tts.voice_for_seat(s) for s in range(13)]  # stable
    text = "I have been watching everyone very carefully today."
    clips = await asyncio.gather(*(tts.synthesize(text, voices[s]) for s in range(6)))
    assert len({c.pcm for c in clips}) == 6
    pitches = [f0(c) for c in clips]
    assert max(pitches) > 1.6 * min(pitches), pitches
    assert pitches[3] > 1.6 * pitches[0]  # seat 3 (f1, pitch 70) sounds higher than seat 0 (m1, pitch 50)
    durations = [c.duration for c in clips]
    assert max(durations) > 1.1 * min(durations)  # speaking rates differ too


async def test_piper_speaks_and_seats_differ(piper):
    assert piper.sample_rate == 22050
    text = "I am a villager, and I trust Alice."
    slow, fast = piper.voice_for_seat(2), piper.voice_for_seat(5)
    a, b = await asyncio.gather(piper.synthesize(text, slow), piper.synthesize(text, fast))
    assert a.rms() > 0.03 and b.rms() > 0.03
    assert 1.0 < b.duration < a.duration < 6.0  # seat 2 speaks slower than seat 5
    assert len({piper.voice_for_seat(s) for s in range(8)}) == 8


async def test_piper_streams_one_chunk_per_sentence(piper):
    chunks = [c async for c in piper.stream("First sentence here. Second one here. Third.")]
    assert len(chunks) == 3
    assert all(c.rms() > 0.01 for c in chunks)


async def test_espeak_to_whisper_round_trip(whisper):
    sentence = "I think we should all vote for the man in the red coat today."
    clip = await EspeakTTS().synthesize(sentence, Voice("en-us", speed=0.9))
    transcript = await whisper.transcribe(clip.wav_bytes(), "audio/wav")
    assert transcript.language == "en"
    assert abs(transcript.seconds - clip.duration) < 0.1
    assert word_error_rate(sentence, transcript.text) <= 0.25, transcript.text


async def test_piper_to_whisper_round_trip(piper, whisper):
    sentence = "Please vote for the player who spoke first today."
    clip = await piper.synthesize(sentence)
    transcript = await whisper.transcribe(clip.wav_bytes())
    assert word_error_rate(sentence, transcript.text) <= 0.2, transcript.text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\x13\x37garbage, not sound at all" * 40, "not decodable"),
        (b"RIFF\x00\x00\x00\x00WAVEjunk" * 10, "not decodable"),
    ],
)
async def test_input_that_is_not_audio_is_rejected(whisper, data, message):
    with pytest.raises(AudioError, match=message):
        await whisper.transcribe(data, "audio/wav")


async def test_oversized_and_overlong_audio_is_rejected():
    asr = WhisperASR(max_bytes=1000, max_seconds=1.0)
    with pytest.raises(AudioError, match="too large"):
        await asr.transcribe(bytes(5000), "audio/wav")
    long_clip = AudioClip.silence(2.0, 8000).wav_bytes()
    asr.max_bytes = 10**6
    with pytest.raises(AudioError, match="too long"):
        await asr.transcribe(long_clip, "audio/wav")


def test_decode_resamples_to_16k_mono():
    stereo = AudioClip(bytes(4 * 44100), 44100, channels=2)
    clip = decode_audio(stereo.wav_bytes(), "audio/wav")
    assert clip.sample_rate == 16000 and clip.channels == 1
    assert abs(clip.duration - 1.0) < 0.01


async def test_render_game_audio_writes_each_utterance_and_the_whole_game(tmp_path):
    rules = get_preset("aiwolf5")
    record = run_sync(rules, [make_agent("random", s) for s in range(rules.n_players)], seed=4)
    lines = spoken_lines(record, narrate=True)
    talk = [line for line in lines if line[1] != "narrator"]
    assert talk and len(lines) > len(talk)
    rendered = await render_game_audio(record, tmp_path, EspeakTTS(), narrate=True, gap=0.2)
    assert not rendered.errors
    assert [line.event_id for line in rendered.lines] == [line[0] for line in lines]
    for line in rendered.lines:
        assert line.path.name == f"{line.event_id:04d}.wav"
        assert AudioClip.from_wav(line.path.read_bytes()).rms() > 0.01
    game = AudioClip.from_wav(rendered.game_wav.read_bytes())
    assert abs(game.duration - (rendered.duration + 0.2 * (len(lines) - 1))) < 0.01
    index = json.loads((tmp_path / "lines.json").read_text())
    assert [i["event_id"] for i in index] == [line.event_id for line in rendered.lines]


SENTENCE = "I have been watching everyone very carefully today, and I am not sure of anyone."


async def test_espeak_speaks_slowly_or_quickly_and_low_or_high_as_the_manner_says():
    tts = EspeakTTS()
    seat = tts.voice_for_seat(0)
    assert styled(seat, None) is seat and styled(seat, Manner()) is seat
    slow, fast, low, high = await asyncio.gather(
        *(
            tts.synthesize(SENTENCE, styled(seat, manner))
            for manner in (Manner(pace="slow"), Manner(pace="fast"), Manner(pitch="low"), Manner(pitch="high"))
        )
    )
    assert slow.duration > 1.4 * fast.duration, (slow.duration, fast.duration)
    assert low.pcm != high.pcm
    assert f0(high) > 1.15 * f0(low), (f0(low), f0(high))
    # the pitch moves from the seat's own, within espeak-ng's range
    assert styled(seat, Manner(pitch="high")).pitch == 68 and styled(seat, Manner(pitch="low")).pitch == 32
    assert styled(Voice("en-us", pitch=95), Manner(pitch="high", emotion="cheerful")).pitch == 99
    assert styled(Voice("en-us"), Manner(pitch="low")).pitch == 32  # from espeak-ng's default, 50


async def test_piper_speaks_slowly_or_quickly_and_evenly_or_excitedly_as_the_manner_says(piper):
    seat = piper.voice_for_seat(0)
    assert styled(seat, Manner(emotion="calm", expression="smile", gesture="nod")) is seat  # nothing vocal
    even, angry = styled(seat, Manner(emotion="confident")), styled(seat, Manner(emotion="angry"))
    assert even.variation is not None and angry.variation is not None and seat.variation is not None
    assert even.variation < seat.variation < angry.variation
    assert even.option("noise_w") < seat.option("noise_w") < angry.option("noise_w")
    slow, fast = await asyncio.gather(
        piper.synthesize(SENTENCE, styled(seat, Manner(pace="slow"))),
        piper.synthesize(SENTENCE, styled(seat, Manner(pace="fast"))),
    )
    assert slow.duration > 1.3 * fast.duration, (slow.duration, fast.duration)


class Brisk(HeuristicAgent):
    """Says what the heuristic agent says, quickly and angrily."""

    def decide(self, view: View, request: Request) -> Action:
        action = super().decide(view, request)
        if action.kind == "speak":
            return Action.speak(action.text, Manner(pace="fast", emotion="angry"))
        return action


class Recording(EspeakTTS):
    def __init__(self) -> None:
        super().__init__()
        self.spoken: set[tuple[str, Voice]] = set()

    async def synthesize(self, text: str, voice: Voice | None = None) -> AudioClip:
        assert voice is not None
        self.spoken.add((text, voice))
        return await super().synthesize(text, voice)


async def test_render_game_audio_speaks_each_utterance_in_its_recorded_manner(tmp_path):
    rules = get_preset("aiwolf5")
    record = run_sync(rules, [Brisk(s) for s in range(rules.n_players)], seed=4)
    tts = Recording()
    rendered = await render_game_audio(record, tmp_path, tts, narrate=True)
    assert not rendered.errors
    brisk = Manner(pace="fast", emotion="angry")
    lines = spoken_lines(record, narrate=True)
    assert any(isinstance(speaker, int) for _, speaker, _ in lines)
    for _, speaker, text in lines:
        if isinstance(speaker, int):
            voice = styled(tts.voice_for_seat(speaker), brisk)
            assert voice.speed > tts.voice_for_seat(speaker).speed
            assert voice.option("instructions") == "Speak in an angry, forceful tone, quickly."
        else:
            voice = tts.voice_for_seat(rules.n_players)  # the narrator speaks plainly
        assert (text, voice) in tts.spoken


@pytest.mark.skipif(importlib.util.find_spec("kokoro_onnx") is None, reason="the kokoro extra is not installed")
async def test_kokoro_speaks_english_with_blended_voices():
    tts = load_tts("kokoro")
    assert set(tts.voices) >= {"jf_alpha", "jm_kumo"}
    seat0, seat7 = tts.voice_for_seat(0), tts.voice_for_seat(7)
    assert ":" in seat7.name  # later seats get blends
    a = await tts.synthesize("Hello there.", seat0)
    b = await tts.synthesize("Hello there.", seat7)
    assert a.sample_rate == 24000 and a.rms() > 0.02 and b.rms() > 0.02
    assert a.pcm != b.pcm
