"""Speaking turns for training and measuring the Reasoner, from stored or self-played games.

A speaking turn is a seat's view at one of its public talk requests (replayed through
`lycan.data.decision_points`, so it holds only what that seat saw), with the game's true roles
for the correctness reward. Its prompt is the `camwolf` Reasoner's own, optionally shortened to
the last `log_lines` lines of the log and ended by a short description of the answer's format
(an unconstrained model, as in training, has no grammar to keep it to the template).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from lycan.agents.camwolf import ReasonerPrompt, reasoner_prompt
from lycan.causal.intervene import citable_ids
from lycan.data.samples import decision_points
from lycan.engine.actions import Request
from lycan.engine.record import GameRecord
from lycan.engine.view import View
from lycan.models.base import Message
from lycan.rules.roles import Role
from lycan.train.selfplay import held_out, self_play


@dataclass(frozen=True, slots=True)
class TalkTurn:
    """One speaking turn: what the seat saw when asked to talk, and the truth.

    Attributes:
        game_id: the game's id.
        seat: the seat that was asked to talk.
        view: its view then (its visible events only).
        request: the talk request.
        truth: every seat's true role.
    """

    game_id: str
    seat: int
    view: View
    request: Request
    truth: tuple[Role, ...]

    @property
    def key(self) -> str:
        """A stable name: game, seat and request."""
        return f"{self.game_id}:{self.seat}:{self.request.id}"


def turns_of(record: GameRecord, *, min_log: int = 2) -> Iterator[TalkTurn]:
    """The public speaking turns of `record` whose seat's log has at least `min_log` lines."""
    for point in decision_points(record):
        if point.request.kind != "talk" or not point.view.living_others():
            continue
        if len(citable_ids(point.view)) < min_log:
            continue
        yield TalkTurn(record.game_id, point.seat, point.view, point.request, record.roles)


def sample_turns(records: Iterable[GameRecord], n: int, rng: random.Random, *, min_log: int = 2) -> list[TalkTurn]:
    """`n` turns drawn uniformly without replacement from every speaking turn of `records` (all if fewer)."""
    every = [t for r in records for t in turns_of(r, min_log=min_log)]
    return every if len(every) <= n else rng.sample(every, n)


FORMAT_HINT = (
    'Answer with JSON only: {{"identifications": [{{"premises": [event ids from your log], '
    '"deduction": "why", "player": one of {players}, "role": one of {roles}}}]}}'
)


def kept_rows(prompt: ReasonerPrompt, log_lines: int | None) -> set[int] | None:
    """The public rows a prompt keeps with `log_lines` (its last so many; None: all of them).

    What only the seat saw is always kept.
    """
    if log_lines is None:
        return None
    ids = [i for i, _ in prompt.public]
    return set(ids[-log_lines:]) if log_lines > 0 else set()


def shown_ids(prompt: ReasonerPrompt, log_lines: int | None) -> set[int]:
    """The event ids a prompt cut to `log_lines` shows: the public rows kept and every private one."""
    keep = kept_rows(prompt, log_lines)
    return {i for i, _ in prompt.public if keep is None or i in keep} | {i for i, _ in prompt.private}


def turn_messages(turn: TalkTurn | View, *, log_lines: int | None = None, format_hint: bool = True) -> list[Message]:
    """The Reasoner's prompt for a turn (the `camwolf` agent's), shortened and with the format spelt out.

    Args:
        turn: a turn, or a seat's view.
        log_lines: keep only the last this many lines of the public log (None: the agent's own
            limit); the lines only the seat saw are all kept.
        format_hint: end the prompt with the answer's format in one line.
    """
    view = turn.view if isinstance(turn, TalkTurn) else turn
    prompt = reasoner_prompt(view)
    messages = prompt.messages(view, keep=kept_rows(prompt, log_lines))
    user = messages[-1]["content"]
    if format_hint:
        players = ", ".join(view.names[s] for s in view.living_others())
        roles = ", ".join(r.value for r in Role if r in view.rules.roles)
        user = f"{user}\n{FORMAT_HINT.format(players=players, roles=roles)}"
    return [messages[0], {"role": "user", "content": user}]


def self_play_records(preset: str, games: int, first_seed: int, agent: str = "heuristic") -> list[GameRecord]:
    """`games` self-play games of a rule-based agent type (`lycan.train.selfplay.self_play`)."""
    return list(self_play(preset, games, first_seed, agent))


def split_turns(turns: Sequence[TalkTurn], share: float) -> tuple[list[TalkTurn], list[TalkTurn]]:
    """Split by game (a game's turns all train or all measure): (train, held out)."""
    return [t for t in turns if not held_out(t.game_id, share)], [t for t in turns if held_out(t.game_id, share)]


__all__ = [
    "FORMAT_HINT",
    "TalkTurn",
    "held_out",
    "sample_turns",
    "self_play_records",
    "split_turns",
    "turn_messages",
    "turns_of",
]
