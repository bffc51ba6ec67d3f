"""Reports: terminal tables (rich), a Markdown + HTML report with PNG plots, and run comparisons.

Every number in a table carries its N and 95% interval, as the metrics give them. Win rates are
given per setting (a tournament's table configuration, `meta["setting"]`; else the rule set), never
pooled over settings: agent against opponent by side, as CaM-Wolf's Table 1 gives method against
baseline, and per role, as Deep Wolf's tables do.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from lycan.engine.record import GameRecord
from lycan.eval.bias import win_bias
from lycan.eval.coherence import Coherence, coherence, is_llm
from lycan.eval.estimates import Mean, ProportionTest, bootstrap_mean, two_proportion_test
from lycan.eval.judge import CRITERIA_KEYS, JudgementLike, criteria, is_weak_judge
from lycan.eval.metrics import (
    Prices,
    calibration,
    fault_stats,
    identification_precision,
    key_role_survival,
    matchups,
    probe_accuracy,
    seat_won,
    survival,
    team_lineup,
    team_win_rates,
    usage_stats,
    vote_success,
    votes_received,
    win_dominance,
    win_rates_by_role,
)
from lycan.eval.speech import BUDGETS, SpeechStats, speech
from lycan.eval.study import OVERALL, QuestionnaireLike, paradigm_scores, study_tables
from lycan.rules.roles import Team, team_of
from lycan.stats import Rate
from lycan.terminal import TerminalConsole

TableData = tuple[str, list[str], list[list[str]]]
"""A titled table: (title, header, rows of cells)."""


def _pct(r: Rate) -> str:
    if r.n == 0:
        return "N/A"
    lo, hi = r.interval
    return f"{r.value:.1%} [{lo:.0%}, {hi:.0%}] N={r.n}"


def _mean(m: Mean, fmt: str = ".2f") -> str:
    if m.n == 0 or math.isnan(m.value):
        return "N/A"
    return f"{m.value:{fmt}} [{m.lo:{fmt}}, {m.hi:{fmt}}] N={m.n}"


def side_rates_by_agent(records: Sequence[GameRecord]) -> dict[str, dict[str, Rate]]:
    """Per agent: win rate on village seats, on werewolf-team seats, and overall."""
    cells: dict[str, dict[str, list[int]]] = {}
    for rec in records:
        for seat, agent in enumerate(rec.agents):
            side = team_of(rec.roles[seat]).value
            row = cells.setdefault(agent, {"village": [0, 0], "werewolf": [0, 0], "overall": [0, 0]})
            won = seat_won(rec, seat)
            for key in (side, "overall"):
                row[key][0] += won
                row[key][1] += 1
    return {a: {k: Rate(*v) for k, v in row.items()} for a, row in cells.items()}


def setting_of(record: GameRecord) -> str:
    """The setting a record was played in: its tournament setting (`meta["setting"]`), else its rules' name."""
    setting = record.meta.get("setting")
    return str(setting) if setting else record.rules.name


def by_setting(records: Sequence[GameRecord]) -> dict[str, list[GameRecord]]:
    """Records grouped by `setting_of`, in order of first appearance."""
    groups: dict[str, list[GameRecord]] = {}
    for rec in records:
        groups.setdefault(setting_of(rec), []).append(rec)
    return groups


def _where(name: str, records: Sequence[GameRecord]) -> str:
    rules = ", ".join(sorted({r.rules.name for r in records}))
    if rules == name:
        return f"{name} ({len(records)} games)"
    return f"setting {name} ({rules}, {len(records)} games)"


def side_rows(records: Sequence[GameRecord]) -> list[tuple[str, str, Rate, Rate, Rate]]:
    """Per setting, who won how often on each side: (setting, who, village, werewolf, overall).

    Team games give one row per agent against each opponent (one game is one trial); games with
    mixed sides give one row per agent over its seats (seat-level).
    """
    rows: list[tuple[str, str, Rate, Rate, Rate]] = []
    for name, recs in by_setting(records).items():
        rows += [(name, f"{m.agent} vs {m.opponent}", m.village, m.werewolf, m.overall) for m in matchups(recs)]
        mixed = [r for r in recs if team_lineup(r) is None]
        for agent, r in side_rates_by_agent(mixed).items():
            rows.append((name, agent, r["village"], r["werewolf"], r["overall"]))
    return rows


def setting_tables(records: Sequence[GameRecord]) -> list[TableData]:
    """The win-rate tables of each setting: team win rates, agent against opponent by side, per role."""
    groups = by_setting(records)
    draws = any(r.winner == "draw" for r in records)
    team_rows = []
    for name, recs in groups.items():
        teams = team_win_rates(recs)
        rules = ", ".join(sorted({r.rules.name for r in recs}))
        team_rows.append(
            [name, rules, str(len(recs)), _pct(teams["village"]), _pct(teams["werewolf"])]
            + ([_pct(teams["draw"])] if draws else [])
        )
    out: list[TableData] = [
        (
            "Team win rates per setting",
            ["setting", "rules", "games", "village", "werewolf"] + (["draw"] if draws else []),
            team_rows,
        )
    ]
    for name, recs in groups.items():
        where = _where(name, recs)
        ms = matchups(recs)
        if ms:
            out.append(
                (
                    f"Agent vs opponent by side, {where}",
                    ["agent", "opponent", "village side", "werewolf side", "overall"],
                    [[m.agent, m.opponent, _pct(m.village), _pct(m.werewolf), _pct(m.overall)] for m in ms],
                )
            )
        mixed = [r for r in recs if team_lineup(r) is None]
        if mixed:
            sides = side_rates_by_agent(mixed)
            out.append(
                (
                    f"Win rate by side (seat-level, mixed lineups), {where}",
                    ["agent", "village", "werewolf", "overall"],
                    [[a, _pct(r["village"]), _pct(r["werewolf"]), _pct(r["overall"])] for a, r in sides.items()],
                )
            )
        rt = win_rates_by_role(recs)
        rows = [[a, *(_pct(row[r]) for r in rt.roles), _pct(rt.overall[a])] for a, row in rt.rows.items()]
        rows.append(["Average", *(_pct(rt.average[r]) for r in rt.roles), ""])
        out.append((f"Win rate per role and agent, {where}", ["agent", *(r.value for r in rt.roles), "overall"], rows))
        if len(groups) > 1:
            out += identification_tables(recs, f", {where}")
    return out


def identification_tables(records: Sequence[GameRecord], where: str = "") -> list[TableData]:
    """Seed 002's Tables 2 and 4 for `records`: role identification and votes received per game.

    Identification is the probe's accuracy against the majority baseline (no table when no probe
    was answered).
    """
    out: list[TableData] = []
    probes = probe_accuracy(records)
    if probes:
        village = probe_accuracy(records, team=Team.VILLAGE)
        out.append(
            (
                "Role-identification probe" + where,
                ["agent", "accuracy", "majority baseline", "accuracy (village seats)", "answered"],
                [
                    [
                        a,
                        _pct(p.accuracy),
                        _pct(p.baseline),
                        _pct(village[a].accuracy if a in village else Rate(0, 0)),
                        _pct(p.answered),
                    ]
                    for a, p in probes.items()
                ],
            )
        )
    votes = votes_received(records)
    out.append(
        (
            "Votes received per game" + where,
            ["agent", "votes received / game", "from humans / game"],
            [[a, _mean(v.received), _mean(v.from_humans)] for a, v in votes.items()],
        )
    )
    return out


def coherence_cells(stats: Mapping[str, Coherence]) -> tuple[list[str], list[list[str]]]:
    """The coherence table of `stats` (one row per key: an agent type, or any label a benchmark gives)."""
    header = [
        "agent",
        "games",
        "prompt echo",
        "self-narration",
        "werewolf self-reveal",
        "seer announces a werewolf",
        "contradicts own knowledge",
        "votes as said",
        "faults / decision",
        "timeouts / decision",
        "phrasings rejected",
        "rejection reasons",
    ]
    rows = [
        [
            label,
            str(c.games),
            _pct(c.echo_rate),
            _pct(c.narration_rate),
            _pct(c.wolf_reveal_rate),
            _pct(c.seer_announce_rate),
            _pct(c.contradiction_rate),
            _pct(c.promise_rate),
            _pct(c.fault_rate),
            _pct(c.timeout_rate),
            _pct(c.rejection_rate),
            ", ".join(f"{reason} {k}" for reason, k in c.reasons.items()) or "-",
        ]
        for label, c in stats.items()
    ]
    return header, rows


def speech_cells(stats: Mapping[str, SpeechStats]) -> tuple[list[str], list[list[str]]]:
    """The speech table of `stats` (one row per key: an agent type, or any label a benchmark gives).

    Distinct word pairs are over each budget of `BUDGETS` words; fewer words than the budget are
    shown with the number of words counted.
    """
    header = [
        "agent",
        "utterances",
        "said word for word by another seat",
        *(f"distinct word pairs, first {b:,} words" for b in BUDGETS),
        "words / utterance (median)",
        "accusations citing a seen event",
        "false citations",
        "turns answering earlier talk",
        "turns replying to who named the speaker",
    ]
    rows = []
    for a, st in stats.items():
        pairs = []
        for b in BUDGETS:
            share, counted = st.distinct_pairs(b)
            pairs.append(f"{share:.3f}" + ("" if counted >= b else f" ({counted:,} words)"))
        rows.append(
            [
                a,
                str(st.utterances),
                _pct(Rate(st.copied, st.utterances)),
                *pairs,
                f"{st.median_words:g}",
                _pct(Rate(st.cited, st.accusations)),
                str(st.false_citations),
                _pct(Rate(st.answers, st.turns)),
                _pct(Rate(st.replies, st.turns)),
            ]
        )
    return header, rows


def judge_tables(judgements: Sequence[JudgementLike], n_boot: int = 1000) -> list[TableData]:
    """Per judge model, each agent's mean judge score (1-5) per criterion, with N and a bootstrap 95% interval.

    One row per agent over its judged seats; "mean" is the mean over a seat's criteria; unjudged
    seats are counted, never scored. A judge that is one of the small embedded models (`local`,
    `local:1.5b`, ...) is named as a weak judge.
    """
    out: list[TableData] = []
    rubric = criteria()
    for judge in sorted({j.judge for j in judgements}):
        mine = [j for j in judgements if j.judge == judge]
        keys = [k for k in CRITERIA_KEYS if any(k in j.scores for j in mine if j.status == "judged")]
        rows = []
        for agent in sorted({j.agent for j in mine}):
            seats = [j for j in mine if j.agent == agent]
            judged = [j for j in seats if j.status == "judged"]
            cells = [_mean(bootstrap_mean([j.scores[k] for j in judged if k in j.scores], n_boot)) for k in keys]
            overall = [sum(j.scores.values()) / len(j.scores) for j in judged if j.scores]
            mean = _mean(bootstrap_mean(overall, n_boot))
            rows.append([agent, str(len(judged)), str(len(seats) - len(judged)), *cells, mean])
        weak = ", a weak judge: a small embedded model" if is_weak_judge(judge) else ""
        out.append(
            (
                f"Judge scores, 1-5 (judge {judge}{weak})",
                ["agent", "seats judged", "unjudged", *(rubric[k].title for k in keys), "mean"],
                rows,
            )
        )
    return out


def tables(
    records: Sequence[GameRecord],
    prices: Prices | None = None,
    n_boot: int = 200,
    *,
    judgements: Sequence[JudgementLike] = (),
    questionnaires: Sequence[QuestionnaireLike] = (),
) -> list[TableData]:
    """Every results table for `records`, as plain cells (used by the terminal, Markdown and HTML).

    Win rates come per setting (`setting_tables`); the other tables pool every game, and say so
    when the records hold more than one setting. `judgements` (of a judge model, `lycan judge`)
    add the judge's scores last, counting only those of games in `records`.
    """
    from lycan.eval.ratings import bradley_terry, matches, nash_averaging, openskill_ratings

    out = setting_tables(records)
    pooled = " (all settings pooled)" if len(by_setting(records)) > 1 else ""
    votes = votes_received(records)
    out.append(
        (
            "Votes received" + pooled,
            ["agent", "votes received / game", "from humans / game"],
            [[a, _mean(v.received), _mean(v.from_humans)] for a, v in votes.items()],
        )
    )
    irp, vss, ksr_all = identification_precision(records), vote_success(records), survival(records)
    wd_irp = identification_precision(records, win_dependent=True)
    wd_vss, wd_ksr = vote_success(records, win_dependent=True), survival(records, win_dependent=True)
    dominance = win_dominance(records)
    none = Rate(0, 0)
    out.append(
        (
            "Arena metrics, as Kaggle's werewolf arena defines them" + pooled,
            [
                "agent",
                "IRP",
                "VSS",
                "KSR (alive at end)",
                "WD-IRP",
                "WD-VSS",
                "WD-KSR",
                "margin of win",
                "speed of win",
            ],
            [
                [
                    a,
                    *(_pct(m.get(a, none)) for m in (irp, vss, ksr_all, wd_irp, wd_vss, wd_ksr)),
                    _mean(d.margin),
                    _mean(d.speed),
                ]
                for a, d in dominance.items()
            ],
        )
    )
    ksr = key_role_survival(records)
    if ksr:
        days = sorted({d for s in ksr.values() for d in s.by_day})[:5]
        out.append(
            (
                "Key-role survival (alive when the day begins)" + pooled,
                ["role", *(f"day {d}" for d in days), "at end"],
                [[r.value, *(_pct(s.by_day.get(d, Rate(0, 0))) for d in days), _pct(s.at_end)] for r, s in ksr.items()],
            )
        )
    out += [t for t in identification_tables(records, pooled) if t[0].startswith("Role-identification")]
    cal = calibration(records)
    if cal:
        out.append(
            (
                "Calibration of probe probabilities" + pooled,
                ["agent", "Brier", "log-loss"],
                [[a, _mean(c.brier, ".3f"), _mean(c.log_loss, ".3f")] for a, c in cal.items()],
            )
        )
    faults = fault_stats(records)
    out.append(
        (
            "Faults" + pooled,
            ["agent", "faults / seat-game", "per 100 decisions", "decisions"],
            [
                [a, _mean(f.per_game), "{:.2f} [{:.2f}, {:.2f}]".format(*f.per_100), str(f.decisions)]
                for a, f in faults.items()
            ],
        )
    )
    llm_agents = sorted({a for rec in records for a in rec.agents if is_llm(a)})
    if llm_agents:
        out.append(
            (
                "Coherence of public talk (LLM seats; rates per utterance, seer per seer seat)" + pooled,
                *coherence_cells(coherence(records, agents=llm_agents)),
            )
        )
    talk = {a: st for a, st in speech(records).items() if st.utterances}
    if talk:
        out.append(("Speech: variety, reasons and answers in public talk" + pooled, *speech_cells(talk)))
    usage = usage_stats(records, prices)
    if usage:
        out.append(
            (
                "Model use per seat-game" + pooled,
                [
                    "agent",
                    "calls",
                    "tokens",
                    "latency s",
                    "cost",
                    "tokens / decision",
                    "cost / decision",
                    "cost / day alive",
                ],
                [
                    [
                        a,
                        _mean(u.calls, ".1f"),
                        _mean(u.tokens, ".0f"),
                        _mean(u.latency_s),
                        _mean(u.cost, ".4f"),
                        f"{u.tokens_per_decision:.0f}",
                        f"{u.cost_per_decision:.5f}",
                        f"{u.cost_per_day:.5f}",
                    ]
                    for a, u in usage.items()
                ],
            )
        )
    bias = [b for b in (win_bias(records, "seat"), win_bias(records, "name")) if b is not None]
    if bias:
        out.append(
            (
                "Seat and name bias: wins beyond what the roles explain (chi-square over the run)" + pooled,
                ["factor", "groups", "chi2 (df)", "p", "most above chance"],
                [
                    [
                        b.factor,
                        str(b.groups),
                        f"{b.chi2:.1f} ({b.df})",
                        f"{b.p:.3f}",
                        f"{b.top}: {b.excess:+.3f} wins per seat-game (N={b.n})",
                    ]
                    for b in bias
                ],
            )
        )
    ms = matches(records)
    bt = bradley_terry(ms, n_boot=n_boot)
    skill = {r.agent: r for r in openskill_ratings(ms)}
    nash = {r.agent: r for r in nash_averaging(ms, n_boot=n_boot)}
    out.append(
        (
            f"Ratings (Bradley-Terry logits, village side advantage {bt.village_advantage:+.2f}; OpenSkill; "
            "Nash averaging: win rate above the side's, in points, against the maximum-entropy Nash mixture)",
            ["agent", "Bradley-Terry", "OpenSkill mu ± sigma", "ordinal", "Nash averaging (mixture weight)"],
            [
                [
                    s.agent,
                    f"{s.value:+.2f} [{s.lo:+.2f}, {s.hi:+.2f}] N={s.games}",
                    f"{skill[s.agent].mu:.1f} ± {skill[s.agent].sigma:.1f}" if s.agent in skill else "",
                    f"{skill[s.agent].ordinal:.1f}" if s.agent in skill else "",
                    (
                        f"{nash[s.agent].value * 100:+.1f} [{nash[s.agent].lo * 100:+.1f}, "
                        f"{nash[s.agent].hi * 100:+.1f}] ({nash[s.agent].weight:.2f})"
                    )
                    if s.agent in nash
                    else "",
                ]
                for s in bt.strengths
            ],
        )
    )
    if judgements:
        ids = {r.game_id for r in records}
        out += judge_tables([j for j in judgements if j.game_id in ids])
    out += study_tables(records, questionnaires)  # seed 002's human study, when the records hold one
    return out


def print_summary(
    records: Sequence[GameRecord],
    console: Console | None = None,
    prices: Prices | None = None,
    n_boot: int = 200,
    *,
    judgements: Sequence[JudgementLike] = (),
    questionnaires: Sequence[QuestionnaireLike] = (),
) -> None:
    """Print every results table of `records` in the terminal (`n_boot`: rating bootstrap resamples).

    The default console shows agent names and other text from the records escaped (`lycan.terminal`).
    `judgements` add a judge model's scores, `questionnaires` a study's paradigm rankings (see `tables`).
    """
    console = console or TerminalConsole()
    console.print(f"[bold]{len(records)} games[/]", markup=True)
    data = tables(records, prices, n_boot=n_boot, judgements=judgements, questionnaires=questionnaires)
    for title, header, rows in data:
        t = Table(title=title, title_justify="left")
        for h in header:
            t.add_column(h)
        for row in rows:
            t.add_row(*row)
        console.print(t)


# ----------------------------------------------------------------------------- plots
def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    """Lay out `fig`, write it to `path` and free it."""
    fig.tight_layout()
    fig.savefig(path)
    _plt().close(fig)
    return path


def _err(r: Rate) -> tuple[float, float]:
    lo, hi = r.interval
    return max(0.0, r.value - lo), max(0.0, hi - r.value)


def plot_win_rates(records: Sequence[GameRecord], path: Path) -> Path:
    """Bars of win rates on the village side, the werewolf side and overall, with 95% intervals.

    One group of bars per row of `side_rows`: each agent against each opponent in each setting
    (or each agent's seats, where the sides were mixed).
    """
    plt = _plt()
    rows = side_rows(records)
    many = len({r[0] for r in rows}) > 1
    labels = [f"{setting}: {who}" if many else who for setting, who, *_ in rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(rows) + 2), 4.5), dpi=110)
    width = 0.27
    bars = (("village side", "#2e7d32"), ("werewolf side", "#b71c1c"), ("overall", "#1565c0"))
    for k, (key, colour) in enumerate(bars):
        rates = [(village, werewolf, overall)[k] for _, _, village, werewolf, overall in rows]
        xs = [i + (k - 1) * width for i in range(len(rows))]
        errs = [[_err(r)[0] for r in rates], [_err(r)[1] for r in rates]]
        ax.bar(xs, [r.value for r in rates], width, yerr=errs, capsize=3, color=colour, label=key)
    ax.set_xticks(range(len(rows)), labels, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"Win rate by side, per setting ({len(records)} games)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    return _save(fig, path)


def plot_ratings(records: Sequence[GameRecord], path: Path, n_boot: int = 200) -> Path:
    """Bradley-Terry strengths with bootstrap 95% intervals, best at the top."""
    from lycan.eval.ratings import bradley_terry, matches

    plt = _plt()
    bt = bradley_terry(matches(records), n_boot=n_boot)
    ss = list(reversed(bt.strengths))
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.6 * len(ss) + 1.5)), dpi=110)
    ys = range(len(ss))
    ax.errorbar(
        [s.value for s in ss],
        ys,
        xerr=[[s.value - s.lo for s in ss], [s.hi - s.value for s in ss]],
        fmt="o",
        color="#4527a0",
        capsize=4,
    )
    ax.axvline(0, color="grey", lw=1, ls="--")
    ax.set_yticks(list(ys), [s.agent for s in ss])
    ax.set_xlabel("Bradley-Terry strength (logits, 95% bootstrap interval)")
    ax.set_title(f"Ratings; village side advantage {bt.village_advantage:+.2f}")
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def plot_calibration(records: Sequence[GameRecord], path: Path) -> Path | None:
    """Reliability diagram of probe probabilities per agent (None when no answer has one)."""
    cal = calibration(records)
    if not cal:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.5, 5), dpi=110)
    ax.plot([0, 1], [0, 1], color="grey", ls="--", lw=1, label="perfect")
    for agent, c in cal.items():
        ax.plot(
            [b.mean_prob for b in c.bins],
            [b.frequency for b in c.bins],
            marker="o",
            label=f"{agent} (Brier {c.brier.value:.3f})",
        )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("stated probability")
    ax.set_ylabel("observed frequency")
    ax.set_title("Calibration of role probabilities")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _save(fig, path)


def plot_cost_vs_win(records: Sequence[GameRecord], path: Path, prices: Prices | None = None) -> Path | None:
    """Cost (or tokens, without prices) per seat-game against win rate, per agent (None without usage)."""
    usage = usage_stats(records, prices)
    if not usage:
        return None
    plt = _plt()
    wins = side_rates_by_agent(records)
    use_cost = any(u.total_cost > 0 for u in usage.values())
    fig, ax = plt.subplots(figsize=(6.5, 4.5), dpi=110)
    for agent, u in usage.items():
        x = u.cost if use_cost else u.tokens
        r = wins[agent]["overall"]
        lo, hi = _err(r)
        ax.errorbar(
            [x.value], [r.value], xerr=[[x.value - x.lo], [x.hi - x.value]], yerr=[[lo], [hi]], fmt="o", capsize=3
        )
        ax.annotate(agent, (x.value, r.value), textcoords="offset points", xytext=(6, 6))
    ax.set_xlabel("cost per seat-game" if use_cost else "tokens per seat-game")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title("Cost against win rate")
    ax.grid(alpha=0.3)
    return _save(fig, path)


# ----------------------------------------------------------------------------- documents
def plot_paradigm_scores(answers: Sequence[QuestionnaireLike], path: Path) -> Path | None:
    """Seed 002's Figure 6: each paradigm's mean points per dimension, with bootstrap 95% intervals."""
    if not answers:
        return None
    plt = _plt()
    scores = paradigm_scores(answers)
    dims = [*dict.fromkeys(d for a in answers for d in a.rankings), OVERALL]
    paradigms = list(scores)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.4 * len(dims) + 2), 4.5), dpi=110)
    width = 0.8 / max(1, len(paradigms))
    for k, paradigm in enumerate(paradigms):
        means = [scores[paradigm].get(d) for d in dims]
        xs = [i + (k - (len(paradigms) - 1) / 2) * width for i in range(len(dims))]
        ys = [m.value if m is not None and m.n else 0.0 for m in means]
        errs = [
            [max(0.0, m.value - m.lo) if m is not None and m.n else 0.0 for m in means],
            [max(0.0, m.hi - m.value) if m is not None and m.n else 0.0 for m in means],
        ]
        ax.bar(xs, ys, width, yerr=errs, capsize=3, label=paradigm)
    ax.set_xticks(range(len(dims)), dims)
    ax.set_ylabel("mean points (2/1/0 for ranks 1/2/3; 95% bootstrap)")
    ax.set_title(f"Interaction paradigms as ranked by {len(answers)} participants")
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    return _save(fig, path)


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}"
    "table{border-collapse:collapse;margin:0.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:0.25rem 0.6rem;"
    "text-align:left;font-size:0.9rem}th{background:#f3f3f3}img{max-width:100%;margin:0.5rem 0}"
)


def build_report(
    records: Sequence[GameRecord],
    out_dir: str | Path,
    *,
    title: str = "Lycan results",
    prices: Prices | None = None,
    n_boot: int = 200,
    judgements: Sequence[JudgementLike] = (),
    questionnaires: Sequence[QuestionnaireLike] = (),
) -> Path:
    """Write `report.md`, `report.html` and PNG plots of `records` into `out_dir`.

    Plots: win rates by side with intervals, Bradley-Terry ratings, calibration (when probe
    answers carry probabilities) and cost against win rate (when records carry usage).
    `judgements` add a judge model's scores (see `tables`).

    Returns:
        The path of `report.html` (`report.md` lies beside it).

    Raises:
        ValueError: no records.
    """
    if not records:
        raise ValueError("no games to report on; play a tournament first")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plots = [
        plot_win_rates(records, out / "win_rates.png"),
        plot_ratings(records, out / "ratings.png", n_boot=n_boot),
        plot_calibration(records, out / "calibration.png"),
        plot_cost_vs_win(records, out / "cost_vs_win.png", prices),
        plot_paradigm_scores(questionnaires, out / "paradigm_scores.png"),
    ]
    images = [p for p in plots if p is not None]
    data = tables(records, prices, n_boot=n_boot, judgements=judgements, questionnaires=questionnaires)
    md = [f"# {title}", "", f"{len(records)} games. Intervals are 95% (Wilson for rates, bootstrap for means).", ""]
    doc = [f"<h1>{html.escape(title)}</h1>", f"<p>{len(records)} games. Intervals are 95%.</p>"]
    for name, header, rows in data:
        md += [f"## {name}", "", _markdown_table(header, rows), ""]
        doc += [f"<h2>{html.escape(name)}</h2>", _html_table(header, rows)]
    md.append("## Plots\n")
    doc.append("<h2>Plots</h2>")
    for img in images:
        md.append(f"![{img.stem}]({img.name})\n")
        doc.append(f'<img src="{img.name}" alt="{img.stem}">')
    (out / "report.md").write_text("\n".join(md))
    page = out / "report.html"
    page.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_CSS}</style></head><body>{''.join(doc)}</body></html>"
    )
    return page


# ----------------------------------------------------------------------------- comparison
@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One quantity in two runs, with a two-proportion z-test of the difference (a - b)."""

    name: str
    a: Rate
    b: Rate
    test: ProportionTest


@dataclass(frozen=True, slots=True)
class ComparisonTable:
    """Run A against run B: win rates per agent and per team, each with its test."""

    rows: list[ComparisonRow]

    def to_markdown(self) -> str:
        """The table in Markdown."""
        return _markdown_table(*self._cells())

    def to_rich(self) -> Table:
        """The table for a rich console."""
        header, rows = self._cells()
        t = Table(title="Run A against run B (two-proportion z-test)", title_justify="left")
        for h in header:
            t.add_column(h)
        for row in rows:
            t.add_row(*row)
        return t

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        header = ["win rate of", "run A", "run B", "difference", "p-value", "significant"]
        rows = [
            [
                r.name,
                _pct(r.a),
                _pct(r.b),
                f"{r.test.diff:+.1%}",
                f"{r.test.p_value:.3g}",
                "yes" if r.test.significant else "no",
            ]
            for r in self.rows
        ]
        return header, rows


def compare_runs(records_a: Sequence[GameRecord], records_b: Sequence[GameRecord]) -> ComparisonTable:
    """Compare two runs: each agent's win rate (agents in both runs) and the team win rates.

    Each row holds both rates and a two-sided two-proportion z-test of their difference
    (significant when p < 0.05; seats of one game are not independent, so read p as a guide).
    """
    wa, wb = win_rates_by_role(records_a).overall, win_rates_by_role(records_b).overall
    rows = [
        ComparisonRow(a, wa[a], wb[a], two_proportion_test(wa[a].wins, wa[a].n, wb[a].wins, wb[a].n))
        for a in wa
        if a in wb
    ]
    ta, tb = team_win_rates(records_a), team_win_rates(records_b)
    for team in ("village", "werewolf"):
        a, b = ta[team], tb[team]
        rows.append(ComparisonRow(f"team {team}", a, b, two_proportion_test(a.wins, a.n, b.wins, b.n)))
    return ComparisonTable(rows)
