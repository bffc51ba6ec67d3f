"""The commands that play and show games: game, play, simulate, check and replay."""

from __future__ import annotations

import asyncio
import os
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from lycan.agents import SyncAgent
from lycan.cli.common import (
    AgentsOpt,
    DbOpt,
    GroundingOpt,
    Lineup,
    ModelOpt,
    PresetOpt,
    SeedOpt,
    clear_errors,
    console,
    fail,
    open_store,
    progress_bar,
    rules_from,
    writable_db,
)
from lycan.engine import GameRecord, Player, View, default_names, run_async, run_sync, visible
from lycan.engine.events import Event, Talk
from lycan.engine.manner import Manner
from lycan.engine.seeds import fresh_seed, stream
from lycan.rules import RuleSet, preset_names, team_of
from lycan.stats import Rate

if TYPE_CHECKING:
    from lycan.store import GameStore


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
        self.personas: dict[int, Any] = {}  # each AI seat's persona, when it has one (its voice follows it)
        self.playing: asyncio.Task[int] | None = None

    def _start(self) -> None:
        if self.playing is None:
            self.playing = asyncio.create_task(self.player.play_queue(self.pipeline.queue))

    @staticmethod
    async def _pieces(feed: asyncio.Queue[str | None]) -> AsyncIterator[str]:
        while (piece := await feed.get()) is not None:
            yield piece

    def _voice(self, seat: int, manner: Manner | None) -> Any:
        from lycan.voice import styled, voice_for_persona

        persona = self.personas.get(seat)
        tts = self.pipeline.tts
        return styled(voice_for_persona(tts, seat, persona) if persona else tts.voice_for_seat(seat), manner)

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
    names: Callable[[int], Sequence[str] | None] = lambda seed: None,
) -> list[GameRecord]:
    """Play one game per seed: without an event loop when every player answers at once, else in one loop.

    `swaps[i]` (default False) plays game i with the team lineup's sides exchanged; `names(seed)` names
    the seats (None: `Player 1` ..).
    """
    records: list[GameRecord] = []

    def players_of(i: int) -> list[Player]:
        return seat_players(lineup.players(seeds[i], swap=i < len(swaps) and swaps[i]))

    first = players_of(0)
    if all(isinstance(p, SyncAgent) for p in first):
        for i, seed in enumerate(seeds):
            players = first if i == 0 else players_of(i)
            records.append(run_sync(rules, players, seed, names=names(seed), on_event=on_event))  # type: ignore[arg-type]
            if on_record is not None:
                on_record(records[-1])
        return records

    async def play_all() -> None:
        await _preflight(lineup)
        for i, seed in enumerate(seeds):
            players = first if i == 0 else players_of(i)
            records.append(await run_async(rules, players, seed, names=names(seed), on_event=on_event))
            if on_record is not None:
                on_record(records[-1])
        if finish is not None:
            await finish()

    asyncio.run(play_all())
    return records


def game(
    preset: PresetOpt = "guardian7",
    agents: AgentsOpt = "heuristic",
    seed: SeedOpt = 1,
    model: ModelOpt = "local",
    db: DbOpt = None,
    save: Annotated[bool, typer.Option(help="store the finished game")] = True,
    grounding: GroundingOpt = "none",
    seat_names: Annotated[
        str,
        typer.Option("--names", help="seats: Player 1 ..; ai: fictional names, as a web table names its AI seats"),
    ] = "seats",
) -> None:
    """Play one game with AI players and narrate all of it as it happens (talk streams in)."""
    from lycan.agents.persona import ai_names
    from lycan.render import describe_event, render_roles

    rules = rules_from(preset)
    if grounding not in ("none", "beliefs"):
        fail(f"--grounding must be none or beliefs, got {grounding!r}")
    if seat_names not in ("seats", "ai"):
        fail(f"--names must be seats or ai, got {seat_names!r}")
    named = ai_names(rules.n_players, seed) if seat_names == "ai" else default_names(rules.n_players)
    names: list[tuple[str, ...]] = []
    streamer = TalkStreamer(named)
    lineup = Lineup(rules, agents, model, on_token=streamer.piece, kind_options={"camwolf": {"grounding": grounding}})
    path = writable_db(db) if save else None
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
        record = _play(rules, lineup, [seed], on_event=narrate, names=lambda _: named)[0]
        for line in render_roles(record.roles, record.names):
            console.print(line, markup=False)
        if path is not None:
            with open_store(path) as store:
                store.save(record)
            console.print(f"saved as {record.game_id} (replay: lycan replay {record.game_id[:10]})")


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

    rules = rules_from(preset)
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
    path = writable_db(db) if save else None
    human = HumanAgent(write=console.print, already_shown=streamer.already_shown)

    def sit_down(players: list[Player]) -> list[Player]:
        players[me] = human
        if speaker is not None:
            from lycan.agents.persona import persona_of

            speaker.personas = {s: p for s, player in enumerate(players) if (p := persona_of(player)) is not None}
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
        human.show_new(final_view(record, me))
        for line in render_roles(record.roles, record.names):
            console.print(line, markup=False)
        console.print(f"Seed {seed}.", markup=False)
        if path is not None:
            with open_store(path) as store:
                store.save(record)
            console.print(f"saved as {record.game_id} (replay: lycan replay {record.game_id[:10]})")


def final_view(record: GameRecord, seat: int) -> View:
    """`seat`'s own view of the finished game `record`, at its end."""
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
    rules = rules_from(preset)
    if swap and village is None and werewolf is None:
        fail("--swap exchanges the sides of a team lineup; give --village and --werewolf too")
    lineup = Lineup(rules, agents, model, village=village, werewolf=werewolf)
    path = writable_db(db) if save else None
    store: GameStore | None = None
    seeds = [seed + i for i in range(games)]
    swaps = [False] * games
    if swap and lineup.teams is not None and lineup.teams[0] != lineup.teams[1]:
        seeds, swaps = [s for s in seeds for _ in (0, 1)], [False, True] * games
    started = time.perf_counter()
    try:
        with clear_errors(), progress_bar() as progress:
            task = progress.add_task("games", total=len(seeds))

            def done(record: GameRecord) -> None:
                nonlocal store
                if path is not None:
                    store = store or open_store(path)
                    store.save(record, run=run)
                progress.advance(task)

            records = _play(rules, lineup, seeds, on_record=done, swaps=swaps)
    finally:
        if store is not None:
            store.close()
    _summarise(records, time.perf_counter() - started, by_side=lineup.teams is not None)


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
        rules_from(name)
    with clear_errors():
        reports = check_presets(names, games=games, seed=seed, agents=agents, jobs=jobs)
    bad = 0
    for report in reports.values():
        console.print(report.summary(), markup=False)
        bad += len(report.violations)
    if bad:
        raise typer.Exit(1)


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
            help="for every deepwolf seat, its value network's P(win) through the game (calibrated where the "
            "network has a calibration, with the network's own figure beside it) and the top candidates of each "
            "decision",
        ),
    ] = False,
    audio: Annotated[Path | None, typer.Option(help="also speak every utterance into WAV files in this folder")] = None,
    voice: Annotated[str, typer.Option(help="TTS backend for --audio (espeak, piper, kokoro, ...)")] = "espeak",
    db: DbOpt = None,
) -> None:
    """Print a stored game: all of it, or as one seat saw it; with beliefs or values, or spoken into WAV files."""
    from lycan.render import render_log

    with clear_errors(), open_store(db) as store:
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
        details = [json.loads(c.reasoning) for c in mine]
        calibrated = all("calibrated" in d for d in details if (d.get("chosen") or [None, None])[1] is not None)
        how = "calibrated (the network's own figure in brackets)" if calibrated else "as the network rates it"
        console.print(
            f"-- {record.names[s]} ({record.roles[s].value}): P(win) by the value network, {how} --", markup=False
        )
        curve: dict[int, list[float]] = {}
        for c, detail in zip(mine, details, strict=True):
            chosen, runner = detail.get("chosen"), detail.get("runner_up")
            day = int(detail.get("day", -1))
            if chosen and chosen[1] is not None:
                curve.setdefault(day, []).append(float(detail["calibrated"] if calibrated else chosen[1]))
            best = "; ".join(f"{text[:60]} {value:.2f}" for text, value in detail.get("top", [])[:3])
            if chosen and chosen[1] is not None:
                figure = f"{detail['calibrated']:.2f} [{chosen[1]:.2f}]" if calibrated else f"{chosen[1]:.2f}"
                line = f"  day {day} {c.kind:<7} chose {figure}"
            else:
                line = f"  {c.kind}"
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
    from lycan.engine.stepping import view_at

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
    from lycan.engine.stepping import checkpoints
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
