"""One registry for every agent type: options typed from the constructors, unknown keys refused with the key named."""

from __future__ import annotations

import pytest

from lycan.agents import AGENT_KINDS, LLM_KINDS, MODEL_KINDS, AgentOptionsError, RandomAgent, agent_type, make_agent
from lycan.agents.registry import AGENT_TYPES, register
from lycan.arena import load_config
from scripted import ScriptedModel


def test_every_type_is_built_through_the_registry_with_its_options_typed() -> None:
    for name in AGENT_KINDS:
        options = agent_type(name).options.model_fields  # made from the constructors: never empty by mistake
        assert isinstance(options, dict)
        agent = make_agent(name, 3, model=ScriptedModel())
        assert agent is not None
    assert {"llm", "react", "recon", "camwolf"} == LLM_KINDS and LLM_KINDS | {"deepwolf"} == MODEL_KINDS
    llm = make_agent("llm", 1, model=ScriptedModel(), temperature="0.25", max_prompt_tokens=900)
    assert llm.temperature == 0.25  # type: ignore[attr-defined]  # typed at the edge, not in the constructor


@pytest.mark.parametrize(
    ("kind", "options", "says"),
    [
        ("heuristic", {"greed": 1}, "agent type 'heuristic' has no option 'greed'; its options: none"),
        ("llm", {"temprature": 0.5}, "has no option 'temprature'; its options: context_window"),
        ("llm", {"temperature": "hot"}, "option 'temperature' of agent type 'llm'"),
        ("camwolf", {"trust_lone_seer": "perhaps"}, "option 'trust_lone_seer' of agent type 'camwolf'"),
        ("deepwolf", {"fresh": 2}, "option 'fresh' of agent type 'deepwolf' needs a chat model"),
    ],
)
def test_bad_options_are_one_sentence_naming_the_key(kind: str, options: dict[str, object], says: str) -> None:
    model = ScriptedModel() if kind in LLM_KINDS else None
    with pytest.raises(AgentOptionsError) as err:
        make_agent(kind, 1, model=model, **options)
    assert says in str(err.value)


def test_a_tournament_file_with_an_unknown_option_is_refused_when_it_is_read() -> None:
    seat = {"agent": "camwolf", "model": "local:tiny", "options": {"grounding": "beliefs", "trust_lone": False}}
    with pytest.raises(ValueError, match="has no option 'trust_lone'"):
        load_config(
            {"run": "r", "games": 1, "settings": [{"rules": "guardian7", "village": seat, "werewolf": "random"}]}
        )


def test_a_class_of_ones_own_joins_the_registry_with_its_constructors_options() -> None:
    class Shy(RandomAgent):
        def __init__(self, seed: int | None = None, quiet: bool = True) -> None:
            super().__init__(seed, talk_probability=0.0 if quiet else 0.5)

    try:
        register("shy", Shy)
        assert isinstance(make_agent("shy", 1, quiet=False), Shy)
        with pytest.raises(AgentOptionsError, match="has no option 'loud'"):
            make_agent("shy", 1, loud=True)
        with pytest.raises(ValueError, match="already exists"):
            register("shy", Shy)
    finally:
        AGENT_TYPES.pop("shy", None)
