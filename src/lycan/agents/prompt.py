"""Prompts for the LLM players: templates from a directory, filled from one seat's `View` only.

Templates are `string.Template` text files (`$name` placeholders) in `lycan/agents/prompts/`:
`system.txt` (the table, the same for every seat), `seat.txt` and `role_<role>.txt` (who the seat
is) make the system prompt, `context.txt` the user message,
`task_<request kind>.txt` the task, `format_<style>_<talk|choose|probe>.txt` the answer format and
`retry.txt` the note shown when an answer was rejected. A directory given by the user overrides
any of these files by name; missing files fall back to the packaged ones.

Message layout keeps each seat's prefix stable for KV-cache reuse: the system prompt never
changes during a game; the user message starts with the notes of earlier days (they change once
a day), then today's log (it only grows), then the alive list and the task.
"""

from __future__ import annotations

import functools
import math
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from lycan.agents.memory import SeatMemory
from lycan.agents.parsing import Style
from lycan.engine.actions import PotionInfo, ProbeInfo, Request
from lycan.engine.events import Guarded, Talk, WitchWoken
from lycan.engine.view import View
from lycan.models.base import Message
from lycan.render import Line, neutralise
from lycan.rules.roles import Role

TokenCount = Callable[[str], int]

#: Every placeholder a template may use.
PLACEHOLDERS = frozenset(
    {
        "name",
        "n_players",
        "players",
        "role_counts",
        "role",
        "role_text",
        "persona",
        "wolves",
        "notes",
        "today",
        "day",
        "alive",
        "task",
        "targets",
        "max_length",
        "talk_rules",
        "format",
        "victim",
        "cures",
        "poisons",
        "last_guard",
        "error",
        "over",
        "roles",
        "beliefs",
        "act",
    }
)
TEMPLATE_NAMES = (
    "system",
    "seat",
    "context",
    "retry",
    *(f"role_{r.value}" for r in Role),
    *(
        f"task_{k}"
        for k in ("talk", "whisper", "vote", "attack", "divine", "guard", "cure", "poison", "shoot", "bid", "probe")
    ),
    *(f"format_{s}_{k}" for s in ("llm", "react", "recon") for k in ("talk", "choose", "probe")),
    "phrase_system",
    "phrase_user",
)
SEAT_PLACEHOLDERS = frozenset({"name", "role", "role_text", "persona", "wolves"})
"""What `seat.txt` may say and `system.txt` may not (the table is the same text for every seat)."""
KEEP_RECENT = 3
_OVER = {
    "llm": " If you have nothing to add, reply Over.",
    "react": ', or "Action: Over" if you have nothing to add',
    "recon": ' (or "Speech: Over" if you have nothing to add)',
}
"""Today's newest lines, kept even over less recent events when the budget is tight."""
MESSAGE_OVERHEAD = 4
"""Tokens a chat template adds around each message (role tags); counted on top of the text."""

UTTERANCE_CHARS = 200
"""What one utterance may hold (spaces not counted) when the rules set no cap, as the prompt says.

The contest's presets cap nothing; left uncapped, the small embedded model ran on listing names
until its token limit."""


def talk_limit(request: Request) -> int:
    """The characters (spaces not counted) this seat's utterance may have: the rules' cap, or ours."""
    return request.max_length or UTTERANCE_CHARS


def estimate_tokens(text: str) -> int:
    """A conservative token count when no tokenizer is known: one token per 3.5 characters."""
    return math.ceil(len(text) / 3.5)


def token_counter(model: object) -> TokenCount:
    """The model's own `count_tokens(text)` if it has one, else `estimate_tokens`."""
    count = getattr(model, "count_tokens", None)
    if callable(count):

        def counted(text: str) -> int:
            return int(count(text))

        return counted
    return estimate_tokens


@functools.cache
def _packaged(name: str) -> str:
    """A packaged template's text, read once per process (every LLM player of every game uses them)."""
    return resources.files("lycan.agents").joinpath("prompts", f"{name}.txt").read_text(encoding="utf-8").strip()


class PromptLibrary:
    """The prompt templates, read once; `directory` overrides the packaged files by name.

    Raises:
        ValueError: a template uses an unknown `$placeholder` (the message names file and placeholder).
    """

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else None
        if self.directory is not None and not self.directory.is_dir():
            raise ValueError(f"prompt directory {self.directory} does not exist; give a folder of .txt templates")
        self._templates: dict[str, string.Template] = {}
        for name in TEMPLATE_NAMES:
            template = string.Template(self._read(name))
            if not template.is_valid():
                raise ValueError(f"prompt template {name}.txt has a stray '$'; write '$$' for a dollar sign")
            unknown = set(template.get_identifiers()) - PLACEHOLDERS
            if unknown:
                raise ValueError(
                    f"prompt template {name}.txt uses unknown placeholder(s) {', '.join(sorted(unknown))}; "
                    f"known ones are {', '.join(sorted(PLACEHOLDERS))}"
                )
            if name == "system" and set(template.get_identifiers()) & SEAT_PLACEHOLDERS:
                raise ValueError(
                    "prompt template system.txt describes the table, the same for every seat; who the seat is "
                    f"({', '.join(sorted(set(template.get_identifiers()) & SEAT_PLACEHOLDERS))}) goes in seat.txt"
                )
            self._templates[name] = template

    def _read(self, name: str) -> str:
        if self.directory is not None:
            path = self.directory / f"{name}.txt"
            if path.is_file():
                return path.read_text(encoding="utf-8").strip()
        return _packaged(name)

    def render(self, template: str, /, **values: Any) -> str:
        """Fill the template called `template`; placeholders not given are left empty."""
        filled = {key: "" for key in PLACEHOLDERS}
        filled.update({k: str(v) for k, v in values.items()})
        return self._templates[template].substitute(filled)


@dataclass(frozen=True, slots=True)
class Prompt:
    """The messages of one model call and their counted size."""

    messages: list[Message]
    prompt_tokens: int
    dropped_lines: int = 0


BELIEF_ROLES = 3
"""Roles shown per seat in the belief engine's summary (the most probable first)."""


def belief_summary(view: View, seats: Sequence[int], top: int = BELIEF_ROLES) -> str:
    """The exact belief engine's chances for `seats`, one line each: `Player 3: werewolf 0.62, villager 0.38`.

    They weigh every deal that fits what the seat knows for certain by how likely the public talk
    and votes are under it (`lycan.beliefs`); an impossible log gives "".
    """
    from lycan.beliefs import posterior  # numpy: loaded only when the summary is asked for

    try:
        post = posterior(view)
    except ValueError:
        return ""
    lines = []
    for seat in seats:
        ranked = sorted(post.role_probabilities(seat).items(), key=lambda kv: -kv[1])[:top]
        chances = ", ".join(f"{role.value} {p:.2f}" for role, p in ranked)
        lines.append(f"{neutralise(view.names[seat], 40)}: {chances}")
    return "\n".join(lines)


def _names(view: View, seats: Sequence[int]) -> str:
    return ", ".join(neutralise(view.names[s], 40) for s in seats) or "nobody"


def _quote_blocks(lines: Sequence[Line]) -> str:
    """Today's lines, with runs of utterances inside BEGIN/END QUOTED TALK blocks."""
    out: list[str] = []
    in_block = False
    for line in lines:
        if line.speaker is not None:
            if not in_block:
                out.append("BEGIN QUOTED TALK")
                in_block = True
            tag = " (whisper)" if line.channel == "whisper" else ""
            seen = f" {line.seen}" if line.seen else ""
            out.append(f'{line.speaker}{tag}: "{line.text}"{seen}')
        else:
            if in_block:
                out.append("END QUOTED TALK")
                in_block = False
            out.append(line.text)
    if in_block:
        out.append("END QUOTED TALK")
    return "\n".join(out)


def _lines(text: str) -> str:
    """`text` without its blank lines."""
    return "\n".join(line for line in text.splitlines() if line.strip())


class PromptBuilder:
    """Builds the messages for one seat's request within a token budget."""

    def __init__(
        self,
        library: PromptLibrary,
        style: Style,
        *,
        persona: str | None = None,
        max_prompt_tokens: int = 1536,
        count: TokenCount = estimate_tokens,
        probe_beliefs: bool = False,
    ) -> None:
        self.library = library
        self.style = style
        self.probe_beliefs = probe_beliefs
        self.persona = neutralise(persona, 200) if persona else ""
        self.max_prompt_tokens = max_prompt_tokens
        self.count = count
        self.memory = SeatMemory()
        self._costs: dict[str, int] = {}

    def _cost(self, text: str) -> int:
        """Tokens of one line (cached: a line's count never changes)."""
        cost = self._costs.get(text)
        if cost is None:
            if len(self._costs) > 20_000:
                self._costs.clear()
            cost = self._costs[text] = self.count(text)
        return cost

    def system(self, view: View) -> str:
        """The system prompt: the table (the same for every seat: they share its KV cache), then who this seat is."""
        return f"{self.table(view)}\n{self.identity(view)}"

    def table(self, view: View) -> str:
        """The game as every seat is told it: players and roles dealt (no seat's secret)."""
        counts = ", ".join(f"{view.rules.roles[r]} {r.value}" for r in Role if r in view.rules.roles)
        text = self.library.render(
            "system", n_players=view.n_players, players=_names(view, range(view.n_players)), role_counts=counts
        )
        return _lines(text)

    def identity(self, view: View) -> str:
        """Who this seat is: its name, secret role, the role's brief and its persona."""
        lib = self.library
        wolves = [w for w in view.wolves() if w != view.seat]
        wolf_text = _names(view, wolves) if wolves else "none (you are the only werewolf)"
        name = neutralise(view.name, 40)
        role_text = lib.render(f"role_{view.role.value}", wolves=wolf_text, name=name)
        text = lib.render(
            "seat",
            name=name,
            role=view.role.value,
            role_text=role_text,
            persona=f"Your manner of speaking: {self.persona}" if self.persona else "",
            wolves=wolf_text,
        )
        return _lines(text)

    def task(self, view: View, request: Request) -> str:
        """The instruction for this request, with the answer format and any retry note last."""
        lib = self.library
        kind = request.kind
        fmt = ""
        if kind in ("talk", "whisper"):
            # Offer "Over" only once the seat has spoken today: small models otherwise pass every turn.
            spoke = any(
                isinstance(e, Talk)
                and e.actor == view.seat
                and e.day == view.day
                and e.channel == kind
                and not (e.over or e.skip)
                for e in view.events
            )
            fmt = lib.render(f"format_{self.style}_talk", over=_OVER[self.style] if spoke else "")
        elif kind == "probe":
            fmt = lib.render(f"format_{self.style}_probe")
        elif kind != "bid":
            fmt = lib.render(f"format_{self.style}_choose")
        targets = [view.names[t] for t in request.targets]
        if request.can_pass and kind != "probe":
            targets.append("none")
        rules = ""
        if request.is_talk and request.talk.no_repeat:
            rules = " Never repeat a sentence you said before."
        witch = next(iter(reversed([e for e in view.events if isinstance(e, WitchWoken)])), None)
        victim = request.info.attacked if isinstance(request.info, PotionInfo) else (witch.attacked if witch else None)
        guards = [e for e in view.events if isinstance(e, Guarded)]
        last_guard = ""
        if kind == "guard" and guards:
            repeat = "" if view.rules.options.guardian_repeat else " (you may not protect the same one twice in a row)"
            last_guard = f"Last time you protected {neutralise(view.names[guards[-1].target], 40)}{repeat}."
        wolves = [w for w in view.wolves() if w != view.seat]
        roles = request.info.roles if isinstance(request.info, ProbeInfo) else ()
        beliefs = ""
        if kind == "probe" and self.probe_beliefs:
            summary = belief_summary(view, request.targets)
            if summary:
                beliefs = (
                    "\nChances from what you know for certain (your role, your night results, deaths), "
                    "weighed by the claims and votes so far:\n" + summary
                )
        text = lib.render(
            f"task_{kind}",
            name=neutralise(view.name, 40),
            day=view.day,
            targets=", ".join(neutralise(t, 40) for t in targets),
            max_length=talk_limit(request),
            talk_rules=rules,
            format=fmt,
            victim=neutralise(view.names[victim], 40) if isinstance(victim, int) else "nobody",
            cures=witch.cures if witch else 0,
            poisons=witch.poisons if witch else 0,
            last_guard=last_guard,
            wolves=_names(view, wolves) if wolves else "only you",
            roles=", ".join(roles),
            beliefs=beliefs,
        )
        if request.attempt > 0 and request.error:
            text += "\n" + lib.render("retry", error=neutralise(request.error, 300))
        return text

    def build(self, view: View, request: Request) -> Prompt:
        """The messages for `request`, fitted to `max_prompt_tokens`.

        When over budget, the oldest notes go first (notes keep at least 40% of the room if they
        need it), then today's oldest utterances, and today's other events (deaths, votes,
        results) only last; a line says how many were left out. The newest lines always stay.
        """
        system = self.system(view)
        task = self.task(view, request)
        notes = self.memory.notes(view)
        today = self.memory.today(view)
        alive = _names(view, view.living())
        dropped: set[int] = set()
        recent = max(0, len(today) - KEEP_RECENT)
        drop_order = [i for i in range(recent) if today[i].speaker is not None]
        drop_order += [i for i in range(recent) if today[i].speaker is None]
        drop_order += list(range(recent, len(today)))

        def render(n_keep: int) -> str:
            kept_notes = notes[len(notes) - n_keep :]
            note_text = "\n".join(
                ([f"({len(notes) - n_keep} older notes left out)"] if n_keep < len(notes) else []) + kept_notes
            )
            today_text = _quote_blocks([line for i, line in enumerate(today) if i not in dropped])
            if dropped:
                today_text = f"({len(dropped)} earlier lines of today left out)\n" + today_text
            return self.library.render(
                "context",
                notes=note_text or "(none yet)",
                today=today_text or "(nothing yet)",
                day=view.day,
                alive=alive,
                task=task,
            )

        def size(user: str) -> int:
            return self.count(system) + self.count(user) + 2 * MESSAGE_OVERHEAD

        budget = self.max_prompt_tokens
        dropped.update(range(len(today)))
        room = budget - size(render(0))  # with every optional line left out
        dropped.clear()
        note_cost = [self._cost(n) + 1 for n in notes]
        line_cost = [self._cost(line.text + line.seen) + 4 for line in today]
        n_keep = len(notes)
        notes_total, today_total = sum(note_cost), sum(line_cost)
        if notes_total + today_total > room:
            note_room = max(room - today_total, int(room * 0.4))
            while n_keep and notes_total > note_room:
                notes_total -= note_cost[len(notes) - n_keep]
                n_keep -= 1
            for i in drop_order:
                if today_total <= room - notes_total or len(dropped) >= recent:
                    break
                dropped.add(i)
                today_total -= line_cost[i]
        user = render(n_keep)
        total = size(user)
        while total > budget and (n_keep or len(dropped) < len(today)):
            if n_keep:
                n_keep -= 1
            else:
                dropped.add(next(i for i in drop_order if i not in dropped))
            user = render(n_keep)
            total = size(user)
        messages: list[Message] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        return Prompt(messages, total, (len(notes) - n_keep) + len(dropped))
