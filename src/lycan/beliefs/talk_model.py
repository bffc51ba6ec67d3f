"""Which learned reader the talk reader asks behind its rules: the hashed model or the tuned sentence encoder.

`default_model()` is what `lycan.beliefs.reader.TalkReader` asks about the named seats its rules
left; `LYCAN_TALK_MODEL` picks it for the process.
"""

from __future__ import annotations

import contextlib
import functools
import os
import warnings
from collections.abc import Iterator

from lycan.beliefs.opinions import SeatOpinions, shipped_ngram_model

TALK_MODELS = ("auto", "ngram", "encoder")
"""The learned readers behind the rules: `ngram`, the hashed words and word pairs (`OpinionModel`,
numpy only); `encoder`, all-MiniLM-L6-v2 tuned on the same lines (`lycan.beliefs.encoder`, the
`train` extra), which reads phrasings it never saw far better (BENCHMARKS.md); `auto`, the
encoder where the `train` extra is installed, else the hashed model."""
TALK_MODEL_ENV = "LYCAN_TALK_MODEL"
"""The environment variable that picks one of `TALK_MODELS` for the process (default `auto`)."""


@functools.cache
def _talk_model(name: str) -> SeatOpinions:
    if name not in TALK_MODELS:
        raise ValueError(f"{TALK_MODEL_ENV}={name!r}: choose one of {', '.join(TALK_MODELS)}")
    if name != "ngram":
        from lycan.beliefs.encoder import shipped_encoder_model

        try:
            return shipped_encoder_model()
        except RuntimeError as err:  # the train extra is missing: the hashed model reads
            if name == "encoder":  # asked for by name: say so, once
                warnings.warn(f"{err}; the talk reader uses its hashed model", RuntimeWarning, stacklevel=3)
    return shipped_ngram_model()


def default_model() -> SeatOpinions:
    """The learned reader the talk reader asks: the one `LYCAN_TALK_MODEL` names (`TALK_MODELS`, default `auto`).

    Raises:
        ValueError: the variable names no such model.
    """
    return _talk_model(os.environ.get(TALK_MODEL_ENV, "auto"))


@contextlib.contextmanager
def talk_model_set(name: str) -> Iterator[None]:
    """Inside the block the talk reader asks the learned reader `name` (`TALK_MODELS`); then as it was.

    It sets `LYCAN_TALK_MODEL` for the process: for a benchmark or a training run, not a game.
    """
    before = os.environ.get(TALK_MODEL_ENV)
    os.environ[TALK_MODEL_ENV] = name
    try:
        yield
    finally:
        if before is None:
            del os.environ[TALK_MODEL_ENV]
        else:
            os.environ[TALK_MODEL_ENV] = before


__all__ = ["TALK_MODELS", "TALK_MODEL_ENV", "default_model", "talk_model_set"]
