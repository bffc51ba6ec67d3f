"""The heuristic agent: a rule-based player that reasons from its own view and talks in plain English.

Village roles keep beliefs built from what they know for sure (their own role, divinations,
medium readings, witch wake-ups, revealed roles), from seer and medium claims weighed against
each other and against those facts, and from votes; they say whom they suspect and why, and
announce their vote. The seer comes out and reports every result; the guardian protects the
most credible seer; the witch saves a likely-good victim early and poisons a seat it is sure of.
Werewolves agree on a victim in whispers, sometimes fake a seer claim, and never vote for a
packmate unless the packmate is doomed; the possessed sometimes fakes a seer claim too.

Speech uses the templates of `lycan.agents.speech` and reads other players' talk with its
parser. Each game's parsed state is cached in the agent and only new events are read, so a
decision costs little.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

import lycan.agents.speech as speech
from lycan.agents.base import SyncAgent
from lycan.agents.knowledge import Belief, Key, Memory, conclude
from lycan.agents.speech import Reason, SpeechAct
from lycan.beliefs.reader import reader_for
from lycan.engine.actions import OVER, PASS, Action, Request
from lycan.engine.view import View
from lycan.rules.roles import Role, Species

#: Chance that the werewolves plan a fake seer claim for the first day.
P_WOLF_FAKE = 0.35
#: Chance that the possessed claims seer on the first day it talks.
P_POSSESSED_FAKE = 0.5
#: Chance of a fake counter-claim by a werewolf whose pack a claimed seer exposed (or by the possessed).
P_COUNTER_CLAIM = 0.5
#: Chance that the witch spends her cure on the first night's victim.
P_FIRST_CURE = 0.8
#: Characters (spaces not counted) one utterance packs when the rules set no limit.
UTTERANCE_LENGTH = 125

_WOLF = Species.WEREWOLF
_HUMAN = Species.HUMAN


_REPORTS = ("claim", "div", "med", "fake", "protected")
"""Agenda items that report what a seat is or saw, and give no opinion of another."""


class HeuristicAgent(SyncAgent):
    """A rule-based player for every role; deterministic given its seed and the views it receives.

    Args:
        seed: seeds the agent's own random choices (fake claims, the witch's first-night cure).
    """

    label = "heuristic"
    wolf_fake = P_WOLF_FAKE
    """Chance that the pack plans a fake seer claim for the first day (`P_WOLF_FAKE`)."""
    counter_claim = P_COUNTER_CLAIM
    """Chance that an exposed werewolf counter-claims seer (`P_COUNTER_CLAIM`)."""
    wolf_reasons = True
    """Whether a werewolf says why it suspects the seat it will vote for (False: it names the vote only)."""
    converse = False
    """Whether talk also answers accusers and questions, agrees with a named player's vote, asks a
    quiet player a question and sums up rival seer claims (`SpeechAct` kinds `answer`, `agree`,
    `question`, `summary`, and opinions said `to` whoever asked): on for seats that word their acts
    (`lycan.agents.wording`), off for the plain heuristic, whose words stay the templates."""
    possessed_black = 0.0
    """Chance that a possessed faking seer, with no rival claimant to call a werewolf, calls a
    random player one. It cannot know the pack: a werewolf result on a random player may name the
    real werewolf, and the pack loses it to the possessed's own words."""
    wolf_keeps_word = False
    """Whether a werewolf votes for the seat it said today it would vote for (while that seat is a
    choice), unless a majority is about to execute its packmate (`_doomed_partner`): a vote that
    contradicts what the wolf just said reads as a liar's."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.games = 0
        self._mem: Memory | None = None

    # ------------------------------------------------------------------ entry point
    def decide(self, view: View, request: Request) -> Action:
        """Answer `request` from `view` alone."""
        mem = self._memory(view)
        if request.attempt > 0:
            return self._safe(mem, view, request)
        kind = request.kind
        if kind == "talk":
            return self._talk(mem, view, request)
        if kind == "whisper":
            return self._whisper(mem, view, request)
        if kind == "bid":
            return self._bid(mem, view)
        if kind == "probe":
            return self._probe(view, request)
        if not request.targets:
            return PASS
        if kind == "vote":
            return Action.choose(self._vote(mem, view, request.targets))
        if kind == "attack":
            return Action.choose(self._attack(mem, view, request.targets))
        if kind == "divine":
            return Action.choose(self._divine(mem, view, request.targets))
        if kind == "guard":
            return Action.choose(self._guard(mem, view, request.targets))
        if kind == "cure":
            return self._cure(mem, view, request)
        if kind == "poison":
            return self._poison(mem, view, request)
        if kind == "shoot":
            return self._shoot(mem, view, request)
        return request.legal_actions()[0]

    def _probe(self, view: View, request: Request) -> Action:
        """The exact belief engine's role distribution for every asked seat (a pass if the log is impossible)."""
        from lycan.beliefs.tracker import probe_answer  # numpy: loaded only when a probe is asked

        return probe_answer(view, request)

    def _safe(self, mem: Memory, view: View, request: Request) -> Action:
        """A surely legal answer to a retried request."""
        if request.is_talk:
            return OVER
        if request.kind == "bid":
            return Action("bid", amount=0)
        if request.targets:
            try:
                choice = self.decide(view, _first_try(request))
            except Exception:
                choice = PASS
            if request.check(choice) is None:
                return choice
            return Action.choose(request.targets[0])
        return PASS

    def begin_game(self, game_id: str, seat: int) -> None:
        """The session starts a new game: forget the last one."""
        self._mem = None

    def overruled(self, said: Action) -> None:
        """Its last talk proposal was not what the seat said (a planner answered `said`): forget having said it.

        A planner that asks this agent for a proposal and answers otherwise (`deepwolf`) calls this,
        so that what the proposal would have said stays on the agenda for a later turn (a seer's
        result, a claim), as it does for a heuristic player in the worlds a search plays out. The
        words the seat did say are remembered as said (the same sentence is not composed again);
        what they covered is not read back into the agenda, so a point they made may be made again.
        """
        mem = self._mem
        if mem is None:
            return
        if mem.proposed is not None:
            keys, texts = mem.proposed
            mem.said_keys.difference_update(keys)
            mem.said_texts.difference_update(texts)
            mem.proposed = None
        if said.kind == "speak" and said.text:
            mem.said_texts.add(said.text)

    def spoken_acts(self, text: str) -> tuple[SpeechAct, ...]:
        """The speech acts behind `text`, when it is the utterance this agent composed last (else none)."""
        mem = self._mem
        if mem is None or not text or mem.acts_text != text:
            return ()
        return mem.acts

    def _memory(self, view: View) -> Memory:
        mem = self._mem
        # `fits` is a safety net for agents driven without a session (e.g. called by hand).
        if mem is None or not mem.fits(view):
            rules = view.rules
            mem = Memory(
                seat=view.seat,
                role=view.role,
                names=view.names,
                n_wolves=rules.roles.get(Role.WEREWOLF, 0),
                has_possessed=Role.POSSESSED in rules.roles,
                has_witch=Role.WITCH in rules.roles,
                has_guardian=Role.GUARDIAN in rules.roles,
                guardian_repeat=rules.options.guardian_repeat,
                rng=random.Random(f"{self.seed}/{self.games}"),
                parser=reader_for(view.names),
            )
            self.games += 1
            self._mem = mem
        if mem.seen < len(view.events):
            mem.absorb(view.events)
        return mem

    # ------------------------------------------------------------------ beliefs
    def _belief(self, mem: Memory, view: View, *, public: bool = False) -> Belief:
        """Suspicion of every seat: from this seat's private knowledge, or from public facts only."""
        stamp = mem.seen * 64 + view.day
        if public:
            if mem.public_stamp != stamp or mem.public_belief is None:
                mem.public_belief = conclude(mem, view, private=False)
                mem.public_stamp = stamp
            return mem.public_belief
        if mem.stamp != stamp or mem.belief is None:
            mem.belief = conclude(mem, view, private=True)
            mem.stamp = stamp
        return mem.belief

    def _own_belief(self, mem: Memory, view: View) -> Belief:
        """The belief this seat acts on: private for the village, public for the werewolf side."""
        return self._belief(mem, view, public=mem.role in (Role.WEREWOLF, Role.POSSESSED))

    # ------------------------------------------------------------------ votes and night actions
    def _vote(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        if mem.role is Role.WEREWOLF:
            return self._wolf_vote(mem, view, targets)
        b = self._own_belief(mem, view)
        if mem.role is Role.POSSESSED:
            if called := self._called(mem, targets):
                return best_seat({t: b.sus[t] for t in called})
            scores = {t: b.sus[t] - 2.0 * b.wolf_reports[t] for t in targets}
            for c, p in b.seer_trust.items():
                if c in scores and c != mem.seat:
                    scores[c] += 3.0 * p + (3.0 if mem.faking else 0.0)
            return best_seat(scores)
        return best_seat({t: b.sus[t] for t in targets})

    def _wolf_vote(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        b = self._belief(mem, view, public=True)
        doomed = self._doomed_partner(mem, view)
        if doomed is not None and doomed in targets:
            return doomed
        if called := self._called(mem, targets):
            return best_seat({t: b.sus[t] for t in called})
        said = mem.intents.get(view.day, {}).get(mem.seat)
        if self.wolf_keeps_word and said is not None and said in targets and said not in mem.pack:
            return said
        others = [t for t in targets if t not in mem.pack]
        if not others:
            return best_seat({t: b.sus[t] for t in targets})
        scores = {t: b.sus[t] for t in others}
        for t in others:
            if t in mem.seer_claims and mem.faking:
                scores[t] += 4.0
            if mem.has_possessed and t in mem.seer_claims and not _honest(mem.seer_claims[t], mem.pack):
                scores[t] -= 3.0
            if mem.accusations.get(t, set()) & mem.pack:
                scores[t] += 0.5
        return best_seat(scores)

    def _called(self, mem: Memory, targets: Sequence[int]) -> list[int]:
        """The seats among `targets` that this seat's fake seer results called werewolves.

        A seer votes for the werewolf it found; a fake seer who announces a werewolf and then votes
        for someone else gives itself away (in 60 games each of guardian7 and aiwolf5, 21 of 77 such
        announcements were followed by a vote elsewhere that day, before this rule).
        """
        return [t for _, t, sp in mem.fake_results if sp is _WOLF and t in targets and t not in mem.pack]

    def _doomed_partner(self, mem: Memory, view: View) -> int | None:
        """A living packmate that a strict majority of other players has said it will vote for."""
        living = view.living()
        today = mem.intents.get(view.day, {})
        tally = Counter(t for s, t in today.items() if s not in mem.pack and view.alive[s])
        for partner in mem.pack:
            if partner != mem.seat and view.alive[partner] and tally[partner] * 2 > len(living):
                return partner
        return None

    def _attack(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        proposed = mem.proposals.get(view.day)
        if proposed is not None and proposed in targets:
            return proposed
        return self._prey(mem, view, targets)

    def _prey(self, mem: Memory, view: View, targets: Iterable[int]) -> int:
        """The victim the pack should pick: claimed seers first, then other claimed key roles."""
        b = self._belief(mem, view, public=True)
        pack = mem.pack
        failed = mem.attacks.get(view.day - 1)
        if failed is None or view.day not in mem.peaceful_days:
            failed = None
        scores: dict[int, float] = {}
        for t in targets:
            sc = mem.noise(t, view.day) + 0.5 * max(0.0, -b.sus[t])
            claims = mem.role_claims.get(t, set())
            if t in mem.seer_claims:
                sc += 10.0 if _honest(mem.seer_claims[t], pack) else -4.0
                if any(sp is _WOLF and x in pack for x, sp in mem.seer_claims[t].items()):
                    sc += 2.0
            if t in mem.medium_claims:
                sc += 6.0
            if claims & {"guardian", "witch"}:
                sc += 5.0
            if "hunter" in claims:
                sc -= 3.0
            if t == failed:
                sc += 3.0 if not (mem.has_guardian and mem.guardian_repeat) else -3.0
            if mem.accusations.get(t, set()) & pack:
                sc += 1.0
            scores[t] = sc
        return best_seat(scores)

    def _divine(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        b = self._own_belief(mem, view)
        fresh = [t for t in targets if t not in mem.divined] or list(targets)
        scores: dict[int, float] = {}
        for t in fresh:
            sc = b.sus[t]
            if t in b.known_wolf:
                sc = -10.0
            elif t in mem.seer_claims and mem.has_possessed:
                sc += 2.0
            scores[t] = sc
        return best_seat(scores)

    def _guard(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        b = self._own_belief(mem, view)
        scores: dict[int, float] = {}
        for t in targets:
            sc = -0.3 * b.sus[t] + mem.noise(t, view.day)
            sc += 10.0 * b.seer_trust.get(t, 0.0) + 6.0 * b.medium_trust.get(t, 0.0)
            if t in b.known_human:
                sc += 1.0
            if t == mem.seat:
                sc += 0.5
            scores[t] = sc
        return best_seat(scores)

    def _wolves_left(self, mem: Memory, b: Belief, view: View) -> int:
        dead_wolves = sum(1 for s in b.known_wolf if not view.alive[s])
        return max(0, mem.n_wolves - dead_wolves)

    def _cure(self, mem: Memory, view: View, request: Request) -> Action:
        victim = request.targets[0]
        b = self._own_belief(mem, view)
        wolves = self._wolves_left(mem, b, view)
        humans_after = len(view.living()) - wolves - 1
        save = (
            b.seer_trust.get(victim, 0.0) >= 0.3
            or b.medium_trust.get(victim, 0.0) >= 0.3
            or victim == mem.seat
            or wolves >= humans_after
            or (mem.witch_nights <= 1 and mem.rng.random() < P_FIRST_CURE)
        )
        return Action.choose(victim) if save else PASS

    def _poison(self, mem: Memory, view: View, request: Request) -> Action:
        b = self._own_belief(mem, view)
        options = [t for t in request.targets if t not in b.known_human]
        if not options:
            return PASS
        best = best_seat({t: b.sus[t] for t in options})
        wolves = self._wolves_left(mem, b, view)
        danger = wolves >= len(view.living()) - wolves - 2
        if b.sus[best] >= 2.5 or (danger and b.sus[best] >= 0.8):
            return Action.choose(best)
        return PASS

    def _shoot(self, mem: Memory, view: View, request: Request) -> Action:
        b = self._own_belief(mem, view)
        options = [t for t in request.targets if t != mem.seat and t not in b.known_human]
        if mem.role is Role.WEREWOLF:
            options = [t for t in options if t not in mem.pack]
        if options:
            best = best_seat({t: b.sus[t] for t in options})
            if b.sus[best] > 0.5 or not request.can_pass:
                return Action.choose(best)
        return PASS if request.can_pass else Action.choose(request.targets[0])

    # ------------------------------------------------------------------ talk
    def _talk(self, mem: Memory, view: View, request: Request) -> Action:
        mem.proposed = None
        text = self._compose(mem, self._agenda(mem, view), request, view.day)
        return Action.speak(text) if text else OVER

    def _whisper(self, mem: Memory, view: View, request: Request) -> Action:
        agenda: list[tuple[Key, SpeechAct]] = []
        if view.day == 0 and mem.fake_plan is None and ("plan",) not in mem.decided:
            mem.decided.add(("plan",))
            if mem.rng.random() < self.wolf_fake:
                agenda.append((("plan",), SpeechAct("plan")))
        prey = [s for s in view.living() if s not in mem.pack]
        if prey:
            target = mem.proposals.get(view.day)
            if target is None or not view.alive[target]:
                target = self._prey(mem, view, prey)
            agenda.append((("attack", view.day, target), SpeechAct("attack", target)))
        text = self._compose(mem, agenda, request, view.day)
        return Action.speak(text) if text else OVER

    def _bid(self, mem: Memory, view: View) -> Action:
        pending = [k for k, _ in self._agenda(mem, view) if k not in mem.said_keys]
        if not pending:
            return Action("bid", amount=0)
        urgent = any(k[0] in ("claim", "div", "fake", "med", "liar") for k in pending)
        return Action("bid", amount=3 if urgent else 2)

    def _compose(self, mem: Memory, agenda: list[tuple[Key, SpeechAct]], request: Request, day: int) -> str:
        """Pack the unsaid items of `agenda` into one utterance within the length limit.

        The acts packed are kept in `mem.acts` (marked `again` when their words were said before),
        for a seat that words them itself (`lycan.agents.wording`).
        """
        limit = request.max_length or UTTERANCE_LENGTH
        parts: list[str] = []
        keys: list[Key] = []
        acts: list[SpeechAct] = []
        used = 0
        mem.acts, mem.acts_text = (), ""
        for key, act in agenda:
            if key in mem.said_keys or key in keys:
                continue
            text = act.template(mem.names, day)
            # a changed vote is news, never a repeat ("I repeat: I changed my mind ...")
            line = text if act.kind == "vote" and act.said == "changed" else _fresh(text, day, mem.said_texts)
            if line is None:
                mem.said_keys.add(key)
                continue
            size = speech.text_length(line)
            if parts and limit > 0 and used + size + 1 > limit:
                break
            parts.append(line)
            keys.append(key)
            acts.append(replace(act, again=True) if line != text else act)
            if act.to is not None:
                mem.replied.add((day, act.to))
            used += size
        if not parts:
            return ""
        utterance = speech.fit(" ".join(parts), limit)
        if utterance in mem.said_texts and not any(a.kind == "vote" and a.said == "changed" for a in acts):
            return ""
        texts = {t for t in (utterance, *parts) if t not in mem.said_texts}
        mem.said_keys.update(keys)
        mem.said_texts.update(texts)
        mem.acts = tuple(acts)
        mem.acts_text = utterance
        if request.kind == "talk":
            mem.proposed = (set(keys), texts)
        return utterance

    def _agenda(self, mem: Memory, view: View) -> list[tuple[Key, SpeechAct]]:
        """What this seat wants said today, most important first."""
        day = view.day
        if day == 0:
            return [(("greet",), SpeechAct("greet"))]
        items: list[tuple[Key, SpeechAct]] = []
        role = mem.role
        if role in (Role.WEREWOLF, Role.POSSESSED):
            self._consider_fake(mem, view)
        if role is Role.SEER:
            if mem.divined:
                items.append((("claim", "seer"), SpeechAct("claim", role="seer")))
                for t, sp in mem.divined.items():
                    items.append((("div", t), SpeechAct("divined", t, species=sp, night=mem.divined_night[t])))
        elif role is Role.MEDIUM and mem.readings:
            items.append((("claim", "medium"), SpeechAct("claim", role="medium")))
            for t, sp in mem.readings.items():
                items.append((("med", t), SpeechAct("medium", t, species=sp)))
        if mem.faking:
            self._add_fake_result(mem, view)
            items.append((("claim", "seer"), SpeechAct("claim", role="seer")))
            for night, t, sp in mem.fake_results:
                items.append((("fake", t), SpeechAct("divined", t, species=sp, night=night)))
        b = self._own_belief(mem, view)
        # accuse false claimants
        if role is Role.SEER or mem.faking:
            rivals = [c for c in mem.claim_order if c != mem.seat]
            if role is Role.WEREWOLF:
                rivals = [c for c in rivals if c not in mem.pack]
        else:
            rivals = [c for c in b.hard_fakes if c != mem.seat]
            if role is Role.WEREWOLF:
                rivals = [c for c in rivals if c not in mem.pack]
            elif role is Role.POSSESSED:
                rivals = []
        for c in rivals:
            items.append((("liar", day, c), SpeechAct("liar", c, role="seer")))
        if role is Role.MEDIUM and mem.readings:
            for c in mem.medium_claims:
                if c != mem.seat:
                    items.append((("liar", day, c), SpeechAct("liar", c, role="medium")))
        # trust the most credible of several seer claimants
        if role not in (Role.WEREWOLF, Role.POSSESSED, Role.SEER) and len(b.seer_trust) >= 2:
            top = self._trusted_seer(mem, view, b)
            if top is not None:
                items.append((("trust", day, top), SpeechAct("trust", top)))
        if role is Role.GUARDIAN:
            threat = Counter(t for s, t in mem.intents.get(day, {}).items() if s != mem.seat)
            if threat[mem.seat] >= 2 and threat[mem.seat] == max(threat.values()):
                items.insert(0, (("claim", "guardian"), SpeechAct("claim", role="guardian")))
                last = mem.guards.get(day - 1)
                if last is not None and day in mem.peaceful_days:
                    items.insert(1, (("protected", day), SpeechAct("protected", last)))
        # suspicion and vote
        others = [s for s in view.living_others() if role is not Role.WEREWOLF or s not in mem.pack]
        if others:
            target = self._vote(mem, view, others)
            # no "Quill seems honest to me" beside a vote for Quill, or for the seat Quill found human: said
            # together they contradict each other (the vote is the belief engine's; the trust a claimant's
            # standing alone)
            items = [
                (k, a)
                for k, a in items
                if not (
                    a.kind == "trust"
                    and a.target is not None
                    and (a.target == target or mem.seer_claims.get(a.target, {}).get(target) is _HUMAN)
                )
            ]
            quiet = role is Role.WEREWOLF and not self.wolf_reasons
            why = None if quiet else self._accusation_reasons(mem, view, b, target)
            if why is not None:
                items.append((("suspect", day, target), SpeechAct("suspect", target, reasons=why)))
            elif not mem.spoke[day] and (
                not items or (self.converse and not quiet and all(k[0] in _REPORTS for k, _ in items))
            ):
                # a seat that talks with the table (an llm or camwolf seat's planner) and has only its claim and
                # results to report says it has no suspicion yet, not a vote it has no reason for ("I divined
                # Ember: innocent. I'm putting my vote on Willow." on day 1); the baselines' play stays as it was
                items.append((("nothing", day), SpeechAct("nothing")))
                return self._conversation(mem, view, items) if self.converse else items
            items.append((("vote", day, target), SpeechAct("vote", target)))
            mem.planned_vote = (day, target)
        if self.converse:
            items = self._conversation(mem, view, items)
        if mem.planned_vote is not None and mem.planned_vote[0] == day:
            items = self._changed_vote(mem, items)
        return items

    def _changed_vote(self, mem: Memory, items: list[tuple[Key, SpeechAct]]) -> list[tuple[Key, SpeechAct]]:
        """`items` with a vote that changes what this seat said today moved up, to be said this turn.

        A seat that said it will vote for one player and now plans another says so before its
        answers, summaries and agreement, which an utterance's length limit would otherwise keep
        the vote behind (its claims and results still come first); a vote it had said before and
        then changed is said again. The act says that it changes the vote (`said="changed"`).
        """
        assert mem.planned_vote is not None
        day, target = mem.planned_vote
        said = mem.intents.get(day, {}).get(mem.seat)  # what it last said today, as the table read it
        if said is None or said == target:
            return items
        key: Key = ("vote", day, target)
        at = next((i for i, (k, _) in enumerate(items) if k == key), None)
        if at is None:
            return items
        mem.said_keys.discard(key)
        vote = (key, replace(items.pop(at)[1], said="changed"))
        first = next((i for i, (k, _) in enumerate(items) if k[0] not in _FIRST), len(items))
        return [*items[:first], vote, *items[first:]]

    def _conversation(self, mem: Memory, view: View, items: list[tuple[Key, SpeechAct]]) -> list[tuple[Key, SpeechAct]]:
        """`items` with answers to what was said to this seat today, agreement, a summary and a question added.

        An accuser is answered by name (before the seat's opinions, once per seat and day); a seat
        that asked this one a question gets the seat's first opinion said to it; rival seer
        claimants are summed up once while two or more live (by a seat that is not one of them); a
        vote intention shared with a seat that said it earlier today names that seat (once a day,
        never a seat this one has called a wolf or a liar); with nothing to answer, one living seat
        that has not accused anyone today is asked whom it suspects (once a day).
        """
        day, me = view.day, mem.seat
        living = set(view.living())
        out = list(items)
        answered: list[tuple[Key, SpeechAct]] = []
        asked: int | None = None
        for d, who, what in mem.said_to_me:
            key: Key = ("answer", day, who)
            if d != day or who not in living or key in mem.said_keys or any(k == key for k, _ in answered):
                continue
            if what != "question":
                answered.append((key, SpeechAct("answer", to=who, said=what)))
            elif asked is None and (day, who) not in mem.replied:
                asked = who
        at = next((i for i, (_, a) in enumerate(out) if a.kind in speech.OPINIONS), len(out))
        # the living only: "We now have Garnet and Dune claiming seer" once both are dead is no summary
        claimants = tuple(
            sorted(s for s in {*mem.role_claims, *mem.seer_claims} if mem.claimed(s, "seer") and s in living)
        )
        summary: Key = ("summary", claimants)
        claiming = any(a.kind == "claim" for _, a in out)
        # once per set of claimants, and not again for what is left of a set once one of them has died
        # ("Seer claims so far: Yarrow and Ember" the day after "... Yarrow, Ember and Aster")
        summed = any(
            k[0] == "summary" and isinstance(k[1], tuple) and set(claimants) <= set(k[1])
            for k in mem.said_keys
            if len(k) == 2
        )
        if len(claimants) >= 2 and me not in claimants and not claiming and not summed:
            out.insert(at, (summary, SpeechAct("summary", role="seer", seats=claimants)))
            at += 1
        if (
            asked is not None
            and at < len(out)
            and out[at][1].target != asked
            and not any(a.to == asked for _, a in answered)
        ):
            # a question is answered with the opinion it asked for, said to the one who asked (unless it
            # is about them: "Player 2 I suspect Player 2" reads as talking past them)
            key, act = out[at]
            out[at] = (key, replace(act, to=asked))
        out[at:at] = answered[:2]
        vote = next((a.target for k, a in out if a.kind == "vote"), None)
        # agreement goes with the turn that first says the vote: once this seat has said it, the seats that
        # say it after are following it ("I agree with Umber about Thistle" from the seer whose result Umber cited)
        if vote is not None and ("vote", day, vote) not in mem.said_keys:
            # never "X has it right" about a seat this one has called a wolf or a liar, or is calling one now
            opposed = {k[2] for k in mem.said_keys if len(k) == 3 and k[0] in ("suspect", "vote", "liar")}
            opposed |= {a.target for _, a in out if a.kind in ("suspect", "liar") and a.target is not None}
            opposed |= {t for _, t, sp in mem.fake_results if sp is _WOLF}
            opposed |= {t for t, sp in mem.divined.items() if sp is _WOLF}
            allies = [
                s
                for d, s, t in mem.heard_targets
                if d == day and t == vote and s != me and s in living and s not in opposed
            ]
            if allies:
                # a seat that gave a reason is agreed with; one that only said its vote is joined ("Vale isn't
                # wrong about Moss" of a Vale who had said "Honestly my vote goes to Moss" and no more)
                reasoned = [s for s in allies if (day, s, vote) in mem.heard_reasons]
                ally = (reasoned or allies)[-1]
                said = "" if reasoned else "vote"
                out.append((("agree", day), SpeechAct("agree", vote, to=ally, said=said)))
        if not answered and ("question", day) not in mem.said_keys:
            spoke_up = {s for d, s, _ in mem.heard_targets if d == day}
            quiet = sorted(s for s in living if s != me and s not in spoke_up and s not in mem.pack)
            if quiet:
                pick = mem.rng.choice(quiet)
                out.append((("question", day), SpeechAct("question", to=pick, said="suspect")))
        return out

    def _trusted_seer(self, mem: Memory, view: View, b: Belief) -> int | None:
        """The living seer claimant this seat says it trusts, if any."""
        top = max(b.seer_trust, key=lambda c: b.seer_trust[c])
        return top if b.seer_trust[top] >= 0.5 and view.alive[top] else None

    def _accusation_reasons(self, mem: Memory, view: View, b: Belief, target: int) -> tuple[Reason, ...] | None:
        """Why this seat says it suspects `target` (no reasons: none given), or None to say nothing."""
        why = b.reason[target] if mem.role is not Role.POSSESSED else ""
        return (Reason(None, why),) if why and b.sus[target] >= 1.0 else None

    # ------------------------------------------------------------------ fake seer claims
    def _consider_fake(self, mem: Memory, view: View) -> None:
        if mem.faking:
            return
        day = view.day
        if mem.role is Role.WEREWOLF:
            if any(c in mem.pack and c != mem.seat for c in mem.claim_order):
                return
            if ("first",) not in mem.decided:
                mem.decided.add(("first",))
                if mem.fake_plan is not None:
                    mem.faking = mem.fake_plan == mem.seat
                else:
                    living_pack = sum(1 for s in mem.pack if view.alive[s]) or 1
                    mem.faking = mem.rng.random() < self.wolf_fake / living_pack
                if mem.faking:
                    return
            exposed = any(
                sp is _WOLF and t in mem.pack
                for c, res in mem.seer_claims.items()
                if c not in mem.pack
                for t, sp in res.items()
            )
            if exposed and ("counter",) not in mem.decided:
                mem.decided.add(("counter",))
                mem.faking = mem.rng.random() < self.counter_claim
        elif mem.role is Role.POSSESSED:
            if ("first",) not in mem.decided:
                mem.decided.add(("first",))
                mem.faking = mem.rng.random() < P_POSSESSED_FAKE
            elif mem.claim_order and ("counter",) not in mem.decided and day >= 2:
                mem.decided.add(("counter",))
                mem.faking = mem.rng.random() < P_COUNTER_CLAIM * 0.6

    def _add_fake_result(self, mem: Memory, view: View) -> None:
        night = view.day - 1
        if any(n == night for n, _, _ in mem.fake_results):
            return
        rng = mem.rng
        pub = self._belief(mem, view, public=True)
        named = {t for _, t, _ in mem.fake_results}
        called = sum(1 for _, _, sp in mem.fake_results if sp is _WOLF)
        living = [s for s in view.living_others() if s not in named]
        rivals = [c for c in mem.claim_order if c != mem.seat and c in living and c not in mem.pack]
        pick: tuple[int, Species] | None = None
        if mem.role is Role.WEREWOLF:
            villagers = [s for s in living if s not in mem.pack and s not in pub.known_human]
            partners = [s for s in living if s in mem.pack]
            exposed = [p for p in partners if any(res.get(p) is _WOLF for res in mem.seer_claims.values())]
            if rivals and called < mem.n_wolves:
                pick = (rivals[0], _WOLF)
            elif exposed:
                pick = (exposed[0], _HUMAN)
            elif villagers and called < mem.n_wolves and rng.random() < 0.5:
                pick = (rng.choice(villagers), _WOLF)
            elif partners and rng.random() < 0.5:
                pick = (rng.choice(partners), _HUMAN)
            elif villagers:
                pick = (rng.choice(villagers), _HUMAN)
        else:
            if rivals and rng.random() < 0.7:
                pick = (rivals[0], _WOLF)
            elif living:
                t = rng.choice(living)
                black = rng.random() < self.possessed_black and t not in pub.known_human
                pick = (t, _WOLF if black else _HUMAN)
        if pick is not None:
            mem.fake_results.append((night, pick[0], pick[1]))


_FIRST = frozenset({"claim", "div", "med", "fake", "protected"})
"""Agenda items said before a changed vote: the seat's own claims and results."""


def _first_try(request: Request) -> Request:
    return replace(request, attempt=0, error=None)


def _honest(results: dict[int, Species], pack: frozenset[int]) -> bool:
    """Whether a claimed seer's results agree with what the pack knows to be true."""
    return all((sp is _WOLF) == (t in pack) for t, sp in results.items())


def best_seat(scores: dict[int, float]) -> int:
    """The highest-scoring seat; ties go to the lowest seat."""
    return max(sorted(scores), key=lambda s: scores[s])


def _fresh(text: str, day: int, said: set[str]) -> str | None:
    """`text`, or a variant of it never said before; None if every variant was used.

    The variants are what a player says when repeating themselves (not a log's `Day 2:` marker,
    which reads as narration and which phrasing checks reject as error text); two of them name the
    day, so a point can be made again on each new day.
    """
    variants = (
        text,
        f"I repeat: {text}",
        f"Once more: {text}",
        f"As of day {day} I still say: {text}",
        f"On day {day} once again: {text}",
    )
    for candidate in variants:
        if candidate not in said:
            return candidate
    return None


__all__ = ["HeuristicAgent", "best_seat"]
