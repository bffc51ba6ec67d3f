"""Merging a LoRA adapter into its base GGUF file (`lycan.models.merge`, `lycan train merge`).

The end-to-end tests put an untrained LoRA adapter with random, clearly non-zero B matrices on
the packaged tiny model (SmolLM2-135M, llama architecture, Q4_1), merge it, and compare the next
token's logits of a fixed prompt: llama.cpp on the merged file must land near transformers with
the adapter, far nearer than llama.cpp on the base does. The rest runs on toy GGUF files written
here. Needs the `[train]` and `[llm]` extras.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from lycan.cli import app
from lycan.models import ModelError
from lycan.models.merge import MergeResult, gguf_target, merge_adapter, rotary_permute

HAVE_MERGE = all(importlib.util.find_spec(name) is not None for name in ("gguf", "safetensors", "torch"))
HAVE_ALL = HAVE_MERGE and all(importlib.util.find_spec(name) is not None for name in ("peft", "llama_cpp"))
needs_merge = pytest.mark.skipif(not HAVE_MERGE, reason="the [train] extra (gguf, safetensors, torch) is missing")
needs_all = pytest.mark.skipif(not HAVE_ALL, reason="the [train] and [llm] extras are missing")

PROMPT = "<|im_start|>user\nWho is the werewolf in the village tonight?<|im_end|>\n<|im_start|>assistant\n"
LAYER = "base_model.model.model.layers"


def rms(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(np.mean((a - b) ** 2)))


def field(reader: Any, key: str) -> Any:
    value = reader.get_field(key)
    return value.contents() if value is not None else None


def top(logits: np.ndarray, k: int = 5) -> set[int]:
    return {int(i) for i in np.argsort(-logits)[:k]}


# -- the names and the row order -------------------------------------------------------------------


def test_peft_keys_map_to_gguf_tensors() -> None:
    cases = {
        f"{LAYER}.0.self_attn.q_proj.lora_A.weight": ("blk.0.attn_q.weight", "A"),
        f"{LAYER}.12.self_attn.k_proj.lora_B.weight": ("blk.12.attn_k.weight", "B"),
        f"{LAYER}.3.self_attn.v_proj.lora_A.weight": ("blk.3.attn_v.weight", "A"),
        f"{LAYER}.29.self_attn.o_proj.lora_B.weight": ("blk.29.attn_output.weight", "B"),
        f"{LAYER}.1.mlp.gate_proj.lora_A.weight": ("blk.1.ffn_gate.weight", "A"),
        f"{LAYER}.1.mlp.up_proj.lora_A.weight": ("blk.1.ffn_up.weight", "A"),
        f"{LAYER}.1.mlp.down_proj.lora_B.weight": ("blk.1.ffn_down.weight", "B"),
    }
    for key, (tensor, matrix) in cases.items():
        target = gguf_target(key)
        assert (target.tensor, target.matrix) == (tensor, matrix), key
    for key in (
        "base_model.model.lm_head.lora_A.weight",
        "base_model.model.model.embed_tokens.lora_embedding_A",
        f"{LAYER}.0.self_attn.rotary.lora_A.weight",
        f"{LAYER}.0.self_attn.q_proj.weight",
    ):
        with pytest.raises(ModelError, match="cannot be merged into a GGUF file"):
            gguf_target(key)


def test_rotary_permute_makes_each_heads_rotary_halves_consecutive() -> None:
    rows = np.arange(8, dtype=np.float32)[:, None] * np.ones((1, 3), dtype=np.float32)
    permuted = rotary_permute(rows, 2)
    assert permuted[:, 0].tolist() == [0, 2, 1, 3, 4, 6, 5, 7]
    assert (permuted[:, 1] == permuted[:, 0]).all()  # whole rows move
    with pytest.raises(ModelError, match="does not split into 3 heads"):
        rotary_permute(rows, 3)


@pytest.mark.skipif(importlib.util.find_spec("transformers") is None, reason="transformers is missing")
def test_transformers_gguf_loader_undoes_the_permutation() -> None:
    from transformers.modeling_gguf_pytorch_utils import LlamaTensorProcessor

    undo = LlamaTensorProcessor(config={"num_attention_heads": 9, "num_key_value_heads": 3})
    weights = np.random.default_rng(0).normal(size=(576, 40)).astype(np.float32)
    q = undo.process(rotary_permute(weights, 9), "blk.0.attn_q.weight").weights
    k = undo.process(rotary_permute(weights[:192], 3), "blk.0.attn_k.weight").weights
    assert np.array_equal(q, weights) and np.array_equal(k, weights[:192])
    assert not np.array_equal(rotary_permute(weights, 9), weights)


# -- toy GGUF files -----------------------------------------------------------------------------------


def toy_gguf(path: Path, arch: str = "llama", rows: int = 8, columns: int = 32) -> dict[str, np.ndarray]:
    """A two-tensor GGUF file (F32), 2 query heads and 1 key-value head; returns its tensors."""
    import gguf

    rng = np.random.default_rng(1)
    tensors = {
        "blk.0.attn_q.weight": rng.normal(size=(rows, columns)).astype(np.float32),
        "blk.0.attn_k.weight": rng.normal(size=(rows // 2, columns)).astype(np.float32),
        "blk.0.attn_norm.weight": rng.normal(size=(columns,)).astype(np.float32),
    }
    writer = gguf.GGUFWriter(path, arch)
    writer.add_name("toy")
    writer.add_head_count(2)
    writer.add_head_count_kv(1)
    for name, value in tensors.items():
        writer.add_tensor(name, value)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return tensors


def toy_adapter(folder: Path, weights: dict[str, np.ndarray], **config: Any) -> Path:
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    settings = {"peft_type": "LORA", "r": 2, "lora_alpha": 4, "target_modules": ["q_proj"], **config}
    (folder / "adapter_config.json").write_text(json.dumps(settings), encoding="utf-8")
    save_file(weights, str(folder / "adapter_model.safetensors"))
    return folder


def lora(rng: np.random.Generator, rows: int, columns: int, rank: int = 2) -> tuple[np.ndarray, np.ndarray]:
    return (
        rng.normal(size=(rank, columns)).astype(np.float32),
        rng.normal(size=(rows, rank)).astype(np.float32),
    )


@needs_merge
@pytest.mark.parametrize("arch", ["llama", "qwen2"])
def test_merge_adds_the_scaled_delta_in_llama_cpps_row_order(tmp_path: Path, arch: str) -> None:
    import gguf

    base = toy_gguf(tmp_path / "toy.gguf", arch)
    rng = np.random.default_rng(2)
    qa, qb = lora(rng, 8, 32)
    ka, kb = lora(rng, 4, 32)
    adapter = toy_adapter(
        tmp_path / "adapter",
        {
            f"{LAYER}.0.self_attn.q_proj.lora_A.weight": qa,
            f"{LAYER}.0.self_attn.q_proj.lora_B.weight": qb,
            f"{LAYER}.0.self_attn.k_proj.lora_A.weight": ka,
            f"{LAYER}.0.self_attn.k_proj.lora_B.weight": kb,
        },
    )
    result = merge_adapter(adapter, tmp_path / "merged.gguf", base_gguf=tmp_path / "toy.gguf", qtype="F32")
    assert result.merged == ("blk.0.attn_k.weight", "blk.0.attn_q.weight")
    reader = gguf.GGUFReader(result.path)
    merged = {tensor.name: np.array(tensor.data) for tensor in reader.tensors}
    q_delta, k_delta = 2.0 * qb @ qa, 2.0 * kb @ ka  # lora_alpha / r = 4 / 2
    if arch == "llama":
        q_delta, k_delta = rotary_permute(q_delta, 2), rotary_permute(k_delta, 1)
    np.testing.assert_allclose(merged["blk.0.attn_q.weight"], base["blk.0.attn_q.weight"] + q_delta, rtol=1e-6)
    np.testing.assert_allclose(merged["blk.0.attn_k.weight"], base["blk.0.attn_k.weight"] + k_delta, rtol=1e-6)
    assert np.array_equal(merged["blk.0.attn_norm.weight"], base["blk.0.attn_norm.weight"])
    assert field(reader, "general.name") == "toy"
    assert field(reader, "general.description") == "toy, with a LoRA adapter merged into 2 of its tensors (F32)."


@needs_merge
def test_rslora_scale_and_the_f16_fallback_for_rows_q8_0_cannot_split(tmp_path: Path) -> None:
    import gguf

    base = toy_gguf(tmp_path / "toy.gguf", rows=8, columns=48)  # 48 is no multiple of Q8_0's 32
    qa, qb = lora(np.random.default_rng(3), 8, 48, rank=4)
    weights = {f"{LAYER}.0.self_attn.q_proj.lora_A.weight": qa, f"{LAYER}.0.self_attn.q_proj.lora_B.weight": qb}
    adapter = toy_adapter(tmp_path / "adapter", weights, r=4, lora_alpha=4, use_rslora=True)
    result = merge_adapter(adapter, tmp_path / "merged.gguf", base_gguf=tmp_path / "toy.gguf")
    tensor = next(t for t in gguf.GGUFReader(result.path).tensors if t.name == "blk.0.attn_q.weight")
    assert tensor.tensor_type == gguf.GGMLQuantizationType.F16
    expected = base["blk.0.attn_q.weight"] + rotary_permute(2.0 * qb @ qa, 2)  # 4 / sqrt(4)
    np.testing.assert_allclose(gguf.quants.dequantize(tensor.data, tensor.tensor_type), expected, atol=2e-2)


@needs_merge
def test_errors_say_what_is_wrong(tmp_path: Path) -> None:
    toy_gguf(tmp_path / "toy.gguf")
    toy = tmp_path / "toy.gguf"
    rng = np.random.default_rng(4)
    qa, qb = lora(rng, 8, 32)
    good = {f"{LAYER}.0.self_attn.q_proj.lora_A.weight": qa, f"{LAYER}.0.self_attn.q_proj.lora_B.weight": qb}
    adapter = toy_adapter(tmp_path / "adapter", good)
    out = tmp_path / "out.gguf"

    head = toy_adapter(tmp_path / "head", {**good, "base_model.model.lm_head.lora_A.weight": qa})
    with pytest.raises(ModelError, match=r"lm_head\.lora_A\.weight adapts a module that cannot be merged"):
        merge_adapter(head, out, base_gguf=toy)
    wide = toy_adapter(tmp_path / "wide", {**good, f"{LAYER}.0.self_attn.q_proj.lora_B.weight": qb[:4]})
    with pytest.raises(ModelError, match=r"blk\.0\.attn_q\.weight is 4 x 32, but the base tensor is 8 x 32"):
        merge_adapter(wide, out, base_gguf=toy)
    deep = toy_adapter(tmp_path / "deep", {k.replace("layers.0.", "layers.5."): v for k, v in good.items()})
    with pytest.raises(ModelError, match=r"changes blk\.5\.attn_q\.weight, which .* does not have"):
        merge_adapter(deep, out, base_gguf=toy)
    dora = toy_adapter(tmp_path / "dora", good, use_dora=True)
    with pytest.raises(ModelError, match="uses DoRA"):
        merge_adapter(dora, out, base_gguf=toy)

    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    with pytest.raises(ModelError, match="is not a readable GGUF file"):
        merge_adapter(adapter, out, base_gguf=text)
    folder = tmp_path / "hf-base"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    (adapter / "lycan_base.json").write_text(json.dumps({"base": str(folder), "path": str(folder)}))
    with pytest.raises(ModelError, match="is a Hugging Face folder, not a GGUF file"):
        merge_adapter(adapter, out)
    toy_gguf(tmp_path / "gpt2.gguf", arch="gpt2")
    with pytest.raises(ModelError, match="holds a gpt2 model; adapters can be merged into llama or qwen2"):
        merge_adapter(adapter, out, base_gguf=tmp_path / "gpt2.gguf")
    with pytest.raises(ModelError, match="cannot be written as Q4_K"):
        merge_adapter(adapter, out, base_gguf=toy, qtype="q4_k")
    with pytest.raises(ModelError, match="would overwrite its base"):
        merge_adapter(adapter, toy, base_gguf=toy)
    with pytest.raises(ModelError, match="is no LoRA adapter folder"):
        merge_adapter(tmp_path / "hf-base", out, base_gguf=toy)
    assert not out.exists() and not list(tmp_path.glob(".out.gguf.*"))


# -- the packaged tiny model, end to end --------------------------------------------------------------


@dataclass(frozen=True)
class Adapted:
    """An adapter on local:tiny and transformers' logits of PROMPT's next token without and with it."""

    folder: Path
    ids: list[int]
    base: np.ndarray
    adapted: np.ndarray


@pytest.fixture(scope="module")
def adapted(tmp_path_factory: pytest.TempPathFactory) -> Adapted:
    if not HAVE_ALL:
        pytest.skip("the [train] and [llm] extras are missing")
    import torch
    from peft import LoraConfig, get_peft_model

    from lycan.causal.train import save_adapter
    from lycan.models.hf import load_checkpoint

    torch.set_num_threads(1)
    model, tokenizer = load_checkpoint("local:tiny", dtype="float32")
    config = LoraConfig(
        r=8,
        lora_alpha=16,
        lora_dropout=0.0,
        target_modules=["q_proj", "k_proj", "v_proj", "o_proj"],
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(model, config)
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if "lora_" in name:  # A as peft draws it (kaiming, ~0.024), B no longer zero
                std = 0.1 if "lora_B" in name else 1 / parameter.shape[1] ** 0.5 / 3**0.5
                parameter.copy_(torch.randn(parameter.shape, generator=generator) * std)
    model.eval()
    ids = tokenizer(PROMPT)["input_ids"]
    with torch.inference_mode():
        adapted_logits = model(input_ids=torch.tensor([ids])).logits[0, -1].numpy().copy()
        with model.disable_adapter():
            base_logits = model(input_ids=torch.tensor([ids])).logits[0, -1].numpy().copy()
    folder = tmp_path_factory.mktemp("tiny-adapter") / "adapter"
    save_adapter(model, tokenizer, folder, "local:tiny")
    return Adapted(folder, list(ids), base_logits, adapted_logits)


def llama_logits(path: Path, ids: list[int]) -> np.ndarray:
    """llama.cpp's logits of the token after `ids` (also checks that it tokenizes PROMPT as transformers does)."""
    import llama_cpp

    llm = llama_cpp.Llama(
        model_path=str(path), logits_all=False, n_ctx=256, n_threads=1, n_threads_batch=1, verbose=False
    )
    try:
        assert llm.tokenize(PROMPT.encode(), add_bos=False, special=True) == ids
        llm.eval(ids)
        return np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm.ctx, -1), shape=(llm.n_vocab(),)).copy()
    finally:
        llm.close()


@pytest.fixture(scope="module")
def base_logits(adapted: Adapted) -> np.ndarray:
    from lycan.models.local import model_path

    return llama_logits(model_path("tiny"), adapted.ids)


@pytest.fixture(scope="module")
def merged(adapted: Adapted, tmp_path_factory: pytest.TempPathFactory) -> MergeResult:
    return merge_adapter(adapted.folder, tmp_path_factory.mktemp("merged") / "tiny-merged.gguf")


def check_close_to_the_adapter(logits: np.ndarray, adapted: Adapted, base_logits: np.ndarray) -> None:
    """llama.cpp's `logits` for a merged file are transformers' with the adapter, up to quantization.

    On the tiny model (B ~ N(0, 0.1)): quantization (llama.cpp on the base vs transformers on the
    dequantized base) 0.23 RMS, the adapter's effect 3.9, llama.cpp on the base vs transformers
    with the adapter 4.1, llama.cpp on the merged file vs transformers with the adapter 0.15 (Q8_0)
    or 0.13 (F16), and 1.4 when the q and k deltas are added without the rotary permutation.
    """
    noise = rms(base_logits, adapted.base)
    effect = rms(adapted.adapted, adapted.base)
    unmerged = rms(base_logits, adapted.adapted)
    merged = rms(logits, adapted.adapted)
    report = f"quantization {noise:.3f}, adapter {effect:.3f}, base vs adapter {unmerged:.3f}, merged {merged:.3f}"
    assert effect > 5 * noise, report  # the adapter changes more than quantization does
    assert rms(logits, base_logits) > 0.5 * effect, report  # the merge did something
    assert merged < 0.15 * unmerged, report
    assert np.corrcoef(logits, adapted.adapted)[0, 1] > 0.995, report
    assert int(np.argmax(logits)) == int(np.argmax(adapted.adapted))
    assert len(top(logits) & top(adapted.adapted)) >= 4


@needs_all
def test_llama_cpp_on_the_merged_file_answers_as_transformers_with_the_adapter(
    adapted: Adapted, base_logits: np.ndarray, merged: MergeResult
) -> None:
    import gguf

    assert len(merged.merged) == 120 and merged.qtype == "Q8_0"  # 30 layers x q, k, v, o
    check_close_to_the_adapter(llama_logits(merged.path, adapted.ids), adapted, base_logits)
    before = {t.name: t for t in gguf.GGUFReader(merged.base).tensors}
    after = gguf.GGUFReader(merged.path)
    for tensor in after.tensors:
        if tensor.name in merged.merged:
            assert tensor.tensor_type == gguf.GGMLQuantizationType.Q8_0
        else:
            old = before[tensor.name]
            assert tensor.tensor_type == old.tensor_type and np.array_equal(tensor.data, old.data), tensor.name
    name = "Smollm2 135M 8k Lc100K Mix1 Ep2"
    assert field(after, "general.name") == name
    assert field(after, "general.description") == f"{name}, with a LoRA adapter merged into 120 of its tensors (Q8_0)."


@needs_all
def test_train_merge_command_writes_a_file_llama_cpp_plays(
    adapted: Adapted, base_logits: np.ndarray, tmp_path: Path
) -> None:
    out = tmp_path / "cli-merged.gguf"
    result = CliRunner().invoke(app, ["train", "merge", str(adapted.folder), "--out", str(out), "--qtype", "F16"])
    assert result.exit_code == 0, result.output
    assert "merged 120 tensors (F16)" in result.output
    assert f"written to {out} (play it with --model llamacpp:{out})" in result.output
    check_close_to_the_adapter(llama_logits(out, adapted.ids), adapted, base_logits)
    missing = CliRunner().invoke(app, ["train", "merge", str(tmp_path / "nowhere"), "--out", str(out)])
    assert missing.exit_code == 2 and "There is no adapter folder" in missing.output
