"""A table with LLM seats and a voice: speech streams piece by piece, whispers and their audio reach only wolves."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

from lycan.agents import LLMAgent
from lycan.engine.events import Talk
from lycan.engine.manner import Manner
from lycan.voice import Voice, styled
from lycan.web.audio import AudioChannel, split_clauses, voice_in
from lycan.web.lobby import TableFactory, TableRequest
from lycan.web.table import Connection
from scripted import ScriptedModel
from web_helpers import ToneVoice


def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        message = conn.queue.get_nowait()
        if message is not None:
            out.append(message)
    return out


def responder(request: Any) -> str:
    from scripted import sensible

    if request.json_schema is None:
        return "I watched the votes closely. Someone is hiding; let us compare notes!"
    return sensible(request)


async def test_llm_speech_streams_to_those_who_may_hear_it_and_is_voiced_in_order() -> None:
    model = ScriptedModel(responder, piece=4)
    tts = ToneVoice()
    factory = TableFactory(None, tts, False, lambda: model, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)
    table = factory.build(TableRequest(preset="guardian7", humans=0, ai="llm", seed=3, timeout=5), model)
    assert all(isinstance(getattr(p, "agent", None), LLMAgent) for p in table.players)
    watcher = table.connect(None)
    seats = [table.connect(s) for s in range(7)]
    await asyncio.wait_for(table.run(), 60)
    await table.audio.close()
    record = table.record
    assert record is not None
    wolves = {s for s, r in enumerate(record.roles) if r.value == "werewolf"}
    whispers = [e for e in record.events if isinstance(e, Talk) and e.channel == "whisper" and not (e.over or e.skip)]
    assert whispers, "the wolves never whispered; pick another seed"

    for seat, conn in [(None, watcher), *enumerate(seats)]:
        got = drain(conn)
        may_hear_whispers = seat in wolves
        pieces: dict[int, list[str]] = {}
        clips: dict[int, list[int]] = {}
        channel_of: dict[int, str] = {}
        for m in got:
            if m["type"] == "speech":
                pieces.setdefault(m["utterance_id"], []).append(m["piece"])
                channel_of[m["utterance_id"]] = m["channel"]
            if m["type"] == "audio":
                clips.setdefault(m["utterance_id"], []).append(m["clause_index"])
                assert m["mime"] == "audio/wav"
                assert base64.b64decode(m["data"])[:4] == b"RIFF"
        if not may_hear_whispers:
            assert "whisper" not in channel_of.values(), seat
        else:
            assert "whisper" in channel_of.values()
        # public talk streams in several pieces (whispers arrive whole); each adds up to what was said
        said = {e.text for e in record.events if isinstance(e, Talk) and not (e.over or e.skip)}
        for uid, parts in pieces.items():
            assert len(parts) > 1 or channel_of[uid] == "whisper"
            assert "".join(parts).strip() in said
            assert uid in clips, "a streamed utterance was never voiced"
        # audio only for utterances this tab may hear, clauses strictly in order
        assert set(clips) <= set(pieces)
        for order in clips.values():
            assert order == list(range(len(order)))
    assert {voice for _, voice in tts.spoken} <= {f"voice-{s}" for s in range(7)}


def test_clauses_split_at_sentence_ends_only() -> None:
    assert split_clauses("Hello there. I think") == (["Hello there."], "I think")
    assert split_clauses("No end yet") == ([], "No end yet")
    assert split_clauses("One! Two? Three; four: ") == (["One!", "Two?", "Three;", "four:"], "")


async def test_audio_channel_is_silent_without_a_synthesizer() -> None:
    sent: list[Any] = []
    channel = AudioChannel(None, lambda m, a: sent.append(m))
    channel.feed(0, 1, "Hello there. More", None)
    channel.finish(0, 1, None)
    await channel.close()
    assert not channel.enabled and sent == []


class StyledTone(ToneVoice):
    """A tone voice whose seat voices are `lycan.voice` voices, so that manners style them."""

    def voice_for_seat(self, seat: int) -> Voice:  # type: ignore[override]
        return Voice(f"voice-{seat}", pitch=50)


async def test_audio_channel_speaks_an_utterance_in_its_manner() -> None:
    tts = StyledTone()
    channel = AudioChannel(tts, lambda m, a: None)
    sad = Manner(pace="slow", emotion="sad", expression="sad")
    channel.style(1, 0, sad)
    channel.feed(1, 0, "I am so sorry. We lost", None)
    channel.finish(1, 0, None)
    channel.feed(2, 2, "Plain words.", None)
    channel.finish(2, 2, None)
    channel.style(3, 4, sad)  # this utterance's manner ...
    channel.feed(3, 6, "Another utterance.", None)  # ... is not the next one's
    channel.finish(3, 6, None)
    await channel.close()
    styled_1 = styled(tts.voice_for_seat(1), sad)
    assert styled_1.speed < 1.0 and styled_1.pitch is not None and styled_1.pitch < 50
    assert tts.spoken == [
        ("I am so sorry.", styled_1),
        ("We lost", styled_1),
        ("Plain words.", tts.voice_for_seat(2)),
        ("Another utterance.", tts.voice_for_seat(3)),
    ]
    # voices of other kinds are kept as they are
    assert voice_in("voice-1", sad) == "voice-1"


def test_llm_seats_announce_their_manner_to_the_table() -> None:
    model = ScriptedModel(responder)
    factory = TableFactory(
        None, ToneVoice(), False, lambda: model, allow_seed=True, night_wait=0, ai_delay=0, night_min=0
    )
    table = factory.build(TableRequest(preset="aiwolf5", humans=1, ai="llm", seed=3), model)
    agents = [getattr(p, "agent", None) for p in table.players[1:]]
    assert all(isinstance(a, LLMAgent) and a.on_manner == table.speech_manner for a in agents)
