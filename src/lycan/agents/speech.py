"""Plain-English sentence templates for Werewolf talk, and a parser that reads them back.

The heuristic agent speaks only through these templates, so heuristic players understand each
other; the parser also accepts a few common variants ("I'm the seer", "I vote for ...") so it can
pick up the same statements from people and language models. Text it cannot read is ignored.
No template uses an ASCII comma, which AIWolf NLP servers reject in utterances.
"""

from __future__ import annotations

from lycan.beliefs.claims import CLAIMABLE_ROLES, SpeechParser, Statement, parser_for
from lycan.rules.roles import Species
from lycan.rules.talk import spoken_length


# ------------------------------------------------------------------ templates
def claim(role: str) -> str:
    """E.g. `I am the seer.`."""
    return f"I am the {role}."


def divined(name: str, species: Species, night: int, today: int) -> str:
    """`Last night I divined Player 3: werewolf.` (or `On night 1 ...` for older results)."""
    when = "Last night" if night == today - 1 else f"On night {night}"
    return f"{when} I divined {name}: {species.value}."


def medium_reading(name: str, species: Species) -> str:
    """E.g. `Player 3 who was executed was a werewolf.`."""
    what = "a werewolf" if species is Species.WEREWOLF else "human"
    return f"{name} who was executed was {what}."


def protected(name: str) -> str:
    """E.g. `Last night I protected Player 4.`."""
    return f"Last night I protected {name}."


def vote(name: str) -> str:
    """E.g. `I will vote for Player 2.`."""
    return f"I will vote for {name}."


def suspect(name: str, reason: str = "") -> str:
    """E.g. `I suspect Player 2 because they voted for me.`."""
    return f"I suspect {name} because {reason}." if reason else f"I suspect {name}."


def trust(name: str) -> str:
    """E.g. `I trust Player 4.`."""
    return f"I trust {name}."


def liar(name: str, role: str = "seer") -> str:
    """E.g. `Player 5 is lying about being the seer.`."""
    return f"{name} is lying about being the {role}."


def attack(name: str) -> str:
    """Whisper, e.g. `Let's attack Player 4.`."""
    return f"Let's attack {name}."


FAKE_PLAN = "I will pretend to be the seer."
GREETING = "Good morning everyone. Let us find the werewolves together."
NOTHING_YET = "I have no strong suspicion yet."


text_length = spoken_length
"""Characters of `text`, spaces not counted (`lycan.rules.talk.spoken_length`)."""


def fit(text: str, limit: int) -> str:
    """`text` cut at a word boundary so that `text_length` is at most `limit` (0: no limit)."""
    if limit <= 0 or text_length(text) <= limit:
        return text
    out: list[str] = []
    used = 0
    for word in text.split():
        if used + len(word) > limit:
            break
        out.append(word)
        used += len(word)
    return " ".join(out) if out else text[:limit]


__all__ = [
    "CLAIMABLE_ROLES",
    "FAKE_PLAN",
    "GREETING",
    "NOTHING_YET",
    "SpeechParser",
    "Statement",
    "attack",
    "claim",
    "divined",
    "fit",
    "liar",
    "medium_reading",
    "parser_for",
    "protected",
    "suspect",
    "text_length",
    "trust",
    "vote",
]
