"""HTTP speech clients against local stand-in servers that speak the real APIs."""

import io
import json
import math
import socket
import threading
import wave
from collections.abc import Iterator
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

import pytest

from lycan.engine.manner import Manner
from lycan.voice import (
    AudioClip,
    AudioError,
    BackendUnavailable,
    EspeakTTS,
    GptSovitsTTS,
    OpenAITranscriptionASR,
    Reference,
    SpeechPipeline,
    TTSError,
    Voice,
    load_tts,
    styled,
)


def sine_pcm(seconds: float, rate: int, freq: float) -> bytes:
    n = int(seconds * rate)
    samples = (int(9000 * math.sin(2 * math.pi * freq * i / rate)) for i in range(n))
    return b"".join(s.to_bytes(2, "little", signed=True) for s in samples)


def wav_bytes(pcm: bytes, rate: int, nframes: int | None = None) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(pcm)
    data = buf.getvalue()
    if nframes == 0:  # a streaming header: sizes say zero, samples follow
        data = data[:4] + (36).to_bytes(4, "little") + data[8:40] + (0).to_bytes(4, "little") + data[44:]
    return data


class StandIn(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    requests: list[dict]

    def log_message(self, *args):  # keep test output quiet
        pass

    def reply(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def reply_json(self, status: int, obj: object) -> None:
        self.reply(status, json.dumps(obj).encode(), "application/json")

    def reply_chunked(self, parts: list[bytes], ctype: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for part in parts:
            self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))


class GptSovitsStandIn(StandIn):
    """GPT-SoVITS api_v2.py's /tts (GET and POST) and api.py's POST /, checking parameters as they do."""

    LANGS: ClassVar = {"en", "zh", "ja", "ko", "yue", "auto", "all_zh", "all_ja"}
    REFS: ClassVar = {"refs/alice.wav": 220.0, "refs/bob.wav": 140.0}
    RATE = 32000

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path != "/tts":
            return self.reply_json(404, {"detail": "Not Found"})
        req = {k: v[0] for k, v in parse_qs(url.query).items()}
        self.tts(req)

    def do_POST(self):
        req = json.loads(self.body())
        if self.path == "/":
            self.requests.append({"api": "v1", **req})
            freq = self.REFS.get(req.get("refer_wav_path"), 0)
            if not freq:
                return self.reply_json(400, {"code": 400, "message": "未指定参考音频且接口无预设"})
            pcm = sine_pcm(0.05 * len(req["text"]) / float(req.get("speed", 1)), self.RATE, freq)
            return self.reply(200, wav_bytes(pcm, self.RATE), "audio/wav")
        if self.path != "/tts":
            return self.reply_json(404, {"detail": "Not Found"})
        self.tts(req)

    def tts(self, req: dict) -> None:
        self.requests.append({"api": "v2", **req})
        for field, what in (("ref_audio_path", "ref_audio_path"), ("text", "text"), ("text_lang", "text_lang")):
            if not req.get(field):
                return self.reply_json(400, {"message": f"{what} is required"})
        if req["text_lang"].lower() not in self.LANGS:
            return self.reply_json(400, {"message": f"text_lang: {req['text_lang']} is not supported in version v2"})
        if not req.get("prompt_lang"):
            return self.reply_json(400, {"message": "prompt_lang is required"})
        if req.get("media_type", "wav") not in ("wav", "raw", "ogg", "aac"):
            return self.reply_json(400, {"message": f"media_type: {req['media_type']} is not supported"})
        freq = self.REFS.get(req["ref_audio_path"])
        if freq is None:
            return self.reply_json(400, {"message": "tts failed", "Exception": f"{req['ref_audio_path']} not found"})
        seconds = 0.05 * len(req["text"]) / float(req.get("speed_factor", 1.0))
        pcm = sine_pcm(seconds, self.RATE, freq)
        mode = req.get("streaming_mode", False)
        if mode in (False, 0, "false", "0"):
            return self.reply(200, wav_bytes(pcm, self.RATE), "audio/wav")
        # streaming: a WAV header with no frames, then raw fragments (as api_v2's streaming_generator does)
        step = 4000
        fragments = [pcm[i : i + step] for i in range(0, len(pcm), step)]
        self.reply_chunked([wav_bytes(b"", self.RATE), *fragments], "audio/wav")


class OpenAIStandIn(StandIn):
    """/v1/audio/speech (streamed WAV, sizes unset, as OpenAI sends) and /v1/audio/transcriptions."""

    VOICES: ClassVar = {"alloy": 180.0, "onyx": 110.0, "nova": 260.0}
    RATE = 24000

    def do_POST(self):
        auth = self.headers.get("Authorization", "")
        if self.path == "/v1/audio/speech":
            req = json.loads(self.body())
            self.requests.append({"path": self.path, "auth": auth, **req})
            if req.get("voice") not in self.VOICES:
                return self.reply_json(400, {"error": {"message": f"Invalid voice {req.get('voice')!r}"}})
            if req.get("response_format") != "wav":
                return self.reply_json(400, {"error": {"message": "this stand-in sends wav only"}})
            pcm = sine_pcm(0.04 * len(req["input"]) / req.get("speed", 1.0), self.RATE, self.VOICES[req["voice"]])
            header = bytearray(wav_bytes(b"", self.RATE))
            header[4:8] = (0xFFFFFFFF).to_bytes(4, "little")
            header[40:44] = (0xFFFFFFFF).to_bytes(4, "little")
            parts = [pcm[i : i + 3000] for i in range(0, len(pcm), 3000)]
            return self.reply_chunked([bytes(header), *parts], "audio/wav")
        if self.path == "/v1/audio/transcriptions":
            raw = self.body()
            msg = BytesParser(policy=HTTP).parsebytes(
                b"Content-Type: " + self.headers["Content-Type"].encode() + b"\r\n\r\n" + raw
            )
            fields = {}
            upload = None
            for part in msg.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if part.get_filename():
                    upload = (part.get_filename(), part.get_content_type(), part.get_payload(decode=True))
                else:
                    fields[name] = part.get_content()
            self.requests.append({"path": self.path, "auth": auth, "fields": fields, "file": upload})
            try:
                clip = AudioClip.from_wav(upload[2])
            except Exception:
                error = {"message": "Invalid file format.", "type": "invalid_request_error"}
                return self.reply_json(400, {"error": error})
            text = f"heard {clip.duration:.1f} seconds with {fields['model']}"
            return self.reply_json(200, {"text": f" {text} ", "language": "english", "duration": clip.duration})
        self.reply_json(404, {"error": {"message": "not found"}})


@pytest.fixture
def server(request) -> Iterator[tuple[str, list[dict]]]:
    handler = type("Handler", (request.param,), {"requests": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler.requests
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


REFS = {
    "alice": Reference("refs/alice.wav", "Hello, my name is Alice.", "en"),
    "bob": Reference("refs/bob.wav", "我是鲍勃。", "zh", aux_ref_audio_paths=("refs/bob2.wav",)),
}


@pytest.mark.parametrize("server", [GptSovitsStandIn], indirect=True)
async def test_gptsovits_v2_whole_clip(server):
    url, requests = server
    tts = load_tts(f"gptsovits@{url}", references=REFS)
    try:
        clip = await tts.synthesize("I am the seer.", Voice("bob", speed=2.0))
    finally:
        await tts.aclose()
    assert clip.sample_rate == 32000
    assert abs(clip.duration - 0.05 * 14 / 2.0) < 0.01
    req = requests[-1]
    assert req["api"] == "v2"
    assert req["text"] == "I am the seer." and req["text_lang"] == "en"
    assert req["ref_audio_path"] == "refs/bob.wav" and req["prompt_text"] == "我是鲍勃。" and req["prompt_lang"] == "zh"
    assert req["aux_ref_audio_paths"] == ["refs/bob2.wav"]
    assert req["speed_factor"] == 2.0 and req["media_type"] == "wav" and req["streaming_mode"] is False


@pytest.mark.parametrize("server", [GptSovitsStandIn], indirect=True)
async def test_gptsovits_v2_streaming_yields_chunks_as_they_come(server):
    url, requests = server
    tts = GptSovitsTTS(url, REFS, streaming_mode=2, top_k=5, temperature=0.8)
    try:
        text = "Player three has been very quiet, which worries me."
        chunks = [c async for c in tts.stream(text, tts.voice_for_seat(0))]
    finally:
        await tts.aclose()
    assert len(chunks) > 3
    assert {c.sample_rate for c in chunks} == {32000}
    assert abs(sum(c.duration for c in chunks) - 0.05 * len(text)) < 0.01
    assert requests[-1]["streaming_mode"] == 2 and requests[-1]["top_k"] == 5 and requests[-1]["temperature"] == 0.8


@pytest.mark.parametrize("server", [GptSovitsStandIn], indirect=True)
async def test_gptsovits_errors_are_one_sentence(server):
    url, _ = server
    tts = GptSovitsTTS(url, REFS, text_lang="xx")
    try:
        with pytest.raises(TTSError, match="text_lang: xx is not supported"):
            await tts.synthesize("hello", Voice("alice"))
        tts.text_lang = "en"
        with pytest.raises(TTSError, match=r"tts failed \(refs/nobody.wav not found\)"):
            await tts.synthesize("hello", Voice("refs/nobody.wav"))
    finally:
        await tts.aclose()
    with pytest.raises(TTSError, match="needs reference voices"):
        GptSovitsTTS(url).voice_for_seat(0)


@pytest.mark.parametrize("server", [GptSovitsStandIn], indirect=True)
async def test_gptsovits_v1_api_and_pipeline(server):
    url, requests = server
    tts = GptSovitsTTS(url, REFS, api="v1")
    pipeline = SpeechPipeline(tts)
    try:
        pipeline.speak(0, "I am Alice, and I trust Bob completely.")
        pipeline.speak(1, "Thank you, Alice, I trust you too.")
        await pipeline.aclose()
        items = [item async for item in pipeline.queue]
    finally:
        await tts.aclose()
    assert [(i.speaker, i.text) for i in items if i.part == 0] == [
        (0, "I am Alice, and I trust Bob completely."),
        (1, "Thank you, Alice,"),
        (1, "I trust you too."),
    ]
    assert [i.speaker for i in items] == sorted(i.speaker for i in items)
    assert {r["refer_wav_path"] for r in requests} == {"refs/alice.wav", "refs/bob.wav"}
    assert all(r["api"] == "v1" and r["text_language"] == "en" for r in requests)


@pytest.mark.parametrize("server", [OpenAIStandIn], indirect=True)
async def test_openai_speech_client(server, monkeypatch):
    url, requests = server
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
    tts = load_tts(f"openai:nova@{url}/v1")
    try:
        clip = await tts.synthesize("Vote for Dave.")
        seats = [tts.voice_for_seat(s) for s in range(3)]
        assert [v.name for v in seats] == ["nova", "alloy", "echo"]
        slow = await tts.synthesize("Vote for Dave.", Voice("onyx", speed=0.5))
        with pytest.raises(TTSError, match="Invalid voice 'echo'"):
            await tts.synthesize("hello", seats[2])
    finally:
        await tts.aclose()
    assert clip.sample_rate == 24000 and abs(clip.duration - 0.04 * 14) < 0.01
    assert abs(slow.duration - 2 * clip.duration) < 0.01
    assert requests[0]["auth"] == "Bearer sk-local-test"
    assert requests[0]["model"] == "tts-1" and requests[0]["voice"] == "nova" and "speed" not in requests[0]


@pytest.mark.parametrize("server", [OpenAIStandIn], indirect=True)
async def test_openai_speech_is_asked_for_the_manner_in_its_instructions(server):
    url, requests = server
    tts = load_tts(f"openai:nova@{url}/v1", model="gpt-4o-mini-tts")
    seat = tts.voice_for_seat(0)
    slow_worried = styled(seat, Manner(pace="slow", emotion="worried"))
    try:
        await tts.synthesize("I do not trust Dave.", slow_worried)
        await tts.synthesize("I do not trust Dave.", styled(seat, Manner(pitch="high", emotion="angry")))
        await tts.synthesize("I do not trust Dave.", seat)
        await tts.synthesize("I do not trust Dave.", slow_worried.with_options(model="tts-1"))  # takes no instructions
    finally:
        await tts.aclose()
    assert requests[-1]["model"] == "tts-1" and "instructions" not in requests[-1] and requests[-1]["speed"] < 1.0
    worried, angry, plain = requests[:3]
    assert worried["instructions"] == "Speak in a worried, anxious tone, slowly."
    assert worried["speed"] < 1.0
    assert angry["instructions"] == "Speak in an angry, forceful tone, in a high voice."
    assert "instructions" not in plain and "speed" not in plain
    own = Voice("nova", options=(("instructions", "You are a village elder."),))
    assert styled(own, Manner(emotion="sad")).option("instructions") == (
        "You are a village elder. Speak in a sad, subdued tone."
    )


@pytest.mark.parametrize("server", [GptSovitsStandIn], indirect=True)
async def test_gptsovits_is_not_sent_the_instructions_meant_for_openai_servers(server):
    url, requests = server
    tts = GptSovitsTTS(url, REFS)
    try:
        await tts.synthesize("I am the seer.", styled(Voice("alice"), Manner(pace="fast", emotion="confident")))
    finally:
        await tts.aclose()
    assert "instructions" not in requests[-1]
    assert requests[-1]["speed_factor"] > 1.0


@pytest.mark.parametrize("server", [OpenAIStandIn], indirect=True)
async def test_openai_transcription_client(server):
    url, requests = server
    asr = OpenAITranscriptionASR(url, model="whisper-large", api_key="k", language="en")
    try:
        speech = await EspeakTTS().synthesize("Good evening, villagers.")
        transcript = await asr.transcribe(speech.wav_bytes(), "audio/wav")
        with pytest.raises(AudioError, match="not decodable"):
            await asr.transcribe(b"definitely not audio" * 20, "audio/wav")
        with pytest.raises(AudioError, match="empty"):
            await asr.transcribe(b"", "audio/webm")
    finally:
        await asr.aclose()
    assert transcript.text == f"heard {speech.duration:.1f} seconds with whisper-large"
    assert transcript.language == "english" and abs(transcript.seconds - speech.duration) < 0.01
    assert len(requests) == 1  # garbage never left this machine
    req = requests[0]
    assert req["fields"] == {"model": "whisper-large", "response_format": "verbose_json", "language": "en"}
    assert req["file"][0] == "speech.wav" and req["file"][2] == speech.wav_bytes()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_servers_and_unknown_specs_are_one_sentence_errors():
    port = closed_port()
    with pytest.raises(BackendUnavailable, match=rf"cannot reach the GPT-SoVITS server at http://127.0.0.1:{port}"):
        load_tts(f"gptsovits@http://127.0.0.1:{port}")
    with pytest.raises(BackendUnavailable, match="cannot reach the speech server"):
        load_tts(f"openai:alloy@http://127.0.0.1:{port}/v1")
    with pytest.raises(BackendUnavailable, match="unknown TTS backend 'festival'; use one of: espeak, piper"):
        load_tts("festival")
    with pytest.raises(BackendUnavailable, match="not an http"):
        load_tts("gptsovits@ftp://example")


async def test_a_server_that_goes_away_mid_game_is_reported():
    tts = GptSovitsTTS(f"http://127.0.0.1:{closed_port()}", REFS)
    try:
        with pytest.raises(BackendUnavailable, match="cannot reach GPT-SoVITS"):
            await tts.synthesize("hello", Voice("alice"))
    finally:
        await tts.aclose()
