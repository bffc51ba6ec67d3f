"""One string selects a model: `load_model("local:tiny")`, `load_model("openai:gpt-4o")`, ..."""

from __future__ import annotations

from typing import Any

from lycan.models.base import ChatModel, ModelError

SPEC_FORMS = (
    "local",
    "local:1.5b",
    "local:tiny",
    "llamacpp:PATH.gguf",
    "openai:MODEL",
    "openai:MODEL@BASE_URL",
    "hf:PATH",
)


def _bad_spec(spec: str) -> ModelError:
    return ModelError(f"Unknown model {spec!r}; use one of: {', '.join(SPEC_FORMS)}.")


def parse_openai(rest: str) -> tuple[str, str | None]:
    """Split `MODEL[@BASE_URL]` into the model name and the base_url (None = the default)."""
    model, at, base_url = rest.partition("@")
    return model.strip(), (base_url.strip() or None) if at else None


IN_PROCESS_KINDS = frozenset({"local", "llamacpp", "hf"})
"""Spec kinds whose model runs inside this process (on its CPU or GPU), not behind a server."""


def runs_in_process(spec: str) -> bool:
    """Whether the model `spec` names runs inside this process (`local`, `llamacpp:`, `hf:`), without loading it."""
    return spec.strip().partition(":")[0].lower() in IN_PROCESS_KINDS


def load_model(spec: str, **options: Any) -> ChatModel:
    """Build the chat model that `spec` names.

    Args:
        spec: `local` (Qwen2.5-Coder-0.5B, embedded), `local:1.5b`, `local:tiny` (SmolLM2-135M),
            `llamacpp:PATH` (any GGUF file), `openai:MODEL[@BASE_URL]` (any OpenAI-compatible
            server), or `hf:PATH` (a local Hugging Face checkpoint).
        **options: passed to the backend's constructor (e.g. `n_ctx`, `timeout`, `max_concurrency`).

    Raises:
        ModelError: the spec is malformed or the model cannot be set up (missing package, file or key).
    """
    kind, colon, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "local":
        from lycan.models.local import load_local

        model: ChatModel = load_local(rest.strip().lower(), **options)
        return model
    if not colon or not rest.strip():
        raise _bad_spec(spec)
    if kind == "llamacpp":
        from lycan.models.llamacpp import LlamaCppModel

        return LlamaCppModel(rest.strip(), **options)
    if kind == "openai":
        from lycan.models.openai_backend import OpenAIModel

        name, base_url = parse_openai(rest)
        if not name:
            raise _bad_spec(spec)
        return OpenAIModel(name, base_url, **options)
    if kind == "hf":
        from lycan.models.hf import HFModel

        return HFModel(rest.strip(), **options)
    raise _bad_spec(spec)
