"""Creating tables: validate what the creator asked for, deal seats, build the players."""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from lycan.agents import LLM_KINDS, SeatSpec, lineup
from lycan.engine.seeds import fresh_seed, stream
from lycan.models.base import ChatModel
from lycan.rules import ConfigError, RuleSet, get_preset
from lycan.web.audio import SpeechSynthesizer
from lycan.web.seats import AISeat, HumanSeat
from lycan.web.table import DEFAULT_NIGHT_MIN, Table

AI_NAMES = (
    "Aster", "Bramble", "Cedar", "Dune", "Ember", "Fern", "Garnet", "Hazel", "Iris", "Juniper",
    "Kestrel", "Linden", "Moss", "Nettle", "Onyx", "Pippin", "Quill", "Rowan", "Sage", "Thistle",
    "Umber", "Vale", "Willow", "Yarrow", "Zephyr",
)  # fmt: skip
"""Names for AI seats (fictional, never real people)."""

BASIC_KINDS = ("heuristic", "heuristic-beliefs", "deepwolf", "random")
MAX_NAME = 24
DEFAULT_MAX_WAIT = 180.0
"""Seconds a person may take over one decision at most, unless the server sets another cap."""
MAX_SEED = 2**128 - 1

_INVISIBLE = {"Cc": "a control character", "Cf": "an invisible formatting character", "Co": "a private-use character"}
_INVISIBLE |= {"Cs": "a lone surrogate", "Cn": "an unassigned character", "Zl": "a line break", "Zp": "a line break"}


class TableError(ValueError):
    """A table that cannot be made as asked; the message says why, for the creator."""


class TableRequest(BaseModel):
    """What the creator of a table asks for."""

    model_config = ConfigDict(extra="forbid")

    preset: str = Field("aiwolf5", max_length=40, description="aiwolf5, aiwolf13, guardian7, guardian5, witchN")
    humans: int = Field(1, ge=0, le=50, description="how many seats people take")
    names: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=list, max_length=50, description="the people's names, in seat order"
    )
    ai: str = Field("heuristic", max_length=20, description="agent type for the AI seats")
    seed: int | None = Field(
        None, ge=0, le=MAX_SEED, description="for replays and tests: whoever knows the seed can work out the deal"
    )
    timeout: float | None = Field(None, gt=0, le=3600, description="seconds per decision, for every seat")
    ai_delay: float | None = Field(None, ge=0, le=10, description="seconds an AI seat pauses before it answers")
    night_min: float | None = Field(
        None, ge=0, le=120, description="seconds each night lasts at least, so its length tells nothing"
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


def name_problem(name: str) -> str | None:
    """Why `name` cannot be shown to the table (control, invisible or direction-changing characters), or None."""
    bad = [ch for ch in name if unicodedata.category(ch) in _INVISIBLE]
    if not bad:
        return None
    first = bad[0]
    label = unicodedata.name(first, "")
    shown = "".join(f"<U+{ord(ch):04X}>" if ch in bad else ch for ch in name)
    return (
        f"the name {shown!r} contains {_INVISIBLE[unicodedata.category(first)]} "
        f"(U+{ord(first):04X}{' ' + label if label else ''}); use visible letters, digits, spaces and punctuation"
    )


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
        name = " ".join(raw.split())
        name = name or f"Guest {i + 1}"
        if len(name) > MAX_NAME:
            raise TableError(f"the name {name[:MAX_NAME]!r}... is longer than {MAX_NAME} characters")
        if name.lower() in (p.lower() for p in people):
            raise TableError(f"two people are called {name!r}; give each a different name")
        people.append(name)
    taken = {p.lower() for p in people}
    pool = [a for a in AI_NAMES if a.lower() not in taken]
    rng.shuffle(pool)
    ai = pool[: n - len(people)]
    k = 1
    while len(ai) < n - len(people):
        name = f"Player {k}"
        if name.lower() not in taken:
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
        max_wait: float = DEFAULT_MAX_WAIT,
    ) -> None:
        self.store_path = store_path
        self.tts = tts
        self.asr = asr
        self.model_loader = model_loader
        self.ai_delay = ai_delay
        self.night_min = night_min
        self.max_wait = max_wait

    def agent_kinds(self) -> list[str]:
        """The AI types a table may use here (LLM types only with a model configured)."""
        return [*BASIC_KINDS, *(sorted(LLM_KINDS) if self.model_loader is not None else [])]

    def wants_model(self, spec: TableRequest) -> bool:
        """Whether the table `spec` asks for needs the chat model."""
        return spec.ai.strip().lower() in LLM_KINDS and self.model_loader is not None

    def build(self, spec: TableRequest, model: ChatModel | None = None) -> Table:
        """A new table as `spec` asks, its game not yet started (`model` for LLM seats).

        Raises:
            TableError: the request cannot be met; the message says why.
        """
        rules = table_rules(spec, self.max_wait)
        n = rules.n_players
        if spec.humans > n:
            raise TableError(f"{rules.name} has {n} seats; {spec.humans} people do not fit")
        ai_kind = spec.ai.strip().lower()
        if spec.humans < n and ai_kind not in self.agent_kinds():
            extra = "" if self.model_loader else " (LLM seats need the server started with --model)"
            raise TableError(f"unknown AI type {spec.ai!r}; choose one of {', '.join(self.agent_kinds())}{extra}")
        # The seed stays on the server until the game ends: whoever knows it knows the deal.
        seed = spec.seed if spec.seed is not None else fresh_seed()
        names = seat_names(spec, n, stream(seed, "names"))
        kinds = ["human"] * spec.humans + [ai_kind] * (n - spec.humans)
        table = Table(
            secrets.token_urlsafe(9),
            rules,
            names,
            kinds,
            seed,
            store_path=self.store_path,
            tts=self.tts,
            asr=self.asr,
            night_min=self.night_min if spec.night_min is None else spec.night_min,
        )
        delay = self.ai_delay if spec.ai_delay is None else spec.ai_delay
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
