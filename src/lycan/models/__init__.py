"""Chat-model backends behind one async protocol (see `lycan.models.base`).

`load_model(spec)` builds any backend from one string: `local`, `local:1.5b`, `local:tiny`,
`llamacpp:PATH`, `openai:MODEL[@BASE_URL]`, `hf:PATH`. `CachedModel`, `RecordingModel`,
`ReplayModel` and `UsageMeter` wrap any model. Backends import their heavy libraries lazily.
"""

from lycan.models.base import (
    ChatModel,
    ChatRequest,
    ChatResult,
    ChatStream,
    Message,
    ModelError,
    Usage,
    calls_at_once,
    collect,
    request_key,
    stream_result,
)
from lycan.models.cache import CachedModel
from lycan.models.meter import ScopeUsage, UsageMeter
from lycan.models.recording import RecordingModel, ReplayModel
from lycan.models.registry import SPEC_FORMS, load_model, runs_in_process

__all__ = [
    "SPEC_FORMS",
    "CachedModel",
    "ChatModel",
    "ChatRequest",
    "ChatResult",
    "ChatStream",
    "Message",
    "ModelError",
    "RecordingModel",
    "ReplayModel",
    "ScopeUsage",
    "Usage",
    "UsageMeter",
    "calls_at_once",
    "collect",
    "load_model",
    "request_key",
    "runs_in_process",
    "stream_result",
]
