"""Plain-English sentence templates for Werewolf talk, and a parser that reads them back.

The heuristic agent speaks only through these templates, so heuristic players understand each
other; the parser also accepts a few common variants ("I'm the seer", "I vote for ...") so it can
pick up the same statements from people and language models. Text it cannot read is ignored.
No template uses an ASCII comma, which AIWolf NLP servers reject in utterances.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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


CHANGED = "I changed my mind."
"""What a vote that replaces one said earlier that day starts with, in the template words."""


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


ActKind = Literal[
    "greet",
    "claim",
    "divined",
    "medium",
    "protected",
    "vote",
    "suspect",
    "trust",
    "liar",
    "nothing",
    "attack",
    "plan",
    "answer",
    "question",
    "agree",
    "summary",
]
"""What a speech act does: the heuristic's agenda items, and the conversational moves of
`answer` (to what was said to or about the speaker today), `question` (to a named player) and
`agree` (with a named player's vote) and `summary` (of the claims so far)."""


OPINIONS = frozenset({"suspect", "vote", "trust", "liar", "nothing"})
"""Act kinds that give the speaker's opinion (one of them answers a question put to the speaker)."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the speaker suspects someone: the event it rests on and the reason in words.

    `event` is the id of an event of the speaker's view (None for a reason drawn from the plain
    heuristic's reckoning, which keeps no event); `text` reads after "because", in the explanation
    register of `lycan.render` ("they voted against me"); `others` words it otherwise.
    """

    event: int | None
    text: str
    others: tuple[str, ...] = ()
    """Other wordings of the same reason, same names (`lycan.render.explanations`), for variety."""


@dataclass(frozen=True, slots=True)
class SpeechAct:
    """One thing a seat decided to say, before it is worded.

    Attributes:
        kind: what the act does (`ActKind`).
        target: the seat it is about (claims and greetings have none).
        role: the role claimed (`claim`) or lied about (`liar`).
        species: a divination's or medium reading's result.
        night: the night of a divination (-1: last night).
        reasons: the reasons of a suspicion, each citing an event.
        to: the seat addressed (`answer`, `question`, `agree`).
        said: for `answer`, what that seat said to or about the speaker (`accuses`, `will_vote`,
            `liar`, `question`); for `question`, what is asked (`suspect`, `divine`, `quiet`); for
            `vote`, `changed` where it replaces a vote the speaker said earlier that day; for `agree`,
            `vote` where the seat agreed with only said its vote (no reason, so no point to agree with).
        seats: for `summary`, the seats that claimed `role`.
        again: the act repeats a point the speaker made before.
    """

    kind: ActKind
    target: int | None = None
    role: str = ""
    species: Species | None = None
    night: int = -1
    reasons: tuple[Reason, ...] = ()
    to: int | None = None
    said: str = ""
    seats: tuple[int, ...] = ()
    again: bool = False

    def template(self, names: tuple[str, ...], day: int) -> str:
        """The act in the heuristic's template words (what the heuristic itself says).

        An opinion said to someone (`to` set on a vote, suspicion, trust, liar call or "nothing
        yet": the answer to their question) starts with their name, and says that it answers them
        where it is about another seat (with no comma, "Aster I trust Yarrow." reads as a list).
        """
        text = self._words(names, day)
        if self.to is not None and self.kind in OPINIONS:
            if self.target not in (None, self.to):
                return f"To answer {names[self.to]}: {text}"
            return f"{names[self.to]} {text}"
        return text

    def _words(self, names: tuple[str, ...], day: int) -> str:
        kind = self.kind
        who = names[self.target] if self.target is not None else ""
        to = names[self.to] if self.to is not None else ""
        if kind == "greet":
            return GREETING
        if kind == "claim":
            return claim(self.role)
        if kind == "divined" and self.species is not None:
            return divined(who, self.species, self.night if self.night >= 0 else day - 1, day)
        if kind == "medium" and self.species is not None:
            return medium_reading(who, self.species)
        if kind == "protected":
            return protected(who)
        if kind == "vote":
            return f"{CHANGED} {vote(who)}" if self.said == "changed" else vote(who)
        if kind == "suspect":
            return suspect(who, " and ".join(r.text for r in self.reasons))
        if kind == "trust":
            return trust(who)
        if kind == "liar":
            return liar(who, self.role or "seer")
        if kind == "attack":
            return attack(who)
        if kind == "plan":
            return FAKE_PLAN
        if kind == "answer":
            return f"{to} I am on the village side."
        if kind == "question":
            return f"{to} whom do you suspect?"
        if kind == "summary":
            return f"So far {' and '.join(names[s] for s in self.seats)} claim {self.role}."
        if kind == "agree":
            return f"I'll join {to} on {who}." if self.said == "vote" else f"I agree with {to} about {who}."
        return NOTHING_YET


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
    "CHANGED",
    "CLAIMABLE_ROLES",
    "FAKE_PLAN",
    "GREETING",
    "NOTHING_YET",
    "ActKind",
    "Reason",
    "SpeechAct",
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
