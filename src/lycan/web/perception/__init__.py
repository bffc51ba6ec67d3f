"""The camera half of seed 002's Perceiver, as the table page runs it in the person's browser.

The page tracks the person's face and head with `@vladmandic/human` (an npm package that ships its
models: face detector, face mesh, expression classifier) on TensorFlow.js's WebAssembly backend,
and turns what it saw while the person spoke into a `lycan.engine.seen.Seen` description. Raw video
never leaves the browser. `lycan serve` serves the library, its model files and the WebAssembly
binaries from this folder's `node_modules` (installed by `./scripts/setup` from the pinned
`package.json` and `package-lock.json`; nothing is fetched at run time), under `/perception`.
`LYCAN_PERCEPTION_DIR` names another folder that holds the same `node_modules`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent


@dataclass(frozen=True, slots=True)
class PerceptionFiles:
    """Where the browser perceiver's files are on this machine."""

    library: Path
    """`human.esm.js` (the tracker, with TensorFlow.js inside)."""
    models: Path
    """The models' JSON and weight files."""
    wasm: Path
    """TensorFlow.js's WebAssembly binaries."""


def perception_files(root: str | Path | None = None) -> PerceptionFiles | None:
    """The perceiver's files under `root`, or None if they are not installed.

    `root` defaults to `LYCAN_PERCEPTION_DIR`, else this folder.
    """
    base = Path(root or os.environ.get("LYCAN_PERCEPTION_DIR") or HERE) / "node_modules"
    files = PerceptionFiles(
        base / "@vladmandic" / "human" / "dist",
        base / "@vladmandic" / "human" / "models",
        base / "@tensorflow" / "tfjs-backend-wasm" / "dist",
    )
    needed = (
        files.library / "human.esm.js",
        files.models / "blazeface.json",
        files.models / "facemesh.json",
        files.models / "emotion.json",
        files.wasm / "tfjs-backend-wasm-simd.wasm",
    )
    return files if all(p.is_file() for p in needed) else None


__all__ = ["PerceptionFiles", "perception_files"]
