"""The AIWolf NLP protocol: a WebSocket game server, a client for Lycan agents, and CSV game logs.

Needs the `aiwolf` extra (`websockets`) for the server and client; `lycan.aiwolf.log` needs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lycan.aiwolf.client import AiwolfClient, connect, run_client
    from lycan.aiwolf.server import AiwolfServer, serve

_LAZY = {
    "AiwolfServer": "lycan.aiwolf.server",
    "serve": "lycan.aiwolf.server",
    "AiwolfClient": "lycan.aiwolf.client",
    "connect": "lycan.aiwolf.client",
    "run_client": "lycan.aiwolf.client",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'lycan.aiwolf' has no attribute {name!r}")


__all__ = ["AiwolfClient", "AiwolfServer", "connect", "run_client", "serve"]
