"""Voices by persona: gender and age where the backend can tell, the persona's mood always, seats kept apart."""

from __future__ import annotations

import asyncio
import itertools
import shutil
from collections.abc import AsyncIterator
from dataclasses import replace

import numpy as np
import pytest

from lycan.agents.persona import GENDERS, Persona
from lycan.engine.manner import Manner
from lycan.voice import EspeakTTS, GptSovitsTTS, OpenAISpeechTTS, Reference, SpeechPipeline, Voice, styled
from lycan.voice.audio import AudioClip
from lycan.voice.espeak import ACCENTS, GENDER_VARIANTS
from lycan.voice.kokoro import gender_voice, gender_voice_names
from lycan.voice.openai_speech import OPENAI_VOICE_GENDERS
from lycan.voice.persona import AGE_BANDS, aged, persona_manner, voice_for_persona
from lycan.voice.tts import BaseTTS, name_gender

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng (scripts/setup)")

AGES = (22, 40, 68)
"""One age in each of `AGE_BANDS`."""
WOMAN = Persona("cheerful", "chatty", ("questions",), 29, "female")
MAN = Persona("blunt", "terse", ("plans",), 61, "male")


class Ungendered(BaseTTS):
    """A backend whose voices say nothing of gender (like Piper's one bundled voice)."""

    name = "ungendered"

    def __init__(self) -> None:
        self.voices: list[Voice] = []

    def voice_for_seat(self, seat: int) -> Voice:
        return Voice(f"seat-{seat}", speed=1.0 + seat / 100, pitch=40 + seat)

    async def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        self.voices.append(voice or Voice())
        yield AudioClip(b"\x00\x10" * 800, 16000)


def test_the_age_bands_cover_every_age_and_the_middle_band_changes_nothing() -> None:
    assert [b.below for b in AGE_BANDS] == sorted(b.below for b in AGE_BANDS)
    voice = Voice("x", speed=1.0, pitch=50)
    young, middle, old = (aged(voice, age) for age in AGES)
    assert middle == voice
    assert young.speed > 1.0 > old.speed and young.pitch is not None and old.pitch is not None
    assert young.pitch > 50 > old.pitch
    assert aged(Voice("x", pitch=None), 80).pitch is None  # a voice without a pitch keeps none
    assert aged(Voice("x", pitch=2), 90).pitch == 0  # kept within espeak-ng's range


def test_a_voice_speaks_in_its_own_manner_unless_the_utterance_brings_one() -> None:
    base = Voice("en-us+f3", pitch=50)
    own = replace(base, manner=Manner(emotion="worried"))
    angry = Manner(pace="fast", emotion="angry")
    assert styled(own, None) == styled(base, Manner(emotion="worried"))
    # the utterance's manner replaces the voice's own: an angry line is not also worried
    assert styled(own, angry) == styled(base, angry)
    # a styled voice has no manner left, so styling it again changes nothing
    assert styled(own, None).manner is None
    assert styled(styled(own, None), None) == styled(own, None)
    # a plain, calm utterance is spoken plainly, whatever the voice's own manner
    assert styled(own, Manner()) == base


def test_a_persona_voice_carries_the_persona_mood() -> None:
    tts = Ungendered()
    for persona in (WOMAN, MAN):
        voice = voice_for_persona(tts, 3, persona)
        assert voice.manner == persona_manner(persona) == Manner(emotion=persona.emotion())
    assert voice_for_persona(tts, 3, None) == tts.voice_for_seat(3)


def test_a_backend_that_cannot_tell_gender_gives_the_seat_its_own_voice() -> None:
    tts = Ungendered()
    for seat, persona in itertools.product(range(5), (WOMAN, MAN)):
        assert replace(voice_for_persona(tts, seat, persona), manner=None) == tts.voice_for_seat(seat)


def test_a_pipeline_speaks_a_persona_voice_in_the_persona_mood() -> None:
    tts = Ungendered()

    async def main() -> None:
        pipeline = SpeechPipeline(tts)
        listener = asyncio.create_task(_drain(pipeline))
        await pipeline.say(2, "Good morning, everyone.", voice_for_persona(tts, 2, WOMAN))
        await pipeline.aclose()
        await listener

    asyncio.run(main())
    assert tts.voices and set(tts.voices) == {styled(tts.voice_for_seat(2), Manner(emotion="cheerful"))}
    assert tts.voices[0].speed > tts.voice_for_seat(2).speed


async def _drain(pipeline: SpeechPipeline) -> None:
    async for _ in pipeline.queue:
        pass


@needs_espeak
def test_espeak_gives_a_persona_a_variant_of_its_gender_aged() -> None:
    tts = EspeakTTS()
    for seat, age in itertools.product(range(12), AGES):
        woman = voice_for_persona(tts, seat, replace(WOMAN, age=age))
        man = voice_for_persona(tts, seat, replace(MAN, age=age))
        assert woman.name.split("+")[1] in GENDER_VARIANTS["female"]
        assert man.name.split("+")[1] in GENDER_VARIANTS["male"]
        assert woman == replace(aged(tts.voice_for_gender(seat, "female"), age), manner=persona_manner(WOMAN))
    # neutral personas keep the seat's own voice, aged
    neutral = replace(WOMAN, gender="neutral", age=68)
    assert replace(voice_for_persona(tts, 4, neutral), manner=None) == aged(tts.voice_for_seat(4), 68)


@needs_espeak
def test_espeak_persona_voices_of_different_seats_never_coincide() -> None:
    """Every seat below 30, in every gender and age band: no voice is given to two seats."""
    tts = EspeakTTS()
    owner: dict[Voice, int] = {}
    for seat, gender, age in itertools.product(range(30), GENDERS, AGES):
        voice = replace(voice_for_persona(tts, seat, Persona(gender=gender, age=age)), manner=None)
        assert owner.setdefault(voice, seat) == seat, (voice, seat, owner[voice])


def test_kokoro_voices_by_gender_are_apart_and_say_their_gender() -> None:
    pools = {gender: gender_voice_names(gender) for gender in GENDERS}
    assert len({name for pool in pools.values() for name in pool}) == sum(len(p) for p in pools.values())
    for name in pools["female"]:
        assert all(name_gender(part.split(":")[0]) == "female" for part in name.split(","))
    for name in pools["male"]:
        assert name.split(":")[0] == "jm_kumo" and (":" not in name or name.split(",")[0].endswith(":0.75"))
    owner: dict[Voice, int] = {}
    for seat, gender, age in itertools.product(range(12), GENDERS, AGES):
        voice = aged(gender_voice(seat, gender), age)
        assert voice.name in pools[gender]
        assert owner.setdefault(voice, seat) == seat, (voice, seat, owner[voice])


def test_openai_voices_follow_gender_and_fall_back_on_a_server_of_unknown_voices() -> None:
    tts = OpenAISpeechTTS("http://127.0.0.1:9")
    owner: dict[Voice, int] = {}
    for seat, gender, age in itertools.product(range(6), GENDERS, AGES):
        voice = replace(voice_for_persona(tts, seat, Persona(gender=gender, age=age)), manner=None)
        assert OPENAI_VOICE_GENDERS[voice.name] == gender
        assert owner.setdefault(voice, seat) == seat, (voice, seat, owner[voice])
    # Kokoro-FastAPI's voices say their gender in their names
    kokoro = OpenAISpeechTTS("http://127.0.0.1:9", voice="af_bella", voices=("af_bella", "am_adam", "bf_emma"))
    assert [kokoro.voice_for_gender(s, "female").name for s in range(3)] == ["af_bella", "bf_emma", "af_bella"]  # type: ignore[union-attr]
    assert kokoro.voice_for_gender(0, "male") == Voice("am_adam")
    assert kokoro.voice_for_gender(0, "neutral") is None
    custom = OpenAISpeechTTS("http://127.0.0.1:9", voice="narrator")
    assert replace(voice_for_persona(custom, 1, WOMAN), manner=None) == custom.voice_for_seat(1)


def test_gpt_sovits_chooses_among_references_that_say_their_gender() -> None:
    refs = {
        "alice": Reference("refs/alice.wav", "Hello.", gender="female"),
        "bob": Reference("refs/bob.wav", "Hello.", gender="male"),
        "carol": Reference("refs/carol.wav", "Hello.", gender="female"),
        "dana": Reference("refs/dana.wav", "Hello."),
    }
    tts = GptSovitsTTS("http://127.0.0.1:9", references=refs)
    assert [tts.voice_for_gender(s, "female").name for s in range(2)] == ["alice", "carol"]  # type: ignore[union-attr]
    assert voice_for_persona(tts, 5, MAN).name == "bob"
    assert tts.voice_for_gender(0, "neutral") is None
    assert replace(voice_for_persona(tts, 3, replace(MAN, gender="neutral")), manner=None) == tts.voice_for_seat(3)
    assert "gender" not in tts.request_body("Hi.", Voice("alice"))


def _pitch(clip: AudioClip) -> float:
    """The median fundamental frequency (Hz) over the clip's loud 30 ms frames, by autocorrelation."""
    x = np.frombuffer(clip.pcm, "<i2").astype(np.float64)
    rate = clip.sample_rate
    size = int(0.03 * rate)
    loud = 0.5 * float(np.sqrt(np.mean(x**2)))
    shortest, longest = rate // 450, rate // 60
    pitches = []
    for start in range(0, len(x) - size, size):
        frame = x[start : start + size] - x[start : start + size].mean()
        if float(np.sqrt(np.mean(frame**2))) < loud:
            continue
        corr = np.correlate(frame, frame, "full")[size - 1 :]
        lag = shortest + int(np.argmax(corr[shortest:longest]))
        if corr[lag] > 0.4 * corr[0]:
            pitches.append(rate / lag)
    return float(np.median(pitches))


@needs_espeak
def test_espeak_speaks_women_personas_higher_than_men_in_every_accent_and_the_old_slower_and_lower() -> None:
    tts = EspeakTTS()
    text = "Good morning, everyone. I have been thinking about last night."
    seats = range(len(ACCENTS))
    personas = [replace(WOMAN, age=40), replace(MAN, age=40)]

    async def speak(seat: int, persona: Persona) -> tuple[Voice, AudioClip]:
        voice = styled(voice_for_persona(tts, seat, persona), None)
        return voice, await tts.synthesize(text, voice)

    async def everyone() -> list[tuple[Voice, AudioClip]]:
        jobs = [speak(seat, p) for seat in seats for p in personas]
        jobs += [speak(0, replace(WOMAN, age=age)) for age in (22, 68)]
        return list(await asyncio.gather(*jobs))

    spoken = asyncio.run(everyone())
    for voice, clip in spoken:
        assert clip.sample_rate >= 16000 and 1.5 < clip.duration < 10, voice
        assert clip.rms() > 0.02, voice  # speech, not silence
    for seat in seats:
        (her_voice, her), (his_voice, his) = spoken[2 * seat : 2 * seat + 2]
        # the seat's accent with a female and a male variant, and it shows in the voice's pitch
        assert her_voice.name.split("+")[0] == his_voice.name.split("+")[0] == ACCENTS[seat]
        assert _pitch(her) > 1.5 * _pitch(his), (her_voice, his_voice)
    (_, young), (_, old) = spoken[-2:]
    assert _pitch(young) > _pitch(old) and young.duration < old.duration
