"""CaM-Wolf's causal training: counterfactual premise intervention, causal rewards, GRPO.

- `lycan.causal.intervene`: exact removal of one event from a seat's view (`without`), intervention
  models (the belief engine, any chat model) and the seed's relevant/irrelevant interventions.
- `lycan.causal.rewards`: the seed's causal reward (correctness, faithfulness, format, repetition).
- `lycan.causal.faithfulness`: faithfulness as a metric over records or answers, with intervals.
- `lycan.causal.turns`: speaking turns from games, and the Reasoner prompt for each.
- `lycan.causal.config`, `lycan.causal.train`: GRPO with TRL and a peft LoRA adapter
  (`lycan train reasoner`); torch, TRL and peft load only when training starts.
"""

from __future__ import annotations

from lycan.causal.faithfulness import Answer, Faithfulness, measure, measure_records, record_answers
from lycan.causal.intervene import (
    BeliefIntervener,
    ChatIntervener,
    Checked,
    Intervener,
    Intervention,
    InterventionPlan,
    intervene,
    without,
)
from lycan.causal.rewards import Reward, RewardSwitches, causal_reward, score_answer

__all__ = [
    "Answer",
    "BeliefIntervener",
    "ChatIntervener",
    "Checked",
    "Faithfulness",
    "Intervener",
    "Intervention",
    "InterventionPlan",
    "Reward",
    "RewardSwitches",
    "causal_reward",
    "intervene",
    "measure",
    "measure_records",
    "record_answers",
    "score_answer",
    "without",
]
