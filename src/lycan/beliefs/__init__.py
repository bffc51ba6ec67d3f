"""Beliefs: role posteriors over every deal a seat's knowledge allows.

`posterior(view)` enumerates the deals consistent with what the seat knows for certain (see
`lycan.beliefs.deals`) and gives P(role) and P(side) for every seat. It reads the view alone, so a
seat's beliefs depend on nothing it cannot see.
"""

from lycan.beliefs.deals import Knowledge, Posterior, all_deals, consistent, posterior

__all__ = ["Knowledge", "Posterior", "all_deals", "consistent", "posterior"]
