"""Coherence of talk, measured from game records: does a seat speak as a player, in its own voice?

A small model asked to play Werewolf may repeat its prompt aloud, narrate the game in the third
person, give its own side away or never tell what it learned. These metrics count such faults in
the public talk of a record (`Talk` events in the `talk` channel that are neither `over` nor
`skip`), per seat, and add them up per agent type (`record.agents[seat]`), with the same detectors
the phrasing checks use (`lycan.agents.phrasing`):

- prompt echo: the utterance shares a run of `ECHO_NGRAM` words with a packaged prompt template
  (placeholders removed), other than runs the heuristic agent's own templates contain;
- self-narration: the speaker names itself;
- self-reveal: a werewolf or possessed admits its side in public;
- seer result announced: a seer who divined a werewolf and spoke again in public while that
  werewolf lived, and announced a werewolf result in public (one trial per such seer seat);
- contradictions: a village-side seat (not werewolf or possessed) claims a role it does not hold,
  or announces a divine or medium result it did not get;
- votes as said: of the day's first-round votes cast by a seat that said that day whom it would
  vote for (another seat, still alive at the vote), the share cast for that seat;
- faults (fallbacks), timeouts (answers that came too late, retries included) and phrasings, with
  the reasons why phrasings were rejected (model calls whose error starts with `phrasing rejected`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from lycan.agents import speech
from lycan.agents.phrasing import echoes, narrates_self, reveals_wolf_side
from lycan.beliefs.claims import Statement, stated_vote
from lycan.beliefs.reader import reader_for
from lycan.engine.actions import Failure
from lycan.engine.events import Died, Divined, Executed, Fault, MediumResult, Talk, VoteCast
from lycan.engine.record import GameRecord
from lycan.rules.roles import Role, Species
from lycan.stats import Rate

LLM_AGENTS = ("llm", "react", "recon", "camwolf")
"""Agent types that speak through a chat model (a record label may add `:model`)."""
REJECTED = "phrasing rejected"
"""How the error of a model call whose phrasing failed the checks begins."""
TIMEOUT = "no answer within"
"""How the reason of an answer that came too late begins (`lycan.engine.session`)."""
_WOLF_SIDE = (Role.WEREWOLF, Role.POSSESSED)
_PLACEHOLDER = re.compile(r"\$(?:\{\w+\}|\w+)")


def is_llm(agent: str) -> bool:
    """Whether a record's agent label names an LLM agent type (`llm`, `react:local`, `camwolf+beliefs`, ...)."""
    return re.split(r"[:+]", agent, maxsplit=1)[0] in LLM_AGENTS


@cache
def prompt_text() -> str:
    """Every packaged prompt template, placeholders removed, one per line."""
    folder = resources.files("lycan.agents").joinpath("prompts")
    texts = [f.read_text(encoding="utf-8") for f in sorted(folder.iterdir(), key=lambda f: f.name)]
    return "\n".join(_PLACEHOLDER.sub(" ", t).replace("$$", "$") for t in texts if t)


@cache
def template_text() -> str:
    """The heuristic agent's speech templates (`lycan.agents.speech`), names left empty.

    Runs of words found here are never echoes: a model that speaks like the heuristic agent
    speaks as a player, whatever a prompt's example happens to say.
    """
    lines = [speech.GREETING, speech.NOTHING_YET, speech.FAKE_PLAN]
    lines += [speech.claim(role) for role in speech.CLAIMABLE_ROLES]
    for species in Species:
        lines += [speech.divined("", species, 1, 2), speech.divined("", species, 1, 3)]
        lines.append(speech.medium_reading("", species))
    lines += [speech.protected(""), speech.vote(""), speech.suspect(""), speech.trust(""), speech.attack("")]
    lines += [speech.liar("", role) for role in ("seer", "medium")]
    return "\n".join(lines)


def echoes_prompt(text: str) -> bool:
    """Whether `text` repeats a packaged prompt template (`ECHO_NGRAM` words in a row)."""
    return echoes(text, prompt_text(), allowed=template_text())


@dataclass(frozen=True, slots=True)
class Coherence:
    """Counts of one agent type's talk faults over some games; the properties give the rates."""

    agent: str
    games: int = 0
    seat_games: int = 0
    utterances: int = 0
    echoes: int = 0
    narrations: int = 0
    wolf_utterances: int = 0
    wolf_reveals: int = 0
    seer_chances: int = 0
    seer_announced: int = 0
    village_utterances: int = 0
    contradictions: int = 0
    promises: int = 0
    promises_kept: int = 0
    decisions: int = 0
    faults: int = 0
    timeouts: int = 0
    phrasings: int = 0
    rejected: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    """Rejected phrasings per reason (`lycan.agents.phrasing.REASONS`), most frequent first."""

    @property
    def echo_rate(self) -> Rate:
        """Public utterances that repeat prompt text."""
        return Rate(self.echoes, self.utterances)

    @property
    def narration_rate(self) -> Rate:
        """Public utterances that name their own speaker."""
        return Rate(self.narrations, self.utterances)

    @property
    def wolf_reveal_rate(self) -> Rate:
        """Public utterances of werewolf and possessed seats that admit their side."""
        return Rate(self.wolf_reveals, self.wolf_utterances)

    @property
    def seer_announce_rate(self) -> Rate:
        """Seers who found a werewolf and spoke again while it lived, that announced a werewolf result."""
        return Rate(self.seer_announced, self.seer_chances)

    @property
    def contradiction_rate(self) -> Rate:
        """Public utterances of village-side seats that contradict what the seat knows."""
        return Rate(self.contradictions, self.village_utterances)

    @property
    def promise_rate(self) -> Rate:
        """Votes cast for the player the voter said that day it would vote for."""
        return Rate(self.promises_kept, self.promises)

    @property
    def fault_rate(self) -> Rate:
        """Decisions that ended in a fallback."""
        return Rate(min(self.faults, self.decisions), self.decisions)

    @property
    def timeout_rate(self) -> Rate:
        """Answers (retries included) that came too late."""
        return Rate(min(self.timeouts, self.decisions), self.decisions)

    @property
    def rejection_rate(self) -> Rate:
        """Model phrasings that failed the checks (the template was spoken instead)."""
        return Rate(self.rejected, max(self.phrasings, self.rejected))

    def __add__(self, other: Coherence) -> Coherence:
        counts = {name: getattr(self, name) + getattr(other, name) for name in ("games", "seat_games", *_COUNTS)}
        reasons = Counter(self.reasons)
        reasons.update(other.reasons)
        return Coherence(self.agent, reasons=dict(reasons.most_common()), **counts)


_COUNTS = tuple(
    name for name in Coherence.__dataclass_fields__ if name not in ("agent", "games", "seat_games", "reasons")
)


def _announces(statements: Iterable[Statement]) -> bool:
    return any(s.kind == "divined" and s.species is Species.WEREWOLF for s in statements)


def _contradicts(st: Statement, role: Role, results: dict[str, dict[int, Species]]) -> bool:
    """Whether `st`, said by a village-side seat in `role` with these results so far, is false to its knowledge."""
    if st.kind == "claim":
        return st.role != role.value
    if st.kind in ("divined", "identified"):
        got = results[st.kind]
        return st.target not in got or got[st.target] is not st.species
    return False


def game_coherence(record: GameRecord) -> dict[str, Coherence]:
    """Per agent type in `record`, the coherence counts of its seats in this one game."""
    n = len(record.agents)
    parser = reader_for(record.names)  # the talk reader: a paraphrased promise or claim counts as said
    tally = [Counter[str]() for _ in range(n)]
    results: list[dict[str, dict[int, Species]]] = [{"divined": {}, "identified": {}} for _ in range(n)]
    found: list[set[int]] = [set() for _ in range(n)]  # werewolves each seer divined
    dead: set[int] = set()
    promised: dict[int, int] = {}  # whom each seat last said today it will vote for
    today = -1
    for e in record.events:
        if e.day != today:
            today = e.day
            promised.clear()
        if isinstance(e, VoteCast):
            target = promised.get(e.actor)
            if e.round == 0 and target is not None and target != e.actor and target not in dead:
                tally[e.actor]["promises"] += 1
                tally[e.actor]["promises_kept"] += e.target == target
        elif isinstance(e, Divined):
            results[e.actor]["divined"][e.target] = e.result
            if e.result is Species.WEREWOLF and record.roles[e.actor] is Role.SEER:
                found[e.actor].add(e.target)
        elif isinstance(e, MediumResult):
            results[e.actor]["identified"][e.target] = e.result
        elif isinstance(e, (Died, Executed)):
            dead.add(e.target)
        elif isinstance(e, Fault):
            tally[e.seat]["faults"] += 1
        elif isinstance(e, Talk) and e.channel == "talk":
            seat, role, t = e.actor, record.roles[e.actor], tally[e.actor]
            if found[seat] - dead:
                t["seer_chances"] = 1
            if e.over or e.skip:
                continue
            statements = parser.parse(e.text, seat)
            if (said := stated_vote(statements)) is not None:
                promised[seat] = said
            t["utterances"] += 1
            t["echoes"] += echoes_prompt(e.text)
            t["narrations"] += narrates_self(e.text, record.names[seat])
            if role in _WOLF_SIDE:
                t["wolf_utterances"] += 1
                t["wolf_reveals"] += reveals_wolf_side(e.text)
            else:
                t["village_utterances"] += 1
                t["contradictions"] += any(_contradicts(s, role, results[seat]) for s in statements)
            if found[seat] and _announces(statements):
                t["seer_announced"] = 1
    for d in record.decisions:
        if d.kind != "probe":
            tally[d.seat]["decisions"] += 1
            if isinstance(d.answer, Failure) and d.answer.reason.startswith(TIMEOUT):
                tally[d.seat]["timeouts"] += 1
    for seat in range(n):
        tally[seat]["phrasings"] += int((record.usage.get(seat) or {}).get("phrasings", 0))
    reasons: list[Counter[str]] = [Counter() for _ in range(n)]
    for call in record.model_calls:
        if call.error.startswith(REJECTED) and 0 <= call.seat < n:
            tally[call.seat]["rejected"] += 1
            reasons[call.seat][call.error.removeprefix(REJECTED).lstrip(": ")] += 1
    out: dict[str, Coherence] = {}
    for seat, agent in enumerate(record.agents):
        t = tally[seat]
        t["seer_announced"] = min(t["seer_announced"], t["seer_chances"])
        counts = {name: t[name] for name in _COUNTS}
        one = Coherence(agent, seat_games=1, reasons=dict(reasons[seat]), **counts)
        out[agent] = out[agent] + one if agent in out else one
    return {agent: c + Coherence(agent, games=1) for agent, c in out.items()}


def coherence(records: Iterable[GameRecord], *, agents: Sequence[str] | None = None) -> dict[str, Coherence]:
    """Coherence counts per agent type over `records` (only the agent types in `agents`, if given)."""
    out: dict[str, Coherence] = {}
    for rec in records:
        for agent, c in game_coherence(rec).items():
            if agents is None or agent in agents:
                out[agent] = out[agent] + c if agent in out else c
    return out


__all__ = ["LLM_AGENTS", "Coherence", "coherence", "echoes_prompt", "game_coherence", "is_llm", "prompt_text"]
