"""What a rule-based seat knows of a game, and what it concludes from it.

`Memory` is everything one seat has gathered about one game (claims, votes, deaths, its own
night results, what it said), read from new events only. `conclude(memory, view, private=...)`
turns it into a `Belief`: suspicion of every seat with the main reason, trust in each claimed
seer and medium, the seats known for sure. The heuristic agents decide with them, and CaM-Wolf's
planner composes them; `noise` is the public tie-breaker every such seat computes alike.
"""

from __future__ import annotations

import math
import random
import re
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lycan.agents.speech import SpeechAct
from lycan.beliefs.claims import Statement, TalkParser
from lycan.engine.events import (
    AttackChosen,
    Died,
    Divined,
    Event,
    Executed,
    Guarded,
    MediumResult,
    PeacefulNight,
    PotionUsed,
    Talk,
    VoteCast,
    WitchWoken,
    WolfPack,
)
from lycan.engine.view import View
from lycan.render import Explainer
from lycan.rules.roles import Role, Species

if TYPE_CHECKING:  # the belief engine (numpy) loads only when a belief-driven seat plays
    from lycan.beliefs.tracker import Beliefs, Posterior

_WOLF = Species.WEREWOLF
_HUMAN = Species.HUMAN
Key = tuple[object, ...]


def noise(name: str, day: int) -> float:
    """A small public tie-breaker every player computes alike, so votes tend to converge."""
    return (zlib.crc32(f"{name}/{day}".encode()) & 0xFFFF) / 0xFFFF * 0.3


@dataclass
class Belief:
    """What a seat concludes at one moment: suspicion per seat, with the main reason, and trust."""

    sus: list[float]
    reason: list[str]
    wolf_reports: list[float]
    seer_trust: dict[int, float]
    medium_trust: dict[int, float]
    known_human: set[int]
    known_wolf: set[int]
    hard_fakes: set[int]


@dataclass
class Memory:
    """Everything one seat has gathered about one game, updated from new events only."""

    seat: int
    role: Role
    names: tuple[str, ...]
    n_wolves: int
    has_possessed: bool
    has_witch: bool
    has_guardian: bool
    guardian_repeat: bool
    rng: random.Random
    parser: TalkParser
    """How this seat reads others' talk (`lycan.beliefs.reader.TalkReader`)."""
    seen: int = 0
    last: Event | None = None
    pack: frozenset[int] = frozenset()
    # public talk
    claim_order: list[int] = field(default_factory=list)
    seer_claims: dict[int, dict[int, Species]] = field(default_factory=dict)
    late_claimers: set[int] = field(default_factory=set)
    medium_claims: dict[int, dict[int, Species]] = field(default_factory=dict)
    role_claims: dict[int, set[str]] = field(default_factory=dict)
    liar_calls: list[tuple[int, int]] = field(default_factory=list)
    intents: dict[int, dict[int, int]] = field(default_factory=dict)
    accusations: dict[int, set[int]] = field(default_factory=dict)
    protect_reports: list[tuple[int, int, int]] = field(default_factory=list)
    spoke: Counter[int] = field(default_factory=Counter)
    first_talk_day: dict[int, int] = field(default_factory=dict)
    claim_day: dict[int, int] = field(default_factory=dict)
    # public facts
    votes: list[tuple[int, int, int, int]] = field(default_factory=list)
    executed: set[int] = field(default_factory=set)
    night_dead: set[int] = field(default_factory=set)
    revealed: dict[int, Role] = field(default_factory=dict)
    peaceful_days: set[int] = field(default_factory=set)
    # private facts
    divined: dict[int, Species] = field(default_factory=dict)
    divined_night: dict[int, int] = field(default_factory=dict)
    readings: dict[int, Species] = field(default_factory=dict)
    attacked_seen: set[int] = field(default_factory=set)
    witch_nights: int = 0
    poisoned: set[int] = field(default_factory=set)
    guards: dict[int, int] = field(default_factory=dict)
    proposals: dict[int, int] = field(default_factory=dict)
    fake_plan: int | None = None
    attacks: dict[int, int] = field(default_factory=dict)
    # own speech and plans
    said_texts: set[str] = field(default_factory=set)
    said_keys: set[Key] = field(default_factory=set)
    proposed: tuple[set[Key], set[str]] | None = None
    """What the last public utterance composed marked as said (the agenda keys, the new texts)."""
    acts: tuple[SpeechAct, ...] = ()
    """The speech acts of the last utterance composed (`lycan.agents.speech.SpeechAct`)."""
    acts_text: str = ""
    """The template words of the last utterance composed (what `acts` say)."""
    said_to_me: list[tuple[int, int, str]] = field(default_factory=list)
    """(day, seat, what) for public talk aimed at this seat: `accuses`, `will_vote`, `liar`, `question`."""
    replied: set[tuple[int, int]] = field(default_factory=set)
    """(day, seat) of every seat this one has spoken to by name in public talk."""
    heard_targets: list[tuple[int, int, int]] = field(default_factory=list)
    """(day, seat, target) of every vote intention and accusation heard in public talk."""
    heard_reasons: set[tuple[int, int, int]] = field(default_factory=set)
    """(day, seat, target) of every accusation and liar call heard in public talk: a seat with a point about
    the target, not only a vote for it."""
    decided: set[Key] = field(default_factory=set)
    planned_vote: tuple[int, int] | None = None
    """(day, seat) of the vote the last public talk turn planned (`_agenda`)."""
    last_word: dict[int, int] = field(default_factory=dict)
    """Per day, the vote this seat planned, and so had said, at its last talk turn of the day."""
    faking: bool = False
    fake_results: list[tuple[int, int, Species]] = field(default_factory=list)
    # cached beliefs
    stamp: int = -1
    belief: Belief | None = None
    public_stamp: int = -1
    public_belief: Belief | None = None
    _noise_day: int = -1
    _noise: list[float] = field(default_factory=list)
    # the exact belief engine (belief-driven agents only)
    beliefs: Beliefs | None = None
    public_beliefs: Beliefs | None = None
    public_events: list[Event] = field(default_factory=list)
    public_seen: int = 0
    posteriors: dict[bool, tuple[int, Posterior | None]] = field(default_factory=dict)
    broken: set[bool] = field(default_factory=set)
    cites: dict[tuple[int, int, bool], list[tuple[int, str]]] = field(default_factory=dict)
    cite_words: dict[tuple[int, int, bool], tuple[str, ...]] = field(default_factory=dict)
    """Other wordings of a cited reason, by (event id, suspect, public) (`lycan.render.explanations`)."""

    def noise(self, seat: int, day: int) -> float:
        """`noise` of `seat`'s name on `day`, computed once per day."""
        if self._noise_day != day:
            self._noise_day = day
            self._noise = [noise(name, day) for name in self.names]
        return self._noise[seat]

    def claimed(self, seat: int, role: str) -> bool:
        """Whether `seat` has claimed `role` (a seer claim also by announcing a result)."""
        return role in self.role_claims.get(seat, ()) or (role == "seer" and seat in self.seer_claims)

    @property
    def explainer(self) -> Explainer:
        """This seat as the one giving reasons (`lycan.render.explain_influence`)."""
        return Explainer(self.seat, self.names, self.parser.parse, self.claimed)

    def fits(self, view: View) -> bool:
        """Whether `view` continues the game this memory was built from."""
        if view.seat != self.seat or view.names != self.names or len(view.events) < self.seen:
            return False
        return self.seen == 0 or view.events[self.seen - 1] == self.last

    def claims_seer(self, seat: int, day: int) -> None:
        """`seat` claimed seer on `day` (the first claim counts; a claim after a wolf result is late)."""
        if seat in self.seer_claims:
            return
        self.seer_claims[seat] = {}
        self.claim_day[seat] = day
        self.claim_order.append(seat)
        if any(res.get(seat) is _WOLF for res in self.seer_claims.values()):
            self.late_claimers.add(seat)

    def absorb(self, events: Sequence[Event]) -> None:
        """Read the events not seen yet."""
        for ev in events[self.seen :]:
            self._absorb(ev)
        self.seen = len(events)
        self.last = events[-1] if events else None

    def _absorb(self, ev: Event) -> None:
        if isinstance(ev, Talk):
            if not (ev.over or ev.skip):
                self._hear(ev)
        elif isinstance(ev, VoteCast):
            self.votes.append((ev.day, ev.round, ev.actor, ev.target))
        elif isinstance(ev, Executed):
            self.executed.add(ev.target)
            if ev.role is not None:
                self.revealed[ev.target] = ev.role
        elif isinstance(ev, Died):
            if ev.cause == "night":
                self.night_dead.add(ev.target)
            if ev.role is not None:
                self.revealed[ev.target] = ev.role
        elif isinstance(ev, PeacefulNight):
            self.peaceful_days.add(ev.day)
        elif isinstance(ev, Divined):
            self.divined[ev.target] = ev.result
            self.divined_night[ev.target] = ev.day
        elif isinstance(ev, MediumResult):
            self.readings[ev.target] = ev.result
        elif isinstance(ev, WitchWoken):
            self.witch_nights += 1
            if ev.attacked is not None:
                self.attacked_seen.add(ev.attacked)
        elif isinstance(ev, PotionUsed):
            if ev.potion == "poison":
                self.poisoned.add(ev.target)
        elif isinstance(ev, Guarded):
            self.guards[ev.day] = ev.target
        elif isinstance(ev, AttackChosen):
            self.attacks[ev.day] = ev.target
        elif isinstance(ev, WolfPack):
            self.pack = frozenset(ev.members)

    def _hear(self, ev: Talk) -> None:
        actor = ev.actor
        if ev.channel == "talk":
            if ev.day >= 1:
                self.first_talk_day.setdefault(actor, ev.day)
            if actor == self.seat:
                self.spoke[ev.day] += 1
        statements = self.parser.parse(ev.text, actor)
        if ev.channel == "talk" and actor != self.seat:
            self._note_address(ev, statements)
        for st in statements:
            if ev.channel == "whisper":
                if st.kind == "attack" and st.target is not None and st.target not in self.pack:
                    self.proposals.setdefault(ev.day, st.target)
                elif st.kind == "fake_plan" and self.fake_plan is None:
                    self.fake_plan = actor
                continue
            target = st.target
            if st.kind == "claim":
                self.role_claims.setdefault(actor, set()).add(st.role)
                if st.role == "seer":
                    self.claims_seer(actor, ev.day)
                elif st.role == "medium":
                    self.medium_claims.setdefault(actor, {})
            elif target is None or target == actor:
                continue
            elif st.kind == "divined" and st.species is not None:
                self.claims_seer(actor, ev.day)
                self.seer_claims[actor].setdefault(target, st.species)
            elif st.kind == "identified" and st.species is not None:
                self.medium_claims.setdefault(actor, {}).setdefault(target, st.species)
            elif st.kind == "guarded":
                self.protect_reports.append((actor, ev.day, target))
            elif st.kind == "will_vote":
                self.intents.setdefault(ev.day, {})[actor] = target
                self.accusations.setdefault(actor, set()).add(target)
            elif st.kind == "accuses":
                self.accusations.setdefault(actor, set()).add(target)
            elif st.kind == "liar":
                self.liar_calls.append((actor, target))

    def _note_address(self, ev: Talk, statements: Sequence[Statement]) -> None:
        """Keep what another seat's public line aims at whom (for answers and agreement)."""
        mine = False
        for st in statements:
            if st.kind in ("accuses", "will_vote", "liar") and st.target is not None and st.target != ev.actor:
                self.heard_targets.append((ev.day, ev.actor, st.target))
                if st.kind != "will_vote":
                    self.heard_reasons.add((ev.day, ev.actor, st.target))
                if st.target == self.seat:
                    self.said_to_me.append((ev.day, ev.actor, st.kind))
                    mine = True
        if not mine and "?" in ev.text and asks_seat(ev.text, self.seat, self.names):
            self.said_to_me.append((ev.day, ev.actor, "question"))


_SENTENCES = re.compile(r"[^.!?]+[.!?]*")


def asks_seat(text: str, seat: int, names: Sequence[str]) -> bool:
    """Whether `text` asks `seat` a question.

    It does when the seat is named in a question, or leads the sentence just before a question that
    names no other seat ("Player 6 you've been quiet today. Who's your wolf?"). A seat named only
    elsewhere in a line that asks someone else is not asked ("Player 5 is spot on about Player 7.
    Player 6 who's your wolf?").
    """
    name = names[seat]
    sentences = [m.group().strip() for m in _SENTENCES.finditer(text)]
    for i, sentence in enumerate(sentences):
        if not sentence.endswith("?"):
            continue
        if _names_seat(sentence, name):
            return True
        if (
            i
            and _leads(sentences[i - 1], name)
            and not any(_names_seat(sentence, other) for k, other in enumerate(names) if k != seat)
        ):
            return True
    return False


def _leads(sentence: str, name: str) -> bool:
    """Whether `sentence` starts with `name` as a whole word (an address: "Player 6 you've been quiet")."""
    head = sentence.lstrip("@")
    return head.lower().startswith(name.lower()) and not head[len(name) : len(name) + 1].isalnum()


def _names_seat(text: str, name: str) -> bool:
    """Whether `text` names `name` as a whole word (`Player 1` is not read in `Player 10`)."""
    at = text.lower().find(name.lower())
    while at >= 0:
        end = at + len(name)
        before = text[at - 1] if at > 0 else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or after.isalnum()):
            return True
        at = text.lower().find(name.lower(), at + 1)
    return False


def conclude(mem: Memory, view: View, *, private: bool) -> Belief:
    """Suspicion and trust from what `mem` holds; `private` adds this seat's secret knowledge."""
    n = len(mem.names)
    me = mem.seat
    names = mem.names
    kh: set[int] = {me} if private else set()
    kw: set[int] = set()
    for s, known_role in mem.revealed.items():
        (kw if known_role is Role.WEREWOLF else kh).add(s)
    if not mem.has_witch:
        kh |= mem.night_dead
    if private:
        role = mem.role
        for facts in (mem.divined, mem.readings):
            for t, sp in facts.items():
                (kw if sp is _WOLF else kh).add(t)
        kh |= mem.attacked_seen
        if role is Role.WITCH:
            kh |= mem.night_dead - mem.poisoned
        if role is Role.GUARDIAN and not mem.has_witch:
            kh |= {t for night, t in mem.guards.items() if night + 1 in mem.peaceful_days}
    real_seer = private and mem.role is Role.SEER
    real_medium = private and mem.role is Role.MEDIUM
    if real_seer and not mem.has_possessed:
        kw |= {c for c in mem.claim_order if c != me}
    if len(kw) >= mem.n_wolves > 0:
        kh |= set(range(n)) - kw

    # medium claimants
    medium_trust: dict[int, float] = {}
    scores: dict[int, float] = {}
    for c, res in mem.medium_claims.items():
        if c == me and real_medium:
            continue
        fake = real_medium or c in kw
        fake = fake or any(
            t not in mem.executed or (sp is _WOLF and t in kh) or (sp is _HUMAN and t in kw) for t, sp in res.items()
        )
        if not fake:
            scores[c] = 1.0 + (2.0 if c in mem.night_dead else 0.0)
    _normalise(scores, medium_trust, mem.medium_claims)
    medium_says: dict[int, tuple[Species, float]] = {}
    for c, p in medium_trust.items():
        for t, sp in mem.medium_claims[c].items():
            if p >= 0.5:
                medium_says[t] = (sp, p)

    # seer claimants
    seer_trust: dict[int, float] = {}
    hard_fakes: set[int] = set()
    scores = {}
    for c in mem.claim_order:
        if c == me and real_seer:
            continue
        res = mem.seer_claims[c]
        wolves_called = sum(1 for sp in res.values() if sp is _WOLF)
        fake = real_seer or c in kw or wolves_called > mem.n_wolves
        fake = fake or any((sp is _WOLF and t in kh) or (sp is _HUMAN and t in kw) for t, sp in res.items())
        if fake:
            hard_fakes.add(c)
            continue
        sc = 1.0
        if c in mem.night_dead:
            sc += 2.0
        if c in mem.late_claimers:
            sc -= 1.5
        if mem.claim_day.get(c, 0) > mem.first_talk_day.get(c, 0):
            sc -= 1.0  # talked on an earlier day without coming out
        if len(mem.role_claims.get(c, ())) > 1:
            sc -= 2.0
        for t, sp in res.items():
            if t in medium_says:
                sc += 1.0 if medium_says[t][0] is sp else -3.0 * medium_says[t][1]
        scores[c] = sc
    _normalise(scores, seer_trust, mem.seer_claims)

    # suspicion
    sus = [0.0] * n
    reason = [""] * n
    weight = [0.0] * n
    reports = [0.0] * n

    def add(s: int, w: float, why: str = "") -> None:
        sus[s] += w
        if why and w > weight[s]:
            weight[s] = w
            reason[s] = why

    for c, p in seer_trust.items():
        for t, sp in mem.seer_claims[c].items():
            if t in mem.seer_claims:
                continue  # rival claimants accuse each other; the claim conflict is weighed below
            if sp is _WOLF:
                # a fake seer's own result in its own mouth: what a true seer says of its werewolf
                add(t, 3.5 * p, "I know they are a werewolf" if c == me else f"{names[c]} divined them as a werewolf")
                reports[t] += 3.5 * p
            else:
                add(t, -2.0 * p)
    wolfish = 2.0 if mem.has_possessed else 3.0
    for c in mem.claim_order:
        if c == me:
            continue
        p = seer_trust.get(c, 0.0)
        why = "their seer claim is false" if c in hard_fakes else "their seer claim looks false"
        add(c, wolfish * (1.0 - p) - 2.0 * p + (1.0 if c in hard_fakes else 0.0), why if p < 0.35 else "")
    for c in mem.medium_claims:
        if c == me:
            continue
        p = medium_trust.get(c, 0.0)
        add(c, wolfish * 0.6 * (1.0 - p) - 1.5 * p, "their medium claim looks false" if p < 0.35 else "")
    for a, c in mem.liar_calls:
        p = seer_trust.get(c, 0.0)
        if p >= 0.5 and a not in mem.seer_claims and a != me:
            add(a, 1.2 * p, f"they called {names[c]} a liar")
    wolf_votes = {(d, r, t) for d, r, v, t in mem.votes if v in kw and t not in kw}
    for d, r, v, t in mem.votes:
        if v == me:
            continue
        if t == me:
            add(v, 0.7, "they voted for me")
        elif t in kh:
            add(v, 0.5, f"they voted for {names[t]} who is human")
        elif t in kw:
            add(v, -0.8)
        p = seer_trust.get(t, 0.0)
        if p >= 0.5:
            add(v, p, "they voted against the seer")
        if v not in kw and (d, r, t) in wolf_votes:
            add(v, 0.4, "their votes followed a werewolf's")
    for said in mem.intents.values():
        wolf_picks = {t for s, t in said.items() if s in kw and t not in kw}
        for s, t in said.items():
            if s not in kw and s != me and t in wolf_picks:
                add(s, 0.4, "they sided with a werewolf")
    guardians = [c for c, roles in mem.role_claims.items() if "guardian" in roles and c != me]
    for c in guardians:
        if private and mem.role is Role.GUARDIAN:
            add(c, 3.0, "their guardian claim is false")
        else:
            add(c, -1.5 if len(guardians) == 1 else 0.5)
    if len(guardians) == 1:
        for c, d, t in mem.protect_reports:
            if c == guardians[0] and d in mem.peaceful_days and t != c:
                add(t, -1.0)
    today = mem.intents.get(view.day, {})
    for s, t in today.items():
        if s != me and s not in kw:
            add(t, 0.3)
    for s in range(n):
        add(s, mem.noise(s, view.day))
        if s in kw:
            add(s, 50.0, "I know they are a werewolf")
        elif s in kh and s != me:
            add(s, -50.0)
    return Belief(sus, reason, reports, seer_trust, medium_trust, kh, kw, hard_fakes)


def _normalise(scores: dict[int, float], out: dict[int, float], claims: dict[int, dict[int, Species]]) -> None:
    """Turn claimant scores into probabilities of being the real one (one unclaimed outcome at 0)."""
    total = 1.0 + sum(math.exp(s) for s in scores.values())
    for c in claims:
        out[c] = math.exp(scores[c]) / total if c in scores else 0.0


__all__ = ["Belief", "Key", "Memory", "asks_seat", "conclude", "noise"]
