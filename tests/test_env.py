"""The PettingZoo and Gymnasium environments: the libraries' own API checks, full games, seeding, records."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from lycan.conformance import check_record  # noqa: E402
from lycan.engine.actions import Action  # noqa: E402
from lycan.engine.record import GameRecord  # noqa: E402
from lycan.env import (  # noqa: E402
    GYM_ID,
    LycanAECEnv,
    LycanGymEnv,
    aec_env,
    agent_name,
    parallel_env,
    seat_of,
    single_agent_env,
)
from lycan.rules.roles import team_of  # noqa: E402


def play_random(env: LycanAECEnv, seed: int) -> tuple[GameRecord, dict[str, float], int]:
    """Random masked actions to the end; returns the record, each agent's final reward and the steps."""
    env.reset(seed=seed)
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed * 100 + i)
    final: dict[str, float] = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(obs["action_mask"]))
        steps += 1
    record = env.record
    assert record is not None
    return record, final, steps


def expected_reward(record: GameRecord, seat: int) -> float:
    if record.winner == "draw":
        return 0.0
    return 1.0 if team_of(record.roles[seat]).value == record.winner else -1.0


# --------------------------------------------------------------------------- the libraries' own checks
# api_test warns about every observation that is not one NumPy array and every observation space
# that is not a Box or Discrete: a Dict of text, vector and mask is this environment's design.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.parametrize(("preset", "talk"), [("guardian7", "templates"), ("aiwolf5", "text"), ("witch6", "templates")])
def test_pettingzoo_api_test(preset: str, talk: Any) -> None:
    api_test(aec_env(preset, talk=talk), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: aec_env("guardian7"), num_cycles=300)
    seed_test(lambda: aec_env("aiwolf5", talk="text"), num_cycles=300)


def test_pettingzoo_parallel_api_and_seed_tests() -> None:
    parallel_api_test(parallel_env("guardian7"), num_cycles=300)
    parallel_api_test(parallel_env("aiwolf5", talk="text"), num_cycles=300)
    parallel_seed_test(lambda: parallel_env("guardian7"), num_cycles=300)


def test_gymnasium_check_env(capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make(GYM_ID, preset="guardian7", seat=2)
    assert isinstance(env.unwrapped, LycanGymEnv)
    check_env(env.unwrapped)  # render modes too: the spec makes one environment per mode
    check_env(single_agent_env("aiwolf5", seat=4, opponents="random", talk="text"), skip_render_check=True)
    assert "A game of guardian7 begins" in capsys.readouterr().out  # the human render mode printed


# --------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("preset", ["guardian7", "aiwolf5", "witch6", "aiwolf13"])
def test_random_masked_games_end_with_the_winners_rewarded(preset: str) -> None:
    env = aec_env(preset)
    for seed in range(4 if preset == "aiwolf13" else 10):
        record, final, steps = play_random(env, seed)
        assert steps > 0
        assert record.seed == seed
        assert record.winner in ("village", "werewolf")
        assert record.agents == ("env",) * env.rules.n_players
        assert final == {agent_name(s): expected_reward(record, s) for s in range(env.rules.n_players)}
        assert not env.agents
        assert record.faults == 0  # masked actions are always legal
        assert check_record(record) == []


def test_reset_with_a_seed_gives_identical_trajectories() -> None:
    def trajectory(env: LycanAECEnv, seed: int) -> tuple[list[Any], GameRecord]:
        env.reset(seed=seed)
        rng = np.random.default_rng(7)
        seen: list[Any] = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            seen.append((agent, obs["text"], obs["observation"].tobytes(), reward, info["request"]))
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
        assert env.record is not None
        return seen, env.record

    env = aec_env("guardian7")
    first, a = trajectory(env, 11)
    again, b = trajectory(env, 11)
    other, c = trajectory(aec_env("guardian7"), 11)
    assert first == again == other
    assert a.events == b.events == c.events and a.decisions == b.decisions == c.decisions
    _, d = trajectory(env, 12)
    assert d.events != a.events


def test_unseeded_resets_follow_the_last_seed() -> None:
    env = aec_env("aiwolf5")
    env.reset(seed=3)
    seeds = []
    for _ in range(3):
        env.reset()
        seeds.append(env.table.seed)
    env.reset(seed=3)
    again = []
    for _ in range(3):
        env.reset()
        again.append(env.table.seed)
    assert seeds == again and len(set(seeds)) == 3


def test_the_record_is_the_sessions_and_replays() -> None:
    env = aec_env("witch6")
    env.reset(seed=5)
    assert env.record is None  # not over yet
    record, _, _ = play_random(env, 5)
    assert record.game_id == env.table.session.game_id
    assert GameRecord.from_dict(record.to_dict()) == record
    assert check_record(record) == []


# --------------------------------------------------------------------------- actions
def test_layout_round_trip_and_masks() -> None:
    env = aec_env("guardian7")
    layout = env.layout
    n = 7
    assert layout.size == n + 7 + len(layout.templates)
    for i in range(layout.size):
        assert layout.index(layout.action(i)) == i
    assert layout.index(Action.speak("something else")) is None
    with pytest.raises(ValueError, match="outside the action space"):
        layout.action(layout.size)
    env.reset(seed=0)
    obs, *_ = env.last()
    info = env.infos[env.agent_selection]
    req = info["request"]
    legal = set(np.flatnonzero(obs["action_mask"]).tolist())
    if req.kind in ("talk", "whisper"):
        assert layout.OVER in legal
    else:
        assert legal == set(req.targets) | ({layout.PASS} if req.can_pass else set())


def test_a_masked_out_action_is_refused_then_falls_back() -> None:
    env = aec_env("guardian7")
    env.reset(seed=2)
    # Play legal actions up to the first vote, then answer it twice with Over (illegal for a vote).
    rng = np.random.default_rng(0)
    while env.infos[env.agent_selection]["request"].kind != "vote":
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    agent = env.agent_selection
    env.step(env.layout.OVER)
    while env.agent_selection != agent:  # the other voters answer legally; the retry comes back
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    obs, *_ = env.last()
    request = env.infos[agent]["request"]
    assert request.kind == "vote" and request.attempt == 1
    assert "Your previous answer was refused" in obs["text"]
    assert obs["observation"][-1] == 1.0  # the retry flag
    env.step(env.layout.OVER)
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    record = env.record
    assert record is not None and record.faults == 1
    assert check_record(record) == []


def test_text_talk() -> None:
    env = aec_env("aiwolf5", talk="text")
    assert env.layout.templates == ()
    env.reset(seed=4)
    speaker = env.agent_selection
    assert env.infos[speaker]["request"].kind == "talk"  # the day-0 greeting
    env.step("Hello, I am new here. Is that a wolf?")
    listener = next(a for a in env.agents if a != speaker)
    assert f"Player {seat_of(speaker) + 1}: Hello, I am new here. Is that a wolf?" in env.observe(listener)["text"]
    with pytest.raises(ValueError, match="talk='text'"):
        aec_env("aiwolf5").table.decode("hello")


def test_templates_are_read_by_the_heuristic_agents() -> None:
    from lycan.agents.speech import parser_for

    env = aec_env("guardian7")
    parser = parser_for(env.table.names)
    kinds = set()
    for text, target in env.layout.templates:
        statements = parser.parse(text)
        if text.startswith(("Good morning", "I have no strong", "I am the villager")):
            assert statements == ()  # no statement for the heuristic agents (the observation counts the claim)
            continue
        assert len(statements) == 1, text
        assert statements[0].target == target
        kinds.add(statements[0].kind)
    assert kinds == {
        "claim",
        "divined",
        "identified",
        "guarded",
        "will_vote",
        "accuses",
        "defends",
        "liar",
        "attack",
        "fake_plan",
    }


# --------------------------------------------------------------------------- options
def test_lycan_agents_hold_some_seats() -> None:
    env = aec_env("guardian7", agents={"player_2": "heuristic", 4: "random"})
    assert env.possible_agents == ["player_1", "player_3", "player_4", "player_6", "player_7"]
    for seed in range(5):
        record, final, _ = play_random(env, seed)
        assert record.agents == ("env", "heuristic", "env", "env", "random", "env", "env")
        assert set(final) == set(env.possible_agents)
        assert all(final[a] == expected_reward(record, seat_of(a)) for a in final)
        assert check_record(record) == []
    env = aec_env("aiwolf5", agents=[None, "heuristic", None, "heuristic", "heuristic"])
    assert env.possible_agents == ["player_1", "player_3"]
    with pytest.raises(ValueError, match="leave at least one"):
        aec_env("aiwolf5", agents=["random"] * 5)
    with pytest.raises(ValueError, match="not at this"):
        aec_env("aiwolf5", agents={9: "random"})


def test_max_cycles_truncates_as_a_draw() -> None:
    env = aec_env("aiwolf13", max_cycles=5)
    record, final, _ = play_random(env, 1)
    assert record.winner == "draw" and "max_cycles" in record.meta["aborted"]
    assert set(final.values()) == {0.0}
    # Cut short like an AIWolf server's abort: a draw the record says is aborted (no replay can
    # know where the cut came, so the conformance kit does not take it for a normal end).
    assert record.events[-1].reason == record.meta["aborted"]  # type: ignore[attr-defined]
    assert GameRecord.from_dict(record.to_dict()) == record
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(obs["action_mask"]))
        steps += 1
    assert steps >= 5


def test_long_views_are_cut_to_the_text_space() -> None:
    env = aec_env("aiwolf13", max_text_length=600)
    env.reset(seed=0)
    space = env.observation_space(env.possible_agents[0])
    cut = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert space.contains(obs)
        assert obs["text"].startswith("You are ") and obs["text"].splitlines()[-1].startswith("Now: ")
        cut += "earlier lines omitted]" in obs["text"]
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
    assert cut > 0


def test_parallel_steps_answer_one_batch() -> None:
    env = parallel_env("guardian7")
    obs, infos = env.reset(seed=3)
    asked = [a for a in env.agents if infos[a]["request"] is not None]
    assert asked and all(obs[a]["action_mask"].any() == (a in asked) for a in env.agents)
    with pytest.raises(KeyError, match="has no action"):
        env.step({})
    rng = np.random.default_rng(1)
    rewards: dict[str, float] = {}
    while env.agents:
        actions = {
            a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if obs[a]["action_mask"].any() else 0
            for a in env.agents
        }
        obs, rewards, *_ = env.step(actions)
    record = env.record
    assert record is not None and check_record(record) == []
    assert rewards == {agent_name(s): expected_reward(record, s) for s in range(7)}


# --------------------------------------------------------------------------- single agent
@pytest.mark.parametrize(("preset", "seat"), [("guardian7", 0), ("aiwolf5", 3), ("witch6", 5)])
def test_single_agent_against_heuristic_agents(preset: str, seat: int) -> None:
    env = single_agent_env(preset, seat=seat)
    env.action_space.seed(0)
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        total = 0.0
        done = False
        steps = 0
        while not done:
            assert np.array_equal(env.action_masks(), obs["action_mask"])
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample(obs["action_mask"]))
            total += float(reward)
            done = terminated or truncated
            steps += 1
        record = env.record
        assert record is not None
        assert record.agents[seat] == "env" and record.agents.count("heuristic") == len(record.agents) - 1
        assert total == expected_reward(record, seat)
        assert check_record(record) == []


def test_single_agent_seat_that_is_never_asked() -> None:
    # A guardian7 villager attacked on the first night is never asked anything.
    env = single_agent_env("guardian7", seat=0)
    for seed in range(200):
        obs, info = env.reset(seed=seed)
        if env.table.finished:
            break
    else:
        pytest.fail("no seed in 0..199 kills seat 0 before it is asked anything")
    assert info["request"] is None and not obs["action_mask"].any()
    record = env.record
    assert record is not None
    obs, reward, terminated, truncated, _ = env.step(0)
    assert terminated and not truncated and reward == expected_reward(record, 0)
    _, reward, terminated, _, _ = env.step(0)
    assert terminated and reward == 0.0  # reported once


def test_single_agent_opponents_argument() -> None:
    env = single_agent_env("aiwolf5", seat=1, opponents=["random", "heuristic", "random", "heuristic"])
    env.reset(seed=0)
    assert [env.table.session.seats[s].label for s in range(5)] == ["random", "env", "heuristic", "random", "heuristic"]
    with pytest.raises(ValueError, match="one entry per other seat"):
        single_agent_env("aiwolf5", opponents=["random"])
    with pytest.raises(ValueError, match="seat must be"):
        single_agent_env("aiwolf5", seat=5)
