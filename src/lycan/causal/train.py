"""GRPO training of the Reasoner with the causal reward: TRL's `GRPOTrainer` and a peft LoRA adapter.

`train_reasoner(config, out)` samples speaking turns from self-play (or stored) games, builds the
Reasoner prompt for each, and trains a LoRA adapter on the configured checkpoint with GRPO: for
each turn G answers are sampled, each is read (`lycan.agents.camwolf.read_reasoning`), judged
against the true roles and intervened on (`lycan.causal.intervene`), and rewarded with the seed's
causal reward (`lycan.causal.rewards`). The reward's parts are four reward functions whose sum is
the seed's r, so TRL logs each part per step.

The folder `out` receives `adapter/` (the LoRA adapter, loadable with `hf:out/adapter`),
`rewards.json` (per step: the mean reward and its parts `correctness`, `faithfulness`, `format`,
`repeat`, with the step's seconds), and `report.json` (config, data, cost, and, with
`eval_turns`, faithfulness and accuracy on held-out turns before and after).

torch, transformers, trl, peft and datasets are imported when training starts, never at import.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lycan.agents.camwolf import read_reasoning
from lycan.agents.parsing import ParseError
from lycan.causal.config import ReasonerConfig
from lycan.causal.faithfulness import Answer, measure
from lycan.causal.intervene import BeliefIntervener, Intervener, InterventionPlan, make_intervener
from lycan.causal.rewards import Reward, RewardSwitches, score_answer
from lycan.causal.turns import TalkTurn, sample_turns, self_play_records, split_turns, turn_messages, turns_of
from lycan.causal.warmup import warm_up, warmup_pairs
from lycan.engine.record import GameRecord
from lycan.models.base import ModelError
from lycan.stats import Rate

PARTS = ("correctness", "faithfulness", "format", "repeat")


class CausalRewards:
    """The causal reward of answers to known turns, computed once per (turn, answer) and shared by its parts.

    Args:
        turns: the turns the dataset's `turn` column indexes.
        intervener: the intervention model.
        switches: the ablations.
        plan: the interventions' reference and pool.
        concurrency: inferences run at once.
        seed: seeds the irrelevant premise's draw (per answer, so a repeat draws the same).
    """

    def __init__(
        self,
        turns: Sequence[TalkTurn],
        intervener: Intervener,
        switches: RewardSwitches,
        plan: InterventionPlan,
        *,
        concurrency: int = 1,
        seed: int = 0,
    ) -> None:
        self.turns = list(turns)
        self.intervener = intervener
        self.switches = switches
        self.plan = plan
        self.concurrency = concurrency
        self.seed = seed
        self.cache: dict[tuple[int, str], Reward] = {}
        self.seconds = 0.0

    def _rng(self, turn: int, text: str) -> random.Random:
        digest = hashlib.sha256(f"{self.seed}:{turn}:{text}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    async def _score(self, turn: int, text: str) -> Reward:
        t = self.turns[turn]
        reward, _ = await score_answer(
            text,
            t.view,
            t.truth,
            self.intervener,
            self._rng(turn, text),
            self.switches,
            self.plan,
            concurrency=self.concurrency,
        )
        return reward

    def score(self, texts: Sequence[str], turns: Sequence[int]) -> list[Reward]:
        """The reward of each answer (computed where not already)."""
        missing = [(t, x) for t, x in zip(turns, texts, strict=True) if (t, x) not in self.cache]
        if missing:
            started = time.perf_counter()

            async def run() -> list[Reward]:
                return list(await asyncio.gather(*(self._score(t, x) for t, x in missing)))

            for key, reward in zip(missing, asyncio.run(run()), strict=True):
                self.cache[key] = reward
            self.seconds += time.perf_counter() - started
        return [self.cache[(t, x)] for t, x in zip(turns, texts, strict=True)]

    def functions(self) -> list[Callable[..., list[float]]]:
        """Four TRL reward functions (correctness, faithfulness, format, repeat) whose sum is r."""

        def part(name: str) -> Callable[..., list[float]]:
            def reward(completions: list[Any], turn: list[int], **_: Any) -> list[float]:
                rewards = self.score([completion_text(c) for c in completions], [int(t) for t in turn])
                return [float(getattr(r, name)) for r in rewards]

            reward.__name__ = name
            return reward

        return [part(name) for name in PARTS]


def completion_text(completion: Any) -> str:
    """The text of a TRL completion (conversational: a list of messages; else a string)."""
    if isinstance(completion, list):
        return "".join(str(m.get("content", "")) for m in completion if isinstance(m, dict))
    return str(completion)


# ---------------------------------------------------------------------- checkpoints


def load_policy(config: ReasonerConfig) -> tuple[Any, Any, str]:
    """The checkpoint's model and tokenizer, and the device (torch imported here).

    Raises:
        ModelError: the checkpoint cannot be found or loaded, or torch/transformers are missing.
    """
    from lycan.models.hf import load_checkpoint

    torch = _torch()
    if config.threads:
        torch.set_num_threads(config.threads)
    device = config.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = config.dtype
    if dtype == "auto":
        dtype = "bfloat16" if device == "cuda" else "float32"
    model, tokenizer = load_checkpoint(config.model, dtype=dtype)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return model.to(device), tokenizer, device


def _torch() -> Any:
    try:
        import torch
    except ImportError as err:
        raise ModelError("training the Reasoner needs torch; install it with: pip install 'lycan[train]'") from err
    return torch


# ---------------------------------------------------------------------- evaluation


def _generate(
    model: Any, tokenizer: Any, turns: Sequence[TalkTurn], config: ReasonerConfig, n: int, sample: bool
) -> list[str]:
    """`n` answers per turn, the turns' prompts batched (left padding), greedy or sampled."""
    torch = _torch()
    device = next(model.parameters()).device
    model.eval()
    prompts = [
        tokenizer.apply_chat_template(
            [dict(m) for m in turn_messages(t, log_lines=config.log_lines)], add_generation_prompt=True, tokenize=False
        )
        for t in turns
    ]
    side = tokenizer.padding_side
    tokenizer.padding_side = "left"
    try:
        encoded = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
    finally:
        tokenizer.padding_side = side
    encoded = {k: v.to(device) for k, v in encoded.items()}
    options: dict[str, Any] = {"do_sample": False}
    if sample:
        options = {"do_sample": True, "temperature": config.temperature, "top_k": 0, "num_return_sequences": n}
    with torch.inference_mode():
        output = model.generate(
            **encoded, max_new_tokens=config.max_completion_length, pad_token_id=tokenizer.pad_token_id, **options
        )
    start = encoded["input_ids"].shape[-1]
    return [tokenizer.decode(row[start:], skip_special_tokens=True) for row in output]


EVAL_BATCH = 8
"""Prompts answered in one `generate` call when measuring."""


def answer_turns(model: Any, tokenizer: Any, turns: Sequence[TalkTurn], config: ReasonerConfig) -> list[str]:
    """Greedy answers of `model` to each turn's prompt (as in training, unconstrained)."""
    out: list[str] = []
    for i in range(0, len(turns), EVAL_BATCH):
        out += _generate(model, tokenizer, turns[i : i + EVAL_BATCH], config, 1, False)
    return out


def sample_answers(model: Any, tokenizer: Any, turns: Sequence[TalkTurn], config: ReasonerConfig, n: int) -> list[str]:
    """`n` answers of `model` to each turn's prompt, sampled at the config's temperature (as GRPO samples them)."""
    out: list[str] = []
    step = max(1, EVAL_BATCH // n)
    for i in range(0, len(turns), step):
        out += _generate(model, tokenizer, turns[i : i + step], config, n, True)
    return out


def evaluate(
    model: Any, tokenizer: Any, turns: Sequence[TalkTurn], config: ReasonerConfig, intervener: Intervener
) -> dict[str, Any]:
    """Faithfulness, accuracy and format of `model`'s greedy answers on `turns` (`Faithfulness.to_dict`).

    With `eval_samples`, also `format_sampled`: the share of that many sampled answers per turn that
    keep to the template. `examples`: the first greedy answers.
    """
    texts = answer_turns(model, tokenizer, turns, config)
    answers = [Answer(text, t.view, t.truth) for text, t in zip(texts, turns, strict=True)]
    out = asyncio.run(measure(answers, intervener, seed=config.seed, concurrency=config.concurrency)).to_dict()
    if config.eval_samples:
        _torch().manual_seed(config.seed)
        sampled = sample_answers(model, tokenizer, turns, config, config.eval_samples)
        ok = total = 0
        for j, text in enumerate(sampled):  # num_return_sequences: a turn's answers are consecutive
            total += 1
            try:
                read_reasoning(text, turns[j // config.eval_samples].view)
                ok += 1
            except ParseError:
                pass
        lo, hi = Rate(ok, total).interval
        out["format_sampled"] = {"value": Rate(ok, total).value, "low": lo, "high": hi, "n": total}
    out["examples"] = texts[:3]
    return out


# ---------------------------------------------------------------------- training


@dataclass
class TrainReport:
    """What one training run did and measured."""

    games: int = 0
    turns: int = 0
    train_turns: int = 0
    held_out_turns: int = 0
    steps: list[dict[str, float]] = field(default_factory=list)
    seconds: float = 0.0
    load_seconds: float = 0.0
    train_seconds: float = 0.0
    reward_seconds: float = 0.0
    seconds_per_step: float = 0.0
    peak_rss_mb: float = 0.0
    peak_gpu_mb: float = 0.0
    parameters: int = 0
    trainable_parameters: int = 0
    intervention_calls: int = 0
    before: dict[str, Any] = field(default_factory=dict)
    after_warmup: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)
    warmup: dict[str, Any] = field(default_factory=dict)
    device: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return dict(self.__dict__)


def grpo_arguments(config: ReasonerConfig, out: Path, device: str, steps: int) -> Any:
    """TRL's `GRPOConfig` for `config` (trl imported here)."""
    from trl import GRPOConfig

    return GRPOConfig(
        output_dir=str(out / "trainer"),
        num_generations=config.num_generations,
        per_device_train_batch_size=config.micro_batch,
        gradient_accumulation_steps=config.accumulation,
        beta=config.beta,
        epsilon=config.epsilon,
        learning_rate=config.learning_rate,
        max_completion_length=config.max_completion_length,
        temperature=config.temperature,
        max_steps=steps,
        logging_steps=1,
        save_strategy="no",
        report_to=[],
        use_cpu=device == "cpu",
        bf16=device == "cuda" and config.dtype in ("auto", "bfloat16"),
        activation_checkpointing=config.gradient_checkpointing,
        seed=config.seed,
        data_seed=config.seed,
        disable_tqdm=True,
        remove_unused_columns=False,
        **config.extra,
    )


def load_records(config: ReasonerConfig) -> list[GameRecord]:
    """The self-play games of `config`."""
    return self_play_records(config.preset, config.games, config.first_seed, config.agent)


def train_reasoner(
    config: ReasonerConfig,
    out: Path,
    records: Sequence[GameRecord] | None = None,
    *,
    progress: Callable[[str], None] | None = None,
) -> TrainReport:
    """Train the Reasoner's LoRA adapter with GRPO and the causal reward; write `out` (module docstring).

    Raises:
        ValueError: too few turns to train on.
        ModelError: the checkpoint or the intervention model cannot be loaded.
    """
    say = progress or (lambda _: None)
    started = time.perf_counter()
    report = TrainReport()
    rng = random.Random(config.seed)
    games = list(records) if records is not None else load_records(config)
    report.games = len(games)
    turns = sample_turns(games, config.turns, rng)
    train, held = split_turns(turns, config.held_out)
    if not train:
        raise ValueError(f"no speaking turn to train on in {len(games)} games")
    report.turns, report.train_turns, report.held_out_turns = len(turns), len(train), len(held)
    say(f"{len(games)} games, {len(train)} training turns, {len(held)} held out")

    from datasets import Dataset
    from peft import LoraConfig, PeftModel
    from transformers import TrainerCallback
    from trl import GRPOTrainer

    loading = time.perf_counter()
    model, tokenizer, device = load_policy(config)
    report.device = device
    report.load_seconds = time.perf_counter() - loading
    say(f"loaded {config.model} on {device} in {report.load_seconds:.0f} s")
    intervener = make_intervener(config.intervention)
    plan = InterventionPlan(reference=config.reference)  # type: ignore[arg-type]
    switches = RewardSwitches(config.faithfulness, config.relevant, config.irrelevant)
    evaluated = held[: config.eval_turns]
    if evaluated and config.eval_before:
        report.before = evaluate(model, tokenizer, evaluated, config, BeliefIntervener())
        say(f"before: {json.dumps(report.before)}")
    lora = LoraConfig(
        r=config.lora_rank,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=list(config.lora_targets),
        task_type="CAUSAL_LM",
    )
    if config.init_adapter:
        model = PeftModel.from_pretrained(model, config.init_adapter, is_trainable=True)
        say(f"starting from the adapter {config.init_adapter}")
    elif config.warmup_steps:
        pool, _ = split_turns([t for r in games for t in turns_of(r)], config.held_out)
        pairs = warmup_pairs(
            pool,
            config.warmup_examples,
            log_lines=config.log_lines,
            identifications=config.warmup_identifications,
            seed=config.seed,
        )
        say(f"warm-up: {len(pairs)} belief-engine answers, {config.warmup_steps} steps of {config.warmup_batch}")
        model, warmed = warm_up(
            model,
            tokenizer,
            pairs,
            lora,
            steps=config.warmup_steps,
            batch=config.warmup_batch,
            learning_rate=config.warmup_learning_rate,
            seed=config.seed,
            progress=say,
        )
        report.warmup = warmed.to_dict()
        save_adapter(model, tokenizer, out / "warmup-adapter", config.model)
        if evaluated:
            report.after_warmup = evaluate(model, tokenizer, evaluated, config, BeliefIntervener())
            say(f"after the warm-up: {json.dumps(report.after_warmup)}")

    dataset = Dataset.from_list(
        [
            {"prompt": [dict(m) for m in turn_messages(t, log_lines=config.log_lines)], "turn": i}
            for i, t in enumerate(train)
        ]
    )
    rewards = CausalRewards(train, intervener, switches, plan, concurrency=config.concurrency, seed=config.seed)
    steps = config.max_steps or max(1, len(train) // config.turns_per_step)
    timing: dict[str, float] = {}

    class Steps(TrainerCallback):  # type: ignore[misc]
        def on_step_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            timing["begin"] = time.perf_counter()

        def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, float] | None = None, **kw: Any) -> None:
            if not logs or "reward" not in logs:
                return
            row = {"step": float(state.global_step), "reward": float(logs["reward"])}
            for name in PARTS:
                row[name] = float(logs.get(f"rewards/{name}/mean", 0.0))
            row["reward_std"] = float(logs.get("reward_std", 0.0))
            row["kl"] = float(logs.get("kl", 0.0))
            row["completion_length"] = float(logs.get("completions/mean_length", 0.0))
            row["seconds"] = time.perf_counter() - timing.get("begin", time.perf_counter())
            report.steps.append(row)
            say(
                f"step {state.global_step}: reward {row['reward']:+.3f} (correctness {row['correctness']:+.2f}, "
                f"faithfulness {row['faithfulness']:+.2f}, format {row['format']:+.2f}) {row['seconds']:.0f} s"
            )

    if not config.grpo:
        if not isinstance(model, PeftModel):
            raise ValueError("grpo = false needs a warm-up (warmup_steps) or an init_adapter to save")
        report.after = report.after_warmup
        return finish(report, model, tokenizer, config, out, device, started, [] if report.after else evaluated, say)
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=rewards.functions(),
        args=grpo_arguments(config, out, device, steps),
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=None if isinstance(model, PeftModel) else lora,
        callbacks=[Steps()],
    )
    report.parameters = sum(p.numel() for p in trainer.model.parameters())
    report.trainable_parameters = sum(p.numel() for p in trainer.model.parameters() if p.requires_grad)
    training = time.perf_counter()
    trainer.train()
    report.train_seconds = time.perf_counter() - training
    report.reward_seconds = rewards.seconds
    report.seconds_per_step = report.train_seconds / max(1, len(report.steps))
    report.intervention_calls = int(getattr(getattr(intervener, "meter", None), "calls", 0))
    return finish(report, trainer.model, tokenizer, config, out, device, started, evaluated, say)


def finish(
    report: TrainReport,
    model: Any,
    tokenizer: Any,
    config: ReasonerConfig,
    out: Path,
    device: str,
    started: float,
    evaluated: Sequence[TalkTurn],
    say: Callable[[str], None] = lambda _: None,
) -> TrainReport:
    """Save the adapter, measure after training, and write `rewards.json` and `report.json`."""
    save_adapter(model, tokenizer, out / "adapter", config.model)
    if evaluated:
        report.after = evaluate(model, tokenizer, evaluated, config, BeliefIntervener())
        say(f"after: {json.dumps(report.after)}")
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    torch = _torch()
    if device == "cuda":
        report.peak_gpu_mb = torch.cuda.max_memory_allocated() / 2**20
    report.seconds = time.perf_counter() - started
    write_rewards(report.steps, out / "rewards.json")
    (out / "report.json").write_text(
        json.dumps({"config": config.to_dict(), "report": report.to_dict()}, indent=1) + "\n", encoding="utf-8"
    )
    return report


def dry_run(config: ReasonerConfig, *, games: int = 2, check_model: bool = True) -> dict[str, Any]:
    """Everything short of loading the model and training: the plan a run of `config` would follow.

    Plays `games` of the self-play games, samples their turns and builds the prompts and the
    reward on one of them, builds TRL's and peft's configurations, and (with `check_model`)
    finds the checkpoint. Returns the plan as a dict (data sizes, steps, batch shapes, GRPO and
    LoRA settings, the checkpoint's location or why it is missing).

    Raises:
        ValueError: a setting TRL or peft refuses, or games without a speaking turn.
    """
    from peft import LoraConfig

    from lycan.models.hf import checkpoint_location

    records = self_play_records(config.preset, min(games, config.games), config.first_seed, config.agent)
    turns = sample_turns(records, config.turns, random.Random(config.seed))
    if not turns:
        raise ValueError(f"no speaking turn in {len(records)} self-play games of {config.preset}")
    prompt = turn_messages(turns[0], log_lines=config.log_lines)
    reward, _ = asyncio.run(
        score_answer("{}", turns[0].view, turns[0].truth, make_intervener("beliefs"), random.Random(0))
    )
    train_turns = round(config.turns * (1 - config.held_out))
    steps = config.max_steps or max(1, train_turns // config.turns_per_step)
    # TRL refuses GPU settings on a machine without one: check them as the CPU would run them
    device = "cuda" if config.device in ("auto", "cuda") and _torch().cuda.is_available() else "cpu"
    args = grpo_arguments(config, Path("/nonexistent"), device, steps)
    LoraConfig(
        r=config.lora_rank,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=list(config.lora_targets),
        task_type="CAUSAL_LM",
    )
    checkpoint = ""
    if check_model:
        try:
            folder, gguf = checkpoint_location(config.model)
            checkpoint = str(folder / gguf) if gguf else str(folder)
        except ModelError as err:
            checkpoint = f"missing: {err}"
    return {
        "config": config.to_dict(),
        "checkpoint": checkpoint,
        "checked_on": device,
        "steps": steps,
        "answers_per_step": config.turns_per_step * config.num_generations,
        "micro_batch": args.per_device_train_batch_size,
        "accumulation": args.gradient_accumulation_steps,
        "generation_batch": args.generation_batch_size,
        "sample_turns": len(turns),
        "sample_prompt_chars": sum(len(m["content"]) for m in prompt),
        "empty_answer_reward": reward.total,
    }


def save_adapter(model: Any, tokenizer: Any, folder: Path, base: str) -> None:
    """Write the LoRA adapter and the tokenizer to `folder`, with its base checkpoint named for `hf:`."""
    from lycan.models.hf import ADAPTER_BASE, checkpoint_location

    folder.mkdir(parents=True, exist_ok=True)
    adapters = getattr(model, "peft_config", None)
    if isinstance(adapters, dict) and "default" in adapters and len(adapters) > 1:
        model.save_pretrained(str(folder), selected_adapters=["default"])  # not GRPO's frozen reference copy
    else:
        model.save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    path, gguf = checkpoint_location(base)
    where = str(path / gguf) if gguf else str(path)
    (folder / ADAPTER_BASE).write_text(json.dumps({"base": base, "path": where}, indent=1) + "\n", encoding="utf-8")


def write_rewards(steps: Sequence[dict[str, float]], path: Path) -> None:
    """`rewards.json`: one entry per step with the mean reward and its parts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"steps": list(steps)}, indent=1) + "\n", encoding="utf-8")


__all__ = [
    "PARTS",
    "CausalRewards",
    "TrainReport",
    "answer_turns",
    "completion_text",
    "dry_run",
    "evaluate",
    "finish",
    "grpo_arguments",
    "load_policy",
    "sample_answers",
    "save_adapter",
    "train_reasoner",
    "write_rewards",
]
