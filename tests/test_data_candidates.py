"""Talk candidates: templates mined per role, near-duplicates dropped, instantiated legally at play time."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from lycan.agents import make_agent
from lycan.data.candidates import Candidates, fill, mentions, mine, template_of
from lycan.data.samples import decision_points
from lycan.engine import run_sync
from lycan.engine.actions import OVER, Request, TalkInfo
from lycan.engine.seeds import derive
from lycan.rules import Role, get_preset

NAMES = ("Player 1", "Player 2", "Player 3", "Player 13", "Player 5")


def bag_of_words(texts):  # type: ignore[no-untyped-def]
    """A deterministic stand-in encoder: hashed word counts."""
    out = np.zeros((len(texts), 64), dtype=np.float32)
    for i, text in enumerate(texts):
        for word in text.lower().split():
            out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1
    return out


def test_templates_name_the_speaker_and_others_by_placeholder() -> None:
    assert template_of("I suspect Player 13 and Player 1.", NAMES, 0) == "I suspect {0} and {me}."
    assert template_of("I suspect Player 13 and  Player 1.", NAMES, 4) == "I suspect {0} and {1}."
    assert template_of("Player 2, Player 3 and Player 5 are wolves", NAMES, 0) is None  # three others
    assert template_of("a {weird} line", NAMES, 0) is None
    t = "I trust {1} but I vote for {0}."
    assert mentions(t) == 2 and fill(t, "Ann", ["Bob", "Cy"]) == "I trust Cy but I vote for Bob."


def _points(n: int):  # type: ignore[no-untyped-def]
    rules = get_preset("aiwolf5")
    for seed in range(n):
        record = run_sync(rules, [make_agent("heuristic", derive(seed, "agent", s)) for s in range(5)], seed)
        yield from decision_points(record)


def test_mining_keeps_frequent_templates_per_role_without_near_duplicates(tmp_path: Path) -> None:
    cands = mine(_points(30), bag_of_words, per_role=20, threshold=0.95)
    assert set(cands.by_role) <= {r.value for r in Role} and "seer" in cands.by_role
    assert any("divined" in t for t in cands.by_role["seer"])
    for role, templates in cands.by_role.items():
        assert len(templates) <= 20 and len(set(templates)) == len(templates)
        assert cands.counts[role] == sorted(cands.counts[role], reverse=True)
        vectors = bag_of_words([fill(t, "Player 1", ["Player 2", "Player 3"]) for t in templates])
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        sims = vectors @ vectors.T - np.eye(len(templates)) * 2
        assert sims.max() <= 0.95 + 1e-6
        assert all("Player" not in t for t in templates)  # names became placeholders
    path = tmp_path / "c.json"
    cands.save(path)
    assert Candidates.load(path).by_role == cands.by_role
    path.write_text("[]")
    with pytest.raises(ValueError, match="cannot read talk candidates"):
        Candidates.load(path)


def test_candidates_are_legal_talk_for_the_seat_now() -> None:
    cands = Candidates({"villager": ["I suspect {0}.", "I am {me}.", "{0} and {1} argue.", "x" * 400]})
    rules = get_preset("aiwolf5")
    record = run_sync(rules, [make_agent("heuristic", derive(3, "agent", s)) for s in range(5)], 3)
    point = next(p for p in decision_points(record) if p.role is Role.VILLAGER and p.request.kind == "talk")
    view = point.view
    request = Request(0, view.seat, "talk", view.day, can_skip=True, info=TalkInfo(no_repeat=True))
    actions = cands.for_request(view, request)
    texts = [a.text for a in actions if a.kind == "speak"]
    living = [s for s in view.living() if s != view.seat]
    assert len([t for t in texts if t.startswith("I suspect")]) == len(living)
    assert f"I am {view.names[view.seat]}." in texts
    assert len([t for t in texts if t.endswith("argue.")]) == len(living) * (len(living) - 1)
    assert not any(t.startswith("x") for t in texts)  # over the aiwolf5 length limit
    assert actions[-2] == OVER and actions[-1].kind == "skip"
