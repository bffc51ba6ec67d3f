"""The Reasoner's GRPO training configuration (a TOML file: `lycan train reasoner CONFIG`).

A supervised format warm-up (`warmup_steps`, off by default, on in the CPU config) can precede
GRPO. The defaults are the seed's: 500 self-play games, 3,000 speaking turns, G=8 answers per turn,
clip 0.2, KL 0.04, 128 turns per step, LoRA rank 16. The seed's ablations are switches
(`faithfulness`, `relevant`, `irrelevant`). Configs that ship with Lycan: `reasoner-cpu-tiny.toml`
(a few real steps on a CPU, the smoke model), `reasoner-gpu-0.5b.toml` and `reasoner-gpu-1.5b.toml`
(the seed's scale on one GPU).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, Self

from pydantic import Field, model_validator

from lycan.train.config import TomlConfig

REFERENCES = ("conclusion", "unperturbed")
DEVICES = ("auto", "cpu", "cuda", "mps")
DTYPES = ("auto", "float32", "bfloat16", "float16")


class ReasonerConfig(TomlConfig):
    """What to train the Reasoner on and how. Every key can be set in the TOML file."""

    # ------------------------------------------------------------------ data
    preset: str = "aiwolf5"
    games: int = 500
    """Self-play games to generate (when `run` is empty)."""
    agent: str = "heuristic"
    """The rule-based agent type that plays the self-play games."""
    run: str = ""
    """Read stored games of this run (`lycan games`) instead of playing."""
    first_seed: int = 5_000_000
    turns: int = 3000
    """Speaking turns sampled from the games (train and held out together)."""
    held_out: float = 0.1
    """Share of games whose turns are kept out of training to measure before and after."""
    eval_turns: int = 0
    """Held-out turns answered (greedy) and measured before and after training (0: none)."""
    eval_before: bool = True
    """Measure the base model before training (off: after it only, e.g. runs from a known adapter)."""
    eval_samples: int = 0
    """Answers sampled (at `temperature`) per evaluated turn to measure the format of sampled answers, as
    GRPO sees them (0: greedy answers only)."""
    log_lines: int = 40
    """The Reasoner prompt's public log: the last this many lines (the lines only the seat saw are all kept)."""
    # ------------------------------------------------------------------ policy
    model: str = "local"
    """The checkpoint: `local` (Qwen2.5-Coder-0.5B), `local:1.5b`, `local:tiny` (SmolLM2-135M),
    a `.gguf` file (dequantized by transformers) or a Hugging Face checkpoint folder."""
    device: str = "auto"
    dtype: str = "auto"
    """`auto`: bfloat16 on a GPU, float32 on a CPU."""
    threads: int = 0
    """torch CPU threads (0: torch's choice)."""
    lora_rank: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.05
    lora_targets: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    # ------------------------------------------------------------------ format warm-up
    warmup_steps: int = 0
    """Supervised LoRA steps on belief-engine answers before GRPO (`lycan.causal.warmup`; 0: none)."""
    warmup_examples: int = 200
    """(prompt, answer) pairs built from the training games' speaking turns for the warm-up."""
    warmup_batch: int = 2
    warmup_learning_rate: float = 2e-4
    warmup_identifications: int = 1
    """Identifications in a taught answer (1 keeps answers near 80 tokens)."""
    init_adapter: str = ""
    """Start GRPO from this saved LoRA adapter folder (e.g. a run's `warmup-adapter/`) instead of a
    fresh one; the warm-up is then skipped."""
    # ------------------------------------------------------------------ GRPO
    grpo: bool = True
    """Run GRPO after the warm-up (off: the warm-up alone, measured and saved as the adapter)."""
    num_generations: int = 8
    """G: answers sampled per turn."""
    turns_per_step: int = 128
    """Turns per optimizer step (each with G answers)."""
    micro_batch: int = 16
    """Answers per forward/backward pass (turns_per_step * G must be a multiple)."""
    epsilon: float = 0.2
    beta: float = 0.04
    learning_rate: float = 1e-5
    max_steps: int = 0
    """Optimizer steps (0: one pass over the training turns)."""
    max_completion_length: int = 256
    temperature: float = 1.0
    gradient_checkpointing: bool = False
    seed: int = 0
    # ------------------------------------------------------------------ causal reward
    intervention: str = "beliefs"
    """The intervention model: `beliefs` (the belief engine's posterior) or a chat model spec."""
    reference: str = "conclusion"
    """A re-inferred role is compared with the Reasoner's conclusion (the seed) or with the
    intervention model's own answer on the untouched log (`unperturbed`)."""
    concurrency: int = 4
    """Intervention inferences run at once."""
    faithfulness: bool = True
    """The faithfulness reward (off: the seed's "w/o faithfulness reward")."""
    relevant: bool = True
    """The relevant-premise intervention (off: "w/o relevant intervention")."""
    irrelevant: bool = True
    """The irrelevant-premise intervention (off: "w/o irrelevant intervention")."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """Further GRPOConfig keyword arguments, passed as they are."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        checks = [
            (self.reference in REFERENCES, f"reference must be one of {', '.join(REFERENCES)}"),
            (self.device in DEVICES, f"device must be one of {', '.join(DEVICES)}"),
            (self.dtype in DTYPES, f"dtype must be one of {', '.join(DTYPES)}"),
            (self.num_generations >= 2, "num_generations must be at least 2 (GRPO compares answers to a turn)"),
            (self.turns_per_step >= 1 and self.micro_batch >= 1, "turns_per_step and micro_batch must be positive"),
            (
                (self.turns_per_step * self.num_generations) % self.micro_batch == 0,
                f"turns_per_step * num_generations ({self.turns_per_step * self.num_generations}) must be a "
                f"multiple of micro_batch ({self.micro_batch})",
            ),
            (0.0 <= self.held_out < 1.0, "held_out must be in [0, 1)"),
            (self.turns >= 1 and self.games >= 1, "games and turns must be positive"),
            (self.max_completion_length >= 8, "max_completion_length must be at least 8"),
            (self.warmup_steps >= 0 and self.warmup_examples >= 1, "warmup_steps >= 0, warmup_examples >= 1"),
            (self.warmup_batch >= 1 and self.warmup_identifications >= 1, "warmup_batch, warmup_identifications >= 1"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"bad reasoner config: {message}")
        return self

    @property
    def accumulation(self) -> int:
        """Micro-batches per optimizer step."""
        return self.turns_per_step * self.num_generations // self.micro_batch

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return self.model_dump(mode="json")


SMOKE = {
    "games": 3,
    "turns": 6,
    "held_out": 0.0,
    "model": "local:tiny",
    "device": "cpu",
    "threads": 1,
    "log_lines": 8,
    "num_generations": 2,
    "turns_per_step": 1,
    "micro_batch": 2,
    "max_steps": 2,
    "max_completion_length": 48,
    "learning_rate": 5e-5,
    "warmup_steps": 2,
    "warmup_examples": 4,
}
"""`lycan train reasoner --smoke`: a few real GRPO steps on the smallest model on a CPU."""


def shipped(name: str) -> Path:
    """The path of a config that ships with Lycan (`reasoner-cpu-tiny.toml`, ...)."""
    return Path(str(resources.files("lycan.causal") / name))


__all__ = ["SMOKE", "ReasonerConfig", "shipped"]
