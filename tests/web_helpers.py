"""Helpers for the web tests: a live uvicorn server on a free local port, and a legal-answer bot."""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import time
import wave
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from typing import Any

import uvicorn
from fastapi import FastAPI

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def live_server(app: FastAPI) -> Iterator[str]:
    """Serve `app` on 127.0.0.1 at a free port in a thread; yields the base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", ws_max_size=1 << 20, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 10
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def legal_answer(request: dict[str, Any], text: str | None = None) -> dict[str, Any]:
    """An `act` message answering a `request` message legally (speak `text` if given, else Over)."""
    base = {"type": "act", "request_id": request["id"]}
    if request["kind"] in ("talk", "whisper"):
        return {**base, "action": "speak", "text": text} if text else {**base, "action": "over"}
    if request["kind"] == "bid":
        return {**base, "action": "bid", "amount": 1}
    if request["targets"]:
        return {**base, "action": "choose", "target": request["targets"][0]["seat"]}
    return {**base, "action": "pass"}


class Clip:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def wav_bytes(self) -> bytes:
        return self.data


class ToneVoice:
    """Writes one short WAV per clause, its length set by the text (the real voices are in lycan.voice)."""

    def __init__(self) -> None:
        self.spoken: list[tuple[str, Any]] = []

    async def synthesize(self, text: str, voice: Any = None) -> Clip:
        self.spoken.append((text, voice))
        await asyncio.sleep(0.001 * (len(text) % 5))  # later clauses may finish first if not kept in order
        buf = BytesIO()
        with wave.open(buf, "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(8000)
            wave_ = [8000 if (i // 10) % 2 else -8000 for i in range(80 * len(text))]  # a buzz, so mouths move
            out.writeframes(struct.pack(f"<{len(wave_)}h", *wave_))
        return Clip(buf.getvalue())

    def voice_for_seat(self, seat: int) -> str:
        return f"voice-{seat}"


PAGE_STATE_JS = """() => {
  const p = document.getElementById('action-panel');
  return {over: document.body.dataset.finished === '1', id: p.dataset.requestId, kind: p.dataset.kind};
}"""


def play_page_game(page: Any, say: Any, seconds: float = 120) -> bool:
    """The person on a table `page` plays until the game is over; returns whether they spoke.

    On their first talk or whisper turn `say(page)` speaks for them; after that they press Over,
    bid 1, and pick the first choice of every other request.

    Raises:
        AssertionError: the game did not end within `seconds`.
    """
    page.wait_for_selector(".seat.you")
    handled: set[str] = set()
    spoke = False
    deadline = time.time() + seconds
    while time.time() < deadline:
        state = page.evaluate(PAGE_STATE_JS)
        if state["over"]:
            return spoke
        request_id, kind = state["id"], state["kind"]
        if request_id and request_id not in handled:
            handled.add(request_id)
            if kind in ("talk", "whisper"):
                if not spoke:
                    say(page)
                    spoke = True
                else:
                    page.click("#over-btn")
            elif kind == "bid":
                page.click("#choices button[data-amount='1']")
            else:
                page.click("#choices button >> nth=0")
        time.sleep(0.1)
    raise AssertionError("the game did not end in time")
