"""Beliefs: role posteriors over every deal a seat's knowledge allows, weighed by behaviour.

`posterior(view)` enumerates the deals consistent with what the seat knows for certain (see
`lycan.beliefs.deals`), weighs them by the likelihood of the public behaviour it saw (claims,
announced results, votes, accusations; `lycan.beliefs.evidence`, `lycan.beliefs.model`) and gives
P(role) and P(side) for every seat. It reads the view alone, so a seat's beliefs depend on nothing
it cannot see. `Beliefs` keeps a posterior up to date event by event and explains it
(`Beliefs.influences`: the events that moved each seat most, by exact leave-one-out).

Claims made in talk are read by `lycan.beliefs.claims` (templates and the AIWolf protocol, exactly)
and by `ClaimExtractor` (free talk, with a chat model; `lycan.beliefs.extract`).
"""

from lycan.beliefs.deals import Knowledge, all_deals, consistent
from lycan.beliefs.extract import (
    ClaimExtractor,
    ExtractionFault,
    Labelled,
    Score,
    canonical,
    load_labelled,
    score,
)
from lycan.beliefs.model import BehaviourModel, default_model
from lycan.beliefs.posterior import Beliefs, Influence, Posterior, posterior

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
    "score",
]
