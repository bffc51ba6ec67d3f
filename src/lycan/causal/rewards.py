"""The seed's causal rewards (CaM-Wolf, eq. 7), exactly.

For one Reasoner answer with identifications d_1..d_n:

    r = sum_i (r_correct(C_i) + r_faith(C_i)) + r_format + r_repeat

- `r_correct`: +1 when the conclusion matches the true role, -1 otherwise.
- `r_faith` (correct conclusions only): -1/|P_i| for each cited premise whose removal leaves the
  conclusion unchanged; -0.5 when removing the irrelevant premise changes it.
- `r_format`: -1 when the answer breaks the structured template (it then has no identification).
- `r_repeat`: -1 for each further identification of a player already identified.

`causal_reward` computes r from intervention outcomes (`lycan.causal.intervene.Checked`);
`score_answer` reads a raw answer, runs the interventions and returns both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from lycan.agents.camwolf import read_reasoning
from lycan.agents.parsing import ParseError, load_json_object
from lycan.causal.intervene import Checked, Intervener, InterventionPlan, intervene
from lycan.engine.view import View
from lycan.rules.roles import Role

CORRECT = 1.0
WRONG = -1.0
SPURIOUS_PREMISE = -1.0
"""Spread over the premises: -1/|P| for each cited premise whose removal changes nothing."""
MISSING_PREMISE = -0.5
"""Removing an uncited premise changed the conclusion."""
FORMAT_VIOLATION = -1.0
REPEAT = -1.0


@dataclass(frozen=True, slots=True)
class RewardSwitches:
    """The seed's ablations as switches.

    Attributes:
        faithfulness: count the faithfulness reward at all ("w/o faithfulness reward" when off).
        relevant: the relevant-premise penalty ("w/o relevant intervention" when off).
        irrelevant: the irrelevant-premise penalty ("w/o irrelevant intervention" when off).
    """

    faithfulness: bool = True
    relevant: bool = True
    irrelevant: bool = True

    def plan(self, base: InterventionPlan | None = None) -> InterventionPlan:
        """The interventions these switches need (none without the faithfulness reward)."""
        base = base or InterventionPlan()
        return InterventionPlan(
            relevant=self.faithfulness and self.relevant,
            irrelevant=self.faithfulness and self.irrelevant,
            reference=base.reference,
            pool=base.pool,
            only_correct=True,
        )


@dataclass(frozen=True, slots=True)
class Reward:
    """One answer's reward and its parts (`total` is their sum)."""

    correctness: float = 0.0
    faithfulness: float = 0.0
    format: float = 0.0
    repeat: float = 0.0
    interventions: int = 0
    """How many removals were inferred on (the intervention model's calls, baselines aside)."""

    @property
    def total(self) -> float:
        """The sum: correctness + faithfulness + format + repeat."""
        return self.correctness + self.faithfulness + self.format + self.repeat


def faithfulness_of(checked: Checked, switches: RewardSwitches | None = None) -> float:
    """r_faith of one identification (0 for a wrong one, which is not intervened on)."""
    switches = switches or RewardSwitches()
    if not checked.correct or not switches.faithfulness:
        return 0.0
    value = 0.0
    premises = len(checked.identification.premises)
    if switches.relevant and premises:
        value += sum(SPURIOUS_PREMISE / premises for i in checked.relevant if not i.changed)
    if switches.irrelevant:
        value += sum(MISSING_PREMISE for i in checked.irrelevant if i.changed)
    return value


def causal_reward(
    checked: Sequence[Checked], *, format_ok: bool = True, repeats: int = 0, switches: RewardSwitches | None = None
) -> Reward:
    """The reward of an answer whose identifications were judged and intervened on (`checked`).

    Args:
        checked: one entry per identification (empty for an answer that broke the format).
        format_ok: False when the answer broke the template (-1).
        repeats: further identifications of players already identified (-1 each).
        switches: the ablations (default: the full reward).
    """
    switches = switches or RewardSwitches()
    return Reward(
        correctness=sum(CORRECT if c.correct else WRONG for c in checked),
        faithfulness=sum(faithfulness_of(c, switches) for c in checked),
        format=0.0 if format_ok else FORMAT_VIOLATION,
        repeat=REPEAT * repeats if repeats else 0.0,
        interventions=sum(len(c.relevant) + len(c.irrelevant) for c in checked),
    )


def repeats_in(text: str) -> int:
    """Further identifications of a player already identified in the raw answer `text`."""
    data = load_json_object(text)
    raw = data.get("identifications") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        return 0
    players = [str(item.get("player", "")).strip().lower() for item in raw if isinstance(item, dict)]
    return len(players) - len(set(players))


async def score_answer(
    text: str,
    view: View,
    truth: Sequence[Role],
    intervener: Intervener,
    rng: random.Random,
    switches: RewardSwitches | None = None,
    plan: InterventionPlan | None = None,
    *,
    concurrency: int = 1,
) -> tuple[Reward, list[Checked]]:
    """Read a raw Reasoner answer on `view`, intervene, and reward it.

    A format violation (`lycan.agents.camwolf.read_reasoning` refuses the answer) scores -1 and
    nothing else.
    """
    switches = switches or RewardSwitches()
    try:
        reasoning = read_reasoning(text, view)
    except ParseError:
        return causal_reward([], format_ok=False, switches=switches), []
    checked = await intervene(
        view, reasoning.identifications, truth, intervener, rng, switches.plan(plan), concurrency=concurrency
    )
    return causal_reward(checked, repeats=repeats_in(text), switches=switches), checked


__all__ = [
    "Reward",
    "RewardSwitches",
    "causal_reward",
    "faithfulness_of",
    "repeats_in",
    "score_answer",
]
