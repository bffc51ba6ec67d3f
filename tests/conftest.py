from __future__ import annotations

import os
from typing import Any

import pytest

from scripted import ScriptedModel

# The suite reads talk with the hashed model unless a test asks for another, so that records, golden
# digests and timings do not depend on whether the train extra is installed; the sentence-encoder
# reader, the default where it is, has its own tests (test_encoder_reader.py), a whole game included.
os.environ.setdefault("LYCAN_TALK_MODEL", "ngram")


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
