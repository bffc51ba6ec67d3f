"""The `lycan` command."""

from __future__ import annotations

import asyncio

import typer

from lycan.agents import make_agent
from lycan.engine import run_async
from lycan.engine.events import Event
from lycan.rules import ConfigError, resolve_rules

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Werewolf for AI agents and people.")


@app.callback()
def _root() -> None:
    """Werewolf for AI agents and people."""


@app.command()
def game(preset: str = "guardian7", agents: str = "random", seed: int = 1) -> None:
    """Play one game and print it as it happens."""
    try:
        rules = resolve_rules(preset)
    except ConfigError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None

    def show(event: Event) -> None:
        typer.echo(f"day {event.day} {event.phase:5} {event.kind}")

    rec = asyncio.run(
        run_async(rules, [make_agent(agents, seed + s) for s in range(rules.n_players)], seed, on_event=show)
    )
    typer.echo(f"winner: {rec.winner}")


def main() -> None:
    """Entry point of the `lycan` script."""
    app()
