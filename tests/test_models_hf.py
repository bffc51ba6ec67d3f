"""The transformers backend: loading errors always; generation on a tiny checkpoint built here.

No chat checkpoint small enough ships in a PyPI package, so the generation tests build a
randomly initialised two-layer Llama with a word-level tokenizer and a chat template, save it as
a normal checkpoint folder and load it through `hf:PATH`. They need the `[hf]` extra.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lycan.models import ChatRequest, ModelError, load_model, stream_result
from lycan.models.hf import HFModel

HAVE_HF = all(importlib.util.find_spec(name) is not None for name in ("torch", "transformers", "tokenizers"))
needs_hf = pytest.mark.skipif(not HAVE_HF, reason="the [hf] extra (torch, transformers) is not installed")

WORDS = [
    "the",
    "wolf",
    "village",
    "seer",
    "vote",
    "day",
    "night",
    "player",
    "Alice",
    "Bob",
    "Carol",
    "is",
    "a",
    "suspicious",
    "I",
    "think",
]
TEMPLATE = (
    "{% for m in messages %}<|im_start|> {{ m['role'] }} {{ m['content'] }} <|im_end|> {% endfor %}"
    "{% if add_generation_prompt %}<|im_start|> assistant {% endif %}"
)


def test_loading_errors_are_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no Hugging Face checkpoint folder"):
        load_model(f"hf:{tmp_path / 'nothing-here'}")
    (tmp_path / "config.json").write_text("{}")
    model = load_model(f"hf:{tmp_path}")
    assert isinstance(model, HFModel) and model.name == f"hf:{tmp_path}"
    expected = f"transformers could not load {tmp_path}" if HAVE_HF else r"pip install 'lycan\[hf\]'"
    with pytest.raises(ModelError, match=expected):
        model._load()
    model.close()


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-llama")
    specials = ["<unk>", "<pad>", "<|im_start|>", "<|im_end|>"]
    vocab = {token: index for index, token in enumerate([*specials, "user", "system", "assistant", *WORDS])}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>", eos_token="<|im_end|>"
    )
    tokenizer.chat_template = TEMPLATE
    tokenizer.save_pretrained(folder)
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=128,
        eos_token_id=vocab["<|im_end|>"],
        pad_token_id=vocab["<pad>"],
    )
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder


@needs_hf
async def test_generation_and_streaming_agree(checkpoint: Path) -> None:
    model = load_model(f"hf:{checkpoint}", dtype="float32")
    assert isinstance(model, HFModel)
    request = ChatRequest([{"role": "user", "content": "who is the wolf"}], max_tokens=8, temperature=0.0)
    try:
        result = await model.chat(request)
        assert result.usage.prompt_tokens == 9 and 0 < result.usage.completion_tokens <= 8
        assert all(word in WORDS for word in result.text.split())
        stream = model.stream(request)
        pieces = [piece async for piece in stream]
        finished = stream_result(stream)
        assert finished is not None and "".join(pieces).split() == result.text.split()
        assert finished.usage.prompt_tokens == 9
        sampled = await model.chat(ChatRequest(request.messages, max_tokens=8, temperature=1.0, seed=5))
        again = await model.chat(ChatRequest(request.messages, max_tokens=8, temperature=1.0, seed=5))
        assert sampled.text == again.text  # a seed makes sampling repeatable
        with pytest.raises(ModelError, match="JSON schema"):
            await model.chat(ChatRequest(request.messages, json_schema={"type": "object"}))
    finally:
        model.close()


def test_gguf_files_and_adapter_folders_say_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no GGUF file"):
        load_model(f"hf:{tmp_path / 'missing.gguf'}")
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    (adapter / "adapter_config.json").write_text("{}")
    with pytest.raises(ModelError, match="names no base checkpoint"):
        load_model(f"hf:{adapter}")
    (adapter / "lycan_base.json").write_text('{"base": "x", "path": "%s"}' % (tmp_path / "gone.gguf"))
    with pytest.raises(ModelError, match="no GGUF file"):
        load_model(f"hf:{adapter}")
    with pytest.raises(ModelError, match="no LoRA adapter folder"):
        HFModel(tmp_path / "gone.gguf", adapter=tmp_path)
