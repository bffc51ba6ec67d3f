"""Merge a LoRA adapter into its base GGUF file, so that llama.cpp runs the trained model.

`lycan train reasoner` writes a peft LoRA adapter that only the `hf:` backend (transformers) can
load. `merge_adapter(ADAPTER_DIR, OUT)` (the command `lycan train merge`) writes a new GGUF file
in which every adapted weight W holds W + scale * B @ A, so `llamacpp:OUT` plays it at llama.cpp's
speed, with JSON schemas enforced by its grammar.

- The base is the GGUF file named in the adapter's `lycan_base.json` (`local:tiny`, `local` or a
  `.gguf` path), or the file given as `base_gguf`.
- scale is `lora_alpha / r` (`lora_alpha / sqrt(r)` with `use_rslora`), r being each module's rank.
  `fan_in_fan_out` is not consulted: peft turns it off for the `nn.Linear` layers adapted here.
- Adapted tensors are dequantized, summed in float32 and written as `qtype` (Q8_0 by default,
  else F16, BF16 or F32; a row that does not split into Q8_0 blocks is written as F16). Every
  other tensor is copied byte for byte in its own type, and all metadata is copied, with a note
  of the merge added to `general.description`.
- llama.cpp's converter stores the rows of the `llama` architecture's q and k projections in a
  rotary order of its own (`rotary_permute`); transformers undoes it when it loads the file, so a
  delta computed in the Hugging Face layout gets the same permutation before it is added. `qwen2`
  is stored unpermuted.

The adapted modules may be the attention projections (`q_proj`, `k_proj`, `v_proj`, `o_proj`) and
the MLP's (`gate_proj`, `up_proj`, `down_proj`). Needs the `[train]` extra (gguf, safetensors, torch).
"""

from __future__ import annotations

import json
import math
import os
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lycan.models.base import ModelError

ROTARY_PERMUTED: dict[str, bool] = {"llama": True, "qwen2": False}
"""The architectures that can be merged, and whether llama.cpp's converter permuted their q/k rows."""

QTYPES = ("Q8_0", "F16", "BF16", "F32")
"""The types a merged tensor can be written in."""

MODULES: dict[str, str] = {
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}
"""Hugging Face module paths inside a decoder layer and the GGUF tensor names they become."""

_LORA_KEY = re.compile(r"(?:^|\.)layers\.(\d+)\.(\w+\.\w+)\.lora_([AB])\.weight$")


@dataclass(frozen=True, slots=True)
class LoraTarget:
    """Where one peft adapter weight goes in a GGUF file.

    Attributes:
        tensor: the GGUF tensor name, e.g. `blk.3.attn_q.weight`.
        matrix: `A` (rank x in) or `B` (out x rank).
    """

    tensor: str
    matrix: str


def gguf_target(key: str) -> LoraTarget:
    """The GGUF tensor that a peft adapter weight such as `...layers.3.self_attn.q_proj.lora_A.weight` changes.

    Raises:
        ModelError: the key is no LoRA weight of a decoder layer's linear module listed in `MODULES`.
    """
    match = _LORA_KEY.search(key)
    if match is None or match.group(2) not in MODULES:
        known = ", ".join(path.rpartition(".")[2] for path in MODULES)
        raise ModelError(
            f"The adapter weight {key} adapts a module that cannot be merged into a GGUF file; "
            f"only the LoRA weights of {known} can."
        )
    layer, module, matrix = match.groups()
    return LoraTarget(f"blk.{layer}.{MODULES[module]}.weight", matrix)


def rotary_permute(weights: np.ndarray, n_head: int) -> np.ndarray:
    """Reorder the rows of a q or k projection (out x in) the way llama.cpp's converter does for `llama`.

    Within each head, the interleaved halves of the rotary dimensions become consecutive
    (`convert_hf_to_gguf.py`, `LlamaModel.permute`); `n_head` is the query heads for q and the
    key-value heads for k.
    """
    rows = weights.shape[0]
    if rows % (2 * n_head):
        raise ModelError(f"A projection with {rows} rows does not split into {n_head} heads of rotary pairs.")
    return weights.reshape(n_head, 2, rows // n_head // 2, *weights.shape[1:]).swapaxes(1, 2).reshape(weights.shape)


@dataclass(frozen=True, slots=True)
class LoraPair:
    """The two matrices of one adapted module and their scale (delta = scale * B @ A).

    Attributes:
        a: rank x in, float32.
        b: out x rank, float32.
        scale: lora_alpha / rank (or / sqrt(rank) with rsLoRA).
    """

    a: np.ndarray
    b: np.ndarray
    scale: float


@dataclass(frozen=True, slots=True)
class MergeResult:
    """What `merge_adapter` wrote.

    Attributes:
        path: the new GGUF file.
        base: the GGUF file the adapter was merged into.
        merged: the names of the tensors that received a LoRA delta.
        qtype: the type the merged tensors were written in.
    """

    path: Path
    base: Path
    merged: tuple[str, ...]
    qtype: str


def merge_adapter(
    adapter_dir: str | os.PathLike[str],
    out_path: str | os.PathLike[str],
    *,
    base_gguf: str | os.PathLike[str] | None = None,
    qtype: str = "Q8_0",
) -> MergeResult:
    """Write the base GGUF file with the LoRA adapter's deltas added to its weights (module docstring).

    Args:
        adapter_dir: a peft adapter folder (`adapter_config.json`, `adapter_model.safetensors`).
        out_path: the GGUF file to write (replaced if it exists; written to a temporary file first).
        base_gguf: the base GGUF file; default: the one named in the adapter's `lycan_base.json`.
        qtype: the type of the merged tensors: Q8_0, F16, BF16 or F32.

    Returns:
        The file written, its base, and the names of the merged tensors.

    Raises:
        ModelError: a missing package or file, a base that is no GGUF file or has an unsupported
            architecture, or an adapter that does not fit it (modules, shapes, peft options).
    """
    gguf = _import_gguf()
    folder = Path(adapter_dir).expanduser()
    out = Path(out_path).expanduser()
    qtype = qtype.strip().upper()
    if qtype not in QTYPES:
        raise ModelError(f"Merged tensors cannot be written as {qtype}; choose one of {', '.join(QTYPES)}.")
    base = _base_file(folder, base_gguf)
    deltas = lora_deltas(folder)
    if out.exists() and out.resolve() == base.resolve():
        raise ModelError(f"The merged model would overwrite its base {base}; write it to another file.")
    try:
        reader = gguf.GGUFReader(base)
    except (OSError, ValueError) as error:
        raise ModelError(f"{base} is not a readable GGUF file: {error}") from error
    arch = str(_field(reader, gguf.Keys.General.ARCHITECTURE) or "")
    if arch not in ROTARY_PERMUTED:
        raise ModelError(
            f"{base} holds a {arch or 'unnamed'} model; adapters can be merged into "
            f"{' or '.join(ROTARY_PERMUTED)} models only."
        )
    heads = int(_field(reader, gguf.Keys.Attention.HEAD_COUNT.format(arch=arch)) or 0)
    kv_heads = int(_field(reader, gguf.Keys.Attention.HEAD_COUNT_KV.format(arch=arch)) or heads)
    if ROTARY_PERMUTED[arch] and heads <= 0:
        raise ModelError(f"{base} does not say how many attention heads it has ({arch}.attention.head_count).")
    _check_fit(reader, deltas, base)
    name = str(_field(reader, gguf.Keys.General.NAME) or base.stem)
    note = f"{name}, with a LoRA adapter merged into {len(deltas)} of its tensors ({qtype})."
    old = _field(reader, gguf.Keys.General.DESCRIPTION)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.part")
    writer = gguf.GGUFWriter(temporary, arch=arch, endianess=reader.endianess)
    writer.data_alignment = reader.alignment
    try:
        _copy_metadata(reader, writer, {gguf.Keys.General.DESCRIPTION: f"{old} {note}" if old else note})
        kinds: dict[str, Any] = {}
        for tensor in reader.tensors:
            if tensor.name in deltas:
                rows, columns = int(tensor.shape[1]), int(tensor.shape[0])
                kind = gguf.GGMLQuantizationType[qtype]
                if columns % gguf.GGML_QUANT_SIZES[kind][0]:
                    kind = gguf.GGMLQuantizationType.F16
                row = gguf.quants.quantize(np.zeros((1, columns), dtype=np.float32), kind)
                writer.add_tensor_info(tensor.name, (rows, row.shape[1]), row.dtype, rows * row.nbytes, raw_dtype=kind)
                kinds[tensor.name] = kind
            else:
                writer.add_tensor_info(
                    tensor.name, tensor.data.shape, tensor.data.dtype, tensor.data.nbytes, tensor.tensor_type
                )
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_ti_data_to_file()
        for tensor in reader.tensors:
            if tensor.name in deltas:
                weights = gguf.quants.dequantize(tensor.data, tensor.tensor_type).astype(np.float32, copy=False)
                change = gguf_delta(tensor.name, deltas[tensor.name], arch, heads, kv_heads)
                writer.write_tensor_data(gguf.quants.quantize(weights + change, kinds[tensor.name]))
            else:
                writer.write_tensor_data(tensor.data, tensor_endianess=reader.endianess)
        writer.close()
        os.replace(temporary, out)
    finally:
        writer.close()
        if temporary.exists():
            temporary.unlink()
    return MergeResult(path=out, base=base, merged=tuple(sorted(deltas, key=_tensor_order)), qtype=qtype)


def gguf_delta(tensor: str, pair: LoraPair, arch: str, heads: int, kv_heads: int) -> np.ndarray:
    """The change `pair` makes to the GGUF tensor named `tensor`, in that file's row order (out x in, float32).

    Args:
        tensor: the GGUF tensor name (`blk.N.attn_q.weight`, ...).
        pair: the adapter's matrices for it.
        arch: the file's architecture (a key of `ROTARY_PERMUTED`).
        heads: the number of query heads (permutes a `llama` q delta).
        kv_heads: the number of key-value heads (permutes a `llama` k delta).
    """
    change: np.ndarray = np.float32(pair.scale) * (pair.b @ pair.a)
    if ROTARY_PERMUTED[arch] and tensor.endswith(".attn_q.weight"):
        change = rotary_permute(change, heads)
    elif ROTARY_PERMUTED[arch] and tensor.endswith(".attn_k.weight"):
        change = rotary_permute(change, kv_heads)
    return change


def _check_fit(reader: Any, deltas: Mapping[str, LoraPair], base: Path) -> None:
    """Every delta has a two-dimensional base tensor of its shape."""
    tensors = {tensor.name: tensor for tensor in reader.tensors}
    for name, pair in deltas.items():
        tensor = tensors.get(name)
        if tensor is None:
            raise ModelError(f"The adapter changes {name}, which {base} does not have; was it trained on another base?")
        rows, columns = int(pair.b.shape[0]), int(pair.a.shape[1])
        if len(tensor.shape) != 2 or (columns, rows) != (int(tensor.shape[0]), int(tensor.shape[1])):
            raise ModelError(
                f"The adapter's delta for {name} is {rows} x {columns}, but the base tensor is "
                f"{' x '.join(str(int(n)) for n in reversed(tensor.shape))}; was it trained on another base?"
            )


def lora_deltas(adapter_dir: str | os.PathLike[str]) -> dict[str, LoraPair]:
    """The adapter's LoRA pairs by the GGUF tensor they change (not yet permuted for llama.cpp).

    Raises:
        ModelError: no adapter folder, a peft option that is more than a plain LoRA, a module that
            cannot be mapped (`gguf_target`), or an A without its B.
    """
    folder = Path(adapter_dir).expanduser()
    config_file = folder / "adapter_config.json"
    weights_file = folder / "adapter_model.safetensors"
    if not config_file.is_file() or not weights_file.is_file():
        raise ModelError(
            f"{folder} is no LoRA adapter folder: it needs adapter_config.json and adapter_model.safetensors."
        )
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except ValueError as error:
        raise ModelError(f"{config_file} is not valid JSON: {error}") from error
    _check_config(config, config_file)
    alpha = float(config.get("lora_alpha", 8))
    matrices: dict[str, dict[str, np.ndarray]] = {}
    for key, value in _read_safetensors(weights_file).items():
        target = gguf_target(key)
        matrices.setdefault(target.tensor, {})[target.matrix] = value
    if not matrices:
        raise ModelError(f"{weights_file} holds no LoRA weights.")
    pairs: dict[str, LoraPair] = {}
    for name, pair in matrices.items():
        if set(pair) != {"A", "B"}:
            raise ModelError(f"The adapter has lora_{''.join(pair)} for {name} but not its partner.")
        a, b = pair["A"], pair["B"]
        if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[1]:
            raise ModelError(f"The adapter's matrices for {name} ({a.shape} and {b.shape}) do not multiply.")
        rank = a.shape[0]
        scale = alpha / math.sqrt(rank) if config.get("use_rslora") else alpha / rank
        pairs[name] = LoraPair(a=a, b=b, scale=scale)
    return pairs


def _check_config(config: Mapping[str, Any], file: Path) -> None:
    problems = []
    if str(config.get("peft_type", "LORA")).upper() != "LORA":
        problems.append(f"it is a {config.get('peft_type')} adapter, not LoRA")
    if config.get("use_dora"):
        problems.append("it uses DoRA (use_dora)")
    if config.get("alpha_pattern"):
        problems.append("it scales modules apart (alpha_pattern)")
    if config.get("lora_bias") or str(config.get("bias", "none")) != "none":
        problems.append("it trains biases")
    if config.get("modules_to_save"):
        problems.append("it replaces whole modules (modules_to_save)")
    if config.get("trainable_token_indices"):
        problems.append("it trains token embeddings (trainable_token_indices)")
    if problems:
        raise ModelError(f"The adapter {file.parent} cannot be merged into a GGUF file: {'; '.join(problems)}.")


def _read_safetensors(file: Path) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file as float32 numpy (through torch, which reads bfloat16 too)."""
    try:
        import torch
        from safetensors import safe_open
    except ImportError as error:
        raise ModelError("Merging an adapter needs torch and safetensors: pip install 'lycan[train]'") from error
    try:
        with safe_open(str(file), framework="pt") as handle:
            return {key: handle.get_tensor(key).to(torch.float32).numpy() for key in handle.keys()}  # noqa: SIM118
    except (OSError, ValueError) as error:
        raise ModelError(f"{file} is not a readable safetensors file: {error}") from error


def _base_file(folder: Path, base_gguf: str | os.PathLike[str] | None) -> Path:
    """The base GGUF file: `base_gguf`, else the checkpoint the adapter folder names."""
    from lycan.models.hf import adapter_base, checkpoint_location

    if base_gguf is not None:
        base = Path(base_gguf).expanduser()
        if not base.is_file():
            raise ModelError(f"There is no GGUF file at {base}.")
        return base
    if not folder.is_dir():
        raise ModelError(f"There is no adapter folder at {folder}.")
    spec = adapter_base(folder)
    where, gguf = checkpoint_location(spec)
    if gguf is None:
        raise ModelError(
            f"The adapter's base {spec} is a Hugging Face folder, not a GGUF file; "
            "give the GGUF file it was converted from (--base FILE.gguf)."
        )
    return where / gguf


def _field(reader: Any, key: str) -> Any:
    field = reader.get_field(key)
    return field.contents() if field is not None else None


def _copy_metadata(reader: Any, writer: Any, replace: Mapping[str, str]) -> None:
    """Copy every key-value pair (as `gguf/scripts/gguf_new_metadata.py` does), with string values replaced or added."""
    import gguf

    left = dict(replace)
    for field in reader.fields.values():
        if field.name == gguf.Keys.General.ARCHITECTURE or field.name.startswith("GGUF."):
            continue  # the writer writes these itself
        value_type = field.types[0]
        sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
        if field.name in left:
            writer.add_key_value(field.name, left.pop(field.name), gguf.GGUFValueType.STRING)
        else:
            writer.add_key_value(field.name, field.contents(), value_type, sub_type=sub_type)
    for key, value in left.items():
        writer.add_key_value(key, value, gguf.GGUFValueType.STRING)


def _tensor_order(name: str) -> tuple[int, str]:
    parts = name.split(".")
    return (int(parts[1]) if len(parts) > 2 and parts[1].isdigit() else -1, name)


def _import_gguf() -> Any:
    try:
        import gguf
    except ImportError as error:
        raise ModelError(
            "Merging an adapter into a GGUF file needs the gguf package: pip install 'lycan[train]'"
        ) from error
    return gguf


__all__ = [
    "MODULES",
    "QTYPES",
    "ROTARY_PERMUTED",
    "LoraPair",
    "LoraTarget",
    "MergeResult",
    "gguf_delta",
    "gguf_target",
    "lora_deltas",
    "merge_adapter",
    "rotary_permute",
]
