"""Start llama.cpp's OpenAI-compatible server on a free local port, for the real-HTTP tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def llama_server(model: Path, n_ctx: int, log_dir: Path, ready_within: float = 60.0) -> Iterator[str]:
    """Run `python -m llama_cpp.server` for `model`; yields its base URL (`http://127.0.0.1:PORT/v1`)."""
    port = free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx)]
    log_path = log_dir / "server.log"
    with log_path.open("wb") as log:  # a file, not a pipe: the server logs a lot and must never block on it
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + ready_within
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"llama_cpp.server was not ready within {ready_within:g} s: {log_path.read_text()[-2000:]}"
                )
            time.sleep(0.2)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
