"""Faithfulness as a metric: do the premises an agent cites carry its conclusions?

For every identification an agent gave (a `camwolf` Reasoner answer kept in a record, or answers
a model gives on held-out turns), the cited premises are removed one at a time and the same
player's role re-inferred by an intervention model; one uncited event is removed too. Two shares,
each with its Wilson 95% interval and N:

- `premises`: the share of cited premises whose removal changes the conclusion (higher: the
  premises really carry it);
- `uncited`: the share of conclusions that change when an uncited event is removed (lower: the
  agent cites what its conclusion rests on).

`accuracy` is the share of identifications whose role is the true one, and `format` the share of
answers that keep to the template.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from lycan.agents.camwolf import read_reasoning
from lycan.agents.parsing import ParseError
from lycan.causal.intervene import Checked, Intervener, InterventionPlan, intervene
from lycan.data.samples import replay_asked
from lycan.engine.record import GameRecord
from lycan.engine.view import View
from lycan.rules.roles import Role
from lycan.stats import Rate

METRIC_PLAN = InterventionPlan(pool="log", only_correct=True)
"""The metric's interventions: the seed's on correct conclusions, the uncited event drawn from the
whole log (so an answer with one identification is measured too)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One raw Reasoner answer, the view it was given on, and the truth."""

    text: str
    view: View
    truth: tuple[Role, ...]


@dataclass
class Faithfulness:
    """The faithfulness of a set of answers (see the module docstring)."""

    answers: int = 0
    well_formed: int = 0
    identifications: int = 0
    correct: int = 0
    premises_changed: int = 0
    premises: int = 0
    uncited_changed: int = 0
    uncited: int = 0
    calls: int = 0
    seconds: float = 0.0

    @property
    def premise_rate(self) -> Rate:
        """Share of cited premises whose removal changes the conclusion."""
        return Rate(self.premises_changed, self.premises)

    @property
    def uncited_rate(self) -> Rate:
        """Share of conclusions that change when an uncited event is removed."""
        return Rate(self.uncited_changed, self.uncited)

    @property
    def accuracy(self) -> Rate:
        """Share of identifications with the true role."""
        return Rate(self.correct, self.identifications)

    @property
    def format(self) -> Rate:
        """Share of answers that keep to the template."""
        return Rate(self.well_formed, self.answers)

    def add(self, checked: Sequence[Checked]) -> None:
        """Count one well-formed answer's judged identifications."""
        self.well_formed += 1
        for c in checked:
            self.identifications += 1
            self.correct += c.correct
            self.premises += len(c.relevant)
            self.premises_changed += sum(i.changed for i in c.relevant)
            self.uncited += len(c.irrelevant)
            self.uncited_changed += sum(i.changed for i in c.irrelevant)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: counts, and each rate with its interval."""

        def rate(r: Rate) -> dict[str, Any]:
            lo, hi = r.interval
            return {"value": r.value, "low": lo, "high": hi, "n": r.n}

        return {
            "answers": self.answers,
            "format": rate(self.format),
            "accuracy": rate(self.accuracy),
            "premises_change_conclusion": rate(self.premise_rate),
            "uncited_change_conclusion": rate(self.uncited_rate),
            "intervention_calls": self.calls,
            "intervention_seconds": self.seconds,
        }


def record_answers(record: GameRecord) -> Iterator[Answer]:
    """The usable Reasoner answers kept in `record` (model calls of kind `reason` without an error)."""
    calls = [c for c in record.model_calls if c.kind == "reason" and not c.error and c.reasoning]
    if not calls:
        return
    views = {item.request.id: item.view for item in replay_asked(record)}
    for call in calls:
        view = views.get(call.request)
        if view is not None and view.seat == call.seat:
            yield Answer(call.reasoning, view, record.roles)


async def measure(
    answers: Iterable[Answer],
    intervener: Intervener,
    *,
    plan: InterventionPlan = METRIC_PLAN,
    seed: int = 0,
    concurrency: int = 1,
) -> Faithfulness:
    """The faithfulness of `answers` under `intervener` (see the module docstring)."""
    rng = random.Random(seed)
    out = Faithfulness()
    meter = getattr(intervener, "meter", None)
    calls0 = meter.calls if meter is not None else 0
    started = time.perf_counter()
    for answer in answers:
        out.answers += 1
        try:
            reasoning = read_reasoning(answer.text, answer.view)
        except ParseError:
            continue
        checked = await intervene(
            answer.view, reasoning.identifications, answer.truth, intervener, rng, plan, concurrency=concurrency
        )
        out.add(checked)
    out.seconds = time.perf_counter() - started
    out.calls = (meter.calls - calls0) if meter is not None else 0
    return out


async def measure_records(
    records: Iterable[GameRecord],
    intervener: Intervener,
    *,
    plan: InterventionPlan = METRIC_PLAN,
    seed: int = 0,
    concurrency: int = 1,
) -> Faithfulness:
    """The faithfulness of every Reasoner answer kept in `records`."""
    answers = (a for r in records for a in record_answers(r))
    return await measure(answers, intervener, plan=plan, seed=seed, concurrency=concurrency)


__all__ = ["METRIC_PLAN", "Answer", "Faithfulness", "measure", "measure_records", "record_answers"]
