"""The deepwolf agent's choice logic: best candidate, legal always, values kept for the record."""

from __future__ import annotations

import json
from collections.abc import Sequence

from lycan.agents.deepwolf import RECORD_MODEL, DeepWolfAgent
from lycan.data.candidates import Candidates
from lycan.engine import Request, View, run_sync
from lycan.engine.actions import Action
from lycan.engine.events import Fault, PhaseStarted, Talk, VoteCast
from lycan.rules import get_preset

TEMPLATES = Candidates(
    {
        role: ["I suspect {0}.", "I trust {0}.", "Good morning."]
        for role in ("villager", "seer", "possessed", "werewolf", "guardian", "medium")
    }
)


class Prefers:
    """A stand-in scorer for the choice logic: likes suspicion of the highest seat, and low seats as targets."""

    def __init__(self) -> None:
        self.calls = 0

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        self.calls += 1
        out = []
        for a in candidates:
            if a.kind == "speak":
                out.append(
                    0.9
                    if a.text and a.text.startswith("I suspect") and a.text.endswith(f"{max(view.living()) + 1}.")
                    else 0.3
                )
            elif a.kind == "choose" and a.target is not None:
                out.append(1.0 - a.target / 20)
            else:
                out.append(0.1)
        return out


class Broken:
    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        raise RuntimeError("no network")


def test_it_takes_the_best_candidate_and_records_its_values() -> None:
    rules = get_preset("aiwolf5")
    scorer = Prefers()
    players = [DeepWolfAgent(s, value=scorer, candidates=TEMPLATES, anchor=None) for s in range(5)]
    record = run_sync(rules, players, 4)
    assert not [e for e in record.events if isinstance(e, Fault)]
    talk = [e for e in record.events if isinstance(e, Talk) and not (e.over or e.skip) and e.channel == "talk"]
    first = {}
    for e in talk:
        first.setdefault(e.actor, e.text)
    assert first and all(t.startswith("I suspect") for t in first.values())  # the best candidate first
    assert len({(e.actor, e.text) for e in talk}) == len(talk)  # and never a sentence twice
    alive: tuple[int, ...] = tuple(range(5))
    votes = 0
    for e in record.events:
        if isinstance(e, PhaseStarted):
            alive = e.alive
        elif isinstance(e, VoteCast) and e.round == 0:
            legal = [s for s in alive if s != e.actor or rules.options.allow_self_vote]
            assert e.target == min(legal)  # the lowest legal seat scores best
            votes += 1
    assert votes
    notes = [c for c in record.model_calls if c.model == RECORD_MODEL]
    assert notes and scorer.calls == len(notes)
    for note in notes:
        detail = json.loads(note.reasoning)
        values = [v for _, v in detail["top"]]
        assert values == sorted(values, reverse=True)
        assert detail["chosen"][1] == values[0]
        if detail["runner_up"] is not None:
            assert detail["runner_up"][1] == values[1]


def test_a_broken_network_still_answers_legally_and_says_why() -> None:
    rules = get_preset("guardian7")
    players = [DeepWolfAgent(s, value=Broken(), candidates=TEMPLATES, anchor=None) for s in range(7)]
    record = run_sync(rules, players, 2)
    assert record.winner in ("village", "werewolf")
    assert not [e for e in record.events if isinstance(e, Fault)]
    errors = [c.error for c in record.model_calls if c.model == RECORD_MODEL]
    assert errors and all(e.startswith("RuntimeError: no network") for e in errors)


def test_sampling_at_a_temperature_stays_legal_and_varies() -> None:
    rules = get_preset("aiwolf5")
    texts = set()
    for seed in range(3):
        players = [
            DeepWolfAgent(seed * 10 + s, value=Prefers(), candidates=TEMPLATES, temperature=5.0, anchor=None)
            for s in range(5)
        ]
        record = run_sync(rules, players, 4)
        assert not [e for e in record.events if isinstance(e, Fault)]
        texts |= {e.text for e in record.events if isinstance(e, Talk) and not (e.over or e.skip)}
    assert any(t.startswith("I trust") for t in texts)


class Flat:
    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        return [0.5] * len(candidates)


def test_anchored_it_keeps_the_heuristic_answer_unless_the_network_is_sure() -> None:
    from lycan.agents import HeuristicAgent

    rules = get_preset("aiwolf5")
    plain = run_sync(rules, [HeuristicAgent(s) for s in range(5)], 6)
    flat = run_sync(rules, [DeepWolfAgent(s, value=Flat(), candidates=TEMPLATES) for s in range(5)], 6)
    assert [(e.kind, getattr(e, "text", None), getattr(e, "target", None)) for e in flat.events] == [
        (e.kind, getattr(e, "text", None), getattr(e, "target", None)) for e in plain.events
    ]
    sure = run_sync(rules, [DeepWolfAgent(s, value=Prefers(), candidates=TEMPLATES, margin=0.01) for s in range(5)], 6)
    said = {e.text for e in sure.events if isinstance(e, Talk) and not (e.over or e.skip)}
    assert any(t.startswith("I suspect") and "because" not in t for t in said)
    notes = [json.loads(c.reasoning) for c in sure.model_calls if c.model == RECORD_MODEL]
    assert notes and all(n["proposal"] is not None for n in notes)
    # with a talk margin nothing can reach, the words are the heuristic's and only targets move
    words = run_sync(
        rules,
        [DeepWolfAgent(s, value=Prefers(), candidates=TEMPLATES, margin=0.01, talk_margin=1) for s in range(5)],
        6,
    )
    assert not any(
        e.text.startswith("I suspect") and "because" not in e.text
        for e in words.events
        if isinstance(e, Talk) and not (e.over or e.skip)
    )
    kinds = [(c.kind, json.loads(c.reasoning)) for c in words.model_calls if c.model == RECORD_MODEL]
    talk = [n for k, n in kinds if k == "talk" and n["proposal"]]
    targeted = [n for k, n in kinds if k in ("vote", "divine", "attack") and n["proposal"]]
    assert talk and all(n["chosen"][0] == n["proposal"][0] for n in talk)
    assert any(n["chosen"][0] != n["proposal"][0] for n in targeted)


class LikesFresh:
    """A stand-in scorer that rates one freshly written sentence above everything mined."""

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        return [0.95 if a.kind == "speak" and "quiet night" in a.text else 0.3 for a in candidates]


def test_fresh_utterances_from_a_chat_model_are_checked_scored_and_recorded() -> None:
    import asyncio

    from lycan.agents import make_agent
    from lycan.agents.deepwolf import DeepWolfChatAgent
    from lycan.agents.heuristic import HeuristicAgent
    from lycan.engine.runner import run_async
    from scripted import ScriptedModel, sensible

    lines = iter(
        ["What a quiet night it was.", "Player 1 wins the game.", "As an AI I cannot play.", "I am the medium."] * 50
    )

    def respond(request):  # type: ignore[no-untyped-def]
        return next(lines) if request.json_schema is None else sensible(request)

    rules = get_preset("aiwolf5")
    agent = make_agent("deepwolf", 3, model=ScriptedModel(respond), fresh=4, value=LikesFresh(), anchor=None)
    assert isinstance(agent, DeepWolfChatAgent)
    players = [agent, *(HeuristicAgent(s) for s in range(1, rules.n_players))]
    record = asyncio.run(run_async(rules, players, 5))
    mine = [e for e in record.events if isinstance(e, Talk) and e.actor == 0 and not (e.over or e.skip)]
    assert any("quiet night" in e.text for e in mine), "the fresh sentence the network liked was spoken"
    assert not any("wins" in e.text or "AI" in e.text for e in mine), "self-narration and error text never"
    assert agent.written > agent.rejected >= agent.written // 2  # 2 or 3 of every 4 fail the checks
    talk_values = [json.loads(c.reasoning) for c in record.model_calls if c.model == RECORD_MODEL and c.kind == "talk"]
    assert any(v.get("fresh") for v in talk_values)
    assert all(text != "Player 1 wins the game." for v in talk_values for text, _ in v.get("fresh", []))


def test_fresh_utterances_from_the_embedded_model_are_scored_by_the_shipped_network() -> None:
    import asyncio
    from dataclasses import replace

    from lycan.agents.deepwolf import DeepWolfChatAgent
    from lycan.agents.heuristic import HeuristicAgent
    from lycan.engine.game import Game
    from lycan.models import load_model

    game = Game(get_preset("aiwolf5"), 11)
    others = [HeuristicAgent(s) for s in range(5)]
    play = game.play()
    batch = next(play)
    while not any(r.kind == "talk" and r.day >= 1 for r in batch):
        batch = play.send({r.id: others[r.seat].decide(game.view(r.seat), r) for r in batch})
    request = replace(next(r for r in batch if r.kind == "talk" and r.day >= 1), timeout=120.0)
    view = game.view(request.seat)
    model = load_model("local:tiny")
    try:
        agent = DeepWolfChatAgent(model, 5, fresh=2, timeout=120.0)
        action = asyncio.run(agent.act(view, request))
    finally:
        close = getattr(model, "close", None)
        if close is not None:
            close()
    assert request.check(action) is None
    assert agent.written == 2, "the model wrote both utterances"
    (decision,) = [json.loads(c.reasoning) for c in agent.drain_model_calls() if c.model == RECORD_MODEL]
    fresh = decision.get("fresh", [])
    assert len(fresh) == agent.written - agent.rejected
    assert all(0.0 <= value <= 1.0 for _, value in fresh)


class DelaysTheSeer:
    """A stand-in scorer that, at a seer's first talk turn of day 1 only, rates "Good morning." above all."""

    def __init__(self) -> None:
        self.turns: set[tuple[int, int]] = set()

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        first = request.is_talk and request.day == 1 and (view.seat, request.day) not in self.turns
        if request.is_talk:
            self.turns.add((view.seat, request.day))
        return [0.99 if first and a.kind == "speak" and a.text == "Good morning." else 0.3 for a in candidates]


def test_words_the_network_overrules_stay_on_the_anchors_agenda() -> None:
    """A seer whose first day-1 words are replaced still announces its result later that day."""
    from lycan.agents import HeuristicAgent
    from lycan.engine.events import Divined
    from lycan.rules import Role

    rules = get_preset("aiwolf5")
    checked = 0
    for seed in range(20):
        probe = run_sync(rules, [HeuristicAgent(s) for s in range(5)], seed)
        seer = probe.roles.index(Role.SEER)
        players = [HeuristicAgent(s) for s in range(5)]
        players[seer] = DeepWolfAgent(seer, value=DelaysTheSeer(), candidates=TEMPLATES, talk_margin=0.5, rollouts=0)
        record = run_sync(rules, players, seed)
        said = [
            e.text
            for e in record.events
            if isinstance(e, Talk) and e.actor == seer and e.day == 1 and e.channel == "talk" and not (e.over or e.skip)
        ]
        if not said:
            continue  # the seer died before day 1's talk
        assert said[0] == "Good morning."  # the network's departure from the proposal
        (night0,) = [e for e in record.events if isinstance(e, Divined) and e.day == 0]
        name = record.names[night0.target]
        assert any("I am the seer" in t and name in t for t in said[1:]), said  # the claim still comes
        checked += 1
    assert checked >= 10


def test_an_overruled_heuristic_forgets_only_its_last_proposal() -> None:
    from lycan.agents import HeuristicAgent
    from lycan.engine.game import Game

    rules = get_preset("aiwolf5")
    game = Game(rules, 3)
    agents = [HeuristicAgent(s) for s in range(5)]
    play = game.play()
    batch = next(play)
    while not any(r.kind == "talk" and r.day >= 1 for r in batch):
        batch = play.send({r.id: agents[r.seat].decide(game.view(r.seat), r) for r in batch})
    request = next(r for r in batch if r.kind == "talk")
    agent = agents[request.seat]
    mem = agent._memory(game.view(request.seat))
    before = (set(mem.said_keys), set(mem.said_texts))
    proposal = agent.decide(game.view(request.seat), request)
    assert proposal.kind == "speak" and proposal.text in mem.said_texts and mem.said_keys != before[0]
    agent.overruled(Action.speak("Something else."))
    assert mem.said_keys == before[0]
    assert mem.said_texts == before[1] | {"Something else."}
    again = agent.decide(game.view(request.seat), request)
    assert again == proposal  # the same items are proposed again
