"""Beliefs: role posteriors over every deal a seat's knowledge allows, weighed by behaviour.

`posterior(view)` enumerates the deals consistent with what the seat knows for certain (see
`lycan.beliefs.deals`), weighs them by the likelihood of the public behaviour it saw (claims,
announced results, votes, accusations; `lycan.beliefs.evidence`, `lycan.beliefs.model`) and gives
P(role) and P(side) for every seat. It reads the view alone, so a seat's beliefs depend on nothing
it cannot see. `Beliefs` keeps a posterior up to date event by event and explains it
(`Beliefs.influences`: the events that moved each seat most, by exact leave-one-out).

Claims made in talk are read by `lycan.beliefs.claims` (templates and the AIWolf protocol, exactly)
and by `ClaimExtractor` (free talk, with a chat model; `lycan.beliefs.extract`).

The names below load their module (and NumPy) on first use, so reading claims with
`lycan.beliefs.claims`, as every heuristic player does, costs no NumPy at start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lycan.beliefs.deals import Knowledge, all_deals, consistent
    from lycan.beliefs.extract import ClaimExtractor, ExtractionFault, Labelled, Score, canonical, load_labelled, score
    from lycan.beliefs.model import BehaviourModel, default_model
    from lycan.beliefs.tracker import Beliefs, Influence, Posterior, posterior, probe_answer

_WHERE = {
    "Knowledge": "deals",
    "all_deals": "deals",
    "consistent": "deals",
    "ClaimExtractor": "extract",
    "ExtractionFault": "extract",
    "Labelled": "extract",
    "Score": "extract",
    "canonical": "extract",
    "load_labelled": "extract",
    "score": "extract",
    "BehaviourModel": "model",
    "default_model": "model",
    "Beliefs": "tracker",
    "Influence": "tracker",
    "Posterior": "tracker",
    "posterior": "tracker",
    "probe_answer": "tracker",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'lycan.beliefs' has no attribute {name!r}")
    return getattr(importlib.import_module(f"lycan.beliefs.{module}"), name)


__all__ = [
    "BehaviourModel",
    "Beliefs",
    "ClaimExtractor",
    "ExtractionFault",
    "Influence",
    "Knowledge",
    "Labelled",
    "Posterior",
    "Score",
    "all_deals",
    "canonical",
    "consistent",
    "default_model",
    "load_labelled",
    "posterior",
    "probe_answer",
    "score",
]
