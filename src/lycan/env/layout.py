"""The fixed action layout of the environments: every answer a seat can give, as one index.

For a table of `n` seats the `Discrete` action space is laid out as

- `0 .. n-1`: choose seat `i` (vote, attack, divine, guard, cure, poison, shoot);
- `n`: pass (a potion or a hunter's shot not used);
- `n+1`: Over (stop talking today);
- `n+2`: Skip (let the turn go by, where the rules allow it);
- `n+3 .. n+6`: bid 0 to 3 for the floor (the `bidding` talk protocol);
- `n+7 ..`: talk templates (`talk="templates"` only): first the plain ones (`PLAIN_TEMPLATES`),
  then each targeted template (`TARGETED_TEMPLATES`) once per seat, in seat order.

The templates are the sentences of `lycan.agents.speech`, so the heuristic agents read what an
environment seat says (its claims, results, suspicions and votes) as they read each other. With
`talk="text"` there are no templates: a talk or whisper request is answered with a `str` (the
utterance), or with Over or Skip.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from lycan.agents import speech
from lycan.engine.actions import MAX_BID, OVER, PASS, SKIP, TALK_KINDS, Action, Request
from lycan.rules.roles import Species

TalkMode = Literal["templates", "text"]

#: Untargeted sentences: a role claim for every claimable role, a greeting, "no suspicion yet",
#: and the werewolves' whispered plan to fake a seer claim.
PLAIN_TEMPLATES: tuple[str, ...] = (
    *(speech.claim(role) for role in speech.CLAIMABLE_ROLES),
    speech.GREETING,
    speech.NOTHING_YET,
    speech.FAKE_PLAN,
)

#: Sentences about one seat, by name: `(key, sentence of a seat name)`.
TARGETED_TEMPLATES: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("suspect", speech.suspect),
    ("trust", speech.trust),
    ("vote", speech.vote),
    ("divined_werewolf", lambda name: speech.divined(name, Species.WEREWOLF, 0, 1)),
    ("divined_human", lambda name: speech.divined(name, Species.HUMAN, 0, 1)),
    ("medium_werewolf", lambda name: speech.medium_reading(name, Species.WEREWOLF)),
    ("medium_human", lambda name: speech.medium_reading(name, Species.HUMAN)),
    ("protected", speech.protected),
    ("liar", speech.liar),
    ("attack", speech.attack),
)

_CHOOSE_KINDS = frozenset({"vote", "attack", "divine", "guard", "cure", "poison", "shoot"})


class ActionLayout:
    """Maps action indices to Lycan `Action`s and back, and builds action masks.

    Args:
        names: the seat names, in seat order (targeted templates name seats).
        talk: `"templates"` (talk templates in the action space) or `"text"` (none; talk is a `str`).
    """

    def __init__(self, names: Sequence[str], talk: TalkMode = "templates") -> None:
        if talk not in ("templates", "text"):
            raise ValueError(f"talk must be 'templates' or 'text', not {talk!r}")
        self.names = tuple(names)
        self.talk: TalkMode = talk
        n = len(self.names)
        self.n = n
        self.PASS = n
        self.OVER = n + 1
        self.SKIP = n + 2
        self.BID = n + 3
        self.TEMPLATES = n + 4 + MAX_BID
        templates: list[tuple[str, int | None]] = []
        if talk == "templates":
            templates += [(text, None) for text in PLAIN_TEMPLATES]
            for _, sentence in TARGETED_TEMPLATES:
                templates += [(sentence(name), seat) for seat, name in enumerate(self.names)]
        self.templates: tuple[tuple[str, int | None], ...] = tuple(templates)
        """Every template as `(sentence, seat it names or None)`, in index order from `TEMPLATES`."""
        self.size = self.TEMPLATES + len(self.templates)
        self._by_text = {text: self.TEMPLATES + i for i, (text, _) in enumerate(self.templates)}
        self._talk_masks: dict[tuple[int, bool], npt.NDArray[np.int8]] = {}

    def action(self, index: int) -> Action:
        """The Lycan action of `index`.

        Raises:
            ValueError: `index` is outside the action space.
        """
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside the action space (0 to {self.size - 1})")
        if index < self.n:
            return Action.choose(index)
        if index == self.PASS:
            return PASS
        if index == self.OVER:
            return OVER
        if index == self.SKIP:
            return SKIP
        if index < self.TEMPLATES:
            return Action("bid", amount=index - self.BID)
        return Action.speak(self.templates[index - self.TEMPLATES][0])

    def index(self, action: Action) -> int | None:
        """The index of `action`, or None if it has none (speech that is no template, a probe)."""
        if action.kind == "choose" and action.target is not None and 0 <= action.target < self.n:
            return action.target
        if action.kind == "speak":
            return self._by_text.get(action.text.strip())
        if action.kind == "bid" and 0 <= action.amount <= MAX_BID:
            return self.BID + action.amount
        return {"pass": self.PASS, "over": self.OVER, "skip": self.SKIP}.get(action.kind)

    def describe(self, index: int) -> str:
        """A short human-readable form of action `index`, e.g. `choose Player 3` or `speak 'I trust Player 2.'`."""
        return self.action(index).describe(self.names)

    def mask(self, request: Request | None, said: Collection[str] = ()) -> npt.NDArray[np.int8]:
        """1 for every index that legally answers `request` (all 0 for no request).

        `said` holds the seat's earlier utterances: a request that forbids repeating a sentence
        (`no_repeat`, the `deepwolf` protocol) masks those templates out.
        """
        out = np.zeros(self.size, dtype=np.int8)
        if request is None:
            return out
        kind = request.kind
        if kind in TALK_KINDS:
            out[:] = self._talk_mask(request.seat, request.can_skip)
            if said and request.talk.no_repeat:
                for text in said:
                    i = self._by_text.get(text)
                    if i is not None:
                        out[i] = 0
        elif kind == "bid":
            out[self.BID : self.BID + MAX_BID + 1] = 1
        elif kind in _CHOOSE_KINDS:
            out[list(request.targets)] = 1
            if request.can_pass:
                out[self.PASS] = 1
        elif request.can_pass:  # a probe: only passing has an index
            out[self.PASS] = 1
        return out

    def _talk_mask(self, seat: int, can_skip: bool) -> npt.NDArray[np.int8]:
        key = (seat, can_skip)
        cached = self._talk_masks.get(key)
        if cached is None:
            cached = np.zeros(self.size, dtype=np.int8)
            cached[self.OVER] = 1
            if can_skip:
                cached[self.SKIP] = 1
            for i, (_, target) in enumerate(self.templates):
                if target != seat:
                    cached[self.TEMPLATES + i] = 1
            self._talk_masks[key] = cached
        return cached
