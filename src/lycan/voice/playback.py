"""Play speech on this machine's sound output with aplay, paplay or sox's play."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lycan.voice.audio import AudioClip
from lycan.voice.queue import AudioQueue, QueuedClip
from lycan.voice.tts import BackendUnavailable


class PlaybackUnavailable(BackendUnavailable):
    """No program or no sound device to play audio here."""


@dataclass(frozen=True, slots=True)
class AudioPlayer:
    """A command that plays a WAV file given on its standard input.

    Attributes:
        name: the program (aplay, paplay or play).
        argv: the full command line.
    """

    name: str
    argv: tuple[str, ...]

    async def play(self, clip: AudioClip) -> None:
        """Play `clip` and return when it has finished.

        Raises:
            PlaybackUnavailable: the program failed (e.g. the device went away).
        """
        proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
        try:
            _, err = await proc.communicate(clip.wav_bytes())
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        if proc.returncode != 0:
            reason = err.decode(errors="replace").strip().splitlines()
            raise PlaybackUnavailable(f"{self.name} could not play audio: {reason[-1] if reason else proc.returncode}")

    async def play_queue(self, queue: AudioQueue, on_clip: Callable[[QueuedClip], None] | None = None) -> int:
        """Play a table's queue in speaking order until it is closed; return how many clips were played."""
        played = 0
        async for item in queue:
            if on_clip is not None:
                on_clip(item)
            await self.play(item.clip)
            played += 1
        return played


_COMMANDS: dict[str, tuple[str, ...]] = {
    "paplay": ("paplay",),
    "aplay": ("aplay", "-q", "-"),
    "play": ("play", "-q", "-t", "wav", "-"),
}


def _pulse_running(env: Mapping[str, str]) -> bool:
    if env.get("PULSE_SERVER"):
        return True
    runtime = env.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    return Path(runtime, "pulse", "native").exists()


def _alsa_device(snd_dir: Path) -> bool:
    return snd_dir.is_dir() and any(p.name.startswith("pcm") for p in snd_dir.iterdir())


def find_player(
    env: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    snd_dir: Path = Path("/dev/snd"),
) -> AudioPlayer:
    """The first player that can reach a sound device: paplay (PulseAudio/PipeWire), aplay or play (ALSA).

    Raises:
        PlaybackUnavailable: no player program, or no sound device, is available; the message says
            what to install or to write WAV files instead.
    """
    env = os.environ if env is None else env
    pulse = _pulse_running(env)
    alsa = _alsa_device(snd_dir)
    installed = [name for name in ("paplay", "aplay", "play") if which(name)]
    for name in installed:
        if (name == "paplay" and pulse) or (name in ("aplay", "play") and (alsa or pulse)):
            return AudioPlayer(name, (which(name) or name, *_COMMANDS[name][1:]))
    if not installed:
        raise PlaybackUnavailable(
            "no audio player found: install alsa-utils (aplay), pulseaudio-utils (paplay) or sox (play), "
            "or write the speech to WAV files with render_game_audio"
        )
    raise PlaybackUnavailable(
        f"no sound device here ({', '.join(installed)} installed, but no /dev/snd device and no PulseAudio "
        "server); write the speech to WAV files with render_game_audio instead"
    )
