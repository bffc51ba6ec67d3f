"""The `judge` command: a chat model scores the seats of stored games on the AIWolf NLP contest's criteria."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from lycan.cli.common import DbOpt, clear_errors, console, fail, open_store, progress_bar

if TYPE_CHECKING:
    from lycan.engine import GameRecord
    from lycan.eval.judge import JudgementLike, JudgementSink
    from lycan.models import ChatModel

_FILE_SUFFIXES = (".db", ".sqlite", ".sqlite3", ".jsonl", ".gz")


def _is_jsonl(path: Path) -> bool:
    return path.name.endswith((".jsonl", ".jsonl.gz"))


def _seat_numbers(text: str | None) -> set[int] | None:
    """`--seats 1,3` as 0-based seats, or None for every seat."""
    if text is None:
        return None
    seats: set[int] = set()
    for part in text.split(","):
        if not part.strip():
            continue
        if not part.strip().isdigit() or int(part) < 1:
            fail(f"--seats takes seat numbers from 1 separated by commas, e.g. 1,3; {part.strip()!r} is not one")
        seats.add(int(part) - 1)
    if not seats:
        fail("--seats names no seat; give seat numbers from 1, e.g. 1,3")
    return seats


@contextlib.contextmanager
def _games(run: str, db: Path | None, limit: int | None) -> Iterator[tuple[list[GameRecord], JudgementSink, str]]:
    """The games of RUN (oldest first, at most `limit`), where their judgements go, and where that is."""
    from lycan.store import GameStore, import_jsonl
    from lycan.store.jsonl import JudgementFile, judgements_path

    path = Path(run).expanduser()
    if path.is_file() and _is_jsonl(path):
        records = import_jsonl(path, check=False)[:limit]
        sidecar = judgements_path(path)
        yield records, JudgementFile(sidecar), str(sidecar)
        return
    if path.is_file():
        with GameStore(path) as store:
            store.ensure_writable()
            yield list(islice(store.iter_records(), limit)), store, str(path)
        return
    if path.suffix in _FILE_SUFFIXES or "/" in run:
        fail(f"there is no file {path}; give an SQLite or JSONL file of games, or a run name stored in --db")
    with open_store(db) as store:
        records = list(islice(store.iter_records(run=run), limit))
        if not records:
            fail(f"no games stored under run {run!r} in {store.path}; see `lycan games` for what is stored")
        store.ensure_writable()
        yield records, store, str(store.path)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _load(spec: str) -> ChatModel:
    from lycan.models import ModelError, load_model

    try:
        return load_model(spec)
    except ModelError as err:
        fail(str(err))


async def _close(model: ChatModel) -> None:
    """Close the model's connections (served models) or free it (in-process models)."""
    aclose = getattr(model, "aclose", None)
    if aclose is not None:
        await aclose()
        return
    close = getattr(model, "close", None)
    if close is not None:
        close()


def _print(tables: Sequence[tuple[str, list[str], list[list[str]]]]) -> None:
    for title, header, rows in tables:
        table = Table(title=title, title_justify="left")
        for column in header:
            table.add_column(column)
        for row in rows:
            table.add_row(*row)
        console.print(table)


def _seat_table(records: Sequence[GameRecord], judgements: Sequence[JudgementLike]) -> None:
    """Every judgement of `records`: the seat, its role, its scores in the rubric's order, or why it is unjudged."""
    from lycan.eval.judge import CRITERIA_KEYS, criteria

    by_game = {r.game_id: r for r in records}
    titles = [c.title for c in criteria().values()]
    table = Table(title="Each seat", title_justify="left", caption=f"scores: {', '.join(titles)}")
    for column in ("game", "seat", "player", "agent", "role", "scores", "unjudged because"):
        table.add_column(column)
    for j in judgements:
        record = by_game[j.game_id]
        scores = " ".join(str(j.scores[k]) for k in CRITERIA_KEYS if k in j.scores)
        table.add_row(
            j.game_id, str(j.seat + 1), record.names[j.seat], j.agent, record.roles[j.seat].value, scores, j.error
        )
    console.print(table)


def judge(
    run: Annotated[str, typer.Argument(help="a run name stored in --db, or an SQLite or JSONL file of games")],
    model: Annotated[
        str,
        typer.Option(
            "--model",
            "-m",
            help="the judge: local (embedded, a weak judge), local:1.5b, llamacpp:PATH, "
            "openai:MODEL or openai:MODEL@URL, hf:PATH",
        ),
    ],
    games: Annotated[int | None, typer.Option("--games", "-n", min=1, help="judge at most this many games")] = None,
    seats: Annotated[str | None, typer.Option(help="only these seats of each game, from 1, e.g. 1,3")] = None,
    timeout: Annotated[float, typer.Option(min=1.0, help="seconds one answer of the judge may take")] = 120.0,
    retries: Annotated[
        int, typer.Option(min=0, help="tries after the first when an answer fails, times out or is garbage")
    ] = 2,
    per_seat: Annotated[bool, typer.Option("--per-seat", help="also list every judged seat with its scores")] = False,
    db: DbOpt = None,
) -> None:
    """Score each seat of stored games with a judge model on the AIWolf NLP contest's criteria.

    Natural expression, contextual dialogue, logical, action and character consistency: 1-5, a reason each.

    Team play too in 13-player games. A seat the judge fails on is retried, then kept as unjudged with the reason.

    A rerun judges only what is missing. Judgements: the SQLite file's judgements table, or RUN.judgements.jsonl.

    `lycan report RUN` shows the judge's scores with the other tables.
    """
    from lycan.eval.judge import JudgeUnavailable, judge_games
    from lycan.eval.report import judge_tables

    wanted = _seat_numbers(seats)
    spec = model.strip()
    with clear_errors(), _games(run, db, games) as (records, sink, where):
        largest = max(r.rules.n_players for r in records) if records else 0
        if wanted and max(wanted) >= largest:
            fail(f"--seats names seat {max(wanted) + 1}, but the games have at most {largest} seats")
        chat_model = _load(spec)
        total = sum(len([s for s in range(r.rules.n_players) if wanted is None or s in wanted]) for r in records)

        async def go() -> tuple[int, int, int]:
            try:
                with progress_bar() as bar:
                    task = bar.add_task(f"judging with {spec}", total=total)
                    summary = await judge_games(
                        records,
                        chat_model,
                        sink,
                        judge=spec,
                        seats=wanted,
                        retries=retries,
                        timeout=timeout,
                        on_judgement=lambda _: bar.advance(task),
                    )
                return summary.judged, summary.unjudged, summary.skipped
            finally:
                await _close(chat_model)

        try:
            judged, unjudged, skipped = asyncio.run(go())
        except JudgeUnavailable as err:
            fail(str(err))
        stored = sink.judgements(game_ids={r.game_id for r in records}, judge=spec)
    console.print(
        f"{_count(judged, 'seat')} judged, {unjudged} unjudged, {skipped} already judged, "
        f"over {_count(len(records), 'game')}; judgements in {where}"
    )
    if per_seat:
        shown = [j for j in stored if wanted is None or j.seat in wanted]
        _seat_table(records, shown)
    _print(judge_tables(stored))
