"""The same seeds give byte-identical records and prompts: a net under changes that should change no behaviour.

Every agent type plays fixed seeds on the scripted model (`scripted.ScriptedModel`, which answers
every request, the CaM-Wolf Reasoner's included, from the request's own seed). Each game's record
(less its clock times) and every prompt its agents sent are hashed; the hashes of a case are
compared with `tests/data/golden_records.json`. A refactor that moves code must leave them all
as they are; a change that means to alter play writes the file again and says so in its commit:

    LYCAN_WRITE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden_records.py -n 0
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lycan.agents import SeatSpec, lineup
from lycan.engine.session import Session
from lycan.rules import get_preset
from scripted import ScriptedModel

GOLDEN = Path(__file__).parent / "data" / "golden_records.json"
WRITE = os.environ.get("LYCAN_WRITE_GOLDEN") == "1"

CASES = {
    "random/aiwolf13": ("random", "aiwolf13", 200),
    "heuristic/aiwolf5": ("heuristic", "aiwolf5", 200),
    "heuristic/guardian7": ("heuristic", "guardian7", 200),
    "heuristic/witch6": ("heuristic", "witch6", 200),
    "heuristic-beliefs/guardian7": ("heuristic-beliefs", "guardian7", 100),
    "llm/aiwolf5": ("llm", "aiwolf5", 200),
    "react/guardian7": ("react", "guardian7", 100),
    "recon/witch6": ("recon", "witch6", 100),
    "camwolf/guardian7": ("camwolf", "guardian7", 30),  # a Reasoner and a Performer per seat: 2-3 s a game
    "deepwolf/aiwolf5": ("deepwolf", "aiwolf5", 1),  # its network scores every candidate, and it searches
}
OPTIONS = {"deepwolf": {"search_seconds": 600, "rollouts": {"seer": 8, "*": 4}}}
"""Deep Wolf's search stops after its rollouts or its seconds, whichever come first: with seconds to
spare, the rollouts decide, and the game does not depend on how busy the machine is. Fewer worlds
than the shipped 64 and 16 keep a game to seconds; every part of the search still plays."""
_CLOCK = {"started_at", "finished_at", "latency_s"}


def _without_clock(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_clock(v) for k, v in value.items() if k not in _CLOCK}
    if isinstance(value, list):
        return [_without_clock(v) for v in value]
    return value


async def _digest(kind: str, preset: str, games: int) -> str:
    rules = get_preset(preset)
    digest = hashlib.sha256()
    for seed in range(games):
        model = ScriptedModel()
        seats = [SeatSpec(kind, model, OPTIONS.get(kind, {})) for _ in range(rules.n_players)]
        session = Session(rules, lineup(seats, seed), seed, game_id=f"golden-{seed}")
        record = await session.run()
        digest.update(json.dumps(_without_clock(record.to_dict()), sort_keys=True).encode())
        for request in model.requests:  # the prompts, in the order they were sent
            sent = {"session": request.session, "messages": request.messages, "schema": request.json_schema}
            digest.update(json.dumps(sent, sort_keys=True).encode())
    return digest.hexdigest()


def digest_in_a_fresh_process(case: str) -> str:
    """The digest of `case`, worked out in a new Python process.

    A record must follow from its seeds alone, not from what else a process ran before: loading
    a llama.cpp model in a process was seen to change the value network's floats in it (the
    Deep Wolf digest differed after a test that loaded the tiny model), so each case starts clean.
    """
    code = f"import asyncio, test_golden_records as g; print(asyncio.run(g._digest(*g.CASES[{case!r}])))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=Path(__file__).parent, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("case", list(CASES))
def test_the_same_seeds_give_the_same_records_and_prompts(case: str) -> None:
    got = digest_in_a_fresh_process(case)
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if WRITE:
        golden[case] = got
        GOLDEN.write_text(json.dumps(dict(sorted(golden.items())), indent=1) + "\n")
        return
    assert case in golden, f"no golden digest for {case}: write them with LYCAN_WRITE_GOLDEN=1"
    assert got == golden[case], f"{case}: records or prompts changed for the same seeds"


def test_the_digest_sees_a_change_of_one_utterance() -> None:
    """The check can fail: one word more in one game changes the digest."""

    def chatty(request: Any) -> str:
        from scripted import sensible

        text = sensible(request)
        return text + " Indeed." if request.json_schema is None and request.seed % 7 == 0 else text

    async def digest(model_for: Any) -> str:
        rules = get_preset("aiwolf5")
        model = model_for()
        session = Session(rules, lineup(["llm"] * 5, 3, model=model), 3, game_id="golden-3")
        record = await session.run()
        return hashlib.sha256(json.dumps(_without_clock(record.to_dict()), sort_keys=True).encode()).hexdigest()

    plain = asyncio.run(digest(ScriptedModel))
    assert asyncio.run(digest(ScriptedModel)) == plain  # the same game twice: the same digest
    assert asyncio.run(digest(lambda: ScriptedModel(chatty))) != plain
