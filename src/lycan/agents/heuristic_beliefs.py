"""The heuristic agent acting on the exact belief engine: the same talk, decisions from role posteriors.

`BeliefHeuristicAgent` keeps the plain heuristic's speech and its reading of talk
(`lycan.agents.heuristic`) and takes its votes, night actions and accusations from the seat's
posterior (`lycan.beliefs`); accusations cite the events that moved the suspect most, in the
explanation register of `lycan.render`. LLM seats and CaM-Wolf plan with it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from lycan.agents.heuristic import HeuristicAgent, best_seat
from lycan.agents.knowledge import Belief, Memory
from lycan.agents.speech import Reason
from lycan.engine.actions import PASS, Action, Request, TalkInfo
from lycan.engine.view import View
from lycan.render import about_suspect, explanations, own_later_claim, victims_accusation
from lycan.rules.roles import ROLE_INDEX as INDEX
from lycan.rules.roles import Role

if TYPE_CHECKING:  # the belief engine (numpy) loads only when a belief-driven seat plays
    from lycan.beliefs.tracker import Beliefs, Posterior

#: P(werewolf) of the best poison target above which the belief-driven witch poisons.
POISON_FROM = 0.8
#: P(werewolf) from which a belief-driven seat says whom it suspects (and why).
ACCUSE_FROM = 0.45
#: Weight of the public tie-breaker (`_noise`, up to 0.3) in a belief-driven vote.
NOISE_WEIGHT = 0.3
#: Added to a seat's vote score for each vote intention against it heard today (times the
#: speaker's P(not werewolf)), so that the village's votes converge.
INTENT_WEIGHT = 0.05
#: Taken off the vote score of a lone seer claimant by a seat that trusts them (`trust_lone_seer`):
#: more than any P(werewolf), tie-breaker and intentions add up to, so the claimant is voted for
#: only when no one else is left to vote for.
LONE_SEER_TRUST = 5.0
#: Influences on P(werewolf side) smaller than this are not cited as reasons.
CITE_FROM = 0.02
#: What each role is worth to the village: whom the guardian protects and the pack attacks.
ROLE_VALUE = {Role.SEER: 1.0, Role.MEDIUM: 0.6, Role.WITCH: 0.5, Role.GUARDIAN: 0.5, Role.HUNTER: -0.3}

_P_WOLF = INDEX[Role.WEREWOLF]


def _last_turn(request: Request) -> bool:
    """Whether a talk request is the seat's last of the day (the last round, or its last utterance)."""
    info = request.info
    if not isinstance(info, TalkInfo):
        return False
    if info.round is not None and info.rounds:
        return info.round >= info.rounds - 1
    return info.remain_count is not None and info.remain_count <= 1


class BeliefHeuristicAgent(HeuristicAgent):
    """The heuristic agent acting on the exact belief engine (`lycan.beliefs`), talking as before.

    Village roles vote for the living seat most likely to be a werewolf, the seer divines the seat
    it is least sure of, the guardian protects the seat most likely to be the seer (or another
    valuable role) and no werewolf, and the witch poisons only a seat that is very likely a
    werewolf. Werewolves attack the seat their own posterior (they know the pack) rates most
    valuable; they still vote as the plain heuristic does, from the public suspicion that the
    village's heuristic reasoning reaches (a vote from the public posterior instead lost more
    games), and explain their accusations from the public posterior. The possessed plays as the
    plain heuristic. Accusations cite the events that raised the
    suspect's P(werewolf side) most (`reasons`). Where the posterior cannot be had (a log no deal
    fits), each decision falls back to the plain heuristic's.

    Args:
        seed: seeds the agent's own random choices (fake claims, the witch's first-night cure).
    """

    label = "heuristic-beliefs"
    trust_lone_seer = False
    """Whether a village seat spares the one player who has claimed seer (see `_lone_seer`)."""
    word_weight = 0.0
    """Added to the vote score of the player a village seat said, at its last talk turn of the day,
    that it will vote for: how much talk after that turn must move its mind before it votes
    against its own last words (0: no weight). Earlier turns bind nothing: a seat changes its
    mind in the open at a later turn."""

    # ------------------------------------------------------------------ the posterior
    def posterior(self, view: View) -> Posterior | None:
        """This seat's posterior from `view` (incremental, once per new event); None if no deal fits."""
        return self._posterior(self._memory(view), view)

    def _posterior(self, mem: Memory, view: View, *, public: bool = False) -> Posterior | None:
        """This seat's posterior now (or the public record's), computed once per new event; None if impossible."""
        seen = len(view.events)
        hit = mem.posteriors.get(public)
        if hit is not None and hit[0] == seen:
            return hit[1]
        post: Posterior | None = None
        if public not in mem.broken:
            try:
                post = self._beliefs(mem, view, public=public).posterior()
            except ValueError:
                post = None
                if (mem.public_beliefs if public else mem.beliefs) is None:
                    mem.broken.add(public)  # cannot be built at all: never try again this game
        mem.posteriors[public] = (seen, post)
        return post

    def _beliefs(self, mem: Memory, view: View, *, public: bool) -> Beliefs:
        """The belief engine of this seat (or of a spectator), brought up to date with `view`."""
        from lycan.beliefs.tracker import Beliefs

        if public:
            mem.public_events.extend(e for e in view.events[mem.public_seen :] if e.audience is None)
            mem.public_seen = len(view.events)
            if mem.public_beliefs is None:
                mem.public_beliefs = Beliefs(view.rules, view.names)
            return mem.public_beliefs.update(mem.public_events)
        if mem.beliefs is None:
            mem.beliefs = Beliefs(view.rules, view.names, view.seat, view.role)
        return mem.beliefs.update(view.events)

    def _vote_scores(self, mem: Memory, view: View, post: Posterior, targets: Iterable[int]) -> dict[int, float]:
        """P(werewolf) of each target, plus the public tie-breaker and today's vote intentions."""
        p = post.probabilities[:, _P_WOLF]
        heard: dict[int, float] = {}
        for s, t in mem.intents.get(view.day, {}).items():
            if s != mem.seat and s not in mem.pack:
                heard[t] = heard.get(t, 0.0) + 1.0 - float(p[s])
        day = view.day
        scores = {
            t: float(p[t]) + NOISE_WEIGHT * mem.noise(t, day) + INTENT_WEIGHT * heard.get(t, 0.0) for t in targets
        }
        # what the plain reasoning holds for certain and the engine does not weigh (e.g. a guard that held)
        b = self._own_belief(mem, view)
        for t in scores:
            scores[t] += (t in b.known_wolf) - (t in b.known_human) + 0.3 * (t in b.hard_fakes)
        if self.trust_lone_seer and (lone := self._lone_seer(mem, view)) in scores:
            scores[lone] -= LONE_SEER_TRUST
        word = mem.last_word.get(day)
        if self.word_weight and word in scores and word == mem.intents.get(day, {}).get(mem.seat):
            scores[word] += self.word_weight
        return scores

    def lone_seer(self, view: View) -> int | None:
        """The lone seer claimant this seat has no reason to doubt, from `view` (see `_lone_seer`)."""
        return self._lone_seer(self._memory(view), view)

    def _lone_seer(self, mem: Memory, view: View) -> int | None:
        """The only player who has claimed seer, when this village seat has no reason to doubt them.

        None for a seat on the werewolf side, for a seer, when nobody or more than one player has
        claimed seer (dead claimants count), and when the claim is false by what the seat knows
        (a result that contradicts its own role or results). A werewolf's fake claim that meets no
        counter-claim is rare: the seer comes out on the first day it has a result.
        """
        if mem.role in (Role.WEREWOLF, Role.POSSESSED, Role.SEER) or len(mem.claim_order) != 1:
            return None
        claimant = mem.claim_order[0]
        if claimant == mem.seat or claimant in self._own_belief(mem, view).hard_fakes:
            return None
        return claimant

    def _talk(self, mem: Memory, view: View, request: Request) -> Action:
        mem.planned_vote = None
        action = super()._talk(mem, view, request)
        planned = mem.planned_vote
        if self.word_weight and planned is not None and planned[0] == view.day and _last_turn(request):
            mem.last_word[view.day] = planned[1]
        return action

    # ------------------------------------------------------------------ votes and night actions
    def _vote(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        if mem.role in (Role.WEREWOLF, Role.POSSESSED):
            return super()._vote(mem, view, targets)
        post = self._posterior(mem, view)
        if post is None:
            lone = self._lone_seer(mem, view) if self.trust_lone_seer else None
            spared = [t for t in targets if t != lone]
            return super()._vote(mem, view, spared or targets)
        return best_seat(self._vote_scores(mem, view, post, targets))

    def _prey(self, mem: Memory, view: View, targets: Iterable[int]) -> int:
        post = self._posterior(mem, view)
        if post is None:
            return super()._prey(mem, view, targets)
        failed = mem.attacks.get(view.day - 1) if view.day in mem.peaceful_days else None
        scores: dict[int, float] = {}
        for t in targets:
            row = post.probabilities[t]
            sc = sum(v * float(row[INDEX[r]]) for r, v in ROLE_VALUE.items()) + 0.1 * mem.noise(t, view.day)
            if t == failed:  # guarded last night, most likely: again tonight only if the guard may repeat
                sc += -0.5 if mem.has_guardian and mem.guardian_repeat else 0.2
            scores[t] = sc
        return best_seat(scores)

    def _divine(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        post = self._posterior(mem, view)
        if post is None:
            return super()._divine(mem, view, targets)
        fresh = [t for t in targets if t not in mem.divined] or list(targets)
        p = post.probabilities[:, _P_WOLF]
        return best_seat({t: -abs(float(p[t]) - 0.5) + 0.01 * mem.noise(t, view.day) for t in fresh})

    def _guard(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        post = self._posterior(mem, view)
        if post is None:
            return super()._guard(mem, view, targets)
        scores: dict[int, float] = {}
        for t in targets:
            row = post.probabilities[t]
            value = 0.2 if t == mem.seat else sum(max(v, 0.0) * float(row[INDEX[r]]) for r, v in ROLE_VALUE.items())
            scores[t] = value * (1.0 - post.side_probability(t)) + 0.1 * mem.noise(t, view.day)
        return best_seat(scores)

    def _poison(self, mem: Memory, view: View, request: Request) -> Action:
        post = self._posterior(mem, view)
        if post is None:
            return super()._poison(mem, view, request)
        p = post.probabilities[:, _P_WOLF]
        options = [t for t in request.targets if t != mem.seat]
        if not options:
            return PASS
        best = best_seat({t: float(p[t]) for t in options})
        b = self._own_belief(mem, view)
        wolves = self._wolves_left(mem, b, view)
        danger = wolves >= len(view.living()) - wolves - 2
        if p[best] > POISON_FROM or (danger and p[best] >= 0.5):
            return Action.choose(best)
        return PASS

    # ------------------------------------------------------------------ talk
    def _trusted_seer(self, mem: Memory, view: View, b: Belief) -> int | None:
        post = self._posterior(mem, view)
        if post is None:
            return super()._trusted_seer(mem, view, b)
        living = [c for c in b.seer_trust if view.alive[c] and c != mem.seat]
        if not living:
            return None
        top = min(living, key=lambda c: (post.side_probability(c), c))
        return top if post.side_probability(top) < 0.3 else None

    def _accusation_reasons(self, mem: Memory, view: View, b: Belief, target: int) -> tuple[Reason, ...] | None:
        if mem.role is Role.POSSESSED:
            return super()._accusation_reasons(mem, view, b, target)
        public = mem.role is Role.WEREWOLF
        post = self._posterior(mem, view, public=public)
        if post is None:
            return super()._accusation_reasons(mem, view, b, target)
        if post.probabilities[target, _P_WOLF] < ACCUSE_FROM:
            return None
        return tuple(
            Reason(event, text, mem.cite_words.get((event, target, public), ()))
            for event, text in self._reasons(mem, view, target, public=public)
        )

    def reasons(self, view: View, seat: int) -> list[tuple[int, str]]:
        """The events of `view` that most raised `seat`'s P(werewolf side), as (event id, English reason).

        Werewolves explain from the public record (what they can say aloud). Computed once per day
        and seat; empty when nothing moved the seat much or the posterior cannot be had.
        """
        mem = self._memory(view)
        public = mem.role is Role.WEREWOLF
        if self._posterior(mem, view, public=public) is None:
            return []
        return self._reasons(mem, view, seat, public=public)

    def _reasons(self, mem: Memory, view: View, seat: int, *, public: bool) -> list[tuple[int, str]]:
        key = (view.day, seat, public)
        hit = mem.cites.get(key)
        if hit is not None:
            return hit
        beliefs = mem.public_beliefs if public else mem.beliefs
        out: list[tuple[int, str]] = []
        # leave-one-out re-reads the view per candidate event: cheap over every deal, not over a sample
        if beliefs is not None and beliefs.method == "exact":
            events = mem.public_events if public else list(view.events)
            try:
                # eight, not three: only those about the seat are cited (with three, one suspicion in
                # four had none left; with eight, one in ten, in 40 guardian7 and aiwolf5 games)
                found = beliefs.influences([seat], top=8).get(seat, [])
            except ValueError:
                found = []
            by = mem.explainer
            # another's claim of a role the suspect claimed later cites the suspect's own late claim; a
            # night victim who had gone after the suspect, what the victim said or did against them
            found = [
                inf if (own := own_later_claim(events, inf, by)) is None else dataclasses.replace(inf, event_id=own)
                for inf in found
            ]
            killed: set[int] = set()
            for i, inf in enumerate(found):
                if (word := victims_accusation(events, inf, by)) is not None:
                    found[i] = dataclasses.replace(inf, event_id=word)
                    killed.add(word)
            said = [(inf.event_id, explanations(events, inf, by)) for inf in found if inf.delta >= CITE_FROM]
            # the death is what made the word count: "Ken voted against them and was then killed in the night"
            said = [
                (e, (f"{texts[0]} and was then killed in the night",) if texts and e in killed else texts)
                for e, texts in said
            ]
            # only what the seat did or met: "because Ken died in the night" said of Rin is no reason
            # a listener can follow, though the engine's weighing of all the deals found it one
            said = [item for item in said if item[1] and about_suspect(item[1][0])]
            others: dict[int, tuple[str, ...]] = {}
            for event_id, texts in said:
                if texts and all(texts[0] != t for _, t in out):
                    out.append((event_id, texts[0]))
                    others[event_id] = texts[1:]
            out = out[:2]
            for event_id, _ in out:
                mem.cite_words[event_id, seat, public] = others[event_id]
        mem.cites[key] = out
        return out


__all__ = ["BeliefHeuristicAgent"]
