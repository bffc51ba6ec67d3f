"""The AIWolf NLP protocol: a WebSocket game server, a client for Lycan agents, and CSV game logs.

Needs the `protocol` extra (`websockets`) for the server and client; `aiwolf_log` needs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lycan.protocol.client import AiwolfClient, connect, run_client
    from lycan.protocol.server import AiwolfServer, serve

_LAZY = {
    "AiwolfServer": "lycan.protocol.server",
    "serve": "lycan.protocol.server",
    "AiwolfClient": "lycan.protocol.client",
    "connect": "lycan.protocol.client",
    "run_client": "lycan.protocol.client",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'lycan.protocol' has no attribute {name!r}")


__all__ = ["AiwolfClient", "AiwolfServer", "connect", "run_client", "serve"]
