"""The commands that work on stored games: games, export, import, tournament, report and compare."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from lycan.cli.common import DbOpt, clear_errors, console, fail, open_store, run_records, writable_db


def games(
    db: DbOpt = None,
    limit: Annotated[int, typer.Option(min=1)] = 20,
    run: Annotated[str | None, typer.Option(help="only games of this run")] = None,
) -> None:
    """List stored games, newest first."""
    with clear_errors(), open_store(db) as store:
        rows = store.list_games(run=run, limit=limit)
    table = Table()
    for col in ("game", "rules", "seed", "winner", "days", "faults", "agents"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r.game_id, r.rules, str(r.seed), r.winner, str(r.n_days), str(r.faults), ",".join(sorted(set(r.agents)))
        )
    console.print(table)


def export_cmd(
    out: Annotated[Path, typer.Argument(help="JSONL file to write (ending .gz: gzip-compressed)")],
    db: DbOpt = None,
    run: Annotated[str | None, typer.Option(help="only games of this run")] = None,
) -> None:
    """Export stored games as JSONL, one game per line (the file's folder must exist)."""
    from lycan.store import export_jsonl

    target = out.expanduser()
    if target.is_dir():
        fail(f"{target} is a folder; give a file path such as {target / 'games.jsonl'}")
    if not target.parent.is_dir():
        fail(f"the folder {target.parent} does not exist; create it first or give another path")
    with clear_errors(), open_store(db) as store:
        records = list(store.iter_records(run=run))
        try:
            export_jsonl(records, target)
        except OSError as err:
            fail(f"cannot write {target} ({err.strerror or err}); give another path")
    console.print(f"wrote {len(records)} games to {target}")


def import_cmd(
    src: Annotated[Path, typer.Argument(help="JSONL file to read (.jsonl.gz: gzip-compressed)")],
    db: DbOpt = None,
    run: Annotated[
        str | None, typer.Option(help="store the games under this run, so that re-running that tournament skips them")
    ] = None,
) -> None:
    """Import games from JSONL; nothing is written unless every line is a game that can have happened."""
    from lycan.store import import_jsonl

    path = writable_db(db)
    with clear_errors():
        records = import_jsonl(src)
        with open_store(path) as store:
            added = store.import_records(records, run=run)
    distinct = len({r.game_id for r in records})
    notes = [
        f"{count} {what}"
        for count, what in ((distinct - added, "already stored"), (len(records) - distinct, "repeated in the file"))
        if count
    ]
    of = f" of {len(records)}" if added != len(records) else ""
    console.print(f"imported {added}{of} games from {src}" + (f" ({', '.join(notes)})" if notes else ""))


def tournament(
    config: Annotated[str, typer.Argument(help="tournament file (YAML/TOML) or a built-in name such as smoke")],
    db: DbOpt = None,
    executor: Annotated[str, typer.Option(help="local, or ray (a cluster: --ray-address or RAY_ADDRESS)")] = "local",
    processes: Annotated[
        int,
        typer.Option(
            min=0,
            help="local executor: worker processes for games of CPU-bound agents and of in-process "
            "models (each worker loads its own copy of the model); 0 plays every game in this process",
        ),
    ] = 0,
    ray_address: Annotated[
        str | None,
        typer.Option(help="ray executor: the address of a running cluster's head (HOST:PORT; else RAY_ADDRESS)"),
    ] = None,
) -> None:
    """Play a tournament; re-running it resumes, skipping finished games."""
    from lycan.arena import run_tournament
    from lycan.arena.executors import make_executor
    from lycan.eval.report import print_summary

    with clear_errors(), open_store(db) as store:
        if processes and executor != "local":
            fail("--processes is an option of the local executor")
        if ray_address and executor != "ray":
            fail("--ray-address is an option of the ray executor (--executor ray)")
        chosen: Any = executor
        if processes:
            chosen = make_executor(executor, processes=processes)
        elif ray_address:
            chosen = make_executor(executor, address=ray_address, shutdown=True)
        result = run_tournament(config, executor=chosen, store=store, progress=sys.stderr.isatty())
        records = list(store.iter_records(run=result.run))
    console.print(
        f"run {result.run}: {result.played} played, {result.skipped} already done, {result.faults} faults, "
        f"{result.games_per_minute:,.0f} games/min"
    )
    print_summary(records, console)


def report(
    run: Annotated[str, typer.Argument(help="run name (as given in the tournament file)")],
    out: Annotated[Path | None, typer.Option(help="folder for report.md, report.html and plots")] = None,
    prices: Annotated[
        Path | None, typer.Option(help="price table (TOML/YAML/JSON: MODEL = {prompt, completion} per 1M tokens)")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Print a run's tables and write a Markdown + HTML report with plots."""
    from lycan.eval.metrics import load_prices
    from lycan.eval.report import build_report, print_summary

    with clear_errors(), open_store(db) as store:
        price_table = load_prices(prices) if prices else None
        records = run_records(store, run)
        judgements = store.judgements(game_ids={r.game_id for r in records})
        studies = {str(r.meta["study"]) for r in records if r.meta.get("study")}
        answers = store.questionnaires(studies) if studies else []
        print_summary(records, console, prices=price_table, judgements=judgements, questionnaires=answers)
        path = build_report(
            records,
            out or Path(f"report-{run}"),
            title=f"Lycan run {run}",
            prices=price_table,
            judgements=judgements,
            questionnaires=answers,
        )
    console.print(f"report written to {path}")


def compare(
    run_a: Annotated[str, typer.Argument(help="first run name")],
    run_b: Annotated[str, typer.Argument(help="second run name")],
    db: DbOpt = None,
) -> None:
    """Compare two runs' win rates with two-proportion significance tests."""
    from lycan.eval.report import compare_runs

    with clear_errors(), open_store(db) as store:
        table = compare_runs(run_records(store, run_a), run_records(store, run_b))
    console.print(table.to_rich())


pool_app = typer.Typer(no_args_is_help=True, help="Reference pools: frozen, versioned opponents to rate against.")


@pool_app.command("show")
def pool_show(
    pool: Annotated[str, typer.Argument(help="a pool file (YAML/TOML) or a built-in pool's name")] = "lycan-scripted",
) -> None:
    """Print a pool's version and each entry with the hash of what it plays by."""
    from lycan.arena.pool import load_pool

    with clear_errors():
        frozen = load_pool(pool)
    table = Table(title=f"pool {frozen.label}", title_justify="left")
    for column in ("entry", "agent", "model", "options", "digest", "depends on"):
        table.add_column(column)
    for e in frozen.entries:
        options = ", ".join(f"{k}={v}" for k, v in sorted(e.spec.options.items()))
        table.add_row(e.name, e.spec.agent, e.spec.model or "", options, e.digest[:12], str(len(e.files)) + " files")
    console.print(table)


def _pool_and_entrant(pool: str, entrant: str) -> tuple[Any, Any]:
    """The frozen pool and the entrant's seat spec (one sentence and exit 2 for a bad entrant)."""
    from lycan.arena.config import AgentSpec
    from lycan.arena.pool import load_pool

    frozen = load_pool(pool)
    try:
        return frozen, AgentSpec.model_validate(entrant)
    except ValueError as err:
        fail(f"the entrant {entrant!r} is not an agent: {str(err).splitlines()[-1].strip()}")


@pool_app.command("play")
def pool_play(
    entrant: Annotated[str, typer.Argument(help="the agent to rate: TYPE or TYPE:MODEL (e.g. heuristic, llm:local)")],
    pool: Annotated[str, typer.Option(help="a pool file or a built-in pool's name")] = "lycan-scripted",
    preset: Annotated[list[str] | None, typer.Option(help="rules to play on (repeat for several)")] = None,
    games: Annotated[int, typer.Option(min=1, help="games per entry, preset and side")] = 4,
    seat_rounds: Annotated[
        int, typer.Option(min=0, help="turns with the entrant in one seat among an entry's (0: none)")
    ] = 0,
    db: DbOpt = None,
) -> None:
    """Play an entrant against every entry of a pool (both sides, paired deals); resumes like a tournament."""
    from lycan.arena import run_tournament
    from lycan.arena.pool import pool_tournament
    from lycan.eval.report import print_summary

    with clear_errors(), open_store(db) as store:
        frozen, spec = _pool_and_entrant(pool, entrant)
        config = pool_tournament(frozen, spec, preset or ["guardian7", "aiwolf5"], games, seat_rounds=seat_rounds)
        result = run_tournament(config, store=store, progress=sys.stderr.isatty())
        records = list(store.iter_records(run=result.run))
    done = f"{result.played} played, {result.skipped} already done"
    console.print(f"run {result.run} against pool {frozen.label}: {done}")
    print_summary(records, console)


def _pool_unchanged(store: Any, frozen: Any, new_version: bool) -> None:
    """Stop (exit 2) when ratings are stored for another version of the pool and none for this one.

    The pool's name then stands for other opponents than the stored ratings were made against;
    `new_version` says that is meant (a new leaderboard starts for the new version).
    """
    from lycan.arena.pool import changed_entries

    prefix = f"pool-{frozen.name}-"
    ours = f"{prefix}{frozen.version}-"
    runs = list(dict.fromkeys(g.run for g in store.list_games() if g.run and g.run.startswith(prefix)))
    if new_version or any(r.startswith(ours) for r in runs):
        return  # the change was meant, or this version has ratings already
    for run in runs:
        (summary,) = store.list_games(run=run, limit=1)
        old = store.get(summary.game_id).meta
        if str(old.get("pool", "")).rsplit("@", 1)[0] == frozen.name:  # not another pool whose name extends ours
            break
    else:
        return  # nothing stored for this pool
    changes = changed_entries(old.get("pool_entries"), frozen)
    was = str(old.get("pool", "?")).rsplit("@", 1)[-1]
    fail(
        f"pool {frozen.name} changed since its stored ratings (version {was}, now {frozen.version}: "
        f"{', '.join(changes) or 'the entries'}); pass --new-version to rate against the new version, "
        "or restore the pool"
    )


def leaderboard(
    entrant: Annotated[str, typer.Argument(help="the agent to rate: TYPE or TYPE:MODEL (e.g. heuristic-beliefs)")],
    pool: Annotated[str, typer.Option(help="a pool file or a built-in pool's name")] = "lycan-scripted",
    preset: Annotated[
        list[str] | None, typer.Option(help="rules to play on (repeat; default guardian7, aiwolf5)")
    ] = None,
    width: Annotated[float, typer.Option(min=1, help="stop once the rating's 95% interval is narrower (Elo)")] = 100.0,
    budget: Annotated[
        int, typer.Option(min=1, help="the most games to play for this entrant, one-seat games included")
    ] = 2000,
    step: Annotated[int, typer.Option(min=1, help="games per entry, preset and side added each round")] = 2,
    seat_rounds: Annotated[
        int, typer.Option(min=0, help="then, turns with the entrant in one seat, for per-role ratings (0: none)")
    ] = 1,
    prices: Annotated[
        Path | None, typer.Option(help="price table (TOML/YAML/JSON: MODEL = {prompt, completion} per 1M tokens)")
    ] = None,
    new_version: Annotated[
        bool, typer.Option("--new-version", help="the pool changed on purpose: rate against its new version")
    ] = False,
    out: Annotated[Path | None, typer.Option(help="folder for leaderboard.html")] = None,
    db: DbOpt = None,
) -> None:
    """Rate an entrant against a frozen pool with as few games as its interval needs, then show every entrant.

    Each round plays `step` more games against every entry on each preset, both sides, on the same
    deals for every entry, until the rating's interval is narrower than `width` or `budget` games
    are played; then `seat_rounds` turns with the entrant in one seat among an entry's, which rate
    it per role. Games already stored are not played again: adding an entrant plays only its games.
    A pool whose entries changed since ratings were stored is refused unless `--new-version`.
    """
    from lycan.arena import run_tournament
    from lycan.arena.pool import pool_baseline, pool_tournament
    from lycan.eval.leaderboard import leaderboard_html, pool_nash, pool_rating, rows
    from lycan.eval.metrics import load_prices
    from lycan.rules import resolve_rules

    with clear_errors(), open_store(db) as store:
        frozen, spec = _pool_and_entrant(pool, entrant)
        price_table = load_prices(prices) if prices else None
        _pool_unchanged(store, frozen, new_version)
        presets = preset or ["guardian7", "aiwolf5"]
        names = [e.spec.name for e in frozen.entries]  # as records label the entries: POOL/ENTRY
        per_round = 2 * len(frozen.entries) * len(presets)
        # a turn of one-seat games: one game per seat of each preset against each entry, inside the budget
        per_turn = len(frozen.entries) * sum(resolve_rules(p).n_players for p in presets)
        team_budget = max(budget - seat_rounds * per_turn, per_round * step)  # the rating's rounds come first
        games = 0
        while True:
            games += step
            config = pool_tournament(frozen, spec, presets, games)
            if games * per_round > team_budget and games > step:
                games -= step
                break
            run_tournament(config, store=store, progress=False)
            rating = pool_rating(list(store.iter_records(run=config.run)), spec.name, frozen.label, names)
            console.print(
                f"{rating.games} games: {spec.name} {rating.elo:+.0f} Elo [{rating.lo:+.0f}, {rating.hi:+.0f}], "
                f"width {rating.width:.0f}"
            )
            if rating.width < width or games * per_round >= team_budget:
                break
        fits = min(seat_rounds, max(0, budget - games * per_round) // per_turn)
        if fits < seat_rounds:
            console.print(f"the budget leaves room for {fits} of {seat_rounds} turns in one seat")
            seat_rounds = fits
        if seat_rounds:
            config = pool_tournament(frozen, spec, presets, games, seat_rounds=seat_rounds)
            played = run_tournament(config, store=store, progress=False).played
            console.print(f"{played} games with {spec.name} in one seat, for its ratings per role")
        base = pool_baseline(frozen, presets, games, seat_rounds)
        played = run_tournament(base, store=store, progress=False).played
        console.print(f"{played} games of the pool's self-play added, for the ratings per side and role")
        baseline = list(store.iter_records(run=base.run))
        prefix = f"pool-{frozen.name}-{frozen.version}-"
        runs = sorted({g.run for g in store.list_games() if g.run and g.run.startswith(prefix) and g.run != base.run})
        ratings = []
        everything = []
        for run in runs:
            records = list(store.iter_records(run=run))
            who = str(records[0].meta.get("entrant", run.removeprefix(prefix))) if records else ""
            if records:
                ratings.append(pool_rating(records, who, frozen.label, names, prices=price_table, baseline=baseline))
                everything += records
        nash = pool_nash(everything, frozen.label)
    header, body = rows(ratings, nash)
    wanted = (*header[:7], "faults / 100 decisions", "cost / game")  # the rest: on the page
    shown = [i for i, h in enumerate(header) if h in wanted]
    table = Table(title=f"leaderboard against pool {frozen.label}", title_justify="left")
    for i in shown:
        table.add_column(header[i])
    for row in body:
        table.add_row(*(row[i] for i in shown))
    console.print(table)
    folder = out or Path(f"leaderboard-{frozen.name}")
    folder.mkdir(parents=True, exist_ok=True)
    page = folder / "leaderboard.html"
    page.write_text(leaderboard_html(ratings, frozen.label, names, nash))
    console.print(f"leaderboard written to {page}")
