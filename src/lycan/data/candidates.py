"""Talk candidates mined from what players of each role said, for agents that choose among them.

Seed 000 mined about 300 utterances per role from its games and kept about 100 after removing
near-duplicates. Here an utterance becomes a *template*: every seat name in it is replaced by a
placeholder (`{me}` for the speaker, `{0}`, `{1}` for other seats in order of first mention), so
"I suspect Player 3." learnt at one table is offered against every living seat at another.
Templates are counted per role, embedded, and kept greedily from the most frequent while no kept
template of the same role is more similar than a cosine threshold.

At play time `Candidates.for_request` instantiates the role's templates with the living seats,
drops what breaks the talk rules (length) and what the seat already said (seed 000 never repeats a
sentence; the `deepwolf` protocol forbids it), and
adds `Over` (and `Skip` where allowed).
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from lycan.data.augment import name_pattern
from lycan.data.samples import DecisionPoint
from lycan.engine.actions import OVER, SKIP, Action, Request, TalkInfo
from lycan.engine.events import Talk
from lycan.engine.view import View
from lycan.rules.talk import cut_talk, spoken_length

Embed = Callable[[Sequence[str]], npt.NDArray[np.float32]]
"""Embeds texts as rows (any sentence encoder; cosine similarity is taken on them)."""

_PLACEHOLDER = re.compile(r"\{(me|\d)\}")
#: The most seats one template may mention besides the speaker.
MAX_MENTIONS = 2
#: Characters (spaces not counted) a candidate may have where the rules set no length limit.
UNLIMITED_CAP = 200


def template_of(text: str, names: tuple[str, ...], speaker: int) -> str | None:
    """`text` with seat names as placeholders, or None when it mentions too many seats or has braces."""
    if "{" in text or "}" in text:
        return None
    index = {name: s for s, name in enumerate(names)}
    order: list[int] = []

    def slot(m: re.Match[str]) -> str:
        seat = index[m.group(0)]
        if seat == speaker:
            return "{me}"
        if seat not in order:
            order.append(seat)
        return "{" + str(order.index(seat)) + "}"

    out = name_pattern(names).sub(slot, " ".join(text.split()))
    return out if len(order) <= MAX_MENTIONS else None


def fill(template: str, me: str, others: Sequence[str]) -> str:
    """`template` with `{me}` and `{0}`, `{1}` replaced."""
    return _PLACEHOLDER.sub(lambda m: me if m.group(1) == "me" else others[int(m.group(1))], template)


def mentions(template: str) -> int:
    """How many other seats `template` names."""
    return len({m.group(1) for m in _PLACEHOLDER.finditer(template) if m.group(1) != "me"})


@dataclass
class Candidates:
    """Talk templates per role (most frequent first)."""

    by_role: dict[str, list[str]] = field(default_factory=dict)
    counts: dict[str, list[int]] = field(default_factory=dict)

    def for_request(self, view: View, request: Request) -> list[Action]:
        """Every legal talk candidate for `view`'s seat now: instantiated templates, then Over (and Skip)."""
        out: list[Action] = []
        info = request.info if isinstance(request.info, TalkInfo) else None
        said = {e.text for e in view.events if isinstance(e, Talk) and e.actor == view.seat}
        others = [s for s in view.living() if s != view.seat]
        seen: set[str] = set()
        limits = view.rules.options.talk if request.kind == "talk" else view.rules.options.whisper_limits
        for template in self.by_role.get(view.role.value, []):
            k = mentions(template)
            for chosen in itertools.permutations(others, k):
                text = fill(template, view.names[view.seat], [view.names[s] for s in chosen])
                if text in seen or cut_talk(text, limits, view.names) != text:
                    continue
                if not limits.max_length and spoken_length(text) > UNLIMITED_CAP:
                    continue
                if text in said:  # never a sentence twice (the seed's rule, and illegal under `no_repeat`)
                    continue
                if info is not None and info.remain_length is not None and spoken_length(text) > info.remain_length:
                    continue
                seen.add(text)
                out.append(Action.speak(text))
        out.append(OVER)
        if request.can_skip:
            out.append(SKIP)
        return out

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"by_role": self.by_role, "counts": self.counts}

    def save(self, path: Path) -> None:
        """Write the templates as JSON."""
        path.write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Candidates:
        """Read templates written by `save`.

        Raises:
            ValueError: the file is not a candidates file.
        """
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            by_role = {str(r): [str(t) for t in ts] for r, ts in data["by_role"].items()}
            counts = {str(r): [int(c) for c in cs] for r, cs in data.get("counts", {}).items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"cannot read talk candidates from {path}: {err}") from err
        return cls(by_role, counts)


def mine(
    points: Iterable[DecisionPoint],
    embed: Embed,
    *,
    per_role: int = 100,
    threshold: float = 0.9,
    min_count: int = 1,
) -> Candidates:
    """Templates of the utterances each role spoke in public talk, near-duplicates removed.

    A template is kept, most frequent first, unless a template already kept for the role has a
    cosine similarity above `threshold` with it; at most `per_role` per role, each said at least
    `min_count` times.
    """
    counts: dict[str, Counter[str]] = {}
    for p in points:
        if p.request.kind != "talk" or p.action.kind != "speak" or not p.action.text:
            continue
        template = template_of(p.action.text, p.view.names, p.seat)
        if template:
            counts.setdefault(p.role.value, Counter())[template] += 1
    out = Candidates()
    for role, counter in sorted(counts.items()):
        ranked = [(t, c) for t, c in counter.most_common() if c >= min_count]
        if not ranked:
            continue
        shown = [fill(t, "Player 1", ["Player 2", "Player 3"]) for t, _ in ranked]
        vectors = np.asarray(embed(shown), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        kept: list[int] = []
        for i in range(len(ranked)):
            if len(kept) >= per_role:
                break
            if kept and float(np.max(vectors[kept] @ vectors[i])) > threshold:
                continue
            kept.append(i)
        out.by_role[role] = [ranked[i][0] for i in kept]
        out.counts[role] = [ranked[i][1] for i in kept]
    return out
