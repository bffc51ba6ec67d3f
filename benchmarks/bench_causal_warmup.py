"""The Reasoner on a CPU: base model, after the format warm-up, after warm-up + GRPO (and the seed's ablations).

    python benchmarks/bench_causal_warmup.py --warmup-steps 40 --steps 2 --eval 12 --samples 2 \\
        --ablations no-faithfulness --out /tmp/bench-warmup

One run of `lycan train reasoner` with the CPU config (`reasoner-cpu-tiny.toml`: SmolLM2-135M,
aiwolf5 heuristic self-play, 25% of games held out) measures on the same held-out turns (a) the
base model, (b) the model after the supervised format warm-up (`lycan.causal.warmup`), and (c)
after GRPO with the full causal reward continued from the warm-up adapter. Each ablation then runs
GRPO again from the same warm-up adapter with one switch off and is measured on the same turns.
Measures: format (greedy answers, and `--samples` sampled answers per turn at temperature 1, as
GRPO sees them), role-identification accuracy, and the two faithfulness shares (belief-engine
interventions), each with its Wilson 95% interval and N. Prints and writes one JSON summary.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from lycan.agents import camwolf
from lycan.causal.config import ReasonerConfig, shipped
from lycan.causal.train import train_reasoner

ABLATIONS = {
    "full": {},
    "no-faithfulness": {"faithfulness": False},
    "no-relevant": {"relevant": False},
    "no-irrelevant": {"irrelevant": False},
}
KEYS = ("format", "format_sampled", "accuracy", "premises_change_conclusion", "uncited_change_conclusion")


def rates(measured: dict[str, Any]) -> dict[str, Any]:
    """The measures of one evaluation, rounded (value, interval, N)."""
    out = {}
    for key in KEYS:
        if key in measured:
            r = measured[key]
            out[key] = {
                "value": round(r["value"], 3),
                "low": round(r["low"], 3),
                "high": round(r["high"], 3),
                "n": r["n"],
            }
    out["examples"] = measured.get("examples", [])[:2]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default=str(shipped("reasoner-cpu-tiny.toml")))
    parser.add_argument("--warmup-steps", type=int, default=100)
    parser.add_argument("--warmup-examples", type=int, default=200)
    parser.add_argument("--steps", type=int, default=12, help="GRPO steps")
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--micro-batch", type=int, default=0, help="answers per pass (0: all G of a step at once)")
    parser.add_argument("--turns-per-step", type=int, default=0, help="prompts per GRPO step (0: the config's)")
    parser.add_argument("--learning-rate", type=float, default=0.0, help="GRPO learning rate (0: the config's)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: best on a shared machine)")
    parser.add_argument("--eval", type=int, default=24, help="held-out turns measured")
    parser.add_argument("--samples", type=int, default=4, help="sampled answers per measured turn (format)")
    parser.add_argument("--ablations", nargs="*", choices=sorted(set(ABLATIONS) - {"full"}), default=[])
    parser.add_argument("--out", type=Path, default=Path("/tmp/bench-warmup"))
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep the full run already in --out (its summary.json and warm-up adapter); run only the ablations",
    )
    args = parser.parse_args()
    base: dict[str, Any] = {
        "num_generations": args.generations,
        "micro_batch": args.micro_batch or args.generations,
        "threads": args.threads,
        "eval_turns": args.eval,
        "eval_samples": args.samples,
        "max_steps": args.steps,
    }
    if args.learning_rate:
        base["learning_rate"] = args.learning_rate
    if args.turns_per_step:
        base["turns_per_step"] = args.turns_per_step
    started = time.perf_counter()
    layout = getattr(camwolf, "PROMPT_LAYOUT", 1)  # 1: before the layout had a number
    if args.reuse:
        summary: dict[str, Any] = json.loads((args.out / "summary.json").read_text(encoding="utf-8"))
        kept = {k: v for k, v in summary["config"].items() if k in base}
        if kept != {k: v for k, v in base.items() if k in kept}:
            parser.error(f"--reuse: the full run in {args.out} used other settings: {kept}")
        if summary.get("prompt_layout", 1) != layout:
            parser.error(
                f"--reuse: the full run in {args.out} used Reasoner prompt layout {summary.get('prompt_layout', 1)}"
            )
    else:
        config = ReasonerConfig.load(
            Path(args.config), warmup_steps=args.warmup_steps, warmup_examples=args.warmup_examples, **base
        )
        report = train_reasoner(config, args.out / "full", progress=print)
        summary = {
            "config": {k: v for k, v in config.to_dict().items() if k != "extra"},
            "data": {"games": report.games, "train_turns": report.train_turns, "held_out_turns": report.held_out_turns},
            "warmup": {k: v for k, v in report.warmup.items() if k != "losses"}
            | {"loss_first": report.warmup["losses"][0], "loss_last10": sum(report.warmup["losses"][-10:]) / 10},
            "base": rates(report.before),
            "warmup_only": rates(report.after_warmup),
            "grpo": {"full": rates(report.after)},
            "rewards": {"full": [{k: round(v, 3) for k, v in s.items()} for s in report.steps]},
            "seconds_per_step": {"full": round(report.seconds_per_step, 1)},
            "peak_rss_mb": round(report.peak_rss_mb),
            "prompt_layout": layout,
        }
    for name in args.ablations:
        ablated = ReasonerConfig.load(
            Path(args.config),
            init_adapter=str(args.out / "full" / "warmup-adapter"),
            eval_before=False,
            **base,
            **ABLATIONS[name],
        )
        run = train_reasoner(ablated, args.out / name, progress=print)
        summary["grpo"][name] = rates(run.after)
        summary["rewards"][name] = [{k: round(v, 3) for k, v in s.items()} for s in run.steps]
        summary["seconds_per_step"][name] = round(run.seconds_per_step, 1)
    summary["seconds"] = round(time.perf_counter() - started) + (summary.get("seconds", 0) if args.reuse else 0)
    summary["load_average"] = [round(x, 1) for x in os.getloadavg()]
    text = json.dumps(summary, indent=1)
    print(text)
    (args.out / "summary.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
