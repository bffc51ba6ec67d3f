"""The AIWolf NLP commands: aiwolf-serve, aiwolf-connect and aiwolf-log."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from lycan.cli.common import DbOpt, Lineup, ModelOpt, SeedOpt, clear_errors, console, fail, open_store, rules_from
from lycan.rules import get_preset


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
    profiles: Annotated[
        bool,
        typer.Option(
            "--profiles/--no-profiles",
            help="send each agent a profile of its own in INITIALIZE (age, gender, personality), "
            "from a persona drawn for its seat apart from the deal",
        ),
    ] = True,
    db: DbOpt = None,
) -> None:
    """Host AIWolf NLP games at ws://HOST:PORT/ws; finished games go into the store."""
    from lycan.aiwolf.server import serve

    rules_from(preset)
    with clear_errors(), open_store(db) as store:

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
                    profiles=profiles,
                    on_ready=ready,
                )
            )
        except KeyboardInterrupt:
            return
        except OSError as err:
            fail(f"cannot listen on {host}:{port}: {err.strerror or err}")
    for rec in records:
        console.print(f"{rec.game_id}  winner {rec.winner}  faults {rec.faults}")


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
    games or the server goes away. A profile the server sends becomes the agent's persona, for
    agents that take one.
    """
    from lycan.aiwolf.client import AiwolfClient, ProtocolError

    player = Lineup(get_preset("aiwolf5"), agent, model).players(seed)[0]
    client = AiwolfClient(url, player, team, index, seed=seed)
    try:
        asyncio.run(client.run(games))
    except ProtocolError as err:
        fail(str(err))
    except KeyboardInterrupt:
        client.stopped = "interrupted"
    console.print(f"played {len(client.games)} game(s) as {team}{index}")
    if client.stopped and (games is None or len(client.games) < games):
        console.print(f"stopped: {client.stopped}")


def aiwolf_log(
    action: Annotated[str, typer.Argument(help="import (CSV into the store) or export (a stored game to CSV)")],
    target: Annotated[str, typer.Argument(help="CSV file to import, or game id to export")],
    out: Annotated[Path | None, typer.Option(help="CSV file to write (export)")] = None,
    db: DbOpt = None,
) -> None:
    """Move games between the store and the AIWolf CSV game-log format."""
    from lycan.aiwolf.log import read_log, write_log

    with clear_errors(), open_store(db) as store:
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
