"""What the `lycan` commands share: the consoles, common options, errors as one sentence, rules, the store, Lineup."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from lycan.agents import LLM_KINDS, SeatSpec, parse_lineup
from lycan.agents import lineup as build_lineup
from lycan.agents.llm import MannerCallback, TokenCallback
from lycan.engine import Game, GameRecord, Player
from lycan.rules import ConfigError, RuleSet, Team, resolve_rules, team_of
from lycan.terminal import TerminalConsole

if TYPE_CHECKING:
    from lycan.models import ChatModel
    from lycan.store import GameStore

# Everything the commands print goes through these two: each string they render is escaped there
# (`lycan.terminal.visible`), so no name, talk, record, file or model answer can drive the terminal.
console = TerminalConsole(soft_wrap=True)
err_console = TerminalConsole(stderr=True, soft_wrap=True)

PresetOpt = Annotated[str, typer.Option("--preset", "-p", help="preset name, ROLE=N list, or a .toml/.yaml rules file")]
AgentsOpt = Annotated[str, typer.Option("--agents", "-a", help="agent type(s), cycled over the seats, e.g. heuristic")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="seed of the first game")]
DbOpt = Annotated[Path | None, typer.Option("--db", help="SQLite file for game records [env LYCAN_DB]")]
ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        "-m",
        help="chat model for llm/react/recon/camwolf seats: local (embedded), local:tiny, local:1.5b, "
        "llamacpp:PATH, openai:MODEL[@URL], hf:PATH",
    ),
]
GroundingOpt = Annotated[
    str,
    typer.Option(
        "--grounding",
        help="camwolf seats: show the Reasoner the belief engine's summary and its evidence (beliefs) or not (none)",
    ),
]


def fail(message: str) -> NoReturn:
    """Print one clear sentence and exit with status 2 (`message` is shown as written, never read as markup)."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", markup=True)
    raise typer.Exit(2)


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn the expected kinds of bad input into one sentence and exit status 2."""
    from lycan.store import JsonlError, StoreError

    try:
        yield
    except (ConfigError, JsonlError, StoreError) as err:
        fail(str(err))
    except ValueError as err:
        fail(str(err))


def rules_from(spec: str) -> RuleSet:
    """The rule set `spec` names (a preset, a ROLE=N list or a rules file), or one sentence and exit status 2."""
    try:
        return resolve_rules(spec)
    except ConfigError as err:
        fail(str(err))


def open_store(db: Path | None) -> GameStore:
    """The game store at `db`, else at the default path."""
    from lycan.store import GameStore, default_db_path

    return GameStore(db or default_db_path())


def writable_db(db: Path | None) -> Path:
    """The database path games will be saved to, checked before any game is played; creates nothing new."""
    from lycan.store import StoreError, check_writable, default_db_path

    try:
        return check_writable(db or default_db_path())
    except StoreError as err:
        fail(str(err))


def run_records(store: GameStore, run: str) -> list[GameRecord]:
    """Every game stored under `run`, or one sentence and exit status 2 when there is none."""
    records = list(store.iter_records(run=run))
    if not records:
        fail(f"no games stored under run {run!r}; see `lycan games` for what is stored")
    return records


@contextmanager
def progress_bar() -> Iterator[Progress]:
    """A progress bar on stderr, shown only when stderr is a terminal and gone when done."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err_console, transient=True, disable=not sys.stderr.isatty()) as progress:
        yield progress


class Lineup:
    """Builds each game's players, loading the `--model` once if a seat needs it.

    Either `agents` (types cycled over the seats) or a team lineup: `village` plays every
    village-side seat and `werewolf` every werewolf-side seat of the game's deal, which the game's
    seed decides (`Game(rules, seed).roles`); `swap=True` gives the village side's seats to `werewolf`.
    """

    def __init__(
        self,
        rules: RuleSet,
        agents: str,
        model: str,
        on_token: TokenCallback | None = None,
        *,
        village: str | None = None,
        werewolf: str | None = None,
        on_manner: MannerCallback | None = None,
        kind_options: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.rules = rules
        self.kind_options = {k: dict(v) for k, v in (kind_options or {}).items()}
        self.teams: tuple[str, str] | None = None
        try:
            if village is not None or werewolf is not None:
                if village is None or werewolf is None:
                    fail("--village and --werewolf go together; give both, e.g. --village heuristic --werewolf random")
                sides = []
                for flag, spec in (("--village", village), ("--werewolf", werewolf)):
                    kinds = parse_lineup(spec, 1)
                    if "," in spec.strip(", "):
                        fail(f"{flag} takes one agent type for every seat of its side, got {spec!r}")
                    sides.append(kinds[0])
                self.teams = (sides[0], sides[1])
                self.kinds = sides
            else:
                self.kinds = parse_lineup(agents, rules.n_players)
        except ValueError as err:
            fail(str(err))
        self.model: ChatModel | None = None
        self.spec = model
        self.on_token = on_token
        self.on_manner = on_manner
        if any(kind in LLM_KINDS for kind in self.kinds):
            from lycan.models import ModelError, load_model

            try:
                self.model = load_model(model)
            except ModelError as err:
                fail(str(err))

    def seat_kinds(self, seed: int, swap: bool = False) -> list[str]:
        """The agent type of every seat in the game with this seed."""
        if self.teams is None:
            return self.kinds
        village, werewolf = reversed(self.teams) if swap else self.teams
        return [village if team_of(role) is Team.VILLAGE else werewolf for role in Game(self.rules, seed).roles]

    def players(self, seed: int, swap: bool = False) -> list[Player]:
        """Fresh players for the game with this seed (`swap`: the team lineup's sides exchanged).

        Each agent is seeded with `derive(seed, "agent", seat)`: its own stream, from which the
        game's seed, and so the deal, cannot be worked out.
        """
        common: dict[str, Any] = {"model": self.model}
        if self.on_token is not None:
            common["on_token"] = self.on_token
        if self.on_manner is not None:
            common["on_manner"] = self.on_manner
        seats = [SeatSpec(kind, options=self.kind_options.get(kind, {})) for kind in self.seat_kinds(seed, swap)]
        return build_lineup(seats, seed, **common)
