"""Observations: what one seat's view and its own pending request say, as text and as numbers.

An observation is computed from `Session.view(seat)` and the request that seat is asked, nothing
else, so it holds exactly what the seat may know. It is a dict:

- `"observation"`: a float32 vector (the layout is `ObservationBuilder.feature_names()`): the seat's own
  role (one-hot), its seat (one-hot), who is alive, the werewolves it knows of (its pack, if it is
  one), the seats its own divinations or medium readings found werewolf or human, the votes each
  seat received in the latest vote round it saw, how often each seat spoke today, the last role
  each seat claimed in public talk (one-hot over `speech.CLAIMABLE_ROLES`), the day, the phase
  (one-hot), the kind of request it is asked now (one-hot, or none) and whether that request is a
  retry after a refused answer;
- `"text"`: the seat's view as plain English lines (`lycan.render`, second person for its own
  facts), then one line saying what is asked of it now. Characters outside printable ASCII are
  replaced (the em dash by `-`, others by `?`). Text longer than the space's `max_length` keeps
  its first lines (the table and the seat's role), a line `[N earlier lines omitted]`, and the
  most recent lines that fit;
- `"action_mask"`: int8, 1 for each legal action index (`ActionLayout.mask`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, get_args

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from lycan.agents import speech
from lycan.engine.actions import TALK_KINDS, Request, RequestKind
from lycan.engine.events import Divined, MediumResult, PhaseStarted, Talk, VoteCast, WolfPack
from lycan.engine.view import View
from lycan.env.layout import ActionLayout
from lycan.render import REQUEST_TITLES, describe_event
from lycan.rules.roles import Role, Species
from lycan.rules.ruleset import RuleSet

DEFAULT_MAX_TEXT = 32_768
"""Default `max_length` of the text observation (characters); longer views are cut as described above."""

ROLES: tuple[Role, ...] = tuple(Role)
REQUEST_KINDS: tuple[str, ...] = get_args(RequestKind)
PHASES = ("setup", "day", "night", "end")
CLAIMS = speech.CLAIMABLE_ROLES
MAX_COUNT = 255
"""Talk counts are capped at this value in the vector."""

#: The characters the text observation may hold: printable ASCII and the newline.
TEXT_CHARSET = frozenset(chr(c) for c in range(32, 127)) | {"\n"}
_ASCII = str.maketrans({"—": "-", "–": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "…": "...", "\t": " "})
_OTHER = re.compile(r"[^\n\x20-\x7e]")
_VILLAGER_CLAIM = re.compile(r"\bI(?: am|'m) (?:the|a) villager\b", re.IGNORECASE)


def ascii_text(text: str) -> str:
    """`text` within `TEXT_CHARSET`: dashes and quotes made ASCII, any other character `?`."""
    if not text.isascii():
        text = text.replace("—", "-")  # every timed line has one: the fast path
        if not text.isascii():
            text = text.translate(_ASCII)
    return _OTHER.sub("?", text)


@dataclass
class _Seen:
    """What one seat has read of its view so far, kept up to date incrementally."""

    n: int
    seen: int = 0
    lines: list[str] = field(default_factory=list)
    head: int | None = None
    pack: npt.NDArray[np.float32] = field(init=False)
    found_wolf: npt.NDArray[np.float32] = field(init=False)
    found_human: npt.NDArray[np.float32] = field(init=False)
    votes: npt.NDArray[np.float32] = field(init=False)
    vote_key: tuple[int, int] | None = None
    talks: npt.NDArray[np.float32] = field(init=False)
    claims: npt.NDArray[np.float32] = field(init=False)
    said: set[str] = field(default_factory=set)
    body: tuple[int, str] = (-1, "")

    def __post_init__(self) -> None:
        n = self.n
        self.pack = np.zeros(n, np.float32)
        self.found_wolf = np.zeros(n, np.float32)
        self.found_human = np.zeros(n, np.float32)
        self.votes = np.zeros(n, np.float32)
        self.talks = np.zeros(n, np.float32)
        self.claims = np.zeros((n, len(CLAIMS)), np.float32)


class ObservationBuilder:
    """Builds the observations of one game's seats; call `reset()` at the start of every game.

    Args:
        rules: the rule set (seat count, `max_days`).
        names: the seat names.
        layout: the action layout (masks).
        max_text: `max_length` of the text observation.
    """

    def __init__(self, rules: RuleSet, names: tuple[str, ...], layout: ActionLayout, max_text: int = DEFAULT_MAX_TEXT):
        if max_text < 64:
            raise ValueError(f"max_text_length must be at least 64 characters, not {max_text}")
        self.names = names
        self.n = len(names)
        self.layout = layout
        self.max_text = max_text
        self.max_days = rules.options.max_days
        self._parser = speech.parser_for(names)
        self._claim_index = {role: i for i, role in enumerate(CLAIMS)}
        self._seen: list[_Seen] = []
        low, high = self._bounds()
        self.vector_space = spaces.Box(low, high, dtype=np.float32)
        self.size = int(low.shape[0])

    def space(self) -> spaces.Dict:
        """A new observation space (each agent gets its own object, equal to the others)."""
        return spaces.Dict(
            {
                "observation": spaces.Box(self.vector_space.low, self.vector_space.high, dtype=np.float32),
                "text": spaces.Text(self.max_text, min_length=0, charset=TEXT_CHARSET),
                "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
            }
        )

    def feature_names(self) -> list[str]:
        """The name of every element of the vector, in order (e.g. `alive[2]`, `claim[4]=seer`)."""
        n = range(self.n)
        out = [f"role={r.value}" for r in ROLES]
        for block in ("seat", "alive", "pack", "found_werewolf", "found_human", "votes", "talks_today"):
            out += [f"{block}[{s}]" for s in n]
        out += [f"claim[{s}]={role}" for s in n for role in CLAIMS]
        out.append("day")
        out += [f"phase={p}" for p in PHASES]
        out += ["request=none", *(f"request={k}" for k in REQUEST_KINDS)]
        out.append("retry")
        return out

    def _bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        n = self.n
        ones = [1.0] * (len(ROLES) + 5 * n)
        high = [*ones, *([float(n)] * n), *([float(MAX_COUNT)] * n), *([1.0] * (len(CLAIMS) * n))]
        high += [float(self.max_days + 1), *([1.0] * len(PHASES)), *([1.0] * (len(REQUEST_KINDS) + 1)), 1.0]
        hi = np.array(high, dtype=np.float32)
        return np.zeros_like(hi), hi

    # ----------------------------------------------------------------- per game
    def reset(self) -> None:
        """Forget the previous game."""
        self._seen = [_Seen(self.n) for _ in range(self.n)]

    def said(self, view: View) -> set[str]:
        """The utterances the seat of `view` has made so far."""
        return self._update(view).said

    def observe(self, view: View, request: Request | None, *, over: bool = False) -> dict[str, Any]:
        """The observation of `view`'s seat, asked `request` (None: nothing asked now).

        `over` says the game has ended (the last line says so).
        """
        seen = self._update(view)
        now = self._now(request, over)
        text = self._text(seen, now)
        vector = self._vector(view, seen, request)
        return {"observation": vector, "text": text, "action_mask": self.layout.mask(request, seen.said)}

    def _update(self, view: View) -> _Seen:
        seen = self._seen[view.seat]
        events = view.events
        if seen.seen == len(events):
            return seen
        if not seen.lines:
            seen.lines.append(f"You are {view.name}.")
        names = self.names
        me = view.seat
        for e in events[seen.seen :]:
            if isinstance(e, PhaseStarted) and seen.head is None:
                seen.head = len(seen.lines)
            line = describe_event(e, names, viewer=me)
            if line is not None:
                seen.lines.append(ascii_text(line))
            if isinstance(e, Talk):
                if e.over or e.skip:
                    continue
                if e.actor == me:
                    seen.said.add(e.text)
                if e.channel == "talk":
                    seen.talks[e.actor] = min(seen.talks[e.actor] + 1, MAX_COUNT)
                    claimed = [st.role for st in self._parser.parse(e.text, e.actor) if st.kind == "claim"]
                    if _VILLAGER_CLAIM.search(e.text):
                        claimed.append("villager")
                    for role in claimed:
                        seen.claims[e.actor] = 0
                        seen.claims[e.actor, self._claim_index[role]] = 1
            elif isinstance(e, PhaseStarted):
                if e.phase == "day":
                    seen.talks[:] = 0
            elif isinstance(e, VoteCast):
                key = (e.day, e.round)
                if key != seen.vote_key:
                    seen.votes[:] = 0
                    seen.vote_key = key
                seen.votes[e.target] += 1
            elif isinstance(e, WolfPack):
                seen.pack[list(e.members)] = 1
            elif isinstance(e, Divined | MediumResult) and e.actor == me:
                found = seen.found_wolf if e.result is Species.WEREWOLF else seen.found_human
                found[e.target] = 1
        seen.seen = len(events)
        return seen

    def _now(self, request: Request | None, over: bool) -> str:
        if request is None:
            return "Now: the game is over." if over else "Now: nothing is asked of you."
        title = REQUEST_TITLES.get(request.kind, request.kind)
        parts = [f"Now: {title}" if title.endswith("?") else f"Now: {title}."]
        if request.kind in TALK_KINDS:
            parts.append("Speak, or say Over" + (" (or Skip)." if request.can_skip else "."))
        elif request.kind == "bid":
            parts.append("Bid 0 to 3.")
        elif request.targets:
            who = ", ".join(self.names[t] for t in request.targets)
            parts.append(f"Choose one of: {who}" + (", or pass." if request.can_pass else "."))
        if request.error:
            parts.append(f"Your previous answer was refused: {request.error}.")
        return ascii_text(" ".join(parts))

    def _text(self, seen: _Seen, now: str) -> str:
        lines = seen.lines
        if seen.body[0] != len(lines):
            seen.body = (len(lines), "\n".join(lines))
        body = seen.body[1]
        if len(body) + 1 + len(now) <= self.max_text:
            return f"{body}\n{now}"
        head = lines[: seen.head if seen.head is not None else 1]
        budget = self.max_text - len(now) - sum(len(h) + 1 for h in head) - 40
        kept: list[str] = []
        for line in reversed(lines[len(head) :]):
            if len(line) + 1 > budget:
                break
            kept.append(line)
            budget -= len(line) + 1
        dropped = len(lines) - len(head) - len(kept)
        text = "\n".join([*head, f"[{dropped} earlier lines omitted]", *reversed(kept), now])
        return text[-self.max_text :]

    def _vector(self, view: View, seen: _Seen, request: Request | None) -> npt.NDArray[np.float32]:
        n = self.n
        out = np.zeros(self.size, dtype=np.float32)
        out[ROLES.index(view.role)] = 1
        i = len(ROLES)
        out[i + view.seat] = 1
        i += n
        out[i : i + n] = view.alive
        i += n
        for block in (seen.pack, seen.found_wolf, seen.found_human, seen.votes, seen.talks):
            out[i : i + n] = block
            i += n
        out[i : i + n * len(CLAIMS)] = seen.claims.reshape(-1)
        i += n * len(CLAIMS)
        out[i] = view.day
        i += 1
        out[i + PHASES.index(view.phase)] = 1
        i += len(PHASES)
        kind = 0 if request is None else 1 + REQUEST_KINDS.index(request.kind)
        out[i + kind] = 1
        i += len(REQUEST_KINDS) + 1
        out[i] = 1.0 if request is not None and request.attempt > 0 else 0.0
        return out
