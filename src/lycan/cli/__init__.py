"""The `lycan` command: the root app, every command and command group registered in order, and `main`.

The commands live by group: `play` (game, play, simulate, check, replay), `records` (games, export,
import, tournament, report, compare), `aiwolf` (aiwolf-serve, aiwolf-connect, aiwolf-log), `serve`
(serve) and `train` (the beliefs, dataset, train and causal groups); `common` holds what they share.
"""

from __future__ import annotations

import typer

from lycan.cli import aiwolf, judge, play, records, serve, train
from lycan.cli.common import Lineup, console, err_console, fail, writable_db
from lycan.cli.play import TerminalVoice, final_view

__all__ = ["Lineup", "TerminalVoice", "app", "console", "err_console", "fail", "final_view", "main", "writable_db"]

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Werewolf for AI agents and people.")


@app.callback()
def _root() -> None:
    """Werewolf for AI agents and people."""


# The order here is the order `lycan --help` lists them in.
app.command()(play.game)
app.command()(play.play)
app.command()(play.simulate)
app.command()(play.check)
app.command()(play.replay)
app.command()(records.games)
app.command("export")(records.export_cmd)
app.command("import")(records.import_cmd)
app.command()(records.tournament)
app.command()(records.report)
app.command()(records.compare)
app.command()(records.leaderboard)
app.command()(judge.judge)
app.command("aiwolf-serve")(aiwolf.aiwolf_serve)
app.command("aiwolf-connect")(aiwolf.aiwolf_connect)
app.command("aiwolf-log")(aiwolf.aiwolf_log)
app.command()(serve.serve)
app.add_typer(records.pool_app, name="pool")
app.add_typer(train.beliefs_app, name="beliefs")
app.add_typer(train.dataset_app, name="dataset")
app.add_typer(train.train_app, name="train")
app.add_typer(train.causal_app, name="causal")


def main() -> None:
    """Entry point of the `lycan` script."""
    app()
