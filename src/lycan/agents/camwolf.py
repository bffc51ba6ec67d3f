"""CaM-Wolf's Reasoner and Performer as one agent (`camwolf`).

At the first speaking turn of each day (and at every turn with `reason_every_turn`), the Reasoner
writes one schema-constrained answer: a private `think`, role identifications, each a triple of
premises (ids of events in the seat's own view), a deduction and a conclusion (player, role),
and the delivery of what it will say: a vocal style (pace, pitch, emotion) and a vision
description (expression, gesture), together a `lycan.engine.manner.Manner`.

The Reasoner's prompt is laid out for llama.cpp's prefix reuse: the table and the task (the same
for every seat), the public log (read as a spectator reads it, so every seat's copy is the same
text; the window of earlier days changes at most twice a day), then who the seat is, what only it
knows and whom it may identify, in as few tokens as that takes. The seats that reason one after
another on a day share one KV-cache session, so each call evaluates only what is new since the
last. With shorter answers, this made a camwolf game about 40% faster, and moving the task before
the log and shortening the seat's part about 10% more (BENCHMARKS.md).

Premises are checked against the view: an id the seat cannot see, or no premise at all, is a
format error; the agent asks once more with the error shown, and if that fails too it concludes
from the belief engine instead (premises: the events that moved its posterior most) and records
the fault as a model call error.

Speech is decided, then phrased (`lycan.agents.phrasing`): the planner's agenda (claims and
results it must announce) with the accusation and vote intention steered to the player the
Reasoner concluded to be a werewolf, worded by the model and checked. Votes follow the
conclusions (on the village side only where the planner's own vote score for the concluded
werewolf is within `steer_margin` of its best), and so do the night actions they bear on (the
guardian protects a concluded seer, werewolves attack one); the probe is answered from the
conclusions, the belief engine filling the seats they leave open.

`grounding="beliefs"` shows the Reasoner the belief engine's summary with the events behind
each number, so a small model verbalises sound deductions instead of inventing them.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent
from lycan.agents.knowledge import Memory
from lycan.agents.llm import LLMAgent
from lycan.agents.parsing import ParseError, load_json_object
from lycan.agents.prompt import PromptBuilder, PromptLibrary
from lycan.engine.actions import Action, ProbeInfo, Request
from lycan.engine.events import AttackVote
from lycan.engine.manner import VOCABULARY, Manner
from lycan.engine.view import View
from lycan.models.base import ChatModel, ChatRequest, Message, ModelError, Usage
from lycan.render import event_line, neutralise
from lycan.rules.roles import Role, Species, Team, team_of

Grounding = Literal["none", "beliefs"]
GROUNDINGS: tuple[str, ...] = ("none", "beliefs")
MAX_IDENTIFICATIONS = 2
MAX_PREMISES = 3
THINK_CHARS = 48
DEDUCTION_CHARS = 56
REASON_TOKENS = 224
"""Completion tokens of one Reasoner answer (think, two identifications, the manner)."""
LOG_LINES = 40
"""The most lines of the public log shown to the Reasoner (each with its event id)."""
HISTORY_LINES = 28
"""Of those, the most from days before today (the rest is today's, which only grows)."""
PROMPT_LAYOUT = 3
"""The Reasoner prompt's layout (2: the public log first, then the seat; 3: the task moved into the
system prompt and a shorter seat part; adapters trained on another layout learned other prompts and
are retrained)."""
REASONER_TASK = (
    "Your task: identify the roles of up to {n} other living players. For each, cite as premises the ids of "
    "the events in your log it rests on, write a short deduction, and conclude the player and role. Then "
    "choose how you will speak (style) and look (vision). Answer in JSON."
)
"""The Reasoner's instruction, the same for every seat: it closes the system prompt, before the log."""
OTHERS_LINE = "Other living players: {others}."
"""The one seat-specific line of the task, last in the prompt."""
WHISPER_LINES = 4
"""The most recent werewolf whispers shown among the lines only the seat (or its pack) saw."""
PRIVATE_HEADER = "What only you know:"
"""The line before them."""
REASON_SHARE = 0.6
"""The share of a talk request's time the Reasoner may use (the phrasing gets what is left)."""
TIME_SHARE = 0.9
"""The share of a talk request's time within which the agent answers (the rest is the session's margin)."""
MIN_REASON_S = 2.0
"""Below this many seconds left, the Reasoner is not asked (the belief engine concludes instead)."""
IMPOSSIBLE = 0.01
"""Below this belief-engine probability a conclusion counts as ruled out by what the seat knows."""
CONCLUSION_CONFIDENCE = 0.7
"""The probability a probe answer gives a role the Reasoner concluded."""


@dataclass(frozen=True, slots=True)
class Identification:
    """One role identification: premises (event ids of the seat's view), a deduction, a conclusion."""

    premises: tuple[int, ...]
    deduction: str
    player: int
    role: Role

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """JSON-ready form with the player's name."""
        return {
            "premises": list(self.premises),
            "deduction": self.deduction,
            "player": names[self.player],
            "role": self.role.value,
        }


@dataclass(frozen=True, slots=True)
class Reasoning:
    """One Reasoner answer, validated: identifications and the manner of the day's speech."""

    think: str
    identifications: tuple[Identification, ...]
    manner: Manner
    fallback: bool = False


def reasoner_schema(names: Sequence[str], roles: Sequence[str], event_ids: Sequence[int]) -> dict[str, Any]:
    """The JSON schema of a Reasoner answer for a seat that may name `names` and cite `event_ids`."""
    premise: dict[str, Any] = {"type": "integer"}
    if event_ids:
        premise["enum"] = list(event_ids)
    identification = {
        "type": "object",
        "properties": {
            "premises": {"type": "array", "items": premise, "minItems": 1, "maxItems": MAX_PREMISES},
            "deduction": {"type": "string", "maxLength": DEDUCTION_CHARS},
            "player": {"type": "string", "enum": list(names)},
            "role": {"type": "string", "enum": list(roles)},
        },
        "required": ["premises", "deduction", "player", "role"],
        "additionalProperties": False,
    }

    def choice(field: str) -> dict[str, Any]:
        return {"type": "string", "enum": list(VOCABULARY[field])}

    return {
        "type": "object",
        "properties": {
            "think": {"type": "string", "maxLength": THINK_CHARS},
            "identifications": {
                "type": "array",
                "items": identification,
                "minItems": 1,
                "maxItems": MAX_IDENTIFICATIONS,
            },
            "style": {
                "type": "object",
                "properties": {k: choice(k) for k in ("pace", "pitch", "emotion")},
                "required": ["pace", "pitch", "emotion"],
                "additionalProperties": False,
            },
            "vision": {
                "type": "object",
                "properties": {k: choice(k) for k in ("expression", "gesture")},
                "required": ["expression", "gesture"],
                "additionalProperties": False,
            },
        },
        "required": ["think", "identifications", "style", "vision"],
        "additionalProperties": False,
    }


def _earlier(today: int) -> int:
    """How many rows of earlier days the public window shows beside `today` rows of today.

    All `HISTORY_LINES` while they fit, then half, then none: a count that changes at most twice a
    day keeps the prompts of one day's Reasoners sharing their prefix.
    """
    if today + HISTORY_LINES <= LOG_LINES:
        return HISTORY_LINES
    if today + HISTORY_LINES // 2 <= LOG_LINES:
        return HISTORY_LINES // 2
    return 0


def read_reasoning(text: str, view: View) -> Reasoning:
    """Validate a Reasoner answer against the seat's view.

    Raises:
        ParseError: not a JSON object, no identification, an unknown player or role, a conclusion
            about the seat itself, or a premise that is no event of the view (or none at all).
    """
    try:
        data = load_json_object(text)
    except ValueError as err:
        raise ParseError(f"the answer is not a JSON object: {err}") from None
    if not isinstance(data, dict):
        raise ParseError("the answer must be a JSON object with think, identifications, style and vision")
    raw = data.get("identifications")
    if not isinstance(raw, list) or not raw:
        raise ParseError("give at least one identification: premises, deduction, player and role")
    visible = {e.id for e in view.events}
    index = {n.lower(): s for s, n in enumerate(view.names)}
    roles = {r.value for r in view.rules.roles}
    out: list[Identification] = []
    for i, item in enumerate(raw[:MAX_IDENTIFICATIONS]):
        if not isinstance(item, dict):
            raise ParseError(f"identification {i + 1} is not an object")
        seat = index.get(str(item.get("player", "")).strip().lower())
        if seat is None or seat == view.seat:
            raise ParseError(f"identification {i + 1} names {item.get('player')!r}, who is no other player")
        role = str(item.get("role", "")).strip().lower()
        if role not in roles:
            raise ParseError(f"identification {i + 1} gives role {role!r}; choose one of {', '.join(sorted(roles))}")
        premises = item.get("premises")
        if not isinstance(premises, list) or not premises:
            raise ParseError(f"identification {i + 1} cites no premise: cite the ids of events in your log")
        ids: list[int] = []
        for p in premises[:MAX_PREMISES]:
            try:
                event_id = int(p)
            except (TypeError, ValueError):
                raise ParseError(f"identification {i + 1} cites {p!r}, which is no event id") from None
            if event_id not in visible:
                raise ParseError(f"identification {i + 1} cites event {event_id}, which is not in your log")
            ids.append(event_id)
        deduction = neutralise(str(item.get("deduction", "")), DEDUCTION_CHARS)
        if all(o.player != seat for o in out):  # a second identification of the same player adds nothing
            out.append(Identification(tuple(dict.fromkeys(ids)), deduction, seat, Role(role)))
    manner = Manner.read({**_mapping(data.get("style")), **_mapping(data.get("vision"))})
    return Reasoning(neutralise(str(data.get("think", "")), THINK_CHARS), tuple(out), manner)


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


STEER_MARGIN: float | None = 0.05
"""The village planner's default `steer_margin`, in units of its vote score (P(werewolf), the public
tie-breaker worth up to 0.09, and today's vote intentions). On the embedded model the Reasoner's
werewolf, where it differed from the belief engine's pick, was a werewolf less often (17 of 64
votes of camwolf's village seats in 154 games against react, against 32 of 64 for the engine's
pick, and the seer 15 times against 7; BENCHMARKS.md "The Reasoner's werewolf as a tie-breaker"):
it now decides only between candidates the planner scores within the margin."""


class Planner(BeliefHeuristicAgent):
    """The belief-driven heuristic, with its suspicion and vote steered to the Reasoner's werewolf.

    On the village side the steer holds only where the evidence scores the Reasoner's werewolf
    within `steer_margin` of its own best vote: the Reasoner breaks near-ties, the evidence decides
    the rest.

    As a werewolf it plays as a villager would look to a village that reasons from the evidence:
    it never fakes a seer claim, not even a counter-claim once a seer has named its pack, and it
    names whom it will vote for without arguing a case. Against belief-driven villages (the
    planner of every LLM seat on the embedded model) each of these wins games: in guardian7 the
    pack's win rate goes from 24% with the heuristic's fakes to 67% (`benchmarks/bench_wolf_policy.py`,
    BENCHMARKS.md "Werewolves against a village that reasons"), because a fake claim puts a
    werewolf beside a seer the village has every reason to believe. A werewolf votes as it said
    it would (`wolf_keeps_word`): a vote against its own words is a tell, and keeping them wins
    about 2 more games in 100 (same benchmark). A village seat may still change its mind after
    later talk: holding it to its word lost the village 3-5 games in 100.

    On the village side it never votes for the one player who has claimed seer, unless what it
    knows makes the claim false (`trust_lone_seer`): the belief-driven village executed its own
    seer on day 1 in 20 of seed 002's first 85 games (in 12 the seer was the only claimant), and
    sparing the claimant wins about 3 more games in 100 against the heuristic's werewolves (same
    benchmark). With the same trust, once that claimant has reported a werewolf still to be voted,
    the Reasoner no longer steers the vote: the seat votes from the evidence, in which the report
    weighs. On the embedded model, village seats had voted a lone true seer's werewolf in only 9 of
    21 votes (eight guardian7 and aiwolf5 games), following the Reasoner's pick instead; voting the
    reported werewolf outright instead of from the evidence cost the planner alone 0.6 games in
    100 on guardian7 (3,000 paired deals).
    """

    label = "camwolf-planner"
    steer_margin = STEER_MARGIN
    """How far below the best vote score of the evidence the Reasoner's werewolf may score and still be
    the vote (on the village side; None: the Reasoner's werewolf is the vote whatever the evidence says)."""
    wolf_fake = 0.0
    counter_claim = 0.0
    wolf_reasons = False
    wolf_keeps_word = True
    trust_lone_seer = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.steer: int | None = None

    def _vote(self, mem: Memory, view: View, targets: Sequence[int]) -> int:
        # the Reasoner's werewolf, unless the lone seer claimant this seat trusts speaks against it:
        # the claimant is never the vote, and once the claimant has reported a werewolf still to be
        # voted, the seat votes from the evidence (a village seat on a small model otherwise followed
        # the Reasoner's pick over the only seer's result)
        steer = self.steer
        lone = self._lone_seer(mem, view) if self.trust_lone_seer else None
        if lone is not None and any(
            sp is Species.WEREWOLF and t in targets for t, sp in mem.seer_claims.get(lone, {}).items()
        ):
            return super()._vote(mem, view, targets)
        spared = lone is not None and steer == lone
        if steer is not None and steer in targets and not spared and self._steerable(mem, view, targets, steer):
            return steer
        return super()._vote(mem, view, targets)

    def _steerable(self, mem: Memory, view: View, targets: Sequence[int], steer: int) -> bool:
        """Whether the planner scores the Reasoner's werewolf within `steer_margin` of its own best vote.

        A werewolf or possessed seat, or one whose posterior cannot be had (a log no deal fits),
        follows the Reasoner as before.
        """
        if self.steer_margin is None or mem.role in (Role.WEREWOLF, Role.POSSESSED):
            return True
        post = self._posterior(mem, view)
        if post is None:
            return True
        scores = self._vote_scores(mem, view, post, targets)
        return scores[steer] >= max(scores.values()) - self.steer_margin


def reasoner_identity(view: View) -> str:
    """Who the seat is, in one line: its name, role and side, and its pack if a werewolf.

    Shorter than the talking agents' brief: the Reasoner identifies roles and does not speak,
    and this part is evaluated at every call (it follows the shared log).
    """
    side = "werewolf" if team_of(view.role) is Team.WEREWOLF else "village"
    text = f"You are {neutralise(view.name, 40)}. Your secret role: {view.role.value}, on the {side} side."
    if view.role is Role.WEREWOLF:
        pack = [view.names[w] for w in view.wolves() if w != view.seat]
        text += f" Fellow werewolves: {', '.join(pack)}." if pack else " You are the only werewolf."
    return text


Row = tuple[int, str]
"""One line of the Reasoner's log: the event's id and its `[id] Day d: ...` text."""


def reasoner_log(view: View) -> tuple[list[Row], list[Row]]:
    """The seat's log as `[id] line` rows: the public window and its private lines.

    The public window is today's rows (which only grow; the last `LOG_LINES` of them) after up
    to `HISTORY_LINES` rows of earlier days, a number that only steps down, twice at most in a
    day, as today's rows fill the window (`_earlier`), so the prompts of the seats reasoning one
    after another today share their prefix: llama.cpp evaluates only what is new since the
    last one. The private lines are the seat's own results, role and pack (all kept, the
    pack's night choice standing for each wolf's own pick) and the last `WHISPER_LINES` whispers.
    """
    history: list[Row] = []
    today: list[Row] = []
    private: list[tuple[int, str, bool]] = []  # (id, row, is a whisper), in the order they happened
    for event in view.events:
        if isinstance(event, AttackVote):
            continue  # each wolf's own pick: the pack's choice (`AttackChosen`) stands for them
        shared = event.audience is None
        line = event_line(event, view, spectator=shared)  # the public log reads the same for every seat
        if line is None:
            continue
        text = f"{line.speaker} said: {line.text}" if line.speaker else line.text
        if line.seen:
            text = f"{text} {line.seen}"
        if line.channel == "whisper":
            text = f"(whisper) {text}"
        row = (event.id, f"[{event.id}] Day {event.day}: {text}")
        if not shared:
            private.append((*row, line.channel == "whisper"))
        elif event.day < view.day:
            history.append(row)
        else:
            today.append(row)
    today = today[-LOG_LINES:]
    earlier = _earlier(len(today))
    public = (history[-earlier:] if earlier else []) + today
    kept = set([i for i, _, whisper in private if whisper][-WHISPER_LINES:])
    return public, [(i, r) for i, r, whisper in private if not whisper or i in kept]


@dataclass(frozen=True)
class ReasonerPrompt:
    """The Reasoner's prompt in its pieces, so that whoever needs its rows reads them here, not from text.

    Attributes:
        table: the game as every seat is told it (the start of the system prompt).
        public: the public log's rows.
        identity: who the seat is (`reasoner_identity`).
        private: the rows only the seat saw.
        grounding: the belief engine's summary ("" when not grounded).
    """

    table: str
    public: tuple[Row, ...]
    identity: str
    private: tuple[Row, ...] = ()
    grounding: str = ""

    @property
    def ids(self) -> list[int]:
        """The event ids shown (the premises the Reasoner may cite), public first."""
        return [i for i, _ in self.public + self.private]

    def lines(self, keep: Collection[int] | None = None) -> list[str]:
        """The user lines without the task: the public log (only the rows of `keep`, if given), then the seat's own.

        Everything seat-specific comes after the public log, so that the seats' prompts of one day
        share a long prefix (see `reasoner_log`).
        """
        rows = [r for i, r in self.public if keep is None or i in keep]
        out = ["The public log (event ids in brackets):", *rows] if self.public else ["The public log is empty so far."]
        out.append(self.identity)
        if self.private:
            out += [PRIVATE_HEADER, *(r for _, r in self.private)]
        if self.grounding:
            out += ["What the evidence says (a calculation over every possible deal):", self.grounding]
        return out

    def messages(self, view: View, error: str = "", keep: Collection[int] | None = None) -> list[Message]:
        """The whole prompt: the table and the task, then `lines(keep)`, whom the seat may identify, and `error`.

        The task is the same for every seat and closes the system prompt, so llama.cpp evaluates it
        once; the seat's own part is its identity, its private lines and one line naming whom it
        may identify.
        """
        parts = self.lines(keep)
        parts.append(OTHERS_LINE.format(others=", ".join(view.names[s] for s in view.living_others())))
        if error:
            parts.append(f"Your last answer could not be used: {error}. Cite only ids from your log.")
        system = f"{self.table}\n{REASONER_TASK.format(n=MAX_IDENTIFICATIONS)}"
        return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(parts)}]


def reasoner_prompt(view: View, table: str | None = None, grounding: str = "") -> ReasonerPrompt:
    """The Reasoner's prompt for `view`: a pure function of the view (and the summary, when grounded).

    `table`: the game as the seats are told it (default: the shipped prompt library's).
    """
    public, private = reasoner_log(view)
    if table is None:
        table = PromptBuilder(PromptLibrary(), "llm").table(view)
    return ReasonerPrompt(table, tuple(public), reasoner_identity(view), tuple(private), grounding)


class CamWolfAgent(LLMAgent):
    """The `camwolf` player: Reasoner (premise-deduction-conclusion), decide-then-phrase speech, Performer manner.

    Args:
        model: any `ChatModel`.
        seed: seeds sampling and the planner.
        grounding: `beliefs` shows the belief engine's summary and its evidence to the Reasoner.
        reason_every_turn: reason at every speaking turn, not only the first of each day.
        trust_lone_seer: on the village side, never vote for the one player who has claimed seer
            while nothing the seat knows contradicts the claim (`Planner`); False votes as the
            belief-driven heuristic would (for measuring what the trust costs and wins).
        steer_margin: on the village side, the Reasoner's werewolf is the vote (and the suspicion
            said) only where the evidence scores it within this of its own best (`Planner.steer_margin`);
            None: whatever the evidence says (a stronger model's Reasoner may earn a wider margin).
        **kw: further `LLMAgent` options (persona, on_token, on_manner, talk, ...).

    Raises:
        ValueError: an unknown grounding, a negative or non-finite `steer_margin` (and whatever
            `LLMAgent` refuses).
    """

    planner_type = Planner
    """The class of the seat's planner (its werewolf policy is read by `benchmarks/bench_wolf_policy.py`)."""

    def __init__(
        self,
        model: ChatModel,
        seed: int,
        *,
        grounding: str = "none",
        reason_every_turn: bool = False,
        trust_lone_seer: bool = True,
        steer_margin: float | None = STEER_MARGIN,
        **kw: Any,
    ) -> None:
        if grounding not in GROUNDINGS:
            raise ValueError(f"unknown grounding {grounding!r}; choose one of {', '.join(GROUNDINGS)}")
        if steer_margin is not None and not (isinstance(steer_margin, (int, float)) and 0 <= steer_margin < math.inf):
            raise ValueError(f"steer_margin must be a number from 0 up, or None; got {steer_margin!r}")
        kw.setdefault("talk", "phrase")
        super().__init__(model, seed, style="llm", **kw)
        self.label = "camwolf"
        self.grounding = grounding
        self.reason_every_turn = reason_every_turn
        self.reasonings: list[tuple[int, Reasoning]] = []
        self._planner = self.planner_type(seed)
        self._planner.trust_lone_seer = trust_lone_seer
        self._planner.steer_margin = steer_margin
        self._planner.converse = True
        self._reasoned_day = -1
        self.format_errors = 0
        self.fallbacks = 0
        self.impossible = 0

    def planner(self) -> Planner:
        """The steered planner (see `Planner`)."""
        assert isinstance(self._planner, Planner)
        return self._planner

    def new_game(self, scope: str | None = None) -> None:
        """Start a new game: fresh scope, conclusions forgotten."""
        super().new_game(scope)
        self.reasonings = []
        self._reasoned_day = -1

    # ------------------------------------------------------------------ conclusions
    def conclusions(self) -> tuple[Identification, ...]:
        """The latest Reasoner answer's identifications (none before the first talk)."""
        return self.reasonings[-1][1].identifications if self.reasonings else ()

    def _concluded(self, view: View, targets: Sequence[int], roles: set[Role]) -> int | None:
        for ident in self.conclusions():
            if ident.role in roles and ident.player in targets and view.alive[ident.player]:
                return ident.player
        return None

    def _suspect(self, view: View, targets: Sequence[int]) -> int | None:
        """The concluded werewolf to steer the vote to (a werewolf seat never steers onto its own pack).

        The planner may still overrule the steer: it never votes for the lone seer claimant it
        trusts (`Planner._vote`).
        """
        pack = set(view.wolves()) if view.role is Role.WEREWOLF else set()
        return self._concluded(view, [t for t in targets if t not in pack], {Role.WEREWOLF})

    # ------------------------------------------------------------------ acting
    async def act(self, view: View, request: Request) -> Action:
        """Talk through the Reasoner and phrasing; votes and some night actions follow the conclusions."""
        planner = self.planner()
        if request.kind == "talk":
            # The Reasoner and the phrasing share the request's time: the Reasoner may use up to
            # REASON_SHARE of it, the phrasing what is left, and the answer comes within TIME_SHARE.
            started = time.perf_counter()
            deadline = started + request.timeout * TIME_SHARE
            if self._reasoned_day != view.day or self.reason_every_turn:
                await self._reason(view, request, started + request.timeout * REASON_SHARE)
                self._reasoned_day = view.day
            planner.steer = self._suspect(view, view.living_others())
            act = planner.decide(view, replace(request, attempt=0, error=None))
            if act.kind == "speak" and self.reasonings:
                act = Action.speak(act.text, self.reasonings[-1][1].manner)
            if self.talk == "phrase":
                return await self._phrase(view, request, act, budget=deadline - time.perf_counter())
            return act
        if request.kind == "whisper":
            return await self._phrase(view, request) if self.talk == "phrase" else planner.decide(view, request)
        if request.kind == "probe":
            return self._probe(view, request)
        if request.kind == "vote":
            planner.steer = self._suspect(view, request.targets)
            return planner.decide(view, request)
        target: int | None = None
        if request.kind == "guard":
            target = self._concluded(view, request.targets, {Role.SEER, Role.MEDIUM})
        elif request.kind == "attack":
            target = self._concluded(view, request.targets, {Role.SEER, Role.GUARDIAN, Role.MEDIUM, Role.WITCH})
        if target is not None and request.check(Action.choose(target)) is None:
            return Action.choose(target)
        return planner.decide(view, request)

    def _probe(self, view: View, request: Request) -> Action:
        from lycan.beliefs.tracker import probe_answer  # numpy: loaded only when a probe is asked

        allowed = set(request.info.roles) if isinstance(request.info, ProbeInfo) else {r.value for r in Role}
        base = probe_answer(view, request)
        concluded = {i.player: i.role for i in reversed(self.conclusions()) if i.role.value in allowed}
        guesses = [(s, r, p) for s, r, p in base.guesses if s not in concluded]
        guesses += [(s, r, CONCLUSION_CONFIDENCE) for s, r in concluded.items() if s in request.targets]
        return Action.probe(guesses)

    # ------------------------------------------------------------------ the Reasoner
    def _grounding(self, view: View) -> str:
        """The belief engine's summary: each other living seat's most likely role, with the events behind it."""
        post = self.planner().posterior(view)  # the planner's, kept up to date event by event
        if post is None:
            return ""
        planner = self.planner()
        lines = []
        others = sorted(view.living_others(), key=lambda s: -post.side_probability(s))
        for seat in others[:4]:
            role, p = post.top_role(seat)
            wolf = post.side_probability(seat)
            why = "; ".join(f"[{i}] {text}" for i, text in planner.reasons(view, seat))
            lines.append(
                f"{view.names[seat]}: most likely {role.value} ({p:.2f}), werewolf side {wolf:.2f}"
                + (f", because {why}" if why else "")
            )
        return "\n".join(lines)

    def prompt(self, view: View) -> ReasonerPrompt:
        """The Reasoner's prompt for `view` (`reasoner_prompt`), with the belief engine's summary if grounded."""
        grounding = self._grounding(view) if self.grounding == "beliefs" else ""
        return reasoner_prompt(view, self.builder.table(view), grounding)

    async def _reason(self, view: View, request: Request, deadline: float) -> None:
        """Ask the Reasoner (once more with the error if its answer cannot be used) until `deadline`."""
        roles = [r.value for r in Role if r in view.rules.roles]
        names = [view.names[s] for s in range(view.n_players) if s != view.seat]
        error = ""
        for attempt in range(2):
            prompt = self.prompt(view)
            messages, ids = prompt.messages(view, error), prompt.ids
            chat = ChatRequest(
                messages=messages,
                max_tokens=REASON_TOKENS,
                temperature=self.temperature,
                top_p=self.top_p,
                seed=(self.seed * 1_000_003 + request.id * 7919 + 17 + attempt) % 2**31,
                json_schema=reasoner_schema(names, roles, ids),
                scope=self.scope,
                # one session for every seat's Reasoner: their prompts share the table and the public log
                session=f"{self.scope}:reason",
            )
            prompt_tokens = sum(self.count(m["content"]) for m in messages)
            started = time.perf_counter()
            raw = ""
            try:
                left = deadline - time.perf_counter()
                if left < MIN_REASON_S:
                    raise TimeoutError
                result = await asyncio.wait_for(self.model.chat(chat), left)
                raw = result.text
                used = self._account(result, prompt_tokens, time.perf_counter() - started)
                reasoning = read_reasoning(raw, view)
            except ParseError as err:
                self.format_errors += 1
                self.usage.parse_failures += 1
                error = str(err)
                self._note(view, request, raw, "", f"format error: {error}", usage=used, kind="reason", attempt=attempt)
                continue
            except (ModelError, TimeoutError) as err:
                if isinstance(err, ModelError):
                    self.usage.model_errors += 1
                    error = f"model error: {err}"
                else:
                    self.usage.timeouts += 1
                    error = "the Reasoner ran out of time"
                elapsed = Usage(prompt_tokens, 0, time.perf_counter() - started)
                self._note(view, request, "", "", error, usage=elapsed, kind="reason", attempt=attempt)
                break
            reasoning = self._possible(view, reasoning)
            self._note(view, request, raw, _describe(reasoning, view.names), usage=used, kind="reason", attempt=attempt)
            self.reasonings.append((view.day, reasoning))
            return
        self.fallbacks += 1
        self.reasonings.append((view.day, self.fallback(view)))

    def _possible(self, view: View, reasoning: Reasoning) -> Reasoning:
        """`reasoning` without the conclusions that what the seat knows for certain rules out.

        A conclusion is impossible when no deal that fits the seat's knowledge (its own role, its
        results, the pack, revealed roles) gives the player that role: the belief engine's
        probability is below `IMPOSSIBLE` (the seer's own human result, a wolf naming its partner
        a villager). Such conclusions steer nothing and are counted in `impossible`.
        """
        post = self.planner().posterior(view)  # the planner's, kept up to date event by event
        if post is None:
            return reasoning
        kept = tuple(
            i for i in reasoning.identifications if post.role_probabilities(i.player).get(i.role, 0.0) >= IMPOSSIBLE
        )
        self.impossible += len(reasoning.identifications) - len(kept)
        return replace(reasoning, identifications=kept)

    def fallback(self, view: View) -> Reasoning:
        """Conclusions from the belief engine when the Reasoner's answers could not be used (`belief_reasoning`)."""
        return belief_reasoning(self.planner(), view)


def belief_reasoning(planner: Planner, view: View) -> Reasoning:
    """The belief engine's conclusions for `view`, as a Reasoning: the likeliest werewolf-side players first.

    Each identification cites the events that moved the planner's posterior most (`reasons`); a
    player with none is left out. CaM-Wolf falls back on it, and its warm-up is taught it.
    """
    post = planner.posterior(view)  # the planner's, kept up to date event by event
    if post is None:
        return Reasoning("", (), Manner(), fallback=True)
    idents = []
    others = sorted(view.living_others(), key=lambda s: -post.side_probability(s))
    for seat in others[:MAX_IDENTIFICATIONS]:
        role, _ = post.top_role(seat)
        if team_of(role) is not Team.WEREWOLF and post.side_probability(seat) >= 0.5:
            role = Role.WEREWOLF if Role.WEREWOLF in view.rules.roles else role
        premises = tuple(i for i, _ in planner.reasons(view, seat))
        if premises:
            idents.append(Identification(premises, "the evidence in my log", seat, role))
    return Reasoning("", tuple(idents), Manner(), fallback=True)


def _describe(reasoning: Reasoning, names: Sequence[str]) -> str:
    return json.dumps([i.to_dict(names) for i in reasoning.identifications])


__all__ = [
    "GROUNDINGS",
    "PRIVATE_HEADER",
    "PROMPT_LAYOUT",
    "REASONER_TASK",
    "CamWolfAgent",
    "Identification",
    "Reasoning",
    "read_reasoning",
    "reasoner_schema",
]
