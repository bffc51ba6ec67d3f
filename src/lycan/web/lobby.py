"""Creating tables: validate what the creator asked for, deal seats, build the players."""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import confusables
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from lycan.agents import LLM_KINDS, SeatSpec, lineup
from lycan.agents.persona import AI_NAMES
from lycan.engine.seeds import fresh_seed, stream
from lycan.models.base import ChatModel
from lycan.rules import ConfigError, RuleSet, get_preset
from lycan.rules.text import for_terminal, name_problem, talk_problem
from lycan.web.audio import SpeechSynthesizer
from lycan.web.seats import AISeat, HumanSeat
from lycan.web.table import DEFAULT_NIGHT_MIN, DEFAULT_NIGHT_WAIT, Paradigm, WebTable

BASIC_KINDS = ("heuristic", "heuristic-beliefs", "deepwolf", "random")
MAX_NAME = 24
DEFAULT_MAX_WAIT = 180.0
"""Seconds a person may take over one decision at most, unless the server sets another cap."""
MAX_SEED = 2**128 - 1
DEFAULT_COST_BUDGET = 100_000
"""Seats x decisions a table's game may take (a heuristic aiwolf13 game took about 3,200 and a 50-seat
witch game about 15,000); then it ends as a draw, so that no table holds the server for a day."""


def _plain(text: str) -> str:
    """A request's string field, refused if it holds characters no page or log may show."""
    problem = talk_problem(text)
    if problem is not None:
        raise ValueError(problem.replace("the message", "the text", 1))
    return text


Plain = Annotated[str, AfterValidator(_plain)]


class TableError(ValueError):
    """A table that cannot be made as asked; the message says why, for the creator."""


class TableRequest(BaseModel):
    """What the creator of a table asks for."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    preset: Plain = Field("aiwolf5", max_length=40, description="aiwolf5, aiwolf13, guardian7, guardian5, witchN")
    humans: int = Field(1, ge=0, le=50, description="how many seats people take")
    names: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=list, max_length=50, description="the people's names, in seat order"
    )
    ai: Plain = Field("heuristic", max_length=20, description="agent type for the AI seats")
    seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="for replays and tests: whoever knows the seed can work out the deal, so tables with people "
        "take one only where the server allows it (`lycan serve --allow-seed`)",
    )
    timeout: float | None = Field(None, gt=0, le=3600, description="seconds per decision, for every seat")
    ai_delay: float | None = Field(None, ge=0, le=10, description="seconds an AI seat pauses before it answers")
    night_min: float | None = Field(
        None,
        ge=0,
        le=120,
        description="seconds each night lasts at least, so its length tells nothing (never below the server's)",
    )
    night_wait: float | None = Field(
        None,
        ge=0,
        le=120,
        description="seconds into each night at which people's night requests are shown (never below the server's)",
    )
    paradigm: Paradigm | None = Field(
        None,
        description="seed 002's interaction paradigms: text-text (typed in, AI seats answer in text), video-text "
        "(camera and voice in, AI seats answer in text), video-video (camera and voice in, AI seats answer with "
        "voice and animated face); none: whatever the server offers",
    )


def table_rules(spec: TableRequest, max_wait: float = DEFAULT_MAX_WAIT) -> RuleSet:
    """The preset `spec` names, with the timeout it asks for; no timeout is longer than `max_wait`.

    Raises:
        TableError: an unknown preset (files and custom deals are not read from the web), or a
            timeout beyond `max_wait`.
    """
    try:
        rules = get_preset(spec.preset)
    except ConfigError as err:
        raise TableError(str(err)) from None
    if spec.timeout is not None and spec.timeout > max_wait:
        raise TableError(
            f"a decision may take at most {max_wait:g} seconds on this server; ask for {max_wait:g} or less"
        )
    talk, action = rules.options.talk_timeout, rules.options.action_timeout
    if spec.timeout is not None:
        talk = action = spec.timeout
    talk, action = min(talk, max_wait), min(action, max_wait)
    if (talk, action) != (rules.options.talk_timeout, rules.options.action_timeout):
        options = rules.options.model_copy(update={"talk_timeout": talk, "action_timeout": action})
        rules = rules.model_copy(update={"options": options})
    return rules


def look_alike(name: str, others: list[str]) -> str | None:
    """The first of `others` that `name` could be mistaken for on screen (look-alike letters, case), or None.

    Uses Unicode's confusable characters (TR39, through the `confusables` package): "Rоwan" with a
    Cyrillic o is "Rowan", and so are "rowan" and "R0wan".
    """
    for other in others:
        if name.casefold() == other.casefold() or confusables.is_confusable(name, other):
            return other
    return None


def seat_names(spec: TableRequest, n: int, rng: random.Random) -> list[str]:
    """People's names first (given or `Guest N`), then AI names drawn with `rng`; all distinct.

    `rng` must be a stream of its own (`stream(seed, "names")`): AI names drawn from the stream
    that deals the roles would let anyone who sees them search for the seed and so every role.

    Raises:
        TableError: a name that is empty, too long, given twice, or that holds control or
            invisible characters.
    """
    people: list[str] = []
    for i in range(spec.humans):
        raw = spec.names[i] if i < len(spec.names) else ""
        problem = name_problem(raw)
        if problem is not None:
            raise TableError(problem)
        name = " ".join(unicodedata.normalize("NFC", raw).split())
        name = name or f"Guest {i + 1}"
        if len(name) > MAX_NAME:
            raise TableError(f"the name {for_terminal(name[:MAX_NAME])!r}... is longer than {MAX_NAME} characters")
        twin = look_alike(name, people)
        if twin is not None:
            raise TableError(
                f"the names {for_terminal(twin)!r} and {for_terminal(name)!r} look alike on screen; "
                "give each person a name the others can tell apart"
            )
        people.append(name)
    # AI names that look like a person's are left out of the pool (the people's names are public).
    pool = [a for a in AI_NAMES if look_alike(a, people) is None]
    rng.shuffle(pool)
    ai = pool[: n - len(people)]
    k = 1
    while len(ai) < n - len(people):
        name = f"Player {k}"
        if look_alike(name, people) is None:
            ai.append(name)
        k += 1
    return people + ai


class TableFactory:
    """Builds tables with the app's settings (store, voices, model)."""

    def __init__(
        self,
        store_path: str | Path | None,
        tts: SpeechSynthesizer | None,
        asr: bool,
        model_loader: Callable[[], ChatModel] | None,
        ai_delay: float,
        *,
        night_min: float = DEFAULT_NIGHT_MIN,
        night_wait: float = DEFAULT_NIGHT_WAIT,
        max_wait: float = DEFAULT_MAX_WAIT,
        allow_seed: bool = False,
        cost_budget: int | None = DEFAULT_COST_BUDGET,
        perception: bool = False,
    ) -> None:
        self.store_path = store_path
        self.perception = perception
        self.tts = tts
        self.asr = asr
        self.model_loader = model_loader
        self.ai_delay = ai_delay
        self.night_min = night_min
        self.night_wait = night_wait
        self.max_wait = max_wait
        self.allow_seed = allow_seed
        self.cost_budget = cost_budget

    def agent_kinds(self) -> list[str]:
        """The AI types a table may use here (LLM types only with a model configured)."""
        return [*BASIC_KINDS, *(sorted(LLM_KINDS) if self.model_loader is not None else [])]

    def paradigm_problem(self, paradigm: str | None) -> str | None:
        """Why this server cannot hold a table of `paradigm`, or None if it can."""
        if paradigm in ("video-text", "video-video") and not self.perception:
            return (
                f"the {paradigm} paradigm needs the camera perceiver, which is not installed on this server "
                "(./scripts/setup installs it with npm)"
            )
        if paradigm == "video-video" and self.tts is None:
            return "the video-video paradigm needs AI voices: start the server with --voice"
        return None

    def wants_model(self, spec: TableRequest, ai_kinds: Sequence[str] = ()) -> bool:
        """Whether the table `spec` asks for (with AI seats of `ai_kinds`, if given) needs the chat model."""
        kinds = [k.strip().lower() for k in ai_kinds] or [spec.ai.strip().lower()]
        return any(k in LLM_KINDS for k in kinds) and self.model_loader is not None

    def build(
        self,
        spec: TableRequest,
        model: ChatModel | None = None,
        *,
        ai_kinds: Sequence[str] | None = None,
        meta: Mapping[str, Any] | None = None,
        run: str = "web",
    ) -> WebTable:
        """A new table as `spec` asks, its game not yet started (`model` for LLM seats).

        `ai_kinds`: the agent type of each AI seat in seat order (default: `spec.ai` for all);
        `meta`: more to record with the game; `run`: the run its record is stored under.

        Raises:
            TableError: the request cannot be met; the message says why.
        """
        rules = table_rules(spec, self.max_wait)
        n = rules.n_players
        if spec.humans > n:
            raise TableError(f"{rules.name} has {n} seats; {spec.humans} people do not fit")
        ai_kind = spec.ai.strip().lower()
        wanted = [ai_kind] * (n - spec.humans) if ai_kinds is None else [k.strip().lower() for k in ai_kinds]
        if len(wanted) != n - spec.humans:
            raise TableError(f"{rules.name} has {n - spec.humans} AI seats; {len(wanted)} AI types were given")
        for kind in dict.fromkeys(wanted):
            if kind not in self.agent_kinds():
                extra = "" if self.model_loader else " (LLM seats need the server started with --model)"
                raise TableError(f"unknown AI type {kind!r}; choose one of {', '.join(self.agent_kinds())}{extra}")
        if spec.seed is not None and spec.humans > 0 and not self.allow_seed:
            raise TableError(
                "a table with people cannot take a chosen seed on this server: whoever knows the seed knows "
                "every role (the operator may allow it with --allow-seed, e.g. for tests)"
            )
        # The seed stays on the server until the game ends: whoever knows it knows the deal.
        seed = spec.seed if spec.seed is not None else fresh_seed()
        names = seat_names(spec, n, stream(seed, "names"))
        kinds = ["human"] * spec.humans + wanted
        delay = self.ai_delay if spec.ai_delay is None else spec.ai_delay
        problem = self.paradigm_problem(spec.paradigm)
        if problem is not None:
            raise TableError(problem)
        table = WebTable(
            secrets.token_urlsafe(9),
            rules,
            names,
            kinds,
            seed,
            store_path=self.store_path,
            tts=self.tts if spec.paradigm in (None, "video-video") else None,
            asr=self.asr and spec.paradigm != "text-text",
            paradigm=spec.paradigm,
            camera=self.perception and spec.paradigm != "text-text",
            meta=meta,
            run=run,
            # a creator may make the clock slower, never faster than the server's
            night_min=max(self.night_min, spec.night_min or 0.0),
            night_wait=max(self.night_wait, spec.night_wait or 0.0),
            ai_delay=delay,
            seed_chosen=spec.seed is not None,
            cost_budget=self.cost_budget,
        )
        llm_options = {
            "persona": "auto",
            "on_token": table.speech_piece,
            "on_manner": table.speech_manner,
            "scope": table.game_id,
        }
        agents = lineup(
            [
                None if kind == "human" else SeatSpec(kind, model, llm_options if kind in LLM_KINDS else {})
                for kind in kinds
            ],
            seed,
        )
        table.players = [
            HumanSeat(table, seat) if agent is None else AISeat(table, seat, agent, kinds[seat], delay)
            for seat, agent in enumerate(agents)
        ]
        return table
