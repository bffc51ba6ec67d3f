"""A learned reader behind the talk reader's rules: accusations, votes, defences, results and protections.

The rules of `lycan.beliefs.reader` read what they were written for, and each new hand of players
says "I'm voting X" in ways no rule foresaw: on every new labelled set, recall of votes and
accusations was well below that of the sets the rules were built on. Rules do not grow with data;
a model trained on every labelled set does. This is that model, kept small and exact:

- an example is one seat named in a line (not the speaker), its features the words of the
  sentences that name it, with that seat as `TGT`, the speaker as `ME` and any other seat as `OTH`
  (so nothing is learned about names): words, word pairs, the words at each distance up to two
  from the seat, the words near it, and letter runs of four around it ("sus", "wolfy", "scum");
- the features are hashed (CRC-32) into `N_FEATURES` slots, counted and L2-normalised, and one
  logistic regression per kind gives P(the speaker states this kind about that seat);
- the reader asks it only where its rules left a clause unread that names the seat, adds a
  statement at `THRESHOLD` or above that the rules did not read, and never one that contradicts
  what they did (an accusation of a seat they read as defended, or the reverse);
- results and protections ("Dropped in on Farah last night, she's totally human"): asked only of a
  speaker who claims the role that gets them (seer, medium, guardian; in the line or earlier at the
  table, the `role:` features), about a seat named beside a species word, at `RESULT_THRESHOLD`.

Training (`lycan.train.opinions`, scikit-learn from the `train` extra) uses the labelled sets' `dev`
parts only: the held-out parts stay a fair test. The shipped weights (`params/opinions.npz`) are
rebuilt with `lycan beliefs reader-fit FILES...`; reading needs only numpy.
"""

from __future__ import annotations

import functools
import itertools
import re
import zlib
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import ClassVar, Protocol

import numpy as np

KINDS: tuple[str, ...] = ("accuses", "will_vote", "defends", "result_human", "result_werewolf", "guarded", "liar")
"""The statement kinds the model reads, in the order of its weight rows: opinions, then a result the
speaker reports of the seat (a seer's divination or a medium's reading, by the role the speaker
claims) and a protection the speaker says it gave."""
OPINION_KINDS: tuple[str, ...] = ("accuses", "will_vote", "defends", "liar")
"""The opinions among `KINDS` (a liar call: the seat claims a role falsely)."""
RESULT_KINDS: dict[str, str] = {"result_human": "human", "result_werewolf": "werewolf"}
"""The result kinds among `KINDS`, with the species each reports."""
AFTER_KINDS: frozenset[str] = frozenset({*RESULT_KINDS, "guarded"})
"""The kinds read from the next sentence's words as well ("Checked Ken. Human."); an opinion is not
("Ken you have the wrong person. I'm not a wolf." accuses nobody)."""
N_FEATURES = 2**18
"""Hash slots of the features."""
THRESHOLD = 0.7
"""P at or above which the reader adds the statement (measured on the held-out sets: BENCHMARKS.md)."""
CLAIM_THRESHOLD = 0.7
"""P at or above which the reader adds a role claim the rules did not read (asked only of a line in
which they read none)."""
RESULT_THRESHOLD = 0.5
"""P at or above which the reader adds a result or a protection: these are asked only of a speaker who
claims the role that gets them, about a seat named beside a species word (for results), so a lower
bar keeps the precision of the rules (measured on the held-out sets: BENCHMARKS.md)."""
CONFIDENCE = 0.8
"""The confidence of a statement the model adds: about the precision of its additions on held-out sets."""

SEAT_TOKEN = re.compile(r"⟨(\d+)⟩")
"""A seat as the reader writes it in a sentence."""
_WORD = re.compile(r"[a-z']+|TGT|ME|OTH|[?!]")


def features(sentences: Sequence[str], target: int, speaker: int | None, roles: Collection[str] = ()) -> list[str]:
    """The features of `target` in a line read as `sentences` (the reader's, seats as `⟨seat⟩` tokens).

    `roles`: the roles the speaker claims, in the line or earlier at the table (a seer's "Ken is
    human" is a result, a villager's an opinion). The words of a sentence that follows one naming
    the seat and names no seat itself count too, marked `nx:` ("Checked Ken. Human."): only the
    kinds in `AFTER_KINDS` are read from them (`plain` leaves them out).
    """

    def mark(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return " TGT " if seat == target else " ME " if seat == speaker else " OTH "

    token = f"⟨{target}⟩"
    out: list[str] = []
    naming = [s for s in sentences if token in s]
    for sentence in naming:
        w = _WORD.findall(SEAT_TOKEN.sub(mark, sentence))
        out += _around(w, "TGT")
        out.append(f"names:{min(3, len(set(SEAT_TOKEN.findall(sentence))))}")
    for i, sentence in enumerate(sentences[:-1]):
        after = sentences[i + 1]
        if token in sentence and not SEAT_TOKEN.search(after):
            out += [f"nx:{w}" for w in _WORD.findall(after)[:8]]
    out.append(f"sentences:{min(3, len(naming))}")
    out += [f"role:{r}" for r in sorted(roles)] or ["role:none"]
    return out


def _around(w: Sequence[str], token: str) -> list[str]:
    """A sentence's words `w`, their pairs, and at each `token` the words near it and letter runs of four."""
    out = [*w, *(f"{a}_{b}" for a, b in itertools.pairwise(w))]
    for i in (i for i, x in enumerate(w) if x == token):
        for j in range(max(0, i - 4), min(len(w), i + 5)):
            if j != i:
                out.append(f"n{j - i}:{w[j]}" if abs(j - i) <= 2 else f"near:{w[j]}")
        window = " ".join(w[max(0, i - 5) : i + 6])
        out += ["c:" + window[j : j + 4].replace(" ", "_") for j in range(len(window) - 3)]
    return out


def plain(feats: Iterable[str]) -> list[str]:
    """`feats` without the next sentence's words: what the kinds not in `AFTER_KINDS` are read from."""
    return [f for f in feats if not f.startswith("nx:")]


def slot(feature: str) -> int:
    """The hash slot of a feature (CRC-32, `N_FEATURES` slots)."""
    return zlib.crc32(feature.encode()) & (N_FEATURES - 1)


def vector(feats: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
    """The hashed, counted, L2-normalised features: slots (sorted) and values."""
    counts = Counter(slot(f) for f in feats)
    slots = np.array(sorted(counts), dtype=np.int64)
    values = np.array([counts[s] for s in slots], dtype=np.float64)
    norm = float(np.linalg.norm(values))
    return slots, (values / norm if norm else values)


@dataclass(frozen=True)
class OpinionModel:
    """Logistic regressions over hashed features, stored sparse: the slots any weight uses, one row per kind."""

    reads_questions: ClassVar[bool] = False
    """Words and word pairs do not tell a question that asks from one that accuses: a seat named only
    in questions is not asked about (`EncoderOpinionModel` is)."""
    slots: np.ndarray
    """Sorted feature slots with a weight (int64)."""
    weights: np.ndarray
    """(len(KINDS), len(slots)) weights."""
    bias: np.ndarray
    """(len(KINDS),) intercepts."""
    threshold: float = THRESHOLD
    """P at or above which the reader adds an opinion this model gives."""

    def predict(
        self, sentences: Sequence[str], target: int, speaker: int | None, roles: Collection[str] = ()
    ) -> dict[str, float]:
        """P(the speaker states each kind about `target`), from the line's `sentences` (`features`)."""
        feats = features(sentences, target, speaker, roles)
        both = (self.scores(plain(feats)), self.scores(feats))
        return {k: both[k in AFTER_KINDS][i] for i, k in enumerate(KINDS)}

    def scores(self, feats: Iterable[str]) -> list[float]:
        """P of each row's kind, from the features of one example."""
        slots, values = vector(feats)
        if not len(self.slots):
            return [float(1.0 / (1.0 + np.exp(-z))) for z in self.bias]
        at = np.searchsorted(self.slots, slots)
        at = np.minimum(at, len(self.slots) - 1)
        known = self.slots[at] == slots
        logits = self.weights[:, at[known]] @ values[known] + self.bias
        return [float(1.0 / (1.0 + np.exp(-z))) for z in logits]

    def save(self, path: str | Path) -> None:
        """Write the model as a compressed `.npz` (float16 weights)."""
        np.savez_compressed(
            path,
            slots=self.slots.astype(np.int32),
            weights=self.weights.astype(np.float16),
            bias=self.bias.astype(np.float32),
        )

    @classmethod
    def load(cls, path: str | Path) -> OpinionModel:
        """A model written by `save`."""
        with np.load(path) as data:
            return cls(
                data["slots"].astype(np.int64),
                data["weights"].astype(np.float32),
                data["bias"].astype(np.float64),
            )


class SeatOpinions(Protocol):
    """What the talk reader asks a learned model: P(the speaker states each kind about a named seat)."""

    @property
    def threshold(self) -> float:
        """P at or above which the reader adds an opinion (an accusation, a vote, a defence, a liar call)."""
        ...

    @property
    def reads_questions(self) -> bool:
        """Whether the reader may ask it about a seat named only in questions (the point of a rhetorical one)."""
        ...

    def predict(
        self, sentences: Sequence[str], target: int, speaker: int | None, roles: Collection[str] = ()
    ) -> dict[str, float]:
        """P(the speaker states each kind of `KINDS` about `target`), from the line's `sentences`."""
        ...


@functools.cache
def shipped_ngram_model() -> OpinionModel:
    """The shipped hashed model (`lycan/beliefs/params/opinions.npz`)."""
    with resources.as_file(resources.files("lycan.beliefs") / "params" / "opinions.npz") as path:
        return OpinionModel.load(path)


ROLE_TOKEN = re.compile(r"⟦(\w+)⟧")
"""A role word as `claim_features` is given it: `⟦seer⟧` for any word the reader knows for the seer."""


def claim_features(sentences: Sequence[str], role: str, speaker: int | None, before: str = "") -> list[str]:
    """The features of "the speaker claims `role`" in a line read as `sentences`.

    The sentences hold seats as `⟨seat⟩` tokens and role words as `⟦role⟧` tokens (the reader
    writes both); `role`'s own become `ROLE`, other roles `RX`, the speaker `ME`, other seats `OTH`.
    `before`: the role the speaker claimed earlier at the table ("" if none).
    """

    def mark(sentence: str) -> str:
        sentence = SEAT_TOKEN.sub(lambda m: " ME " if int(m.group(1)) == speaker else " OTH ", sentence)
        return ROLE_TOKEN.sub(lambda m: " ROLE " if m.group(1) == role else " RX ", sentence)

    out: list[str] = []
    naming = [s for s in sentences if f"⟦{role}⟧" in s]
    for n, sentence in enumerate(naming):
        w = re.findall(r"[a-z']+|ROLE|RX|ME|OTH|[?!:]", mark(sentence))
        out += _around(w, "ROLE")
        out += [f"at:{min(i, 3)}" for i, x in enumerate(w) if x == "ROLE"]
        out.append(f"first:{n == 0 and sentences.index(sentence) == 0}")
    out.append(f"r:{role}")
    out.append("before:none" if not before else "before:same" if before == role else "before:other")
    out.append(f"roles:{min(3, len({m for s in sentences for m in ROLE_TOKEN.findall(s)}))}")
    return out


@functools.cache
def default_claim_model() -> OpinionModel:
    """The shipped claim model (`lycan/beliefs/params/claims.npz`): one row, P(the speaker claims the role)."""
    with resources.as_file(resources.files("lycan.beliefs") / "params" / "claims.npz") as path:
        return OpinionModel.load(path)


__all__ = [
    "AFTER_KINDS",
    "CLAIM_THRESHOLD",
    "CONFIDENCE",
    "KINDS",
    "N_FEATURES",
    "OPINION_KINDS",
    "RESULT_KINDS",
    "RESULT_THRESHOLD",
    "ROLE_TOKEN",
    "SEAT_TOKEN",
    "THRESHOLD",
    "OpinionModel",
    "SeatOpinions",
    "claim_features",
    "default_claim_model",
    "features",
    "plain",
    "shipped_ngram_model",
    "slot",
    "vector",
]
