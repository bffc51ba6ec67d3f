"""The agents' own talk as labelled lines: the speech grammar's wordings, labelled by what their acts state.

A learned reader tuned only on people's talk reads the agents' conversational moves as opinions
("Ken we can talk it through." as a defence of Ken, "We'll win this for Mio!" as a vote), and the
belief engine would count them. These lines teach it what the grammar means: each comes from a
talk turn that a planner (`BeliefHeuristicAgent` with conversation on, as `LLMAgent` plans) decided
in a real game, worded by `lycan.agents.wording.realise` in a persona's manner and kept only where
`check_wording` passes it, as a game would speak it. Its gold is what the rules read in the acts'
template words; the check has just found the reader (rules and learned model) reading the same
in the wording as in those words.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent
from lycan.agents.persona import ai_names, persona_for
from lycan.agents.prompt import talk_limit
from lycan.agents.speech import SpeechAct
from lycan.agents.wording import Morning, check_wording, morning_of, realise
from lycan.beliefs.extract import Labelled
from lycan.beliefs.reader import TalkReader
from lycan.beliefs.talk_model import talk_model_set
from lycan.engine.actions import Action, Request
from lycan.engine.events import Talk
from lycan.engine.runner import run_async
from lycan.engine.view import View
from lycan.rules import get_preset
from lycan.rules.roles import Role

PRESETS = ("aiwolf5", "guardian7")


@dataclass(slots=True)
class _Turn:
    """A planned public turn, with what its seat knew when it was planned (a view's events grow on)."""

    view: View
    template: str
    acts: tuple[SpeechAct, ...]
    limit: int
    morning: Morning
    said: int
    """Public talk heard before it: the order of the game's turns."""


class _Planner(BeliefHeuristicAgent):
    """A planner as `LLMAgent` keeps one, noting every public turn it decides with its acts."""

    def __init__(self, seed: int) -> None:
        BeliefHeuristicAgent.__init__(self, seed)
        self.converse = True
        self.wolf_keeps_word = True
        self.persona = persona_for(seed)
        self.turns: list[_Turn] = []

    def decide(self, view: View, request: Request) -> Action:
        action = BeliefHeuristicAgent.decide(self, view, request)
        acts = self.spoken_acts(action.text) if request.kind == "talk" and action.text else ()
        if acts:
            said = sum(isinstance(e, Talk) and e.channel == "talk" for e in view.events)
            self.turns.append(_Turn(view, action.text, acts, talk_limit(request), morning_of(view), said))
        return action


def grammar_lines(games: int, *, seed: int = 0, per_turn: int = 1, model: str = "ngram") -> list[Labelled]:
    """Up to `per_turn` checked wordings of every public talk turn planned in `games` games, labelled.

    The games alternate between the `PRESETS` and between plain seat names and a web table's
    names (`ai_names`); each seat words its turns in its own persona, with the morning it saw and
    the talk limit it had, as an `LLMAgent` seeded alike would. Rows of one game follow each other
    in the order they were said. The checks read with the learned `model` (`TALK_MODELS`; the
    hashed one by default, so that the lines do not depend on the encoder they may train).
    """
    with talk_model_set(model):
        return _lines(games, seed, per_turn)


def _lines(games: int, seed: int, per_turn: int) -> list[Labelled]:
    rows: list[Labelled] = []
    for g in range(games):
        rules = get_preset(PRESETS[g % len(PRESETS)])
        n = rules.n_players
        game_seed = seed * 100_003 + g
        names = ai_names(n, game_seed) if (g // len(PRESETS)) % 2 else None
        players = [_Planner(game_seed * 31 + s) for s in range(n)]
        asyncio.run(run_async(rules, players, game_seed, names=names))
        turns = sorted(((t, p) for p in players for t in p.turns), key=lambda tp: (tp[0].view.day, tp[0].said))
        readers: dict[tuple[str, ...], TalkReader] = {}
        for i, (turn, planner) in enumerate(turns):
            view = turn.view
            if view.names not in readers:
                readers[view.names] = TalkReader(view.names, learned=False)
            reader = readers[view.names]
            rng = random.Random(f"{game_seed}/{i}/grammar")
            morning = turn.morning
            dead = morning.dead if morning.first else ()
            wolf_public = view.role in (Role.WEREWOLF, Role.POSSESSED)
            wordings = realise(
                turn.acts,
                names=view.names,
                persona=planner.persona,
                day=view.day,
                rng=rng,
                limit=turn.limit,
                morning=morning,
            )
            passed = [
                text
                for text in wordings
                if not check_wording(
                    text,
                    turn.template,
                    names=view.names,
                    seat=view.seat,
                    wolf_public=wolf_public,
                    limit=turn.limit,
                    dead=dead,
                )
            ]
            gold = tuple(reader.parse(turn.template, view.seat))
            for text in rng.sample(passed, min(per_turn, len(passed))):
                rows.append(Labelled(view.names, view.seat, text, gold, split="grammar"))
    return rows


__all__ = ["PRESETS", "grammar_lines"]
