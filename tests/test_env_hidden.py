"""Observations hold a seat's own knowledge only.

Hidden events leave no trace in anyone else's observation, and no other seat's role shows before the end.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from lycan.conformance import HiddenVariant
from lycan.engine.record import GameRecord
from lycan.env import LycanAECEnv, aec_env, seat_of
from lycan.env.observe import CLAIMS, ROLES
from lycan.rules.roles import Role

Trace = dict[str, list[tuple[str, bytes, bytes]]]


def snapshot(env: LycanAECEnv, trace: Trace) -> None:
    """Every agent's observation now, kept when it differs from the agent's previous one."""
    for agent in env.agents:
        obs = env.observe(agent)
        key = (obs["text"], obs["observation"].tobytes(), obs["action_mask"].tobytes())
        if not trace[agent] or trace[agent][-1] != key:
            trace[agent].append(key)


def hidden_variant_game(preset: str, seed: int, variant: int) -> tuple[GameRecord, Trace]:
    """Every seat answered as `HiddenVariant(seat, variant)` does, through the environment's step()."""
    env = aec_env(preset, talk="text")
    env.reset(seed=seed)
    bots = [HiddenVariant(s, variant) for s in range(env.rules.n_players)]
    trace: Trace = {a: [] for a in env.possible_agents}
    snapshot(env, trace)
    for agent in env.agent_iter():
        _, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = seat_of(agent)
        action = bots[seat].decide(env.table.session.view(seat), info["request"])
        env.step(action.text if action.kind == "speak" else env.layout.index(action))
        snapshot(env, trace)
    assert env.record is not None
    return env.record, trace


@pytest.mark.parametrize(("preset", "seeds"), [("guardian7", 25), ("aiwolf5", 25), ("witch6", 25), ("aiwolf13", 6)])
def test_hidden_events_leave_every_other_observation_unchanged(preset: str, seeds: int) -> None:
    compared = 0
    for seed in range(seeds):
        (a, trace_a), (b, trace_b) = hidden_variant_game(preset, seed, 0), hidden_variant_game(preset, seed, 1)
        assert a.roles == b.roles
        hidden = [e for e in a.events if e.audience is not None] != [e for e in b.events if e.audience is not None]
        assert hidden, "the two variants should differ in hidden events"
        for seat, role in enumerate(a.roles):
            if role in (Role.SEER, Role.WEREWOLF):
                continue
            agent = f"player_{seat + 1}"
            assert trace_a[agent] == trace_b[agent], f"seed {seed}: {agent} ({role.value}) tells the games apart"
            compared += 1
    assert compared >= seeds * 2


def _blocks(env: LycanAECEnv, vector: np.ndarray) -> dict[str, np.ndarray]:
    n = env.rules.n_players
    out: dict[str, np.ndarray] = {"role": vector[: len(ROLES)]}
    i = len(ROLES)
    for name in ("seat", "alive", "pack", "found_werewolf", "found_human", "votes", "talks"):
        out[name] = vector[i : i + n]
        i += n
    out["claims"] = vector[i : i + n * len(CLAIMS)].reshape(n, len(CLAIMS))
    return out


@pytest.mark.parametrize("preset", ["guardian7", "aiwolf5", "witch6", "aiwolf13"])
def test_no_observation_shows_another_seats_role_before_the_end(preset: str) -> None:
    env = aec_env(preset)
    names = env.table.names
    assert env.table.observer.feature_names()[: len(ROLES)] == [f"role={r.value}" for r in ROLES]
    for seed in range(12 if preset == "aiwolf13" else 30):
        env.reset(seed=seed)
        roles = env.table.session.game.roles
        wolves = {s for s, r in enumerate(roles) if r is Role.WEREWOLF}
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed + i)
        last: dict[str, dict[str, Any]] = {}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                assert "Roles: " in obs["text"]  # the reveal, at the end only
                env.step(None)
                continue
            _check_secret(env, obs, seat_of(agent), roles, wolves, names)
            for other in env.agents:  # the ones not asked now, too (their text only grows: checked last)
                last[other] = env.observe(other)
                _check_secret(env, last[other], seat_of(other), roles, wolves, names, check_text=False)
            env.step(env.action_space(agent).sample(obs["action_mask"]))
        for other, obs in last.items():
            _check_secret(env, obs, seat_of(other), roles, wolves, names)


def _check_secret(
    env: LycanAECEnv,
    obs: dict[str, Any],
    seat: int,
    roles: tuple[Role, ...],
    wolves: set[int],
    names: tuple[str, ...],
    *,
    check_text: bool = True,
) -> None:
    role = roles[seat]
    blocks = _blocks(env, obs["observation"])
    assert blocks["role"].tolist() == [1.0 if r is role else 0.0 for r in ROLES]
    pack = {int(s) for s in np.flatnonzero(blocks["pack"])}
    assert pack == (wolves if role is Role.WEREWOLF else set())
    found = set(np.flatnonzero(blocks["found_werewolf"])) | set(np.flatnonzero(blocks["found_human"]))
    if role not in (Role.SEER, Role.MEDIUM):
        assert not found
    if not check_text:
        return
    text = obs["text"]
    assert "Roles: " not in text and "what happened in the night" not in text and "[hidden]" not in text
    for other, name in enumerate(names):
        if other != seat:
            assert f"{name}'s role is" not in text
    if role is not Role.WEREWOLF:
        assert not re.search(r"werewolves attack |whispers? to the werewolves|fellow werewol|The werewolves are", text)
    if role is not Role.SEER:
        assert not re.search(r"^Night \d+ - you divined", text, re.MULTILINE)
