from __future__ import annotations

import pytest

from scripted import ScriptedModel


@pytest.fixture
def scripted_model() -> type[ScriptedModel]:
    """The scripted chat model class: `scripted_model(responder, piece=3)` builds one."""
    return ScriptedModel
