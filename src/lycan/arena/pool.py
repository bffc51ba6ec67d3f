"""A frozen reference pool: named agent entries whose version is the hash of everything they play by.

Ratings mean something only against fixed opponents (the NeurIPS 2025 MindGames track froze its
reference agents so later entrants meet the same ones). A pool entry is an agent spec (type,
options, model) and what its play depends on: the source of its agent's own classes, network
and candidate files named in its options, a GGUF file named by its model spec, the value network
Deep Wolf plays by when none is named, and the embedded model's file. `freeze` hashes them all: each
entry gets a digest, the pool a version made of its entries' names and digests. Changing an
entry (an option, a retrained network file, another model build) makes a new version; the same
name never silently stands for other opponents. Records of games against a pool carry
`meta["pool"] = "NAME@VERSION"`.

A pool is given as a file (YAML or TOML: `name`, `entries: [{name, agent, model, options}]`) or
by the name of a built-in one (`POOLS`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from lycan.arena.config import AgentSpec, TournamentConfig
from lycan.rules import ConfigError, resolve_rules
from lycan.rules.files import read_data

POOLS: dict[str, dict[str, Any]] = {
    "lycan-scripted": {
        "name": "lycan-scripted",
        "entries": [
            {"name": "random", "agent": "random"},
            {"name": "heuristic", "agent": "heuristic"},
            {"name": "heuristic-beliefs", "agent": "heuristic-beliefs"},
            {"name": "deepwolf", "agent": "deepwolf", "options": {"rollouts": 0}},
            {"name": "deepwolf-greedy", "agent": "deepwolf", "options": {"rollouts": 0, "temperature": 0.0}},
            {"name": "random-quiet", "agent": "random", "options": {"talk_probability": 0.0}},
        ],
    },
}
"""Built-in pools: Lycan's own scripted agents (no model needed; Deep Wolf by its value network alone,
without its rollout search, so that a game takes about a second)."""


FILE_SUFFIXES = (".onnx", ".json", ".gguf", ".pt", ".safetensors")


class PoolEntry(BaseModel):
    """One reference agent: its name in the pool and how it plays."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
    agent: str
    model: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    model_options: dict[str, Any] = Field(default_factory=dict)

    def spec(self, label: str | None = None) -> AgentSpec:
        """The entry as a tournament seat, labelled `label` (default: its name)."""
        return AgentSpec(
            agent=self.agent,
            model=self.model,
            options=self.options,
            model_options=self.model_options,
            label=label or self.name,
        )


class Pool(BaseModel):
    """A pool as written: a name and at least two entries with distinct names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
    entries: list[PoolEntry] = Field(min_length=2)

    @model_validator(mode="after")
    def _distinct(self) -> Pool:
        names = [e.name for e in self.entries]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"entry {twice[0]!r} appears twice; give each entry its own name")
        return self


@dataclass(frozen=True, slots=True)
class FrozenEntry:
    """An entry with the hashes of what it plays by."""

    name: str
    spec: AgentSpec
    """How the entry plays, labelled `POOL/ENTRY` in records."""
    files: Mapping[str, str]
    """What the entry depends on (a file, or `package NAME`) -> its SHA-256 (or the package's version)."""
    digest: str


@dataclass(frozen=True, slots=True)
class FrozenPool:
    """A pool at one version."""

    name: str
    entries: tuple[FrozenEntry, ...]
    version: str

    @property
    def label(self) -> str:
        """`NAME@VERSION`, as records carry it."""
        return f"{self.name}@{self.version}"

    def entry(self, name: str) -> FrozenEntry:
        """The entry called `name`.

        Raises:
            ConfigError: no entry has that name.
        """
        for e in self.entries:
            if e.name == name:
                return e
        raise ConfigError(f"pool {self.name} has no entry {name!r}; it has {', '.join(e.name for e in self.entries)}")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _names_file(key: str, value: object) -> bool:
    """Whether option `key` = `value` names a file or folder the agent reads."""
    if value is None or not isinstance(value, str | os.PathLike):
        return False
    text = str(value)
    return key in ("network", "candidates", "path") or os.sep in text or text.endswith(FILE_SUFFIXES)


def entry_files(entry: PoolEntry) -> dict[str, str]:
    """What `entry` plays by, hashed: files named in its options and model, its default network, its model package.

    Raises:
        ConfigError: a file or folder the entry names is not there (one sentence naming both).
    """
    out: dict[str, str] = {}

    def add(path: Path) -> None:  # keyed by the path from the folder named, so another install has the same keys
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                out[f"file {path.name}/{child.relative_to(path).as_posix()}"] = _sha256(child)
        elif path.is_file():
            out[f"file {path.name}"] = _sha256(path)
        else:
            raise ConfigError(f"pool entry {entry.name!r} names {str(path)!r}, which is not there")

    for key, value in sorted(entry.options.items()):
        if _names_file(key, value):
            add(Path(str(value)))
    model = entry.model or ""
    if model.startswith(("llamacpp:", "gguf:")):
        add(Path(model.split(":", 1)[1]))
    elif model == "local" or model.startswith("local:"):
        from lycan.models.local import PACKAGED_MODELS

        key = model.partition(":")[2]
        packaged = PACKAGED_MODELS.get("" if key in ("", "0.5b") else key)
        if packaged is None:
            raise ConfigError(f"pool entry {entry.name!r} plays on {model!r}, which is no embedded model")
        try:
            versions = [metadata.version(p) for p in packaged.packages]
        except metadata.PackageNotFoundError:
            raise ConfigError(
                f"pool entry {entry.name!r} plays on {model}, whose model is not installed ({packaged.install})"
            ) from None
        out[f"model {packaged.filename}"] = packaged.sha256 or f"{packaged.packages[0]}=={versions[0]}"
    from lycan.agents import agent_type

    for cls in agent_type(entry.agent).classes():  # the agent's own code: a change to it is a new version
        source = getattr(sys.modules.get(cls.__module__), "__file__", None)
        if source:
            out[f"code {cls.__module__}"] = _sha256(Path(source))
    if entry.agent == "deepwolf" and "network" not in entry.options:
        from lycan.value.shipped import default_dir

        add(default_dir())
    return out


def freeze(pool: Pool) -> FrozenPool:
    """`pool` with every entry hashed and the pool's version (12 hex digits of the hash of its entries).

    Raises:
        ConfigError: an entry of an unknown agent type or with bad options, or a file it names is missing.
    """
    entries = []
    for e in pool.entries:
        try:
            spec = e.spec(f"{pool.name}/{e.name}")  # an entrant of the same type keeps its own label
        except ValidationError as err:
            raise ConfigError(f"pool entry {e.name!r}: {err.errors()[0].get('msg', 'invalid')}") from None
        files = entry_files(e)
        # where a named file lies does not matter, only what is in it (`files`)
        options = {k: "<file>" if _names_file(k, v) else v for k, v in spec.options.items()}
        model = "llamacpp:<file>" if (spec.model or "").startswith(("llamacpp:", "gguf:")) else spec.model
        canonical = json.dumps(
            {"agent": spec.agent, "model": model, "options": options, "model_options": spec.model_options,
             "files": files},
            sort_keys=True, default=str,
        )  # fmt: skip
        entries.append(FrozenEntry(e.name, spec, files, hashlib.sha256(canonical.encode()).hexdigest()))
    version = hashlib.sha256(json.dumps([[e.name, e.digest] for e in entries]).encode()).hexdigest()[:12]
    return FrozenPool(pool.name, tuple(entries), version)


def load_pool(source: str | os.PathLike[str] | Mapping[str, Any]) -> FrozenPool:
    """The pool in `source` (a YAML/TOML file, a built-in pool's name, or a mapping), frozen.

    Raises:
        ConfigError: no such file or pool, a malformed one, or one that `freeze` refuses.
    """
    if isinstance(source, Mapping):
        data: Any = source
    elif str(source) in POOLS:
        data = POOLS[str(source)]
    else:
        path = Path(source)
        if not path.is_file():
            raise ConfigError(
                f"no pool file {str(source)!r}; give a .yaml/.toml path or a built-in pool: {', '.join(POOLS)}"
            )
        data = read_data(path, "pool file")
    try:
        pool = Pool.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ConfigError(
            f"the pool is not valid: {where + ': ' if where else ''}{first.get('msg', 'invalid')}"
        ) from None
    return freeze(pool)


def entry_digests(pool: FrozenPool) -> str:
    """What each entry of `pool` plays by, as records carry it: a JSON object of entry name -> digest."""
    return json.dumps({e.name: e.digest for e in pool.entries}, sort_keys=True)


def changed_entries(stored: str | None, pool: FrozenPool) -> list[str]:
    """What changed between the entries a record stored (`entry_digests`) and `pool`, one phrase each.

    Empty when they are the same; `["the entries"]` when the record does not say (it predates `pool_entries`).
    """
    if not stored:
        return ["the entries"]
    try:
        old = json.loads(stored)
    except json.JSONDecodeError:
        return ["the entries"]
    new = {e.name: e.digest for e in pool.entries}
    out = [f"entry {n!r} was removed" for n in sorted(set(old) - set(new))]
    out += [f"entry {n!r} was added" for n in sorted(set(new) - set(old))]
    out += [f"entry {n!r} plays by other files or options" for n in sorted(set(old) & set(new)) if old[n] != new[n]]
    return out


def _seats(preset: str) -> int:
    """How many seats `preset` has.

    Raises:
        ConfigError: it is not a preset.
    """
    try:
        return resolve_rules(preset).n_players
    except ConfigError as err:
        raise ConfigError(f"cannot play the pool: {err}") from None


def pool_tournament(
    pool: FrozenPool,
    entrant: AgentSpec,
    presets: Sequence[str],
    games: int,
    run: str | None = None,
    seed: int = 0,
    seat_rounds: int = 0,
) -> TournamentConfig:
    """`entrant` against every entry of `pool` on each preset, each side, the deals paired across entries.

    Two settings per (entry, preset): the entrant as the village against the entry as the
    werewolves, and the other way round, on the same deals. With `seat_rounds`, a third: the
    entrant in one seat and the entry in all the others, for `seat_rounds` turns of the deck (one
    game per seat each turn), the roles rotating so the entrant holds each role of the deck in
    turn; these tell the entrant's roles apart (`lycan.eval.leaderboard.pool_rating`). Every record says which
    pool version it was played against (`meta["pool"]`), what each entry of that version played by
    (`meta["pool_entries"]`: a JSON object of entry digests) and who the entrant was
    (`meta["entrant"]`).

    Raises:
        ConfigError: no preset, or a preset that is not one.
    """
    if not presets:
        raise ConfigError("give at least one preset to play the pool on")
    name = entrant.name.replace(":", "-").replace("/", "-")
    # One setting per side (not `swap`): a setting's game ids then stay put as `games` grows, so a
    # later round only adds games.
    settings = [
        {
            "name": f"{preset}-vs-{entry.name}-{'village' if entrant_village else 'werewolf'}",
            "rules": preset,
            "village": entrant if entrant_village else entry.spec,
            "werewolf": entry.spec if entrant_village else entrant,
            "swap": False,
            "games": games,
            "deals": preset,  # every entry meets the entrant on the same deals, on both sides
        }
        for preset in presets
        for entry in pool.entries
        for entrant_village in (True, False)
    ]
    if seat_rounds:
        for preset in presets:
            n = _seats(preset)
            settings += [
                {
                    "name": f"{preset}-vs-{entry.name}-one-seat",
                    "rules": preset,
                    "seats": [entrant, *[entry.spec] * (n - 1)],
                    "rotate": True,
                    "games": seat_rounds * n,
                    "deals": f"{preset}-one-seat",
                }
                for entry in pool.entries
            ]
    data = {
        "run": run or f"pool-{pool.name}-{pool.version}-{name}",
        "games": games,
        "seed": seed,
        "settings": settings,
        "meta": {"pool": pool.label, "entrant": entrant.name, "pool_entries": entry_digests(pool)},
    }
    try:
        return TournamentConfig.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        raise ConfigError(f"cannot play the pool: {first.get('msg', 'invalid')}") from None


BASELINE = "-baseline"
"""The suffix of a pool version's baseline run (`pool_baseline`); no entrant's run name ends in it."""


def pool_baseline(
    pool: FrozenPool, presets: Sequence[str], games: int, seat_rounds: int = 0, seed: int = 0
) -> TournamentConfig:
    """Every entry of `pool` against itself on the deals `pool_tournament` plays: how the pool's own sides fare.

    Self-play says what each side and each role wins on a deal when the pool plays both sides;
    an entrant's ratings per side and per role are its wins above those, deal by deal
    (`lycan.eval.leaderboard`). One run per pool version, shared by every entrant; it grows as
    entrants play more deals. Records carry `meta["pool"]` and `meta["baseline"] = "1"`.

    Raises:
        ConfigError: no preset, or a preset that is not one.
    """
    if not presets:
        raise ConfigError("give at least one preset to play the pool on")
    settings: list[dict[str, Any]] = []
    for preset in presets:
        n = _seats(preset)
        for entry in pool.entries:
            for deals, count in ((preset, games), (f"{preset}-one-seat", seat_rounds * n)):
                if count:
                    settings.append(
                        {
                            "name": f"{deals}-{entry.name}-self",
                            "rules": preset,
                            "village": entry.spec,
                            "werewolf": entry.spec,
                            "swap": False,
                            "games": count,
                            "deals": deals,
                        }
                    )
    data = {
        "run": f"pool-{pool.name}-{pool.version}{BASELINE}",
        "games": games,
        "seed": seed,
        "settings": settings,
        "meta": {"pool": pool.label, "baseline": "1", "pool_entries": entry_digests(pool)},
    }
    try:
        return TournamentConfig.model_validate(data)
    except ValidationError as err:
        raise ConfigError(f"cannot play the pool: {err.errors()[0].get('msg', 'invalid')}") from None


__all__ = [
    "BASELINE",
    "POOLS",
    "FrozenEntry",
    "FrozenPool",
    "Pool",
    "PoolEntry",
    "changed_entries",
    "entry_digests",
    "entry_files",
    "freeze",
    "load_pool",
    "pool_baseline",
    "pool_tournament",
]
