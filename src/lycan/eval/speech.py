"""How players talk, measured from game records: variety, length, reasons that check out, answers.

Counted over public talk (`Talk` events in the `talk` channel that are neither `over` nor `skip`),
per agent type (`record.agents[seat]`):

- copied: an utterance said word for word (case and spacing aside) by another seat in the same game;
- distinct word pairs: of the word pairs (two words in a row within an utterance) in an agent's
  first `budget` words of talk, records taken in order, the share that are distinct;
- words per utterance;
- cited reasons: of the utterances that accuse or suspect a player (as the talk reader reads them),
  the share that give a reason citing a public event of the speaker's view, checked against the
  record: the reason is in one of the wordings `lycan.render.explanations` gives for an event the speaker
  had seen, about that player. A reason that fits an event the speaker could not have seen (a night
  attack, another seat's divination) is a false citation;
- answers: of the day talk turns after the day's first, the share that answer something said
  earlier that day: the turn names a seat that spoke earlier that day and whose talk that day named
  the speaker, or named a third seat that the turn names too; replies, the stricter part: the turn
  names a seat whose talk earlier that day named the speaker;
- words per utterance by persona verbosity, when the record keeps the seats' personas
  (`meta["personas"]`, by seat name).
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lycan.agents.phrasing import names_in, words
from lycan.beliefs.reader import reader_for
from lycan.beliefs.tracker import Influence
from lycan.engine.events import AttackChosen, Died, Divined, Event, Executed, MediumResult, Talk, VoteCast, WitchWoken
from lycan.engine.record import GameRecord
from lycan.render import Explainer, explanations

BUDGETS = (1_000, 17_000)
"""Word budgets over which distinct word pairs are reported."""

_SPACE = re.compile(r"\s+")
_KINDS = ("claim", "report", "choice")
_CITABLE = (Talk, VoteCast, Divined, MediumResult, Died, Executed, WitchWoken, AttackChosen)


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text.replace("’", "'").replace("‘", "'").lower()).strip()


@dataclass
class SpeechStats:
    """One agent type's talk over some games (lists keep what medians and budgets need)."""

    agent: str
    games: int = 0
    utterances: int = 0
    copied: int = 0
    said: list[list[str]] = field(default_factory=list)
    """The words of each utterance, records in order."""
    lengths: list[int] = field(default_factory=list)
    accusations: int = 0
    cited: int = 0
    false_citations: int = 0
    turns: int = 0
    answers: int = 0
    replies: int = 0
    by_verbosity: dict[str, list[int]] = field(default_factory=dict)

    def add(self, other: SpeechStats) -> None:
        """Add `other`'s counts (the same agent type) to these."""
        self.games += other.games
        self.utterances += other.utterances
        self.copied += other.copied
        self.said += other.said
        self.lengths += other.lengths
        self.accusations += other.accusations
        self.cited += other.cited
        self.false_citations += other.false_citations
        self.turns += other.turns
        self.answers += other.answers
        self.replies += other.replies
        for k, v in other.by_verbosity.items():
            self.by_verbosity.setdefault(k, []).extend(v)

    @property
    def copied_share(self) -> float:
        """Utterances said word for word by another seat of the same game."""
        return self.copied / self.utterances if self.utterances else 0.0

    def distinct_pairs(self, budget: int) -> tuple[float, int]:
        """(distinct word pairs / word pairs, words counted) over the first `budget` words of talk."""
        seen: set[tuple[str, str]] = set()
        total = counted = 0
        for w in self.said:
            if counted >= budget:
                break
            w = w[: budget - counted]
            pairs = list(itertools.pairwise(w))
            seen.update(pairs)
            total += len(pairs)
            counted += len(w)
        return (len(seen) / total if total else 0.0), counted

    @property
    def median_words(self) -> float:
        """Median words per utterance."""
        return float(statistics.median(self.lengths)) if self.lengths else 0.0

    @property
    def cited_share(self) -> float:
        """Accusations that cite a public event of the speaker's view."""
        return self.cited / self.accusations if self.accusations else 0.0

    @property
    def answer_share(self) -> float:
        """Day talk turns after the day's first that answer something said earlier that day."""
        return self.answers / self.turns if self.turns else 0.0

    @property
    def reply_share(self) -> float:
        """Day talk turns after the day's first that name a seat which earlier that day named the speaker."""
        return self.replies / self.turns if self.turns else 0.0


def _claims(events: Iterable[Event], parse: object) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for e in events:
        if isinstance(e, Talk) and e.channel == "talk" and e.audience is None:
            for st in parse(e.text, e.actor):  # type: ignore[operator]
                if st.kind == "claim":
                    out.setdefault(e.actor, set()).add(st.role)
                elif st.kind == "divined":
                    out.setdefault(e.actor, set()).add("seer")
    return out


def _reasons(events: Sequence[Event], target: int, by: Explainer) -> set[str]:
    """Every wording of every reason `lycan.render.explanations` gives about `target` for `events`, normalised."""
    out: set[str] = set()
    for at, e in enumerate(events):
        if not isinstance(e, _CITABLE):
            continue
        for kind in _KINDS if isinstance(e, Talk) else ("fact",):
            # a claim's reason may name who claimed first, so it is given the events before it
            context = events[: at + 1] if kind == "claim" else (e,)
            for text in explanations(context, Influence(e.id, target, 1.0, kind), by):
                if len(words(text)) >= 3:
                    out.add(_norm(text))
    return out


def game_speech(record: GameRecord) -> dict[str, SpeechStats]:
    """Per agent type, the speech statistics of its seats in `record`."""
    names = record.names
    reader = reader_for(names)
    personas = record.meta.get("personas") or {}
    events = list(record.events)
    talk = [
        (i, e)
        for i, e in enumerate(events)
        if isinstance(e, Talk) and e.channel == "talk" and not (e.over or e.skip) and e.text.strip()
    ]
    by_text: dict[str, set[int]] = {}
    for _, e in talk:
        by_text.setdefault(_norm(e.text), set()).add(e.actor)
    stats = {agent: SpeechStats(agent) for agent in dict.fromkeys(record.agents)}
    for s in stats.values():
        s.games = 1
    day_talk: dict[int, list[tuple[int, str, set[int]]]] = {}
    for i, e in talk:
        st = stats[record.agents[e.actor]]
        w = words(e.text)
        st.utterances += 1
        st.copied += len(by_text[_norm(e.text)] - {e.actor}) > 0
        st.lengths.append(len(w))
        st.said.append(w)
        persona = personas.get(names[e.actor]) if isinstance(personas, dict) else None
        if isinstance(persona, dict) and "verbosity" in persona:
            st.by_verbosity.setdefault(str(persona["verbosity"]), []).append(len(w))
        # answers
        named = names_in(e.text, names) - {e.actor}
        earlier = day_talk.setdefault(e.day, [])
        if e.day >= 1 and earlier:
            st.turns += 1
            answered = any(
                p in named and (e.actor in their or bool((their - {p, e.actor}) & named))
                for p, _, their in earlier
                if p != e.actor
            )
            st.answers += answered
            st.replies += any(p in named and e.actor in their for p, _, their in earlier if p != e.actor)
        earlier.append((e.actor, e.text, names_in(e.text, names) - {e.actor}))
        # reasons
        accused = {x.target for x in reader.parse(e.text, e.actor) if x.kind == "accuses" and x.target is not None}
        if not accused:
            continue
        st.accusations += 1
        text = _norm(e.text)
        before = events[:i]
        seen = [x for x in before if x.visible_to(e.actor)]
        claims = _claims(seen, reader.parse)
        by = Explainer(e.actor, names, reader.parse, lambda s, r, c=claims: r in c.get(s, ()))  # type: ignore[misc]
        cited = false = False
        for target in accused:
            mine = _reasons(seen, target, by)
            if any(r in text for r in mine):
                cited = True
            hidden = _reasons(before, target, by) - mine
            if any(r in text for r in hidden):
                false = True
        st.cited += cited and not false
        st.false_citations += false
    return stats


def speech(records: Iterable[GameRecord], *, agents: Sequence[str] | None = None) -> dict[str, SpeechStats]:
    """Speech statistics per agent type over `records` (only the agent types in `agents`, if given)."""
    out: dict[str, SpeechStats] = {}
    for rec in records:
        for agent, s in game_speech(rec).items():
            if agents is not None and agent not in agents:
                continue
            if agent in out:
                out[agent].add(s)
            else:
                out[agent] = s
    return out


def verbosity_medians(stats: SpeechStats) -> dict[str, float]:
    """Median words per utterance per persona verbosity (`terse`, `plain`, `chatty`)."""
    return {k: float(statistics.median(v)) for k, v in sorted(stats.by_verbosity.items()) if v}


def most_copied(records: Iterable[GameRecord], top: int = 5) -> list[tuple[str, int]]:
    """The utterances said by most seat-games across `records` (for a report's example lines)."""
    count: Counter[str] = Counter()
    for rec in records:
        seen = {(_norm(e.text), e.actor) for e in rec.events if isinstance(e, Talk) and e.channel == "talk"}
        count.update(t for t, _ in seen if t)
    return count.most_common(top)


__all__ = ["BUDGETS", "SpeechStats", "game_speech", "most_copied", "speech", "verbosity_medians"]
