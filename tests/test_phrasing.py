"""Decide, then phrase: the checks on fixed bad phrasings, and LLM seats in `phrase` mode on a scripted model."""

from __future__ import annotations

import asyncio
import re

import pytest

from lycan.agents.llm import LLMAgent, promised_vote
from lycan.agents.phrasing import (
    REASONS,
    check_phrasing,
    clean,
    echoes,
    narrates_self,
    reveals_wolf_side,
    role_words,
    stammers,
)
from lycan.beliefs.claims import Statement, parser_for
from lycan.beliefs.reader import reader_for
from lycan.engine.actions import Action, Request
from lycan.engine.events import Talk
from lycan.engine.record import ModelCall
from lycan.engine.runner import run_async
from lycan.engine.view import View
from lycan.models.base import ChatRequest, ModelError
from lycan.rules import Role, get_preset
from scripted import HANG, ScriptedModel, sensible

NAMES = tuple(f"Player {i}" for i in range(1, 8))
INSTRUCTIONS = (
    "You are Player 1, a player at a table of Werewolf, talking out loud to the other players.\n"
    "Say this in your own casual words, in one or two short sentences of at most 125 characters:\n"
    "Keep every name, role and result as given, add nothing, and speak as yourself."
)
SEER_ACT = "I am the seer. Last night I divined Player 3: werewolf. I will vote for Player 3."


def check(text: str, act: str = SEER_ACT, *, role: Role = Role.SEER, public: bool = True, limit: int = 0) -> str:
    return check_phrasing(
        text, act, names=NAMES, seat=0, role=role, instructions=INSTRUCTIONS, limit=limit, public=public
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("I am the seer and I divined Player 3: werewolf, so I will vote for Player 3 today for sure.", "too long"),
        ('{"speech": "I am the seer."}', "error text"),
        ("Retry: I am the seer. Last night I divined Player 3: werewolf.", "error text"),
        ("As an AI language model I cannot play.", "error text"),
        ("Day 2: I am the seer. Last night I divined Player 3: werewolf.", "error text"),
        ("Keep every name, role and result as given. I am the seer.", "prompt echo"),
        ("talking out loud to the other players: I am the seer.", "prompt echo"),
        ("Player 1 is the seer. Player 1 divined Player 3: werewolf.", "self-narration"),
        ("I, me, the seer. Last night I divined Player 3: werewolf. I will vote for Player 3.", "stammer"),
        ("I am the seer. I, I, I divined Player 3: werewolf. I will vote for Player 3.", "stammer"),
        (
            "Player 2: I am the seer. Last night I divined Player 3: werewolf. Vote Player 3.",
            "reads as a seat speaking",
        ),
        ("I am the seer! Last night I divined Player 3: human. I will vote for Player 3.", "contradicts the act"),
        ("I am the seer. Last night I divined Player 4: werewolf. I will vote for Player 4.", "contradicts the act"),
        ("I am the medium. Last night I divined Player 3: werewolf. I will vote for Player 3.", "contradicts the act"),
        ("I am the seer. Last night I divined the Player 3: werewolf. I will vote for Player 3.", "garbled name"),
        ("I am the seer. I divined Player 3: werewolf, I'll vote for Player 3. Player 5 helps.", "other names"),
        ("I am the seer. I divined Player 3: werewolf and I will vote for Player 3 like the witch.", "other roles"),
    ],
)
def test_bad_phrasings_are_rejected_with_their_reason(text: str, reason: str) -> None:
    assert check(text, limit=50 if reason == "too long" else 0) == reason
    assert reason in REASONS


def test_reasons_lists_every_reason_the_checks_give() -> None:
    """Each `return "..."` of the checks is in `REASONS`, so that reports can name every refusal."""
    import inspect

    from lycan.agents import phrasing

    given = set()
    for fn in (phrasing.check_phrasing, phrasing.check_fresh, phrasing.voice_fault):
        given |= set(re.findall(r'return "([^"]+)"', inspect.getsource(fn)))
    assert given and given <= set(REASONS), given - set(REASONS)


def test_no_line_opens_as_another_seats_and_no_name_takes_an_article() -> None:
    """Two model phrasings heard in a guardian7 game on the embedded model.

    Hazel said "Yarrow: No strong suspicion yet. Zephyr?", and Dune "I agree with Garnet, the Willow.".
    """
    names = ("Hazel", "Yarrow", "Zephyr", "Willow", "Rowan", "Garnet", "Dune")

    def said(text: str, act: str, seat: int) -> str:
        return check_phrasing(text, act, names=names, seat=seat, role=Role.VILLAGER, instructions=INSTRUCTIONS)

    assert said("Yarrow: No strong suspicion yet. Zephyr?", "Yarrow I have no strong suspicion yet.", 0) == (
        "reads as a seat speaking"
    )
    assert said("Yarrow I have no strong suspicion yet.", "Yarrow I have no strong suspicion yet.", 0) == ""
    assert said("To answer Yarrow: no strong suspicion yet.", "Yarrow I have no strong suspicion yet.", 0) == ""
    assert said("I agree with Garnet, the Willow.", "I agree with Garnet about Willow.", 6) == "garbled name"
    assert said("Garnet is right about Willow.", "I agree with Garnet about Willow.", 6) == ""
    assert said("I agree with the Garnet about Willow.", "I agree with Garnet about Willow.", 6) == "garbled name"
    assert said("I agree with Garnet on the willow question.", "I agree with Garnet about Willow.", 6) == ""


def test_a_player_the_act_speaks_of_is_not_turned_into_the_one_spoken_to() -> None:
    act = "I agree with Player 2 about Player 3."
    assert check("I agree with Player 2, Player 3.", act, role=Role.VILLAGER) == "speaks to a player it speaks of"
    assert check("Player 2 is right about Player 3.", act, role=Role.VILLAGER) == ""
    asked = "Player 3 who do you suspect?"
    assert check("Who do you suspect, Player 3?", asked, role=Role.VILLAGER) == ""  # the act speaks to them too


def test_a_faithful_paraphrase_is_accepted() -> None:
    assert check("Listen up: I'm the seer. I divined Player 3 as a werewolf, so I'll vote for Player 3!") == ""
    act = "I suspect Player 5 because they voted for Player 2. I will vote for Player 5."
    assert check("I'm suspicious of Player 5, who voted for Player 2. I'm voting for Player 5.", act) == ""
    assert check("Player 5 voted for Player 2. I vote for Player 5.", act) == "contradicts the act"
    # answering two accusers is not vouching for them (a model's rewrite in a real game)
    answers = "Player 2 I am on the village side. Player 6 I am on the village side."
    assert check("Player 2 and Player 6 are on the village side.", answers) == "contradicts the act"


def test_wolves_may_not_reveal_their_side_in_public_but_may_in_a_whisper() -> None:
    act = "I will vote for Player 4."
    for text in ("As a werewolf I will vote for Player 4.", "I'm a wolf, and I will vote for Player 4.",
                 "My partner and I: I will vote for Player 4."):  # fmt: skip
        assert reveals_wolf_side(text), text
        assert check(text, act, role=Role.WEREWOLF) in ("self-reveal", "other roles"), text
    whisper = "Let's attack Player 4."
    assert check("We wolves should go. Let's attack Player 4.", whisper, role=Role.WEREWOLF, public=False) == ""
    assert check("We wolves should go. Let's attack Player 4.", whisper, role=Role.WEREWOLF) == "self-reveal"
    assert not reveals_wolf_side("I think Player 4 is a werewolf.")


def test_detectors() -> None:
    assert echoes("so keep every name role and result here", INSTRUCTIONS)
    assert not echoes(
        "Keep every name, role and result as given.", INSTRUCTIONS, allowed="Keep every name, role and result as given."
    )
    assert narrates_self("Player 1 wins.", "Player 1")
    assert not narrates_self("Player 10 wins.", "Player 1")
    assert role_words("Two seers and a Witch.") == {"seer", "witch"}
    assert stammers("I, me, attack Player 7.") and stammers("I, I, I vote for Player 2.")
    assert not stammers("Believe me, I am the seer. I vote. I think Player 2 lies, I'm sure.")
    assert clean('Player 1: "I am the seer."\nPlayer 2: no', "Player 1") == "I am the seer."
    assert clean("Day 2: Let's attack Player 7.", "Player 4") == "Let's attack Player 7."


def test_the_parser_reads_the_common_paraphrases() -> None:
    parser = parser_for(NAMES)
    assert parser.parse("I'm voting for Player 2.") == (Statement("will_vote", 1),)
    assert parser.parse("My vote goes to Player 2.") == (Statement("will_vote", 1),)
    assert parser.parse("I don't trust Player 2.") == (Statement("accuses", 1),)
    assert parser.parse("I think Player 2 is a werewolf.") == (Statement("accuses", 1),)
    assert parser.parse("I believe Player 2 is innocent.") == (Statement("defends", 1),)


# ------------------------------------------------------------------ the agent in phrase mode
def _phraser(answer: object) -> ScriptedModel:
    def respond(request: ChatRequest) -> object:
        if "in your own casual words" in request.messages[-1]["content"]:
            return answer(request) if callable(answer) else answer
        return sensible(request)

    return ScriptedModel(respond)


def _game(model: ScriptedModel, seed: int = 4, **kw: object) -> tuple[list[LLMAgent], list[Talk], list[ModelCall]]:
    rules = get_preset("guardian7")
    players = [LLMAgent(model, seed * 10 + s, talk="phrase", **kw) for s in range(rules.n_players)]  # type: ignore[arg-type]
    record = asyncio.run(run_async(rules, players, seed))
    talk = [e for e in record.events if isinstance(e, Talk) and not e.over and not e.skip]
    return players, talk, list(record.model_calls)


def test_garbage_phrasings_are_replaced_by_the_planned_act() -> None:
    players, talk, calls = _game(_phraser("Player 3 says: retry the JSON format please"))
    assert talk, "seats spoke"
    assert not any("retry" in t.text.lower() or "json" in t.text.lower() for t in talk)
    rejected = [c for c in calls if c.error.startswith("phrasing rejected")]
    assert rejected and all(c.reasoning for c in rejected)
    assert sum(p.usage.phrasings_rejected for p in players) == sum(p.usage.phrasings for p in players) > 0
    parser = parser_for(NAMES)
    assert any(parser.parse(t.text, t.actor) for t in talk), "the templates say something readable"


_ASIDES = (
    "Quite a morning this has been.",
    "My tea has gone cold while we talk.",
    "The fire in the square burned low overnight.",
    "Rain is coming over the hills.",
    "The baker opened late today.",
    "Somebody left the gate open again.",
    "The crows were loud at dawn.",
    "My boots are still muddy from the fields.",
)


def test_good_phrasings_are_spoken() -> None:
    def reword(request: ChatRequest) -> str:
        """The act's words with "Well," and a fresh aside: the same facts, words the table has not heard."""
        act = request.messages[-1]["content"].split("characters: ", 1)[1].split("\n", 1)[0]
        aside = _ASIDES[sum(map(ord, request.messages[-1]["content"])) % len(_ASIDES)]
        return ("Well, " + act[0].lower() + act[1:] if not act.startswith("I") else "Well, " + act) + " " + aside

    # the seat speaks the candidate least like what the table heard: the model's or the grammar's,
    # so over six games some of the model's accepted wordings are spoken (0 to 2 a game)
    spoken, rejected, phrased = [], 0, 0
    for seed in range(3, 9):
        players, talk, _ = _game(_phraser(reword), seed)
        spoken += [t.text for t in talk if t.channel == "talk"]
        rejected += sum(p.usage.phrasings_rejected for p in players)
        phrased += sum(p.usage.phrasings for p in players)
    assert any(t.startswith("Well, ") for t in spoken)
    assert rejected < phrased


@pytest.mark.parametrize("failure", [HANG, ModelError("backend down")])
def test_a_failing_or_hanging_phrasing_speaks_the_template(failure: object) -> None:
    players, talk, calls = _game(_phraser(failure), phrase_timeout=0.05)
    assert talk
    assert all(c.error for c in calls if c.kind == "talk")
    assert all(p.usage.model_errors + p.usage.timeouts > 0 for p in players if p.usage.phrasings)


def test_talk_mode_defaults_to_phrase_on_the_embedded_models_only() -> None:
    class Local(ScriptedModel):
        name = "local:tiny"

    assert LLMAgent(Local(), 1).talk == "phrase"
    assert LLMAgent(ScriptedModel(), 1).talk == "free"
    assert LLMAgent(Local(), 1, talk="free").talk == "free"
    with pytest.raises(ValueError, match="talk mode"):
        LLMAgent(ScriptedModel(), 1, talk="shout")


def test_seeing_another_as_a_werewolf_is_no_admission() -> None:
    assert not reveals_wolf_side("I see Player 4 as a werewolf.")
    assert reveals_wolf_side("Well, as a werewolf, I agree.")


def test_a_planner_repeating_itself_says_so_as_a_player_would() -> None:
    from lycan.agents.heuristic import _fresh

    said: set[str] = set()
    spoken = []
    for day in (2, 2, 2, 2, 2, 3, 3):
        line = _fresh(SEER_ACT, day, said)
        assert line is not None
        said.add(line)
        spoken.append(line)
    assert _fresh(SEER_ACT, 3, said) is None  # every variant of the day used
    assert _fresh(SEER_ACT, 4, said) is not None  # a new day may say it again
    assert spoken[0] == SEER_ACT and len(set(spoken)) == len(spoken)
    parser = parser_for(NAMES)
    for line in spoken:
        assert check(line) == "", line  # no log marker, no narration: the checks pass it as the act itself
        assert parser.parse(line, 0) == parser.parse(SEER_ACT, 0)
        assert "," not in line.removesuffix(SEER_ACT)  # AIWolf NLP servers reject commas


def test_in_phrase_mode_a_seat_votes_as_it_said_it_would() -> None:
    asked: list[ChatRequest] = []
    votes: list[tuple[int | None, Request, Action, str]] = []

    def respond(request: ChatRequest) -> object:
        if request.json_schema is not None and "target" in request.json_schema["properties"]:
            asked.append(request)
        return sensible(request)

    class Watched(LLMAgent):
        async def act(self, view: View, request: Request) -> Action:
            action = await super().act(view, request)
            if request.kind == "vote":
                mine = [e for e in view.events if isinstance(e, Talk) and e.actor == view.seat and e.day == view.day]
                votes.append((promised_vote(view), request, action, " ".join(e.text for e in mine)))
            return action

    rules = get_preset("guardian7")
    as_said = 0
    for seed in (4, 5, 6, 7, 8, 9):
        players = [Watched(ScriptedModel(respond), seed * 10 + s, talk="phrase") for s in range(rules.n_players)]  # type: ignore[arg-type]
        asyncio.run(run_async(rules, players, seed))
        as_said += sum(p.usage.votes_as_said for p in players)
    promised = [(p, r, a) for p, r, a, _ in votes if p is not None and p in r.targets]
    kept = [a for p, _, a in promised if a.target == p]
    # the planner that chose the words casts the vote: as said, unless later talk changed its mind
    assert len(promised) > 10 and len(kept) >= 0.8 * len(promised)
    assert as_said == len(kept)
    for target, _, _, said in votes:
        if target is not None:
            stated = {st.target for st in reader_for(NAMES).parse(said) if st.kind == "will_vote"}
            assert target in stated, "the promise is the seat's own words today"
    # only the votes without a promise were asked of the model (night actions still are)
    voted = [r for r in asked if "Vote now:" in r.messages[-1]["content"]]
    assert len(voted) == len(votes) - len(promised) and len(asked) > len(voted)


def test_a_wording_that_quotes_someone_is_refused() -> None:
    act = "I will vote for Player 2."
    assert check('Player 3 says: "I am on our side. I repeat: I will vote for Player 2."', act) == "quotes"
    assert check("I will vote for Player 2. Call it my “final answer”.", act) == "quotes"


def test_a_changed_vote_must_be_said_to_have_changed() -> None:
    """The table must hear that the seat's earlier vote no longer holds, not a bare new vote."""
    from lycan.agents.speech import CHANGED
    from lycan.agents.wording import _CHANGED

    act = f"{CHANGED} I will vote for Player 2."
    assert check("I will vote for Player 2.", act, role=Role.VILLAGER) == "hides the changed vote"
    assert check("My vote goes to Player 2 today.", act, role=Role.VILLAGER) == "hides the changed vote"
    for text in ("On second thought I'll vote for Player 2.", "I'm voting Player 2 instead.",
                 "I've reconsidered: my vote is for Player 2."):  # fmt: skip
        assert check(text, act, role=Role.VILLAGER) == "", text
    for lead in _CHANGED:  # every lead the grammar says a changed vote with
        assert check(f"{lead}I will vote for Player 2.", act, role=Role.VILLAGER) == "", lead
    assert check("I will vote for Player 2.", "I will vote for Player 2.", role=Role.VILLAGER) == ""
    # after another act of the turn as well
    later = f"Player 3 I'm not a wolf. {CHANGED} I will vote for Player 2."
    assert check("Player 3 I'm not a wolf. I will vote for Player 2.", later, role=Role.VILLAGER) == (
        "hides the changed vote"
    )
    assert check("Player 3 I'm not a wolf. I'm voting Player 2 instead.", later, role=Role.VILLAGER) == ""


def test_a_question_the_act_asks_must_be_asked() -> None:
    act = "I'm not sure yet. Player 4 who do you suspect?"
    assert check("I'm not sure yet. Player 4 who don't have strong suspicion.", act, role=Role.VILLAGER) == (
        "question not asked"
    )
    for text in ("No strong read yet. Player 4, who looks off to you?", "Player 4, tell us your read.",
                 "Player 4 share your thoughts please.", "Player 4 who do you suspect？"):  # fmt: skip
        assert check(text, act, role=Role.VILLAGER) == "", text
    assert check("I suspect nobody yet. Do you?", "I'm not sure yet.", role=Role.VILLAGER) == ""
