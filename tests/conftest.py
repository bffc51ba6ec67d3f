from __future__ import annotations

from typing import Any

import pytest

from scripted import ScriptedModel


@pytest.fixture
def scripted_model() -> type[ScriptedModel]:
    """The scripted chat model class: `scripted_model(responder, piece=3)` builds one."""
    return ScriptedModel


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """`uvicorn.run` replaced by a stand-in that records its calls, so that no test starts a server."""
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append({"app": app, **options}))
    return calls
