from pathlib import Path

from rich.console import Console

from lycan.agents import RandomAgent
from lycan.engine import GameRecord, run_sync
from lycan.eval.metrics import Price
from lycan.eval.report import build_report, compare_runs, print_summary
from lycan.rules import get_preset


def _records(n: int, seed0: int = 0) -> list[GameRecord]:
    rules = get_preset("guardian7")
    out = []
    for seed in range(seed0, seed0 + n):
        rec = run_sync(rules, [RandomAgent(seed * 10 + s) for s in range(7)], seed, probe_days=(2,))
        agents = tuple("alpha" if s % 2 else "beta:m1" for s in range(7))
        usage = {
            str(s): {"calls": 5 + s, "prompt_tokens": 400 * (1 + s % 2), "completion_tokens": 50} for s in range(7)
        }
        out.append(
            GameRecord.from_dict({**rec.to_dict(), "agents": list(agents), "meta": {**rec.meta, "usage": usage}})
        )
    return out


def _check_png(path: Path) -> None:
    from matplotlib.image import imread

    assert path.exists() and path.stat().st_size > 5_000, path
    img = imread(path)
    assert img.reshape(-1, img.shape[-1]).std(axis=0).max() > 0.01, f"{path} is a single colour"


def test_report_renders(tmp_path: Path) -> None:
    recs = _records(30)
    page = build_report(recs, tmp_path / "out", prices={"m1": Price(1.0, 2.0)}, n_boot=30)
    assert page.name == "report.html"
    html = page.read_text()
    md = (page.parent / "report.md").read_text()
    for name in ("win_rates", "ratings", "calibration", "cost_vs_win"):
        _check_png(page.parent / f"{name}.png")
        assert f"{name}.png" in html and f"{name}.png" in md
    assert "Role-identification probe" in md and "majority baseline" in md and "N=" in md
    assert "Arena metrics, as Kaggle's werewolf arena defines them" in md and "margin of win" in md
    # beta:m1 seats: 400 prompt tokens at 1 and 50 completion tokens at 2 per million each seat-game
    assert "cost / day alive" in md and "0.0005 [" in md
    console = Console(record=True, width=200)
    print_summary(recs, console, n_boot=20)
    text = console.export_text()
    assert "Win rate per role and agent" in text and "alpha" in text


def test_compare_runs() -> None:
    a, b = _records(20), _records(20, seed0=100)
    table = compare_runs(a, b)
    names = [r.name for r in table.rows]
    assert names == ["beta:m1", "alpha", "team village", "team werewolf"]
    same = compare_runs(a, a)
    assert all(r.test.p_value == 1.0 or abs(r.test.diff) < 1e-12 for r in same.rows)
    assert "p-value" in table.to_markdown()


def test_win_rates_come_per_setting_never_pooled(tmp_path: Path) -> None:
    from lycan.arena import load_config, run_tournament
    from lycan.eval.metrics import side_win_rates
    from lycan.eval.report import setting_tables, tables
    from lycan.store import GameStore

    cfg = load_config(
        {
            "run": "two",
            "games": 6,
            "settings": [
                {"name": "h-vs-r", "rules": "guardian7", "village": "heuristic", "werewolf": "random"},
                {"name": "r-vs-r", "rules": "aiwolf5", "village": "random", "werewolf": "random"},
            ],
        }
    )
    with GameStore(tmp_path / "t.db") as store:
        run_tournament(cfg, store=store, progress=False)
        recs = list(store.iter_records("two"))
    assert len(recs) == 12 + 6
    by_title = {title: (header, rows) for title, header, rows in tables(recs, n_boot=10)}
    h_vs_r = [r for r in recs if r.meta["setting"] == "h-vs-r"]
    header, rows = by_title["Agent vs opponent by side, setting h-vs-r (guardian7, 12 games)"]
    assert header == ["agent", "opponent", "village side", "werewolf side", "overall"]
    assert [row[:2] for row in rows] == [["heuristic", "random"], ["random", "heuristic"]]
    for row in rows:
        side = side_win_rates(h_vs_r, row[0], row[1])
        assert (side.village.n, side.werewolf.n, side.overall.n) == (6, 6, 12)  # games, not seats
        assert row[2].startswith(f"{side.village.value:.1%}") and row[2].endswith("N=6")
        assert row[4].endswith("N=12")
    _, rows = by_title["Agent vs opponent by side, setting r-vs-r (aiwolf5, 6 games)"]
    assert [row[:2] for row in rows] == [["random", "random"]]
    assert "Win rate per role and agent, setting h-vs-r (guardian7, 12 games)" in by_title
    assert "Win rate per role and agent, setting r-vs-r (aiwolf5, 6 games)" in by_title
    _, rows = by_title["Team win rates per setting"]
    assert [row[:3] for row in rows] == [["h-vs-r", "guardian7", "12"], ["r-vs-r", "aiwolf5", "6"]]
    assert "Team win rates" not in by_title and not any(t.startswith("Win rate by side") for t in by_title)
    assert "Faults (all settings pooled)" in by_title
    ratings = next((h, r) for title, (h, r) in by_title.items() if title.startswith("Ratings (Bradley-Terry"))
    column = ratings[0].index("Nash averaging (mixture weight)")
    weights = [float(row[column].rsplit("(", 1)[1].rstrip(")")) for row in ratings[1] if row[column]]
    assert weights and abs(sum(weights) - 1.0) < 0.02  # every rated agent has its share of the Nash mixture
    assert "Faults" in {t for t, _, _ in tables(h_vs_r, n_boot=10)}  # one setting: nothing is pooled over settings
    assert setting_tables(h_vs_r)[0][0] == "Team win rates per setting"
    page = build_report(recs, tmp_path / "rep", n_boot=10)
    assert "Agent vs opponent by side, setting h-vs-r" in (page.parent / "report.md").read_text()
    _check_png(page.parent / "win_rates.png")


def test_identification_and_votes_come_per_setting_when_there_are_several() -> None:
    from dataclasses import replace

    from lycan.agents import make_agent
    from lycan.engine.runner import run_sync
    from lycan.eval.report import tables
    from lycan.rules import get_preset

    rules = get_preset("guardian7")
    records = []
    for setting, kind in (("a", "heuristic"), ("b", "random")):
        for seed in range(3):
            players = [make_agent(kind, seed * 10 + s) for s in range(rules.n_players)]
            record = run_sync(rules, players, seed, probe_days=(1,))  # type: ignore[arg-type]
            records.append(replace(record, meta={**record.meta, "setting": setting}))
    titles = [t[0] for t in tables(records, n_boot=10)]
    for setting in ("a", "b"):
        assert any(t.startswith("Role-identification probe") and f"setting {setting}" in t for t in titles), titles
        assert any(t.startswith("Votes received per game") and f"setting {setting}" in t for t in titles), titles
