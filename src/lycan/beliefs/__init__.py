"""Beliefs: role posteriors over every deal a seat's knowledge allows.

`posterior(view)` enumerates the deals consistent with what the seat knows for certain (see
`lycan.beliefs.deals`) and gives P(role) and P(side) for every seat. It reads the view alone, so a
seat's beliefs depend on nothing it cannot see.

Claims made in talk are read by `lycan.beliefs.claims` (templates and the AIWolf protocol, exactly)
and by `ClaimExtractor` (free talk, with a chat model; `lycan.beliefs.extract`).
"""

from lycan.beliefs.deals import Knowledge, Posterior, all_deals, consistent, posterior
from lycan.beliefs.extract import (
    ClaimExtractor,
    ExtractionFault,
    Labelled,
    Score,
    canonical,
    load_labelled,
    score,
)

__all__ = [
    "ClaimExtractor",
    "ExtractionFault",
    "Knowledge",
    "Labelled",
    "Posterior",
    "Score",
    "all_deals",
    "canonical",
    "consistent",
    "load_labelled",
    "posterior",
    "score",
]
