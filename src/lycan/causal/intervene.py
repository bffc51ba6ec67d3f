"""Counterfactual premise intervention: remove one event from a seat's view and infer again.

The seed asks a 14B model to rewrite the game log without an observation (as a diff). Lycan's log
is typed and every event has an id, so removal is exact: `without(view, event_id)` is the seat's
view with that one event taken out and nothing else changed. Only events the seat saw can be
removed, and the result holds a subset of them, so an intervention never shows the seat anything
it could not see.

An intervention model re-infers one player's role from a view (`Intervener`): the belief engine's
posterior (`BeliefIntervener`, exact, milliseconds) or any chat model asked the Reasoner's prompt
about that player (`ChatIntervener`). `intervene` runs the seed's two interventions for each
correct identification of a Reasoner answer: each cited premise removed (relevant), and one event
cited by the other identifications but not this one (irrelevant).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from lycan.agents.camwolf import Identification, reasoner_prompt
from lycan.agents.parsing import load_json_object
from lycan.engine.view import View
from lycan.models.base import ChatModel, ChatRequest, Message, ModelError
from lycan.rules.roles import Role

Reference = Literal["conclusion", "unperturbed"]
"""What a re-inferred role is compared with: the Reasoner's conclusion (the seed), or the
intervention model's own answer on the untouched view (so that its disagreement with a correct
conclusion does not count as a change)."""
Pool = Literal["others", "log"]
"""Where the irrelevant premise is drawn from: the premises of the other identifications (the
seed), or any event of the seat's log this identification does not cite."""


def without(view: View, event_id: int) -> View:
    """`view` had event `event_id` not happened: that one event removed, everything else unchanged.

    Raises:
        KeyError: the seat did not see an event with that id (nothing hidden can be removed or named).
    """
    kept = tuple(e for e in view.events if e.id != event_id)
    if len(kept) == len(view.events):
        raise KeyError(f"event {event_id} is not in seat {view.seat}'s view")
    return replace(view, events=kept)


class Intervener(Protocol):
    """An intervention model: infers one player's role from a seat's view."""

    name: str

    async def infer(self, view: View, player: int) -> Role | None:
        """The role `view`'s seat would conclude for `player` (None: no answer)."""
        ...


@dataclass
class CallMeter:
    """How many inferences an intervention model made, and the time they took."""

    calls: int = 0
    seconds: float = 0.0


class BeliefIntervener:
    """The belief engine as intervention model: the most probable role in the posterior of the view.

    Args:
        model: the behaviour model (`"default"`: the preset's fitted one; None: certain knowledge only).
    """

    def __init__(self, model: Any = "default") -> None:
        self.name = "beliefs"
        self.model = model
        self.meter = CallMeter()

    def infer_now(self, view: View, player: int) -> Role | None:
        """Same as `infer`, synchronously."""
        from lycan.beliefs import posterior  # numpy: loaded on first use

        started = time.perf_counter()
        try:
            role, _ = posterior(view, self.model).top_role(player)
        except ValueError:
            return None
        finally:
            self.meter.calls += 1
            self.meter.seconds += time.perf_counter() - started
        return role

    async def infer(self, view: View, player: int) -> Role | None:
        """The most probable role of `player` given `view` (None when no deal fits the view)."""
        return self.infer_now(view, player)


def reasoner_messages(view: View) -> list[Message]:
    """The Reasoner's prompt for `view` (the `camwolf` agent's own, grounding off)."""
    return reasoner_prompt(view).messages(view)


def reinfer_messages(view: View, player: int) -> list[Message]:
    """The Reasoner's prompt with its task replaced by one question: `player`'s role."""
    prompt = reasoner_prompt(view)
    table, user = prompt.table, "\n".join(prompt.lines())
    roles = ", ".join(r.value for r in Role if r in view.rules.roles)
    question = (
        f'What is {view.names[player]}\'s role? Judge from your log alone. Answer in JSON: {{"role": one of {roles}}}.'
    )
    return [{"role": "system", "content": table}, {"role": "user", "content": f"{user}\n{question}"}]


class ChatIntervener:
    """A chat model as intervention model: asked the Reasoner's prompt about one player's role.

    Args:
        model: any `ChatModel` (schema-constrained where the backend allows).
        max_tokens: answer length.
        schema: constrain the answer to `{"role": ...}` with a JSON schema (off for backends
            that cannot, such as `hf:`).
    """

    def __init__(self, model: ChatModel, *, max_tokens: int = 16, schema: bool = True) -> None:
        self.model = model
        self.name = f"chat:{model.name}"
        self.max_tokens = max_tokens
        self.schema = schema
        self.meter = CallMeter()

    async def infer(self, view: View, player: int) -> Role | None:
        """The role the model gives `player` on `view` (None: no readable role)."""
        roles = [r.value for r in Role if r in view.rules.roles]
        schema = {
            "type": "object",
            "properties": {"role": {"type": "string", "enum": roles}},
            "required": ["role"],
            "additionalProperties": False,
        }
        request = ChatRequest(
            messages=reinfer_messages(view, player),
            max_tokens=self.max_tokens,
            temperature=0.0,
            seed=0,
            json_schema=schema if self.schema else None,
        )
        started = time.perf_counter()
        try:
            result = await self.model.chat(request)
        except ModelError:
            return None
        finally:
            self.meter.calls += 1
            self.meter.seconds += time.perf_counter() - started
        data = load_json_object(result.text)
        role = str(data.get("role", "")).strip().lower() if isinstance(data, dict) else result.text.strip().lower()
        return Role(role) if role in roles else None


def make_intervener(spec: str) -> Intervener:
    """`beliefs` (the belief engine) or a chat model spec (`local`, `openai:...`, ...).

    Raises:
        ModelError: the chat model cannot be set up.
    """
    if spec.strip().lower() == "beliefs":
        return BeliefIntervener()
    from lycan.models import load_model

    model = load_model(spec)
    return ChatIntervener(model, schema=not spec.startswith("hf:"))


@dataclass(frozen=True, slots=True)
class Intervention:
    """One removal and its outcome.

    Attributes:
        removed: the id of the event taken out of the view.
        relevant: a cited premise (True) or an event cited by another identification only (False).
        inferred: the role the intervention model gave the player without the event (None: none).
        changed: whether that differs from the reference (the seed's delta = 1).
    """

    removed: int
    relevant: bool
    inferred: Role | None
    changed: bool


@dataclass(frozen=True, slots=True)
class Checked:
    """One identification of an answer, judged against the truth and, if correct, intervened on.

    `relevant` and `irrelevant` are empty for a wrong conclusion (the seed intervenes on correct
    ones only) and for switched-off interventions; `irrelevant` is also empty when no other
    identification cites an event this one does not.
    """

    identification: Identification
    correct: bool
    relevant: tuple[Intervention, ...] = ()
    irrelevant: tuple[Intervention, ...] = ()


@dataclass(frozen=True, slots=True)
class InterventionPlan:
    """Which interventions to run.

    Attributes:
        relevant: remove each cited premise.
        irrelevant: remove one event cited by another identification but not this one.
        reference: what a re-inferred role is compared with (see `Reference`).
        pool: where the irrelevant event comes from (see `Pool`).
        only_correct: intervene on correct conclusions only (the seed); False measures every one
            (the faithfulness metric of an agent whose conclusions may be wrong).
    """

    relevant: bool = True
    irrelevant: bool = True
    reference: Reference = "conclusion"
    pool: Pool = "others"
    only_correct: bool = True


@dataclass
class _Job:
    index: int
    removed: int
    relevant: bool
    view: View
    player: int
    reference: Role | None
    result: Intervention | None = field(default=None)


def citable_ids(view: View) -> list[int]:
    """The ids of the events that have a line in the seat's log (what the Reasoner can cite)."""
    from lycan.render import event_line

    return [e.id for e in view.events if event_line(e, view) is not None]


async def intervene(
    view: View,
    identifications: Sequence[Identification],
    truth: Sequence[Role],
    intervener: Intervener,
    rng: random.Random,
    plan: InterventionPlan | None = None,
    *,
    concurrency: int = 1,
) -> list[Checked]:
    """Judge each identification against `truth` and run the planned interventions on it.

    Args:
        view: the seat's view the answer was given on.
        identifications: the answer's identifications (validated against `view`).
        truth: every seat's true role.
        intervener: the intervention model.
        rng: draws the irrelevant premise.
        plan: which interventions (default: the seed's).
        concurrency: inferences run at once (they are independent; a chat model with parallel
            slots answers them side by side).
    """
    plan = plan or InterventionPlan()
    seen = {e.id for e in view.events}
    log = citable_ids(view) if plan.pool == "log" else []
    jobs: list[_Job] = []
    baselines: dict[int, Role | None] = {}
    for index, ident in enumerate(identifications):
        correct = truth[ident.player] is ident.role
        if plan.only_correct and not correct:
            continue
        premises = [p for p in ident.premises if p in seen]
        if plan.reference == "unperturbed" and ident.player not in baselines:
            baselines[ident.player] = await intervener.infer(view, ident.player)
        reference = baselines[ident.player] if plan.reference == "unperturbed" else ident.role
        if plan.relevant:
            for p in premises:
                jobs.append(_Job(index, p, True, without(view, p), ident.player, reference))
        if plan.irrelevant:
            if plan.pool == "others":
                pool = [p for o in identifications if o is not ident for p in o.premises if p not in premises]
            else:
                pool = [i for i in log if i not in premises]
            pool = sorted(set(p for p in pool if p in seen))
            if pool:
                q = rng.choice(pool)
                jobs.append(_Job(index, q, False, without(view, q), ident.player, reference))
    gate = asyncio.Semaphore(max(1, concurrency))

    async def run(job: _Job) -> None:
        async with gate:
            inferred = await intervener.infer(job.view, job.player)
        job.result = Intervention(job.removed, job.relevant, inferred, inferred != job.reference)

    await asyncio.gather(*(run(job) for job in jobs))
    out: list[Checked] = []
    for index, ident in enumerate(identifications):
        done = [j.result for j in jobs if j.index == index and j.result is not None]
        out.append(
            Checked(
                ident,
                truth[ident.player] is ident.role,
                tuple(r for r in done if r.relevant),
                tuple(r for r in done if not r.relevant),
            )
        )
    return out


__all__ = [
    "BeliefIntervener",
    "CallMeter",
    "ChatIntervener",
    "Checked",
    "Intervener",
    "Intervention",
    "InterventionPlan",
    "Pool",
    "Reference",
    "citable_ids",
    "intervene",
    "make_intervener",
    "reasoner_messages",
    "reinfer_messages",
    "without",
]
