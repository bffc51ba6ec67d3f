"""The training command groups: beliefs fit, dataset build/stats, train value/reasoner/merge, causal faithfulness."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from lycan.cli.common import (
    DbOpt,
    PresetOpt,
    SeedOpt,
    clear_errors,
    console,
    fail,
    open_store,
    progress_bar,
    run_records,
)
from lycan.engine import GameRecord
from lycan.rules import Role

beliefs_app = typer.Typer(no_args_is_help=True, help="Role beliefs: fit behaviour models from stored games.")


@beliefs_app.command("fit")
def beliefs_fit(
    run: Annotated[str, typer.Option(help="run whose stored games to fit on")],
    preset: PresetOpt = "guardian7",
    out: Annotated[Path | None, typer.Option(help="where to write the model (JSON); default: print a summary")] = None,
    db: DbOpt = None,
    agent: Annotated[
        list[str] | None,
        typer.Option(help="fit on the seats of this agent type only (repeatable; default: every seat)"),
    ] = None,
) -> None:
    """Fit the likelihoods of claims, announced results, votes and accusations by maximum likelihood.

    The games of PRESET stored under RUN are counted against their true roles; a temperature is
    then chosen on a quarter of them held out, for calibrated role probabilities. With --agent,
    only the acts of seats played by those agent types are counted and calibrated on (a model of
    how one type of player behaves, from games it played against anyone). Games imported with
    `lycan import` or `lycan aiwolf-log import` are stored games like any other.
    """
    from lycan.beliefs.fit import fit

    with clear_errors(), open_store(db) as store:
        records = [r for r in run_records(store, run) if r.rules.name == preset]
        if not records:
            fail(f"run {run!r} has no {preset} games; see `lycan games --run {run}`")
        try:
            model = fit(records, preset, source=f"run {run}", kinds=set(agent) if agent else None)
        except ValueError as err:
            fail(str(err))
    (said1, tau1), (said2, tau2) = model.taus_for(1), model.taus_for(2)
    console.print(
        f"fitted on {model.games} {preset} games: temperatures (claims and results, choices)"
        f" {said1}, {tau1} on day 1; {said2}, {tau2} later"
    )
    for key, p in sorted(model.claim.items()):
        if key.endswith("/0") and "/1/" in key:
            shown = ", ".join(f"{r}: {p[i]:.2f}" for i, r in enumerate(Role) if r in records[0].rules.roles)
            console.print(f"  P(claims {key.split('/')[0]} on day 1 | role): {shown}")
    if out is not None:
        model.save(out)
        console.print(f"model written to {out}")


@beliefs_app.command("reader-fit")
def beliefs_reader_fit(
    files: Annotated[list[Path], typer.Argument(help="labelled talk (JSONL, `lycan.beliefs.extract.Labelled` lines)")],
    out: Annotated[Path, typer.Option(help="where to write the opinion and result weights (.npz)")],
    claims_out: Annotated[
        Path | None, typer.Option(help="where to write the claim weights (.npz; default: claims.npz beside --out)")
    ] = None,
    encoder_out: Annotated[
        Path | None,
        typer.Option(
            help="also tune the sentence-encoder reader (`LYCAN_TALK_MODEL=encoder`) and write it to this folder"
        ),
    ] = None,
    epochs: Annotated[int, typer.Option(min=1, help="the encoder reader's epochs")] = 6,
    device: Annotated[str, typer.Option(help="where to tune the encoder reader (cpu, cuda)")] = "cpu",
    grammar_games: Annotated[
        int,
        typer.Option(
            min=0, help="games whose planned turns the speech grammar words for the encoder reader's lines (0: none)"
        ),
    ] = 100,
    encoder_threshold: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="the P at or above which the encoder reader adds an opinion")
    ] = 0.8,
) -> None:
    """Train the learned readers behind the talk reader's rules (`lycan.beliefs.opinions`) on labelled lines.

    Two models: opinions, results and protections about named seats (`--out`), and role claims
    (`--claims-out`); with `--encoder-out`, all-MiniLM-L6-v2 tuned to read the same as the first
    (`lycan.beliefs.encoder`, the `train` extra; about a minute an epoch on two CPU cores). Give
    the labelled sets' parts meant for building on (the shipped hashed weights come from
    `tests/data/talk/dev*.jsonl`, the shipped encoder from those and the held-out sets measured at
    earlier rounds); keep the held-out sets that measure the reader out. The encoder also learns
    the agents' own talk: the speech grammar's wordings of the turns planned in `--grammar-games`
    games, labelled by what their acts state (`lycan.train.grammar`), so that it reads a
    conversational move ("Ken we can talk it through.") as the nothing it states.
    """
    from lycan.beliefs.extract import load_labelled
    from lycan.beliefs.opinions import KINDS
    from lycan.train.opinions import claim_examples, examples, train, train_claims

    claims_path = claims_out or out.with_name("claims.npz")
    with clear_errors():
        try:
            rows = [row for path in files for row in load_labelled(path)]
            model = train(rows)
            claims = train_claims(rows)
        except (OSError, ValueError, KeyError, RuntimeError) as err:
            fail(str(err))
        model.save(out)
        claims.save(claims_path)
    seats = examples(rows)
    counts = ", ".join(f"{k} {sum(gold[k] for _, gold in seats)}" for k in KINDS)
    roles = claim_examples(rows)
    console.print(f"trained on {len(rows)} lines, {len(seats)} named seats ({counts}); weights written to {out}")
    console.print(
        f"claims: {len(roles)} roles named, {sum(gold['claim'] for _, gold in roles)} claimed; "
        f"weights written to {claims_path}"
    )
    if encoder_out is not None:
        from lycan.train.grammar import grammar_lines
        from lycan.train.opinions import train_encoder

        own = grammar_lines(grammar_games)
        console.print(f"the speech grammar's own lines: {len(own)} from {grammar_games} games")
        with clear_errors():
            try:
                train_encoder(
                    rows,
                    encoder_out,
                    own=own,
                    epochs=epochs,
                    device=device,
                    threshold=encoder_threshold,
                    log=console.print,
                )
            except (OSError, ValueError, RuntimeError) as err:
                fail(str(err))
        console.print(f"encoder reader written to {encoder_out}")


dataset_app = typer.Typer(no_args_is_help=True, help="Training datasets: viewpoint samples from stored games.")


@dataset_app.command("build")
def dataset_build(
    out: Annotated[Path, typer.Option(help="folder to save the dataset in (Arrow, with a README.md card)")],
    run: Annotated[list[str] | None, typer.Option(help="run whose stored games to use (repeatable)")] = None,
    all_runs: Annotated[bool, typer.Option("--all", help="use every stored game")] = False,
    preset: Annotated[str | None, typer.Option("--preset", "-p", help="only games of this rule set")] = None,
    permutations: Annotated[
        int, typer.Option(min=0, help="seat relabellings per decision, the original included (0: all (n-1)!)")
    ] = 1,
    seed: SeedOpt = 0,
    db: DbOpt = None,
) -> None:
    """Build a dataset of one sample per (game, seat, decision) from stored games.

    Each sample holds the seat's own view, the request, the answer it gave, its role and whether
    its side won; games are split into train/validation/test by a hash of their id.
    """
    if not run and not all_runs:
        fail("say which games: --run NAME (repeatable) or --all")
    if run and all_runs:
        fail("give either --run or --all, not both")
    try:
        from lycan.data.build import build_dataset, write_dataset
    except ImportError as err:
        fail(f"building datasets needs the train extra ({err.name} is missing): pip install 'lycan[train]'")

    with clear_errors(), open_store(db) as store:
        runs: list[str | None] = [None] if all_runs else list(run or [])
        for name in runs:
            if name is not None and store.count(run=name) == 0:
                fail(f"no games stored under run {name!r}; see `lycan games` for what is stored")
        total = sum(store.count(run=name) for name in runs)

        def records() -> Iterator[GameRecord]:
            for name in runs:
                for record in store.iter_records(run=name):
                    if preset is None or record.rules.name == preset:
                        yield record

        with progress_bar() as progress:
            task = progress.add_task("games", total=total)
            dataset, summary = build_dataset(
                records(),
                permutations=permutations,
                seed=seed,
                sources=["all runs"] if all_runs else [str(name) for name in runs],
                on_record=lambda _: progress.advance(task),
            )
        if summary.total_rows == 0:
            fail("the chosen games gave no samples" + (f" (is {preset!r} the right preset?)" if preset else ""))
        write_dataset(dataset, summary, out)
    games = sum(summary.games.values())
    console.print(
        f"{summary.total_rows} samples from {games} games in {summary.seconds:.1f} s "
        f"({summary.total_rows / max(summary.seconds, 1e-9):.0f} samples/s) written to {out}"
    )
    for split, n in summary.rows.items():
        console.print(f"  {split}: {n} samples, {summary.games[split]} games")
    for reason, n in sorted(summary.skipped.items()):
        console.print(f"  skipped {n} games: {reason}")


@dataset_app.command("stats")
def dataset_stats_cmd(
    path: Annotated[Path, typer.Argument(help="a folder written by `lycan dataset build`")],
) -> None:
    """Print sizes per split, samples per role and per action, and the win balance per role."""
    try:
        from lycan.data.build import dataset_stats, load_dataset_dir
    except ImportError as err:
        fail(f"reading datasets needs the train extra ({err.name} is missing): pip install 'lycan[train]'")

    with clear_errors():
        stats = dataset_stats(load_dataset_dir(path))
    total = sum(stats.rows.values())
    splits = Table("split", "samples", "games", title=f"{path}: {total} samples")
    for split, n in stats.rows.items():
        splits.add_row(split, str(n), str(stats.games[split]))
    console.print(splits)
    roles = Table("role", "samples", "share", title="samples per role")
    for role, n in stats.roles.most_common():
        roles.add_row(role, str(n), f"{n / total:.1%}")
    console.print(roles)
    actions = Table("request / action", "samples", "share", title="samples per action")
    for kind, n in stats.actions.most_common():
        actions.add_row(kind, str(n), f"{n / total:.1%}")
    console.print(actions)
    wins = Table("role", "won [95% CI] (N = game-seats)", title="win balance per role")
    for role, rate in stats.wins.items():
        wins.add_row(role, str(rate))
    console.print(wins)


train_app = typer.Typer(
    no_args_is_help=True, help="Train networks: the Deep Wolf value network, the CaM-Wolf Reasoner (GRPO)."
)


@train_app.command("value")
def train_value_cmd(
    config: Annotated[Path, typer.Argument(help="TOML file of lycan.train.pipeline.PipelineConfig keys", exists=True)],
    out: Annotated[Path, typer.Option(help="folder for the network, its ONNX export, candidates and report")],
    db: DbOpt = None,
) -> None:
    """Train the Deep Wolf value network from self-play (or a stored run) and export it for play."""
    from lycan.train.pipeline import PipelineConfig, train_pipeline

    with clear_errors():
        try:
            cfg = PipelineConfig.load(config)
        except ValueError as err:
            fail(str(err))
        records = None
        if cfg.run:
            with open_store(db) as store:
                records = [r for r in run_records(store, cfg.run) if r.rules.name == cfg.preset]
        try:
            report = train_pipeline(cfg, out, records)
        except ValueError as err:
            fail(str(err))
    console.print(
        f"{report.games} games, {report.train_samples:,} training samples ({report.samples_per_s:,.0f}/s), "
        f"{report.held_out_samples:,} held out; held-out log-loss {report.log_loss:.4f} "
        f"(baseline {report.baseline_log_loss:.4f}), Brier {report.brier:.4f} (baseline {report.baseline_brier:.4f}); "
        f"{report.seconds:.0f} s; written to {out}"
    )


@train_app.command("calibrate")
def train_calibrate_cmd(
    network: Annotated[
        Path | None, typer.Option(help="folder of the network (value.onnx); default: the shipped network")
    ] = None,
    agent: Annotated[
        list[str] | None,
        typer.Option(help="agent types to calibrate on, repeatable (default: heuristic-beliefs, random, deepwolf)"),
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="aiwolf5 games of each agent type")] = 100,
    first_seed: Annotated[int, typer.Option(help="seed of the first game of each type")] = 8_000_000,
    out: Annotated[
        Path | None, typer.Option(help="where to write calibration.json (default: the network's folder)")
    ] = None,
) -> None:
    """Fit how far to trust a value network on players it never saw, and store it beside the network.

    Plays aiwolf5 games of agent types other than the network's own, scores every decision with
    the action taken, and fits the pull toward each role's win rate that gives the least log-loss
    (`lycan.value.Calibration`). Rankings of candidates are untouched; `state_value(model, view,
    calibration)` and `CalibratedValue` read calibrated figures.
    """
    from lycan.train.value import CALIBRATION_AGENTS, agent_samples, fit_calibration
    from lycan.value.base import CALIBRATION_FILE
    from lycan.value.onnx import OnnxValue
    from lycan.value.shipped import default_dir

    kinds = list(dict.fromkeys(agent or CALIBRATION_AGENTS))
    unknown = [k for k in kinds if k not in CALIBRATION_AGENTS]
    if unknown:
        fail(f"cannot calibrate on {', '.join(unknown)}: choose from {', '.join(CALIBRATION_AGENTS)}")
    if network is None and out is None:
        fail("give --out (or --network DIR to write beside that network): the shipped calibration is not overwritten")
    folder = network or default_dir()
    target = out or folder / CALIBRATION_FILE
    if not target.parent.is_dir():
        fail(f"cannot write {target}: no folder {target.parent}")
    with clear_errors():
        try:
            model = OnnxValue(folder / "value.onnx")
            by_type = {
                kind: agent_samples(kind, games, first_seed + 100_000 * n, options=CALIBRATION_AGENTS[kind])
                for n, kind in enumerate(kinds)
            }
            calibration = fit_calibration(model, by_type, games=games)
            path = calibration.save(target)
        except (OSError, ValueError) as err:
            fail(str(err))
    rates = ", ".join(f"{role} {rate:.3f}" for role, rate in calibration.role_rates.items())
    console.print(
        f"alpha {calibration.alpha:.2f} on {calibration.decisions:,} decisions of {games} games each of "
        f"{', '.join(kinds)}; role win rates {rates}; written to {path}"
    )


@train_app.command("reasoner")
def train_reasoner_cmd(
    config: Annotated[
        Path | None,
        typer.Argument(help="TOML file of lycan.causal.ReasonerConfig keys (default: the seed's settings)"),
    ] = None,
    out: Annotated[Path, typer.Option(help="folder for the LoRA adapter, rewards.json and report.json")] = Path(
        "reasoner"
    ),
    smoke: Annotated[
        bool, typer.Option("--smoke", help="a few real GRPO steps on the smallest model, on the CPU, in minutes")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="check the config, the data and the trainer settings; train nothing")
    ] = False,
    steps: Annotated[int | None, typer.Option(help="optimizer steps (replaces max_steps)", min=1)] = None,
    db: DbOpt = None,
) -> None:
    """Train the CaM-Wolf Reasoner's LoRA adapter with GRPO and the causal reward (TRL + peft)."""
    import json

    from lycan.causal.config import SMOKE, ReasonerConfig
    from lycan.models import ModelError

    with clear_errors():
        overrides: dict[str, Any] = dict(SMOKE) if smoke else {}
        if steps is not None:
            overrides["max_steps"] = steps
        try:
            cfg = ReasonerConfig.load(config, **overrides) if config else ReasonerConfig.from_dict(overrides, "--smoke")
        except ValueError as err:
            fail(str(err))
        from lycan.causal.train import dry_run as plan
        from lycan.causal.train import train_reasoner

        records = None
        if cfg.run and not dry_run:
            with open_store(db) as store:
                records = [r for r in run_records(store, cfg.run) if r.rules.name == cfg.preset]
        try:
            if dry_run:
                console.print_json(json.dumps(plan(cfg)), ensure_ascii=True)  # \uXXXX: no bidi control shown raw
                return
            report = train_reasoner(cfg, out, records, progress=lambda line: console.print(line, markup=False))
        except ModelError as err:
            fail(str(err))
        except ImportError as err:
            fail(f"training the Reasoner needs the train extra ({err.name} is missing): pip install 'lycan[train]'")
    last = report.steps[-1] if report.steps else {}
    console.print(
        f"{report.games} games, {report.train_turns} training turns; {len(report.steps)} GRPO steps "
        f"({report.seconds_per_step:.0f} s each), last mean reward {last.get('reward', 0.0):+.3f}; "
        f"adapter in {out / 'adapter'} (play it with --model hf:{out / 'adapter'})"
    )


@train_app.command("merge")
def train_merge_cmd(
    adapter: Annotated[Path, typer.Argument(help="LoRA adapter folder written by `lycan train reasoner`")],
    out: Annotated[Path, typer.Option(help="the GGUF file to write")],
    qtype: Annotated[str, typer.Option(help="type of the merged tensors: Q8_0, F16, BF16 or F32")] = "Q8_0",
    base: Annotated[
        Path | None, typer.Option(help="the base GGUF file (default: the one named in the adapter's lycan_base.json)")
    ] = None,
) -> None:
    """Merge a LoRA adapter into its base GGUF file, for llama.cpp (`--model llamacpp:FILE`)."""
    from lycan.models import ModelError
    from lycan.models.merge import merge_adapter

    try:
        result = merge_adapter(adapter, out, base_gguf=base, qtype=qtype)
    except ModelError as err:
        fail(str(err))
    console.print(
        f"merged {len(result.merged)} tensors ({result.qtype}) of {adapter} into {result.base.name}; "
        f"written to {result.path} (play it with --model llamacpp:{result.path})"
    )


causal_app = typer.Typer(no_args_is_help=True, help="Counterfactual premise intervention: faithfulness of reasoning.")


@causal_app.command("faithfulness")
def causal_faithfulness(
    run: Annotated[str, typer.Argument(help="run name of stored games with camwolf seats")],
    intervention: Annotated[
        str, typer.Option(help="intervention model: beliefs (the belief engine) or a chat model spec")
    ] = "beliefs",
    reference: Annotated[
        str, typer.Option(help="compare with the conclusion (the seed) or the model's unperturbed answer")
    ] = "conclusion",
    concurrency: Annotated[int, typer.Option(help="inferences at once", min=1)] = 1,
    db: DbOpt = None,
) -> None:
    """How often removing a cited premise changes a Reasoner's conclusion, and removing an uncited event does."""
    from lycan.causal.faithfulness import METRIC_PLAN, measure_records
    from lycan.causal.intervene import InterventionPlan, make_intervener
    from lycan.models import ModelError

    if reference not in ("conclusion", "unperturbed"):
        fail(f"--reference must be conclusion or unperturbed, not {reference!r}")
    with clear_errors(), open_store(db) as store:
        records = run_records(store, run)
        try:
            intervener = make_intervener(intervention)
        except ModelError as err:
            fail(str(err))
        plan = InterventionPlan(reference=reference, pool=METRIC_PLAN.pool)  # type: ignore[arg-type]
        result = asyncio.run(measure_records(records, intervener, plan=plan, concurrency=concurrency))
    if not result.answers:
        fail(f"run {run!r} holds no Reasoner answer (camwolf seats keep them as model calls of kind 'reason')")
    table = Table(title=f"Faithfulness of {run} ({intervention} intervention, {reference} reference)")
    table.add_column("measure")
    table.add_column("share [95% CI] (N)")
    table.add_row("answers in the template", str(result.format))
    table.add_row("identifications with the true role", str(result.accuracy))
    table.add_row("cited premises whose removal changes the conclusion", str(result.premise_rate))
    table.add_row("conclusions that change when an uncited event is removed", str(result.uncited_rate))
    console.print(table)
    console.print(f"{result.calls} intervention calls in {result.seconds:.1f} s")
