"""Personas of AI seats: a fictional character per seat, kept for the whole game.

A `Persona` is a temperament, a verbosity, habits of speech, an age and a gender: it is shown to
the model (`Persona.describe`), it picks the wording of every speech act (`lycan.agents.wording`),
and voices and the web table show it. Personas are drawn per seat from a random stream of their
own (`persona_for`), never from the deal's, so a persona says nothing about a role; and they are
fictional on purpose: no name, no real person, nothing a model could map to a celebrity and judge
by (models do judge players by the people their names evoke).

AIWolf contest servers send each agent a profile in INITIALIZE (`custom_profile`: name, age,
gender, personality); `Persona.profile` writes one and `Persona.from_profile` reads one back.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from lycan.engine.manner import Emotion
from lycan.engine.seeds import stream

AI_NAMES = (
    "Aster", "Bramble", "Cedar", "Dune", "Ember", "Fern", "Garnet", "Hazel", "Iris", "Juniper",
    "Kestrel", "Linden", "Moss", "Nettle", "Onyx", "Pippin", "Quill", "Rowan", "Sage", "Thistle",
    "Umber", "Vale", "Willow", "Yarrow", "Zephyr",
)  # fmt: skip
"""Names for AI seats (fictional, never real people)."""


def ai_names(n: int, seed: int) -> tuple[str, ...]:
    """Names for the `n` AI seats of the game `seed`, as a web table of AI seats names them.

    Fictional names from `AI_NAMES`, drawn from a stream of their own (`stream(seed, "names")`), so
    that they say nothing of the deal; `Player k` for seats beyond the pool.
    """
    pool = list(AI_NAMES)
    stream(seed, "names").shuffle(pool)
    names = pool[:n]
    k = 1
    while len(names) < n:
        if f"Player {k}" not in names:
            names.append(f"Player {k}")
        k += 1
    return tuple(names)


Temperament = Literal["calm", "warm", "blunt", "careful", "cheerful", "wry", "earnest", "nervous"]
Verbosity = Literal["terse", "plain", "chatty"]
Habit = Literal["questions", "names", "summaries", "hedges", "plans", "emphasis"]
Gender = Literal["female", "male", "neutral"]

TEMPERAMENTS: tuple[Temperament, ...] = ("calm", "warm", "blunt", "careful", "cheerful", "wry", "earnest", "nervous")
VERBOSITIES: tuple[Verbosity, ...] = ("terse", "plain", "chatty")
HABITS: tuple[Habit, ...] = ("questions", "names", "summaries", "hedges", "plans", "emphasis")
GENDERS: tuple[Gender, ...] = ("female", "male", "neutral")

_TEMPERAMENT_TEXT: dict[str, str] = {
    "calm": "calm and measured; you weigh the evidence before you speak",
    "warm": "warm and friendly; you speak to people as friends",
    "blunt": "blunt and direct; you call out what does not add up",
    "careful": "careful and polite; you choose your words",
    "cheerful": "cheerful and quick; you keep the table moving",
    "wry": "dry and wry; a little sarcastic, never rude",
    "earnest": "earnest and serious; you care about getting it right",
    "nervous": "a little nervous; you worry about being wrong",
}
_VERBOSITY_TEXT = {
    "terse": "you say as little as you can",
    "plain": "you say what is needed",
    "chatty": "you like to talk and explain yourself",
}
_HABIT_TEXT = {
    "questions": "you ask other players direct questions",
    "names": "you address players by name",
    "summaries": "you sum up what others said",
    "hedges": "you admit when you are unsure",
    "plans": "you propose a plan for the vote",
    "emphasis": "you stress the point that matters most",
}
_TEMPERAMENT_EMOTION: dict[str, Emotion] = {
    "calm": "calm",
    "warm": "cheerful",
    "blunt": "confident",
    "careful": "calm",
    "cheerful": "cheerful",
    "wry": "confident",
    "earnest": "confident",
    "nervous": "worried",
}


@dataclass(frozen=True, slots=True)
class Persona:
    """A fictional character for an AI seat: how it talks, not who it is.

    Attributes:
        temperament: its mood and attitude (`TEMPERAMENTS`).
        verbosity: how much it says (`VERBOSITIES`).
        habits: one or two habits of speech (`HABITS`).
        age: an age in years, for profiles and voices.
        gender: for voices and profiles (`GENDERS`).
    """

    temperament: Temperament = "calm"
    verbosity: Verbosity = "plain"
    habits: tuple[Habit, ...] = ()
    age: int = 35
    gender: Gender = "neutral"

    def describe(self) -> str:
        """The persona in words for a model's prompt, e.g. `blunt and direct; ...; you ask ... questions`."""
        parts = [_TEMPERAMENT_TEXT[self.temperament], _VERBOSITY_TEXT[self.verbosity]]
        parts += [_HABIT_TEXT[h] for h in self.habits]
        return "; ".join(parts)

    def label(self) -> str:
        """A short tag for tables and the web page, e.g. `blunt, terse, asks questions`."""
        short = {
            "questions": "asks questions",
            "names": "names people",
            "summaries": "sums up",
            "hedges": "hedges",
            "plans": "plans votes",
            "emphasis": "emphatic",
        }
        return ", ".join([self.temperament, self.verbosity, *(short[h] for h in self.habits)])

    def emotion(self) -> Emotion:
        """The emotion a voice takes by default for this persona (`lycan.engine.manner`)."""
        return _TEMPERAMENT_EMOTION[self.temperament]

    def profile(self, name: str) -> dict[str, Any]:
        """An AIWolf `custom_profile` for a seat called `name` (name, age, gender, personality)."""
        return {"name": name, "age": self.age, "gender": self.gender, "personality": self.describe()}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "temperament": self.temperament,
            "verbosity": self.verbosity,
            "habits": list(self.habits),
            "age": self.age,
            "gender": self.gender,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Persona:
        """The persona `to_dict` wrote.

        Raises:
            ValueError: a field that is not one of the known values.
        """
        temperament = str(data.get("temperament", "calm"))
        verbosity = str(data.get("verbosity", "plain"))
        habits = tuple(str(h) for h in data.get("habits", ()))
        gender = str(data.get("gender", "neutral"))
        if temperament not in TEMPERAMENTS:
            raise ValueError(f"unknown temperament {temperament!r}; choose one of {', '.join(TEMPERAMENTS)}")
        if verbosity not in VERBOSITIES:
            raise ValueError(f"unknown verbosity {verbosity!r}; choose one of {', '.join(VERBOSITIES)}")
        bad = [h for h in habits if h not in HABITS]
        if bad:
            raise ValueError(f"unknown habit {bad[0]!r}; choose from {', '.join(HABITS)}")
        if gender not in GENDERS:
            raise ValueError(f"unknown gender {gender!r}; choose one of {', '.join(GENDERS)}")
        age = int(data.get("age", 35))
        return Persona(temperament, verbosity, habits, age, gender)  # type: ignore[arg-type]

    @staticmethod
    def from_profile(profile: Mapping[str, Any], seed: int = 0) -> Persona:
        """A persona for an agent given an AIWolf `custom_profile` (personality in free words).

        The words of `personality` pick the temperament, verbosity and habits they name; what they
        leave open is drawn from `seed`. Age and gender are taken as given where they read.
        """
        base = draw_persona(random.Random(seed))
        text = " ".join(str(profile.get("personality", "")).lower().split())
        temperament = next((t for t in TEMPERAMENTS if t in text), base.temperament)
        # the words `describe` writes first, then plain words a contest profile may use
        cues: tuple[tuple[str, Verbosity], ...] = (
            (_VERBOSITY_TEXT["terse"], "terse"),
            (_VERBOSITY_TEXT["chatty"], "chatty"),
            (_VERBOSITY_TEXT["plain"], "plain"),
            ("quiet", "terse"),
            ("brief", "terse"),
            ("reserved", "terse"),
            ("talkative", "chatty"),
            ("chatty", "chatty"),
        )
        verbosity = next((value for word, value in cues if word in text), base.verbosity)
        habit_cues: tuple[tuple[str, Habit], ...] = (
            *((_HABIT_TEXT[h], h) for h in HABITS),
            ("question", "questions"),
            ("summar", "summaries"),
            ("sum up", "summaries"),
            ("plan", "plans"),
            ("unsure", "hedges"),
            ("by name", "names"),
            ("stress", "emphasis"),
        )
        found = {h for word, h in habit_cues if word in text}
        habits = tuple(h for h in HABITS if h in found) or base.habits
        try:
            age = int(profile.get("age", base.age))
        except (TypeError, ValueError):
            age = base.age
        raw_gender = str(profile.get("gender", "")).strip().lower()
        genders: dict[str, Gender] = {
            "female": "female",
            "f": "female",
            "woman": "female",
            "女性": "female",
            "male": "male",
            "m": "male",
            "man": "male",
            "男性": "male",
            "neutral": "neutral",
            "nonbinary": "neutral",
            "non-binary": "neutral",
        }
        return Persona(temperament, verbosity, habits[:2], age, genders.get(raw_gender, base.gender))


def draw_persona(rng: random.Random) -> Persona:
    """A persona drawn from `rng`: any temperament and verbosity, one or two habits."""
    temperament = rng.choice(TEMPERAMENTS)
    verbosity = rng.choice(VERBOSITIES)
    habits = tuple(sorted(rng.sample(HABITS, rng.choice((1, 2))), key=HABITS.index))
    return Persona(temperament, verbosity, habits, rng.randint(19, 72), rng.choice(GENDERS))


def persona_of(agent: object) -> Persona | None:
    """The persona an agent speaks in (its `persona` attribute when that is a `Persona`), else None."""
    persona = getattr(agent, "persona", None)
    return persona if isinstance(persona, Persona) else None


def persona_for(seed: int) -> Persona:
    """The persona of the agent seeded with `seed`, from a stream of its own (`stream(seed, "persona")`)."""
    return draw_persona(stream(seed, "persona"))


__all__ = [
    "AI_NAMES",
    "GENDERS",
    "HABITS",
    "TEMPERAMENTS",
    "VERBOSITIES",
    "Persona",
    "ai_names",
    "draw_persona",
    "persona_for",
    "persona_of",
]
