"""The Deep Wolf agent (seed 000): every answer is the candidate a value network rates best.

For each request the agent lists its candidates: for talk, the templates mined for its role
(`lycan.data.candidates`) instantiated with the living seats, plus `Over` (and `Skip`); for votes
and night actions every legal target (and passing where allowed). A value network scores them all
in one pass, P(win | the seat's view, its role, the candidate), and the agent takes the best (or
samples at a temperature). The value of the chosen candidate and of the runner-up, with the top
few, go into the game record as a model call that no seat sees (`lycan replay GAME --values`).

The role probe is answered with the belief engine's posterior; whispers say `Over`.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict

from lycan.agents.base import SyncAgent
from lycan.agents.speech import NOTHING_YET
from lycan.data.candidates import Candidates
from lycan.engine.actions import OVER, PASS, Action, Request
from lycan.engine.record import ModelCall
from lycan.engine.view import View
from lycan.models.base import ChatModel
from lycan.value.base import CALIBRATION_FILE, Calibration, ValueModel
from lycan.value.onnx import OnnxValue
from lycan.value.shipped import (
    Maybe,
    PerRoleFloat,
    PerRoleInt,
    default_candidates,
    default_dir,
    default_value,
    play_settings,
)

Number = TypeVar("Number", int, float)

#: How many of the best candidates a decision's record keeps.
KEEP_TOP = 5
#: The margin of an anchored choice when neither the caller nor the network's `play.json` sets one.
DEFAULT_MARGIN = 0.15
#: A search plays up to this many times its `rollouts` worlds while a candidate leads but not clearly.
SEARCH_ROUNDS = 4
#: The words of a turn held back (`search_hold`): nothing the table's claim parser reads as a claim.
HOLD = Action.speak(NOTHING_YET)
#: The `model` name of the records the agent leaves.
RECORD_MODEL = "deepwolf-value"


class DeepWolfAgent(SyncAgent):
    """Answers every request with the candidate its value network rates highest.

    Args:
        seed: seeds sampling (with `temperature` > 0) and nothing else.
        value: the value network; None loads the default that ships with Lycan (`lycan.value`).
        candidates: talk templates per role; None loads the ones shipped with the default network.
        temperature: 0 takes the best candidate; above 0, samples with P proportional to
            exp(logit / temperature).
        anchor: a rule-based agent type (`heuristic`) that proposes an answer first; the agent
            departs from the proposal only for a candidate the network rates at least `margin`
            higher (a conservative policy-improvement step: the network learnt from such players'
            games, so it judges small departures from them best). None: the network alone.
        margin: how much higher (in P(win)) a candidate must be rated to replace the proposal
            (None: the network's own setting, else 0.15).
        talk_margin: the same for talk turns, one number or one per role (`{"seer": 1.0, "*": 0.15}`,
            from Python or a TOML lineup; as text only one number); None: `margin` when the
            caller gives one, else the network's own setting, else its margin. A network trained on games with an
            exploring seat (`lycan.train.selfplay`) knows the alternatives it saw explored; where
            paired games show its talk choices losing for a role, a margin it cannot reach keeps
            that role's words the anchor's.
        network: a folder written by `lycan train value` (its `value.onnx` and `candidates.json`)
            to play with instead of the shipped default; `value` and `candidates` take precedence.
        rollouts: worlds per decision for search (`lycan.agents.rollout`; 0: none), one number or
            one per role like `talk_margin`; None: the network's own setting, else none. The
            proposal and the network's best candidates (every target of a vote or night action;
            `search_talk` utterances) are each played out in the same worlds drawn from the seat's
            beliefs, and the agent departs from the proposal for the candidate that won most only
            if it won clearly more often: by `search_margin` of the worlds and two standard
            deviations of a sign test (`lycan.agents.rollout.choose`; up to four times `rollouts`
            worlds while a candidate leads but not yet clearly). Search needs an anchor.
        search_margin: see `rollouts`.
        search_seconds: no world of a search is begun this many seconds after the request came,
            nor after half the request's own timeout (the choice is made on the worlds played by
            then), so a searching seat answers within a table's timeout; on a slower machine a
            search may stop earlier, and a replay with the same seeds may then differ. One number or
            one per role; None: the network's own setting, else 2.
        search_talk: talk candidates played out beside the proposal: the network's best that say
            something else than the proposal and one another, then for each other living seat the
            best utterance about it (0: talk is not searched); one number or one per role; None:
            the network's own setting, else 4.
        search_fit: the weight a searched world keeps for each answer of another seat that the
            base policy, in that world's roles, would not have given (`lycan.agents.rollout.misfits`):
            worlds that explain what the table did count most; 1 weighs every world alike. One number
            or one per role; None: the network's own setting, else 1.
        search_hold: 1 plays out, beside a searched talk proposal, holding back this turn: saying
            only that the seat has no strong suspicion yet (`HOLD`), and what the proposal held at a
            later turn, as the anchor would (once a game: see `_may_hold`); 0 does not. One number
            or one per role like `rollouts`; None: the network's own setting, else 0. When to come
            out is a seer's largest choice (whether the table believes it, and whom a rival
            claimant names), and a small one to the network, which rates words one turn at a time;
            its edge per decision is small, so it needs more worlds than other choices.

    A network folder may hold `play.json`, the settings chosen for it (`margin`, `talk_margin`,
    `rollouts`, `search_talk`, `search_fit`, `search_hold`, `search_seconds`), used where the caller
    gives none.
    """

    label = "deepwolf"

    def __init__(
        self,
        seed: int | None = None,
        *,
        value: ValueModel | None = None,
        candidates: Candidates | None = None,
        temperature: float = 0.0,
        anchor: Anchor = "heuristic",
        margin: Annotated[float | None, Maybe] = None,
        talk_margin: PerRoleFloat = None,
        network: str | Path | None = None,
        rollouts: PerRoleInt = None,
        search_margin: float = 0.05,
        search_seconds: PerRoleFloat = None,
        search_talk: PerRoleInt = None,
        search_fit: PerRoleFloat = None,
        search_hold: PerRoleInt = None,
    ) -> None:
        # options given as text (from a command line or a file) are read by the same types here
        given = _Options.model_validate(
            {
                "anchor": anchor,
                "temperature": temperature,
                "search_margin": search_margin,
                "margin": margin,
                "talk_margin": talk_margin,
                "rollouts": rollouts,
                "search_seconds": search_seconds,
                "search_talk": search_talk,
                "search_fit": search_fit,
                "search_hold": search_hold,
            }
        )
        folder = Path(network) if network is not None else None
        if folder is not None:
            if not (folder / "value.onnx").is_file():
                raise ValueError(f"{folder} holds no trained value network (value.onnx); see `lycan train value`")
            if value is None:
                value = OnnxValue(folder / "value.onnx")
            if candidates is None:
                candidates = Candidates.load(folder / "candidates.json")
        elif value is None:
            folder = default_dir()
        play = play_settings(folder)
        temperature = given.temperature
        talk_margin = given.talk_margin
        margin = given.margin
        if talk_margin is None:  # the caller's margin replaces all of the network's own settings
            talk_margin = _first(play.talk_margin, play.margin, DEFAULT_MARGIN) if margin is None else margin
        margin = _first(margin, play.margin, DEFAULT_MARGIN)
        self.talk_margins = _per_role(talk_margin, "talk_margin", float, rest=margin)
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, not {temperature}")
        self.rng = random.Random(seed)
        self.margin = margin
        self._anchor: SyncAgent | None = None
        if given.anchor is not None:
            from lycan.agents.heuristic import HeuristicAgent
            from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent

            kinds: dict[str, type[SyncAgent]] = {"heuristic": HeuristicAgent, "heuristic-beliefs": BeliefHeuristicAgent}
            self._anchor = kinds[given.anchor](seed)  # type: ignore[call-arg]
        self.temperature = temperature
        asked = given.rollouts is not None
        self.rollouts = _per_role(_first(given.rollouts, play.rollouts, 0), "rollouts", int)
        self.search_talk = _per_role(_first(given.search_talk, play.search_talk, 4), "search_talk", int)
        fit = _first(given.search_fit, play.search_fit, 1.0)
        self.search_fit = _per_role(fit, "search_fit", float, rest=1.0)
        holds = _per_role(_first(given.search_hold, play.search_hold, 0), "search_hold", int)
        if not all(v in (0, 1) for v in holds.values()):
            raise ValueError(f"search_hold must be 0 or 1 (per role), not {holds}")
        self.search_hold = holds
        if not all(0 < v <= 1 for v in self.search_fit.values()):
            raise ValueError(f"search_fit must be in (0, 1], not {fit}")
        self.search_margin = given.search_margin
        seconds = _first(given.search_seconds, play.search_seconds, 2.0)
        self.search_seconds = _per_role(seconds, "search_seconds", float, rest=2.0)
        if not all(0 < v < math.inf for v in self.search_seconds.values()):
            raise ValueError(f"search_seconds must be a positive number of seconds, not {seconds}")
        if self._anchor is None:
            if asked and any(self.rollouts.values()):
                raise ValueError("search needs an anchor (a proposal to depart from)")
            self.rollouts = {"*": 0}  # the network's own search setting assumes its anchor
        self._value = value
        self._candidates = candidates
        self._calls: list[ModelCall] = []
        self.calibration = (
            Calibration.load(folder) if folder is not None and (folder / CALIBRATION_FILE).is_file() else None
        )
        """The calibration stored beside the network (None: it has none, or the value model was given):
        the record notes each chosen candidate's P(win) calibrated, for `lycan replay --values`."""

    def worlds(self, role: str) -> int:
        """Worlds per searched decision for a seat in `role` (0: no search)."""
        return _of(self.rollouts, role)

    def talk_margin(self, role: str) -> float:
        """The margin a talk candidate must clear to replace the anchor's words, for a seat in `role`."""
        return _of(self.talk_margins, role)

    # ------------------------------------------------------------------ the network
    @property
    def value(self) -> ValueModel:
        """The value network (the shipped default, loaded on first use)."""
        if self._value is None:
            self._value = default_value()
        return self._value

    @property
    def candidates(self) -> Candidates:
        """The talk templates (those shipped with the default network, loaded on first use)."""
        if self._candidates is None:
            self._candidates = default_candidates()
        return self._candidates

    # ------------------------------------------------------------------ playing
    def decide(self, view: View, request: Request) -> Action:
        """Score every candidate for `request` and answer with the best (or a sample)."""
        return self.choose(view, request)

    def choose(self, view: View, request: Request, fresh: Sequence[Action] = ()) -> Action:
        """Like `decide`, with `fresh` utterances (written for this turn) scored beside the mined ones."""
        if request.kind == "probe":
            return self._probe(view, request)
        if request.kind == "whisper":
            return OVER
        options = self.options(view, request)
        options += [a for a in fresh if a not in options]
        proposal = self._anchor.decide(view, request) if self._anchor is not None else None
        if proposal is not None and request.check(proposal) is not None:
            self._overrule(request, proposal, OVER)  # an illegal proposal was not said
            proposal = None
        if proposal is not None and proposal not in options:
            options = [proposal, *options]
        may_hold = self._may_hold(view, request, proposal)
        added = may_hold and HOLD not in options
        if added:  # played out by the search only: never the network's own pick
            options.append(HOLD)
        hold = options.index(HOLD) if may_hold else None
        if len(options) <= 1:
            return options[0] if options else request.legal_actions()[0]
        started = time.monotonic()  # the clock the search's deadline is read on
        try:
            scores = self.value.score(view, request, options)
        except Exception as err:  # a broken network never breaks a game: first legal candidate
            self._note(request, view, [], options[0], started, error=f"{type(err).__name__}: {err}")
            self._overrule(request, proposal, options[0])
            return options[0]
        ranked = sorted(range(len(options)), key=lambda i: -scores[i])
        choice = next(i for i in ranked if not (added and i == hold))
        if proposal is not None:
            kept = options.index(proposal)
            need = self.talk_margin(view.role.value) if request.is_talk else self.margin
            if scores[choice] < scores[kept] + need:
                choice = kept
        searched, error = None, ""
        if proposal is not None and not request.attempt and self.worlds(view.role.value):
            choice, searched, error = self._search(
                view, request, options, ranked, options.index(proposal), choice, started, hold
            )
        if self.temperature > 0 and proposal is None:
            logits = [math.log(max(p, 1e-6) / max(1 - p, 1e-6)) / self.temperature for p in scores]
            top = max(logits)
            weights = [math.exp(x - top) for x in logits]
            choice = self.rng.choices(range(len(options)), weights=weights)[0]
        picked = options[choice]
        self._overrule(request, proposal, picked)
        best = [(options[i], scores[i]) for i in ranked[:KEEP_TOP]]
        anchor = (proposal, scores[options.index(proposal)]) if proposal is not None else None
        written = [(a, scores[options.index(a)]) for a in fresh if a in options]
        self._note(
            request,
            view,
            best,
            picked,
            started,
            chosen=scores[choice],
            proposal=anchor,
            fresh=written,
            searched=searched,
            error=error,
        )
        return picked

    def _overrule(self, request: Request, proposal: Action | None, picked: Action) -> None:
        """Tell the anchor when its words were not said, so what they held stays on its agenda."""
        if request.is_talk and proposal is not None and picked != proposal:
            overruled = getattr(self._anchor, "overruled", None)
            if callable(overruled):
                overruled(picked)

    def _search(
        self,
        view: View,
        request: Request,
        options: list[Action],
        ranked: list[int],
        kept: int,
        choice: int,
        started: float,
        hold: int | None = None,
    ) -> tuple[int, list[tuple[Action, float]] | None, str]:
        """Play the proposal and the network's best candidates out: the index chosen, each one's win rate, an error.

        Where nothing is played out (too few candidates, no world fits, a failure) the network's
        own `choice` stands; a failure comes back as the error the record notes.
        """
        from lycan.agents.rollout import Estimate, choose

        pool = (
            [kept, *(i for i in ranked if i != kept)]
            if not request.is_talk
            else self._talk_pool(view, options, ranked, kept, hold)
        )
        if len(pool) < 2:
            return choice, None, ""
        worlds = self.worlds(view.role.value)
        try:
            fit = _of(self.search_fit, view.role.value)
            est = Estimate(view, request, [options[i] for i in pool], self.rng, fit=fit)
            best = choose(
                est,
                first=worlds,
                most=worlds * SEARCH_ROUNDS,
                margin=self.search_margin,
                deadline=started + self._seconds(view, request),
            )
        except Exception as err:  # a search that fails leaves the network's choice
            return choice, None, f"search: {type(err).__name__}: {err}"
        if not est.worlds:
            return choice, None, ""
        return pool[best], [(options[i], est.rate(j)) for j, i in enumerate(pool)], ""

    def _seconds(self, view: View, request: Request) -> float:
        """How long after the request came a search may begin worlds: its setting, at most half the timeout."""
        seconds = _of(self.search_seconds, view.role.value)
        return min(seconds, request.timeout / 2) if request.timeout > 0 else seconds

    def _may_hold(self, view: View, request: Request, proposal: Action | None) -> bool:
        """Whether holding back (`HOLD`) is played out beside `proposal` now.

        Where `search_hold` asks and the decision is searched, for a proposal that says something
        the table's claim parser reads (holding back words that claim nothing changes nothing), and
        while `HOLD` is a legal candidate (within the length limits, and never said before: no
        sentence is said twice, so a seat holds back once a game). A world plays the held words at
        the seat's next turn, as its anchor then proposes them.
        """
        from lycan.beliefs.claims import parser_for

        role = view.role.value
        if not _of(self.search_hold, role) or request.kind != "talk" or request.attempt or not self.worlds(role):
            return False
        if proposal is None or proposal.kind != "speak" or proposal == HOLD:
            return False
        if not parser_for(view.names).parse(proposal.text, view.seat):
            return False
        return HOLD in Candidates({role: [HOLD.text]}).for_request(view, request)

    def _talk_pool(
        self, view: View, options: list[Action], ranked: list[int], kept: int, hold: int | None = None
    ) -> list[int]:
        """The proposal, holding back (`search_hold`), the network's best `search_talk` others, the best on each seat.

        Utterances are told apart by what the table's claim parser reads in them (claims, results,
        vote intentions, accusations): two that read the same are one candidate to play out. The
        utterances about each seat make sure that what a seat says of each other one (whom it will
        vote for, whom it accuses) is weighed, whatever the network ranks first.
        """
        from lycan.beliefs.claims import parser_for

        parser = parser_for(view.names)
        wanted = _of(self.search_talk, view.role.value)
        if not wanted:
            return [kept] if hold is None or hold == kept else [kept, hold]
        read = {i: parser.parse(options[i].text, view.seat) if options[i].text else () for i in ranked}

        def meaning(i: int) -> tuple[object, ...]:
            return (options[i].kind, *sorted(map(repr, read.get(i, ()))))

        seen, pool = {meaning(kept)}, [kept]

        def add(i: int) -> None:
            key = meaning(i)
            if key not in seen:
                seen.add(key)
                pool.append(i)

        if hold is not None:
            add(hold)

        for i in ranked:
            if len(pool) > wanted + (hold is not None):  # holding back is weighed beside the others
                break
            add(i)
        for seat in view.living_others():
            about = next(
                (i for i in ranked if any(st.target == seat for st in read[i]) and meaning(i) not in seen), None
            )
            if about is not None:
                add(about)
        return pool

    def options(self, view: View, request: Request) -> list[Action]:
        """Every candidate the agent weighs for `request`."""
        if request.is_talk:
            return self.candidates.for_request(view, request)
        if request.targets:
            out = [Action.choose(t) for t in request.targets]
            return [*out, PASS] if request.can_pass else out
        return list(request.legal_actions())

    def _probe(self, view: View, request: Request) -> Action:
        from lycan.beliefs.tracker import probe_answer

        return probe_answer(view, request)

    # ------------------------------------------------------------------ the record
    def _note(
        self,
        request: Request,
        view: View,
        top: list[tuple[Action, float]],
        picked: Action,
        started: float,
        *,
        chosen: float | None = None,
        proposal: tuple[Action, float] | None = None,
        fresh: Sequence[tuple[Action, float]] = (),
        searched: Sequence[tuple[Action, float]] | None = None,
        error: str = "",
    ) -> None:
        detail: dict[str, Any] = {
            "day": request.day,
            "chosen": [_describe(picked), chosen],
            "runner_up": [_describe(top[1][0]), top[1][1]] if len(top) > 1 else None,
            "top": [[_describe(a), round(v, 6)] for a, v in top],
            "proposal": [_describe(proposal[0]), proposal[1]] if proposal else None,
        }
        if chosen is not None and self.calibration is not None:
            detail["calibrated"] = round(self.calibration.apply(chosen, view.role.value), 6)
        if fresh:
            detail["fresh"] = [[_describe(a), round(v, 6)] for a, v in fresh]
        if searched:
            detail["searched"] = [[_describe(a), round(v, 4)] for a, v in searched]
        self._calls.append(
            ModelCall(
                seat=request.seat,
                request=request.id,
                kind=request.kind,
                attempt=request.attempt,
                model=RECORD_MODEL,
                latency_s=time.monotonic() - started,
                reasoning=json.dumps(detail),
                error=error,
            )
        )

    def drain_model_calls(self) -> list[ModelCall]:
        """The decisions' values since the last drain (the session files them in the record)."""
        calls, self._calls = self._calls, []
        return calls

    def begin_game(self, game_id: str, seat: int) -> None:
        """A new game starts: nothing carries over but the network."""
        self._calls.clear()
        begin = getattr(self._anchor, "begin_game", None)
        if callable(begin):
            begin(game_id, seat)


class DeepWolfChatAgent:
    """`deepwolf` with a chat model: `fresh` utterances written for each talk turn join the mined candidates.

    Beyond seed 000, which chose only among utterances mined from past games: at each public talk
    turn the chat model writes `fresh` utterances for this moment (the `llm` prompt of the seat's
    view, sampled at `temperature` with distinct seeds), each is checked as phrasings are
    (`lycan.agents.phrasing`: no error text, prompt echo, self-narration, self-reveal of a wolf, nor
    a village-side seat claiming a role it does not hold), and the value network scores the survivors
    beside the mined templates. Which fresh utterances were scored, and their values, are in the
    record. A model that fails or times out leaves the mined candidates alone.

    Args:
        model: the chat model that writes fresh utterances.
        seed: seeds the inner `DeepWolfAgent` and the sampling.
        fresh: utterances written per talk turn.
        temperature: sampling temperature of the fresh utterances.
        timeout: seconds the writing of one turn's utterances may take.
        **kw: `DeepWolfAgent` options.
    """

    label = "deepwolf"

    def __init__(
        self,
        model: ChatModel,
        seed: int,
        *,
        fresh: int = 3,
        temperature: float = 0.9,
        timeout: float = 30.0,
        **kw: Any,
    ) -> None:
        from lycan.agents.llm import LLMAgent

        if fresh < 1:
            raise ValueError(f"fresh must be at least 1, not {fresh}")
        self.inner = DeepWolfAgent(seed, **kw)
        self.seed = seed
        self.model = model
        self.fresh = fresh
        self.timeout = timeout
        self.writer = LLMAgent(model, seed, style="llm", talk="free", temperature=temperature)
        self.rejected = 0
        self.written = 0

    async def act(self, view: View, request: Request) -> Action:
        """Talk turns: write fresh utterances and score them with the mined ones; all else as `deepwolf`."""
        if request.kind != "talk" or request.attempt > 0:
            return self.inner.decide(view, request)
        try:
            fresh = await asyncio.wait_for(self._write(view, request), self.timeout)
        except TimeoutError:
            fresh = []
        return self.inner.choose(view, request, fresh)

    async def _write(self, view: View, request: Request) -> list[Action]:
        from lycan.agents.phrasing import check_fresh
        from lycan.models.base import ModelError

        out: list[Action] = []
        builder = self.writer.builder
        instructions = builder.system(view) + "\n" + builder.task(view, request)
        for i in range(self.fresh):
            self.writer.seed = self.seed * 31 + i  # a distinct sample per utterance, the same on replay
            try:
                action = await self.writer.act(view, request)
            except (ModelError, ValueError):
                continue
            self.written += 1
            if action.kind != "speak" or check_fresh(action.text, view, instructions):
                self.rejected += 1
                continue
            out.append(action)
        return out

    def drain_model_calls(self) -> list[ModelCall]:
        """The writer's model calls and the network's decisions since the last drain."""
        return [*self.writer.drain_model_calls(), *self.inner.drain_model_calls()]

    def begin_game(self, game_id: str, seat: int) -> None:
        """A new game: the writer's cache scope and the inner agent start afresh."""
        self.writer.begin_game(game_id, seat)
        self.inner.begin_game(game_id, seat)


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


Anchor = Annotated[Literal["heuristic", "heuristic-beliefs"] | None, BeforeValidator(_lower), Maybe]
"""Whose proposal the network departs from: a heuristic agent type, or None (the network alone)."""


class _Options(BaseModel):
    """The options as given, typed (text read as numbers, "none" as None); None: not given."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    anchor: Anchor
    temperature: float
    search_margin: float
    margin: Annotated[float | None, Maybe]
    talk_margin: PerRoleFloat
    rollouts: PerRoleInt
    search_seconds: PerRoleFloat
    search_talk: PerRoleInt
    search_fit: PerRoleFloat
    search_hold: PerRoleInt


def _first(*values: Any) -> Any:
    """The first value that is not None."""
    return next(v for v in values if v is not None)


def _per_role(
    value: float | Mapping[str, float], name: str, cast: Callable[[float], Number], *, rest: Number = 0
) -> dict[str, Number]:
    """A setting per role (`{"seer": 0, "*": 16}`) from one number or a mapping (roles it leaves out get `rest`)."""
    out = {str(k): cast(v) for k, v in value.items()} if isinstance(value, Mapping) else {"*": cast(value)}
    out.setdefault("*", rest)
    if any(v < 0 for v in out.values()):
        raise ValueError(f"{name} must be >= 0, not {value}")
    return out


def _of(table: Mapping[str, Number], role: str) -> Number:
    """A per-role setting's value for `role` (its `*` entry for roles it does not name)."""
    return table.get(role, table["*"])


def _describe(action: Action) -> str:
    if action.kind == "speak":
        return action.text or ""
    if action.kind == "choose":
        return f"choose {action.target}"
    return action.kind
