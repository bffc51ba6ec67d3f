"""One real GRPO step on the smallest embedded model (SmolLM2-135M, CPU), after two format warm-up
steps, through the command line, and the adapter it writes loaded into the `hf:` backend, answering.

About a minute on two shared CPU cores; the first run on a machine also converts the GGUF file
into a Hugging Face folder once (about 40 s, then cached).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lycan.cli import app
from lycan.models import load_model
from lycan.models.base import ChatRequest
from lycan.models.hf import HFModel


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reasoner")
    result = CliRunner().invoke(app, ["train", "reasoner", "--smoke", "--steps", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 GRPO steps" in result.output and "hf:" in result.output
    return out


def test_one_grpo_step_writes_the_rewards_and_the_adapter(trained: Path) -> None:
    steps = json.loads((trained / "rewards.json").read_text())["steps"]
    assert len(steps) == 1
    step = steps[0]
    assert {"reward", "correctness", "faithfulness", "format", "repeat", "seconds"} <= set(step)
    assert step["reward"] == pytest.approx(step["correctness"] + step["faithfulness"] + step["format"] + step["repeat"])
    assert -10.0 <= step["reward"] <= 2.0 and step["format"] <= 0.0
    adapter = trained / "adapter"
    assert (adapter / "adapter_config.json").is_file() and (adapter / "adapter_model.safetensors").is_file()
    config = json.loads((adapter / "adapter_config.json").read_text())
    assert config["r"] == 16 and set(config["target_modules"]) == {"q_proj", "k_proj", "v_proj", "o_proj"}
    report = json.loads((trained / "report.json").read_text())
    assert report["config"]["num_generations"] == 2 and report["config"]["beta"] == 0.04
    assert 0 < report["report"]["trainable_parameters"] < report["report"]["parameters"] / 20
    warmup = report["report"]["warmup"]  # the smoke run warms the adapter up on the format first
    assert warmup["steps"] == 2 and len(warmup["losses"]) == 2 and warmup["examples"] >= 1
    assert (trained / "warmup-adapter" / "adapter_model.safetensors").is_file()


def test_the_adapter_loads_into_the_hf_backend_and_answers(trained: Path) -> None:
    model = load_model(f"hf:{trained / 'adapter'}", dtype="float32", n_threads=1)
    assert isinstance(model, HFModel) and model.adapter is not None and model.schema == "free"
    try:
        request = ChatRequest(
            [{"role": "user", "content": "Who is the werewolf? Answer in JSON."}],
            max_tokens=6,
            temperature=0.0,
            json_schema={"type": "object"},  # answered unconstrained: the caller validates
        )
        result = asyncio.run(model.chat(request))
        assert result.text.strip() and 0 < result.usage.completion_tokens <= 6
    finally:
        model.close()
