"""A learned reader of opinions, behind the talk reader's rules: accusations, votes and defences.

The rules of `lycan.beliefs.reader` read what they were written for, and each new hand of players
says "I'm voting X" in ways no rule foresaw: on every new labelled set, recall of votes and
accusations was well below that of the sets the rules were built on. Rules do not grow with data;
a model trained on every labelled set does. This is that model, kept small and exact:

- an example is one seat named in a line (not the speaker), its features the words of the
  sentences that name it, with that seat as `TGT`, the speaker as `ME` and any other seat as `OTH`
  (so nothing is learned about names): words, word pairs, the words at each distance up to two
  from the seat, the words near it, and letter runs of four around it ("sus", "wolfy", "scum");
- the features are hashed (CRC-32) into `N_FEATURES` slots, counted and L2-normalised, and one
  logistic regression per kind gives P(the speaker states this kind about that seat);
- the reader asks it only where its rules left a clause unread that names the seat, adds a
  statement at `THRESHOLD` or above that the rules did not read, and never one that contradicts
  what they did (an accusation of a seat they read as defended, or the reverse).

Training (`train`, scikit-learn from the `train` extra) uses the labelled sets' `dev` parts only:
the held-out parts stay a fair test. The shipped weights (`params/opinions.npz`) are rebuilt with
`lycan beliefs reader-fit FILES...`; reading needs only numpy.
"""

from __future__ import annotations

import functools
import itertools
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from lycan.beliefs.extract import Labelled

KINDS: tuple[str, ...] = ("accuses", "will_vote", "defends")
"""The statement kinds the model reads, in the order of its weight rows."""
N_FEATURES = 2**18
"""Hash slots of the features."""
THRESHOLD = 0.7
"""P at or above which the reader adds the statement (measured on the held-out sets: BENCHMARKS.md)."""
CONFIDENCE = 0.8
"""The confidence of a statement the model adds: about the precision of its additions on held-out sets."""
C = 8.0
"""Inverse L2 strength of the logistic regressions."""

_SEAT = re.compile(r"⟨(\d+)⟩")
_WORD = re.compile(r"[a-z']+|TGT|ME|OTH|[?!]")


def features(sentences: Sequence[str], target: int, speaker: int | None) -> list[str]:
    """The features of `target` in a line read as `sentences` (the reader's, seats as `⟨seat⟩` tokens)."""

    def mark(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return " TGT " if seat == target else " ME " if seat == speaker else " OTH "

    token = f"⟨{target}⟩"
    out: list[str] = []
    naming = [s for s in sentences if token in s]
    for sentence in naming:
        w = _WORD.findall(_SEAT.sub(mark, sentence))
        out += w
        out += [f"{a}_{b}" for a, b in itertools.pairwise(w)]
        for i in (i for i, x in enumerate(w) if x == "TGT"):
            for j in range(max(0, i - 4), min(len(w), i + 5)):
                if j != i:
                    out.append(f"n{j - i}:{w[j]}" if abs(j - i) <= 2 else f"near:{w[j]}")
            window = " ".join(w[max(0, i - 5) : i + 6])
            out += ["c:" + window[j : j + 4].replace(" ", "_") for j in range(len(window) - 3)]
        out.append(f"names:{min(3, len(set(_SEAT.findall(sentence))))}")
    out.append(f"sentences:{min(3, len(naming))}")
    return out


def _slot(feature: str) -> int:
    return zlib.crc32(feature.encode()) & (N_FEATURES - 1)


def _vector(feats: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
    """The hashed, counted, L2-normalised features: slots (sorted) and values."""
    counts = Counter(_slot(f) for f in feats)
    slots = np.array(sorted(counts), dtype=np.int64)
    values = np.array([counts[s] for s in slots], dtype=np.float64)
    norm = float(np.linalg.norm(values))
    return slots, (values / norm if norm else values)


@dataclass(frozen=True)
class OpinionModel:
    """Logistic regressions over hashed features, stored sparse: the slots any weight uses, one row per kind."""

    slots: np.ndarray
    """Sorted feature slots with a weight (int64)."""
    weights: np.ndarray
    """(len(KINDS), len(slots)) weights."""
    bias: np.ndarray
    """(len(KINDS),) intercepts."""

    def predict(self, sentences: Sequence[str], target: int, speaker: int | None) -> dict[str, float]:
        """P(the speaker states each kind about `target`), from the line's `sentences`."""
        slots, values = _vector(features(sentences, target, speaker))
        at = np.searchsorted(self.slots, slots)
        at = np.minimum(at, len(self.slots) - 1)
        known = self.slots[at] == slots
        logits = self.weights[:, at[known]] @ values[known] + self.bias
        return {k: float(1.0 / (1.0 + np.exp(-z))) for k, z in zip(KINDS, logits, strict=True)}

    def save(self, path: str | Path) -> None:
        """Write the model as a compressed `.npz` (float16 weights)."""
        np.savez_compressed(
            path,
            slots=self.slots.astype(np.int32),
            weights=self.weights.astype(np.float16),
            bias=self.bias.astype(np.float32),
        )

    @classmethod
    def load(cls, path: str | Path) -> OpinionModel:
        """A model written by `save`."""
        with np.load(path) as data:
            return cls(
                data["slots"].astype(np.int64),
                data["weights"].astype(np.float32),
                data["bias"].astype(np.float64),
            )


@functools.cache
def default_model() -> OpinionModel:
    """The shipped model (`lycan/beliefs/params/opinions.npz`)."""
    with resources.as_file(resources.files("lycan.beliefs") / "params" / "opinions.npz") as path:
        return OpinionModel.load(path)


def examples(rows: Iterable[Labelled]) -> list[tuple[list[str], dict[str, bool]]]:
    """Every (features, gold per kind) of every seat named in the lines of `rows` (not the speaker)."""
    from lycan.beliefs.reader import TalkReader

    out: list[tuple[list[str], dict[str, bool]]] = []
    readers: dict[tuple[str, ...], TalkReader] = {}
    for row in rows:
        reader = readers.setdefault(row.names, TalkReader(row.names))
        sentences = reader.sentences(row.text)
        gold = {(s.kind, s.target) for s in row.gold}
        named = {int(x) for s in sentences for x in _SEAT.findall(s)} - {row.speaker}
        for seat in sorted(named):
            out.append((features(sentences, seat, row.speaker), {k: (k, seat) in gold for k in KINDS}))
    return out


def train(rows: Iterable[Labelled], *, c: float = C) -> OpinionModel:
    """Fit the model on labelled lines (scikit-learn's logistic regression, one per kind).

    Raises:
        RuntimeError: scikit-learn (the `train` extra) is missing.
        ValueError: a kind has no positive or no negative example.
    """
    try:
        from scipy.sparse import csr_matrix
        from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]
    except ImportError as err:  # pragma: no cover - the train extra is installed with the dev setup
        raise RuntimeError("training the opinion reader needs scikit-learn: pip install 'lycan[train]'") from err
    data = examples(rows)
    indptr, indices, values = [0], [], []
    for feats, _ in data:
        slots, vals = _vector(feats)
        indices += slots.tolist()
        values += vals.tolist()
        indptr.append(len(indices))
    x = csr_matrix((values, indices, indptr), shape=(len(data), N_FEATURES))
    used = np.unique(np.array(indices, dtype=np.int64))
    weights, bias = [], []
    for kind in KINDS:
        y = np.array([gold[kind] for _, gold in data])
        if y.all() or not y.any():
            raise ValueError(f"no {'negative' if y.all() else 'positive'} example of {kind!r} to learn from")
        fit = LogisticRegression(C=c, max_iter=2000).fit(x, y)
        weights.append(fit.coef_[0][used])
        bias.append(float(fit.intercept_[0]))
    return OpinionModel(used, np.array(weights, dtype=np.float32), np.array(bias, dtype=np.float64))


__all__ = [
    "CONFIDENCE",
    "KINDS",
    "N_FEATURES",
    "THRESHOLD",
    "C",
    "OpinionModel",
    "default_model",
    "examples",
    "features",
    "train",
]
