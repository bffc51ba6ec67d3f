"""Training datasets from stored games: viewpoint samples, relabelled, split by game, on Arrow.

`build_dataset` turns game records into a Hugging Face `datasets.DatasetDict` (train, validation,
test) of rows (`lycan.data.rows`); `write_dataset` saves it with `save_to_disk` beside a README.md
dataset card; `dataset_stats` counts what a saved dataset holds.

Splits are decided by a hash of the game id, never per sample: every seat's samples of a game and
every relabelled copy of them land in the same split, so no game is seen in training and again,
from another seat or under other labels, in validation or test.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lycan.data.augment import (
    Perm,
    identity,
    permute_action,
    permute_event,
    permute_request,
    permute_view,
    seat_permutations,
)
from lycan.data.rows import EventEncoder, Row, to_row
from lycan.data.samples import DecisionPoint, decision_points
from lycan.engine.events import Event
from lycan.engine.record import GameRecord
from lycan.engine.seeds import stream
from lycan.stats import Rate

if TYPE_CHECKING:
    from datasets import Dataset, DatasetDict, Features

SPLITS = ("train", "validation", "test")
DEFAULT_FRACTIONS = (0.8, 0.1, 0.1)
CHUNK = 20_000
"""Rows turned into Arrow at a time."""


def split_of(game_id: str, fractions: Sequence[float] = DEFAULT_FRACTIONS) -> str:
    """The split of every sample of game `game_id`: a SHA-256 of the id, read as a number in [0, 1).

    Raises:
        ValueError: fractions that are not three non-negative numbers summing to 1.
    """
    if len(fractions) != 3 or min(fractions) < 0 or abs(sum(fractions) - 1.0) > 1e-9:
        raise ValueError(f"split fractions must be three non-negative numbers summing to 1, not {list(fractions)}")
    u = int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big") / 2**64
    if u < fractions[0]:
        return "train"
    if u < fractions[0] + fractions[1]:
        return "validation"
    return "test"


def features() -> Features:
    """The Arrow schema of the rows (variable-shape values, events and request info, are JSON)."""
    from datasets import Features, Json, List, Value

    return Features(
        {
            "game_id": Value("string"),
            "preset": Value("string"),
            "rules": Json(),
            "seat": Value("int16"),
            "role": Value("string"),
            "names": List(Value("string")),
            "day": Value("int16"),
            "phase": Value("string"),
            "alive": List(Value("bool")),
            "events": List(Json()),
            "request": {
                "id": Value("int32"),
                "kind": Value("string"),
                "day": Value("int16"),
                "targets": List(Value("int16")),
                "can_pass": Value("bool"),
                "can_skip": Value("bool"),
                "max_length": Value("int32"),
                "timeout": Value("float64"),
                "attempt": Value("int16"),
                "error": Value("string"),
                "info": Json(),
            },
            "action": {
                "kind": Value("string"),
                "target": Value("int16"),
                "text": Value("string"),
                "amount": Value("int16"),
            },
            "won": Value("bool"),
            "split": Value("string"),
            "permutation": List(Value("int16")),
        }
    )


# ---------------------------------------------------------------------------- rows
class _Relabeller:
    """Relabels one game's samples, each event once per permutation (views share their events)."""

    def __init__(self) -> None:
        self._events: dict[Perm, dict[int, Event]] = {}
        self._encoders: dict[Perm, EventEncoder] = {}

    def encoder(self, perm: Perm) -> EventEncoder:
        enc = self._encoders.get(perm)
        if enc is None:
            enc = self._encoders[perm] = EventEncoder()
        return enc

    def point(self, point: DecisionPoint, perm: Perm) -> DecisionPoint:
        if perm == identity(len(perm)):
            return point
        view = point.view
        cache = self._events.setdefault(perm, {})
        events = []
        for e in view.events:
            moved = cache.get(id(e))
            if moved is None:
                moved = cache[id(e)] = permute_event(e, perm, view.names)
            events.append(moved)
        return DecisionPoint(
            view=permute_view(view, perm, events=events),
            request=permute_request(point.request, perm),
            action=permute_action(point.action, perm, view.names),
            won=point.won,
            game_id=point.game_id,
            seat=perm[point.seat],
            role=point.role,
        )


def record_rows(
    record: GameRecord,
    *,
    permutations: int = 1,
    seed: int = 0,
    fractions: Sequence[float] = DEFAULT_FRACTIONS,
) -> Iterator[Row]:
    """Every row of one game: each decision point, under `permutations` relabellings of its seat's others.

    Args:
        record: a finished game.
        permutations: relabellings per decision point, the identity included; 0 or at least
            (n-1)! gives all (n-1)! (24 for 5 players). Each (game, seat) draws its own sample
            from `seed`, so a rebuild gives the same rows.
        seed: seeds the samples of relabellings.
        fractions: train, validation and test shares.
    """
    split = split_of(record.game_id, fractions)
    n = record.rules.n_players
    relabel = _Relabeller()
    perms: dict[int, list[Perm]] = {}
    for point in decision_points(record):
        seat_perms = perms.get(point.seat)
        if seat_perms is None:
            rng = stream(seed, "permutations", record.game_id, point.seat)
            seat_perms = perms[point.seat] = seat_permutations(n, point.seat, permutations or None, rng)
        for perm in seat_perms:
            yield to_row(relabel.point(point, perm), split=split, permutation=perm, encode=relabel.encoder(perm))


# ---------------------------------------------------------------------------- building
def _storage_schema(schema: Any) -> Any:
    """`schema` with its JSON columns as the plain strings they are stored as (Arrow fills those fast)."""
    import pyarrow as pa

    def storage(t: Any) -> Any:
        if isinstance(t, pa.BaseExtensionType):
            return t.storage_type
        if pa.types.is_list(t):
            return pa.list_(storage(t.value_type))
        if pa.types.is_struct(t):
            return pa.struct([pa.field(f.name, storage(f.type)) for f in t])
        return t

    return pa.schema([pa.field(f.name, storage(f.type)) for f in schema], metadata=schema.metadata)


def _storage_rows(rows: list[Row]) -> Iterator[Row]:
    """One game's rows with their JSON columns as strings; an event shared by rows is dumped once."""
    dumped: dict[int, str] = {}

    def text(value: Any) -> str:
        out = dumped.get(id(value))
        if out is None:
            out = dumped[id(value)] = json.dumps(value, separators=(",", ":"))
        return out

    for row in rows:
        request = row["request"]
        info = request["info"]
        yield {
            **row,
            "rules": None if row["rules"] is None else json.dumps(row["rules"]),
            "events": [text(e) for e in row["events"]],
            "request": {**request, "info": None if info is None else json.dumps(info)},
        }


@dataclass
class BuildSummary:
    """What went into a dataset, for its card."""

    sources: list[str] = field(default_factory=list)
    presets: Counter[str] = field(default_factory=Counter)
    agents: Counter[str] = field(default_factory=Counter)
    games: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SPLITS, 0))
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SPLITS, 0))
    skipped: Counter[str] = field(default_factory=Counter)
    permutations: int = 1
    seed: int = 0
    fractions: tuple[float, float, float] = DEFAULT_FRACTIONS
    seconds: float = 0.0

    @property
    def total_rows(self) -> int:
        """Rows in every split together."""
        return sum(self.rows.values())


def build_dataset(
    records: Iterable[GameRecord],
    *,
    permutations: int = 1,
    seed: int = 0,
    fractions: Sequence[float] = DEFAULT_FRACTIONS,
    sources: Sequence[str] = (),
    on_record: Callable[[GameRecord], None] | None = None,
) -> tuple[DatasetDict, BuildSummary]:
    """A `DatasetDict` (train, validation, test) of every decision of `records`, and its summary.

    Drawn and aborted games (no side won) are skipped, and so is a record that does not replay;
    the summary counts them.

    Args:
        records: finished games.
        permutations: relabellings per decision point (see `record_rows`).
        seed: seeds the samples of relabellings.
        fractions: train, validation and test shares of the games.
        sources: where the games came from (run names), for the card.
        on_record: called after each record (a progress bar).
    """
    import pyarrow as pa
    from datasets import Dataset, DatasetDict, concatenate_datasets

    from lycan.engine.session import ReplayMismatch

    started = time.perf_counter()
    frac = (float(fractions[0]), float(fractions[1]), float(fractions[2]))
    split_of("", frac)  # checks the fractions before any work
    summary = BuildSummary(sources=list(sources), permutations=permutations, seed=seed, fractions=frac)
    feats = features()
    pending: dict[str, list[Row]] = {s: [] for s in SPLITS}
    parts: dict[str, list[Dataset]] = {s: [] for s in SPLITS}

    schema = feats.arrow_schema
    storage = _storage_schema(schema)

    def flush(split: str) -> None:
        if pending[split]:
            table = pa.Table.from_pylist(pending[split], schema=storage).cast(schema)
            parts[split].append(Dataset(table, fingerprint=uuid.uuid4().hex))  # hashing the table is slow
            pending[split] = []

    for record in records:
        if on_record is not None:
            on_record(record)
        if record.winner == "draw":
            summary.skipped["draw or aborted"] += 1
            continue
        try:
            rows = list(record_rows(record, permutations=permutations, seed=seed, fractions=frac))
        except ReplayMismatch:
            summary.skipped["does not replay"] += 1
            continue
        split = split_of(record.game_id, frac)
        summary.games[split] += 1
        summary.rows[split] += len(rows)
        summary.presets[record.rules.name] += 1
        summary.agents.update(record.agents)
        pending[split].extend(_storage_rows(rows))
        if len(pending[split]) >= CHUNK:
            flush(split)
    out = {}
    for split in SPLITS:
        flush(split)
        if not parts[split]:
            out[split] = empty_split()
        elif len(parts[split]) == 1:
            out[split] = parts[split][0]
        else:
            out[split] = concatenate_datasets(parts[split])
    summary.seconds = time.perf_counter() - started
    return DatasetDict(out), summary


def empty_split() -> Dataset:
    """A split with no rows, with the rows' schema."""
    import pyarrow as pa
    from datasets import Dataset

    schema = features().arrow_schema
    empty = pa.Table.from_batches([pa.RecordBatch.from_pylist([], schema=_storage_schema(schema))]).cast(schema)
    return Dataset(empty, fingerprint=uuid.uuid4().hex)


def write_dataset(dataset: DatasetDict, summary: BuildSummary, out: Path) -> Path:
    """Save `dataset` under `out` (Arrow, `save_to_disk`) with a README.md dataset card; returns `out`.

    Empty splits are not saved (`datasets` cannot load an empty split back); `load_dataset_dir`
    puts them back.
    """
    from datasets import DatasetDict

    out.mkdir(parents=True, exist_ok=True)
    DatasetDict({name: split for name, split in dataset.items() if len(split)}).save_to_disk(str(out))
    (out / "README.md").write_text(dataset_card(summary))
    return out


def load_dataset_dir(path: Path) -> DatasetDict:
    """A dataset saved by `write_dataset`.

    Raises:
        ValueError: the folder holds no saved dataset.
    """
    from datasets import DatasetDict, load_from_disk

    if not (path / "dataset_dict.json").is_file():
        raise ValueError(f"{path} holds no dataset saved by `lycan dataset build`; build one there first")
    loaded = load_from_disk(str(path))
    if not isinstance(loaded, DatasetDict):
        raise ValueError(f"{path} holds a single dataset, not train/validation/test splits")
    return DatasetDict({name: loaded[name] if name in loaded else empty_split() for name in SPLITS})


# ---------------------------------------------------------------------------- the card
def dataset_card(summary: BuildSummary) -> str:
    """The README.md of a dataset: sources, presets, agents, counts, augmentation, split rule, fields."""

    def counts(c: Counter[str]) -> str:
        return ", ".join(f"{k} ({v})" for k, v in sorted(c.items())) or "none"

    f_train, f_val, f_test = summary.fractions
    games = sum(summary.games.values())
    perms = "all (n-1)! relabellings" if summary.permutations == 0 else f"{summary.permutations} per decision"
    lines = [
        "---",
        "license: mit",
        "task_categories:",
        "- tabular-classification",
        "tags:",
        "- werewolf",
        "- lycan",
        "---",
        "",
        "# Lycan decision samples",
        "",
        "One row per (game, seat, decision): what that seat could see when it was asked (its own view,",
        "never the full log), what it was asked, the answer the engine accepted from it, its role and",
        "whether its side won. Built by `lycan dataset build` from stored Lycan games.",
        "",
        "## Source",
        "",
        f"- runs: {', '.join(summary.sources) or 'unnamed'}",
        f"- presets (games): {counts(summary.presets)}",
        f"- agents (seats): {counts(summary.agents)}",
        f"- games: {games}; skipped: {counts(summary.skipped)}",
        "",
        "## Counts",
        "",
        "| split | games | rows |",
        "|---|---|---|",
        *(f"| {s} | {summary.games[s]} | {summary.rows[s]} |" for s in SPLITS),
        f"| all | {games} | {summary.total_rows} |",
        "",
        "## How the samples are made",
        "",
        "Each game is replayed through the engine's one driver with its recorded answers; for every",
        "request the view the engine gave the seat is kept as it was at that moment. Measurement",
        "probes and answers the engine refused (retried or replaced by a fallback) give no sample.",
        "Only events the seat could see are in a row (`Event.visible_to(seat)`).",
        "",
        "## Augmentation: seat-label permutation",
        "",
        f"Relabellings: {perms} (the identity, the original sample, always among them; seed {summary.seed}).",
        "As in Deep Wolf (all 4! = 24 relabellings for 5 players), the deciding seat keeps its own label and",
        "the other seats are renumbered; for larger tables a seeded sample of relabellings per (game, seat).",
        "Every seat reference moves together: event fields (actor, target, seat, members, alive, audience,",
        "...), the view's alive flags, the request's targets, the action's target, and the seat names",
        "inside utterance text (`names[i]` becomes `names[perm[i]]`, in one pass). The names column",
        "itself stays as it is (seat i keeps name i), so text and structured fields agree.",
        "`permutation[old] == new` records the relabelling of each row.",
        "",
        "## Splits",
        "",
        f"By game, never by sample: a game goes to train, validation or test ({f_train:g} / {f_val:g} / {f_test:g})",
        "by a SHA-256 hash of its `game_id`. Every seat's samples of a game and every relabelled copy",
        "of them therefore share a split. This prevents leakage across splits: a validation or test",
        "sample whose game, outcome and utterances were already seen in training from another seat's",
        "view or under other seat labels (which would make held-out scores look far better than on",
        "new games).",
        "",
        "## Fields",
        "",
        "| field | meaning |",
        "|---|---|",
        "| game_id | the game's id (ULID) |",
        "| preset | the rules' name |",
        "| rules | the full rule set (JSON) if it is not the preset of that name, else null |",
        "| seat | the deciding seat (0-based) |",
        "| role | its role |",
        "| names | every seat's name, in seat order |",
        "| day, phase | when it was asked |",
        "| alive | one flag per seat |",
        "| events | the seat's visible events so far, as `lycan.engine.events.event_to_dict` dicts (JSON) |",
        "| request | what was asked: id, kind, day, targets, can_pass, can_skip, max_length, timeout, "
        "attempt, error, info (JSON) |",
        "| action | the accepted answer: kind (speak, over, skip, choose, pass, bid), target, text, amount |",
        "| won | whether the seat's side won (the possessed wins with the werewolves) |",
        "| split | train, validation or test |",
        "| permutation | the seat relabelling applied (`permutation[old] == new`) |",
        "",
        "Rebuild a sample with `lycan.data.from_row(row)` (a `DecisionPoint` with its `View`).",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- stats
@dataclass
class DatasetStats:
    """What a dataset holds.

    Attributes:
        rows: rows per split.
        games: games per split.
        roles: rows per role (all splits).
        actions: rows per `request kind / action kind` (all splits).
        wins: per role, the share of (game, seat) pairs whose side won, counted once per pair.
    """

    rows: dict[str, int]
    games: dict[str, int]
    roles: Counter[str]
    actions: Counter[str]
    wins: dict[str, Rate]


def dataset_stats(dataset: DatasetDict) -> DatasetStats:
    """Counts per split, role and action kind, and the win balance per role."""
    rows: dict[str, int] = {}
    games: dict[str, int] = {}
    roles: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    won_by_pair: dict[tuple[str, int], tuple[str, bool]] = {}
    for split in dataset:
        table: Any = dataset[split].data
        rows[split] = table.num_rows
        cols = {name: table.column(name).to_pylist() for name in ("game_id", "seat", "role", "won") if table.num_rows}
        if not table.num_rows:
            games[split] = 0
            continue
        kinds = table.column("request").combine_chunks().field("kind").to_pylist()
        acts = table.column("action").combine_chunks().field("kind").to_pylist()
        games[split] = len(set(cols["game_id"]))
        roles.update(cols["role"])
        actions.update(f"{k} / {a}" for k, a in zip(kinds, acts, strict=True))
        for gid, seat, role, won in zip(cols["game_id"], cols["seat"], cols["role"], cols["won"], strict=True):
            won_by_pair[(gid, seat)] = (role, won)
    tally: dict[str, list[int]] = {}
    for role, won in won_by_pair.values():
        t = tally.setdefault(role, [0, 0])
        t[0] += int(won)
        t[1] += 1
    wins = {role: Rate(w, n) for role, (w, n) in sorted(tally.items())}
    return DatasetStats(rows=rows, games=games, roles=roles, actions=actions, wins=wins)
