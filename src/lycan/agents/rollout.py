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
import re
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING

from lycan.engine.actions import OVER, SKIP, Action, Answer, Request, VoteInfo
from lycan.engine.events import AttackChosen, Died, Divined, Guarded, Talk, VoteCast
from lycan.engine.session import Session
from lycan.engine.view import View
from lycan.rules.roles import Role, Team, team_of

if TYPE_CHECKING:
    from lycan.beliefs.claims import SpeechParser

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
    claimed: dict[tuple[int, int], int] = field(default_factory=dict)
    """(seat, night) -> the divination that seat announced for that night (in public, true or not)."""

    def claim(self, seat: int, day: int, target: int, night: int | None = None) -> None:
        """`seat` said on `day` that it divined `target` (on `night`, where it said which one).

        A name it named before is nothing new; a night it gave is taken if still free, else (or
        with none given) the earliest night before `day` still free.
        """
        if any(t == target for (a, _), t in self.claimed.items() if a == seat):
            return
        if night is None or not 0 <= night < day or (seat, night) in self.claimed:
            night = next((n for n in range(day) if (seat, n) not in self.claimed), None)
        if night is not None:
            self.claimed[(seat, night)] = target

    @classmethod
    def of(cls, view: View) -> Script:
        """The script `view` allows (nothing its seat could not see)."""
        from lycan.beliefs.claims import parser_for

        parser = parser_for(view.names)
        script = cls()
        for ev in view.events:
            if isinstance(ev, Talk):
                if ev.channel != "talk":
                    continue
                act = OVER if ev.over else SKIP if ev.skip else Action.speak(ev.text)
                script.talk.setdefault((ev.actor, ev.day), []).append(act)
                if act.kind == "speak" and ev.day > 0:
                    for st in parser.parse(ev.text, ev.actor):
                        # a world where this seat is the seer divines what it said it divined, on
                        # the night its words give (else the earliest night it named no one for)
                        if st.kind == "divined" and st.target is not None and st.target != ev.actor:
                            script.claim(ev.actor, ev.day, st.target, _night_of(ev.text, view.names[st.target], ev.day))
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


def _night_of(text: str, name: str, today: int) -> int | None:
    """The night a divination of `name` in `text` says it was made ("Last night ...", "On night 1 ..."), if it says."""
    found = re.search(rf"\b(Last night|On night (\d+)),? I divined {re.escape(name)}\b", text, re.IGNORECASE)
    if found is None:
        return None
    return today - 1 if found.group(2) is None else int(found.group(2))


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
        if target is None and kind == "divine":
            target = self.script.claimed.get((seat, day))
        if target is not None and target not in request.targets:
            return None  # a target the world cannot take (a claimed divination of a seat dead there): its own
        return Action.choose(target) if target is not None else None


def _meaning(action: Answer, parser: SpeechParser, seat: int) -> tuple[object, ...]:
    """What an answer says, as the table reads it: its kind, target and the statements of its words."""
    if not isinstance(action, Action):
        return ("failure",)
    if action.kind == "speak" and action.text:
        return ("speak", *sorted(map(repr, parser.parse(action.text, seat))))
    return (action.kind, action.target)


def _decide(player: object, view: View, request: Request) -> Answer:
    try:
        return player.decide(view, request)  # type: ignore[attr-defined,no-any-return]
    except Exception:  # a base policy's bug costs one answer, never the search
        return request.legal_actions()[0]


def _rebuild(
    view: View, request: Request, deal: Sequence[Role], seed: int, policy: BasePolicy, script: Script | None
) -> tuple[_World, Session]:
    """A world with `deal` and `seed`, its players and session not yet started."""
    if deal[view.seat] is not view.role:
        raise ValueError(f"a world's deal must give seat {view.seat} its own role ({view.role.value})")
    world = _World(script or Script.of(view), view, request, policy, seed)
    return world, Session(view.rules, world.players, seed, names=view.names, deal=deal)


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
    world, session = _rebuild(view, request, deal, seed, policy, script)
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


def misfits(
    view: View,
    request: Request,
    deal: Sequence[Role],
    seed: int,
    policy: BasePolicy,
    script: Script | None = None,
) -> int | None:
    """How many of the other seats' answers the seat saw would not have been the base policy's in this world.

    The world's past is rebuilt from the script as `play_world` rebuilds it; at each answer the
    script gives for another seat (a public utterance, a vote, each werewolf's share of a night's
    attack, a world seer's divination of the seat it claimed to have divined), that seat's player in
    the world (the base policy, in the world's role) is asked too, and a different answer (for talk,
    one the claim parser reads differently; a seat's talk counts once a day, since its later lines
    follow from the first) counts one. None: the world does not reach the decision as the view
    stands. Where the table plays as the base policy does, a world whose deal explains what everyone
    did scores 0; for any other table the counts still rank deals by how well they explain it.

    The count belongs to the deal and the seed. `play_world` replays the same past without asking
    the players (so their own random draws, a werewolf's decision to fake a claim for one, are made
    afresh after the decision): the weight says how well the deal explains the table, not that the
    played world's players would have chosen that past themselves. The belief posterior the deals
    are drawn from already weighs claims and votes; the count weighs them again, with the base
    policy as the model of the others, which sharpens the posterior on purpose.
    """
    from lycan.beliefs.claims import parser_for

    parser = parser_for(view.names)
    world, session = _rebuild(view, request, deal, seed, policy, script)
    game = session.game
    batch = session.start()
    count = 0
    strayed: set[tuple[int, int]] = set()  # (seat, day) whose talk already strayed: its later lines follow from that
    while batch is not None:
        answers: dict[int, Answer] = {}
        for req in batch:
            if world.at_decision(req):
                return count if tuple(game.alive) == view.alive else None
            player = world.players[req.seat]
            act = world.scripted(req)
            if act is None or req.seat == view.seat:
                answers[req.id] = act if act is not None else _decide(player, game.view(req.seat), req)
                continue
            own = _decide(player, game.view(req.seat), req)
            if _meaning(own, parser, req.seat) != _meaning(act, parser, req.seat):
                if not req.is_talk or (req.seat, req.day) not in strayed:
                    count += 1
                if req.is_talk:
                    strayed.add((req.seat, req.day))
                    overruled = getattr(player, "overruled", None)
                    if callable(overruled):  # it remembers saying what it said, not its own line
                        overruled(act)
            answers[req.id] = act
        batch = session.send(answers)
    return None


class Estimate:
    """Candidates played out in the same worlds, drawn as needed from the seat's posterior.

    Args:
        view: the deciding seat's view.
        request: the decision.
        candidates: the answers to compare (the first is the one to beat: the proposal).
        rng: the planner's own random stream (deals and world seeds).
        policy: the base policy (default `HeuristicAgent`).
        fit: the weight kept per answer of another seat that the base policy would not have given
            in a world (`misfits`): a world weighs `fit ** misfits`, so deals and seeds that explain
            what the table did count most (a particle filter with the base policy as the model of the
            others). 1.0 (the default) weighs every world the same and plays no fitting pass.
        cutoff: a world weighing less than this share of the heaviest one seen is not played out
            (its weight would barely count).
    """

    def __init__(
        self,
        view: View,
        request: Request,
        candidates: Sequence[Action],
        rng: random.Random,
        policy: BasePolicy | None = None,
        *,
        fit: float = 1.0,
        cutoff: float = 0.01,
    ) -> None:
        from lycan.beliefs.tracker import Beliefs

        if not 0.0 < fit <= 1.0:
            raise ValueError(f"fit must be in (0, 1], not {fit}")

        if policy is None:
            from lycan.agents.heuristic import HeuristicAgent

            policy = HeuristicAgent
        self.view, self.request, self.rng, self.policy = view, request, rng, policy
        self.candidates = list(candidates)
        self.deals, self.weights = Beliefs.for_view(view).deals()
        self._cumulative = list(accumulate(self.weights))  # one draw per world: not summed again each time
        self.script = Script.of(view)
        self.fit, self.cutoff = fit, cutoff
        self.outcomes: list[tuple[bool, ...]] = []
        """One row per kept world: whether each candidate won it."""
        self.weight: list[float] = []
        """One weight per kept world (`fit ** misfits`; all 1.0 without fitting)."""
        self.dropped = 0
        self._heaviest = 0.0

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
            weight = 1.0
            if self.fit < 1.0:
                count = misfits(self.view, self.request, deal, seed, self.policy, self.script)
                weight = 0.0 if count is None else self.fit**count
                self._heaviest = max(self._heaviest, weight)
                if weight <= 0.0 or weight < self.cutoff * self._heaviest:
                    self.dropped += 1
                    continue
            results = [
                play_world(self.view, self.request, c, deal, seed, self.policy, self.script) for c in self.candidates
            ]
            if any(r is None for r in results):
                self.dropped += 1
                continue
            self.outcomes.append(tuple(bool(r) for r in results))
            self.weight.append(weight)
        return self

    @property
    def effective(self) -> float:
        """The worlds' effective number ((sum of weights)^2 / sum of squares): the count where all weigh the same."""
        top = max(self.weight, default=0.0)
        if top <= 0:
            return 0.0
        scaled = [w / top for w in self.weight]  # no underflow of tiny weights squared
        return sum(scaled) ** 2 / sum(w * w for w in scaled)

    def _scaled(self, per_world: Sequence[float]) -> float:
        """A weighted count of worlds, rescaled to `effective` worlds (the plain count when all weigh the same)."""
        total = sum(self.weight)
        return sum(per_world) * self.effective / total if total > 0 else 0.0

    def wins(self, i: int) -> float:
        """Worlds candidate `i` won (weighted, in effective worlds)."""
        return self._scaled([w * row[i] for w, row in zip(self.weight, self.outcomes, strict=True)])

    def rate(self, i: int) -> float:
        """The (weighted) share of worlds candidate `i` won."""
        total = sum(self.weight)
        return sum(w * row[i] for w, row in zip(self.weight, self.outcomes, strict=True)) / total if total > 0 else 0.0

    def against(self, i: int, j: int = 0) -> tuple[float, float]:
        """Worlds won by `i` and lost by `j`, and the reverse (a sign test's discordant pairs), in effective worlds."""
        rows = list(zip(self.weight, self.outcomes, strict=True))
        better = self._scaled([w * (row[i] and not row[j]) for w, row in rows])
        worse = self._scaled([w * (row[j] and not row[i]) for w, row in rows])
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
        best = max(range(len(est.candidates)), key=lambda i: (round(est.wins(i), 9), -i))  # ties keep the proposal
        if best == 0:
            return 0
        b, c = est.against(best)
        if b - c >= max(margin * est.effective, z * (b + c) ** 0.5, 1):
            return best
    return 0
