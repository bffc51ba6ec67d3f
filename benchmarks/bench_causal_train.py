"""GRPO training cost on a CPU and the reward per step: the smallest embedded model (SmolLM2-135M).

    python benchmarks/bench_causal_train.py --steps 3 --generations 4 --threads 2 --out /tmp/bench-reasoner

Trains the Reasoner's LoRA adapter with the causal reward (`lycan.causal.train`) for a few steps and
prints seconds per step, peak memory, the reward parts per step, and, with --eval, format,
accuracy and faithfulness of greedy answers on held-out turns before and after.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from lycan.causal.config import ReasonerConfig, shipped
from lycan.causal.train import train_reasoner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", default=str(shipped("reasoner-cpu-tiny.toml")))
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--completion", type=int, default=64)
    parser.add_argument("--eval", type=int, default=0, help="held-out turns measured before and after")
    parser.add_argument(
        "--ablation", choices=["full", "no-faithfulness", "no-relevant", "no-irrelevant"], default="full"
    )
    parser.add_argument("--out", type=Path, default=Path("/tmp/bench-reasoner"))
    args = parser.parse_args()
    switches = {
        "full": {},
        "no-faithfulness": {"faithfulness": False},
        "no-relevant": {"relevant": False},
        "no-irrelevant": {"irrelevant": False},
    }[args.ablation]
    config = ReasonerConfig.load(
        Path(args.config),
        max_steps=args.steps,
        num_generations=args.generations,
        micro_batch=args.generations,
        threads=args.threads,
        max_completion_length=args.completion,
        eval_turns=args.eval,
        **switches,
    )
    report = train_reasoner(config, args.out, progress=print)
    load = os.getloadavg()
    summary = {
        "ablation": args.ablation,
        "steps": len(report.steps),
        "generations": config.num_generations,
        "completion_tokens": config.max_completion_length,
        "threads": config.threads,
        "load_seconds": round(report.load_seconds, 1),
        "seconds_per_step": round(report.seconds_per_step, 1),
        "reward_seconds": round(report.reward_seconds, 3),
        "intervention_calls": report.intervention_calls,
        "peak_rss_mb": round(report.peak_rss_mb),
        "trainable_parameters": report.trainable_parameters,
        "parameters": report.parameters,
        "rewards": [{k: round(v, 3) for k, v in s.items()} for s in report.steps],
        "before": report.before,
        "after": report.after,
        "load_average": [round(x, 1) for x in load],
    }
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
