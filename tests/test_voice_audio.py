from pathlib import Path

import pytest

from lycan.voice import AudioClip, AudioError, PlaybackUnavailable, concat, find_player
from lycan.voice.audio import resample, wav_header_length


def ramp(n: int, rate: int = 8000) -> AudioClip:
    return AudioClip(b"".join((i % 600 * 50).to_bytes(2, "little", signed=True) for i in range(n)), rate)


def test_wav_round_trip_and_streaming_headers():
    clip = ramp(400)
    assert AudioClip.from_wav(clip.wav_bytes()) == clip
    data = bytearray(clip.wav_bytes())
    data[4:8] = b"\xff\xff\xff\xff"
    data[40:44] = b"\xff\xff\xff\xff"  # sizes a streaming writer leaves unset
    assert AudioClip.from_wav(bytes(data)) == clip
    assert wav_header_length(bytes(data[:30])) is None  # not complete yet
    assert wav_header_length(bytes(data)) == 44
    with pytest.raises(AudioError, match="not a WAV file"):
        AudioClip.from_wav(b"OggS" + bytes(60))


def test_rms_duration_and_silence():
    assert AudioClip.silence(0.5, 16000).rms() == 0.0
    assert AudioClip.silence(0.5, 16000).duration == 0.5
    assert ramp(400).rms() > 0.1


def test_concat_with_gaps_and_mixed_rates():
    a, b = ramp(800, 8000), ramp(1600, 16000)
    joined = concat([a, b], gap=0.25)
    assert joined.sample_rate == 8000
    assert joined.duration == pytest.approx(0.1 + 0.25 + 0.1, abs=0.001)
    assert resample(b, 8000).n_frames == 800
    with pytest.raises(AudioError):
        concat([])


def test_no_sound_device_gives_a_clear_message(tmp_path: Path):
    def which(name: str) -> str | None:
        return f"/usr/bin/{name}" if name == "play" else None

    with pytest.raises(PlaybackUnavailable, match="no sound device here"):
        find_player(env={"XDG_RUNTIME_DIR": str(tmp_path)}, which=which, snd_dir=tmp_path / "snd")
    with pytest.raises(PlaybackUnavailable, match="no audio player found"):
        find_player(env={}, which=lambda name: None, snd_dir=tmp_path / "snd")


def test_player_is_chosen_by_what_the_machine_has(tmp_path: Path):
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").touch()
    snd = tmp_path / "snd"
    snd.mkdir()
    (snd / "pcmC0D0p").touch()
    everything = lambda name: f"/usr/bin/{name}"  # noqa: E731
    assert find_player(env={"XDG_RUNTIME_DIR": str(tmp_path)}, which=everything, snd_dir=snd).name == "paplay"
    no_pulse = find_player(env={"XDG_RUNTIME_DIR": str(tmp_path / "none")}, which=everything, snd_dir=snd)
    assert no_pulse.name == "aplay" and no_pulse.argv == ("/usr/bin/aplay", "-q", "-")
