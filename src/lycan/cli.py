"""The `lycan` command: play, simulate, check, replay, and move records in and out."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from lycan.agents import LLM_KINDS, SeatSpec, SyncAgent, parse_lineup
from lycan.agents import lineup as build_lineup
from lycan.agents.llm import MannerCallback, TokenCallback
from lycan.engine import Game, GameRecord, Player, View, default_names, run_async, run_sync, visible
from lycan.engine.events import Event, Talk
from lycan.engine.manner import Manner
from lycan.engine.seeds import fresh_seed, stream
from lycan.rules import ConfigError, Role, RuleSet, Team, get_preset, preset_names, resolve_rules, team_of
from lycan.stats import Rate
from lycan.terminal import TerminalConsole

if TYPE_CHECKING:
    from lycan.models import ChatModel
    from lycan.store import GameStore

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Werewolf for AI agents and people.")
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


def _rules(spec: str) -> RuleSet:
    try:
        return resolve_rules(spec)
    except ConfigError as err:
        fail(str(err))


def _store(db: Path | None) -> GameStore:
    from lycan.store import GameStore, default_db_path

    return GameStore(db or default_db_path())


def _writable_db(db: Path | None) -> Path:
    """The database path games will be saved to, checked before any game is played; creates nothing new."""
    from lycan.store import StoreError, check_writable, default_db_path

    try:
        return check_writable(db or default_db_path())
    except StoreError as err:
        fail(str(err))


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


class TalkStreamer:
    """Prints public talk as it streams in, and tells the narrator which lines were already shown."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.open: int | None = None
        self.text = ""
        self.done: list[tuple[int, str]] = []

    def piece(self, seat: int, piece: str) -> None:
        """Print one streamed piece of `seat`'s utterance."""
        if self.open != seat:
            self.close()
            console.print(f"{self.names[seat]}: ", end="", markup=False)
            self.open = seat
        self.text += piece
        console.print(piece, end="", markup=False)
        console.file.flush()

    def close(self) -> None:
        """End a streamed line, if one is open."""
        if self.open is not None:
            console.print()
            self.done.append((self.open, " ".join(self.text.split())))
            self.open, self.text = None, ""

    def already_shown(self, event: Event) -> bool:
        """Whether `event` is an utterance that was streamed (its line is then not printed again)."""
        self.close()
        if not isinstance(event, Talk) or event.channel != "talk" or event.over or event.skip:
            return False
        said = " ".join(event.text.split())
        for i, (seat, text) in enumerate(self.done):
            if seat == event.actor and text and (said.startswith(text) or text.startswith(said)):
                del self.done[i]
                return True
        return False


class TerminalVoice:
    """Speaks AI players' talk through the terminal's sound device, clause by clause as it streams in.

    Each utterance is spoken in its manner (`lycan.voice.styled`): a streamed one in the manner its
    seat announced to `manner` just before, a whole one in its `Talk` event's.
    """

    def __init__(self, tts: Any, player: Any, quiet: set[int]) -> None:
        from lycan.voice import SpeechPipeline

        self.pipeline = SpeechPipeline(tts)
        self.player = player
        self.quiet = quiet  # seats not to voice (the person playing)
        self.feeds: dict[int, asyncio.Queue[str | None]] = {}
        self.manners: dict[int, Manner] = {}  # announced for each seat's next utterance
        self.playing: asyncio.Task[int] | None = None

    def _start(self) -> None:
        if self.playing is None:
            self.playing = asyncio.create_task(self.player.play_queue(self.pipeline.queue))

    @staticmethod
    async def _pieces(feed: asyncio.Queue[str | None]) -> AsyncIterator[str]:
        while (piece := await feed.get()) is not None:
            yield piece

    def _voice(self, seat: int, manner: Manner | None) -> Any:
        from lycan.voice import styled

        return styled(self.pipeline.tts.voice_for_seat(seat), manner)

    def manner(self, seat: int, manner: Manner) -> None:
        """`seat`'s next utterance is delivered in `manner` (the `on_manner` callback of LLM agents)."""
        self.manners[seat] = manner

    def piece(self, seat: int, piece: str) -> None:
        """Voice a streamed piece of `seat`'s public talk."""
        self._start()
        feed = self.feeds.get(seat)
        if feed is None:
            feed = self.feeds[seat] = asyncio.Queue()
            self.pipeline.speak(seat, self._pieces(feed), self._voice(seat, self.manners.pop(seat, None)))
        feed.put_nowait(piece)

    def event(self, event: Event) -> None:
        """End a streamed utterance, or voice a whole one from a player that does not stream."""
        if not isinstance(event, Talk) or event.channel != "talk" or event.over or event.skip:
            return
        feed = self.feeds.pop(event.actor, None)
        if feed is not None:
            feed.put_nowait(None)
        elif event.actor not in self.quiet:
            self._start()
            self.pipeline.speak(event.actor, event.text, self._voice(event.actor, event.manner))
        self.manners.pop(event.actor, None)

    async def aclose(self) -> None:
        """Finish speaking what was said, then stop."""
        for feed in self.feeds.values():
            feed.put_nowait(None)
        await self.pipeline.aclose()
        if self.playing is not None:
            await self.playing


PREFLIGHT_SECONDS = 180.0


async def _preflight(lineup: Lineup) -> None:
    """Ask the model for one token first, so a dead server or a bad key is one sentence, not a game of faults."""
    if lineup.model is None:
        return
    from lycan.models import ChatRequest, ModelError

    probe = ChatRequest([{"role": "user", "content": "Say OK."}], max_tokens=1, temperature=0.0, scope="preflight")
    try:
        await asyncio.wait_for(lineup.model.chat(probe), PREFLIGHT_SECONDS)
    except ModelError as err:
        fail(str(err))
    except TimeoutError:
        fail(f"the model {lineup.spec} did not answer a one-token request within {PREFLIGHT_SECONDS:g} s")


def _play(
    rules: RuleSet,
    lineup: Lineup,
    seeds: Sequence[int],
    *,
    on_event: Callable[[Event], None] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    seat_players: Callable[[list[Player]], list[Player]] = lambda players: players,
    finish: Callable[[], Awaitable[None]] | None = None,
    swaps: Sequence[bool] = (),
) -> list[GameRecord]:
    """Play one game per seed: without an event loop when every player answers at once, else in one loop.

    `swaps[i]` (default False) plays game i with the team lineup's sides exchanged.
    """
    records: list[GameRecord] = []

    def players_of(i: int) -> list[Player]:
        return seat_players(lineup.players(seeds[i], swap=i < len(swaps) and swaps[i]))

    first = players_of(0)
    if all(isinstance(p, SyncAgent) for p in first):
        for i, seed in enumerate(seeds):
            players = first if i == 0 else players_of(i)
            records.append(run_sync(rules, players, seed, on_event=on_event))  # type: ignore[arg-type]
            if on_record is not None:
                on_record(records[-1])
        return records

    async def play_all() -> None:
        await _preflight(lineup)
        for i, seed in enumerate(seeds):
            players = first if i == 0 else players_of(i)
            records.append(await run_async(rules, players, seed, on_event=on_event))
            if on_record is not None:
                on_record(records[-1])
        if finish is not None:
            await finish()

    asyncio.run(play_all())
    return records


@app.callback()
def _root() -> None:
    """Werewolf for AI agents and people."""


@app.command()
def game(
    preset: PresetOpt = "guardian7",
    agents: AgentsOpt = "heuristic",
    seed: SeedOpt = 1,
    model: ModelOpt = "local",
    db: DbOpt = None,
    save: Annotated[bool, typer.Option(help="store the finished game")] = True,
    grounding: GroundingOpt = "none",
) -> None:
    """Play one game with AI players and narrate all of it as it happens (talk streams in)."""
    from lycan.render import describe_event, render_roles

    rules = _rules(preset)
    if grounding not in ("none", "beliefs"):
        fail(f"--grounding must be none or beliefs, got {grounding!r}")
    names: list[tuple[str, ...]] = []
    streamer = TalkStreamer(default_names(rules.n_players))
    lineup = Lineup(rules, agents, model, on_token=streamer.piece, kind_options={"camwolf": {"grounding": grounding}})
    path = _writable_db(db) if save else None
    uses = f"  model {model}" if lineup.model is not None else ""
    console.print(
        f"[bold]{escape(rules.describe())}[/]  seed {seed}  agents {escape(agents)}{escape(uses)}", markup=True
    )

    def narrate(event: Event) -> None:
        if event.kind == "game_started":
            names.append(event.names)  # type: ignore[attr-defined]
        if streamer.already_shown(event):
            return
        line = describe_event(event, names[0])
        if line:
            console.print(line, markup=False)

    with clear_errors():
        record = _play(rules, lineup, [seed], on_event=narrate)[0]
        for line in render_roles(record.roles, record.names):
            console.print(line, markup=False)
        if path is not None:
            with _store(path) as store:
                store.save(record)
            console.print(f"saved as {record.game_id} (replay: lycan replay {record.game_id[:10]})")


@app.command()
def play(
    preset: PresetOpt = "aiwolf5",
    agents: AgentsOpt = "heuristic",
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="seed (a fresh 128-bit one if omitted, shown after the game)")
    ] = None,
    seat: Annotated[int | None, typer.Option(help="your seat, 1-based (random if omitted)")] = None,
    model: ModelOpt = "local",
    voice: Annotated[
        str | None, typer.Option(help="speak AI talk aloud with this TTS backend (espeak, piper, ...)")
    ] = None,
    db: DbOpt = None,
    save: Annotated[bool, typer.Option(help="store the finished game")] = True,
) -> None:
    """Play one seat yourself in the terminal against AI players (their talk streams in).

    The seed stays secret until the game ends: whoever knows it knows the deal.
    """
    from lycan.agents.human import HumanAgent
    from lycan.render import render_roles

    rules = _rules(preset)
    seed = seed if seed is not None else fresh_seed()
    streamer = TalkStreamer(default_names(rules.n_players))
    if seat is not None and not 1 <= seat <= rules.n_players:
        fail(f"--seat must be between 1 and {rules.n_players}")
    me = (seat - 1) if seat is not None else stream(seed, "human seat").randrange(rules.n_players)
    speaker: TerminalVoice | None = None
    if voice is not None:
        from lycan.voice import PlaybackUnavailable, find_player

        tts = _tts(voice)
        try:
            speaker = TerminalVoice(tts, find_player(), quiet={me})
        except PlaybackUnavailable as err:
            fail(f"{err} (play without --voice, or write a game's speech to files with lycan replay --audio)")

    def on_token(seat_: int, piece: str) -> None:
        streamer.piece(seat_, piece)
        if speaker is not None:
            speaker.piece(seat_, piece)

    lineup = Lineup(rules, agents, model, on_token=on_token, on_manner=speaker.manner if speaker is not None else None)
    path = _writable_db(db) if save else None
    human = HumanAgent(write=console.print, already_shown=streamer.already_shown)

    def sit_down(players: list[Player]) -> list[Player]:
        players[me] = human
        return players

    console.print(f"[bold]{escape(rules.describe())}[/]  You are seat {me + 1}.", markup=True)
    with clear_errors():
        record = _play(
            rules,
            lineup,
            [seed],
            seat_players=sit_down,
            on_event=speaker.event if speaker is not None else None,
            finish=speaker.aclose if speaker is not None else None,
        )[0]
        human.show_new(_final_view(record, me))
        for line in render_roles(record.roles, record.names):
            console.print(line, markup=False)
        console.print(f"Seed {seed}.", markup=False)
        if path is not None:
            with _store(path) as store:
                store.save(record)
            console.print(f"saved as {record.game_id} (replay: lycan replay {record.game_id[:10]})")


def _final_view(record: GameRecord, seat: int) -> View:

    return View(
        seat=seat,
        role=record.roles[seat],
        names=record.names,
        rules=record.rules,
        day=record.n_days,
        phase="end",
        alive=(),
        events=visible(record.events, seat),
    )


def _summarise(records: Sequence[GameRecord], seconds: float, *, by_side: bool = False) -> None:
    n = len(records)
    sides = {"village": 0, "werewolf": 0, "draw": 0}
    by_role: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_agent: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    faults = 0
    for rec in records:
        sides[rec.winner] += 1
        faults += rec.faults
        for seat, role in enumerate(rec.roles):
            won = int(team_of(role).value == rec.winner)
            by_role[role.value][0] += won
            by_role[role.value][1] += 1
            by_agent[rec.agents[seat]][0] += won
            by_agent[rec.agents[seat]][1] += 1
    table = Table(title=f"{n} games in {seconds:.2f} s ({n / max(seconds, 1e-9):,.0f} games/s)")
    table.add_column("who")
    table.add_column("win rate [95% CI]")
    for side in ("village", "werewolf"):
        table.add_row(f"{side} side", str(Rate(sides[side], n)))
    if sides["draw"]:
        table.add_row("draws", str(Rate(sides["draw"], n)))
    for role_name, (won, count) in sorted(by_role.items()):
        table.add_row(f"role {role_name}", str(Rate(won, count)))
    if len(by_agent) > 1:
        for agent, (won, count) in sorted(by_agent.items()):
            table.add_row(f"agent {agent}", str(Rate(won, count)))
    console.print(table)
    if by_side:
        from lycan.eval.metrics import matchups

        sides_table = Table(title="agent vs opponent by side (one game is one trial)")
        for col in ("agent", "opponent", "village side", "werewolf side", "overall"):
            sides_table.add_column(col)
        for m in matchups(records):
            sides_table.add_row(
                m.agent, m.opponent, *(str(r) if r.n else "N/A" for r in (m.village, m.werewolf, m.overall))
            )
        console.print(sides_table)
    console.print(f"faults: {faults} ({faults / max(n, 1):.2f} per game)")


@app.command()
def simulate(
    preset: PresetOpt = "guardian7",
    agents: AgentsOpt = "heuristic",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="how many games")] = 100,
    seed: SeedOpt = 1,
    model: ModelOpt = "local",
    db: DbOpt = None,
    save: Annotated[bool, typer.Option(help="store every finished game")] = False,
    run: Annotated[str | None, typer.Option(help="run name to store the games under")] = None,
    village: Annotated[
        str | None, typer.Option(help="team lineup: this agent type plays every village-side seat (with --werewolf)")
    ] = None,
    werewolf: Annotated[
        str | None, typer.Option(help="team lineup: this agent type plays every werewolf-side seat (with --village)")
    ] = None,
    swap: Annotated[
        bool, typer.Option("--swap", help="team lineup: also play every seed with the sides' agents exchanged")
    ] = False,
) -> None:
    """Play many games and print team and per-role win rates with 95% intervals.

    With --village A --werewolf B, A plays every village-side seat and B every werewolf-side seat
    of each game's deal, and a table gives each agent's win rate against its opponent by side.
    """
    rules = _rules(preset)
    if swap and village is None and werewolf is None:
        fail("--swap exchanges the sides of a team lineup; give --village and --werewolf too")
    lineup = Lineup(rules, agents, model, village=village, werewolf=werewolf)
    path = _writable_db(db) if save else None
    store: GameStore | None = None
    seeds = [seed + i for i in range(games)]
    swaps = [False] * games
    if swap and lineup.teams is not None and lineup.teams[0] != lineup.teams[1]:
        seeds, swaps = [s for s in seeds for _ in (0, 1)], [False, True] * games
    started = time.perf_counter()
    try:
        with clear_errors(), _progress() as progress:
            task = progress.add_task("games", total=len(seeds))

            def done(record: GameRecord) -> None:
                nonlocal store
                if path is not None:
                    store = store or _store(path)
                    store.save(record, run=run)
                progress.advance(task)

            records = _play(rules, lineup, seeds, on_record=done, swaps=swaps)
    finally:
        if store is not None:
            store.close()
    _summarise(records, time.perf_counter() - started, by_side=lineup.teams is not None)


@contextmanager
def _progress() -> Iterator[Progress]:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err_console, transient=True, disable=not sys.stderr.isatty()) as progress:
        yield progress


def _rules_list(spec: str) -> list[str]:
    """The rule sets `lycan check --preset` names: all presets, one ROLE=N deal, or a comma-separated list."""
    if spec.strip() == "all":
        return preset_names()
    if "=" in spec:
        return [spec.strip()]  # one deal: its commas separate roles, not rule sets
    names = [p.strip() for p in spec.split(",") if p.strip()]
    if not names:
        fail("give a preset name, a ROLE=N deal such as werewolf=1,seer=1,villager=3, a rules file, or all")
    return names


@app.command()
def check(
    preset: PresetOpt = "all",
    games: Annotated[int, typer.Option("--games", "-n", min=1)] = 1000,
    seed: SeedOpt = 0,
    agents: AgentsOpt = "random",
    jobs: Annotated[int, typer.Option(min=1, help="presets checked in parallel processes")] = os.cpu_count() or 1,
) -> None:
    """Run the conformance kit: play many games and check every invariant and hidden-information rule.

    --preset takes all, preset names and rules files separated by commas, or one ROLE=N deal.
    """
    from lycan.conformance import check_presets

    names = _rules_list(preset)
    for name in names:
        _rules(name)
    with clear_errors():
        reports = check_presets(names, games=games, seed=seed, agents=agents, jobs=jobs)
    bad = 0
    for report in reports.values():
        console.print(report.summary(), markup=False)
        bad += len(report.violations)
    if bad:
        raise typer.Exit(1)


@app.command()
def replay(
    game_id: Annotated[str, typer.Argument(help="game id or a unique prefix of it")],
    seat: Annotated[int | None, typer.Option("--as", help="show only what this seat (1-based) saw")] = None,
    beliefs: Annotated[
        bool,
        typer.Option(
            "--beliefs",
            help="after each day's talk, each vote and each night, show every seat's chance of being on the "
            "werewolf side and its likeliest role, from the public record (or from --as SEAT's view)",
        ),
    ] = False,
    values: Annotated[
        bool,
        typer.Option(
            "--values",
            help="for every deepwolf seat, its value network's P(win) through the game and the top candidates "
            "of each decision",
        ),
    ] = False,
    audio: Annotated[Path | None, typer.Option(help="also speak every utterance into WAV files in this folder")] = None,
    voice: Annotated[str, typer.Option(help="TTS backend for --audio (espeak, piper, kokoro, ...)")] = "espeak",
    db: DbOpt = None,
) -> None:
    """Print a stored game: all of it, or as one seat saw it; with beliefs or values, or spoken into WAV files."""
    from lycan.render import render_log

    with clear_errors(), _store(db) as store:
        record = store.get(game_id)
    if seat is not None and not 1 <= seat <= len(record.names):
        fail(f"--as must be a seat from 1 to {len(record.names)}")
    view_seat = None if seat is None else seat - 1
    console.print(f"{record.game_id}  {record.rules.describe()}  seed {record.seed}", markup=False)
    if beliefs:
        with clear_errors():
            _replay_with_beliefs(record, view_seat)
    else:
        for line in render_log(record.events, record.names, seat=view_seat):
            console.print(line, markup=False)
    if values:
        _print_values(record, view_seat)
    if audio is not None:
        from lycan.voice import render_game_audio

        rendered = asyncio.run(render_game_audio(record, audio, _tts(voice), whispers=False))
        console.print(f"spoke {len(rendered.lines)} utterances ({rendered.duration:.0f} s) into {audio}/game.wav")


def _print_values(record: GameRecord, seat: int | None) -> None:
    """The value network's P(win) of each deepwolf decision (of `seat` only, if given), with its top candidates."""
    import json

    from lycan.agents.deepwolf import RECORD_MODEL

    calls = [c for c in record.model_calls if c.model == RECORD_MODEL and (seat is None or c.seat == seat)]
    if not calls:
        fail("no deepwolf decisions in this game" + ("" if seat is None else " for that seat"))
    for s in sorted({c.seat for c in calls}):
        mine = [c for c in calls if c.seat == s]
        console.print(f"-- {record.names[s]} ({record.roles[s].value}): P(win) by the value network --", markup=False)
        curve: dict[int, list[float]] = {}
        for c in mine:
            detail = json.loads(c.reasoning)
            chosen, runner = detail.get("chosen"), detail.get("runner_up")
            day = int(detail.get("day", -1))
            if chosen and chosen[1] is not None:
                curve.setdefault(day, []).append(float(chosen[1]))
            best = "; ".join(f"{text[:60]} {value:.2f}" for text, value in detail.get("top", [])[:3])
            line = (
                f"  day {day} {c.kind:<7} chose {chosen[1]:.2f}" if chosen and chosen[1] is not None else f"  {c.kind}"
            )
            if runner:
                line += f" (runner-up {runner[1]:.2f})"
            console.print(
                line + (f"  top: {best}" if best else "") + (f"  error: {c.error}" if c.error else ""), markup=False
            )
            if detail.get("searched"):  # the candidates played out, and the share of worlds each won
                played = "; ".join(f"{text[:60]} {rate:.0%}" for text, rate in detail["searched"])
                console.print(f"    played out (won): {played}", markup=False)
        trend = ", ".join(f"day {d}: {sum(v) / len(v):.2f}" for d, v in sorted(curve.items()))
        console.print(f"  mean P(win) of its choices by day: {trend}", markup=False)
    console.print(f"outcome: {record.winner} won", markup=False)


def _meter_lines(record: GameRecord, upto: int, seat: int | None, reader: Any, *, truth: bool = False) -> list[str]:
    """The suspicion meter once `record.events[:upto]` had happened, as `seat` (None: the public record) knew it."""
    from lycan.engine.replay import view_at

    readings = reader.read(view_at(record.events, record.rules, record.names, upto, seat))
    width = max(len(n) for n in record.names) + (7 if seat is not None else 0)
    lines = []
    for r in readings:
        name = record.names[r.seat] + (" (you)" if r.seat == seat else "")
        bar = "#" * round(r.werewolf_side * 10)
        line = f"  {name:<{width}}  {r.werewolf_side:4.0%} {bar:<10}  likeliest {r.role.value} {r.role_probability:.0%}"
        if truth:
            role = record.roles[r.seat]
            line += f"  | truly {role.value} ({team_of(role).value} side)"
        lines.append(line)
    return lines


def _replay_with_beliefs(record: GameRecord, seat: int | None) -> None:
    """Print the game as `seat` (None: everything) with the meter after each part of each day and night.

    The meter reads the public record alone when `seat` is None (the whole log is still printed,
    its hidden lines marked), and `seat`'s own view otherwise.
    """
    from lycan.beliefs.meter import Meter
    from lycan.engine.replay import checkpoints
    from lycan.render import render_log

    reader = Meter()
    whose = "public record" if seat is None else f"{record.names[seat]}'s view"
    shown = 0
    for point in checkpoints(record.events):
        for line in render_log(record.events[shown : point.position], record.names, seat=seat):
            console.print(line, markup=False)
        console.print(f"-- P(werewolf side), {point.label} ({whose}) --", markup=False)
        for line in _meter_lines(record, point.position, seat, reader):
            console.print(line, markup=False)
        shown = point.position
    for line in render_log(record.events[shown:], record.names, seat=seat):
        console.print(line, markup=False)
    end = len(record.events) - (1 if record.events and record.events[-1].kind == "game_over" else 0)
    console.print(f"-- P(werewolf side) at the end ({whose}) beside the truth --", markup=False)
    for line in _meter_lines(record, end, seat, reader, truth=True):
        console.print(line, markup=False)


def _tts(spec: str) -> Any:
    try:
        from lycan.voice import load_tts
    except ImportError as err:
        fail(f"voices need the voice extra ({err.name} is missing): pip install 'lycan[voice]'")
    try:
        return load_tts(spec)
    except Exception as err:  # every backend explains itself in one sentence
        fail(str(err))


@app.command()
def games(
    db: DbOpt = None,
    limit: Annotated[int, typer.Option(min=1)] = 20,
    run: Annotated[str | None, typer.Option(help="only games of this run")] = None,
) -> None:
    """List stored games, newest first."""
    with clear_errors(), _store(db) as store:
        rows = store.list_games(run=run, limit=limit)
    table = Table()
    for col in ("game", "rules", "seed", "winner", "days", "faults", "agents"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r.game_id, r.rules, str(r.seed), r.winner, str(r.n_days), str(r.faults), ",".join(sorted(set(r.agents)))
        )
    console.print(table)


@app.command("export")
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
    with clear_errors(), _store(db) as store:
        records = list(store.iter_records(run=run))
        try:
            export_jsonl(records, target)
        except OSError as err:
            fail(f"cannot write {target} ({err.strerror or err}); give another path")
    console.print(f"wrote {len(records)} games to {target}")


@app.command("import")
def import_cmd(
    src: Annotated[Path, typer.Argument(help="JSONL file to read (.jsonl.gz: gzip-compressed)")],
    db: DbOpt = None,
    run: Annotated[
        str | None, typer.Option(help="store the games under this run, so that re-running that tournament skips them")
    ] = None,
) -> None:
    """Import games from JSONL; nothing is written unless every line is a game that can have happened."""
    from lycan.store import import_jsonl

    path = _writable_db(db)
    with clear_errors():
        records = import_jsonl(src)
        with _store(path) as store:
            added = store.import_records(records, run=run)
    distinct = len({r.game_id for r in records})
    notes = [
        f"{count} {what}"
        for count, what in ((distinct - added, "already stored"), (len(records) - distinct, "repeated in the file"))
        if count
    ]
    of = f" of {len(records)}" if added != len(records) else ""
    console.print(f"imported {added}{of} games from {src}" + (f" ({', '.join(notes)})" if notes else ""))


@app.command()
def tournament(
    config: Annotated[str, typer.Argument(help="tournament file (YAML/TOML) or a built-in name such as smoke")],
    db: DbOpt = None,
    executor: Annotated[str, typer.Option(help="local, or ray (RAY_ADDRESS for a cluster)")] = "local",
    processes: Annotated[
        int,
        typer.Option(
            min=0,
            help="local executor: worker processes for games of CPU-bound agents and of in-process "
            "models (each worker loads its own copy of the model); 0 plays every game in this process",
        ),
    ] = 0,
) -> None:
    """Play a tournament; re-running it resumes, skipping finished games."""
    from lycan.arena import run_tournament
    from lycan.arena.executors import make_executor
    from lycan.eval.report import print_summary

    with clear_errors(), _store(db) as store:
        if processes and executor != "local":
            fail("--processes is an option of the local executor")
        chosen = make_executor(executor, processes=processes) if processes else executor
        result = run_tournament(config, executor=chosen, store=store, progress=sys.stderr.isatty())
        records = list(store.iter_records(run=result.run))
    console.print(
        f"run {result.run}: {result.played} played, {result.skipped} already done, {result.faults} faults, "
        f"{result.games_per_minute:,.0f} games/min"
    )
    print_summary(records, console)


def _run_records(store: GameStore, run: str) -> list[GameRecord]:
    records = list(store.iter_records(run=run))
    if not records:
        fail(f"no games stored under run {run!r}; see `lycan games` for what is stored")
    return records


@app.command()
def report(
    run: Annotated[str, typer.Argument(help="run name (as given in the tournament file)")],
    out: Annotated[Path | None, typer.Option(help="folder for report.md, report.html and plots")] = None,
    db: DbOpt = None,
) -> None:
    """Print a run's tables and write a Markdown + HTML report with plots."""
    from lycan.eval.report import build_report, print_summary

    with clear_errors(), _store(db) as store:
        records = _run_records(store, run)
        print_summary(records, console)
        path = build_report(records, out or Path(f"report-{run}"), title=f"Lycan run {run}")
    console.print(f"report written to {path}")


@app.command()
def compare(
    run_a: Annotated[str, typer.Argument(help="first run name")],
    run_b: Annotated[str, typer.Argument(help="second run name")],
    db: DbOpt = None,
) -> None:
    """Compare two runs' win rates with two-proportion significance tests."""
    from lycan.eval.report import compare_runs

    with clear_errors(), _store(db) as store:
        table = compare_runs(_run_records(store, run_a), _run_records(store, run_b))
    console.print(table.to_rich())


beliefs_app = typer.Typer(no_args_is_help=True, help="Role beliefs: fit behaviour models from stored games.")
app.add_typer(beliefs_app, name="beliefs")


@beliefs_app.command("fit")
def beliefs_fit(
    run: Annotated[str, typer.Option(help="run whose stored games to fit on")],
    preset: PresetOpt = "guardian7",
    out: Annotated[Path | None, typer.Option(help="where to write the model (JSON); default: print a summary")] = None,
    db: DbOpt = None,
) -> None:
    """Fit the likelihoods of claims, announced results, votes and accusations by maximum likelihood.

    The games of PRESET stored under RUN are counted against their true roles; a temperature is
    then chosen on a quarter of them held out, for calibrated role probabilities.
    """
    from lycan.beliefs.fit import fit

    with clear_errors(), _store(db) as store:
        records = [r for r in _run_records(store, run) if r.rules.name == preset]
        if not records:
            fail(f"run {run!r} has no {preset} games; see `lycan games --run {run}`")
        try:
            model = fit(records, preset, source=f"run {run}")
        except ValueError as err:
            fail(str(err))
    console.print(f"fitted on {model.games} {preset} games: temperature {model.tau} on day 1, {model.tau_later} later")
    for key, p in sorted(model.claim.items()):
        if key.endswith("/0") and "/1/" in key:
            shown = ", ".join(f"{r}: {p[i]:.2f}" for i, r in enumerate(Role) if r in records[0].rules.roles)
            console.print(f"  P(claims {key.split('/')[0]} on day 1 | role): {shown}")
    if out is not None:
        model.save(out)
        console.print(f"model written to {out}")


dataset_app = typer.Typer(no_args_is_help=True, help="Training datasets: viewpoint samples from stored games.")
app.add_typer(dataset_app, name="dataset")


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

    with clear_errors(), _store(db) as store:
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

        with _progress() as progress:
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
app.add_typer(train_app, name="train")


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
            with _store(db) as store:
                records = [r for r in _run_records(store, cfg.run) if r.rules.name == cfg.preset]
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
            with _store(db) as store:
                records = [r for r in _run_records(store, cfg.run) if r.rules.name == cfg.preset]
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
app.add_typer(causal_app, name="causal")


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
    with clear_errors(), _store(db) as store:
        records = _run_records(store, run)
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


@app.command("aiwolf-serve")
def aiwolf_serve(
    preset: Annotated[str, typer.Option("--preset", "-p", help="aiwolf5 or aiwolf13")] = "aiwolf5",
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port (0 for any free port)")] = 8080,
    mixed: Annotated[bool, typer.Option("--mixed", help="fill games with different teams, not one team")] = False,
    games: Annotated[
        int | None, typer.Option(help="play this many games, then close (default: serve forever)", min=1)
    ] = None,
    timeout: Annotated[float, typer.Option(help="seconds an agent has per request")] = 60.0,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="seed of the first game (default: a fresh secret seed per game)")
    ] = None,
    max_waiting: Annotated[
        int,
        typer.Option(
            help="most connections not yet in a game; when full, a newcomer takes the place of the oldest one "
            "of an address holding the most, or of one waiting past --lobby-timeout, else is refused (HTTP 503)",
            min=1,
        ),
    ] = 256,
    name_timeout: Annotated[float, typer.Option(help="seconds a new connection has to answer NAME")] = 15.0,
    lobby_timeout: Annotated[
        float, typer.Option(help="seconds a connection keeps its place in a full lobby without a game", min=0)
    ] = 60.0,
    max_teams_per_address: Annotated[
        int, typer.Option(help="most different teams waiting at once from one address (loopback: no bound)", min=1)
    ] = 4,
    max_message_size: Annotated[
        int, typer.Option(help="largest message in bytes an agent in a game may send (one utterance)", min=512)
    ] = 16 * 1024,
    db: DbOpt = None,
) -> None:
    """Host AIWolf NLP games at ws://HOST:PORT/ws; finished games go into the store."""
    from lycan.aiwolf.server import serve

    _rules(preset)
    with clear_errors(), _store(db) as store:

        def ready(server: object) -> None:
            console.print(f"AIWolf NLP server for {preset} at {getattr(server, 'url', '')}")

        try:
            records = asyncio.run(
                serve(
                    preset,
                    host,
                    port,
                    self_match=not mixed,
                    store=store,
                    action_timeout=timeout,
                    seed=seed,
                    games=games,
                    max_waiting=max_waiting,
                    name_timeout=name_timeout,
                    lobby_timeout=lobby_timeout,
                    max_teams_per_address=max_teams_per_address,
                    max_message_size=max_message_size,
                    on_ready=ready,
                )
            )
        except KeyboardInterrupt:
            return
        except OSError as err:
            fail(f"cannot listen on {host}:{port}: {err.strerror or err}")
    for rec in records:
        console.print(f"{rec.game_id}  winner {rec.winner}  faults {rec.faults}")


@app.command("aiwolf-connect")
def aiwolf_connect(
    url: Annotated[str, typer.Argument(help="server address, e.g. ws://127.0.0.1:8080/ws")],
    agent: Annotated[str, typer.Option("--agent", help="agent type to play with")] = "heuristic",
    team: Annotated[str, typer.Option(help="team name sent to the server")] = "lycan",
    index: Annotated[int, typer.Option(help="number after the team name")] = 1,
    games: Annotated[
        int | None,
        typer.Option(help="play this many games, then stop (default: until the server closes, or Ctrl-C)", min=1),
    ] = None,
    seed: SeedOpt = 0,
    model: ModelOpt = "local",
) -> None:
    """Play a Lycan agent as an AIWolf NLP client against any server speaking the protocol.

    The agent connects again after each game, as contest agents do, until it has played `--games`
    games or the server goes away.
    """
    from lycan.aiwolf.client import AiwolfClient, ProtocolError

    player = Lineup(get_preset("aiwolf5"), agent, model).players(seed)[0]
    client = AiwolfClient(url, player, team, index)
    try:
        asyncio.run(client.run(games))
    except ProtocolError as err:
        fail(str(err))
    except KeyboardInterrupt:
        client.stopped = "interrupted"
    console.print(f"played {len(client.games)} game(s) as {team}{index}")
    if client.stopped and (games is None or len(client.games) < games):
        console.print(f"stopped: {client.stopped}")


@app.command("aiwolf-log")
def aiwolf_log(
    action: Annotated[str, typer.Argument(help="import (CSV into the store) or export (a stored game to CSV)")],
    target: Annotated[str, typer.Argument(help="CSV file to import, or game id to export")],
    out: Annotated[Path | None, typer.Option(help="CSV file to write (export)")] = None,
    db: DbOpt = None,
) -> None:
    """Move games between the store and the AIWolf CSV game-log format."""
    from lycan.aiwolf.log import read_log, write_log

    with clear_errors(), _store(db) as store:
        if action == "import":
            record = read_log(target)
            store.save(record, run="aiwolf-import")
            console.print(f"imported {target} as {record.game_id}")
        elif action == "export":
            record = store.get(target)
            path = write_log(record, out or Path(f"{record.game_id}.log"))
            console.print(f"wrote {path}")
        else:
            fail(f"unknown action {action!r}; use import or export")


def serve_hosts(host: str, allowed: list[str] | None) -> list[str] | None:
    """The host names `lycan serve` answers under: those given, else the loopback names and `host` itself.

    None (any name) when listening on all addresses with none given: the names people use are unknown.
    """
    if allowed:
        return list(allowed)
    if host in ("0.0.0.0", "::", ""):
        return None
    return sorted({"127.0.0.1", "localhost", "::1", "[::1]", host, f"[{host}]" if ":" in host else host})


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8000,
    db: DbOpt = None,
    model: Annotated[str | None, typer.Option("--model", help="chat model for LLM seats (a load_model spec)")] = None,
    voice: Annotated[
        str, typer.Option(help="voices for AI seats: espeak, piper, kokoro, openai:VOICE@URL, gptsovits@URL or none")
    ] = "espeak",
    asr: Annotated[str, typer.Option(help="speech input: whisper (tiny.en, offline) or none")] = "whisper",
    night_min: Annotated[
        float, typer.Option(help="seconds each night lasts at least, so its length tells nothing", min=0)
    ] = 10.0,
    night_wait: Annotated[
        float,
        typer.Option(
            help="seconds into each night at which people's night requests are shown (the wolves' time)", min=0
        ),
    ] = 15.0,
    max_wait: Annotated[float, typer.Option(help="longest a person may take over one decision (s)", min=1)] = 180.0,
    join_timeout: Annotated[
        float, typer.Option(help="seconds a table waits for its first person before it is closed", min=1)
    ] = 300.0,
    create_limit: Annotated[
        int, typer.Option(help="tables one address may create per 10 minutes (0: no limit)", min=0)
    ] = 10,
    origin: Annotated[
        list[str] | None, typer.Option(help="another origin whose pages may open WebSockets (repeatable)")
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="a host name the pages may be reached under (repeatable; default: the loopback names, or any "
            "when listening on all addresses)"
        ),
    ] = None,
    allow_seed: Annotated[
        bool, typer.Option(help="let tables with people take a chosen seed (whoever chose it knows the deal)")
    ] = False,
    stored_games: Annotated[
        str,
        typer.Option(
            help="finished games of --db that /games lists and replays: all, web (those played at this server's "
            "tables) or none"
        ),
    ] = "all",
) -> None:
    """Serve the browser table: create games where people and AI players play together, and replay stored ones."""
    path = _writable_db(db)  # before anything starts: a bad --db would lose every game played here
    try:
        import uvicorn

        from lycan.web import create_app
    except ImportError as err:
        fail(f"the web table needs the web extra ({err.name} is missing): pip install 'lycan[web]'")

    tts = asr_backend = None
    if voice != "none" or asr != "none":
        try:
            from lycan.voice import WhisperASR, load_tts
        except ImportError as err:
            fail(f"voices need the voice extra ({err.name} is missing): pip install 'lycan[voice]', or --voice none")
        if voice != "none":
            try:
                tts = load_tts(voice)
            except Exception as err:  # each backend explains itself in one sentence
                fail(f"{err} (or use --voice none)")
        if asr == "whisper":
            asr_backend = WhisperASR()
        elif asr != "none":
            fail(f"unknown --asr {asr!r}; use whisper or none")
    if stored_games not in ("all", "web", "none"):
        fail(f"unknown --stored-games {stored_games!r}; use all, web or none")
    hosts = serve_hosts(host, allowed_host)
    if hosts is None:
        err_console.print(
            f"warning: listening on {host} with no --allowed-host: pages answer under any host name, so a page "
            "on a rebound DNS name could reach this server; name the host names people use"
        )
    web_app = create_app(
        store_path=path,
        model_spec=model,
        tts=tts,
        asr=asr_backend,
        night_min=night_min,
        night_wait=night_wait,
        max_wait=max_wait,
        join_timeout=join_timeout,
        create_limit=(create_limit, 600.0) if create_limit else None,
        allowed_origins=origin or (),
        allowed_hosts=hosts,
        allow_seed=allow_seed,
        stored_games=stored_games,  # type: ignore[arg-type]
    )
    console.print(f"Lycan table at http://{host}:{port}/  (Ctrl+C to stop)")
    if stored_games != "none":
        console.print(f"stored games at http://{host}:{port}/games")
    try:
        uvicorn.run(web_app, host=host, port=port, log_level="info", ws="websockets-sansio", ws_max_size=1024 * 1024)
    except OSError as err:
        fail(f"cannot listen on {host}:{port}: {err.strerror or err}")


def main() -> None:
    """Entry point of the `lycan` script."""
    app()
