"""Benchmark `lycan leaderboard`: entrants rated one after another against the built-in pool.

    python benchmarks/bench_leaderboard.py [--entrant heuristic-beliefs --entrant heuristic ...] [--seat-rounds 1]

Each entrant is rated with the command's defaults (guardian7 and aiwolf5, rounds of 2 games per
entry, preset and side, until the 95% interval is narrower than 100 Elo points), then plays
`--seat-rounds` turns in one seat for its ratings per role; the pool's self-play on the same
deals is played as entrants need it. Reported per entrant: wall seconds of the whole command,
games stored by it, and the leaderboard's row (rating and interval, per side and per role against
the pool's self-play), read back from `leaderboard.html`.
"""

from __future__ import annotations

import argparse
import html
import re
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from lycan.cli import app
from lycan.store import GameStore


def table(page: Path) -> tuple[list[str], list[list[str]]]:
    text = page.read_text()
    header = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", text)]
    body = [
        [html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", text.split("<tbody>")[1])
    ]
    return header, body


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entrant", action="append", default=None)
    parser.add_argument("--seat-rounds", type=int, default=1)
    parser.add_argument("--pool", default="lycan-scripted")
    args = parser.parse_args()
    entrants = args.entrant or ["heuristic-beliefs", "heuristic", "random"]
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        db, out = Path(tmp) / "lb.db", Path(tmp) / "page"
        before = 0
        for entrant in entrants:
            started = time.monotonic()
            result = runner.invoke(
                app,
                ["leaderboard", entrant, "--pool", args.pool, "--seat-rounds", str(args.seat_rounds),
                 "--db", str(db), "--out", str(out)],
            )  # fmt: skip
            wall = time.monotonic() - started
            if result.exit_code != 0:
                raise SystemExit(result.output)
            with GameStore(db) as store:
                stored = store.count()
            print(f"{entrant}: {wall:.0f} s, {stored - before} games stored by it (store: {stored})")
            before = stored
        header, body = table(out / "leaderboard.html")
        wanted = ["entrant", "rating (Elo vs pool average)", "95% interval", "games",
                  "as village (Elo vs pool self-play)", "as werewolves (Elo vs pool self-play)",
                  "per role (Elo vs pool self-play)"]  # fmt: skip
        for row in body:
            cells = dict(zip(header, row, strict=True))
            print(" | ".join(f"{k}: {cells[k]}" for k in wanted))


if __name__ == "__main__":
    main()
