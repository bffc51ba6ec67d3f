"""Rollouts: what each candidate answer leads to, played out in worlds the seat cannot tell apart.

Beyond seed 000's one-step value. For one decision the planner draws deals from the seat's belief
posterior (`lycan.beliefs`: what the seat knows for certain, weighed by the behaviour it saw), and
in each drawn world rebuilds the game so far from the seat's own view: every public utterance and
vote as it was, the seat's own night actions, each night's death as the werewolves' attack; what the
seat could not see (another seer's divinations, for instance) is played by rule-based players. At the
moment of the decision the world's seat answers with a candidate, and the rest of the game is played
out by rule-based players (`HeuristicAgent`, the base policy). A candidate's value is its share of
won worlds. Every candidate plays the same worlds with the same seeds (common random numbers), so
the differences between candidates are paired; a world whose rebuilt past does not end where the
view stands (another execution by a tie, a death that did not happen) is dropped.

Nothing here reads more than the view: the deals come from the view's posterior, the worlds'
seeds from the planner's own random stream, so a choice reveals nothing the seat could not know.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from lycan.engine.actions import OVER, SKIP, Action, Answer, Request, VoteInfo
from lycan.engine.events import AttackChosen, Died, Divined, Guarded, Talk, VoteCast
from lycan.engine.session import Session
from lycan.engine.view import View
from lycan.rules.roles import Role, Team, team_of

#: How a world's seats play what the script does not cover, and the rest of the game.
BasePolicy = Callable[[int], object]


@dataclass
class Script:
    """What the seat saw happen, as answers to the requests a rebuilt world will make."""

    talk: dict[tuple[int, int], list[Action]] = field(default_factory=dict)
    """(seat, day) -> that seat's public talk that day, in order (Over and Skip included)."""
    votes: dict[tuple[int, int, int], int] = field(default_factory=dict)
    """(seat, day, round) -> the vote it cast."""
    night: dict[tuple[str, int], int] = field(default_factory=dict)
    """(request kind, night) -> the target chosen (the seat's own night actions, each night's attack)."""

    @classmethod
    def of(cls, view: View) -> Script:
        """The script `view` allows (nothing its seat could not see)."""
        script = cls()
        for ev in view.events:
            if isinstance(ev, Talk):
                if ev.channel != "talk":
                    continue
                act = OVER if ev.over else SKIP if ev.skip else Action.speak(ev.text)
                script.talk.setdefault((ev.actor, ev.day), []).append(act)
            elif isinstance(ev, VoteCast):
                script.votes[(ev.actor, ev.day, ev.round)] = ev.target
            elif isinstance(ev, Died) and ev.cause == "night":  # with a poison too, a guess (a miss drops worlds)
                script.night.setdefault(("attack", ev.day - 1), ev.target)
            elif isinstance(ev, AttackChosen):
                script.night[("attack", ev.day)] = ev.target
            elif isinstance(ev, Divined) and ev.actor == view.seat:
                script.night[("divine", ev.day)] = ev.target
            elif isinstance(ev, Guarded) and ev.actor == view.seat:
                script.night[("guard", ev.day)] = ev.target
        return script


def _round(request: Request) -> int:
    info = request.info
    return info.round if isinstance(info, VoteInfo) else 0


class _World:
    """One rebuilt world: answers from the script until the decision, then from the base policy."""

    def __init__(self, script: Script, view: View, request: Request, policy: BasePolicy, seed: int):
        self.script = script
        self.seat = view.seat
        self.kind, self.day, self.round = request.kind, request.day, _round(request)
        self.talk = {key: deque(acts) for key, acts in script.talk.items()}
        self.players = [policy(seed * 31 + s) for s in range(view.n_players)]
        self.reached = False

    def at_decision(self, request: Request) -> bool:
        if request.seat != self.seat or request.kind != self.kind or request.day != self.day or request.attempt:
            return False
        if self.kind == "vote":
            return _round(request) == self.round
        if self.kind == "talk":
            return not self.talk.get((self.seat, self.day))
        return True

    def scripted(self, request: Request) -> Action | None:
        seat, day, kind = request.seat, request.day, request.kind
        if request.attempt:
            return None
        if kind == "talk":
            queue = self.talk.get((seat, day))
            if queue:
                return queue.popleft()
            # a past day's talk is over; today's turns not yet taken in the seat's view are the
            # world's own (its talk order is its own), so the base policy speaks them
            return OVER if day < self.day else None
        if kind == "vote":
            target = self.script.votes.get((seat, day, _round(request)))
            return Action.choose(target) if target is not None else None
        target = self.script.night.get((kind, day))
        return Action.choose(target) if target is not None else None


def _decide(player: object, view: View, request: Request) -> Answer:
    try:
        return player.decide(view, request)  # type: ignore[attr-defined,no-any-return]
    except Exception:  # a base policy's bug costs one answer, never the search
        return request.legal_actions()[0]


def play_world(
    view: View,
    request: Request,
    candidate: Action,
    deal: Sequence[Role],
    seed: int,
    policy: BasePolicy,
    script: Script | None = None,
) -> bool | None:
    """Play one world to its end: True if the seat's side won, False if not, None if it does not fit the view.

    Args:
        view: the deciding seat's view.
        request: the decision.
        candidate: the answer the world's seat gives at the decision.
        deal: the world's roles by seat (it must give the seat its own role).
        seed: the world's seed (its talk order, its ties, its players' seeds).
        policy: makes the player of each seat (`policy(seed)`, an agent with `decide`).
        script: `Script.of(view)`, when the caller already has it.

    Raises:
        ValueError: the deal gives the seat another role than its own.
    """
    if deal[view.seat] is not view.role:
        raise ValueError(f"a world's deal must give seat {view.seat} its own role ({view.role.value})")
    script = script or Script.of(view)
    world = _World(script, view, request, policy, seed)
    session = Session(view.rules, world.players, seed, names=view.names, deal=deal)
    game = session.game
    batch = session.start()
    while batch is not None:
        answers: dict[int, Answer] = {}
        for req in batch:
            if not world.reached and world.at_decision(req):
                if tuple(game.alive) != view.alive:
                    return None
                world.reached = True
                answers[req.id] = candidate
                continue
            act = world.scripted(req) if not world.reached else None
            answers[req.id] = act if act is not None else _decide(world.players[req.seat], game.view(req.seat), req)
        batch = session.send(answers)
    if not world.reached:
        return None
    side = "werewolf" if team_of(view.role) is Team.WEREWOLF else "village"
    return game.winner == side


class Estimate:
    """Candidates played out in the same worlds, drawn as needed from the seat's posterior.

    Args:
        view: the deciding seat's view.
        request: the decision.
        candidates: the answers to compare (the first is the one to beat: the proposal).
        rng: the planner's own random stream (deals and world seeds).
        policy: the base policy (default `HeuristicAgent`).
    """

    def __init__(
        self,
        view: View,
        request: Request,
        candidates: Sequence[Action],
        rng: random.Random,
        policy: BasePolicy | None = None,
    ) -> None:
        from lycan.beliefs.tracker import Beliefs

        if policy is None:
            from lycan.agents.heuristic import HeuristicAgent

            policy = HeuristicAgent
        self.view, self.request, self.rng, self.policy = view, request, rng, policy
        self.candidates = list(candidates)
        self.deals, self.weights = Beliefs.for_view(view).deals()
        self._cumulative = list(accumulate(self.weights))  # one draw per world: not summed again each time
        self.script = Script.of(view)
        self.outcomes: list[tuple[bool, ...]] = []
        """One row per kept world: whether each candidate won it."""
        self.dropped = 0

    @property
    def worlds(self) -> int:
        """Worlds kept so far."""
        return len(self.outcomes)

    def run(self, worlds: int, tries: int = 3, deadline: float | None = None) -> Estimate:
        """Play `worlds` more worlds that fit the view for every candidate (at most `tries` x `worlds` draws).

        With a `deadline` (a `time.monotonic()` value), no world is begun after it.
        """
        want = self.worlds + worlds
        for _ in range(worlds * tries):
            if self.worlds >= want or (deadline is not None and time.monotonic() > deadline):
                break
            deal = self.rng.choices(self.deals, cum_weights=self._cumulative)[0]
            seed = self.rng.getrandbits(48)
            results = [
                play_world(self.view, self.request, c, deal, seed, self.policy, self.script) for c in self.candidates
            ]
            if any(r is None for r in results):
                self.dropped += 1
                continue
            self.outcomes.append(tuple(bool(r) for r in results))
        return self

    def wins(self, i: int) -> int:
        """Worlds candidate `i` won."""
        return sum(row[i] for row in self.outcomes)

    def rate(self, i: int) -> float:
        """The share of worlds candidate `i` won."""
        return self.wins(i) / self.worlds if self.worlds else 0.0

    def against(self, i: int, j: int = 0) -> tuple[int, int]:
        """Worlds won by `i` and lost by `j`, and the reverse (the discordant pairs of a sign test)."""
        better = sum(row[i] and not row[j] for row in self.outcomes)
        worse = sum(row[j] and not row[i] for row in self.outcomes)
        return better, worse


def choose(
    est: Estimate, *, first: int, most: int, margin: float, z: float = 2.0, deadline: float | None = None
) -> int:
    """The candidate to play: another than the proposal (index 0) only if it wins clearly more often.

    Plays `first` worlds, then more in steps of `first` up to `most` while the leader is ahead of
    the proposal but not yet clearly. Clearly: ahead by at least `margin` of the worlds and by `z`
    standard deviations of a sign test over the worlds where the two differ. With a `deadline` (a
    `time.monotonic()` value), no world is begun after it: the choice is made on the worlds played
    by then (so how far a search goes, and which worlds it draws next, depends on the machine's speed).
    """
    for step in range(max(1, most // max(first, 1))):  # rounds, not worlds: a round may keep none
        if step and deadline is not None and time.monotonic() > deadline:
            return 0
        est.run(first, deadline=deadline)
        if not est.worlds:
            return 0
        best = max(range(len(est.candidates)), key=lambda i: (est.wins(i), -i))  # ties keep the proposal
        if best == 0:
            return 0
        b, c = est.against(best)
        if b - c >= max(margin * est.worlds, z * (b + c) ** 0.5, 1):
            return best
    return 0
