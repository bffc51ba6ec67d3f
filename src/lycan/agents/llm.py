"""LLM players: a minimal role prompt (`llm`), ReAct (`react`) and ReCon (`recon`).

All three see only their seat's `View`, talk through `ChatModel.stream` (the spoken part is
passed to `on_token` as it arrives) and choose targets through `ChatModel.chat` with a JSON
schema whose `target` enum holds the legal names. Private reasoning (ReAct's thought, ReCon's
contemplation and perspectives) is kept in `LLMAgent.exchanges` and never spoken.
An answer that cannot be read raises `ParseError`, so the engine retries with the error shown
to the model and, if that fails too, falls back and records a fault on this seat.

The measurement probe (`Game(probe_days=...)`) is answered the same way, with a schema that asks
a role and a confidence for every other seat. The engine asks a probe once, so the agent itself
asks again, with the error shown, when the first answer cannot be read; if the second cannot be
read either, the engine records the probe as unanswered.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent
from lycan.agents.parsing import (
    STYLES,
    ParseError,
    SpeechReader,
    Style,
    parse_bid,
    parse_choice,
    parse_probe,
)
from lycan.agents.persona import Persona, persona_for
from lycan.agents.phrasing import check_phrasing, clean
from lycan.agents.prompt import PromptBuilder, PromptLibrary, talk_limit, token_counter
from lycan.agents.wording import Heard, check_wording, choose, morning_of, realise
from lycan.beliefs.claims import stated_vote
from lycan.beliefs.reader import reader_for
from lycan.engine.actions import MAX_BID, Action, ProbeInfo, Request
from lycan.engine.events import Talk
from lycan.engine.manner import Manner
from lycan.engine.record import ModelCall, new_game_id
from lycan.engine.view import View
from lycan.models.base import ChatModel, ChatRequest, ChatResult, Message, ModelError, Usage
from lycan.render import neutralise
from lycan.rules.roles import Role

TokenCallback = Callable[[int, str], Any]
"""`on_token(seat, piece)`: called with each piece of spoken text; may be a coroutine function."""
MannerCallback = Callable[[int, Manner], Any]
"""`on_manner(seat, manner)`: called before an utterance that has a manner; may be a coroutine function."""

DEFAULT_MAX_TOKENS: dict[str, int] = {
    "llm_talk": 96,
    "react_talk": 192,
    "recon_talk": 320,
    "llm_choose": 24,
    "react_choose": 128,
    "recon_choose": 160,
    "llm_probe": 320,
    "react_probe": 384,
    "recon_probe": 384,
    "bid": 16,
    "phrase": 96,
}
"""Completion-token caps per style and request type; `LLMAgent(max_tokens=...)` overrides them.

A probe answer is given `PROBE_TOKENS_PER_SEAT` tokens per asked seat (plus room for the thought
of `react` and `recon`), up to its cap here and never past the context window."""

NEUTRAL_PERSONAS = (
    "calm and brief; you weigh evidence before you speak",
    "warm and talkative; you ask others direct questions",
    "blunt and suspicious; you call out contradictions",
    "careful and polite; you summarise what others said",
    "cheerful and quick; you like to propose a plan",
    "quiet and precise; you speak only about votes and facts",
)
"""Manners of speaking in words, for callers that give a persona as text: fictional styles, never real people."""

TALK_MODES = ("auto", "phrase", "free")
"""How an LLM seat talks: `phrase` (a planner decides the act, the model words it, checks guard it),
`free` (the model invents what to say), `auto` (`phrase` on the embedded `local` models, else `free`)."""

THOUGHT_CHARS = 200
PROBE_TOKENS_PER_SEAT = 20
"""Tokens one seat's entry of a probe answer takes: `"Player 3": {"role": "werewolf", "confidence": 0.7}, `."""
PROBE_BASE_TOKENS: dict[str, int] = {"llm": 16, "react": 80, "recon": 80}
"""Tokens of a probe answer besides the seats' entries: the braces and, for react and recon, the thought."""
CONFIDENCES = tuple(round(0.1 * i, 1) for i in range(1, 11))
"""The confidences a probe answer may give (0.1 .. 1.0): a grid a grammar-constrained small model can write."""
TALK_CHARS_PER_TOKEN = 3
"""A conservative characters-per-token ratio for English speech, to size plain talk's token cap."""


@dataclass
class AgentUsage:
    """Counters of one agent's model use (prompt tokens are counted or estimated if not reported)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cached_calls: int = 0
    parse_failures: int = 0
    model_errors: int = 0
    timeouts: int = 0
    largest_prompt: int = 0
    lines_left_out: int = 0
    phrasings: int = 0
    phrasings_rejected: int = 0
    worded: int = 0
    """Utterances spoken in a grammar wording (`lycan.agents.wording`) rather than the model's or the template's."""
    votes_as_said: int = 0
    """Votes (revotes included) cast for the player the seat said it would vote for, in phrase mode."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Exchange:
    """One model call: what was asked, the raw answer (private reasoning included) and its reading."""

    request_id: int
    kind: str
    attempt: int
    raw: str
    action: str
    error: str = ""


def choice_schema(style: Style, options: list[str]) -> dict[str, Any]:
    """The JSON schema for a choose-type answer: legal names (and `none`) as an enum.

    `llm` answers `{"target": ...}` only; `react` and `recon` write a capped private thought first.
    """
    target = {"type": "string", "enum": options}
    props: dict[str, Any]
    if style == "llm":
        # The target alone: a reason written after it cannot change the choice, and on a small
        # local model its ~25 extra grammar-constrained tokens made each choice about 4x slower.
        props = {"target": target}
    else:
        props = {"thought": {"type": "string", "maxLength": THOUGHT_CHARS}, "target": target}
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def probe_schema(style: Style, names: list[str], roles: list[str]) -> dict[str, Any]:
    """The JSON schema for a probe answer: a role (from `roles`) and a confidence for each of `names`.

    `{"guesses": {"Player 3": {"role": "werewolf", "confidence": 0.7}, ...}}`; `react` and `recon`
    write a capped private thought first.
    """
    guess = {
        "type": "object",
        "properties": {
            "role": {"type": "string", "enum": roles},
            "confidence": {"type": "number", "enum": list(CONFIDENCES)},
        },
        "required": ["role", "confidence"],
        "additionalProperties": False,
    }
    guesses = {
        "type": "object",
        "properties": {name: guess for name in names},
        "required": names,
        "additionalProperties": False,
    }
    props: dict[str, Any] = {"guesses": guesses}
    if style != "llm":
        props = {"thought": {"type": "string", "maxLength": THOUGHT_CHARS}, **props}
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def promised_vote(view: View) -> int | None:
    """Whom the seat last said today, in public, that it will vote for (None if it said nobody)."""
    parser = reader_for(view.names)
    for event in reversed(view.events):
        if event.day != view.day:
            break
        if isinstance(event, Talk) and event.actor == view.seat and event.channel == "talk":
            said = stated_vote(parser.parse(event.text, view.seat))
            if said is not None:
                return said
    return None


def describe_probe(action: Action, names: tuple[str, ...]) -> str:
    """A probe answer in short: `probe Player 2=werewolf 0.7, Player 3=villager`."""
    parts = []
    for seat, role, prob in action.guesses:
        who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
        parts.append(f"{who}={role.value}" + ("" if prob is None else f" {prob:g}"))
    return "probe " + ", ".join(parts)


BID_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"bid": {"type": "integer", "minimum": 0, "maximum": MAX_BID}},
    "required": ["bid"],
    "additionalProperties": False,
}


class LLMAgent:
    """A player backed by a chat model.

    Args:
        model: any `ChatModel` backend.
        seed: seeds the per-call sampling seed, so a game with a deterministic backend replays.
        style: `llm` (minimal role prompt), `react` (Thought, then Action) or `recon`
            (contemplation, first- and second-order perspectives, then the refined speech).
        persona: the seat's character (`lycan.agents.persona.Persona`), or a manner of speaking in
            words (never a real person's name; its words pick the persona's traits); None or
            `"auto"` draws one for the seed from a stream of its own (`persona_for`). It is shown
            to the model and shapes the wording of phrase mode (`lycan.agents.wording`).
        on_token: `on_token(seat, piece)` for each piece of public talk as it streams. Whispers
            are never streamed: they reach werewolf seats only, as whole events.
        on_manner: `on_manner(seat, manner)` before a public utterance delivered in a `Manner`
            (agents that choose one, such as `camwolf`), so voices and avatars can take it up.
        max_prompt_tokens: the prompt budget; older notes and lines are dropped to fit it.
        context_window: the model's window; prompt budget plus the largest completion cap must fit.
        prompt_dir: a folder whose `.txt` templates override the packaged ones by name.
        scope: the cache scope (a game id); a fresh id is made for each game if not given.
        temperature: sampling temperature.
        top_p: nucleus sampling.
        max_tokens: overrides of `DEFAULT_MAX_TOKENS` entries.
        probe_beliefs: show the exact belief engine's chances (`lycan.beliefs.tracker` of the
            seat's view) in the probe prompt, so that answers with and without them can be compared.
        talk: `phrase`, `free` or `auto` (see `TALK_MODES` and `lycan.agents.phrasing`). In `phrase`
            mode a seat that said today whom it will vote for (`promised_vote`) lets the planner
            that decided those words cast the vote: for that player, unless what was said since
            changed the planner's mind; its other votes and night actions are the model's choice.
        phrase_timeout: seconds a phrasing may take before the act is spoken in template words.
        phrase_temperature: sampling temperature of phrasings (the model's wording is one candidate
            among the grammar's; the one least like the game's talk so far is spoken).
        strict_wording: check a model's phrasing for names and role words the act lacks as well as
            for its facts (None: on the embedded 0.5B and tiny models only; larger models may word freely
            around the act, and only the statements they make are checked).

    Raises:
        ValueError: unknown style, a budget that does not fit the window, or a bad prompt folder.
    """

    def __init__(
        self,
        model: ChatModel,
        seed: int,
        *,
        style: str = "llm",
        persona: Persona | str | None = None,
        on_token: TokenCallback | None = None,
        on_manner: MannerCallback | None = None,
        max_prompt_tokens: int = 1536,
        context_window: int = 2048,
        prompt_dir: str | Path | None = None,
        scope: str | None = None,
        temperature: float = 0.7,
        top_p: float = 1.0,
        max_tokens: Mapping[str, int] | None = None,
        probe_beliefs: bool = False,
        talk: str = "auto",
        phrase_timeout: float = 20.0,
        phrase_temperature: float = 0.8,
        strict_wording: bool | None = None,
    ) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown LLM style {style!r}; choose one of {', '.join(STYLES)}")
        if talk not in TALK_MODES:
            raise ValueError(f"unknown talk mode {talk!r}; choose one of {', '.join(TALK_MODES)}")
        if talk == "auto":
            talk = "phrase" if str(getattr(model, "name", "")).startswith("local") else "free"
        self.talk = talk
        self.phrase_timeout = phrase_timeout
        self.phrase_temperature = phrase_temperature
        self._planner: BeliefHeuristicAgent | None = None
        self.style: Style = style
        self.label: str = style
        self.model = model
        self.seed = seed
        self.on_token = on_token
        self.on_manner = on_manner
        self.temperature = temperature
        self.top_p = top_p
        self.max_tokens = {**DEFAULT_MAX_TOKENS, **(max_tokens or {})}
        self.context_window = context_window
        self.probe_beliefs = probe_beliefs
        # A probe answer is sized to the table and fitted to the window when asked (see `act`).
        largest = max(
            v for k, v in self.max_tokens.items() if (k.startswith(self.style) or k == "bid") and "probe" not in k
        )
        if max_prompt_tokens < 256 or max_prompt_tokens + largest > context_window:
            raise ValueError(
                f"max_prompt_tokens={max_prompt_tokens} plus up to {largest} answer tokens must fit the "
                f"{context_window}-token context window (and be at least 256)"
            )
        if persona is None or persona == "auto":
            persona = persona_for(seed)
        if isinstance(persona, Persona):
            self.persona, persona_text = persona, persona.describe()
        else:
            self.persona, persona_text = Persona.from_profile({"personality": persona}, seed), persona
        name = str(getattr(model, "name", ""))
        self.strict_wording = (
            name in ("local", "local:0.5b", "local:tiny") if strict_wording is None else strict_wording
        )
        self.count = token_counter(model)
        self.builder = PromptBuilder(
            PromptLibrary(prompt_dir),
            self.style,
            persona=persona_text,
            max_prompt_tokens=max_prompt_tokens,
            count=self.count,
            probe_beliefs=probe_beliefs,
        )
        self.usage = AgentUsage()
        self.exchanges: list[Exchange] = []
        self.scope = scope or new_game_id()
        self._calls: list[ModelCall] = []

    # ----------------------------------------------------------------- game context
    def set_persona(self, persona: Persona) -> None:
        """Take `persona` as this seat's character from now on (e.g. a profile an AIWolf server sent)."""
        self.persona = persona
        self.builder.persona = neutralise(persona.describe(), 200)

    def new_game(self, scope: str | None = None) -> None:
        """Start a new game: fresh cache scope, notes forgotten."""
        self.scope = scope or new_game_id()
        self.builder.memory.reset()
        if self._planner is not None:
            self._planner.begin_game(self.scope, -1)

    def begin_game(self, game_id: str, seat: int) -> None:
        """The session starts a game: its id becomes the cache and recording scope."""
        self.new_game(game_id)

    def drain_model_calls(self) -> list[ModelCall]:
        """The model calls made since the last drain (the session files them in the record)."""
        calls, self._calls = self._calls, []
        return calls

    def _note(
        self,
        view: View,
        request: Request,
        raw: str,
        action: str,
        error: str = "",
        *,
        usage: Usage | None = None,
        exchange: bool = True,
        kind: str | None = None,
        attempt: int | None = None,
    ) -> None:
        """Keep one model call: in `exchanges` and for the record (`kind`/`attempt` override the request's)."""
        u = usage or Usage()
        kind = request.kind if kind is None else kind
        attempt = request.attempt if attempt is None else attempt
        if exchange:
            self.exchanges.append(Exchange(request.id, kind, attempt, raw, action, error))
        self._calls.append(
            ModelCall(
                seat=view.seat,
                request=request.id,
                kind=kind,
                attempt=attempt,
                model=getattr(self.model, "name", ""),
                prompt_tokens=u.prompt_tokens,
                completion_tokens=u.completion_tokens,
                latency_s=round(u.latency_s, 4),
                cached=u.cached,
                reasoning=raw,
                error=error,
            )
        )

    # ----------------------------------------------------------------- acting
    async def act(self, view: View, request: Request) -> Action:
        """Answer `request` from `view` alone.

        Raises:
            ParseError: the model's answer could not be read (the engine retries, then falls back;
                a probe is asked again here first, as the engine asks it once).
            ModelError: the backend failed.
        """
        if self.talk == "phrase":
            if request.is_talk:
                return await self._phrase(view, request)
            if request.kind == "vote" and (promised := promised_vote(view)) in request.targets:
                # The planner chose these words; it casts the vote too: as said, unless what was
                # said since changed its mind (the model is not asked to contradict its own words).
                action = self.planner().decide(view, request)
                self.usage.votes_as_said += action.target == promised
                return action
        if request.kind == "probe" and request.attempt == 0:
            try:
                return await self._act(view, request)
            except ParseError as err:
                return await self._act(view, replace(request, attempt=1, error=str(err)))
        return await self._act(view, request)

    async def _act(self, view: View, request: Request) -> Action:
        prompt = self.builder.build(view, request)
        self.usage.largest_prompt = max(self.usage.largest_prompt, prompt.prompt_tokens)
        self.usage.lines_left_out += prompt.dropped_lines
        if request.is_talk:
            key, schema = f"{self.style}_talk", None
        elif request.kind == "bid":
            key, schema = "bid", BID_SCHEMA
        elif request.kind == "probe":
            roles = list(request.info.roles) if isinstance(request.info, ProbeInfo) else []
            names = [view.names[t] for t in request.targets]
            key, schema = f"{self.style}_probe", probe_schema(self.style, names, roles or [r.value for r in Role])
        else:
            options = [view.names[t] for t in request.targets] + (["none"] if request.can_pass else [])
            key, schema = f"{self.style}_choose", choice_schema(self.style, options)
        max_tokens = self.max_tokens[key]
        if request.kind == "probe":
            wanted = PROBE_BASE_TOKENS[self.style] + PROBE_TOKENS_PER_SEAT * len(request.targets)
            max_tokens = max(1, min(max_tokens, wanted, self.context_window - prompt.prompt_tokens))
        if request.is_talk and self.style == "llm":
            # Plain speech is cut at the talk limit anyway: no need to generate past it.
            max_tokens = min(max_tokens, talk_limit(request) // TALK_CHARS_PER_TOKEN + 8)
        chat = ChatRequest(
            messages=prompt.messages,
            max_tokens=max_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=(self.seed * 1_000_003 + request.id * 7919 + request.attempt) % 2**31,
            json_schema=schema,
            scope=self.scope,
            session=f"{self.scope}:{view.seat}",
        )
        started = time.perf_counter()
        raw = ""
        try:
            if request.is_talk:
                return await self._talk(view, request, chat, prompt.prompt_tokens)
            result = await self.model.chat(chat)
            raw = result.text
            used = self._account(result, prompt.prompt_tokens, time.perf_counter() - started)
            try:
                if request.kind == "bid":
                    action = parse_bid(raw)
                elif request.kind == "probe":
                    action = parse_probe(raw, request, view.names)
                else:
                    action = parse_choice(raw, request, view.names)
            except ParseError as err:
                self._note(view, request, raw, "", str(err), usage=used)
                raise
            said = describe_probe(action, view.names) if action.kind == "probe" else action.describe(view.names)
            self._note(view, request, raw, said, usage=used)
            return action
        except ParseError:
            self.usage.parse_failures += 1
            raise
        except ModelError as err:
            self.usage.model_errors += 1
            self._note(view, request, "", "", f"model error: {err}", exchange=False)
            raise
        except asyncio.CancelledError:
            self.usage.timeouts += 1
            raise

    async def _talk(self, view: View, request: Request, chat: ChatRequest, prompt_tokens: int) -> Action:
        reader = SpeechReader(self.style, view.name, talk_limit(request), view.names)
        # Only public talk is streamed out: whisper text must reach werewolf seats alone, as whole events.
        public = request.kind == "talk"
        started = time.perf_counter()
        self.usage.calls += 1
        self.usage.prompt_tokens += prompt_tokens
        stream = self.model.stream(chat)
        try:
            async for piece in stream:
                new = reader.feed(piece)
                if new and public:
                    await self._emit(view.seat, new)
                if reader.closed:
                    break
        finally:
            elapsed = time.perf_counter() - started
            completion = self.count(reader.raw) if reader.raw else 0
            self.usage.latency_s += elapsed
            self.usage.completion_tokens += completion
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()
        used = Usage(prompt_tokens, completion, elapsed)
        rest = reader.finish()
        try:
            action = reader.action(request.can_skip)
        except ParseError as err:
            self._note(view, request, reader.raw, "", str(err), usage=used)
            raise
        if rest and public and action.kind == "speak":
            await self._emit(view.seat, rest)
        self._note(view, request, reader.raw, action.describe(view.names), usage=used)
        return action

    def planner(self) -> BeliefHeuristicAgent:
        """The seat's planner in `phrase` mode: decides each speech act from the view (`lycan.agents.phrasing`)."""
        if self._planner is None:
            self._planner = BeliefHeuristicAgent(self.seed)
            self._planner.converse = True
            self._planner.wolf_keeps_word = True  # a werewolf seat votes as it said it would (see camwolf's Planner)
            # trust_lone_seer stays off: sparing the lone seer claimant wins the village about 3.5 games
            # in 100 on guardian7 but breaks more of the seat's words (votes as said 91.5% to 85.3% on
            # the embedded model, under the 90% the seat's talk must keep; BENCHMARKS.md)
        return self._planner

    async def _phrase(
        self, view: View, request: Request, act: Action | None = None, budget: float | None = None
    ) -> Action:
        """Have the model word the act (the planner's, unless given); speak the wording if it passes the checks.

        The act's manner, if any, is announced to `on_manner` before the words and kept on the action.
        `budget` caps the seconds the phrasing may take (below one second the template is spoken).
        """
        if act is None:
            act = self.planner().decide(view, replace(request, attempt=0, error=None))
        if act.kind != "speak" or not act.text:
            self.exchanges.append(Exchange(request.id, request.kind, request.attempt, "", act.describe(view.names)))
            return act
        limit = talk_limit(request)
        lib = self.builder.library
        persona = f"Your manner of speaking: {self.builder.persona}" if self.builder.persona else ""
        system = lib.render("phrase_system", name=neutralise(view.name, 40), persona=persona)
        user = lib.render("phrase_user", act=act.text, max_length=limit)
        messages: list[Message] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        prompt_tokens = self.count(system) + self.count(user)
        chat = ChatRequest(
            messages=messages,
            max_tokens=max(8, min(self.max_tokens["phrase"], limit // TALK_CHARS_PER_TOKEN + 8)),
            temperature=self.phrase_temperature,
            top_p=self.top_p,
            seed=(self.seed * 1_000_003 + request.id * 7919 + request.attempt) % 2**31,
            scope=self.scope,
            session=f"{self.scope}:phrase:{view.seat}",
        )
        started = time.perf_counter()
        raw, error, used = "", "", Usage(prompt_tokens, 0, 0.0)
        limit_s = self.phrase_timeout if budget is None else min(self.phrase_timeout, budget)
        try:
            if limit_s < 1.0:
                raise TimeoutError
            result = await asyncio.wait_for(self.model.chat(chat), limit_s)
            raw = result.text
            used = self._account(result, prompt_tokens, time.perf_counter() - started)
        except ModelError as err:
            self.usage.model_errors += 1
            error = f"model error: {err}"
        except TimeoutError:
            self.usage.timeouts += 1
            error = f"phrasing took over {max(limit_s, 0):.3g} s"
        text = clean(raw, view.name)
        public = request.kind == "talk"
        if not error:
            reason = check_phrasing(
                text,
                act.text,
                names=view.names,
                seat=view.seat,
                role=view.role,
                instructions=system + "\n" + user.replace(act.text, " "),
                limit=limit,
                public=public,
                strict=self.strict_wording,
            )
            error = f"phrasing rejected: {reason}" if reason else ""
        spoken, source = self._word(view, request, act.text, "" if error else text, limit)
        self.usage.phrasings += 1
        self.usage.phrasings_rejected += int(bool(error))
        self.usage.worded += source == "grammar"
        if public:
            if act.manner is not None and self.on_manner is not None:
                await _call(self.on_manner, view.seat, act.manner)
            await self._emit(view.seat, spoken)
        self._note(view, request, raw, f"say ({source}): {spoken}", error, usage=used)
        return Action.speak(spoken, act.manner)

    def _word(self, view: View, request: Request, template: str, phrased: str, limit: int) -> tuple[str, str]:
        """What to say for the act worded `template`, and where the words came from.

        Candidates: the model's phrasing (`phrased`, already checked; "" when it failed or was
        rejected) and the grammar's wordings of the planner's acts (`lycan.agents.wording`), each
        checked by its facts; the one least like the game's talk so far is spoken, the template
        when none passes.
        """
        acts = self.planner().spoken_acts(template)
        heard = [e.text for e in view.events if isinstance(e, Talk) and e.channel == request.kind]
        # seeded by what the seat has heard, not by request ids, which count requests it never saw
        rng = random.Random(f"{self.seed}/{view.seat}/{view.day}/{len(heard)}/{request.attempt}/wording")
        candidates: dict[str, str] = {phrased: "model"} if phrased else {}
        if acts:
            public = request.kind == "talk"
            wolf_public = public and view.role in (Role.WEREWOLF, Role.POSSESSED)
            morning = morning_of(view) if public else None
            dead = morning.dead if morning is not None and morning.first else ()
            wordings = realise(
                acts, names=view.names, persona=self.persona, day=view.day, rng=rng, limit=limit, morning=morning
            )
            for text in wordings:
                if text not in candidates and not check_wording(
                    text, template, names=view.names, seat=view.seat, wolf_public=wolf_public, limit=limit, dead=dead
                ):
                    candidates[text] = "grammar"
        if not candidates:
            return template, "template"
        best = choose(list(candidates), Heard(heard), rng)
        assert best is not None
        return best, candidates[best]

    async def _emit(self, seat: int, piece: str) -> None:
        if self.on_token is not None:
            await _call(self.on_token, seat, piece)

    def _account(self, result: ChatResult, prompt_tokens: int, elapsed: float) -> Usage:
        u = result.usage
        used = Usage(
            u.prompt_tokens or prompt_tokens,
            u.completion_tokens or self.count(result.text),
            u.latency_s or elapsed,
            u.cached,
        )
        self.usage.calls += 1
        self.usage.prompt_tokens += used.prompt_tokens
        self.usage.completion_tokens += used.completion_tokens
        self.usage.latency_s += used.latency_s
        self.usage.cached_calls += int(used.cached)
        return used


async def _call(callback: Callable[..., Any], *args: Any) -> None:
    """Call a callback that may be a coroutine function."""
    result = callback(*args)
    if inspect.isawaitable(result):
        await result


__all__ = [
    "DEFAULT_MAX_TOKENS",
    "NEUTRAL_PERSONAS",
    "TALK_MODES",
    "AgentUsage",
    "Exchange",
    "LLMAgent",
    "MannerCallback",
    "ParseError",
    "TokenCallback",
    "choice_schema",
    "describe_probe",
    "probe_schema",
    "promised_vote",
]
