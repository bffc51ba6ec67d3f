"""Self-play games of a rule-based agent type, their decision samples, and the split into training and held out.

Both training pipelines (`lycan.train.pipeline` and `lycan.causal`) learn from these games and
measure on the held-out share, chosen by a hash of each game's id so that a game is never split.
Every seat's agent is seeded by `derive(seed, "agent", seat)`, as at every other table.

With `explore`, one seat per game (drawn from the game's seed) sometimes answers a vote or a night
action with a uniformly random legal target instead of its own choice (and, with `explore_talk`, a
public talk turn with a random Deep Wolf talk candidate for its role: the shipped ones, or a
file). Games of a rule-based agent alone show what its own choices lead to and almost nothing of
the alternatives, so a value network learnt from them is least reliable exactly where an argmax
over candidates lands; the explorer's departures, among seats that play as usual, show what each
alternative leads to at that table.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import replace

from lycan.agents import make_agent
from lycan.agents.base import SyncAgent
from lycan.data.candidates import Candidates
from lycan.engine.actions import PASS, Action, Request
from lycan.engine.events import Talk
from lycan.engine.record import GameRecord
from lycan.engine.runner import SyncPlayer, run_sync
from lycan.engine.seeds import derive
from lycan.engine.view import View
from lycan.rules import get_preset
from lycan.rules.roles import team_of
from lycan.rules.ruleset import RuleSet
from lycan.value.base import Sample
from lycan.value.shipped import default_candidates


class Exploring(SyncAgent):
    """`base`, except that with probability `rate` a vote or night action takes a uniformly random legal target.

    With `talk` (talk candidates per role), a public talk turn is at the same rate one of the
    candidates for this turn (`Candidates.for_request`: never a sentence said before), drawn
    uniformly (`Over` among them); a role without candidates talks as `base`, and a line of `base`
    that the seat already said through a candidate is replaced by another candidate. Whispers, bids
    and probes are always `base`'s.
    """

    label = "exploring"

    def __init__(self, base: SyncAgent, rate: float, seed: int, *, talk: Candidates | None = None) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"an exploration rate is a probability, not {rate}")
        self.base = base
        self.rate = rate
        self.talk = talk
        self.rng = random.Random(seed)
        self.departures = 0

    def decide(self, view: View, request: Request) -> Action:
        """`base`'s answer, or (at rate `rate`) a random legal target or talk candidate."""
        if self.talk is not None and request.kind == "talk" and self.talk.by_role.get(view.role.value):
            if self.rng.random() < self.rate:
                self.departures += 1
                # base is not asked: it would take its own words as said and never say them
                return self.rng.choice(self.talk.for_request(view, request))
            answer = self.base.decide(view, request)
            said = {e.text for e in view.events if isinstance(e, Talk) and e.actor == view.seat}
            if answer.kind == "speak" and answer.text in said:  # base never heard itself say an explored line
                return self.rng.choice(self.talk.for_request(view, request))
            return answer
        if request.targets and not request.is_talk and request.kind != "probe" and self.rng.random() < self.rate:
            options = [Action.choose(t) for t in request.targets]
            if request.can_pass:
                options.append(PASS)
            self.departures += 1
            # the base still sees the request, so an agent that keeps notes of its own moves stays consistent
            self.base.decide(view, request)
            return self.rng.choice(options)
        return self.base.decide(view, request)

    def begin_game(self, game_id: str, seat: int) -> None:
        """Pass the start of a game on to `base`."""
        begin = getattr(self.base, "begin_game", None)
        if callable(begin):
            begin(game_id, seat)


def self_play(
    preset: str,
    games: int,
    first_seed: int,
    agent: str = "heuristic",
    *,
    explore: float = 0.0,
    explore_talk: bool = False,
    talk_candidates: Candidates | None = None,
) -> Iterator[GameRecord]:
    """`games` games of `agent` in every seat, seeds `first_seed` onwards (deterministic in the seeds).

    With an `explore` rate above 0, one seat per game is `Exploring` at that rate (its talk too,
    with `explore_talk`, among `talk_candidates`, by default those shipped with Deep Wolf's network;
    name a file for self-play that stays reproducible when the shipped network is retrained).

    Raises:
        ValueError: an unknown preset or agent type, one that needs a chat model, or a rate outside [0, 1].
    """
    if not 0.0 <= explore <= 1.0:
        raise ValueError(f"an exploration rate is a probability, not {explore}")
    rules = get_preset(preset)
    n = rules.n_players
    talk = None
    if explore > 0 and explore_talk:
        if talk_candidates is None:
            talk_candidates = default_candidates()
        talk = talk_candidates
    for seed in range(first_seed, first_seed + games):
        players = [make_agent(agent, derive(seed, "agent", s)) for s in range(n)]
        if not all(isinstance(p, SyncPlayer) for p in players):
            raise ValueError(f"self-play needs a rule-based agent type, not {agent!r}")
        if explore > 0:
            seat = derive(seed, "explorer") % n
            base = players[seat]
            players[seat] = Exploring(base, explore, derive(seed, "explorer", seat), talk=talk)  # type: ignore[arg-type]
        yield run_sync(rules, players, seed, game_id=f"selfplay-{preset}-{seed}")  # type: ignore[arg-type]


class _Recorder:
    """Wraps a synchronous agent and keeps a snapshot of each view it answers from."""

    def __init__(self, inner: SyncPlayer, out: list[tuple[View, Request, Action]]) -> None:
        self.inner = inner
        self.out = out

    def decide(self, view: View, request: Request) -> Action:
        action = self.inner.decide(view, request)
        self.out.append((replace(view, events=tuple(view.events)), request, action))
        return action

    async def act(self, view: View, request: Request) -> Action:
        return self.decide(view, request)


def play_samples(rules: RuleSet, games: int, *, seed: int = 0, agent: str = "heuristic") -> list[list[Sample]]:
    """Play `games` games of `agent` against itself and return each game's decision samples (probes left out).

    Game `g` has the seed `derive(seed, "samples", g)` and its seats' agents `derive(game seed, "agent", seat)`.

    Raises:
        ValueError: an agent type that does not answer synchronously.
    """
    out: list[list[Sample]] = []
    for g in range(games):
        game_seed = derive(seed, "samples", g)
        decisions: list[tuple[View, Request, Action]] = []
        agents = [make_agent(agent, derive(game_seed, "agent", s)) for s in range(rules.n_players)]
        players = [_Recorder(a, decisions) for a in agents if isinstance(a, SyncPlayer)]
        if len(players) != len(agents):
            raise ValueError(f"agent type {agent!r} does not answer synchronously; use a rule-based agent")
        record = run_sync(rules, players, game_seed)
        out.append(
            [Sample(v, r, a, team_of(v.role).value == record.winner) for v, r, a in decisions if r.kind != "probe"]
        )
    return out


def held_out(game_id: str, share: float) -> bool:
    """Whether game `game_id` is among the held-out `share` of games (a hash of its id decides)."""
    return int(hashlib.sha256(game_id.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < share


__all__ = ["Exploring", "held_out", "play_samples", "self_play"]
